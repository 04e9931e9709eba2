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

namespace spark::nav::bake
{
namespace
{

constexpr uint16_t kFar = 0xffff;

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

    // Seeds: spans with a side nobody can step through.
    for (int z = 0; z < g.depth; ++z)
    {
        for (int x = 0; x < g.width; ++x)
        {
            const size_t c = static_cast<size_t>(x + z * g.width);
            const uint32_t first = ioField.cellFirst[c];
            const uint32_t last = first + ioField.cellCount[c];
            for (uint32_t i = first; i < last; ++i)
            {
                if (ioField.area[i] == kNullArea || (ioField.area[i] & kLedgeFlag) != 0)
                {
                    dist[i] = 0;
                    continue;
                }
                bool border = false;
                for (int dir = 0; dir < 4; ++dir)
                {
                    const uint32_t link = connectionOf(ioField, i, dir);
                    if (link == kNoConnection)
                    {
                        border = true;
                        break;
                    }
                    const size_t nc = static_cast<size_t>((x + kDirX[dir]) + (z + kDirZ[dir]) * g.width);
                    const uint8_t far = ioField.area[ioField.cellFirst[nc] + link];
                    if (far == kNullArea || (far & kLedgeFlag) != 0)
                    {
                        border = true;
                        break;
                    }
                }
                dist[i] = border ? 0 : kFar;
            }
        }
    }

    // Forward pass: from -x, -z and the two diagonals behind.
    for (int z = 0; z < g.depth; ++z)
    {
        for (int x = 0; x < g.width; ++x)
        {
            const size_t c = static_cast<size_t>(x + z * g.width);
            const uint32_t first = ioField.cellFirst[c];
            const uint32_t last = first + ioField.cellCount[c];
            for (uint32_t i = first; i < last; ++i)
            {
                uint16_t d = dist[i];
                for (int dir : {0, 3})
                {
                    const uint32_t link = connectionOf(ioField, i, dir);
                    if (link == kNoConnection)
                        continue;
                    const int ax = x + kDirX[dir], az = z + kDirZ[dir];
                    const uint32_t a = ioField.cellFirst[static_cast<size_t>(ax + az * g.width)] + link;
                    d = relax(d, dist[a], 2);
                    const int diagDir = (dir + 3) & 3; // -x then -z, -z then +x
                    const uint32_t link2 = connectionOf(ioField, a, diagDir);
                    if (link2 == kNoConnection)
                        continue;
                    const int bx = ax + kDirX[diagDir], bz = az + kDirZ[diagDir];
                    const uint32_t b = ioField.cellFirst[static_cast<size_t>(bx + bz * g.width)] + link2;
                    d = relax(d, dist[b], 3);
                }
                dist[i] = d;
            }
        }
    }

    // Backward pass: from +x, +z and the two diagonals ahead.
    for (int z = g.depth - 1; z >= 0; --z)
    {
        for (int x = g.width - 1; x >= 0; --x)
        {
            const size_t c = static_cast<size_t>(x + z * g.width);
            const uint32_t first = ioField.cellFirst[c];
            const uint32_t last = first + ioField.cellCount[c];
            for (uint32_t i = first; i < last; ++i)
            {
                uint16_t d = dist[i];
                for (int dir : {2, 1})
                {
                    const uint32_t link = connectionOf(ioField, i, dir);
                    if (link == kNoConnection)
                        continue;
                    const int ax = x + kDirX[dir], az = z + kDirZ[dir];
                    const uint32_t a = ioField.cellFirst[static_cast<size_t>(ax + az * g.width)] + link;
                    d = relax(d, dist[a], 2);
                    const int diagDir = (dir + 3) & 3; // +x then +z, +z then -x
                    const uint32_t link2 = connectionOf(ioField, a, diagDir);
                    if (link2 == kNoConnection)
                        continue;
                    const int bx = ax + kDirX[diagDir], bz = az + kDirZ[diagDir];
                    const uint32_t b = ioField.cellFirst[static_cast<size_t>(bx + bz * g.width)] + link2;
                    d = relax(d, dist[b], 3);
                }
                dist[i] = d;
            }
        }
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
