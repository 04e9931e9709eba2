#include "runners/mcp.h"
#include "runners/session_log.h"

#include "surface/schemas.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <vector>

using namespace spark::cli;

namespace
{
json ask(Dispatcher& d, spark::scene::SessionState& s, const std::string& line)
{
    const std::string text = handleMcpMessage(d, s, line);
    return text.empty() ? json() : json::parse(text);
}

json ask(Dispatcher& d, McpSession& s, const json& request)
{
    const std::string text = handleMcpMessage(d, s, request.dump());
    return text.empty() ? json() : json::parse(text);
}

json initialize(Dispatcher& d, McpSession& s, const std::string& version)
{
    return ask(d, s,
               json{{"jsonrpc", "2.0"},
                    {"id", 1},
                    {"method", "initialize"},
                    {"params",
                     {{"protocolVersion", version},
                      {"capabilities", json::object()},
                      {"clientInfo", {{"name", "t"}, {"version", "0"}}}}}});
}

json callTool(Dispatcher& d, McpSession& s, const std::string& name, const json& arguments)
{
    static int id = 100;
    return ask(d, s,
               json{{"jsonrpc", "2.0"},
                    {"id", ++id},
                    {"method", "tools/call"},
                    {"params", {{"name", name}, {"arguments", arguments}}}})["result"];
}

json toolsByName(Dispatcher& d, McpSession& s)
{
    json r = ask(d, s, json{{"jsonrpc", "2.0"}, {"id", "list"}, {"method", "tools/list"}});
    json byName = json::object();
    for (const auto& t : r["result"]["tools"])
        byName[t["name"].get<std::string>()] = t;
    return byName;
}

// A project folder of its own for the tests that write pictures.
std::filesystem::path scratchProject(const std::string& name)
{
    const auto dir = std::filesystem::temp_directory_path() / ("spark_mcp_test_" + name);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

const json kBake = {{"name", "m"},
                    {"source", "polygons"},
                    {"agent_radius", 0},
                    {"cell_size", 1},
                    {"bounds", {{"min", {0, 0}}, {"max", {20, 20}}}},
                    {"solid_rects", json::array({{{"min", {5, 0}}, {"max", {6, 15}}}})}};

std::string decodeBase64(const std::string& text)
{
    std::string out;
    unsigned value = 0;
    int bits = -8;
    for (char c : text)
    {
        const char* digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        const char* at = std::strchr(digits, c);
        if (c == '=' || !at)
            break;
        value = (value << 6) | unsigned(at - digits);
        bits += 6;
        if (bits >= 0)
        {
            out += char((value >> bits) & 0xff);
            bits -= 8;
        }
    }
    return out;
}

bool isPng(const std::string& bytes)
{
    return bytes.size() > 8 && bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0;
}

} // namespace

TEST_CASE("MCP initialize answers the protocol version and the tools capability")
{
    Dispatcher d(DispatchOptions{});
    spark::scene::SessionState s;
    json r = ask(
        d, s,
        R"({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2024-11-05"}})");
    CHECK(r["id"] == 1);
    CHECK(r["result"]["protocolVersion"] == "2024-11-05");
    CHECK(r["result"]["capabilities"].contains("tools"));
    CHECK(r["result"]["serverInfo"]["name"] == "spark");
    CHECK(ask(d, s, R"({"jsonrpc": "2.0", "method": "notifications/initialized"})").is_null());
}

TEST_CASE("MCP version negotiation: the client's version when supported, else the latest")
{
    CHECK(negotiateMcpVersion("2025-11-25") == "2025-11-25");
    CHECK(negotiateMcpVersion("2025-06-18") == "2025-06-18");
    CHECK(negotiateMcpVersion("2025-03-26") == "2025-03-26");
    CHECK(negotiateMcpVersion("2024-11-05") == "2024-11-05");
    CHECK(negotiateMcpVersion("2024-10-07") == "2025-11-25");
    CHECK(negotiateMcpVersion("2099-01-01") == "2025-11-25");
    CHECK(negotiateMcpVersion("") == "2025-11-25");

    Dispatcher d(DispatchOptions{});
    for (const std::string v : {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"})
    {
        McpSession s;
        CHECK(initialize(d, s, v)["result"]["protocolVersion"] == v);
        CHECK(s.protocolVersion == v);
    }
    McpSession unknown;
    CHECK(initialize(d, unknown, "1.0")["result"]["protocolVersion"] == "2025-11-25");
    McpSession missing;
    CHECK(ask(d, missing,
              json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}})["result"]["protocolVersion"] ==
          "2025-11-25");
}

