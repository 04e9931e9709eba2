/// \file carve_bench.cpp
/// Carving one obstacle into Spark's bake (nav::NavWorld addObstacle /
/// moveObstacle / removeObstacle) against DetourTileCache's temporary
/// obstacles (dtTileCache::addObstacle / removeObstacle + update until up to
/// date, Debian's librecast-dev, a comparison only) on
/// data/meshes/dungeon.obj (--level=dungeon, the default) or the 1 km terrain
/// (--level=terrain: out/terrain-1k.obj, written by
/// `python3 tools/terrain.py -o out/terrain-1k.obj`), with 0, 10 and 100 other
/// obstacles present (issues 12 and 33). --level=terrain-S reads
/// out/terrain-S.obj (`python3 tools/terrain.py --size S -o out/terrain-S.obj`),
/// --level=obj:PATH any OBJ; both with the terrain's cells and tiles.
///
/// Scaling (issue 33 item 6: a change's cost must not grow with the mesh):
/// --scaling=250,500,1000,2000 runs the whole bench on each terrain-S in turn
/// (each level's tables as below) and ends with one table: per size and N
/// others, the baked polygons and both sides' add / move / remove with their
/// ratios. The generator keeps the density (boxes and ramps per km²), so a
/// bigger terrain is more of the same. The others and the subjects are drawn
/// in the same --window=80 m square around each terrain's centre (80 m: clear
/// of the plazas, kept free of boxes, from 250 m up), so only the mesh around
/// them grows; 100 others there are far denser than 100 over a whole level.
/// The terrains (2 km: 2.2M triangles, 79 MB; 4 km does not fit TileCache's
/// 22-bit tile and polygon ids with Debian's 32-bit dtPolyRef):
///   for S in 250 500 1000 2000; do python3 tools/terrain.py --size $S -o out/terrain-$S.obj; done
///   nice -n 15 build/bench/bench/carve_bench --scaling=250,500,1000,2000 --others=0,100
/// (5 repeats, 16 subjects: the defaults). Spark's instructions per change on
/// one size: the callgrind recipe below with --level=terrain-S --window=80
/// --side=spark --repeats=1 --others=0 (divide by 3 × 16).
///
/// The meshes (same agent: radius 0.6, height 2.0, climb 0.9, slope 45; cells
/// 0.3 × 0.2 on the dungeon, 0.5 × 0.2 on the terrain as samples/terrain/run.sh
/// bakes it; the region sizes in cells as RecastDemo's):
///  - Spark: nav::bakeNavMesh of the OBJ triangles, oneSided (as `spark bake` bakes
///    an OBJ), the settings of bench/bake_bench.cpp and bench/crowd_bench.cpp, in
///    tiles of the same size as TileCache's (48 cells on the dungeon, 64 on the
///    terrain; --tile-size=N sets both, --spark-tile-size=N Spark's alone, 0: one grid).
///  - TileCache: Recast as RecastDemo's Sample_TempObstacles::handleBuild builds it:
///    tiles of 48 × 48 cells (the sample's default; 64 on the terrain), border = radius cells + 3,
///    per tile rcMarkWalkableTriangles + rcRasterizeTriangles of the triangles
///    over the tile (the sample's chunky mesh picks the same ones), the three
///    span filters, rcBuildCompactHeightfield, rcErodeWalkableArea,
///    rcBuildHeightfieldLayers, dtBuildTileCacheLayer per layer; dtTileCacheParams
///    with edge error 1.3 cells, maxTiles = tiles × 4 (EXPECTED_LAYERS_PER_TILE),
///    maxObstacles 128; the sample's LinearAllocator (32,000 bytes for 48-cell
///    tiles, grown with the tile area for bigger tiles) and
///    MeshProcess (walkable area → ground, flag walk); dtNavMesh with the
///    sample's tile/poly bits; buildNavMeshTilesAt over every tile.
///    Compressor: the sample's is FastLZ, which Debian does not package; here
///    a copy "compressor" (memcpy both ways). Decompressing a tile is the first
///    step of every TileCache rebuild, so this gives TileCache a little less
///    work than FastLZ would.
///
/// The obstacles, the same on both sides: circles of radius 0.5 m, 2 m tall.
///  - Spark: ObstacleDef{Circle 0.5, position = the point (floor height),
///    height 2}; NavWorld grows the footprint by the mesh's agent radius (0.6).
///  - TileCache: a cylinder of radius 0.5 + 0.6 = 1.1 m: dtTileCache marks the
///    cylinder's cells unwalkable after the layer was eroded and does not erode
///    again, so the agent radius has to be in the obstacle for agents to keep
///    clear of it (--tilecache-radius=bare passes 0.5 and lets agents cut into
///    the obstacle). Base 0.5 m under the point (Sample_TempObstacles::
///    addTempObstacle: p[1] -= 0.5), height 2.
/// Positions: seeded nav::randomPoint on Spark's mesh (with --window=M: a seeded
/// x–z point in the M × M m square around the level's centre, dropped onto
/// Spark's highest floor there with findNearest) that TileCache's mesh
/// also has within 0.1 m horizontally (findNearestPoly, half-extents 0.1 × 1 × 0.1);
/// each side places the obstacle on its own mesh's point there. kOtherCount
/// "others" (N use the first N), and --subjects subjects, each with a move
/// target 1 m away (a direction drawn until the target is on both meshes
/// within 0.1 m and on the same floor, |dy| < 0.3 m).
///
/// An operation, per subject, with N others already in place (N = 0, 10, 100):
///  - add: Spark addObstacle; TileCache addObstacle + update(0, navMesh, &upToDate)
///    until upToDate.
///  - move (1 m): Spark moveObstacle; TileCache has no move: removeObstacle +
///    addObstacle + update until upToDate (one batch: the tiles of both are rebuilt once).
///  - remove: Spark removeObstacle; TileCache removeObstacle + update until upToDate.
/// Time: thread CPU time (CLOCK_THREAD_CPUTIME_ID) of those calls alone; per
/// repeat the median over the subjects, then the median of those over --repeats
/// repeats; per subject the side that goes first alternates with the repeat.
/// The others are placed (untimed) before the subjects of each N; both sides
/// start each N from their baked mesh. "tiles" = TileCache's update calls
/// that rebuilt a tile (one tile layer per call), mean per operation.
///
/// Quality (untimed, after the timed runs): for each N, the others plus one
/// subject at a time (its first position) on both sides: the walkable polygon
/// count of the carved mesh (Spark: NavMesh::activePolygonCount; TileCache: the
/// polygons of every tile of the dtNavMesh; both as baked beside them: the two
/// bakes differ before any carving, TileCache's layers are partitioned
/// differently and cut at tile borders), and one path per subject across it:
/// from 3 m before to 3 m past the obstacle's centre along a drawn direction
/// (both ends on both baked meshes, complete baked paths on both sides).
/// Spark: nav::findPath (half-extents 0.1 × 1 × 0.1), its length; TileCache:
/// findNearestPoly (same half-extents) + findPath (65,535 nodes) +
/// findStraightPath with the default dtQueryFilter, the length of the straight
/// path; complete = the path reaches the end's polygon. The lengths are summed
/// over the queries complete on both sides. Only with
/// --side=both.
///
/// Options: --repeats=5 --subjects=16 --others=0,10,100 --side=both|spark|tilecache
///          --tilecache-radius=grown|bare --level=dungeon|terrain|terrain-S|obj:PATH --tile-size=N
///          --spark-tile-size=N --window=M (0: the whole mesh, the default; --scaling's: 80)
///          --scaling=S,S,... (terrain sizes in m; --level is then ignored)
/// Run from the project root: build/<dir>/bench/carve_bench
/// Instruction counts of the timed operations alone (the run functions are
/// kept out of line for this; the placing of the others and the quality pass
/// stay out): valgrind --tool=callgrind --collect-atstart=no
///   --toggle-collect='*TileCacheSide::run*' carve_bench --side=tilecache
///   --repeats=1 --others=100 (Spark: --toggle-collect='*SparkSide::run*'
///   --side=spark); divide by 3 × --subjects for one operation, and see
///   NavWorld::addObstacle / moveObstacle / removeObstacle (dtTileCache::update)
///   inside for each kind.

