// The MCP server: JSON-RPC 2.0 over stdio with initialize, ping, tools/list and tools/call.

#include "runners/mcp.h"

#include "surface/lines.h"

#include <istream>
#include <ostream>
#include <string>

namespace spark::cli
{
namespace
{

constexpr const char* kProtocolVersion = "2024-11-05";

json rpcError(const json& id, int code, const std::string& message)
{
    return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

json rpcResult(const json& id, json result) { return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}}; }

std::string toolName(const std::string& id)
{
    std::string name = id;
    for (char& c : name)
        if (c == '.')
            c = '_';
    return name;
}

json listTools(Dispatcher& dispatcher, scene::SessionState& io)
{
    json answer = dispatcher.call(io, "system.commands", json::object());
    json tools = json::array();
    for (const auto& c : answer["result"]["commands"])
        tools.push_back({{"name", toolName(c["id"].get<std::string>())},
                         {"description", c.value("summary", std::string())},
                         {"inputSchema", c.value("params", json::object())}});
    return {{"tools", tools}};
}

// Finds the command whose tool name is `name` (ids may themselves contain `_`).
std::string commandForTool(const Dispatcher& dispatcher, const std::string& name)
{
    for (const auto& [id, def] : dispatcher.registry().all())
        if (toolName(id) == name)
            return id;
    return {};
}

} // namespace

std::string handleMcpMessage(Dispatcher& dispatcher, scene::SessionState& io, std::string_view line) noexcept
{
    try
    {
        json message;
        std::string why;
        if (!parseJsonText(line, message, why))
            return dumpJson(rpcError(nullptr, -32700, "parse error: " + why));
        // The request's id, when it is one JSON-RPC allows (string, number or null).
        json requestId = nullptr;
        if (message.is_object() && message.contains("id") &&
            (message["id"].is_string() || message["id"].is_number() || message["id"].is_null()))
            requestId = message["id"];
        if (!message.is_object() || !message.contains("jsonrpc") || message["jsonrpc"] != "2.0" ||
            !message.contains("method") || !message["method"].is_string())
            return dumpJson(rpcError(requestId, -32600,
                                     "not a JSON-RPC 2.0 request: it needs \"jsonrpc\": \"2.0\" and a string \"method\""));
        if (message.contains("id") && requestId.is_null() && !message["id"].is_null())
            return dumpJson(rpcError(nullptr, -32600, "the id must be a string, a number or null"));
        if (message.contains("params") && !message["params"].is_object() && !message["params"].is_array())
            return dumpJson(rpcError(requestId, -32602, "params must be an object"));
        const std::string method = message["method"].get<std::string>();
        if (!message.contains("id"))
            return {}; // a notification (notifications/initialized, cancellations): nothing to answer
        const json id = message["id"];
        const json params = message.contains("params") ? message["params"] : json::object();
        if (method == "initialize")
            return dumpJson(rpcResult(id, {{"protocolVersion", kProtocolVersion},
                                  {"capabilities", {{"tools", {{"listChanged", false}}}}},
                                  {"serverInfo", {{"name", "spark"}, {"version", SPARK_VERSION}}}}));
        if (method == "ping")
            return dumpJson(rpcResult(id, json::object()));
        if (method == "tools/list")
            return dumpJson(rpcResult(id, listTools(dispatcher, io)));
        if (method == "tools/call")
        {
            if (!params.is_object() || !params.contains("name") || !params["name"].is_string())
                return dumpJson(rpcError(id, -32602, "tools/call needs a tool name"));
            const std::string command = commandForTool(dispatcher, params["name"].get<std::string>());
            if (command.empty())
                return dumpJson(rpcError(id, -32602, "unknown tool '" + params["name"].get<std::string>() + "'"));
            const json arguments = params.contains("arguments") ? params["arguments"] : json::object();
            if (!arguments.is_object() && !arguments.is_null())
                return dumpJson(rpcError(id, -32602, "tools/call arguments must be an object"));
            json answer = dispatcher.call(io, command, arguments.is_null() ? json::object() : arguments);
            const bool ok = answer["ok"].get<bool>();
            const json& payload = ok ? answer["result"] : answer;
            return dumpJson(rpcResult(id, {{"content", json::array({{{"type", "text"}, {"text", dumpJson(payload)}}})},
                                  {"isError", !ok}}));
        }
        return dumpJson(rpcError(id, -32601, "method not found: " + method));
    }
    catch (...)
    {
        return dumpJson(rpcError(nullptr, -32603, "internal error"));
    }
}

int runMcpServer(Dispatcher& dispatcher, std::istream& in, std::ostream& out)
{
    scene::SessionState state;
    std::string line;
    for (;;)
    {
        const LineRead read = readBoundedLine(in, line);
        if (read == LineRead::End)
            break;
        if (read == LineRead::Line && line.find_first_not_of(" \t\r") == std::string::npos)
            continue;
        const std::string response = read == LineRead::TooLong
                                         ? dumpJson(rpcError(nullptr, -32700, "the message is longer than 64 MiB"))
                                         : handleMcpMessage(dispatcher, state, line);
        if (!response.empty())
        {
            out << response << "\n";
            out.flush();
        }
    }
    return 0;
}

} // namespace spark::cli
