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
/// | version      | tools/list                                        | tools/call success              |
/// |--------------|---------------------------------------------------|---------------------------------|
/// | 2024-11-05   | name, description, inputSchema                    | text (+ image)                  |
/// | 2025-03-26   | + annotations (title, read-only, destructive, idempotent, open-world hints) | text (+
/// image) | | 2025-06-18 … | + title, outputSchema (the result schema)         | + structuredContent (the
/// result) |
///
/// A failure is `isError: true` with the error envelope as text. A picture the
/// command wrote (`nav.debug.capture`, the diff of a failed `nav.golden.check`)
/// comes back as image content too (base64 PNG), read through the project's
/// path rules.

#include "surface/dispatcher.h"

#include <array>
#include <iosfwd>
#include <string>
#include <string_view>

namespace spark::cli
{

/// The protocol versions the server speaks, latest first.
inline constexpr std::array<std::string_view, 4> kMcpProtocolVersions = {"2025-11-25", "2025-06-18",
                                                                         "2025-03-26", "2024-11-05"};

/// The version answered to a client asking for `requested`: the same when supported, else the latest.
std::string negotiateMcpVersion(std::string_view requested);

/// One client connection: the session state and the negotiated protocol version.
struct McpSession
{
    scene::SessionState state;
    /// Set by `initialize`; before it the server behaves per the latest version.
    std::string protocolVersion;
};

/// The tool a command is served as: `{name, description, inputSchema, ...}` per `protocolVersion`.
json mcpToolFor(const CommandDef& def, std::string_view protocolVersion);

/// Answers one JSON-RPC message (text) of `session`; returns the response line,
/// or an empty string for notifications. Never throws.
std::string handleMcpMessage(Dispatcher& dispatcher, McpSession& session, std::string_view line) noexcept;

/// The same without a connection: behaves per the latest protocol version.
std::string handleMcpMessage(Dispatcher& dispatcher, scene::SessionState& io, std::string_view line) noexcept;

/// Serves until end of input; returns the exit code.
int runMcpServer(Dispatcher& dispatcher, std::istream& in, std::ostream& out);

} // namespace spark::cli
