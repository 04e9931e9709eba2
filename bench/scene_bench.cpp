/// \file scene_bench.cpp
/// The whole scene step with thinking, walking guards on
/// samples/space3d/ragdoll-wall.space3d.json: N guards, each an object with a
/// CharacterController and an AiAgent (a crowd agent with a behaviour-tree
/// brain), for --steps steps of 1/60 s. What a step costs, split by stage
/// (scene::StepObserver), and what one brain tick costs. The goal (the issue):
/// 1,000 thinking, walking guards in under 2 ms per step.
///
/// The world, rebuilt from scratch for every repeat (so every repeat does the
/// same work and ends in the same state; the final World::hashState is
/// compared across repeats):
///  - the sample (all of it: crates, ball and player too) in a scene::World
///    with makeObjModelLoader. 1,000 capsules of radius 0.4 do not fit on one
///    sample floor (bench/physics_bench: 350 free 1 m spots, about 520 m² of
///    free floor), so N is spread over ceil(N / --per-arena) copies of the
///    sample side by side, 32 m apart along x (names suffixed "#k", positions
///    offset), as physics_bench does: 100 guards is the sample itself, 1,000
///    is ten samples at the same density, so the figures scale N, not crowding.
///    The copies are one WorldDocument, loaded once;
///  - one navmesh "arena" baked from all of it (scene::bakeWorldDocument, agent
///    radius 0.4, height 1.8, the other settings nav::defaultBakeDef(); ten
///    islands for ten copies), put into World::nav() as nav.bake does;
///  - the tree samples/ai/guard.bt.json (chase the target while can_see it,
///    else patrol two posts) compiled with ai::compileTree and put with
///    ai::putTree as "guard". Its patrol posts are points in world space, so
///    copy k > 0 gets its own tree "guard#k", the same document with the posts
///    moved 32·k m along x (the same work per tick, posts in its own arena);
///  - the guards: objects "Guard<i>" spawned with World::spawn, a Transform3D
///    at y = 0.95 (feet 0.05 m above the floor), a CharacterController
///    (h 1.8, r 0.4, the other fields default) and AiAgent{mesh "arena",
///    tree "guard" (or "guard#k"), blackboard {"target": "Player"} (or
///    "Player#k", the player of its own copy), max speed 3.5 m/s, period 1}.
///    Each copy's guards stand on a seeded draw of free spots: the 1 m lattice
///    x ∈ [−14, −1], z ∈ [−9, 9] west of the wall, a spot kept when 17
///    vertical rays (its centre and 16 points 0.5 m around it, from y = 5) all
///    land on the floor (y = 0), so no capsule overlaps anything (the stage,
///    its ramp, the stone pillar, the barricade, the ball falling on the stage).
///    The player stands east of the wall (3, 0.95, −8) and does not move; the
///    guard tree sees 10 m with a 120° cone and its patrol walks z = 6, 14 m
///    from the player, so at the sample's place the player is hardly ever seen.
///    --player-at=x,z puts each copy's player at (x, z) of its copy instead
///    (e.g. -7,3: amid the guards, so brains see, chase and cast sight rays;
///    the lattice spots within 1 m of it are left out).
/// The AiAgent components become crowd agents with brains in the first step's
/// Agents stage (so step 1 also pays for adding N agents; its time is shown
/// apart and is inside the means, not the medians).
///
/// Time: thread CPU time (CLOCK_THREAD_CPUTIME_ID). Each World::step is timed
/// whole, and a StepObserver times each stage (two clock reads per stage, 14
/// per step, inside the whole). Per repeat: the median and the mean of the
/// whole steps, and per stage the mean over the steps (means add up: brains +
/// crowd + physics + other = mean ms/step, "other" being the Agents,
/// Obstacles, Positions and Drive stages plus the observer's own clock reads);
/// then the median of each figure over --repeats repeats (never the minimum).
/// µs per brain tick = the Brains stage's time of the whole run / the ticks of
/// the whole run (World::takeStepAiFigures().brainsTicked; every guard ticks
/// every step, so N × steps, checked).
///
/// Quality (untimed, last repeat; equal in every repeat since the runs are
/// deterministic): guards that spotted their player at least once ("spotted"
/// events in World::ai().events, read after every step), the spotted events,
/// the mean path length each guard walked (horizontal, summed step by step),
/// guards below the floor at the end, ai_error scene events, and the final
/// World::hashState (printed, and compared across repeats: a difference is
/// reported and the exit code is 1).
///
/// Options: --guards=100,1000 --repeats=3 --steps=600 --per-arena=100 --player-at=x,z
/// Run from anywhere: build/<dir>/bench/scene_bench (the samples are read from
/// the current directory when they are there, else from SPARK_SOURCE_DIR).
/// Instruction counts of the steps alone (setup excluded): valgrind
///   --tool=callgrind --collect-atstart=no
///   --toggle-collect='spark::scene::World::step(double, spark::scene::StepObserver*)'
///   scene_bench --guards=1000 --repeats=1 --steps=60

