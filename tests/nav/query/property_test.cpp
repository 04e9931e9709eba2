// Property tests of the queries over many seeded random maps baked with
// bakeGrid2D (and over the MovingAI benchmark maps).

#include "spark/nav/bake2d.h"
#include "spark/nav/query.h"
#include "test_maps.h"

#include <doctest/doctest.h>
#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <queue>
#include <sstream>
#include <string>

using namespace spark;
using namespace spark::nav;
using namespace spark::nav::test;

namespace
{

constexpr float kOnMeshTol = 1.0e-3f;

} // namespace

TEST_CASE("paths on random baked maps stay on the mesh, never cross a wall and beat the octile grid path")
{
    const glm::vec3 ext{0.25f, 1.0f, 0.25f};
    QueryScratch scratch;
    PathResult path;
    double sumNav = 0.0, sumGrid = 0.0;
    int compared = 0, paths = 0, segments = 0, over = 0;
    double worst = 0.0;
    for (uint64_t seed = 1; seed <= 40; ++seed)
    {
        const int w = 32 + int(seed % 5) * 8, h = 30 + int(seed % 3) * 10;
        const Grid2D grid = randomGrid(seed, w, h, w * h / 40, 4);
        const float radius = (seed % 4 == 0) ? 0.6f : 0.0f;
        const NavMesh mesh = bake(grid, radius);
        const std::vector<uint8_t> walk = erodeGrid2D(grid, radius);
        Rng rng = rngFromSeed(seed, 5);
        for (int q = 0; q < 30; ++q)
        {
            // Random walkable cell centres (the grid A* and the mesh agree on them).
            int sx, sy, gx, gy;
            do
            {
                sx = int(rngNextBelow(rng, w));
                sy = int(rngNextBelow(rng, h));
            } while (!walk[size_t(sy) * w + sx]);
            do
            {
                gx = int(rngNextBelow(rng, w));
                gy = int(rngNextBelow(rng, h));
            } while (!walk[size_t(gy) * w + gx]);
            const glm::vec3 a(sx + 0.5f, 0.0f, sy + 0.5f), b(gx + 0.5f, 0.0f, gy + 0.5f);
            REQUIRE(findPath(mesh, scratch, a, b, defaultQueryFilter(), ext, path).ok());
            ++paths;
            const double octile = gridAStar(walk, w, h, sx, sy, gx, gy);
            CHECK_MESSAGE(path.complete == (octile >= 0.0), "seed " << seed << " query " << q << " radius " << radius);
            // Every point on the mesh.
            for (const glm::vec3& p : path.points)
            {
                auto n = findNearest(mesh, p, ext);
                REQUIRE(n.ok());
                CHECK(n->distance <= kOnMeshTol);
            }
            // No segment crosses a wall.
            for (size_t i = 1; i < path.points.size(); ++i)
            {
                auto r = raycast(mesh, scratch, path.points[i - 1], path.points[i], defaultQueryFilter(), ext);
                REQUIRE(r.ok());
                CHECK_MESSAGE(!r->hit, "seed " << seed << " query " << q << " segment " << i);
                ++segments;
            }
            if (path.complete)
            {
                CHECK(path.length >= dist2d(a, b) - 1.0e-3f);
                sumNav += path.length;
                sumGrid += octile;
                ++compared;
                worst = std::max(worst, double(path.length) / octile);
                over += path.length > octile * (1.0 + 1.0e-5) ? 1 : 0;
            }
        }
    }
    const double meanNav = sumNav / compared, meanGrid = sumGrid / compared;
    std::printf("random maps: %d paths, %d segments raycast; mean navmesh length %.4f vs mean 8-connected grid A* %.4f "
                "over %d complete pairs; worst ratio to the grid path %.6f, %d above it\n",
                paths, segments, meanNav, meanGrid, compared, worst, over);
    CHECK(compared > 500);
    CHECK(meanNav < meanGrid);
    // Uniform costs: the any-angle search is exact, never above the grid path.
    CHECK(over == 0);
}

