// Why an agent is in its state (crowd.h AgentReason), its heading, the crowd
// events (stuck, unstuck, relocated), and the states that once stayed
// `moving` forever: a target on a link's landing, max_speed 0 with a target,
// a link too slow to cross, a body that failed its jump.

#include "../mesh/test_meshes.h"
#include "crowd_test_util.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <memory>

using namespace spark;
using namespace spark::nav;
using namespace spark::nav::test;

namespace
{

/// A ledge: an upper floor x in [0, 4] at y = 2, a lower one x in [5, 10] at y = 0 (3D, agent radius 0.25).
MeshId putLedge(NavWorld& world)
{
    NavMeshDef def = defaultNavMeshDef();
    def.is2d = false;
    def.settings.agentRadius = 0.25f;
    Result<NavMesh> mesh = buildNavMesh(soupFromRects({Rect{0, 0, 4, 4, 0, 2.0f}, Rect{5, 0, 10, 4, 0, 0.0f}}), def);
    REQUIRE(mesh.ok());
    MeshDef md = defaultMeshDef();
    md.name = "ledge";
    md.mesh = std::make_shared<const NavMesh>(std::move(mesh).value());
    Result<MeshId> id = world.putMesh(std::move(md));
    REQUIRE(id.ok());
    return id.value();
}

/// A one-way link of `kind` from `a` to `b` at `speed`.
LinkId putLink(NavWorld& world, MeshId mesh, glm::vec3 a, glm::vec3 b, OffMeshKind kind, float speed = 3.0f)
{
    OffMeshLinkDef d = defaultOffMeshLinkDef();
    d.start = a;
    d.end = b;
    d.kind = kind;
    d.bidirectional = false;
    d.speed = speed;
    d.arcHeight = 1.0f;
    Result<LinkId> id = world.addOffMeshLink(mesh, d);
    REQUIRE(id.ok());
    return id.value();
}

AgentId addLedgeAgent(NavWorld& world, MeshId mesh, glm::vec3 at)
{
    CrowdAgentDef def = defaultCrowdAgentDef();
    def.radius = 0.25f;
    def.position = at;
    Result<AgentId> id = world.addAgent(mesh, def);
    REQUIRE(id.ok());
    return id.value();
}

/// Steps until `done` or `steps` steps; true when done.
template <class Done> bool stepUntil(NavWorld& world, int steps, double dt, Done&& done)
{
    for (int k = 0; k < steps; ++k)
    {
        REQUIRE(world.stepCrowds(dt).ok());
        if (done())
            return true;
    }
    return false;
}

size_t countEvents(const NavWorld& world, AgentId agent, CrowdEventKind kind)
{
    const auto events = world.crowdEvents();
    return static_cast<size_t>(std::count_if(events.begin(), events.end(), [&](const CrowdEvent& e) {
        return e.agent == agent && e.kind == kind;
    }));
}

} // namespace

TEST_CASE("an agent whose target is a link's landing point drops, lands on it and arrives")
{
    NavWorld world;
    const MeshId mesh = putLedge(world);
    putLink(world, mesh, {3.8f, 2.0f, 3.0f}, {5.5f, 0.0f, 3.0f}, OffMeshKind::Drop);
    const AgentId a = addLedgeAgent(world, mesh, {1.0f, 2.0f, 3.0f});
    REQUIRE(world.setAgentTarget(a, {5.5f, 0.0f, 3.0f}).ok());
    bool sawLink = false;
    const bool arrived = stepUntil(world, 400, 0.05, [&] {
        const CrowdAgent& c = *world.agent(a);
        if (c.leap.active)
        {
            sawLink = true;
            CHECK(c.reason == AgentReason::OnLink);
        }
        return c.state == AgentState::Arrived;
    });
    CHECK(sawLink);
    CHECK(arrived);
    CHECK(world.agent(a)->reason == AgentReason::None);
    CHECK(world.agent(a)->position.y == doctest::Approx(0.0f));
}

TEST_CASE("max_speed 0 with a target is no_path / zero_speed; given a speed the agent walks and arrives")
{
    Scene s;
    putGround(s, bakeShapes(box(0, 0, 10, 10)));
    CrowdAgentDef def = agentAt(2.0f, 5.0f);
    def.maxSpeed = 0.0f;
    const AgentId a = s.world.addAgent(s.mesh, def).value();
    REQUIRE(s.world.setAgentTarget(a, {8.0f, 0.0f, 5.0f}).ok());
    REQUIRE(s.world.stepCrowds(kDt).ok());
    CHECK(s.world.agent(a)->state == AgentState::NoPath);
    CHECK(s.world.agent(a)->reason == AgentReason::ZeroSpeed);
    CHECK(agentReasonName(s.world.agent(a)->reason) == "zero_speed");
    CHECK(s.world.agent(a)->velocity == glm::vec3(0.0f));
    def.maxSpeed = 3.0f;
    REQUIRE(s.world.setAgentDef(a, def).ok());
    CHECK(stepUntil(s.world, 600, kDt, [&] { return s.world.agent(a)->state == AgentState::Arrived; }));
    CHECK(s.world.agent(a)->reason == AgentReason::None);
}

