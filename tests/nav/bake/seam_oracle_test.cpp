// Seam paths against an exact oracle (issue 33's "Must show"): on a tiled bake
// whose outlines follow the cells exactly (no simplification), the walkable
// region is a union of cells, and the shortest path between two points of it
// is known without the mesh: Dijkstra over the visibility graph of its convex
// corners (tests/nav/query/visibility_oracle.h). Paths that cross tile edges
// and corners, round pillars standing on seams and on the corner of four
// tiles, must be exactly that long, and turn only at those corners.

#include "bake_test_util.h"

#include "../query/visibility_oracle.h"

#include "spark/core/rng.h"
#include "spark/nav/query.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <set>

using namespace spark;
using namespace spark::nav;
using namespace spark::nav::test;

namespace
{

constexpr float kCell = 0.25f; // exact in binary
constexpr int kTile = 32;      // cells: tiles of 8 m
constexpr int kSide = 96;      // cells: a floor of 24 m, 3 × 3 tiles

/// A 24 m floor from the origin with 1.5 m pillars (too low to stand on)
/// on the corner of four tiles, along and across seams, and one inside a tile.
BakeInput seamHall()
{
    BakeInput in;
    addBox(in, {0.0f, -0.5f, 0.0f}, {24.0f, 0.0f, 24.0f});
    addBox(in, {7.0f, 0.0f, 7.0f}, {9.0f, 1.5f, 9.0f});      // on the corner (8, 8) of four tiles
    addBox(in, {15.0f, 0.0f, 15.5f}, {17.0f, 1.5f, 16.25f}); // round the corner (16, 16), off-centre
    addBox(in, {11.0f, 0.0f, 2.0f}, {13.0f, 1.5f, 8.25f});   // ends a cell past the seam z = 8
    addBox(in, {15.5f, 0.0f, 19.0f}, {16.5f, 1.5f, 22.0f});  // across the seam x = 16
    addBox(in, {3.0f, 0.0f, 13.0f}, {5.0f, 1.5f, 14.0f});    // inside tile (0, 1)
    return in;
}

BakeDef seamHallDef()
{
    BakeDef d = testDef();
    d.cellSize = kCell;
    d.agentRadius = 0.5f;
    d.maxSimplificationError = 0.0f;
    d.tileSize = kTile;
    d.threads = 2;
    return d;
}

double lengthXZ(const std::vector<glm::vec3>& pts)
{
    double s = 0.0;
    for (size_t i = 1; i < pts.size(); ++i)
        s += std::hypot(double(pts[i].x) - pts[i - 1].x, double(pts[i].z) - pts[i - 1].z);
    return s;
}

} // namespace

TEST_CASE("paths across tile edges and corners, round pillars on seams, are exactly the shortest paths")
{
    auto baked = bakeNavMesh(seamHall(), seamHallDef());
    REQUIRE_MESSAGE(baked.ok(), baked.error().message);
    const NavMesh& mesh = baked.value().mesh;
    REQUIRE(mesh.tiled());
    REQUIRE(mesh.tiles().size() == 9);

    // The walkable cells, read off the mesh: a cell is free when its centre is on it.
    Grid2D grid;
    grid.width = grid.height = kSide;
    grid.blocked.assign(size_t(kSide) * kSide, 1);
    int freeCells = 0;
    for (int z = 0; z < kSide; ++z)
        for (int x = 0; x < kSide; ++x)
        {
            const glm::vec3 centre((x + 0.5f) * kCell, 0.0f, (z + 0.5f) * kCell);
            auto at = findNearest(mesh, centre, glm::vec3(0.01f, 1.0f, 0.01f));
            if (at.ok() && std::hypot(at.value().point.x - centre.x, at.value().point.z - centre.z) < 1e-4)
            {
                grid.blocked[size_t(z) * kSide + x] = 0;
                ++freeCells;
            }
        }
    // The cells cover the floor's polygons exactly (their outlines run along
    // cell edges); the others are the pillars' tops.
    double floorArea = 0.0;
    for (uint32_t p = 0; p < mesh.polygonCount(); ++p)
        if (mesh.polygonBounds(p).max.y < 0.5f)
            floorArea += mesh.polygonArea(p);
    CHECK(double(freeCells) * kCell * kCell == doctest::Approx(floorArea).epsilon(1e-6));
    const std::vector<uint8_t> before = grid.blocked;
    removePinches(grid);
    REQUIRE(grid.blocked == before); // no two free cells meet only at a corner here
    const Oracle oracle{kSide, kSide, grid.blocked};

    QueryScratch scratch;
    PathResult path;
    const glm::vec3 ext(0.01f, 1.0f, 0.01f);
    auto check = [&](glm::vec3 a, glm::vec3 b) {
        const Pt pa{a.x / kCell, a.z / kCell}, pb{b.x / kCell, b.z / kCell};
        const double best = oracle.shortest(pa, pb) * kCell;
        REQUIRE(best > 0.0);
        INFO("from (" << a.x << ", " << a.z << ") to (" << b.x << ", " << b.z << ")");
        REQUIRE(findPath(mesh, scratch, a, b, defaultQueryFilter(), ext, path).ok());
        REQUIRE(path.complete);
        CHECK(lengthXZ(path.points) == doctest::Approx(best).epsilon(1e-6));
        for (size_t i = 1; i + 1 < path.points.size(); ++i)
            CHECK_MESSAGE(oracle.corner(Pt{path.points[i].x / kCell, path.points[i].z / kCell}),
                          "turn at (" << path.points[i].x << ", " << path.points[i].z << ")");
        std::set<uint32_t> tiles;
        for (uint32_t p : path.polygons)
            tiles.insert(mesh.tileOfPolygon(p));
        return tiles.size();
    };

    // Round the pillar on the corner of four tiles, both ways round it.
    CHECK(check({6.0f, 0.0f, 10.5f}, {10.5f, 0.0f, 6.0f}) >= 3);
    CHECK(check({10.0f, 0.0f, 10.5f}, {5.5f, 0.0f, 6.0f}) >= 3);
    // Past the pillar ending a cell beyond the seam z = 8, turning on the seam.
    CHECK(check({10.0f, 0.0f, 3.0f}, {14.0f, 0.0f, 9.5f}) >= 2);
    // Round the pillar across the seam x = 16 and the one round the corner (16, 16).
    CHECK(check({14.5f, 0.0f, 23.0f}, {17.5f, 0.0f, 18.0f}) >= 2);
    CHECK(check({14.0f, 0.0f, 14.0f}, {18.0f, 0.0f, 17.5f}) >= 3);

    // Seeded pairs over the whole floor (ends in free cells).
    Rng rng = rngFromSeed(33);
    int pairs = 0;
    size_t crossings = 0;
    while (pairs < 40)
    {
        auto draw = [&] {
            return glm::vec3(float(0.75 + 22.5 * rngNextDouble(rng)), 0.0f, float(0.75 + 22.5 * rngNextDouble(rng)));
        };
        const glm::vec3 a = draw(), b = draw();
        if (!oracle.free(int(a.x / kCell), int(a.z / kCell)) || !oracle.free(int(b.x / kCell), int(b.z / kCell)))
            continue;
        crossings += check(a, b) - 1;
        ++pairs;
    }
    CHECK(crossings > 40); // most pairs cross a seam, many two or more
}
