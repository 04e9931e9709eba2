// Packed node states (NodeStates) and named targets kept from tick to tick
// (World::locate): what a node keeps round-trips, what its kind cannot set is
// dropped, the tree's layout matches its brains', and a host sees the ref it
// resolved at the previous tick (and a new name when the blackboard changes).
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
    mutable int lookups = 0;  ///< locate calls that had to look the name up.
    mutable int keptRefs = 0; ///< locate calls whose ref from the previous call still named the target.

    bool agentExists(std::string_view a) const override { return m_fake.agentExists(a); }
    bool findPosition(std::string_view n, Vec3& out) const override { return m_fake.findPosition(n, out); }
    Vec3 agentVelocity(std::string_view a) const override { return m_fake.agentVelocity(a); }
    Vec3 agentForward(std::string_view a) const override { return m_fake.agentForward(a); }
    MoveState moveState(std::string_view a) const override { return m_fake.moveState(a); }
    void requestMove(std::string_view a, const Vec3& t, double d) override { m_fake.requestMove(a, t, d); }
    void stop(std::string_view a) override { m_fake.stop(a); }
    void face(std::string_view a, const Vec3& d) override { m_fake.face(a, d); }
    void setSpeed(std::string_view a, double s) override { m_fake.setSpeed(a, s); }
    bool lineOfSight(std::string_view a, const Vec3& f, const Vec3& t) const override
    {
        return m_fake.lineOfSight(a, f, t);
    }
    bool hasPath(std::string_view a, const Vec3& t) const override { return m_fake.hasPath(a, t); }

    mutable std::vector<AgentRef> agentRefsSeen; ///< What findAgent was given, call by call.
    /// The brain's agent as 42 tagged 7 (the ref it was given is kept in agentRefsSeen).
    bool findAgent(std::string_view agent, AgentRef& io) const override
    {
        agentRefsSeen.push_back(io);
        io.name = agent;
        io.id = m_fake.agentExists(agent) ? 42 : 0;
        io.tag = 7;
        return io.id != 0;
    }

    mutable std::vector<std::string> targetNamesSeen; ///< The names locate was given, call by call.
    mutable std::vector<const char*> targetNameData;  ///< Where those names' characters were.

    // The ref: 1 + the object's rank in the fake world's objects, tagged with the name's length.
    bool locate(TargetRef& io, Vec3& out) const override
    {
        targetNamesSeen.emplace_back(io.name);
        targetNameData.push_back(io.name.data());
        if (io.id != 0 && io.tag == io.name.size() && rankName(io.id) == io.name)
            keptRefs += 1;
        else
        {
            lookups += 1;
            io.id = 0;
            uint64_t rank = 1;
            for (const auto& [name, p] : m_fake.objects)
            {
                if (name == io.name)
                    io.id = rank;
                ++rank;
            }
            io.tag = io.name.size();
        }
        return findPosition(io.name, out);
    }

private:
    std::string_view rankName(uint64_t id) const
    {
        uint64_t rank = 1;
        for (const auto& [name, p] : m_fake.objects)
            if (rank++ == id)
                return name;
        return {};
    }
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

