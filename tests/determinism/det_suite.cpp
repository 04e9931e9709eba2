// The determinism suite (docs/determinism.md): a fixed set of jobs
// over the libraries, one XXH3-64 hash per job, compared with the hashes pinned
// in tests/determinism/expected.txt. CTest runs it on x86-64 (g++ and clang at
// several optimisation levels), on ARM64 under qemu-user and on WebAssembly
// under node: every target must print the same hashes.
//
//   det_suite [--set short|full] [--expect FILE] [--job NAME]... [--root DIR]
//
// --set picks the job sizes (short: the always-run set, sized for the emulated
// ARM64 run; full: the sizes, CTest label `long`); --expect checks every
// job's hash against FILE's line "<set> <job> <hash>" (exit 1 on a difference
// or a job missing from FILE); --root is the project root (default "."), where
// tests/determinism/data/dungeon.obj and samples/ are read. Prints one line
// per job: its name, its hash, its time in ms (time is printed, never hashed).
//
// Nothing here uses libm in what is hashed: angles come from spark::det. Two
// draws of the generator never sit in one call's arguments (their order is
// unspecified: g++ evaluates them right to left, clang left to right).

#include "spark/ai/brain.h"
#include "spark/ai/tree.h"
#include "spark/ai/utility.h"
#include "spark/core/det_math.h"
#include "spark/core/hash.h"
#include "spark/core/path.h"
#include "spark/core/rng.h"
#include "spark/nav/avoidance.h"
#include "spark/nav/bake.h"
#include "spark/nav/bake2d.h"
#include "spark/nav/flight.h"
#include "spark/nav/nav_world.h"
#include "spark/nav/query.h"
#include "spark/scene/model_obj.h"
#include "spark/scene/scene_bake.h"
#include "spark/scene/scene_colliders.h"
#include "spark/scene/world.h"

#include "../ai/fake_world.h"

#include <glm/geometric.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace spark;

