// The MCP server: JSON-RPC 2.0 over stdio with initialize, ping, tools/list and tools/call.

#include "runners/mcp.h"

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
            return rpcError(nullptr, -32700, "parse error: " + why).dump();
        if (!message.is_object() || message.value("jsonrpc", std::string()) != "2.0" || !message.contains("method") ||
            !message["method"].is_string())
            return rpcError(message.is_object() && message.contains("id") ? message["id"] : json(nullptr), -32600,
                            "not a JSON-RPC 2.0 request")
                .dump();
        const std::string method = message["method"].get<std::string>();
        if (!message.contains("id"))
            return {}; // a notification (notifications/initialized, cancellations): nothing to answer
        const json id = message["id"];
        const json params = message.value("params", json::object());
        if (method == "initialize")
            return rpcResult(id, {{"protocolVersion", kProtocolVersion},
                                  {"capabilities", {{"tools", {{"listChanged", false}}}}},
                                  {"serverInfo", {{"name", "spark"}, {"version", SPARK_VERSION}}}})
                .dump();
        if (method == "ping")
            return rpcResult(id, json::object()).dump();
        if (method == "tools/list")
            return rpcResult(id, listTools(dispatcher, io)).dump();
        if (method == "tools/call")
        {
            if (!params.is_object() || !params.contains("name") || !params["name"].is_string())
                return rpcError(id, -32602, "tools/call needs a tool name").dump();
            const std::string command = commandForTool(dispatcher, params["name"].get<std::string>());
            if (command.empty())
                return rpcError(id, -32602, "unknown tool '" + params["name"].get<std::string>() + "'").dump();
            const json arguments = params.value("arguments", json::object());
            json answer = dispatcher.call(io, command, arguments.is_null() ? json::object() : arguments);
            const bool ok = answer["ok"].get<bool>();
            const json& payload = ok ? answer["result"] : answer;
            return rpcResult(id, {{"content", json::array({{{"type", "text"}, {"text", payload.dump()}}})},
                                  {"isError", !ok}})
                .dump();
        }
        return rpcError(id, -32601, "method not found: " + method).dump();
    }
    catch (...)
    {
        return rpcError(nullptr, -32603, "internal error").dump();
    }
}

int runMcpServer(Dispatcher& dispatcher, std::istream& in, std::ostream& out)
{
    scene::SessionState state;
    std::string line;
    while (std::getline(in, line))
    {
        if (line.find_first_not_of(" \t\r") == std::string::npos)
            continue;
        const std::string response = handleMcpMessage(dispatcher, state, line);
        if (!response.empty())
        {
            out << response << "\n";
            out.flush();
        }
    }
    return 0;
}

} // namespace spark::cli
