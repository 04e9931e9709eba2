// The any-angle search (any_angle.cpp) on hand-made and generated meshes with
// degenerate geometry: the regression meshes of issue #34, starts and goals on
// vertices and edges, and an exact oracle (shortest paths over the visibility
// graph of the mesh's boundary, decided with exact predicates).

#include "exact_orient.h"
#include "spark/nav/query.h"
#include "test_maps.h"
#include "visibility_oracle.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <string>
#include <vector>

using namespace spark;
using namespace spark::nav;
using namespace spark::nav::test;

namespace exact_test
{

/// A rectangle [x0, x1] × [z0, z1] of the free space.
struct Box
{
    float x0, x1, z0, z1;
};

/// A 2D polygon soup built ring by ring, vertices shared by position.
struct Soup2D
{
    PolySoup soup;

    Soup2D() { soup.polyStarts.push_back(0); }

    uint32_t vertex(double x, double z)
    {
        const glm::vec3 v(float(x), 0.0f, float(z));
        for (uint32_t i = 0; i < soup.vertices.size(); ++i)
            if (soup.vertices[i] == v)
                return i;
        soup.vertices.push_back(v);
        return uint32_t(soup.vertices.size() - 1);
    }

    /// Adds a convex counter-clockwise polygon.
    void poly(std::initializer_list<std::pair<double, double>> ring) { poly(std::vector(ring)); }

    void poly(const std::vector<std::pair<double, double>>& ring)
    {
        for (const auto& [x, z] : ring)
            soup.indices.push_back(vertex(x, z));
        soup.polyStarts.push_back(uint32_t(soup.indices.size()));
        soup.areas.push_back(0);
    }

    NavMesh build() const
    {
        NavMeshDef def = defaultNavMeshDef();
        def.is2d = true;
        auto mesh = buildNavMesh(soup, def);
        REQUIRE(mesh.ok());
        return std::move(mesh).value();
    }
};

/// A 2D mesh of rectangles (T-junctions allowed: the navmesh links by edge overlap).
NavMesh boxMesh(const std::vector<Box>& boxes)
{
    Soup2D soup;
    for (const Box& b : boxes)
        soup.poly({{b.x0, b.z0}, {b.x1, b.z0}, {b.x1, b.z1}, {b.x0, b.z1}});
    return soup.build();
}

double pathLength(const NavMesh& mesh, glm::vec3 from, glm::vec3 to)
{
    QueryScratch scratch;
    PathResult path;
    REQUIRE(findPath(mesh, scratch, from, to, defaultQueryFilter(), glm::vec3(0.25f, 1.0f, 0.25f), path).ok());
    REQUIRE(path.complete);
    return path.length;
}

} // namespace exact_test

using namespace exact_test;

TEST_CASE("the exact orientation: points on a line are on it, a rounding's width off it is off it")
{
    using detail::orientExact;
    CHECK(orientExact(0, 0, 1, 0, 0.5, 1) == 1);
    CHECK(orientExact(0, 0, 1, 0, 0.5, -1) == -1);
    CHECK(orientExact(0, 0, 2, 2, 7, 7) == 0);
    // Shewchuk's example: p = (0.5 + x ulp, 0.5 + y ulp) against the line
    // (12, 12) → (24, 24) lies to its left exactly when y > x; the plain
    // double determinant gets many of these wrong.
    const double ulp = std::nextafter(0.5, 1.0) - 0.5;
    int plainWrong = 0;
    for (int x = 0; x < 64; ++x)
        for (int y = 0; y < 64; ++y)
        {
            const double px = 0.5 + x * ulp, pz = 0.5 + y * ulp;
            const int truth = y > x ? 1 : (y < x ? -1 : 0);
            // (The line a → b with a = (12, 12), b = (24, 24); c = p.)
            CHECK(orientExact(12, 12, 24, 24, px, pz) == truth);
            const double plain = (24.0 - 12.0) * (pz - 12.0) - (24.0 - 12.0) * (px - 12.0);
            plainWrong += (plain > 0.0 ? 1 : (plain < 0.0 ? -1 : 0)) != truth ? 1 : 0;
        }
    INFO("plain double wrong on " << plainWrong << " of 4096");
    CHECK(plainWrong > 0);
    // Three points on a line of slope 1/3 through huge and tiny coordinates.
    CHECK(orientExact(-3.0e7, -1.0e7, 3.0e7, 1.0e7, 3.0, 1.0) == 0);
    CHECK(orientExact(-3.0e7, -1.0e7, 3.0e7, 1.0e7, 3.0, std::nextafter(1.0, 2.0)) == 1);
    CHECK(orientExact(-3.0e7, -1.0e7, 3.0e7, 1.0e7, 3.0, std::nextafter(1.0, 0.0)) == -1);
}

