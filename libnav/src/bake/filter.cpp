/// \file filter.cpp
/// Stage 2 of the 3D bake: walkability filters, then the open field.
///
/// Design note. The three filters follow the ones of Recast (M. Mononen,
/// Recast Navigation, `RecastFilter.cpp`), reformulated here:
///  - low obstacles: a non-walkable span whose top is at most the step height
///    above a walkable span right below it (same column) becomes walkable — an
///    agent steps onto a kerb;
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

void filterLowObstacles(SolidField& field, int walkableClimb)
{
    const size_t columns = field.columns.size();
    for (size_t c = 0; c < columns; ++c)
    {
        bool prevWalkable = false;
        uint8_t prevArea = kNullArea;
        int prevTop = 0;
        for (int32_t s = field.columns[c]; s != -1; s = field.spans[s].next)
        {
            SolidSpan& span = field.spans[s];
            const bool walkable = span.area != kNullArea;
            if (!walkable && prevWalkable && static_cast<int>(span.top) - prevTop <= walkableClimb)
                span.area = prevArea;
            // Judge the next span against this one's original walkability, so
            // a stack of low steps does not climb without limit.
            prevWalkable = walkable;
            prevArea = span.area;
            prevTop = span.top;
        }
    }
}

void filterLedgesAndHeadRoom(SolidField& field, int walkableHeight, int walkableClimb)
{
    const Grid& g = field.grid;
    for (int z = 0; z < g.depth; ++z)
    {
        for (int x = 0; x < g.width; ++x)
        {
            for (int32_t s = field.columns[x + z * g.width]; s != -1; s = field.spans[s].next)
            {
                SolidSpan& span = field.spans[s];
                if (span.area == kNullArea)
                    continue;
                const int floor = span.top;
                const int ceiling = span.next != -1 ? field.spans[span.next].bottom : kOpenTop;
                if (ceiling - floor < walkableHeight)
                {
                    span.area = kNullArea;
                    continue;
                }
                bool ledge = false;
                int reachMin = floor, reachMax = floor;
                for (int dir = 0; dir < 4 && !ledge; ++dir)
                {
                    const int nx = x + kDirX[dir];
                    const int nz = z + kDirZ[dir];
                    if (nx < 0 || nz < 0 || nx >= g.width || nz >= g.depth)
                    {
                        ledge = true; // nothing beyond the grid: a drop
                        break;
                    }
                    int32_t n = field.columns[nx + nz * g.width];
                    // The free space under the neighbour's lowest span reaches down forever.
                    const int firstBottom = n != -1 ? field.spans[n].bottom : kOpenTop;
                    if (std::min(ceiling, firstBottom) - floor >= walkableHeight)
                    {
                        ledge = true;
                        break;
                    }
                    for (; n != -1; n = field.spans[n].next)
                    {
                        const int nFloor = field.spans[n].top;
                        const int32_t nn = field.spans[n].next;
                        const int nCeiling = nn != -1 ? field.spans[nn].bottom : kOpenTop;
                        if (std::min(ceiling, nCeiling) - std::max(floor, nFloor) < walkableHeight)
                            continue; // no room to stand between the two
                        if (nFloor - floor < -walkableClimb)
                        {
                            ledge = true;
                            break;
                        }
                        if (std::abs(nFloor - floor) <= walkableClimb)
                        {
                            reachMin = std::min(reachMin, nFloor);
                            reachMax = std::max(reachMax, nFloor);
                        }
                    }
                }
                if (ledge || reachMax - reachMin > walkableClimb)
                    span.area = static_cast<uint8_t>(span.area | kLedgeFlag);
            }
        }
    }
}

} // namespace

Status filterSpans(SolidField& ioSolid, const CellSettings& cells, OpenField& outField)
{
    filterLowObstacles(ioSolid, cells.walkableClimb);
    filterLedgesAndHeadRoom(ioSolid, cells.walkableHeight, cells.walkableClimb);

    // Open spans, column by column in the solid order (bottom up).
    const Grid& g = ioSolid.grid;
    const size_t columns = ioSolid.columns.size();
    size_t count = 0;
    for (size_t c = 0; c < columns; ++c)
        for (int32_t s = ioSolid.columns[c]; s != -1; s = ioSolid.spans[s].next)
            if (ioSolid.spans[s].area != kNullArea)
                ++count;

    outField.grid = g;
    outField.cellFirst.assign(columns, 0);
    outField.cellCount.assign(columns, 0);
    outField.y.resize(count);
    outField.h.resize(count);
    outField.con.assign(count, 0xffffffu);
    outField.area.resize(count);
    outField.dist.assign(count, 0);
    outField.region.assign(count, 0);
    outField.regionCount = 0;

    uint32_t next = 0;
    for (size_t c = 0; c < columns; ++c)
    {
        outField.cellFirst[c] = next;
        int layers = 0;
        for (int32_t s = ioSolid.columns[c]; s != -1; s = ioSolid.spans[s].next)
        {
            const SolidSpan& span = ioSolid.spans[s];
            if (span.area == kNullArea)
                continue;
            if (layers >= kMaxLayers)
                return makeError("E_NAV_LIMIT",
                                 "a grid column holds more than 63 walkable layers; raise cell_height",
                                 "/cell_height");
            const int ceiling = span.next != -1 ? ioSolid.spans[span.next].bottom : kMaxSpanHeight;
            outField.y[next] = span.top;
            outField.h[next] = static_cast<uint16_t>(std::clamp(ceiling - static_cast<int>(span.top), 0, 0xffff));
            outField.area[next] = span.area;
            ++next;
            ++layers;
        }
        outField.cellCount[c] = static_cast<uint8_t>(layers);
    }

    // Links to the neighbours an agent can step to.
    for (int z = 0; z < g.depth; ++z)
    {
        for (int x = 0; x < g.width; ++x)
        {
            const size_t c = static_cast<size_t>(x + z * g.width);
            const uint32_t first = outField.cellFirst[c];
            const uint32_t last = first + outField.cellCount[c];
            for (uint32_t i = first; i < last; ++i)
            {
                const int floor = outField.y[i];
                const int ceiling = floor + outField.h[i];
                uint32_t con = 0;
                for (int dir = 0; dir < 4; ++dir)
                {
                    uint32_t link = kNoConnection;
                    const int nx = x + kDirX[dir];
                    const int nz = z + kDirZ[dir];
                    if (nx >= 0 && nz >= 0 && nx < g.width && nz < g.depth)
                    {
                        const size_t nc = static_cast<size_t>(nx + nz * g.width);
                        const uint32_t nFirst = outField.cellFirst[nc];
                        const uint32_t nCount = outField.cellCount[nc];
                        for (uint32_t k = 0; k < nCount; ++k)
                        {
                            const int nFloor = outField.y[nFirst + k];
                            const int nCeiling = nFloor + outField.h[nFirst + k];
                            if (std::min(ceiling, nCeiling) - std::max(floor, nFloor) >= cells.walkableHeight &&
                                std::abs(nFloor - floor) <= cells.walkableClimb)
                            {
                                link = k;
                                break;
                            }
                        }
                    }
                    con |= link << (dir * 6);
                }
                outField.con[i] = con;
            }
        }
    }
    return Status::success();
}

} // namespace spark::nav::bake