TEST_CASE("a link too slow to cross (speed 1e-30) is refused at its take-off: no_path / link_too_slow")
{
    NavWorld world;
    const MeshId mesh = putLedge(world);
    putLink(world, mesh, {3.8f, 2.0f, 3.0f}, {5.5f, 0.0f, 3.0f}, OffMeshKind::Drop, 1.0e-30f);
    const AgentId a = addLedgeAgent(world, mesh, {1.0f, 2.0f, 3.0f});
    REQUIRE(world.setAgentTarget(a, {9.0f, 0.0f, 3.0f}).ok());
    CHECK(stepUntil(world, 400, 0.05, [&] { return world.agent(a)->state != AgentState::Moving; }));
    CHECK(world.agent(a)->state == AgentState::NoPath);
    CHECK(world.agent(a)->reason == AgentReason::LinkTooSlow);
    CHECK_FALSE(world.agent(a)->leap.active);
    CHECK(world.agent(a)->position.y == doctest::Approx(2.0f)); // still on the upper floor
}

TEST_CASE("a body that failed its jump: the agent is placed where the body is, plans again, and says so")
{
    NavWorld world;
    const MeshId mesh = putLedge(world);
    putLink(world, mesh, {5.5f, 0.0f, 1.0f}, {3.8f, 2.0f, 1.0f}, OffMeshKind::Jump);
    const AgentId a = addLedgeAgent(world, mesh, {9.0f, 0.0f, 1.0f});
    REQUIRE(world.setAgentTarget(a, {1.0f, 2.0f, 1.0f}).ok());
    REQUIRE(stepUntil(world, 400, 0.05, [&] { return world.agent(a)->leap.active; }));
    REQUIRE(stepUntil(world, 400, 0.05, [&] { return !world.agent(a)->leap.active; }));
    CHECK(world.agent(a)->position.y == doctest::Approx(2.0f)); // the agent landed on top ...
    world.clearCrowdEvents();
    // ... but the body fell back below the ledge.
    REQUIRE(world.placeAgent(a, {5.6f, 0.0f, 1.2f}).ok());
    const CrowdAgent& c = *world.agent(a);
    CHECK(c.position.y == doctest::Approx(0.0f));
    CHECK(c.position.x == doctest::Approx(5.6f));
    CHECK(countEvents(world, a, CrowdEventKind::Relocated) == 1);
    CHECK(crowdEventName(CrowdEventKind::Relocated) == "relocated");
    // It plans again from below (through the jump) and gets up this time.
    REQUIRE(world.stepCrowds(0.05).ok());
    CHECK(world.agent(a)->state == AgentState::Moving);
    CHECK(world.agent(a)->corridor.hops.size() == 1);
    CHECK(stepUntil(world, 400, 0.05, [&] { return world.agent(a)->state == AgentState::Arrived; }));
    CHECK(world.agent(a)->position.y == doctest::Approx(2.0f));
    // A body near its agent moves it along the surface and is no event.
    world.clearCrowdEvents();
    REQUIRE(world.placeAgent(a, world.agent(a)->position + glm::vec3(0.1f, 0.0f, 0.0f)).ok());
    CHECK(world.crowdEvents().empty());
}

TEST_CASE("an agent blocked by standing agents in a 1 m corridor is stuck (event, reason) and unstuck when they go")
{
    Scene s;
    putGround(s, std::make_shared<const NavMesh>(meshFromRects({{0, 0, 20, 1}}, true)));
    std::vector<AgentId> blockers;
    for (float x : {10.0f, 11.0f})
        blockers.push_back(s.world.addAgent(s.mesh, agentAt(x, 0.5f)).value());
    const AgentId a = addWalker(s, 2.0f, 0.5f, 18.0f, 0.5f);
    CHECK(stepUntil(s.world, 1200, kDt, [&] { return s.world.agent(a)->stuck; }));
    const CrowdAgent& c = *s.world.agent(a);
    CHECK(c.state == AgentState::Moving);
    CHECK(c.reason == AgentReason::BlockedByAgents);
    CHECK(c.blockedFor >= kStuckSeconds);
    CHECK(c.position.x < 10.0f);
    CHECK(countEvents(s.world, a, CrowdEventKind::Stuck) == 1);
    for (AgentId b : blockers)
        REQUIRE(s.world.removeAgent(b).ok());
    CHECK(stepUntil(s.world, 60, kDt, [&] { return !s.world.agent(a)->stuck; }));
    CHECK(countEvents(s.world, a, CrowdEventKind::Unstuck) == 1);
    CHECK(s.world.agent(a)->reason == AgentReason::None);
    CHECK(stepUntil(s.world, 1200, kDt, [&] { return s.world.agent(a)->state == AgentState::Arrived; }));
}

TEST_CASE("the heading is the direction of the last velocity faster than 0.1 m/s, kept while standing")
{
    Scene s;
    putGround(s, bakeShapes(box(0, 0, 10, 10)));
    const AgentId a = s.world.addAgent(s.mesh, agentAt(5.0f, 2.0f)).value();
    CHECK(s.world.agent(a)->heading == glm::vec2(0.0f, 1.0f));
    REQUIRE(s.world.setAgentTarget(a, {5.0f, 0.0f, 8.0f}).ok());
    REQUIRE(stepUntil(s.world, 600, kDt, [&] { return s.world.agent(a)->state == AgentState::Arrived; }));
    REQUIRE(s.world.setAgentTarget(a, {1.0f, 0.0f, 8.0f}).ok());
    REQUIRE(stepUntil(s.world, 600, kDt, [&] { return s.world.agent(a)->state == AgentState::Arrived; }));
    const glm::vec2 h = s.world.agent(a)->heading;
    CHECK(h.x < -0.99f); // west, give or take the last steps' swerve onto the target
    CHECK(h.x * h.x + h.y * h.y == doctest::Approx(1.0f));
}