TEST_CASE("node states placed in an arena: same values, and never handed on by a copy or a move")
{
    const NodeMemory kinds[] = {NodeMemory::Cursor, NodeMemory::Point, NodeMemory::Flag};
    NodeStates states(kinds);
    states.set(1, fullState());
    const NodeStates before = states;
    REQUIRE(states.placedBytes() % 64 == 0);
    REQUIRE(states.placedBytes() >= states.byteSize());
    alignas(64) unsigned char arena[256];
    REQUIRE(states.placedBytes() <= sizeof arena);
    states.placeAt(arena);
    CHECK(states.bytes() == arena);
    CHECK(states == before);
    CHECK(states.at(1).point == Vec3(1, 2, 3));
    // Placed again (a new arena): moved, the same values.
    alignas(64) unsigned char arena2[256];
    states.placeAt(arena2);
    CHECK(states.bytes() == arena2);
    CHECK(states == before);
    // A copy and a move give states of their own; the placed ones stay as they were.
    NodeStates copy(states);
    CHECK(copy.bytes() != arena2);
    CHECK(copy == before);
    NodeStates moved(std::move(states));
    CHECK(moved.bytes() != arena2);
    CHECK(moved == before);
    CHECK(states.bytes() == arena2); // NOLINT(bugprone-use-after-move): a placed state is copied, not taken
    CHECK(states == before);
    // Assigning over placed states leaves the arena's bytes alone (nothing freed there).
    std::memset(arena, 0xAB, sizeof arena);
    states = NodeStates(kinds);
    CHECK(states.bytes() != arena2);
    CHECK(states.at(1).point == Vec3(0, 0, 0));
    CHECK(std::memcmp(arena2, before.bytes(), before.byteSize()) == 0);
    NodeStates none;
    none.placeAt(arena); // no lines: nothing placed
    CHECK(none.bytes() == nullptr);
    CHECK(arena[0] == 0xAB);
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

TEST_CASE("the brain's agent: the host gets back the id and tag it gave at the previous tick")
{
    Rig rig(R"({"version": 1, "name": "t", "root": {"type": "action", "name": "stop"}})");
    CountingWorld host(rig.world);
    for (int i = 0; i < 3; ++i)
        REQUIRE(tickBrain(rig.state, rig.brain(), host, TickClock{rig.frame++, rig.dt}, rig.leaves).ok());
    REQUIRE(host.agentRefsSeen.size() == 3);
    CHECK(host.agentRefsSeen[0].id == 0); // nothing resolved yet
    for (size_t i = 1; i < 3; ++i)
    {
        CHECK(host.agentRefsSeen[i].id == 42);
        CHECK(host.agentRefsSeen[i].tag == 7);
    }
    // haltBrain resolves the agent the same way.
    haltBrain(rig.state, rig.brain(), host, TickClock{rig.frame, rig.dt}, rig.leaves);
    REQUIRE(host.agentRefsSeen.size() == 4);
    CHECK(host.agentRefsSeen[3].id == 42);
}

TEST_CASE("named targets: the host keeps its ref from tick to tick, and sees a new name")
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
    CHECK(host.lookups == 2); // both call sites, once
    CHECK(host.keptRefs == 0);
    for (int i = 0; i < 5; ++i)
        CHECK(tick() == NodeStatus::Success);
    CHECK(host.lookups == 2);
    CHECK(host.keptRefs == 10);
    // The blackboard names another target: the host sees the new name with the old ref.
    rig.brain().blackboard["goal"] = "Door";
    CHECK(tick() == NodeStatus::Success);
    CHECK(host.lookups == 3);
    CHECK(host.keptRefs == 11);
    // A target that does not exist fails the condition (as by name).
    rig.brain().blackboard["goal"] = "Nowhere";
    CHECK(tick() == NodeStatus::Failure);
    CHECK(host.lookups == 4);
}

