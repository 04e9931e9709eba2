#include "surface/suggest.h"

#include <algorithm>
#include <utility>

namespace spark::cli
{

size_t editDistance(std::string_view a, std::string_view b)
{
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i)
    {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j)
        {
            const size_t up = row[j];
            const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + cost});
            diagonal = up;
        }
    }
    return row[b.size()];
}

std::vector<std::string> nearestNames(std::string_view name, const std::vector<std::string>& candidates,
                                      size_t count)
{
    const size_t limit = std::max<size_t>(2, name.size() / 3);
    std::vector<std::pair<size_t, std::string>> scored;
    for (const auto& c : candidates)
    {
        const size_t d = editDistance(name, c);
        const bool prefix = !name.empty() && c.rfind(name, 0) == 0;
        // Same first dotted segment ("system." for "system.nope"): a sibling is a good guess.
        const size_t dot = name.find('.');
        const bool sibling = dot != std::string_view::npos && dot > 0 && c.compare(0, dot + 1, name.substr(0, dot + 1)) == 0;
        if (d <= limit || prefix || sibling)
            scored.emplace_back(prefix ? std::min(d, limit) : d, c);
    }
    std::sort(scored.begin(), scored.end());
    std::vector<std::string> out;
    for (size_t i = 0; i < scored.size() && out.size() < count; ++i)
        out.push_back(scored[i].second);
    return out;
}

} // namespace spark::cli
