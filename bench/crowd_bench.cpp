/// \file crowd_bench.cpp
/// Spark's crowd (nav::NavWorld::stepCrowds on Spark's bake) against DetourCrowd
/// (dtCrowd::update on Recast's bake, Debian's librecast-dev, a comparison only),
/// issues 11 and 35. Two levels (--level=):
///  - dungeon (default): data/meshes/dungeon.obj, 100, 1,000 and 4,000 agents
///    requested (4,000 do not fit: see "Start/goal pairs").
///  - terrain1k: tools/terrain.py's 1 km level (out/terrain-1k.obj, written
///    beforehand: python3 tools/terrain.py -o out/terrain-1k.obj), 1,000 and
///    10,000 agents (--agents=1000,10000).
///
/// The meshes (same agent: radius 0.6, height 2.0, climb 0.9, slope 45):
///  - dungeon, solo meshes, cells 0.3 × 0.2. Spark: nav::bakeNavMesh of the
///    OBJ triangles, oneSided (as `spark bake` bakes an OBJ), RecastDemo's
///    settings (bench/recastdemo.h). Detour: Recast as RecastDemo's
///    Sample_SoloMesh runs it with its default settings (watershed regions, min
///    region 8 cells, merge 20, edge 12 m / 1.3 cells, 6 verts per polygon,
///    detail sample distance 6 cells, error 1 cell height): rcBuildPolyMesh +
///    rcBuildPolyMeshDetail + dtCreateNavMeshData, a single-tile dtNavMesh,
///    polygons flagged walkable.
///  - terrain1k, tiled on both sides as samples/terrain/run.sh and
///    bake_bench/path_bench --tiled bake it: cells 0.5 × 0.2, tiles of 64
///    cells, the same settings otherwise (region sizes in cells). Spark:
///    bakeNavMesh with tileSize 64. Detour: Recast's per-tile bake as
///    Sample_TileMesh::buildTileMesh runs it (watershed, detail mesh) and a
///    tiled dtNavMesh of those tiles (bench/recast_tiles.h), one thread.
///
/// The agents, the same on both sides: max speed 3.5, max acceleration 8,
/// 6 neighbours (DT_CROWDAGENT_MAX_NEIGHBOURS is 6 in Detour; Spark's def is set
/// to 6 too), the rest each side's defaults. Detour's agent parameters are
/// RecastDemo's CrowdTool defaults: collisionQueryRange 12 r,
/// pathOptimizationRange 30 r, anticipate turns + optimise visibility +
/// optimise topology + obstacle avoidance, no separation, obstacle avoidance
/// type 3 ("high": velBias 0.5, 7 divisions, 3 rings, depth 3), targets placed
/// with findNearestPoly within the crowd's query half-extents; dtCrowd::init
/// with maxAgents = N and its own search sizes (its path queue and node pools
/// as DetourCrowd sets them). Spark's agent: CrowdAgentDef defaults (stop
/// distance 0.2, slow radius 1.5, walls within 12 r).
///
/// Start/goal pairs: seeded nav::randomPoint on Spark's mesh; a pair is kept
/// when Detour finds both points on its mesh within 0.1 m horizontally
/// (findNearestPoly, half-extents 0.1 × 1.0 × 0.1), both Spark's findPath and
/// Detour's findPath (65,535 nodes) give complete paths, and its start (goal)
/// is at least 0.9 × 2r from every other start (goal) on the same level
/// (|dy| < agent height). A start is drawn until it fits, then goals for it
/// (100 draws, else a new start). N agents use the first N pairs.
///  - On the terrain a goal is also at most 100 m (x–z) from its start
///    (--goal-within=, 0: anywhere; 2,000 goal draws per start): pairs across
///    the whole kilometre (~500 m paths, 150 s at full speed) would leave the
///    arrivals after 3,000 updates (50 s) empty on both sides.
///  - The dungeon holds about 1,000 pairs: 1,000 discs of r 0.6 cover 70 % of
///    its ~1,600 m², more than random sequential placement reaches at 2r apart
///    (it stalls at ~840), and at 0.9 × 2r the placement already needs 7.4
///    million draws for 1,000. When 2,000,000 draws in a row keep no pair the
///    level is full: the bench prints how many fit and why the rest cannot
///    stand there (4,000 starts 1.08 m apart are disjoint discs of 0.92 m²,
///    3,660 m² on a 1,584 m² mesh: more than even the hexagonal packing holds,
///    ~1,570), and a count that does not fit runs the pairs that do.
///
/// Per side and agent count, --repeats timed runs of --updates (600) updates,
/// alternating which side runs first:
///  - ms per update: thread CPU time (CLOCK_THREAD_CPUTIME_ID) of each
///    stepCrowds(dt) / dtCrowd::update(dt) call, nothing else between the updates;
///    the median over the updates of a run, then the median over the runs.
///    dt = 1/60 s (nav.step's default), 600 updates (10 s of simulation).
///    Planning is inside the timed updates on both sides: Spark's
///    setAgentTarget, called for every agent inside the first timed update,
///    queues the request and the update plans it (its plan queue; the
///    default budget serves every request in that update); Detour plans
///    inside its updates through its path queue. The mean (second table)
///    holds Spark's first update, which plans every path; the first update
///    is listed, and Spark's planning share of the job (first − median over
///    the sum of the updates) with the search nodes it charged.
/// Then one more, untimed run per side of --long (3,000) updates with the checks
/// after every update gives the quality figures (its state after update 600
/// must equal the timed runs' end state: Spark's NavWorld::hashState, a hash
/// of Detour's positions):
///  - arrived@600 and arrived@3000: agents within 1.0 m (x–z) of their goal and
///    within the agent height vertically after that update (the same test on
///    both sides).
///  - min dist/2r: the smallest x–z centre distance between two agents on the
///    same level (|dy| < agent height) over the start and every update, / 1.2 m.
///  - pairs < 0.9 × 2r per update: the pairs on one level closer than that,
///    summed over the updates / updates (sustained overlap).
///  - left mesh: agents that at some update were not on their side's mesh:
///    Spark, findNearest within half-extents 0.05 × 1.0 × 0.05 fails (or finds a
///    point more than 0.05 m away in x–z) or the state is off_mesh; Detour,
///    findNearestPoly within the same extents fails (same distance test) or
///    the agent's state is DT_CROWDAGENT_STATE_INVALID.
/// The second table adds the mean ms per update, the setup time, the smallest
/// distance at the start (the floor the placement sets) and each side's own
/// end states. Last, the process's peak RSS (getrusage).
///
/// Last, on the dungeon, for the largest crowd, nav.step through `spark run`
/// against the library's step (see cliComparison), when the binary lists
/// nav.agent.add, nav.agent.set and nav.step; else it says it skipped.
///
/// Options: --level=dungeon|terrain1k --agents=100,1000,4000 --repeats=3
///          --updates=600 (timed) --long=3000 (quality run) --goal-within=<m>
///          --side=both|spark|detour --spacing=0.9 (× 2r) --spark=<spark binary>
///          --one-goal (every agent to the first pair's goal: many agents,
///          one target; the pairs' starts as drawn)
///          (default <source>/build/release/cli/spark) --no-cli (skip the
///          `spark run` part) --keep-cli-files (keep its request files in /tmp)
///          --threads=1 (Spark's crowd threads, NavWorld::setCrowdThreads; 0:
///          every hardware thread. The thread CPU time counts the calling
///          thread only, so past 1 read the wall-clock column).
/// Run from the project root: build/<dir>/bench/crowd_bench
/// Instruction counts: valgrind --tool=callgrind --collect-atstart=no
///   --toggle-collect='spark::nav::NavWorld::stepCrowds(double)' (or
///   'dtCrowd::update(float, dtCrowdAgentDebugInfo*)') crowd_bench --side=spark
///   --agents=1000 --repeats=1 --long=600 --no-cli

