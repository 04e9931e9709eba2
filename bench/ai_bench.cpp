// Ticks 10,000 brains running a 30-node behaviour tree against the fake world
// of points (tests/ai/fake_world.h): reactive selectors re-checking conditions,
// a chase with a timeout, a cooldown, a parallel patrol, blackboard writes.
// Reports the time per brain tick.
#include "../tests/ai/fake_world.h"
#include "spark/ai/brain.h"
#include "spark/core/rng.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>

using namespace spark;
using namespace spark::ai;

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

constexpr int kBrains = 10000;

struct BenchWorld
{
    test::FakeWorld world;
    AiState state;
};

BenchWorld makeWorld()
{
    BenchWorld b;
    auto tree = compileTree(json::parse(kTree));
    if (!tree.ok() || tree->nodes.size() != 30)
    {
        std::fprintf(stderr, "bench tree: %s (%zu nodes)\n", tree.ok() ? "wrong size" : tree.error().message.c_str(),
                     tree.ok() ? tree->nodes.size() : size_t{0});
        std::abort();
    }
    putTree(b.state, std::move(tree.value()));
    Rng rng = rngFromSeed(99);
    b.world.objects["Player"] = Vec3(0, 0, 0);
    for (int i = 0; i < kBrains; ++i)
    {
        char name[32];
        std::snprintf(name, sizeof name, "agent%05d", i);
        test::FakeAgent a;
        a.position = Vec3(rngNextRange(rng, -100, 100), 0, rngNextRange(rng, -100, 100));
        a.speed = 3;
        b.world.agents[name] = a;
        BrainDef def = defaultBrainDef();
        def.agent = name;
        def.tree = "bench";
        def.seed = static_cast<uint64_t>(i);
        const Vec3 p = a.position;
        def.blackboard = {{"target", "Player"},
                          {"health", i % 10 == 0 ? 10 : 100},
                          {"safe", {p.x + 20, 0, p.z}},
                          {"route", {{p.x, 0, p.z}, {p.x + 10, 0, p.z}, {p.x + 10, 0, p.z + 10}}}};
        if (!attachBrain(b.state, def, 0).ok())
            std::abort();
    }
    return b;
}

void BM_TickBrains30Nodes(benchmark::State& st)
{
    BenchWorld b = makeWorld();
    const double dt = 1.0 / 60.0;
    uint64_t frame = 0;
    for (auto _ : st)
    {
        stepBrains(b.state, b.world, TickClock{frame, dt});
        st.PauseTiming();
        b.world.step(dt);
        ++frame;
        if (b.state.events.events.size() > 50000)
            b.state.events.events.clear();
        st.ResumeTiming();
    }
    int enabled = 0;
    for (const auto& [name, brain] : b.state.brains)
        enabled += brain.enabled;
    if (enabled != kBrains)
        st.SkipWithError("a brain was disabled");
    st.SetItemsProcessed(st.iterations() * kBrains);
    // Seconds of CPU per brain tick (printed with a unit prefix, e.g. "2.1u" = 2.1 µs).
    st.counters["per_brain_tick"] = benchmark::Counter(static_cast<double>(st.iterations()) * kBrains,
                                                       benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_TickBrains30Nodes)->Unit(benchmark::kMillisecond)->MinTime(2.0);

} // namespace

BENCHMARK_MAIN();
