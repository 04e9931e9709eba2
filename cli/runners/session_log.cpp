#include "runners/session_log.h"

#include <fstream>
#include <string>

namespace spark::cli
{

json replaySessionLog(Dispatcher& dispatcher, scene::SessionState& io, const std::filesystem::path& log)
{
    std::error_code ec;
    if (!std::filesystem::exists(log, ec))
        return nullptr; // a new session
    std::ifstream in(log, std::ios::binary);
    if (!in)
        return errorEnvelope("E_IO", "cannot read the session log " + log.string());
    std::string line;
    size_t number = 0;
    while (std::getline(in, line))
    {
        ++number;
        if (line.find_first_not_of(" \t\r") == std::string::npos)
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
    std::ofstream out(log, std::ios::binary | std::ios::app);
    if (!out)
        return errorEnvelope("E_IO", "cannot write the session log " + log.string());
    out << json{{"command", id}, {"params", params}}.dump() << "\n";
    if (!out)
        return errorEnvelope("E_IO", "cannot write the session log " + log.string());
    return nullptr;
}

} // namespace spark::cli
