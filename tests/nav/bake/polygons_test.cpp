/// Tests of libnav/src/bake/polygons.cpp: ear clipping, convex merging, row-run fallback.

#include "bake_test_util.h"

using namespace spark::nav;
using namespace spark::nav::bake;

namespace
{

/// A contour set holding one outline given as (x, z) cell corners at height y.
ContourSet outline(const std::vector<std::pair<int, int>>& corners, int y = 3)
{
    ContourSet set;
    set.grid.width = 64;
    set.grid.depth = 64;
    set.grid.origin = glm::vec3(10.0f, 1.0f, -5.0f);
    set.grid.cellSize = 0.5f;
    set.grid.cellHeight = 0.25f;
    Contour c;
    c.region = 1;
    c.area = 1;
    for (const auto& [x, z] : corners)
        c.verts.insert(c.verts.end(), {x, y, z});
    set.contours.push_back(c);
    return set;
}

OpenField oneRegionField()
{
    OpenField f;
    f.regionCount = 1;
    return f;
}

CellSettings withMaxVerts(int n)
{
    CellSettings c = cellSettingsOf(defaultBakeDef());
    c.maxVertsPerPoly = n;
    return c;
}

} // namespace

TEST_CASE("an L-shaped outline becomes convex counter-clockwise polygons covering exactly its area")
{
    const ContourSet set = outline({{0, 0}, {10, 0}, {10, 4}, {4, 4}, {4, 10}, {0, 10}});
    PolySoup mesh;
    CHECK(buildPolygons(set, oneRegionField(), withMaxVerts(6), mesh) == 0);
    test::checkPolygons(mesh, 6);
    CHECK(mesh.polygonCount() == 2);
    CHECK(test::totalArea(mesh) == doctest::Approx(64.0 * 0.25));
    for (const glm::vec3& v : mesh.vertices)
        CHECK(v.y == doctest::Approx(1.0f + 3 * 0.25f));
    CHECK(mesh.vertices.size() == 6); // shared, not repeated per polygon
}

TEST_CASE("max_verts_per_poly 3 leaves the triangles of the ear clipping")
{
    const ContourSet set = outline({{0, 0}, {10, 0}, {10, 4}, {4, 4}, {4, 10}, {0, 10}});
    PolySoup mesh;
    CHECK(buildPolygons(set, oneRegionField(), withMaxVerts(3), mesh) == 0);
    test::checkPolygons(mesh, 3);
    CHECK(mesh.polygonCount() == 4);
    CHECK(test::totalArea(mesh) == doctest::Approx(64.0 * 0.25));
}

TEST_CASE("a convex outline with more corners than allowed is split into polygons within the limit")
{
    // An octagon.
    const ContourSet set = outline({{4, 0}, {8, 0}, {12, 4}, {12, 8}, {8, 12}, {4, 12}, {0, 8}, {0, 4}});
    for (int maxVerts = 3; maxVerts <= 6; ++maxVerts)
    {
        PolySoup mesh;
        CHECK(buildPolygons(set, oneRegionField(), withMaxVerts(maxVerts), mesh) == 0);
        test::checkPolygons(mesh, maxVerts);
        CHECK(test::totalArea(mesh) == doctest::Approx((144.0 - 4 * 8.0) * 0.25));
        if (maxVerts == 6)
            CHECK(mesh.polygonCount() <= 3);
    }
}

TEST_CASE("a comb-shaped outline with collinear corners triangulates without slivers")
{
    const ContourSet set = outline({{0, 0}, {3, 0}, {6, 0}, {9, 0}, {9, 8}, {7, 8}, {7, 2}, {5, 2}, {5, 8}, {3, 8},
                                    {3, 2}, {1, 2}, {1, 8}, {0, 8}});
    PolySoup mesh;
    CHECK(buildPolygons(set, oneRegionField(), withMaxVerts(6), mesh) == 0);
    test::checkPolygons(mesh, 6);
    CHECK(test::totalArea(mesh) == doctest::Approx(48 * 0.25));
}

TEST_CASE("a region whose outline cannot be used is covered by row runs and counted")
{
    BakeInput in;
    test::addBox(in, {0, -0.2f, 0}, {4, 0, 4});
    test::addBox(in, {1.65f, 0, 1.65f}, {2.35f, 2, 2.35f});
    BakeDef def = test::testDef();
    def.mergeRegionArea = 0.0f; // monotone regions: one row run per row
    const CellSettings cells = cellSettingsOf(def);
    SolidField solid;
    solid.grid = test::gridOver({0, -0.2f, 0}, {4, 2, 4}, def);
    voxelizeTriangles(in, cells, solid);
    OpenField open;
    REQUIRE(filterSpans(solid, cells, open).ok());
    erodeWalkable(open, cells);
    buildRegions(open, cells);
    ContourSet set;
    buildContours(open, cells, set);
    REQUIRE(set.contours.size() >= 2);

    PolySoup normal;
    CHECK(buildPolygons(set, open, cells, normal) == 0);
    set.contours[0].needsFallback = true;
    PolySoup fallback;
    CHECK(buildPolygons(set, open, cells, fallback) == 1);
    test::checkPolygons(fallback, 6);
    // The row runs come last, one per row of the monotone region, and cover its spans exactly.
    size_t spans = 0;
    std::vector<int> rows;
    for (int z = 0; z < open.grid.depth; ++z)
        for (int x = 0; x < open.grid.width; ++x)
        {
            const size_t c = static_cast<size_t>(x + z * open.grid.width);
            for (uint32_t k = 0; k < open.cellCount(c); ++k)
                if (open.region[open.cellFirst[c] + k] == set.contours[0].region)
                {
                    ++spans;
                    if (rows.empty() || rows.back() != z)
                        rows.push_back(z);
                }
        }
    REQUIRE(fallback.polygonCount() > rows.size());
    double runsArea = 0.0;
    for (size_t p = fallback.polygonCount() - rows.size(); p < fallback.polygonCount(); ++p)
    {
        CHECK(fallback.polyStarts[p + 1] - fallback.polyStarts[p] == 4);
        runsArea += test::polygonArea(fallback, p);
    }
    CHECK(runsArea == doctest::Approx(static_cast<double>(spans) * 0.04).epsilon(1e-4));
}