#include "spark/core/rng.h"
#include "spark/nav/bake.h"
#include "spark/nav/nav_world.h"
#include "spark/nav/query.h"
#include "spark/scene/model_obj.h"
#include "bench_stats.h"
#include "recast_solo.h"
#include "recastdemo.h"

#include <recastnavigation/DetourCommon.h>
#include <recastnavigation/DetourNavMesh.h>
#include <recastnavigation/DetourNavMeshBuilder.h>
#include <recastnavigation/DetourNavMeshQuery.h>
#include <recastnavigation/DetourTileCache.h>
#include <recastnavigation/DetourTileCacheBuilder.h>
#include <recastnavigation/Recast.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

using namespace spark;

namespace
{

using spark::bench::threadSeconds;
using spark::bench::median;

using namespace spark::bench::demo; // RecastDemo's settings, both sides (recastdemo.h)
constexpr int kDungeonTileSize = 48;      // cells: Sample_TempObstacles' default tile size
constexpr int kExpectedLayersPerTile = 4; // Sample_TempObstacles' EXPECTED_LAYERS_PER_TILE
constexpr int kMaxLayers = 32;            // Sample_TempObstacles' MAX_LAYERS
constexpr int kMaxObstacles = 128;        // Sample_TempObstacles' tcparams.maxObstacles
constexpr size_t kTileAllocBytes = 32000; // Sample_TempObstacles' LinearAllocator (48-cell tiles; scaled with the tile area)
constexpr float kObstacleRadius = 0.5f;
constexpr float kObstacleHeight = 2.0f;
constexpr float kTileCacheBaseDrop = 0.5f; // Sample_TempObstacles::addTempObstacle: p[1] -= 0.5
constexpr float kMoveDistance = 1.0f;
constexpr float kQueryReach = 3.0f; // query ends this far before and past the obstacle centre
constexpr float kOnMeshExtent = 0.1f;
constexpr int kOtherCount = 100;
constexpr int kQualitySubjects = 8;
// [m] --scaling's default window: clear of the terrains' plazas from 250 m up.
constexpr float kScalingWindow = 80.0f;
constexpr uint64_t kSeed = 12;

/// The level measured: its OBJ, cell size and tile size (both sides).
struct Level
{
    std::string name = "dungeon";
    std::string path = kDungeonPath;
    float cellSize = kCellSize; // RecastDemo's 0.3 m on the dungeon; the terrain sample's 0.5 m
    int tileSize = kDungeonTileSize;
};
Level g_level;                                   // set per level (runLevel) before anything reads it
int g_levelGridWidth = 0, g_levelGridHeight = 0; // the level's whole grid in cells (buildTileCache sets them)
std::unique_ptr<const nav::BakeInput> g_input;   // the level's triangles (runLevel loads them)
std::vector<std::vector<int>> g_trianglesByTile; // per TileCache tile, its triangles (filled once per level)

/// A terrain written by `python3 tools/terrain.py --size S -o out/terrain-S.obj`:
/// the 1 km terrain's cells and tiles (samples/terrain/run.sh's).
Level terrainLevel(const std::string& name, const std::string& path)
{
    return Level{name, path, 0.5f, 64};
}

struct Options
{
    int tileSize = -1;        // -1: the level's; else both sides' tile size
    int sparkTileSize = -1;   // -1: the level's (the same as TileCache's); 0: untiled
    float window = -1.0f;     // [m] edge of the obstacles' square around the centre; 0: whole mesh; -1: the mode's
    std::vector<int> scaling; // terrain sizes [m] for --scaling (empty: one level)
    std::vector<int> others{0, 10, 100};
    int repeats = 5;
    int subjects = 16;
    bool spark = true, tilecache = true;
    bool grownTileCacheRadius = true;
};

float distXZ(const glm::vec3& a, const glm::vec3& b)
{
    return std::hypot(a.x - b.x, a.z - b.z);
}

[[noreturn]] void fail(const char* what)
{
    std::fprintf(stderr, "carve_bench: %s failed\n", what);
    std::exit(1);
}

// --- The input ---------------------------------------------------------------

const nav::BakeInput& benchInput()
{
    return *g_input;
}

/// RecastDemo's settings at the level's cell size (the agent in cells follows it).
rcConfig levelConfig()
{
    const nav::BakeInput& input = benchInput();
    rcConfig cfg = recastConfig(&input.vertices[0].x, static_cast<int>(input.vertices.size()));
    cfg.cs = g_level.cellSize;
    cfg.walkableRadius = static_cast<int>(std::ceil(kAgentRadius / cfg.cs));
    cfg.maxEdgeLen = static_cast<int>(kEdgeMaxLen / cfg.cs);
    rcCalcGridSize(cfg.bmin, cfg.bmax, cfg.cs, &cfg.width, &cfg.height);
    return cfg;
}

/// Spark's bake: RecastDemo's settings at the level's cell size, in tiles of `tileSize` cells (0: one grid).
nav::BakeDef levelBakeDef(int tileSize)
{
    nav::BakeDef def = sparkBakeDef();
    const float cs = g_level.cellSize;
    def.cellSize = cs;
    def.minRegionArea = static_cast<float>(kRegionMinSize * kRegionMinSize) * cs * cs;
    def.mergeRegionArea = static_cast<float>(kRegionMergeSize * kRegionMergeSize) * cs * cs;
    def.tileSize = static_cast<uint32_t>(tileSize);
    return def;
}

/// The triangles over each tile's bordered box (Sample_TempObstacles' chunky
/// mesh does this job), found once: the 1 km terrain has 549k triangles.
const std::vector<std::vector<int>>& trianglesByTile(const rcConfig& cfg, int tilesX, int tilesZ)
{
    std::vector<std::vector<int>>& byTile = g_trianglesByTile;
    if (!byTile.empty())
        return byTile;
    const nav::BakeInput& input = benchInput();
    byTile.resize(static_cast<size_t>(tilesX) * static_cast<size_t>(tilesZ));
    const float tcs = static_cast<float>(cfg.tileSize) * cfg.cs;
    const float border = static_cast<float>(cfg.borderSize) * cfg.cs;
    for (size_t t = 0; t + 2 < input.indices.size(); t += 3)
    {
        float lo[2] = {1e30f, 1e30f}, hi[2] = {-1e30f, -1e30f};
        for (int k = 0; k < 3; ++k)
        {
            const glm::vec3& v = input.vertices[input.indices[t + static_cast<size_t>(k)]];
            lo[0] = std::min(lo[0], v.x), hi[0] = std::max(hi[0], v.x);
            lo[1] = std::min(lo[1], v.z), hi[1] = std::max(hi[1], v.z);
        }
        const int x0 = std::max(0, static_cast<int>(std::floor((lo[0] - border - cfg.bmin[0]) / tcs)));
        const int x1 = std::min(tilesX - 1, static_cast<int>(std::floor((hi[0] + border - cfg.bmin[0]) / tcs)));
        const int z0 = std::max(0, static_cast<int>(std::floor((lo[1] - border - cfg.bmin[2]) / tcs)));
        const int z1 = std::min(tilesZ - 1, static_cast<int>(std::floor((hi[1] + border - cfg.bmin[2]) / tcs)));
        for (int z = z0; z <= z1; ++z)
            for (int x = x0; x <= x1; ++x)
                for (int k = 0; k < 3; ++k)
                    byTile[static_cast<size_t>(z * tilesX + x)].push_back(
                        static_cast<int>(input.indices[t + static_cast<size_t>(k)]));
    }
    return byTile;
}

// --- DetourTileCache as RecastDemo's Sample_TempObstacles sets it up -----------

/// FastLZ's stand-in: the layer stored as it is.
struct CopyCompressor : public dtTileCacheCompressor
{
    int maxCompressedSize(const int bufferSize) override { return bufferSize; }
    dtStatus compress(const unsigned char* buffer, const int bufferSize, unsigned char* compressed,
                      const int maxCompressedSize, int* compressedSize) override
    {
        if (bufferSize > maxCompressedSize)
            return DT_FAILURE | DT_BUFFER_TOO_SMALL;
        std::memcpy(compressed, buffer, static_cast<size_t>(bufferSize));
        *compressedSize = bufferSize;
        return DT_SUCCESS;
    }
    dtStatus decompress(const unsigned char* compressed, const int compressedSize, unsigned char* buffer,
                        const int maxBufferSize, int* bufferSize) override
    {
        if (compressedSize > maxBufferSize)
            return DT_FAILURE | DT_BUFFER_TOO_SMALL;
        std::memcpy(buffer, compressed, static_cast<size_t>(compressedSize));
        *bufferSize = compressedSize;
        return DT_SUCCESS;
    }
};

/// Sample_TempObstacles' LinearAllocator: a bump allocator reset per tile build.
struct LinearAllocator : public dtTileCacheAlloc
{
    std::vector<unsigned char> buffer;
    size_t top = 0, high = 0;
    long long failures = 0; // allocations refused (a tile build that meets one gives up)
    explicit LinearAllocator(size_t capacity) : buffer(capacity) {}
    void reset() override
    {
        high = std::max(high, top);
        top = 0;
    }
    void* alloc(const size_t size) override
    {
        if (top + size > buffer.size())
        {
            ++failures;
            return nullptr;
        }
        void* mem = &buffer[top];
        top += size;
        return mem;
    }
    void free(void*) override {}
};

enum : unsigned short
{
    kPolyFlagWalk = 0x01, // SAMPLE_POLYFLAGS_WALK
};

/// Sample_TempObstacles' MeshProcess: areas and flags (no off-mesh links here).
struct MeshProcess : public dtTileCacheMeshProcess
{
    void process(dtNavMeshCreateParams* params, unsigned char* polyAreas, unsigned short* polyFlags) override
    {
        for (int i = 0; i < params->polyCount; ++i)
        {
            if (polyAreas[i] == DT_TILECACHE_WALKABLE_AREA)
                polyAreas[i] = 0; // SAMPLE_POLYAREA_GROUND
            polyFlags[i] = kPolyFlagWalk;
        }
    }
};

/// The tiled navmesh, its tile cache and a query.
struct TileCacheMesh
{
    CopyCompressor compressor;
    LinearAllocator alloc{std::max<size_t>(kTileAllocBytes, kTileAllocBytes * static_cast<size_t>(g_level.tileSize) *
                                                                static_cast<size_t>(g_level.tileSize) /
                                                                (kDungeonTileSize * kDungeonTileSize))};
    MeshProcess process;
    dtTileCache* cache = nullptr;
    dtNavMesh* nav = nullptr;
    dtNavMeshQuery* query = nullptr; // 65,535 nodes: the quality paths and placing points
    int tilesX = 0, tilesZ = 0, layers = 0;
    float radius = kObstacleRadius + kAgentRadius; // the cylinder radius given to addObstacle
    ~TileCacheMesh()
    {
        dtFreeNavMeshQuery(query);
        dtFreeNavMesh(nav);
        dtFreeTileCache(cache);
    }
};

/// Sample_TempObstacles::rasterizeTileLayers: the layers of tile (tx, tz) as
/// tile cache data (the caller owns each `data`).
int rasterizeTileLayers(int tx, int tz, const rcConfig& cfg, dtTileCacheCompressor& comp,
                        std::vector<std::pair<unsigned char*, int>>& out)
{
    const nav::BakeInput& input = benchInput();
    const float* verts = &input.vertices[0].x;
    const int nverts = static_cast<int>(input.vertices.size());
    rcContext ctx(false);
    const float tcs = static_cast<float>(cfg.tileSize) * cfg.cs;
    rcConfig tcfg = cfg;
    tcfg.bmin[0] = cfg.bmin[0] + static_cast<float>(tx) * tcs;
    tcfg.bmin[2] = cfg.bmin[2] + static_cast<float>(tz) * tcs;
    tcfg.bmax[0] = cfg.bmin[0] + static_cast<float>(tx + 1) * tcs;
    tcfg.bmax[2] = cfg.bmin[2] + static_cast<float>(tz + 1) * tcs;
    tcfg.bmin[0] -= static_cast<float>(tcfg.borderSize) * tcfg.cs;
    tcfg.bmin[2] -= static_cast<float>(tcfg.borderSize) * tcfg.cs;
    tcfg.bmax[0] += static_cast<float>(tcfg.borderSize) * tcfg.cs;
    tcfg.bmax[2] += static_cast<float>(tcfg.borderSize) * tcfg.cs;

    // The triangles over the tile (what the sample's rcGetChunksOverlappingRect picks, or fewer:
    // rasterising clips to the tile anyway), bucketed once per tile.
    const int tilesX = (g_levelGridWidth + cfg.tileSize - 1) / cfg.tileSize;
    const int tilesZ = (g_levelGridHeight + cfg.tileSize - 1) / cfg.tileSize;
    const std::vector<int>& tris = trianglesByTile(cfg, tilesX, tilesZ)[static_cast<size_t>(tz * tilesX + tx)];
    const int ntris = static_cast<int>(tris.size() / 3);
    if (ntris == 0)
        return 0;

    rcHeightfield* solid = rcAllocHeightfield();
    if (!rcCreateHeightfield(&ctx, *solid, tcfg.width, tcfg.height, tcfg.bmin, tcfg.bmax, tcfg.cs, tcfg.ch))
        fail("rcCreateHeightfield");
    std::vector<unsigned char> areas(static_cast<size_t>(ntris), 0);
    rcMarkWalkableTriangles(&ctx, tcfg.walkableSlopeAngle, verts, nverts, tris.data(), ntris, areas.data());
    if (!rcRasterizeTriangles(&ctx, verts, nverts, tris.data(), areas.data(), ntris, *solid,
                              tcfg.walkableClimb))
        fail("rcRasterizeTriangles");
    rcFilterLowHangingWalkableObstacles(&ctx, tcfg.walkableClimb, *solid);
    rcFilterLedgeSpans(&ctx, tcfg.walkableHeight, tcfg.walkableClimb, *solid);
    rcFilterWalkableLowHeightSpans(&ctx, tcfg.walkableHeight, *solid);
    rcCompactHeightfield* chf = rcAllocCompactHeightfield();
    if (!rcBuildCompactHeightfield(&ctx, tcfg.walkableHeight, tcfg.walkableClimb, *solid, *chf))
        fail("rcBuildCompactHeightfield");
    rcFreeHeightField(solid);
    if (!rcErodeWalkableArea(&ctx, tcfg.walkableRadius, *chf))
        fail("rcErodeWalkableArea");
    rcHeightfieldLayerSet* lset = rcAllocHeightfieldLayerSet();
    if (!rcBuildHeightfieldLayers(&ctx, *chf, tcfg.borderSize, tcfg.walkableHeight, *lset))
        fail("rcBuildHeightfieldLayers");
    rcFreeCompactHeightfield(chf);

    int n = 0;
    for (int i = 0; i < std::min(lset->nlayers, kMaxLayers); ++i)
    {
        const rcHeightfieldLayer* layer = &lset->layers[i];
        dtTileCacheLayerHeader header;
        header.magic = DT_TILECACHE_MAGIC;
        header.version = DT_TILECACHE_VERSION;
        header.tx = tx;
        header.ty = tz;
        header.tlayer = i;
        dtVcopy(header.bmin, layer->bmin);
        dtVcopy(header.bmax, layer->bmax);
        header.width = static_cast<unsigned char>(layer->width);
        header.height = static_cast<unsigned char>(layer->height);
        header.minx = static_cast<unsigned char>(layer->minx);
        header.maxx = static_cast<unsigned char>(layer->maxx);
        header.miny = static_cast<unsigned char>(layer->miny);
        header.maxy = static_cast<unsigned char>(layer->maxy);
        header.hmin = static_cast<unsigned short>(layer->hmin);
        header.hmax = static_cast<unsigned short>(layer->hmax);
        unsigned char* data = nullptr;
        int size = 0;
        if (dtStatusFailed(dtBuildTileCacheLayer(&comp, &header, layer->heights, layer->areas, layer->cons,
                                                 &data, &size)))
            fail("dtBuildTileCacheLayer");
        out.emplace_back(data, size);
        ++n;
    }
    rcFreeHeightfieldLayerSet(lset);
    return n;
}

/// Sample_TempObstacles::handleBuild with the bench's settings.
void buildTileCache(TileCacheMesh& out)
{
    // The solo settings (bounds and whole grid included), then the sample's tiling.
    rcConfig cfg = levelConfig();
    const int tileSize = g_level.tileSize;
    const float* bmin = cfg.bmin;
    g_levelGridWidth = cfg.width;
    g_levelGridHeight = cfg.height;
    const int tw = (cfg.width + tileSize - 1) / tileSize;
    const int th = (cfg.height + tileSize - 1) / tileSize;
    out.tilesX = tw;
    out.tilesZ = th;
    cfg.tileSize = tileSize;
    cfg.borderSize = cfg.walkableRadius + 3; // the sample's padding
    cfg.width = cfg.tileSize + cfg.borderSize * 2;
    cfg.height = cfg.tileSize + cfg.borderSize * 2;

    dtTileCacheParams tcparams;
    std::memset(&tcparams, 0, sizeof(tcparams));
    rcVcopy(tcparams.orig, bmin);
    tcparams.cs = g_level.cellSize;
    tcparams.ch = kCellHeight;
    tcparams.width = tileSize;
    tcparams.height = tileSize;
    tcparams.walkableHeight = kAgentHeight;
    tcparams.walkableRadius = kAgentRadius;
    tcparams.walkableClimb = kAgentClimb;
    tcparams.maxSimplificationError = kEdgeMaxError;
    tcparams.maxTiles = tw * th * kExpectedLayersPerTile;
    tcparams.maxObstacles = kMaxObstacles;
    out.cache = dtAllocTileCache();
    if (dtStatusFailed(out.cache->init(&tcparams, &out.alloc, &out.compressor, &out.process)))
        fail("dtTileCache::init");

    // Sample_TempObstacles::handleSettings: 22 bits for the tile and polygon ids.
    const int tileBits = std::min(
        static_cast<int>(dtIlog2(dtNextPow2(static_cast<unsigned>(tw * th * kExpectedLayersPerTile)))), 14);
    const int polyBits = 22 - tileBits;
    dtNavMeshParams params;
    std::memset(&params, 0, sizeof(params));
    rcVcopy(params.orig, bmin);
    params.tileWidth = static_cast<float>(tileSize) * g_level.cellSize;
    params.tileHeight = static_cast<float>(tileSize) * g_level.cellSize;
    params.maxTiles = 1 << tileBits;
    params.maxPolys = 1 << polyBits;
    out.nav = dtAllocNavMesh();
    if (dtStatusFailed(out.nav->init(&params)))
        fail("dtNavMesh::init");
    out.query = dtAllocNavMeshQuery();
    if (dtStatusFailed(out.query->init(out.nav, 65535)))
        fail("dtNavMeshQuery::init");

    for (int z = 0; z < th; ++z)
        for (int x = 0; x < tw; ++x)
        {
            std::vector<std::pair<unsigned char*, int>> tiles;
            rasterizeTileLayers(x, z, cfg, out.compressor, tiles);
            for (auto& [data, size] : tiles)
            {
                if (dtStatusFailed(out.cache->addTile(data, size, DT_COMPRESSEDTILE_FREE_DATA, nullptr)))
                {
                    dtFree(data);
                    continue;
                }
                ++out.layers;
            }
        }
    for (int z = 0; z < th; ++z)
        for (int x = 0; x < tw; ++x)
            if (dtStatusFailed(out.cache->buildNavMeshTilesAt(x, z, out.nav)))
                fail("dtTileCache::buildNavMeshTilesAt");
}

int tileCachePolygons(const TileCacheMesh& tc)
{
    const dtNavMesh& nav = *tc.nav;
    int n = 0;
    for (int i = 0; i < nav.getMaxTiles(); ++i)
        if (const dtMeshTile* tile = nav.getTile(i); tile && tile->header)
            n += tile->header->polyCount;
    return n;
}

/// The x–z area of the tiled navmesh's polygons. [Units: m²]
double tileCacheArea(const TileCacheMesh& tc)
{
    const dtNavMesh& nav = *tc.nav;
    double area = 0.0;
    for (int i = 0; i < nav.getMaxTiles(); ++i)
    {
        const dtMeshTile* tile = nav.getTile(i);
        if (!tile || !tile->header)
            continue;
        for (int p = 0; p < tile->header->polyCount; ++p)
        {
            const dtPoly& poly = tile->polys[p];
            double twice = 0.0;
            for (int k = 0; k < poly.vertCount; ++k)
            {
                const float* a = &tile->verts[poly.verts[k] * 3];
                const float* c = &tile->verts[poly.verts[(k + 1) % poly.vertCount] * 3];
                twice += static_cast<double>(a[0]) * c[2] - static_cast<double>(c[0]) * a[2];
            }
            area += std::abs(twice) * 0.5;
        }
    }
    return area;
}

bool onTileCache(const TileCacheMesh& tc, const glm::vec3& p, float extent, dtPolyRef* ref = nullptr,
                 glm::vec3* nearest = nullptr)
{
    return onDetourMesh(*tc.query, p, extent, ref, nearest);
}

/// Updates until the cache is up to date; answers the tile rebuilds (update calls).
int updateTileCache(TileCacheMesh& tc)
{
    bool upToDate = false;
    int calls = 0;
    while (!upToDate)
    {
        if (dtStatusFailed(tc.cache->update(0.0f, tc.nav, &upToDate)))
            fail("dtTileCache::update");
        ++calls;
    }
    return calls;
}

/// A TileCache path's length (complete = it reaches the end's polygon); negative when not found.
float tileCachePathLength(const TileCacheMesh& tc, const glm::vec3& a, const glm::vec3& b, bool& complete)
{
    complete = false;
    dtPolyRef ra = 0, rb = 0;
    glm::vec3 pa, pb;
    if (!onTileCache(tc, a, kOnMeshExtent, &ra, &pa) || !onTileCache(tc, b, kOnMeshExtent, &rb, &pb))
        return -1.0f;
    const dtQueryFilter filter;
    static std::vector<dtPolyRef> path(65535);
    static std::vector<float> straight(3 * 2048);
    int n = 0;
    const dtStatus st = tc.query->findPath(ra, rb, &pa.x, &pb.x, &filter, path.data(), &n, 65535);
    if (dtStatusFailed(st) || n == 0)
        return -1.0f;
    complete = path[static_cast<size_t>(n - 1)] == rb;
    int ns = 0;
    if (dtStatusFailed(tc.query->findStraightPath(&pa.x, &pb.x, path.data(), n, straight.data(), nullptr,
                                                  nullptr, &ns, 2048)))
        return -1.0f;
    float length = 0.0f;
    for (int i = 1; i < ns; ++i)
    {
        const float* p = &straight[static_cast<size_t>(3 * (i - 1))];
        const float* q = &straight[static_cast<size_t>(3 * i)];
        length += std::sqrt((q[0] - p[0]) * (q[0] - p[0]) + (q[1] - p[1]) * (q[1] - p[1]) +
                            (q[2] - p[2]) * (q[2] - p[2]));
    }
    return length;
}

// --- Obstacle positions ------------------------------------------------------------

/// A point both meshes have: each side's own point there.
struct Spot
{
    glm::vec3 spark{0.0f}, tilecache{0.0f};
};

/// A measured obstacle: where it is added, where it moves, and the quality query across it.
struct Subject
{
    Spot at, moveTo;
    bool hasQuery = false;
    Spot queryFrom, queryTo;
};

bool spotAt(const nav::NavMesh& mesh, const TileCacheMesh& tc, const glm::vec3& p, Spot& out)
{
    auto s = nav::findNearest(mesh, p, glm::vec3(kOnMeshExtent, 1.0f, kOnMeshExtent));
    if (!s.ok() || distXZ(s->point, p) > kOnMeshExtent)
        return false;
    glm::vec3 q;
    if (!onTileCache(tc, p, kOnMeshExtent, nullptr, &q))
        return false;
    out.spark = s->point;
    out.tilecache = q;
    return std::fabs(out.spark.y - p.y) < 0.3f && std::fabs(out.tilecache.y - p.y) < 0.3f;
}

/// Where obstacles are drawn: the whole mesh (half = 0), or a square of edge
/// 2 × half around (x, z), its points dropped from above every floor.
struct Window
{
    float x = 0.0f, z = 0.0f, half = 0.0f;
    float top = 0.0f, depth = 0.0f; // findNearest from (x, top, z) with half-extent depth in y
};

/// The square of edge `edge` around the middle of the level's x–z bounds (edge 0: the whole mesh).
Window levelWindow(float edge)
{
    Window w;
    if (edge <= 0.0f)
        return w;
    glm::vec3 lo(1e30f), hi(-1e30f);
    for (const glm::vec3& v : benchInput().vertices)
        for (int k = 0; k < 3; ++k)
            lo[k] = std::min(lo[k], v[k]), hi[k] = std::max(hi[k], v[k]);
    w.x = 0.5f * (lo.x + hi.x);
    w.z = 0.5f * (lo.z + hi.z);
    w.half = 0.5f * edge;
    w.top = hi.y + 1.0f;
    w.depth = hi.y - lo.y + 2.0f;
    return w;
}

/// A seeded spot on both meshes: uniform by area over Spark's mesh, or (window)
/// uniform in x–z over the window, on the highest floor there.
Spot drawSpot(const nav::NavMesh& mesh, const TileCacheMesh& tc, Rng& rng, const Window& w)
{
    for (int tries = 0; tries < 100000; ++tries)
    {
        glm::vec3 at;
        if (w.half <= 0.0f)
        {
            auto p = nav::randomPoint(mesh, rng);
            if (!p.ok())
                fail("nav::randomPoint");
            at = p->point;
        }
        else
        {
            const float x = static_cast<float>(rngNextRange(rng, w.x - w.half, w.x + w.half));
            const float z = static_cast<float>(rngNextRange(rng, w.z - w.half, w.z + w.half));
            auto p = nav::findNearest(mesh, glm::vec3(x, w.top, z),
                                      glm::vec3(kOnMeshExtent, w.depth, kOnMeshExtent));
            if (!p.ok())
                continue;
            at = p->point;
        }
        Spot s;
        if (spotAt(mesh, tc, at, s))
            return s;
    }
    fail("placing an obstacle");
}

std::vector<Spot> makeOthers(const nav::NavMesh& mesh, const TileCacheMesh& tc, const Window& w)
{
    Rng rng = rngFromSeed(kSeed, 1);
    std::vector<Spot> out;
    for (int i = 0; i < kOtherCount; ++i)
        out.push_back(drawSpot(mesh, tc, rng, w));
    return out;
}

std::vector<Subject> makeSubjects(const nav::NavMesh& mesh, const TileCacheMesh& tc, int count,
                                  const Window& w)
{
    Rng rng = rngFromSeed(kSeed, 2);
    std::vector<Subject> out;
    nav::QueryScratch scratch;
    nav::PathResult path;
    while (static_cast<int>(out.size()) < count)
    {
        Subject s;
        s.at = drawSpot(mesh, tc, rng, w);
        const glm::vec3 c = s.at.spark;
        bool moved = false;
        for (int k = 0; k < 64 && !moved; ++k)
        {
            const double a = rngNextRange(rng, 0.0, 6.283185307179586);
            const glm::vec3 p = c + kMoveDistance * glm::vec3(std::cos(a), 0.0f, std::sin(a));
            moved = spotAt(mesh, tc, p, s.moveTo);
        }
        if (!moved)
            continue;
        for (int k = 0; k < 64 && !s.hasQuery && static_cast<int>(out.size()) < kQualitySubjects; ++k)
        {
            const double a = rngNextRange(rng, 0.0, 6.283185307179586);
            const glm::vec3 u(std::cos(a), 0.0f, std::sin(a));
            if (!spotAt(mesh, tc, c - kQueryReach * u, s.queryFrom) ||
                !spotAt(mesh, tc, c + kQueryReach * u, s.queryTo))
                continue;
            bool complete = false;
            if (tileCachePathLength(tc, s.queryFrom.tilecache, s.queryTo.tilecache, complete) < 0.0f ||
                !complete)
                continue;
            if (!nav::findPath(mesh, scratch, s.queryFrom.spark, s.queryTo.spark, nav::defaultQueryFilter(),
                               glm::vec3(kOnMeshExtent, 1.0f, kOnMeshExtent), path)
                     .ok() ||
                !path.complete)
                continue;
            s.hasQuery = true;
        }
        if (static_cast<int>(out.size()) < kQualitySubjects && !s.hasQuery)
            continue;
        out.push_back(s);
    }
    return out;
}

// --- The two sides ---------------------------------------------------------------

/// Per operation, per side: µs of each subject's call(s) in one repeat.
struct OpTimes
{
    std::vector<double> add, move, remove;
};

/// Per others count and side: the per-repeat medians (µs), and TileCache's tile rebuilds.
struct Row
{
    std::vector<double> add, move, remove;
    long long tilesAdd = 0, tilesMove = 0, tilesRemove = 0, ops = 0;
};

class TileCacheSide
{
  public:
    TileCacheSide(TileCacheMesh& tc, const std::vector<Spot>& others) : m_tc(tc), m_others(others) {}

