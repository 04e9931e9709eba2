// The crowd soak (CTest label `long`: `ctest -L long -R nav_crowd_soak`):
// 2,000 agents (radius 0.4) in an 80 × 80 m hall with a 5 × 5 grid of 6 m
// pillars (corridors 8 m wide between them), each sent to a seeded random
// place and, on arrival, to the next one, for 20,000 steps of 1/60 s (333 s).
// It checks that no pair of agents is ever closer than 0.95 × (ri + rj) (the
// avoidance's guard; they start at least 1.2 × apart) and prints what it saw:
// the longest time an agent went without headway (kStuckReach radii) and
// where, how many times an agent went 10 s without headway, the smallest
// distance, arrivals, agents that made way. It fails when an agent goes
// longer than 10 s without headway (issue 35's goal). Measured (longest
// wait, waits past 10 s, arrivals, smallest distance):
//  - 20,000 steps: without detours 43.0 s, 1,591, 3,618, 0.950018; with
//    detours round jams (congestion.cpp) 35.5 s, 216, 12,804, 0.95; with
//    detours and stuck agents first in giving way (crowd_phases.cpp, rule 5c; the
//    previous crowd) 39.6 s (step 11,942, at x 39.5 z 35.1, south of the
//    middle pillar), 115, 13,850, 0.95; with a slow walker's jam cost
//    growing with its wait (congestion.h, kJamWaitScale 4 s) 13.1 s (step
//    19,947, x 20.6 z 57.7), 5, 14,990, 0.95; with it growing twice as
//    fast (kJamWaitScale 2 s; the current crowd) 9.2 s (step 17,092, x 41.0
//    z 56.4, by the pillar at x 36..42 z 50..56), 0, 15,537, 0.95. Tried and
//    worse: 64 detour searches per step instead of 32 (so no agent's turn
//    is lost to the budget; on top of the previous crowd) 41.9 s, 128,
//    13,640; on top of kJamWaitScale 4 s, an agent without headway for
//    more than 4 s avoiding with its priority × (1 + its wait past 4 s),
//    up to 8 (the longer wait wins a knot): more waits past 7 s from the
//    start (22 against 16 by step 8,000) and a jam round the pillar at x
//    64..70 z 36..42 from step 11,000 on (stopped there). Tried and no
//    better: kJamWaitScale 1 s 9.6 s (step 13,255, x 9.4 z 42.7), 0,
//    15,511, 0.950001.
//  - 6,000 steps (SPARK_SOAK_STEPS=6000 runs that many): without detours
//    20.5 s, 164, 2,248; with detours 14.5 s, 3, 4,209; the previous
//    crowd 9.4 s (step 5,211, x 41.4 z 35.5), 0, 4,403, 0.950002; the
//    current crowd 8.6 s (step 3,706, x 52.8 z 21.5), 0, 4,313, 0.95.
// Where they wait (issue 35, measured): not at doors or behind parked agents
// (the soak re-targets every arrival, so nobody parks). Without detours, in
// one jam that grew over the middle of the hall: random trips' shortest
// paths cross there and hug the pillars' corners, so from ~1,500 steps on
// the demand through the middle was more than a packed crowd passes. With
// detours that jam is gone; the longest waits left were at the pillars'
// corners; the one looked at closely (step 3,438, x 42.4 z 36.6): an agent
// walking down a pillar's side to turn round its corner waits for a gap in
// a stream walking up that side along the wall (the stream keeps right,
// which for it is the wall side; the string-pulled path of the one waiting
// hugs the corner), among 3 walking neighbours (reason blocked_by_agents);
// giving way went by handle order alone, so it yielded to every passer with
// a lower handle: stuck agents first in giving way changed that. Tried and no better (6,000 steps): detours
// plus the next polygon of the way charged 3.5 m per second waited 13.8 s,
// 4, 4,213. Tried without detours and worse: avoidance priority growing
// with the wait (x (1 + s)) 70.6 s, 1,935 arrivals; ORCA horizon 0.75 s
// instead of 1.5 s 34.6 s, 2,204; both 85.4 s, 1,923; no keep-right
// 42.9 s, 1,671; no giving way 42.4 s, 2,154.
// ~3 minutes of CPU.

#include "crowd_test_util.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

using namespace spark;
using namespace spark::nav;
using namespace spark::nav::test;

