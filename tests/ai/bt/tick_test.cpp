// Node semantics, ticked frame by frame (dt = 0.1 s) against the fake world.
#include "../rig.h"

using namespace spark;
using namespace spark::ai;
using namespace spark::ai::test;

namespace
{
const char* kCheckFlag = R"({"type": "check", "key": "flag", "value": true})";
const char* kFail = R"({"type": "check", "key": "nothing", "op": "exists"})";
const char* kPass = R"({"type": "check", "key": "nothing", "op": "missing"})";
const char* kEmit = R"({"type": "action", "name": "emit", "params": {"event": "ping"}})";

std::string wait(double s) { return R"({"type": "wait", "seconds": )" + std::to_string(s) + "}"; }
std::string tree(const std::string& root)
{
    return R"({"version": 1, "name": "t", "root": )" + root + "}";
}
std::string composite(const std::string& type, const std::vector<std::string>& kids, const std::string& extra = "")
{
    std::string s = R"({"type": ")" + type + "\"" + extra + R"(, "children": [)";
    for (size_t i = 0; i < kids.size(); ++i)
        s += (i ? ", " : "") + kids[i];
    return s + "]}";
}
std::string decorator(const std::string& type, const std::string& child, const std::string& extra = "")
{
    return R"({"type": ")" + type + "\"" + extra + R"(, "child": )" + child + "}";
}
const std::string kFarMove = R"({"type": "action", "name": "move_to", "params": {"target": [50, 0, 0]}})";
} // namespace

TEST_CASE("a sequence runs its children in order and remembers the running child")
{
    Rig rig(tree(composite("sequence", {kCheckFlag, wait(0.2), kEmit})), {{"flag", true}});
    CHECK(rig.tick() == "running");
    rig.brain().blackboard["flag"] = false; // not re-checked: the sequence resumes at the wait
    CHECK(rig.run(2) == Seq{"running", "success"});
    CHECK(rig.count("emitted") == 1);
}

TEST_CASE("a sequence fails at the first failing child and ticks nothing after it")
{
    Rig rig(tree(composite("sequence", {kPass, kFail, kEmit})));
    CHECK(rig.run(2) == Seq{"failure", "failure"});
    CHECK(rig.count("emitted") == 0);
    CHECK(rig.nodeStatus(3) == NodeStatus::Idle);
}

TEST_CASE("a selector succeeds at the first child that succeeds and fails when all fail")
{
    Rig rig(tree(composite("selector", {kFail, wait(0.1), kEmit})));
    CHECK(rig.run(2) == Seq{"running", "success"});
    CHECK(rig.count("emitted") == 0);
    Rig all(tree(composite("selector", {kFail, kFail})));
    CHECK(all.tick() == "failure");
}

TEST_CASE("a selector without reactive keeps running its running child")
{
    Rig rig(tree(composite("selector", {kCheckFlag, kFarMove})), {{"flag", false}});
    CHECK(rig.run(2) == Seq{"running", "running"});
    rig.brain().blackboard["flag"] = true;
    CHECK(rig.tick() == "running");
    CHECK(rig.agent().stops == 0);
}

TEST_CASE("a reactive selector re-checks earlier children and halts the running action when one succeeds")
{
    Rig rig(tree(composite("selector", {composite("sequence", {kCheckFlag, kEmit}), kFarMove}, R"(, "reactive": true)")),
            {{"flag", false}});
    CHECK(rig.run(3) == Seq{"running", "running", "running"});
    CHECK(rig.agent().state == MoveState::Moving);
    CHECK(rig.agent().moveRequests == 1);
    rig.brain().blackboard["flag"] = true;
    CHECK(rig.tick() == "success");
    CHECK(rig.agent().stops == 1);                 // move_to was told it is halted
    CHECK(rig.agent().state == MoveState::Idle);
    CHECK(rig.nodeStatus(4) == NodeStatus::Idle);  // and is no longer running
    CHECK(rig.count("emitted") == 1);
}

TEST_CASE("a reactive sequence aborts its running action when a condition before it fails")
{
    Rig rig(tree(composite("sequence", {kCheckFlag, kFarMove}, R"(, "reactive": true)")), {{"flag", true}});
    CHECK(rig.run(2) == Seq{"running", "running"});
    rig.brain().blackboard["flag"] = false;
    CHECK(rig.tick() == "failure");
    CHECK(rig.agent().stops == 1);
    CHECK(rig.nodeStatus(2) == NodeStatus::Idle);
    CHECK(runningNodes(rig.state, rig.brain()).empty());
}

TEST_CASE("a non-reactive sequence does not re-check a condition before its running action")
{
    Rig rig(tree(composite("sequence", {kCheckFlag, kFarMove})), {{"flag", true}});
    CHECK(rig.tick() == "running");
    rig.brain().blackboard["flag"] = false;
    CHECK(rig.tick() == "running");
    CHECK(rig.agent().stops == 0);
    CHECK(runningNodes(rig.state, rig.brain()) == std::vector<uint32_t>{0, 2});
}

