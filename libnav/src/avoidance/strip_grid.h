#pragma once
/// \file strip_grid.h
/// What the neighbour grids on the plane (neighbor_grid_2d.h) and in space
/// (neighbor_grid_3d.h) share: the candidate list of a k-nearest query and
/// the strip layout they search, rebuilt every step (strip_grid.cpp).

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

namespace spark::nav::detail
{

/// One candidate neighbour: squared centre distance, id, index (the total
/// order: distance, then id, then index).
struct Neighbor
{
    double distanceSquared = 0.0;
    uint32_t index = 0;
    uint32_t id = 0;
};

/// The k nearest found so far, in out[0, count) by (squared distance, id,
/// index); `bound` is the largest squared distance still kept: the k-th's
/// once k are found, before that the query's start bound.
struct NearestList
{
    Neighbor* out;
    std::size_t maxCount;
    double bound;
    std::size_t count = 0;

    /// Keeps the candidate if it comes before the k-th (its distance is
    /// known to be within `bound`). Inlined into the scans, with the list a
    /// local of the query: its bound then stays in a register (called out of
    /// line, every store to `out` reloads it: 15% of a step of RVO2's circle).
    /// Returns true when the bound changed (k are now found).
    [[gnu::always_inline]] bool offer(double distSq, uint32_t index, uint32_t id)
    {
        const uint64_t key = (uint64_t{id} << 32) | index;
        // Not below and not above is equal: no squared distance here is NaN
        // (validated coordinates), and this form tests one compare's flags.
        const auto precedes = [&](const Neighbor& o)
        {
            return distSq < o.distanceSquared ||
                   (!(distSq > o.distanceSquared) && key < ((uint64_t{o.id} << 32) | o.index));
        };
        if (count == maxCount)
        {
            if (!precedes(out[count - 1]))
                return false;
            --count;
        }
        std::size_t k = count;
        for (; k > 0 && precedes(out[k - 1]); --k)
            out[k] = out[k - 1];
        out[k] = Neighbor{distSq, index, id};
        if (++count < maxCount)
            return false;
        bound = out[count - 1].distanceSquared;
        return true;
    }
};

/// The largest double below `x` (x >= 0 and finite; below 0 for x = 0): the
/// bound that keeps exactly the squared distances below x.
double largestBelow(double x);

/// Strips a query may reach on each side of its own (with the narrowest).
inline constexpr int kSpan = 4;

/// Agents cut into strips across y (in space: columns across y and z), each
/// sorted along x between two sentinel entries (x = −∞ before, +∞ after),
/// found through a table: no hashing, a layout that depends only on the input.
template <int Dim> class StripGrid
{
public:
    using Vec = std::conditional_t<Dim == 2, glm::dvec2, glm::dvec3>;

    /// Per strip, where the last query that searched it from another strip
    /// started its scan (the first entry whose x is not below `x`): a query
    /// at an x not below it walks forward from there instead of searching.
    /// Work only: the start found is the same. One per querying thread.
    struct Cursor
    {
        std::vector<uint32_t> entry;
        std::vector<double> x;
    };

    /// Rebuilds the layout over `positions` (kept by reference until the next
    /// build; `ids[i]` is agent i's id) for queries of range up to `range`,
    /// most for `expectedCount` neighbours (0: unknown; only the speed depends on it).
    void build(std::span<const Vec> positions, std::span<const uint32_t> ids, double range,
               std::size_t expectedCount = 0);
    /// Makes `cursor` fit the last build (call after each build).
    void resetCursor(Cursor& cursor) const;
    /// The agent at position `slot` of the (strip, x, index) order: solving
    /// agents in this order moves each strip's scan start forward only and
    /// keeps neighbours' data close in memory. Only the work depends on it.
    uint32_t agentAt(std::size_t slot) const { return m_order[slot]; }

protected:
    /// An agent's position, index and id (copies: a scan reads only the strip).
    struct Entry
    {
        Vec position;
        uint32_t index;
        uint32_t id;
    };
    /// The first entry of strip `s` (holding agents) whose x is not below `x`:
    /// walked forward from the strip's cursor when x is not below the
    /// cursor's (every entry before the cursor lies below the cursor's x <= x;
    /// the sentinel after the strip, +∞, does not), else searched. Inlined
    /// into the queries (a call per strip walked cost 3% of a step of
    /// RVO2-3D's sphere).
    [[gnu::always_inline]] uint32_t scanStart(std::size_t s, double x, Cursor& cursor) const
    {
        uint32_t first = 0;
        if (x >= cursor.x[s])
        {
            first = cursor.entry[s];
            while (m_entries[first].position.x < x)
                ++first;
        }
        else
            first = searchStrip(s, x);
        cursor.entry[s] = first;
        cursor.x[s] = x;
        return first;
    }
    /// The first entry of strip `s` whose x is not below `x`, searched.
    uint32_t searchStrip(std::size_t s, double x) const;
    /// Runs search(startBound) with the squared guess first when it is within
    /// the range, then, when fewer than k lie within it, with the whole range:
    /// with k found within the guess, the k-th distance bounded every skip,
    /// as a search of the range would have (the same answer).
    template <class Search>
    static std::size_t withGuess(double rangeSq, double guessSq, std::size_t maxCount, const Search& search)
    {
        if (guessSq > 0.0 && guessSq < rangeSq)
        {
            const std::size_t found = search(guessSq);
            if (found == maxCount)
                return found;
        }
        return search(rangeSq);
    }

    /// The strips within kSpan of a strip (each way along y, and z).
    static constexpr std::size_t kOffsetCount = Dim == 2 ? 2 * kSpan + 1 : (2 * kSpan + 1) * (2 * kSpan + 1);

    std::vector<Entry> m_entries;             ///< By (strip, x, index); each held strip between two sentinels.
    std::vector<uint32_t> m_stripStart;       ///< First entry per strip.
    std::vector<uint32_t> m_stripEnd;         ///< Past the last entry per strip (its sentinel after).
    std::vector<Vec> m_stripLow, m_stripHigh; ///< Smallest and largest coordinates per strip (y, z used).
    std::vector<uint32_t> m_slot;             ///< Agent index -> its entry.
    std::vector<uint32_t> m_stripOfAgent;     ///< Agent index -> its strip.
    std::vector<uint32_t> m_order;            ///< The agent indices of the entries, in order.
    std::span<const Vec> m_positions;
    Vec m_origin{};
    double m_invWidth = 1.0;
    double m_stripWidth = 1.0;
    std::size_t m_offsetCount = 0; ///< The strip offsets a query walks (those within reach).
    /// Per offset walked, the offset along y and z and the squared nominal
    /// distance of its strip (the whole cells between, discounted): a bound
    /// below it skips it and the rest.
    std::array<int, kOffsetCount> m_offsetY{}, m_offsetZ{};
    std::array<double, kOffsetCount> m_offsetFloorSq{};
    /// Per offset walked, its distance in the strip table (y + z · row length).
    std::array<int64_t, kOffsetCount> m_offsetStep{};
    int64_t m_stripCount[2] = {1, 1}; ///< Strips along y and z holding agents (the border not counted).
    int64_t m_pad = 0;                ///< Empty strips bordering them on each side, along y and z.

private:
    uint32_t stripOf(const Vec& p) const;
};

extern template class StripGrid<2>;
extern template class StripGrid<3>;

} // namespace spark::nav::detail
