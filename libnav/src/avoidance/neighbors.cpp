/// \file neighbors.cpp
/// Design note — neighbour search for ORCA.
///
/// A uniform grid with cells a quarter of the neighbour distance wide (or wider, see
/// below), rebuilt every step: each agent gets the integer cell of its position relative to the
/// lowest corner of this step's agents, packed into one 64-bit key (x in the
/// low bits; 21 bits per axis in 3D, 32 in 2D — the cells grow when the agents
/// span more cells than that, which keeps the answer exact, only slower). The
/// (key, index) pairs are sorted, a total order, so the layout never depends on
/// anything but the input. A query walks the 9^(D−1) rows of x-adjacent cells
/// around the agent, nearest rows first: the cells of a row have consecutive
/// keys, so one binary search finds each row, and once k neighbours are found
/// the k-th distance bounds the rest (rows beyond it are skipped and each row is
/// clipped to the cells within it), so dense crowds scan little.
/// O(n log n) to build, O(log n + local) per query, no hashing and no
/// allocation once the buffer has grown. The k nearest are kept in a small
/// sorted array ordered by (squared distance, id, index), the deterministic
/// neighbour order of SPEC §7.
#include "avoidance_internal.h"

#include <algorithm>
#include <cmath>

namespace spark::nav::detail
{
namespace
{

template <int Dim> constexpr int kBits = Dim == 2 ? 32 : 21;
/// Cells per neighbour distance (cells are range / 4 wide): in a crowd the
/// k nearest come from the agent's cell and the next ones; in open space a
/// query costs one search per row of cells.
constexpr int kCellsPerRange = 4;
/// Row offsets nearest first.
constexpr int kRowOrder[2 * kCellsPerRange + 1] = {0, -1, 1, -2, 2, -3, 3, -4, 4};

bool before(const Neighbor& a, const Neighbor& b)
{
    if (a.distanceSquared != b.distanceSquared)
        return a.distanceSquared < b.distanceSquared;
    if (a.id != b.id)
        return a.id < b.id;
    return a.index < b.index;
}

} // namespace

template <int Dim> std::array<int64_t, 3> NeighborGrid<Dim>::cellOf(const Vec& p) const
{
    std::array<int64_t, 3> c{0, 0, 0};
    for (int d = 0; d < Dim; ++d)
    {
        const int64_t cell = static_cast<int64_t>(std::floor((p[d] - m_origin[d]) * m_invCell));
        c[static_cast<std::size_t>(d)] = std::clamp<int64_t>(cell, 0, m_cellCount[d] - 1);
    }
    return c;
}

template <int Dim> uint64_t NeighborGrid<Dim>::pack(const std::array<int64_t, 3>& c) const
{
    uint64_t key = 0;
    for (int d = Dim - 1; d >= 0; --d)
        key = (key << kBits<Dim>) | static_cast<uint64_t>(c[static_cast<std::size_t>(d)]);
    return key;
}

template <int Dim> void NeighborGrid<Dim>::build(std::span<const Vec> positions, double range)
{
    m_positions = positions;
    Vec lo(0.0), hi(0.0);
    if (!positions.empty())
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
    // Cells at least `range` wide, and few enough per axis for the packed key.
    const double maxCells = static_cast<double>((int64_t{1} << kBits<Dim>) - 2);
    double cell = range / kCellsPerRange;
    for (int d = 0; d < Dim; ++d)
        cell = std::max(cell, (hi[d] - lo[d]) / maxCells);
    m_invCell = 1.0 / cell;
    for (int d = 0; d < Dim; ++d)
        m_cellCount[d] = static_cast<int64_t>(std::floor((hi[d] - lo[d]) * m_invCell)) + 1;
    m_entries.resize(positions.size());
    for (std::size_t i = 0; i < positions.size(); ++i)
        m_entries[i] = Entry{pack(cellOf(positions[i])), static_cast<uint32_t>(i)};
    std::sort(m_entries.begin(), m_entries.end(), [](const Entry& a, const Entry& b) {
        return a.key != b.key ? a.key < b.key : a.index < b.index;
    });
}

template <int Dim>
void NeighborGrid<Dim>::query(std::size_t self, double range, std::size_t maxCount, std::span<const uint32_t> ids,
                              std::vector<Neighbor>& out) const
{
    out.clear();
    const Vec& at = m_positions[self];
    const std::array<int64_t, 3> centre = cellOf(at);
    const double cell = 1.0 / m_invCell;
    // Distance from the agent to the near face of the cell `offset` cells away along axis d.
    auto gapTo = [&](int d, int offset) {
        if (offset == 0)
            return 0.0;
        const double start = m_origin[d] + static_cast<double>(centre[static_cast<std::size_t>(d)]) * cell;
        return offset > 0 ? (start + cell - at[d]) + (offset - 1) * cell : (at[d] - start) + (-offset - 1) * cell;
    };
    double bound = range * range;
    const int span = kCellsPerRange;
    const int rowsPerAxis = 2 * span + 1;
    const int rows = Dim == 2 ? rowsPerAxis : rowsPerAxis * rowsPerAxis;
    for (int r = 0; r < rows; ++r)
    {
        // Rows in order of distance from the agent's row (a fixed order), so the
        // k-th distance tightens early in crowds and far rows are skipped.
        const int oy = kRowOrder[r % rowsPerAxis];
        const int oz = Dim == 3 ? kRowOrder[r / rowsPerAxis] : 0;
        std::array<int64_t, 3> first = centre;
        first[1] += oy;
        first[2] += oz;
        if (first[1] < 0 || first[1] >= m_cellCount[1] || (Dim == 3 && (first[2] < 0 || first[2] >= m_cellCount[2])))
            continue;
        const double gy = gapTo(1, oy);
        const double gz = Dim == 3 ? gapTo(2, oz) : 0.0;
        const double rowGapSq = gy * gy + gz * gz;
        if (rowGapSq > bound)
            continue;
        // Along the row, from the agent's cell outward to both sides (one
        // search finds the agent's cell; the cells of a row have consecutive
        // keys), each side ending at the first cell beyond the k-th distance
        // found so far: in a crowd the k nearest come from the agent's own
        // cell and the rest is skipped. The k nearest under the total order
        // do not depend on the order the candidates come in.
        std::array<int64_t, 3> lo = first, hi = first;
        lo[0] = std::max<int64_t>(0, centre[0] - span);
        hi[0] = std::min<int64_t>(m_cellCount[0] - 1, centre[0] + span);
        const uint64_t loKey = pack(lo), hiKey = pack(hi);
        first[0] = centre[0];
        const auto start = std::lower_bound(m_entries.begin(), m_entries.end(), pack(first),
                                            [](const Entry& e, uint64_t k) { return e.key < k; });
        constexpr uint64_t kXMask = (uint64_t{1} << kBits<Dim>) - 1;
        // Whether the cells at x cell `cx` may still hold one of the k nearest.
        auto inReach = [&](uint64_t key) {
            const int64_t cx = static_cast<int64_t>(key & kXMask);
            const double gx = gapTo(0, static_cast<int>(cx - centre[0]));
            return rowGapSq + gx * gx <= bound;
        };
        auto consider = [&](const Entry& e) {
            if (e.index == self)
                return;
            const Vec diff = m_positions[e.index] - at;
            const double distSq = glm::dot(diff, diff);
            if (!(distSq < range * range) || distSq > bound)
                return;
            const Neighbor candidate{distSq, ids[e.index], e.index};
            if (out.size() == maxCount)
            {
                if (!before(candidate, out.back()))
                    return;
                out.pop_back();
            }
            // Insertion into the short sorted list (no allocation: it holds maxCount + 1).
            out.push_back(candidate);
            for (std::size_t k = out.size() - 1; k > 0 && before(candidate, out[k - 1]); --k)
                std::swap(out[k], out[k - 1]);
            if (out.size() == maxCount)
                bound = out.back().distanceSquared;
        };
        uint64_t cellKey = ~uint64_t{0};
        for (auto it = start; it != m_entries.end() && it->key <= hiKey; ++it)
        {
            if (it->key != cellKey)
            {
                if (!inReach(it->key))
                    break;
                cellKey = it->key;
            }
            consider(*it);
        }
        cellKey = ~uint64_t{0};
        for (auto it = start; it != m_entries.begin() && std::prev(it)->key >= loKey;)
        {
            --it;
            if (it->key != cellKey)
            {
                if (!inReach(it->key))
                    break;
                cellKey = it->key;
            }
            consider(*it);
        }
    }
}

template class NeighborGrid<2>;
template class NeighborGrid<3>;

} // namespace spark::nav::detail