namespace
{

constexpr int kAgents = 2000;
constexpr int kSteps = 20000;

/// The steps to run: kSteps, or SPARK_SOAK_STEPS (for trying a change on a shorter run).
int soakSteps()
{
    const char* text = std::getenv("SPARK_SOAK_STEPS");
    const int steps = text ? std::atoi(text) : 0;
    return steps > 0 ? steps : kSteps;
}
constexpr float kHall = 80.0f;

/// The pillars: 6 m squares at 8 + 14 k (k = 0..4) on both axes.
std::vector<Rect2D> pillars()
{
    std::vector<Rect2D> out;
    for (int i = 0; i < 5; ++i)
        for (int j = 0; j < 5; ++j)
        {
            const float x = 8.0f + 14.0f * static_cast<float>(i), z = 8.0f + 14.0f * static_cast<float>(j);
            out.push_back(Rect2D{{x, z}, {x + 6.0f, z + 6.0f}});
        }
    return out;
}

/// A seeded place of the hall at least 0.6 m from the walls and the pillars.
glm::vec3 randomPlace(Rng& rng, const std::vector<Rect2D>& blocks)
{
    for (;;)
    {
        const float x = static_cast<float>(rngNextRange(rng, 0.6, kHall - 0.6));
        const float z = static_cast<float>(rngNextRange(rng, 0.6, kHall - 0.6));
        bool free = true;
        for (const Rect2D& r : blocks)
            free = free && !(x > r.min.x - 0.6f && x < r.max.x + 0.6f && z > r.min.y - 0.6f && z < r.max.y + 0.6f);
        if (free)
            return glm::vec3(x, 0.0f, z);
    }
}

/// Smallest centre distance / (ri + rj) over all pairs (a sweep along x).
double smallestRatio(const Scene& s, std::vector<std::pair<float, size_t>>& order)
{
    order.clear();
    for (size_t i = 0; i < s.agents.size(); ++i)
        order.push_back({s.world.agent(s.agents[i])->position.x, i});
    std::sort(order.begin(), order.end());
    double best = 1.0e9;
    for (size_t k = 0; k < order.size(); ++k)
    {
        const CrowdAgent& a = *s.world.agent(s.agents[order[k].second]);
        for (size_t m = k + 1; m < order.size() && order[m].first - order[k].first < 2.0f * kAgentRadius; ++m)
        {
            const CrowdAgent& b = *s.world.agent(s.agents[order[m].second]);
            const double dx = double(a.position.x) - b.position.x, dz = double(a.position.z) - b.position.z;
            best = std::min(best, std::sqrt(dx * dx + dz * dz) / (double(a.def.radius) + b.def.radius));
        }
    }
    return best;
}

} // namespace

TEST_CASE("soak: 2,000 agents with random targets for 20,000 steps: no pair < 0.95 x 2r, arrivals and long waits bounded")
{
    Scene s;
    const std::vector<Rect2D> blocks = pillars();
    putGround(s, bakeShapes(box(0, 0, kHall, kHall, blocks)));
    Rng rng = rngFromSeed(35);
    std::vector<glm::vec3> starts;
    while (starts.size() < static_cast<size_t>(kAgents))
    {
        const glm::vec3 p = randomPlace(rng, blocks);
        bool free = true;
        for (const glm::vec3& q : starts)
            free = free && (p.x - q.x) * (p.x - q.x) + (p.z - q.z) * (p.z - q.z) >= 0.96f * 0.96f;
        if (free)
            starts.push_back(p);
    }
    for (const glm::vec3& p : starts)
    {
        const glm::vec3 t = randomPlace(rng, blocks);
        addWalker(s, p.x, p.z, t.x, t.z);
    }
    std::vector<std::pair<float, size_t>> order;
    double minRatio = smallestRatio(s, order);
    float longestBlocked = 0.0f;
    glm::vec3 longestWhere(0.0f);
    int arrivals = 0, madeWay = 0, longestAt = -1, waitsOver10 = 0;
    std::vector<uint8_t> wasMakingWay(s.agents.size(), 0);
    const int steps = soakSteps();
    for (int step = 1; step <= steps; ++step)
    {
        REQUIRE(s.world.stepCrowds(kDt).ok());
        for (size_t i = 0; i < s.agents.size(); ++i)
        {
            const CrowdAgent& a = *s.world.agent(s.agents[i]);
            if (a.blockedFor > longestBlocked)
            {
                longestBlocked = a.blockedFor;
                longestAt = step;
                longestWhere = a.position;
            }
            // A wait that has just passed 10 s.
            waitsOver10 += a.blockedFor >= 10.0f && a.blockedFor - static_cast<float>(kDt) < 10.0f ? 1 : 0;
            const bool making = a.reason == AgentReason::MakingWay;
            madeWay += making && !wasMakingWay[i] ? 1 : 0;
            wasMakingWay[i] = making ? 1 : 0;
            if (a.state == AgentState::Arrived)
            {
                ++arrivals;
                const glm::vec3 t = randomPlace(rng, blocks);
                REQUIRE(s.world.setAgentTarget(s.agents[i], t).ok());
            }
        }
        minRatio = std::min(minRatio, smallestRatio(s, order));
    }
    MESSAGE("soak: " << arrivals << " arrivals in " << steps << " steps; longest without headway " << longestBlocked
                     << " s (step " << longestAt << ", at x " << longestWhere.x << " z " << longestWhere.z << "); "
                     << waitsOver10 << " waits past 10 s; smallest distance " << minRatio << " x (ri + rj); "
                     << madeWay << " times an agent made way");
    CHECK(longestBlocked <= 10.0f); // issue 35's goal (9.2 s measured, see the top)
    CHECK(waitsOver10 == 0);
    CHECK(minRatio >= 0.95);
    // What the detours bought, kept (without them: 3,618 arrivals in 20,000
    // steps; with them 12,804; now 15,537).
    CHECK(arrivals >= steps / 2);
}
