/// \file path_bench.cpp
/// Path queries: Spark's findPath against Detour, each on its own bake of the
/// same level, answering the same world points, in the same process.
///
/// Level (`--level=dungeon|terrain|ramps|all`, default dungeon, the issue's
/// goal): data/meshes/dungeon.obj (relative to the working
/// directory; run from the project root), loaded once with scene::loadObj, or
/// one of the two levels made in bench/levels.h (the bake bench's: open terrain
/// with 400 small obstacles, long ramps and stairs).
///
/// The bakes, with RecastDemo's default settings: cell size 0.3, cell height
/// 0.2, agent height 2.0, radius 0.6, max climb 0.9, slope 45°, region min size
/// 8, merge size 20, edge max length 12, edge max error 1.3, 6 vertices per
/// polygon, detail sample distance 6, detail max error 1.
/// - Detour: Recast's solo-mesh pipeline as RecastDemo's Sample_SoloMesh runs
///   it (mark walkable triangles, rasterise, the three span filters, compact
///   heightfield, erode, distance field + watershed regions, contours, polygon
///   mesh, detail mesh; polygon area RC_WALKABLE_AREA → 0 and flags 1), then
///   dtCreateNavMeshData and dtNavMesh::init as one tile; dtNavMeshQuery::init
///   with RecastDemo's 2048 nodes.
/// - Spark: nav::bakeNavMesh with the same settings mapped onto BakeDef (min
///   region area = 8 × 8 cells, merge region area = 20 × 20 cells; Spark has
///   no detail mesh).
/// - Detour mono, for reference beside the comparison: the same Detour side on
///   the sample's SAMPLE_PARTITION_MONOTONE bake, the partition Spark's bake
///   uses. Its column shows what the partition alone does to polygons, path
///   lengths and query time (a monotone partition puts region borders, and so
///   mesh vertices, on obstacles' extreme rows, where paths bend round them).
///
/// Queries: kPairs pairs of world points, drawn with Spark's seeded RNG (seed
/// kPointSeed) uniformly by area over the input triangles whose front face is
/// walkable (normal (v1 − v0) × (v2 − v0) with y > cos 45°, Recast's test).
/// Each side snaps both points with its own nearest-point query and the same
/// half extents (2, 4, 2), RecastDemo's.
/// - Spark: findPath(mesh, scratch, a, b, defaultQueryFilter(), (2, 4, 2), path)
///   (locates both ends, any-angle search, the corner points); complete when
///   it returns ok and path.complete.
/// - Detour: findNearestPoly ×2, findPath (default dtQueryFilter, up to
///   kDetourMaxPath polygons), closestPointOnPoly on the last polygon when the
///   path is partial (as RecastDemo does), findStraightPath (up to
///   kDetourMaxStraight points); complete when findPath is not
///   DT_PARTIAL_RESULT and its last polygon is the goal's.
///
/// The two nearest-point queries differ: Detour takes any polygon whose bounds
/// overlap the box and its closest point (which may lie outside the box);
/// Spark requires the closest point itself inside the box, so it locates fewer
/// far-off points. Pairs an end of which a side cannot locate count as not
/// complete for that side (and are still timed: they are part of the loop).
///
/// Printed: polygons and x–z walkable area of each bake, pairs whose two ends
/// each side located, pairs each side completes, mean 3D (and x–z) polyline
/// length of the returned points over the pairs both complete, how many of
/// those Spark's path is shorter / longer by more than 1 cm (3D, and x–z; also
/// among the pairs whose snapped ends agree within 1 cm), the heap allocations of a warm
/// pass (all pairs, and the pairs both sides located), and the time: thread
/// CPU time (CLOCK_THREAD_CPUTIME_ID) of the whole kPairs-query loop of each
/// side, kRepeats repeats with the sides taking turns to run first, reported
/// as the median µs per query with the repeats' spread (after an untimed warm
/// pass of each). Never the best run. Detour mono's lengths are over the pairs
/// both it and Spark complete.
///
/// `--callgrind [--pairs N] [--out DIR]`: instruction counts instead of time.
/// The program runs itself twice under
///   valgrind --tool=callgrind --collect-atstart=no
///            --toggle-collect='*sparkPathQueryLoop*'  (or '*detourPathQueryLoop*')
///            --callgrind-out-file=DIR/path_bench.<side>.callgrind
///            <this program> --callgrind-side=<side> --pairs=N
/// (the inner run bakes only that side, warms it over the first N pairs
/// outside the counted function, then runs the counted loop once over them),
/// reads each file's totals and prints instructions per query of both
/// (default N = 1000, DIR = /tmp). `callgrind_annotate --inclusive=yes` on the
/// files names the hot functions. With `--tiled` (and its options) the inner
/// runs bake the tiled level.
///
/// "search nodes made": the mean over the located Spark queries of the
/// any-angle nodes its last search made (QueryScratch::lastSearchNodes; 0 for
/// a query the straight-line walk answers).

