// Leaves a game registers beside the built-ins: registration checks, then the
// same path as a built-in (validation, compilation, ticking, halting, the
// manifest) against the fake world.
#include "../rig.h"

#include <optional>

using namespace spark;
using namespace spark::ai;
using namespace spark::ai::test;

/// Parameters of the test game's `open_door`, read by named index.
enum class DoorParam : uint8_t
{
    Door,
    Force,
    Count
};

namespace spark::ai
{
/// `DoorParam` tied to the manifest names of `open_door`.
template <> struct ParamEnumNames<DoorParam>
{
    static constexpr LeafId leaf = LeafId::Count;
    static constexpr std::array<std::string_view, 2> names = {"door", "force"};
};
} // namespace spark::ai

namespace
{

ParamDef paramOf(std::string name, ParamType type, bool required, json def = json())
{
    ParamDef p;
    p.name = std::move(name);
    p.type = type;
    p.required = required;
    p.defaultValue = std::move(def);
    p.description = "test parameter";
    return p;
}

/// What the game's leaves saw, tick by tick.
struct DoorLog
{
    struct Call
    {
        std::string agent;
        std::string door;
        double force = 0;
        uint64_t frame = 0;
        double time = 0;
        bool continuing = false;
    };
    std::vector<Call> runs;
    std::vector<Call> halts;
    int ticksToOpen = 3; ///< open_door runs this many ticks, then succeeds.
};

/// A registry with the game's `open_door` action (door, force; runs
/// `ticksToOpen` ticks, counting in its node memory, sets the agent's speed to
/// the force, writes `opened` on the blackboard) and `door_open` condition
/// (true when the blackboard's `open_doors` lists the door).
LeafRegistry gameLeaves(DoorLog& log)
{
    LeafRegistry leaves;
    GameLeafDef open = defaultGameLeafDef();
    open.name = "open_door";
    open.kind = LeafKind::Action;
    open.description = "Pushes a door open over a few ticks.";
    ParamDef force = paramOf("force", ParamType::Number, false, 1.0);
    force.min = 0;
    force.max = 10;
    open.params = {paramOf("door", ParamType::String, true), force};
    open.run = [&log](LeafContext& c) -> Result<NodeStatus>
    {
        const bool continuing = c.memory.status == NodeStatus::Running;
        if (!continuing)
            c.memory.counter = 0;
        log.runs.push_back({std::string(c.agent), std::string(c.params.text(DoorParam::Door)),
                            c.params.number(DoorParam::Force), c.clock.frame, c.time, continuing});
        c.world.setSpeed(c.agentKey, c.params.number(DoorParam::Force));
        c.memory.counter += 1;
        if (c.memory.counter < log.ticksToOpen)
            return NodeStatus::Running;
        c.blackboard["opened"] = std::string(c.params.text(DoorParam::Door));
        return NodeStatus::Success;
    };
    open.halt = [&log](LeafContext& c)
    {
        log.halts.push_back({std::string(c.agent), std::string(c.params.text(DoorParam::Door)),
                             c.params.number(DoorParam::Force), c.clock.frame, c.time,
                             c.memory.status == NodeStatus::Running});
    };
    REQUIRE(leaves.registerLeaf(std::move(open)).ok());

    GameLeafDef isOpen = defaultGameLeafDef();
    isOpen.name = "door_open";
    isOpen.kind = LeafKind::Condition;
    isOpen.description = "True when the door is listed in the blackboard's open_doors.";
    isOpen.params = {paramOf("door", ParamType::String, true)};
    isOpen.run = [](LeafContext& c)
    {
        const Value* open = blackboardFind(c.blackboard, "open_doors");
        const Value& door = *c.params.find("door");
        if (open && open->isList())
            for (const Value& d : open->items())
                if (d == door)
                    return NodeStatus::Success;
        return NodeStatus::Failure;
    };
    REQUIRE(leaves.registerLeaf(std::move(isOpen)).ok());
    return leaves;
}

/// A leaf def that registers (an action that succeeds at once).
GameLeafDef validDef(const std::string& name)
{
    GameLeafDef def = defaultGameLeafDef();
    def.name = name;
    def.run = [](LeafContext&) { return NodeStatus::Success; };
    return def;
}

const Problem* findProblem(const std::vector<Problem>& ps, const std::string& code, const std::string& path)
{
    for (const Problem& p : ps)
        if (p.code == code && p.path == path)
            return &p;
    return nullptr;
}

constexpr const char* kOpenTree = R"({"version": 1, "name": "door", "root": {"type": "sequence", "children": [
    {"type": "action", "name": "open_door", "params": {"door": "north", "force": {"bb": "push"}}},
    {"type": "action", "name": "open_door", "params": {"door": {"bb": "next"}}}]}})";

} // namespace