TEST_CASE("a straight path in the open is one segment, across every T-junction")
{
    // Obstacle-free maps whose area rectangles cut the cover into many rectangles.
    const glm::vec3 ext{0.25f, 1.0f, 0.25f};
    QueryScratch scratch;
    PathResult path;
    for (uint64_t seed = 100; seed < 110; ++seed)
    {
        const Grid2D grid = randomGrid(seed, 40, 30, 0, 12);
        const NavMesh mesh = bake(grid, 0.0f);
        CHECK(mesh.polygonCount() > 5);
        Rng rng = rngFromSeed(seed);
        for (int q = 0; q < 50; ++q)
        {
            const glm::vec3 a(float(rngNextRange(rng, 0.0, 40.0)), 0.0f, float(rngNextRange(rng, 0.0, 30.0)));
            const glm::vec3 b(float(rngNextRange(rng, 0.0, 40.0)), 0.0f, float(rngNextRange(rng, 0.0, 30.0)));
            REQUIRE(findPath(mesh, scratch, a, b, defaultQueryFilter(), ext, path).ok());
            CHECK(path.complete);
            CHECK(path.points.size() == 2);
            CHECK(path.length == doctest::Approx(dist2d(a, b)).epsilon(1e-5));
            auto r = raycast(mesh, scratch, a, b, defaultQueryFilter(), ext);
            REQUIRE(r.ok());
            CHECK_FALSE(r->hit);
        }
    }
}

TEST_CASE("excluded areas are never entered and costly areas are entered less")
{
    const glm::vec3 ext{0.25f, 1.0f, 0.25f};
    QueryScratch scratch;
    PathResult path;
    int checked = 0;
    for (uint64_t seed = 200; seed < 215; ++seed)
    {
        const Grid2D grid = randomGrid(seed, 40, 40, 30, 10);
        const NavMesh mesh = bake(grid, 0.0f);
        QueryFilter filter = defaultQueryFilter();
        filter.excludedAreas = 1u << 2;
        Rng rng = rngFromSeed(seed);
        for (int q = 0; q < 40; ++q)
        {
            auto a = randomPoint(mesh, rng);
            auto b = randomPoint(mesh, rng);
            REQUIRE(a.ok());
            REQUIRE(b.ok());
            if (mesh.area(a->polygon) == 2)
                continue; // starting inside an excluded area is allowed; skip it here
            REQUIRE(findPath(mesh, scratch, a->point, b->point, filter, ext, path).ok());
            for (uint32_t p : path.polygons)
                CHECK(mesh.area(p) != 2);
            if (mesh.area(b->polygon) == 2)
                CHECK_FALSE(path.complete);
            ++checked;
        }
    }
    CHECK(checked > 300);
}