#include "spark/ai/brain.h"
#include "spark/ai/events.h"
#include "spark/ai/tree.h"
#include "spark/core/rng.h"
#include "spark/scene/world_document.h"
#include "spark/scene/scene_bake.h"
#include "spark/scene/scene_colliders.h"
#include "spark/scene/world.h"
#include "bench_stats.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace spark;

namespace
{

using spark::bench::threadSeconds;
using spark::bench::median;
using spark::bench::mean;
using spark::bench::spreadPercent;

constexpr const char* kScenePath = "samples/space3d/ragdoll-wall.space3d.json";
constexpr const char* kTreePath = "samples/ai/guard.bt.json";
constexpr const char* kMeshName = "arena";
constexpr const char* kPlayerName = "Player";
constexpr uint64_t kSeed = 21;
constexpr float kAgentRadius = 0.4f, kAgentHeight = 1.8f;
constexpr float kSpawnY = 0.95f;    // centre: feet 0.05 m above the floor (h 1.8)
constexpr float kMaxSpeed = 3.5f;   // [m/s]
// Where guards stand: the open floor west of the wall (a 1 m lattice).
constexpr int kSpotXMin = -14, kSpotXMax = -1, kSpotZMin = -9, kSpotZMax = 9;
constexpr double kSpotClearance = 0.5; // probe circle: radius 0.4 + 0.1 [m]
constexpr int kProbeRays = 16;
constexpr double kCopySpacing = 32.0;  // copies of the arena along x [m]
constexpr size_t kStages = 7;           // scene::StepStage values
constexpr float kPlayerClearance = 1.0f; // no guard spot this close to a moved player: r 0.4 + 0.4 + 0.2 [m]

struct Options
{
    std::vector<int> guards{100, 1000};
    int repeats = 3;
    int steps = 600;
    int perArena = 100;
    bool movePlayer = false;  // --player-at given
    glm::vec2 playerAt{0.0f}; // (x, z) in each copy's own frame [m]
};

[[noreturn]] void fail(const std::string& what)
{
    std::fprintf(stderr, "scene_bench: %s\n", what.c_str());
    std::exit(1);
}

std::filesystem::path projectRoot()
{
    if (std::filesystem::exists(kScenePath))
        return std::filesystem::current_path();
    return std::filesystem::path(SPARK_SOURCE_DIR);
}

nlohmann::json readJsonFile(const std::filesystem::path& path)
{
    std::ifstream in(path);
    if (!in)
        fail("cannot read " + path.string());
    std::stringstream text;
    text << in.rdbuf();
    const nlohmann::json doc = nlohmann::json::parse(text.str(), nullptr, false);
    if (doc.is_discarded())
        fail(path.string() + " is not JSON");
    return doc;
}

std::string suffix(int copy) { return copy == 0 ? std::string() : "#" + std::to_string(copy); }

// --- The world ------------------------------------------------------------------

// `copies` copies of the sample side by side along x (copy 0 is the sample itself).
scene::WorldDocument arenaCopies(const scene::WorldDocument& sample, int copies)
{
    scene::WorldDocument out;
    out.gravity = sample.gravity;
    for (int c = 0; c < copies; ++c)
        for (scene::Object3D o : sample.objects)
        {
            if (c > 0)
            {
                o.name += suffix(c);
                scene::Transform3D t = o.transform.value_or(scene::Transform3D{});
                t.position.x += static_cast<float>(kCopySpacing * c);
                o.transform = t;
            }
            out.objects.push_back(std::move(o));
        }
    return out;
}

// Moves every patrol leaf's points `dx` along x (the tree of copy k).
void shiftPatrolPoints(nlohmann::json& node, double dx, int& outShifted)
{
    if (node.is_object())
    {
        if (node.value("name", std::string()) == "patrol" && node.contains("params") &&
            node["params"].contains("points"))
        {
            for (nlohmann::json& p : node["params"]["points"])
                p[0] = p[0].get<double>() + dx;
            ++outShifted;
        }
    }
    if (node.is_object() || node.is_array())
        for (nlohmann::json& child : node)
            shiftPatrolPoints(child, dx, outShifted);
}

// The guard tree of copy `copy`: the document itself for copy 0, else renamed
// "guard#k" with its patrol posts in copy k's arena.
ai::CompiledTree guardTree(const nlohmann::json& doc, int copy)
{
    nlohmann::json d = doc;
    if (copy > 0)
    {
        d["name"] = d.at("name").get<std::string>() + suffix(copy);
        int shifted = 0;
        shiftPatrolPoints(d, kCopySpacing * copy, shifted);
        if (shifted == 0)
            fail(std::string(kTreePath) + " has no patrol points to move into the copies");
    }
    std::vector<ai::Problem> problems;
    auto tree = ai::compileTree(d, &problems);
    if (!tree.ok())
        fail(std::string("ai::compileTree(") + kTreePath + "): " + tree.error().message);
    return std::move(tree.value());
}

struct Spot
{
    float x, z;
};

// Free floor spots of one sample arena west of the wall: lattice points whose
// capsule footprint (grown by 0.1 m) sees nothing but the floor from above.
std::vector<Spot> freeSpots(const scene::WorldDocument& sample, const std::filesystem::path& root)
{
    scene::World probe;
    probe.setModelLoader(scene::makeObjModelLoader(root));
    if (auto s = probe.loadScene(sample); !s.ok())
        fail("World::loadScene: " + s.error().message);
    std::vector<Spot> spots;
    for (int x = kSpotXMin; x <= kSpotXMax; ++x)
        for (int z = kSpotZMin; z <= kSpotZMax; ++z)
        {
            bool free = true;
            for (int k = 0; k <= kProbeRays && free; ++k)
            {
                double px = x, pz = z;
                if (k > 0)
                {
                    const double a = 2.0 * 3.14159265358979323846 * (k - 1) / kProbeRays;
                    px += kSpotClearance * std::cos(a);
                    pz += kSpotClearance * std::sin(a);
                }
                const auto h = probe.raycast(glm::vec3(float(px), 5.0f, float(pz)),
                                             glm::vec3(float(px), -0.5f, float(pz)), {});
                free = h.ok() && h->hit && h->point.y <= 1e-3;
            }
            if (free)
                spots.push_back({static_cast<float>(x), static_cast<float>(z)});
        }
    return spots;
}

struct Setup
{
    const scene::WorldDocument* sample = nullptr;
    const nlohmann::json* treeDoc = nullptr;
    std::filesystem::path root;
    std::vector<Spot> spots;
};

// Accumulates thread CPU time per stage.
class StageTimer final : public scene::StepObserver
{
public:
    void begin(scene::StepStage) override { m_started = threadSeconds(); }
    void end(scene::StepStage stage) override { seconds[static_cast<size_t>(stage)] += threadSeconds() - m_started; }
    std::array<double, kStages> seconds{};

private:
    double m_started = 0.0;
};

struct Run
{
    std::vector<double> stepSeconds;       // whole steps
    std::array<double, kStages> stageSeconds{}; // summed over the steps
    uint64_t ticks = 0;                    // brainsTicked, summed
    int agents = 0;                        // crowd agents after the run
    int spottedGuards = 0;
    uint64_t spottedEvents = 0;
    double walked = 0.0;                   // mean path length [m]
    int fell = 0;
    int aiErrors = 0;
    uint64_t hash = 0;
};

[[gnu::noinline]] void runGuards(const Setup& setup, const Options& opt, int count, Run& out)
{
    const int copies = (count + opt.perArena - 1) / opt.perArena;
    const int steps = opt.steps;
    scene::World world;
    world.setModelLoader(scene::makeObjModelLoader(setup.root));
    scene::WorldDocument doc = arenaCopies(*setup.sample, copies);
    std::vector<Spot> spots = setup.spots;
    if (opt.movePlayer)
    {
        // Each copy's player stands at --player-at; no guard spot within kPlayerClearance of it.
        for (scene::Object3D& o : doc.objects)
            for (int c = 0; c < copies; ++c)
                if (o.name == std::string(kPlayerName) + suffix(c) && o.transform)
                {
                    o.transform->position.x = opt.playerAt.x + static_cast<float>(kCopySpacing * c);
                    o.transform->position.z = opt.playerAt.y;
                }
        std::erase_if(spots, [&](const Spot& s) {
            return std::hypot(s.x - opt.playerAt.x, s.z - opt.playerAt.y) < kPlayerClearance;
        });
    }

    // The navmesh, baked once from every copy (mirrors nav.bake's space3d source).
    scene::SceneBakeDef bakeDef = scene::defaultSceneBakeDef();
    bakeDef.bake.agentRadius = kAgentRadius;
    bakeDef.bake.agentHeight = kAgentHeight;
    auto baked = scene::bakeWorldDocument(doc, bakeDef, scene::makeObjModelLoader(setup.root));
    if (!baked.ok())
        fail("bakeWorldDocument: " + baked.error().message);
    if (auto s = world.loadScene(std::move(doc)); !s.ok())
        fail("World::loadScene: " + s.error().message);
    nav::MeshDef mesh = nav::defaultMeshDef();
    mesh.name = kMeshName;
    mesh.source = "space3d";
    mesh.mesh = baked->mesh;
    if (auto put = world.nav().putMesh(std::move(mesh)); !put.ok())
        fail("NavWorld::putMesh: " + put.error().message);
    for (int c = 0; c < copies; ++c)
        ai::putTree(world.ai(), guardTree(*setup.treeDoc, c));

    // The guards: per copy a seeded draw of its share of the spots.
    Rng rng = rngFromSeed(kSeed, 1);
    std::vector<scene::ObjectId> ids;
    std::vector<glm::vec2> last;
    const std::string treeName = setup.treeDoc->at("name").get<std::string>();
    for (int c = 0; c < copies; ++c)
    {
        const int share = count / copies + (c < count % copies ? 1 : 0);
        if (share > static_cast<int>(spots.size()))
            fail("not enough free spots: " + std::to_string(spots.size()) + " per arena, " +
                 std::to_string(share) + " asked (lower --per-arena)");
        std::vector<Spot> pool = spots;
        for (int i = 0; i < share; ++i)
        {
            const uint32_t j = i + rngNextBelow(rng, static_cast<uint32_t>(pool.size() - i));
            std::swap(pool[i], pool[j]);
            scene::Object3D o;
            o.name = "Guard" + std::to_string(ids.size());
            scene::Transform3D t;
            t.position = glm::vec3(pool[i].x + static_cast<float>(kCopySpacing * c), kSpawnY, pool[i].z);
            o.transform = t;
            scene::CharacterController cc;
            cc.height = kAgentHeight;
            cc.radius = kAgentRadius;
            o.characterController = cc;
            scene::AiAgent agent;
            agent.mesh = kMeshName;
            agent.tree = treeName + suffix(c);
            agent.blackboard = nlohmann::json{{"target", std::string(kPlayerName) + suffix(c)}};
            agent.maxSpeed = kMaxSpeed;
            o.aiAgent = std::move(agent);
            auto id = world.spawn(std::move(o));
            if (!id.ok())
                fail("World::spawn: " + id.error().message);
            ids.push_back(*id);
            last.emplace_back(t.position.x, t.position.z);
        }
    }
    (void)world.takeStepAiFigures();

    // The steps: timed whole and per stage; then, untimed, the new AI events and the paths.
    StageTimer timer;
    std::set<std::string> spotted;
    uint64_t seenSeq = world.ai().events.nextSeq;
    double walked = 0.0;
    out = Run{};
    out.stepSeconds.reserve(static_cast<size_t>(steps));
    for (int step = 0; step < steps; ++step)
    {
        const double t0 = threadSeconds();
        const Status s = world.step(scene::kFixedStep, &timer);
        out.stepSeconds.push_back(threadSeconds() - t0);
        if (!s.ok())
            fail("World::step: " + s.error().message);
        out.ticks += world.takeStepAiFigures().brainsTicked;
        const ai::EventLog& log = world.ai().events;
        if (log.nextSeq - seenSeq > log.events.size())
            fail("the AI event log dropped events within one step");
        for (size_t e = log.events.size() - static_cast<size_t>(log.nextSeq - seenSeq); e < log.events.size(); ++e)
            if (log.events[e].kind == ai::kEventSpotted)
            {
                ++out.spottedEvents;
                spotted.insert(log.events[e].agent);
            }
        seenSeq = log.nextSeq;
        for (size_t i = 0; i < ids.size(); ++i)
        {
            const glm::vec3 p = world.object(ids[i])->transform->position;
            walked += std::hypot(double(p.x) - last[i].x, double(p.z) - last[i].y);
            last[i] = glm::vec2(p.x, p.z);
        }
    }
    out.stageSeconds = timer.seconds;
    out.agents = static_cast<int>(world.agents().size());
    out.spottedGuards = static_cast<int>(spotted.size());
    out.walked = ids.empty() ? 0.0 : walked / static_cast<double>(ids.size());
    for (scene::ObjectId id : ids)
        out.fell += world.object(id)->transform->position.y < 0.0f;
    for (const scene::SceneEvent& e : world.sceneEvents())
        out.aiErrors += e.kind == "ai_error";
    out.hash = world.hashState();
}

void benchGuards(const Options& opt, const Setup& setup)
{
    std::printf("guards: CharacterController (h %.1f, r %.1f) + AiAgent (tree %s, max speed %.1f m/s, period 1), "
                "spawned at y %.2f on seeded free spots west of the wall (%zu per arena, 1 m lattice), %d per "
                "arena copy; navmesh \"%s\" (agent r %.1f, h %.1f); %d steps of 1/60 s\n",
                kAgentHeight, kAgentRadius, kTreePath, kMaxSpeed, kSpawnY, setup.spots.size(), opt.perArena,
                kMeshName, kAgentRadius, kAgentHeight, opt.steps);
    if (opt.movePlayer)
        std::printf("player: moved to (%g, %g) in each copy (no guard spot within %.1f m of it)\n\n", opt.playerAt.x,
                    opt.playerAt.y, kPlayerClearance);
    else
        std::printf("player: where the sample puts it, (3, -8), east of the wall\n\n");
    std::fflush(stdout);

    const size_t sizes = opt.guards.size();
    struct Figures
    {
        std::vector<double> medianStep, meanStep, brains, crowd, physics, other, tickUs, firstStep;
        std::vector<uint64_t> hashes;
    };
    std::vector<Figures> fig(sizes);
    std::vector<Run> lastRun(sizes);
    const auto stage = [](const Run& r, scene::StepStage s) { return r.stageSeconds[static_cast<size_t>(s)]; };
    for (int rep = 0; rep < opt.repeats; ++rep)
        for (size_t k = 0; k < sizes; ++k)
        {
            const size_t idx = rep % 2 == 0 ? k : sizes - 1 - k;
            std::fprintf(stderr, "guards: repeat %d, %d\n", rep + 1, opt.guards[idx]);
            Run run;
            runGuards(setup, opt, opt.guards[idx], run);
            const double perStepMs = 1e3 / static_cast<double>(opt.steps);
            const double brains = stage(run, scene::StepStage::Brains);
            const double crowd = stage(run, scene::StepStage::Crowds);
            const double physics = stage(run, scene::StepStage::Physics);
            double total = 0.0;
            for (double s : run.stepSeconds)
                total += s;
            Figures& f = fig[idx];
            f.medianStep.push_back(median(run.stepSeconds) * 1e3);
            f.meanStep.push_back(mean(run.stepSeconds) * 1e3);
            f.brains.push_back(brains * perStepMs);
            f.crowd.push_back(crowd * perStepMs);
            f.physics.push_back(physics * perStepMs);
            f.other.push_back((total - brains - crowd - physics) * perStepMs);
            f.tickUs.push_back(run.ticks ? brains * 1e6 / static_cast<double>(run.ticks) : 0.0);
            f.firstStep.push_back(run.stepSeconds.empty() ? 0.0 : run.stepSeconds.front() * 1e3);
            f.hashes.push_back(run.hash);
            lastRun[idx] = std::move(run);
        }

    std::printf("thread CPU time, ms per step: the whole World::step (median and mean of the %d steps) and per "
                "stage (mean over the steps; brains + crowd + physics + other = mean), each the median over %d "
                "repeats; us per brain tick = Brains stage time / ticks\n\n",
                opt.steps, opt.repeats);
    std::printf("| guards | arenas | median ms/step | spread | mean ms/step | brains ms | crowd ms | physics ms | "
                "other ms | us per brain tick | step 1 ms | spotted guards | spotted events | mean walked m | "
                "fell | ai errors |\n");
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    bool deterministic = true;
    for (size_t k = 0; k < sizes; ++k)
    {
        const Figures& f = fig[k];
        const Run& r = lastRun[k];
        std::printf("| %d | %d | %.3f | %.1f%% | %.3f | %.3f | %.3f | %.3f | %.3f | %.2f | %.2f | %d | %llu | %.1f | "
                    "%d | %d |\n",
                    opt.guards[k], (opt.guards[k] + opt.perArena - 1) / opt.perArena, median(f.medianStep),
                    spreadPercent(f.medianStep), median(f.meanStep), median(f.brains), median(f.crowd),
                    median(f.physics), median(f.other), median(f.tickUs), median(f.firstStep), r.spottedGuards,
                    static_cast<unsigned long long>(r.spottedEvents), r.walked, r.fell, r.aiErrors);
    }
    std::printf("\n");
    for (size_t k = 0; k < sizes; ++k)
    {
        const Figures& f = fig[k];
        const Run& r = lastRun[k];
        const uint64_t expected = static_cast<uint64_t>(opt.guards[k]) * static_cast<uint64_t>(opt.steps);
        const bool same = std::all_of(f.hashes.begin(), f.hashes.end(), [&](uint64_t h) { return h == f.hashes[0]; });
        deterministic = deterministic && same;
        std::printf("%d guards: final hashState %016llx, %s over %d repeats; brains ticked %llu (%s N x steps); "
                    "crowd agents %d\n",
                    opt.guards[k], static_cast<unsigned long long>(f.hashes.empty() ? 0 : f.hashes[0]),
                    same ? "equal" : "DIFFERS", opt.repeats, static_cast<unsigned long long>(r.ticks),
                    r.ticks == expected ? "=" : "!=", r.agents);
        if (!same)
            for (size_t i = 0; i < f.hashes.size(); ++i)
                std::printf("  repeat %zu: %016llx\n", i + 1, static_cast<unsigned long long>(f.hashes[i]));
    }
    std::printf("\n");
    if (!deterministic)
        fail("the final hash differs between repeats");
}

/// The positive counts of a comma-separated list (others are dropped).
std::vector<int> parseList(const std::string& s)
{
    std::vector<int> out = spark::bench::intList(s);
    std::erase_if(out, [](int v) { return v <= 0; });
    return out;
}

Options parseOptions(int argc, char** argv)
{
    Options o;
    for (int i = 1; i < argc; ++i)
    {
        const std::string a = argv[i];
        auto value = [&](const char* prefix) { return spark::bench::optionValue(a, prefix); };
        if (const char* v = value("--guards="))
            o.guards = parseList(v);
        else if (const char* v = value("--repeats="))
            o.repeats = std::max(1, std::atoi(v));
        else if (const char* v = value("--steps="))
            o.steps = std::max(1, std::atoi(v));
        else if (const char* v = value("--per-arena="))
            o.perArena = std::max(1, std::atoi(v));
        else if (const char* v = value("--player-at="))
        {
            float x = 0.0f, z = 0.0f;
            if (std::sscanf(v, "%f,%f", &x, &z) != 2 || !std::isfinite(x) || !std::isfinite(z))
                fail("--player-at takes x,z (metres, in each arena copy's own frame)");
            o.movePlayer = true;
            o.playerAt = glm::vec2(x, z);
        }
        else
        {
            std::fprintf(stderr,
                         "unknown option %s\nusage: scene_bench [--guards=100,1000] [--repeats=3] [--steps=600] "
                         "[--per-arena=100] [--player-at=x,z]\n",
                         a.c_str());
            std::exit(2);
        }
    }
    return o;
}

} // namespace

int main(int argc, char** argv)
{
    const Options opt = parseOptions(argc, argv);
    std::string command = argv[0];
    for (int i = 1; i < argc; ++i)
        command += std::string(" ") + argv[i];
    std::printf("command: %s\n", command.c_str());

    Setup setup;
    setup.root = projectRoot();
    auto sample = scene::loadWorldDocumentFile(setup.root / kScenePath);
    if (!sample.ok())
        fail(std::string("cannot load ") + kScenePath + ": " + sample.error().message);
    const nlohmann::json treeDoc = readJsonFile(setup.root / kTreePath);
    (void)guardTree(treeDoc, 0); // fails early on a bad document
    setup.sample = &sample.value();
    setup.treeDoc = &treeDoc;
    setup.spots = freeSpots(*setup.sample, setup.root);
    std::printf("scene: %s (%zu objects), tree: %s\n", kScenePath, sample->objects.size(), kTreePath);

    if (!opt.guards.empty())
        benchGuards(opt, setup);
    return 0;
}
