/// \file bake_bench.cpp
/// Spark's 3D bake against Recast's solo-mesh pipeline (Debian's librecast-dev
/// 1.5.1, linked by this bench only) on three levels, with the same triangles
/// given to both sides:
///
///  - dungeon: ../shared/data/meshes/dungeon.obj (read from the working
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
/// Run from the project root: build/<dir>/bench/bake_bench [--level=dungeon|terrain|ramps|all] [--rounds=N]

#include "bake_stages.h"
#include "bench_stats.h"
#include "recast_area.h"
#include "recastdemo.h"

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
#include <vector>

namespace
{

constexpr uint64_t kTerrainSeed = 20240601;
constexpr double kPi = 3.14159265358979323846;

using namespace spark::bench::demo; // RecastDemo's settings, both sides (recastdemo.h)

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

// --- Levels -------------------------------------------------------------------

struct Level
{
    std::string name;
    std::string what;
    spark::nav::BakeInput input;
    std::vector<int> recastTris; ///< The same indices as ints.
};

/// Closed solids and surfaces as triangles with right-hand normals.
class MeshBuilder
{
  public:
    explicit MeshBuilder(spark::nav::BakeInput& in) : in_(in) {}

    uint32_t vertex(glm::vec3 p)
    {
        in_.vertices.push_back(p);
        return static_cast<uint32_t>(in_.vertices.size() - 1);
    }
    void triangle(uint32_t a, uint32_t b, uint32_t c) { in_.indices.insert(in_.indices.end(), {a, b, c}); }

    /// A convex planar polygon, fanned from its first corner and wound so its
    /// normal (Newell) points along `outward`.
    void face(std::vector<glm::vec3> pts, glm::vec3 outward)
    {
        glm::dvec3 n(0.0);
        for (size_t i = 0; i < pts.size(); ++i)
        {
            const glm::dvec3 a(pts[i]), b(pts[(i + 1) % pts.size()]);
            n.x += (a.y - b.y) * (a.z + b.z);
            n.y += (a.z - b.z) * (a.x + b.x);
            n.z += (a.x - b.x) * (a.y + b.y);
        }
        if (glm::dot(n, glm::dvec3(outward)) < 0.0)
            std::reverse(pts.begin(), pts.end());
        const uint32_t first = vertex(pts[0]);
        uint32_t prev = vertex(pts[1]);
        for (size_t i = 2; i < pts.size(); ++i)
        {
            const uint32_t cur = vertex(pts[i]);
            triangle(first, prev, cur);
            prev = cur;
        }
    }

    /// A closed solid over the convex x–z footprint `foot` (any winding), its
    /// bottom at bottom[i] and its top at top[i] above corner i (the top may
    /// slope; each top and bottom triangle is planar by construction).
    void solid(const std::vector<glm::vec2>& foot, const std::vector<float>& bottom,
               const std::vector<float>& top)
    {
        const size_t n = foot.size();
        glm::vec2 centre(0.0f);
        for (const glm::vec2& p : foot)
            centre += p / static_cast<float>(n);
        auto at = [&](size_t i, float y) { return glm::vec3(foot[i].x, y, foot[i].y); };
        for (size_t i = 1; i + 1 < n; ++i)
        {
            face({at(0, top[0]), at(i, top[i]), at(i + 1, top[i + 1])}, {0.0f, 1.0f, 0.0f});
            face({at(0, bottom[0]), at(i, bottom[i]), at(i + 1, bottom[i + 1])}, {0.0f, -1.0f, 0.0f});
        }
        for (size_t i = 0; i < n; ++i)
        {
            const size_t j = (i + 1) % n;
            const glm::vec2 mid = 0.5f * (foot[i] + foot[j]) - centre;
            face({at(i, bottom[i]), at(j, bottom[j]), at(j, top[j]), at(i, top[i])}, {mid.x, 0.0f, mid.y});
        }
    }

