// Paths with area costs against two independent oracles (issue 34, items 4–5).
//
// The maps are random tile grids (cell 1 m, radius-0 bakes, pinches removed),
// so the free space and each point's multiplier are known from the grid
// itself: a segment's cost is integrated cell by cell (`gridSegmentCost`),
// with no use of the mesh. Two oracles, both Dijkstra over segments costed so:
//  - the best vertex path: nodes are the mesh's vertices, the start and the
//    goal; Spark's cost must never exceed it (its first stage is exactly this
//    search; the refinement only lowers the cost).
//  - the fine graph: nodes are the lattice corners where the free space or
//    the area changes, plus points every 1/k m along every area border, plus
//    start and goal; any two joined by a straight segment. Every graph path is
//    a real path, costed exactly, so the oracle is an upper bound of the
//    continuous optimum. Its excess comes only from where it crosses borders
//    (straight lines in one area are exact): moving a crossing of the optimum
//    by δ ≤ 1/(2k) along the border costs O(c δ²/ℓ) (the optimum is
//    stationary there, Snell's law), so the excess is second order in 1/k;
//    the test measures it by comparing k = 4 with k = 8 (printed).
// Spark's path is re-costed on the grid (it must be a real path at its
// reported cost) and must be within 0.5 % of the fine oracle.

#include "spark/nav/query.h"
#include "test_maps.h"
#include "visibility_oracle.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <limits>
#include <queue>
#include <vector>

namespace spark::nav::test
{
namespace
{

constexpr double kInf = std::numeric_limits<double>::infinity();

struct CostGrid
{
    const Grid2D& grid;
    const QueryFilter& filter;

    /// Multiplier of cell (x, z), infinity for a blocked cell or one off the grid.
    double cell(int x, int z) const
    {
        if (x < 0 || z < 0 || x >= grid.width || z >= grid.height || grid.blocked[size_t(z) * grid.width + x])
            return kInf;
        return filter.areaCosts[grid.areas[size_t(z) * grid.width + x]];
    }

    /// Σ multiplier × length over the cells segment p → q crosses (x–z); on a
    /// cell line, the cheaper side. Infinity when it crosses a blocked cell.
    double segment(double px, double pz, double qx, double qz) const
    {
        std::vector<double> ts{0.0, 1.0};
        const double dx = qx - px, dz = qz - pz;
        auto cuts = [&](double p, double d) {
            if (d == 0.0)
                return;
            const double lo = std::min(p, p + d), hi = std::max(p, p + d);
            for (double v = std::ceil(lo); v <= hi; v += 1.0)
            {
                const double t = (v - p) / d;
                if (t > 0.0 && t < 1.0)
                    ts.push_back(t);
            }
        };
        cuts(px, dx);
        cuts(pz, dz);
        std::sort(ts.begin(), ts.end());
        const double length = std::sqrt(dx * dx + dz * dz);
        double cost = 0.0;
        for (size_t i = 0; i + 1 < ts.size(); ++i)
        {
            const double t = 0.5 * (ts[i] + ts[i + 1]);
            const double mx = px + dx * t, mz = pz + dz * t;
            const double fx = std::floor(mx), fz = std::floor(mz);
            const bool onX = std::abs(mx - std::round(mx)) < 1e-9, onZ = std::abs(mz - std::round(mz)) < 1e-9;
            double c;
            if (onX && onZ)
                c = std::min({cell(int(std::round(mx)) - 1, int(std::round(mz)) - 1),
                              cell(int(std::round(mx)), int(std::round(mz)) - 1),
                              cell(int(std::round(mx)) - 1, int(std::round(mz))),
                              cell(int(std::round(mx)), int(std::round(mz)))});
            else if (onX)
                c = std::min(cell(int(std::round(mx)) - 1, int(fz)), cell(int(std::round(mx)), int(fz)));
            else if (onZ)
                c = std::min(cell(int(fx), int(std::round(mz)) - 1), cell(int(fx), int(std::round(mz))));
            else
                c = cell(int(fx), int(fz));
            if (c == kInf)
            {
                if ((ts[i + 1] - ts[i]) * length > 1e-6)
                    return kInf;
                continue;
            }
            cost += c * (ts[i + 1] - ts[i]) * length;
        }
        return cost;
    }

    /// Dijkstra over `nodes` (x, z) with every pair joined by a segment; node 0
    /// is the start, node 1 the goal.
    double dijkstra(const std::vector<std::pair<double, double>>& nodes, std::vector<size_t>* route = nullptr) const
    {
        const size_t n = nodes.size();
        std::vector<double> dist(n, kInf);
        std::vector<uint8_t> done(n, 0);
        std::vector<size_t> from(n, 0);
        using Item = std::pair<double, size_t>;
        std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
        dist[0] = 0.0;
        open.push({0.0, 0});
        while (!open.empty())
        {
            const auto [d, u] = open.top();
            open.pop();
            if (done[u])
                continue;
            done[u] = 1;
            if (u == 1)
            {
                if (route)
                    for (size_t x = 1; x != 0; x = from[x])
                        route->push_back(x);
                return d;
            }
            for (size_t v = 0; v < n; ++v)
            {
                if (done[v])
                    continue;
                const double c = segment(nodes[u].first, nodes[u].second, nodes[v].first, nodes[v].second);
                if (d + c < dist[v])
                {
                    dist[v] = d + c;
                    from[v] = u;
                    open.push({dist[v], v});
                }
            }
        }
        return kInf;
    }

