#pragma once
/// \file schemas.h
/// Command schemas (`schemas/commands/<id>.schema.json`, embedded) and their
/// validation with valijson: every problem is reported as `{path, message}`
/// with `path` a JSON pointer into the validated document.

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace spark::cli
{

using json = nlohmann::json;

/// One validation problem.
struct SchemaProblem
{
    std::string path;    ///< JSON pointer ("" is the document itself).
    std::string message; ///< What is wrong.
};

/// A compiled JSON Schema (draft-07).
class CompiledSchema
{
public:
    /// Compiles `schema`; returns null and sets `outError` when it is not a valid schema.
    static std::unique_ptr<CompiledSchema> compile(const json& schema, std::string& outError);
    ~CompiledSchema();
    /// Validates `doc`; returns every problem (empty when valid), deduplicated, in document order.
    std::vector<SchemaProblem> validate(const json& doc) const;

private:
    CompiledSchema();
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

/// A command's schema document and its compiled params/result schemas.
struct CommandSchema
{
    std::string id;
    json document;                          ///< The whole schema file.
    std::unique_ptr<CompiledSchema> params; ///< Compiled `params`.
    std::unique_ptr<CompiledSchema> result; ///< Compiled `result`.
};

/// The schema of a command, compiled on first use; null when there is none.
const CommandSchema* findCommandSchema(std::string_view id);

/// Compiles a schema document given inline (not embedded); null when invalid.
std::unique_ptr<CommandSchema> compileCommandSchema(std::string_view id, const json& document);

/// Ids of every embedded command schema file, sorted.
std::vector<std::string> embeddedCommandSchemaIds();

/// Checks a command schema file's structure and that its schemas compile;
/// returns the problems (empty when fine).
std::vector<std::string> checkCommandSchemaDocument(std::string_view id, const json& document);

} // namespace spark::cli
