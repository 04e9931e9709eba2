// The any-angle search (any_angle.cpp) against an oracle: shortest paths over
// the visibility graph of small random tile maps, computed here from the
// cells alone (no navmesh). With uniform costs `findPath` must return the
// Euclidean-shortest path, so its length must equal the oracle's.

#include "spark/nav/query.h"
#include "test_maps.h"
#include "visibility_oracle.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

using namespace spark;
using namespace spark::nav;
using namespace spark::nav::test;

namespace
{

Pt randomFreePoint(const Grid2D& g, Rng& rng)
{
    for (;;)
    {
        const int x = int(rngNextBelow(rng, uint32_t(g.width))), z = int(rngNextBelow(rng, uint32_t(g.height)));
        if (g.blocked[size_t(z) * g.width + x])
            continue;
        // Keep off the grid lines so the point lies inside one cell.
        return Pt{x + 0.05 + 0.9 * rngNextDouble(rng), z + 0.05 + 0.9 * rngNextDouble(rng)};
    }
}

} // namespace

TEST_CASE("with uniform costs every path is as short as the visibility-graph oracle's, on hundreds of random maps")
{
    const glm::vec3 ext{0.25f, 1.0f, 0.25f};
    QueryScratch scratch;
    PathResult path;
    int cases = 0, unreachable = 0, turning = 0;
    double worst = 0.0;
    for (uint64_t seed = 1; seed <= 120; ++seed)
    {
        const int w = 12 + int(seed % 7) * 2, h = 11 + int(seed % 5) * 2;
        Grid2D grid = randomGrid(seed * 7919, w, h, w * h / 30, 0);
        removePinches(grid);
        const NavMesh mesh = bake(grid, 0.0f);
        Oracle oracle{w, h, grid.blocked};
        Rng rng = rngFromSeed(seed, 23);
        for (int q = 0; q < 4; ++q)
        {
            const Pt a = randomFreePoint(grid, rng), b = randomFreePoint(grid, rng);
            const glm::vec3 from(float(a.x), 0.0f, float(a.z)), to(float(b.x), 0.0f, float(b.z));
            REQUIRE(findPath(mesh, scratch, from, to, defaultQueryFilter(), ext, path).ok());
            const double best = oracle.shortest(Pt{from.x, from.z}, Pt{to.x, to.z});
            ++cases;
            if (best < 0.0)
            {
                ++unreachable;
                CHECK_MESSAGE(!path.complete, "seed " << seed << " query " << q);
                continue;
            }
            REQUIRE_MESSAGE(path.complete, "seed " << seed << " query " << q);
            turning += path.points.size() > 2 ? 1 : 0;
            const double ratio = path.length / best;
            worst = std::max(worst, ratio);
            CHECK_MESSAGE(path.length == doctest::Approx(best).epsilon(1e-5),
                          "seed " << seed << " query " << q << " from (" << from.x << ", " << from.z << ") to (" << to.x
                                  << ", " << to.z << ")");
            // The cost is the true cost of the path (all areas cost 1).
            CHECK(path.cost == doctest::Approx(path.length).epsilon(1e-5));
        }
    }
    std::printf("any-angle oracle: %d cases (%d unreachable, %d with turns), worst length / optimum %.7f\n", cases,
                unreachable, turning, worst);
    CHECK(cases == 480);
    CHECK(turning > 200);
}