TEST_CASE("a parallel with success all and failure one waits for every child")
{
    Rig rig(tree(composite("parallel", {wait(0.1), wait(0.3)})));
    CHECK(rig.run(2) == Seq{"running", "running"});
    CHECK(rig.nodeStatus(1) == NodeStatus::Success); // finished child is not ticked again
    CHECK(rig.run(2) == Seq{"running", "success"});
}

TEST_CASE("a parallel fails at once when one child fails and halts the others")
{
    Rig rig(tree(composite("parallel", {kFarMove, kFail})));
    CHECK(rig.tick() == "failure");
    CHECK(rig.nodeStatus(1) == NodeStatus::Idle);
    CHECK(rig.agent().stops == 1);
}

TEST_CASE("a parallel with success one succeeds with the first child and halts the rest")
{
    Rig rig(tree(composite("parallel", {wait(0.1), wait(0.3)}, R"(, "success": "one")")));
    CHECK(rig.run(2) == Seq{"running", "success"});
    CHECK(rig.nodeStatus(2) == NodeStatus::Idle);
}

TEST_CASE("a parallel whose children all finish without meeting a policy fails")
{
    Rig rig(tree(composite("parallel", {kFail, wait(0.2)}, R"(, "success": "all", "failure": "all")")));
    CHECK(rig.run(3) == Seq{"running", "running", "failure"});
}

TEST_CASE("inverter, succeeder and failer map their child's result and pass running through")
{
    CHECK(Rig(tree(decorator("inverter", kPass))).tick() == "failure");
    CHECK(Rig(tree(decorator("inverter", kFail))).tick() == "success");
    CHECK(Rig(tree(decorator("inverter", wait(0.1)))).run(2) == Seq{"running", "failure"});
    CHECK(Rig(tree(decorator("succeeder", kFail))).tick() == "success");
    CHECK(Rig(tree(decorator("succeeder", wait(0.1)))).run(2) == Seq{"running", "success"});
    CHECK(Rig(tree(decorator("failer", kPass))).tick() == "failure");
}

TEST_CASE("repeat runs its child count times, one run per tick, and fails when the child fails")
{
    Rig rig(tree(decorator("repeat", kEmit, R"(, "count": 3)")));
    CHECK(rig.run(3) == Seq{"running", "running", "success"});
    CHECK(rig.count("emitted") == 3);
    CHECK(rig.tick() == "running"); // starts over
    CHECK(rig.count("emitted") == 4);
    Rig failing(tree(decorator("repeat", composite("sequence", {kEmit, kFail}), R"(, "count": 2)")));
    CHECK(failing.tick() == "failure");
}

TEST_CASE("repeat around a running child counts completed runs only")
{
    Rig rig(tree(decorator("repeat", wait(0.1), R"(, "count": 2)")));
    CHECK(rig.run(4) == Seq{"running", "running", "running", "success"});
}

TEST_CASE("repeat with count -1 never finishes")
{
    Rig rig(tree(decorator("repeat", kEmit, R"(, "count": -1)")));
    CHECK(rig.run(50) == Seq(50, "running"));
    CHECK(rig.count("emitted") == 50);
}

TEST_CASE("retry tries again after a failure until count attempts, and stops at a success")
{
    Rig rig(tree(decorator("retry", kFail, R"(, "count": 3)")));
    CHECK(rig.run(3) == Seq{"running", "running", "failure"});
    Rig later(tree(decorator("retry", kCheckFlag, R"(, "count": 5)")), {{"flag", false}});
    CHECK(later.run(2) == Seq{"running", "running"});
    later.brain().blackboard["flag"] = true;
    CHECK(later.tick() == "success");
}

TEST_CASE("timeout fails and halts its child when the child runs too long in simulation time")
{
    Rig rig(tree(decorator("timeout", kFarMove, R"(, "seconds": 0.3)")));
    CHECK(rig.run(4) == Seq{"running", "running", "running", "failure"});
    CHECK(rig.agent().stops == 1);
    CHECK(rig.nodeStatus(1) == NodeStatus::Idle);
    Rig quick(tree(decorator("timeout", wait(0.2), R"(, "seconds": 0.5)")));
    CHECK(quick.run(3) == Seq{"running", "running", "success"});
}

TEST_CASE("timeout counts frames times dt, not ticks")
{
    Rig rig(tree(decorator("timeout", kFarMove, R"(, "seconds": 0.3)")));
    rig.dt = 0.05; // twice as many frames for the same seconds
    CHECK(rig.run(7) == Seq{"running", "running", "running", "running", "running", "running", "failure"});
}

TEST_CASE("cooldown fails without ticking its child until the seconds have passed since it finished")
{
    Rig rig(tree(decorator("cooldown", kEmit, R"(, "seconds": 0.5)")));
    CHECK(rig.run(7) == Seq{"success", "failure", "failure", "failure", "failure", "success", "failure"});
    CHECK(rig.count("emitted") == 2);
}

