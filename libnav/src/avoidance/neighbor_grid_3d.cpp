/// \file neighbor_grid_3d.cpp
/// The k nearest in space over the columns of strip_grid.cpp.
///
/// A query walks the columns around the agent's own, nearest first (a fixed
/// order; the table's border is as wide as the walk reaches, so every offset
/// lands in the table), and scans each outward along x, both ways: its own
/// column from its entry, the others from the first entry whose x is not
/// below the agent's (StripGrid::scanStart). The kept candidates are the k
/// nearest so far (NearestList); once k are found, the k-th squared distance
/// is the bound every skip uses.
///
/// Correctness note. The answer is the k nearest under (squared distance,
/// id, index) among the agents whose squared distance, (dx·dx + dy·dy) +
/// dz·dz rounded (what brute force computes), is below range². Every skip
/// leaves out only agents above the bound, by rounded arithmetic alone: a
/// column's gaps across, gy and gz (0 inside its span), are at most an
/// agent's |dy| and |dz|, so (dx·dx + gy·gy) + gz·gz <= the squared distance
/// (rounding is monotonic), and it grows with |dx| along a scan: the first
/// entry past the bound ends the scan. The scans test dx² alone: an entry
/// with dx² above (bound·(1 + 1e-12) + 1e-300) − (gy² + gz²), rounded, has
/// dx² + gy² + gz² above bound·(1 + 1e-12 − 3ε) exactly (ε = 2⁻⁵³; the
/// 1e-300 covers subnormal rounding), so its squared distance, at least
/// (dx² + gy² + gz²)·(1 − ε)³ after its three roundings, lies above the
/// bound: the skip is as true, a little later at most. A column is skipped when its nominal
/// distance (the cells between, discounted) or gy·gy + gz·gz lies past the
/// bound. The first bound is the largest double below range² or the
/// caller's guess; a guess that finds fewer than k is followed by the range.
#include "neighbor_grid_3d.h"

#include <algorithm>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace spark::nav::detail
{
namespace
{

/// The largest dx² an entry of a column `across` (gy² + gz²) away may have
/// and lie within `bound`, widened (see the correctness note).
inline double dxSqLimitOf(double bound, double across)
{
    return (bound * (1.0 + 1.0e-12) + 1.0e-300) - across;
}

/// A column's squared gaps across, gy² and gz², from the agent at `at` to
/// the span [low, high] of its agents' y and z (0 along an axis the agent
/// lies within). y and z a lane each where SSE2 is there: the same numbers
/// (a max of the same values; a −0 gap squares to +0 either way), measured
/// 3% of a step of RVO2-3D's sphere below the scalar form (a query walks
/// up to 81 columns).
inline void acrossSquared(const glm::dvec3& low, const glm::dvec3& high, const glm::dvec3& at, double& acrossY,
                          double& acrossZ)
{
#if defined(__SSE2__)
    const __m128d yz = _mm_setr_pd(at.y, at.z);
    const __m128d gap = _mm_max_pd(
        _mm_max_pd(_mm_sub_pd(_mm_loadu_pd(&low.y), yz), _mm_sub_pd(yz, _mm_loadu_pd(&high.y))), _mm_setzero_pd());
    const __m128d gapSq = _mm_mul_pd(gap, gap);
    acrossY = _mm_cvtsd_f64(gapSq);
    acrossZ = _mm_cvtsd_f64(_mm_unpackhi_pd(gapSq, gapSq));
#else
    const double gy = std::max(std::max(low.y - at.y, at.y - high.y), 0.0);
    const double gz = std::max(std::max(low.z - at.z, at.z - high.z), 0.0);
    acrossY = gy * gy;
    acrossZ = gz * gz;
#endif
}

} // namespace

void NeighborGrid3D::build(std::span<const glm::dvec3> positions, std::span<const uint32_t> ids, double range,
                           std::size_t expectedCount)
{
    StripGrid<3>::build(positions, ids, range, expectedCount);
    resetCursor(m_cursor);
}

std::size_t NeighborGrid3D::search(std::size_t self, double rangeSq, double startBound, std::size_t maxCount,
                                   Neighbor* out, Cursor& cursor) const
{
    const glm::dvec3 at = m_positions[self];
    NearestList list{out, maxCount, startBound < rangeSq ? startBound : largestBelow(rangeSq)};
    const uint32_t home = m_stripOfAgent[self];
    const Entry* entries = m_entries.data();
    // The offsets to the nine columns touching the agent's have the floor 0.
    constexpr std::size_t kTouching = 9;
    for (std::size_t k = 0; k < m_offsetCount; ++k)
    {
        if (k >= kTouching && m_offsetFloorSq[k] > list.bound)
            break; // the rest are further still
        const std::size_t s = static_cast<std::size_t>(home + m_offsetStep[k]);
        if (m_stripStart[s] == m_stripEnd[s])
            continue;
        double acrossY = 0.0, acrossZ = 0.0;
        acrossSquared(m_stripLow[s], m_stripHigh[s], at, acrossY, acrossZ);
        if (acrossY + acrossZ > list.bound)
            continue;
        const Entry* right = nullptr;
        const Entry* left = nullptr;
        if (s == home)
        {
            left = entries + m_slot[self];
            right = left + 1;
        }
        else
            left = right = entries + scanStart(s, at.x, cursor);
        // The scans test dx² alone, against the largest dx² an entry of the
        // column may have within the bound (see the correctness note);
        // measured: testing (dx² + gy²) + gz² per entry instead costs 2.2% of
        // a step of RVO2-3D's sphere.
        double dxSqLimit = dxSqLimitOf(list.bound, acrossY + acrossZ);
        const auto visit = [&](const Entry& e) __attribute__((always_inline)) // see NearestList::offer
        {
            const double dx = e.position.x - at.x;
            const double dxSq = dx * dx;
            if (dxSq > dxSqLimit)
                return false;
            const double dy = e.position.y - at.y, dz = e.position.z - at.z;
            const double distSq = (dxSq + dy * dy) + dz * dz;
            if (distSq <= list.bound && list.offer(distSq, e.index, e.id))
                dxSqLimit = dxSqLimitOf(list.bound, acrossY + acrossZ);
            return true;
        };
        // The column's sentinels (x = ±∞) end both scans.
        for (const Entry* e = right; visit(*e); ++e)
        {
        }
        for (const Entry* e = left - 1; visit(*e); --e)
        {
        }
    }
    return list.count;
}

std::size_t NeighborGrid3D::query(std::size_t self, double range, std::size_t maxCount, Neighbor* out,
                                  double guessSq, Cursor& cursor) const
{
    if (maxCount == 0)
        return 0;
    const double rangeSq = range * range;
    return withGuess(rangeSq, guessSq, maxCount,
                     [&](double startBound) { return search(self, rangeSq, startBound, maxCount, out, cursor); });
}

std::size_t NeighborGrid3D::query(std::size_t self, double range, std::size_t maxCount, Neighbor* out,
                                  double guessSq) const
{
    return query(self, range, maxCount, out, guessSq, m_cursor);
}

void NeighborGrid3D::query(std::size_t self, double range, std::size_t maxCount, std::vector<Neighbor>& out) const
{
    out.resize(maxCount);
    out.resize(query(self, range, maxCount, out.data()));
}

} // namespace spark::nav::detail
