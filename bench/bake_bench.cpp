/// \file bake_bench.cpp
/// The 3D bake against Recast's solo-mesh pipeline (Debian's librecast-dev,
/// a comparison only) on ../shared/data/meshes/dungeon.obj with cell size 0.3,
/// cell height 0.2, agent height 2.0, radius 0.6, climb 0.9, slope 45.
///
/// First a table: the median thread CPU time per stage and in total of both pipelines
/// over kRounds runs, the ratio ours / Recast, and both meshes' polygon counts
/// and walkable areas. Then the Google Benchmark runs of both whole bakes.
/// Run from the project root: build-*/bench/bake_bench

#include "bake_stages.h"
#include "recast_area.h"

#include "spark/nav/bake.h"
#include "spark/scene/model_obj.h"

#include <Recast.h>
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <ctime>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace
{

constexpr int kRounds = 21;
constexpr const char* kMeshPath = "../shared/data/meshes/dungeon.obj";

/// The table's clock: CPU time of this thread, so the other processes of a busy
/// machine do not land in one pipeline's stages and not the other's.
struct Clock
{
    using time_point = double; // seconds
    static time_point now()
    {
        timespec ts{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
    }
};

spark::nav::BakeDef benchDef()
{
    spark::nav::BakeDef def = spark::nav::defaultBakeDef();
    def.cellSize = 0.3f;
    def.cellHeight = 0.2f;
    def.agentHeight = 2.0f;
    def.agentRadius = 0.6f;
    def.stepHeight = 0.9f;
    def.maxSlopeDeg = 45.0f;
    def.maxEdgeLen = 12.0f;
    def.maxSimplificationError = 1.3f;
    def.maxVertsPerPoly = 6;
    def.minRegionArea = 8.0f * 8.0f * 0.3f * 0.3f; // Recast's sample: 8 × 8 cells
    return def;
}

const spark::nav::BakeInput& benchInput()
{
    static const spark::nav::BakeInput input = [] {
        spark::nav::BakeInput in;
        std::filesystem::path path = kMeshPath;
        if (!std::filesystem::exists(path))
            path = std::filesystem::path(SPARK_SOURCE_DIR) / kMeshPath;
        auto model = spark::scene::loadObj(path);
        if (!model)
        {
            std::fprintf(stderr, "cannot load %s: %s\n", kMeshPath, model.error().message.c_str());
            std::exit(1);
        }
        in.vertices = model->vertices;
        in.indices = model->indices;
        in.oneSided = true; // an OBJ's winding says which side is up, as Recast reads it
        return in;
    }();
    return input;
}

// --- Ours, stage by stage ----------------------------------------------------

constexpr std::array<const char*, 7> kStageNames = {"voxelize", "filter+open", "erode",  "regions",
                                                    "contours", "polygons",    "total"};
using StageTimes = std::array<double, 7>; // milliseconds

double msSince(Clock::time_point t0)
{
    return (Clock::now() - t0) * 1000.0;
}

struct OursRun
{
    StageTimes times{};
    spark::nav::PolySoup mesh;
};

/// The stages of bakeTriangles, timed one by one (same order, same calls).
OursRun runOurs(const spark::nav::BakeInput& input, const spark::nav::BakeDef& def)
{
    using namespace spark::nav;
    OursRun run;
    const auto total0 = Clock::now();
    auto t = Clock::now();

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
    solid.grid.width = std::max(1, static_cast<int>(std::ceil((static_cast<double>(hi.x) - lo.x) / def.cellSize)));
    solid.grid.depth = std::max(1, static_cast<int>(std::ceil((static_cast<double>(hi.z) - lo.z) / def.cellSize)));
    solid.grid.origin = lo;
    solid.grid.cellSize = def.cellSize;
    solid.grid.cellHeight = def.cellHeight;
    bake::voxelizeTriangles(input, cells, solid);
    run.times[0] = msSince(t);

    t = Clock::now();
    bake::OpenField open;
    if (!bake::filterSpans(solid, cells, open).ok())
        std::abort();
    run.times[1] = msSince(t);

    t = Clock::now();
    bake::erodeWalkable(open, cells);
    run.times[2] = msSince(t);

    t = Clock::now();
    bake::buildRegions(open, cells);
    run.times[3] = msSince(t);

    t = Clock::now();
    bake::ContourSet contours;
    bake::buildContours(open, cells, contours);
    run.times[4] = msSince(t);

    t = Clock::now();
    bake::buildPolygons(contours, open, cells, run.mesh);
    run.times[5] = msSince(t);
    run.times[6] = msSince(total0);
    return run;
}

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

// --- Recast's solo-mesh pipeline (monotone, no detail mesh) -------------------

struct RecastRun
{
    StageTimes times{};
    int polygons = 0;
    double area = 0.0;
};

RecastRun runRecast(const spark::nav::BakeInput& input, const std::vector<int>& tris)
{
    RecastRun run;
    rcContext ctx(false);
    const float* verts = &input.vertices[0].x;
    const int nverts = static_cast<int>(input.vertices.size());
    const int ntris = static_cast<int>(tris.size() / 3);

    rcConfig cfg{};
    cfg.cs = 0.3f;
    cfg.ch = 0.2f;
    cfg.walkableSlopeAngle = 45.0f;
    cfg.walkableHeight = static_cast<int>(std::ceil(2.0f / cfg.ch));
    cfg.walkableClimb = static_cast<int>(std::floor(0.9f / cfg.ch));
    cfg.walkableRadius = static_cast<int>(std::ceil(0.6f / cfg.cs));
    cfg.maxEdgeLen = static_cast<int>(12.0f / cfg.cs);
    cfg.maxSimplificationError = 1.3f;
    cfg.minRegionArea = 8 * 8;
    cfg.mergeRegionArea = 20 * 20;
    cfg.maxVertsPerPoly = 6;

    const auto total0 = Clock::now();
    auto t = Clock::now();
    rcCalcBounds(verts, nverts, cfg.bmin, cfg.bmax);
    rcCalcGridSize(cfg.bmin, cfg.bmax, cfg.cs, &cfg.width, &cfg.height);
    rcHeightfield* hf = rcAllocHeightfield();
    rcCreateHeightfield(&ctx, *hf, cfg.width, cfg.height, cfg.bmin, cfg.bmax, cfg.cs, cfg.ch);
    std::vector<unsigned char> areas(static_cast<size_t>(ntris), 0);
    rcMarkWalkableTriangles(&ctx, cfg.walkableSlopeAngle, verts, nverts, tris.data(), ntris, areas.data());
    rcRasterizeTriangles(&ctx, verts, nverts, tris.data(), areas.data(), ntris, *hf, cfg.walkableClimb);
    run.times[0] = msSince(t);

    t = Clock::now();
    rcFilterLowHangingWalkableObstacles(&ctx, cfg.walkableClimb, *hf);
    rcFilterLedgeSpans(&ctx, cfg.walkableHeight, cfg.walkableClimb, *hf);
    rcFilterWalkableLowHeightSpans(&ctx, cfg.walkableHeight, *hf);
    rcCompactHeightfield* chf = rcAllocCompactHeightfield();
    rcBuildCompactHeightfield(&ctx, cfg.walkableHeight, cfg.walkableClimb, *hf, *chf);
    run.times[1] = msSince(t);

    t = Clock::now();
    rcErodeWalkableArea(&ctx, cfg.walkableRadius, *chf);
    run.times[2] = msSince(t);

    t = Clock::now();
    rcBuildRegionsMonotone(&ctx, *chf, 0, cfg.minRegionArea, cfg.mergeRegionArea);
    run.times[3] = msSince(t);

    t = Clock::now();
    rcContourSet* cset = rcAllocContourSet();
    rcBuildContours(&ctx, *chf, cfg.maxSimplificationError, cfg.maxEdgeLen, *cset);
    run.times[4] = msSince(t);

    t = Clock::now();
    rcPolyMesh* pmesh = rcAllocPolyMesh();
    rcBuildPolyMesh(&ctx, *cset, cfg.maxVertsPerPoly, *pmesh);
    run.times[5] = msSince(t);
    run.times[6] = msSince(total0);

    run.polygons = pmesh->npolys;
    run.area = spark::bench::recastPolyMeshArea(*pmesh, cfg.cs);
    rcFreePolyMesh(pmesh);
    rcFreeContourSet(cset);
    rcFreeCompactHeightfield(chf);
    rcFreeHeightField(hf);
    return run;
}

std::vector<int> recastTriangles()
{
    const auto& idx = benchInput().indices;
    return std::vector<int>(idx.begin(), idx.end());
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

void printComparison()
{
    const spark::nav::BakeInput& input = benchInput();
    const spark::nav::BakeDef def = benchDef();
    const std::vector<int> tris = recastTriangles();

    std::array<std::vector<double>, 7> ours, theirs;
    OursRun lastOurs;
    RecastRun lastRecast;
    for (int r = 0; r < kRounds; ++r)
    {
        lastOurs = runOurs(input, def);
        lastRecast = runRecast(input, tris);
        for (size_t s = 0; s < 7; ++s)
        {
            ours[s].push_back(lastOurs.times[s]);
            theirs[s].push_back(lastRecast.times[s]);
        }
    }
    // The public entry point must give the very mesh the timed stages gave.
    auto full = spark::nav::bakeTriangles(input, def);
    if (!full || full->mesh.indices != lastOurs.mesh.indices || full->mesh.polyStarts != lastOurs.mesh.polyStarts)
    {
        std::fprintf(stderr, "bakeTriangles disagrees with the staged run\n");
        std::exit(1);
    }

    std::printf("dungeon.obj: %zu vertices, %zu triangles; cell 0.3 x 0.2, agent h 2.0 r 0.6, climb 0.9, slope 45\n",
                input.vertices.size(), input.indices.size() / 3);
    std::printf("median of %d runs, thread CPU milliseconds\n", kRounds);
    std::printf("%-12s %10s %10s %8s\n", "stage", "spark", "recast", "ratio");
    for (size_t s = 0; s < 7; ++s)
    {
        const double a = median(ours[s]), b = median(theirs[s]);
        std::printf("%-12s %10.3f %10.3f %8.2f\n", kStageNames[s], a, b, b > 0.0 ? a / b : 0.0);
    }
    const double ourArea = soupArea(lastOurs.mesh);
    std::printf("polygons     spark %zu   recast %d\n", lastOurs.mesh.polygonCount(), lastRecast.polygons);
    std::printf("walkable m2  spark %.2f   recast %.2f   difference %+.2f %%\n", ourArea, lastRecast.area,
                100.0 * (ourArea - lastRecast.area) / lastRecast.area);
    std::printf("spark stats  regions %u  fallback regions %u  spans %llu\n\n", full->stats.regions,
                full->stats.fallbackRegions, static_cast<unsigned long long>(full->stats.spans));
    std::fflush(stdout);
}

void BM_SparkBake(benchmark::State& state)
{
    const spark::nav::BakeInput& input = benchInput();
    const spark::nav::BakeDef def = benchDef();
    size_t polygons = 0;
    for (auto _ : state)
    {
        auto out = spark::nav::bakeTriangles(input, def);
        polygons = out ? out->mesh.polygonCount() : 0;
        benchmark::DoNotOptimize(polygons);
    }
    state.counters["polygons"] = static_cast<double>(polygons);
}
BENCHMARK(BM_SparkBake)->Unit(benchmark::kMillisecond);

void BM_RecastBake(benchmark::State& state)
{
    const spark::nav::BakeInput& input = benchInput();
    const std::vector<int> tris = recastTriangles();
    int polygons = 0;
    for (auto _ : state)
    {
        polygons = runRecast(input, tris).polygons;
        benchmark::DoNotOptimize(polygons);
    }
    state.counters["polygons"] = polygons;
}
BENCHMARK(BM_RecastBake)->Unit(benchmark::kMillisecond);

} // namespace

int main(int argc, char** argv)
{
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    printComparison();
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
