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
constexpr uint32_t kNone = 0xffffffffu; ///< No span in that direction.

inline uint16_t relax(uint16_t current, uint16_t from, int step)
{
    const int d = static_cast<int>(from) + step;
    return d < current ? static_cast<uint16_t>(d) : current;
}

} // namespace

void erodeWalkable(OpenField& ioField, const CellSettings& cells)
{
    borderDistance(ioField);
    dropNearBorder(ioField, cells, ioField.area);
}

void borderDistance(OpenField& ioField)
{
    std::vector<uint16_t>& dist = ioField.dist;
    const std::vector<uint32_t>& used = ioField.usedColumns;
    const std::array<int64_t, 4> step = columnSteps(ioField.grid.width);
    // The span beside span i of column c in direction dir, or kNone.
    auto beside = [&](uint32_t c, uint32_t i, int dir, uint32_t& outColumn) {
        const uint32_t link = connectionOf(ioField, i, dir);
        if (link == kNoConnection)
            return kNone;
        outColumn = static_cast<uint32_t>(c + step[dir]);
        return ioField.cellFirst[outColumn] + link;
    };
    auto walkable = [&](uint32_t i) { return ioField.area[i] != kNullArea && (ioField.area[i] & kLedgeFlag) == 0; };

    // A span is a seed (distance 0) when it has a side nobody can step through.
    auto seed = [&](uint32_t c, uint32_t i) {
        bool border = !walkable(i);
        for (int dir = 0; dir < 4 && !border; ++dir)
        {
            uint32_t nc = 0;
            const uint32_t a = beside(c, i, dir, nc);
            border = a == kNone || !walkable(a);
        }
        return border ? uint16_t{0} : kFar;
    };

    // Two passes over the columns that hold spans, in storage order and back;
    // a span's neighbours are in other columns, so the order of a column's
    // own spans does not matter. Each looks at a side neighbour (2) and the
    // diagonal one past it (3): forward -x then -z, -z then +x; backward +x
    // then +z, +z then -x. Every span the forward pass looks at comes earlier
    // in storage order, so the seeds are set in the same pass, just before
    // each span relaxes; a span's distance is final once the backward pass
    // has relaxed it. The distances do not depend on the radius (the drops
    // come after, in dropNearBorder), so several radii share them (bake.cpp).
    auto relaxFrom = [&](uint32_t c, uint32_t i, int dir) {
        uint16_t d = dist[i];
        uint32_t ac = 0, bc = 0;
        const uint32_t a = beside(c, i, dir, ac);
        if (a == kNone)
            return d;
        d = relax(d, dist[a], 2);
        const uint32_t b = beside(ac, a, (dir + 3) & 3, bc);
        return b == kNone ? d : relax(d, dist[b], 3);
    };
    for (const uint32_t c : used)
    {
        const uint32_t first = ioField.cellFirst[c];
        const uint32_t last = ioField.cellFirst[c + 1];
        for (uint32_t i = first; i < last; ++i)
        {
            dist[i] = seed(c, i);
            dist[i] = relaxFrom(c, i, 0);
            dist[i] = relaxFrom(c, i, 3);
        }
    }
    for (size_t k = used.size(); k-- > 0;)
    {
        const uint32_t c = used[k];
        const uint32_t first = ioField.cellFirst[c];
        const uint32_t last = ioField.cellFirst[c + 1];
        for (uint32_t i = first; i < last; ++i)
        {
            dist[i] = relaxFrom(c, i, 2);
            dist[i] = relaxFrom(c, i, 1);
        }
    }
}

void dropNearBorder(OpenField& ioField, const CellSettings& cells, const std::vector<uint8_t>& filtered)
{
    // A span goes when it lies too near a border (a thousandth of a cell of
    // slack, so 0.3 m on 0.2 m cells is 1.5 cells, not a hair more), or is a
    // ledge. Reading the filtered areas and writing the field's in one pass
    // spares each further radius a pass that copies them back first.
    // Local pointers: a byte store may alias anything, and would have the
    // vectors' pointers reloaded every span (and the loop not vectorised).
    const float threshold = 2.0f * cells.erodeRadius - 1.0e-3f;
    const uint8_t* from = filtered.data();
    const uint16_t* dist = ioField.dist.data();
    uint8_t* area = ioField.area.data();
    const size_t n = ioField.spanCount();
    for (size_t i = 0; i < n; ++i)
    {
        const uint8_t a = from[i];
        const bool drop = (a & kLedgeFlag) != 0 || static_cast<float>(dist[i]) < threshold;
        area[i] = drop ? kNullArea : a;
    }
}

} // namespace spark::nav::bake
