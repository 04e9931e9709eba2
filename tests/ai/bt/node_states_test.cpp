// Packed node states (NodeStates), the brain's agent key and named targets
// kept from tick to tick: what a node keeps round-trips, what its kind cannot
// set is dropped, the tree's layout matches its brains', every call for the
// agent takes the key the host gave (or re-bound), and a host sees each
// target's symbol (and a new name when the blackboard changes).
// GCC 12 warns falsely (-Wrestrict, GCC bug 105329) in std::string code inlined
// from the rig into this file.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wrestrict"
#include "../rig.h"
#pragma GCC diagnostic pop

#include <cstring>

using namespace spark;
using namespace spark::ai;
using namespace spark::ai::test;

namespace
{

NodeState fullState()
{
    NodeState s;
    s.status = NodeStatus::Running;
    s.cursor = 3;
    s.counter = 7;
    s.startTime = 1.5;
    s.readyAt = 2.25;
    s.flag = true;
    s.point = Vec3(1, 2, 3);
    return s;
}

bool same(const NodeState& a, const NodeState& b)
{
    return a.status == b.status && a.cursor == b.cursor && a.counter == b.counter && a.startTime == b.startTime &&
           a.readyAt == b.readyAt && a.flag == b.flag && a.point == b.point;
}

/// A host that counts name look-ups of targets (the fake world behind it).
class CountingWorld final : public World
{
public:
    explicit CountingWorld(FakeWorld& fake) : m_fake(fake) {}
    mutable int lookups = 0;  ///< findTarget calls that had to look the name up.
    mutable int keptRefs = 0; ///< findTarget calls that found the name by its symbol's id.

    mutable std::vector<AgentKey> keysSeen; ///< The key of every call for an agent, call by call.

    bool agentExists(AgentKey a) const override { return seen(a).agentExists(a); }
    bool agentPosition(AgentKey a, Vec3& out) const override { return seen(a).agentPosition(a, out); }
    Vec3 agentVelocity(AgentKey a) const override { return seen(a).agentVelocity(a); }
    Vec3 agentForward(AgentKey a) const override { return seen(a).agentForward(a); }
    MoveState moveState(AgentKey a) const override { return seen(a).moveState(a); }
    void requestMove(AgentKey a, const Vec3& t, double d) override { m_fake.requestMove(seenKey(a), t, d); }
    void stop(AgentKey a) override { m_fake.stop(seenKey(a)); }
    void face(AgentKey a, const Vec3& d) override { m_fake.face(seenKey(a), d); }
    void setSpeed(AgentKey a, double s) override { m_fake.setSpeed(seenKey(a), s); }
    bool lineOfSight(AgentKey a, const Vec3& f, const Vec3& t) const override
    {
        return seen(a).lineOfSight(a, f, t);
    }
    bool hasPath(AgentKey a, const Vec3& t) const override { return seen(a).hasPath(a, t); }

    mutable std::vector<Symbol> targetsSeen; ///< The symbols findTarget was given, call by call.

    // Keeps what it found by the symbol's id, as a host with an index would.
    bool findTarget(Symbol name, Vec3& out) const override
    {
        targetsSeen.push_back(name);
        if (name.id() < m_known.size() && m_known[name.id()])
            keptRefs += 1;
        else
        {
            lookups += 1;
            if (name.id() >= m_known.size())
                m_known.resize(name.id() + 1, false);
            m_known[name.id()] = m_fake.objects.count(name.name()) == 1;
        }
        return m_fake.findPosition(name.name(), out);
    }

private:
    const FakeWorld& seen(AgentKey a) const
    {
        keysSeen.push_back(a);
        return m_fake;
    }
    AgentKey seenKey(AgentKey a) const
    {
        keysSeen.push_back(a);
        return a;
    }

    mutable std::vector<bool> m_known; ///< Symbol id → an object of that name was found.
    FakeWorld& m_fake;
};

} // namespace

