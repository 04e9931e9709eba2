// The crowd's plan phase (Crowd::servePlans in libnav/src/crowd/crowd_phases.cpp):
// plan requests are served first come first served within the step's node
// budget (NavWorld::setPlanNodesPerStep), the rest wait standing with reason
// waiting_for_plan, and the queue is part of the state.

#include "crowd_test_util.h"

#include <doctest/doctest.h>

#include <algorithm>

using namespace spark;
using namespace spark::nav;
using namespace spark::nav::test;

namespace
{

/// 12 agents in the west room of the doorway scene (3 columns × 4 rows),
/// each sent, in reverse handle order (so first come is not handle order),
/// to the mirrored place of the east room. Returns the agents in the order
/// their targets were set.
std::vector<AgentId> queueTwelve(Scene& s)
{
    putGround(s, bakeShapes(doorwayShapes()));
    std::vector<AgentId> added;
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 3; ++c)
        {
            Result<AgentId> id = s.world.addAgent(s.mesh, agentAt(2.0f + 2.0f * c, 1.5f + 2.3f * r));
            REQUIRE(id.ok());
            added.push_back(id.value());
        }
    std::vector<AgentId> order(added.rbegin(), added.rend());
    for (AgentId id : order)
    {
        const glm::vec3 p = s.world.agent(id)->position;
        REQUIRE(s.world.setAgentTarget(id, glm::vec3(21.0f - p.x, 0.0f, p.z)).ok());
        CHECK(s.world.agent(id)->reason == AgentReason::WaitingForPlan);
        CHECK(s.world.agent(id)->state == AgentState::Moving);
    }
    return order;
}

/// The nodes one request of agent `id` is charged: its search on its own.
uint32_t chargeOf(const Scene& s, AgentId id)
{
    const CrowdAgent& a = *s.world.agent(id);
    QueryScratch scratch;
    Corridor c;
    REQUIRE(planCorridor(*s.world.mesh(a.mesh), scratch, a.position, a.target, defaultQueryFilter(),
                         agentSearchExtents(a.def), c)
                .ok());
    return std::max<uint32_t>(1, scratch.lastSearchNodes() != 0 ? scratch.lastSearchNodes()
                                                               : static_cast<uint32_t>(c.polygons.size()));
}

/// Steps until `done` (the steps taken), or -1 after `maxSteps`.
template <class Done> int stepsUntil(Scene& s, int maxSteps, Done&& done)
{
    for (int k = 1; k <= maxSteps; ++k)
    {
        REQUIRE(s.world.stepCrowds(kDt).ok());
        if (done())
            return k;
    }
    return -1;
}

/// The agent's request waits in the plan queue.
bool queued(const Scene& s, AgentId id)
{
    return s.world.agent(id)->planTicket != 0;
}

} // namespace

TEST_CASE("plan requests are served first come first served, starting searches while the step's budget lasts")
{
    Scene s;
    const std::vector<AgentId> order = queueTwelve(s);
    std::vector<uint32_t> charge;
    for (AgentId id : order)
        charge.push_back(chargeOf(s, id));
    // A budget of about three searches a step.
    const uint32_t budget = charge[0] + charge[1] + charge[2];
    REQUIRE(s.world.setPlanNodesPerStep(budget).ok());
    size_t served = 0;
    int steps = 0;
    while (served < order.size())
    {
        REQUIRE(++steps <= 12);
        // The expected step: requests in order while less than the budget is spent.
        uint64_t spent = 0;
        size_t expect = served;
        while (expect < order.size() && spent < budget)
            spent += charge[expect++];
        const std::vector<glm::vec3> before = [&] {
            std::vector<glm::vec3> p;
            for (AgentId id : order)
                p.push_back(s.world.agent(id)->position);
            return p;
        }();
        REQUIRE(s.world.stepCrowds(kDt).ok());
        const CrowdPlanStats& stats = s.world.lastPlanStats();
        CHECK(stats.served == expect - served);
        CHECK(stats.nodes == spent);
        CHECK(stats.waiting == order.size() - expect);
        // Each search started with budget left: the last one may pass it, no other.
        CHECK(stats.nodes - charge[expect - 1] < budget);
        for (size_t k = 0; k < order.size(); ++k)
        {
            const CrowdAgent& a = *s.world.agent(order[k]);
            if (k < expect)
            {
                CHECK_FALSE(queued(s, order[k]));
                CHECK(a.corridor.polygons.size() > 1);
                CHECK(a.reason != AgentReason::WaitingForPlan);
            }
            else
            {
                // Waiting: it stands where it was, and says why.
                CHECK(queued(s, order[k]));
                CHECK(a.state == AgentState::Moving);
                CHECK(a.reason == AgentReason::WaitingForPlan);
                CHECK(agentReasonName(a.reason) == "waiting_for_plan");
                CHECK(a.position == before[k]);
                CHECK(a.velocity == glm::vec3(0.0f));
                CHECK(a.blockedFor == 0.0f); // waiting is not being blocked
            }
        }
        served = expect;
    }
    CHECK(steps >= 4);
    // All of them get there.
    CHECK(stepsUntil(s, 2400, [&] { return s.world.crowdCounts().arrived == order.size(); }) > 0);
}

