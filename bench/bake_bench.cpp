/// \file bake_bench.cpp
/// Spark's 3D bake against Recast's solo-mesh pipeline (Debian's librecast-dev
/// 1.5.1, linked by this bench only) on three levels, with the same triangles
/// given to both sides:
///
///  - dungeon: data/meshes/dungeon.obj (read from the working
///    directory, else from the source tree);
///  - terrain: "open terrain with many small obstacles", made here: a 200 × 200 m
///    ground grid of 1 m quads whose height is a fixed sum of integer-frequency
///    sines, and 400 boxes, octagonal pillars and short walls placed by a seeded
///    spark::Rng (seed kTerrainSeed);
///  - ramps: "long ramps", made here: straight solid ramps 40 m long at 20°, 25°,
///    30° and one at 50° (too steep), a rotated 40 m ramp, two staircases
///    (0.25 m and 0.45 m risers), a four-flight switchback of thin floating
///    slabs, terraces with climbable and unclimbable drops, a bridge with head
///    room under it and a low slab without.
/// The generated levels are closed solids wound outwards (right-hand normals);
/// every level is baked one-sided (BakeInput::oneSided), as Recast reads
/// triangles (a surface is walkable only when its front faces up).
///
/// Settings: RecastDemo's defaults (Sample_SoloMesh): cell 0.3 × 0.2 m, agent
/// height 2.0, radius 0.6, climb 0.9, slope 45°, region min size 8 (cells, each
/// side), merge size 20, edge max len 12 m, edge max error 1.3, 6 verts per
/// polygon; detail sample distance 6 (× cell size), detail max error 1 (× cell
/// height). Spark takes them through BakeDef as sparkBakeDef() maps them (min region
/// area = 8 × 8 cells, merge region area = 20 × 20 cells; Spark has no detail mesh).
///
/// Three rows per level, each a whole bake from triangles to polygons:
///  - spark: the stages of spark::nav::bakeTriangles (libnav/src/bake/bake.h,
///    same calls, same order, timed one by one; its settings validation is left
///    out); the bench checks that the mesh equals bakeTriangles's.
///  - recast: like for like — monotone partition, no detail mesh.
///  - recast-default: as RecastDemo runs it by default — watershed partition
///    (distance field + rcBuildRegions) and the detail mesh. Not timed there:
///    RecastDemo's Detour tile creation (dtCreateNavMeshData), as Spark's
///    buildNavMesh is not timed either. rcContext has its timers and log off.
/// Stages: voxelize (bounds, grid, walkable marking, rasterisation; Spark's
/// also holds the low-obstacle filter, which Recast runs in filter+open),
/// filter+open (filters, open/compact field; Recast frees the heightfield
/// here, as RecastDemo does), erode, regions, contours, polygons, detail; total runs from the first
/// instruction to the intermediate data freed (only the output mesh is kept).
/// Stage and total columns are separate medians, so stages need not sum to the
/// total exactly.
///
/// Timing: thread CPU time (bench_stats.h), median over --rounds repeats
/// (default 11, at least 7), after one untimed warm-up bake of each row whose
/// output gives the quality columns. Each repeat runs all three rows; the order
/// reverses every repeat (spark, recast, default / default, recast, spark), so
/// neither side always runs first. Never the best run. The spread of the totals
/// ((max − min) / median) is printed. Quality beside the times: polygons,
/// vertices, and walkable area (x–z area of the polygons, bench/recast_area.h
/// for Recast). The median count of minor page faults per bake is printed under
/// the times: each is a first touch of memory the allocator had returned to the
/// system, and on a machine where one costs ~17 µs they weigh as much as the
/// instructions.
///
/// Callgrind (repeatable instruction counts): each whole bake is one
/// noinline extern "C" function — bench_spark_bake, bench_recast_bake_monotone,
/// bench_recast_bake_default — and --side runs only that function --rounds
/// times (loading or generating the level happens outside it):
///   valgrind --tool=callgrind --collect-atstart=no --toggle-collect=bench_spark_bake
///       build/helper-bake/bench/bake_bench --level=dungeon --side=spark --rounds=1
///   (--side=recast → bench_recast_bake_monotone, --side=recast-default → bench_recast_bake_default)
/// The count is of everything run inside the function (callees, allocation and
/// freeing included); `callgrind_annotate --inclusive=yes` splits it by stage.
///
/// Tiled (--tiled): each side runs in a process of its own (--serve=SIDE, which
/// reads one line "bake" per bake from stdin and answers the run's figures);
/// under the table, the hash of Spark's output with one thread and with N
/// (meshHash), so a change that must keep the output can be checked on the
/// big levels. Callgrind of one tiled bake:
///   echo bake | valgrind --tool=callgrind --collect-atstart=no
///       --toggle-collect='spark::nav::bakeTriangles*' build/<dir>/bench/bake_bench --serve=spark-1
///       --level=dungeon --tile-size=64 --threads=1
///   (Recast: --serve=recast-1 --toggle-collect='spark::bench::tiles::bakeRecastTile(*', one call per tile)
///
/// Run from the project root: build/<dir>/bench/bake_bench [--level=dungeon|terrain|ramps|all] [--rounds=N]

#include "bake_stages.h"
#include "bench_stats.h"
#include "levels.h"
#include "recast_area.h"
#include "recastdemo.h"
#include "recast_tiles.h"