#include "spark/core/rng.h"
#include "spark/nav/bake.h"
#include "spark/nav/nav_world.h"
#include "spark/nav/query.h"
#include "spark/scene/model_obj.h"

#include "bench_stats.h"
#include "recast_area.h"
#include "recast_solo.h"
#include "recast_tiles.h"
#include "recastdemo.h"

#include <recastnavigation/DetourCrowd.h>
#include <recastnavigation/DetourNavMesh.h>
#include <recastnavigation/DetourNavMeshBuilder.h>
#include <recastnavigation/DetourNavMeshQuery.h>
#include <recastnavigation/Recast.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace spark;

namespace
{

using spark::bench::median;
using spark::bench::threadSeconds;

using namespace spark::bench::demo; // RecastDemo's settings, both sides (recastdemo.h)
constexpr float kMaxSpeed = 3.5f;
constexpr float kMaxAccel = 8.0f;
constexpr int kNeighbours = DT_CROWDAGENT_MAX_NEIGHBOURS; // 6: Detour's fixed limit
constexpr double kDt = 1.0 / 60.0;
constexpr float kArriveDistance = 1.0f;
constexpr float kOnMeshExtent = 0.05f;
constexpr float kPairExtent = 0.1f;
constexpr uint64_t kSeed = 11;

struct Options
{
    std::string level = "dungeon"; // or "terrain1k"
    std::vector<int> agents{100, 1000, 4000};
    int repeats = 3;
    int updates = 600;      // the timed runs' length
    int longUpdates = 3000; // the quality run's length (arrivals also at `updates`)
    float goalWithin = -1.0f; // a goal at most this far (x–z) from its start; 0: anywhere; < 0: the level's
    bool oneGoal = false;     // --one-goal: every agent to the first pair's goal
    float spacing = 0.9f; // × 2r: 1,000 agents do not fit at 2r apart (random sequential placement)
    bool spark = true, detour = true, cli = true, keepCliFiles = false;
    std::string sparkBinary;
    int threads = 1; // Spark's crowd threads (0: every hardware thread)
};

/// Spark's crowd threads of the runs (`Options::threads`).
int sparkThreads = 1;

float distXZ(const glm::vec3& a, const glm::vec3& b)
{
    return std::hypot(a.x - b.x, a.z - b.z);
}

// --- The input ---------------------------------------------------------------

/// The level: its OBJ, and the tiles both sides bake it in (tileSize 0: one
/// solo mesh, the dungeon as RecastDemo's Sample_SoloMesh bakes it).
struct Level
{
    std::string name;
    const char* obj = kDungeonPath;
    float cellSize = kCellSize;
    int tileSize = 0;
    float goalWithin = 0.0f; // the level's default (Options::goalWithin)
    nav::BakeInput input;
};

constexpr const char* kTerrain1kPath = "out/terrain-1k.obj";

Level loadLevel(const std::string& name)
{
    Level level;
    level.name = name;
    if (name == "terrain1k")
    {
        // tools/terrain.py's 1 km level, baked as samples/terrain/run.sh and
        // bake_bench/path_bench --tiled bake it: 0.5 m cells, tiles of 64 cells.
        level.obj = kTerrain1kPath;
        level.cellSize = 0.5f;
        level.tileSize = 64;
        level.goalWithin = 100.0f;
        if (!std::filesystem::exists(dataPath(level.obj)))
        {
            std::fprintf(stderr, "%s is missing: python3 tools/terrain.py -o %s\n", level.obj, level.obj);
            std::exit(2);
        }
    }
    else if (name != "dungeon")
    {
        std::fprintf(stderr, "unknown level '%s' (dungeon, terrain1k)\n", name.c_str());
        std::exit(2);
    }
    level.input = loadObjInput(level.obj);
    return level;
}

/// RecastDemo's settings for Spark's bake, with the level's cells and tiles
/// (the region sizes stay 8 × 8 and 20 × 20 cells, as Recast counts them).
nav::BakeDef levelBakeDef(const Level& level)
{
    nav::BakeDef def = sparkBakeDef();
    if (level.tileSize > 0)
    {
        def.cellSize = level.cellSize;
        def.minRegionArea = static_cast<float>(kRegionMinSize * kRegionMinSize) * def.cellSize * def.cellSize;
        def.mergeRegionArea = static_cast<float>(kRegionMergeSize * kRegionMergeSize) * def.cellSize * def.cellSize;
        def.tileSize = level.tileSize;
    }
    return def;
}

// --- Recast's bake as RecastDemo's Sample_SoloMesh::handleBuild does it --------

struct DetourMesh
{
    dtNavMesh* nav = nullptr;
    dtNavMeshQuery* query = nullptr; // 65,535 nodes: for choosing the pairs and the checks
    int polygons = 0;
    double area = 0.0;
    ~DetourMesh()
    {
        dtFreeNavMeshQuery(query);
        dtFreeNavMesh(nav);
    }
};

enum : unsigned short
{
    kPolyFlagWalk = 0x01, // SAMPLE_POLYFLAGS_WALK
};

void buildDetour(const Level& level, DetourMesh& out)
{
    const nav::BakeInput& input = level.input;
    const std::vector<int> tris(input.indices.begin(), input.indices.end());
    const float* verts = &input.vertices[0].x;
    const int nverts = static_cast<int>(input.vertices.size());
    const int ntris = static_cast<int>(tris.size() / 3);
    rcContext ctx(false);

    if (level.tileSize > 0)
    {
        // Sample_TileMesh: every tile baked (watershed, detail mesh), a tiled dtNavMesh (recast_tiles.h).
        namespace tiles = spark::bench::tiles;
        const rcConfig cfg = tiles::recastTileConfig(level.cellSize, level.tileSize);
        const tiles::RecastTileBuckets buckets = tiles::bucketRecastTiles(verts, nverts, tris.data(), ntris, cfg);
        std::vector<tiles::RecastTile> baked = tiles::bakeRecastTiles(cfg, buckets, verts, nverts, false, true, 1);
        for (const tiles::RecastTile& t : baked)
            if (t.pmesh)
            {
                out.polygons += t.pmesh->npolys;
                out.area += spark::bench::recastPolyMeshArea(*t.pmesh, cfg.cs);
            }
        out.nav = tiles::detourTiledNavMesh(cfg, buckets, baked); // flags 1: kPolyFlagWalk
        for (tiles::RecastTile& t : baked)
            tiles::freeRecastTile(t);
    }
    else
    {
        const rcConfig cfg = recastConfig(verts, nverts);
        const RecastSoloMesh solo = bakeRecastSoloMesh(ctx, cfg, verts, nverts, tris.data(), ntris, kPolyFlagWalk);
        out.polygons = solo.pmesh->npolys;
        out.area = spark::bench::recastPolyMeshArea(*solo.pmesh, cfg.cs);
        out.nav = soloNavMesh(solo, cfg, kAgentHeight, kAgentRadius, kAgentClimb);
        rcFreePolyMesh(solo.pmesh);
        rcFreePolyMeshDetail(solo.dmesh);
    }
    out.query = dtAllocNavMeshQuery();
    if (dtStatusFailed(out.query->init(out.nav, 65535)))
    {
        std::fprintf(stderr, "dtNavMeshQuery::init failed\n");
        std::exit(1);
    }
}

// --- Start/goal pairs ----------------------------------------------------------

struct Pair
{
    glm::vec3 start, goal;
    float sparkLength = 0.0f; // Spark's path length
};

bool onDetour(const DetourMesh& d, const glm::vec3& p, float extent, dtPolyRef* ref = nullptr,
              glm::vec3* nearest = nullptr)
{
    return onDetourMesh(*d.query, p, extent, ref, nearest);
}

bool onSpark(const nav::NavMesh& mesh, const glm::vec3& p, float extent)
{
    auto at = nav::findNearest(mesh, p, glm::vec3(extent, 1.0f, extent));
    return at.ok() && distXZ(at->point, p) <= extent;
}

bool spacedFrom(const std::vector<glm::vec3>& others, const glm::vec3& p, float spacing)
{
    for (const glm::vec3& o : others)
        if (std::fabs(o.y - p.y) < kAgentHeight && distXZ(o, p) < spacing)
            return false;
    return true;
}

/// Draws without a new pair after which the placement counts as full.
constexpr long long kStallDraws = 2000000;

/// The first `count` pairs by the rule of the file's comment, or fewer when
/// kStallDraws draws in a row keep none (the level is full at this spacing;
/// `full` says so). `goalWithin` > 0 keeps only goals that near their start (x–z).
std::vector<Pair> makePairs(const nav::NavMesh& mesh, const DetourMesh& d, int count, float spacing,
                            float goalWithin, long long& tried, bool& full)
{
    std::vector<Pair> pairs;
    std::vector<glm::vec3> starts, goals;
    Rng rng = rngFromSeed(kSeed, 1);
    nav::QueryScratch scratch;
    nav::PathResult path;
    const dtQueryFilter filter;
    std::vector<dtPolyRef> dpath(65535);
    tried = 0;
    long long lastKept = 0;
    full = false;
    auto draw = [&](glm::vec3& p)
    {
        if (++tried - lastKept > kStallDraws)
            return !(full = true);
        auto a = nav::randomPoint(mesh, rng);
        if (!a.ok())
            std::exit(1);
        p = a->point;
        return true;
    };
    // A goal near its start is rarer: more draws before the start is dropped.
    const int goalDraws = goalWithin > 0.0f ? 2000 : 100;
    while (static_cast<int>(pairs.size()) < count)
    {
        // A start: spaced from the other starts, on Detour's mesh.
        glm::vec3 s, sp;
        dtPolyRef sr = 0;
        do
            if (!draw(s))
                return pairs;
        while (!spacedFrom(starts, s, spacing) || !onDetour(d, s, kPairExtent, &sr, &sp));
        // Its goal: spaced from the other goals, on Detour's mesh, complete paths on both
        // (a start that finds no goal in `goalDraws` draws is dropped).
        for (int k = 0; k < goalDraws; ++k)
        {
            glm::vec3 g;
            if (!draw(g))
                return pairs;
            dtPolyRef gr = 0;
            glm::vec3 gp;
            if ((goalWithin > 0.0f && distXZ(s, g) > goalWithin) || !spacedFrom(goals, g, spacing) ||
                !onDetour(d, g, kPairExtent, &gr, &gp))
                continue;
            if (!nav::findPath(mesh, scratch, s, g, nav::defaultQueryFilter(),
                               glm::vec3(kPairExtent, 1.0f, kPairExtent), path)
                     .ok() ||
                !path.complete)
                continue;
            int n = 0;
            const dtStatus st = d.query->findPath(sr, gr, &sp.x, &gp.x, &filter, dpath.data(), &n, 65535);
            if (dtStatusFailed(st) || dtStatusDetail(st, DT_PARTIAL_RESULT) || n == 0 || dpath[n - 1] != gr)
                continue;
            pairs.push_back({s, g, path.length});
            starts.push_back(s);
            goals.push_back(g);
            lastKept = tried;
            break;
        }
    }
    return pairs;
}

// --- Quality figures -------------------------------------------------------------

constexpr float kOverlap = 0.9f; // pairs closer than this × 2r are counted

/// Smallest x–z centre distance between two agents on the same level (|dy| <
/// height), and the number of such pairs closer than kOverlap × 2r.
float minPairDistance(std::vector<glm::vec3>& pos, long long& overlaps)
{
    std::sort(pos.begin(), pos.end(), [](const glm::vec3& a, const glm::vec3& b) { return a.x < b.x; });
    const float close = kOverlap * 2.0f * kAgentRadius;
    float best = 1e30f;
    for (size_t i = 0; i < pos.size(); ++i)
        for (size_t j = i + 1; j < pos.size() && pos[j].x - pos[i].x < std::max(best, close); ++j)
            if (std::fabs(pos[j].y - pos[i].y) < kAgentHeight)
            {
                const float dd = distXZ(pos[i], pos[j]);
                best = std::min(best, dd);
                overlaps += dd < close;
            }
    return best;
}

struct RunResult
{
    std::vector<double> updateMs; // per update
    std::vector<double> updateWallMs; // per update, wall clock
    double setupMs = 0.0;         // adding the agents and setting their targets
    uint64_t planNodes = 0;       // Spark: search nodes the first update's plan phase charged
    int arrived = 0;              // after the last update
    int arrivedAtCheckpoint = 0;  // after update `checkpoint`
    uint64_t hashAtCheckpoint = 0; // worldHash after update `checkpoint`
    float minDist = 1e30f;     // centre distance, m
    float startMinDist = 0.0f; // the same at the start
    long long overlaps = 0;    // pairs closer than kOverlap × 2r, summed over the updates
    int leftMesh = 0;
    std::string states; // the side's own end states
    uint64_t worldHash =
        0; // Spark: NavWorld::hashState() after the last update; Detour: FNV-1a of the positions
};

/// The timed loop of both sides: the start observed (its smallest distance
/// kept apart), then per update the thread CPU time of `step` alone (false:
/// the step failed, the bench stops) and the observation after it; after
/// update `checkpoint` and after the last, the arrivals and the hash
/// (`arrivals()`, `hash()`).
template <class Step, class Observe, class Arrivals, class Hash>
void timeUpdates(RunResult& r, int updates, int checkpoint, Step&& step, Observe&& observe, Arrivals&& arrivals,
                 Hash&& hash)
{
    observe();
    r.startMinDist = r.minDist;
    r.overlaps = 0;
    r.updateMs.reserve(static_cast<size_t>(updates));
    r.updateWallMs.reserve(static_cast<size_t>(updates));
    for (int u = 1; u <= updates; ++u)
    {
        const auto wall = std::chrono::steady_clock::now();
        const double t = threadSeconds();
        const bool ok = step();
        r.updateMs.push_back((threadSeconds() - t) * 1000.0);
        r.updateWallMs.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall).count());
        if (!ok)
            std::exit(1);
        observe();
        if (u == checkpoint)
        {
            r.arrivedAtCheckpoint = arrivals();
            r.hashAtCheckpoint = hash();
        }
    }
    r.arrived = arrivals();
    r.worldHash = hash();
}