    /// The fine graph's nodes (see the file comment), start and goal first.
    std::vector<std::pair<double, double>> fineNodes(const glm::vec3& a, const glm::vec3& b, int k) const
    {
        std::vector<std::pair<double, double>> nodes{{a.x, a.z}, {b.x, b.z}};
        for (int z = 0; z <= grid.height; ++z)
            for (int x = 0; x <= grid.width; ++x)
            {
                const double c[4] = {cell(x - 1, z - 1), cell(x, z - 1), cell(x - 1, z), cell(x, z)};
                if (c[0] == kInf && c[1] == kInf && c[2] == kInf && c[3] == kInf)
                    continue;
                if (!(c[0] == c[1] && c[1] == c[2] && c[2] == c[3]))
                    nodes.emplace_back(x, z);
            }
        // Unit edges between two free cells of different cost, split into k.
        for (int z = 0; z < grid.height; ++z)
            for (int x = 0; x < grid.width; ++x)
            {
                const double here = cell(x, z);
                if (here == kInf)
                    continue;
                const double right = cell(x + 1, z), up = cell(x, z + 1);
                for (int i = 1; i < k; ++i)
                {
                    if (right != kInf && right != here)
                        nodes.emplace_back(x + 1, z + double(i) / k);
                    if (up != kInf && up != here)
                        nodes.emplace_back(x + double(i) / k, z + 1);
                }
            }
        return nodes;
    }
};

/// A random map with obstacles and area rectangles, pinches removed.
Grid2D weightedGrid(uint64_t seed, int w, int h)
{
    Grid2D g = randomGrid(seed, w, h, 4, 5);
    removePinches(g);
    return g;
}

} // namespace

TEST_CASE("with area costs the path is a real path, never dearer than the best vertex path, within 0.5 % of a fine "
          "graph")
{
    const glm::vec3 ext{0.25f, 1.0f, 0.25f};
    QueryScratch scratch;
    PathResult path;
    int compared = 0, refined = 0;
    double worstFine = 0.0, worstVertex = 0.0, worstOracleStep = 0.0;
    for (uint64_t seed = 1; seed <= 12; ++seed)
    {
        const Grid2D grid = weightedGrid(seed, 16, 12);
        const NavMesh mesh = bake(grid, 0.0f);
        QueryFilter filter = defaultQueryFilter();
        Rng costs = rngFromSeed(seed, 17);
        for (int a = 1; a <= 3; ++a)
            filter.areaCosts[a] = 0.5f + 9.5f * float(rngNextBelow(costs, 1000)) / 1000.0f;
        const CostGrid cg{grid, filter};
        std::vector<std::pair<double, double>> vertexNodes{{0, 0}, {0, 0}};
        for (const glm::vec3& v : mesh.vertices())
            vertexNodes.emplace_back(v.x, v.z);
        Rng rng = rngFromSeed(seed, 5);
        for (int q = 0; q < 3; ++q)
        {
            auto a = randomPoint(mesh, rng);
            auto b = randomPoint(mesh, rng);
            REQUIRE(a.ok());
            REQUIRE(b.ok());
            for (int dir = 0; dir < 2; ++dir) // forward and reverse
            {
                const glm::vec3 from = dir == 0 ? a->point : b->point, to = dir == 0 ? b->point : a->point;
                REQUIRE(findPath(mesh, scratch, from, to, filter, ext, path).ok());
                if (mesh.component(a->polygon) != mesh.component(b->polygon))
                {
                    CHECK_FALSE(path.complete);
                    continue;
                }
                REQUIRE(path.complete);
                // A real path at its reported cost.
                double regrid = 0.0;
                for (size_t i = 1; i < path.points.size(); ++i)
                    regrid += cg.segment(path.points[i - 1].x, path.points[i - 1].z, path.points[i].x,
                                         path.points[i].z);
                if (!(regrid < kInf))
                    for (size_t i = 0; i < path.points.size(); ++i)
                        std::printf("  point %g %g\n", path.points[i].x, path.points[i].z);
                REQUIRE_MESSAGE(regrid < kInf, "seed " << seed << " query " << q << ": the path leaves the map");
                CHECK(regrid == doctest::Approx(path.cost).epsilon(1e-4));
                // Never dearer than the best vertex path.
                vertexNodes[0] = {from.x, from.z};
                vertexNodes[1] = {to.x, to.z};
                const double vertex = cg.dijkstra(vertexNodes);
                CHECK_MESSAGE(path.cost <= vertex * (1.0 + 1e-5) + 1e-5,
                              "seed " << seed << " query " << q << " dir " << dir << ": " << path.cost
                                      << " vs vertex path " << vertex);
                worstVertex = std::max(worstVertex, path.cost / vertex);
                refined += path.cost < vertex * (1.0 - 1e-4) ? 1 : 0;
                // Within 0.5 % of the fine graph (an upper bound of the optimum).
                const double fine8 = cg.dijkstra(cg.fineNodes(from, to, 8));
                CHECK_MESSAGE(path.cost <= fine8 * 1.005,
                              "seed " << seed << " query " << q << " dir " << dir << ": " << path.cost
                                      << " vs fine graph " << fine8);
                worstFine = std::max(worstFine, path.cost / fine8);
                if (path.cost > fine8 * 1.005)
                {
                    const auto nodes = cg.fineNodes(from, to, 8);
                    std::vector<size_t> route;
                    cg.dijkstra(nodes, &route);
                    for (size_t i = 0; i < path.points.size(); ++i)
                        std::printf("  spark %g %g\n", path.points[i].x, path.points[i].z);
                    for (size_t i = route.size(); i-- > 0;)
                        std::printf("  fine %g %g\n", nodes[route[i]].first, nodes[route[i]].second);
                    for (int z = grid.height - 1; z >= 0; --z)
                    {
                        std::printf("  ");
                        for (int x = 0; x < grid.width; ++x)
                            std::printf("%c", grid.blocked[size_t(z) * grid.width + x] ? '#' : char('0' + grid.areas[size_t(z) * grid.width + x]));
                        std::printf("\n");
                    }
                    std::printf("  costs %g %g %g\n", filter.areaCosts[1], filter.areaCosts[2], filter.areaCosts[3]);
                }
                if (q == 0 && dir == 0)
                {
                    const double fine4 = cg.dijkstra(cg.fineNodes(from, to, 4));
                    worstOracleStep = std::max(worstOracleStep, fine4 / fine8 - 1.0);
                }
                ++compared;
            }
        }
    }
    std::printf("weighted paths: %d compared; worst cost / fine graph %.5f, / best vertex path %.5f; %d cheaper "
                "than the vertex path; fine graph k=4 vs k=8 differs by at most %.5f\n",
                compared, worstFine, worstVertex, refined, worstOracleStep);
    CHECK(compared >= 50);
}

TEST_CASE("weighted paths: a strip of mud is crossed where Snell's law says, and the same both ways")
{
    // A 12 × 8 open field with a mud strip x in [4, 8) at cost 3: from (1, 1)
    // to (11, 7) the cheapest path crosses the strip more steeply than the
    // straight line, refracting at x = 4 and x = 8.
    Grid2D g;
    g.width = 12;
    g.height = 8;
    g.blocked.assign(96, 0);
    g.areas.assign(96, 0);
    for (int z = 0; z < 8; ++z)
        for (int x = 4; x < 8; ++x)
            g.areas[size_t(z) * 12 + x] = 1;
    const NavMesh mesh = bake(g, 0.0f);
    QueryFilter filter = defaultQueryFilter();
    filter.areaCosts[1] = 3.0f;
    QueryScratch scratch;
    PathResult fwd, rev;
    const glm::vec3 ext{0.25f, 1.0f, 0.25f};
    REQUIRE(findPath(mesh, scratch, {1, 0, 1}, {11, 0, 7}, filter, ext, fwd).ok());
    REQUIRE(findPath(mesh, scratch, {11, 0, 7}, {1, 0, 1}, filter, ext, rev).ok());
    // By symmetry the path crosses at z = 4 − d and 4 + d; the cost
    // 2 √(9 + (3 − d)²) + 3 √(16 + 4 d²) is least at d ≈ 0.44294: 20.17457
    // (the straight line, d = 1.2, costs 20.99143).
    auto cost = [](double d) { return 2.0 * std::sqrt(9.0 + (3.0 - d) * (3.0 - d)) + 3.0 * std::sqrt(16.0 + 4 * d * d); };
    double lo = 0.0, hi = 3.0;
    for (int i = 0; i < 200; ++i)
    {
        const double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
            if (cost(m1) < cost(m2))
            hi = m2;
        else
            lo = m1;
    }
    const double best = cost(0.5 * (lo + hi));
    CHECK(best == doctest::Approx(20.17457).epsilon(1e-6));
    CHECK(fwd.cost == doctest::Approx(best).epsilon(1e-5));
    CHECK(rev.cost == doctest::Approx(best).epsilon(1e-5));
    REQUIRE(fwd.points.size() == 4);
    CHECK(fwd.points[1].x == doctest::Approx(4.0));
    CHECK(fwd.points[2].x == doctest::Approx(8.0));
    CHECK(fwd.points[1].z == doctest::Approx(4.0 - 0.5 * (lo + hi)).epsilon(1e-4));
    // The straight line costs more: it crosses at the shallow angle.
    CHECK(fwd.cost < cost(1.2) - 0.8);
    CHECK(fwd.complete);
    CHECK(fwd.polygons.front() == findNearest(mesh, {1, 0, 1}, ext)->polygon);
}

} // namespace spark::nav::test