namespace
{

[[noreturn]] void fail(const std::string& what)
{
    std::fprintf(stderr, "det_suite: %s\n", what.c_str());
    std::exit(2);
}

template <class T> T take(Result<T> r, const char* what)
{
    if (!r.ok())
        fail(std::string(what) + ": " + r.error().code + " " + r.error().message);
    return std::move(r.value());
}

void check(const Status& s, const char* what)
{
    if (!s.ok())
        fail(std::string(what) + ": " + s.error().code + " " + s.error().message);
}

/// Job sizes: the short set (always run, every target) and the full set (the
/// issue's sizes; CTest label `long`).
struct Sizes
{
    int pathQueries, raycasts, randomPoints, crowdAgents, crowdSteps, circleAgents, circleSteps, sphereSteps,
        flightPaths, brains, brainFrames, guardScale;
};
const Sizes kShort{1000, 1000, 1000, 200, 300, 250, 150, 60, 30, 1000, 60, 1};
const Sizes kFull{10000, 10000, 10000, 1000, 2000, 250, 600, 300, 200, 1000, 600, 1};

struct Context
{
    std::string root;
    Sizes sizes;
};

void addVec3(Hasher& h, const glm::vec3& v)
{
    h.addF32(v.x);
    h.addF32(v.y);
    h.addF32(v.z);
}

// ---------------------------------------------------------------------------
// Levels

/// RecastDemo's dungeon (tests/determinism/data, zlib licence), as triangles.
const nav::BakeInput& dungeonInput(const Context& c)
{
    static const nav::BakeInput input = [&]
    {
        scene::ObjModel model = take(scene::loadObj(c.root + "/tests/determinism/data/dungeon.obj"), "dungeon.obj");
        nav::BakeInput in;
        in.vertices = std::move(model.vertices);
        in.indices = std::move(model.indices);
        return in;
    }();
    return input;
}

const nav::NavMesh& dungeonMesh(const Context& c)
{
    static const nav::BakedNavMesh baked = take(nav::bakeNavMesh(dungeonInput(c), nav::defaultBakeDef()), "dungeon bake");
    return baked.mesh;
}

/// A generated terrain: a 64 × 64 m ground of 1 m quads whose height is a sum
/// of det::sin waves, and 60 boxes of seeded sizes and places on it.
nav::BakeInput terrainInput()
{
    nav::BakeInput in;
    const int n = 64;
    auto height = [](double x, double z)
    {
        const double u = det::kTwoPi * x / 64.0, w = det::kTwoPi * z / 64.0;
        return 1.5 * det::sin(2.0 * u) * det::cos(w) + 0.7 * det::sin(3.0 * w + 0.5) + 0.3 * det::cos(5.0 * u - w);
    };
    for (int z = 0; z <= n; ++z)
        for (int x = 0; x <= n; ++x)
            in.vertices.emplace_back(static_cast<float>(x), static_cast<float>(height(x, z)), static_cast<float>(z));
    auto at = [&](int x, int z) { return static_cast<uint32_t>(z * (n + 1) + x); };
    for (int z = 0; z < n; ++z)
        for (int x = 0; x < n; ++x)
            in.indices.insert(in.indices.end(),
                              {at(x, z), at(x, z + 1), at(x + 1, z), at(x + 1, z), at(x, z + 1), at(x + 1, z + 1)});
    Rng rng = rngFromSeed(20261206);
    for (int b = 0; b < 60; ++b)
    {
        const float x0 = static_cast<float>(rngNextRange(rng, 2.0, 58.0)), z0 = static_cast<float>(rngNextRange(rng, 2.0, 58.0));
        const float x1 = x0 + static_cast<float>(rngNextRange(rng, 0.5, 4.0));
        const float z1 = z0 + static_cast<float>(rngNextRange(rng, 0.5, 4.0));
        const float y0 = -4.0f, y1 = static_cast<float>(rngNextRange(rng, 2.0, 5.0));
        const uint32_t base = static_cast<uint32_t>(in.vertices.size());
        for (int k = 0; k < 8; ++k)
            in.vertices.emplace_back(k & 1 ? x1 : x0, k & 2 ? y1 : y0, k & 4 ? z1 : z0);
        // The 12 triangles of the box (winding does not matter: two-sided bake).
        const uint32_t faces[12][3] = {{0, 1, 3}, {0, 3, 2}, {4, 6, 7}, {4, 7, 5}, {0, 4, 5}, {0, 5, 1},
                                       {2, 3, 7}, {2, 7, 6}, {0, 2, 6}, {0, 6, 4}, {1, 5, 7}, {1, 7, 3}};
        for (const auto& f : faces)
            in.indices.insert(in.indices.end(), {base + f[0], base + f[1], base + f[2]});
    }
    return in;
}

const nav::NavMesh& terrainMesh()
{
    static const nav::BakedNavMesh baked = take(nav::bakeNavMesh(terrainInput(), nav::defaultBakeDef()), "terrain bake");
    return baked.mesh;
}

/// A 2D level: a 160 × 120 grid of 0.5 m cells with 120 seeded blocked rectangles.
nav::Grid2D grid2D()
{
    nav::Grid2D g;
    g.width = 160;
    g.height = 120;
    g.cellSize = 0.5f;
    g.origin = {-40.0f, -30.0f};
    g.blocked.assign(static_cast<size_t>(g.width) * g.height, 0);
    Rng rng = rngFromSeed(77);
    for (int r = 0; r < 120; ++r)
    {
        const int x0 = static_cast<int>(rngNextBelow(rng, 150)), y0 = static_cast<int>(rngNextBelow(rng, 110));
        const int w = 1 + static_cast<int>(rngNextBelow(rng, 10)), h = 1 + static_cast<int>(rngNextBelow(rng, 10));
        for (int y = y0; y < std::min(g.height, y0 + h); ++y)
            for (int x = x0; x < std::min(g.width, x0 + w); ++x)
                g.blocked[static_cast<size_t>(y) * g.width + x] = 1;
    }
    return g;
}

// ---------------------------------------------------------------------------
// Jobs

uint64_t jobBakeDungeon(const Context& c) { return nav::hashNavMesh(dungeonMesh(c)); }
uint64_t jobBakeTerrain(const Context&) { return nav::hashNavMesh(terrainMesh()); }

uint64_t jobBake2D(const Context&)
{
    Hasher h;
    for (float radius : {0.0f, 0.4f, 1.0f})
        h.addU64(nav::hashPolySoup(take(nav::bakeGrid2D(grid2D(), radius), "2D bake")));
    return h.digest();
}

/// Seeded pairs of random points; each path's points (and completeness) hashed.
uint64_t pathsOn(const nav::NavMesh& mesh, int queries, uint64_t seed)
{
    Rng rng = rngFromSeed(seed);
    nav::QueryScratch scratch;
    nav::PathResult path;
    const glm::vec3 extents = nav::defaultQueryExtents(mesh);
    Hasher h;
    for (int q = 0; q < queries; ++q)
    {
        const glm::vec3 from = take(nav::randomPoint(mesh, rng), "random point").point;
        const glm::vec3 to = take(nav::randomPoint(mesh, rng), "random point").point;
        check(nav::findPath(mesh, scratch, from, to, nav::defaultQueryFilter(), extents, path), "findPath");
        h.addBool(path.complete);
        h.addU64(path.points.size());
        for (const glm::vec3& p : path.points)
            addVec3(h, p);
        h.addF32(path.length);
    }
    return h.digest();
}

uint64_t jobPathsDungeon(const Context& c) { return pathsOn(dungeonMesh(c), c.sizes.pathQueries, 1); }
uint64_t jobPathsTerrain(const Context& c) { return pathsOn(terrainMesh(), c.sizes.pathQueries / 4, 2); }

uint64_t jobRaycasts(const Context& c)
{
    const nav::NavMesh& mesh = dungeonMesh(c);
    Rng rng = rngFromSeed(3);
    nav::QueryScratch scratch;
    Hasher h;
    for (int q = 0; q < c.sizes.raycasts; ++q)
    {
        const glm::vec3 from = take(nav::randomPoint(mesh, rng), "random point").point;
        const glm::vec3 to = take(nav::randomPoint(mesh, rng), "random point").point;
        const nav::RaycastResult r = take(
            nav::raycast(mesh, scratch, from, to, nav::defaultQueryFilter(), nav::defaultQueryExtents(mesh)), "raycast");
        h.addBool(r.hit);
        h.addF32(r.fraction);
        addVec3(h, r.point);
        addVec3(h, r.normal);
        h.addU32(r.polygon);
    }
    return h.digest();
}

uint64_t jobRandomPoints(const Context& c)
{
    Rng rng = rngFromSeed(4);
    Hasher h;
    for (const nav::NavMesh* mesh : {&dungeonMesh(c), &terrainMesh()})
        for (int q = 0; q < c.sizes.randomPoints; ++q)
        {
            const nav::MeshPoint p = take(nav::randomPoint(*mesh, rng), "random point");
            h.addU32(p.polygon);
            addVec3(h, p.point);
            // And the nearest point to a jittered copy of it.
            const float dx = rngNextFloat(rng) - 0.5f, dz = rngNextFloat(rng) - 0.5f;
            const glm::vec3 probe = p.point + glm::vec3(dx, 0.3f, dz);
            const nav::MeshPoint n = take(nav::findNearest(*mesh, probe, nav::defaultQueryExtents(*mesh)), "nearest");
            h.addU32(n.polygon);
            addVec3(h, n.point);
            h.addF32(n.distance);
        }
    return h.digest();
}

nav::MeshId putMesh(nav::NavWorld& world, const std::string& name, const nav::NavMesh& mesh)
{
    nav::MeshDef def = nav::defaultMeshDef();
    def.name = name;
    def.source = "det_suite";
    def.mesh = std::make_shared<const nav::NavMesh>(mesh);
    return take(world.putMesh(std::move(def)), "putMesh");
}

/// Obstacles carved into the terrain: added, moved and removed in a seeded
/// order, the world's state hashed after every change, and paths across it.
uint64_t jobCarving(const Context& c)
{
    nav::NavWorld world;
    const nav::MeshId mesh = putMesh(world, "terrain", terrainMesh());
    Rng rng = rngFromSeed(5);
    std::vector<nav::ObstacleId> live;
    Hasher h;
    for (int op = 0; op < 60; ++op)
    {
        const uint32_t kind = live.empty() ? 0 : rngNextBelow(rng, 3);
        const float x = static_cast<float>(rngNextRange(rng, 4.0, 60.0));
        const float z = static_cast<float>(rngNextRange(rng, 4.0, 60.0));
        const glm::vec3 at(x, 0.0f, z);
        if (kind == 0)
        {
            nav::ObstacleDef def = nav::defaultObstacleDef();
            def.position = at;
            if (op % 2 == 0)
            {
                def.shape.shape = nav::FootprintShape::Box;
                def.shape.halfExtents = {1.0f + rngNextFloat(rng), 0.5f + rngNextFloat(rng)};
                def.shape.angleDeg = static_cast<float>(rngNextRange(rng, 0.0, 180.0));
            }
            else
                def.shape.radius = 0.5f + rngNextFloat(rng);
            live.push_back(take(world.addObstacle(mesh, def), "addObstacle"));
        }
        else
        {
            const size_t k = rngNextBelow(rng, static_cast<uint32_t>(live.size()));
            if (kind == 1)
                check(world.moveObstacle(live[k], at, static_cast<float>(rngNextRange(rng, 0.0, 90.0))), "moveObstacle");
            else
            {
                check(world.removeObstacle(live[k]), "removeObstacle");
                live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
            }
        }
        h.addU64(world.hashState());
    }
    h.addU64(pathsOn(*world.mesh(mesh), c.sizes.pathQueries / 10, 6));
    return h.digest();
}

/// Off-mesh links on the dungeon: jumps and drops between seeded points,
/// paths that may take them, links removed again.
uint64_t jobOffMeshLinks(const Context& c)
{
    nav::NavWorld world;
    const nav::NavMesh& base = dungeonMesh(c);
    const nav::MeshId mesh = putMesh(world, "dungeon", base);
    Rng rng = rngFromSeed(8);
    std::vector<nav::LinkId> links;
    for (int k = 0; k < 40; ++k)
    {
        const nav::MeshPoint a = take(nav::randomPoint(base, rng), "random point");
        const nav::MeshPoint b = take(nav::randomPoint(base, rng), "random point");
        nav::OffMeshLinkDef def = nav::defaultOffMeshLinkDef();
        def.start = a.point;
        def.end = b.point;
        def.kind = k % 3 == 0 ? nav::OffMeshKind::Drop : nav::OffMeshKind::Jump;
        def.bidirectional = k % 2 == 0;
        def.cost = 1.0f + static_cast<float>(k % 5);
        if (glm::distance(a.point, b.point) > 0.5f)
            links.push_back(take(world.addOffMeshLink(mesh, def), "addOffMeshLink"));
    }
    Hasher h;
    h.addU64(world.hashState());
    std::vector<nav::PathLink> pathLinks;
    nav::QueryScratch scratch;
    nav::PathResult path;
    for (int round = 0; round < 2; ++round)
    {
        world.pathLinksOf(mesh, pathLinks);
        for (int q = 0; q < c.sizes.pathQueries / 10; ++q)
        {
            const glm::vec3 from = take(nav::randomPoint(base, rng), "random point").point;
            const glm::vec3 to = take(nav::randomPoint(base, rng), "random point").point;
            check(nav::findPath(base, scratch, from, to, nav::defaultQueryFilter(), nav::defaultQueryExtents(base),
                                pathLinks, path),
                  "findPath with links");
            for (const glm::vec3& p : path.points)
                addVec3(h, p);
            for (const auto& use : path.links)
            {
                h.addU32(use.point);
                h.addU64(use.link);
            }
            h.addF32(path.cost);
        }
        for (size_t k = 0; k < links.size(); k += 2)
            check(world.removeOffMeshLink(links[k]), "removeOffMeshLink");
        links.clear();
        h.addU64(world.hashState());
    }
    return h.digest();
}

/// A crowd on the terrain: agents at seeded points walk to seeded targets,
/// new targets every 200 steps; the world's state hashed every 100 steps.
uint64_t jobCrowd(const Context& c)
{
    nav::NavWorld world;
    const nav::NavMesh& base = terrainMesh();
    const nav::MeshId mesh = putMesh(world, "terrain", base);
    Rng rng = rngFromSeed(9);
    std::vector<nav::AgentId> agents;
    for (int i = 0; i < c.sizes.crowdAgents; ++i)
    {
        nav::CrowdAgentDef def = nav::defaultCrowdAgentDef();
        def.position = take(nav::randomPoint(base, rng), "random point").point;
        def.maxSpeed = 2.0f + 0.25f * static_cast<float>(i % 7);
        def.priority = 1.0f + static_cast<float>(i % 3);
        agents.push_back(take(world.addAgent(mesh, def), "addAgent"));
    }
    Hasher h;
    for (int s = 0; s < c.sizes.crowdSteps; ++s)
    {
        if (s % 200 == 0)
            for (nav::AgentId a : agents)
                check(world.setAgentTarget(a, take(nav::randomPoint(base, rng), "random point").point), "setAgentTarget");
        check(world.stepCrowds(1.0 / 30.0), "stepCrowds");
        if (s % 100 == 99 || s + 1 == c.sizes.crowdSteps)
            h.addU64(world.hashState());
    }
    return h.digest();
}

spark::nav::Avoidance makeAvoidance(size_t agents)
{
    nav::AvoidanceDef def = nav::defaultAvoidanceDef();
    def.maxAgents = static_cast<int>(agents);
    def.neighborDistance = 15.0;
    def.maxNeighbors = 10;
    def.timeHorizon = 10.0;
    def.timeHorizonObstacles = 10.0;
    return take(nav::createAvoidance(def), "createAvoidance");
}

/// RVO2's Circle: agents on a circle of 200 m walk to the opposite point
/// (radius 1.5, speed 2, time step 0.25); every position and velocity hashed.
uint64_t jobOrcaCircle(const Context& c)
{
    const size_t n = static_cast<size_t>(c.sizes.circleAgents);
    nav::Avoidance avoidance = makeAvoidance(n);
    std::vector<nav::AvoidanceAgent> agents(n);
    std::vector<glm::dvec2> goals(n), out(n);
    for (size_t i = 0; i < n; ++i)
    {
        double s = 0.0, co = 0.0;
        det::sinCos(det::kTwoPi * static_cast<double>(i) / static_cast<double>(n), s, co);
        agents[i].position = {200.0 * co, 200.0 * s};
        agents[i].radius = 1.5;
        agents[i].maxSpeed = 2.0;
        agents[i].id = static_cast<uint32_t>(i);
        goals[i] = -agents[i].position;
    }
    Hasher h;
    const double dt = 0.25;
    for (int step = 0; step < c.sizes.circleSteps; ++step)
    {
        for (size_t i = 0; i < n; ++i)
        {
            const glm::dvec2 d = goals[i] - agents[i].position;
            const double len = std::sqrt(glm::dot(d, d));
            agents[i].preferred = len > 2.0 ? d * (2.0 / len) : d;
        }
        check(avoidance.avoid(agents, {}, dt, out), "avoid");
        for (size_t i = 0; i < n; ++i)
        {
            agents[i].velocity = out[i];
            agents[i].position += out[i] * dt;
            h.addF64(agents[i].position.x);
            h.addF64(agents[i].position.y);
        }
    }
    return h.digest();
}

/// RVO2-3D's Sphere: 812 fliers on a sphere of 100 m fly to the opposite point
/// (radius 1.5, speed 2, time step 0.125).
uint64_t jobOrcaSphere(const Context& c)
{
    std::vector<nav::AvoidanceAgent3D> agents;
    std::vector<glm::dvec3> goals;
    for (int ring = 0; ring * 0.1 < det::kPi; ++ring)
    {
        double sa = 0.0, ca = 0.0;
        det::sinCos(ring * 0.1, sa, ca);
        const double z = 100.0 * ca, r = 100.0 * sa;
        const int count = static_cast<int>(std::ceil(r / 2.5));
        for (int i = 0; i < count; ++i)
        {
            double s = 0.0, co = 0.0;
            det::sinCos(det::kTwoPi * i / count, s, co);
            nav::AvoidanceAgent3D a;
            a.position = {r * co, z, -r * s};
            a.radius = 1.5;
            a.maxSpeed = 2.0;
            a.id = static_cast<uint32_t>(agents.size());
            agents.push_back(a);
            goals.push_back(-a.position);
        }
    }
    nav::Avoidance avoidance = makeAvoidance(agents.size());
    std::vector<glm::dvec3> out(agents.size());
    Hasher h;
    h.addU64(agents.size());
    const double dt = 0.125;
    for (int step = 0; step < c.sizes.sphereSteps; ++step)
    {
        for (size_t i = 0; i < agents.size(); ++i)
        {
            const glm::dvec3 d = goals[i] - agents[i].position;
            const double len = std::sqrt(glm::dot(d, d));
            agents[i].preferred = len > 2.0 ? d * (2.0 / len) : d;
        }
        check(avoidance.avoid3D(agents, {}, dt, out), "avoid3D");
        for (size_t i = 0; i < agents.size(); ++i)
        {
            agents[i].velocity = out[i];
            agents[i].position += out[i] * dt;
            h.addF64(agents[i].position.x);
            h.addF64(agents[i].position.y);
            h.addF64(agents[i].position.z);
        }
    }
    return h.digest();
}

/// Flight paths and rays through a 100 × 20 × 100 m volume with seeded pillars.
uint64_t jobFlight(const Context& c)
{
    Rng rng = rngFromSeed(10);
    std::vector<nav::FlightBox> boxes;
    for (int b = 0; b < 80; ++b)
    {
        const double x = rngNextRange(rng, -45.0, 45.0), z = rngNextRange(rng, -45.0, 45.0);
        const double w = rngNextRange(rng, 1.0, 6.0), d = rngNextRange(rng, 1.0, 6.0);
        boxes.push_back({{x, 0.0, z}, {x + w, rngNextRange(rng, 4.0, 20.0), z + d}});
    }
    nav::FlightGeometry geometry;
    geometry.boxes = boxes;
    nav::FlightVolumeDef def = nav::defaultFlightVolumeDef();
    def.voxelSize = 1.0; // 200,000 voxels: a path's search stays short under emulation
    nav::FlightVolume volume = take(nav::buildFlightVolume(def, geometry), "flight volume");
    Hasher h;
    h.addI64(volume.openVoxelCount());
    auto point = [&]
    {
        const double x = rngNextRange(rng, -49.0, 49.0), y = rngNextRange(rng, 1.0, 19.0);
        return glm::dvec3(x, y, rngNextRange(rng, -49.0, 49.0));
    };
    for (int q = 0; q < c.sizes.flightPaths; ++q)
    {
        const glm::dvec3 from = point(), to = point();
        if (!volume.isOpen(from) || !volume.isOpen(to))
            continue;
        const nav::FlightPath path = take(volume.path(from, to), "flight path");
        h.addBool(path.partial);
        for (const glm::dvec3& p : path.points)
        {
            h.addF64(p.x);
            h.addF64(p.y);
            h.addF64(p.z);
        }
        const nav::FlightRaycastHit hit = take(volume.raycast(from, to), "flight raycast");
        h.addBool(hit.blocked);
        h.addF64(hit.t);
    }
    return h.digest();
}

ai::json readJson(const Context& c, const std::string& path)
{
    const std::string text = take(readTextFile(c.root + "/" + path), path.c_str());
    return ai::json::parse(text);
}

/// Behaviour-tree and utility brains on a host of 1,000 point agents (libai's
/// test host): half run the guard tree (samples/ai/guard.bt.json), half the
/// rest-patrol-flee utility document; the AI state and every agent hashed.
uint64_t jobBrains(const Context& c, bool utility)
{
    ai::AiState state;
    ai::test::FakeWorld world;
    ai::putTree(state, take(ai::compileTree(readJson(c, "samples/ai/guard.bt.json")), "guard tree"));
    ai::putUtility(state, take(ai::compileUtility(readJson(c, "samples/ai/rest-patrol-flee.utility.json")),
                               "utility document"));
    Rng rng = rngFromSeed(utility ? 12 : 11);
    world.objects["Player"] = ai::Vec3(0, 0, 0);
    for (int i = 0; i < c.sizes.brains; ++i)
    {
        char name[32];
        std::snprintf(name, sizeof name, "agent%04d", i);
        ai::test::FakeAgent a;
        const double x = rngNextRange(rng, -30, 30), z = rngNextRange(rng, -30, 30);
        a.position = ai::Vec3(x, 0, z);
        a.speed = 2.0 + (i % 4) * 0.5;
        world.agents[name] = a;
        ai::BrainDef def = ai::defaultBrainDef();
        def.agent = name;
        def.agentKey = world.keyOf(name);
        def.seed = static_cast<uint64_t>(i);
        def.period = 1 + static_cast<uint32_t>(i % 3);
        if (utility)
        {
            def.utility = "rest-patrol-flee";
            def.blackboard = {{"target", "Player"},
                              {"fatigue", static_cast<double>(i % 100)},
                              {"health", static_cast<double>((i * 37) % 100)},
                              {"safe_spot", ai::Value::list({a.position.x + 15, 0, a.position.z - 5})}};
        }
        else
        {
            def.tree = "guard";
            def.blackboard = {{"target", "Player"}};
        }
        check(ai::attachBrain(state, def, 0).status(), "attachBrain");
    }
    Hasher h;
    const double dt = 1.0 / 30.0;
    for (int f = 0; f < c.sizes.brainFrames; ++f)
    {
        // The player walks a square, so brains see it come and go.
        const double t = f * dt;
        world.objects["Player"] = ai::Vec3(20.0 * det::sin(t * 0.3), 0, 20.0 * det::cos(t * 0.2));
        ai::stepBrains(state, world, ai::TickClock{static_cast<uint64_t>(f), dt});
        world.step(dt);
        if (f % 20 == 19)
            h.addU64(ai::hashAiState(state));
    }
    h.addU64(ai::hashAiState(state));
    for (const auto& [name, a] : world.agents)
    {
        h.addString(name);
        h.addF64(a.position.x);
        h.addF64(a.position.z);
    }
    return h.digest();
}

uint64_t jobBrainsTree(const Context& c) { return jobBrains(c, false); }
uint64_t jobBrainsUtility(const Context& c) { return jobBrains(c, true); }

/// The guard demo (samples/navigation/scenarios/guard-patrol-chase) as a
/// scene::World: the arena baked, the guard tree, the guard patrols, the player
/// walks out, is chased, runs behind the platform; the world's state hashed
/// after each phase (fixed frame counts, not "until").
uint64_t jobSceneGuard(const Context& c)
{
    scene::World w;
    scene::WorldDocument doc = take(scene::loadWorldDocumentFile(c.root + "/samples/space3d/ragdoll-wall.space3d.json"), "scene");
    scene::SceneBakeDef bake = scene::defaultSceneBakeDef();
    bake.bake.agentRadius = 0.4f;
    bake.bake.agentHeight = 1.8f;
    const scene::ModelLoader loader = scene::makeObjModelLoader(c.root);
    scene::SceneBake baked = take(scene::bakeWorldDocument(doc, bake, loader), "scene bake");
    check(w.loadScene(std::move(doc)), "loadScene");
    w.setModelLoader(loader);
    nav::MeshDef mesh = nav::defaultMeshDef();
    mesh.name = "arena";
    mesh.source = "space3d";
    mesh.mesh = baked.mesh;
    take(w.nav().putMesh(std::move(mesh)), "putMesh");
    ai::putTree(w.ai(), take(ai::compileTree(readJson(c, "samples/ai/guard.bt.json")), "guard tree"));
    scene::Object3D guard;
    guard.name = "Guard";
    guard.transform = scene::Transform3D{};
    guard.transform->position = {-12.0f, 0.95f, 6.0f};
    guard.characterController = scene::CharacterController{};
    guard.characterController->height = 1.8f;
    guard.characterController->radius = 0.4f;
    guard.aiAgent = scene::AiAgent{};
    guard.aiAgent->mesh = "arena";
    guard.aiAgent->tree = "guard";
    guard.aiAgent->maxSpeed = 3.5f;
    guard.aiAgent->blackboard = {{"target", "Player"}};
    take(w.spawn(std::move(guard)), "spawn");
    const scene::ObjectId player = w.findObject("Player");
    if (!player.valid())
        fail("the arena has no Player");
    Hasher h;
    auto phase = [&](glm::vec3 velocity, uint32_t frames)
    {
        check(w.moveCharacter(player, velocity, false), "moveCharacter");
        check(w.stepFrames(frames), "stepFrames");
        h.addU64(w.hashState());
    };
    phase({0, 0, 0}, 60);   // the guard patrols
    phase({0, 0, 3}, 150);  // the player walks out and is spotted
    phase({0, 0, 0}, 150);  // the guard closes in
    phase({0, 0, -6}, 100); // the player runs back
    phase({6, 0, 0}, 100);  // and behind the platform
    phase({0, 0, 0}, 300 * static_cast<uint32_t>(c.sizes.guardScale)); // lost: back to the patrol
    return h.digest();
}

struct Job
{
    const char* name;
    uint64_t (*run)(const Context&);
};

const Job kJobs[] = {
    {"bake_dungeon", jobBakeDungeon},     {"bake_terrain", jobBakeTerrain},   {"bake_2d", jobBake2D},
    {"paths_dungeon", jobPathsDungeon},   {"paths_terrain", jobPathsTerrain}, {"raycasts", jobRaycasts},
    {"random_points", jobRandomPoints},   {"carving", jobCarving},            {"offmesh_links", jobOffMeshLinks},
    {"crowd", jobCrowd},                  {"orca_circle", jobOrcaCircle},     {"orca_sphere", jobOrcaSphere},
    {"flight", jobFlight},                {"brains_tree", jobBrainsTree},     {"brains_utility", jobBrainsUtility},
    {"scene_guard", jobSceneGuard},
};

/// "<set> <job> <hash>" lines; '#' starts a comment.
std::map<std::string, std::string> readExpected(const std::string& path, const std::string& set)
{
    const std::string text = take(readTextFile(path), "expected hashes");
    std::map<std::string, std::string> out;
    size_t at = 0;
    while (at < text.size())
    {
        size_t end = text.find('\n', at);
        if (end == std::string::npos)
            end = text.size();
        const std::string line = text.substr(at, end - at);
        at = end + 1;
        char s[32], job[64], hash[32];
        if (line.empty() || line[0] == '#' || std::sscanf(line.c_str(), "%31s %63s %31s", s, job, hash) != 3)
            continue;
        if (set == s)
            out[job] = hash;
    }
    return out;
}

} // namespace