TEST_CASE("node states: each memory keeps its fields, the others read as defaults")
{
    const NodeMemory kinds[] = {NodeMemory::None,  NodeMemory::Cursor, NodeMemory::StartTime, NodeMemory::ReadyAt,
                                NodeMemory::Flag,  NodeMemory::Point,  NodeMemory::Patrol,    NodeMemory::Full};
    NodeStates states(kinds);
    REQUIRE(states.size() == 8);
    CHECK(states.hasMemories(kinds));
    for (size_t i = 0; i < states.size(); ++i)
    {
        CHECK(same(states.at(i), NodeState{}));
        CHECK(states.memory(i) == kinds[i]);
    }
    for (size_t i = 0; i < states.size(); ++i)
        states.set(i, fullState());
    const NodeState full = fullState();
    for (size_t i = 0; i < states.size(); ++i)
    {
        const NodeState s = states.at(i);
        CHECK(s.status == NodeStatus::Running);
        const NodeMemory m = kinds[i];
        CHECK(s.cursor == (m == NodeMemory::Cursor || m == NodeMemory::Full ? full.cursor : 0));
        CHECK(s.counter == (m == NodeMemory::Patrol || m == NodeMemory::Full ? full.counter : 0));
        CHECK(s.startTime == (m == NodeMemory::StartTime || m == NodeMemory::Full ? full.startTime : 0.0));
        CHECK(s.readyAt == (m == NodeMemory::ReadyAt || m == NodeMemory::Full ? full.readyAt : 0.0));
        CHECK(s.flag == (m == NodeMemory::Flag || m == NodeMemory::Full));
        const bool point = m == NodeMemory::Point || m == NodeMemory::Patrol || m == NodeMemory::Full;
        CHECK(s.point == (point ? full.point : Vec3(0, 0, 0)));
        CHECK(states.status(i) == NodeStatus::Running);
    }
    // forEach walks the same states as at().
    size_t visited = 0;
    states.forEach([&](size_t i, const NodeState& s) {
        CHECK(same(s, states.at(i)));
        ++visited;
    });
    CHECK(visited == states.size());
    // A copy is equal; a change makes it differ.
    NodeStates copy = states;
    CHECK(copy == states);
    copy.set(1, NodeState{});
    CHECK_FALSE(copy == states);
    const NodeMemory other[] = {NodeMemory::Cursor};
    CHECK_FALSE(states.hasMemories(other));
    // The kinds (kept after the memories) are intact after every memory was written.
    for (size_t i = 0; i < states.size(); ++i)
        CHECK(states.memory(i) == kinds[i]);
    CHECK(states.byteSize() == NodeStates::stateBytes(8, 0 + 4 + 8 + 8 + 1 + 24 + 44 + 49));
}

TEST_CASE("node states: a copy is its own, a move leaves no nodes behind")
{
    const NodeMemory kinds[] = {NodeMemory::Cursor, NodeMemory::Point, NodeMemory::Flag};
    NodeStates states(kinds);
    states.set(1, fullState());
    NodeStates copy(states);
    copy.set(1, NodeState{});
    CHECK(states.at(1).point == Vec3(1, 2, 3));
    CHECK(copy.at(1).point == Vec3(0, 0, 0));
    NodeStates moved(std::move(states));
    CHECK(moved.size() == 3);
    CHECK(moved.at(1).point == Vec3(1, 2, 3));
    CHECK(states.size() == 0); // NOLINT(bugprone-use-after-move): the moved-from state is specified
    CHECK(states.byteSize() == 0);
    CHECK(states.empty());
    copy = std::move(moved);
    CHECK(copy.at(1).point == Vec3(1, 2, 3));
    CHECK(moved.empty()); // NOLINT(bugprone-use-after-move)
    NodeStates none;
    copy = none;
    CHECK(copy.empty());
    CHECK(copy == none);
}