TEST_CASE("a budget of one node serves one request a step; a new target keeps the place in the queue")
{
    Scene s;
    const std::vector<AgentId> order = queueTwelve(s);
    REQUIRE(s.world.setPlanNodesPerStep(1).ok());
    // The third in line changes its target: it keeps its place.
    REQUIRE(s.world.setAgentTarget(order[2], glm::vec3(19.0f, 0.0f, 9.0f)).ok());
    // The fourth stops: its request is dropped.
    REQUIRE(s.world.stopAgent(order[3]).ok());
    CHECK_FALSE(queued(s, order[3]));
    for (size_t k = 0; k < order.size(); ++k)
    {
        if (k == 3)
            continue;
        REQUIRE(s.world.stepCrowds(kDt).ok());
        CHECK(s.world.lastPlanStats().served == 1);
        CHECK_FALSE(queued(s, order[k]));
        if (k + 1 < order.size())
            CHECK(queued(s, order[k + 1 == 3 ? 4 : k + 1]));
    }
    CHECK(s.world.agent(order[2])->plannedTarget == glm::vec3(19.0f, 0.0f, 9.0f));
    CHECK(s.world.agent(order[3])->state == AgentState::Idle);
    REQUIRE(s.world.stepCrowds(kDt).ok());
    CHECK(s.world.lastPlanStats().served == 0);
    CHECK(s.world.lastPlanStats().waiting == 0);
}

TEST_CASE("an agent walking keeps standing on its old corridor while its new target waits, then walks the new one")
{
    Scene s;
    putGround(s, bakeShapes(doorwayShapes()));
    const AgentId walker = addWalker(s, 2.0f, 5.0f, 19.0f, 5.0f);
    for (int k = 0; k < 30; ++k)
        REQUIRE(s.world.stepCrowds(kDt).ok());
    // Two others ask first; one node a step: the walker waits two steps.
    const AgentId first = addWalker(s, 3.0f, 9.0f, 18.0f, 9.0f);
    const AgentId second = addWalker(s, 3.0f, 1.0f, 18.0f, 1.0f);
    const CrowdAgent& a = *s.world.agent(walker); // (after the adds: the agents may move in memory)
    REQUIRE(a.state == AgentState::Moving);
    const std::vector<uint32_t> corridor = a.corridor.polygons;
    REQUIRE(s.world.setPlanNodesPerStep(1).ok());
    REQUIRE(s.world.setAgentTarget(walker, glm::vec3(2.0f, 0.0f, 9.0f)).ok()); // back west
    const float speed = std::sqrt(a.velocity.x * a.velocity.x + a.velocity.z * a.velocity.z);
    REQUIRE(speed > 1.0f);
    REQUIRE(s.world.stepCrowds(kDt).ok());
    CHECK_FALSE(queued(s, first));
    CHECK(queued(s, walker));
    CHECK(a.reason == AgentReason::WaitingForPlan);
    CHECK(a.corridor.polygons.front() == corridor.front()); // the old corridor, not yet replaced
    // It brakes (its acceleration limit), it does not walk on.
    const float slower = std::sqrt(a.velocity.x * a.velocity.x + a.velocity.z * a.velocity.z);
    CHECK(slower < speed);
    REQUIRE(s.world.stepCrowds(kDt).ok());
    CHECK_FALSE(queued(s, second));
    CHECK(queued(s, walker));
    REQUIRE(s.world.stepCrowds(kDt).ok());
    CHECK_FALSE(queued(s, walker));
    CHECK(a.reason == AgentReason::None);
    CHECK(a.plannedTarget == glm::vec3(2.0f, 0.0f, 9.0f));
    CHECK(stepsUntil(s, 1200, [&] { return a.state == AgentState::Arrived; }) > 0);
    CHECK(distXZ(a.position, glm::vec3(2.0f, 0.0f, 9.0f)) <= a.def.stopDistance);
}