/// The goal test of both sides.
bool atGoal(const glm::vec3& p, const glm::vec3& goal)
{
    return distXZ(p, goal) <= kArriveDistance && std::fabs(p.y - goal.y) < kAgentHeight;
}

// --- Spark ---------------------------------------------------------------------

/// `updates` updates of the first `n` pairs' crowd; arrivals and hash also
/// after update `checkpoint`; with `quality`, the checks after every update.
RunResult runSpark(const std::string& meshName, const std::shared_ptr<const nav::NavMesh>& mesh,
                   const std::vector<Pair>& pairs, int n, int updates, int checkpoint, bool quality)
{
    RunResult r;
    nav::NavWorld world;
    if (!world.setCrowdThreads(sparkThreads).ok())
        std::exit(2);
    nav::MeshDef md = nav::defaultMeshDef();
    md.name = meshName;
    md.source = "import"; // as nav.import names it, so the hash can be compared with `spark run`'s
    md.mesh = mesh;
    auto meshId = world.putMesh(md);
    if (!meshId.ok())
        std::exit(1);
    std::vector<nav::AgentId> ids;
    const double t0 = threadSeconds();
    for (int i = 0; i < n; ++i)
    {
        nav::CrowdAgentDef def = nav::defaultCrowdAgentDef();
        def.position = pairs[static_cast<size_t>(i)].start;
        def.radius = kAgentRadius;
        def.height = kAgentHeight;
        def.maxSpeed = kMaxSpeed;
        def.maxAccel = kMaxAccel;
        def.maxNeighbors = kNeighbours;
        auto id = world.addAgent(*meshId, def);
        if (!id.ok())
        {
            std::fprintf(stderr, "spark addAgent: %s\n", id.error().message.c_str());
            std::exit(1);
        }
        ids.push_back(*id);
    }
    r.setupMs = (threadSeconds() - t0) * 1000.0;
    // The targets are set inside the first timed update (setAgentTarget
    // queues, the update plans), so planning is timed on both sides (Detour
    // plans inside its updates through its path queue).
    auto setTargets = [&] {
        for (int i = 0; i < n; ++i)
            if (!world.setAgentTarget(ids[static_cast<size_t>(i)], pairs[static_cast<size_t>(i)].goal).ok())
            {
                std::fprintf(stderr, "spark setAgentTarget failed\n");
                std::exit(1);
            }
    };

    std::vector<glm::vec3> pos(static_cast<size_t>(n));
    std::vector<char> left(static_cast<size_t>(n), 0);
    auto observe = [&]
    {
        if (!quality)
            return;
        for (int i = 0; i < n; ++i)
        {
            const nav::CrowdAgent& a = *world.agent(ids[static_cast<size_t>(i)]);
            pos[static_cast<size_t>(i)] = a.position;
            if (!left[static_cast<size_t>(i)] &&
                (a.state == nav::AgentState::OffMesh || !onSpark(*mesh, a.position, kOnMeshExtent)))
                left[static_cast<size_t>(i)] = 1;
        }
        long long o = 0;
        r.minDist = std::min(r.minDist, minPairDistance(pos, o));
        r.overlaps += o;
    };
    auto arrivals = [&]
    {
        int k = 0;
        for (int i = 0; i < n; ++i)
            k += atGoal(world.agent(ids[static_cast<size_t>(i)])->position, pairs[static_cast<size_t>(i)].goal);
        return k;
    };
    timeUpdates(
        r, updates, checkpoint,
        [&, first = true]() mutable {
            if (first)
                setTargets();
            const bool ok = world.stepCrowds(kDt).ok();
            if (first)
                r.planNodes = world.lastPlanStats().nodes;
            first = false;
            return ok;
        },
        observe, arrivals, [&] { return world.hashState(); });
    for (int i = 0; i < n; ++i)
        r.leftMesh += left[static_cast<size_t>(i)];
    const nav::CrowdCounts c = world.crowdCounts();
    char buf[160];
    std::snprintf(buf, sizeof buf, "arrived %u, moving %u, no_path %u, off_mesh %u, idle %u", c.arrived,
                  c.moving, c.noPath, c.offMesh, c.idle);
    r.states = buf;
    return r;
}