TEST_CASE("node states: a compiled tree lays out what its brains keep")
{
    Rig rig(R"({"version": 1, "name": "t", "root": {"type": "selector", "children": [
        {"type": "sequence", "children": [{"type": "check", "key": "k", "op": "exists"},
                                          {"type": "timeout", "seconds": 5, "child": {"type": "wait", "seconds": 1}}]},
        {"type": "cooldown", "seconds": 1, "child": {"type": "condition", "name": "can_see", "params": {"target": [0, 0, -5]}}},
        {"type": "action", "name": "move_to", "params": {"target": [4, 0, 0]}},
        {"type": "action", "name": "patrol", "params": {"points": [[1, 0, 0], [2, 0, 0]]}}]}})");
    const CompiledTree& tree = rig.state.trees.at("t");
    const NodeMemory expected[] = {NodeMemory::Cursor,  NodeMemory::Cursor, NodeMemory::None,
                                   NodeMemory::StartTime, NodeMemory::StartTime, NodeMemory::ReadyAt,
                                   NodeMemory::Flag,    NodeMemory::Point,  NodeMemory::Patrol};
    REQUIRE(tree.memories.size() == std::size(expected));
    for (size_t i = 0; i < tree.nodes.size(); ++i)
        CHECK(tree.nodes[i].memory == expected[i]);
    rig.tick();
    CHECK(rig.brain().nodes.hasMemories(tree.memories));
    CHECK(rig.brain().nodes.byteSize() == tree.stateBytes);
    // The running move_to keeps its requested target; the selector its cursor.
    CHECK(rig.nodeStatus(7) == NodeStatus::Running);
    CHECK(rig.brain().nodes.at(7).point == Vec3(4, 0, 0));
    CHECK(rig.brain().nodes.at(0).cursor == 2);
    // Memories go by kind after the statuses: the cursors first (node order),
    // then the flag, the patrol, the timers, the point; the kinds come last.
    const size_t n = tree.nodes.size();
    CHECK(tree.nodes[0].memoryOffset == n);
    CHECK(tree.nodes[1].memoryOffset == n + 4);
    CHECK(tree.nodes[6].memoryOffset == n + 8);
    CHECK(tree.nodes[8].memoryOffset == n + 9);
    CHECK(tree.nodes[3].memoryOffset == n + 9 + 44);
    CHECK(tree.nodes[4].memoryOffset == n + 9 + 44 + 8);
    CHECK(tree.nodes[5].memoryOffset == n + 9 + 44 + 16);
    CHECK(tree.nodes[7].memoryOffset == n + 9 + 44 + 24);
    CHECK(tree.stateBytes == n + 9 + 44 + 24 + 24 + n);
    // The tick (tree offsets) and the state's own accessors see the same bytes.
    NodeStates& states = rig.brain().nodes;
    int32_t cursor = 0;
    std::memcpy(&cursor, states.bytes() + tree.nodes[0].memoryOffset, sizeof cursor);
    CHECK(cursor == 2);
    double pointX = 0;
    std::memcpy(&pointX, states.bytes() + tree.nodes[7].memoryOffset, sizeof pointX);
    CHECK(pointX == 4.0);
}

TEST_CASE("the brain's agent: every call takes the key given at attach, and the key the host re-binds")
{
    Rig rig(R"({"version": 1, "name": "t", "root": {"type": "action", "name": "stop"}})");
    const AgentKey a = rig.world.keyOf("A");
    CHECK(rig.brain().agentKey == a);
    CountingWorld host(rig.world);
    for (int i = 0; i < 3; ++i)
        REQUIRE(tickBrain(rig.state, rig.brain(), host, TickClock{rig.frame++, rig.dt}, rig.leaves).ok());
    REQUIRE(host.keysSeen.size() == 6); // agentExists, then stop, per tick
    for (const AgentKey k : host.keysSeen)
        CHECK(k == a);
    CHECK(rig.agent().stops == 3);
    // The host re-binds the brain to another agent: the next tick asks for that one.
    rig.world.agents["B"] = FakeAgent{};
    const AgentKey b = rig.world.keyOf("B");
    rig.brain().agentKey = b;
    REQUIRE(tickBrain(rig.state, rig.brain(), host, TickClock{rig.frame++, rig.dt}, rig.leaves).ok());
    CHECK(host.keysSeen.end()[-2] == b);
    CHECK(host.keysSeen.end()[-1] == b);
    CHECK(rig.world.agent("B").stops == 1);
    CHECK(rig.agent().stops == 3);
    // A key whose agent is gone fails the tick as an unknown agent did, by the brain's name.
    rig.world.agents.erase("B");
    const Status gone = tickBrain(rig.state, rig.brain(), host, TickClock{rig.frame++, rig.dt}, rig.leaves);
    REQUIRE(!gone.ok());
    CHECK(gone.error().code == "E_AI_UNKNOWN");
    CHECK(gone.error().message == "no agent named 'A'");
    CHECK(host.keysSeen.back() == b);
    CHECK(!rig.brain().enabled);
}

