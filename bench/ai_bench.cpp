/// \file ai_bench.cpp
/// What one behaviour-tree brain tick costs: 10,000 brains running the 30-node
/// tree below: reactive selectors re-checking conditions, a chase with a
/// timeout, a cooldown, a parallel patrol, blackboard reads and writes, leaf
/// parameters from the blackboard. The goal (the issue): at most 0.3 µs per
/// brain tick, no allocation and no string look-up per tick.
///
/// Two hosts (libai reaches the world only through `ai::World`: every call for
/// a brain's agent takes the key the host gave when the brain was attached; a
/// named target is asked for with `findTarget` and the name's interned
/// symbol), the same world behind both:
///  - fake: the fake world of points of the unit tests (tests/ai/fake_world.h),
///    agents in a std::map by name, a key standing for a name: every call
///    walks a 10,000-name tree (about 14 string compares), and so does
///    `findTarget`, which is the host's cost, not libai's;
///  - indexed: the same FakeWorld, a key reaching its agent's record in an
///    array (as libscene's AiHost reaches a crowd agent by its handle), a
///    target found by its symbol's id in an array, so the figure is libai's
///    tick plus a cheap host. Both must end in the same AI state hash.
///
/// A plain program, not Google Benchmark: there is no peer to compare with in
/// Debian (BehaviorTree.CPP is not packaged: `apt-cache policy
/// 'libbehaviortree-cpp*'` finds nothing), and the figures wanted are medians
/// of whole repeats, which a plain loop gives directly.
///
/// Each repeat builds the world from scratch (seeded: every repeat does the
/// same work and ends in the same state), ticks --warmup frames untimed, then
/// --frames timed frames. A frame is one ai::stepBrains over every brain
/// (timed: thread CPU time, CLOCK_THREAD_CPUTIME_ID) followed by the fake
/// world's step (untimed). µs per brain tick = the timed CPU of the repeat /
/// the brain ticks of the repeat (the sum of Brain::ticks, checked against
/// brains × frames). Printed: the median over --repeats repeats (never the
/// minimum), the mean and the spread.
///
/// Quality (so a broken tree cannot look fast; equal in every repeat since the
/// runs are deterministic, and across versions of libai that keep behaviour):
/// the brains still enabled, the root statuses after the last frame, the
/// events of the timed frames by kind, and the final ai::hashAiState.
///
/// Allocations: a counting global operator new counts the allocations made
/// inside the timed stepBrains calls. Recording an event allocates (its JSON
/// data), so the allocations are printed beside the events recorded; a tick
/// that records nothing allocates nothing (tests/ai/bt/alloc_test.cpp asserts
/// it, and --max-allocs-per-event=X makes this program fail above X, a decimal).
///
/// Instruction counts (repeatable, unlike time): `ai_bench --callgrind` runs
/// itself under valgrind --tool=callgrind --collect-atstart=no with collection
/// toggled around the ticking only (CALLGRIND_TOGGLE_COLLECT when
/// <valgrind/callgrind.h> is there, else --toggle-collect on tickFrame) and
/// prints instructions per brain tick; then
///   callgrind_annotate --inclusive=yes /tmp/ai_bench.callgrind | head -40
/// shows the hot functions.
///
/// Options: --brains=10000 --repeats=7 --warmup=30 --frames=120 --host=indexed,fake
///          --callgrind [--frames=10] --out=DIR

#include "../tests/ai/bt/counting_new.h"
#include "../tests/ai/fake_world.h"
#include "bench_stats.h"
#include "spark/ai/brain.h"
#include "spark/core/rng.h"

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define SPARK_AI_BENCH_CALLGRIND 1
#else
#define SPARK_AI_BENCH_CALLGRIND 0
#endif

// --- Counting allocations -----------------------------------------------------

namespace
{
std::atomic<uint64_t> g_allocations{0};
}

void spark::ai::test::onAllocation()
{
    g_allocations.fetch_add(1, std::memory_order_relaxed);
}

using namespace spark;
using namespace spark::ai;
using spark::bench::mean;
using spark::bench::median;
using spark::bench::spreadPercent;
using spark::bench::threadSeconds;