int main(int argc, char** argv)
{
    Context c{".", kShort};
    std::string set = "short", expectPath;
    std::vector<std::string> only;
    for (int i = 1; i < argc; ++i)
    {
        const std::string a = argv[i];
        if (i + 1 < argc && a == "--set")
            set = argv[++i];
        else if (i + 1 < argc && a == "--expect")
            expectPath = argv[++i];
        else if (i + 1 < argc && a == "--job")
            only.push_back(argv[++i]);
        else if (i + 1 < argc && a == "--root")
            c.root = argv[++i];
        else
        {
            std::fprintf(stderr, "usage: det_suite [--set short|full] [--expect FILE] [--job NAME]... [--root DIR]\n");
            return 2;
        }
    }
    if (set != "short" && set != "full")
        fail("--set is short or full, not " + set);
    c.sizes = set == "full" ? kFull : kShort;
    std::map<std::string, std::string> expected;
    if (!expectPath.empty())
        expected = readExpected(expectPath, set);
    for (const std::string& name : only)
        if (std::none_of(std::begin(kJobs), std::end(kJobs), [&](const Job& j) { return name == j.name; }))
            fail("no job " + name);
    int differing = 0, ran = 0;
    const auto suiteStart = std::chrono::steady_clock::now();
    for (const Job& job : kJobs)
    {
        if (!only.empty() && std::find(only.begin(), only.end(), job.name) == only.end())
            continue;
        const auto start = std::chrono::steady_clock::now();
        const uint64_t hash = job.run(c);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        char hex[17];
        std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
        std::string verdict;
        if (!expectPath.empty())
        {
            const auto it = expected.find(job.name);
            if (it == expected.end())
                verdict = "  NOT PINNED";
            else if (it->second != hex)
                verdict = "  DIFFERS (pinned " + it->second + ")";
            differing += verdict.empty() ? 0 : 1;
        }
        ++ran;
        std::printf("%s %-15s %s %8.0f ms%s\n", set.c_str(), job.name, hex, ms, verdict.c_str());
        std::fflush(stdout);
    }
    const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - suiteStart).count();
    std::printf("det_suite: %d jobs, %d differing from %s, %.1f s\n", ran, differing,
                expectPath.empty() ? "(nothing: no --expect)" : expectPath.c_str(), total);
    return differing == 0 ? 0 : 1;
}
