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
    // Two passes over the columns that hold spans, in storage order and back;
    // a span's neighbours are in other columns, so the order of a column's
    // own spans does not matter. Each looks at a side neighbour (2) and the
    // diagonal one past it (3): forward -x then -z, -z then +x; backward +x
    // then +z, +z then -x. Every span the forward pass looks at comes earlier
    // in storage order, so the seeds are set in the same pass, just before
    // each span relaxes; a span's distance is final once the backward pass
    // has relaxed it. The distances do not depend on the radius (the drops
    // come after, in dropNearBorder), so several radii share them (bake.cpp).
    // The directions are written out and the field read through local
    // pointers: each span's links are unpacked once, and a missing link skips
    // its diagonal as well.
    uint16_t* dist = ioField.dist.data();
    const uint32_t* cellFirst = ioField.cellFirst.data();
    const uint32_t* con = ioField.con.data();
    const uint8_t* area = ioField.area.data();
    const std::vector<uint32_t>& used = ioField.usedColumns;
    const int64_t w = ioField.grid.width;
    // Walkable: an area code without the ledge flag (1..127).
    auto walkable = [area](uint32_t i) { return static_cast<uint8_t>(area[i] - 1u) < kAreaMask; };
    // The span across the link `packed` of direction `dir` in column `column`, or kNone.
    auto across = [cellFirst](uint32_t packed, int dir, int64_t column) {
        const uint32_t link = connectionIn(packed, dir);
        return link == kNoConnection ? kNone : cellFirst[column] + link;
    };
    // Relaxes d from the side neighbour `a` (in column `ac`) and the span
    // past it in direction `turn`.
    auto relaxVia = [&](uint16_t d, uint32_t a, int64_t ac, int turn, int64_t turnStep) {
        d = relax(d, dist[a], 2);
        const uint32_t b = across(con[a], turn, ac + turnStep);
        return b == kNone ? d : relax(d, dist[b], 3);
    };
    for (const uint32_t c : used)
    {
        const int64_t col = c;
        for (uint32_t i = cellFirst[c]; i < cellFirst[c + 1]; ++i)
        {
            // A seed (distance 0) has a side nobody can step through.
            const uint32_t packed = con[i];
            const uint32_t a0 = across(packed, 0, col - 1);
            const uint32_t a3 = across(packed, 3, col - w);
            bool border = !walkable(i) || a0 == kNone || a3 == kNone;
            if (!border)
            {
                const uint32_t a1 = across(packed, 1, col + w);
                const uint32_t a2 = across(packed, 2, col + 1);
                border = a1 == kNone || a2 == kNone || !walkable(a0) || !walkable(a1) || !walkable(a2) ||
                         !walkable(a3);
            }
            uint16_t d = border ? uint16_t{0} : kFar;
            if (a0 != kNone)
                d = relaxVia(d, a0, col - 1, 3, -w);
            if (a3 != kNone)
                d = relaxVia(d, a3, col - w, 2, 1);
            dist[i] = d;
        }
    }
    for (size_t k = used.size(); k-- > 0;)
    {
        const int64_t col = used[k];
        for (uint32_t i = cellFirst[col]; i < cellFirst[col + 1]; ++i)
        {
            const uint32_t packed = con[i];
            const uint32_t a2 = across(packed, 2, col + 1);
            const uint32_t a1 = across(packed, 1, col + w);
            uint16_t d = dist[i];
            if (a2 != kNone)
                d = relaxVia(d, a2, col + 1, 1, w);
            if (a1 != kNone)
                d = relaxVia(d, a1, col + w, 0, -1);
            dist[i] = d;
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