TEST_CASE(
    "a game leaf is validated, compiled and ticked like a built-in, with literal and blackboard parameters")
{
    DoorLog log;
    const LeafRegistry leaves = gameLeaves(log);
    const json doc = json::parse(kOpenTree);
    CHECK(validateTreeDoc(doc, leaves).empty());
    auto tree = compileTree(doc, leaves);
    REQUIRE(tree.ok());
    CHECK(tree->nodes[1].call.leaf == LeafId::Count);
    CHECK(tree->nodes[1].call.name == "open_door");
    CHECK(tree->nodes[1].call.index == LeafRegistry::kBuiltinCount);
    CHECK(tree->nodes[1].label == "action:open_door");

    Rig rig(leaves, kOpenTree, {{"push", 2.5}, {"next", "south"}});
    CHECK(rig.tick() == "running");
    REQUIRE(log.runs.size() == 1);
    CHECK(log.runs[0].agent == "A");
    CHECK(log.runs[0].door == "north");
    CHECK(log.runs[0].force == 2.5); // {"bb": "push"}
    CHECK_FALSE(log.runs[0].continuing);
    CHECK(rig.agent().speed == 2.5); // through the World&

    // open_door north runs three ticks; the second open_door starts in the tick it succeeds.
    CHECK(rig.run(2) == Seq{"running", "running"});
    REQUIRE(log.runs.size() == 4);
    CHECK(log.runs[1].continuing);
    CHECK(log.runs[2].frame == 2);
    CHECK(log.runs[2].time == doctest::Approx(0.2));
    CHECK(rig.brain().blackboard["opened"] == "north");
    CHECK(log.runs[3].door == "south"); // {"bb": "next"}
    CHECK(log.runs[3].force == 1.0);    // the default
    CHECK_FALSE(log.runs[3].continuing);

    rig.brain().blackboard["next"] = "west"; // read again at every tick
    CHECK(rig.run(2) == Seq{"running", "success"});
    REQUIRE(log.runs.size() == 6);
    CHECK(log.runs[5].door == "west");
    CHECK(rig.brain().blackboard["opened"] == "west");
    CHECK(rig.nodeStatus(2) == NodeStatus::Success);
    CHECK(log.halts.empty());
}

TEST_CASE("a game action is halted when a reactive selector re-checks an earlier child that now succeeds")
{
    DoorLog log;
    log.ticksToOpen = 100;
    const LeafRegistry leaves = gameLeaves(log);
    Rig rig(leaves,
            R"({"version": 1, "name": "t", "root": {"type": "selector", "reactive": true, "children": [
        {"type": "condition", "name": "door_open", "params": {"door": "north"}},
        {"type": "action", "name": "open_door", "params": {"door": "north", "force": {"bb": "push"}}}]}})",
            {{"push", 4}});
    CHECK(rig.run(2) == Seq{"running", "running"});
    CHECK(rig.nodeStatus(2) == NodeStatus::Running);
    rig.brain().blackboard["open_doors"] = json::array({"north"});
    CHECK(rig.tick() == "success");
    REQUIRE(log.halts.size() == 1);
    CHECK(log.halts[0].door == "north");
    CHECK(log.halts[0].force == 4);
    CHECK(log.halts[0].continuing); // told while it was still running
    CHECK(rig.nodeStatus(2) == NodeStatus::Idle);
    CHECK(log.runs.size() == 2);
}