namespace
{

const char* kTree = R"({"version": 1, "name": "bench", "root":
 {"type": "selector", "reactive": true, "children": [
   {"type": "sequence", "reactive": true, "label": "flee", "children": [
     {"type": "check", "key": "health", "op": "<", "value": 20},
     {"type": "inverter", "child": {"type": "condition", "name": "within", "params": {"target": {"bb": "safe"}, "distance": 2}}},
     {"type": "action", "name": "move_to", "params": {"target": {"bb": "safe"}}}]},
   {"type": "sequence", "reactive": true, "label": "chase", "children": [
     {"type": "condition", "name": "can_see", "params": {"target": {"bb": "target"}, "range": 15, "fov_deg": 120}},
     {"type": "condition", "name": "has_path", "params": {"target": {"bb": "target"}}},
     {"type": "set", "key": "seen", "value": true},
     {"type": "timeout", "seconds": 5, "child": {"type": "action", "name": "move_to", "params": {"target": {"bb": "target"}, "stop_distance": 1.5}}}]},
   {"type": "sequence", "label": "search", "children": [
     {"type": "check", "key": "seen", "value": true},
     {"type": "cooldown", "seconds": 2, "child": {"type": "action", "name": "emit", "params": {"event": "search"}}},
     {"type": "action", "name": "face", "params": {"target": {"bb": "target"}}},
     {"type": "set", "key": "seen", "value": false}]},
   {"type": "parallel", "success": "one", "children": [
     {"type": "action", "name": "patrol", "params": {"points": {"bb": "route"}}},
     {"type": "repeat", "count": -1, "child": {"type": "succeeder", "child": {"type": "sequence", "children": [
       {"type": "condition", "name": "chance", "params": {"probability": 0.01}},
       {"type": "action", "name": "log", "params": {"message": "idle"}}]}}},
     {"type": "succeeder", "child": {"type": "check", "key": "alarm", "op": "exists"}}]},
   {"type": "sequence", "children": [{"type": "wait", "seconds": 1}, {"type": "action", "name": "stop"}]}]}})";

constexpr double kDt = 1.0 / 60.0;

/// The fake world behind a hash index by name (see the file comment): the same
/// answers and effects as test::FakeWorld, reached without walking its maps.
class IndexedWorld final : public World
{
  public:
    explicit IndexedWorld(test::FakeWorld& fake) : m_fake(fake)
    {
        for (auto& [name, a] : fake.agents)
        {
            const AgentKey key = fake.keyOf(name);
            if (key.value >= m_byKey.size())
                m_byKey.resize(key.value + 1, nullptr);
            m_byKey[key.value] = &a;
            m_agents.emplace(name, &a);
        }
        // Targets by name as findTarget answers them: an agent first, else an object.
        for (auto& [name, a] : fake.agents)
            m_targets.emplace_back(name, &a.position);
        for (auto& [name, p] : fake.objects)
            if (!m_agents.count(name))
                m_targets.emplace_back(name, &p);
        for (size_t i = 0; i < m_targets.size(); ++i)
            m_targetIndex.emplace(m_targets[i].first, i);
    }

    // Agents by key: the fake's keys index a list of the agents' records (the
    // benchmark's agents never go, so a key always finds its agent).
    bool agentExists(AgentKey agent) const override { return record(agent) != nullptr; }
    bool agentPosition(AgentKey agent, Vec3& out) const override
    {
        out = record(agent)->position;
        return true;
    }
    Vec3 agentVelocity(AgentKey agent) const override { return record(agent)->velocity; }
    Vec3 agentForward(AgentKey agent) const override { return record(agent)->forward; }
    MoveState moveState(AgentKey agent) const override { return record(agent)->state; }
    void requestMove(AgentKey agent, const Vec3& target, double stopDistance) override
    {
        m_fake.requestMove(*record(agent), target, stopDistance);
    }
    void stop(AgentKey agent) override { test::FakeWorld::stop(*record(agent)); }
    void face(AgentKey agent, const Vec3& direction) override { test::FakeWorld::face(*record(agent), direction); }
    void setSpeed(AgentKey agent, double speed) override { record(agent)->speed = speed; }
    bool lineOfSight(AgentKey, const Vec3& from, const Vec3& to) const override { return m_fake.clearSight(from, to); }
    bool hasPath(AgentKey, const Vec3& to) const override { return m_fake.reachable(to); }

