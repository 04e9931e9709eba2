// Property tests of the queries over many seeded random maps baked with
// bakeGrid2D (and over the MovingAI benchmark maps).

#include "spark/nav/bake2d.h"
#include "spark/nav/query.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <queue>
#include <sstream>
#include <string>

using namespace spark;
using namespace spark::nav;

namespace
{

constexpr float kOnMeshTol = 1.0e-3f;

/// A random map: scattered rectangular obstacles on a W × H grid, optional area rectangles.
Grid2D randomGrid(uint64_t seed, int w, int h, int obstacles, int areaRects)
{
    Rng rng = rngFromSeed(seed, 11);
    Grid2D g;
    g.width = w;
    g.height = h;
    g.cellSize = 1.0f;
    g.blocked.assign(size_t(w) * h, 0);
    g.areas.assign(size_t(w) * h, 0);
    for (int i = 0; i < obstacles; ++i)
    {
        const int x = int(rngNextBelow(rng, w)), y = int(rngNextBelow(rng, h));
        const int rw = 1 + int(rngNextBelow(rng, 6)), rh = 1 + int(rngNextBelow(rng, 6));
        for (int yy = y; yy < std::min(h, y + rh); ++yy)
            for (int xx = x; xx < std::min(w, x + rw); ++xx)
                g.blocked[size_t(yy) * w + xx] = 1;
    }
    for (int i = 0; i < areaRects; ++i)
    {
        const int x = int(rngNextBelow(rng, w)), y = int(rngNextBelow(rng, h));
        const int rw = 2 + int(rngNextBelow(rng, 10)), rh = 2 + int(rngNextBelow(rng, 10));
        const uint8_t a = static_cast<uint8_t>(1 + rngNextBelow(rng, 3));
        for (int yy = y; yy < std::min(h, y + rh); ++yy)
            for (int xx = x; xx < std::min(w, x + rw); ++xx)
                g.areas[size_t(yy) * w + xx] = a;
    }
    return g;
}

NavMesh bake(const Grid2D& g, float radius)
{
    auto soup = bakeGrid2D(g, radius);
    REQUIRE(soup.ok());
    NavMeshDef def = defaultNavMeshDef();
    def.is2d = true;
    def.settings.agentRadius = radius;
    def.settings.cellSize = g.cellSize;
    def.maxPolyVerts = kMaxBakedPolyVerts;
    auto mesh = buildNavMesh(*soup, def);
    REQUIRE(mesh.ok());
    return std::move(mesh).value();
}

float dist2d(const glm::vec3& a, const glm::vec3& b)
{
    return std::sqrt((a.x - b.x) * (a.x - b.x) + (a.z - b.z) * (a.z - b.z));
}

/// Octile 8-connected A* on the walkable cells (no corner cutting), cell centres.
/// Returns −1 when unreachable.
double gridAStar(const std::vector<uint8_t>& walk, int w, int h, int sx, int sy, int gx, int gy)
{
    const double kDiag = std::sqrt(2.0);
    std::vector<double> g(walk.size(), 1e300);
    std::vector<uint8_t> closed(walk.size(), 0);
    using Item = std::pair<double, int>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
    auto hfun = [&](int x, int y) {
        const int dx = std::abs(x - gx), dy = std::abs(y - gy);
        return (kDiag - 1.0) * std::min(dx, dy) + std::max(dx, dy);
    };
    const int s = sy * w + sx, goal = gy * w + gx;
    g[s] = 0.0;
    open.push({hfun(sx, sy), s});
    auto free = [&](int x, int y) { return x >= 0 && y >= 0 && x < w && y < h && walk[size_t(y) * w + x]; };
    while (!open.empty())
    {
        const int cur = open.top().second;
        open.pop();
        if (closed[cur])
            continue;
        closed[cur] = 1;
        if (cur == goal)
            return g[cur];
        const int cx = cur % w, cy = cur / w;
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx)
            {
                if ((dx == 0 && dy == 0) || !free(cx + dx, cy + dy))
                    continue;
                if (dx != 0 && dy != 0 && (!free(cx + dx, cy) || !free(cx, cy + dy)))
                    continue;
                const int nb = (cy + dy) * w + cx + dx;
                const double ng = g[cur] + ((dx != 0 && dy != 0) ? kDiag : 1.0);
                if (ng < g[nb])
                {
                    g[nb] = ng;
                    open.push({ng + hfun(cx + dx, cy + dy), nb});
                }
            }
    }
    return -1.0;
}

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
            CHECK(path.complete == (octile >= 0.0));
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
                over += path.length > octile * 1.05 + 1.0e-3 ? 1 : 0;
            }
        }
    }
    const double meanNav = sumNav / compared, meanGrid = sumGrid / compared;
    std::printf("random maps: %d paths, %d segments raycast; mean navmesh length %.4f vs mean 8-connected grid A* %.4f "
                "over %d complete pairs; worst ratio to the grid path %.4f, %d above 1.05\n",
                paths, segments, meanNav, meanGrid, compared, worst, over);
    CHECK(compared > 500);
    CHECK(meanNav < meanGrid);
    // The corridor search is heuristic (funnel-aware A*, not an exact any-angle
    // search): a few pairs may come out longer than the octile path, rarely.
    CHECK(over <= compared / 100);
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
    const std::string base = "../shared/data/movingai/" + name;
    MovingAIMap map;
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
    int problems = 0, atOrUnder = 0;
    double sumRatio = 0.0, worst = 0.0;
    while (std::getline(scen, line))
    {
        if (line.empty())
            continue;
        std::istringstream in(line);
        int bucket, w, h, sx, sy, gx, gy;
        std::string mapName;
        double optimal;
        in >> bucket >> mapName >> w >> h >> sx >> sy >> gx >> gy >> optimal;
        REQUIRE(!in.fail());
        const glm::vec3 a(sx + 0.5f, 0.0f, sy + 0.5f), b(gx + 0.5f, 0.0f, gy + 0.5f);
        REQUIRE(findPath(mesh, scratch, a, b, defaultQueryFilter(), ext, path).ok());
        ++problems;
        CHECK_MESSAGE(path.complete, name << ": " << line);
        CHECK(path.length >= dist2d(a, b) - 1.0e-3f);
        if (optimal > 0.0)
        {
            const double ratio = path.length / optimal;
            sumRatio += ratio;
            worst = std::max(worst, ratio);
            atOrUnder += ratio <= 1.0 + 1.0e-5 ? 1 : 0;
            CHECK_MESSAGE(ratio <= 1.05, name << ": " << line << " ratio " << ratio);
        }
        else
        {
            ++atOrUnder;
        }
    }
    std::printf("MovingAI %s: %u polygons, %d problems, mean length / octile optimum %.4f, worst %.4f, "
                "%.2f%% at or under the optimum\n",
                name.c_str(), mesh.polygonCount(), problems, sumRatio / problems, worst, 100.0 * atOrUnder / problems);
    CHECK(problems > 100);
    CHECK(atOrUnder >= 0.99 * problems);
}

} // namespace

TEST_CASE("every MovingAI problem of den009d finds a complete path at or under the octile optimum")
{
    runMovingAI("den009d.map");
}

TEST_CASE("every MovingAI problem of AR0418SR finds a complete path at or under the octile optimum")
{
    runMovingAI("AR0418SR.map");
}