TEST_CASE(
    "MCP behaves per the negotiated version: annotations from 2025-03-26, output schemas from 2025-06-18")
{
    Dispatcher d(DispatchOptions{});
    const json version = {{"command", "system.version"}};

    McpSession old;
    initialize(d, old, "2024-11-05");
    json tool = toolsByName(d, old)["system_schema"];
    CHECK_FALSE(tool.contains("annotations"));
    CHECK_FALSE(tool.contains("outputSchema"));
    CHECK_FALSE(tool.contains("title"));
    json r = callTool(d, old, "system_schema", version);
    CHECK(r["isError"] == false);
    CHECK_FALSE(r.contains("structuredContent"));

    McpSession mid;
    initialize(d, mid, "2025-03-26");
    tool = toolsByName(d, mid)["system_schema"];
    CHECK(tool.contains("annotations"));
    CHECK_FALSE(tool.contains("outputSchema"));
    CHECK_FALSE(callTool(d, mid, "system_schema", version).contains("structuredContent"));

    for (const std::string v : {"2025-06-18", "2025-11-25"})
    {
        McpSession now;
        initialize(d, now, v);
        tool = toolsByName(d, now)["system_schema"];
        CHECK(tool.contains("annotations"));
        CHECK(tool["outputSchema"]["type"] == "object");
        CHECK(tool["title"].is_string());
        CHECK(callTool(d, now, "system_schema", version)["structuredContent"]["id"] == "system.version");
    }

    // Without initialize (and through the connectionless entry point) the server speaks the latest version.
    spark::scene::SessionState s;
    json list = ask(d, s, R"({"jsonrpc": "2.0", "id": "a", "method": "tools/list"})");
    CHECK(list["result"]["tools"][0].contains("outputSchema"));
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

TEST_CASE("MCP every tool declares an object input schema and an object output schema that compiles")
{
    Dispatcher d(DispatchOptions{});
    McpSession s;
    initialize(d, s, "2025-06-18");
    const json tools = toolsByName(d, s);
    CHECK(tools.size() == Registry::global().all().size());
    for (const auto& item : tools.items())
    {
        const std::string name = item.key(); // plain variables: INFO captures them (clang 14 cannot capture bindings)
        const json& tool = item.value();
        INFO(name);
        CHECK(tool["inputSchema"]["type"] == "object");
        REQUIRE(tool.contains("outputSchema"));
        CHECK(tool["outputSchema"]["type"] == "object");
        CHECK_FALSE(tool["outputSchema"].contains("$schema"));
        std::string why;
        CHECK(CompiledSchema::compile(tool["outputSchema"], why) != nullptr);
    }
}

TEST_CASE("MCP a result schema that is not an object is wrapped as {result}")
{
    Registry registry;
    registry.add({"test.count", [](Context&, const json&) { return json(3); }, Mutates::No,
                  json{{"id", "test.count"},
                       {"summary", "Counts."},
                       {"params", {{"type", "object"}}},
                       {"result", {{"type", "integer"}}},
                       {"errors", json::array()}}});
    Dispatcher d(DispatchOptions{}, registry);
    McpSession s;
    initialize(d, s, "2025-06-18");
    const json tool = toolsByName(d, s)["test_count"];
    CHECK(tool["outputSchema"]["type"] == "object");
    CHECK(tool["outputSchema"]["properties"]["result"]["type"] == "integer");
    const json r = callTool(d, s, "test_count", json::object());
    CHECK(r["structuredContent"] == json{{"result", 3}});
    std::string why;
    CHECK(CompiledSchema::compile(tool["outputSchema"], why)->validate(r["structuredContent"]).empty());
}

TEST_CASE("MCP tools/call runs the command; command errors come back with isError")
{
    Dispatcher d(DispatchOptions{});
    spark::scene::SessionState s;
    json ok = ask(
        d, s,
        R"({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "system_schema", "arguments": {"command": "system.version"}}})");
    CHECK(ok["result"]["isError"] == false);
    CHECK(json::parse(ok["result"]["content"][0]["text"].get<std::string>())["id"] == "system.version");
    json bad = ask(
        d, s,
        R"({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "system_schema", "arguments": {"command": 5}}})");
    CHECK(bad["result"]["isError"] == true);
    CHECK(json::parse(bad["result"]["content"][0]["text"].get<std::string>())["error"]["code"] ==
          "E_INVALID_PARAMS");
    CHECK_FALSE(bad["result"].contains("structuredContent"));
    json unknown =
        ask(d, s, R"({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "nope"}})");
    CHECK(unknown["error"]["code"] == -32602);
}

TEST_CASE(
    "MCP structuredContent is the result, the text is the same JSON, and it validates against outputSchema")
{
    Dispatcher d(DispatchOptions{});
    McpSession s;
    initialize(d, s, "2025-06-18");
    const json tools = toolsByName(d, s);
    auto check = [&](const std::string& tool, const json& arguments)
    {
        INFO(tool);
        const json r = callTool(d, s, tool, arguments);
        REQUIRE(r["isError"] == false);
        REQUIRE(r.contains("structuredContent"));
        CHECK(json::parse(r["content"][0]["text"].get<std::string>()) == r["structuredContent"]);
        std::string why;
        auto schema = CompiledSchema::compile(tools[tool]["outputSchema"], why);
        REQUIRE(schema);
        CHECK(schema->validate(r["structuredContent"]).empty());
        return r["structuredContent"];
    };
    check("system_version", json::object());
    check("system_commands", {{"prefix", "nav."}});
    check("nav_bake", kBake);
    CHECK(check("nav_path", {{"from", {2, 2}}, {"to", {8, 2}}})["complete"] == true);
    check("nav_info", json::object());
    const json failed = callTool(d, s, "nav_path", {{"mesh", "nope"}, {"from", {2, 2}}, {"to", {8, 2}}});
    CHECK(failed["isError"] == true);
    CHECK_FALSE(failed.contains("structuredContent"));
    CHECK(json::parse(failed["content"][0]["text"].get<std::string>())["error"]["code"]
              .get<std::string>()
              .rfind("E_", 0) == 0);
}

TEST_CASE("MCP annotations come from the registry: read-only, destructive, idempotent, title")
{
    Dispatcher d(DispatchOptions{});
    McpSession s;
    initialize(d, s, "2025-06-18");
    const json tools = toolsByName(d, s);
    auto hints = [&](const std::string& name) { return tools[name]["annotations"]; };
    for (const auto& item : tools.items())
    {
        const std::string name = item.key(); // plain variables: INFO captures them (clang 14 cannot capture bindings)
        const json& tool = item.value();
        INFO(name);
        const json& a = tool["annotations"];
        CHECK(a["title"].is_string());
        CHECK(a["title"] == tool["title"]);
        CHECK(a["readOnlyHint"].is_boolean());
        CHECK(a["destructiveHint"].is_boolean());
        CHECK(a["idempotentHint"].is_boolean());
        CHECK(a["openWorldHint"] == false);
    }
    // Every command that changes no state and writes no file is read-only.
    for (const auto& entry : Registry::global().all())
    {
        const std::string& id = entry.first;
        const auto& def = entry.second;
        std::string name = id;
        std::replace(name.begin(), name.end(), '.', '_');
        INFO(id);
        CHECK(hints(name)["readOnlyHint"] == (def.mutates == Mutates::No && !def.hints.writesFiles));
    }
    for (const char* name :
         {"nav_path", "nav_info", "nav_raycast", "system_version", "space3d_get", "ai_validate"})
    {
        INFO(name);
        CHECK(hints(name)["readOnlyHint"] == true);
        CHECK(hints(name)["destructiveHint"] == false);
        CHECK(hints(name)["idempotentHint"] == true);
    }
    for (const char* name : {"space3d_new", "space3d_load", "nav_remove", "scene2d_new", "scene2d_load",
                             "nav_agent_remove", "space3d_despawn", "nav_import", "space3d_save"})
    {
        INFO(name);
        CHECK(hints(name)["readOnlyHint"] == false);
        CHECK(hints(name)["destructiveHint"] == true);
        CHECK(hints(name)["idempotentHint"] == true);
    }
    for (const char* name : {"nav_agent_add", "nav_step", "space3d_spawn", "scene2d_box_add"})
    {
        INFO(name);
        CHECK(hints(name)["readOnlyHint"] == false);
        CHECK(hints(name)["destructiveHint"] == false);
        CHECK(hints(name)["idempotentHint"] == false);
    }
    // Writing a picture is not read-only, but it is idempotent and destroys nothing of the session.
    CHECK(hints("nav_debug_capture")["readOnlyHint"] == false);
    CHECK(hints("nav_debug_capture")["destructiveHint"] == false);
    CHECK(hints("nav_debug_capture")["idempotentHint"] == true);
    CHECK(tools["nav_debug_capture"]["title"] == "Navigation: debug capture");
    CHECK(tools["space3d_new"]["title"] == "3D space: new");
}

TEST_CASE("MCP nav.debug.capture answers with the PNG it wrote as image content")
{
    DispatchOptions options;
    options.projectRoot = scratchProject("capture");
    Dispatcher d(options);
    McpSession s;
    initialize(d, s, "2025-06-18");
    REQUIRE(callTool(d, s, "nav_bake", kBake)["isError"] == false);
    const json r = callTool(d, s, "nav_debug_capture",
                            {{"path", "out/capture.png"},
                             {"width", 64},
                             {"height", 64},
                             {"path_from", {2, 2}},
                             {"path_to", {8, 2}}});
    REQUIRE(r["isError"] == false);
    REQUIRE(r["content"].size() == 2);
    CHECK(r["content"][0]["type"] == "text");
    const json& image = r["content"][1];
    CHECK(image["type"] == "image");
    CHECK(image["mimeType"] == "image/png");
    const std::string png = decodeBase64(image["data"].get<std::string>());
    CHECK(isPng(png));
    CHECK(png.size() == std::filesystem::file_size(options.projectRoot / "out/capture.png"));
    CHECK(r["structuredContent"]["path"] == "out/capture.png");

    // A failed capture has no picture.
    const json bad = callTool(d, s, "nav_debug_capture", {{"path", "../outside.png"}});
    CHECK(bad["isError"] == true);
    CHECK(bad["content"].size() == 1);
    // Other commands carry no picture.
    CHECK(callTool(d, s, "nav_info", json::object())["content"].size() == 1);
    std::filesystem::remove_all(options.projectRoot);
}

TEST_CASE("MCP a failed nav.golden.check answers with its diff image; a passing one with none")
{
    DispatchOptions options;
    options.projectRoot = scratchProject("golden");
    Dispatcher d(options);
    McpSession s;
    initialize(d, s, "2025-06-18");
    REQUIRE(callTool(d, s, "nav_bake", kBake)["isError"] == false);
    const json size = {{"name", "mcp"}, {"width", 64}, {"height", 64}};
    REQUIRE(callTool(d, s, "nav_golden_update", size)["isError"] == false);
    const json same = callTool(d, s, "nav_golden_check", size);
    REQUIRE(same["isError"] == false);
    CHECK(same["structuredContent"]["equal"] == true);
    CHECK(same["content"].size() == 1);

    json other = kBake;
    other["solid_rects"] = json::array({{{"min", {12, 5}}, {"max", {13, 20}}}});
    REQUIRE(callTool(d, s, "nav_bake", other)["isError"] == false);
    const json differs = callTool(d, s, "nav_golden_check", size);
    REQUIRE(differs["isError"] == false);
    CHECK(differs["structuredContent"]["equal"] == false);
    REQUIRE(differs["content"].size() == 2);
    CHECK(differs["content"][1]["type"] == "image");
    CHECK(differs["content"][1]["mimeType"] == "image/png");
    CHECK(isPng(decodeBase64(differs["content"][1]["data"].get<std::string>())));
    std::filesystem::remove_all(options.projectRoot);
}

// ajv's strict mode (what MCP clients compile schemas with) refuses a `required`
// naming a property that the same schema object does not define. The same check
// over every params and result schema, in every nested schema object.
TEST_CASE("every command schema names in `required` only properties the same schema object defines")
{
    std::function<void(const json&, const std::string&)> walk =
        [&](const json& schema, const std::string& where)
    {
        if (schema.is_array())
        {
            for (size_t i = 0; i < schema.size(); ++i)
                walk(schema[i], where + "/" + std::to_string(i));
            return;
        }
        if (!schema.is_object())
            return;
        if (schema.contains("required") && schema["required"].is_array())
            for (const auto& name : schema["required"])
            {
                INFO(where);
                INFO(name.dump());
                CHECK((schema.contains("properties") &&
                       schema["properties"].contains(name.get<std::string>())));
            }
        for (const auto& [key, value] : schema.items())
        {
            if (key == "properties" || key == "patternProperties" || key == "definitions" || key == "$defs")
            {
                if (value.is_object())
                    for (const auto& [name, sub] : value.items())
                        walk(sub, where + "/" + key + "/" + name);
            }
            else if (key != "enum" && key != "const" && key != "default" && key != "examples" &&
                     key != "required")
                walk(value, where + "/" + key);
        }
    };
    for (const std::string& id : embeddedCommandSchemaIds())
    {
        const CommandSchema* schema = findCommandSchema(id);
        REQUIRE(schema);
        walk(schema->document["params"], id + "#/params");
        walk(schema->document["result"], id + "#/result");
    }
}

TEST_CASE("MCP protocol errors: parse error, invalid request, unknown method")
{
    Dispatcher d(DispatchOptions{});
    spark::scene::SessionState s;
    CHECK(ask(d, s, "{oops")["error"]["code"] == -32700);
    CHECK(ask(d, s, R"({"id": 1, "method": "ping"})")["error"]["code"] == -32600);
    CHECK(ask(d, s, R"({"jsonrpc": "2.0", "id": 5, "method": "nothing/here"})")["error"]["code"] == -32601);
    CHECK(ask(d, s, R"({"jsonrpc": "2.0", "id": 6, "method": "ping"})")["result"] == json::object());
}

TEST_CASE(
    "MCP resources: the project's samples, scenarios and goldens, listed and read inside the project only")
{
    namespace fs = std::filesystem;
    DispatchOptions options;
    options.projectRoot = scratchProject("resources");
    const fs::path root = options.projectRoot;
    fs::create_directories(root / "samples/space3d");
    fs::create_directories(root / "tests/scenarios");
    fs::create_directories(root / "goldens/nav");
    fs::create_directories(root / "elsewhere");
    auto write = [&](const fs::path& rel, const std::string& text)
    { std::ofstream(root / rel, std::ios::binary) << text; };
    write("samples/space3d/room.json", R"({"a": 1})");
    write("tests/scenarios/t.test.json", R"({"version": 1})");
    write("goldens/nav/m.png", std::string("\x89PNG\r\n\x1a\n", 8) + "rest");
    write("samples/notes.txt", "not a resource");
    write("elsewhere/secret.json", "{}");
    fs::create_symlink(root / "elsewhere/secret.json", root / "samples/link.json");
    // Recordings are resources in recordings/ and out/ too (only they are, there).
    fs::create_directories(root / "recordings");
    fs::create_directories(root / "out");
    write("recordings/run.rec.gz", std::string("\x1f\x8b", 2) + "gzip");
    write("out/picture.png", std::string("\x89PNG\r\n\x1a\n", 8) + "rest");

    Dispatcher d(options);
    McpSession s;
    CHECK(initialize(d, s, "2025-06-18")["result"]["capabilities"].contains("resources"));
    const json list = ask(d, s, json{{"jsonrpc", "2.0"}, {"id", 2}, {"method", "resources/list"}})["result"];
    std::vector<std::string> uris;
    for (const auto& r : list["resources"])
        uris.push_back(r["uri"].get<std::string>());
    CHECK(uris == std::vector<std::string>{"spark://project/goldens/nav/m.png",
                                           "spark://project/recordings/run.rec.gz",
                                           "spark://project/samples/space3d/room.json",
                                           "spark://project/tests/scenarios/t.test.json"});

    auto read = [&](const std::string& uri)
    {
        return ask(
            d, s,
            json{{"jsonrpc", "2.0"}, {"id", 3}, {"method", "resources/read"}, {"params", {{"uri", uri}}}});
    };
    const json room = read("spark://project/samples/space3d/room.json")["result"]["contents"][0];
    CHECK(room["mimeType"] == "application/json");
    CHECK(room["text"] == R"({"a": 1})");
    const json png = read("spark://project/goldens/nav/m.png")["result"]["contents"][0];
    CHECK(png["mimeType"] == "image/png");
    CHECK(isPng(decodeBase64(png["blob"].get<std::string>())));
    const json recording = read("spark://project/recordings/run.rec.gz")["result"]["contents"][0];
    CHECK(recording["mimeType"] == "application/gzip");
    CHECK(decodeBase64(recording["blob"].get<std::string>()) == std::string("\x1f\x8b", 2) + "gzip");
    CHECK(read("spark://project/out/picture.png")["error"]["code"] == -32602);
    CHECK(read("spark://project/../outside.json")["error"]["code"] == -32602);
    CHECK(read("spark://project/samples/missing.json")["error"]["code"] == -32002);
    CHECK(read("file:///etc/passwd")["error"]["code"] == -32602);
    CHECK(read("spark://project/samples/notes.txt")["error"]["code"] == -32602);
    // Only the listed folders, links followed to their target.
    std::ofstream(root / "top.json") << "{}";
    CHECK(read("spark://project/samples/../samples/space3d/room.json").contains("result"));
    for (const char* outside : {"top.json", "elsewhere/secret.json", "samples/link.json", "samples/../top.json"})
    {
        CAPTURE(outside);
        CHECK(read(std::string("spark://project/") + outside)["error"]["code"] == -32602);
    }
    fs::remove_all(root);
}

namespace
{
// The schema positions of a schema: every subschema under it, with its JSON pointer.
void walkSchemas(const json& schema, const std::string& at, const std::function<void(const json&, const std::string&)>& visit)
{
    if (!schema.is_object())
        return;
    visit(schema, at);
    for (const char* key : {"properties", "patternProperties", "definitions", "$defs"})
        if (schema.contains(key) && schema[key].is_object())
            for (const auto& item : schema[key].items())
                walkSchemas(item.value(), at + "/" + key + "/" + item.key(), visit);
    for (const char* key : {"anyOf", "oneOf", "allOf", "prefixItems"})
        if (schema.contains(key) && schema[key].is_array())
            for (size_t i = 0; i < schema[key].size(); ++i)
                walkSchemas(schema[key][i], at + "/" + key + "/" + std::to_string(i), visit);
    for (const char* key : {"items", "additionalProperties", "not", "contains", "if", "then", "else"})
        if (schema.contains(key))
            walkSchemas(schema[key], at + "/" + key, visit);
}
} // namespace

TEST_CASE("MCP every tool's schemas are ones every client accepts, at every protocol version")
{
    // The Anthropic API refuses a top-level oneOf/anyOf/allOf in an input schema;
    // strict validators warn on empty {} schemas and on [type, "null"] unions.
    Dispatcher d(DispatchOptions{});
    for (const std::string_view version : kMcpProtocolVersions)
    {
        McpSession s;
        initialize(d, s, std::string(version));
        const json tools = toolsByName(d, s);
        REQUIRE(tools.size() == Registry::global().all().size());
        std::vector<std::string> problems;
        for (const auto& item : tools.items())
        {
            const json& tool = item.value();
            for (const char* key : {"oneOf", "anyOf", "allOf", "not", "if"})
                if (tool["inputSchema"].contains(key))
                    problems.push_back(item.key() + " inputSchema: top-level " + key);
            for (const char* which : {"inputSchema", "outputSchema"})
            {
                if (!tool.contains(which))
                    continue;
                walkSchemas(tool[which], "",
                            [&](const json& schema, const std::string& at)
                            {
                                const std::string where = item.key() + " " + which + " " + (at.empty() ? "/" : at);
                                if (schema.empty())
                                    problems.push_back(where + ": empty schema");
                                if (schema.contains("type") && schema["type"].is_array())
                                    problems.push_back(where + ": type union " + schema["type"].dump());
                            });
            }
        }
        CAPTURE(version);
        CHECK(problems == std::vector<std::string>{});
    }
}

TEST_CASE("clientSafeSchema spells {} and [type, null] as anyOf, keeping the meaning and the annotations")
{
    const json in = json::parse(R"({"type": "object", "properties": {
        "any": {}, "described": {"description": "anything"},
        "maybe": {"type": ["string", "null"], "minLength": 2, "description": "a name or null"},
        "list": {"type": "array", "items": {}}}})");
    const json out = clientSafeSchema(in);
    const json anyOfTypes = json::parse(R"([{"type": "string"}, {"type": "number"}, {"type": "boolean"},
                                            {"type": "object"}, {"type": "array"}, {"type": "null"}])");
    CHECK(out["type"] == "object");
    CHECK(out["properties"]["any"] == json{{"anyOf", anyOfTypes}});
    CHECK(out["properties"]["described"] == json{{"description", "anything"}, {"anyOf", anyOfTypes}});
    CHECK(out["properties"]["maybe"] ==
          json::parse(R"({"description": "a name or null",
                          "anyOf": [{"type": "string", "minLength": 2}, {"type": "null"}]})"));
    CHECK(out["properties"]["list"]["items"] == json{{"anyOf", anyOfTypes}});
    // Both forms accept and refuse the same values.
    std::string why;
    auto strict = CompiledSchema::compile(out, why);
    auto loose = CompiledSchema::compile(in, why);
    REQUIRE(strict);
    REQUIRE(loose);
    for (const char* value : {R"({"maybe": null})", R"({"maybe": "ab"})", R"({"maybe": "a"})", R"({"maybe": 3})",
                              R"({"any": [1, {"x": null}]})", R"({"list": [1, "two", null]})"})
    {
        CAPTURE(value);
        CHECK(strict->validate(json::parse(value)).empty() == loose->validate(json::parse(value)).empty());
    }
}