    // Named targets: the target's index + 1 in a list by name, kept by the
    // name's symbol id (the list never changes once built).
    bool findTarget(Symbol name, Vec3& out) const override
    {
        if (name.id() >= m_bySymbol.size())
            m_bySymbol.resize(name.id() + 1, 0);
        uint32_t& at = m_bySymbol[name.id()];
        if (at == 0)
        {
            const auto it = m_targetIndex.find(name.name());
            if (it == m_targetIndex.end())
                return false;
            at = static_cast<uint32_t>(it->second + 1);
        }
        out = *m_targets[at - 1].second;
        return true;
    }

  private:
    struct NameHash
    {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };

    /// The agent of a key, or nullptr.
    test::FakeAgent* record(AgentKey agent) const
    {
        return agent.value < m_byKey.size() ? m_byKey[agent.value] : nullptr;
    }

    test::FakeWorld& m_fake;
    std::vector<test::FakeAgent*> m_byKey; ///< The fake's key → its agent (null: none).
    std::unordered_map<std::string_view, test::FakeAgent*, NameHash, std::equal_to<>>
        m_agents; ///< Keys view the names in m_fake's maps (never changed here).
    std::vector<std::pair<std::string_view, const Vec3*>>
        m_targets; ///< Agents, then objects not named as an agent.
    std::unordered_map<std::string_view, size_t, NameHash, std::equal_to<>>
        m_targetIndex; ///< Name → m_targets index.
    mutable std::vector<uint32_t> m_bySymbol; ///< Symbol id → m_targets index + 1 (0: not looked up yet).
};

struct Options
{
    int brains = 10000;
    int repeats = 7;
    int warmup = 30;
    int frames = 120;
    double maxAllocsPerEvent =
        -1.0;               ///< Fail when allocations exceed this many per recorded event (< 0: no check).
    bool callgrind = false; ///< Run the counted loop under valgrind and print instructions per tick.
    bool callgrindChild = false; ///< Inside valgrind: build, warm, run the counted frames once.
    std::vector<std::string> hosts{"indexed", "fake"}; ///< Hosts to run, in order.
    std::string outDir = "/tmp";
};

struct BenchWorld
{
    test::FakeWorld world;
    AiState state;
    std::unique_ptr<IndexedWorld> indexed; ///< Over `world`, made after the agents.

    /// The host the brains tick with.
    World& host(const std::string& name) { return name == "fake" ? static_cast<World&>(world) : *indexed; }
};

[[noreturn]] void fail(const std::string& what)
{
    std::fprintf(stderr, "ai_bench: %s\n", what.c_str());
    std::exit(1);
}

std::unique_ptr<BenchWorld> makeWorld(int brains)
{
    auto owner = std::make_unique<BenchWorld>();
    BenchWorld& b = *owner;
    auto tree = compileTree(json::parse(kTree));
    if (!tree.ok())
        fail("bench tree: " + tree.error().message);
    if (tree->nodes.size() != 30)
        fail("bench tree has " + std::to_string(tree->nodes.size()) + " nodes, not 30");
    putTree(b.state, std::move(tree.value()));
    Rng rng = rngFromSeed(99);
    b.world.objects["Player"] = Vec3(0, 0, 0);
    for (int i = 0; i < brains; ++i)
    {
        char name[32];
        std::snprintf(name, sizeof name, "agent%05d", i);
        test::FakeAgent a;
        a.position = Vec3(rngNextRange(rng, -100, 100), 0, rngNextRange(rng, -100, 100));
        a.speed = 3;
        b.world.agents[name] = a;
        BrainDef def = defaultBrainDef();
        def.agent = name;
        def.agentKey = b.world.keyOf(name);
        def.tree = "bench";
        def.seed = static_cast<uint64_t>(i);
        const Vec3 p = a.position;
        def.blackboard = blackboardFromJson({{"target", "Player"},
                                             {"health", i % 10 == 0 ? 10 : 100},
                                             {"safe", {p.x + 20, 0, p.z}},
                                             {"route", {{p.x, 0, p.z}, {p.x + 10, 0, p.z}, {p.x + 10, 0, p.z + 10}}}});
        if (!attachBrain(b.state, def, 0).ok())
            fail("attachBrain failed");
    }
    b.indexed = std::make_unique<IndexedWorld>(b.world);
    return owner;
}