#include "spark/core/hash.h"
#include "spark/core/rng.h"
#include "spark/nav/bake.h"
#include "spark/scene/model_obj.h"

#include <Recast.h>

#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/vec2.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace
{

using namespace spark::bench::demo;   // RecastDemo's settings, both sides (recastdemo.h)
using namespace spark::bench::levels; // dungeon, terrain, ramps (levels.h)

enum Stage
{
    kVoxelize,
    kFilter,
    kErode,
    kRegions,
    kContours,
    kPolygons,
    kDetail,
    kTotal,
    kFaults, ///< Minor page faults of the whole bake (a count, not ms).
    kStageCount
};
constexpr std::array<const char*, kStageCount> kStageNames = {
    "voxelize", "filter+open", "erode", "regions", "contours", "polygons", "detail", "total", "page faults"};

} // namespace

/// Milliseconds of thread CPU time per stage; kTotal is the whole bake, and
/// kFaults its minor page faults.
using StageTimes = std::array<double, kStageCount>;

namespace
{

/// Stage laps on the thread CPU clock; does nothing when `times` is null (the
/// callgrind runs), so the timed and the counted bakes are the same code.
struct Laps
{
    StageTimes* times;
    double start = 0.0;
    double last = 0.0;
    long faults = 0;

    explicit Laps(StageTimes* t) : times(t)
    {
        if (times)
        {
            times->fill(0.0);
            faults = spark::bench::threadMinorFaults();
            start = last = spark::bench::threadSeconds();
        }
    }
    void mark(Stage stage)
    {
        if (!times)
            return;
        const double now = spark::bench::threadSeconds();
        (*times)[stage] = (now - last) * 1000.0;
        last = now;
    }
    void finish()
    {
        if (!times)
            return;
        (*times)[kTotal] = (spark::bench::threadSeconds() - start) * 1000.0;
        (*times)[kFaults] = static_cast<double>(spark::bench::threadMinorFaults() - faults);
    }
};

void check(bool ok, const char* what)
{
    if (!ok)
    {
        std::fprintf(stderr, "recast: %s failed\n", what);
        std::exit(1);
    }
}

/// Recast's solo-mesh pipeline as Sample_SoloMesh::handleBuild runs it (with the
/// default filters on, no convex volumes); `defaultRun` = watershed + detail mesh,
/// else monotone and no detail mesh.
void recastBake(const float* verts, int nverts, const int* tris, int ntris, bool defaultRun,
                rcPolyMesh*& outMesh, rcPolyMeshDetail*& outDetail, StageTimes* times)
{
    Laps laps(times);
    rcContext ctx(false);
    rcConfig cfg = recastConfig(verts, nverts);
    rcHeightfield* hf = rcAllocHeightfield();
    check(hf && rcCreateHeightfield(&ctx, *hf, cfg.width, cfg.height, cfg.bmin, cfg.bmax, cfg.cs, cfg.ch),
          "rcCreateHeightfield");
    std::vector<unsigned char> areas(static_cast<size_t>(ntris), 0);
    rcMarkWalkableTriangles(&ctx, cfg.walkableSlopeAngle, verts, nverts, tris, ntris, areas.data());
    check(rcRasterizeTriangles(&ctx, verts, nverts, tris, areas.data(), ntris, *hf, cfg.walkableClimb),
          "rcRasterizeTriangles");
    laps.mark(kVoxelize);

    rcFilterLowHangingWalkableObstacles(&ctx, cfg.walkableClimb, *hf);
    rcFilterLedgeSpans(&ctx, cfg.walkableHeight, cfg.walkableClimb, *hf);
    rcFilterWalkableLowHeightSpans(&ctx, cfg.walkableHeight, *hf);
    rcCompactHeightfield* chf = rcAllocCompactHeightfield();
    check(chf && rcBuildCompactHeightfield(&ctx, cfg.walkableHeight, cfg.walkableClimb, *hf, *chf),
          "rcBuildCompactHeightfield");
    rcFreeHeightField(hf);
    laps.mark(kFilter);

    check(rcErodeWalkableArea(&ctx, cfg.walkableRadius, *chf), "rcErodeWalkableArea");
    laps.mark(kErode);

    if (defaultRun)
    {
        check(rcBuildDistanceField(&ctx, *chf), "rcBuildDistanceField");
        check(rcBuildRegions(&ctx, *chf, 0, cfg.minRegionArea, cfg.mergeRegionArea), "rcBuildRegions");
    }
    else
        check(rcBuildRegionsMonotone(&ctx, *chf, 0, cfg.minRegionArea, cfg.mergeRegionArea),
              "rcBuildRegionsMonotone");
    laps.mark(kRegions);

    rcContourSet* cset = rcAllocContourSet();
    check(cset && rcBuildContours(&ctx, *chf, cfg.maxSimplificationError, cfg.maxEdgeLen, *cset),
          "rcBuildContours");
    laps.mark(kContours);

    rcPolyMesh* pmesh = rcAllocPolyMesh();
    check(pmesh && rcBuildPolyMesh(&ctx, *cset, cfg.maxVertsPerPoly, *pmesh), "rcBuildPolyMesh");
    laps.mark(kPolygons);

    rcPolyMeshDetail* dmesh = nullptr;
    if (defaultRun)
    {
        dmesh = rcAllocPolyMeshDetail();
        check(dmesh && rcBuildPolyMeshDetail(&ctx, *pmesh, *chf, cfg.detailSampleDist,
                                             cfg.detailSampleMaxError, *dmesh),
              "rcBuildPolyMeshDetail");
        laps.mark(kDetail);
    }
    rcFreeCompactHeightfield(chf);
    rcFreeContourSet(cset);
    laps.finish();
    outMesh = pmesh;
    outDetail = dmesh;
}

} // namespace