TEST_CASE("the mesh's turn table: obstacle corners are turned at; open space, straight walls and convex "
          "corners are passed through")
{
    // Free space: [0, 4] × [0, 2] with the cell [2, 3] × [1, 2] blocked, cut
    // into rectangles with a vertex in the open (1, 1) and on straight walls.
    const NavMesh mesh = boxMesh({{0, 1, 0, 1}, {1, 2, 0, 1}, {0, 1, 1, 2}, {1, 2, 1, 2}, {2, 3, 0, 1}, {3, 4, 0, 1},
                                  {3, 4, 1, 2}});
    auto turn = [&](float x, float z)
    {
        const uint32_t id = mesh.linkEndPointOf(glm::vec3(x, 0.0f, z));
        REQUIRE(id < mesh.linkEndPointCount());
        return (mesh.linkEndTurn(id) & NavMesh::kTurnCorner) != 0;
    };
    CHECK_FALSE(turn(1, 1)); // open space: four rectangles round it
    CHECK_FALSE(turn(1, 0)); // straight wall (the bottom)
    CHECK_FALSE(turn(1, 2)); // straight wall (the top)
    CHECK_FALSE(turn(3, 0)); // straight wall under the blocked cell
    CHECK(turn(2, 1));       // the blocked cell's corners: the free space turns round them
    CHECK(turn(3, 1));
    CHECK_FALSE(turn(2, 0)); // straight wall
    CHECK_FALSE(turn(0, 1)); // straight wall (the left side)
    // A start snapped a rounding's width beyond a wall's line may turn at any
    // point of that wall (kTurnWall), never at a point in the open.
    auto bits = [&](float x, float z)
    { return mesh.linkEndTurn(mesh.linkEndPointOf(glm::vec3(x, 0.0f, z))); };
    CHECK(bits(1, 1) == 0);
    CHECK(bits(1, 0) == NavMesh::kTurnWall);
    CHECK(bits(3, 0) == NavMesh::kTurnWall);
    CHECK(bits(2, 1) == NavMesh::kTurnCorner);
    // Every path still shortest: round the blocked cell both ways.
    CHECK(pathLength(mesh, glm::vec3(0.5f, 0, 1.5f), glm::vec3(3.5f, 0, 1.5f)) ==
          doctest::Approx(std::hypot(1.5, 0.5) + 1.0 + std::hypot(0.5, 0.5)).epsilon(1e-6));
    CHECK(pathLength(mesh, glm::vec3(3.5f, 0, 1.5f), glm::vec3(0.5f, 0, 1.5f)) ==
          doctest::Approx(std::hypot(1.5, 0.5) + 1.0 + std::hypot(0.5, 0.5)).epsilon(1e-6));
}