// --- DetourCrowd, as RecastDemo's CrowdTool sets it up ---------------------------

RunResult runDetour(const DetourMesh& d, const std::vector<Pair>& pairs, int n, int updates, int checkpoint,
                    bool quality)
{
    RunResult r;
    dtCrowd* crowd = dtAllocCrowd();
    const double t0 = threadSeconds();
    if (!crowd->init(n, kAgentRadius, d.nav))
    {
        std::fprintf(stderr, "dtCrowd::init failed\n");
        std::exit(1);
    }
    // CrowdToolState::init: the filter and the four avoidance qualities.
    crowd->getEditableFilter(0)->setExcludeFlags(0);
    dtObstacleAvoidanceParams params;
    std::memcpy(&params, crowd->getObstacleAvoidanceParams(0), sizeof(dtObstacleAvoidanceParams));
    params.velBias = 0.5f; // low (11)
    params.adaptiveDivs = 5;
    params.adaptiveRings = 2;
    params.adaptiveDepth = 1;
    crowd->setObstacleAvoidanceParams(0, &params);
    params.velBias = 0.5f; // medium (22)
    params.adaptiveDivs = 5;
    params.adaptiveRings = 2;
    params.adaptiveDepth = 2;
    crowd->setObstacleAvoidanceParams(1, &params);
    params.velBias = 0.5f; // good (45)
    params.adaptiveDivs = 7;
    params.adaptiveRings = 2;
    params.adaptiveDepth = 3;
    crowd->setObstacleAvoidanceParams(2, &params);
    params.velBias = 0.5f; // high (66)
    params.adaptiveDivs = 7;
    params.adaptiveRings = 3;
    params.adaptiveDepth = 3;
    crowd->setObstacleAvoidanceParams(3, &params);

    // CrowdToolState::addAgent and setMoveTarget with the tool's default options.
    dtCrowdAgentParams ap;
    std::memset(&ap, 0, sizeof(ap));
    ap.radius = kAgentRadius;
    ap.height = kAgentHeight;
    ap.maxAcceleration = kMaxAccel;
    ap.maxSpeed = kMaxSpeed;
    ap.collisionQueryRange = ap.radius * 12.0f;
    ap.pathOptimizationRange = ap.radius * 30.0f;
    ap.updateFlags = DT_CROWD_ANTICIPATE_TURNS | DT_CROWD_OPTIMIZE_VIS | DT_CROWD_OPTIMIZE_TOPO |
                     DT_CROWD_OBSTACLE_AVOIDANCE;
    ap.obstacleAvoidanceType = 3;
    ap.separationWeight = 2.0f;
    std::vector<int> idx(static_cast<size_t>(n));
    dtNavMeshQuery* q = d.query;
    for (int i = 0; i < n; ++i)
    {
        idx[static_cast<size_t>(i)] = crowd->addAgent(&pairs[static_cast<size_t>(i)].start.x, &ap);
        if (idx[static_cast<size_t>(i)] < 0)
        {
            std::fprintf(stderr, "dtCrowd::addAgent failed\n");
            std::exit(1);
        }
        dtPolyRef ref = 0;
        float nearest[3];
        q->findNearestPoly(&pairs[static_cast<size_t>(i)].goal.x, crowd->getQueryHalfExtents(),
                           crowd->getFilter(0), &ref, nearest);
        if (ref == 0 || !crowd->requestMoveTarget(idx[static_cast<size_t>(i)], ref, nearest))
        {
            std::fprintf(stderr, "dtCrowd::requestMoveTarget failed\n");
            std::exit(1);
        }
    }
    r.setupMs = (threadSeconds() - t0) * 1000.0;

    std::vector<glm::vec3> pos(static_cast<size_t>(n));
    std::vector<char> left(static_cast<size_t>(n), 0);
    auto observe = [&]
    {
        if (!quality)
            return;
        for (int i = 0; i < n; ++i)
        {
            const dtCrowdAgent* a = crowd->getAgent(idx[static_cast<size_t>(i)]);
            const glm::vec3 p(a->npos[0], a->npos[1], a->npos[2]);
            pos[static_cast<size_t>(i)] = p;
            if (!left[static_cast<size_t>(i)] &&
                (a->state == DT_CROWDAGENT_STATE_INVALID || !onDetour(d, p, kOnMeshExtent)))
                left[static_cast<size_t>(i)] = 1;
        }
        long long o = 0;
        r.minDist = std::min(r.minDist, minPairDistance(pos, o));
        r.overlaps += o;
    };
    auto arrivals = [&]
    {
        int k = 0;
        for (int i = 0; i < n; ++i)
        {
            const float* p = crowd->getAgent(idx[static_cast<size_t>(i)])->npos;
            k += atGoal(glm::vec3(p[0], p[1], p[2]), pairs[static_cast<size_t>(i)].goal);
        }
        return k;
    };
    auto hash = [&]
    {
        uint64_t h = 1469598103934665603ull; // FNV-1a over the positions: the same crowd, run after run
        for (int i = 0; i < n; ++i)
        {
            const auto* b = reinterpret_cast<const unsigned char*>(crowd->getAgent(idx[size_t(i)])->npos);
            for (const unsigned char* e = b + 3 * sizeof(float); b != e; ++b)
                h = (h ^ *b) * 1099511628211ull;
        }
        return h;
    };
    timeUpdates(
        r, updates, checkpoint,
        [&]
        {
            crowd->update(static_cast<float>(kDt), nullptr);
            return true;
        },
        observe, arrivals, hash);
    int valid = 0, failed = 0, waiting = 0, invalid = 0;
    for (int i = 0; i < n; ++i)
    {
        const dtCrowdAgent* a = crowd->getAgent(idx[static_cast<size_t>(i)]);
        r.leftMesh += left[static_cast<size_t>(i)];
        invalid += a->state == DT_CROWDAGENT_STATE_INVALID;
        if (a->targetState == DT_CROWDAGENT_TARGET_VALID)
            ++valid;
        else if (a->targetState == DT_CROWDAGENT_TARGET_FAILED)
            ++failed;
        else
            ++waiting;
    }
    char buf[160];
    std::snprintf(buf, sizeof buf, "target valid %d, failed %d, still requesting %d; state invalid %d", valid,
                  failed, waiting, invalid);
    r.states = buf;
    dtFreeCrowd(crowd);
    return r;
}

