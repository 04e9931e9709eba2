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
            int layers = 0;
            for (int32_t s = ioSolid.columns[c]; s != -1; s = ioSolid.spans[s].next)
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
                bool ledge = false;
                int reachMin = floor, reachMax = floor;
                uint32_t con = 0;
                for (int dir = 0; dir < 4; ++dir)
                {
                    uint32_t link = kNoConnection;
                    const int nx = x + kDirX[dir];
                    const int nz = z + kDirZ[dir];
                    if (nx < 0 || nz < 0 || nx >= g.width || nz >= g.depth)
                    {
                        ledge = true; // nothing beyond the grid: a drop
                        con |= link << (dir * 6);
                        continue;
                    }
                    int32_t n = ioSolid.columns[static_cast<size_t>(nx + nz * g.width)];
                    // The free space under the neighbour's lowest span reaches down forever.
                    const int firstBottom = n != -1 ? ioSolid.spans[n].bottom : kOpenTop;
                    if (std::min(ceiling, firstBottom) - floor >= wh)
                        ledge = true;
                    uint32_t rank = 0;
                    for (; n != -1; n = ioSolid.spans[n].next)
                    {
                        const SolidSpan& ns = ioSolid.spans[n];
                        const int nFloor = ns.top;
                        const int nCeiling = ceilingOf(ioSolid, ns, kOpenTop);
                        const bool room = std::min(ceiling, nCeiling) - std::max(floor, nFloor) >= wh;
                        if (room)
                        {
                            if (nFloor - floor < -climb)
                                ledge = true;
                            else if (nFloor - floor <= climb)
                            {
                                reachMin = std::min(reachMin, nFloor);
                                reachMax = std::max(reachMax, nFloor);
                            }
                        }
                        if (link != kNoConnection || ns.area == kNullArea || nCeiling - nFloor < wh)
                            continue; // linked already, or not an open span
                        if (std::abs(nFloor - floor) <= climb &&
                            std::min(openCeiling, ceilingOf(ioSolid, ns, kMaxSpanHeight)) - std::max(floor, nFloor) >=
                                wh)
                            link = rank;
                        ++rank;
                    }
                    con |= std::min<uint32_t>(link, kNoConnection) << (dir * 6);
                }
                if (ledge || reachMax - reachMin > climb)
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