#include "bench_stats.h"
#include "recast_area.h"

#include "spark/core/hash.h"
#include "spark/core/rng.h"
#include "spark/nav/bake.h"
#include "spark/nav/query.h"
#include "spark/scene/model_obj.h"

#include "levels.h"
#include "recast_solo.h"
#include "recastdemo.h"
#include "recast_tiles.h"
#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <DetourNavMeshQuery.h>
#include <Recast.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <new>
#include <span>
#include <string>
#include <vector>

// Counts heap allocations, to show the query loops allocate nothing once warm.
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

namespace
{

constexpr int kPairs = 10000;
constexpr int kRepeats = 9;
constexpr int kCallgrindPairs = 1000;
constexpr uint64_t kPointSeed = 2024;
constexpr int kDetourNodes = 2048;
constexpr int kDetourMaxPath = 2048;
constexpr int kDetourMaxStraight = 256;
constexpr float kHalfExtents[3] = {2.0f, 4.0f, 2.0f};
constexpr double kLengthTolerance = 0.01; // [Units: m]

using namespace spark::bench::demo; // RecastDemo's settings, both sides (recastdemo.h)
using bench::levels::Level;

/// `--tiled`: both sides bake in tiles (Spark's tileSize; Recast's tiled bake
/// and Detour's tiled dtNavMesh, bench/recast_tiles.h), cells of `cellSize`.
/// Detour gets 65535 search nodes (its most) and room for 16384-polygon
/// corridors, as a big world needs; RecastDemo's 2048 run out on the 1 km terrain.
struct TiledMode
{
    bool on = false;
    int tileSize = 64;
    float cellSize = kCellSize;
};
TiledMode gTiled;
int gDetourNodes = kDetourNodes;
int gDetourMaxPath = kDetourMaxPath;
int gDetourMaxStraight = kDetourMaxStraight;
int gRepeats = kRepeats;

struct Pair
{
    glm::vec3 a, b;
};

/// Uniform points (by 3D area) on the triangles whose front face is walkable, in pairs.
std::vector<Pair> drawPairs(const nav::BakeInput& in, int count, size_t* outWalkableTriangles)
{
    const double cosSlope = std::cos(double(kSlopeDeg) / 180.0 * 3.14159265358979323846);
    std::vector<uint32_t> tris;
    std::vector<double> cumulative;
    double total = 0.0;
    for (size_t t = 0; t + 2 < in.indices.size(); t += 3)
    {
        const glm::dvec3 v0(in.vertices[in.indices[t]]), v1(in.vertices[in.indices[t + 1]]),
            v2(in.vertices[in.indices[t + 2]]);
        const glm::dvec3 e0 = v1 - v0, e1 = v2 - v0;
        const glm::dvec3 n{e0.y * e1.z - e0.z * e1.y, e0.z * e1.x - e0.x * e1.z, e0.x * e1.y - e0.y * e1.x};
        const double len = std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
        if (len <= 0.0 || n.y / len <= cosSlope)
            continue;
        total += 0.5 * len;
        tris.push_back(uint32_t(t));
        cumulative.push_back(total);
    }
    *outWalkableTriangles = tris.size();
    Rng rng = rngFromSeed(kPointSeed, 1);
    auto draw = [&]()
    {
        const double pick = rngNextDouble(rng) * total;
        const size_t k = std::min(
            size_t(std::upper_bound(cumulative.begin(), cumulative.end(), pick) - cumulative.begin()),
            tris.size() - 1);
        const uint32_t t = tris[k];
        const double r1 = std::sqrt(rngNextDouble(rng)), r2 = rngNextDouble(rng);
        const glm::dvec3 v0(in.vertices[in.indices[t]]), v1(in.vertices[in.indices[t + 1]]),
            v2(in.vertices[in.indices[t + 2]]);
        return glm::vec3(v0 * (1.0 - r1) + v1 * (r1 * (1.0 - r2)) + v2 * (r1 * r2));
    };
    std::vector<Pair> pairs(static_cast<size_t>(count));
    for (Pair& p : pairs)
    {
        p.a = draw();
        p.b = draw();
    }
    return pairs;
}

double polylineLength(const float* xyz, int count, bool horizontalOnly)
{
    double s = 0.0;
    for (int i = 1; i < count; ++i)
    {
        const float* p = xyz + 3 * (i - 1);
        const float* q = xyz + 3 * i;
        const double dx = double(q[0]) - p[0], dy = horizontalOnly ? 0.0 : double(q[1]) - p[1],
                     dz = double(q[2]) - p[2];
        s += std::sqrt(dx * dx + dy * dy + dz * dz);
    }
    return s;
}

// --- Spark ---------------------------------------------------------------------

struct SparkSide
{
    nav::NavMesh mesh;
    nav::QueryScratch scratch;
    nav::PathResult path;
    glm::vec3 ext{kHalfExtents[0], kHalfExtents[1], kHalfExtents[2]};
    bool located = false; // both ends found by the last query

