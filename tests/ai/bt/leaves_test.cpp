// The built-in leaves against the fake world.
#include "../rig.h"

#include <algorithm>

using namespace spark;
using namespace spark::ai;
using namespace spark::ai::test;

namespace
{
std::string leafTree(const std::string& type, const std::string& name, const std::string& params)
{
    return R"({"version": 1, "name": "t", "root": {"type": ")" + type + R"(", "name": ")" + name +
           R"(", "params": )" + params + "}}";
}
std::string action(const std::string& name, const std::string& params) { return leafTree("action", name, params); }
std::string condition(const std::string& name, const std::string& params)
{
    return leafTree("condition", name, params);
}
/// A patrol along the blackboard's route [[5, 0, 0], [9, 0, 0]], its agent
/// moving at `speed`, ticked twice (running).
Rig routePatrolRig(double speed)
{
    Rig rig(action("patrol", R"({"points": {"bb": "route"}, "stop_distance": 0.1})"),
            {{"route", json::array({json::array({5, 0, 0}), json::array({9, 0, 0})})}});
    rig.agent().speed = speed;
    CHECK(rig.tick() == "running");
    CHECK(rig.tick() == "running");
    return rig;
}
} // namespace

TEST_CASE("move_to runs until the agent arrives, then succeeds with an arrived event")
{
    Rig rig(action("move_to", R"({"target": [1, 0, 0], "stop_distance": 0.2})"));
    rig.agent().speed = 2.0; // 0.2 m per frame
    std::vector<std::string> statuses = rig.run(8);
    CHECK(statuses.front() == "running");
    CHECK(statuses.back() == "success");
    CHECK(rig.count("arrived") == 1);
    CHECK(std::abs(rig.agent().position.x - 1.0) <= 0.2 + 1e-9);
}

TEST_CASE("a finished move_to reports its arrival once, not on every frame the tree runs it again")
{
    // The tree is the move alone, so each frame after the arrival starts it
    // anew, already at its target: it succeeds without a new event.
    Rig rig(action("move_to", R"({"target": [1, 0, 0], "stop_distance": 0.2})"));
    rig.agent().speed = 2.0;
    const std::vector<std::string> statuses = rig.run(60);
    CHECK(std::count(statuses.begin(), statuses.end(), "success") > 50);
    CHECK(rig.count("arrived") == 1);
    // An agent that starts at its target never moves, so never arrives.
    Rig there(action("move_to", R"({"target": [0, 0, 0], "stop_distance": 0.2})"));
    there.run(10);
    CHECK(there.count("arrived") == 0);
}

TEST_CASE("move_to to a named object follows it when it moves")
{
    Rig rig(action("move_to", R"({"target": "Player", "stop_distance": 0.5, "repath_distance": 1})"));
    rig.world.objects["Player"] = Vec3(20, 0, 0);
    rig.tick();
    rig.world.objects["Player"] = Vec3(20.5, 0, 0); // within repath distance: no new request
    rig.tick();
    CHECK(rig.agent().moveRequests == 1);
    rig.world.objects["Player"] = Vec3(20, 0, 5);
    rig.tick();
    CHECK(rig.agent().moveRequests == 2);
    CHECK(rig.agent().target.z == 5);
}

TEST_CASE("move_to fails when there is no path or the target does not exist")
{
    Rig rig(action("move_to", R"({"target": [500, 0, 0]})"));
    rig.world.reachLimit = 100;
    CHECK(rig.tick() == "failure");
    Rig missing(action("move_to", R"({"target": "Nobody"})"));
    CHECK(missing.tick() == "failure");
}

TEST_CASE("patrol walks its points in order with a waypoint event at each, looping")
{
    Rig rig(action("patrol", R"({"points": [[2, 0, 0], [2, 0, 2], [0, 0, 0]], "stop_distance": 0.1})"));
    rig.agent().speed = 10;
    rig.run(40);
    CHECK(rig.brain().status == NodeStatus::Running);
    std::vector<int> order;
    for (const AiEvent& e : rig.state.events.events)
        if (e.kind == "waypoint")
            order.push_back(e.data["index"].get<int>());
    REQUIRE(order.size() >= 4);
    for (size_t i = 0; i < order.size(); ++i)
        CHECK(order[i] == static_cast<int>(i % 3));
}

