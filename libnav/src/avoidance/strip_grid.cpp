/// \file strip_grid.cpp
/// The strip layout of the neighbour grids, rebuilt every step.
///
/// The agents are cut into strips across y (in space: columns across y and
/// z), from 1/3.5 to 1/0.9 of the neighbour distance wide by the agents'
/// density (narrow in crowds, wide when sparse; wider still when the agents
/// would span more than max(4n, 1024) strips: far-apart groups). Each agent
/// gets the integer cell of its y (and z) relative to the lowest corner of
/// this step's agents; a counting sort over the cells puts each strip's agents
/// together (in the last build's order, so that a strip comes nearly sorted),
/// and each strip is sorted along x by (x, index), a total order, so the
/// layout depends on nothing but the input. Tables give each strip's first
/// and past-the-last entry; a strip that holds agents lies between two
/// sentinel entries (x = −∞ before, +∞ after) whose squared distance is past
/// every bound, so a scan along x ends by its distance test alone. Each strip
/// keeps the smallest and largest y (and z) of its agents, and the offsets to
/// the strips within reach are listed nearest first with their nominal
/// squared distance (the whole cells between, discounted by 1e-6, far more
/// than the rounding of a cell index).
///
/// O(n + strips) plus the sorts of the strips; no hashing, no allocation once
/// the buffers have grown.
#include "strip_grid.h"

#include "spark/core/bits.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <tuple>

namespace spark::nav::detail
{
namespace
{

/// Strips per neighbour distance to choose from, narrowest first: not whole
/// numbers, so the strips a query may reach (kSpan on each side) cover the
/// distance with a wide margin.
constexpr double kStripsPerRange[] = {3.5, 2.5, 1.5, 0.9};
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

} // namespace

double largestBelow(double x)
{
    return x > 0.0 ? spark::bitCast<double>(spark::bitCast<uint64_t>(x) - 1) : -1.0;
}

template <int Dim> inline uint32_t StripGrid<Dim>::stripOf(const Vec& p) const
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
void StripGrid<Dim>::build(std::span<const Vec> positions, std::span<const uint32_t> ids, double range,
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
        m_offsetY[k] = kOffsets<Dim>[k].y;
        m_offsetZ[k] = kOffsets<Dim>[k].z;
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
    const bool lastOrder = m_order.size() == n;
    // At most two sentinels an agent: room reserved once, none allocated
    // when only the number of strips held changes.
    if (m_entries.capacity() < 3 * n)
        m_entries.reserve(3 * n);
    m_entries.resize(entryCount);
    for (std::size_t j = 0; j < n; ++j)
    {
        const uint32_t i = lastOrder ? m_order[j] : static_cast<uint32_t>(j);
        m_entries[m_stripEnd[m_stripOfAgent[i]]++] = Entry{positions[i], i, ids[i]};
    }

    // Each strip along x, its extent across, and each agent's entry.
    m_stripLow.resize(stripTotal);
    m_stripHigh.resize(stripTotal);
    m_slot.resize(n);
    m_order.resize(n);
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
            m_order[order++] = e->index;
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
}

template <int Dim> void StripGrid<Dim>::resetCursor(Cursor& cursor) const
{
    cursor.entry.resize(m_stripStart.size());
    cursor.x.assign(m_stripStart.size(), std::numeric_limits<double>::infinity());
}

template <int Dim> uint32_t StripGrid<Dim>::searchStrip(std::size_t s, double x) const
{
    const uint32_t begin = m_stripStart[s];
    return begin + static_cast<uint32_t>(firstNotBefore(m_entries.data() + begin, m_stripEnd[s] - begin, x));
}

template class StripGrid<2>;
template class StripGrid<3>;

} // namespace spark::nav::detail
