// Brains: the guard sample end to end, periods, hashing, copy/restore.
#include "../rig.h"
#include "spark/core/hash.h"
#include "spark/core/path.h"

#include <cstdio>
#include <fstream>
#include <sstream>

using namespace spark;
using namespace spark::ai;
using namespace spark::ai::test;

namespace
{
std::string readSample(const char* path)
{
    std::ifstream in(path);
    REQUIRE(in.good());
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// The guard at (0, 0, 6) looking along +x, the player far away behind a wall.
Rig guardRig()
{
    Rig rig(readSample("samples/ai/guard.bt.json"), {{"target", "Player"}});
    rig.agent().position = Vec3(0, 0, 6);
    rig.agent().forward = Vec3(1, 0, 0);
    rig.agent().speed = 3;
    rig.world.objects["Player"] = Vec3(0, 0, -30);
    return rig;
}

/// Steps the rig's state and `copy` (in `copyWorld`) `frames` frames from the
/// rig's frame, the player moving the same in both worlds; they must stay bit
/// for bit equal.
void stepInLockstep(Rig& rig, AiState& copy, FakeWorld& copyWorld, int frames)
{
    for (int i = 0; i < frames; ++i)
    {
        const TickClock clock{rig.frame + static_cast<uint64_t>(i), rig.dt};
        rig.world.objects["Player"] = Vec3(4 + 0.1 * i, 0, 6 - 0.2 * i);
        copyWorld.objects["Player"] = rig.world.objects["Player"];
        stepBrains(rig.state, rig.world, clock);
        stepBrains(copy, copyWorld, clock);
        rig.world.step(rig.dt);
        copyWorld.step(rig.dt);
        REQUIRE(hashAiState(copy) == hashAiState(rig.state));
    }
    CHECK(copy.events.nextSeq == rig.state.events.nextSeq);
}

/// Adds a guard brain `name` at (x, 0, 6) to `state` (its agent to `world`),
/// running the rig's tree.
void addGuard(Rig& rig, AiState& state, FakeWorld& world, const std::string& name, double x)
{
    FakeAgent a;
    a.position = Vec3(x, 0, 6);
    a.forward = Vec3(1, 0, 0);
    a.speed = 3;
    world.agents[name] = a;
    BrainDef def = defaultBrainDef();
    def.agent = name;
    def.agentKey = world.keyOf(name);
    def.tree = rig.brain().tree;
    def.blackboard = {{"target", "Player"}};
    def.seed = static_cast<uint64_t>(x * 10);
    REQUIRE(attachBrain(state, def, rig.frame).ok());
}

} // namespace

TEST_CASE("the guard patrols, chases the player it sees and goes back to patrolling when it loses sight")
{
    Rig rig = guardRig();
    rig.run(60);
    CHECK(rig.count("waypoint") >= 1);
    CHECK(rig.count("spotted") == 0);
    const auto& patrolNode = rig.state.trees.at("guard").nodes.back();
    CHECK(patrolNode.label == "patrol posts");
    CHECK(patrolNode.path == "/subtrees/patrol");

    // The player steps in front of the guard: chase.
    const Vec3 g = rig.agent().position;
    const Vec3 f = rig.agent().forward;
    rig.world.objects["Player"] = g + f * 6.0;
    CHECK(rig.tick() == "running");
    CHECK(rig.count("spotted") == 1);
    CHECK(rig.agent().target == rig.world.objects["Player"]);
    const int stopsBefore = rig.agent().stops;
    const std::vector<uint32_t> running = runningNodes(rig.state, rig.brain());
    REQUIRE(running.size() == 3); // selector, chase sequence, move_to
    CHECK(rig.state.trees.at("guard").nodes[running.back()].label == "chase target");
    CHECK(stopsBefore >= 1); // the patrol was halted

    // The guard catches up.
    for (int i = 0; i < 30 && rig.count("arrived") == 0; ++i)
        rig.tick();
    CHECK(rig.count("arrived") >= 1);

    // The player hides behind a wall: lost sight, the chase is halted, patrol resumes.
    const Vec3 p = rig.world.objects["Player"];
    rig.world.walls.push_back({p.x - 0.6, p.z - 0.6, p.x - 0.3, p.z + 0.6});
    rig.world.walls.push_back({p.x + 0.3, p.z - 0.6, p.x + 0.6, p.z + 0.6});
    rig.world.walls.push_back({p.x - 0.6, p.z - 0.6, p.x + 0.6, p.z - 0.3});
    rig.world.walls.push_back({p.x - 0.6, p.z + 0.3, p.x + 0.6, p.z + 0.6});
    CHECK(rig.tick() == "running");
    CHECK(rig.count("lost_sight") == 1);
    const std::vector<uint32_t> after = runningNodes(rig.state, rig.brain());
    REQUIRE(after.size() == 2); // selector, patrol
    CHECK(rig.state.trees.at("guard").nodes[after.back()].label == "patrol posts");
}

TEST_CASE("a copied AI state ticks on bit for bit like the original")
{
    Rig rig = guardRig();
    rig.run(30);
    rig.world.objects["Player"] = Vec3(4, 0, 6);
    rig.run(5);
    AiState copy = rig.state;
    FakeWorld copyWorld = rig.world;
    CHECK(hashAiState(copy) == hashAiState(rig.state));
    stepInLockstep(rig, copy, copyWorld, 100);
}

TEST_CASE("the AI hash covers blackboards, running nodes and events")
{
    Rig rig = guardRig();
    const uint64_t h0 = hashAiState(rig.state);
    rig.brain().blackboard["x"] = 1;
    const uint64_t h1 = hashAiState(rig.state);
    CHECK(h1 != h0);
    rig.tick();
    const uint64_t h2 = hashAiState(rig.state);
    CHECK(h2 != h1);
    AiState same = rig.state;
    CHECK(hashAiState(same) == h2);
    pushEvent(same.events, 0, 0, "emitted", "A", {{"name", "x"}});
    CHECK(hashAiState(same) != h2);
}

TEST_CASE("the AI hash re-hashes only the brains reached for a change since the last one")
{
    // Issue 42: ai.blackboard.set on 1,000 brains re-hashed every brain. Each
    // brain now enters the hash by a digest it keeps until it is reached for a
    // change; the hash equals that of a copy whose digests are all taken anew.
    Rig rig = guardRig();
    for (int i = 0; i < 40; ++i)
    {
        BrainDef def = defaultBrainDef();
        def.agent = "G" + std::to_string(100 + i);
        def.tree = rig.brain().tree;
        def.blackboard = {{"target", "Player"}, {"n", i}};
        def.agentKey = rig.world.keyOf(def.agent);
        REQUIRE(attachBrain(rig.state, def, 0).ok());
        rig.world.agents[def.agent] = FakeAgent{};
    }
    rig.tick();
    const uint64_t h0 = hashAiState(rig.state);
    const auto stale = [](const AiState& s) {
        size_t n = 0;
        for (const Brain& brain : s.brains)
            n += brain.digestValid ? 0 : 1;
        return n;
    };
    CHECK(stale(rig.state) == 0);
    rig.state.brains.findBrain("G117")->blackboard["n"] = 1000;
    CHECK(stale(rig.state) == 1);
    const uint64_t h1 = hashAiState(rig.state);
    CHECK(h1 != h0);
    CHECK(stale(rig.state) == 0);

    AiState fresh = rig.state;
    (void)fresh.brains.begin(); // clears every kept digest
    CHECK(stale(fresh) == fresh.brains.size());
    CHECK(hashAiState(fresh) == h1);

    // Ticks and halts clear the digests of the brains they change.
    stepBrains(rig.state, rig.world, TickClock{rig.frame, rig.dt});
    CHECK(hashAiState(rig.state) != h1);
    const uint64_t h2 = hashAiState(rig.state);
    AiState again = rig.state;
    (void)again.brains.begin();
    CHECK(hashAiState(again) == h2);
    const AiState& view = rig.state;
    Brain& g = *rig.state.brains.findBrain("G120");
    (void)hashAiState(view);
    CHECK(g.digestValid);
    haltBrain(rig.state, g, rig.world, TickClock{rig.frame, rig.dt});
    CHECK(!g.digestValid);
}

TEST_CASE("a brain thinks every period frames")
{
    Rig rig(R"({"version": 1, "name": "t", "root": {"type": "action", "name": "emit", "params": {"event": "e"}}})");
    rig.brain().period = 3;
    for (uint64_t f = 0; f < 9; ++f)
        stepBrains(rig.state, rig.world, TickClock{f, 0.1});
    CHECK(rig.brain().ticks == 3);
    CHECK(rig.count("emitted") == 3);
}

TEST_CASE("attachBrain refuses unknown trees and bad definitions")
{
    AiState state;
    BrainDef def = defaultBrainDef();
    def.agent = "A";
    def.tree = "nope";
    const Status unknown = attachBrain(state, def, 0).status();
    REQUIRE_FALSE(unknown.ok());
    CHECK(unknown.error().code == "E_AI_UNKNOWN");
    def.tree.clear();
    CHECK(attachBrain(state, def, 0).error().code == "E_AI_PARAMS");
}

TEST_CASE("a brain whose agent is gone is disabled with an error event")
{
    Rig rig(R"({"version": 1, "name": "t", "root": {"type": "action", "name": "stop"}})");
    rig.world.agents.clear();
    stepBrains(rig.state, rig.world, TickClock{0, 0.1});
    CHECK_FALSE(rig.brain().enabled);
    CHECK(rig.brain().error.code == "E_AI_UNKNOWN");
    const json j = brainToJson(rig.state, rig.brain());
    CHECK(j["enabled"] == false);
    CHECK(j["error"]["code"] == "E_AI_UNKNOWN");
}

TEST_CASE("reloading a tree resets the state of brains that run it")
{
    Rig rig(R"({"version": 1, "name": "t", "root": {"type": "wait", "seconds": 5}})");
    rig.tick();
    CHECK(rig.brain().nodes.size() == 1);
    auto bigger = compileTree(json::parse(
        R"({"version": 1, "name": "t", "root": {"type": "sequence", "children": [{"type": "wait", "seconds": 1}, {"type": "action", "name": "stop"}]}})"));
    REQUIRE(bigger.ok());
    putTree(rig.state, std::move(bigger.value()));
    CHECK(rig.tick() == "running");
    CHECK(rig.brain().nodes.size() == 3);
}

TEST_CASE("brainToJson shows the running nodes with label and path")
{
    Rig rig = guardRig();
    rig.tick();
    const json j = brainToJson(rig.state, rig.brain());
    CHECK(j["status"] == "running");
    CHECK(j["tree"] == "guard");
    REQUIRE(j["running"].size() == 2);
    CHECK(j["running"][1]["path"] == "/subtrees/patrol");
    CHECK(j["blackboard"]["target"] == "Player");
}

TEST_CASE("haltBrain tells the running actions and leaves no running node")
{
    Rig rig = guardRig();
    rig.run(3);
    REQUIRE(rig.agent().state == MoveState::Moving);
    const int stops = rig.agent().stops;
    haltBrain(rig.state, rig.brain(), rig.world, TickClock{rig.frame, rig.dt});
    CHECK(rig.agent().stops == stops + 1);
    CHECK(rig.agent().state == MoveState::Idle);
    CHECK(runningNodes(rig.state, rig.brain()).empty());
    CHECK(rig.brain().status == NodeStatus::Idle);
}

TEST_CASE("a blackboard keeps its values in place past a chunk of slots, and copies and moves them whole")
{
    Blackboard bb;
    bb["k00"] = 0;
    const Value* first = bb.find("k00");
    REQUIRE(first != nullptr);
    std::vector<const Value*> where;
    for (int i = 1; i < 40; ++i) // more than two chunks of 16 slots
    {
        char key[8];
        std::snprintf(key, sizeof key, "k%02d", i);
        bb[key] = i;
        where.push_back(bb.find(key));
    }
    CHECK(bb.size() == 40);
    CHECK(bb.slotCount() == 40);
    CHECK(bb.find("k00") == first); // adding keys moved no value
    for (int i = 1; i < 40; ++i)
    {
        char key[8];
        std::snprintf(key, sizeof key, "k%02d", i);
        REQUIRE(bb.find(key) == where[static_cast<size_t>(i - 1)]);
        CHECK(*bb.find(key) == i);
        CHECK(*bb.at(bb.findSlot(key)) == i);
    }
    Blackboard copy = bb;
    CHECK(copy == bb);
    CHECK(copy.layout() == bb.layout());
    copy["k39"] = "changed";
    CHECK(*bb.find("k39") == 39); // the copy has its own values
    CHECK(copy.find("k39") != bb.find("k39"));
    Blackboard moved = std::move(copy);
    CHECK(moved.size() == 40);
    CHECK(*moved.find("k39") == "changed");
    CHECK(*moved.find("k17") == 17);
    copy = bb; // a moved-from blackboard takes a new value
    CHECK(copy == bb);
}

TEST_CASE("a blackboard slot's presence and stamp are kept apart: each write is seen, an erased value is absent")
{
    Blackboard bb;
    const uint32_t slot = bb.slotOf("k");
    CHECK(bb.at(slot) == nullptr);
    const uint64_t empty = bb.stampOf(slot);
    bb.set(slot) = 5;
    REQUIRE(bb.at(slot) != nullptr);
    CHECK(*bb.at(slot) == 5);
    const uint64_t written = bb.stampOf(slot);
    CHECK(written > empty);
    CHECK(bb.erase("k") == 1);
    CHECK(bb.at(slot) == nullptr);
    CHECK(bb.size() == 0);
    const uint64_t erased = bb.stampOf(slot);
    CHECK(erased > written);
    bb.set(slot) = "again";
    uint64_t stamp = 0;
    REQUIRE(bb.at(slot, stamp) != nullptr);
    CHECK(stamp > erased);
    CHECK(stamp == bb.stampOf(slot));
    CHECK(bb.size() == 1);
}

TEST_CASE("the checks a blackboard value passed are copied with it and cleared by every write")
{
    Blackboard bb{{"k", "x"}, {"other", 1}};
    const uint32_t slot = bb.findSlot("k");
    CHECK(bb.checksOf(slot) == 0);
    bb.markChecked(slot, 0x20);
    bb.markChecked(slot, 0x01);
    CHECK(bb.checksOf(slot) == 0x21);
    CHECK(bb.checksOf(bb.findSlot("other")) == 0);
    const Blackboard copy = bb;
    CHECK(copy.checksOf(slot) == 0x21);
    uint64_t stamp = 0;
    uint8_t checks = 0;
    REQUIRE(copy.at(slot, stamp, checks) != nullptr);
    CHECK(checks == 0x21);
    CHECK(stamp == copy.stampOf(slot));
    bb.set(slot) = "y";
    CHECK(bb.checksOf(slot) == 0);
    bb.markChecked(slot, 0x80);
    CHECK(bb.erase("k") == 1);
    CHECK(bb.checksOf(slot) == 0);
    bb.set(slot) = "z";
    bb.markChecked(slot, 0x80);
    bb.clear();
    CHECK(bb.checksOf(slot) == 0);
    bb["k"] = "w";
    bb.markChecked(slot, 0x80);
    bb.assign(Blackboard{{"k", "w"}});
    CHECK(bb.checksOf(slot) == 0);
}

TEST_CASE("a brain's derived arrays are its own: a copy ticks on while the original is changed")
{
    Rig rig = guardRig();
    rig.run(3);
    Brain copy = rig.brain();
    REQUIRE(copy.resolved.keys.size() == rig.brain().resolved.keys.size());
    REQUIRE(!copy.resolved.keys.empty());
    CHECK(copy.resolved.keys.data() != rig.brain().resolved.keys.data());
    for (size_t i = 0; i < copy.resolved.keys.size(); ++i)
        CHECK(copy.resolved.keys[i].slot == rig.brain().resolved.keys[i].slot);
    // The original's arrays rebuilt (a new key) leave the copy's alone.
    rig.brain().resolved.keys[0].slot = 12345;
    CHECK(copy.resolved.keys[0].slot != 12345);
    std::vector<ResolvedKey> moved = std::move(copy.resolved.keys);
    CHECK(copy.resolved.keys.empty()); // NOLINT(bugprone-use-after-move): the moved-from array is specified
    CHECK(moved.size() == rig.brain().resolved.keys.size());
}

TEST_CASE("brains are reached by the id attach gave; a detached or replaced brain's id is refused")
{
    Rig rig = guardRig();
    const BrainId a = rig.state.brains.find("A");
    REQUIRE(a.valid());
    CHECK(rig.state.brains.get(a) == rig.state.brains.findBrain("A"));
    CHECK(!rig.state.brains.find("nobody").valid());
    CHECK(rig.state.brains.findBrain("nobody") == nullptr);
    CHECK(rig.state.brains.get(BrainId{}) == nullptr);
    CHECK(rig.state.brains.get(BrainId{a.index + 100, 1}) == nullptr);

    // Attached out of name order: walked (and hashed) in name order.
    for (const char* name : {"Z", "C", "M"})
        addGuard(rig, rig.state, rig.world, name, 1.0);
    std::vector<std::string> names;
    for (const Brain& b : std::as_const(rig.state.brains))
        names.push_back(b.agent);
    CHECK(names == std::vector<std::string>{"A", "C", "M", "Z"});
    std::vector<std::string> byId;
    for (BrainId id : rig.state.brains.order())
        byId.push_back(std::as_const(rig.state.brains).get(id)->agent);
    CHECK(byId == names);
    REQUIRE(rig.state.brains.records().size() == rig.state.brains.order().size());
    for (size_t i = 0; i < rig.state.brains.order().size(); ++i)
        CHECK(rig.state.brains.records()[i] == std::as_const(rig.state.brains).get(rig.state.brains.order()[i]));

    // Replaced: a new id (the slot reused with a newer generation), the old one refused.
    const BrainId c = rig.state.brains.find("C");
    BrainDef def = defaultBrainDef();
    def.agent = "C";
    def.agentKey = rig.world.keyOf("C");
    def.tree = rig.brain().tree;
    auto replaced = attachBrain(rig.state, def, 0);
    REQUIRE(replaced.ok());
    CHECK(*replaced != c);
    CHECK(replaced->index == c.index);
    CHECK(rig.state.brains.get(c) == nullptr);
    CHECK(rig.state.brains.size() == 4);

    // Detached: refused, no second erase; the lowest free slot is reused first.
    const BrainId m = rig.state.brains.find("M");
    CHECK(rig.state.brains.erase(m));
    CHECK(!rig.state.brains.erase(m));
    CHECK(rig.state.brains.erase("M") == 0);
    CHECK(rig.state.brains.get(m) == nullptr);
    addGuard(rig, rig.state, rig.world, "N", 2.0);
    CHECK(rig.state.brains.find("N").index == m.index);
    CHECK(rig.state.brains.find("N").generation == m.generation + 1);

    // A copy keeps every id valid, on its own records.
    const AiState copy = rig.state;
    for (BrainId id : rig.state.brains.order())
    {
        REQUIRE(copy.brains.get(id) != nullptr);
        CHECK(copy.brains.get(id) != std::as_const(rig.state.brains).get(id));
        CHECK(copy.brains.get(id)->agent == std::as_const(rig.state.brains).get(id)->agent);
    }
    CHECK(hashAiState(copy) == hashAiState(rig.state));
    for (size_t i = 0; i < copy.brains.order().size(); ++i)
        CHECK(copy.brains.records()[i] == copy.brains.get(copy.brains.order()[i]));
}

TEST_CASE("brains that come and go between steps change no result: a copy steps in lockstep")
{
    Rig rig = guardRig();
    // More brains than the walk prefetches ahead (16), more than a chunk of records (64).
    for (int i = 0; i < 80; ++i)
        addGuard(rig, rig.state, rig.world, "G" + std::to_string(100 + i), 0.25 * i);
    rig.world.objects["Player"] = Vec3(4, 0, 6);
    for (int i = 0; i < 5; ++i)
    {
        stepBrains(rig.state, rig.world, TickClock{rig.frame++, rig.dt});
        rig.world.step(rig.dt);
    }
    AiState copy = rig.state;
    FakeWorld copyWorld = rig.world;
    // The same brains come and go in both.
    for (AiState* state : {&rig.state, &copy})
    {
        FakeWorld& world = state == &copy ? copyWorld : rig.world;
        for (int i = 0; i < 80; i += 4)
            state->brains.erase("G" + std::to_string(100 + i));
        for (int i = 0; i < 10; ++i)
            addGuard(rig, *state, world, "G" + std::to_string(150 + i) + "x", 1.0 + i);
    }
    CHECK(rig.state.brains.size() == 71); // with A
    stepInLockstep(rig, copy, copyWorld, 30);
}

TEST_CASE("brains copied, moved, reloaded, erased and added between steps change no result: lockstep with a copy")
{
    Rig rig = guardRig();
    for (int i = 0; i < 40; ++i)
        addGuard(rig, rig.state, rig.world, "G" + std::to_string(100 + i), 0.5 * i);
    AiState reference = rig.state; // ticked in lockstep
    FakeWorld referenceWorld = rig.world;
    auto lockstep = [&](int frames)
    {
        stepInLockstep(rig, reference, referenceWorld, frames);
        rig.frame += static_cast<uint64_t>(frames);
    };
    lockstep(3);

    // A brain copied or moved out of the map: the same values.
    const Brain& original = *rig.state.brains.findBrain("G120");
    Brain copied = original;
    Brain& g121 = *rig.state.brains.findBrain("G121");
    Brain moved = std::move(g121); // (its name, the table's key, goes back with it below)
    CHECK(copied.nodes == original.nodes);
    CHECK(copied.blackboard == original.blackboard);
    Hasher a, b;
    hashBrain(a, copied);
    hashBrain(b, original);
    CHECK(a.digest() == b.digest());
    g121 = std::move(moved); // back
    lockstep(2);

    // A tree loaded again: the brains resolve anew.
    const CompiledTree tree = rig.state.trees.at(rig.brain().tree);
    putTree(rig.state, tree);
    putTree(reference, tree);
    lockstep(1);
    lockstep(1);

    // Brains erased and one added.
    for (AiState* state : {&rig.state, &reference})
    {
        FakeWorld& world = state == &reference ? referenceWorld : rig.world;
        for (int i = 0; i < 40; i += 3)
            state->brains.erase("G" + std::to_string(100 + i));
        addGuard(rig, *state, world, "G999", 3.5);
    }
    lockstep(3);
    // Many added.
    for (AiState* state : {&rig.state, &reference})
    {
        FakeWorld& world = state == &reference ? referenceWorld : rig.world;
        for (int i = 0; i < 30; ++i)
            addGuard(rig, *state, world, "H" + std::to_string(100 + i), 0.25 * i);
    }
    lockstep(1);
    lockstep(1);
    // Most erased.
    for (AiState* state : {&rig.state, &reference})
        for (int i = 0; i < 30; ++i)
            state->brains.erase("H" + std::to_string(100 + i));
    lockstep(1);

    // The state moved away and back, and move-assigned over a state that
    // stepped: ticks go on.
    AiState other = reference;
    FakeWorld otherWorld = referenceWorld;
    for (uint64_t f = 0; f < 2; ++f)
        stepBrains(other, otherWorld, TickClock{rig.frame + f, rig.dt});
    other = std::move(rig.state);
    rig.state = std::move(other);
    lockstep(2);
    // Copy-assigned over a state that stepped: the same hash.
    AiState third = reference;
    FakeWorld thirdWorld = referenceWorld;
    stepBrains(third, thirdWorld, TickClock{rig.frame, rig.dt});
    third = rig.state;
    CHECK(hashAiState(third) == hashAiState(rig.state));
    lockstep(1);
}

TEST_CASE("brains a tick adds or removes mid-walk: the rest of the walk is that of the brains in name order")
{
    // Brains B00..B39 run a game action that, for B20 at frame 3, removes B22
    // (ahead) and B10 (behind) and adds B21x (ahead: ticked this frame) and
    // B05x (behind: first ticked next frame), as a plain walk in name order does.
    AiState* state = nullptr;
    FakeWorld world;
    LeafRegistry leaves;
    GameLeafDef churn = defaultGameLeafDef();
    churn.name = "churn";
    churn.kind = LeafKind::Action;
    churn.description = "Adds and removes brains while the brains tick.";
    auto brainDef = [&world](const std::string& agent) {
        BrainDef def = defaultBrainDef();
        def.agent = agent;
        def.agentKey = world.keyOf(agent);
        def.tree = "churn";
        return def;
    };
    churn.run = [&](LeafContext& c) -> Result<NodeStatus> {
        if (c.agent == "B20" && c.clock.frame == 3)
        {
            CHECK(state->brains.erase("B22") == 1);
            CHECK(state->brains.erase("B10") == 1);
            world.agents["B21x"] = FakeAgent{};
            world.agents["B05x"] = FakeAgent{};
            REQUIRE(attachBrain(*state, brainDef("B21x"), c.clock.frame).ok());
            REQUIRE(attachBrain(*state, brainDef("B05x"), c.clock.frame).ok());
        }
        return NodeStatus::Success;
    };
    REQUIRE(leaves.registerLeaf(std::move(churn)).ok());
    AiState ai;
    state = &ai;
    auto tree = compileTree(json::parse(R"({"version": 1, "name": "churn", "root": {"type": "action", "name": "churn"}})"),
                            leaves);
    REQUIRE(tree.ok());
    putTree(ai, std::move(tree.value()));
    for (int i = 0; i < 40; ++i)
    {
        const std::string name = (i < 10 ? "B0" : "B") + std::to_string(i);
        world.agents[name] = FakeAgent{};
        REQUIRE(attachBrain(ai, brainDef(name), 0).ok());
    }
    for (uint64_t frame = 0; frame < 4; ++frame)
        stepBrains(ai, world, TickClock{frame, 0.1}, leaves);
    CHECK(ai.brains.size() == 40);
    CHECK(!ai.brains.contains("B22"));
    CHECK(!ai.brains.contains("B10"));
    CHECK(ai.brains.findBrain("B21x")->ticks == 1);
    CHECK(ai.brains.findBrain("B05x")->ticks == 0);
    CHECK(ai.brains.findBrain("B20")->ticks == 4);
    CHECK(ai.brains.findBrain("B23")->ticks == 4);
    CHECK(ai.brains.findBrain("B39")->ticks == 4);
    stepBrains(ai, world, TickClock{4, 0.1}, leaves);
    CHECK(ai.brains.findBrain("B05x")->ticks == 1);
    CHECK(ai.brains.findBrain("B21x")->ticks == 2);
    for (const Brain& brain : std::as_const(ai.brains))
        CHECK(brain.enabled);
}
