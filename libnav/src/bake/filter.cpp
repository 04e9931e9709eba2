/// \file filter.cpp
/// Stage 2 of the 3D bake: walkability filters, then the open field.
///
/// Design note. The filters follow the ones of Recast (M. Mononen,
/// Recast Navigation, `RecastFilter.cpp`), reformulated here; its first one,
/// the low-obstacle filter, runs at the end of voxelize.cpp (it shares that
/// stage's last walk over the columns):
///  - ledges: a walkable span beside a column where an agent standing on it
///    could fall by more than the step height (including the edge of the grid
///    and empty columns), or whose reachable neighbour floors differ by more
///    than the step height, gets the ledge flag. Flagged spans stay in the open
///    field; erosion treats them as borders, as Recast treats its ledges (which
///    its filter makes unwalkable), and removes them;
///  - head room: a span with less than agent_height of free space above is
///    not walkable.
/// The open field then holds one span per walkable solid span (floor = solid
/// top, head room up to the next solid span) and, per direction, the layer
/// index of the neighbour span an agent can step to: head room overlap of at
/// least agent_height and a floor difference of at most the step height.

#include "bake_stages.h"

#include <algorithm>
#include <climits>
#include <cstdlib>

namespace spark::nav::bake
{
namespace
{

constexpr int kOpenTop = INT_MAX / 4; // free space above the highest span

/// Free space above solid span `s` up to the next span, or to `open` above the highest.
inline int ceilingOf(const SolidField& field, const SolidSpan& s, int open)
{
    return s.next != -1 ? field.spans[s.next].bottom : open;
}

/// A neighbour column beyond the grid's edge (a column head is a span index or -1).
constexpr int32_t kBeyondGrid = -2;

/// What the neighbour columns tell an open span of the filter: whether it
/// stands at a ledge, and the lowest and highest floors it steps to.
struct NeighbourScan
{
    bool ledge;
    int reachMin, reachMax;
    /// Floors rise up a column: a neighbour span whose floor is above this
    /// (above the step height, and too high for head room under the open
    /// span's ceiling) and every one above it neither link nor count.
    int lastFloor;
};

/// Scans the neighbour column whose first span is `n` (kBeyondGrid: a
/// drop, no link) for the open span (floor, ceiling) and returns its link.
[[gnu::always_inline]] inline uint32_t scanNeighbour(const SolidField& field, int32_t n, int floor, int ceiling,
                                                     int openCeiling, int wh, int climb, NeighbourScan& io)
{
    if (n == kBeyondGrid)
    {
        io.ledge = true; // nothing beyond the grid: a drop
        return kNoConnection;
    }
    if (n != -1 && ceiling == kOpenTop && field.spans[n].next == -1)
    {
        // Open ground, the common case: the neighbour column holds one span
        // and nothing stands over either span, so there is head room between
        // them whatever their floors, and the link is that span or none. The
        // loop below gives the same, with every test spelled out.
        const SolidSpan& ns = field.spans[n];
        const int nFloor = ns.top;
        if (ns.bottom - floor >= wh)
            io.ledge = true;
        const int rise = nFloor - floor;
        if (rise < -climb)
        {
            io.ledge = true;
            return kNoConnection;
        }
        if (rise > climb)
            return kNoConnection;
        io.reachMin = std::min(io.reachMin, nFloor);
        io.reachMax = std::max(io.reachMax, nFloor);
        return ns.area != kNullArea && kMaxSpanHeight - std::max(floor, nFloor) >= wh ? 0u : kNoConnection;
    }
    // The free space under the neighbour's lowest span reaches down forever.
    const int firstBottom = n != -1 ? field.spans[n].bottom : kOpenTop;
    if (std::min(ceiling, firstBottom) - floor >= wh)
        io.ledge = true;
    uint32_t link = kNoConnection;
    uint32_t rank = 0;
    for (; n != -1; n = field.spans[n].next)
    {
        const SolidSpan& ns = field.spans[n];
        const int nFloor = ns.top;
        if (nFloor > io.lastFloor)
            break;
        const int nCeiling = ceilingOf(field, ns, kOpenTop);
        const bool room = std::min(ceiling, nCeiling) - std::max(floor, nFloor) >= wh;
        if (room)
        {
            if (nFloor - floor < -climb)
                io.ledge = true;
            else if (nFloor - floor <= climb)
            {
                io.reachMin = std::min(io.reachMin, nFloor);
                io.reachMax = std::max(io.reachMax, nFloor);
            }
        }
        if (link != kNoConnection || ns.area == kNullArea || nCeiling - nFloor < wh)
            continue; // linked already, or not an open span
        if (std::abs(nFloor - floor) <= climb &&
            std::min(openCeiling, ceilingOf(field, ns, kMaxSpanHeight)) - std::max(floor, nFloor) >= wh)
            link = rank;
        ++rank;
    }
    return std::min<uint32_t>(link, kNoConnection);
}

} // namespace

Status filterSpans(SolidField& ioSolid, const CellSettings& cells, OpenField& outField)
{
    // One pass over the walkable spans, column by column bottom up, applies
    // the head room and ledge filters and writes the open field with its
    // links: both look at the same neighbour spans. A neighbour is an open
    // span when it is walkable after the low-obstacle filter and has the head
    // room (the filter below judges every span the same way, whichever column
    // comes first), and its layer is its rank among those in its column.
    const Grid& g = ioSolid.grid;
    const int wh = cells.walkableHeight;
    const int climb = cells.walkableClimb;
    const size_t columns = ioSolid.columns.size();
    const size_t capacity = static_cast<size_t>(ioSolid.spanCount);
    outField.grid = g;
    // Reserved, not sized: a page of memory is first touched when a span is written to it.
    outField.y.clear();
    outField.h.clear();
    outField.con.clear();
    outField.area.clear();
    outField.y.reserve(capacity);
    outField.h.reserve(capacity);
    outField.con.reserve(capacity);
    outField.area.reserve(capacity);
    outField.regionCount = 0;
    outField.usedColumns.clear();
    outField.usedColumns.reserve(std::min(columns, capacity));
    outField.rowStart.assign(static_cast<size_t>(g.depth) + 1, 0);

    // The open field's column starts go into the solid column array, which the
    // open field then takes over: a row's starts are written once the next row
    // is done, as that row's links still read this row's solid spans.
    const size_t width = static_cast<size_t>(g.width);
    const std::array<int64_t, 4> step = columnSteps(g.width);
    std::vector<uint32_t> rowFirst(2 * width); // this row's starts, the row before's
    uint32_t* firstHere = rowFirst.data();
    uint32_t* firstBefore = rowFirst.data() + width;
    uint32_t next = 0;
    for (int z = 0; z < g.depth; ++z)
    {
        outField.rowStart[static_cast<size_t>(z)] = static_cast<uint32_t>(outField.usedColumns.size());
        for (int x = 0; x < g.width; ++x)
        {
            const size_t c = static_cast<size_t>(x + z * g.width);
            firstHere[x] = next;
            const int32_t head = static_cast<int32_t>(ioSolid.columns[c]);
            if (head == -1)
                continue;
            // The neighbour columns' first spans (kBeyondGrid past the grid's edge).
            int32_t heads[4];
            if (x > 0 && z > 0 && x + 1 < g.width && z + 1 < g.depth)
            {
                heads[0] = static_cast<int32_t>(ioSolid.columns[c - 1]);
                heads[1] = static_cast<int32_t>(ioSolid.columns[c + width]);
                heads[2] = static_cast<int32_t>(ioSolid.columns[c + 1]);
                heads[3] = static_cast<int32_t>(ioSolid.columns[c - width]);
            }
            else
                for (int dir = 0; dir < 4; ++dir)
                {
                    const int nx = x + kDirX[dir], nz = z + kDirZ[dir];
                    heads[dir] = nx < 0 || nz < 0 || nx >= g.width || nz >= g.depth
                                     ? kBeyondGrid
                                     : static_cast<int32_t>(ioSolid.columns[c + step[dir]]);
                }
            int layers = 0;
            for (int32_t s = head; s != -1; s = ioSolid.spans[s].next)
            {
                SolidSpan& span = ioSolid.spans[s];
                if (span.area == kNullArea)
                    continue;
                const int floor = span.top;
                const int ceiling = ceilingOf(ioSolid, span, kOpenTop);
                if (ceiling - floor < wh)
                {
                    span.area = kNullArea;
                    continue;
                }
                if (layers >= kMaxLayers)
                    return makeError("E_NAV_LIMIT",
                                     "a grid column holds more than 63 walkable layers; raise cell_height",
                                     "/cell_height");
                // The open field bounds the highest span's head room by the grid's top.
                const int openCeiling = ceilingOf(ioSolid, span, kMaxSpanHeight);
                NeighbourScan scan{false, floor, floor, std::max(floor + climb, ceiling - wh)};
                uint32_t con = 0;
                // Unrolled: four copies of the scan drop the loop's counter and shifts.
#pragma GCC unroll 4
                for (int dir = 0; dir < 4; ++dir)
                    con |= scanNeighbour(ioSolid, heads[dir], floor, ceiling, openCeiling, wh, climb, scan) << (dir * 6);
                if (scan.ledge || scan.reachMax - scan.reachMin > climb)
                    span.area = static_cast<uint8_t>(span.area | kLedgeFlag);
                outField.y.push_back(static_cast<uint16_t>(floor));
                outField.h.push_back(static_cast<uint16_t>(std::clamp(openCeiling - floor, 0, 0xffff)));
                outField.area.push_back(span.area);
                outField.con.push_back(con);
                ++next;
                ++layers;
            }
            if (layers > 0)
                outField.usedColumns.push_back(static_cast<uint32_t>(c));
        }
        if (z > 0)
            std::copy(firstBefore, firstBefore + width,
                      ioSolid.columns.begin() + static_cast<ptrdiff_t>(static_cast<size_t>(z - 1) * width));
        std::swap(firstHere, firstBefore);
    }
    std::copy(firstBefore, firstBefore + width,
              ioSolid.columns.begin() + static_cast<ptrdiff_t>((static_cast<size_t>(g.depth) - 1) * width));
    ioSolid.columns.push_back(next); // within the capacity voxelize reserved
    outField.cellFirst = std::move(ioSolid.columns);
    ioSolid.columns.clear();
    outField.rowStart[static_cast<size_t>(g.depth)] = static_cast<uint32_t>(outField.usedColumns.size());
    outField.dist.assign(next, 0);
    outField.region.assign(next, 0);
    return Status::success();
}

} // namespace spark::nav::bake