TEST_CASE("ai.scenario.run: exactly one of path and doc (checked by the command, not a top-level oneOf)")
{
    Dispatcher d(DispatchOptions{});
    spark::scene::SessionState s;
    const json neither = d.call(s, "ai.scenario.run", json::object());
    CHECK(neither["error"]["code"] == "E_INVALID_PARAMS");
    CHECK(neither["error"]["data"]["problems"][0]["path"] == "");
    const json both = d.call(s, "ai.scenario.run",
                             {{"path", "x.json"}, {"doc", {{"version", 1}, {"name", "n"}, {"steps", json::array()}}}});
    CHECK(both["error"]["code"] == "E_INVALID_PARAMS");
    CHECK(both["error"]["data"]["path"] == "/doc");
    CHECK(d.call(s, "ai.scenario.run", {{"doc", {{"version", 1}, {"name", "n"}, {"steps", json::array()}}}})["ok"] ==
          true);
}

TEST_CASE("MCP instructions come at every protocol version (the field exists since 2024-11-05)")
{
    Dispatcher d(DispatchOptions{});
    for (const std::string_view version : kMcpProtocolVersions)
    {
        McpSession s;
        CAPTURE(version);
        CHECK_FALSE(initialize(d, s, std::string(version))["result"]["instructions"].get<std::string>().empty());
    }
}

