/// \file path_bench_weighted.cpp
/// Path queries with area costs (issue 34, item 4): Spark's findPath on 2D
/// bakes (radius 0, cell 1 m) of generated maps with obstacles and area
/// rectangles, multipliers drawn in 0.5..10, against a fine-graph Dijkstra.
///
/// Maps: `--sizes=32,128,256` (default), N × N cells: obstacle rectangles of
/// 1..6 cells until about 15 % of the cells are blocked, then N/2 area
/// rectangles of 2..N/6 cells with areas 1..3; pinches (two free cells meeting
/// only at a corner) blocked, as the mesh cannot pass them. Area 0 costs 1,
/// areas 1..3 a seeded draw in 0.5..10 per map. `--pairs=N` (default 200)
/// random pairs per map (randomPoint, seeded).
///
/// Printed per map: polygons, vertices, pairs, complete, coded errors
/// (E_NAV_LIMIT past the work budget), µs per query (thread CPU time, each
/// pair's median over `--rounds=R`, default 3, after one untimed pass):
/// median, 99th percentile, worst; and over the first `--oracle-pairs=M`
/// (default 40) complete pairs of maps no larger than `--oracle-size=S`
/// (default 32): Spark's cost / the fine-graph oracle's (tests/nav/query/
/// weighted_oracle.h: lattice corners where cost or freedom changes plus
/// points every 1/8 m on area borders, joined pairwise, costed on the grid;
/// an upper bound of the optimum), median and worst. The oracle is
/// O(nodes²) segments a query, so it runs on the small maps only.

#include "bench_stats.h"
#include "visibility_oracle.h"
#include "weighted_oracle.h"

#include "spark/core/rng.h"
#include "spark/nav/bake2d.h"
#include "spark/nav/query.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace spark;
using namespace spark::nav;

