#include "runners/mcp.h"

#include <doctest/doctest.h>

using namespace spark::cli;

namespace
{
json ask(Dispatcher& d, spark::scene::SessionState& s, const std::string& line)
{
    const std::string text = handleMcpMessage(d, s, line);
    return text.empty() ? json() : json::parse(text);
}
} // namespace

TEST_CASE("MCP initialize answers the protocol version and the tools capability")
{
    Dispatcher d(DispatchOptions{});
    spark::scene::SessionState s;
    json r = ask(d, s, R"({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2024-11-05"}})");
    CHECK(r["id"] == 1);
    CHECK(r["result"]["protocolVersion"] == "2024-11-05");
    CHECK(r["result"]["capabilities"].contains("tools"));
    CHECK(r["result"]["serverInfo"]["name"] == "spark");
    CHECK(ask(d, s, R"({"jsonrpc": "2.0", "method": "notifications/initialized"})").is_null());
}

TEST_CASE("MCP tools/list names every command with _ for . and its params schema")
{
    Dispatcher d(DispatchOptions{});
    spark::scene::SessionState s;
    json r = ask(d, s, R"({"jsonrpc": "2.0", "id": "a", "method": "tools/list"})");
    bool found = false;
    for (const auto& t : r["result"]["tools"])
        if (t["name"] == "system_schema")
        {
            found = true;
            CHECK(t["inputSchema"]["required"][0] == "command");
            CHECK_FALSE(t["description"].get<std::string>().empty());
        }
    CHECK(found);
    CHECK(r["result"]["tools"].size() == Registry::global().all().size());
}

TEST_CASE("MCP tools/call runs the command; command errors come back with isError")
{
    Dispatcher d(DispatchOptions{});
    spark::scene::SessionState s;
    json ok = ask(d, s, R"({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "system_schema", "arguments": {"command": "system.version"}}})");
    CHECK(ok["result"]["isError"] == false);
    CHECK(json::parse(ok["result"]["content"][0]["text"].get<std::string>())["id"] == "system.version");
    json bad = ask(d, s, R"({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "system_schema", "arguments": {"command": 5}}})");
    CHECK(bad["result"]["isError"] == true);
    CHECK(json::parse(bad["result"]["content"][0]["text"].get<std::string>())["error"]["code"] == "E_INVALID_PARAMS");
    json unknown = ask(d, s, R"({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "nope"}})");
    CHECK(unknown["error"]["code"] == -32602);
}

TEST_CASE("MCP protocol errors: parse error, invalid request, unknown method")
{
    Dispatcher d(DispatchOptions{});
    spark::scene::SessionState s;
    CHECK(ask(d, s, "{oops")["error"]["code"] == -32700);
    CHECK(ask(d, s, R"({"id": 1, "method": "ping"})")["error"]["code"] == -32600);
    CHECK(ask(d, s, R"({"jsonrpc": "2.0", "id": 5, "method": "resources/list"})")["error"]["code"] == -32601);
    CHECK(ask(d, s, R"({"jsonrpc": "2.0", "id": 6, "method": "ping"})")["result"] == json::object());
}