TEST_CASE("MCP JSON-RPC: notifications and responses are never answered, whatever their shape")
{
    Dispatcher d(DispatchOptions{});
    McpSession s;
    initialize(d, s, "2025-06-18");
    for (const char* line : {R"({"jsonrpc": "2.0", "method": "notifications/initialized"})",
                             R"({"jsonrpc": "2.0", "method": "notifications/initialized", "params": 5})",
                             R"({"jsonrpc": "2.0", "method": "nothing/here"})",
                             R"({"method": "notifications/cancelled", "params": {"requestId": 3}})",
                             R"({"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "nav_bake"}})",
                             R"({"jsonrpc": "2.0", "id": 7, "result": {}})",
                             R"({"jsonrpc": "2.0", "id": 8, "error": {"code": -1, "message": "no"}})"})
    {
        CAPTURE(line);
        CHECK(handleMcpMessage(d, s, line).empty());
    }
    CHECK(s.state.commandsRun == 0); // the tools/call notification ran nothing
    CHECK(ask(d, s, json{{"jsonrpc", "2.0"}, {"id", 9}})["error"]["code"] == -32600);
}

TEST_CASE("MCP JSON-RPC: integer ids come back exactly, beyond 2^53 and beyond 64 bits")
{
    Dispatcher d(DispatchOptions{});
    McpSession s;
    for (const std::string id : {"9007199254740993", "18446744073709551615", "-9223372036854775808",
                                 "123456789012345678901234567890", "-98765432109876543210"})
    {
        CAPTURE(id);
        const std::string answer = handleMcpMessage(d, s, R"({"jsonrpc": "2.0", "method": "ping", "id": )" + id + "}");
        CHECK(answer.find("\"id\":" + id + ",") != std::string::npos);
        CHECK(json::parse(answer)["result"] == json::object());
    }
    // An "id" inside the params is not the request's id.
    const std::string nested = handleMcpMessage(
        d, s, R"({"jsonrpc": "2.0", "method": "ping", "params": {"id": 5}, "id": 123456789012345678901234567890})");
    CHECK(nested.find("\"id\":123456789012345678901234567890,") != std::string::npos);
    CHECK(handleMcpMessage(d, s, R"({"jsonrpc": "2.0", "method": "ping", "id": 2.5})").find("\"id\":2.5") !=
          std::string::npos);
}