TEST_CASE("a tile seam where the two sides' heights differ is passed through, not turned at")
{
    // Free space [0, 2] × [0, 2]: two squares on the left at height 0, one
    // rectangle on the right at 0.25 (tiles baked apart meet at heights of
    // their own). The left squares' shared vertex (1, 0, 1) lies on the
    // seam in the middle of the right rectangle's edge, whose link ends
    // there at (1, 0.25, 1): the two sides' ends differ in height only.
    PolySoup soup;
    soup.polyStarts.push_back(0);
    auto poly = [&](std::initializer_list<glm::vec3> ring)
    {
        for (const glm::vec3& v : ring)
        {
            soup.indices.push_back(uint32_t(soup.vertices.size()));
            soup.vertices.push_back(v);
        }
        soup.polyStarts.push_back(uint32_t(soup.indices.size()));
        soup.areas.push_back(0);
    };
    poly({{0, 0, 0}, {1, 0, 0}, {1, 0, 1}, {0, 0, 1}});
    poly({{0, 0, 1}, {1, 0, 1}, {1, 0, 2}, {0, 0, 2}});
    poly({{1, 0.25f, 0}, {2, 0.25f, 0}, {2, 0.25f, 2}, {1, 0.25f, 2}});
    auto built = buildNavMesh(soup, defaultNavMeshDef());
    REQUIRE(built.ok());
    const NavMesh& mesh = built.value();
    for (const float y : {0.0f, 0.25f})
    {
        const uint32_t id = mesh.linkEndPointOf(glm::vec3(1.0f, y, 1.0f));
        REQUIRE(id < mesh.linkEndPointCount());
        CHECK(mesh.linkEndTurn(id) == 0); // free space all round it
    }
    // A path through the seam's vertex goes straight on.
    QueryScratch scratch;
    PathResult path;
    REQUIRE(findPath(mesh, scratch, glm::vec3(0.5f, 0, 0.25f), glm::vec3(1.5f, 0.25f, 1.75f),
                     defaultQueryFilter(), glm::vec3(0.25f, 1.0f, 0.25f), path)
                .ok());
    REQUIRE(path.complete);
    CHECK(path.points.size() == 2);
}

TEST_CASE("issue 34's eight rectangles: the shortest path both ways")
{
    const NavMesh mesh = boxMesh({{209, 211, 57, 81},
                                  {207, 209, 58, 83},
                                  {205, 207, 59, 85},
                                  {203, 205, 60, 83},
                                  {201, 203, 61, 85},
                                  {211, 213, 80, 81},
                                  {209, 210, 81, 82},
                                  {203, 204, 83, 84}});
    const glm::vec3 s(213, 0, 80), a(202, 0, 84), b(201, 0, 85);
    CHECK(pathLength(mesh, s, a) == doctest::Approx(11.722901).epsilon(1e-6));
    CHECK(pathLength(mesh, a, s) == doctest::Approx(11.722901).epsilon(1e-6));
    CHECK(pathLength(mesh, s, b) == doctest::Approx(13.092384).epsilon(1e-6));
    CHECK(pathLength(mesh, b, s) == doctest::Approx(13.092384).epsilon(1e-6));
}