    /// Places the first n others (untimed); the cache must hold no obstacles.
    void placeOthers(int n)
    {
        for (int i = 0; i < n; ++i)
        {
            m_refs.push_back(add(m_others[static_cast<size_t>(i)]));
            updateTileCache(m_tc);
        }
    }
    /// Removes the others (untimed): back to the baked tiles.
    void clearOthers()
    {
        for (dtObstacleRef r : m_refs)
        {
            if (dtStatusFailed(m_tc.cache->removeObstacle(r)))
                fail("dtTileCache::removeObstacle");
            updateTileCache(m_tc);
        }
        m_refs.clear();
    }
    dtObstacleRef add(const Spot& s)
    {
        const float p[3] = {s.tilecache.x, s.tilecache.y - kTileCacheBaseDrop, s.tilecache.z};
        dtObstacleRef ref = 0;
        if (dtStatusFailed(m_tc.cache->addObstacle(p, m_tc.radius, kObstacleHeight, &ref)))
            fail("dtTileCache::addObstacle");
        return ref;
    }
    void remove(dtObstacleRef ref)
    {
        if (dtStatusFailed(m_tc.cache->removeObstacle(ref)))
            fail("dtTileCache::removeObstacle");
    }

    /// Adds, moves and removes one subject, timing each with its updates.
    [[gnu::noinline]] void run(const Subject& s, OpTimes& io, Row& rows)
    {
        double t = threadSeconds();
        dtObstacleRef ref = add(s.at);
        int tiles = updateTileCache(m_tc);
        io.add.push_back((threadSeconds() - t) * 1e6);
        rows.tilesAdd += tiles;

        t = threadSeconds();
        remove(ref);
        ref = add(s.moveTo);
        tiles = updateTileCache(m_tc);
        io.move.push_back((threadSeconds() - t) * 1e6);
        rows.tilesMove += tiles;

        t = threadSeconds();
        remove(ref);
        tiles = updateTileCache(m_tc);
        io.remove.push_back((threadSeconds() - t) * 1e6);
        rows.tilesRemove += tiles;
        ++rows.ops;
    }