// --- nav.step through `spark run` ----------------------------------------------

/// The library figures the surface is compared with.
struct SideRowsView
{
    double mean = 0.0; // ms per update
    uint64_t hash = 0; // NavWorld::hashState() after the last update
};

std::string runCapture(const std::string& cmd)
{
    std::string out;
    if (FILE* p = popen(cmd.c_str(), "r"))
    {
        char buf[4096];
        size_t k;
        while ((k = fread(buf, 1, sizeof buf, p)) > 0)
            out.append(buf, k);
        pclose(p);
    }
    return out;
}

bool cliHasCrowdCommands(const std::string& binary)
{
    const std::string list = runCapture("'" + binary + "' commands --prefix nav. 2>/dev/null");
    return list.find("nav.agent.add") != std::string::npos &&
           list.find("nav.agent.set") != std::string::npos && list.find("nav.step") != std::string::npos;
}

/// Runs `binary args...` with stdout to `outPath`; answers its CPU time (user +
/// system, from wait4) in milliseconds, or a negative number when it failed.
double runChild(const std::vector<std::string>& args, const std::string& outPath)
{
    const pid_t pid = fork();
    if (pid < 0)
        return -1.0;
    if (pid == 0)
    {
        const int fd = open(outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0)
            _exit(127);
        dup2(fd, 1);
        close(fd);
        std::vector<char*> argv;
        for (const std::string& a : args)
            argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        execv(argv[0], argv.data());
        _exit(127);
    }
    int status = 0;
    rusage ru{};
    if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1.0;
    return (static_cast<double>(ru.ru_utime.tv_sec) + static_cast<double>(ru.ru_stime.tv_sec)) * 1000.0 +
           (static_cast<double>(ru.ru_utime.tv_usec) + static_cast<double>(ru.ru_stime.tv_usec)) / 1000.0;
}

std::string lastLine(const std::string& path)
{
    std::ifstream in(path);
    std::string line, last;
    while (std::getline(in, line))
        if (!line.empty())
            last = line;
    return last;
}

/// The value of `"key":"..."` in a JSON line (first occurrence), or "".
std::string jsonString(const std::string& line, const std::string& key)
{
    const std::string k = "\"" + key + "\":\"";
    const size_t at = line.find(k);
    if (at == std::string::npos)
        return {};
    const size_t b = at + k.size(), e = line.find('"', b);
    return e == std::string::npos ? std::string() : line.substr(b, e - b);
}

