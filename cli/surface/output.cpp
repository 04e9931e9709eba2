#include "surface/output.h"

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