/// One frame of thinking: every brain ticks once. Out of line so that callgrind
/// can count it by name (--toggle-collect) when callgrind.h is not there.
[[gnu::noinline]] void tickFrame(AiState& state, World& world, uint64_t frame)
{
    stepBrains(state, world, TickClock{frame, kDt});
}

/// Events recorded since `fromSeq`, added to `io` by kind.
void countEvents(const EventLog& log, uint64_t fromSeq, std::map<std::string, uint64_t>& io)
{
    for (const AiEvent& e : log.events)
        if (e.seq >= fromSeq)
            io[e.kind] += 1;
}

uint64_t totalTicks(const AiState& state)
{
    uint64_t t = 0;
    for (const Brain& brain : state.brains)
        t += brain.ticks;
    return t;
}

/// The untimed part of a frame: the world moves, the log is trimmed (so the
/// log's own window never shifts inside a timed tick).
void afterFrame(BenchWorld& b, std::map<std::string, uint64_t>* events, uint64_t fromSeq)
{
    if (events)
        countEvents(b.state.events, fromSeq, *events);
    b.world.step(kDt);
    if (b.state.events.events.size() > 50000)
        b.state.events.events.clear();
}

struct RepeatResult
{
    double seconds = 0;       ///< Thread CPU of the timed stepBrains calls. [s]
    uint64_t ticks = 0;       ///< Brain ticks in the timed frames.
    uint64_t allocations = 0; ///< Allocations inside the timed calls.
    uint64_t events = 0;      ///< Events recorded in the timed frames.
    std::map<std::string, uint64_t> eventsByKind;
    std::map<std::string, int> rootStatus; ///< Root status after the last frame → brains.
    int enabled = 0;
    uint64_t hash = 0;
};

RepeatResult runRepeat(const Options& o, const std::string& hostName)
{
    const std::unique_ptr<BenchWorld> owner = makeWorld(o.brains);
    BenchWorld& b = *owner;
    World& host = b.host(hostName);
    uint64_t frame = 0;
    for (int f = 0; f < o.warmup; ++f, ++frame)
    {
        tickFrame(b.state, host, frame);
        afterFrame(b, nullptr, 0);
    }
    RepeatResult r;
    const uint64_t ticksBefore = totalTicks(b.state);
    for (int f = 0; f < o.frames; ++f, ++frame)
    {
        const uint64_t seq = b.state.events.nextSeq;
        const uint64_t allocs = g_allocations.load(std::memory_order_relaxed);
        const double t0 = threadSeconds();
        tickFrame(b.state, host, frame);
        const double t1 = threadSeconds();
        r.allocations += g_allocations.load(std::memory_order_relaxed) - allocs;
        r.seconds += t1 - t0;
        r.events += b.state.events.nextSeq - seq;
        afterFrame(b, &r.eventsByKind, seq);
    }
    r.ticks = totalTicks(b.state) - ticksBefore;
    for (const Brain& brain : std::as_const(b.state.brains))
    {
        r.enabled += brain.enabled;
        r.rootStatus[nodeStatusName(brain.status)] += 1;
    }
    r.hash = hashAiState(b.state);
    return r;
}