std::string hex16(uint64_t h)
{
    char buf[20];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

/// nav.step of `n` agents through `spark run` against the library step.
/// Three request files on one session each: A = import the mesh (a document
/// `spark bake` wrote with the bench's settings) + n × nav.agent.add with the
/// target; B = A + one nav.step {frames: updates}; C = A + updates × nav.step
/// {frames: 1}. Process CPU time (user + system) of each, median of `repeats`
/// runs; the per-update cost through the surface is (B − A) / updates and
/// (C − A) / updates. Between them, in rotating order, the library's own run
/// of the same crowd (L: the thread CPU time of its updates, back to back).
void cliComparison(const Options& opt, const std::shared_ptr<const nav::NavMesh>& meshPtr,
                   const std::vector<Pair>& pairs, int n)
{
    const nav::NavMesh& mesh = *meshPtr;
    char dirTemplate[] = "/tmp/crowd_bench_XXXXXX";
    if (!mkdtemp(dirTemplate))
        return;
    const std::string dir = dirTemplate;
    const std::string obj = std::filesystem::absolute(dataPath(kDungeonPath)).string();
    // The library's settings (sparkBakeDef), written out for the command line.
    const nav::BakeDef def = sparkBakeDef();
    char settings[512];
    std::snprintf(
        settings, sizeof settings,
        "--cell-size %.9g --cell-height %.9g --agent-radius %.9g --agent-height %.9g --climb %.9g "
        "--max-slope %.9g --max-simplification-error %.9g --max-edge-len %.9g --max-verts-per-poly %d "
        "--min-region-area %.9g --merge-region-area %.9g",
        def.cellSize, def.cellHeight, def.agentRadius, def.agentHeight, def.stepHeight, def.maxSlopeDeg,
        def.maxSimplificationError, def.maxEdgeLen, def.maxVertsPerPoly, def.minRegionArea,
        def.mergeRegionArea);
    const std::string bake = "'" + opt.sparkBinary + "' bake '" + obj + "' -o mesh.json --project '" + dir +
                             "' --name dungeon " + settings;
    const std::string baked = runCapture(bake + " 2>&1");
    const std::string wantHash = hex16(nav::hashNavMesh(mesh));
    std::printf("\nnav.step through `spark run` (%s), %d agents, %d updates at dt 1/60\n",
                opt.sparkBinary.c_str(), n, opt.updates);
    std::printf("mesh document by `spark bake` with the bench's settings: %s", baked.c_str());
    if (baked.find(wantHash) == std::string::npos)
        std::printf("  (NOT the library mesh: its hash is %s; the comparison below is on a different mesh)\n",
                    wantHash.c_str());
    else
        std::printf("  (the same mesh as the library run: hash %s)\n", wantHash.c_str());

    std::string setup =
        "{\"id\":0,\"command\":\"nav.import\",\"params\":{\"name\":\"dungeon\",\"path\":\"mesh.json\"}}\n";
    char line[512];
    for (int i = 0; i < n; ++i)
    {
        const Pair& p = pairs[static_cast<size_t>(i)];
        std::snprintf(line, sizeof line,
                      "{\"id\":%d,\"command\":\"nav.agent.add\",\"params\":{\"mesh\":\"dungeon\","
                      "\"position\":[%.9g,%.9g,%.9g],"
                      "\"target\":[%.9g,%.9g,%.9g],\"radius\":%.9g,\"height\":%.9g,\"max_speed\":%.9g,\"max_"
                      "accel\":%.9g,"
                      "\"max_neighbors\":%d}}\n",
                      i + 1, p.start.x, p.start.y, p.start.z, p.goal.x, p.goal.y, p.goal.z, kAgentRadius,
                      kAgentHeight, kMaxSpeed, kMaxAccel, kNeighbours);
        setup += line;
    }
    std::snprintf(line, sizeof line, "\"dt\":%.17g", kDt);
    const std::string dtField = line;
    {
        std::ofstream(dir + "/a.jsonl") << setup;
        std::ofstream b(dir + "/b.jsonl");
        b << setup << "{\"id\":-1,\"command\":\"nav.step\",\"params\":{\"frames\":" << opt.updates << ","
          << dtField << "}}\n";
        std::ofstream c(dir + "/c.jsonl");
        c << setup;
        for (int u = 0; u < opt.updates; ++u)
            c << "{\"id\":-1,\"command\":\"nav.step\",\"params\":{\"frames\":1," << dtField << "}}\n";
    }
    const char* names[3] = {"a", "b", "c"};
    std::vector<double> ms[4];
    SideRowsView lib;
    bool failed = false;
    for (int rep = 0; rep < opt.repeats && !failed; ++rep)
        for (int k = 0; k < 4; ++k)
        {
            const int f = (k + rep) % 4;
            if (f == 3)
            {
                RunResult r = runSpark("dungeon", meshPtr, pairs, n, opt.updates, opt.updates, false);
                double sum = 0.0;
                for (double t : r.updateMs)
                    sum += t;
                ms[3].push_back(sum / opt.updates);
                lib.hash = r.worldHash;
                continue;
            }
            const double t =
                runChild({opt.sparkBinary, "run", "--project", dir, dir + "/" + names[f] + ".jsonl"},
                         dir + "/" + names[f] + ".out");
            if (t < 0.0)
                failed = true;
            ms[f].push_back(t);
        }
    lib.mean = median(ms[3]);
    if (failed)
    {
        std::printf("a `spark run` failed (see %s)\n", dir.c_str());
        return;
    }
    const std::string lastB = lastLine(dir + "/b.out"), lastC = lastLine(dir + "/c.out");
    const std::string hashB = jsonString(lastB, "hash"), hashC = jsonString(lastC, "hash");
    const double a = median(ms[0]), b = median(ms[1]), c = median(ms[2]);
    std::printf(
        "process CPU ms, median of %d: setup only %.1f | setup + nav.step{frames:%d} %.1f | setup + %d x "
        "nav.step{frames:1} %.1f\n",
        opt.repeats, a, opt.updates, b, opt.updates, c);
    std::printf("\n| way | ms/update | vs library |\n|---|---:|---:|\n");
    std::printf(
        "| library NavWorld::stepCrowds, thread CPU (mean over the updates, median of %d runs between "
        "those) | %.3f | 1.00 |\n",
        opt.repeats, lib.mean);
    std::printf("| spark run, one nav.step {frames: %d}: (B - A) / %d | %.3f | %.2f |\n", opt.updates,
                opt.updates, (b - a) / opt.updates, (b - a) / opt.updates / lib.mean);
    std::printf("| spark run, %d x nav.step {frames: 1}: (C - A) / %d | %.3f | %.2f |\n", opt.updates,
                opt.updates, (c - a) / opt.updates, (c - a) / opt.updates / lib.mean);
    std::printf("\nend state: library hash %s | spark run (one step command) %s | spark run (per-frame "
                "commands) %s -> "
                "%s\n",
                hex16(lib.hash).c_str(), hashB.c_str(), hashC.c_str(),
                hashB == hex16(lib.hash) && hashC == hashB ? "the same crowd" : "DIFFERENT crowds");
    std::fflush(stdout);
    if (opt.keepCliFiles)
        std::printf("request files kept in %s (a.jsonl, b.jsonl, c.jsonl, mesh.json)\n", dir.c_str());
    else
        std::filesystem::remove_all(dir);
}

// --- Main ----------------------------------------------------------------------

Options parseOptions(int argc, char** argv)
{
    Options o;
    o.sparkBinary = (std::filesystem::path(SPARK_SOURCE_DIR) / "build/release/cli/spark").string();
    for (int i = 1; i < argc; ++i)
    {
        const std::string a = argv[i];
        auto value = [&](const char* key) { return spark::bench::optionValue(a, key); };
        if (const char* v = value("--agents="))
        {
            o.agents = spark::bench::intList(v);
            for (int n : o.agents)
                if (n < 1)
                {
                    std::fprintf(stderr, "--agents: counts must be positive\n");
                    std::exit(2);
                }
        }
        else if (const char* v = value("--level="))
            o.level = v;
        else if (const char* v = value("--repeats="))
            o.repeats = std::max(1, std::atoi(v));
        else if (const char* v = value("--spacing="))
            o.spacing = static_cast<float>(std::atof(v));
        else if (const char* v = value("--updates="))
            o.updates = std::max(1, std::atoi(v));
        else if (const char* v = value("--long="))
            o.longUpdates = std::max(1, std::atoi(v));
        else if (const char* v = value("--goal-within="))
            o.goalWithin = std::max(0.0f, static_cast<float>(std::atof(v)));
        else if (const char* v = value("--side="))
        {
            o.spark = std::strcmp(v, "detour") != 0;
            o.detour = std::strcmp(v, "spark") != 0;
        }
        else if (const char* v = value("--spark="))
            o.sparkBinary = v;
        else if (const char* v = value("--threads="))
            o.threads = std::max(0, std::atoi(v));
        else if (a == "--no-cli")
            o.cli = false;
        else if (a == "--one-goal")
            o.oneGoal = true;
        else if (a == "--keep-cli-files")
            o.keepCliFiles = true;
        else
        {
            std::fprintf(stderr, "unknown option %s\n", a.c_str());
            std::exit(2);
        }
    }
    o.longUpdates = std::max(o.longUpdates, o.updates);
    return o;
}

struct SideRows
{
    std::vector<double> medians, wallMedians, means, setups, firsts;
    std::vector<uint64_t> hashes;
    RunResult last;
};

/// Peak resident set of the process so far. [Units: MB]
double peakRssMb()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

} // namespace