TEST_CASE("patrol along blackboard points reads the route again once it is rewritten")
{
    // The waypoint is kept from tick to tick while the route's slot keeps its
    // write stamp; a new route (a new stamp) is read at the next tick.
    Rig rig = routePatrolRig(1);
    CHECK(rig.agent().target == Vec3(5, 0, 0));
    CHECK(rig.count("waypoint") == 0);
    // The new first point is where the agent stands: reached at once, then on to the second.
    const Vec3 here = rig.agent().position;
    rig.brain().blackboard["route"] = json::array({json::array({here.x, here.y, here.z}), json::array({7, 0, 3})});
    CHECK(rig.tick() == "running");
    CHECK(rig.count("waypoint") == 1);
    CHECK(rig.agent().target == Vec3(7, 0, 3));
    // A route of the same points written again (a new stamp) changes nothing.
    rig.brain().blackboard["route"] = json::array({json::array({here.x, here.y, here.z}), json::array({7, 0, 3})});
    CHECK(rig.tick() == "running");
    CHECK(rig.count("waypoint") == 1);
    CHECK(rig.agent().target == Vec3(7, 0, 3));
}

TEST_CASE("patrol keeps no waypoint of a route rewritten since it was requested")
{
    // The agent stands still; the host's answers are set by hand.
    Rig rig = routePatrolRig(0);
    rig.agent().state = MoveState::Idle; // asked again: the waypoint is requested at the route's current stamp
    CHECK(rig.tick() == "running");
    CHECK(rig.agent().target == Vec3(5, 0, 0));
    CHECK(rig.agent().moveRequests == 2);
    // A new first point: the host saying "arrived" (at the point requested)
    // is no arrival at the new waypoint, at the first tick after the write or later.
    rig.brain().blackboard["route"] = json::array({json::array({-5, 0, 0}), json::array({9, 0, 0})});
    for (int i = 0; i < 3; ++i)
    {
        rig.agent().state = MoveState::Arrived;
        CHECK(rig.tick() == "running");
    }
    CHECK(rig.count("waypoint") == 0);
    CHECK(rig.agent().moveRequests == 2);
    // Idle again: the new first point is requested.
    rig.agent().state = MoveState::Idle;
    CHECK(rig.tick() == "running");
    CHECK(rig.agent().target == Vec3(-5, 0, 0));
}

TEST_CASE("patrol without loop succeeds after the last point")
{
    Rig rig(action("patrol", R"({"points": [[1, 0, 0], [1, 0, 1]], "loop": false, "stop_distance": 0.1})"));
    rig.agent().speed = 10;
    std::vector<std::string> statuses = rig.run(10);
    CHECK(std::find(statuses.begin(), statuses.end(), "success") != statuses.end());
    CHECK(rig.count("waypoint") >= 2);
}

TEST_CASE("patrol resumes at its next waypoint after being halted")
{
    const std::string doc = R"({"version": 1, "name": "t", "root": {"type": "selector", "reactive": true, "children": [
        {"type": "check", "key": "pause", "value": true},
        {"type": "action", "name": "patrol", "params": {"points": [[1, 0, 0], [5, 0, 0], [9, 0, 0]], "stop_distance": 0.1}}]}})";
    Rig rig(doc, {{"pause", false}});
    rig.agent().speed = 10;
    for (int i = 0; i < 40 && rig.count("waypoint") == 0; ++i)
        rig.tick();
    REQUIRE(rig.count("waypoint") == 1);
    rig.brain().blackboard["pause"] = true;
    CHECK(rig.tick() == "success");
    CHECK(rig.agent().state == MoveState::Idle); // halted patrol stopped the agent
    rig.brain().blackboard["pause"] = false;
    CHECK(rig.tick() == "running");
    CHECK(rig.agent().target.x == 5); // not back to the first point
}

TEST_CASE("can_see needs range, the view cone and line of sight, and records spotted and lost_sight")
{
    Rig rig(condition("can_see", R"({"target": "Player", "range": 10, "fov_deg": 90})"));
    rig.agent().forward = Vec3(0, 0, 1);
    rig.world.objects["Player"] = Vec3(0, 0, 5);
    CHECK(rig.tick() == "success");
    CHECK(rig.count("spotted") == 1);
    CHECK(rig.tick() == "success");
    CHECK(rig.count("spotted") == 1); // only on a change
    rig.world.objects["Player"] = Vec3(0, 0, 11); // out of range
    CHECK(rig.tick() == "failure");
    CHECK(rig.count("lost_sight") == 1);
    rig.world.objects["Player"] = Vec3(5, 0, 4.9); // 45.6 degrees off: outside a 90 degree cone
    CHECK(rig.tick() == "failure");
    rig.world.objects["Player"] = Vec3(4.9, 0, 5); // 44.4 degrees: inside
    CHECK(rig.tick() == "success");
    rig.world.walls.push_back({-1, 2, 6, 3});      // a wall between
    CHECK(rig.tick() == "failure");
    CHECK(rig.count("spotted") == 2);
    CHECK(rig.count("lost_sight") == 2);
}