namespace
{

/// A simple walk: Dijkstra over the middles of the portals (a node per
/// link, plus the goal), each leg at the multiplier of the polygon it lies in
/// (Detour's way). Returns the corridor from the start's polygon to the
/// goal's (empty when unreachable).
std::vector<uint32_t> midpointCorridor(const NavMesh& mesh, const MeshPoint& a, const MeshPoint& b,
                                       const QueryFilter& filter)
{
    const uint32_t goal = mesh.linkCount(); // nodes: the link ids, then the goal
    std::vector<double> g(size_t(goal) + 1, 1e300);
    std::vector<uint32_t> parent(size_t(goal) + 1, kNoPolygon);
    using Item = std::pair<double, uint32_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
    auto leave = [&](uint32_t poly, const glm::vec3& at, double cost, uint32_t from) {
        const double mult = filter.areaCosts[mesh.area(poly)];
        if (poly == b.polygon && cost + glm::distance(at, b.point) * mult < g[goal])
        {
            g[goal] = cost + glm::distance(at, b.point) * mult;
            parent[goal] = from;
            open.push({g[goal], goal});
        }
        for (const NavLink& l : mesh.links(poly))
        {
            if ((filter.excludedAreas >> mesh.area(l.neighbour)) & 1u)
                continue;
            const uint32_t n = mesh.firstLink(poly) + static_cast<uint32_t>(&l - mesh.links(poly).data());
            const double next = cost + glm::distance(at, 0.5f * (l.a + l.b)) * mult;
            if (next < g[n])
            {
                g[n] = next;
                parent[n] = from;
                open.push({next, n});
            }
        }
    };
    leave(a.polygon, a.point, 0.0, kNoPolygon);
    while (!open.empty())
    {
        const auto [d, n] = open.top();
        open.pop();
        if (d > g[n])
            continue;
        if (n == goal)
            break;
        leave(mesh.link(n).neighbour, 0.5f * (mesh.link(n).a + mesh.link(n).b), d, n);
    }
    std::vector<uint32_t> corridor;
    if (g[goal] >= 1e299)
        return corridor;
    for (uint32_t n = parent[goal]; n != kNoPolygon; n = parent[n])
        corridor.push_back(mesh.link(n).neighbour);
    corridor.push_back(a.polygon);
    std::reverse(corridor.begin(), corridor.end());
    return corridor;
}

} // namespace

TEST_CASE("with area costs the path costs no more than a simple walk's, and its cost is its true cost")
{
    const glm::vec3 ext{0.25f, 1.0f, 0.25f};
    QueryScratch scratch;
    PathResult path, walk;
    int compared = 0, cheaper = 0;
    double worst = 0.0;
    for (uint64_t seed = 300; seed < 340; ++seed)
    {
        const Grid2D grid = randomGrid(seed, 40, 30, 20, 10);
        const NavMesh mesh = bake(grid, 0.0f);
        QueryFilter filter = defaultQueryFilter();
        filter.areaCosts[1] = 2.5f;
        filter.areaCosts[2] = 6.0f;
        filter.areaCosts[3] = 1.5f;
        Rng rng = rngFromSeed(seed, 3);
        for (int q = 0; q < 25; ++q)
        {
            auto a = randomPoint(mesh, rng);
            auto b = randomPoint(mesh, rng);
            REQUIRE(a.ok());
            REQUIRE(b.ok());
            REQUIRE(findPath(mesh, scratch, a->point, b->point, filter, ext, path).ok());
            const std::vector<uint32_t> corridor = midpointCorridor(mesh, *a, *b, filter);
            CHECK(path.complete == !corridor.empty());
            if (corridor.empty())
                continue;
            REQUIRE(pathAlongCorridor(mesh, scratch, a->point, b->point, corridor, filter, walk).ok());
            ++compared;
            cheaper += path.cost < walk.cost - 1e-3f ? 1 : 0;
            worst = std::max(worst, double(path.cost) / std::max(1e-6, double(walk.cost)));
            CHECK_MESSAGE(path.cost <= walk.cost * (1.0f + 1.0e-5f) + 1.0e-4f,
                          "seed " << seed << " query " << q << ": " << path.cost << " vs walk " << walk.cost);
            // The corridor is a real one, and the string pulled along it (the
            // shortest path in it) costs no less: the weighted path bends at
            // area borders where that costs less (weighted_oracle_test.cpp
            // re-costs the points themselves on the grid).
            PathResult again;
            REQUIRE(pathAlongCorridor(mesh, scratch, a->point, b->point, path.polygons, filter, again).ok());
            CHECK(again.cost >= path.cost * (1.0f - 1.0e-5f));
            CHECK(path.cost >= path.length * 1.0f - 1e-3f);
        }
    }
    std::printf("area costs: %d paths against a midpoint Dijkstra walk, %d cheaper, worst cost ratio %.5f\n", compared,
                cheaper, worst);
    CHECK(compared > 800);
}