TEST_CASE("MCP JSON-RPC batches: answered as an array at 2025-03-26, refused at the versions without them")
{
    Dispatcher d(DispatchOptions{});
    const std::string batch = json::array({{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "ping"}},
                                           {{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}},
                                           {{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/call"},
                                            {"params", {{"name", "system_version"}, {"arguments", json::object()}}}},
                                           {{"jsonrpc", "2.0"}, {"id", 3}, {"method", "nothing/here"}},
                                           5})
                                  .dump();
    McpSession old;
    initialize(d, old, "2025-03-26");
    const json answers = json::parse(handleMcpMessage(d, old, batch));
    REQUIRE(answers.is_array());
    REQUIRE(answers.size() == 4);
    CHECK(answers[0]["id"] == 1);
    CHECK(answers[1]["id"] == 2);
    CHECK(answers[1]["result"]["isError"] == false);
    CHECK(answers[2]["error"]["code"] == -32601);
    CHECK(answers[3]["error"]["code"] == -32600);
    CHECK(handleMcpMessage(d, old, R"([{"jsonrpc": "2.0", "method": "notifications/initialized"}])").empty());
    CHECK(json::parse(handleMcpMessage(d, old, "[]"))["error"]["code"] == -32600);
    CHECK(json::parse(handleMcpMessage(
              d, old, R"([{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}])"))["error"]["code"] ==
          -32600);
    for (const std::string version : {"2024-11-05", "2025-06-18", "2025-11-25"})
    {
        CAPTURE(version);
        McpSession s;
        initialize(d, s, version);
        const json refused = json::parse(handleMcpMessage(d, s, batch));
        CHECK(refused["error"]["code"] == -32600);
        CHECK(refused["error"]["message"].get<std::string>().find("2025-03-26") != std::string::npos);
    }
}

