// Path queries: Spark's findPath against Detour on the same polygons and pairs.
//
// A 256 × 256 grid map with seeded random obstacles is baked with bakeGrid2D
// (agent radius 0); 10,000 seeded random pairs of mesh points are drawn with
// nav::randomPoint. Spark answers each pair with findPath (locating both ends,
// A*, funnel). Detour gets the same polygons: Detour links polygons only
// through shared vertex pairs, so the T-junction points of our links are
// inserted into the edges, and polygons that then have more than 6 vertices
// are cut into convex pieces of at most 6 (consecutive vertex runs); for each
// pair it runs findNearestPoly twice, findPath and findStraightPath (the same
// work). Both run in this process, on this machine, one after the other.
//
// Prints the time per query of each, the ratio Spark / Detour, and the mean
// path lengths over the pairs both answer completely. Then the Google
// Benchmark runs of the two loops.

#include "spark/nav/bake2d.h"
#include "spark/nav/query.h"

#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <DetourNavMeshQuery.h>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <atomic>
#include <cstdlib>
#include <map>
#include <new>
#include <vector>

// Counts heap allocations, to show the query loop allocates nothing once warm.
// (GCC flags the replaced operators' malloc/free pairing at inlined call sites
// although they match; the pragma silences that false positive.)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
static std::atomic<long long> gAllocations{0};
void* operator new(std::size_t n)
{
    ++gAllocations;
    if (void* p = std::malloc(n ? n : 1))
        return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept
{
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept
{
    std::free(p);
}

using namespace spark;
using namespace spark::nav;

namespace
{

constexpr int kMapSize = 256;
constexpr int kPairs = 10000;
constexpr int kNvp = 6;
constexpr uint16_t kNull = 0xffff;

struct Pair
{
    glm::vec3 a, b;
};

struct World
{
    NavMesh mesh;
    std::vector<Pair> pairs;
    dtNavMesh* detour = nullptr;
    dtNavMeshQuery* detourQuery = nullptr;
    int detourPolys = 0;
};

Grid2D makeMap()
{
    Grid2D g;
    g.width = kMapSize;
    g.height = kMapSize;
    g.cellSize = 1.0f;
    g.blocked.assign(size_t(kMapSize) * kMapSize, 0);
    Rng rng = rngFromSeed(2024, 1);
    for (int i = 0; i < kMapSize * kMapSize / 40; ++i)
    {
        const int x = int(rngNextBelow(rng, kMapSize)), y = int(rngNextBelow(rng, kMapSize));
        const int w = 1 + int(rngNextBelow(rng, 6)), h = 1 + int(rngNextBelow(rng, 6));
        for (int yy = y; yy < std::min(kMapSize, y + h); ++yy)
            for (int xx = x; xx < std::min(kMapSize, x + w); ++xx)
                g.blocked[size_t(yy) * kMapSize + xx] = 1;
    }
    return g;
}

using IPoint = std::pair<int, int>; // (x, z) in cells

long long area2(const std::vector<IPoint>& p)
{
    long long s = 0;
    for (size_t i = 0; i < p.size(); ++i)
    {
        const IPoint& a = p[i];
        const IPoint& b = p[(i + 1) % p.size()];
        s += (long long)a.first * b.second - (long long)b.first * a.second;
    }
    return s;
}

/// Cuts a convex polygon (our winding, collinear points allowed) into convex pieces of <= 6 vertices.
void cutPolygon(std::vector<IPoint> poly, std::vector<std::vector<IPoint>>& out)
{
    while (poly.size() > size_t(kNvp))
    {
        const size_t n = poly.size();
        bool cut = false;
        for (size_t len = kNvp; len >= 3 && !cut; --len)
            for (size_t i = 0; i < n && !cut; ++i)
            {
                std::vector<IPoint> piece, rest;
                for (size_t k = 0; k < len; ++k)
                    piece.push_back(poly[(i + k) % n]);
                for (size_t k = len - 1; k <= n; ++k)
                    rest.push_back(poly[(i + k) % n]);
                if (area2(piece) > 0 && area2(rest) > 0)
                {
                    out.push_back(piece);
                    poly = rest;
                    cut = true;
                }
            }
        if (!cut)
        {
            std::fprintf(stderr, "cannot cut a polygon of %zu vertices\n", n);
            std::abort();
        }
    }
    out.push_back(poly);
}

bool buildDetour(World& w)
{
    const NavMesh& mesh = w.mesh;
    // Our polygons with the T-junction points of their links inserted (integer grid points).
    std::vector<std::vector<IPoint>> pieces;
    for (uint32_t p = 0; p < mesh.polygonCount(); ++p)
    {
        const uint32_t n = mesh.polygonVertexCount(p);
        std::vector<IPoint> poly;
        for (uint32_t e = 0; e < n; ++e)
        {
            const glm::vec3 a = mesh.polygonVertex(p, e), b = mesh.polygonVertex(p, (e + 1) % n);
            std::vector<float> ts;
            for (const NavLink& l : mesh.links(p))
                if (l.edge == e)
                {
                    ts.push_back(l.tMin);
                    ts.push_back(l.tMax);
                }
            std::sort(ts.begin(), ts.end());
            poly.push_back({int(std::lround(a.x)), int(std::lround(a.z))});
            for (float t : ts)
            {
                const IPoint q{int(std::lround(a.x + (b.x - a.x) * t)), int(std::lround(a.z + (b.z - a.z) * t))};
                if (q != poly.back() && q != IPoint{int(std::lround(b.x)), int(std::lround(b.z))})
                    poly.push_back(q);
            }
        }
        cutPolygon(poly, pieces);
    }
    // Shared vertices, Detour winding (ours reversed), neighbours by shared vertex pairs.
    std::map<IPoint, uint16_t> ids;
    std::vector<uint16_t> verts;
    std::vector<uint16_t> polys(pieces.size() * 2 * kNvp, kNull);
    std::map<std::pair<uint16_t, uint16_t>, std::vector<std::pair<size_t, int>>> edges;
    for (size_t p = 0; p < pieces.size(); ++p)
    {
        std::vector<IPoint> rev(pieces[p].rbegin(), pieces[p].rend());
        for (size_t i = 0; i < rev.size(); ++i)
        {
            auto it = ids.find(rev[i]);
            if (it == ids.end())
            {
                if (ids.size() >= 0xfffe)
                    return false;
                it = ids.emplace(rev[i], uint16_t(ids.size())).first;
                verts.push_back(uint16_t(rev[i].first));
                verts.push_back(0);
                verts.push_back(uint16_t(rev[i].second));
            }
            polys[p * 2 * kNvp + i] = it->second;
        }
        for (size_t i = 0; i < rev.size(); ++i)
        {
            const uint16_t a = polys[p * 2 * kNvp + i], b = polys[p * 2 * kNvp + (i + 1) % rev.size()];
            edges[{std::min(a, b), std::max(a, b)}].push_back({p, int(i)});
        }
    }
    for (const auto& [key, users] : edges)
        if (users.size() == 2)
        {
            polys[users[0].first * 2 * kNvp + kNvp + users[0].second] = uint16_t(users[1].first);
            polys[users[1].first * 2 * kNvp + kNvp + users[1].second] = uint16_t(users[0].first);
        }
    std::vector<uint16_t> flags(pieces.size(), 1);
    std::vector<uint8_t> areas(pieces.size(), 0);

    dtNavMeshCreateParams params{};
    params.verts = verts.data();
    params.vertCount = int(verts.size() / 3);
    params.polys = polys.data();
    params.polyFlags = flags.data();
    params.polyAreas = areas.data();
    params.polyCount = int(pieces.size());
    params.nvp = kNvp;
    params.walkableHeight = 2.0f;
    params.walkableRadius = 0.0f;
    params.walkableClimb = 0.5f;
    params.bmin[0] = 0.0f;
    params.bmin[1] = 0.0f;
    params.bmin[2] = 0.0f;
    params.bmax[0] = float(kMapSize);
    params.bmax[1] = 1.0f;
    params.bmax[2] = float(kMapSize);
    params.cs = 1.0f;
    params.ch = 1.0f;
    params.buildBvTree = true;
    unsigned char* data = nullptr;
    int size = 0;
    if (!dtCreateNavMeshData(&params, &data, &size))
        return false;
    w.detour = dtAllocNavMesh();
    if (dtStatusFailed(w.detour->init(data, size, DT_TILE_FREE_DATA)))
        return false;
    w.detourQuery = dtAllocNavMeshQuery();
    if (dtStatusFailed(w.detourQuery->init(w.detour, 65535)))
        return false;
    w.detourPolys = int(pieces.size());
    return true;
}

World& world()
{
    static World w = [] {
        World made;
        auto soup = bakeGrid2D(makeMap(), 0.0f);
        if (!soup.ok())
            std::abort();
        NavMeshDef def = defaultNavMeshDef();
        def.is2d = true;
        def.settings.agentRadius = 0.0f;
        def.settings.cellSize = 1.0f;
        def.maxPolyVerts = kMaxBakedPolyVerts;
        auto mesh = buildNavMesh(*soup, def);
        if (!mesh.ok())
            std::abort();
        made.mesh = std::move(mesh).value();
        Rng rng = rngFromSeed(7, 3);
        for (int i = 0; i < kPairs; ++i)
        {
            auto a = randomPoint(made.mesh, rng);
            auto b = randomPoint(made.mesh, rng);
            made.pairs.push_back({a->point, b->point});
        }
        if (!buildDetour(made))
        {
            std::fprintf(stderr, "Detour mesh creation failed\n");
            std::abort();
        }
        return made;
    }();
    return w;
}

struct SparkRunner
{
    QueryScratch scratch;
    PathResult path;
    glm::vec3 ext{0.25f, 1.0f, 0.25f};
    bool run(const World& w, const Pair& p)
    {
        return findPath(w.mesh, scratch, p.a, p.b, defaultQueryFilter(), ext, path).ok() && path.complete;
    }
    double length() const { return path.length; }
};

struct DetourRunner
{
    dtQueryFilter filter;
    std::vector<dtPolyRef> corridor = std::vector<dtPolyRef>(65536);
    std::vector<float> straight = std::vector<float>(3 * 4096);
    std::vector<unsigned char> flags = std::vector<unsigned char>(4096);
    std::vector<dtPolyRef> refs = std::vector<dtPolyRef>(4096);
    int straightCount = 0;
    bool run(const World& w, const Pair& p)
    {
        const float ext[3] = {0.25f, 1.0f, 0.25f};
        const float a[3] = {p.a.x, p.a.y, p.a.z}, b[3] = {p.b.x, p.b.y, p.b.z};
        dtPolyRef ra = 0, rb = 0;
        float na[3], nb[3];
        w.detourQuery->findNearestPoly(a, ext, &filter, &ra, na);
        w.detourQuery->findNearestPoly(b, ext, &filter, &rb, nb);
        straightCount = 0;
        if (!ra || !rb)
            return false;
        int count = 0;
        const dtStatus st =
            w.detourQuery->findPath(ra, rb, na, nb, &filter, corridor.data(), &count, int(corridor.size()));
        if (dtStatusFailed(st) || count == 0)
            return false;
        float end[3] = {nb[0], nb[1], nb[2]};
        if (corridor[count - 1] != rb)
            w.detourQuery->closestPointOnPoly(corridor[count - 1], nb, end, nullptr);
        w.detourQuery->findStraightPath(na, end, corridor.data(), count, straight.data(), flags.data(), refs.data(),
                                        &straightCount, int(refs.size()));
        return corridor[count - 1] == rb && (st & DT_PARTIAL_RESULT) == 0;
    }
    double length() const
    {
        double s = 0.0;
        for (int i = 1; i < straightCount; ++i)
        {
            const float* p = &straight[3 * (i - 1)];
            const float* q = &straight[3 * i];
            s += std::sqrt(double(q[0] - p[0]) * (q[0] - p[0]) + double(q[2] - p[2]) * (q[2] - p[2]));
        }
        return s;
    }
};

template <class R> double timeAll(R& runner, const World& w)
{
    double best = 1e300;
    for (int rep = 0; rep < 5; ++rep)
    {
        const auto t0 = std::chrono::steady_clock::now();
        int done = 0;
        for (const Pair& p : w.pairs)
            done += runner.run(w, p) ? 1 : 0;
        const auto t1 = std::chrono::steady_clock::now();
        benchmark::DoNotOptimize(done);
        best = std::min(best, std::chrono::duration<double, std::micro>(t1 - t0).count() / w.pairs.size());
    }
    return best;
}

void BM_SparkFindPath(benchmark::State& state)
{
    const World& w = world();
    SparkRunner r;
    size_t i = 0;
    for (auto _ : state)
    {
        benchmark::DoNotOptimize(r.run(w, w.pairs[i]));
        i = (i + 1) % w.pairs.size();
    }
}
BENCHMARK(BM_SparkFindPath);

void BM_DetourFindPath(benchmark::State& state)
{
    const World& w = world();
    DetourRunner r;
    size_t i = 0;
    for (auto _ : state)
    {
        benchmark::DoNotOptimize(r.run(w, w.pairs[i]));
        i = (i + 1) % w.pairs.size();
    }
}
BENCHMARK(BM_DetourFindPath);

} // namespace

int main(int argc, char** argv)
{
    const World& w = world();
    SparkRunner spark;
    DetourRunner detour;
    double sumSpark = 0.0, sumDetour = 0.0;
    int both = 0, sparkComplete = 0, detourComplete = 0, sparkShorter = 0;
    for (const Pair& p : w.pairs)
    {
        const bool s = spark.run(w, p);
        const bool d = detour.run(w, p);
        sparkComplete += s;
        detourComplete += d;
        if (s && d)
        {
            sumSpark += spark.length();
            sumDetour += detour.length();
            sparkShorter += spark.length() < detour.length() - 1e-4 ? 1 : 0;
            ++both;
        }
    }
    const long long before = gAllocations.load();
    for (const Pair& p : w.pairs)
        benchmark::DoNotOptimize(spark.run(w, p));
    const long long sparkAllocations = gAllocations.load() - before;
    const double tSpark = timeAll(spark, w);
    const double tDetour = timeAll(detour, w);
    std::printf("map %dx%d, %u Spark polygons (%d Detour polygons after T-junction splitting), %d pairs\n", kMapSize,
                kMapSize, w.mesh.polygonCount(), w.detourPolys, kPairs);
    std::printf("complete paths: Spark %d, Detour %d\n", sparkComplete, detourComplete);
    std::printf("heap allocations in a warm pass of %d Spark queries: %lld\n", kPairs, sparkAllocations);
    std::printf("time per query (best of 5 passes): Spark %.3f us, Detour %.3f us, ratio Spark/Detour %.3f\n", tSpark,
                tDetour, tSpark / tDetour);
    std::printf("mean path length over %d pairs complete in both: Spark %.4f, Detour %.4f (Spark shorter on %d)\n",
                both, sumSpark / both, sumDetour / both, sparkShorter);
    std::fflush(stdout);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