namespace exact_test
{

/// A tile map's free space cut into polygons with degenerate geometry. Each
/// row's runs of free cells are split at random into pieces, and each piece
/// [x0, x1] × [z, z + 1] is emitted as one of:
///   0: two slivers cut along the diagonal (near-parallel portals on long pieces);
///   1: a fan of triangles from its lower-left corner to every upper grid point (more slivers, all from one vertex,
///      and vertices of the fan in the middle of the edges of the rows above);
///   2: per cell, four triangles round the cell's centre (loops round an interior vertex);
///   3: a plain rectangle (T-junctions with the rows above and below);
///   4: a rectangle with a vertex at every grid point of its lower and upper edges (collinear vertices, on walls
///      and on portals);
///   5: strips cut by near-parallel slanted lines from (i, z) to (i + 1/16, z + 1) (near-parallel portals, and
///      vertices off the grid in the middle of walls and of the edges of the rows above).
/// With `only` set, every piece is of that kind.
NavMesh degenerateMesh(const Grid2D& g, Rng& rng, uint32_t kinds = 6, int only = -1)
{
    Soup2D soup;
    auto poly = [&](std::initializer_list<std::pair<double, double>> ring) { soup.poly(ring); };
    auto blocked = [&](int x, int z) { return g.blocked[size_t(z) * g.width + x] != 0; };
    for (int z = 0; z < g.height; ++z)
        for (int x = 0; x < g.width;)
        {
            if (blocked(x, z))
            {
                ++x;
                continue;
            }
            int end = x;
            while (end < g.width && !blocked(end, z) && end - x < 1 + int(rngNextBelow(rng, 8)))
                ++end;
            const double x0 = x, x1 = end, z0 = z, z1 = z + 1;
            switch (only >= 0 ? uint32_t(only) : rngNextBelow(rng, kinds))
            {
            case 0:
                poly({{x0, z0}, {x1, z0}, {x1, z1}});
                poly({{x0, z0}, {x1, z1}, {x0, z1}});
                break;
            case 1:
                poly({{x0, z0}, {x1, z0}, {x1, z1}});
                for (int i = end; i > x; --i)
                    poly({{x0, z0}, {double(i), z1}, {double(i - 1), z1}});
                break;
            case 2:
                for (int i = x; i < end; ++i)
                {
                    const double cx = i + 0.5, cz = z + 0.5;
                    poly({{double(i), z0}, {i + 1.0, z0}, {cx, cz}});
                    poly({{i + 1.0, z0}, {i + 1.0, z1}, {cx, cz}});
                    poly({{i + 1.0, z1}, {double(i), z1}, {cx, cz}});
                    poly({{double(i), z1}, {double(i), z0}, {cx, cz}});
                }
                break;
            case 3:
                poly({{x0, z0}, {x1, z0}, {x1, z1}, {x0, z1}});
                break;
            case 4:
            {
                std::vector<std::pair<double, double>> ring;
                for (int i = x; i <= end; ++i)
                    ring.push_back({double(i), z0});
                for (int i = end; i >= x; --i)
                    ring.push_back({double(i), z1});
                soup.poly(ring);
                break;
            }
            default:
            {
                constexpr double kSlant = 1.0 / 16.0;
                double lo = x0, hi = x0;
                for (int i = x + 1; i <= end; ++i)
                {
                    const double nlo = i, nhi = i == end ? x1 : i + kSlant;
                    poly({{lo, z0}, {nlo, z0}, {nhi, z1}, {hi, z1}});
                    lo = nlo;
                    hi = nhi;
                }
            }
            }
            x = end;
        }
    return soup.build();
}

/// A query point of a free cell: inside it, on one of its edges, at one of
/// its corners or at its centre (a vertex of the fans).
Pt degeneratePoint(const Grid2D& g, Rng& rng)
{
    for (;;)
    {
        const int x = int(rngNextBelow(rng, uint32_t(g.width))), z = int(rngNextBelow(rng, uint32_t(g.height)));
        if (g.blocked[size_t(z) * g.width + x])
            continue;
        const double u = 0.125 * double(1 + rngNextBelow(rng, 7)); // on the grid of eighths: exact in float
        switch (rngNextBelow(rng, 5))
        {
        case 0: return Pt{x + 0.05 + 0.9 * rngNextDouble(rng), z + 0.05 + 0.9 * rngNextDouble(rng)};
        case 1: return Pt{x + u, double(z + rngNextBelow(rng, 2))};
        case 2: return Pt{double(x + rngNextBelow(rng, 2)), z + u};
        case 3: return Pt{double(x + rngNextBelow(rng, 2)), double(z + rngNextBelow(rng, 2))};
        default: return Pt{x + 0.5, z + 0.5};
        }
    }
}

/// The length of a path's points (x–z, in double).
double lengthOf(const std::vector<glm::vec3>& points)
{
    double sum = 0.0;
    for (size_t i = 1; i < points.size(); ++i)
        sum += std::hypot(double(points[i].x) - points[i - 1].x, double(points[i].z) - points[i - 1].z);
    return sum;
}

} // namespace exact_test

