// A brain tick allocates nothing: no string look-up, no JSON built, no scratch
// tree. Counted by this executable's global operator new (alloc_counter.cpp),
// switched on around the ticks only. Recording an event allocates (its JSON
// data), so the trees here tick without recording any once they are running.
// GCC 12 warns falsely (-Wrestrict, GCC bug 105329) in std::string code inlined
// from the rig into this file.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wrestrict"
#include "../rig.h"
#pragma GCC diagnostic pop

#include "alloc_counter.h"

using namespace spark;
using namespace spark::ai;
using namespace spark::ai::test;

namespace
{

/// Allocations made by `n` ticks of the rig's brain (and the world's steps).
long allocationsOfTicks(Rig& rig, int n)
{
    allocationCounter().count = 0;
    allocationCounter().on = true;
    bool ok = true;
    for (int i = 0; i < n; ++i)
    {
        ok = ok && tickBrain(rig.state, rig.brain(), rig.world, TickClock{rig.frame, rig.dt}, rig.leaves).ok();
        rig.world.step(rig.dt);
        ++rig.frame;
    }
    allocationCounter().on = false;
    REQUIRE(ok);
    return allocationCounter().count;
}

/// Reactive checks of blackboard values, a blackboard write, a condition on a
/// named target, a patrol along blackboard points beside a wait read from the
/// blackboard: every kind of per-tick read, nothing that records an event
/// while the patrol walks to its far first waypoint.
const char* kTree = R"({"version": 1, "name": "quiet", "root":
 {"type": "selector", "reactive": true, "children": [
   {"type": "sequence", "reactive": true, "children": [
     {"type": "set", "key": "patrolling", "value": {"bb": "health"}},
     {"type": "check", "key": "health", "op": "<", "value": 20},
     {"type": "action", "name": "move_to", "params": {"target": {"bb": "safe"}}}]},
   {"type": "sequence", "reactive": true, "children": [
     {"type": "condition", "name": "can_see", "params": {"target": {"bb": "target"}, "range": 15}},
     {"type": "set", "key": "seen", "value": true}]},
   {"type": "parallel", "children": [
     {"type": "action", "name": "patrol", "params": {"points": {"bb": "route"}, "stop_distance": {"bb": "near"}}},
     {"type": "timeout", "seconds": 1000, "child": {"type": "wait", "seconds": {"bb": "pause"}}},
     {"type": "succeeder", "child": {"type": "check", "key": "alarm", "op": "exists"}}]}]}})";

} // namespace

TEST_CASE("a running brain ticks without allocating")
{
    Rig rig(kTree, {{"health", 100},
                    {"safe", {0, 0, 50}},
                    {"target", "Player"},
                    {"route", {{100, 0, 0}, {100, 0, 100}}},
                    {"near", 0.5},
                    {"pause", 500}});
    rig.world.objects["Player"] = Vec3(0, 0, -200);
    rig.run(3); // starts the patrol, writes "patrolling", records the status change
    REQUIRE(rig.brain().status == NodeStatus::Running);
    const uint64_t events = rig.state.events.nextSeq;
    CHECK(allocationsOfTicks(rig, 200) == 0);
    CHECK(rig.state.events.nextSeq == events); // nothing recorded: the count is the ticks' own
    CHECK(rig.brain().status == NodeStatus::Running);
    CHECK(rig.brain().blackboard["patrolling"] == 100);
    CHECK(rig.agent().position.x > 10); // it walked

    // A value written from outside between ticks is read by slot, still without allocating.
    rig.brain().blackboard["health"] = 90;
    CHECK(allocationsOfTicks(rig, 10) == 0);
    CHECK(rig.brain().blackboard["patrolling"] == 90);
}

TEST_CASE("the allocation counter counts: a tick that records events allocates")
{
    Rig rig(R"({"version": 1, "name": "loud", "root": {"type": "action", "name": "log", "params": {"message": "hi"}}})");
    rig.run(1);
    CHECK(allocationsOfTicks(rig, 5) > 0);
}

TEST_CASE("the allocation counter counts over-aligned allocations too")
{
    // The counter replaces the aligned operator new too: an over-aligned
    // allocation in a tick must be counted.
    struct alignas(64) Line
    {
        unsigned char bytes[64];
    };
    allocationCounter().count = 0;
    allocationCounter().on = true;
    auto line = std::make_unique<Line>();
    allocationCounter().on = false;
    REQUIRE(alignof(Line) > __STDCPP_DEFAULT_NEW_ALIGNMENT__);
    CHECK(allocationCounter().count >= 1);
}