    /// One query; true when the path is complete.
    bool query(const Pair& p)
    {
        const Status st = nav::findPath(mesh, scratch, p.a, p.b, nav::defaultQueryFilter(), ext, path);
        located = st.ok();
        return located && path.complete;
    }
    double length(bool horizontalOnly) const
    {
        return path.points.empty()
                   ? 0.0
                   : polylineLength(&path.points[0].x, int(path.points.size()), horizontalOnly);
    }
};

void bakeSpark(const nav::BakeInput& input, SparkSide& out)
{
    nav::BakeDef def = sparkBakeDef();
    if (gTiled.on)
    {
        def.cellSize = gTiled.cellSize;
        def.minRegionArea = float(kRegionMinSize * kRegionMinSize) * def.cellSize * def.cellSize;
        def.mergeRegionArea = float(kRegionMergeSize * kRegionMergeSize) * def.cellSize * def.cellSize;
        def.tileSize = gTiled.tileSize;
    }
    auto baked = nav::bakeNavMesh(input, def);
    if (!baked)
    {
        std::fprintf(stderr, "Spark bake failed: %s\n", baked.error().message.c_str());
        std::exit(1);
    }
    out.mesh = std::move(baked->mesh);
}

// --- Detour --------------------------------------------------------------------

struct DetourSide
{
    dtNavMesh* mesh = nullptr;
    dtNavMeshQuery* navQuery = nullptr;
    int polygons = 0;
    double area = 0.0; // x–z [Units: m²]
    dtQueryFilter filter;
    std::vector<dtPolyRef> corridor = std::vector<dtPolyRef>(size_t(gDetourMaxPath));
    std::vector<float> straight = std::vector<float>(3 * size_t(gDetourMaxStraight));
    std::vector<unsigned char> straightFlags = std::vector<unsigned char>(size_t(gDetourMaxStraight));
    std::vector<dtPolyRef> straightRefs = std::vector<dtPolyRef>(size_t(gDetourMaxStraight));
    int straightCount = 0;
    bool located = false;        // both ends found by the last query
    dtStatus pathStatus = 0;     // findPath's status of the last query
    dtStatus straightStatus = 0; // findStraightPath's status of the last query

    DetourSide() = default;
    DetourSide(const DetourSide&) = delete;
    DetourSide& operator=(const DetourSide&) = delete;
    ~DetourSide()
    {
        dtFreeNavMeshQuery(navQuery);
        dtFreeNavMesh(mesh);
    }

