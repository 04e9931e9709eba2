/// \file erode.cpp
/// Stage 3 of the 3D bake: erosion by the agent radius.
///
/// Design note. A two-pass chamfer distance transform (G. Borgefors,
/// "Distance transformations in digital images", 1986), as Recast uses it in
/// `rcErodeWalkableArea` (M. Mononen): steps of 2 along an axis and 3 along a
/// diagonal approximate twice the Euclidean distance in cells. A border span
/// (one missing a neighbour in some direction) starts at 0, so a span's value
/// is the distance of its cell's near side from the border, and a span is kept
/// when its whole cell lies at least agent_radius from every border: polygon
/// edges, which run along cell sides, never come nearer a wall than the
/// radius. For a radius of whole cells this is Recast's erosion; for other
/// radii Recast rounds the radius up to whole cells and we do not. A ledge span
/// (flagged by the filter) is a border like an unwalkable one, as in Recast,
/// where the ledge filter has already made it unwalkable; it is removed here.

#include "bake_stages.h"

#include <algorithm>
#include <vector>

namespace spark::nav::bake
{
namespace
{

constexpr uint16_t kFar = 0xffff;
constexpr uint32_t kNone = 0xffffffffu;

inline uint16_t relax(uint16_t current, uint16_t from, int step)
{
    const int d = static_cast<int>(from) + step;
    return d < current ? static_cast<uint16_t>(d) : current;
}

} // namespace

void erodeWalkable(OpenField& ioField, const CellSettings& cells)
{
    const Grid& g = ioField.grid;
    std::vector<uint16_t>& dist = ioField.dist;
    const size_t n = ioField.spanCount();

    // The neighbour span of each span per direction (kNone: no link), and the
    // seeds: spans with a side nobody can step through. Spans are stored
    // column by column, so the passes below run over the spans in order; a
    // span's neighbours are in other columns, so within a pass the order of
    // a column's own spans does not matter.
    std::vector<uint32_t> nbr(n * 4, kNone);
    for (int z = 0; z < g.depth; ++z)
    {
        for (uint32_t k = ioField.rowStart[static_cast<size_t>(z)]; k < ioField.rowStart[static_cast<size_t>(z) + 1]; ++k)
        {
            const auto [x, first, last] = usedColumn(ioField, z, k);
            for (uint32_t i = first; i < last; ++i)
            {
                bool border = false;
                for (int dir = 0; dir < 4; ++dir)
                {
                    const uint32_t link = connectionOf(ioField, i, dir);
                    if (link == kNoConnection)
                    {
                        border = true;
                        continue;
                    }
                    const size_t nc = static_cast<size_t>((x + kDirX[dir]) + (z + kDirZ[dir]) * g.width);
                    const uint32_t a = ioField.cellFirst[nc] + link;
                    nbr[i * 4 + static_cast<uint32_t>(dir)] = a;
                    if (ioField.area[a] == kNullArea || (ioField.area[a] & kLedgeFlag) != 0)
                        border = true;
                }
                if (ioField.area[i] == kNullArea || (ioField.area[i] & kLedgeFlag) != 0)
                    border = true;
                dist[i] = border ? 0 : kFar;
            }
        }
    }

    // Forward pass: from -x, -z and the two diagonals behind (-x then -z, -z then +x).
    for (size_t i = 0; i < n; ++i)
    {
        uint16_t d = dist[i];
        for (uint32_t dir : {0u, 3u})
        {
            const uint32_t a = nbr[i * 4 + dir];
            if (a == kNone)
                continue;
            d = relax(d, dist[a], 2);
            const uint32_t b = nbr[a * 4 + ((dir + 3) & 3)];
            if (b != kNone)
                d = relax(d, dist[b], 3);
        }
        dist[i] = d;
    }

    // Backward pass: from +x, +z and the two diagonals ahead (+x then +z, +z then -x).
    for (size_t i = n; i-- > 0;)
    {
        uint16_t d = dist[i];
        for (uint32_t dir : {2u, 1u})
        {
            const uint32_t a = nbr[i * 4 + dir];
            if (a == kNone)
                continue;
            d = relax(d, dist[a], 2);
            const uint32_t b = nbr[a * 4 + ((dir + 3) & 3)];
            if (b != kNone)
                d = relax(d, dist[b], 3);
        }
        dist[i] = d;
    }

    // Drop what is too near a border, and every ledge.
    // A thousandth of a cell of slack, so 0.3 m on 0.2 m cells is 1.5 cells, not a hair more.
    const float threshold = 2.0f * cells.erodeRadius - 1.0e-3f;
    for (size_t i = 0; i < n; ++i)
    {
        if (ioField.area[i] == kNullArea)
            continue;
        if ((ioField.area[i] & kLedgeFlag) != 0 || static_cast<float>(dist[i]) < threshold)
            ioField.area[i] = kNullArea;
    }
}

} // namespace spark::nav::bake
