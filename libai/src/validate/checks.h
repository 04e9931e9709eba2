#pragma once
// Small helpers shared by the document validators (internal).
#include "spark/ai/validate.h"

#include <cmath>
#include <string>
#include <vector>

namespace spark::ai::detail
{

/// "object", "array", "string", "number", "boolean", "null".
inline const char* jsonTypeName(const json& v)
{
    if (v.is_object())
        return "object";
    if (v.is_array())
        return "array";
    if (v.is_string())
        return "string";
    if (v.is_number())
        return "number";
    if (v.is_boolean())
        return "boolean";
    return "null";
}

inline bool isFiniteNumber(const json& v) { return v.is_number() && std::isfinite(v.get<double>()); }

inline void addProblem(std::vector<Problem>& io, const char* code, std::string message, std::string path,
                       std::string hint = {})
{
    io.push_back(Problem{code, std::move(message), std::move(path), std::move(hint)});
}

/// "did you mean 'x'?" or a list of the allowed names when none is near.
inline std::string suggestName(std::string_view name, const std::vector<std::string>& known)
{
    const std::string near = nearestName(name, known);
    if (!near.empty())
        return "did you mean '" + near + "'?";
    std::string all = "known: ";
    for (size_t i = 0; i < known.size(); ++i)
        all += (i ? ", " : "") + known[i];
    return all;
}

/// Reports every key of `obj` not in `allowed` (code `code`).
inline void checkKeys(const json& obj, const std::string& path, const std::vector<std::string>& allowed,
                      const char* code, const char* what, std::vector<Problem>& io)
{
    for (auto it = obj.begin(); it != obj.end(); ++it)
    {
        bool known = false;
        for (const std::string& a : allowed)
            known |= a == it.key();
        if (!known)
            addProblem(io, code, std::string("unknown property '") + it.key() + "' in " + what,
                       pointerJoin(path, it.key()), suggestName(it.key(), allowed));
    }
}

/// Checks the fields every AI document shares: `version` (the integer 1), `name`
/// (a non-empty string of at most 128 characters) and an optional string `description`.
inline void checkDocumentHeader(const json& doc, std::vector<Problem>& problems)
{
    if (!doc.contains("version"))
        addProblem(problems, kCodeSchema, "the document has no 'version'", "", "add \"version\": 1");
    else if (!(doc["version"].is_number_integer() && doc["version"].get<int64_t>() == 1))
        addProblem(problems, kCodeSchema, "'version' must be 1", "/version", "expected the integer 1");
    if (!doc.contains("name"))
        addProblem(problems, kCodeSchema, "the document has no 'name'", "", "add \"name\": a non-empty string");
    else if (!doc["name"].is_string() || doc["name"].get_ref<const std::string&>().empty() ||
             doc["name"].get_ref<const std::string&>().size() > 128)
        addProblem(problems, kCodeSchema, "'name' must be a non-empty string (at most 128 characters)", "/name",
                   "expected a string");
    if (doc.contains("description") && !doc["description"].is_string())
        addProblem(problems, kCodeSchema, "'description' must be a string", "/description", "expected a string");
}

} // namespace spark::ai::detail
