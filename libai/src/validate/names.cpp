// Names: edit distance (Levenshtein, 1966; the two-row dynamic programme of
// Wagner & Fischer, 1974) for the "did you mean" hints, and JSON pointers.
#include "spark/ai/validate.h"

#include <algorithm>
#include <vector>

namespace spark::ai
{

size_t editDistance(std::string_view a, std::string_view b)
{
    std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        prev[j] = j;
    for (size_t i = 1; i <= a.size(); ++i)
    {
        cur[0] = i;
        for (size_t j = 1; j <= b.size(); ++j)
        {
            const size_t substitute = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, substitute});
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

std::string nearestName(std::string_view name, const std::vector<std::string>& candidates)
{
    const size_t limit = std::max<size_t>(2, name.size() / 2);
    size_t best = SIZE_MAX;
    std::string bestName;
    for (const std::string& candidate : candidates)
    {
        const size_t d = editDistance(name, candidate);
        if (d < best)
        {
            best = d;
            bestName = candidate;
        }
    }
    return best <= limit ? bestName : std::string();
}

std::string pointerJoin(std::string_view base, std::string_view segment)
{
    std::string out(base);
    out.push_back('/');
    for (char c : segment)
    {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out.push_back(c);
    }
    return out;
}

} // namespace spark::ai