namespace
{

constexpr uint64_t kSeed = 34;

Grid2D weightedMap(int n, uint64_t seed)
{
    Rng rng = rngFromSeed(seed, 2);
    Grid2D g;
    g.width = g.height = n;
    g.cellSize = 1.0f;
    g.blocked.assign(size_t(n) * n, 0);
    g.areas.assign(size_t(n) * n, 0);
    size_t blocked = 0;
    while (blocked * 100 < size_t(n) * n * 15)
    {
        const int x = int(rngNextBelow(rng, n)), y = int(rngNextBelow(rng, n));
        const int w = 1 + int(rngNextBelow(rng, 6)), h = 1 + int(rngNextBelow(rng, 6));
        for (int yy = y; yy < std::min(n, y + h); ++yy)
            for (int xx = x; xx < std::min(n, x + w); ++xx)
                if (!g.blocked[size_t(yy) * n + xx])
                {
                    g.blocked[size_t(yy) * n + xx] = 1;
                    ++blocked;
                }
    }
    const int side = std::max(3, n / 6);
    for (int i = 0; i < n / 2; ++i)
    {
        const int x = int(rngNextBelow(rng, n)), y = int(rngNextBelow(rng, n));
        const int w = 2 + int(rngNextBelow(rng, side - 1)), h = 2 + int(rngNextBelow(rng, side - 1));
        const uint8_t a = static_cast<uint8_t>(1 + rngNextBelow(rng, 3));
        for (int yy = y; yy < std::min(n, y + h); ++yy)
            for (int xx = x; xx < std::min(n, x + w); ++xx)
                g.areas[size_t(yy) * n + xx] = a;
    }
    nav::test::removePinches(g);
    return g;
}

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0.0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<size_t>(p * double(v.size() - 1) + 0.5))];
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<int> sizes{32, 128, 256};
    int pairCount = 200, rounds = 3, oraclePairs = 40, oracleSize = 32;
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        if (const char* v = bench::optionValue(arg, "--sizes="))
            sizes = bench::intList(v);
        else if (const char* v = bench::optionValue(arg, "--pairs="))
            pairCount = std::atoi(v);
        else if (const char* v = bench::optionValue(arg, "--rounds="))
            rounds = std::atoi(v);
        else if (const char* v = bench::optionValue(arg, "--oracle-pairs="))
            oraclePairs = std::atoi(v);
        else if (const char* v = bench::optionValue(arg, "--oracle-size="))
            oracleSize = std::atoi(v);
        else
        {
            std::fprintf(stderr, "usage: path_bench_weighted [--sizes=32,128,256] [--pairs=N] [--rounds=R] "
                                 "[--oracle-pairs=M] [--oracle-size=S]\n");
            return 2;
        }
    }
    if (pairCount < 1 || rounds < 1 || sizes.empty())
    {
        std::fprintf(stderr, "--pairs and --rounds must be >= 1, --sizes not empty\n");
        return 2;
    }
    std::printf("%-9s %7s %7s %6s %8s %6s %9s %9s %9s %7s %9s %9s\n", "map", "polys", "verts", "pairs", "complete",
                "errors", "med us", "p99 us", "worst us", "oracle", "med ratio", "max ratio");
    for (const int n : sizes)
    {
        if (n < 8 || n > 4096)
        {
            std::fprintf(stderr, "sizes must be 8..4096\n");
            return 2;
        }
        const Grid2D grid = weightedMap(n, kSeed + uint64_t(n));
        auto soup = bakeGrid2D(grid, 0.0f);
        NavMeshDef def = defaultNavMeshDef();
        def.is2d = true;
        def.settings.agentRadius = 0.0f;
        def.settings.cellSize = 1.0f;
        def.maxPolyVerts = kMaxBakedPolyVerts;
        auto built = soup.ok() ? buildNavMesh(*soup, def) : Result<NavMesh>(soup.error());
        if (!built.ok())
        {
            std::fprintf(stderr, "bake failed: %s\n", built.error().message.c_str());
            return 1;
        }
        const NavMesh& mesh = *built;
        QueryFilter filter = defaultQueryFilter();
        Rng costs = rngFromSeed(kSeed + uint64_t(n), 7);
        for (int a = 1; a <= 3; ++a)
            filter.areaCosts[a] = 0.5f + 9.5f * float(rngNextBelow(costs, 1000)) / 1000.0f;
        Rng rng = rngFromSeed(kSeed + uint64_t(n), 5);
        std::vector<std::pair<glm::vec3, glm::vec3>> pairs;
        for (int i = 0; i < pairCount; ++i)
        {
            const auto a = randomPoint(mesh, rng);
            const auto b = randomPoint(mesh, rng);
            pairs.emplace_back(a->point, b->point);
        }
        const glm::vec3 ext{0.25f, 1.0f, 0.25f};
        QueryScratch scratch;
        PathResult path;
        std::vector<std::vector<double>> times(pairs.size());
        int complete = 0, errors = 0;
        for (int round = 0; round <= rounds; ++round)
            for (size_t i = 0; i < pairs.size(); ++i)
            {
                const double t0 = bench::threadSeconds();
                const Status st = findPath(mesh, scratch, pairs[i].first, pairs[i].second, filter, ext, path);
                const double t1 = bench::threadSeconds();
                if (round == 0)
                {
                    complete += st.ok() && path.complete ? 1 : 0;
                    errors += st.ok() ? 0 : 1;
                    continue; // the untimed pass
                }
                times[i].push_back((t1 - t0) * 1e6);
            }
        std::vector<double> perPair;
        for (const auto& t : times)
            perPair.push_back(bench::median(t));
        std::vector<double> ratios;
        if (n <= oracleSize)
        {
            const nav::test::CostGrid cg{grid, filter};
            for (size_t i = 0; i < pairs.size() && int(ratios.size()) < oraclePairs; ++i)
            {
                if (!findPath(mesh, scratch, pairs[i].first, pairs[i].second, filter, ext, path).ok() ||
                    !path.complete)
                    continue;
                const double fine = cg.dijkstra(cg.fineNodes(pairs[i].first, pairs[i].second, 8));
                if (fine > 0.0 && fine < nav::test::kInf)
                    ratios.push_back(double(path.cost) / fine);
            }
        }
        const std::string name = std::to_string(n) + "x" + std::to_string(n);
        std::printf("%-9s %7u %7u %6zu %8d %6d %9.1f %9.1f %9.1f %7zu", name.c_str(), mesh.polygonCount(),
                    mesh.vertexCount(), pairs.size(), complete, errors, bench::median(perPair),
                    percentile(perPair, 0.99), percentile(perPair, 1.0), ratios.size());
        if (ratios.empty())
            std::printf(" %9s %9s\n", "-", "-");
        else
            std::printf(" %9.5f %9.5f\n", bench::median(ratios), percentile(ratios, 1.0));
    }
    return 0;
}
