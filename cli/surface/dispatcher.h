#pragma once
/// \file dispatcher.h
/// The one error boundary: a request in, an envelope out, never an exception.
///
///     {"command": ID, "params": {...}}  ->  {"ok": true, "result": {...}}
///                                       or  {"ok": false, "error": {"code", "message", "data", "hint"}}
///
/// Params are validated against the command's schema first (`E_INVALID_PARAMS`
/// listing every problem with its JSON path). Mutating commands change the state
/// in place after validating everything; a composite command (a scenario) runs
/// on a snapshot restored on failure. Either way a failed command changes nothing.

#include "surface/registry.h"
#include "surface/schemas.h"

#include <cstdint>
#include <map>
#include <memory>

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace spark::cli
{

/// How a dispatcher runs commands.
struct DispatchOptions
{
    std::filesystem::path projectRoot = "."; ///< Root of every user path.
    bool updateGoldens = false;              ///< Goldens are written instead of compared.
    bool checkResults = false;               ///< Validate each result against its result schema, and check that a
                                             ///< failed mutating command left the state hash unchanged (tests).
    bool verbose = false;                    ///< Timings allowed in answers.
    /// The host's leaves for trees and utility documents (null: the built-ins).
    /// An embedding host registers its game leaves here; `ai.leaves` lists them.
    const ai::LeafRegistry* leafRegistry = nullptr;
    /// Most steps the scenarios run by one outermost scenario take in all, at
    /// any depth (its own steps are bounded by a file's 100,000; README
    /// "Limits"; tests lower it).
    size_t scenarioStepBudget = 10000;
    /// Most memory a session's named snapshots hold in all (`scene::approximateStateBytes`;
    /// tests lower it). [Units: bytes]
    size_t snapshotByteBudget = scene::kMaxSnapshotBytes;
};

/// The nested steps the outermost running scenario has taken: those of every
/// scenario it runs (`ai.scenario.run` inside a scenario), at any depth. Depth
/// alone does not bound a fan-out (16 files of 8 steps each running the next
/// is 8^15 runs).
struct ScenarioBudget
{
    size_t used = 0;          ///< Nested steps started since the outermost scenario began.
    bool exhausted = false;   ///< The budget ran out: every enclosing scenario stops.
    std::string field;        ///< Param of the outermost run (`/path`, `/doc`, `/scenario`).
};

/// Longest `max_ms` of a request (a day). [Units: ms]
inline constexpr int64_t kMaxRequestMs = 86'400'000;

/// Runs commands against one session state.
class Dispatcher
{
public:
    explicit Dispatcher(DispatchOptions options, const Registry& registry = Registry::global());

    /// Runs `id` with `params` on `io`; returns the envelope. Never throws.
    json call(scene::SessionState& io, std::string_view id, const json& params) noexcept;
    /// Runs a request object `{"command", "params", "id"?, "max_ms"?}`; returns the envelope.
    /// With `max_ms`, the long commands stop at their first safe point after that many
    /// milliseconds and answer `E_CANCELLED` (data.reason "max_ms"), changing nothing;
    /// commands without safe points run to the end. Never throws.
    json execute(scene::SessionState& io, const json& request) noexcept;
    /// Parses and runs one request line of text; returns the envelope. Never throws.
    json executeText(scene::SessionState& io, std::string_view text) noexcept;

    const DispatchOptions& options() const { return m_options; }
    DispatchOptions& options() { return m_options; }
    const Registry& registry() const { return m_registry; }
    /// The scenario files running now, outermost first ("" for an inline document).
    std::vector<std::string>& scenarioChain() { return m_scenarioChain; }
    /// The step budget of the outermost running scenario.
    ScenarioBudget& scenarioBudget() { return m_scenarioBudget; }

private:
    json run(scene::SessionState& io, std::string_view id, const json& params, bool updateGoldens);

    const CommandSchema* schemaOf(const CommandDef& def);

    DispatchOptions m_options;
    const Registry& m_registry;
    std::map<std::string, std::unique_ptr<CommandSchema>, std::less<>> m_inlineSchemas;
    std::vector<std::string> m_scenarioChain;
    ScenarioBudget m_scenarioBudget;
};

/// An error envelope.
json errorEnvelope(const std::string& code, const std::string& message, json data = json::object(),
                   const std::string& hint = {});

/// Serialises an answer; never throws (text that is not UTF-8 is replaced).
std::string dumpJson(const json& j, int indent = -1) noexcept;

/// The length of `j` written as compact JSON text (doubles within a few bytes), counted without writing it;
/// the count stops early once it passes `stopAfter` (so a huge value costs no
/// more than the limit it is checked against). [Units: bytes]
size_t compactJsonBytes(const json& j, size_t stopAfter = SIZE_MAX);

/// Parses JSON text strictly: first `checkJsonText` (UTF-8, nesting at most
/// 256, size), then the parser (no comments), then finite numbers only. On
/// failure returns false and sets `outMessage` (with the byte offset).
bool parseJsonText(std::string_view text, json& out, std::string& outMessage);

} // namespace spark::cli
