#include "spark/nav/query.h"

#include "../mesh/test_meshes.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace spark;
using namespace spark::nav;
using namespace spark::nav::test;

namespace
{

const glm::vec3 kRayExt{0.5f, 1.0f, 0.5f};

RaycastResult ray(const NavMesh& mesh, glm::vec3 a, glm::vec3 b, const QueryFilter& f = defaultQueryFilter())
{
    QueryScratch s;
    auto r = raycast(mesh, s, a, b, f, kRayExt);
    REQUIRE(r.ok());
    return *r;
}

} // namespace

TEST_CASE("a ray inside the mesh reaches its end")
{
    const NavMesh mesh = meshFromRects({{0, 0, 2, 6}, {2, 0, 4, 1}, {2, 1, 4, 4}, {2, 4, 4, 6}, {4, 0, 7, 6}});
    const RaycastResult r = ray(mesh, {0.5f, 0, 0.5f}, {6.5f, 0, 5.5f});
    CHECK_FALSE(r.hit);
    CHECK(r.fraction == 1.0f);
    CHECK(r.point.x == doctest::Approx(6.5));
    CHECK(r.polygon == 4);
}

TEST_CASE("a ray stops at the first wall with its fraction and outward normal")
{
    // Room [0,4]×[0,4] with a doorway [4,5]×[1,2].
    const NavMesh mesh = meshFromRects({{0, 0, 4, 4}, {4, 1, 5, 2}});
    const RaycastResult r = ray(mesh, {1, 0, 3}, {7, 0, 3});
    CHECK(r.hit);
    CHECK(r.fraction == doctest::Approx(0.5));
    CHECK(r.point.x == doctest::Approx(4.0));
    CHECK(r.normal.x == doctest::Approx(1.0));
    CHECK(r.normal.z == doctest::Approx(0.0));
    // Through the doorway to the doorway's far wall.
    const RaycastResult d = ray(mesh, {1, 0, 1.5f}, {7, 0, 1.5f});
    CHECK(d.hit);
    CHECK(d.point.x == doctest::Approx(5.0));
    CHECK(d.fraction == doctest::Approx(4.0 / 6.0));
    // Into the top wall: normal −z... the wall at z = 0 faces −z.
    const RaycastResult top = ray(mesh, {1, 0, 1}, {1, 0, -3});
    CHECK(top.hit);
    CHECK(top.normal.z == doctest::Approx(-1.0));
    CHECK(top.fraction == doctest::Approx(0.25));
}

TEST_CASE("rays through a shared vertex, along a wall and from a corner pass")
{
    // Four unit squares meeting at (1, 1).
    const NavMesh quad = meshFromRects({{0, 0, 1, 1}, {1, 0, 2, 1}, {0, 1, 1, 2}, {1, 1, 2, 2}});
    CHECK_FALSE(ray(quad, {0.2f, 0, 0.2f}, {1.8f, 0, 1.8f}).hit);
    CHECK_FALSE(ray(quad, {1.8f, 0, 0.2f}, {0.2f, 0, 1.8f}).hit);
    // Along the outer wall z = 0 of the bottom row.
    CHECK_FALSE(ray(quad, {0.0f, 0, 0.0f}, {2.0f, 0, 0.0f}).hit);
    // From a vertex of the L's inner corner into the far arm.
    const NavMesh ell = meshFromRects({{0, 0, 1, 5}, {1, 4, 5, 5}});
    CHECK_FALSE(ray(ell, {0.5f, 0, 0.5f}, {1.0f, 0, 4.0f}).hit);
    CHECK_FALSE(ray(ell, {1.0f, 0, 4.0f}, {4.5f, 0, 4.5f}).hit);
    // Cutting the corner hits.
    const RaycastResult cut = ray(ell, {0.5f, 0, 0.5f}, {4.5f, 0, 4.5f});
    CHECK(cut.hit);
    CHECK(cut.point.x == doctest::Approx(1.0));
}

TEST_CASE("two squares touching only at a corner do not let a ray through")
{
    const NavMesh mesh = meshFromRects({{0, 0, 1, 1}, {1, 1, 2, 2}});
    CHECK(ray(mesh, {0.2f, 0, 0.2f}, {1.8f, 0, 1.8f}).hit);
}

TEST_CASE("an excluded area stops a ray like a wall")
{
    const NavMesh mesh = meshFromRects({{0, 0, 2, 2}, {2, 0, 4, 2, 3}});
    QueryFilter f = defaultQueryFilter();
    f.excludedAreas = 1u << 3;
    const RaycastResult r = ray(mesh, {1, 0, 1}, {3, 0, 1}, f);
    CHECK(r.hit);
    CHECK(r.point.x == doctest::Approx(2.0));
    CHECK_FALSE(ray(mesh, {1, 0, 1}, {3, 0, 1}).hit);
}

TEST_CASE("raycast rejects an off-mesh start and NaN")
{
    const NavMesh mesh = meshFromRects({{0, 0, 2, 2}});
    QueryScratch s;
    CHECK(raycast(mesh, s, {50, 0, 50}, {1, 0, 1}, defaultQueryFilter(), kRayExt).error().code == "E_NAV_OFF_MESH");
    CHECK(raycast(mesh, s, {1, 0, 1}, {std::nanf(""), 0, 1}, defaultQueryFilter(), kRayExt).error().code ==
          "E_INVALID_PARAMS");
    auto zero = raycast(mesh, s, {1, 0, 1}, {1, 0, 1}, defaultQueryFilter(), kRayExt);
    REQUIRE(zero.ok());
    CHECK_FALSE(zero->hit);
}