  private:
    TileCacheMesh& m_tc;
    const std::vector<Spot>& m_others;
    std::vector<dtObstacleRef> m_refs;
};

class SparkSide
{
  public:
    SparkSide(std::shared_ptr<const nav::NavMesh> mesh, const std::vector<Spot>& others)
        : m_baked(std::move(mesh)), m_others(others)
    {
    }

    /// A world holding the baked mesh and the first n others (untimed).
    void placeOthers(int n)
    {
        m_world = std::make_unique<nav::NavWorld>();
        nav::MeshDef def = nav::defaultMeshDef();
        def.name = g_level.name;
        def.source = "bench";
        def.mesh = m_baked;
        auto id = m_world->putMesh(std::move(def));
        if (!id.ok())
            fail("NavWorld::putMesh");
        m_mesh = *id;
        for (int i = 0; i < n; ++i)
            add(m_others[static_cast<size_t>(i)]);
    }
    /// Drops the world (the next placeOthers starts from the baked mesh).
    void clearOthers() { m_world.reset(); }

    nav::ObstacleId add(const Spot& s)
    {
        nav::ObstacleDef od = nav::defaultObstacleDef();
        od.shape.shape = nav::FootprintShape::Circle;
        od.shape.radius = kObstacleRadius;
        od.position = s.spark;
        od.height = kObstacleHeight;
        auto id = m_world->addObstacle(m_mesh, od);
        if (!id.ok())
        {
            std::fprintf(stderr, "spark addObstacle: %s\n", id.error().message.c_str());
            std::exit(1);
        }
        return *id;
    }
    void remove(nav::ObstacleId id)
    {
        if (!m_world->removeObstacle(id).ok())
            fail("NavWorld::removeObstacle");
    }