TEST_CASE("named targets: the host gets the current name, from the site's copy while it is unchanged")
{
    // Two call sites read the key: after a write the first one checks the new
    // value, so the second finds it checked with a stamp its copy is not of.
    Rig rig(R"({"version": 1, "name": "t", "root": {"type": "sequence", "children": [
        {"type": "condition", "name": "within", "params": {"target": {"bb": "goal"}, "distance": 1000}},
        {"type": "condition", "name": "within", "params": {"target": {"bb": "goal"}, "distance": 1000}}]}})",
            {{"goal", "Tower"}});
    const std::string longName(TargetMemo::kNameCapacity + 1, 'x');
    rig.world.objects["Door"] = Vec3(1, 0, 0);
    rig.world.objects["Tower"] = Vec3(5, 0, 0);
    rig.world.objects[longName] = Vec3(2, 0, 0);
    CountingWorld host(rig.world);
    auto tick = [&](AiState& state, Brain& brain)
    {
        REQUIRE(tickBrain(state, brain, host, TickClock{rig.frame, rig.dt}, rig.leaves).ok());
        ++rig.frame;
        return brain.status;
    };
    auto valueData = [](const Brain& brain)
    { return brain.blackboard.find("goal")->string().data(); };
    // The names both sites handed over at the last tick.
    auto lastNames = [&](const std::string& name)
    {
        REQUIRE(host.targetNamesSeen.size() >= 2);
        CHECK(host.targetNamesSeen.end()[-2] == name);
        CHECK(host.targetNamesSeen.end()[-1] == name);
    };
    for (int i = 0; i < 3; ++i)
        CHECK(tick(rig.state, rig.brain()) == NodeStatus::Success);
    REQUIRE(host.targetNamesSeen.size() == 6);
    for (const std::string& name : host.targetNamesSeen)
        CHECK(name == "Tower");
    // Once the value is known to fit (the first tick checks it), the name comes
    // from the site's copy, not from the value's string on the heap.
    CHECK(host.targetNameData[4] != valueData(rig.brain()));
    CHECK(host.targetNameData[5] != valueData(rig.brain()));
    CHECK(host.targetNameData[4] == host.targetNameData[2]);

    // Every write of the key is seen at the next tick, whatever the copy held.
    rig.brain().blackboard["goal"] = "Door";
    CHECK(tick(rig.state, rig.brain()) == NodeStatus::Success);
    lastNames("Door");
    CHECK(tick(rig.state, rig.brain()) == NodeStatus::Success);
    lastNames("Door");
    rig.brain().blackboard.assign(Blackboard{{"goal", "Tower"}});
    CHECK(tick(rig.state, rig.brain()) == NodeStatus::Success);
    lastNames("Tower");
    // A target that does not exist fails the first site (the second is not reached).
    rig.brain().blackboard["goal"] = "Nowhere";
    CHECK(tick(rig.state, rig.brain()) == NodeStatus::Failure);
    CHECK(host.targetNamesSeen.back() == "Nowhere");
    CHECK(tick(rig.state, rig.brain()) == NodeStatus::Failure);
    CHECK(host.targetNamesSeen.back() == "Nowhere");

    // A name too long to copy is handed over from the value itself, every tick.
    rig.brain().blackboard["goal"] = longName;
    for (int i = 0; i < 3; ++i)
    {
        CHECK(tick(rig.state, rig.brain()) == NodeStatus::Success);
        lastNames(longName);
        CHECK(host.targetNameData.end()[-2] == valueData(rig.brain()));
        CHECK(host.targetNameData.end()[-1] == valueData(rig.brain()));
    }
    // A short one again is copied again (not the copy from before the long name).
    rig.brain().blackboard["goal"] = "Door";
    for (int i = 0; i < 2; ++i)
    {
        CHECK(tick(rig.state, rig.brain()) == NodeStatus::Success);
        lastNames("Door");
    }

    // A copied state's brain keeps the copy it was given; writes to either
    // blackboard are seen by that brain only.
    AiState copy = rig.state;
    Brain& copied = *copy.brains.findBrain("A");
    copied.blackboard["goal"] = "Tower";
    CHECK(tick(copy, copied) == NodeStatus::Success);
    lastNames("Tower");
    CHECK(tick(rig.state, rig.brain()) == NodeStatus::Success);
    lastNames("Door");
    CHECK(tick(copy, copied) == NodeStatus::Success);
    lastNames("Tower");
    CHECK(host.targetNameData.back() != valueData(copied));
}

TEST_CASE("named targets: a brain notes the sites that named a target (their memos are asked for ahead)")
{
    Rig rig(R"({"version": 1, "name": "t", "root": {"type": "sequence", "children": [
        {"type": "condition", "name": "within", "params": {"target": {"bb": "spot"}, "distance": 1000}},
        {"type": "condition", "name": "within", "params": {"target": [1, 0, 0], "distance": 1000}},
        {"type": "condition", "name": "within", "params": {"target": {"bb": "goal"}, "distance": 1000}},
        {"type": "condition", "name": "within", "params": {"target": "Door", "distance": 1000}}]}})",
            {{"spot", {1, 0, 0}}, {"goal", "Tower"}});
    rig.world.objects["Door"] = Vec3(1, 0, 0);
    rig.world.objects["Tower"] = Vec3(5, 0, 0);
    CHECK(rig.tick() == "success");
    REQUIRE(rig.brain().resolved.targets.size() == 4);
    // A point (from the blackboard or literal) is not located through a memo.
    CHECK(rig.brain().resolved.namedSites == 0b1100u);
    // A tree loaded again gives the brain new memos, none read yet.
    putTree(rig.state, rig.state.trees.at("t"));
    rig.brain().blackboard["goal"] = json::array({5, 0, 0});
    CHECK(rig.tick() == "success");
    CHECK(rig.brain().resolved.namedSites == 0b1000u);
}
