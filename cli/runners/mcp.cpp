// The MCP server: JSON-RPC 2.0 over stdio with initialize (version negotiation), ping,
// tools/list (schemas, output schemas, annotations), tools/call (text, structured
// content, pictures, progress, cancellation), resources and batches (2025-03-26).
// `runMcpServer` reads on the calling thread and runs tool calls on one worker
// thread, in order; the threads are for input and output only, so every result is
// what the same calls in the same order give in one thread.

#include "runners/mcp.h"

#include "surface/lines.h"
#include "surface/schemas.h"

#include "runners/recording.h"
#include "runners/session_log.h"

#include "spark/core/path.h"
#include "spark/core/work.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <istream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

namespace spark::cli
{
namespace
{

/// First version with tool annotations; first with titles, output schemas and structured content.
constexpr std::string_view kAnnotationsSince = "2025-03-26";
constexpr std::string_view kStructuredSince = "2025-06-18";
/// The one version whose JSON-RPC has batches (2025-06-18 removed them).
constexpr std::string_view kBatchVersion = "2025-03-26";
/// Least time between two progress notifications of one call. [Units: ms]
constexpr int kProgressEveryMs = 100;
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
        return clientSafeSchema(schema);
    json wrapper = {{"type", "object"}, {"required", {"result"}}, {"additionalProperties", false}};
    for (const char* key : {"definitions", "$defs"})
        if (schema.contains(key))
        {
            wrapper[key] = schema[key];
            schema.erase(key);
        }
    wrapper["properties"] = {{"result", schema}};
    return clientSafeSchema(wrapper);
}

// The input schema: the params schema, always an object schema.
json inputSchemaOf(const json& paramsSchema)
{
    json schema = paramsSchema.is_object() ? paramsSchema : json::object();
    schema.erase("$schema");
    if (!schema.contains("type"))
        schema["type"] = "object";
    return clientSafeSchema(schema);
}

const CommandDef* commandForTool(const Dispatcher& dispatcher, const std::vector<std::string>& prefixes,
                                 const std::string& name)
{
    // Ids may themselves contain `_`, so compare the mapped names.
    for (const auto& [id, def] : dispatcher.registry().all())
        if (toolName(id) == name && mcpServesCommand(prefixes, id))
            return &def;
    return nullptr;
}

json listTools(const Dispatcher& dispatcher, const std::vector<std::string>& prefixes, std::string_view version)
{
    json tools = json::array();
    for (const auto& [id, def] : dispatcher.registry().all())
        if (mcpServesCommand(prefixes, id))
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

bool isRecording(const std::filesystem::path& path)
{
    const std::string name = path.filename().string();
    const std::string suffix = kRecordingSuffix;
    return name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string mimeTypeOf(const std::filesystem::path& path)
{
    if (isRecording(path))
        return "application/gzip"; // a Spark recording (docs/recording.md)
    const std::string ext = path.extension().string();
    if (ext == ".json")
        return "application/json";
    if (ext == ".png")
        return "image/png";
    if (ext == ".obj")
        return "model/obj";
    return {};
}

// Whether `path` (resolved inside the project) lies in one of the resource folders, links followed.
bool inResourceFolder(const std::filesystem::path& root, const std::filesystem::path& path)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path target = fs::weakly_canonical(path, ec);
    if (ec)
        return false;
    auto under = [&](const char* folder) {
        const fs::path base = fs::weakly_canonical(root / folder, ec);
        if (ec)
            return false;
        const fs::path rel = target.lexically_relative(base);
        return !rel.empty() && *rel.begin() != ".." && *rel.begin() != ".";
    };
    for (const char* folder : kResourceFolders)
        if (under(folder))
            return true;
    // Recordings are resources in their own folders too.
    for (const char* folder : kRecordingFolders)
        if (isRecording(target) && under(folder))
            return true;
    return false;
}

json listResources(const Dispatcher& dispatcher)
{
    namespace fs = std::filesystem;
    const fs::path root = dispatcher.options().projectRoot;
    std::vector<std::string> found;
    std::vector<std::string> folders(std::begin(kResourceFolders), std::end(kResourceFolders));
    folders.insert(folders.end(), std::begin(kRecordingFolders), std::end(kRecordingFolders));
    for (const std::string& folder : folders)
    {
        const bool recordingsOnly = std::find(std::begin(kResourceFolders), std::end(kResourceFolders), folder) ==
                                    std::end(kResourceFolders);
        std::error_code ec;
        const fs::path base = root / folder;
        if (!fs::is_directory(fs::symlink_status(base, ec)))
            continue;
        // Symbolic links are neither followed nor listed: nothing outside the project.
        for (fs::recursive_directory_iterator it(base, fs::directory_options::skip_permission_denied, ec),
             end;
             !ec && it != end && found.size() < kMaxResources; it.increment(ec))
        {
            if (!it->is_regular_file(ec) || it->is_symlink(ec) || mimeTypeOf(it->path()).empty() ||
                (recordingsOnly && !isRecording(it->path())))
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
        return rpcError(id, -32602, "only .json, .obj, .png and .rec.gz files are resources");
    const auto path = resolveInProject(dispatcher.options().projectRoot, rel);
    if (!path.ok())
        return rpcError(id, -32602, path.error().message);
    if (!inResourceFolder(dispatcher.options().projectRoot, path.value()))
        return rpcError(id, -32602, "not a listed resource: resources are the files under samples/, tests/scenarios/ and "
                                    "goldens/, and the recordings under recordings/ and out/");
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
    if (mime == "image/png" || mime == "application/gzip")
        content["blob"] = base64(bytes.value());
    else
        content["text"] = std::string(bytes.value().begin(), bytes.value().end());
    return rpcResult(id, {{"contents", json::array({content})}});
}

// ---- Schemas every client accepts ----------------------------------------------------

// Keywords whose value is a map of schemas, a list of schemas, or one schema.
constexpr const char* kSchemaMaps[] = {"properties", "patternProperties", "definitions", "$defs", "dependentSchemas"};
constexpr const char* kSchemaLists[] = {"anyOf", "oneOf", "allOf", "prefixItems"};
constexpr const char* kSchemaSingles[] = {"items",         "additionalProperties", "additionalItems", "not",
                                          "contains",      "propertyNames",        "if",              "then",
                                          "else",          "unevaluatedItems",     "unevaluatedProperties"};
// Keywords that describe without constraining.
constexpr const char* kAnnotationKeywords[] = {"description", "title",    "default",  "examples",
                                               "$comment",    "deprecated", "readOnly", "writeOnly"};

template <size_t N> bool isOneOf(const std::string& key, const char* const (&names)[N])
{
    return std::find_if(std::begin(names), std::end(names), [&](const char* n) { return key == n; }) != std::end(names);
}

// Any JSON value, spelled out: `{}` draws warnings from strict validators.
json anyJsonValue()
{
    json types = json::array();
    for (const char* t : {"string", "number", "boolean", "object", "array", "null"})
        types.push_back({{"type", t}});
    return types;
}

// ---- One message -----------------------------------------------------------------------

/// What a connection brings to the handling of one message.
struct Connection
{
    scene::SessionState& io;
    std::string* version; ///< The negotiated version (written by initialize); null: the latest, fixed.
    const std::vector<std::string>& prefixes;
    const std::filesystem::path& sessionLog;

    std::string current() const
    {
        return version && !version->empty() ? *version : std::string(kMcpProtocolVersions.front());
    }
};

/// What a JSON-RPC message is.
enum class MessageKind
{
    Request,      ///< A method and an id: answered.
    Notification, ///< A method and no id: never answered.
    Response,     ///< A result or an error to a request of ours (we send none): ignored.
    Invalid,      ///< Anything else: answered with -32600.
};

MessageKind kindOf(const json& message)
{
    if (!message.is_object())
        return MessageKind::Invalid;
    if (message.contains("method"))
        return message.contains("id") ? MessageKind::Request : MessageKind::Notification;
    if (message.contains("id") && (message.contains("result") || message.contains("error")))
        return MessageKind::Response;
    return MessageKind::Invalid;
}

// The request's id when it is one JSON-RPC allows (string, number or null), else null.
json idOf(const json& message)
{
    if (message.is_object() && message.contains("id") &&
        (message["id"].is_string() || message["id"].is_number() || message["id"].is_null()))
        return message["id"];
    return nullptr;
}

const std::string kInstructions =
    "Every Spark command is a tool named with _ for . (nav.bake -> nav_bake). Tools share one session: bake a mesh, "
    "then query it. Paths are relative to the project folder. nav_debug_capture answers with the picture it drew. "
    "Long tools (nav_bake, nav_step, space3d_step, ai_step, ai_until, ai_scenario_run) report progress when the "
    "call has a progressToken and stop, changing nothing, when the call is cancelled. The project's samples, "
    "scenario files and goldens are resources.";

json initializeResult(Connection& conn, const json& params)
{
    std::string requested;
    if (params.is_object() && params.contains("protocolVersion") && params["protocolVersion"].is_string())
        requested = params["protocolVersion"].get<std::string>();
    const std::string answer = negotiateMcpVersion(requested);
    if (conn.version)
        *conn.version = answer;
    json serverInfo = {{"name", "spark"}, {"version", SPARK_VERSION}};
    if (atLeast(answer, kStructuredSince))
        serverInfo["title"] = "Spark navigation and game AI";
    return {{"protocolVersion", answer},
            {"capabilities", {{"tools", {{"listChanged", false}}}, {"resources", {{"listChanged", false}}}}},
            {"serverInfo", serverInfo},
            {"instructions", kInstructions}};
}

// tools/call: the command's answer as a tool result; a successful state change is logged (--session).
json answerToolCall(Dispatcher& dispatcher, Connection& conn, const json& id, const json& params)
{
    if (!params.is_object() || !params.contains("name") || !params["name"].is_string())
        return rpcError(id, -32602, "tools/call needs a tool name");
    const std::string name = params["name"].get<std::string>();
    const CommandDef* def = commandForTool(dispatcher, conn.prefixes, name);
    if (!def)
        return rpcError(id, -32602,
                        "unknown tool '" + name + "'" + (conn.prefixes.empty() ? "" : " (this server serves --tools only)"));
    const json arguments = params.contains("arguments") ? params["arguments"] : json::object();
    if (!arguments.is_object() && !arguments.is_null())
        return rpcError(id, -32602, "tools/call arguments must be an object");
    const json args = arguments.is_null() ? json::object() : arguments;
    const uint64_t before = conn.io.commandsRun;
    json result = callTool(dispatcher, conn.io, *def, args, conn.current());
    if (!conn.sessionLog.empty() && !result["isError"].get<bool>() && conn.io.commandsRun != before)
    {
        const json logError = appendSessionLog(conn.sessionLog, def->id, args);
        if (!logError.is_null())
            result = {{"content", json::array({{{"type", "text"},
                                                {"text", "the call succeeded but could not be logged to the session "
                                                         "file: " + dumpJson(logError)}}})},
                      {"isError", true}};
    }
    return rpcResult(id, std::move(result));
}

/// Whether a request reads or writes the session state (tool calls), so it must wait its turn.
bool touchesSession(const json& message)
{
    return message.is_object() && message.contains("method") && message["method"] == "tools/call";
}

/// The answer to one message, or none (notifications, responses). Never throws.
std::optional<json> answerMessage(Dispatcher& dispatcher, Connection& conn, const json& message) noexcept
{
    try
    {
        const MessageKind kind = kindOf(message);
        if (kind == MessageKind::Notification || kind == MessageKind::Response)
            return std::nullopt; // cancellations are acted on by the server loop, the rest needs nothing
        const json requestId = idOf(message);
        if (kind == MessageKind::Invalid || !message.contains("jsonrpc") || message["jsonrpc"] != "2.0" ||
            !message["method"].is_string())
            return rpcError(requestId, -32600,
                            "not a JSON-RPC 2.0 request: it needs \"jsonrpc\": \"2.0\" and a string \"method\"");
        if (requestId.is_null() && !message["id"].is_null())
            return rpcError(nullptr, -32600, "the id must be a string, a number or null");
        if (message.contains("params") && !message["params"].is_object() && !message["params"].is_array())
            return rpcError(requestId, -32602, "params must be an object");
        const std::string method = message["method"].get<std::string>();
        const json& id = message["id"];
        const json params = message.contains("params") ? message["params"] : json::object();
        if (method == "initialize")
            return rpcResult(id, initializeResult(conn, params));
        if (method == "ping")
            return rpcResult(id, json::object());
        if (method == "resources/list")
            return rpcResult(id, listResources(dispatcher));
        if (method == "resources/read")
            return readResource(dispatcher, id, params);
        if (method == "resources/templates/list")
            return rpcResult(id, {{"resourceTemplates", json::array()}});
        if (method == "tools/list")
            return rpcResult(id, listTools(dispatcher, conn.prefixes, conn.current()));
        if (method == "tools/call")
            return answerToolCall(dispatcher, conn, id, params);
        return rpcError(id, -32601, "method not found: " + method);
    }
    catch (...)
    {
        return rpcError(idOf(message), -32603, "internal error");
    }
}

// ---- Exact ids ---------------------------------------------------------------------------
// The parser keeps integers of up to 64 bits exactly; a longer integer id becomes a double.
// Such an id travels as a placeholder string and its text as sent is put back in the answer.

constexpr std::string_view kIdPlaceholder = R"(\u0001spark-request-id\u0001)"; // as dumped

// The text of the top-level "id" of `text` when it is an integer the parser could not keep, else empty.
std::string longIntegerId(std::string_view text, const json& message)
{
    if (!message.is_object() || !message.contains("id") || !message["id"].is_number_float())
        return {};
    int depth = 0;
    for (size_t i = 0; i < text.size(); ++i)
    {
        const char c = text[i];
        if (c == '{' || c == '[')
            ++depth;
        else if (c == '}' || c == ']')
            --depth;
        else if (c == '"')
        {
            const size_t start = i + 1;
            for (++i; i < text.size() && text[i] != '"'; ++i)
                if (text[i] == '\\')
                    ++i;
            if (depth != 1 || text.substr(start, i - start) != "id")
                continue;
            size_t k = i + 1;
            while (k < text.size() && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r' || text[k] == '\n'))
                ++k;
            if (k >= text.size() || text[k] != ':')
                continue; // "id" as a value, not a key
            ++k;
            while (k < text.size() && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r' || text[k] == '\n'))
                ++k;
            size_t end = k;
            while (end < text.size() && (text[end] == '-' || (text[end] >= '0' && text[end] <= '9')))
                ++end;
            const bool integer = end > k && (end == text.size() || std::string_view(".eE").find(text[end]) ==
                                                                       std::string_view::npos);
            return integer ? std::string(text.substr(k, end - k)) : std::string();
        }
    }
    return {};
}

// `message` with a long integer id replaced by the placeholder; `rawId` gets its text.
void holdLongId(std::string_view text, json& message, std::string& rawId)
{
    rawId = longIntegerId(text, message);
    if (!rawId.empty())
        message["id"] = "\x01spark-request-id\x01";
}

// The answer's text with the id as it was sent.
std::string dumpWithId(const json& answer, const std::string& rawId)
{
    std::string text = dumpJson(answer);
    if (rawId.empty())
        return text;
    const std::string quoted = "\"" + std::string(kIdPlaceholder) + "\"";
    if (const size_t at = text.find(quoted); at != std::string::npos)
        text.replace(at, quoted.size(), rawId);
    return text;
}

/// Why a batch cannot be served, or empty.
std::string batchProblem(const Connection& conn, const json& batch)
{
    if (conn.current() != kBatchVersion)
        return "JSON-RPC batches are part of MCP " + std::string(kBatchVersion) + " only; this session speaks " +
               conn.current() + ": send one message per line";
    if (batch.empty())
        return "an empty batch";
    for (const json& m : batch)
        if (m.is_object() && m.contains("method") && m["method"] == "initialize")
            return "initialize must not be part of a batch";
    return {};
}

std::string handleText(Dispatcher& dispatcher, Connection& conn, std::string_view line) noexcept
{
    try
    {
        json message;
        std::string why;
        if (!parseJsonText(line, message, why))
            return dumpJson(rpcError(nullptr, -32700, "parse error: " + why));
        if (!message.is_array())
        {
            std::string rawId;
            holdLongId(line, message, rawId);
            const std::optional<json> answer = answerMessage(dispatcher, conn, message);
            return answer ? dumpWithId(*answer, rawId) : std::string();
        }
        const std::string problem = batchProblem(conn, message);
        if (!problem.empty())
            return dumpJson(rpcError(nullptr, -32600, problem));
        json answers = json::array();
        for (const json& m : message)
            if (std::optional<json> answer = answerMessage(dispatcher, conn, m))
                answers.push_back(std::move(*answer));
        return answers.empty() ? std::string() : dumpJson(answers);
    }
    catch (...)
    {
        return dumpJson(rpcError(nullptr, -32603, "internal error"));
    }
}

// ---- The server loop --------------------------------------------------------------------

/// Reads messages on the calling thread and runs tool calls on one worker, in order.
class Server
{
public:
    Server(Dispatcher& dispatcher, McpSession& session, std::ostream& out)
        : m_dispatcher(dispatcher), m_session(session), m_out(out)
    {
    }

    int serve(std::istream& in)
    {
        // Reading a tied stream flushes its output stream (std::cin flushes std::cout) from this
        // thread, outside the output lock: untie it; every write flushes itself.
        in.tie(nullptr);
        std::thread worker([this] { work(); });
        std::string line;
        for (;;)
        {
            const LineRead read = readBoundedLine(in, line);
            if (read == LineRead::End)
                break;
            if (read == LineRead::TooLong)
                write(dumpJson(rpcError(nullptr, -32700, "the message is longer than 64 MiB")));
            else if (line.find_first_not_of(" \t\r") != std::string::npos)
                take(line);
        }
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_ended = true;
        }
        m_wake.notify_one();
        worker.join(); // the calls already read still run and answer
        return 0;
    }

private:
    /// A message (or batch) waiting for the worker.
    struct Job
    {
        json message;
        std::string version;                  ///< The version when it was read.
        std::shared_ptr<WorkControl> control; ///< A single tool call's (registered by its id).
        std::string rawId;                    ///< A long integer id as sent (see holdLongId).
    };

    // One message read: tool calls (and batches) wait their turn; the rest is answered now.
    void take(const std::string& line)
    {
        json message;
        std::string why;
        if (!parseJsonText(line, message, why))
            return write(dumpJson(rpcError(nullptr, -32700, "parse error: " + why)));
        Connection conn = readerConnection();
        if (message.is_array())
        {
            const std::string problem = batchProblem(conn, message);
            if (!problem.empty())
                return write(dumpJson(rpcError(nullptr, -32600, problem)));
            return enqueue(Job{std::move(message), conn.current(), nullptr, {}});
        }
        std::string rawId;
        holdLongId(line, message, rawId);
        if (kindOf(message) == MessageKind::Notification && message["method"] == "notifications/cancelled")
            return cancel(message);
        if (kindOf(message) == MessageKind::Request && touchesSession(message))
        {
            auto control = std::make_shared<WorkControl>();
            {
                std::lock_guard<std::mutex> lock(m_mutex);
                m_running[idOf(message).dump()] = control;
            }
            return enqueue(Job{std::move(message), conn.current(), std::move(control), std::move(rawId)});
        }
        if (const std::optional<json> answer = answerMessage(m_dispatcher, conn, message))
            write(dumpWithId(*answer, rawId));
    }

    // The reader's connection: it writes the negotiated version and never touches the state.
    Connection readerConnection()
    {
        return Connection{m_session.state, &m_session.protocolVersion, m_session.toolPrefixes, m_session.sessionLog};
    }

    void enqueue(Job job)
    {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_jobs.push_back(std::move(job));
        }
        m_wake.notify_one();
    }

    // notifications/cancelled {requestId}: the call stops at its next safe point (or never starts).
    void cancel(const json& message)
    {
        if (!message.contains("params") || !message["params"].is_object() || !message["params"].contains("requestId"))
            return;
        std::lock_guard<std::mutex> lock(m_mutex);
        const auto it = m_running.find(message["params"]["requestId"].dump());
        if (it != m_running.end())
            it->second->requestCancel();
    }

    void work()
    {
        for (;;)
        {
            Job job;
            {
                std::unique_lock<std::mutex> lock(m_mutex);
                m_wake.wait(lock, [this] { return m_ended || !m_jobs.empty(); });
                if (m_jobs.empty())
                    return;
                job = std::move(m_jobs.front());
                m_jobs.pop_front();
            }
            std::string version = job.version;
            Connection conn{m_session.state, &version, m_session.toolPrefixes, m_session.sessionLog};
            if (!job.message.is_array())
            {
                if (std::optional<json> answer = runCall(conn, job.message, job.control))
                    write(dumpWithId(*answer, job.rawId));
                continue;
            }
            json answers = json::array();
            for (const json& m : job.message)
            {
                std::optional<json> answer;
                if (kindOf(m) == MessageKind::Notification && m["method"] == "notifications/cancelled")
                    cancel(m);
                else if (kindOf(m) == MessageKind::Request && touchesSession(m))
                {
                    auto control = std::make_shared<WorkControl>();
                    {
                        std::lock_guard<std::mutex> lock(m_mutex);
                        m_running[idOf(m).dump()] = control;
                    }
                    answer = runCall(conn, m, control);
                }
                else
                    answer = answerMessage(m_dispatcher, conn, m);
                if (answer)
                    answers.push_back(std::move(*answer));
            }
            if (!answers.empty())
                write(dumpJson(answers));
        }
    }

    // Runs one tool call under its control (progress, cancellation). A cancelled call
    // changed nothing and is not answered: the protocol asks that no response follow a
    // cancellation, and the client has stopped waiting.
    std::optional<json> runCall(Connection& conn, const json& message, const std::shared_ptr<WorkControl>& control)
    {
        std::optional<json> answer;
        if (!control || !control->cancelRequested())
        {
            WorkControl fallback;
            WorkControl& c = control ? *control : fallback;
            const json token = progressTokenOf(message);
            if (!token.is_null())
                c.setProgress(progressSender(token, c));
            WorkScope scope(&c);
            answer = answerMessage(m_dispatcher, conn, message);
        }
        const bool cancelled = control && control->cancelRequested();
        if (control)
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_running.erase(idOf(message).dump());
        }
        return cancelled ? std::nullopt : answer;
    }

    static json progressTokenOf(const json& message)
    {
        if (!message.contains("params") || !message["params"].is_object())
            return nullptr;
        const json& params = message["params"];
        if (!params.contains("_meta") || !params["_meta"].is_object() || !params["_meta"].contains("progressToken"))
            return nullptr;
        const json& token = params["_meta"]["progressToken"];
        return token.is_string() || token.is_number_integer() ? token : json(nullptr);
    }

    // notifications/progress at the safe points, at most one per kProgressEveryMs and none
    // once the call is cancelled: the progress counts the reports (it must grow; nested
    // work has no single total) and the message names the stage.
    WorkControl::ProgressFn progressSender(const json& token, const WorkControl& control)
    {
        struct State
        {
            uint64_t reports = 0;
            std::optional<std::chrono::steady_clock::time_point> last;
        };
        auto state = std::make_shared<State>();
        return [this, token, state, &control](std::string_view stage, uint64_t done, uint64_t total)
        {
            if (control.cancelRequested())
                return; // the client has dropped the token: a notification now would be an unknown one
            const auto now = std::chrono::steady_clock::now();
            ++state->reports;
            if (state->last && now - *state->last < std::chrono::milliseconds(kProgressEveryMs))
                return;
            state->last = now;
            const std::string text = std::string(stage) + " (" + std::to_string(done) + " of " + std::to_string(total) + " done)";
            write(dumpJson({{"jsonrpc", "2.0"},
                            {"method", "notifications/progress"},
                            {"params", {{"progressToken", token}, {"progress", state->reports}, {"message", text}}}}));
        };
    }

    void write(const std::string& line)
    {
        std::lock_guard<std::mutex> lock(m_outMutex);
        m_out << line << "\n";
        m_out.flush();
    }

    Dispatcher& m_dispatcher;
    McpSession& m_session;
    std::ostream& m_out;
    std::mutex m_outMutex;
    std::mutex m_mutex; ///< Guards the queue, `m_ended` and `m_running`.
    std::condition_variable m_wake;
    std::deque<Job> m_jobs;
    bool m_ended = false;
    std::map<std::string, std::shared_ptr<WorkControl>> m_running; ///< Tool calls read and not answered, by id.
};

} // namespace

json clientSafeSchema(const json& schema)
{
    if (!schema.is_object())
        return schema;
    json out = json::object();
    for (auto it = schema.begin(); it != schema.end(); ++it)
    {
        const std::string& key = it.key();
        const json& value = it.value();
        if (isOneOf(key, kSchemaMaps) && value.is_object())
        {
            json map = json::object();
            for (auto child = value.begin(); child != value.end(); ++child)
                map[child.key()] = clientSafeSchema(child.value());
            out[key] = std::move(map);
        }
        else if (isOneOf(key, kSchemaLists) && value.is_array())
        {
            json list = json::array();
            for (const json& child : value)
                list.push_back(clientSafeSchema(child));
            out[key] = std::move(list);
        }
        else if (isOneOf(key, kSchemaSingles) && value.is_object())
            out[key] = clientSafeSchema(value);
        else
            out[key] = value;
    }
    bool constrains = false;
    for (auto it = out.begin(); it != out.end(); ++it)
        constrains = constrains || !isOneOf(it.key(), kAnnotationKeywords);
    if (!constrains)
    {
        out["anyOf"] = anyJsonValue();
        return out;
    }
    if (out.contains("type") && out["type"].is_array() && !out.contains("anyOf"))
    {
        // [A, B, ...] -> anyOf [{type: A, + A's keywords}, ...]; annotations stay outside.
        const json types = out["type"];
        out.erase("type");
        json annotations = json::object(), keywords = json::object();
        for (auto it = out.begin(); it != out.end(); ++it)
            (isOneOf(it.key(), kAnnotationKeywords) ? annotations : keywords)[it.key()] = it.value();
        json branches = json::array();
        for (const json& t : types)
        {
            json branch = t == "null" ? json::object() : keywords;
            branch["type"] = t;
            branches.push_back(std::move(branch));
        }
        annotations["anyOf"] = std::move(branches);
        return annotations;
    }
    return out;
}

bool mcpServesCommand(const std::vector<std::string>& prefixes, std::string_view id)
{
    if (prefixes.empty())
        return true;
    const std::string name = toolName(std::string(id));
    for (const std::string& p : prefixes)
        if (id.substr(0, p.size()) == p || std::string_view(name).substr(0, p.size()) == p)
            return true;
    return false;
}

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
    Connection conn{session.state, &session.protocolVersion, session.toolPrefixes, session.sessionLog};
    return handleText(dispatcher, conn, line);
}

std::string handleMcpMessage(Dispatcher& dispatcher, scene::SessionState& io, std::string_view line) noexcept
{
    static const std::vector<std::string> kAll;
    static const std::filesystem::path kNoLog;
    Connection conn{io, nullptr, kAll, kNoLog};
    return handleText(dispatcher, conn, line);
}

int runMcpServer(Dispatcher& dispatcher, McpSession& session, std::istream& in, std::ostream& out)
{
    Server server(dispatcher, session, out);
    return server.serve(in);
}

int runMcpServer(Dispatcher& dispatcher, std::istream& in, std::ostream& out)
{
    McpSession session;
    return runMcpServer(dispatcher, session, in, out);
}

} // namespace spark::cli