    /// Adds, moves and removes one subject, timing each call.
    [[gnu::noinline]] void run(const Subject& s, OpTimes& io)
    {
        double t = threadSeconds();
        const nav::ObstacleId id = add(s.at);
        io.add.push_back((threadSeconds() - t) * 1e6);

        t = threadSeconds();
        const bool moved = m_world->moveObstacle(id, s.moveTo.spark).ok();
        io.move.push_back((threadSeconds() - t) * 1e6);
        if (!moved)
            fail("NavWorld::moveObstacle");

        t = threadSeconds();
        remove(id);
        io.remove.push_back((threadSeconds() - t) * 1e6);
    }

    const nav::NavMesh& mesh() const { return *m_world->mesh(m_mesh); }

    /// Spark's path length (complete = it reaches the goal); negative when not found.
    float pathLength(const glm::vec3& a, const glm::vec3& b, bool& complete) const
    {
        complete = false;
        const Status st = nav::findPath(mesh(), m_world->queryScratch(), a, b, nav::defaultQueryFilter(),
                                        glm::vec3(kOnMeshExtent, 1.0f, kOnMeshExtent), m_path);
        if (!st.ok())
            return -1.0f;
        complete = m_path.complete;
        return m_path.length;
    }

  private:
    std::shared_ptr<const nav::NavMesh> m_baked;
    const std::vector<Spot>& m_others;
    std::unique_ptr<nav::NavWorld> m_world;
    nav::MeshId m_mesh;
    mutable nav::PathResult m_path;
};

// --- Quality ---------------------------------------------------------------------

/// Per others count and side: the carved meshes and the paths across the subjects.
struct Quality
{
    double polygons = 0.0; // walkable polygons with the others and one subject, mean over the subjects
    int queries = 0, complete = 0;
    std::vector<float> lengths; // per query; negative when incomplete
};

/// Sum of the lengths of the queries complete in both.
double sumBoth(const Quality& a, const Quality& b, int& count)
{
    double sum = 0.0;
    count = 0;
    for (size_t i = 0; i < a.lengths.size() && i < b.lengths.size(); ++i)
        if (a.lengths[i] >= 0.0f && b.lengths[i] >= 0.0f)
        {
            sum += a.lengths[i];
            ++count;
        }
    return sum;
}

// --- Main ----------------------------------------------------------------------

Options parseOptions(int argc, char** argv)
{
    Options o;
    for (int i = 1; i < argc; ++i)
    {
        const std::string a = argv[i];
        auto value = [&](const char* key) { return spark::bench::optionValue(a, key); };
        if (const char* v = value("--others="))
        {
            o.others = spark::bench::intList(v);
            for (int& n : o.others)
                n = std::clamp(n, 0, kOtherCount);
        }
        else if (const char* v = value("--repeats="))
            o.repeats = std::max(1, std::atoi(v));
        else if (const char* v = value("--subjects="))
            o.subjects = std::max(kQualitySubjects, std::atoi(v));
        else if (const char* v = value("--side="))
        {
            o.spark = std::strcmp(v, "tilecache") != 0;
            o.tilecache = std::strcmp(v, "spark") != 0;
        }
        else if (const char* v = value("--level="))
        {
            const std::string level = v;
            if (level == "terrain")
                g_level = terrainLevel("terrain", "out/terrain-1k.obj");
            else if (level.rfind("terrain-", 0) == 0 && level.size() > 8 &&
                     level.find_first_not_of("0123456789", 8) == std::string::npos)
                g_level = terrainLevel(level, "out/" + level + ".obj");
            else if (level.rfind("obj:", 0) == 0 && level.size() > 4)
                g_level = terrainLevel(level.substr(4), level.substr(4));
            else if (level != "dungeon")
            {
                std::fprintf(stderr,
                             "--level is dungeon, terrain, terrain-S (out/terrain-S.obj) or obj:PATH\n");
                std::exit(2);
            }
        }
        else if (const char* v = value("--scaling="))
        {
            o.scaling = spark::bench::intList(v);
            for (int size : o.scaling)
                if (size < 100)
                {
                    std::fprintf(stderr, "--scaling takes terrain sizes in metres (>= 100)\n");
                    std::exit(2);
                }
        }
        else if (const char* v = value("--window="))
            o.window = std::max(0.0f, static_cast<float>(std::atof(v)));
        else if (const char* v = value("--tile-size="))
            o.tileSize = std::max(1, std::atoi(v));
        else if (const char* v = value("--spark-tile-size="))
            o.sparkTileSize = std::max(0, std::atoi(v));
        else if (const char* v = value("--tilecache-radius="))
            o.grownTileCacheRadius = std::strcmp(v, "bare") != 0;
        else
        {
            std::fprintf(stderr, "unknown option %s\n", a.c_str());
            std::exit(2);
        }
    }
    return o;
}

/// One level's figures for the --scaling table.
struct LevelResult
{
    std::string name;
    size_t triangles = 0;
    uint32_t sparkPolygons = 0;         // as baked
    int tileCachePolygons = 0;          // as baked
    std::vector<Row> sparkRows, tcRows; // per others count
};

/// Loads g_level, bakes both sides, times add / move / remove and prints the level's tables.
LevelResult runLevel(const Options& opt)
{
    if (opt.tileSize > 0)
        g_level.tileSize = opt.tileSize;
    if (g_level.name != "dungeon" && !std::filesystem::exists(dataPath(g_level.path.c_str())))
    {
        if (g_level.path.rfind("out/terrain-", 0) == 0)
        {
            const std::string size = g_level.name == "terrain" ? "1000" : g_level.name.substr(8);
            std::fprintf(
                stderr,
                "carve_bench: %s is missing; write it with python3 tools/terrain.py --size %s -o %s\n",
                g_level.path.c_str(), size.c_str(), g_level.path.c_str());
        }
        else
            std::fprintf(stderr, "carve_bench: %s is missing\n", g_level.path.c_str());
        std::exit(1);
    }
    g_trianglesByTile.clear();
    g_input.reset(); // the previous level's triangles go before the next are read
    g_input = std::make_unique<const nav::BakeInput>(loadObjInput(g_level.path.c_str()));
    const nav::BakeInput& input = benchInput();
    const int sparkTileSize = opt.sparkTileSize < 0 ? g_level.tileSize : opt.sparkTileSize;
    auto baked = nav::bakeNavMesh(input, levelBakeDef(sparkTileSize));
    if (!baked.ok())
    {
        std::fprintf(stderr, "spark bake: %s\n", baked.error().message.c_str());
        std::exit(1);
    }
    auto sparkMesh = std::make_shared<const nav::NavMesh>(std::move(baked.value().mesh));
    TileCacheMesh tc;
    buildTileCache(tc);
    tc.radius = opt.grownTileCacheRadius ? kObstacleRadius + kAgentRadius : kObstacleRadius;
    const Window window = levelWindow(opt.window < 0.0f ? 0.0f : opt.window);
    const std::vector<Spot> others = makeOthers(*sparkMesh, tc, window);
    const std::vector<Subject> subjects = makeSubjects(*sparkMesh, tc, opt.subjects, window);
    const int bakedTileCachePolygons = tileCachePolygons(tc);
    LevelResult result;
    result.name = g_level.name;
    result.triangles = input.indices.size() / 3;
    result.sparkPolygons = sparkMesh->activePolygonCount();
    result.tileCachePolygons = bakedTileCachePolygons;

    std::printf("%s: %zu triangles; agent r %.1f h %.1f climb %.1f slope %.0f; cells %.1f x %.1f\n",
                g_level.path.c_str(), input.indices.size() / 3, kAgentRadius, kAgentHeight, kAgentClimb, kSlopeDeg,
                g_level.cellSize, kCellHeight);
    std::printf(
        "meshes as baked: spark %u polygons %.1f m2 in %zu tiles of %d cells | tilecache %d polygons %.1f m2 in "
        "%d x %d tiles of %d cells, %d layers\n",
        sparkMesh->activePolygonCount(), sparkMesh->totalArea(), sparkMesh->tiles().size(), sparkTileSize,
        bakedTileCachePolygons, tileCacheArea(tc), tc.tilesX, tc.tilesZ, g_level.tileSize, tc.layers);
    std::printf(
        "obstacles: circle r %.1f m, h %.1f m (spark, grown by the agent radius %.1f when carved) | cylinder "
        "r %.1f m, h %.1f m, base %.1f m under the floor point (tilecache)%s; move %.1f m; %d subjects, seed "
        "%llu\n",
        kObstacleRadius, kObstacleHeight, kAgentRadius, tc.radius, kObstacleHeight, kTileCacheBaseDrop,
        opt.grownTileCacheRadius ? "" : " (BARE radius: agents may cut into it)", kMoveDistance, opt.subjects,
        static_cast<unsigned long long>(kSeed));
    if (window.half > 0.0f)
        std::printf("obstacles drawn in the %.0f x %.0f m square around (%.1f, %.1f), uniform in x-z, "
                    "highest floor\n",
                    2.0 * window.half, 2.0 * window.half, window.x, window.z);
    else
        std::printf("obstacles drawn over the whole mesh, uniform by area\n");
    {
        const double t0 = threadSeconds();
        for (int i = 0; i < 1000; ++i)
            (void)threadSeconds();
        std::printf(
            "clock: one CLOCK_THREAD_CPUTIME_ID read costs %.2f us (inside every figure below once)\n\n",
            (threadSeconds() - t0) * 1e3);
    }
    std::fflush(stdout);

    // Timed runs: per subject, add / move / remove on each side, the first side alternating with the repeat.
    std::vector<Row> sparkRows(opt.others.size()), tcRows(opt.others.size());
    SparkSide sparkSide(sparkMesh, others);
    TileCacheSide tcSide(tc, others);
    for (int rep = 0; rep < opt.repeats; ++rep)
        for (size_t k = 0; k < opt.others.size(); ++k)
        {
            const int n = opt.others[k];
            const bool sparkFirst = rep % 2 == 0;
            std::fprintf(stderr, "repeat %d, %d others (%s first)\n", rep + 1, n,
                         sparkFirst ? "spark" : "tilecache");
            OpTimes sparkTimes, tcTimes;
            if (opt.spark)
                sparkSide.placeOthers(n);
            if (opt.tilecache)
                tcSide.placeOthers(n);
            for (const Subject& s : subjects)
                for (int side = 0; side < 2; ++side)
                {
                    if ((side == 0) == sparkFirst && opt.spark)
                        sparkSide.run(s, sparkTimes);
                    if ((side == 0) != sparkFirst && opt.tilecache)
                        tcSide.run(s, tcTimes, tcRows[k]);
                }
            if (opt.spark)
                sparkSide.clearOthers();
            if (opt.tilecache)
                tcSide.clearOthers();
            auto record = [](Row& row, const OpTimes& t)
            {
                row.add.push_back(median(t.add));
                row.move.push_back(median(t.move));
                row.remove.push_back(median(t.remove));
            };
            record(sparkRows[k], sparkTimes);
            record(tcRows[k], tcTimes);
        }

    // Quality, untimed: the others plus one subject (its first position) at a time.
    std::vector<Quality> sparkQuality(opt.others.size()), tcQuality(opt.others.size());
    Quality sparkBaked, tcBaked; // the same queries without obstacles
    const bool quality = opt.spark && opt.tilecache;
    if (quality)
    {
        sparkSide.placeOthers(0);
        for (const Subject& s : subjects)
            if (s.hasQuery)
            {
                bool complete = false;
                const float ls = sparkSide.pathLength(s.queryFrom.spark, s.queryTo.spark, complete);
                sparkBaked.lengths.push_back(complete ? ls : -1.0f);
                const float lt =
                    tileCachePathLength(tc, s.queryFrom.tilecache, s.queryTo.tilecache, complete);
                tcBaked.lengths.push_back(complete ? lt : -1.0f);
            }
        sparkSide.clearOthers();
    }
    for (size_t k = 0; k < opt.others.size() && quality; ++k)
    {
        const int n = opt.others[k];
        sparkSide.placeOthers(n);
        tcSide.placeOthers(n);
        for (const Subject& s : subjects)
        {
            if (!s.hasQuery)
                continue;
            bool complete = false;
            const nav::ObstacleId sid = sparkSide.add(s.at);
            const dtObstacleRef tref = tcSide.add(s.at);
            updateTileCache(tc);
            Quality& sq = sparkQuality[k];
            Quality& tq = tcQuality[k];
            sq.polygons += sparkSide.mesh().activePolygonCount();
            tq.polygons += tileCachePolygons(tc);
            float length = sparkSide.pathLength(s.queryFrom.spark, s.queryTo.spark, complete);
            sq.lengths.push_back(complete ? length : -1.0f);
            sq.complete += complete;
            length = tileCachePathLength(tc, s.queryFrom.tilecache, s.queryTo.tilecache, complete);
            tq.lengths.push_back(complete ? length : -1.0f);
            tq.complete += complete;
            ++sq.queries;
            ++tq.queries;
            sparkSide.remove(sid);
            tcSide.remove(tref);
            updateTileCache(tc);
        }
        sparkQuality[k].polygons /= std::max(1, sparkQuality[k].queries);
        tcQuality[k].polygons /= std::max(1, tcQuality[k].queries);
        sparkSide.clearOthers();
        tcSide.clearOthers();
    }

    std::printf(
        "thread CPU time per operation (TileCache: the call(s) + update until up to date); median over %d "
        "subjects per repeat, then over %d repeats (alternating first side); ratio = spark / tilecache; "
        "tiles = TileCache tile layers rebuilt per operation (mean)\n\n",
        opt.subjects, opt.repeats);
    std::printf("| N others | op | Spark us | TileCache us | ratio | tiles |\n");
    std::printf("|---:|---|---:|---:|---:|---:|\n");
    const char* opNames[3] = {"add", "move", "remove"};
    for (size_t k = 0; k < opt.others.size(); ++k)
    {
        const Row& sr = sparkRows[k];
        const Row& tr = tcRows[k];
        const double ops = static_cast<double>(std::max(1LL, tr.ops));
        const std::vector<double>* sparkOps[3] = {&sr.add, &sr.move, &sr.remove};
        const std::vector<double>* tcOps[3] = {&tr.add, &tr.move, &tr.remove};
        const long long tiles[3] = {tr.tilesAdd, tr.tilesMove, tr.tilesRemove};
        for (int op = 0; op < 3; ++op)
        {
            const double a = median(*sparkOps[op]), b = median(*tcOps[op]);
            char sa[32] = "-", sb[32] = "-", ratio[32] = "-", st[32] = "-";
            if (opt.spark)
                std::snprintf(sa, sizeof sa, "%.1f", a);
            if (opt.tilecache)
            {
                std::snprintf(sb, sizeof sb, "%.1f", b);
                std::snprintf(st, sizeof st, "%.2f", static_cast<double>(tiles[op]) / ops);
            }
            if (opt.spark && opt.tilecache)
                std::snprintf(ratio, sizeof ratio, "%.2f", a / std::max(1e-9, b));
            std::printf("| %d | %s | %s | %s | %s | %s |\n", opt.others[k], opNames[op], sa, sb, ratio, st);
        }
    }
    if (opt.tilecache)
        std::printf("tilecache: %lld allocations refused (a tile build that meets one gives up; 0 = every "
                    "rebuild ran whole)\n",
                    tc.alloc.failures);

    result.sparkRows = std::move(sparkRows);
    result.tcRows = std::move(tcRows);
    if (!quality)
    {
        std::printf("\nquality: needs both sides (--side=both)\n");
        return result;
    }
    int both = 0;
    const double sparkBakedSum = sumBoth(sparkBaked, tcBaked, both);
    const double tcBakedSum = sumBoth(tcBaked, sparkBaked, both);
    std::printf(
        "\nquality: N others + one subject at a time (%d subjects), each side's own mesh; polygons = "
        "walkable "
        "polygons (mean); paths from %.0f m before to %.0f m past the obstacle centre; length = sum over the "
        "queries complete on both sides (as baked, no obstacles: spark %.1f m, tilecache %.1f m over %d)\n\n",
        sparkQuality.empty() ? 0 : sparkQuality[0].queries, kQueryReach, kQueryReach, sparkBakedSum,
        tcBakedSum, both);
    std::printf(
        "| N others | polygons spark (baked %u) | polygons tilecache (baked %d) | complete spark | complete "
        "tilecache | length spark m | length tilecache m | ratio |\n",
        sparkMesh->activePolygonCount(), bakedTileCachePolygons);
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t k = 0; k < opt.others.size(); ++k)
    {
        const Quality& sq = sparkQuality[k];
        const Quality& tq = tcQuality[k];
        int count = 0;
        const double ls = sumBoth(sq, tq, count), lt = sumBoth(tq, sq, count);
        std::printf("| %d | %.1f | %.1f | %d / %d | %d / %d | %.2f | %.2f | %.3f |\n", opt.others[k],
                    sq.polygons, tq.polygons, sq.complete, sq.queries, tq.complete, tq.queries, ls, lt,
                    ls / std::max(1e-9, lt));
    }
    return result;
}