TEST_CASE("haltBrain tells a running game action, resolving what parameters it still can")
{
    DoorLog log;
    log.ticksToOpen = 100;
    const LeafRegistry leaves = gameLeaves(log);
    Rig rig(leaves, R"({"version": 1, "name": "t", "root":
        {"type": "action", "name": "open_door", "params": {"door": "east", "force": {"bb": "push"}}}})",
            {{"push", 3}});
    CHECK(rig.tick() == "running");
    rig.brain().blackboard.erase("push");
    haltBrain(rig.state, rig.brain(), rig.world, TickClock{rig.frame, rig.dt}, leaves);
    REQUIRE(log.halts.size() == 1);
    CHECK(log.halts[0].door == "east");
    CHECK(log.halts[0].force == 0); // the blackboard key is gone: nullptr, number() falls back
    CHECK(rig.nodeStatus(0) == NodeStatus::Idle);
}

TEST_CASE("a missing or mistyped blackboard parameter of a game leaf is E_AI_PARAMS, as for a built-in")
{
    DoorLog log;
    const LeafRegistry leaves = gameLeaves(log);
    Rig rig(leaves, kOpenTree, {{"push", "hard"}, {"next", "south"}});
    const Status s = tickBrain(rig.state, rig.brain(), rig.world, TickClock{0, rig.dt}, leaves);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().code == kCodeParams);
    CHECK(s.error().field == "/root/children/0/params/force");
    CHECK(log.runs.empty());
    CHECK_FALSE(rig.brain().enabled);
}

TEST_CASE("a game leaf's parameters are checked by validation, and unknown leaves are still refused")
{
    DoorLog log;
    const LeafRegistry leaves = gameLeaves(log);
    const json doc = json::parse(R"({"version": 1, "name": "t", "root": {"type": "sequence", "children": [
        {"type": "action", "name": "open_door", "params": {"force": "hard", "colour": 1}},
        {"type": "action", "name": "open_dor", "params": {"door": "x"}},
        {"type": "action", "name": "door_open", "params": {"door": "x"}},
        {"type": "condition", "name": "door_open", "params": {"door": 3}}]}})");
    const std::vector<Problem> ps = validateTreeDoc(doc, leaves);
    CHECK(findProblem(ps, kCodeParams, "/root/children/0/params/force"));
    const Problem* colour = findProblem(ps, kCodeParams, "/root/children/0/params/colour");
    REQUIRE(colour);
    CHECK(colour->hint.find("door") != std::string::npos);          // the declared names
    CHECK(findProblem(ps, kCodeParams, "/root/children/0/params")); // door is required
    const Problem* typo = findProblem(ps, kCodeUnknownLeaf, "/root/children/1/name");
    REQUIRE(typo);
    CHECK(typo->hint == "did you mean 'open_door'?");
    CHECK(findProblem(ps, kCodeUnknownLeaf, "/root/children/2/name")); // a condition used as an action
    CHECK(findProblem(ps, kCodeParams, "/root/children/3/params/door"));
    CHECK(ps.size() == 6);

    // Without the registry the game's leaves are unknown.
    const json fine = json::parse(kOpenTree);
    const std::vector<Problem> builtins = validateTreeDoc(fine);
    REQUIRE(builtins.size() == 2);
    CHECK(builtins[0].code == kCodeUnknownLeaf);
    auto refused = compileTree(fine);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().code == kCodeUnknownLeaf);
    std::vector<Problem> problems;
    CHECK_FALSE(compileTree(doc, leaves, &problems).ok());
    CHECK(problems.size() == ps.size());
}

