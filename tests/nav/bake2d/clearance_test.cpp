#include "spark/nav/bake2d.h"

#include "grid_test_util.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

using namespace spark::nav;
using spark::nav::test::makeGrid;

namespace
{

// Brute force: squared half-cell distance from each free cell centre to every
// blocked cell square and to the border ring.
std::vector<uint32_t> bruteClearance(const Grid2D& g)
{
    auto f = [](int64_t t) -> int64_t {
        t = t < 0 ? -t : t;
        return t == 0 ? 0 : (2 * t - 1) * (2 * t - 1);
    };
    std::vector<uint32_t> out(g.blocked.size(), 0);
    for (int y = 0; y < g.height; ++y)
        for (int x = 0; x < g.width; ++x)
        {
            if (g.blocked[static_cast<size_t>(y) * g.width + x])
                continue;
            int64_t best = INT64_MAX;
            for (int b = -1; b <= g.height; ++b)
                for (int a = -1; a <= g.width; ++a)
                {
                    const bool inside = a >= 0 && b >= 0 && a < g.width && b < g.height;
                    if (inside && !g.blocked[static_cast<size_t>(b) * g.width + a])
                        continue;
                    best = std::min(best, f(x - a) + f(y - b));
                }
            out[static_cast<size_t>(y) * g.width + x] = static_cast<uint32_t>(best);
        }
    return out;
}

using test::lcg;

} // namespace

TEST_CASE("clearance of an open grid is the distance from each cell centre to the border")
{
    Grid2D g = makeGrid(5, 3);
    const auto c = computeClearance2D(g);
    // Cell (2, 1) centre (2.5, 1.5): nearest border 1.5 cells = 3 half-cells -> 9.
    CHECK(c[1 * 5 + 2] == 9);
    // Corner cell (0, 0): 0.5 cell from two borders -> 1 half-cell -> 1.
    CHECK(c[0] == 1);
    CHECK(c == bruteClearance(g));
}

TEST_CASE("clearance equals the brute-force Euclidean distance on random grids")
{
    uint32_t seed = 12345;
    for (int round = 0; round < 60; ++round)
    {
        const int w = 1 + static_cast<int>(lcg(seed) % 23);
        const int h = 1 + static_cast<int>(lcg(seed) % 19);
        Grid2D g = makeGrid(w, h);
        const uint32_t density = lcg(seed) % 40;
        for (auto& b : g.blocked)
            b = (lcg(seed) % 100) < density ? 1 : 0;
        CAPTURE(round);
        CHECK(computeClearance2D(g) == bruteClearance(g));
    }
}

TEST_CASE("erosion removes exactly the cells whose centre is nearer than the radius")
{
    // A 20 x 9 room with one blocked cell at (10, 4), cell size 0.25.
    Grid2D g = makeGrid(20, 9, 0.25f);
    g.blocked[4 * 20 + 10] = 1;
    const float radius = 0.4f;
    const auto walk = erodeGrid2D(g, radius);
    const auto brute = bruteClearance(g);
    for (size_t i = 0; i < walk.size(); ++i)
    {
        // distance in metres = sqrt(D) * cell / 2
        const double d2 = static_cast<double>(brute[i]) * 0.125 * 0.125;
        const bool expectWalk = !g.blocked[i] && d2 >= double(radius) * radius;
        CHECK(walk[i] == (expectWalk ? 1 : 0));
    }
    // The cell two columns right of the block: centre 1.5 cells from its square -> 0.375 m < 0.4: removed.
    CHECK(walk[4 * 20 + 12] == 0);
    // Three columns right: 2.5 cells = 0.625 m: kept.
    CHECK(walk[4 * 20 + 13] == 1);
    // Diagonal (12, 6): dx 1.5, dy 1.5 cells -> 0.53 m: kept.
    CHECK(walk[6 * 20 + 12] == 1);
    // Border: cells 0 and 1 are 0.125 m and 0.375 m from the left border, removed; 2 is kept.
    CHECK(walk[4 * 20 + 1] == 0);
    CHECK(walk[4 * 20 + 2] == 1);
}

TEST_CASE("erosion with radius 0 keeps every free cell")
{
    Grid2D g = makeGrid(4, 4);
    g.blocked[5] = 1;
    const auto walk = erodeGrid2D(g, 0.0f);
    for (size_t i = 0; i < walk.size(); ++i)
        CHECK(walk[i] == (g.blocked[i] ? 0 : 1));
}

TEST_CASE("erosion keeps a cell whose clearance equals the radius exactly")
{
    // Cell size 1, radius 0.5: every free cell centre is at least 0.5 from any wall.
    Grid2D g = makeGrid(3, 3);
    g.blocked[4] = 1;
    const auto walk = erodeGrid2D(g, 0.5f);
    CHECK(walk[0] == 1);
    CHECK(walk[4] == 0);
    const auto walk2 = erodeGrid2D(g, 0.5001f);
    CHECK(walk2[0] == 0);
}
