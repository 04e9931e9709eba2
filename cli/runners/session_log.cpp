#include "runners/session_log.h"

#include "spark/core/path.h"

#include <cerrno>
#include <sys/stat.h>
#include <string>

namespace spark::cli
{

json replaySessionLog(Dispatcher& dispatcher, scene::SessionState& io, const std::filesystem::path& log)
{
    struct stat st{};
    if (::lstat(log.c_str(), &st) != 0 && errno == ENOENT)
        return nullptr; // a new session
    FileReadDef def = defaultFileReadDef();
    def.maxBytes = kMaxSessionLogBytes;
    def.limitCode = "E_IO";
    auto text = readTextFile(log, def);
    if (!text.ok())
        return errorEnvelope(text.error().code, "cannot read the session log: " + text.error().message,
                             {{"path", "--session"}}, "give a regular file inside the project, or a new name");
    size_t number = 0;
    std::string_view rest = text.value();
    while (!rest.empty())
    {
        const size_t end = rest.find('\n');
        std::string_view line = rest.substr(0, end);
        rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
        ++number;
        if (line.find_first_not_of(" \t\r") == std::string_view::npos)
            continue;
        json answer = dispatcher.executeText(io, line);
        if (!answer["ok"].get<bool>())
        {
            json error = answer["error"];
            return errorEnvelope(error.value("code", std::string("E_INTERNAL")),
                                 "replaying line " + std::to_string(number) + " of the session log failed: " +
                                     error.value("message", std::string()),
                                 {{"line", number}, {"error", error}}, "fix or delete the session file");
        }
    }
    return nullptr;
}

json appendSessionLog(const std::filesystem::path& log, const std::string& id, const json& params)
{
    const Status st = appendTextFile(log, dumpJson(json{{"command", id}, {"params", params}}) + "\n");
    if (!st.ok())
        return errorEnvelope("E_IO", "cannot write the session log: " + st.error().message, {{"path", "--session"}});
    return nullptr;
}

} // namespace spark::cli
