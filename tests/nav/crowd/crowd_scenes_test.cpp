// Crowd scenes on 2D meshes (agent radius 0.4, steps of 1/60 s) with the
// invariants checked after every step (crowd_test_util.h): no agent leaves the
// mesh, the smallest centre distance over the run stays >= 0.95 × (ri + rj), no
// agent is faster than its max speed, an arrived agent stays exactly still
// until it makes way for another. Each scene states the steps within which
// every agent must have arrived (measured when written: doorway 1375, head-on
// 505, crossing 1170, shared goal 325; now 1136, 508, 578, 299; the bounds
// leave room for tuning, not for a stall). Then determinism:
// twin worlds in lockstep, snapshot → restore → step, and a pinned hash.

#include "crowd_test_util.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <string>

using namespace spark;
using namespace spark::nav;
using namespace spark::nav::test;

namespace
{

/// Lists the agents that have not arrived, with their states (a stalled scene's diagnosis).
void dumpLeft(const Scene& s)
{
    for (size_t i = 0; i < s.agents.size(); ++i)
    {
        const CrowdAgent& a = *s.world.agent(s.agents[i]);
        if (a.state == AgentState::Arrived)
            continue;
        MESSAGE("agent " << i << " at " << a.position.x << "," << a.position.z << " target " << a.target.x << ","
                         << a.target.z << " state " << agentStateName(a.state) << " " << agentReasonName(a.reason)
                         << " blocked " << a.blockedFor << " desired " << a.desired.x << "," << a.desired.z);
    }
}

/// Runs a scene until every agent arrived, at most `maxSteps`, and checks the
/// invariants; on a stall it lists the agents left with their states.
void runToArrival(Scene& s, int maxSteps, Watch& w)
{
    const int steps = runScene(s, w, maxSteps, [&] { return allArrived(s); });
    INFO("arrived after " << steps << " steps (−1: not within " << maxSteps << "); smallest centre distance "
                          << w.minRatio << " × (ri + rj) at step " << w.minRatioStep);
    if (steps < 0)
        dumpLeft(s);
    CHECK(steps > 0);
    checkWatch(w);
}

void runToArrival(Scene& s, int maxSteps)
{
    Watch w;
    runToArrival(s, maxSteps, w);
}

std::string hex(uint64_t v)
{
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
    return buf;
}

} // namespace

TEST_CASE("doorway: 2 × 10 agents swap rooms through a 2 m door within 2400 steps")
{
    Scene s;
    buildDoorway(s);
    runToArrival(s, 2400);
}

TEST_CASE("head-on corridor: 3 agents each way in single file down a 3 m corridor pass within 900 steps")
{
    Scene s;
    buildHeadOn(s);
    runToArrival(s, 900);
}

TEST_CASE("4-way crossing: 6 agents from each arm of a crossroads reach the opposite arm within 1800 steps")
{
    Scene s;
    buildCrossing(s);
    runToArrival(s, 1800);
}

TEST_CASE("shared goal: 50 agents sent to one point settle round it within 900 steps")
{
    // They cannot all stand on the point: those that walk into an arrived agent
    // sharing their target arrive against it, so the crowd settles, every speed
    // exactly zero, instead of pressing forever.
    Scene s;
    buildSharedGoal(s);
    runToArrival(s, 900);
    CHECK(largestSpeed(s) == 0.0f);
    CHECK(s.world.crowdCounts().arrived == 50);
    // The settled crowd is packed round the point: every agent within 4.6 m of
    // it (the last to arrive settles against the ring it meets; with ORCA's
    // tau/8-only retry on the plane one of the 50 stops 4.54 m out).
    for (AgentId id : s.agents)
    {
        const glm::vec3& p = s.world.agent(id)->position;
        CHECK((p.x - 10.0f) * (p.x - 10.0f) + (p.z - 10.0f) * (p.z - 10.0f) < 4.6f * 4.6f);
    }
}

// The must-show flow scenes of issue 35 that hold today (the 2 m doorway above
// is the third door). Bounds: measured × ~1.5 when first written (2.4 m door
// 1192 steps, 0.8 m door 2170, 4-way 642, 8-way 696, 16-way 544; with making
// way, lanes and the held-back move 1058, 1566, 649, 703, 518; with stuck
// agents first in giving way 968, 1548, 649, 703, 518); the hash is
// the whole state on arrival.
TEST_CASE("flow: 2 × 10 agents swap rooms through a 2.4 m door within 1800 steps")
{
    Scene s;
    buildDoorOf(s, 2.4f);
    runToArrival(s, 1800);
    CHECK(hex(s.world.hashState()) == "972a6579bb41ad36");
}