TEST_CASE("a tree with a game leaf ticked without that leaf disables its brain with E_AI_UNKNOWN_LEAF")
{
    DoorLog log;
    const LeafRegistry leaves = gameLeaves(log);
    Rig rig(leaves, kOpenTree, {{"push", 1}, {"next", "south"}});
    const Status s = tickBrain(rig.state, rig.brain(), rig.world, TickClock{0, rig.dt});
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().code == kCodeUnknownLeaf);
    CHECK(s.error().field == "/root/children/0/name");
    CHECK_FALSE(rig.brain().enabled);
    CHECK(rig.count("error") == 1);
    CHECK(log.runs.empty());
}

TEST_CASE("a compiled call finds its game leaf by name in another registry that holds it elsewhere")
{
    DoorLog log;
    const LeafRegistry leaves = gameLeaves(log);
    Rig rig(leaves, kOpenTree, {{"push", 1}, {"next", "south"}});
    LeafRegistry other;
    REQUIRE(other.registerLeaf(validDef("first")).ok());
    DoorLog otherLog;
    const LeafRegistry moved = [&]
    {
        LeafRegistry r = other;
        const LeafRegistry game = gameLeaves(otherLog);
        for (size_t i = LeafRegistry::kBuiltinCount; i < game.size(); ++i)
            REQUIRE(r.registerLeaf(*game.game(i)).ok());
        return r;
    }();
    CHECK(moved.indexOf("open_door") == LeafRegistry::kBuiltinCount + 1);
    REQUIRE(tickBrain(rig.state, rig.brain(), rig.world, TickClock{0, rig.dt}, moved).ok());
    CHECK(otherLog.runs.size() == 1);
    CHECK(log.runs.empty());
}

TEST_CASE("a game condition answering running or any leaf answering idle is E_AI_LEAF_RESULT")
{
    LeafRegistry leaves;
    GameLeafDef busy = validDef("busy");
    busy.kind = LeafKind::Condition;
    busy.run = [](LeafContext&) { return NodeStatus::Running; };
    REQUIRE(leaves.registerLeaf(std::move(busy)).ok());
    GameLeafDef idle = validDef("idle");
    idle.run = [](LeafContext&) { return NodeStatus::Idle; };
    REQUIRE(leaves.registerLeaf(std::move(idle)).ok());
    GameLeafDef broken = validDef("broken");
    broken.run = [](LeafContext& c) -> Result<NodeStatus>
    { return makeError("E_GAME_DOOR_JAMMED", "the door is jammed", std::string(c.path)); };
    REQUIRE(leaves.registerLeaf(std::move(broken)).ok());

    for (const char* leaf : {R"("condition", "name": "busy")", R"("action", "name": "idle")"})
    {
        CAPTURE(leaf);
        Rig rig(leaves, std::string(R"({"version": 1, "name": "t", "root": {"type": )") + leaf + "}}");
        const Status s = tickBrain(rig.state, rig.brain(), rig.world, TickClock{0, rig.dt}, leaves);
        REQUIRE_FALSE(s.ok());
        CHECK(s.error().code == kCodeLeafResult);
        CHECK(s.error().field == "/root");
    }
    Rig rig(leaves, R"({"version": 1, "name": "t", "root": {"type": "action", "name": "broken"}})");
    const Status s = tickBrain(rig.state, rig.brain(), rig.world, TickClock{0, rig.dt}, leaves);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().code == "E_GAME_DOOR_JAMMED");
    CHECK(s.error().field == "/root");
}