TEST_CASE("on meshes of slivers, fans round interior vertices and T-junctions, from points inside cells, on "
          "their edges, corners and centres, paths are shortest both ways and turn only at obstacle corners")
{
    const glm::vec3 ext{0.25f, 1.0f, 0.25f};
    const uint64_t kSeeds = std::getenv("SPARK_EXACT_SEEDS") ? std::strtoull(std::getenv("SPARK_EXACT_SEEDS"), nullptr, 10) : 80;
    QueryScratch scratch;
    PathResult path;
    int cases = 0, turning = 0, onBoundary = 0;
    double worst = 0.0;
    for (uint64_t seed = 1; seed <= kSeeds; ++seed)
    {
        const int w = 10 + int(seed % 5) * 2, h = 9 + int(seed % 4) * 2;
        Grid2D grid = randomGrid(seed * 104729, w, h, w * h / 25, 0);
        removePinches(grid);
        Rng rng = rngFromSeed(seed, 41);
        const NavMesh mesh = degenerateMesh(grid, rng);
        Oracle oracle{w, h, grid.blocked};
        for (int q = 0; q < 4; ++q)
        {
            // (As the query sees them: in float.)
            auto asFloat = [](Pt p) { return Pt{double(float(p.x)), double(float(p.z))}; };
            const Pt a = asFloat(degeneratePoint(grid, rng)), b = asFloat(degeneratePoint(grid, rng));
            const double best = oracle.shortest(a, b);
            if (best < 0.0)
                continue; // another island: the oracle has no length to compare
            onBoundary += (a.x == std::floor(a.x) || a.z == std::floor(a.z) || a.x - std::floor(a.x) == 0.5) ? 1 : 0;
            for (int dir = 0; dir < 2; ++dir)
            {
                const Pt from = dir == 0 ? a : b, to = dir == 0 ? b : a;
                const glm::vec3 f3(float(from.x), 0.0f, float(from.z)), t3(float(to.x), 0.0f, float(to.z));
                INFO("seed " << seed << " query " << q << std::string(dir ? " reversed" : "") << " from (" << from.x << ", "
                             << from.z << ") to (" << to.x << ", " << to.z << ")");
                REQUIRE(findPath(mesh, scratch, f3, t3, defaultQueryFilter(), ext, path).ok());
                REQUIRE(path.complete);
                ++cases;
                const double length = lengthOf(path.points);
                worst = std::max(worst, length / std::max(best, 1e-12));
                CHECK_MESSAGE(length == doctest::Approx(best).epsilon(1e-6), std::setprecision(12) << length << " vs " << best);
                // Every leg lies in the free space, every turn is an obstacle corner.
                for (size_t i = 1; i < path.points.size(); ++i)
                {
                    const Pt p{path.points[i - 1].x, path.points[i - 1].z}, n{path.points[i].x, path.points[i].z};
                    CHECK_MESSAGE(oracle.visible(p, n), "leg (" << p.x << ", " << p.z << ") - (" << n.x << ", " << n.z << ")");
                    if (i + 1 < path.points.size())
                        CHECK_MESSAGE(oracle.corner(n), "turn at (" << n.x << ", " << n.z << ")");
                }
                turning += path.points.size() > 2 ? 1 : 0;
            }
        }
    }
    std::printf("degenerate meshes: %d paths (%d turning, %d from a point on a grid line or centre), worst length / "
                "optimum %.12f\n",
                cases, turning, onBoundary, worst);
    CHECK(cases > 500);
    CHECK(turning > 250);
}

namespace exact_test
{

/// Queries a → b and b → a on `mesh` (2D, a tile map's free space): each
/// path complete, as long as the oracle's `best`, every leg in the free
/// space. Returns how many of the two paths turn.
int checkBothWays(const NavMesh& mesh, const Oracle& oracle, const Pt& a, const Pt& b, double best,
                  QueryScratch& scratch, const std::string& label)
{
    const glm::vec3 ext{0.25f, 1.0f, 0.25f};
    PathResult path;
    int turning = 0;
    for (int dir = 0; dir < 2; ++dir)
    {
        const Pt from = dir == 0 ? a : b, to = dir == 0 ? b : a;
        INFO(label << std::string(dir ? " reversed" : "") << " from (" << from.x << ", " << from.z << ") to ("
                   << to.x << ", " << to.z << ")");
        const glm::vec3 f3(float(from.x), 0.0f, float(from.z)), t3(float(to.x), 0.0f, float(to.z));
        REQUIRE(findPath(mesh, scratch, f3, t3, defaultQueryFilter(), ext, path).ok());
        REQUIRE(path.complete);
        turning += path.points.size() > 2 ? 1 : 0;
        CHECK_MESSAGE(lengthOf(path.points) == doctest::Approx(best).epsilon(1e-6),
                      std::setprecision(12) << lengthOf(path.points) << " vs " << best);
        for (size_t i = 1; i < path.points.size(); ++i)
        {
            const Pt p{path.points[i - 1].x, path.points[i - 1].z}, n{path.points[i].x, path.points[i].z};
            CHECK_MESSAGE(oracle.visible(p, n),
                          "leg (" << p.x << ", " << p.z << ") - (" << n.x << ", " << n.z << ")");
        }
    }
    return turning;
}

} // namespace exact_test