    /// One query as RecastDemo's path tool runs it; true when the path is complete.
    bool query(const Pair& p)
    {
        const float a[3] = {p.a.x, p.a.y, p.a.z}, b[3] = {p.b.x, p.b.y, p.b.z};
        dtPolyRef ra = 0, rb = 0;
        float na[3], nb[3];
        navQuery->findNearestPoly(a, kHalfExtents, &filter, &ra, na);
        navQuery->findNearestPoly(b, kHalfExtents, &filter, &rb, nb);
        straightCount = 0;
        pathStatus = straightStatus = 0;
        located = ra && rb;
        if (!located)
            return false;
        int count = 0;
        pathStatus = navQuery->findPath(ra, rb, na, nb, &filter, corridor.data(), &count, int(corridor.size()));
        if (dtStatusFailed(pathStatus) || count == 0)
            return false;
        float end[3] = {nb[0], nb[1], nb[2]};
        if (corridor[size_t(count) - 1] != rb)
            navQuery->closestPointOnPoly(corridor[size_t(count) - 1], nb, end, nullptr);
        straightStatus =
            navQuery->findStraightPath(na, end, corridor.data(), count, straight.data(), straightFlags.data(),
                                       straightRefs.data(), &straightCount, int(straightRefs.size()));
        return corridor[size_t(count) - 1] == rb && (pathStatus & DT_PARTIAL_RESULT) == 0;
    }
    double length(bool horizontalOnly) const
    {
        return polylineLength(straight.data(), straightCount, horizontalOnly);
    }
};

/// Recast's solo-mesh bake as RecastDemo's Sample_SoloMesh::handleBuild does it (watershed regions, the
/// sample's default, or with `monotone` its monotone partition), then Detour's tile.
void bakeDetour(const nav::BakeInput& input, DetourSide& out, bool monotone = false)
{
    rcContext ctx(false);
    const float* verts = &input.vertices[0].x;
    const int nverts = int(input.vertices.size());
    const std::vector<int> tris(input.indices.begin(), input.indices.end());
    const int ntris = int(tris.size() / 3);

    if (gTiled.on)
    {
        // Sample_TileMesh: per-tile bake (the sample's partition: watershed, or monotone), detail mesh, tiles.
        const rcConfig cfg = bench::tiles::recastTileConfig(gTiled.cellSize, gTiled.tileSize);
        const bench::tiles::RecastTileBuckets buckets =
            bench::tiles::bucketRecastTiles(verts, nverts, tris.data(), ntris, cfg);
        std::vector<bench::tiles::RecastTile> tiles =
            bench::tiles::bakeRecastTiles(cfg, buckets, verts, nverts, monotone, true, 1);
        for (const bench::tiles::RecastTile& t : tiles)
            if (t.pmesh)
            {
                out.polygons += t.pmesh->npolys;
                out.area += bench::recastPolyMeshArea(*t.pmesh, cfg.cs);
            }
        out.mesh = bench::tiles::detourTiledNavMesh(cfg, buckets, tiles);
        for (bench::tiles::RecastTile& t : tiles)
            bench::tiles::freeRecastTile(t);
    }
    else
    {
    const rcConfig cfg = recastConfig(verts, nverts);

    const RecastSoloMesh solo = bakeRecastSoloMesh(ctx, cfg, verts, nverts, tris.data(), ntris, 1, monotone);
    out.polygons = solo.pmesh->npolys;
    out.area = bench::recastPolyMeshArea(*solo.pmesh, cfg.cs);
    out.mesh = soloNavMesh(solo, cfg, kAgentHeight, kAgentRadius, kAgentClimb);
    rcFreePolyMesh(solo.pmesh);
    rcFreePolyMeshDetail(solo.dmesh);
    }
    out.navQuery = dtAllocNavMeshQuery();
    if (dtStatusFailed(out.navQuery->init(out.mesh, gDetourNodes)))
    {
        std::fprintf(stderr, "dtNavMeshQuery::init failed\n");
        std::exit(1);
    }
}

// --- The measured loops (separate, never inlined: callgrind counts them by name) ---

__attribute__((noinline)) int sparkPathQueryLoop(SparkSide& side, std::span<const Pair> pairs)
{
    int complete = 0;
    for (const Pair& p : pairs)
        complete += side.query(p) ? 1 : 0;
    return complete;
}

__attribute__((noinline)) int detourPathQueryLoop(DetourSide& side, std::span<const Pair> pairs)
{
    int complete = 0;
    for (const Pair& p : pairs)
        complete += side.query(p) ? 1 : 0;
    return complete;
}

volatile int gSink = 0;

/// The side's loop outside the counted function (warm-up of caches and scratch buffers).
template <class Side> void warmUp(Side& side, std::span<const Pair> pairs)
{
    int complete = 0;
    for (const Pair& p : pairs)
        complete += side.query(p) ? 1 : 0;
    gSink = gSink + complete;
}

// --- Table ---------------------------------------------------------------------------

struct Quality
{
    int sparkLocated = 0, detourLocated = 0;
    int sparkComplete = 0, detourComplete = 0;
    int both = 0, shorter = 0, longer = 0;
    int shorterXZ = 0, longerXZ = 0;
    int sameEnds = 0, sameEndsShorter = 0,
        sameEndsLonger = 0; // both ends snapped within 1 cm (x–z) of each other
    int sameEndsShorterXZ = 0, sameEndsLongerXZ = 0;
    int detourOutOfNodes = 0, detourStraightTruncated = 0;
    double sparkLength = 0.0, detourLength = 0.0, sparkLengthXZ = 0.0, detourLengthXZ = 0.0;
    uint64_t sparkPathHash =
        0; ///< spark::Hasher over every Spark query's located/complete flags, point bits and corridor.
    uint64_t sparkNodes = 0; ///< Σ over the located queries of the any-angle nodes made (QueryScratch::lastSearchNodes).
};

Quality compare(SparkSide& spark, DetourSide& detour, std::span<const Pair> pairs,
                std::vector<Pair>& outLocated)
{
    Quality q;
    spark::Hasher hash;
    for (const Pair& p : pairs)
    {
        const bool s = spark.query(p);
        const bool d = detour.query(p);
        hash.addBool(spark.located);
        hash.addBool(s);
        if (spark.located)
        {
            hash.addU32(static_cast<uint32_t>(spark.path.points.size()));
            for (const glm::vec3& v : spark.path.points)
            {
                hash.addF32(v.x);
                hash.addF32(v.y);
                hash.addF32(v.z);
            }
            hash.addU32(static_cast<uint32_t>(spark.path.polygons.size()));
            for (const uint32_t poly : spark.path.polygons)
                hash.addU32(poly);
        }
        if (spark.located && detour.located)
            outLocated.push_back(p);
        q.sparkLocated += spark.located;
        q.sparkNodes += spark.located ? spark.scratch.lastSearchNodes() : 0;
        q.detourLocated += detour.located;
        q.sparkComplete += s;
        q.detourComplete += d;
        q.detourOutOfNodes += (detour.pathStatus & DT_OUT_OF_NODES) ? 1 : 0;
        q.detourStraightTruncated += (detour.straightStatus & DT_BUFFER_TOO_SMALL) ? 1 : 0;
        if (s && d)
        {
            const double ls = spark.length(false), ld = detour.length(false);
            q.sparkLength += ls;
            q.detourLength += ld;
            const double lsXZ = spark.length(true), ldXZ = detour.length(true);
            q.sparkLengthXZ += lsXZ;
            q.detourLengthXZ += ldXZ;
            const bool isShorterXZ = lsXZ<ldXZ - kLengthTolerance, isLongerXZ = lsXZ> ldXZ + kLengthTolerance;
            q.shorterXZ += isShorterXZ ? 1 : 0;
            q.longerXZ += isLongerXZ ? 1 : 0;
            const bool isShorter = ls<ld - kLengthTolerance, isLonger = ls> ld + kLengthTolerance;
            q.shorter += isShorter ? 1 : 0;
            q.longer += isLonger ? 1 : 0;
            ++q.both;
            const float* ds = detour.straight.data();
            const float* de = ds + 3 * (detour.straightCount - 1);
            const glm::vec3 ss = spark.path.points.front(), se = spark.path.points.back();
            if (std::hypot(double(ss.x) - ds[0], double(ss.z) - ds[2]) <= kLengthTolerance &&
                std::hypot(double(se.x) - de[0], double(se.z) - de[2]) <= kLengthTolerance)
            {
                ++q.sameEnds;
                q.sameEndsShorter += isShorter ? 1 : 0;
                q.sameEndsLonger += isLonger ? 1 : 0;
                q.sameEndsShorterXZ += isShorterXZ ? 1 : 0;
                q.sameEndsLongerXZ += isLongerXZ ? 1 : 0;
            }
        }
    }
    q.sparkPathHash = hash.digest();
    return q;
}

int runTable(const Level& level, int pairCount)
{
    const nav::BakeInput& input = level.input;
    size_t walkableTris = 0;
    const std::vector<Pair> pairs = drawPairs(input, pairCount, &walkableTris);
    SparkSide spark;
    DetourSide detour;
    DetourSide detourMono; // the same, on Recast's monotone partition (Spark's partition): shows what the
                           // partition does
    bakeSpark(input, spark);
    bakeDetour(input, detour);
    bakeDetour(input, detourMono, true);

    // Quality (also the warm pass of both sides).
    std::vector<Pair> located;
    const Quality q = compare(spark, detour, pairs, located);
    std::vector<Pair> locatedMono;
    const Quality qMono = compare(spark, detourMono, pairs, locatedMono);

    // Allocations of a warm pass of each loop: over all pairs, and over the pairs whose ends both sides
    // located (a Spark query that cannot locate an end returns an error, whose message is a heap string).
    long long allocations[2][3] = {};
    for (int set = 0; set < 2; ++set)
    {
        const std::span<const Pair> which =
            set == 0 ? std::span<const Pair>(pairs) : std::span<const Pair>(located);
        long long before = gAllocations.load();
        gSink = gSink + sparkPathQueryLoop(spark, which);
        allocations[set][0] = gAllocations.load() - before;
        before = gAllocations.load();
        gSink = gSink + detourPathQueryLoop(detour, which);
        allocations[set][1] = gAllocations.load() - before;
        before = gAllocations.load();
        gSink = gSink + detourPathQueryLoop(detourMono, which);
        allocations[set][2] = gAllocations.load() - before;
    }

    // Time: whole loops, the three sides in turn, each repeat starting with the next side.
    std::vector<double> tSpark, tDetour, tDetourMono;
    for (int rep = 0; rep < gRepeats; ++rep)
    {
        for (int turn = 0; turn < 3; ++turn)
        {
            const int side = (rep + turn) % 3;
            const double t0 = bench::threadSeconds();
            gSink = gSink + (side == 0   ? sparkPathQueryLoop(spark, pairs)
                             : side == 1 ? detourPathQueryLoop(detour, pairs)
                                         : detourPathQueryLoop(detourMono, pairs));
            const double us = (bench::threadSeconds() - t0) * 1e6 / double(pairs.size());
            (side == 0 ? tSpark : side == 1 ? tDetour : tDetourMono).push_back(us);
        }
    }
    const double mSpark = bench::median(tSpark), mDetour = bench::median(tDetour),
                 mDetourMono = bench::median(tDetourMono);

    std::printf("%s (%s): %zu vertices, %zu triangles (%zu walkable, sampled); %d pairs, seed %llu\n",
                level.name.c_str(), level.what.c_str(), input.vertices.size(), input.indices.size() / 3,
                walkableTris, pairCount, static_cast<unsigned long long>(kPointSeed));
    std::printf(
        "bake: cell %.2f x 0.2, agent h 2.0 r 0.6, climb 0.9, slope 45, region 8/20, edge 12/1.3, nvp 6, "
        "detail 6/1; half extents (2, 4, 2)\n",
        double(gTiled.on ? gTiled.cellSize : kCellSize));
    if (gTiled.on)
        std::printf("tiled: tiles of %d cells on both sides (Spark %zu tiles); Detour: tiled dtNavMesh, %d nodes, "
                    "corridors up to %d polygons\n",
                    gTiled.tileSize, spark.mesh.tiles().size(), gDetourNodes, gDetourMaxPath);
    std::printf(
        "time: thread CPU, median of %d repeats of the %d-query loop, the sides taking turns to go first\n",
        gRepeats, pairCount);
    std::printf(
        "detour: Recast's default (watershed) bake, the comparison; detour mono: Recast's monotone bake "
        "(Spark's partition), for reference\n\n");
    std::printf("%-40s %12s %12s %12s\n", "", "spark", "detour", "detour mono");
    std::printf("%-40s %12u %12d %12d\n", "polygons", spark.mesh.polygonCount(), detour.polygons,
                detourMono.polygons);
    std::printf("%-40s %12.1f %12.1f %12.1f\n", "walkable area x-z (m2)", spark.mesh.totalArea(), detour.area,
                detourMono.area);
    std::printf("%-40s %12d %12d %12d\n", "pairs with both ends located", q.sparkLocated, q.detourLocated,
                qMono.detourLocated);
    std::printf("%-40s %12d %12d %12d\n", "pairs complete", q.sparkComplete, q.detourComplete,
                qMono.detourComplete);
    std::printf("%-40s %12.4f %12.4f\n", "mean length 3D, pairs both complete (m)", q.sparkLength / q.both,
                q.detourLength / q.both);
    std::printf("%-40s %12.4f %12.4f\n", "mean length x-z, same pairs (m)", q.sparkLengthXZ / q.both,
                q.detourLengthXZ / q.both);
    std::printf("%-40s %12.4f %12s %12.4f\n", "mean length 3D, pairs spark & mono (m)",
                qMono.sparkLength / qMono.both, "", qMono.detourLength / qMono.both);
    std::printf("%-40s %12.4f %12s %12.4f\n", "mean length x-z, same pairs (m)",
                qMono.sparkLengthXZ / qMono.both, "", qMono.detourLengthXZ / qMono.both);
    std::printf("%-40s %12.2f\n", "search nodes made, mean of located", double(q.sparkNodes) / q.sparkLocated);
    std::printf("%-40s %12.3f %12.3f %12.3f\n", "median us/query (thread CPU)", mSpark, mDetour, mDetourMono);
    std::printf("%-40s %11.1f%% %11.1f%% %11.1f%%\n", "spread of repeats (max-min)/median",
                bench::spreadPercent(tSpark), bench::spreadPercent(tDetour),
                bench::spreadPercent(tDetourMono));
    std::printf("%-40s %12lld %12lld %12lld\n", "heap allocations, warm pass, all pairs", allocations[0][0],
                allocations[0][1], allocations[0][2]);
    std::printf("%-40s %12lld %12lld %12lld\n", "  same, pairs both sides located", allocations[1][0],
                allocations[1][1], allocations[1][2]);
    std::printf("\nratio spark/detour (median time): %.3f   (spark/detour mono: %.3f)\n", mSpark / mDetour,
                mSpark / mDetourMono);
    std::printf(
        "pairs both complete: %d; Spark 3D length shorter by > 1 cm: %d, longer by > 1 cm: %d, within: %d\n",
        q.both, q.shorter, q.longer, q.both - q.shorter - q.longer);
    std::printf("  x-z lengths instead: shorter %d, longer %d\n", q.shorterXZ, q.longerXZ);
    std::printf(
        "  of these, %d with both snapped ends within 1 cm (x-z) on the two sides: shorter %d, longer %d "
        "(x-z: %d, %d)\n",
        q.sameEnds, q.sameEndsShorter, q.sameEndsLonger, q.sameEndsShorterXZ, q.sameEndsLongerXZ);
    std::printf("pairs located by both sides: %zu\n", located.size());
    std::printf("Spark path hash (located/complete flags, point bits and corridor of every query): %016llx\n",
                static_cast<unsigned long long>(q.sparkPathHash));
    std::printf("Detour: %d searches ran out of nodes (%d), %d straight paths truncated at %d points\n",
                q.detourOutOfNodes, gDetourNodes, q.detourStraightTruncated, gDetourMaxStraight);
    return 0;
}

/// The tiled levels: the dungeon, and tools/terrain.py's 1 km level (out/terrain-1k.obj, made beforehand).
Level tiledLevel(const std::string& name)
{
    if (name == "dungeon")
        return bench::levels::dungeonLevel();
    if (name != "terrain1k")
    {
        std::fprintf(stderr, "unknown tiled level '%s' (dungeon, terrain1k, all)\n", name.c_str());
        std::exit(2);
    }
    const char* obj = "out/terrain-1k.obj";
    if (!std::filesystem::exists(dataPath(obj)))
    {
        std::fprintf(stderr, "%s is missing: python3 tools/terrain.py -o %s\n", obj, obj);
        std::exit(2);
    }
    Level level;
    level.name = name;
    level.what = obj;
    level.input = loadObjInput(obj);
    bench::levels::finishLevel(level);
    return level;
}

// --- Callgrind ---------------------------------------------------------------------------

/// Inside valgrind: bake one side, warm it, run its counted loop once.
int runCallgrindSide(const std::string& side, int pairCount, const Level& level)
{
    const nav::BakeInput& input = level.input;
    size_t walkableTris = 0;
    const std::vector<Pair> all = drawPairs(input, kPairs, &walkableTris);
    const std::span<const Pair> pairs(all.data(), size_t(std::clamp(pairCount, 1, kPairs)));
    int complete = 0;
    if (side == "spark")
    {
        SparkSide spark;
        bakeSpark(input, spark);
        warmUp(spark, pairs);
        complete = sparkPathQueryLoop(spark, pairs);
    }
    else if (side == "detour")
    {
        DetourSide detour;
        bakeDetour(input, detour);
        warmUp(detour, pairs);
        complete = detourPathQueryLoop(detour, pairs);
    }
    else
    {
        std::fprintf(stderr, "unknown side %s\n", side.c_str());
        return 2;
    }
    std::printf("%s: %d of %zu pairs complete\n", side.c_str(), complete, pairs.size());
    return 0;
}

int runCallgrind(int pairCount, const std::string& outDir, const std::string& levelName)
{
    const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
    std::error_code ignored;
    std::filesystem::create_directories(outDir, ignored);
    long long totals[2] = {-1, -1};
    const char* sides[2] = {"spark", "detour"};
    const char* loops[2] = {"sparkPathQueryLoop", "detourPathQueryLoop"};
    for (int i = 0; i < 2; ++i)
    {
        const std::string file = outDir + "/path_bench." + sides[i] + ".callgrind";
        const std::string cmd =
            std::string("valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*") + loops[i] +
            "*' --callgrind-out-file=" + file + " " + self + " --callgrind-side=" + sides[i] +
            " --pairs=" + std::to_string(pairCount) + " --level=" + levelName +
            (gTiled.on ? " --tiled --tile-size=" + std::to_string(gTiled.tileSize) +
                             " --cell-size=" + std::to_string(gTiled.cellSize)
                       : std::string()) +
            " 2>" + file + ".log";
        std::printf("%s\n", cmd.c_str());
        std::fflush(stdout);
        if (std::system(cmd.c_str()) != 0)
        {
            std::fprintf(stderr, "valgrind failed (see %s.log)\n", file.c_str());
            return 1;
        }
        totals[i] = spark::bench::callgrindTotal(file);
    }
    std::printf("\ninstructions per query (callgrind Ir, %s%s, %d pairs, warm):\n", levelName.c_str(),
                gTiled.on ? " tiled" : "", pairCount);
    std::printf("  spark  %12.0f\n  detour %12.0f\n  ratio spark/detour %.3f\n",
                double(totals[0]) / pairCount, double(totals[1]) / pairCount,
                double(totals[0]) / double(totals[1]));
    std::printf("profile: callgrind_annotate --inclusive=yes %s/path_bench.spark.callgrind | head -40\n",
                outDir.c_str());
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    bool callgrind = false;
    std::string side, outDir = "/tmp", levelName = "dungeon";
    int pairCount = kCallgrindPairs;
    int tablePairs = kPairs;
    float cellSize = 0.0f;
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        if (arg == "--callgrind")
            callgrind = true;
        else if (arg.rfind("--callgrind-side=", 0) == 0)
            side = arg.substr(17);
        else if (arg.rfind("--pairs=", 0) == 0)
            pairCount = tablePairs = std::atoi(arg.c_str() + 8);
        else if (arg == "--tiled")
            gTiled.on = true;
        else if (arg.rfind("--tile-size=", 0) == 0)
            gTiled.tileSize = std::atoi(arg.c_str() + 12);
        else if (arg.rfind("--cell-size=", 0) == 0)
            cellSize = float(std::atof(arg.c_str() + 12));
        else if (arg.rfind("--repeats=", 0) == 0)
            gRepeats = std::max(1, std::atoi(arg.c_str() + 10));
        else if (arg == "--pairs" && i + 1 < argc)
            pairCount = std::atoi(argv[++i]);
        else if (arg.rfind("--out=", 0) == 0)
            outDir = arg.substr(6);
        else if (arg == "--out" && i + 1 < argc)
            outDir = argv[++i];
        else if (arg.rfind("--level=", 0) == 0)
            levelName = arg.substr(8);
        else
        {
            std::fprintf(stderr,
                         "usage: path_bench [--level=dungeon|terrain|ramps|all] [--pairs=N] [--repeats=N] "
                         "[--callgrind [--pairs N] [--out DIR]]\n"
                         "       path_bench --tiled [--level=dungeon|terrain1k|all] [--tile-size=64] "
                         "[--cell-size=M] [--pairs=N] [--repeats=N] [--callgrind [--out DIR]]\n");
            return 2;
        }
    }
    if (pairCount < 1 || pairCount > kPairs || tablePairs < 1 || tablePairs > kPairs)
    {
        std::fprintf(stderr, "--pairs must be 1..%d\n", kPairs);
        return 2;
    }
    if (gTiled.on)
    {
        gDetourNodes = 65535;
        gDetourMaxPath = 16384;
        gDetourMaxStraight = 4096;
    }
    if (gTiled.on && !side.empty())
    {
        gTiled.cellSize = cellSize > 0.0f ? cellSize : levelName == "dungeon" ? kCellSize : 0.5f;
        return runCallgrindSide(side, pairCount, tiledLevel(levelName));
    }
    if (gTiled.on)
    {
        const std::vector<std::string> tiledNames = levelName == "all" ? std::vector<std::string>{"dungeon", "terrain1k"}
                                                                       : std::vector<std::string>{levelName};
        int status = 0;
        for (size_t i = 0; i < tiledNames.size() && status == 0; ++i)
        {
            gTiled.cellSize = cellSize > 0.0f ? cellSize : tiledNames[i] == "dungeon" ? kCellSize : 0.5f;
            status = callgrind ? runCallgrind(pairCount, outDir + (tiledNames.size() > 1 ? "/" + tiledNames[i] : ""),
                                              tiledNames[i])
                               : runTable(tiledLevel(tiledNames[i]), tablePairs);
            std::printf("\n");
        }
        return status;
    }
    const std::vector<std::string> names = levelName == "all"
                                               ? std::vector<std::string>{"dungeon", "terrain", "ramps"}
                                               : std::vector<std::string>{levelName};
    if (!side.empty())
        return runCallgrindSide(side, pairCount, bench::levels::makeLevel(levelName));
    int status = 0;
    for (size_t i = 0; i < names.size() && status == 0; ++i)
    {
        if (i > 0)
            std::printf("\n");
        status = callgrind
                     ? runCallgrind(pairCount, outDir + (names.size() > 1 ? "/" + names[i] : ""), names[i])
                     : runTable(bench::levels::makeLevel(names[i]), tablePairs);
    }
    return status;
}