TEST_CASE("flow: 2 × 10 agents swap rooms through a door 0.8 m wide for their centres (1.6 m) within 3300 steps")
{
    Scene s;
    buildDoorOf(s, 1.6f);
    runToArrival(s, 3300);
    CHECK(hex(s.world.hashState()) == "bfa4c557e64dae5f");
}

TEST_CASE("flow: symmetric 4-, 8- and 16-way crossings each arrive within 1000 steps")
{
    for (int k : {4, 8, 16})
    {
        CAPTURE(k);
        Scene s;
        buildCircleCrossing(s, k);
        runToArrival(s, 1000);
        CHECK(hex(s.world.hashState()) == (k == 4 ? "d979258a74c20000" : k == 8 ? "b0f99ec9885e0a81" : "c7354d5b65fcc198"));
    }
}

// Agents parked on their goals make way (reason making_way) in both: the
// walkers behind pass them. Bounds: measured × ~1.5 (head-on groups 1771
// steps, room 14,399: the door passes one agent every 1.2 s; with stuck
// agents first in giving way 2181 and 11,884); every pair stays
// at >= 0.95 × (ri + rj) (the avoidance's guard, kept by the move).
/// Runs a make-way scene to arrival within `bound` steps: someone made way,
/// every pair stayed >= 0.95 × (ri + rj), and the state hashes to `hash`.
template <class Build> void runMakeWayScene(Build&& build, int bound, const char* hash)
{
    Scene s;
    build(s);
    Watch w;
    runToArrival(s, bound, w);
    CHECK(w.madeWay > 0);
    CHECK(w.minRatio >= 0.95);
    CHECK(hex(s.world.hashState()) == hash);
}

TEST_CASE("flow: two groups of 10 head-on in a 3 m corridor swap places within 2700 steps")
{
    runMakeWayScene(buildHeadOnGroups, 2700, "88e123c59f123372");
}

TEST_CASE("flow: 200 agents leave a room through one 2 m door within 21600 steps")
{
    runMakeWayScene(buildRoomExit, 21600, "667acc5af85a0dad");
}

TEST_CASE("two worlds stepped in lockstep are bit-equal after every step")
{
    Scene a, b;
    buildDoorway(a);
    buildDoorway(b);
    REQUIRE(a.world.hashState() == b.world.hashState());
    for (int k = 0; k < 900; ++k)
    {
        REQUIRE(a.world.stepCrowds(kDt).ok());
        REQUIRE(b.world.stepCrowds(kDt).ok());
        if (a.world.hashState() != b.world.hashState())
        {
            FAIL_CHECK("the twins differ after step " << k + 1);
            break;
        }
    }
}

TEST_CASE("snapshot, restore into another world and step gives the same states as stepping on")
{
    Scene s;
    buildDoorway(s);
    for (int k = 0; k < 300; ++k)
        REQUIRE(s.world.stepCrowds(kDt).ok());
    const NavWorldState saved = s.world.saveState();
    for (int k = 0; k < 300; ++k)
        REQUIRE(s.world.stepCrowds(kDt).ok());
    NavWorld other; // its own avoidance object and scratch: not state
    other.restoreState(saved);
    for (int k = 0; k < 300; ++k)
        REQUIRE(other.stepCrowds(kDt).ok());
    CHECK(other.hashState() == s.world.hashState());
}

TEST_CASE("the doorway scene hashes to a pinned value after 600 steps")
{
    // Covers the whole NavWorldState after 600 steps of 1/60 s of the doorway
    // scene (buildDoorway: the 2D bake of the two rooms at 0.1 m eroded by 0.4,
    // 20 agents with default defs and their targets): the mesh's name, source,
    // bake hash and polygon generation, then every agent's def, position,
    // velocity, state, targets and corridor, and the step count. It moves when
    // the 2D bake, the corridors, steering, the crowd rules, ORCA or the
    // determinism flags change the numbers; a change must be explained in the
    // commit that repins it.
    Scene s;
    buildDoorway(s);
    for (int k = 0; k < 600; ++k)
        REQUIRE(s.world.stepCrowds(kDt).ok());
    CHECK(hex(s.world.hashState()) == "d8ea30d41f2fa71a");
}
