// Seam paths against an exact oracle (issue 33's "Must show"): on a tiled bake
// whose outlines follow the cells exactly (no simplification), the walkable
// region is a union of cells, and the shortest path between two points of it
// is known without the mesh: Dijkstra over the visibility graph of its convex
// corners (tests/nav/query/visibility_oracle.h). Paths that cross tile edges
// and corners, round pillars standing on seams and on the corner of four
// tiles, must be exactly that long, and turn only at those corners. So must
// paths through the T-junctions of seams (a polygon's edge meeting several
// polygons of the next tile): straight through their vertices, along the
// seam's line, and from and to a vertex itself (issue 34).

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

/// The walkable cells of a hall's floor, read off the mesh (a cell is free
/// when its centre is on it), as the oracle's map; checks they cover the
/// floor's polygons exactly (their outlines run along cell edges; the other
/// polygons are the pillars' tops) and that no two free cells meet only at
/// a corner.
Oracle floorOracle(const NavMesh& mesh)
{
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
    double floorArea = 0.0;
    for (uint32_t p = 0; p < mesh.polygonCount(); ++p)
        if (mesh.polygonBounds(p).max.y < 0.5f)
            floorArea += mesh.polygonArea(p);
    CHECK(double(freeCells) * kCell * kCell == doctest::Approx(floorArea).epsilon(1e-6));
    const std::vector<uint8_t> before = grid.blocked;
    removePinches(grid);
    REQUIRE(grid.blocked == before);
    return Oracle{kSide, kSide, grid.blocked};
}

/// Finds the path a → b on `mesh` and checks it against the oracle: exactly
/// as long as the shortest path, turning only at obstacle corners. Returns
/// the number of tiles its corridor crosses.
size_t checkPath(const NavMesh& mesh, const Oracle& oracle, QueryScratch& scratch, glm::vec3 a, glm::vec3 b)
{
    PathResult path;
    const Pt pa{a.x / kCell, a.z / kCell}, pb{b.x / kCell, b.z / kCell};
    const double best = oracle.shortest(pa, pb) * kCell;
    INFO("from (" << a.x << ", " << a.z << ") to (" << b.x << ", " << b.z << ")");
    REQUIRE(best > 0.0);
    REQUIRE(findPath(mesh, scratch, a, b, defaultQueryFilter(), glm::vec3(0.01f, 1.0f, 0.01f), path).ok());
    REQUIRE(path.complete);
    CHECK(lengthXZ(path.points) == doctest::Approx(best).epsilon(1e-6));
    for (size_t i = 1; i + 1 < path.points.size(); ++i)
        CHECK_MESSAGE(oracle.corner(Pt{path.points[i].x / kCell, path.points[i].z / kCell}),
                      "turn at (" << path.points[i].x << ", " << path.points[i].z << ")");
    std::set<uint32_t> tiles;
    for (uint32_t p : path.polygons)
        tiles.insert(mesh.tileOfPolygon(p));
    return tiles.size();
}

} // namespace

