/// \file neighbor_grid_2d.cpp
/// The k nearest on the plane over the strips of strip_grid.cpp.
///
/// A query scans the agent's own strip outward from its entry, both ways,
/// then the strips in reach that hold agents, nearest first, each outward
/// from the first entry whose x is not below the agent's (StripGrid::
/// scanStart). The kept candidates are the k nearest so far (NearestList);
/// once k are found, the k-th squared distance is the bound every skip uses.
///
/// Correctness note. The answer is the k nearest under (squared distance,
/// id, index) among the agents whose squared distance, dx·dx + dy·dy
/// rounded (what brute force computes), is below range². Every skip leaves
/// out only agents above the bound, by rounded arithmetic alone: a strip's
/// nearest y (its edge) is at most as far as any of its agents', so gy·gy <=
/// dy·dy; rounding is monotonic, so dx·dx + gy·gy <= dx·dx + dy·dy, and it
/// grows with |dx| along a scan: the first entry past the bound ends the scan.
/// Whole strips are skipped when their nominal distance (the cells between,
/// discounted) or their edge's gy·gy lies past the bound. The first bound is
/// the largest double below range² (the range is strict) or the caller's
/// guess; a guess that finds fewer than k is followed by the whole range.
#include "neighbor_grid_2d.h"

#include <limits>

namespace spark::nav::detail
{

void NeighborGrid2D::build(std::span<const glm::dvec2> positions, std::span<const uint32_t> ids, double range,
                           std::size_t expectedCount)
{
    StripGrid<2>::build(positions, ids, range, expectedCount);
    resetCursor(m_cursor);
    // Per strip holding agents, the strips in reach holding agents, in the
    // offsets' order after the first (the home strip, offset 0).
    const std::size_t stripTotal = m_stripStart.size();
    if (m_near.capacity() < kOffsetCount * positions.size())
        m_near.reserve(kOffsetCount * positions.size());
    m_near.clear();
    m_nearFirst.resize(stripTotal);
    for (std::size_t s = 0; s < stripTotal; ++s)
    {
        if (m_stripStart[s] == m_stripEnd[s])
            continue;
        m_nearFirst[s] = static_cast<uint32_t>(m_near.size());
        for (std::size_t k = 1; k < m_offsetCount; ++k)
        {
            const int64_t y = m_offsetY[k];
            const int64_t sy = static_cast<int64_t>(s) + y;
            if (sy < 0 || sy >= m_stripCount[0])
                continue;
            const std::size_t near = static_cast<std::size_t>(sy);
            if (m_stripStart[near] == m_stripEnd[near])
                continue;
            m_near.push_back(NearStrip{m_offsetFloorSq[k], y < 0 ? m_stripHigh[near].y : m_stripLow[near].y,
                                       static_cast<uint64_t>(near)});
        }
        m_near.push_back(NearStrip{std::numeric_limits<double>::infinity(), 0.0, 0});
    }
}

namespace
{

/// Offers the entries from `right` on and from before `left` back, until each
/// way's dx·dx + acrossY passes the bound (the strip's sentinels pass it).
/// Inlined (see NearestList::offer).
template <class Entry>
[[gnu::always_inline]] inline void scanStrip(const glm::dvec2& at, const Entry* right, const Entry* left, double acrossY,
                      NearestList& list)
{
    const auto visit = [&](const Entry& e) __attribute__((always_inline))
    {
        const double dx = e.position.x - at.x, dy = e.position.y - at.y;
        const double dxSq = dx * dx;
        if (dxSq + acrossY > list.bound)
            return false;
        const double distSq = dxSq + dy * dy;
        if (distSq <= list.bound)
            list.offer(distSq, e.index, e.id);
        return true;
    };
    for (const Entry* e = right; visit(*e); ++e)
    {
    }
    for (const Entry* e = left - 1; visit(*e); --e)
    {
    }
}

} // namespace

std::size_t NeighborGrid2D::search(std::size_t self, double rangeSq, double startBound, std::size_t maxCount,
                                   Neighbor* out, Cursor& cursor) const
{
    const glm::dvec2 at = m_positions[self];
    NearestList list{out, maxCount, startBound < rangeSq ? startBound : largestBelow(rangeSq)};
    if (list.bound < 0.0)
        return 0;
    const Entry* entries = m_entries.data();
    const Entry* own = entries + m_slot[self];
    scanStrip(at, own + 1, own, 0.0, list);
    for (const NearStrip* near = m_near.data() + m_nearFirst[m_stripOfAgent[self]]; !(near->floorSq > list.bound);
         ++near)
    {
        const double gy = near->edgeY - at.y;
        const double acrossY = gy * gy;
        if (acrossY > list.bound)
            continue;
        const Entry* first = entries + scanStart(static_cast<std::size_t>(near->strip), at.x, cursor);
        scanStrip(at, first, first, acrossY, list);
    }
    return list.count;
}

std::size_t NeighborGrid2D::query(std::size_t self, double range, std::size_t maxCount, Neighbor* out,
                                  double guessSq, Cursor& cursor) const
{
    if (maxCount == 0)
        return 0;
    const double rangeSq = range * range;
    return withGuess(rangeSq, guessSq, maxCount,
                     [&](double startBound) { return search(self, rangeSq, startBound, maxCount, out, cursor); });
}

std::size_t NeighborGrid2D::query(std::size_t self, double range, std::size_t maxCount, Neighbor* out,
                                  double guessSq) const
{
    return query(self, range, maxCount, out, guessSq, m_cursor);
}

void NeighborGrid2D::query(std::size_t self, double range, std::size_t maxCount, std::vector<Neighbor>& out) const
{
    out.resize(maxCount);
    out.resize(query(self, range, maxCount, out.data()));
}

} // namespace spark::nav::detail
