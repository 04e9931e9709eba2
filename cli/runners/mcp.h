#pragma once
/// \file mcp.h
/// `spark mcp`: a Model Context Protocol server over stdio (JSON-RPC 2.0, one
/// message per line). Every command is a tool named with `_` for `.`
/// (`nav.path` -> `nav_path`); its input schema is the command's params schema
/// and its description the summary. One session per server.
///
/// Protocol versions: `initialize` answers the client's version when it is one
/// of `kMcpProtocolVersions`, else the latest, and the server then behaves per
/// that version:
///
/// | version    | tools/list                                     | tools/call success           | batches |
/// |------------|------------------------------------------------|------------------------------|---------|
/// | 2024-11-05 | name, description, inputSchema                | text (+ image)               | no      |
/// | 2025-03-26 | + annotations (title and the four hints)       | text (+ image)               | yes     |
/// | 2025-06-18 | + title, outputSchema (the result schema)      | + structuredContent          | no      |
/// | 2025-11-25 | as 2025-06-18                                  | as 2025-06-18                | no      |
///
/// `instructions` come with `initialize` at every version (the field exists since
/// 2024-11-05). A failure is `isError: true` with the error envelope as text. A
/// picture the command wrote (`nav.debug.capture`, the diff of a failed
/// `nav.golden.check`) comes back as image content too (base64 PNG).
///
/// Schemas are served in a form every client accepts: no top-level
/// oneOf/anyOf/allOf, no empty `{}` (an any-value schema is spelled as an anyOf of
/// the JSON types), no `[type, "null"]` unions (an anyOf of the two).
///
/// Concurrency (`runMcpServer`): requests are read while a command runs. Tool
/// calls run one after the other on a worker thread, in the order they came;
/// `ping`, `notifications/cancelled` and the requests that do not read the
/// session (initialize, tools/list, resources/*) are answered at once by the
/// reading thread. A tool call with `_meta.progressToken` gets
/// `notifications/progress` from the command's safe points (at most one per
/// 100 ms); `notifications/cancelled` stops it at its next safe point, after which
/// the command has changed nothing and, as the protocol asks, gets no response.

#include "surface/dispatcher.h"

#include <array>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace spark::cli
{

/// The protocol versions the server speaks, latest first (the latest is the newest
/// the official TypeScript SDK's v1.32 and v2.4 clients speak).
inline constexpr std::array<std::string_view, 4> kMcpProtocolVersions = {"2025-11-25", "2025-06-18",
                                                                         "2025-03-26", "2024-11-05"};

/// The version answered to a client asking for `requested`: the same when supported, else the latest.
std::string negotiateMcpVersion(std::string_view requested);

/// One client connection: the session state, the negotiated protocol version and the server's options.
struct McpSession
{
    scene::SessionState state;
    /// Set by `initialize`; before it the server behaves per the latest version.
    std::string protocolVersion;
    /// `--tools`: only commands whose id (`nav.`) or tool name (`nav_`) starts with one of these are
    /// listed and callable; empty serves every command.
    std::vector<std::string> toolPrefixes;
    /// `--session`: successful state-changing calls are appended to this log (as `spark call
    /// --session` does); empty keeps none.
    std::filesystem::path sessionLog;
};

/// The tool a command is served as: `{name, description, inputSchema, ...}` per `protocolVersion`.
json mcpToolFor(const CommandDef& def, std::string_view protocolVersion);

/// A schema in the form every client accepts (see the file comment); the meaning is unchanged.
json clientSafeSchema(const json& schema);

/// Whether `--tools` prefixes serve the command `id` (every command when there are none).
bool mcpServesCommand(const std::vector<std::string>& prefixes, std::string_view id);

/// Answers one JSON-RPC message or batch (text) of `session` synchronously; returns the
/// response line, or an empty string when nothing is to be answered (notifications,
/// responses). Never throws.
std::string handleMcpMessage(Dispatcher& dispatcher, McpSession& session, std::string_view line) noexcept;

/// The same without a connection: behaves per the latest protocol version.
std::string handleMcpMessage(Dispatcher& dispatcher, scene::SessionState& io, std::string_view line) noexcept;

/// Serves `session` until end of input (then finishes the calls already read); returns the exit code.
int runMcpServer(Dispatcher& dispatcher, McpSession& session, std::istream& in, std::ostream& out);

/// Serves a new session with no options.
int runMcpServer(Dispatcher& dispatcher, std::istream& in, std::ostream& out);

} // namespace spark::cli
