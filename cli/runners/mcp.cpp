// The MCP server: JSON-RPC 2.0 over stdio with initialize (version negotiation), ping,
// tools/list (schemas, output schemas, annotations) and tools/call (text, structured
// content, pictures).

#include "runners/mcp.h"

#include "surface/lines.h"
#include "surface/schemas.h"

#include "spark/core/path.h"

#include <algorithm>
#include <filesystem>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

namespace spark::cli
{
namespace
{

/// First version with tool annotations; first with titles, output schemas and structured content.
constexpr std::string_view kAnnotationsSince = "2025-03-26";
constexpr std::string_view kStructuredSince = "2025-06-18";
/// Largest picture attached to a tool result (a 4096 × 4096 capture is well below). [Units: bytes]
constexpr size_t kMaxPictureBytes = 64u * 1024u * 1024u;

// ISO dates compare as text.
bool atLeast(std::string_view version, std::string_view since)
{
    return version >= since;
}

json rpcError(const json& id, int code, const std::string& message)
{
    return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

json rpcResult(const json& id, json result)
{
    return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

std::string toolName(const std::string& id)
{
    std::string name = id;
    for (char& c : name)
        if (c == '.')
            c = '_';
    return name;
}

// "nav.debug.capture" -> "Navigation: debug capture".
std::string toolTitle(const std::string& id)
{
    static const std::pair<const char*, const char*> kAreas[] = {{"nav", "Navigation"},
                                                                 {"ai", "AI"},
                                                                 {"space3d", "3D space"},
                                                                 {"scene2d", "2D scene"},
                                                                 {"system", "System"}};
    const size_t dot = id.find('.');
    std::string area = id.substr(0, dot);
    for (const auto& [prefix, name] : kAreas)
        if (area == prefix)
            area = name;
    if (dot == std::string::npos)
        return area;
    std::string rest = id.substr(dot + 1);
    for (char& c : rest)
        if (c == '.' || c == '_')
            c = ' ';
    return area + ": " + rest;
}

// The command's schema document (embedded, or given inline by the host).
json schemaDocument(const CommandDef& def)
{
    if (!def.inlineSchema.is_null())
        return def.inlineSchema;
    const CommandSchema* schema = findCommandSchema(def.id);
    return schema ? schema->document : json::object();
}

bool isObjectSchema(const json& schema)
{
    return schema.is_object() && schema.contains("type") && schema["type"] == "object";
}

// An MCP output schema must be an object schema: an object result schema is used
// as it is (without `$schema`, which clients' validators may not know); any other
// is wrapped as `{"result": ...}`, with its definitions lifted to the top so that
// `#/definitions/...` references still resolve.
json outputSchemaOf(const json& resultSchema)
{
    json schema = resultSchema.is_object() ? resultSchema : json::object();
    schema.erase("$schema");
    if (isObjectSchema(schema))
        return schema;
    json wrapper = {{"type", "object"}, {"required", {"result"}}, {"additionalProperties", false}};
    for (const char* key : {"definitions", "$defs"})
        if (schema.contains(key))
        {
            wrapper[key] = schema[key];
            schema.erase(key);
        }
    wrapper["properties"] = {{"result", schema}};
    return wrapper;
}

// The input schema: the params schema, always an object schema.
json inputSchemaOf(const json& paramsSchema)
{
    json schema = paramsSchema.is_object() ? paramsSchema : json::object();
    schema.erase("$schema");
    if (!schema.contains("type"))
        schema["type"] = "object";
    return schema;
}

const CommandDef* commandForTool(const Dispatcher& dispatcher, const std::string& name)
{
    // Ids may themselves contain `_`, so compare the mapped names.
    for (const auto& [id, def] : dispatcher.registry().all())
        if (toolName(id) == name)
            return &def;
    return nullptr;
}

json listTools(const Dispatcher& dispatcher, std::string_view version)
{
    json tools = json::array();
    for (const auto& [id, def] : dispatcher.registry().all())
        tools.push_back(mcpToolFor(def, version));
    return {{"tools", tools}};
}

std::string base64(const std::vector<unsigned char>& bytes)
{
    static constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3)
    {
        const unsigned v = (unsigned(bytes[i]) << 16) | (unsigned(bytes[i + 1]) << 8) | bytes[i + 2];
        out += kDigits[(v >> 18) & 63];
        out += kDigits[(v >> 12) & 63];
        out += kDigits[(v >> 6) & 63];
        out += kDigits[v & 63];
    }
    if (i + 1 == bytes.size())
    {
        const unsigned v = unsigned(bytes[i]) << 16;
        out += kDigits[(v >> 18) & 63];
        out += kDigits[(v >> 12) & 63];
        out += "==";
    }
    else if (i + 2 == bytes.size())
    {
        const unsigned v = (unsigned(bytes[i]) << 16) | (unsigned(bytes[i + 1]) << 8);
        out += kDigits[(v >> 18) & 63];
        out += kDigits[(v >> 12) & 63];
        out += kDigits[(v >> 6) & 63];
        out += '=';
    }
    return out;
}

// The project-relative path of the picture a successful answer of `id` points at, if any.
std::string pictureOf(const std::string& id, const json& result)
{
    if (!result.is_object())
        return {};
    if (id == "nav.debug.capture" && result.contains("path") && result["path"].is_string())
        return result["path"].get<std::string>();
    if (id == "nav.golden.check" && result.value("equal", true) == false && result.contains("diff") &&
        result["diff"].is_string())
        return result["diff"].get<std::string>();
    return {};
}

// The PNG at `relative` (inside the project) as MCP image content; a text note when it cannot be read.
json pictureContent(const Dispatcher& dispatcher, const std::string& relative)
{
    static constexpr unsigned char kPngSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    const auto path = resolveInProject(dispatcher.options().projectRoot, relative);
    if (!path.ok())
        return {{"type", "text"},
                {"text", "the picture " + relative + " is not attached: " + path.error().message}};
    FileReadDef def;
    def.maxBytes = kMaxPictureBytes;
    const auto bytes = readBinaryFile(path.value(), def);
    if (!bytes.ok())
        return {{"type", "text"},
                {"text", "the picture " + relative + " is not attached: " + bytes.error().message}};
    if (bytes.value().size() < 8 || !std::equal(kPngSignature, kPngSignature + 8, bytes.value().begin()))
        return {{"type", "text"}, {"text", "the picture " + relative + " is not attached: not a PNG file"}};
    return {{"type", "image"}, {"data", base64(bytes.value())}, {"mimeType", "image/png"}};
}

json callTool(Dispatcher& dispatcher, scene::SessionState& io, const CommandDef& def, const json& arguments,
              std::string_view version)
{
    json answer = dispatcher.call(io, def.id, arguments);
    const bool ok = answer["ok"].get<bool>();
    if (!ok)
        return {{"content", json::array({{{"type", "text"}, {"text", dumpJson(answer)}}})},
                {"isError", true}};
    const json& result = answer["result"];
    json content = json::array({{{"type", "text"}, {"text", dumpJson(result)}}});
    const std::string picture = pictureOf(def.id, result);
    if (!picture.empty())
        content.push_back(pictureContent(dispatcher, picture));
    json out = {{"content", std::move(content)}, {"isError", false}};
    if (atLeast(version, kStructuredSince))
    {
        const json resultSchema = schemaDocument(def).value("result", json::object());
        out["structuredContent"] = isObjectSchema(resultSchema) ? result : json{{"result", result}};
    }
    return out;
}

// Resources: the project's samples, scenario files and goldens, as `spark://project/<path>`.
constexpr std::string_view kResourcePrefix = "spark://project/";
constexpr const char* kResourceFolders[] = {"samples", "tests/scenarios", "goldens"};
constexpr size_t kMaxResources = 2000;
constexpr size_t kMaxResourceBytes = 16u * 1024u * 1024u;

std::string mimeTypeOf(const std::filesystem::path& path)
{
    const std::string ext = path.extension().string();
    if (ext == ".json")
        return "application/json";
    if (ext == ".png")
        return "image/png";
    if (ext == ".obj")
        return "model/obj";
    return {};
}

json listResources(const Dispatcher& dispatcher)
{
    namespace fs = std::filesystem;
    const fs::path root = dispatcher.options().projectRoot;
    std::vector<std::string> found;
    for (const char* folder : kResourceFolders)
    {
        std::error_code ec;
        const fs::path base = root / folder;
        if (!fs::is_directory(fs::symlink_status(base, ec)))
            continue;
        // Symbolic links are neither followed nor listed: nothing outside the project.
        for (fs::recursive_directory_iterator it(base, fs::directory_options::skip_permission_denied, ec),
             end;
             !ec && it != end && found.size() < kMaxResources; it.increment(ec))
        {
            if (!it->is_regular_file(ec) || it->is_symlink(ec) || mimeTypeOf(it->path()).empty())
                continue;
            found.push_back(it->path().lexically_relative(root).generic_string());
        }
    }
    std::sort(found.begin(), found.end());
    json resources = json::array();
    for (const std::string& rel : found)
        resources.push_back(
            {{"uri", std::string(kResourcePrefix) + rel}, {"name", rel}, {"mimeType", mimeTypeOf(rel)}});
    return {{"resources", resources}};
}

// `resources/read`: the file under the same path rules as the commands; a JSON-RPC error otherwise.
json readResource(const Dispatcher& dispatcher, const json& id, const json& params)
{
    if (!params.is_object() || !params.contains("uri") || !params["uri"].is_string())
        return rpcError(id, -32602, "resources/read needs a uri");
    const std::string uri = params["uri"].get<std::string>();
    if (uri.rfind(kResourcePrefix, 0) != 0)
        return rpcError(id, -32602,
                        "not a Spark resource: the uri must start with " + std::string(kResourcePrefix));
    const std::string rel = uri.substr(kResourcePrefix.size());
    const std::string mime = mimeTypeOf(rel);
    if (mime.empty())
        return rpcError(id, -32602, "only .json, .obj and .png files are resources");
    const auto path = resolveInProject(dispatcher.options().projectRoot, rel);
    if (!path.ok())
        return rpcError(id, -32602, path.error().message);
    FileReadDef def;
    def.maxBytes = kMaxResourceBytes;
    const auto bytes = readBinaryFile(path.value(), def);
    if (!bytes.ok())
    {
        json error = rpcError(id, -32002, "resource not found: " + bytes.error().message);
        error["error"]["data"] = {{"uri", uri}};
        return error;
    }
    json content = {{"uri", uri}, {"mimeType", mime}};
    if (mime == "image/png")
        content["blob"] = base64(bytes.value());
    else
        content["text"] = std::string(bytes.value().begin(), bytes.value().end());
    return rpcResult(id, {{"contents", json::array({content})}});
}

std::string handle(Dispatcher& dispatcher, scene::SessionState& io, std::string* negotiated,
                   std::string_view line) noexcept
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
            return dumpJson(rpcError(
                requestId, -32600,
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
        const std::string version =
            negotiated && !negotiated->empty() ? *negotiated : std::string(kMcpProtocolVersions.front());
        if (method == "initialize")
        {
            std::string requested;
            if (params.is_object() && params.contains("protocolVersion") &&
                params["protocolVersion"].is_string())
                requested = params["protocolVersion"].get<std::string>();
            const std::string answer = negotiateMcpVersion(requested);
            if (negotiated)
                *negotiated = answer;
            json serverInfo = {{"name", "spark"}, {"version", SPARK_VERSION}};
            if (atLeast(answer, kStructuredSince))
                serverInfo["title"] = "Spark navigation and game AI";
            json result = {{"protocolVersion", answer},
                           {"capabilities",
                            {{"tools", {{"listChanged", false}}}, {"resources", {{"listChanged", false}}}}},
                           {"serverInfo", serverInfo}};
            if (atLeast(answer, kAnnotationsSince))
                result["instructions"] =
                    "Every Spark command is a tool named with _ for . (nav.bake -> nav_bake). Tools share "
                    "one "
                    "session: bake a mesh, then query it. Paths are relative to the project folder. "
                    "nav_debug_capture answers with the picture it drew. The project's samples, scenario "
                    "files and "
                    "goldens are resources.";
            return dumpJson(rpcResult(id, std::move(result)));
        }
        if (method == "ping")
            return dumpJson(rpcResult(id, json::object()));
        if (method == "resources/list")
            return dumpJson(rpcResult(id, listResources(dispatcher)));
        if (method == "resources/read")
            return dumpJson(readResource(dispatcher, id, params));
        if (method == "resources/templates/list")
            return dumpJson(rpcResult(id, {{"resourceTemplates", json::array()}}));
        if (method == "tools/list")
            return dumpJson(rpcResult(id, listTools(dispatcher, version)));
        if (method == "tools/call")
        {
            if (!params.is_object() || !params.contains("name") || !params["name"].is_string())
                return dumpJson(rpcError(id, -32602, "tools/call needs a tool name"));
            const CommandDef* def = commandForTool(dispatcher, params["name"].get<std::string>());
            if (!def)
                return dumpJson(
                    rpcError(id, -32602, "unknown tool '" + params["name"].get<std::string>() + "'"));
            const json arguments = params.contains("arguments") ? params["arguments"] : json::object();
            if (!arguments.is_object() && !arguments.is_null())
                return dumpJson(rpcError(id, -32602, "tools/call arguments must be an object"));
            return dumpJson(
                rpcResult(id, callTool(dispatcher, io, *def, arguments.is_null() ? json::object() : arguments,
                                       version)));
        }
        return dumpJson(rpcError(id, -32601, "method not found: " + method));
    }
    catch (...)
    {
        return dumpJson(rpcError(nullptr, -32603, "internal error"));
    }
}

} // namespace

std::string negotiateMcpVersion(std::string_view requested)
{
    for (std::string_view v : kMcpProtocolVersions)
        if (v == requested)
            return std::string(v);
    return std::string(kMcpProtocolVersions.front());
}

json mcpToolFor(const CommandDef& def, std::string_view version)
{
    const json document = schemaDocument(def);
    json tool = {{"name", toolName(def.id)},
                 {"description", document.value("summary", std::string())},
                 {"inputSchema", inputSchemaOf(document.value("params", json::object()))}};
    const std::string title = toolTitle(def.id);
    if (atLeast(version, kStructuredSince))
    {
        tool["title"] = title;
        tool["outputSchema"] = outputSchemaOf(document.value("result", json::object()));
    }
    if (atLeast(version, kAnnotationsSince))
    {
        const bool readOnly = def.mutates == Mutates::No && !def.hints.writesFiles;
        // A command that changes nothing is trivially idempotent and never destructive.
        tool["annotations"] = {{"title", title},
                               {"readOnlyHint", readOnly},
                               {"destructiveHint", !readOnly && def.hints.destructive},
                               {"idempotentHint", readOnly || def.hints.idempotent},
                               {"openWorldHint", false}};
    }
    return tool;
}

std::string handleMcpMessage(Dispatcher& dispatcher, McpSession& session, std::string_view line) noexcept
{
    return handle(dispatcher, session.state, &session.protocolVersion, line);
}

std::string handleMcpMessage(Dispatcher& dispatcher, scene::SessionState& io, std::string_view line) noexcept
{
    return handle(dispatcher, io, nullptr, line);
}

int runMcpServer(Dispatcher& dispatcher, std::istream& in, std::ostream& out)
{
    McpSession session;
    std::string line;
    for (;;)
    {
        const LineRead read = readBoundedLine(in, line);
        if (read == LineRead::End)
            break;
        if (read == LineRead::Line && line.find_first_not_of(" \t\r") == std::string::npos)
            continue;
        const std::string response =
            read == LineRead::TooLong
                ? dumpJson(rpcError(nullptr, -32700, "the message is longer than 64 MiB"))
                : handleMcpMessage(dispatcher, session, line);
        if (!response.empty())
        {
            out << response << "\n";
            out.flush();
        }
    }
    return 0;
}

} // namespace spark::cli
