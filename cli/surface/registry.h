#pragma once
/// \file registry.h
/// The command table: `{id, handler, mutates}`; each command's schema is the file
/// `schemas/commands/<id>.schema.json`, embedded into the binary at build time.
///
/// A command file registers itself with a static `Registrar`:
///
///     namespace {
///     json navPath(Context& ctx, const json& params) { ... return result; }
///     const Registrar kNavPath{{"nav.path", navPath, Mutates::No}};
///     }
///
/// Params reach the handler already validated against the schema. A handler
/// reports a failure by calling `fail(...)` (or `failWith(error)` for a library
/// `spark::Error`); the dispatcher turns it into the error envelope. Mutating
/// handlers change the state in place and must validate everything before they
/// write anything, so a failure leaves the state as it was (tests check the
/// state hash around every failing mutating command).

#include "spark/ai/leaf_registry.h"
#include "spark/core/result.h"
#include "spark/scene/session_state.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace spark::cli
{

using json = nlohmann::json;

class Dispatcher;

/// A command failure, thrown by handlers and caught by the dispatcher's one boundary.
struct CommandError
{
    std::string code;                     ///< `E_*` code.
    std::string message;                  ///< One sentence.
    json data = json::object();           ///< Extra data (e.g. `{"path": "/from"}`, `{"expected", "actual"}`).
    std::string hint;                     ///< Optional suggestion.
};

/// Fails the running command.
[[noreturn]] void fail(std::string code, std::string message, json data = json::object(), std::string hint = {});
/// Fails the running command with a library error. `fieldPrefix` is prepended to
/// the error's field (a JSON pointer) to give the path in the params.
[[noreturn]] void failWith(const spark::Error& error, std::string_view fieldPrefix = {});

/// What a handler sees besides its params.
struct Context
{
    scene::SessionState& state;          ///< The session state.
    std::filesystem::path projectRoot;   ///< Every user path is relative to this.
    Dispatcher* dispatcher = nullptr;    ///< For commands that run other commands (scenarios).
    bool updateGoldens = false;          ///< Set by `spark test --update-goldens` / `update_goldens: true`.
    bool verbose = false;                ///< CLI verbose mode (timings allowed in answers).
    const ai::LeafRegistry* leafRegistry = nullptr; ///< The host's leaves (null: the built-ins).

    /// The leaves trees and utility documents may use: the host's registry, else the built-ins.
    const ai::LeafRegistry& leaves() const;

    /// Resolves a user path inside the project; fails with `E_PATH` naming `field`.
    std::filesystem::path resolvePath(std::string_view relative, std::string_view field) const;
};

/// Whether a command can change the session state.
enum class Mutates
{
    No,       ///< Reads only.
    Yes,      ///< Changes the state in place; validates everything before it writes.
    Composite ///< Runs other commands: the dispatcher snapshots the state and restores it on failure.
};

using Handler = std::function<json(Context&, const json& params)>;

/// What a command does besides `Mutates`, for clients that ask before they call
/// (the MCP tool annotations). The defaults claim nothing.
struct CommandHints
{
    /// Replaces or drops state (a scene, a mesh, an agent, an object) or overwrites
    /// a file the user may care about, rather than only adding to it.
    bool destructive = false;
    /// Calling it again with the same params changes nothing more.
    bool idempotent = false;
    /// Writes files in the project even when it leaves the session state alone.
    bool writesFiles = false;
};

/// One registered command.
struct CommandDef
{
    std::string id;
    Handler handler;
    Mutates mutates = Mutates::Yes;
    /// The schema document, when not the embedded `schemas/commands/<id>.schema.json`
    /// (commands an embedding host or a test registers at run time).
    json inlineSchema = nullptr;
    /// Destructive / idempotent / writes files (MCP annotations).
    CommandHints hints = {};
};

/// The process-wide table of commands, ordered by id.
class Registry
{
public:
    static Registry& global();
    void add(CommandDef def);
    const CommandDef* find(std::string_view id) const;
    const std::map<std::string, CommandDef, std::less<>>& all() const { return m_commands; }

private:
    std::map<std::string, CommandDef, std::less<>> m_commands;
};

/// Registers a command at static-initialisation time.
struct Registrar
{
    explicit Registrar(CommandDef def) { Registry::global().add(std::move(def)); }
};

} // namespace spark::cli