TEST_CASE(
    "registering refuses taken names with E_AI_LEAF_EXISTS and bad defs with E_AI_LEAF_DEF and the field")
{
    LeafRegistry leaves;
    REQUIRE(leaves.registerLeaf(validDef("open_door")).ok());
    const size_t size = leaves.size();
    CHECK(size == LeafRegistry::kBuiltinCount + 1);

    auto refused = [&](GameLeafDef def) -> Error
    {
        const Status s = leaves.registerLeaf(std::move(def));
        REQUIRE_FALSE(s.ok());
        CHECK(leaves.size() == size); // a refused leaf changes nothing
        return s.error();
    };
    for (const char* taken : {"open_door", "move_to", "can_see", "wait", "sequence", "subtree", "utility"})
    {
        CAPTURE(taken);
        const Error e = refused(validDef(taken));
        CHECK(e.code == kCodeLeafExists);
        CHECK(e.field == "/name");
    }
    for (const char* bad : {"", "9lives", "open door", "door/open", "{\"bb\"}"})
    {
        CAPTURE(bad);
        const Error e = refused(validDef(bad));
        CHECK(e.code == kCodeLeafDef);
        CHECK(e.field == "/name");
    }
    CHECK(refused(validDef(std::string(kMaxLeafNameLength + 1, 'a'))).code == kCodeLeafDef);
    CHECK(leaves.registerLeaf(validDef(std::string(kMaxLeafNameLength, 'a'))).ok());
    const size_t grown = leaves.size();

    struct Case
    {
        const char* what;
        std::function<void(GameLeafDef&)> change;
        const char* field;
    };
    const std::vector<Case> cases = {
        {"no run", [](GameLeafDef& d) { d.run = nullptr; }, "/run"},
        {"a halt on a condition",
         [](GameLeafDef& d)
         {
             d.kind = LeafKind::Condition;
             d.halt = [](LeafContext&) {};
         },
         "/halt"},
        {"an unknown kind", [](GameLeafDef& d) { d.kind = static_cast<LeafKind>(7); }, "/kind"},
        {"too many parameters",
         [](GameLeafDef& d)
         {
             for (size_t i = 0; i <= kMaxLeafParams; ++i)
                 d.params.push_back(paramOf("p" + std::to_string(i), ParamType::Number, false));
         },
         "/params"},
        {"an unnamed parameter", [](GameLeafDef& d) { d.params = {paramOf("", ParamType::Number, false)}; },
         "/params/0/name"},
        {"a parameter declared twice",
         [](GameLeafDef& d) {
             d.params = {paramOf("door", ParamType::String, true), paramOf("door", ParamType::Number, false)};
         },
         "/params/1/name"},
        {"a required parameter with a default",
         [](GameLeafDef& d) { d.params = {paramOf("force", ParamType::Number, true, 1.0)}; },
         "/params/0/default"},
        {"a default of the wrong type",
         [](GameLeafDef& d) { d.params = {paramOf("force", ParamType::Number, false, "hard")}; },
         "/params/0/default"},
        {"a default out of range",
         [](GameLeafDef& d)
         {
             d.params = {paramOf("force", ParamType::Number, false, 20.0)};
             d.params[0].max = 10;
         },
         "/params/0/default"},
        {"min above max",
         [](GameLeafDef& d)
         {
             d.params = {paramOf("force", ParamType::Number, false)};
             d.params[0].min = 2;
             d.params[0].max = 1;
         },
         "/params/0/min"},
        {"an unknown parameter type",
         [](GameLeafDef& d) { d.params = {paramOf("force", static_cast<ParamType>(42), false)}; },
         "/params/0/type"},
    };
    for (const Case& c : cases)
    {
        CAPTURE(c.what);
        GameLeafDef def = validDef("kick_door");
        c.change(def);
        const Status s = leaves.registerLeaf(std::move(def));
        REQUIRE_FALSE(s.ok());
        CHECK(s.error().code == kCodeLeafDef);
        CHECK(s.error().field == c.field);
        CHECK(leaves.size() == grown);
    }
    CHECK(leaves.find("kick_door") == nullptr);
}