TEST_CASE("within, arrived and has_path answer from the world")
{
    Rig within(condition("within", R"({"target": [3, 0, 4], "distance": 5})"));
    CHECK(within.tick() == "success");
    Rig outside(condition("within", R"({"target": [3, 0, 4], "distance": 4.99})"));
    CHECK(outside.tick() == "failure");
    Rig arrived(condition("arrived", "{}"));
    CHECK(arrived.tick() == "failure");
    arrived.agent().state = MoveState::Arrived;
    CHECK(arrived.tick() == "success");
    Rig path(condition("has_path", R"({"target": [500, 0, 0]})"));
    CHECK(path.tick() == "success");
    path.world.reachLimit = 100;
    CHECK(path.tick() == "failure");
}

TEST_CASE("chance follows its probability with the brain's seeded generator")
{
    auto successes = [](uint64_t seed, double p) {
        Rig rig(condition("chance", R"({"probability": )" + std::to_string(p) + "}"), json::object(), seed);
        std::string pattern;
        for (int i = 0; i < 1000; ++i)
            pattern += rig.tick() == "success" ? '1' : '0';
        return pattern;
    };
    const std::string a = successes(7, 0.3), b = successes(7, 0.3), c = successes(8, 0.3);
    CHECK(a == b);
    CHECK(a != c);
    const auto ones = std::count(a.begin(), a.end(), '1');
    CHECK(ones > 240);
    CHECK(ones < 360);
    CHECK(successes(1, 0).find('1') == std::string::npos);
    CHECK(successes(1, 1).find('0') == std::string::npos);
}

TEST_CASE("stop, face, set_speed, log and emit act at once and succeed")
{
    Rig stop(action("stop", "{}"));
    stop.agent().state = MoveState::Moving;
    CHECK(stop.tick() == "success");
    CHECK(stop.agent().state == MoveState::Idle);

    Rig face(action("face", R"({"target": [3, 0, 0]})"));
    CHECK(face.tick() == "success");
    CHECK(face.agent().forward.x == doctest::Approx(1.0));

    Rig speed(action("set_speed", R"({"speed": 4.5})"));
    CHECK(speed.tick() == "success");
    CHECK(speed.agent().speed == 4.5);

    Rig log(action("log", R"({"message": "hello"})"));
    CHECK(log.tick() == "success");
    REQUIRE(log.count("log") == 1);

    Rig emit(action("emit", R"({"event": "alarm", "data": {"bb": "level"}})"), {{"level", 3}});
    CHECK(emit.tick() == "success");
    const AiEvent& e = emit.state.events.events.back().kind == "emitted" ? emit.state.events.events.back()
                                                                         : emit.state.events.events.front();
    CHECK(e.kind == "emitted");
    CHECK(e.data["name"] == "alarm");
    CHECK(e.data["data"] == 3);
    CHECK(e.agent == "A");
}

TEST_CASE("every built-in leaf's parameter enum names its manifest parameters in order")
{
    // The static_asserts in leaves.cpp check the constant table; this checks the built manifest.
    const Status s = checkBuiltinParamEnums();
    if (!s.ok())
        MESSAGE(s.error().message);
    CHECK(s.ok());
    CHECK(paramDef(leafDef(LeafId::CanSee), CanSeeParam::EyeHeight).name == "eye_height");
    CHECK(paramDef(leafDef(LeafId::MoveTo), MoveToParam::RepathDistance).name == "repath_distance");

    // A reordered or shorter declaration is refused, naming the first difference.
    LeafDef reordered = leafDef(LeafId::MoveTo);
    std::swap(reordered.params[1], reordered.params[2]);
    const Status swapped = checkParamEnum<MoveToParam>(reordered);
    REQUIRE_FALSE(swapped.ok());
    CHECK(swapped.error().code == kCodeParams);
    CHECK(swapped.error().field == "/params/1");
    LeafDef shorter = leafDef(LeafId::CanSee);
    shorter.params.pop_back();
    const Status missing = checkParamEnum<CanSeeParam>(shorter);
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().field == "/params/3");
    CHECK_FALSE(checkParamEnum<PatrolParam>(leafDef(LeafId::MoveTo)).ok());
}