TEST_CASE(
    "a start or goal on one half of a split edge sees the other half edge-on: the path turns at the split")
{
    // Property test seed 40 with straight angles allowed: polygon P has the
    // edges (21,30)-(22,29)-(24,27)-(25,26) on one line; the start lies on
    // the last one, the free space beyond the line is two triangles with a
    // wall at x = 24 between them. The start node seen edge-on is rooted at
    // the split vertex, and the path kept that turn (it went straight through
    // the wall).
    Soup2D soup;
    soup.poly({{25, 26}, {27, 28}, {27, 30}, {21, 30}, {22, 29}, {24, 27}}); // P
    soup.poly({{24, 26}, {25, 26}, {24, 27}});
    soup.poly({{22, 27}, {24, 27}, {22, 29}});
    soup.poly({{21, 29}, {22, 29}, {21, 30}});
    const NavMesh mesh = soup.build();
    const glm::vec3 ext{0.25f, 1.0f, 0.25f};
    QueryScratch scratch;
    PathResult path;
    struct Case
    {
        glm::vec3 from, to;
        glm::vec3 turn;
        double length;
    };
    const Case cases[] = {
        {{24.5f, 0, 26.5f}, {21, 0, 29}, {22, 0, 29}, std::hypot(2.5, 2.5) + 1.0},
        {{24.5f, 0, 26.5f}, {21.25f, 0, 29.5f}, {22, 0, 29}, std::hypot(2.5, 2.5) + std::hypot(0.75, 0.5)},
        {{24.5f, 0, 26.5f}, {22.5f, 0, 28}, {24, 0, 27}, std::hypot(0.5, 0.5) + std::hypot(1.5, 1.0)},
        {{23, 0, 28}, {24.25f, 0, 26.25f}, {24, 0, 27}, std::hypot(1.0, 1.0) + std::hypot(0.25, 0.75)},
    };
    for (const Case& c : cases)
        for (int dir = 0; dir < 2; ++dir)
        {
            const glm::vec3 from = dir == 0 ? c.from : c.to, to = dir == 0 ? c.to : c.from;
            INFO("from (" << from.x << ", " << from.z << ") to (" << to.x << ", " << to.z << ")");
            REQUIRE(findPath(mesh, scratch, from, to, defaultQueryFilter(), ext, path).ok());
            REQUIRE(path.complete);
            REQUIRE(path.points.size() == 3);
            CHECK(path.points[1] == c.turn);
            CHECK(lengthOf(path.points) == doctest::Approx(c.length).epsilon(1e-6));
            for (size_t i = 1; i < path.points.size(); ++i)
            {
                auto r =
                    raycast(mesh, scratch, path.points[i - 1], path.points[i], defaultQueryFilter(), ext);
                REQUIRE(r.ok());
                CHECK_FALSE(r->hit);
            }
        }
}

