/// \file model_obj.cpp
/// Wavefront OBJ reading (positions and faces). One pass over the text, line
/// by line; numbers with std::from_chars (locale-independent, exact).

#include "spark/scene/model_obj.h"

#include "spark/core/charconv.h"
#include "spark/core/path.h"
#include "spark/core/text.h"

#include <array>
#include <charconv>
#include <cmath>
#include <string>

namespace spark::scene
{
namespace
{

/// Statements we read past: texture and normal data, grouping, materials,
/// free-form geometry and display attributes.
constexpr std::array<std::string_view, 34> kIgnored = {
    "vt",   "vn",     "vp",        "g",     "o",        "s",        "mtllib",  "usemtl", "l",
    "p",    "mg",     "lod",       "usemap", "maplib",  "shadow_obj", "trace_obj", "bevel", "c_interp",
    "d_interp", "cstype", "deg",   "bmat",  "step",     "curv",     "curv2",   "surf",   "parm",
    "trim", "hole",   "scrv",      "sp",    "end"};

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

/// Next whitespace-separated token of `line` from `pos`, or empty at the end.
std::string_view nextToken(std::string_view line, size_t& pos)
{
    while (pos < line.size() && isSpace(line[pos]))
        ++pos;
    const size_t start = pos;
    while (pos < line.size() && !isSpace(line[pos]))
        ++pos;
    return line.substr(start, pos - start);
}

Error formatError(std::string_view source, size_t lineNo, const std::string& what)
{
    // `what` may quote the file: escaped, so the message is always valid UTF-8.
    return makeError("E_FORMAT", escapeText(source) + ":" + std::to_string(lineNo) + ": " + escapeText(what), {},
                     "the file is not a valid Wavefront OBJ mesh");
}

bool parseFloat(std::string_view token, float& out)
{
    if (!token.empty() && token.front() == '+')
        token.remove_prefix(1);
    return spark::parseFloat(token, out) && std::isfinite(out);
}

/// The vertex index of a face corner (`i`, `i/t`, `i//n`, `i/t/n`), resolved to 0-based.
bool parseCorner(std::string_view token, size_t vertexCount, uint32_t& out)
{
    const size_t slash = token.find('/');
    std::string_view head = token.substr(0, slash);
    if (!head.empty() && head.front() == '+')
        head.remove_prefix(1);
    long long value = 0;
    const char* end = head.data() + head.size();
    const auto [ptr, ec] = std::from_chars(head.data(), end, value);
    if (head.empty() || ec != std::errc() || ptr != end || value == 0)
        return false;
    // The rest (texture / normal indices) must be numbers or empty; they are not used.
    if (slash != std::string_view::npos)
    {
        std::string_view rest = token.substr(slash + 1);
        size_t parts = 0;
        while (true)
        {
            const size_t s = rest.find('/');
            const std::string_view part = rest.substr(0, s);
            long long ignored = 0;
            if (!part.empty())
            {
                const char* pend = part.data() + part.size();
                const auto [p2, e2] = std::from_chars(part.data() + (part.front() == '+' ? 1 : 0), pend, ignored);
                if (e2 != std::errc() || p2 != pend)
                    return false;
            }
            if (++parts > 2)
                return false;
            if (s == std::string_view::npos)
                break;
            rest = rest.substr(s + 1);
        }
    }
    const long long count = static_cast<long long>(vertexCount);
    const long long index = value > 0 ? value - 1 : count + value;
    if (index < 0 || index >= count)
        return false;
    out = static_cast<uint32_t>(index);
    return true;
}

} // namespace

Result<ObjModel> parseObj(std::string_view text, std::string_view sourceName)
{
    ObjModel model;
    size_t lineNo = 0;
    size_t pos = 0;
    std::vector<uint32_t> corners;
    while (pos < text.size())
    {
        size_t eol = text.find('\n', pos);
        if (eol == std::string_view::npos)
            eol = text.size();
        std::string_view line = text.substr(pos, eol - pos);
        pos = eol + 1;
        ++lineNo;
        const size_t hash = line.find('#');
        if (hash != std::string_view::npos)
            line = line.substr(0, hash);

        size_t cursor = 0;
        const std::string_view keyword = nextToken(line, cursor);
        if (keyword.empty())
            continue;
        if (keyword == "v")
        {
            // x y z, optionally a weight (4 numbers) or a colour (6 numbers).
            float numbers[6];
            int count = 0;
            for (std::string_view t = nextToken(line, cursor); !t.empty(); t = nextToken(line, cursor))
            {
                float value = 0.0f;
                if (count == 6 || !parseFloat(t, value))
                    return formatError(sourceName, lineNo,
                                       "a vertex is 3, 4 or 6 finite numbers; got '" + std::string(t) + "'");
                numbers[count++] = value;
            }
            if (count != 3 && count != 4 && count != 6)
                return formatError(sourceName, lineNo, "a vertex needs three finite numbers");
            if (model.vertices.size() >= kMaxObjElements)
                return formatError(sourceName, lineNo, "too many vertices");
            model.vertices.emplace_back(numbers[0], numbers[1], numbers[2]);
        }
        else if (keyword == "f")
        {
            corners.clear();
            for (std::string_view t = nextToken(line, cursor); !t.empty(); t = nextToken(line, cursor))
            {
                uint32_t index = 0;
                if (!parseCorner(t, model.vertices.size(), index))
                    return formatError(sourceName, lineNo,
                                       "bad face corner '" + std::string(t) + "' (indices are 1.." +
                                           std::to_string(model.vertices.size()) + " or negative)");
                corners.push_back(index);
            }
            if (corners.size() < 3)
                return formatError(sourceName, lineNo, "a face needs at least three corners");
            if (model.indices.size() / 3 + corners.size() - 2 > kMaxObjElements)
                return formatError(sourceName, lineNo, "too many triangles");
            for (size_t k = 1; k + 1 < corners.size(); ++k)
            {
                model.indices.push_back(corners[0]);
                model.indices.push_back(corners[k]);
                model.indices.push_back(corners[k + 1]);
            }
        }
        else
        {
            bool known = false;
            for (std::string_view ignored : kIgnored)
                known = known || keyword == ignored;
            if (!known)
                return formatError(sourceName, lineNo, "unknown statement '" + std::string(keyword) + "'");
        }
    }
    return model;
}

Result<ObjModel> loadObj(const std::filesystem::path& path)
{
    FileReadDef def = defaultFileReadDef();
    def.maxBytes = kMaxObjFileBytes;
    def.limitCode = "E_SCENE_LIMIT";
    Result<std::string> text = readTextFile(path, def);
    if (!text)
        return text.error();
    return parseObj(*text, path.filename().string());
}

} // namespace spark::scene