TEST_CASE("pathAlongCorridor refuses a broken corridor")
{
    const NavMesh mesh = bake(randomGrid(5, 20, 20, 10, 0), 0.0f);
    QueryScratch scratch;
    PathResult out;
    const std::vector<uint32_t> none;
    Status st = pathAlongCorridor(mesh, scratch, {1, 0, 1}, {2, 0, 2}, none, defaultQueryFilter(), out);
    CHECK(st.error().code == "E_INVALID_PARAMS");
    const std::vector<uint32_t> past{0, mesh.polygonCount()};
    st = pathAlongCorridor(mesh, scratch, {1, 0, 1}, {2, 0, 2}, past, defaultQueryFilter(), out);
    CHECK(st.error().field == "/corridor/1");
    // Two polygons that are not neighbours.
    uint32_t far = 1;
    while (far < mesh.polygonCount())
    {
        bool linked = false;
        for (const NavLink& l : mesh.links(0))
            linked = linked || l.neighbour == far;
        if (!linked)
            break;
        ++far;
    }
    REQUIRE(far < mesh.polygonCount());
    const std::vector<uint32_t> gap{0, far};
    st = pathAlongCorridor(mesh, scratch, {1, 0, 1}, {2, 0, 2}, gap, defaultQueryFilter(), out);
    CHECK(st.error().field == "/corridor/1");
}

TEST_CASE("random points on a baked map are uniform by area")
{
    const Grid2D grid = randomGrid(77, 40, 40, 40, 6);
    const NavMesh mesh = bake(grid, 0.0f);
    const uint32_t polys = mesh.polygonCount();
    const int n = 200000;
    std::vector<int> counts(polys, 0);
    Rng rng = rngFromSeed(9);
    for (int i = 0; i < n; ++i)
    {
        auto p = randomPoint(mesh, rng);
        REQUIRE(p.ok());
        ++counts[p->polygon];
        CHECK(mesh.containsXZ(p->polygon, p->point.x, p->point.z, 1e-4f));
    }
    double chi2 = 0.0;
    for (uint32_t p = 0; p < polys; ++p)
    {
        const double e = n * mesh.polygonArea(p) / mesh.totalArea();
        chi2 += (counts[p] - e) * (counts[p] - e) / e;
    }
    const double df = polys - 1.0;
    // Wilson–Hilferty: the 99.9 % quantile of chi-square(df) is about df (1 − 2/(9df) + 3.09 √(2/(9df)))³.
    const double k = 2.0 / (9.0 * df);
    const double q999 = df * std::pow(1.0 - k + 3.09 * std::sqrt(k), 3.0);
    std::printf("random points on a baked map: chi-square %.1f over %u polygons (99.9%% quantile %.1f)\n", chi2, polys,
                q999);
    CHECK(chi2 < q999);
}

TEST_CASE("the same input bakes to the same hash")
{
    for (uint64_t seed = 300; seed < 310; ++seed)
    {
        const Grid2D grid = randomGrid(seed, 50, 40, 60, 5);
        const uint64_t h1 = hashNavMesh(bake(grid, 0.0f));
        const uint64_t h2 = hashNavMesh(bake(grid, 0.0f));
        CHECK(h1 == h2);
        CHECK(hashNavMesh(bake(grid, 0.6f)) != h1);
        auto back = deserializeNavMesh(serializeNavMesh(bake(grid, 0.0f)));
        REQUIRE(back.ok());
        CHECK(hashNavMesh(*back) == h1);
    }
}