TEST_CASE("on rows cut with a vertex at every grid point (split edges everywhere), paths from and to points "
          "on the rows' edges are shortest both ways")
{
    QueryScratch scratch;
    int cases = 0, turning = 0;
    for (uint64_t seed = 1; seed <= 40; ++seed)
    {
        const int w = 10 + int(seed % 5) * 2, h = 9 + int(seed % 4) * 2;
        Grid2D grid = randomGrid(seed * 7919, w, h, w * h / 20, 0);
        removePinches(grid);
        Rng rng = rngFromSeed(seed, 43);
        const NavMesh mesh = degenerateMesh(grid, rng, 6, 4);
        Oracle oracle{w, h, grid.blocked};
        // A point on the lower or upper edge of a free cell, at an eighth.
        auto onRowEdge = [&]
        {
            for (;;)
            {
                const int x = int(rngNextBelow(rng, uint32_t(w))), z = int(rngNextBelow(rng, uint32_t(h)));
                if (!grid.blocked[size_t(z) * w + x])
                    return Pt{x + 0.125 * double(1 + rngNextBelow(rng, 7)), double(z + rngNextBelow(rng, 2))};
            }
        };
        for (int q = 0; q < 8; ++q)
        {
            const Pt a = onRowEdge(), b = onRowEdge();
            const double best = oracle.shortest(a, b);
            if (best < 0.0)
                continue;
            cases += 2;
            turning += checkBothWays(mesh, oracle, a, b, best, scratch,
                                     "seed " + std::to_string(seed) + " query " + std::to_string(q));
        }
    }
    CHECK(cases > 400);
    CHECK(turning > 200);
}

namespace exact_test
{

/// A maze of corridors one cell wide on a (2n + 1)² grid (a spanning tree by
/// seeded depth-first search), with `loops` extra walls opened (cycles, so
/// the polygon graph has bridges and cycles both).
Grid2D mazeGrid(uint64_t seed, int n, int loops)
{
    const int size = 2 * n + 1;
    Grid2D g;
    g.width = g.height = size;
    g.cellSize = 1.0f;
    g.blocked.assign(size_t(size) * size, 1);
    g.areas.assign(size_t(size) * size, 0);
    Rng rng = rngFromSeed(seed, 47);
    auto open = [&](int x, int z) { g.blocked[size_t(z) * size + x] = 0; };
    std::vector<uint8_t> seen(size_t(n) * n, 0);
    std::vector<std::pair<int, int>> stack{{0, 0}};
    seen[0] = 1;
    open(1, 1);
    while (!stack.empty())
    {
        const auto [x, z] = stack.back();
        std::vector<std::pair<int, int>> next;
        for (const auto& [dx, dz] : {std::pair{1, 0}, std::pair{-1, 0}, std::pair{0, 1}, std::pair{0, -1}})
            if (x + dx >= 0 && x + dx < n && z + dz >= 0 && z + dz < n && !seen[size_t(z + dz) * n + x + dx])
                next.push_back({x + dx, z + dz});
        if (next.empty())
        {
            stack.pop_back();
            continue;
        }
        const auto [nx, nz] = next[rngNextBelow(rng, uint32_t(next.size()))];
        seen[size_t(nz) * n + nx] = 1;
        open(2 * x + 1 + (nx - x), 2 * z + 1 + (nz - z));
        open(2 * nx + 1, 2 * nz + 1);
        stack.push_back({nx, nz});
    }
    for (int i = 0; i < loops; ++i)
    {
        // A wall cell between two corridor cells, opened.
        const int x = 1 + int(rngNextBelow(rng, uint32_t(size - 2))),
                  z = 1 + int(rngNextBelow(rng, uint32_t(size - 2)));
        if ((x % 2) != (z % 2))
            open(x, z);
    }
    return g;
}

} // namespace exact_test

TEST_CASE("in mazes (deep dead ends, some cycles), paths are shortest both ways")
{
    QueryScratch scratch;
    int cases = 0;
    for (uint64_t seed = 1; seed <= 24; ++seed)
    {
        Grid2D grid = mazeGrid(seed, 14 + int(seed % 3) * 2, int(seed % 4) * 4);
        removePinches(grid);
        const NavMesh mesh = bake(grid, 0.0f);
        Oracle oracle{grid.width, grid.height, grid.blocked};
        Rng rng = rngFromSeed(seed, 53);
        for (int q = 0; q < 8; ++q)
        {
            const Pt a = degeneratePoint(grid, rng), b = degeneratePoint(grid, rng);
            const double best = oracle.shortest(a, b);
            REQUIRE(best >= 0.0); // one piece
            cases += 2;
            checkBothWays(mesh, oracle, a, b, best, scratch,
                          "seed " + std::to_string(seed) + " query " + std::to_string(q));
        }
    }
    CHECK(cases == 24 * 8 * 2);
}
