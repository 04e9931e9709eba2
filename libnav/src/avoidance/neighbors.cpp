/// \file neighbors.cpp
/// Design note — neighbour search for ORCA.
///
/// The agents are cut into strips across y (in 3D: columns across y and z),
/// from 1/3.5 to 1/0.9 of the neighbour distance wide by the agents' density
/// (narrow in crowds, wide when sparse; or wider still, see below),
/// rebuilt every step: each agent gets the integer cell of its y (and z)
/// relative to the lowest corner of this step's agents; a counting sort over
/// the cells puts each strip's agents together (in the last build's order,
/// so that a strip comes nearly sorted), and each strip is sorted along x by
/// (x, index), a total order, so the layout never depends on anything but
/// the input. Tables give each strip's first and past-the-last entry (a
/// strip that holds agents lies between two sentinels that end every scan),
/// and each strip keeps the smallest and largest y (and z) of its agents.
///
/// A query walks the strips around the agent's own, nearest first (a fixed
/// order; on the plane from a list each build makes per strip of the strips
/// in reach that hold agents, with the y of their side nearest the strip),
/// and in each strip scans outward from the agent's x, both ways: the
/// agent's own strip starts at its own entry, the others at the first entry
/// whose x is not below the agent's: walked forward from where the last query
/// of that strip started when the agent's x is not below that query's (the
/// avoidance solves the agents in the grid's order, so along a strip the x
/// only grows), else searched (firstNotBefore). Once k neighbours are found the k-th squared
/// distance bounds the rest. The k nearest are kept in a short sorted array
/// ordered by (squared distance, id, index), the deterministic neighbour order
/// of docs/determinism.md: an agent beyond the bound is rejected before it is compared.
///
/// The answer is exact: the k nearest under the total order among the agents
/// whose squared distance (computed as dot(pB − pA, pB − pA), the same
/// operations as brute force) is below range². Every skip is proved by the
/// rounded arithmetic itself: rounding is monotonic, so an agent further along
/// x than one whose dx² already exceeds the bound has a larger dx² too, and an
/// agent in a strip lies at least as far in y as the strip's nearest agent
/// (the strip's smallest or largest y); whole strips are skipped by their
/// nominal distance (the cells between), discounted by 1e-6, far more than the
/// rounding of a cell index. In space a scan tests an entry's dx² alone,
/// against the bound minus the strip's distance across widened by 1e-12 of
/// the bound: far more than the rounding of the sums, so a skip as true.
/// Cells are wider than range / kStripsPerRange when the agents would span
/// more than max(4n, 1024) strips (far-apart groups): the answer stays exact,
/// only slower.
///
/// O(n + strips) to build plus the sorts of the strips, O(log n + local) per
/// query, no hashing and no allocation once the buffers have grown.
#include "avoidance_internal.h"
#include "spark/core/bits.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace spark::nav::detail
{
namespace
{

/// Strips per neighbour distance to choose from, narrowest first: not whole
/// numbers, so the strips a query may reach (kSpan on each side) cover the
/// distance with a wide margin.
constexpr double kStripsPerRange[] = {3.5, 2.5, 1.5, 0.9};
/// Strips a query may reach on each side of its own (with the narrowest).
constexpr int kSpan = 4;
/// A strip is chosen about this fraction of the expected k-th neighbour
/// distance wide (see build).
constexpr double kWidthPerKth = 0.8;
/// Fewest strips allowed before cells grow.
constexpr std::size_t kMinStrips = 1024;
/// A strip is sorted by insertion until its moves pass this many per entry,
/// then by std::sort (a strip far from its last order).
constexpr std::size_t kInsertionMovesPerEntry = 8;
/// Nominal strip distances are discounted by this, far above the rounding of
/// a cell index (below 1e-8 of a cell for up to 2^22 cells).
constexpr double kNominalDiscount = 1.0 - 1.0e-6;
constexpr double kPi = 3.14159265358979323846;

/// A strip relative to the agent's, with the squared number of whole cells
/// between them (in cell widths).
struct StripOffset
{
    int y;
    int z;
    int cellsSq;
};

/// |v| in a constant expression (std::abs is not constexpr before C++23 in
/// every standard library clang builds with).
constexpr int absInt(int v)
{
    return v < 0 ? -v : v;
}

/// The strips within kSpan, by the cells between them and the agent's strip
/// (a fixed order: then by |y| + |z|, z, y).
template <int Dim> constexpr auto makeOffsets()
{
    constexpr int side = 2 * kSpan + 1;
    constexpr int count = Dim == 2 ? side : side * side;
    std::array<StripOffset, count> offsets{};
    for (int k = 0; k < count; ++k)
    {
        const int y = k % side - kSpan;
        const int z = Dim == 2 ? 0 : k / side - kSpan;
        const int gy = std::max(absInt(y) - 1, 0), gz = std::max(absInt(z) - 1, 0);
        offsets[static_cast<std::size_t>(k)] = StripOffset{y, z, gy * gy + gz * gz};
    }
    std::sort(offsets.begin(), offsets.end(),
              [](const StripOffset& a, const StripOffset& b)
              {
                  const int ra = absInt(a.y) + absInt(a.z), rb = absInt(b.y) + absInt(b.z);
                  if (a.cellsSq != b.cellsSq)
                      return a.cellsSq < b.cellsSq;
                  if (ra != rb)
                      return ra < rb;
                  return a.z != b.z ? a.z < b.z : a.y < b.y;
              });
    return offsets;
}

template <int Dim> constexpr auto kOffsets = makeOffsets<Dim>();

/// The first of `strip[0, len)` (sorted by x, len > 0) whose x is not below
/// `x`, or len: probed first where x lies were the strip's agents spread evenly
/// over its x range, then bracketed by doubling steps and halved (a crowd's
/// strips are near even: a probe or two instead of log2 len).
template <class Entry> std::size_t firstNotBefore(const Entry* strip, std::size_t len, double x)
{
    const double x0 = strip[0].position.x, x1 = strip[len - 1].position.x;
    if (!(x > x0))
        return 0;
    if (x > x1)
        return len;
    // x0 < x <= x1: the fraction lies in (0, 1].
    const std::size_t guess =
        std::min(len - 1, static_cast<std::size_t>((x - x0) / (x1 - x0) * static_cast<double>(len - 1)));
    // The answer lies in [lo, hi]: every entry before lo is below x, hi is len or not below x.
    std::size_t lo = 0, hi = len;
    if (strip[guess].position.x < x)
    {
        lo = guess + 1;
        for (std::size_t step = 1;; step *= 2)
        {
            const std::size_t probe = lo + step - 1;
            if (probe >= len)
                break;
            if (!(strip[probe].position.x < x))
            {
                hi = probe;
                break;
            }
            lo = probe + 1;
        }
    }
    else
    {
        hi = guess;
        for (std::size_t step = 1; step <= hi; step *= 2)
        {
            const std::size_t probe = hi - step;
            if (strip[probe].position.x < x)
            {
                lo = probe + 1;
                break;
            }
            hi = probe;
        }
    }
    while (lo < hi)
    {
        const std::size_t half = lo + (hi - lo) / 2;
        if (strip[half].position.x < x)
            lo = half + 1;
        else
            hi = half;
    }
    return lo;
}

/// The largest double below `x` (x >= 0 and finite; below 0 for x = 0):
/// std::nextafter(x, -1.0) without the library call.
inline double largestBelow(double x)
{
    return x > 0.0 ? spark::bitCast<double>(spark::bitCast<uint64_t>(x) - 1) : -1.0;
}

} // namespace

template <int Dim> inline uint32_t NeighborGrid<Dim>::stripOf(const Vec& p) const
{
    int64_t strip = 0;
    for (int d = Dim - 1; d >= 1; --d)
    {
        // Never negative (the origin is the agents' lowest corner): truncation is floor.
        const int64_t cell = static_cast<int64_t>((p[d] - m_origin[d]) * m_invWidth);
        const int64_t inTable = std::clamp<int64_t>(cell, 0, m_stripCount[d - 1] - 1);
        if constexpr (Dim == 2)
            strip = inTable; // no border on the plane
        else
            strip = strip * (m_stripCount[d - 1] + 2 * m_pad) + m_pad + inTable;
    }
    return static_cast<uint32_t>(strip);
}

template <int Dim>
void NeighborGrid<Dim>::build(std::span<const Vec> positions, std::span<const uint32_t> ids, double range,
                              std::size_t expectedCount)
{
    m_positions = positions;
    const std::size_t n = positions.size();
    Vec lo(0.0), hi(0.0);
    if (n > 0)
    {
        lo = hi = positions[0];
        for (const Vec& p : positions)
            for (int d = 0; d < Dim; ++d)
            {
                lo[d] = std::min(lo[d], p[d]);
                hi[d] = std::max(hi[d], p[d]);
            }
    }
    m_origin = lo;
    // Strips about kWidthPerKth of the k-th neighbour distance wide, were
    // the agents spread evenly over their box (each side at least the
    // narrowest strip): narrow in a crowd, where the k nearest lie within a
    // few strips, wide when agents are sparse, where a query walking many
    // near-empty strips would cost more than its scans (fliers on RVO2-3D's
    // sphere). The width changes the work, never the answer.
    double width = range / kStripsPerRange[0];
    if (expectedCount > 0 && n > 1)
    {
        double volume = 1.0;
        for (int d = 0; d < Dim; ++d)
            volume *= std::max(hi[d] - lo[d], width);
        const double density = static_cast<double>(n) / volume;
        for (const double perRange : kStripsPerRange)
        {
            // Agents expected within the distance of which this width is kWidthPerKth.
            const double reach = range / perRange / kWidthPerKth;
            const double expected = Dim == 2 ? density * kPi * reach * reach
                                             : density * (4.0 / 3.0) * kPi * reach * reach * reach;
            width = range / perRange;
            if (expected >= static_cast<double>(expectedCount))
                break;
        }
    }
    // Or wider when there would be too many strips.
    const double maxStrips = static_cast<double>(std::max(4 * n, kMinStrips));
    for (int d = 1; d < Dim; ++d)
        width = std::max(width, (hi[d] - lo[d]) / maxStrips);
    double strips = 0.0;
    for (;;)
    {
        m_invWidth = 1.0 / width;
        strips = 1.0;
        for (int d = 1; d < Dim; ++d)
        {
            const double count = std::floor((hi[d] - lo[d]) * m_invWidth) + 1.0;
            m_stripCount[d - 1] = static_cast<int64_t>(count);
            strips *= count;
        }
        if (strips <= maxStrips)
            break;
        width *= 2.0;
    }
    m_stripWidth = width;
    const int span = std::min(kSpan, static_cast<int>(std::floor(range * m_invWidth * (1.0 + 1.0e-6))) + 1);
    // In space, a border of `span` empty columns on every side: every
    // offset a query walks from a real column lands on a column of the
    // table, so the walk needs no bounds test (nine columns per query). On
    // the plane none: there the test is two compares and cost less than the
    // border (measured).
    m_pad = Dim == 3 ? span : 0;
    const int64_t rowLength = m_stripCount[0] + 2 * m_pad;
    if constexpr (Dim == 3)
        strips = static_cast<double>(rowLength) * static_cast<double>(m_stripCount[1] + 2 * m_pad);
    // The offsets within the span lead the table (in 3D the span is always 1).
    m_offsetCount = 0;
    while (m_offsetCount < kOffsets<Dim>.size() && std::abs(kOffsets<Dim>[m_offsetCount].y) <= span &&
           std::abs(kOffsets<Dim>[m_offsetCount].z) <= span)
        ++m_offsetCount;
    for (std::size_t k = m_offsetCount; k < kOffsets<Dim>.size(); ++k)
        assert(std::abs(kOffsets<Dim>[k].y) > span || std::abs(kOffsets<Dim>[k].z) > span);
    static_assert(kOffsets<Dim>.size() == std::tuple_size_v<decltype(m_offsetFloorSq)>);
    const double cellSq = m_stripWidth * m_stripWidth * kNominalDiscount;
    for (std::size_t k = 0; k < m_offsetCount; ++k)
    {
        m_offsetFloorSq[k] = static_cast<double>(kOffsets<Dim>[k].cellsSq) * cellSq;
        m_offsetStep[k] = kOffsets<Dim>[k].y + kOffsets<Dim>[k].z * rowLength;
    }

    // Counting sort by strip, in index order. Each strip that holds agents
    // lies between two sentinel entries, x = −∞ before and +∞ after: a scan
    // stops at them by its distance test alone (an infinite squared distance
    // is past every bound), with no test of the strip's ends per entry
    // (measured: 1.3% of a step of RVO2's circle-250; in space 0.15% more,
    // kept for one layout: 0.06% less than sentinels on the plane only).
    const std::size_t stripTotal = static_cast<std::size_t>(strips);
    m_stripStart.resize(stripTotal);
    m_stripEnd.assign(stripTotal, 0);
    m_stripOfAgent.resize(n);
    for (std::size_t i = 0; i < n; ++i)
    {
        const uint32_t s = stripOf(positions[i]);
        m_stripOfAgent[i] = s;
        ++m_stripEnd[s];
    }
    uint32_t entryCount = 0;
    for (std::size_t s = 0; s < stripTotal; ++s)
    {
        const uint32_t inStrip = m_stripEnd[s];
        entryCount += inStrip > 0 ? 1 : 0; // the sentinel before
        m_stripStart[s] = m_stripEnd[s] = entryCount;
        entryCount += inStrip > 0 ? inStrip + 1 : 0; // the agents, the sentinel after
    }
    // In the last build's order when it had as many agents (agents move
    // little between steps: each strip comes nearly sorted), else in index
    // order. Only the work depends on it: the sort below is by (x, index).
    const bool lastOrder = m_lastOrder.size() == n;
    // At most two sentinels an agent: room reserved once, none allocated
    // when only the number of strips held changes.
    if (m_entries.capacity() < 3 * n)
        m_entries.reserve(3 * n);
    m_entries.resize(entryCount);
    for (std::size_t j = 0; j < n; ++j)
    {
        const uint32_t i = lastOrder ? m_lastOrder[j] : static_cast<uint32_t>(j);
        m_entries[m_stripEnd[m_stripOfAgent[i]]++] = Entry{positions[i], i, ids[i]};
    }

    // Each strip along x, its extent across, and each agent's entry.
    m_stripLow.resize(stripTotal);
    m_stripHigh.resize(stripTotal);
    resetCursor(m_cursor);
    m_slot.resize(n);
    m_lastOrder.resize(n);
    std::size_t order = 0;
    for (std::size_t s = 0; s < stripTotal; ++s)
    {
        const uint32_t begin = m_stripStart[s], end = m_stripEnd[s];
        if (begin == end)
            continue;
        Entry* first = m_entries.data() + begin;
        Entry* last = m_entries.data() + end;
        Vec beyond(0.0);
        beyond.x = -std::numeric_limits<double>::infinity();
        first[-1] = Entry{beyond, 0, 0};
        beyond.x = std::numeric_limits<double>::infinity();
        *last = Entry{beyond, 0, 0};
        const auto before = [](const Entry& a, const Entry& b)
        {
            // Neither below nor above is equal (validated coordinates are never NaN).
            return a.position.x < b.position.x || (!(a.position.x > b.position.x) && a.index < b.index);
        };
        // By insertion (nearly sorted strips cost a pass), handing a strip
        // that turns out far from sorted to std::sort.
        std::size_t movesLeft = kInsertionMovesPerEntry * (end - begin);
        for (Entry* e = first + 1; e < last && movesLeft > 0; ++e)
        {
            const Entry moved = *e;
            Entry* to = e;
            for (; to > first && before(moved, *(to - 1)) && movesLeft > 0; --to, --movesLeft)
                *to = *(to - 1);
            *to = moved;
        }
        if (movesLeft == 0)
            std::sort(first, last, before);
        Vec low = first->position, high = first->position;
        uint32_t slot = begin; // e's index in m_entries, counted (no division by the entry size)
        for (const Entry* e = first; e < last; ++e)
        {
            m_lastOrder[order++] = e->index;
            m_slot[e->index] = slot++;
            for (int d = 1; d < Dim; ++d)
            {
                low[d] = std::min(low[d], e->position[d]);
                high[d] = std::max(high[d], e->position[d]);
            }
        }
        m_stripLow[s] = low;
        m_stripHigh[s] = high;
    }
    if constexpr (Dim == 2)
    {
        // Per strip holding agents, the strips a query from it walks (see
        // m_near): the offsets after the first (the home strip, y = 0).
        static_assert(kOffsets<2>[0].y == 0 && kOffsets<2>[0].cellsSq == 0);
        const double beyond = std::numeric_limits<double>::infinity();
        if (m_near.capacity() < kOffsets<2>.size() * n)
            m_near.reserve(kOffsets<2>.size() * n);
        m_near.clear();
        m_nearFirst.resize(stripTotal);
        for (std::size_t s = 0; s < stripTotal; ++s)
        {
            if (m_stripStart[s] == m_stripEnd[s])
                continue;
            m_nearFirst[s] = static_cast<uint32_t>(m_near.size());
            for (std::size_t k = 1; k < m_offsetCount; ++k)
            {
                const int64_t y = kOffsets<2>[k].y;
                const int64_t sy = static_cast<int64_t>(s) + y;
                if (sy < 0 || sy >= m_stripCount[0])
                    continue;
                const std::size_t near = static_cast<std::size_t>(sy);
                if (m_stripStart[near] == m_stripEnd[near])
                    continue;
                m_near.push_back(NearStrip{m_offsetFloorSq[k],
                                           y < 0 ? m_stripHigh[near][1] : m_stripLow[near][1],
                                           static_cast<uint64_t>(near)});
            }
            m_near.push_back(NearStrip{beyond, 0.0, 0});
        }
    }
}

template <int Dim>
std::size_t NeighborGrid<Dim>::search(std::size_t self, double rangeSq, double startBound, std::size_t maxCount,
                                      Neighbor* out, Cursor& cursor) const
{
    const Vec at = m_positions[self];
    // A candidate is kept when its squared distance is at most `bound`: the
    // k-th so far once k are found, before that the start bound, or, for the
    // whole range, the largest double below range² (the range is strict;
    // below 0 when range² is 0), so that one test says both. Every skip below
    // is by `bound`: it leaves out only agents further than it, which no test
    // would keep.
    double bound = startBound < rangeSq ? startBound : largestBelow(rangeSq);
    std::size_t count = 0;
    // In space: the strip's squared distance across (acrossY + acrossZ) and
    // the largest dx² an entry of it may have and still be within the bound,
    // so that the scans test dx² alone.
    double stripAcross = 0.0, dxSqLimit = 0.0;
    // (bound·(1 + 1e-12) + 1e-300) − across, rounded: an entry with dx²
    // above it has dx² + across above bound·(1 + 1e-12 − 3ε) exactly
    // (ε = 2^-53; the 1e-300 covers subnormal rounding), so its squared
    // distance, (dx² + dy²) + dz² rounded, which is at least
    // (dx² + across)·(1 − ε)³, lies above the bound: a skip as true as the
    // floor's, a little later at most. The widened bound is kept beside the
    // bound (a strip then needs one subtraction).
    const auto widen = [](double b) { return b * (1.0 + 1.0e-12) + 1.0e-300; };
    double widenedBound = widen(bound);
    // The sentinel before the list: no candidate precedes it, so the
    // insertion below stops there without testing the list's start.
    out[-1] = Neighbor{-std::numeric_limits<double>::infinity(), 0, 0};
    // (id, index) as one key, in their order.
    const auto keyOf = [](uint32_t id, uint32_t index) __attribute__((always_inline))
    {
        return (uint64_t{id} << 32) | index;
    };
    // Keeps the candidate if it is among the k nearest so far (the bound was checked).
    auto consider = [&](double distSq, uint32_t index, uint32_t id) __attribute__((always_inline))
    {
        // The candidate comes before `o` in the order (squared distance, id, index).
        const uint64_t key = keyOf(id, index);
        const auto precedes = [&](const Neighbor& o) __attribute__((always_inline))
        {
            // Not above and not below is equal: no squared distance here is
            // NaN (validated coordinates, the sentinel −∞), and this form
            // tests the flags of one compare where == also tests for NaN.
            return distSq < o.distanceSquared || (!(distSq > o.distanceSquared) && key < keyOf(o.id, o.index));
        };
        if (count == maxCount)
        {
            if (!precedes(out[count - 1]))
                return;
            --count;
        }
        // Signed: at k = 0 the loop reads out[-1], the sentinel (an unsigned
        // k - 1 would wrap, which is undefined pointer arithmetic).
        std::ptrdiff_t k = static_cast<std::ptrdiff_t>(count);
        for (; precedes(out[k - 1]); --k)
            out[k] = out[k - 1];
        out[k] = Neighbor{distSq, index, id};
        if (++count == maxCount)
        {
            bound = out[count - 1].distanceSquared;
            if constexpr (Dim == 3)
            {
                widenedBound = widen(bound);
                dxSqLimit = widenedBound - stripAcross;
            }
        }
    };
    // Squared distance, exactly as dot(p − at, p − at), and its lower bound
    // from x alone plus the strip's distance across (`acrossY`, `acrossZ` squared).
    const uint32_t home = m_stripOfAgent[self];
    const Entry* entries = m_entries.data();
    // The first entry of strip `s` whose x is not below the agent's, where
    // scans in another strip start: walked forward from the strip's cursor
    // when the agent's x is not below the cursor's (every entry before the
    // cursor lies below the cursor's x <= at.x; the sentinel after the strip, +∞,
    // does not), else searched; the cursor moves there.
    const auto scanStart = [&](std::size_t s) __attribute__((always_inline))
    {
        uint32_t first = 0;
        if (at.x >= cursor.x[s])
        {
            first = cursor.entry[s];
            while (entries[first].position.x < at.x)
                ++first;
        }
        else
        {
            const uint32_t begin = m_stripStart[s];
            first =
                begin + static_cast<uint32_t>(firstNotBefore(entries + begin, m_stripEnd[s] - begin, at.x));
        }
        cursor.entry[s] = first;
        cursor.x[s] = at.x;
        return first;
    };
    if constexpr (Dim == 2)
    {
        // The walk below for the plane, with the strips from m_near: the
        // same strips in the same order (those out of the table or empty,
        // which it skips, are not listed; the offsets' nominal distances
        // only grow, so the first beyond the bound ends both walks there).
        // The home strip first (offset 0, nominal distance 0, nothing across).
        if (0.0 > bound)
            return count;
        // Scans forward from `right` and backward from before `left`. In the
        // home strip (`home` std::true_type) nothing lies across: the walk's
        // dxSq + 0 is dxSq (dxSq is never −0), compared without the addition.
        const auto scan = [&](auto home, const Entry* right, const Entry* left, double acrossY)
            __attribute__((always_inline))
        {
            constexpr bool kHome = decltype(home)::value;
            const auto visit = [&](const Entry& e) __attribute__((always_inline))
            {
                const double dx = e.position.x - at.x, dy = e.position.y - at.y;
                const double dxSq = dx * dx;
                if ((kHome ? dxSq : dxSq + acrossY) > bound)
                    return false;
                const double distSq = dxSq + dy * dy;
                if (distSq <= bound)
                    consider(distSq, e.index, e.id);
                return true;
            };
            for (const Entry* e = right; visit(*e); ++e)
            {
            }
            for (const Entry* e = left - 1; visit(*e); --e)
            {
            }
        };
        const Entry* own = entries + m_slot[self];
        scan(std::true_type{}, own + 1, own, 0.0);
        for (const NearStrip* near = m_near.data() + m_nearFirst[home]; !(near->floorSq > bound); ++near)
        {
            const std::size_t s = static_cast<std::size_t>(near->strip);
            // Every agent in the strip is at least this far in y.
            const double gy = near->edgeY - at.y;
            const double acrossY = gy * gy;
            if (acrossY > bound) // the walk's 0 + acrossY, the same number
                continue;
            const uint32_t first = scanStart(s);
            scan(std::false_type{}, entries + first, entries + first, acrossY);
        }
        return count;
    }
    else
    {
        // In space: the offsets' strips in turn (each in the table: its
        // border is as wide as the offsets reach).
#if defined(__SSE2__)
        const __m128d atAcross = _mm_setr_pd(at[1], at[2]); // (y, z) of the agent
#endif
        // The offsets to the columns touching the agent's (the first
        // nine) have the floor 0, which no bound is below (a bound below 0 finds
        // nothing either way): a compare of k instead of a load and a compare.
        constexpr std::size_t kTouching = 9;
        static_assert(kOffsets<Dim>[kTouching - 1].cellsSq == 0);
        for (std::size_t k = 0; k < m_offsetCount; ++k)
        {
            if (k >= kTouching && m_offsetFloorSq[k] > bound)
                break; // the rest are further still
            const std::size_t s = static_cast<std::size_t>(home + m_offsetStep[k]);
            const uint32_t begin = m_stripStart[s], end = m_stripEnd[s];
            if (begin == end)
                continue;
            // The strip's nearest agent across: every agent in it is at least this far in y (and z).
            double acrossY = 0.0, acrossZ = 0.0;
            {
                // The gap to the strip's span, per axis, 0 within it:
                // on the side the offset points to it is the old gap (high − at
                // below, low − at above: the squares are equal, a negation is
                // exact), and along an axis the offset does not move on it is 0
                // or more, a bound as true (the strip's agents lie within its
                // span). y and z a lane each, with no branch on the offset.
                const double* low = &m_stripLow[s][1];
                const double* high = &m_stripHigh[s][1];
#if defined(__SSE2__)
                const __m128d gap = _mm_max_pd(_mm_max_pd(_mm_sub_pd(_mm_loadu_pd(low), atAcross),
                                                          _mm_sub_pd(atAcross, _mm_loadu_pd(high))),
                                               _mm_setzero_pd());
                const __m128d gapSq = _mm_mul_pd(gap, gap);
                acrossY = _mm_cvtsd_f64(gapSq);
                acrossZ = _mm_cvtsd_f64(_mm_unpackhi_pd(gapSq, gapSq));
#else
                const double gy = std::max(std::max(low[0] - at[1], at[1] - high[0]), 0.0);
                const double gz = std::max(std::max(low[1] - at[2], at[2] - high[1]), 0.0);
                acrossY = gy * gy;
                acrossZ = gz * gz;
#endif
            }
            // The strip's floor (dx = 0; a sum of squares, never −0).
            stripAcross = acrossY + acrossZ;
            if (stripAcross > bound)
                continue;
            dxSqLimit = widenedBound - stripAcross;
            uint32_t right = 0, left = 0;
            if (s == home)
            {
                left = m_slot[self];
                right = left + 1;
            }
            else
                left = right = scanStart(s);
            // Inlined: the compiler otherwise calls it per agent scanned.
            // Across (y, z) only for an entry within reach along x.
            auto visit = [&](const Entry& e) __attribute__((always_inline))
            {
                const double dx = e.position.x - at.x;
                const double dxSq = dx * dx;
                if (dxSq > dxSqLimit)
                    return false;
                const double dy = e.position.y - at.y, dz = e.position.z - at.z;
                const double distSq = (dxSq + dy * dy) + dz * dz;
                if (distSq <= bound)
                    consider(distSq, e.index, e.id);
                return true;
            };
            // The sentinels end both scans (their squared distance is +∞). By
            // pointer: a 32-bit index costs its widening and scaling per entry
            // (measured: 1.2% of a step of RVO2's circle-250). Neither pointer
            // passes a sentinel, so both stay within the entries.
            for (const Entry* e = entries + right; visit(*e); ++e)
            {
            }
            for (const Entry* e = entries + left - 1; visit(*e); --e)
            {
            }
        }
    }
    return count;
}

template <int Dim> void NeighborGrid<Dim>::resetCursor(Cursor& cursor) const
{
    cursor.entry.resize(m_stripStart.size());
    cursor.x.assign(m_stripStart.size(), std::numeric_limits<double>::infinity());
}

template <int Dim>
std::size_t NeighborGrid<Dim>::query(std::size_t self, double range, std::size_t maxCount, Neighbor* out,
                                     double guessSq) const
{
    return query(self, range, maxCount, out, guessSq, m_cursor);
}

template <int Dim>
std::size_t NeighborGrid<Dim>::query(std::size_t self, double range, std::size_t maxCount, Neighbor* out,
                                     double guessSq, Cursor& cursor) const
{
    if (maxCount == 0)
        return 0;
    const double rangeSq = range * range;
    // With k found within the guess, the k-th distance bounded every skip, as a
    // search of the whole range would have: the same answer. One call site of
    // the (inlined) search for both.
    for (double startBound = guessSq > 0.0 && guessSq < rangeSq ? guessSq : rangeSq;; startBound = rangeSq)
    {
        const std::size_t found = search(self, rangeSq, startBound, maxCount, out, cursor);
        if (found == maxCount || startBound == rangeSq)
            return found;
    }
}

template <int Dim>
void NeighborGrid<Dim>::query(std::size_t self, double range, std::size_t maxCount, std::vector<Neighbor>& out) const
{
    // Room for the sentinel before the list (the pointer query's out[-1]).
    out.resize(maxCount + 1);
    const std::size_t found = maxCount == 0 ? 0 : query(self, range, maxCount, out.data() + 1);
    out.erase(out.begin());
    out.resize(found);
}

template class NeighborGrid<2>;
template class NeighborGrid<3>;

} // namespace spark::nav::detail