namespace
{

struct MovingAIMap
{
    int width = 0, height = 0;
    std::vector<uint8_t> blocked;
};

bool readMap(const std::string& path, MovingAIMap& out)
{
    std::ifstream f(path);
    if (!f)
        return false;
    std::string word;
    f >> word; // type
    f >> word; // octile
    f >> word >> out.height >> word >> out.width >> word; // height H width W map
    out.blocked.assign(size_t(out.width) * out.height, 1);
    for (int y = 0; y < out.height; ++y)
    {
        std::string row;
        f >> row;
        if (int(row.size()) != out.width)
            return false;
        for (int x = 0; x < out.width; ++x)
        {
            const char c = row[x];
            out.blocked[size_t(y) * out.width + x] = (c == '.' || c == 'G' || c == 'S') ? 0 : 1;
        }
    }
    return true;
}

void runMovingAI(const std::string& name)
{
    // The MovingAI maps may not be redistributed, so they are not in the
    // repository: SPARK_DATA_DIR names a folder holding movingai/ (data/README.md).
    const char* root = std::getenv("SPARK_DATA_DIR");
    if (root == nullptr || *root == '\0')
    {
        MESSAGE("skipped: " << name << " needs the MovingAI maps, which are not in the repository: set "
                               "SPARK_DATA_DIR to a folder holding movingai/" << name << " (data/README.md)");
        return;
    }
    const std::string base = std::string(root) + "/movingai/" + name;
    MovingAIMap map;
    if (!std::ifstream(base))
    {
        MESSAGE("skipped: " << base << " not found (SPARK_DATA_DIR holds no movingai/" << name << "; data/README.md)");
        return;
    }
    REQUIRE(readMap(base, map));
    Grid2D grid;
    grid.width = map.width;
    grid.height = map.height;
    grid.cellSize = 1.0f;
    grid.blocked = map.blocked;
    const NavMesh mesh = bake(grid, 0.0f);
    std::ifstream scen(base + ".scen");
    REQUIRE(scen.good());
    std::string line;
    std::getline(scen, line); // version 1
    QueryScratch scratch;
    PathResult path;
    const glm::vec3 ext{0.25f, 1.0f, 0.25f};
    int problems = 0;
    double sumRatio = 0.0, worst = 0.0;
    while (std::getline(scen, line))
    {
        if (line.empty())
            continue;
        std::istringstream in(line);
        int bucket, w, h, sx, sy, gx, gy;
        std::string mapName, optimalText;
        in >> bucket >> mapName >> w >> h >> sx >> sy >> gx >> gy >> optimalText;
        REQUIRE(!in.fail());
        // The file rounds the octile length (to 2 decimals on some lines):
        // allow half a unit of its last printed digit, plus float error.
        const double optimal = std::stod(optimalText);
        const size_t dot = optimalText.find('.');
        const int decimals = dot == std::string::npos ? 0 : int(optimalText.size() - dot - 1);
        const double rounding = 0.5 * std::pow(10.0, -decimals) + 1.0e-5 * optimal;
        const glm::vec3 a(sx + 0.5f, 0.0f, sy + 0.5f), b(gx + 0.5f, 0.0f, gy + 0.5f);
        REQUIRE(findPath(mesh, scratch, a, b, defaultQueryFilter(), ext, path).ok());
        ++problems;
        CHECK_MESSAGE(path.complete, name << ": " << line);
        CHECK(path.length >= dist2d(a, b) - 1.0e-3f);
        // The any-angle path is never longer than the 8-connected grid path.
        CHECK_MESSAGE(path.length <= optimal + rounding, name << ": " << line << " length " << path.length);
        if (optimal > 0.0)
        {
            const double ratio = path.length / optimal;
            sumRatio += ratio;
            worst = std::max(worst, ratio);
        }
    }
    std::printf("MovingAI %s: %u polygons, %d problems, mean length / octile optimum %.4f, worst %.6f\n",
                name.c_str(), mesh.polygonCount(), problems, sumRatio / problems, worst);
    CHECK(problems > 100);
}

} // namespace

TEST_CASE("every MovingAI problem of den009d finds a complete path no longer than the octile optimum")
{
    runMovingAI("den009d.map");
}

TEST_CASE("every MovingAI problem of AR0418SR finds a complete path no longer than the octile optimum")
{
    runMovingAI("AR0418SR.map");
}