    /// A solid of constant bottom and top over `foot`.
    void prism(const std::vector<glm::vec2>& foot, float bottom, float top)
    {
        solid(foot, std::vector<float>(foot.size(), bottom), std::vector<float>(foot.size(), top));
    }

    /// An axis-aligned box.
    void box(float x0, float z0, float x1, float z1, float y0, float y1)
    {
        prism({{x0, z0}, {x1, z0}, {x1, z1}, {x0, z1}}, y0, y1);
    }

    /// A straight ramp along x from x0 (top y0) to x1 (top y1), z0..z1 wide; its
    /// underside is flat at `base` (solid to the ground) or, when thickness > 0,
    /// parallel to the top (a floating slab).
    void rampX(float x0, float x1, float z0, float z1, float y0, float y1, float base, float thickness = 0.0f)
    {
        const std::vector<glm::vec2> foot = {{x0, z0}, {x1, z0}, {x1, z1}, {x0, z1}};
        const std::vector<float> top = {y0, y1, y1, y0};
        std::vector<float> bottom(4, base);
        if (thickness > 0.0f)
            bottom = {y0 - thickness, y1 - thickness, y1 - thickness, y0 - thickness};
        solid(foot, bottom, top);
    }

  private:
    spark::nav::BakeInput& in_;
};

/// Corners of a w × d rectangle centred on (cx, cz), turned by `yaw` about +Y.
std::vector<glm::vec2> rotatedRect(double cx, double cz, double w, double d, double yaw)
{
    const double c = std::cos(yaw), s = std::sin(yaw);
    std::vector<glm::vec2> out;
    const double corners[4][2] = {{-0.5, -0.5}, {0.5, -0.5}, {0.5, 0.5}, {-0.5, 0.5}};
    for (const auto& uv : corners)
        out.emplace_back(static_cast<float>(cx + c * uv[0] * w - s * uv[1] * d),
                         static_cast<float>(cz + s * uv[0] * w + c * uv[1] * d));
    return out;
}

/// The terrain level's ground height. [Units: m]
double terrainHeight(double x, double z)
{
    const double u = 2.0 * kPi * x / 200.0, w = 2.0 * kPi * z / 200.0;
    return 3.0 * std::sin(3.0 * u) * std::sin(2.0 * w) + 1.6 * std::sin(2.0 * u) * std::cos(w) +
           0.7 * std::sin(5.0 * (u + w)) + 0.6 * std::sin(31.0 * u) * std::sin(29.0 * w);
}

void finishLevel(Level& level)
{
    level.input.oneSided = true;
    level.recastTris.assign(level.input.indices.begin(), level.input.indices.end());
}

Level dungeonLevel()
{
    Level level;
    level.name = "dungeon";
    level.what = kDungeonPath;
    level.input = loadObjInput(kDungeonPath);
    finishLevel(level); // an OBJ's winding says which side is up, as Recast reads it
    return level;
}

/// 200 × 200 m of undulating ground (1 m quads) with 400 small obstacles.
Level terrainLevel()
{
    Level level;
    level.name = "terrain";
    level.what = "200x200 m sine ground, 1 m quads, 400 boxes/pillars/walls (seeded)";
    MeshBuilder mb(level.input);
    constexpr int kQuads = 200;
    for (int j = 0; j <= kQuads; ++j)
        for (int i = 0; i <= kQuads; ++i)
            mb.vertex(glm::vec3(static_cast<float>(i), static_cast<float>(terrainHeight(i, j)),
                                static_cast<float>(j)));
    auto id = [](int i, int j) { return static_cast<uint32_t>(i + j * (kQuads + 1)); };
    for (int j = 0; j < kQuads; ++j)
        for (int i = 0; i < kQuads; ++i)
        {
            // Both triangles face up: (i,j) (i,j+1) (i+1,j) and (i+1,j) (i,j+1) (i+1,j+1).
            mb.triangle(id(i, j), id(i, j + 1), id(i + 1, j));
            mb.triangle(id(i + 1, j), id(i, j + 1), id(i + 1, j + 1));
        }

    spark::Rng rng = spark::rngFromSeed(kTerrainSeed);
    auto range = [&](double lo, double hi) { return spark::rngNextRange(rng, lo, hi); };
    for (int k = 0; k < 400; ++k)
    {
        const double cx = range(6.0, 194.0), cz = range(6.0, 194.0);
        const uint32_t kind = spark::rngNextBelow(rng, 10);
        std::vector<glm::vec2> foot;
        double height = 0.0;
        if (kind < 5) // box, 0.6..3 m a side, 0.3..3.5 m tall (some low enough to step on)
        {
            const double w = range(0.6, 3.0), d = range(0.6, 3.0), yaw = range(0.0, 0.5 * kPi);
            foot = rotatedRect(cx, cz, w, d, yaw);
            height = range(0.3, 3.5);
        }
        else if (kind < 8) // octagonal pillar, radius 0.3..0.9 m, 2..6 m tall
        {
            const double r = range(0.3, 0.9);
            for (int a = 0; a < 8; ++a)
                foot.emplace_back(static_cast<float>(cx + r * std::cos(a * kPi / 4.0)),
                                  static_cast<float>(cz + r * std::sin(a * kPi / 4.0)));
            height = range(2.0, 6.0);
        }
        else // short wall, 4..10 m long, 0.4 m thick, 1..2.5 m tall
        {
            foot = rotatedRect(cx, cz, range(4.0, 10.0), 0.4, range(0.0, kPi));
            height = range(1.0, 2.5);
        }
        double groundLo = terrainHeight(cx, cz), groundHi = groundLo;
        for (const glm::vec2& p : foot)
        {
            const double g = terrainHeight(p.x, p.y);
            groundLo = std::min(groundLo, g);
            groundHi = std::max(groundHi, g);
        }
        mb.prism(foot, static_cast<float>(groundLo - 0.5), static_cast<float>(groundHi + height));
    }
    finishLevel(level);
    return level;
}

/// Long ramps, stairs, a switchback, terraces and platforms on a 160 × 120 m slab.
Level rampsLevel()
{
    Level level;
    level.name = "ramps";
    level.what = "160x120 m: 40 m ramps 20/25/30/50 deg + rotated, stairs, switchback, terraces, bridge";
    MeshBuilder mb(level.input);
    const auto rise = [](double run, double deg)
    { return static_cast<float>(run * std::tan(deg * kPi / 180.0)); };

    mb.box(0, 0, 160, 120, -1, 0); // ground

    // Straight solid ramps 40 m long (x 10..50) at 20°, 25°, 30°, each onto an 8 m platform.
    const double angles[3] = {20.0, 25.0, 30.0};
    for (int k = 0; k < 3; ++k)
    {
        const float z0 = 5.0f + 9.0f * static_cast<float>(k), z1 = z0 + 4.0f;
        const float top = rise(40.0, angles[k]);
        mb.rampX(10, 50, z0, z1, 0, top, -0.5f);
        mb.box(50, z0 - 2, 58, z1 + 2, -0.5f, top);
    }
    // Too steep: 15 m at 50°, onto a platform.
    {
        const float top = rise(15.0, 50.0);
        mb.rampX(10, 25, 32, 36, 0, top, -0.5f);
        mb.box(25, 30, 31, 38, -0.5f, top);
    }
    // Stairs: 60 steps of 0.5 m tread, 0.25 m riser (26.6°), then a platform.
    for (int s = 0; s < 60; ++s)
        mb.box(10 + 0.5f * s, 40, 10.5f + 0.5f * s, 43, -0.5f, 0.25f * (s + 1));
    mb.box(40, 39, 46, 44, -0.5f, 15.0f);
    // Steep stairs: 30 steps of 0.5 m tread, 0.45 m riser (42°, each under the climb).
    for (int s = 0; s < 30; ++s)
        mb.box(10 + 0.5f * s, 47, 10.5f + 0.5f * s, 50, -0.5f, 0.45f * (s + 1));
    mb.box(25, 46, 31, 51, -0.5f, 13.5f);

    // Switchback: four thin (0.4 m) flights, 30 m at 21.8° (12 m rise) each, in
    // lanes 1 m apart, turning on thin landings; open space under every flight.
    for (int f = 0; f < 4; ++f)
    {
        const float z0 = 5.0f + 5.0f * static_cast<float>(f), z1 = z0 + 4.0f;
        const float y0 = 12.0f * static_cast<float>(f), y1 = y0 + 12.0f;
        if (f % 2 == 0)
        {
            mb.rampX(70, 100, z0, z1, y0, y1, 0, 0.4f);
            mb.box(100, z0, 106, z1 + 5, y1 - 0.4f, y1); // landing toward the next lane
        }
        else
        {
            mb.rampX(100, 70, z0, z1, y0, y1, 0, 0.4f);
            mb.box(64, z0, 70, z1 + 5, y1 - 0.4f, y1);
        }
    }

    // Terraces along x: 0.5 → 1.0 (climbable 0.5 m) → 2.2 (1.2 m ledge) → 2.8 → 4.5 (1.7 m ledge).
    const float terraces[5] = {0.5f, 1.0f, 2.2f, 2.8f, 4.5f};
    for (int t = 0; t < 5; ++t)
        mb.box(110 + 9.0f * t, 5, 119 + 9.0f * t, 45, -0.5f, terraces[t]);

    // A bridge 3 m up (2.7 m head room under it), 15° ramps at both ends.
    mb.rampX(5, 20, 60, 66, 0, 3.0f, -0.5f);
    mb.box(20, 60, 60, 66, 2.7f, 3.0f);
    mb.rampX(75, 60, 60, 66, 0, 3.0f, -0.5f);
    // A low slab (1.2 m head room: the ground under it is not walkable, its top is a ledge).
    mb.box(90, 58, 110, 70, 1.2f, 1.5f);

    // A 40 m ramp at 22°, turned 30° about +Y, onto an 8 m platform.
    {
        const double yaw = 30.0 * kPi / 180.0, c = std::cos(yaw), s = std::sin(yaw);
        const double sx = 95.0, sz = 80.0; // foot of the ramp's centre line
        const float top = rise(40.0, 22.0);
        const auto at = [&](double along, double across)
        {
            return glm::vec2(static_cast<float>(sx + c * along - s * across),
                             static_cast<float>(sz + s * along + c * across));
        };
        mb.solid({at(0, -2), at(40, -2), at(40, 2), at(0, 2)}, {-0.5f, -0.5f, -0.5f, -0.5f},
                 {0, top, top, 0});
        mb.prism({at(40, -4), at(48, -4), at(48, 4), at(40, 4)}, -0.5f, top);
    }
    finishLevel(level);
    return level;
}

Level makeLevel(const std::string& name)
{
    if (name == "dungeon")
        return dungeonLevel();
    if (name == "terrain")
        return terrainLevel();
    if (name == "ramps")
        return rampsLevel();
    std::fprintf(stderr, "unknown level '%s' (dungeon, terrain, ramps, all)\n", name.c_str());
    std::exit(2);
}

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
    std::string levelName = "all", sideName, roundsText;
    for (int i = 1; i < argc; ++i)
    {
        if (takeOption(argv[i], "--level", levelName) || takeOption(argv[i], "--side", sideName) ||
            takeOption(argv[i], "--rounds", roundsText))
            continue;
        std::fprintf(
            stderr,
            "usage: bake_bench [--level=dungeon|terrain|ramps|all] [--rounds=N]\n"
            "       bake_bench --level=NAME --side=spark|recast|recast-default [--rounds=N]  (callgrind)\n");
        return 2;
    }
    int rounds = roundsText.empty() ? (sideName.empty() ? 11 : 1) : std::atoi(roundsText.c_str());
    if (rounds < 1)
        rounds = 1;

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