TEST_CASE("named targets: the host gets each target's symbol, and may keep what it found by its id")
{
    Rig rig(R"({"version": 1, "name": "t", "root": {"type": "sequence", "children": [
        {"type": "condition", "name": "within", "params": {"target": {"bb": "goal"}, "distance": 1000}},
        {"type": "condition", "name": "within", "params": {"target": "Door", "distance": 1000}}]}})",
            {{"goal", "Tower"}});
    rig.world.objects["Door"] = Vec3(1, 0, 0);
    rig.world.objects["Tower"] = Vec3(5, 0, 0);
    CountingWorld host(rig.world);
    auto tick = [&] {
        REQUIRE(tickBrain(rig.state, rig.brain(), host, TickClock{rig.frame, rig.dt}, rig.leaves).ok());
        ++rig.frame;
        return rig.brain().status;
    };
    CHECK(tick() == NodeStatus::Success);
    REQUIRE(host.targetsSeen.size() == 2);
    CHECK(host.targetsSeen[0] == Symbol::intern("Tower"));
    CHECK(host.targetsSeen[1] == Symbol::intern("Door"));
    CHECK(host.lookups == 2); // both names, once
    for (int i = 0; i < 5; ++i)
        CHECK(tick() == NodeStatus::Success);
    CHECK(host.lookups == 2);
    CHECK(host.keptRefs == 10);
    // The blackboard names another target: the host sees its symbol at the next tick.
    rig.brain().blackboard["goal"] = "Nowhere";
    CHECK(tick() == NodeStatus::Failure); // a target that does not exist fails the condition
    CHECK(host.targetsSeen.back() == Symbol::intern("Nowhere"));
    rig.brain().blackboard.assign(Blackboard{{"goal", "Door"}});
    CHECK(tick() == NodeStatus::Success);
    CHECK(host.targetsSeen.end()[-2] == Symbol::intern("Door"));
    CHECK(host.targetsSeen.end()[-1] == Symbol::intern("Door"));
    // A copied state's brain names what its own blackboard holds.
    AiState copy = rig.state;
    Brain& copied = *copy.brains.findBrain("A");
    copied.blackboard["goal"] = "Tower";
    REQUIRE(tickBrain(copy, copied, host, TickClock{rig.frame, rig.dt}, rig.leaves).ok());
    CHECK(host.targetsSeen.end()[-2] == Symbol::intern("Tower"));
    CHECK(tick() == NodeStatus::Success);
    CHECK(host.targetsSeen.end()[-2] == Symbol::intern("Door"));
}

TEST_CASE("named targets: a host without an index of its own finds them by name")
{
    Rig rig(R"({"version": 1, "name": "t", "root": {"type": "sequence", "children": [
        {"type": "condition", "name": "within", "params": {"target": {"bb": "goal"}, "distance": 2}},
        {"type": "condition", "name": "within", "params": {"target": "Door", "distance": 2}}]}})",
            {{"goal", "Tower"}});
    rig.world.objects["Door"] = Vec3(1, 0, 0);
    rig.world.objects["Tower"] = Vec3(1.5, 0, 0);
    CHECK(rig.tick() == "success");
    rig.world.objects["Tower"] = Vec3(50, 0, 0);
    CHECK(rig.tick() == "failure");
    rig.world.objects.erase("Tower");
    CHECK(rig.tick() == "failure");
    rig.brain().blackboard["goal"] = "Door";
    CHECK(rig.tick() == "success");
}