TEST_CASE("MCP --tools: only the commands under the prefixes are listed and callable")
{
    Dispatcher d(DispatchOptions{});
    McpSession s;
    s.toolPrefixes = {"nav.", "system_"};
    initialize(d, s, "2025-06-18");
    const json tools = toolsByName(d, s);
    size_t expected = 0;
    for (const auto& [id, def] : Registry::global().all())
        expected += id.rfind("nav.", 0) == 0 || id.rfind("system.", 0) == 0;
    CHECK(tools.size() == expected);
    CHECK(tools.contains("nav_bake"));
    CHECK(tools.contains("system_version"));
    CHECK_FALSE(tools.contains("ai_step"));
    const json refused = ask(d, s,
                             json{{"jsonrpc", "2.0"},
                                  {"id", 4},
                                  {"method", "tools/call"},
                                  {"params", {{"name", "space3d_new"}, {"arguments", json::object()}}}});
    CHECK(refused["error"]["code"] == -32602);
    CHECK_FALSE(s.state.world.hasScene());
    CHECK(mcpServesCommand({}, "ai.step"));
    CHECK(mcpServesCommand({"ai_"}, "ai.step"));
    CHECK_FALSE(mcpServesCommand({"ai_s"}, "ai.blackboard.set"));
}

TEST_CASE("MCP --session: state-changing calls are logged and a new server replays them")
{
    const auto root = scratchProject("session");
    DispatchOptions options;
    options.projectRoot = root;
    Dispatcher d(options);
    {
        McpSession first;
        first.sessionLog = root / "mcp.session";
        initialize(d, first, "2025-06-18");
        CHECK(callTool(d, first, "nav_bake", kBake)["isError"] == false);
        CHECK(callTool(d, first, "nav_path", {{"from", {1, 1}}, {"to", {8, 1}}})["isError"] == false); // read-only
        CHECK(callTool(d, first, "nav_path", {{"from", "bad"}})["isError"] == true);
    }
    std::ifstream log(root / "mcp.session");
    std::string line;
    std::vector<std::string> lines;
    while (std::getline(log, line))
        lines.push_back(line);
    REQUIRE(lines.size() == 1);
    CHECK(json::parse(lines[0])["command"] == "nav.bake");
    McpSession second;
    REQUIRE(replaySessionLog(d, second.state, root / "mcp.session").is_null());
    initialize(d, second, "2025-06-18");
    const json info = callTool(d, second, "nav_info", json::object());
    CHECK(info["structuredContent"]["mesh"] == "m");
    std::filesystem::remove_all(root);
}

