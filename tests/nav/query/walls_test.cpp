#include "spark/nav/query.h"

#include "../mesh/test_meshes.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace spark;
using namespace spark::nav;
using namespace spark::nav::test;

TEST_CASE("walls within range come nearest first with outward normals")
{
    // Room [0,4]×[0,4] with a doorway [4,5]×[1,2].
    const NavMesh mesh = meshFromRects({{0, 0, 4, 4}, {4, 1, 5, 2}});
    QueryScratch s;
    std::vector<WallHit> hits;
    REQUIRE(findWalls(mesh, s, {3.5f, 0, 3.0f}, 1.05f, hits).ok());
    // Nearest: x = 4 (0.5 away, outward +x), then z = 4 (1.0 away, outward +z).
    REQUIRE(hits.size() == 2);
    CHECK(hits[0].distance == doctest::Approx(0.5));
    CHECK(hits[0].wall.normal.x == doctest::Approx(1.0));
    CHECK(hits[0].closest.x == doctest::Approx(4.0));
    CHECK(hits[1].distance == doctest::Approx(1.0));
    CHECK(hits[1].wall.normal.z == doctest::Approx(1.0));
    // The doorway's stretch of the x = 4 edge is not a wall: at z = 1.5 the nearest wall on x = 4 is 0.5 away in z.
    REQUIRE(findWalls(mesh, s, {3.9f, 0, 1.5f}, 0.3f, hits).ok());
    CHECK(hits.empty());
    REQUIRE(findWalls(mesh, s, {2, 0, 2}, 10.0f, hits).ok());
    CHECK(hits.size() == mesh.wallCount());
    for (size_t i = 1; i < hits.size(); ++i)
        CHECK(hits[i - 1].distance <= hits[i].distance);
}

TEST_CASE("findWalls rejects a negative range and NaN")
{
    const NavMesh mesh = meshFromRects({{0, 0, 4, 4}});
    QueryScratch s;
    std::vector<WallHit> hits;
    CHECK(findWalls(mesh, s, {1, 0, 1}, -1.0f, hits).error().code == "E_INVALID_PARAMS");
    CHECK(findWalls(mesh, s, {1, 0, std::nanf("")}, 1.0f, hits).error().code == "E_INVALID_PARAMS");
}
