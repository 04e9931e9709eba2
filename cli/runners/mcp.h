#pragma once
/// \file mcp.h
/// `spark mcp`: a Model Context Protocol server over stdio (JSON-RPC 2.0, one
/// message per line). Every command is a tool named with `_` for `.`
/// (`nav.path` -> `nav_path`); its input schema is the command's params schema
/// and its description the summary. One session per server.

#include "surface/dispatcher.h"

#include <iosfwd>

namespace spark::cli
{

/// Answers one JSON-RPC message (text); returns the response line, or an empty
/// string for notifications. Never throws.
std::string handleMcpMessage(Dispatcher& dispatcher, scene::SessionState& io, std::string_view line) noexcept;

/// Serves until end of input; returns the exit code.
int runMcpServer(Dispatcher& dispatcher, std::istream& in, std::ostream& out);

} // namespace spark::cli