TEST_CASE("the default budget serves the 200 agents leaving a room in the step they were sent")
{
    Scene s;
    buildRoomExit(s);
    CHECK(s.world.planNodesPerStep() == kDefaultPlanNodesPerStep);
    REQUIRE(s.world.stepCrowds(kDt).ok());
    const CrowdPlanStats& stats = s.world.lastPlanStats();
    CHECK(stats.served == 200);
    CHECK(stats.searches == 200);
    CHECK(stats.waiting == 0);
    CHECK(stats.nodes < kDefaultPlanNodesPerStep);
    CHECK(stats.maxNodes == stats.nodes); // one mesh
    MESSAGE("200 agents planned in one step: " << stats.nodes << " nodes");
}

TEST_CASE("a queue left waiting is state: saved, restored and hashed; the budget is state when set")
{
    Scene s;
    const std::vector<AgentId> order = queueTwelve(s);
    const uint64_t defaultHash = s.world.hashState();
    REQUIRE(s.world.setPlanNodesPerStep(10).ok());
    CHECK(s.world.hashState() != defaultHash);
    REQUIRE(s.world.setPlanNodesPerStep(kDefaultPlanNodesPerStep).ok());
    CHECK(s.world.hashState() == defaultHash);
    REQUIRE(s.world.setPlanNodesPerStep(10).ok());
    REQUIRE(s.world.stepCrowds(kDt).ok());
    REQUIRE(s.world.lastPlanStats().waiting > 0);
    // A twin restored from the state steps in lockstep.
    NavWorld twin;
    twin.restoreState(s.world.saveState());
    CHECK(twin.planNodesPerStep() == 10u);
    CHECK(twin.hashState() == s.world.hashState());
    for (int k = 0; k < 120; ++k)
    {
        REQUIRE(s.world.stepCrowds(kDt).ok());
        REQUIRE(twin.stepCrowds(kDt).ok());
        REQUIRE(twin.hashState() == s.world.hashState());
    }
    // Waiting agents hash apart from planned ones.
    Scene t;
    (void)queueTwelve(t);
    const uint64_t queued = t.world.hashState();
    REQUIRE(t.world.setPlanNodesPerStep(1).ok());
    REQUIRE(t.world.setPlanNodesPerStep(kDefaultPlanNodesPerStep).ok());
    CHECK(t.world.hashState() == queued);
    REQUIRE(t.world.stopAgent(order[0]).ok());
    CHECK(t.world.hashState() != queued);
}

TEST_CASE("the plan budget is 1 .. kMaxPlanNodesPerStep; out of range is refused and changes nothing")
{
    NavWorld world;
    CHECK(world.planNodesPerStep() == kDefaultPlanNodesPerStep);
    const uint64_t before = world.hashState();
    for (uint32_t bad : {0u, kMaxPlanNodesPerStep + 1u, 0xffffffffu})
    {
        const Status st = world.setPlanNodesPerStep(bad);
        REQUIRE_FALSE(st.ok());
        CHECK(st.error().code == "E_INVALID_PARAMS");
        CHECK(st.error().field == "/plan_nodes_per_step");
        CHECK(world.planNodesPerStep() == kDefaultPlanNodesPerStep);
        CHECK(world.hashState() == before);
    }
    CHECK(world.setPlanNodesPerStep(1).ok());
    CHECK(world.setPlanNodesPerStep(kMaxPlanNodesPerStep).ok());
    CHECK(world.planNodesPerStep() == kMaxPlanNodesPerStep);
}

TEST_CASE("a target set for an agent off the mesh is refused; a target off the mesh is refused before queueing")
{
    Scene s;
    putGround(s, bakeShapes(doorwayShapes()));
    Result<AgentId> id = s.world.addAgent(s.mesh, agentAt(2.0f, 5.0f));
    REQUIRE(id.ok());
    const uint64_t before = s.world.hashState();
    const Status off = s.world.setAgentTarget(id.value(), glm::vec3(50.0f, 0.0f, 5.0f));
    REQUIRE_FALSE(off.ok());
    CHECK(off.error().code == "E_NAV_OFF_MESH");
    CHECK(off.error().field == "/target");
    CHECK(s.world.hashState() == before);
    CHECK_FALSE(queued(s, id.value()));
}