/// The --scaling table: one row per terrain size and others count.
void printScaling(const Options& opt, const std::vector<LevelResult>& levels)
{
    std::printf(
        "\n## Carving against the mesh size (--scaling): thread CPU us per operation, medians as above; "
        "obstacles %s; ratio = spark / tilecache\n\n",
        opt.window > 0.0f ? "in the same square around each terrain's centre (above)"
                          : "over the whole mesh");
    std::printf(
        "| terrain | triangles | N others | Spark polygons | TileCache polygons | Spark add | Spark move | "
        "Spark remove | TileCache add | TileCache move | TileCache remove | ratio add | ratio move | "
        "ratio remove |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const LevelResult& l : levels)
        for (size_t k = 0; k < opt.others.size(); ++k)
        {
            const Row& sr = l.sparkRows[k];
            const Row& tr = l.tcRows[k];
            const double s[3] = {median(sr.add), median(sr.move), median(sr.remove)};
            const double t[3] = {median(tr.add), median(tr.move), median(tr.remove)};
            std::printf("| %s | %zu | %d | %u | %d |", l.name.c_str(), l.triangles, opt.others[k],
                        l.sparkPolygons, l.tileCachePolygons);
            auto cell = [](bool shown, const char* format, double v)
            {
                if (shown)
                    std::printf(format, v);
                else
                    std::printf(" - |");
            };
            for (int i = 0; i < 3; ++i)
                cell(opt.spark, " %.1f |", s[i]);
            for (int i = 0; i < 3; ++i)
                cell(opt.tilecache, " %.1f |", t[i]);
            for (int i = 0; i < 3; ++i)
                cell(opt.spark && opt.tilecache, " %.2f |", s[i] / std::max(1e-9, t[i]));
            std::printf("\n");
        }
}

} // namespace

int main(int argc, char** argv)
{
    Options opt = parseOptions(argc, argv);
    if (opt.scaling.empty())
    {
        runLevel(opt);
        return 0;
    }
    if (opt.window < 0.0f)
        opt.window = kScalingWindow;
    std::vector<LevelResult> levels;
    for (int size : opt.scaling)
    {
        const std::string name = "terrain-" + std::to_string(size);
        g_level = terrainLevel(name, "out/" + name + ".obj");
        std::printf("# %s\n\n", name.c_str());
        levels.push_back(runLevel(opt));
        std::printf("\n");
        std::fflush(stdout);
    }
    printScaling(opt, levels);
    return 0;
}
