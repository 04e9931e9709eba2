#pragma once
// A test rig: one agent "A" in a fake world, one brain, ticked frame by frame
// (with the built-in leaves, or a registry with the game's leaves too).
#include "fake_world.h"
#include "spark/ai/brain.h"
#include "spark/ai/leaf_registry.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace spark::ai::test
{

struct Rig
{
    FakeWorld world;
    AiState state;
    const LeafRegistry& leaves;
    double dt = 0.1;
    uint64_t frame = 0;

    explicit Rig(const std::string& treeJson, json blackboard = json::object(), uint64_t seed = 1)
        : Rig(builtinLeafRegistry(), treeJson, std::move(blackboard), seed)
    {
    }

    Rig(const LeafRegistry& registry, const std::string& treeJson, json blackboard = json::object(),
        uint64_t seed = 1)
        : leaves(registry)
    {
        world.agents["A"] = FakeAgent{};
        std::vector<Problem> problems;
        auto tree = compileTree(json::parse(treeJson), leaves, &problems);
        if (!tree.ok())
            for (const Problem& p : problems)
                MESSAGE(p.code << " " << p.path << " " << p.message);
        REQUIRE(tree.ok());
        const std::string name = tree->name;
        putTree(state, std::move(tree.value()));
        BrainDef def = defaultBrainDef();
        def.agent = "A";
        def.agentKey = world.keyOf("A");
        def.tree = name;
        def.blackboard = blackboardFromJson(blackboard);
        def.seed = seed;
        REQUIRE(attachBrain(state, def, 0).ok());
    }

    Brain& brain() { return *state.brains.findBrain("A"); }
    FakeAgent& agent() { return world.agent("A"); }
    NodeStatus nodeStatus(uint32_t i) { return brain().nodes.at(i).status; }

    /// Ticks the brain once, then moves the world by dt.
    std::string tick()
    {
        const Status s = tickBrain(state, brain(), world, TickClock{frame, dt}, leaves);
        if (!s.ok())
            MESSAGE(s.error().code << " " << s.error().message);
        REQUIRE(s.ok());
        world.step(dt);
        ++frame;
        return nodeStatusName(brain().status);
    }

    /// Statuses of `n` ticks.
    std::vector<std::string> run(int n)
    {
        std::vector<std::string> out;
        for (int i = 0; i < n; ++i)
            out.push_back(tick());
        return out;
    }

    /// Number of events of a kind.
    int count(const std::string& kind) const
    {
        int c = 0;
        for (const AiEvent& e : state.events.events)
            c += e.kind == kind;
        return c;
    }
};

using Seq = std::vector<std::string>;

} // namespace spark::ai::test