TEST_CASE("paths across tile edges and corners, round pillars on seams, are exactly the shortest paths")
{
    auto baked = bakeNavMesh(seamHall(), seamHallDef());
    REQUIRE_MESSAGE(baked.ok(), baked.error().message);
    const NavMesh& mesh = baked.value().mesh;
    REQUIRE(mesh.tiled());
    REQUIRE(mesh.tiles().size() == 9);

    const Oracle oracle = floorOracle(mesh);

    QueryScratch scratch;
    auto check = [&](glm::vec3 a, glm::vec3 b) { return checkPath(mesh, oracle, scratch, a, b); };

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

/// Pillars near seams on one side only: the two tiles' partitions put
/// vertices on a seam at different places, so a polygon's edge there meets
/// several polygons beyond it (T-junctions, whose vertices are open floor).
BakeInput tJunctionHall()
{
    BakeInput in;
    addBox(in, {0.0f, -0.5f, 0.0f}, {24.0f, 0.0f, 24.0f});
    addBox(in, {6.0f, 0.0f, 2.0f}, {7.0f, 1.5f, 3.25f});      // left of the seam x = 8
    addBox(in, {5.5f, 0.0f, 12.0f}, {7.0f, 1.5f, 12.75f});    // left of x = 8, further up
    addBox(in, {10.0f, 0.0f, 14.0f}, {11.5f, 1.5f, 15.0f});   // below the seam z = 16
    addBox(in, {17.25f, 0.0f, 9.0f}, {18.5f, 1.5f, 10.25f});  // right of x = 16, above z = 8
    addBox(in, {19.0f, 0.0f, 17.0f}, {20.0f, 1.5f, 18.5f});   // above z = 16, right of x = 16
    addBox(in, {2.0f, 0.0f, 17.5f}, {3.0f, 1.5f, 18.25f});    // above z = 16, in tile (0, 2)
    return in;
}

TEST_CASE("paths through seam T-junctions (straight through their vertices, along the seam, from and to "
          "them) are exactly the shortest paths, both ways")
{
    auto baked = bakeNavMesh(tJunctionHall(), seamHallDef());
    REQUIRE_MESSAGE(baked.ok(), baked.error().message);
    const NavMesh& mesh = baked.value().mesh;
    REQUIRE(mesh.tiled());
    const Oracle oracle = floorOracle(mesh);

    // The T-junction vertices on seams: a link end strictly inside its
    // polygon's edge, the polygon beyond in another tile, open floor all round.
    std::set<std::pair<float, float>> junctions;
    for (uint32_t p = 0; p < mesh.polygonCount(); ++p)
        for (const NavLink& l : mesh.links(p))
        {
            if (mesh.tileOfPolygon(p) == mesh.tileOfPolygon(l.neighbour) || mesh.polygonBounds(p).max.y > 0.5f)
                continue;
            auto consider = [&](const glm::vec3& v) {
                const int cx = int(std::lround(v.x / kCell)), cz = int(std::lround(v.z / kCell));
                if (oracle.free(cx - 1, cz - 1) && oracle.free(cx, cz - 1) && oracle.free(cx - 1, cz) &&
                    oracle.free(cx, cz))
                    junctions.insert({v.x, v.z});
            };
            if (l.tMin > 1e-6f)
                consider(l.a);
            if (l.tMax < 1.0f - 1e-6f)
                consider(l.b);
        }
    INFO(junctions.size() << " T-junction vertices on seams");
    REQUIRE(junctions.size() >= 4);

    QueryScratch scratch;
    auto onFloor = [&](glm::vec3 p) {
        return p.x > 0.0f && p.z > 0.0f && p.x < 24.0f && p.z < 24.0f &&
               oracle.free(int(std::floor(p.x / kCell)), int(std::floor(p.z / kCell)));
    };
    // (Offsets in 64ths: a ± d is exact, so a and b lie exactly on a line through the vertex.)
    const glm::vec2 offsets[] = {{1.5625f, 0.703125f}, {0.703125f, 1.5625f}, {2.015625f, -0.359375f},
                                 {-0.359375f, 2.015625f}, {3.140625f, 1.0f}};
    int through = 0, along = 0, fromTo = 0;
    size_t crossings = 0;
    for (const auto& j : junctions)
    {
        const glm::vec3 v(j.first, 0.0f, j.second);
        const bool seamX = std::fmod(j.first, 8.0f) == 0.0f; // on a seam x = 8 k (else z = 8 k)
        // Straight through the vertex, across the seam.
        for (const glm::vec2& d : offsets)
        {
            const glm::vec3 a = v + glm::vec3(d.x, 0.0f, d.y), b = v - glm::vec3(d.x, 0.0f, d.y);
            if (!onFloor(a) || !onFloor(b))
                continue;
            crossings += checkPath(mesh, oracle, scratch, a, b) - 1;
            checkPath(mesh, oracle, scratch, b, a);
            ++through;
        }
        // Along the seam's line, through the vertex.
        const glm::vec3 s = seamX ? glm::vec3(0.0f, 0.0f, 2.015625f) : glm::vec3(2.015625f, 0.0f, 0.0f);
        if (onFloor(v + s) && onFloor(v - s))
        {
            checkPath(mesh, oracle, scratch, v + s, v - s);
            checkPath(mesh, oracle, scratch, v - s, v + s);
            ++along;
        }
        // From and to the vertex itself (a point of three polygons or more).
        for (const glm::vec3 far : {glm::vec3(1.0f, 0.0f, 1.0f), glm::vec3(23.0f, 0.0f, 23.0f),
                                    glm::vec3(1.0f, 0.0f, 23.0f), glm::vec3(23.0f, 0.0f, 1.0f)})
        {
            checkPath(mesh, oracle, scratch, v, far);
            checkPath(mesh, oracle, scratch, far, v);
            ++fromTo;
        }
    }
    INFO(through << " pairs through vertices, " << along << " along seams, " << fromTo << " from and to them");
    CHECK(through >= 3 * int(junctions.size()));
    CHECK(along >= 1);
    CHECK(crossings >= size_t(through)); // each pair through a vertex crosses its seam
}