int main(int argc, char** argv)
{
    Options opt = parseOptions(argc, argv);
    sparkThreads = opt.threads;
    const Level level = loadLevel(opt.level);
    const float goalWithin = opt.goalWithin < 0.0f ? level.goalWithin : opt.goalWithin;
    const int maxAgents = *std::max_element(opt.agents.begin(), opt.agents.end());

    const nav::BakeInput& input = level.input;
    auto baked = nav::bakeNavMesh(input, levelBakeDef(level));
    if (!baked.ok())
    {
        std::fprintf(stderr, "spark bake: %s\n", baked.error().message.c_str());
        return 1;
    }
    auto sparkMesh = std::make_shared<const nav::NavMesh>(std::move(baked.value().mesh));
    DetourMesh detour;
    buildDetour(level, detour);
    const double bakedMb = peakRssMb();
    long long tried = 0;
    bool full = false;
    std::vector<Pair> pairs =
        makePairs(*sparkMesh, detour, maxAgents, opt.spacing * 2.0f * kAgentRadius, goalWithin, tried, full);
    if (opt.oneGoal && !pairs.empty())
    {
        // Every agent to the first pair's goal (its path length from its own start).
        nav::QueryScratch scratch;
        nav::PathResult path;
        const glm::vec3 goal = pairs.front().goal;
        for (Pair& p : pairs)
        {
            p.goal = goal;
            p.sparkLength = nav::findPath(*sparkMesh, scratch, p.start, goal, nav::defaultQueryFilter(),
                                          glm::vec3(kPairExtent, 1.0f, kPairExtent), path)
                                    .ok()
                                ? path.length
                                : 0.0f;
        }
        std::printf("one goal: every agent to (%.2f, %.2f, %.2f), the first pair's goal\n", goal.x, goal.y, goal.z);
    }
    const int fits = static_cast<int>(pairs.size());
    int within = 0, withinLong = 0;
    double lengthSum = 0.0;
    for (const Pair& p : pairs)
    {
        lengthSum += p.sparkLength;
        within += p.sparkLength <= kMaxSpeed * kDt * opt.updates;
        withinLong += p.sparkLength <= kMaxSpeed * kDt * opt.longUpdates;
    }

    std::printf("%s (%s): %zu triangles; %s; agent r %.1f h %.1f, max speed %.1f, max accel %.0f, %d "
                "neighbours; dt 1/60 s\n",
                level.name.c_str(), level.obj, input.indices.size() / 3,
                level.tileSize > 0 ? "both sides tiled (Spark's tiles; Recast's Sample_TileMesh bake and a tiled "
                                     "dtNavMesh), cells 0.5 x 0.2 m, tiles of 64 cells"
                                   : "solo meshes, cells 0.3 x 0.2 m",
                kAgentRadius, kAgentHeight, kMaxSpeed, kMaxAccel, kNeighbours);
    std::printf("meshes: spark %u polygons %.1f m2 | recast/detour %d polygons %.1f m2; peak RSS after the bakes "
                "%.0f MB\n",
                sparkMesh->polygonCount(), sparkMesh->totalArea(), detour.polygons, detour.area, bakedMb);
    std::printf("pairs: %d kept of %lld points drawn (seed %llu), starts (goals) >= %.2f x 2r apart on a level",
                fits, tried, static_cast<unsigned long long>(kSeed), opt.spacing);
    if (goalWithin > 0.0f)
        std::printf(", each goal within %.0f m (x-z) of its start", goalWithin);
    std::printf("; mean spark path %.1f m; %d of them no longer than %.0f m and %d no longer than %.0f m "
                "(reachable at max speed in %d and %d updates)\n",
                fits > 0 ? lengthSum / fits : 0.0, within, kMaxSpeed * kDt * opt.updates, withinLong,
                kMaxSpeed * kDt * opt.longUpdates, opt.updates, opt.longUpdates);
    if (full && fits < maxAgents)
    {
        // Why a count does not fit: the discs the spacing keeps apart, against the walkable area.
        const double area = sparkMesh->totalArea();
        const double half = 0.5 * opt.spacing * 2.0 * kAgentRadius;
        const double disc = 3.14159265358979 * half * half;
        std::printf(
            "FULL: no new pair in %lld draws: %d pairs fit, not %d. Starts %.2f m apart are disjoint discs of "
            "radius %.2f m (%.2f m2 each): %d of them cover %.0f m2 on a %.0f m2 mesh (%.0f%%); the densest "
            "packing (hexagonal, 90.7%%) would hold %.0f, random placement jams near 55%% (%.0f; a few more "
            "here, as a disc round a centre on the mesh's edge reaches past it). %d agents of r %.1f cannot "
            "stand on this level at that spacing; the rows of larger counts run the %d that fit\n",
            kStallDraws, fits, maxAgents, opt.spacing * 2.0 * kAgentRadius, half, disc, maxAgents,
            maxAgents * disc, area, 100.0 * maxAgents * disc / area, 0.9069 * area / disc, 0.547 * area / disc,
            maxAgents, kAgentRadius, fits);
    }
    std::printf("\n");
    std::fflush(stdout);
    if (fits == 0)
        return 1;
    // The counts as run: a count that does not fit runs what fits (once).
    std::vector<int> requested = opt.agents;
    opt.agents.clear();
    for (int n : requested)
        if (std::find(opt.agents.begin(), opt.agents.end(), std::min(n, fits)) == opt.agents.end())
            opt.agents.push_back(std::min(n, fits));

    std::vector<SideRows> sparkRows(opt.agents.size()), detourRows(opt.agents.size());
    bool deterministic = true;
    auto record = [&](SideRows& rows, RunResult r)
    {
        rows.medians.push_back(median(r.updateMs));
        rows.wallMedians.push_back(median(r.updateWallMs));
        double sum = 0.0;
        for (double t : r.updateMs)
            sum += t;
        rows.means.push_back(sum / r.updateMs.size());
        rows.setups.push_back(r.setupMs);
        rows.firsts.push_back(r.updateMs.front());
        if (!rows.hashes.empty() && rows.hashes.back() != r.worldHash)
            deterministic = false;
        rows.hashes.push_back(r.worldHash);
    };
    // Timed runs of opt.updates updates: nothing but the updates between the clock reads and nothing
    // else between updates.
    for (int rep = 0; rep < opt.repeats; ++rep)
        for (size_t k = 0; k < opt.agents.size(); ++k)
        {
            const int n = opt.agents[k];
            const bool sparkFirst = rep % 2 == 0;
            std::fprintf(stderr, "repeat %d, %d agents (%s first)\n", rep + 1, n,
                         sparkFirst ? "spark" : "detour");
            for (int s = 0; s < 2; ++s)
            {
                if ((s == 0) == sparkFirst && opt.spark)
                    record(sparkRows[k],
                           runSpark(level.name, sparkMesh, pairs, n, opt.updates, opt.updates, false));
                if ((s == 0) != sparkFirst && opt.detour)
                    record(detourRows[k], runDetour(detour, pairs, n, opt.updates, opt.updates, false));
            }
        }
    // One more run per side of opt.longUpdates updates, untimed, with the checks after every update:
    // the quality figures (the same trajectory as the timed runs: its state after opt.updates updates
    // must be theirs at their end).
    for (size_t k = 0; k < opt.agents.size(); ++k)
    {
        std::fprintf(stderr, "quality run, %d agents\n", opt.agents[k]);
        if (opt.spark)
        {
            sparkRows[k].last =
                runSpark(level.name, sparkMesh, pairs, opt.agents[k], opt.longUpdates, opt.updates, true);
            deterministic = deterministic && sparkRows[k].last.hashAtCheckpoint == sparkRows[k].hashes.back();
        }
        if (opt.detour)
        {
            detourRows[k].last = runDetour(detour, pairs, opt.agents[k], opt.longUpdates, opt.updates, true);
            deterministic = deterministic && detourRows[k].last.hashAtCheckpoint == detourRows[k].hashes.back();
        }
    }

    std::printf("timed: thread CPU time (and wall clock) of each of %d updates; medians over the updates of a "
                "repeat, then over %d repeats (alternating first side); Spark's crowd on %d thread(s) (0: all); the "
                "quality figures from one more run of %d updates with checks after every update%s\n",
                opt.updates, opt.repeats, opt.threads, opt.longUpdates,
                deterministic ? " (every run of a side was in the same state after the timed runs' last update)"
                              : " (RUNS DIFFERED: NOT DETERMINISTIC)");
    std::printf(
        "arrived@N: within %.1f m (x-z) of the goal after update N; min dist: smallest x-z centre distance of "
        "two agents on one level over the %d updates / 2r; pairs < %.1f x 2r: such pairs summed over the %d "
        "updates / %d; left mesh: agents off their side's mesh at some update\n\n",
        kArriveDistance, opt.longUpdates, kOverlap, opt.longUpdates, opt.longUpdates);
    std::printf("| agents | side | ms/update median | wall ms/update median | arrived@%d | arrived@%d | min dist/2r | "
                "pairs < %.1f x 2r per update | left mesh |\n",
                opt.updates, opt.longUpdates, kOverlap);
    std::printf("|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t k = 0; k < opt.agents.size(); ++k)
        for (int s = 0; s < 2; ++s)
        {
            if ((s == 0 && !opt.spark) || (s == 1 && !opt.detour))
                continue;
            const SideRows& rows = s == 0 ? sparkRows[k] : detourRows[k];
            const int n = opt.agents[k];
            std::printf("| %d | %s | %.3f | %.3f | %d / %d | %d / %d | %.3f | %.2f | %d |\n", n,
                        s == 0 ? "spark" : "detour", median(rows.medians), median(rows.wallMedians),
                        rows.last.arrivedAtCheckpoint, n, rows.last.arrived, n,
                        rows.last.minDist / (2.0f * kAgentRadius),
                        static_cast<double>(rows.last.overlaps) / opt.longUpdates, rows.last.leftMesh);
        }
    std::printf("\n| agents | side | ms/update mean | first update ms | setup ms (add + targets) | total ms (setup + "
                "%d updates) | min dist/2r at start | end states after %d updates |\n",
                opt.updates, opt.longUpdates);
    std::printf("|---:|---|---:|---:|---:|---:|---:|---|\n");
    for (size_t k = 0; k < opt.agents.size(); ++k)
        for (int s = 0; s < 2; ++s)
        {
            if ((s == 0 && !opt.spark) || (s == 1 && !opt.detour))
                continue;
            const SideRows& rows = s == 0 ? sparkRows[k] : detourRows[k];
            const double mean = median(rows.means), setup = median(rows.setups);
            std::printf("| %d | %s | %.3f | %.2f | %.2f | %.1f | %.3f | %s |\n", opt.agents[k],
                        s == 0 ? "spark" : "detour", mean, median(rows.firsts), setup, setup + mean * opt.updates,
                        rows.last.startMinDist / (2.0f * kAgentRadius), rows.last.states.c_str());
        }
    if (opt.spark)
    {
        // Spark plans every path in its first update: the share of the job
        // any sharing of searches could save at most.
        std::printf("\nspark planning (first update - median update) / sum of the %d updates:", opt.updates);
        for (size_t k = 0; k < opt.agents.size(); ++k)
        {
            const SideRows& rows = sparkRows[k];
            const double first = median(rows.firsts), med = median(rows.medians);
            std::printf("  %d agents %.2f ms of %.1f ms (%.1f%%), %llu search nodes", opt.agents[k], first - med,
                        median(rows.means) * opt.updates, 100.0 * (first - med) / (median(rows.means) * opt.updates),
                        static_cast<unsigned long long>(rows.last.planNodes));
        }
        std::printf("\n");
    }
    if (opt.spark && opt.detour)
    {
        std::printf("\nratio spark / detour (ms/update median):");
        for (size_t k = 0; k < opt.agents.size(); ++k)
            std::printf("  %d agents %.2f", opt.agents[k],
                        median(sparkRows[k].medians) / std::max(1e-9, median(detourRows[k].medians)));
        std::printf("\n");
    }
    std::printf("peak RSS of the process: %.0f MB\n", peakRssMb());
    std::fflush(stdout);

    if (opt.cli)
    {
        if (level.tileSize > 0)
            std::printf("\nnav.step through `spark run`: skipped (the dungeon only)\n");
        else if (!std::filesystem::exists(opt.sparkBinary))
            std::printf("\nnav.step through `spark run`: skipped (no binary at %s)\n",
                        opt.sparkBinary.c_str());
        else if (!cliHasCrowdCommands(opt.sparkBinary))
            std::printf(
                "\nnav.step through `spark run`: skipped (%s does not list nav.agent.add, nav.agent.set and "
                "nav.step yet)\n",
                opt.sparkBinary.c_str());
        else
        {
            // The largest crowd of the run (the library figures of that row).
            size_t k = static_cast<size_t>(std::max_element(opt.agents.begin(), opt.agents.end()) -
                                           opt.agents.begin());
            if (!opt.spark)
                std::printf("\nnav.step through `spark run`: skipped (needs the spark side)\n");
            else
                cliComparison(opt, sparkMesh, pairs, opt.agents[k]);
        }
    }
    return 0;
}