// --- The three whole bakes, one noinline function each (callgrind targets) ----

/// Spark: the stages of bakeTriangles (bake.cpp) after its validation, in its
/// order; the intermediate fields are freed before the total is taken.
extern "C" __attribute__((noinline)) void bench_spark_bake(const spark::nav::BakeInput* inputPtr,
                                                           const spark::nav::BakeDef* defPtr,
                                                           spark::nav::PolySoup* outMesh, StageTimes* times)
{
    using namespace spark::nav;
    const BakeInput& input = *inputPtr;
    const BakeDef& def = *defPtr;
    Laps laps(times);
    {
        // The grid as bakeTriangles sets it up (bounds of the referenced vertices).
        glm::vec3 lo = input.vertices[input.indices[0]], hi = lo;
        for (uint32_t idx : input.indices)
        {
            const glm::vec3& v = input.vertices[idx];
            lo = glm::vec3(std::min(lo.x, v.x), std::min(lo.y, v.y), std::min(lo.z, v.z));
            hi = glm::vec3(std::max(hi.x, v.x), std::max(hi.y, v.y), std::max(hi.z, v.z));
        }
        const bake::CellSettings cells = bake::cellSettingsOf(def);
        bake::SolidField solid;
        solid.grid.width =
            std::max(1, static_cast<int>(std::ceil((static_cast<double>(hi.x) - lo.x) / def.cellSize)));
        solid.grid.depth =
            std::max(1, static_cast<int>(std::ceil((static_cast<double>(hi.z) - lo.z) / def.cellSize)));
        solid.grid.origin = lo;
        solid.grid.cellSize = def.cellSize;
        solid.grid.cellHeight = def.cellHeight;
        bake::voxelizeTriangles(input, cells, solid);
        laps.mark(kVoxelize);

        bake::OpenField open;
        if (!bake::filterSpans(solid, cells, open).ok())
        {
            std::fprintf(stderr, "spark: filterSpans failed\n");
            std::exit(1);
        }
        solid = bake::SolidField{}; // as bakeTriangles frees it
        laps.mark(kFilter);

        bake::erodeWalkable(open, cells);
        laps.mark(kErode);

        bake::buildRegions(open, cells);
        laps.mark(kRegions);

        bake::ContourSet contours;
        bake::buildContours(open, cells, contours);
        laps.mark(kContours);

        *outMesh = PolySoup{};
        bake::buildPolygons(contours, open, cells, *outMesh);
        laps.mark(kPolygons);
    } // open and contours freed here
    laps.finish();
}

/// Recast like for like: monotone partition, no detail mesh.
extern "C" __attribute__((noinline)) void bench_recast_bake_monotone(const float* verts, int nverts,
                                                                     const int* tris, int ntris,
                                                                     rcPolyMesh** outMesh, StageTimes* times)
{
    rcPolyMeshDetail* none = nullptr;
    recastBake(verts, nverts, tris, ntris, false, *outMesh, none, times);
}

/// Recast as RecastDemo runs it by default: watershed partition + detail mesh.
extern "C" __attribute__((noinline)) void
bench_recast_bake_default(const float* verts, int nverts, const int* tris, int ntris, rcPolyMesh** outMesh,
                          rcPolyMeshDetail** outDetail, StageTimes* times)
{
    recastBake(verts, nverts, tris, ntris, true, *outMesh, *outDetail, times);
}