TEST_CASE("a compiled call names its leaf and its index in the built-in registry")
{
    Rig rig(action("set_speed", R"({"speed": 3})"));
    const LeafCall& call = rig.state.trees.at("t").nodes[0].call;
    CHECK(call.leaf == LeafId::SetSpeed);
    CHECK(call.name == "set_speed");
    CHECK(call.index == static_cast<uint32_t>(LeafId::SetSpeed));
    CHECK(slot(call, SetSpeedParam::Speed).literal == 3);
}

TEST_CASE("a blackboard parameter found to fit is checked again once its value is rewritten")
{
    // The check is kept with the slot's value (Blackboard::markChecked) until
    // the slot is written: a new value that no longer fits is refused.
    Rig rig(action("face", R"({"target": {"bb": "goal"}})"), {{"goal", {3, 0, 0}}});
    CHECK(rig.tick() == "success");
    CHECK(rig.tick() == "success");
    rig.brain().blackboard["goal"] = true;
    const Status s = tickBrain(rig.state, rig.brain(), rig.world, TickClock{rig.frame, rig.dt}, rig.leaves);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().code == kCodeParams);
    CHECK_FALSE(rig.brain().enabled);
}

TEST_CASE("each blackboard key the tree names reads its own slot and keeps its own fit check")
{
    // The tree names "b" before "a"; the blackboard has "a" in its first slot.
    Rig rig(R"({"version": 1, "name": "t", "root": {"type": "sequence", "children": [
        {"type": "action", "name": "face", "params": {"target": {"bb": "b"}}},
        {"type": "check", "key": "a", "op": "exists"},
        {"type": "action", "name": "face", "params": {"target": {"bb": "a"}}}]}})",
            {{"a", {3, 0, 0}}, {"b", {0, 0, 3}}});
    CHECK(rig.tick() == "success");
    CHECK(rig.agent().forward == Vec3(1, 0, 0)); // faced "b", then "a"
    // A new value of "b" that does not fit is refused although "a"'s check holds.
    rig.brain().blackboard["b"] = 7;
    const Status s = tickBrain(rig.state, rig.brain(), rig.world, TickClock{rig.frame, rig.dt}, rig.leaves);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().code == kCodeParams);
    CHECK(s.error().field == "/root/children/0/params/target");
}

TEST_CASE("a brain whose tree names its keys in another order than its slots reads each key's own slot")
{
    // Attached with a tree naming "a" then "b" (slots 0 and 1, key i in slot i),
    // then the tree is reloaded naming "b" first: key 0 is now slot 1.
    const char* kFirst = R"({"version": 1, "name": "t", "root": {"type": "sequence", "children": [
        {"type": "check", "key": "a", "op": "exists"},
        {"type": "action", "name": "face", "params": {"target": {"bb": "b"}}}]}})";
    Rig rig(kFirst, {{"a", {3, 0, 0}}, {"b", {0, 0, 3}}});
    CHECK(rig.tick() == "success");
    CHECK(rig.brain().resolved.keysAreSlots);
    CHECK(rig.agent().forward == Vec3(0, 0, 1)); // faced "b"
    auto reordered =
        compileTree(json::parse(R"({"version": 1, "name": "t", "root": {"type": "sequence", "children": [
        {"type": "action", "name": "face", "params": {"target": {"bb": "b"}}},
        {"type": "action", "name": "face", "params": {"target": {"bb": "a"}}}]}})"));
    REQUIRE(reordered.ok());
    REQUIRE(reordered->keys == std::vector<std::string>{"b", "a"});
    putTree(rig.state, std::move(reordered.value()));
    CHECK(rig.tick() == "success");
    CHECK_FALSE(rig.brain().resolved.keysAreSlots);
    CHECK(rig.agent().forward == Vec3(1, 0, 0)); // faced "b", then "a"
    // A value of "a" that does not fit is refused: its own slot's check, not "b"'s.
    rig.brain().blackboard["a"] = 7;
    const Status s = tickBrain(rig.state, rig.brain(), rig.world, TickClock{rig.frame, rig.dt}, rig.leaves);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().field == "/root/children/1/params/target");
}
