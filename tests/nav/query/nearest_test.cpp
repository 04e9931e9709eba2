#include "spark/nav/query.h"

#include "../mesh/test_meshes.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace spark;
using namespace spark::nav;
using namespace spark::nav::test;

TEST_CASE("a point over a polygon is its own nearest point")
{
    const NavMesh mesh = meshFromRects({{0, 0, 2, 2}, {2, 0, 3, 1}});
    auto r = findNearest(mesh, {2.5f, 0.0f, 0.5f}, {0.1f, 1.0f, 0.1f});
    REQUIRE(r.ok());
    CHECK(r->polygon == 1);
    CHECK(r->point.x == 2.5f);
    CHECK(r->point.z == 0.5f);
    CHECK(r->distance == 0.0f);
}

TEST_CASE("a point beside the mesh snaps to the closest boundary point within the extents")
{
    const NavMesh mesh = meshFromRects({{0, 0, 2, 2}, {2, 0, 3, 1}});
    auto r = findNearest(mesh, {2.5f, 0.0f, 1.5f}, {1.0f, 1.0f, 1.0f});
    REQUIRE(r.ok());
    // Closest: the big square's edge x = 2 at z = 1.5 (0.5 away) vs the small one's top z = 1 (0.5 away):
    // a tie in distance goes to the lowest polygon id.
    CHECK(r->polygon == 0);
    CHECK(r->point.x == doctest::Approx(2.0));
    CHECK(r->distance == doctest::Approx(0.5));
    auto far = findNearest(mesh, {2.5f, 0.0f, 1.5f}, {0.3f, 1.0f, 0.3f});
    REQUIRE_FALSE(far.ok());
    CHECK(far.error().code == "E_NAV_OFF_MESH");
}

TEST_CASE("nearest on a shared edge picks the lowest polygon id")
{
    const NavMesh mesh = meshFromRects({{1, 0, 2, 1}, {0, 0, 1, 1}});
    auto r = findNearest(mesh, {1.0f, 0.0f, 0.5f}, {0.1f, 0.1f, 0.1f});
    REQUIRE(r.ok());
    CHECK(r->polygon == 0);
}

TEST_CASE("nearest respects the vertical extent on stacked floors")
{
    const NavMesh mesh = meshFromRects({{0, 0, 4, 4, 0, 0.0f}, {0, 0, 4, 4, 0, 3.0f}}, false);
    auto low = findNearest(mesh, {1.0f, 0.4f, 1.0f}, {0.5f, 1.0f, 0.5f});
    REQUIRE(low.ok());
    CHECK(low->polygon == 0);
    auto high = findNearest(mesh, {1.0f, 2.8f, 1.0f}, {0.5f, 1.0f, 0.5f});
    REQUIRE(high.ok());
    CHECK(high->polygon == 1);
    CHECK(high->point.y == doctest::Approx(3.0));
    CHECK(findNearest(mesh, {1.0f, 1.5f, 1.0f}, {0.5f, 0.2f, 0.5f}).error().code == "E_NAV_OFF_MESH");
}

TEST_CASE("non-finite points and bad extents are E_INVALID_PARAMS")
{
    const NavMesh mesh = meshFromRects({{0, 0, 1, 1}});
    CHECK(findNearest(mesh, {std::nanf(""), 0, 0}, {1, 1, 1}).error().code == "E_INVALID_PARAMS");
    CHECK(findNearest(mesh, {INFINITY, 0, 0}, {1, 1, 1}).error().code == "E_INVALID_PARAMS");
    CHECK(findNearest(mesh, {0, 0, 0}, {-1, 1, 1}).error().code == "E_INVALID_PARAMS");
    CHECK(findNearest(NavMesh{}, {0, 0, 0}, {1, 1, 1}).error().code == "E_NAV_OFF_MESH");
}

TEST_CASE("default extents follow the agent radius, at least one cell")
{
    NavMeshDef def = defaultNavMeshDef();
    def.settings.agentRadius = 0.5f;
    def.settings.cellSize = 0.2f;
    auto mesh = buildNavMesh(soupFromRects({{0, 0, 1, 1}}), def);
    REQUIRE(mesh.ok());
    CHECK(defaultQueryExtents(*mesh).x == doctest::Approx(1.0));
    CHECK(defaultQueryExtents(*mesh).y == doctest::Approx(def.settings.agentHeight));
    def.settings.agentRadius = 0.0f;
    auto zero = buildNavMesh(soupFromRects({{0, 0, 1, 1}}), def);
    CHECK(defaultQueryExtents(*zero).x == doctest::Approx(0.2));
}
