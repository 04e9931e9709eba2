/// \file neighbors.cpp
/// Design note — neighbour search for ORCA.
///
/// A uniform grid with cells of the neighbour distance, rebuilt every step:
/// each agent gets the integer key floor(position / cell); the (key, index)
/// pairs are sorted (a total order, so the layout never depends on the input
/// permutation of equal keys beyond the index), and a query binary-searches the
/// 3^D cells around the agent. O(n log n) to build, O(log n + local) per query,
/// no hashing and no allocation once the buffer has grown. The k nearest are
/// kept in a small sorted array ordered by (squared distance, id, index), the
/// deterministic neighbour order of SPEC §7.
#include "avoidance_internal.h"

#include <algorithm>
#include <cmath>

namespace spark::nav::detail
{

template <int Dim> typename NeighborGrid<Dim>::Key NeighborGrid<Dim>::keyOf(const Vec& p) const
{
    Key k{};
    for (int d = 0; d < Dim; ++d)
        k[static_cast<std::size_t>(d)] = static_cast<int64_t>(std::floor(p[d] * m_invCell));
    return k;
}

template <int Dim> void NeighborGrid<Dim>::build(std::span<const Vec> positions, double cellSize)
{
    m_positions = positions;
    m_invCell = 1.0 / cellSize;
    m_entries.resize(positions.size());
    for (std::size_t i = 0; i < positions.size(); ++i)
        m_entries[i] = Entry{keyOf(positions[i]), static_cast<uint32_t>(i)};
    std::sort(m_entries.begin(), m_entries.end(), [](const Entry& a, const Entry& b) {
        return a.key != b.key ? a.key < b.key : a.index < b.index;
    });
}

namespace
{
bool before(const Neighbor& a, const Neighbor& b)
{
    if (a.distanceSquared != b.distanceSquared)
        return a.distanceSquared < b.distanceSquared;
    if (a.id != b.id)
        return a.id < b.id;
    return a.index < b.index;
}
} // namespace

template <int Dim>
void NeighborGrid<Dim>::query(std::size_t self, double range, std::size_t maxCount, std::span<const uint32_t> ids,
                              std::vector<Neighbor>& out) const
{
    out.clear();
    const Vec& at = m_positions[self];
    const Key centre = keyOf(at);
    const double rangeSq = range * range;
    int offsets[3] = {-1, -1, -1};
    const int cellCount = Dim == 2 ? 9 : 27;
    for (int c = 0; c < cellCount; ++c)
    {
        offsets[0] = c % 3 - 1;
        offsets[1] = (c / 3) % 3 - 1;
        offsets[2] = c / 9 - 1;
        Key key = centre;
        for (int d = 0; d < Dim; ++d)
            key[static_cast<std::size_t>(d)] += offsets[d];
        auto first = std::lower_bound(m_entries.begin(), m_entries.end(), key,
                                      [](const Entry& e, const Key& k) { return e.key < k; });
        for (auto it = first; it != m_entries.end() && it->key == key; ++it)
        {
            if (it->index == self)
                continue;
            const Vec diff = m_positions[it->index] - at;
            const double distSq = glm::dot(diff, diff);
            if (!(distSq < rangeSq))
                continue;
            const Neighbor candidate{distSq, ids[it->index], it->index};
            if (out.size() == maxCount)
            {
                if (!before(candidate, out.back()))
                    continue;
                out.pop_back();
            }
            out.insert(std::upper_bound(out.begin(), out.end(), candidate, before), candidate);
        }
    }
}

template class NeighborGrid<2>;
template class NeighborGrid<3>;

} // namespace spark::nav::detail
