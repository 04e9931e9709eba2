#include "surface/output.h"

#include <cstdio>
#include <vector>

namespace spark::cli
{
namespace
{
bool isScalar(const nlohmann::json& j) { return !j.is_object() && !j.is_array(); }

bool isShortScalarArray(const nlohmann::json& j)
{
    if (!j.is_array() || j.size() > 8)
        return false;
    for (const auto& e : j)
        if (!isScalar(e))
            return false;
    return true;
}

std::string scalarText(const nlohmann::json& j) { return j.is_string() ? j.get<std::string>() : j.dump(); }

void render(const nlohmann::json& j, int indent, std::string& out)
{
    const std::string pad(static_cast<size_t>(indent) * 2, ' ');
    if (j.is_object())
    {
        for (auto it = j.begin(); it != j.end(); ++it)
        {
            const auto& v = it.value();
            if (isScalar(v) || isShortScalarArray(v) || v.empty())
                out += pad + it.key() + ": " + (isScalar(v) ? scalarText(v) : v.dump()) + "\n";
            else
            {
                out += pad + it.key() + ":\n";
                render(v, indent + 1, out);
            }
        }
    }
    else if (j.is_array())
    {
        for (const auto& v : j)
        {
            if (isScalar(v) || isShortScalarArray(v))
                out += pad + "- " + (isScalar(v) ? scalarText(v) : v.dump()) + "\n";
            else
            {
                out += pad + "-\n";
                render(v, indent + 1, out);
            }
        }
    }
    else
        out += pad + scalarText(j) + "\n";
}
} // namespace

std::string renderHuman(const nlohmann::json& result)
{
    std::string out;
    if (result.is_object() && result.empty())
        return "ok\n";
    render(result, 0, out);
    return out;
}

namespace
{

std::string fixed(double v, int decimals)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

// "(x, z)" of a [x, y, z] array; "" when it is not one.
std::string where(const nlohmann::json& p)
{
    if (!p.is_array() || p.size() != 3 || !p[0].is_number() || !p[2].is_number())
        return "";
    return "(" + fixed(p[0].get<double>(), 1) + ", " + fixed(p[2].get<double>(), 1) + ")";
}

std::string targetName(const nlohmann::json& t)
{
    if (t.is_string())
        return t.get<std::string>();
    if (t.is_object() && t.contains("bb") && t["bb"].is_string())
        return "blackboard " + t["bb"].get<std::string>();
    return where(t);
}

// One event in words; "" for events a story leaves out (tree status changes).
std::string eventWords(const nlohmann::json& e)
{
    const std::string kind = e.value("kind", "");
    const nlohmann::json d = e.contains("data") && e["data"].is_object() ? e["data"] : nlohmann::json::object();
    if (kind == "waypoint")
        return "patrols: waypoint " + std::to_string(d.value("index", 0)) + " at " + where(d.value("point", nlohmann::json()));
    if (kind == "spotted" || kind == "lost_sight")
    {
        std::string s = (kind == "spotted" ? "spots " : "loses sight of ") + targetName(d.value("target", nlohmann::json()));
        if (d.contains("target_at"))
            s += " at " + where(d["target_at"]);
        if (d.contains("at"))
            s += ", standing at " + where(d["at"]);
        return s;
    }
    if (kind == "arrived")
        return d.contains("name") && d["name"].is_string()
                   ? "reaches " + d["name"].get<std::string>() + " at " + where(d.value("target", nlohmann::json()))
                   : "arrives at " + where(d.value("target", nlohmann::json()));
    if (kind == "utility")
        return "chooses " + d.value("choice", std::string("?"));
    if (kind == "error")
        return "stops thinking: " + d.dump();
    if (kind == "tree_status")
        return "";
    return kind + (d.empty() ? "" : " " + d.dump());
}

} // namespace

std::string renderScenarioStory(const nlohmann::json& result)
{
    const nlohmann::json* events = nullptr;
    std::vector<std::pair<std::string, std::string>> pictures; // label, path
    if (result.contains("steps") && result["steps"].is_array())
        for (const auto& step : result["steps"])
        {
            const std::string id = step.value("do", "");
            if (!step.contains("result") || !step["result"].is_object())
                continue;
            const auto& r = step["result"];
            if (id == "ai.events" && r.contains("events"))
                events = &r["events"];
            if (id == "nav.debug.capture" && r.contains("path") && r["path"].is_string())
                pictures.emplace_back("picture", r["path"].get<std::string>());
            if ((id == "nav.golden.check" || id == "nav.golden.update") && r.contains("golden") && r["golden"].is_string())
                pictures.emplace_back(r.value("equal", false) ? "golden (equal)" : "golden", r["golden"].get<std::string>());
        }
    if (!events)
        return renderHuman(result);
    std::string out = result.value("name", std::string("scenario")) + ": " +
                      (result.value("passed", false) ? "passed" : "FAILED") + " (" +
                      std::to_string(result["steps"].size()) + " steps)\n\n";
    out += "  frame    time  who       what\n";
    for (const auto& e : *events)
    {
        const std::string words = eventWords(e);
        if (words.empty())
            continue;
        std::string frame = std::to_string(e.value("frame", uint64_t{0}));
        std::string time = fixed(e.value("time", 0.0), 1) + " s";
        std::string who = e.value("agent", "");
        auto pad = [](std::string s, size_t n, bool left) {
            if (s.size() >= n)
                return s;
            return left ? s + std::string(n - s.size(), ' ') : std::string(n - s.size(), ' ') + s;
        };
        out += pad(frame, 7, false) + pad(time, 8, false) + "  " + pad(who, 8, true) + "  " + words + "\n";
    }
    if (!pictures.empty())
        out += "\n";
    for (const auto& [label, path] : pictures)
        out += label + ": " + path + "\n";
    return out;
}

std::string renderHumanError(const nlohmann::json& envelope)
{
    const auto& e = envelope.at("error");
    std::string out = "error " + e.value("code", std::string("E_INTERNAL")) + ": " + e.value("message", std::string()) + "\n";
    if (e.contains("data") && e["data"].is_object())
    {
        const auto& d = e["data"];
        if (d.contains("problems") && d["problems"].is_array())
        {
            for (const auto& p : d["problems"])
            {
                if (p.contains("code"))
                    out += "  " + p.value("code", std::string()) + " ";
                else
                    out += "  ";
                out += "at " + (p.value("path", std::string()).empty() ? std::string("/") : p.value("path", std::string())) +
                       ": " + p.value("message", std::string()) + "\n";
                if (p.contains("hint") && p["hint"].is_string() && !p["hint"].get<std::string>().empty())
                    out += "    hint: " + p["hint"].get<std::string>() + "\n";
            }
        }
        else if (d.contains("path") && d["path"].is_string())
            out += "  at " + (d["path"].get<std::string>().empty() ? std::string("/") : d["path"].get<std::string>()) + "\n";
    }
    if (e.contains("hint") && e["hint"].is_string())
        out += "  hint: " + e["hint"].get<std::string>() + "\n";
    return out;
}

} // namespace spark::cli