/// One host's table; returns its final hash (the hosts must agree).
uint64_t runHost(const Options& o, const std::string& hostName)
{
    std::printf("\nhost %s: %d brains, 30-node tree, %d warm-up + %d timed frames, %d repeats (thread CPU)\n",
                hostName.c_str(), o.brains, o.warmup, o.frames, o.repeats);
    std::vector<double> usPerTick;
    std::vector<double> allocsPerTick;
    RepeatResult last;
    bool sameEverywhere = true;
    for (int rep = 0; rep < o.repeats; ++rep)
    {
        RepeatResult r = runRepeat(o, hostName);
        const uint64_t expected = static_cast<uint64_t>(o.brains) * static_cast<uint64_t>(o.frames);
        if (r.ticks != expected)
            fail("brains ticked " + std::to_string(r.ticks) + " times, expected " + std::to_string(expected));
        const double us = r.seconds * 1e6 / static_cast<double>(r.ticks);
        usPerTick.push_back(us);
        allocsPerTick.push_back(static_cast<double>(r.allocations) / static_cast<double>(r.ticks));
        std::printf("  repeat %d: %.4f µs/tick  %llu allocations  %llu events  hash %016llx\n", rep + 1, us,
                    static_cast<unsigned long long>(r.allocations), static_cast<unsigned long long>(r.events),
                    static_cast<unsigned long long>(r.hash));
        if (rep > 0 && (r.hash != last.hash || r.events != last.events || r.allocations != last.allocations))
            sameEverywhere = false;
        last = std::move(r);
    }
    std::printf(
        "per brain tick (%s host): median %.4f µs  mean %.4f µs  spread %.1f%%  (thread CPU, %d repeats)\n",
        hostName.c_str(), median(usPerTick), mean(usPerTick), spreadPercent(usPerTick), o.repeats);
    std::printf("brains ticked per repeat: %llu (%d brains × %d frames)\n",
                static_cast<unsigned long long>(last.ticks), o.brains, o.frames);
    std::printf(
        "allocations in the timed ticks: %llu (%.4f per tick) for %llu recorded events (%.2f per event)\n",
        static_cast<unsigned long long>(last.allocations), median(allocsPerTick),
        static_cast<unsigned long long>(last.events),
        last.events ? static_cast<double>(last.allocations) / static_cast<double>(last.events) : 0.0);
    std::printf("quality: %d of %d brains enabled; root status after the last frame:", last.enabled,
                o.brains);
    for (const auto& [status, n] : last.rootStatus)
        std::printf(" %s %d", status.c_str(), n);
    std::printf("\nevents in the timed frames:");
    for (const auto& [kind, n] : last.eventsByKind)
        std::printf(" %s %llu", kind.c_str(), static_cast<unsigned long long>(n));
    std::printf("\nfinal AI state hash %016llx (%s in every repeat)\n",
                static_cast<unsigned long long>(last.hash), sameEverywhere ? "the same" : "NOT the same");
    if (!sameEverywhere)
        fail("the repeats differ: the run is not deterministic");
    if (last.enabled != o.brains)
        fail("a brain was disabled");
    if (o.maxAllocsPerEvent >= 0.0 &&
        static_cast<double>(last.allocations) > o.maxAllocsPerEvent * static_cast<double>(last.events))
    {
        char limit[32];
        std::snprintf(limit, sizeof limit, "%g", o.maxAllocsPerEvent);
        fail(std::string("more than ") + limit + " allocations per recorded event");
    }
    return last.hash;
}

int runTable(const Options& o)
{
    std::vector<uint64_t> hashes;
    for (const std::string& host : o.hosts)
        hashes.push_back(runHost(o, host));
    for (uint64_t h : hashes)
        if (h != hashes.front())
            fail("the hosts end in different AI states");
    return 0;
}

/// Inside valgrind: build and warm untimed, then count the timed frames only.
int runCallgrindChild(const Options& o)
{
    const std::unique_ptr<BenchWorld> owner = makeWorld(o.brains);
    BenchWorld& b = *owner;
    World& host = b.host(o.hosts.front());
    uint64_t frame = 0;
    for (int f = 0; f < o.warmup; ++f, ++frame)
    {
        tickFrame(b.state, host, frame);
        afterFrame(b, nullptr, 0);
    }
    const uint64_t ticksBefore = totalTicks(b.state);
    for (int f = 0; f < o.frames; ++f, ++frame)
    {
#if SPARK_AI_BENCH_CALLGRIND
        CALLGRIND_TOGGLE_COLLECT;
#endif
        tickFrame(b.state, host, frame);
#if SPARK_AI_BENCH_CALLGRIND
        CALLGRIND_TOGGLE_COLLECT;
#endif
        afterFrame(b, nullptr, 0);
    }
    std::printf("ticks %llu\n", static_cast<unsigned long long>(totalTicks(b.state) - ticksBefore));
    return 0;
}