TEST_CASE(
    "the manifest of a registry lists the built-ins, then the game's leaves with their parameter schemas")
{
    DoorLog log;
    const LeafRegistry leaves = gameLeaves(log);
    const json builtins = leafManifestJson();
    const json all = leafManifestJson(leaves);
    CHECK(leafManifestJson(builtinLeafRegistry()) == builtins);
    REQUIRE(all.size() == builtins.size() + 2);
    for (size_t i = 0; i < builtins.size(); ++i)
        CHECK(all[i] == builtins[i]);
    const json& open = all[builtins.size()];
    CHECK(open["name"] == "open_door");
    CHECK(open["kind"] == "action");
    CHECK(open["description"] == "Pushes a door open over a few ticks.");
    CHECK(open["required"] == json::array({"door"}));
    CHECK(open["params"]["force"]["default"] == 1.0);
    CHECK(open["params"]["force"]["schema"]["anyOf"][0]["maximum"] == 10);
    CHECK(all[builtins.size() + 1]["kind"] == "condition");
    CHECK(leaves.find("door_open")->kind == LeafKind::Condition);
    CHECK(leaves.game(static_cast<size_t>(LeafId::MoveTo)) == nullptr);
    CHECK(leaves.indexOf("move_to") == static_cast<size_t>(LeafId::MoveTo));
    CHECK(leaves.indexOf("nope") == LeafRegistry::kNotFound);
}

TEST_CASE("a game leaf's parameter enum is checked against its manifest entry")
{
    DoorLog log;
    const LeafRegistry leaves = gameLeaves(log);
    CHECK(checkParamEnum<DoorParam>(*leaves.find("open_door")).ok());
    const Status wrong = checkParamEnum<DoorParam>(*leaves.find("door_open"));
    REQUIRE_FALSE(wrong.ok());
    CHECK(wrong.error().code == kCodeParams);
    CHECK(wrong.error().field == "/params/1");
}

TEST_CASE("a utility document's action can run a game leaf")
{
    DoorLog log;
    const LeafRegistry leaves = gameLeaves(log);
    const json doc = json::parse(R"({"version": 1, "name": "u", "actions": [
        {"name": "open", "considerations": [], "run": {"name": "open_door", "params": {"door": "west"}}}]})");
    CHECK(validateUtilityDoc(doc, leaves).empty());
    const std::vector<Problem> builtins = validateUtilityDoc(doc);
    REQUIRE(builtins.size() == 1);
    CHECK(builtins[0].code == kCodeUnknownLeaf);
    CHECK(builtins[0].path == "/actions/0/run/name");
    auto utility = compileUtility(doc, leaves);
    REQUIRE(utility.ok());

    FakeWorld world;
    world.agents["A"] = FakeAgent{};
    AiState state;
    putUtility(state, std::move(utility.value()));
    BrainDef def = defaultBrainDef();
    def.agent = "A";
    def.agentKey = world.keyOf("A");
    def.utility = "u";
    REQUIRE(attachBrain(state, def, 0).ok());
    for (uint64_t frame = 0; frame < 3; ++frame)
        REQUIRE(tickBrain(state, *state.brains.findBrain("A"), world, TickClock{frame, 0.1}, leaves).ok());
    REQUIRE(log.runs.size() == 3);
    CHECK(log.runs[0].door == "west");
    CHECK(state.brains.findBrain("A")->status == NodeStatus::Success);
}

TEST_CASE("built-in trees tick to the same hash whatever registry they tick with")
{
    const std::string tree = R"({"version": 1, "name": "t", "root": {"type": "sequence", "children": [
        {"type": "action", "name": "move_to", "params": {"target": [3, 0, 0]}},
        {"type": "condition", "name": "chance", "params": {"probability": 0.5}},
        {"type": "action", "name": "emit", "params": {"event": "done"}}]}})";
    DoorLog log;
    const LeafRegistry leaves = gameLeaves(log);
    Rig builtin(tree);
    Rig game(leaves, tree);
    for (int i = 0; i < 30; ++i)
    {
        CHECK(builtin.tick() == game.tick());
        REQUIRE(hashAiState(builtin.state) == hashAiState(game.state));
    }
    CHECK(log.runs.empty());
}