TEST_CASE("wait runs for its seconds, read from the blackboard when asked")
{
    Rig rig(tree(R"({"type": "wait", "seconds": {"bb": "delay"}})"), {{"delay", 0.3}});
    CHECK(rig.run(4) == Seq{"running", "running", "running", "success"});
    Rig zero(tree(wait(0)));
    CHECK(zero.tick() == "success");
}

TEST_CASE("check compares blackboard values with every operator")
{
    struct Case
    {
        const char* op;
        json value;
        bool expected;
    };
    const Case cases[] = {{"==", 3, true},       {"==", 4, false},      {"!=", 4, true},  {"<", 4, true},
                          {"<", 3, false},       {"<=", 3, true},       {">", 2.5, true}, {">=", 3.5, false},
                          {"exists", nullptr, true}, {"missing", nullptr, false}, {"<", "x", false}};
    for (const Case& c : cases)
    {
        json node = {{"type", "check"}, {"key", "n"}, {"op", c.op}};
        if (!c.value.is_null())
            node["value"] = c.value;
        Rig rig(tree(node.dump()), {{"n", 3}});
        CAPTURE(c.op);
        CHECK(rig.tick() == (c.expected ? "success" : "failure"));
    }
    Rig strings(tree(R"({"type": "check", "key": "s", "op": "<", "value": "b"})"), {{"s", "a"}});
    CHECK(strings.tick() == "success");
    Rig fromBb(tree(R"({"type": "check", "key": "a", "op": ">", "value": {"bb": "b"}})"), {{"a", 5}, {"b", 2}});
    CHECK(fromBb.tick() == "success");
}

TEST_CASE("set writes a literal or another blackboard value")
{
    Rig rig(tree(composite("sequence", {R"({"type": "set", "key": "k", "value": 5})",
                                        R"({"type": "set", "key": "copy", "value": {"bb": "src"}})",
                                        R"({"type": "check", "key": "k", "value": 5})"})),
            {{"src", "hello"}});
    CHECK(rig.tick() == "success");
    CHECK(rig.brain().blackboard["k"] == 5);
    CHECK(rig.brain().blackboard["copy"] == "hello");
}

TEST_CASE("subtrees are inlined, each use with its own node state")
{
    const std::string doc = R"({"version": 1, "name": "t",
        "root": {"type": "sequence", "children": [{"type": "subtree", "subtree": "w"}, {"type": "subtree", "subtree": "w"}]},
        "subtrees": {"w": {"type": "sequence", "children": [{"type": "wait", "seconds": 0.1}]}}})";
    auto compiled = compileTree(json::parse(doc));
    REQUIRE(compiled.ok());
    CHECK(compiled->nodes.size() == 5);
    CHECK(compiled->depth == 3);
    CHECK(compiled->nodes[1].path == "/subtrees/w");
    CHECK(compiled->nodes[2].path == "/subtrees/w/children/0");
    CHECK(compiled->nodes[3].parent == 0);
    Rig rig(doc);
    CHECK(rig.run(3) == Seq{"running", "running", "success"});
}

TEST_CASE("blackboard parameters are read when the leaf runs")
{
    Rig rig(tree(R"({"type": "action", "name": "move_to", "params": {"target": {"bb": "goal"}}})"),
            {{"goal", {10, 0, 0}}});
    CHECK(rig.tick() == "running");
    CHECK(rig.agent().target.x == 10);
    rig.brain().blackboard["goal"] = Value::list({-10, 0, 0});
    CHECK(rig.tick() == "running");
    CHECK(rig.agent().target.x == -10);
    CHECK(rig.agent().moveRequests == 2);
}

TEST_CASE("a missing or mistyped blackboard parameter disables the brain with an error event")
{
    Rig rig(tree(R"({"type": "action", "name": "move_to", "params": {"target": {"bb": "goal"}}})"));
    const Status s = tickBrain(rig.state, rig.brain(), rig.world, TickClock{0, 0.1});
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().code == "E_AI_PARAMS");
    CHECK(s.error().field == "/root/params/target");
    CHECK_FALSE(rig.brain().enabled);
    CHECK(rig.count("error") == 1);
    const uint64_t ticks = rig.brain().ticks;
    stepBrains(rig.state, rig.world, TickClock{1, 0.1});
    CHECK(rig.brain().ticks == ticks);

    Rig typed(tree(R"({"type": "action", "name": "set_speed", "params": {"speed": {"bb": "v"}}})"), {{"v", "fast"}});
    const Status t = tickBrain(typed.state, typed.brain(), typed.world, TickClock{0, 0.1});
    REQUIRE_FALSE(t.ok());
    CHECK(t.error().code == "E_AI_PARAMS");
    CHECK(t.error().hint.find("number") != std::string::npos);
}

TEST_CASE("the tree status is recorded as an event when it changes")
{
    Rig rig(tree(wait(0.1)));
    rig.run(3);
    CHECK(rig.count("tree_status") == 3); // idle->running, running->success, success->running
}
