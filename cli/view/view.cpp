// `spark view` (view.h): the page, the self-contained page, and a small HTTP
// server on 127.0.0.1 that serves the page, the recordings and path queries.
//
// The server is one thread answering one request at a time (a viewer is one
// person's browser): each request is read within a time limit and a size
// limit, answered, and the connection closed.

#include "view/view.h"

#include "runners/recording.h"
#include "surface/dispatcher.h"
#include "surface/embedded.h"

#include "spark/core/path.h"
#include "spark/scene/recording.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace spark::cli
{

extern const EmbeddedFile kViewerFiles[];
extern const size_t kViewerFileCount;

namespace
{

namespace fs = std::filesystem;

/// Largest request head read. [Units: bytes]
constexpr size_t kMaxRequestBytes = 16 * 1024;
/// Longest wait for a request's bytes. [Units: s]
constexpr int kRequestSeconds = 5;

std::string_view viewerFile(std::string_view name)
{
    for (size_t i = 0; i < kViewerFileCount; ++i)
        if (name == kViewerFiles[i].name)
            return kViewerFiles[i].text;
    return {};
}

std::string base64(std::string_view bytes)
{
    static const char* kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3)
    {
        const uint32_t v = uint32_t(uint8_t(bytes[i])) << 16 | uint32_t(uint8_t(bytes[i + 1])) << 8 | uint8_t(bytes[i + 2]);
        for (int k = 18; k >= 0; k -= 6)
            out += kAlphabet[(v >> k) & 63];
    }
    if (i < bytes.size())
    {
        uint32_t v = uint32_t(uint8_t(bytes[i])) << 16;
        if (i + 1 < bytes.size())
            v |= uint32_t(uint8_t(bytes[i + 1])) << 8;
        out += kAlphabet[(v >> 18) & 63];
        out += kAlphabet[(v >> 12) & 63];
        out += i + 1 < bytes.size() ? kAlphabet[(v >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

/// Text safe inside a `<script>` element's JSON (no `</`).
std::string scriptSafe(std::string text)
{
    for (size_t at = text.find("</"); at != std::string::npos; at = text.find("</", at))
        text.replace(at, 2, "<\\/");
    return text;
}

struct Loaded
{
    std::string name;   ///< As listed (the file name).
    std::string bytes;  ///< The file (gzip).
    scene::RecordingReader reader;
};

/// The recordings of a file or a folder (its `*.rec.gz`, in name order).
bool loadRecordings(const std::string& input, std::vector<Loaded>& out, std::ostream& err)
{
    std::error_code ec;
    std::vector<fs::path> files;
    if (fs::is_directory(input, ec))
    {
        for (const auto& entry : fs::directory_iterator(input, ec))
        {
            const std::string name = entry.path().filename().string();
            const std::string suffix = kRecordingSuffix;
            if (entry.is_regular_file(ec) && name.size() > suffix.size() &&
                name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
                files.push_back(entry.path());
        }
        std::sort(files.begin(), files.end());
        if (files.empty())
        {
            err << "error E_IO: no recordings (*" << kRecordingSuffix << ") in " << input << "\n";
            return false;
        }
    }
    else
        files.push_back(input);
    for (const fs::path& file : files)
    {
        FileReadDef def = defaultFileReadDef();
        def.maxBytes = scene::kMaxRecordingBytes;
        auto bytes = readBinaryFile(file, def);
        if (!bytes.ok())
        {
            err << "error " << bytes.error().code << ": " << file.string() << ": " << bytes.error().message << "\n";
            return false;
        }
        std::string data(bytes.value().begin(), bytes.value().end());
        auto reader = scene::RecordingReader::read(data);
        if (!reader.ok())
        {
            err << "error " << reader.error().code << ": " << file.string() << ": " << reader.error().message
                << (reader.error().field.empty() ? "" : " at " + reader.error().field) << "\n";
            return false;
        }
        out.push_back(Loaded{file.filename().string(), std::move(data), std::move(reader).value()});
    }
    return true;
}

// ---- HTTP -------------------------------------------------------------------

struct Response
{
    int status = 200;
    std::string type = "text/plain; charset=utf-8";
    std::string body;
};

Response jsonResponse(const json& j, int status = 200)
{
    return {status, "application/json", dumpJson(j)};
}

/// The value of `key` in a query string (no decoding: the page sends numbers and plain names, %-escapes decoded).
std::string queryValue(std::string_view query, std::string_view key)
{
    size_t at = 0;
    while (at <= query.size())
    {
        size_t end = query.find('&', at);
        if (end == std::string_view::npos)
            end = query.size();
        const std::string_view pair = query.substr(at, end - at);
        const size_t eq = pair.find('=');
        if (eq != std::string_view::npos && pair.substr(0, eq) == key)
        {
            std::string out;
            const std::string_view v = pair.substr(eq + 1);
            for (size_t i = 0; i < v.size(); ++i)
            {
                if (v[i] == '%' && i + 2 < v.size() && std::isxdigit(uint8_t(v[i + 1])) && std::isxdigit(uint8_t(v[i + 2])))
                {
                    out += static_cast<char>(std::strtol(std::string(v.substr(i + 1, 2)).c_str(), nullptr, 16));
                    i += 2;
                }
                else
                    out += v[i] == '+' ? ' ' : v[i];
            }
            return out;
        }
        at = end + 1;
    }
    return {};
}

/// Comma-separated finite numbers (2 or 3), or false.
bool parsePoint(const std::string& text, json& out)
{
    out = json::array();
    size_t at = 0;
    while (at <= text.size() && out.size() < 4)
    {
        size_t end = text.find(',', at);
        if (end == std::string::npos)
            end = text.size();
        const std::string part = text.substr(at, end - at);
        char* stop = nullptr;
        const double v = std::strtod(part.c_str(), &stop);
        if (part.empty() || stop != part.c_str() + part.size() || !std::isfinite(v))
            return false;
        out.push_back(v);
        at = end + 1;
    }
    return out.size() == 2 || out.size() == 3;
}

/// `/path?rec=I&frame=F&mesh=NAME&from=x,y[,z]&to=x,y[,z]`: nav.path on the mesh the recording holds at frame F.
Response pathQuery(std::vector<Loaded>& recordings, std::string_view query)
{
    auto bad = [](const std::string& field, const std::string& message) {
        return jsonResponse(errorEnvelope("E_INVALID_PARAMS", message, {{"path", field}},
                                          "/path?rec=I&frame=F&mesh=NAME&from=x,y,z&to=x,y,z"),
                            400);
    };
    char* stop = nullptr;
    const std::string rec = queryValue(query, "rec"), frame = queryValue(query, "frame");
    const unsigned long index = std::strtoul(rec.c_str(), &stop, 10);
    if (rec.empty() || *stop != '\0' || index >= recordings.size())
        return bad("/rec", "no such recording");
    scene::RecordingReader& reader = recordings[index].reader;
    const unsigned long f = std::strtoul(frame.c_str(), &stop, 10);
    if (frame.empty() || *stop != '\0' || f >= reader.frameCount())
        return bad("/frame", "no such frame");
    json from, to;
    if (!parsePoint(queryValue(query, "from"), from))
        return bad("/from", "from must be 2 or 3 finite numbers");
    if (!parsePoint(queryValue(query, "to"), to))
        return bad("/to", "to must be 2 or 3 finite numbers");
    const std::string mesh = queryValue(query, "mesh");
    reader.seek(f);
    const auto it = reader.meshes().find(mesh);
    if (it == reader.meshes().end() || !it->second.is_object())
        return bad("/mesh", "the recording has no mesh '" + mesh + "' at that frame");
    // The mesh as the run had it, in a fresh session: the answer is nav.path's own.
    Dispatcher dispatcher(DispatchOptions{});
    scene::SessionState state;
    const json imported = dispatcher.call(state, "nav.import", {{"name", mesh}, {"document", it->second}});
    if (!imported.value("ok", false))
        return jsonResponse(imported, 422);
    return jsonResponse(dispatcher.call(state, "nav.path", {{"mesh", mesh}, {"from", from}, {"to", to}}));
}

Response answer(std::vector<Loaded>& recordings, std::string_view method, std::string_view target)
{
    if (method != "GET")
        return {405, "text/plain; charset=utf-8", "only GET\n"};
    const size_t q = target.find('?');
    const std::string_view path = target.substr(0, q);
    const std::string_view query = q == std::string_view::npos ? std::string_view() : target.substr(q + 1);
    if (path == "/" || path == "/index.html")
        return {200, "text/html; charset=utf-8", viewerPage("", "")};
    if (path == "/recordings")
    {
        json list = json::array();
        for (size_t i = 0; i < recordings.size(); ++i)
            list.push_back({{"index", i},
                            {"name", recordings[i].name},
                            {"frames", recordings[i].reader.frameCount()},
                            {"bytes", recordings[i].bytes.size()},
                            {"source", recordings[i].reader.header().value("source", "")}});
        return jsonResponse(list);
    }
    if (path.rfind("/recording/", 0) == 0)
    {
        char* stop = nullptr;
        const std::string n(path.substr(11));
        const unsigned long i = std::strtoul(n.c_str(), &stop, 10);
        if (n.empty() || *stop != '\0' || i >= recordings.size())
            return {404, "text/plain; charset=utf-8", "no such recording\n"};
        return {200, "application/gzip", recordings[i].bytes};
    }
    if (path == "/path")
        return pathQuery(recordings, query);
    if (path == "/favicon.ico")
        return {204, "image/x-icon", ""}; // the page has no icon: nothing to fetch, nothing missing
    return {404, "text/plain; charset=utf-8", "not found\n"};
}

const char* reason(int status)
{
    switch (status)
    {
    case 200: return "OK";
    case 204: return "No Content";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 413: return "Content Too Large";
    case 422: return "Unprocessable Content";
    default: return "Error";
    }
}

void sendAll(int fd, std::string_view data)
{
    while (!data.empty())
    {
        const ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
        if (n <= 0)
            return;
        data.remove_prefix(static_cast<size_t>(n));
    }
}

void serveOne(int fd, std::vector<Loaded>& recordings)
{
    timeval tv{kRequestSeconds, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    std::string head;
    char buffer[4096];
    while (head.find("\r\n\r\n") == std::string::npos && head.size() <= kMaxRequestBytes)
    {
        const ssize_t n = ::recv(fd, buffer, sizeof(buffer), 0);
        if (n <= 0)
            return;
        head.append(buffer, static_cast<size_t>(n));
    }
    Response r;
    const size_t lineEnd = head.find("\r\n");
    const std::string line = head.substr(0, lineEnd);
    const size_t s1 = line.find(' '), s2 = s1 == std::string::npos ? s1 : line.find(' ', s1 + 1);
    if (head.size() > kMaxRequestBytes && head.find("\r\n\r\n") == std::string::npos)
        r = {413, "text/plain; charset=utf-8", "request too large\n"};
    else if (s1 == std::string::npos || s2 == std::string::npos)
        r = {400, "text/plain; charset=utf-8", "bad request\n"};
    else
        r = answer(recordings, std::string_view(line).substr(0, s1), std::string_view(line).substr(s1 + 1, s2 - s1 - 1));
    std::string out = "HTTP/1.1 " + std::to_string(r.status) + " " + reason(r.status) + "\r\nContent-Type: " + r.type +
                      "\r\nContent-Length: " + std::to_string(r.body.size()) +
                      "\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n";
    sendAll(fd, out);
    sendAll(fd, r.body);
}

std::atomic<bool> g_stop{false};
extern "C" void onViewSignal(int)
{
    g_stop.store(true);
}

} // namespace

std::string viewerPage(const std::string& name, const std::string& gzipBytes)
{
    std::string page(viewerFile("index.html"));
    auto put = [&](const std::string& marker, const std::string& text) {
        const size_t at = page.find(marker);
        if (at != std::string::npos)
            page.replace(at, marker.size(), text);
    };
    put("/*SPARK_STYLE*/", std::string(viewerFile("viewer.css")));
    const std::string data = gzipBytes.empty()
                                 ? "null"
                                 : scriptSafe(dumpJson(json{{"name", name}, {"gzip_base64", base64(gzipBytes)}}));
    put("/*SPARK_DATA*/", "window.SPARK_RECORDING = " + data + ";");
    put("/*SPARK_SCRIPT*/", std::string(viewerFile("viewer.js")));
    return page;
}

int runView(const ViewOptions& options, std::ostream& out, std::ostream& err)
{
    if (options.port < 0 || options.port > 65535)
    {
        err << "error E_INVALID_PARAMS: --port must be in 0..65535\n";
        return 2;
    }
    std::vector<Loaded> recordings;
    if (!loadRecordings(options.input, recordings, err))
        return 1;
    if (!options.htmlOut.empty())
    {
        if (recordings.size() != 1)
        {
            err << "error E_INVALID_PARAMS: --html writes the page of one recording; give a file, not a folder\n";
            return 2;
        }
        const std::string page = viewerPage(recordings[0].name, recordings[0].bytes);
        if (const Status st = writeTextFile(options.htmlOut, page); !st.ok())
        {
            err << "error " << st.error().code << ": " << options.htmlOut << ": " << st.error().message << "\n";
            return 1;
        }
        out << "wrote " << options.htmlOut << " (" << page.size() << " bytes, " << recordings[0].reader.frameCount()
            << " frames)\n";
        return 0;
    }

    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
    {
        err << "error E_IO: cannot open a socket: " << std::strerror(errno) << "\n";
        return 1;
    }
    const int yes = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK); // 127.0.0.1 only, never another address
    addr.sin_port = htons(static_cast<uint16_t>(options.port));
    if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 || ::listen(fd, 16) != 0)
    {
        err << "error E_IO: cannot listen on 127.0.0.1:" << options.port << ": " << std::strerror(errno) << "\n";
        ::close(fd);
        return 1;
    }
    socklen_t len = sizeof(addr);
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    out << "http://127.0.0.1:" << ntohs(addr.sin_port) << "/\n";
    out << "serving " << recordings.size() << " recording(s); Ctrl-C stops\n";
    out.flush();

    struct sigaction action{};
    action.sa_handler = onViewSignal; // no SA_RESTART: accept returns EINTR
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
    while (!g_stop.load())
    {
        const int client = ::accept(fd, nullptr, nullptr);
        if (client < 0)
        {
            if (errno == EINTR)
                continue;
            break;
        }
        serveOne(client, recordings);
        ::close(client);
    }
    ::close(fd);
    return 0;
}

} // namespace spark::cli