namespace
{

// --- Quality ------------------------------------------------------------------

double soupArea(const spark::nav::PolySoup& mesh)
{
    double area = 0.0;
    for (size_t p = 0; p < mesh.polygonCount(); ++p)
    {
        const uint32_t b = mesh.polyStarts[p], e = mesh.polyStarts[p + 1];
        double twice = 0.0;
        for (uint32_t k = b; k < e; ++k)
        {
            const glm::vec3& a = mesh.vertices[mesh.indices[k]];
            const glm::vec3& c = mesh.vertices[mesh.indices[k + 1 < e ? k + 1 : b]];
            twice += static_cast<double>(a.x) * c.z - static_cast<double>(c.x) * a.z;
        }
        area += std::abs(twice) * 0.5;
    }
    return area;
}

struct Quality
{
    long polygons = 0;
    long vertices = 0;
    double area = 0.0;
    long detailTriangles = -1; ///< Recast's detail mesh only.
};

Quality qualityOf(const spark::nav::PolySoup& mesh)
{
    return {static_cast<long>(mesh.polygonCount()), static_cast<long>(mesh.vertices.size()), soupArea(mesh),
            -1};
}

Quality qualityOf(const rcPolyMesh& pmesh, const rcPolyMeshDetail* dmesh)
{
    return {pmesh.npolys, pmesh.nverts, spark::bench::recastPolyMeshArea(pmesh, pmesh.cs),
            dmesh ? dmesh->ntris : -1};
}

// --- The three rows -----------------------------------------------------------

enum Side
{
    kSpark,
    kRecast,
    kRecastDefault,
    kSideCount
};
constexpr std::array<const char*, kSideCount> kSideNames = {"spark", "recast", "recast-default"};

/// One whole bake of `side` on `level`; returns the output's quality.
Quality runSide(Side side, const Level& level, const spark::nav::BakeDef& def, StageTimes* times)
{
    const float* verts = &level.input.vertices[0].x;
    const int nverts = static_cast<int>(level.input.vertices.size());
    const int ntris = static_cast<int>(level.recastTris.size() / 3);
    if (side == kSpark)
    {
        spark::nav::PolySoup mesh;
        bench_spark_bake(&level.input, &def, &mesh, times);
        return qualityOf(mesh);
    }
    rcPolyMesh* pmesh = nullptr;
    rcPolyMeshDetail* dmesh = nullptr;
    if (side == kRecast)
        bench_recast_bake_monotone(verts, nverts, level.recastTris.data(), ntris, &pmesh, times);
    else
        bench_recast_bake_default(verts, nverts, level.recastTris.data(), ntris, &pmesh, &dmesh, times);
    const Quality q = qualityOf(*pmesh, dmesh);
    rcFreePolyMesh(pmesh);
    rcFreePolyMeshDetail(dmesh);
    return q;
}

struct LevelResult
{
    std::string name;
    std::array<std::array<std::vector<double>, kStageCount>, kSideCount> times;
    std::array<Quality, kSideCount> quality;
};

double med(const LevelResult& r, Side side, Stage stage)
{
    return spark::bench::median(r.times[side][stage]);
}

LevelResult measure(const Level& level, int rounds)
{
    const spark::nav::BakeDef def = sparkBakeDef();
    LevelResult result;
    result.name = level.name;

    // Warm-up (untimed): the quality columns, and the staged Spark bake must give
    // the very mesh the public entry point gives.
    for (int s = 0; s < kSideCount; ++s)
        result.quality[s] = runSide(static_cast<Side>(s), level, def, nullptr);
    spark::nav::PolySoup staged;
    bench_spark_bake(&level.input, &def, &staged, nullptr);
    auto full = spark::nav::bakeTriangles(level.input, def);
    if (!full || full->mesh.indices != staged.indices || full->mesh.polyStarts != staged.polyStarts ||
        full->mesh.vertices != staged.vertices)
    {
        std::fprintf(stderr, "%s: bakeTriangles disagrees with the staged run\n", level.name.c_str());
        std::exit(1);
    }

    for (int r = 0; r < rounds; ++r)
        for (int k = 0; k < kSideCount; ++k)
        {
            const Side side = static_cast<Side>(r % 2 == 0 ? k : kSideCount - 1 - k);
            StageTimes t{};
            runSide(side, level, def, &t);
            for (int s = 0; s < kStageCount; ++s)
                result.times[side][s].push_back(t[s]);
        }

    const auto& in = level.input;
    glm::vec3 lo = in.vertices[in.indices[0]], hi = lo;
    for (uint32_t idx : in.indices)
    {
        lo = glm::min(lo, in.vertices[idx]);
        hi = glm::max(hi, in.vertices[idx]);
    }
    std::printf("== %s: %s\n   %zu vertices, %zu triangles, bounds %.0f x %.0f x %.0f m, grid %d x %d cells; "
                "spark regions %u (fallback %u), spans %llu\n",
                level.name.c_str(), level.what.c_str(), in.vertices.size(), in.indices.size() / 3,
                static_cast<double>(hi.x - lo.x), static_cast<double>(hi.y - lo.y),
                static_cast<double>(hi.z - lo.z), static_cast<int>(std::ceil((hi.x - lo.x) / kCellSize)),
                static_cast<int>(std::ceil((hi.z - lo.z) / kCellSize)), full->stats.regions,
                full->stats.fallbackRegions, static_cast<unsigned long long>(full->stats.spans));
    std::printf("   median of %d repeats, thread CPU ms; recast = monotone, no detail; default = watershed + "
                "detail\n",
                rounds);
    std::printf("   %-12s %10s %10s %8s %10s %8s\n", "stage", "spark", "recast", "s/r", "default", "s/d");
    for (int s = 0; s < kStageCount; ++s)
    {
        const Stage st = static_cast<Stage>(s);
        const double a = med(result, kSpark, st), b = med(result, kRecast, st),
                     d = med(result, kRecastDefault, st);
        if (st == kDetail)
        {
            std::printf("   %-12s %10s %10s %8s %10.3f %8s\n", kStageNames[s], "-", "-", "", d, "");
            continue;
        }
        if (st == kFaults)
        {
            std::printf("   %-12s %10.0f %10.0f %8s %10.0f\n", kStageNames[s], a, b, "", d);
            continue;
        }
        std::printf("   %-12s %10.3f %10.3f %8.2f %10.3f %8.2f\n", kStageNames[s], a, b,
                    b > 0.0 ? a / b : 0.0, d, d > 0.0 ? a / d : 0.0);
    }
    std::printf("   %-12s %9.1f%% %9.1f%% %8s %9.1f%%\n", "spread",
                spark::bench::spreadPercent(result.times[kSpark][kTotal]),
                spark::bench::spreadPercent(result.times[kRecast][kTotal]), "",
                spark::bench::spreadPercent(result.times[kRecastDefault][kTotal]));
    const Quality& qs = result.quality[kSpark];
    const Quality& qr = result.quality[kRecast];
    const Quality& qd = result.quality[kRecastDefault];
    std::printf("   %-12s %10ld %10ld %8s %10ld\n", "polygons", qs.polygons, qr.polygons, "", qd.polygons);
    std::printf("   %-12s %10ld %10ld %8s %10ld\n", "vertices", qs.vertices, qr.vertices, "", qd.vertices);
    std::printf("   %-12s %10.1f %10.1f %8s %10.1f   (spark %+.2f %% vs recast, %+.2f %% vs default)\n",
                "area m2", qs.area, qr.area, "", qd.area, 100.0 * (qs.area - qr.area) / qr.area,
                100.0 * (qs.area - qd.area) / qd.area);
    std::printf("   %-12s %10s %10s %8s %10ld\n\n", "detail tris", "-", "-", "", qd.detailTriangles);
    std::fflush(stdout);
    return result;
}

void printSummary(const std::vector<LevelResult>& results, int rounds)
{
    std::printf("== summary: total thread CPU ms, median of %d\n", rounds);
    std::printf("%-8s %9s %9s %6s %9s %6s | %17s | %17s | %26s\n", "level", "spark", "recast", "s/r",
                "default", "s/d", "polygons s/r/d", "vertices s/r/d", "area m2 s/r/d");
    for (const LevelResult& r : results)
    {
        const double a = med(r, kSpark, kTotal), b = med(r, kRecast, kTotal),
                     d = med(r, kRecastDefault, kTotal);
        const auto& q = r.quality;
        std::printf(
            "%-8s %9.2f %9.2f %6.2f %9.2f %6.2f | %5ld %5ld %5ld | %5ld %5ld %5ld | %8.0f %8.0f %8.0f\n",
            r.name.c_str(), a, b, a / b, d, a / d, q[kSpark].polygons, q[kRecast].polygons,
            q[kRecastDefault].polygons, q[kSpark].vertices, q[kRecast].vertices, q[kRecastDefault].vertices,
            q[kSpark].area, q[kRecast].area, q[kRecastDefault].area);
    }
}

// --- Tiled: Spark's tiled bake against Recast's (--tiled) ----------------------

/// A level for the tiled comparison and its cell size.
struct TiledLevel
{
    std::string name;
    std::string what;
    float cellSize = kCellSize;
    spark::nav::BakeInput input;
};

/// dungeon (cells of 0.3 m, RecastDemo's), terrain1k and terrain4k
/// (tools/terrain.py's 1 km and 4 km levels, cells of 0.5 m as
/// samples/terrain/run.sh bakes them; written to out/ beforehand).
TiledLevel loadTiledLevel(const std::string& name, float cellSize)
{
    TiledLevel level;
    level.name = name;
    const char* obj = nullptr;
    if (name == "dungeon")
        obj = kDungeonPath;
    else if (name == "terrain1k")
        obj = "out/terrain-1k.obj";
    else if (name == "terrain4k")
        obj = "out/terrain-4k.obj";
    else
    {
        std::fprintf(stderr, "unknown tiled level '%s' (dungeon, terrain1k, terrain4k)\n", name.c_str());
        std::exit(2);
    }
    if (name != "dungeon" && !std::filesystem::exists(dataPath(obj)))
    {
        std::fprintf(stderr, "%s is missing: python3 tools/terrain.py%s -o %s\n", obj,
                     name == "terrain4k" ? " --size 4000" : "", obj);
        std::exit(2);
    }
    level.what = obj;
    level.cellSize = cellSize > 0.0f ? cellSize : (name == "dungeon" ? kCellSize : 0.5f);
    level.input = loadObjInput(obj);
    return level;
}

/// The sides of the tiled comparison, each run in its own process (peak RSS
/// is per process): Spark and Recast on one thread and on `threads`.
enum TiledSide
{
    kSpark1,
    kSparkN,
    kRecast1,
    kRecastN,
    kTiledSideCount
};
constexpr std::array<const char*, kTiledSideCount> kTiledSideNames = {"spark-1", "spark-N", "recast-1", "recast-N"};

/// One bake of a side as its process measures it.
struct TiledRun
{
    double cpuMs = 0.0;  ///< Thread CPU (one thread) or process CPU (N threads).
    double wallMs = 0.0; ///< Monotonic clock.
    double peakMb = 0.0; ///< VmHWM of the process during the bake (reset before it).
    long tiles = 0, polygons = 0, vertices = 0;
    double area = 0.0;
    uint64_t hash = 0; ///< Spark's sides: the bake's output (meshHash); 0 for Recast's.
};

/// XXH3-64 of a tiled bake's polygons and tile table, so a change to the bake
/// that must keep its output can be checked on the big levels (not timed).
uint64_t meshHash(const spark::nav::BakeOutput& out)
{
    spark::Hasher h;
    const spark::nav::PolySoup& m = out.mesh;
    for (const glm::vec3& v : m.vertices)
        for (int c = 0; c < 3; ++c)
            h.addF32(v[c]);
    for (uint32_t i : m.indices)
        h.addU32(i);
    for (uint32_t i : m.polyStarts)
        h.addU32(i);
    h.addBytes(m.areas.data(), m.areas.size());
    for (const spark::nav::NavTile& t : out.tiles)
    {
        h.addI32(t.x);
        h.addI32(t.z);
        h.addU32(t.firstPolygon);
        h.addU32(t.polygonCount);
        h.addU32(t.firstVertex);
        h.addU32(t.vertexCount);
    }
    return h.digest();
}

double wallSeconds()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double processCpuSeconds()
{
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

/// A field of /proc/self/status in MB (VmRSS, VmHWM).
double statusMb(const char* field)
{
    std::FILE* f = std::fopen("/proc/self/status", "r");
    char line[256];
    double kb = 0.0;
    const size_t n = std::strlen(field);
    while (f && std::fgets(line, sizeof line, f))
        if (std::strncmp(line, field, n) == 0 && line[n] == ':')
            kb = std::atof(line + n + 1);
    if (f)
        std::fclose(f);
    return kb / 1024.0;
}

/// Resets the process's peak RSS to its current RSS (Linux clear_refs "5").
void resetPeakRss()
{
    std::FILE* f = std::fopen("/proc/self/clear_refs", "w");
    if (f)
    {
        std::fputs("5", f);
        std::fclose(f);
    }
}

/// A child process of one side: `ready` after the level is loaded; each line
/// "bake" on its stdin runs one bake and answers one TiledRun line.
int serveTiledSide(TiledSide side, const std::string& levelName, float cellSize, int tileSize, unsigned threads)
{
    const TiledLevel level = loadTiledLevel(levelName, cellSize);
    const float* verts = &level.input.vertices[0].x;
    const int nverts = static_cast<int>(level.input.vertices.size());
    const int* tris = reinterpret_cast<const int*>(level.input.indices.data());
    const int ntris = static_cast<int>(level.input.indices.size() / 3);
    spark::nav::BakeDef def = sparkBakeDef();
    def.cellSize = level.cellSize;
    def.minRegionArea = static_cast<float>(kRegionMinSize * kRegionMinSize) * def.cellSize * def.cellSize;
    def.mergeRegionArea = static_cast<float>(kRegionMergeSize * kRegionMergeSize) * def.cellSize * def.cellSize;
    def.tileSize = tileSize;
    def.threads = side == kSpark1 ? 1 : static_cast<int>(threads);
    const rcConfig cfg = spark::bench::tiles::recastTileConfig(level.cellSize, tileSize);
    // Recast's triangle buckets, made once as the sample makes its chunky mesh on load (not timed).
    spark::bench::tiles::RecastTileBuckets buckets;
    if (side == kRecast1 || side == kRecastN)
        buckets = spark::bench::tiles::bucketRecastTiles(verts, nverts, tris, ntris, cfg);
    std::printf("ready %.1f\n", statusMb("VmRSS"));
    std::fflush(stdout);
    char line[64];
    while (std::fgets(line, sizeof line, stdin))
    {
        TiledRun run;
        resetPeakRss();
        const bool one = side == kSpark1 || side == kRecast1;
        const double cpu0 = one ? spark::bench::threadSeconds() : processCpuSeconds(), wall0 = wallSeconds();
        if (side == kSpark1 || side == kSparkN)
        {
            auto baked = spark::nav::bakeTriangles(level.input, def);
            const double cpu1 = one ? spark::bench::threadSeconds() : processCpuSeconds(), wall1 = wallSeconds();
            if (!baked.ok())
            {
                std::fprintf(stderr, "spark: %s\n", baked.error().message.c_str());
                return 1;
            }
            run.cpuMs = (cpu1 - cpu0) * 1000.0;
            run.wallMs = (wall1 - wall0) * 1000.0;
            run.peakMb = statusMb("VmHWM");
            const Quality q = qualityOf(baked.value().mesh);
            run.tiles = static_cast<long>(baked.value().tiles.size());
            run.polygons = q.polygons;
            run.vertices = q.vertices;
            run.area = q.area;
            run.hash = meshHash(baked.value());
        }
        else
        {
            std::vector<spark::bench::tiles::RecastTile> baked = spark::bench::tiles::bakeRecastTiles(
                cfg, buckets, verts, nverts, true, false, side == kRecast1 ? 1u : threads);
            const double cpu1 = one ? spark::bench::threadSeconds() : processCpuSeconds(), wall1 = wallSeconds();
            run.cpuMs = (cpu1 - cpu0) * 1000.0;
            run.wallMs = (wall1 - wall0) * 1000.0;
            run.peakMb = statusMb("VmHWM");
            for (spark::bench::tiles::RecastTile& t : baked)
            {
                if (!t.pmesh)
                    continue;
                const Quality q = qualityOf(*t.pmesh, nullptr);
                ++run.tiles;
                run.polygons += q.polygons;
                run.vertices += q.vertices;
                run.area += q.area;
                spark::bench::tiles::freeRecastTile(t);
            }
        }
        std::printf("%.3f %.3f %.2f %ld %ld %ld %.3f %llu\n", run.cpuMs, run.wallMs, run.peakMb, run.tiles,
                    run.polygons, run.vertices, run.area, static_cast<unsigned long long>(run.hash));
        std::fflush(stdout);
    }
    return 0;
}

/// A running side: its process and the pipes to it.
struct SideProcess
{
    pid_t pid = -1;
    std::FILE* to = nullptr;
    std::FILE* from = nullptr;
    double baselineMb = 0.0; ///< RSS with the level loaded, before any bake.
};

SideProcess startSide(TiledSide side, const std::vector<std::string>& common)
{
    int down[2], up[2];
    if (pipe2(down, O_CLOEXEC) != 0 || pipe2(up, O_CLOEXEC) != 0) // no other side inherits them
    {
        std::perror("pipe");
        std::exit(1);
    }
    SideProcess p;
    p.pid = fork();
    if (p.pid == 0)
    {
        dup2(down[0], 0);
        dup2(up[1], 1);
        close(down[0]);
        close(down[1]);
        close(up[0]);
        close(up[1]);
        std::vector<std::string> args = {"bake_bench", std::string("--serve=") + kTiledSideNames[side]};
        args.insert(args.end(), common.begin(), common.end());
        std::vector<char*> argv;
        for (std::string& a : args)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        execv("/proc/self/exe", argv.data());
        std::perror("execv");
        std::_Exit(127);
    }
    close(down[0]);
    close(up[1]);
    p.to = fdopen(down[1], "w");
    p.from = fdopen(up[0], "r");
    char line[128];
    if (!std::fgets(line, sizeof line, p.from) || std::strncmp(line, "ready ", 6) != 0)
    {
        std::fprintf(stderr, "side %s did not start\n", kTiledSideNames[side]);
        std::exit(1);
    }
    p.baselineMb = std::atof(line + 6);
    return p;
}

TiledRun bakeOnce(SideProcess& p, TiledSide side)
{
    std::fputs("bake\n", p.to);
    std::fflush(p.to);
    char line[256];
    TiledRun r;
    unsigned long long hash = 0;
    if (!std::fgets(line, sizeof line, p.from) ||
        std::sscanf(line, "%lf %lf %lf %ld %ld %ld %lf %llu", &r.cpuMs, &r.wallMs, &r.peakMb, &r.tiles, &r.polygons,
                    &r.vertices, &r.area, &hash) != 8)
    {
        std::fprintf(stderr, "side %s failed\n", kTiledSideNames[side]);
        std::exit(1);
    }
    r.hash = hash;
    return r;
}

/// The four sides of one level, `rounds` alternated repeats after a warm-up.
void measureTiled(const std::string& levelName, float cellSize, int tileSize, unsigned threads, int rounds)
{
    const std::vector<std::string> common = {"--level=" + levelName, "--cell-size=" + std::to_string(cellSize),
                                             "--tile-size=" + std::to_string(tileSize),
                                             "--threads=" + std::to_string(threads)};
    std::array<SideProcess, kTiledSideCount> procs;
    for (int s = 0; s < kTiledSideCount; ++s)
        procs[s] = startSide(static_cast<TiledSide>(s), common);
    std::array<TiledRun, kTiledSideCount> first;
    for (int s = 0; s < kTiledSideCount; ++s)
        first[s] = bakeOnce(procs[s], static_cast<TiledSide>(s)); // warm-up: quality, first-bake peak
    std::array<std::vector<double>, kTiledSideCount> cpu, wall, peak;
    for (int r = 0; r < rounds; ++r)
        for (int k = 0; k < kTiledSideCount; ++k)
        {
            const int s = r % 2 == 0 ? k : kTiledSideCount - 1 - k;
            const TiledRun run = bakeOnce(procs[s], static_cast<TiledSide>(s));
            cpu[s].push_back(run.cpuMs);
            wall[s].push_back(run.wallMs);
            peak[s].push_back(run.peakMb);
        }
    for (SideProcess& p : procs)
    {
        std::fclose(p.to);
        std::fclose(p.from);
        int status = 0;
        waitpid(p.pid, &status, 0);
    }
    const TiledLevel level = loadTiledLevel(levelName, cellSize);
    std::printf("== %s (%s): %zu triangles, cells %.2f x %.2f m, tiles of %d cells, %u threads; median of %d\n",
                level.name.c_str(), level.what.c_str(), level.input.indices.size() / 3,
                static_cast<double>(level.cellSize), static_cast<double>(kCellHeight), tileSize, threads, rounds);
    std::printf("   %-9s %10s %10s %8s %9s %9s %9s %7s %9s %9s %11s\n", "side", "cpu ms", "wall ms", "spread",
                "peak MB", "warm MB", "input MB", "tiles", "polygons", "vertices", "area m2");
    for (int s = 0; s < kTiledSideCount; ++s)
    {
        const TiledRun& q = first[s];
        std::printf("   %-9s %10.1f %10.1f %7.1f%% %9.1f %9.1f %9.1f %7ld %9ld %9ld %11.1f\n", kTiledSideNames[s],
                    spark::bench::median(cpu[s]), spark::bench::median(wall[s]),
                    spark::bench::spreadPercent(wall[s]), q.peakMb, spark::bench::median(peak[s]),
                    procs[s].baselineMb, q.tiles, q.polygons, q.vertices, q.area);
    }
    const double s1 = spark::bench::median(cpu[kSpark1]), r1 = spark::bench::median(cpu[kRecast1]);
    const double sw1 = spark::bench::median(wall[kSpark1]), swN = spark::bench::median(wall[kSparkN]);
    const double rwN = spark::bench::median(wall[kRecastN]);
    const double sp = first[kSpark1].peakMb, rp = first[kRecast1].peakMb;
    std::printf("   goals: spark/recast one thread cpu %.2f (<= 0.70 %s); spark all/one thread wall %.2f (<= 0.60 "
                "%s); spark/recast all threads wall %.2f; peak RSS one thread %.1f vs %.1f MB (%s); area %+.2f %%\n",
                s1 / r1, s1 <= 0.7 * r1 ? "met" : "MISSED", swN / sw1, swN <= 0.6 * sw1 ? "met" : "MISSED",
                swN / rwN, sp, rp, sp <= rp ? "met" : "MISSED",
                100.0 * (first[kSpark1].area - first[kRecast1].area) / first[kRecast1].area);
    std::printf("   spark mesh hash %016llx (one thread), %016llx (%u threads)%s\n\n",
                static_cast<unsigned long long>(first[kSpark1].hash), static_cast<unsigned long long>(first[kSparkN].hash),
                threads, first[kSpark1].hash == first[kSparkN].hash ? "" : "  DIFFER");
    std::fflush(stdout);
}

bool takeOption(const char* arg, const char* name, std::string& out)
{
    const size_t n = std::strlen(name);
    if (std::strncmp(arg, name, n) != 0 || arg[n] != '=')
        return false;
    out = arg + n + 1;
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    std::string levelName = "all", sideName, roundsText, serveName, cellText, tileText, threadsText;
    bool tiled = false;
    for (int i = 1; i < argc; ++i)
    {
        if (takeOption(argv[i], "--level", levelName) || takeOption(argv[i], "--side", sideName) ||
            takeOption(argv[i], "--rounds", roundsText) || takeOption(argv[i], "--serve", serveName) ||
            takeOption(argv[i], "--cell-size", cellText) || takeOption(argv[i], "--tile-size", tileText) ||
            takeOption(argv[i], "--threads", threadsText))
            continue;
        if (std::strcmp(argv[i], "--tiled") == 0)
        {
            tiled = true;
            continue;
        }
        std::fprintf(
            stderr,
            "usage: bake_bench [--level=dungeon|terrain|ramps|all] [--rounds=N]\n"
            "       bake_bench --level=NAME --side=spark|recast|recast-default [--rounds=N]  (callgrind)\n"
            "       bake_bench --tiled [--level=dungeon|terrain1k|terrain4k|all] [--rounds=N] [--threads=N]\n"
            "                  [--tile-size=64] [--cell-size=M]\n");
        return 2;
    }
    int rounds = roundsText.empty() ? (sideName.empty() ? 11 : 1) : std::atoi(roundsText.c_str());
    if (rounds < 1)
        rounds = 1;

    if (tiled || !serveName.empty())
    {
        const float cellSize = cellText.empty() ? 0.0f : static_cast<float>(std::atof(cellText.c_str()));
        const int tileSize = tileText.empty() ? 64 : std::atoi(tileText.c_str());
        const unsigned threads = threadsText.empty() ? std::max(1u, std::thread::hardware_concurrency())
                                                     : static_cast<unsigned>(std::max(1, std::atoi(threadsText.c_str())));
        if (!serveName.empty())
        {
            for (int s = 0; s < kTiledSideCount; ++s)
                if (serveName == kTiledSideNames[s])
                    return serveTiledSide(static_cast<TiledSide>(s), levelName, cellSize, tileSize, threads);
            std::fprintf(stderr, "unknown side '%s'\n", serveName.c_str());
            return 2;
        }
        if (roundsText.empty())
            rounds = 7;
        std::printf("tiled: RecastDemo's settings (agent h 2.0 r 0.6, climb 0.9, slope 45, region min 8 merge 20, "
                    "edge 12 m / 1.3, 6 verts/poly); monotone, no detail mesh on both sides\n"
                    "cpu = thread CPU for -1 sides, process CPU for -N sides; peak = VmHWM of the side's own "
                    "process over its first bake (input included: input MB; Recast's triangle buckets too);\n"
                    "warm = median VmHWM of the later bakes (the heap the first bake freed is still resident)\n\n");
        const std::vector<std::string> names =
            levelName == "all" ? std::vector<std::string>{"dungeon", "terrain1k"} : std::vector<std::string>{levelName};
        for (const std::string& name : names)
            measureTiled(name, cellSize, tileSize, threads, rounds);
        return 0;
    }

    if (!sideName.empty())
    {
        // Callgrind mode: only the side's whole bake, `rounds` times.
        if (levelName == "all")
            levelName = "dungeon";
        const Level level = makeLevel(levelName);
        const spark::nav::BakeDef def = sparkBakeDef();
        Side side = kSideCount;
        for (int s = 0; s < kSideCount; ++s)
            if (sideName == kSideNames[s])
                side = static_cast<Side>(s);
        if (side == kSideCount)
        {
            std::fprintf(stderr, "unknown side '%s' (spark, recast, recast-default)\n", sideName.c_str());
            return 2;
        }
        Quality q;
        for (int r = 0; r < rounds; ++r)
            q = runSide(side, level, def, nullptr);
        std::printf("%s %s x%d: %ld polygons, %ld vertices, %.1f m2\n", level.name.c_str(), kSideNames[side],
                    rounds, q.polygons, q.vertices, q.area);
        return 0;
    }

    if (rounds < 7)
        std::printf("note: %d repeats (fewer than 7)\n", rounds);
    std::printf(
        "cell 0.3 x 0.2, agent h 2.0 r 0.6, climb 0.9, slope 45, region min 8 merge 20, edge 12 / 1.3, "
        "6 verts/poly, detail 6 / 1\n\n");
    std::vector<std::string> names = levelName == "all"
                                         ? std::vector<std::string>{"dungeon", "terrain", "ramps"}
                                         : std::vector<std::string>{levelName};
    std::vector<LevelResult> results;
    for (const std::string& name : names)
        results.push_back(measure(makeLevel(name), rounds));
    printSummary(results, rounds);
    return 0;
}