TEST_CASE("MCP server loop: the threaded server answers every call as the same calls handled one by one")
{
    // The worker thread is for input and output only: the answers (and so the session's
    // results) equal those of the synchronous handler on a fresh session, call by call.
    std::vector<json> requests = {
        {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", {{"protocolVersion", "2025-06-18"}}}},
        {{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}},
    };
    const std::vector<std::pair<std::string, json>> calls = {
        {"nav_bake", kBake},
        {"nav_agent_add", {{"mesh", "m"}, {"position", {1, 1}}, {"target", {18, 2}}}},
        {"nav_step", {{"frames", 40}}},
        {"nav_path", {{"from", {1, 1}}, {"to", {18, 2}}}},
        {"nav_agent_list", json::object()},
        {"nav_path", {{"from", "bad"}}},
    };
    for (size_t i = 0; i < calls.size(); ++i)
    {
        requests.push_back({{"jsonrpc", "2.0"},
                            {"id", 10 + int(i)},
                            {"method", "tools/call"},
                            {"params", {{"name", calls[i].first}, {"arguments", calls[i].second}}}});
        requests.push_back({{"jsonrpc", "2.0"}, {"id", "p" + std::to_string(i)}, {"method", "ping"}});
    }
    std::string input;
    for (const json& r : requests)
        input += r.dump() + "\n";

    Dispatcher threaded(DispatchOptions{});
    std::istringstream in(input);
    std::ostringstream out;
    CHECK(runMcpServer(threaded, in, out) == 0);
    std::map<std::string, json> served;
    std::vector<json> callOrder;
    std::istringstream lines(out.str());
    for (std::string line; std::getline(lines, line);)
    {
        const json answer = json::parse(line);
        served[answer["id"].dump()] = answer;
        if (answer["id"].is_number() && answer["id"].get<int>() >= 10)
            callOrder.push_back(answer["id"]);
    }
    CHECK(served.size() == requests.size() - 1); // every request but the notification
    CHECK(callOrder == std::vector<json>{10, 11, 12, 13, 14, 15}); // tool calls answer in order

    Dispatcher plain(DispatchOptions{});
    McpSession s;
    for (const json& r : requests)
    {
        const std::string answer = handleMcpMessage(plain, s, r.dump());
        if (answer.empty())
            continue;
        CAPTURE(r.dump());
        CHECK(served[r["id"].dump()] == json::parse(answer));
    }
    CHECK(served["12"]["result"]["structuredContent"]["frames"] == 40);
    CHECK(served["15"]["result"]["isError"] == true);
}