int runCallgrind(const Options& o)
{
    const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
    std::error_code ignored;
    std::filesystem::create_directories(o.outDir, ignored);
    const std::string toggle = SPARK_AI_BENCH_CALLGRIND ? "" : " --toggle-collect='*tickFrame*'";
    const double ticks = static_cast<double>(o.brains) * static_cast<double>(o.frames);
    std::vector<std::string> lines;
    for (const std::string& host : o.hosts)
    {
        const std::string file = o.outDir + "/ai_bench." + host + ".callgrind";
        const std::string cmd =
            "valgrind --tool=callgrind --collect-atstart=no" + toggle + " --callgrind-out-file=" + file +
            " " + self + " --callgrind-child --host=" + host + " --brains=" + std::to_string(o.brains) +
            " --warmup=" + std::to_string(o.warmup) + " --frames=" + std::to_string(o.frames) +
            " >/dev/null 2>" + file + ".log";
        std::printf("%s\n", cmd.c_str());
        std::fflush(stdout);
        if (std::system(cmd.c_str()) != 0)
            fail("valgrind failed (see " + file + ".log)");
        char line[256];
        std::snprintf(line, sizeof line, "  %-8s %10.1f   (callgrind_annotate --inclusive=yes %s | head -40)",
                      host.c_str(), static_cast<double>(spark::bench::callgrindTotal(file)) / ticks,
                      file.c_str());
        lines.push_back(line);
    }
    std::printf("\ninstructions per brain tick (callgrind Ir, %d brains × %d frames after %d warm-up):\n",
                o.brains, o.frames, o.warmup);
    for (const std::string& l : lines)
        std::printf("%s\n", l.c_str());
    return 0;
}

Options parseOptions(int argc, char** argv)
{
    Options o;
    auto intArg = [](const std::string& arg, size_t prefix) { return std::atol(arg.c_str() + prefix); };
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        if (arg.rfind("--brains=", 0) == 0)
            o.brains = static_cast<int>(intArg(arg, 9));
        else if (arg.rfind("--repeats=", 0) == 0)
            o.repeats = static_cast<int>(intArg(arg, 10));
        else if (arg.rfind("--warmup=", 0) == 0)
            o.warmup = static_cast<int>(intArg(arg, 9));
        else if (arg.rfind("--frames=", 0) == 0)
            o.frames = static_cast<int>(intArg(arg, 9));
        else if (arg.rfind("--max-allocs-per-event=", 0) == 0)
        {
            // A decimal (7.25 pins today's figure exactly); anything else is refused.
            const char* text = arg.c_str() + 23;
            char* end = nullptr;
            o.maxAllocsPerEvent = std::strtod(text, &end);
            if (end == text || *end != '\0' || !std::isfinite(o.maxAllocsPerEvent) ||
                o.maxAllocsPerEvent < 0.0)
            {
                std::fprintf(stderr, "ai_bench: --max-allocs-per-event takes a number >= 0\n");
                std::exit(2);
            }
        }
        else if (arg.rfind("--out=", 0) == 0)
            o.outDir = arg.substr(6);
        else if (arg.rfind("--host=", 0) == 0)
        {
            o.hosts.clear();
            std::string list = arg.substr(7);
            for (size_t at = 0; at <= list.size();)
            {
                const size_t comma = std::min(list.find(',', at), list.size());
                o.hosts.push_back(list.substr(at, comma - at));
                at = comma + 1;
            }
        }
        else if (arg == "--callgrind")
            o.callgrind = true;
        else if (arg == "--callgrind-child")
            o.callgrindChild = true;
        else
        {
            std::fprintf(stderr,
                         "usage: ai_bench [--brains=N] [--repeats=N] [--warmup=N] [--frames=N] "
                         "[--host=indexed,fake] [--max-allocs-per-event=X] [--callgrind [--out=DIR]]\n");
            std::exit(2);
        }
    }
    bool hostsKnown = !o.hosts.empty();
    for (const std::string& h : o.hosts)
        hostsKnown = hostsKnown && (h == "indexed" || h == "fake");
    if (!hostsKnown)
    {
        std::fprintf(stderr, "ai_bench: --host takes indexed and/or fake\n");
        std::exit(2);
    }
    if (o.brains < 1 || o.brains > 1000000 || o.repeats < 1 || o.warmup < 0 || o.frames < 1)
    {
        std::fprintf(stderr, "ai_bench: --brains 1..1000000, --repeats >= 1, --warmup >= 0, --frames >= 1\n");
        std::exit(2);
    }
    return o;
}

} // namespace

int main(int argc, char** argv)
{
    const Options o = parseOptions(argc, argv);
    if (o.callgrindChild)
        return runCallgrindChild(o);
    if (o.callgrind)
        return runCallgrind(o);
    return runTable(o);
}
