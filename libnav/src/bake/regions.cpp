/// \file regions.cpp
/// Stage 4 of the 3D bake: monotone regions.
///
/// Design note. The partition is the monotone one of Recast's
/// `rcBuildRegionsMonotone` (M. Mononen, Recast Navigation,
/// `RecastRegion.cpp`), chosen over watershed for being linear, simple and free
/// of holes (see reference "Choices"). Rows are swept along +z. In a row,
/// consecutive connected spans of the same area form a run; a run continues
/// the region of the row behind it when every link it has to that row goes to
/// one region and no other run of the row links to that region. Otherwise the
/// run opens a new region. Each region is therefore a stack of runs, one per
/// row, each overlapping the previous: a simply connected shape without holes,
/// and no two regions share a span.
///
/// Before the sweep, connected islands with fewer spans than min_region_area
/// are dropped (a flood fill over the links), so a stray box top does not
/// become a mesh of its own.

#include "bake_stages.h"

#include <cstdint>
#include <limits>

namespace spark::nav::bake
{
namespace
{

constexpr uint32_t kManyRegions = std::numeric_limits<uint32_t>::max();

inline uint32_t neighbourSpan(const OpenField& f, int x, int z, uint32_t i, int dir)
{
    const uint32_t link = connectionOf(f, i, dir);
    if (link == kNoConnection)
        return UINT32_MAX;
    const size_t nc = static_cast<size_t>((x + kDirX[dir]) + (z + kDirZ[dir]) * f.grid.width);
    return f.cellFirst[nc] + link;
}

/// Drops connected islands smaller than `minCells` spans.
void dropSmallIslands(OpenField& f, int minCells)
{
    const Grid& g = f.grid;
    const size_t n = f.spanCount();
    std::vector<uint32_t> island(n, 0);
    std::vector<uint32_t> stack;
    std::vector<uint32_t> members;
    // Column coordinates of every span, for the flood fill.
    std::vector<uint32_t> columnOf(n);
    for (size_t c = 0; c < f.cellFirst.size(); ++c)
        for (uint32_t k = 0; k < f.cellCount[c]; ++k)
            columnOf[f.cellFirst[c] + k] = static_cast<uint32_t>(c);

    uint32_t nextIsland = 1;
    for (uint32_t seed = 0; seed < n; ++seed)
    {
        if (f.area[seed] == kNullArea || island[seed] != 0)
            continue;
        members.clear();
        stack.clear();
        stack.push_back(seed);
        island[seed] = nextIsland;
        while (!stack.empty())
        {
            const uint32_t i = stack.back();
            stack.pop_back();
            members.push_back(i);
            const int x = static_cast<int>(columnOf[i] % static_cast<uint32_t>(g.width));
            const int z = static_cast<int>(columnOf[i] / static_cast<uint32_t>(g.width));
            for (int dir = 0; dir < 4; ++dir)
            {
                const uint32_t a = neighbourSpan(f, x, z, i, dir);
                if (a == UINT32_MAX || f.area[a] == kNullArea || island[a] != 0)
                    continue;
                island[a] = nextIsland;
                stack.push_back(a);
            }
        }
        ++nextIsland;
        if (members.size() < static_cast<size_t>(minCells))
            for (uint32_t i : members)
                f.area[i] = kNullArea;
    }
}

} // namespace

void buildRegions(OpenField& ioField, const CellSettings& cells)
{
    OpenField& f = ioField;
    const Grid& g = f.grid;
    if (cells.minRegionCells > 1)
        dropSmallIslands(f, cells.minRegionCells);

    std::fill(f.region.begin(), f.region.end(), 0u);
    uint32_t regionCount = 0;

    // Scratch per row: sweeps, and per previous-row region the number of links into it.
    std::vector<uint32_t> sweepNeighbour;
    std::vector<uint32_t> sweepLinks;
    std::vector<uint32_t> sweepRegion;
    std::vector<uint32_t> linksInto(1, 0);
    std::vector<uint32_t> touched;
    sweepNeighbour.reserve(static_cast<size_t>(g.width));
    sweepLinks.reserve(static_cast<size_t>(g.width));
    sweepRegion.reserve(static_cast<size_t>(g.width));

    for (int z = 0; z < g.depth; ++z)
    {
        sweepNeighbour.clear();
        sweepLinks.clear();
        touched.clear();
        for (int x = 0; x < g.width; ++x)
        {
            const size_t c = static_cast<size_t>(x + z * g.width);
            const uint32_t first = f.cellFirst[c];
            const uint32_t last = first + f.cellCount[c];
            for (uint32_t i = first; i < last; ++i)
            {
                if (f.area[i] == kNullArea)
                    continue;
                // Continue the run of the -x neighbour, or open a new one.
                uint32_t sweep;
                const uint32_t a = neighbourSpan(f, x, z, i, 0);
                if (a != UINT32_MAX && f.area[a] == f.area[i] && f.region[a] != 0)
                {
                    sweep = f.region[a] - 1;
                }
                else
                {
                    sweep = static_cast<uint32_t>(sweepNeighbour.size());
                    sweepNeighbour.push_back(0);
                    sweepLinks.push_back(0);
                }
                f.region[i] = sweep + 1; // sweep id while the row is open

                // Link to the row behind.
                const uint32_t b = neighbourSpan(f, x, z, i, 3);
                if (b == UINT32_MAX || f.area[b] != f.area[i])
                    continue;
                const uint32_t r = f.region[b];
                if (r == 0)
                    continue;
                if (sweepNeighbour[sweep] == 0 || sweepNeighbour[sweep] == r)
                {
                    sweepNeighbour[sweep] = r;
                    ++sweepLinks[sweep];
                    if (linksInto[r] == 0)
                        touched.push_back(r);
                    ++linksInto[r];
                }
                else
                {
                    sweepNeighbour[sweep] = kManyRegions;
                }
            }
        }

        // Each run takes its neighbour's region when it alone links to it.
        sweepRegion.resize(sweepNeighbour.size());
        for (size_t s = 0; s < sweepNeighbour.size(); ++s)
        {
            const uint32_t r = sweepNeighbour[s];
            if (r != 0 && r != kManyRegions && linksInto[r] == sweepLinks[s])
            {
                sweepRegion[s] = r;
            }
            else
            {
                sweepRegion[s] = ++regionCount;
                linksInto.push_back(0);
            }
        }
        for (uint32_t r : touched)
            linksInto[r] = 0;

        for (int x = 0; x < g.width; ++x)
        {
            const size_t c = static_cast<size_t>(x + z * g.width);
            const uint32_t first = f.cellFirst[c];
            const uint32_t last = first + f.cellCount[c];
            for (uint32_t i = first; i < last; ++i)
                if (f.region[i] != 0)
                    f.region[i] = sweepRegion[f.region[i] - 1];
        }
    }
    f.regionCount = regionCount;
}

} // namespace spark::nav::bake
