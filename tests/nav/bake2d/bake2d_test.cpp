#include "spark/nav/bake2d.h"

#include "grid_test_util.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

using namespace spark::nav;
using spark::nav::test::makeGrid;

namespace
{

double signedAreaXZ(const PolySoup& soup, size_t p)
{
    double a = 0.0;
    const uint32_t b = soup.polyStarts[p], e = soup.polyStarts[p + 1];
    for (uint32_t i = b; i < e; ++i)
    {
        const auto& u = soup.vertices[soup.indices[i]];
        const auto& v = soup.vertices[soup.indices[i + 1 < e ? i + 1 : b]];
        a += static_cast<double>(u.x) * v.z - static_cast<double>(v.x) * u.z;
    }
    return a / 2.0;
}

} // namespace

TEST_CASE("an open grid bakes to one rectangle inset by the radius")
{
    Grid2D g = makeGrid(8, 4, 0.5f);
    g.origin = {10.0f, -2.0f};
    auto r = bakeGrid2DWithStats(g, 0.6f);
    REQUIRE(r.ok());
    const PolySoup& soup = r->mesh;
    REQUIRE(soup.polygonCount() == 1);
    CHECK(soup.vertices.size() == 4);
    // Cell 0 (centre 0.25 m from the border) is removed, cell 1 (0.75 m) stays: x cells 1..6, y cells 1..2.
    CHECK(soup.vertices[0].x == 10.5f);
    CHECK(soup.vertices[0].z == -1.5f);
    CHECK(soup.vertices[0].y == 0.0f);
    CHECK(soup.vertices[3].x == 13.5f);
    CHECK(soup.vertices[3].z == -0.5f);
    CHECK(r->stats.cells == 32);
    CHECK(r->stats.walkableCells == 12);
    CHECK(r->stats.erodedCells == 20);
    CHECK(r->stats.blockedCells == 0);
    CHECK(r->stats.rectangles == 1);
    CHECK(r->boundsMin.x == 10.0f);
    CHECK(r->boundsMax.z == 0.0f);
}

TEST_CASE("polygons are counter-clockwise rectangles with shared corner vertices and their area ids")
{
    Grid2D g = makeGrid(6, 3);
    g.areas.assign(18, 0);
    for (int y = 0; y < 3; ++y)
        for (int x = 3; x < 6; ++x)
            g.areas[y * 6 + x] = 7;
    auto r = bakeGrid2D(g, 0.0f);
    REQUIRE(r.ok());
    REQUIRE(r->polygonCount() == 2);
    CHECK(r->areas[0] == 0);
    CHECK(r->areas[1] == 7);
    CHECK(r->vertices.size() == 6); // the middle edge's two corners are shared
    for (size_t p = 0; p < r->polygonCount(); ++p)
    {
        CHECK(r->polyStarts[p + 1] - r->polyStarts[p] == 4);
        CHECK(signedAreaXZ(r.value(), p) == doctest::Approx(9.0));
    }
}

TEST_CASE("bad settings are E_NAV_CONFIG with the field")
{
    Grid2D g = makeGrid(4, 4);
    auto nanRadius = bakeGrid2D(g, std::numeric_limits<float>::quiet_NaN());
    REQUIRE_FALSE(nanRadius.ok());
    CHECK(nanRadius.error().code == "E_NAV_CONFIG");
    CHECK(nanRadius.error().field == "/agent_radius");
    CHECK(bakeGrid2D(g, -1.0f).error().code == "E_NAV_CONFIG");

    Grid2D badCell = g;
    badCell.cellSize = 0.0f;
    CHECK(bakeGrid2D(badCell, 0.0f).error().field == "/cell_size");
    badCell.cellSize = std::numeric_limits<float>::infinity();
    CHECK(bakeGrid2D(badCell, 0.0f).error().code == "E_NAV_CONFIG");

    Grid2D badSize = g;
    badSize.blocked.pop_back();
    CHECK(bakeGrid2D(badSize, 0.0f).error().field == "/blocked");

    Grid2D badArea = g;
    badArea.areas.assign(16, 0);
    badArea.areas[5] = 16;
    CHECK(bakeGrid2D(badArea, 0.0f).error().field == "/areas/5");

    Grid2D badOrigin = g;
    badOrigin.origin.x = std::numeric_limits<float>::quiet_NaN();
    CHECK(bakeGrid2D(badOrigin, 0.0f).error().field == "/origin");
}

TEST_CASE("grids over 4096 cells per axis are E_NAV_LIMIT")
{
    Grid2D g;
    g.width = 5000;
    g.height = 5000;
    // No mask allocated: the limit is checked before the sizes.
    auto r = bakeGrid2D(g, 0.0f);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == "E_NAV_LIMIT");
    Grid2D edge = makeGrid(4097, 1);
    CHECK(bakeGrid2D(edge, 0.0f).error().code == "E_NAV_LIMIT");
}

TEST_CASE("a grid with nothing walkable left is E_NAV_NO_GEOMETRY")
{
    Grid2D g = makeGrid(3, 3);
    g.blocked.assign(9, 1);
    CHECK(bakeGrid2D(g, 0.0f).error().code == "E_NAV_NO_GEOMETRY");
    Grid2D small = makeGrid(3, 3);
    CHECK(bakeGrid2D(small, 2.0f).error().code == "E_NAV_NO_GEOMETRY");
}

TEST_CASE("the same grid always bakes to the same soup")
{
    Grid2D g = makeGrid(40, 30, 0.25f);
    uint32_t s = 99;
    for (auto& b : g.blocked)
    {
        s = s * 1664525u + 1013904223u;
        b = (s >> 24) < 40 ? 1 : 0;
    }
    auto a = bakeGrid2D(g, 0.3f);
    auto b = bakeGrid2D(g, 0.3f);
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    CHECK(a->vertices == b->vertices);
    CHECK(a->indices == b->indices);
    CHECK(a->polyStarts == b->polyStarts);
    CHECK(a->areas == b->areas);
}
