/// \file rectangles.cpp
/// Design note — covering the walkable cells with rectangles.
///
/// A greedy rectangle decomposition in the manner of "greedy meshing" of voxel
/// engines (see also the survey of rectilinear polygon partitions by
/// J. M. Keil, "Polygon Decomposition", Handbook of Computational Geometry,
/// 2000): cells are visited in row-major order; at the first walkable cell not
/// yet covered, two candidates of equal-area cells are grown from it —
///   A: the widest run to the right, then as many rows down as the whole run allows;
///   B: the tallest run down, then as many columns right as the whole run allows —
/// and the larger one is kept (ties: A). Every cell above or to the left of the
/// seed is already covered or not eligible, so the kept rectangle cannot be grown
/// in any direction over the cells still uncovered: it is maximal among them.
/// The cover is exact (each walkable cell in exactly one rectangle) and depends
/// only on the grid. Rectangles meeting at T-junctions are fine: the navmesh links
/// polygons by edge overlap. Cost: O(cells + rectangles × max(width, height)).

#include "spark/nav/bake2d.h"

#include <cassert>

namespace spark::nav
{

std::vector<CellRect> coverWithRectangles2D(int width, int height, const std::vector<uint8_t>& walkable,
                                            const std::vector<uint8_t>& areas)
{
    const size_t cells = static_cast<size_t>(width) * static_cast<size_t>(height);
    assert(walkable.size() == cells);
    assert(areas.empty() || areas.size() == cells);
    std::vector<uint8_t> covered(cells, 0);
    auto areaAt = [&](size_t i) -> uint8_t { return areas.empty() ? 0 : areas[i]; };
    auto eligible = [&](int x, int y, uint8_t area) {
        const size_t i = static_cast<size_t>(y) * width + x;
        return walkable[i] != 0 && covered[i] == 0 && areaAt(i) == area;
    };

    std::vector<CellRect> rects;
    for (int y = 0; y < height; ++y)
    {
        for (int x = 0; x < width; ++x)
        {
            const size_t seed = static_cast<size_t>(y) * width + x;
            if (walkable[seed] == 0 || covered[seed] != 0)
                continue;
            const uint8_t area = areaAt(seed);

            // Candidate A: widest run, then down.
            int runW = 1;
            while (x + runW < width && eligible(x + runW, y, area))
                ++runW;
            int aH = 1;
            for (bool grow = true; grow && y + aH < height;)
            {
                for (int i = 0; i < runW && grow; ++i)
                    grow = eligible(x + i, y + aH, area);
                if (grow)
                    ++aH;
            }
            // Candidate B: tallest run, then right.
            int runH = 1;
            while (y + runH < height && eligible(x, y + runH, area))
                ++runH;
            int bW = 1;
            for (bool grow = true; grow && x + bW < width;)
            {
                for (int j = 0; j < runH && grow; ++j)
                    grow = eligible(x + bW, y + j, area);
                if (grow)
                    ++bW;
            }

            CellRect r{x, y, runW, aH, area};
            if (static_cast<int64_t>(bW) * runH > static_cast<int64_t>(runW) * aH)
                r = CellRect{x, y, bW, runH, area};
            for (int j = 0; j < r.height; ++j)
                for (int i = 0; i < r.width; ++i)
                    covered[static_cast<size_t>(y + j) * width + (x + i)] = 1;
            rects.push_back(r);
        }
    }
    return rects;
}

} // namespace spark::nav
