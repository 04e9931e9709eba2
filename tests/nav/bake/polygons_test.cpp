/// Tests of libnav/src/bake/polygons.cpp: ear clipping, convex merging, row-run fallback.

#include "bake_test_util.h"

#include <ctime>

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

/// A comb: a bottom edge with a corner at every cell, then `teeth` teeth one
/// cell wide and 8 high with one-cell gaps, right to left (about 6 corners a tooth).
std::vector<std::pair<int, int>> comb(int teeth)
{
    std::vector<std::pair<int, int>> c;
    for (int x = 0; x <= 2 * teeth - 1; ++x)
        c.push_back({x, 0});
    for (int k = teeth - 1; k >= 0; --k)
    {
        if (k != teeth - 1)
        {
            c.push_back({2 * k + 2, 2});
            c.push_back({2 * k + 1, 2});
        }
        c.push_back({2 * k + 1, 8});
        c.push_back({2 * k, 8});
    }
    return c;
}

/// A star-shaped outline: `n` points counter-clockwise round the boundary of a
/// square of side `side`, each pulled towards the centre by a pseudo-random
/// 30..100 % (integer arithmetic only).
std::vector<std::pair<int, int>> star(int n, int side, uint32_t seed)
{
    std::vector<std::pair<int, int>> c;
    const int64_t half = side / 2;
    for (int i = 0; i < n; ++i)
    {
        const int64_t t = 4 * int64_t{side} * i / n;
        const int64_t x = t < side ? t : t < 2 * side ? side : t < 3 * side ? 3 * side - t : 0;
        const int64_t z = t < side ? 0 : t < 2 * side ? t - side : t < 3 * side ? side : 4 * side - t;
        seed = seed * 1664525u + 1013904223u;
        const int64_t percent = 30 + (seed >> 8) % 71;
        c.push_back({static_cast<int>(half + (x - half) * percent / 100),
                     static_cast<int>(half + (z - half) * percent / 100)});
    }
    return c;
}

/// Processor time of this process so far. [Units: s]
double cpuSeconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

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

TEST_CASE("the greedy merge picks the same pairs as a scan of every pair (pinned on 160 star-shaped outlines)")
{
    // The merge keeps its candidate pairs in a heap; the pin is the one the
    // scan of every pair after every merge gave: same longest shared edge
    // first, same first pair on ties, same vertex order.
    spark::Hasher all;
    size_t polygons = 0;
    for (int maxVerts = 3; maxVerts <= 6; ++maxVerts)
        for (uint32_t seed = 1; seed <= 40; ++seed)
        {
            PolySoup mesh;
            REQUIRE(buildPolygons(outline(star(20 + static_cast<int>(seed) * 7, 2000, seed)), oneRegionField(),
                                  withMaxVerts(maxVerts), mesh) == 0);
            test::checkPolygons(mesh, maxVerts);
            all.addU64(hashPolySoup(mesh));
            polygons += mesh.polygonCount();
        }
    CHECK(polygons == 18460);
    CHECK(spark::hashToHex(all.digest()) == "ae48059742d96d16");
}

TEST_CASE("merging the triangles of an outline of 2,400 corners is bounded (a fuzzed bake took 23-43 s)")
{
    // The scan of every pair after every merge was cubic in a region's
    // triangles: this comb took 16 s of CPU in a Release build, 0.04 s now.
    const ContourSet set = outline(comb(400));
    REQUIRE(set.contours[0].verts.size() / 3 == 2398);
    PolySoup mesh;
    const double start = cpuSeconds();
    CHECK(buildPolygons(set, oneRegionField(), withMaxVerts(6), mesh) == 0);
    const double seconds = cpuSeconds() - start;
    CHECK(seconds < 2.0);
    test::checkPolygons(mesh, 6);
    CHECK(mesh.polygonCount() == 1202);
    CHECK(spark::hashToHex(hashPolySoup(mesh)) == "a153bfd09865c56a"); // as the scan of every pair gave
    CHECK(test::totalArea(mesh) == doctest::Approx((799.0 * 2 + 400.0 * 6) * 0.25));
}
