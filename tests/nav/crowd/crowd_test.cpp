// The crowd of a NavWorld through its API: agents by handle (stale handles
// refused), every def field checked with its name, refused calls that change
// nothing (hash before = after), targets and repath_distance, the states
// (idle, moving, arrived, no_path, off_mesh), mesh changes that re-plan every
// agent, velocities set by hand, limits.

#include "../mesh/test_meshes.h"
#include "crowd_test_util.h"

#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace spark;
using namespace spark::nav;
using namespace spark::nav::test;

namespace
{

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

/// An open 20 × 20 m room ("ground").
void openRoom(Scene& s)
{
    putGround(s, bakeShapes(box(0, 0, 20, 20)));
}

/// Steps until `done` or `maxSteps`; the steps taken, or −1.
int stepUntil(Scene& s, int maxSteps, const std::function<bool()>& done)
{
    for (int k = 1; k <= maxSteps; ++k)
    {
        REQUIRE(s.world.stepCrowds(kDt).ok());
        if (done())
            return k;
    }
    return -1;
}

void checkRefused(const Status& st, const char* code, const std::string& field)
{
    REQUIRE_FALSE(st.ok());
    CHECK(st.error().code == code);
    CHECK(st.error().field == field);
}

} // namespace

TEST_CASE("addAgent snaps the agent onto the mesh; it starts idle on a one-polygon corridor")
{
    Scene s;
    openRoom(s);
    // 0.3 m above the ground: snapped down onto it.
    CrowdAgentDef def = agentAt(5.0f, 6.0f);
    def.position.y = 0.3f;
    Result<AgentId> id = s.world.addAgent(s.mesh, def);
    REQUIRE(id.ok());
    const CrowdAgent& a = *s.world.agent(id.value());
    CHECK(a.position == glm::vec3(5.0f, 0.0f, 6.0f));
    CHECK(a.state == AgentState::Idle);
    CHECK(a.velocity == glm::vec3(0.0f));
    CHECK(a.corridor.polygons.size() == 1);
    CHECK(a.mesh == s.mesh);
    CHECK(s.world.agentCount() == 1);
    CHECK(s.world.agentsInOrder() == std::vector<AgentId>{id.value()});
    CHECK(agentStateName(a.state) == "idle");
    const CrowdCounts c = s.world.crowdCounts();
    CHECK(c.idle == 1);
    CHECK(c.moving + c.arrived + c.noPath + c.offMesh == 0);
    // An idle agent stands.
    for (int k = 0; k < 30; ++k)
        REQUIRE(s.world.stepCrowds(kDt).ok());
    CHECK(s.world.agent(id.value())->position == glm::vec3(5.0f, 0.0f, 6.0f));
}

TEST_CASE(
    "addAgent off the mesh is E_NAV_OFF_MESH at /position, on a stale mesh E_NAV_NO_MESH; nothing changes")
{
    Scene s;
    openRoom(s);
    const uint64_t before = s.world.hashState();
    checkRefused(s.world.addAgent(s.mesh, agentAt(30.0f, 30.0f)).status(), "E_NAV_OFF_MESH", "/position");
    checkRefused(s.world.addAgent(s.mesh, agentAt(-3.0f, 5.0f)).status(), "E_NAV_OFF_MESH", "/position");
    CrowdAgentDef high = agentAt(5.0f, 5.0f);
    high.position.y = 10.0f; // above the reach of its height
    checkRefused(s.world.addAgent(s.mesh, high).status(), "E_NAV_OFF_MESH", "/position");
    checkRefused(s.world.addAgent(MeshId{}, agentAt(5.0f, 5.0f)).status(), "E_NAV_NO_MESH", "/mesh");
    CHECK(s.world.agentCount() == 0);
    CHECK(s.world.hashState() == before);
}

TEST_CASE("every def field out of range is E_INVALID_PARAMS naming the field, and changes nothing")
{
    Scene s;
    openRoom(s);
    const AgentId existing = addWalker(s, 2.0f, 2.0f, 15.0f, 15.0f);
    REQUIRE(s.world.stepCrowds(kDt).ok());
    struct Bad
    {
        const char* field;
        std::function<void(CrowdAgentDef&)> make;
    };
    const std::vector<Bad> bad{
        {"/position", [](CrowdAgentDef& d) { d.position.x = kNaN; }},
        {"/position", [](CrowdAgentDef& d) { d.position.z = kInf; }},
        {"/radius", [](CrowdAgentDef& d) { d.radius = 0.0f; }},
        {"/radius", [](CrowdAgentDef& d) { d.radius = -0.4f; }},
        {"/radius", [](CrowdAgentDef& d) { d.radius = 100.5f; }},
        {"/radius", [](CrowdAgentDef& d) { d.radius = kNaN; }},
        {"/height", [](CrowdAgentDef& d) { d.height = 0.0f; }},
        {"/height", [](CrowdAgentDef& d) { d.height = 101.0f; }},
        {"/height", [](CrowdAgentDef& d) { d.height = kNaN; }},
        {"/max_speed", [](CrowdAgentDef& d) { d.maxSpeed = -0.1f; }},
        {"/max_speed", [](CrowdAgentDef& d) { d.maxSpeed = 100.5f; }},
        {"/max_speed", [](CrowdAgentDef& d) { d.maxSpeed = kInf; }},
        {"/max_accel", [](CrowdAgentDef& d) { d.maxAccel = 0.0f; }},
        {"/max_accel", [](CrowdAgentDef& d) { d.maxAccel = 1000.5f; }},
        {"/max_accel", [](CrowdAgentDef& d) { d.maxAccel = kNaN; }},
        {"/stop_distance", [](CrowdAgentDef& d) { d.stopDistance = -0.01f; }},
        {"/stop_distance", [](CrowdAgentDef& d) { d.stopDistance = 100.5f; }},
        {"/stop_distance", [](CrowdAgentDef& d) { d.stopDistance = kNaN; }},
        {"/slow_radius", [](CrowdAgentDef& d) { d.slowRadius = -1.0f; }},
        {"/slow_radius", [](CrowdAgentDef& d) { d.slowRadius = 1000.5f; }},
        {"/slow_radius", [](CrowdAgentDef& d) { d.slowRadius = kNaN; }},
        {"/max_neighbors", [](CrowdAgentDef& d) { d.maxNeighbors = 0; }},
        {"/max_neighbors", [](CrowdAgentDef& d) { d.maxNeighbors = kMaxAgentNeighbors + 1; }},
        {"/priority", [](CrowdAgentDef& d) { d.priority = 0.0f; }},
        {"/priority", [](CrowdAgentDef& d) { d.priority = -1.0f; }},
        {"/priority", [](CrowdAgentDef& d) { d.priority = 1.5e6f; }},
        {"/priority", [](CrowdAgentDef& d) { d.priority = kNaN; }},
        {"/repath_distance", [](CrowdAgentDef& d) { d.repathDistance = -0.5f; }},
        {"/repath_distance", [](CrowdAgentDef& d) { d.repathDistance = 2.0e6f; }},
        {"/repath_distance", [](CrowdAgentDef& d) { d.repathDistance = kNaN; }},
    };
    const uint64_t before = s.world.hashState();
    const CrowdAgentDef kept = s.world.agent(existing)->def;
    for (const Bad& b : bad)
    {
        CAPTURE(b.field);
        CrowdAgentDef d = agentAt(5.0f, 5.0f);
        b.make(d);
        checkRefused(NavWorld::validateAgentDef(d), "E_INVALID_PARAMS", b.field);
        checkRefused(s.world.addAgent(s.mesh, d).status(), "E_INVALID_PARAMS", b.field);
        if (std::string(b.field) != "/position") // setAgentDef keeps the agent where it is
        {
            CrowdAgentDef changed = s.world.agent(existing)->def;
            b.make(changed);
            checkRefused(s.world.setAgentDef(existing, changed), "E_INVALID_PARAMS", b.field);
        }
        CHECK(s.world.agentCount() == 1);
        CHECK(s.world.hashState() == before);
    }
    CHECK(s.world.agent(existing)->def.radius == kept.radius);
    // The limits themselves are accepted.
    CrowdAgentDef edge = agentAt(5.0f, 5.0f);
    edge.radius = 100.0f;
    edge.maxSpeed = 0.0f;
    edge.stopDistance = 0.0f;
    edge.slowRadius = 0.0f;
    edge.maxNeighbors = kMaxAgentNeighbors;
    edge.priority = 1.0e6f;
    edge.repathDistance = 0.0f;
    CHECK(NavWorld::validateAgentDef(edge).ok());
}

TEST_CASE("a stale AgentId is E_NAV_UNKNOWN_AGENT for every call and changes nothing")
{
    Scene s;
    openRoom(s);
    const AgentId gone = addWalker(s, 2.0f, 2.0f, 15.0f, 15.0f);
    const AgentId kept = addWalker(s, 4.0f, 2.0f, 15.0f, 12.0f);
    REQUIRE(s.world.removeAgent(gone).ok());
    CHECK(s.world.agent(gone) == nullptr);
    REQUIRE(s.world.stepCrowds(kDt).ok());
    // A new agent takes the free slot with a new generation: the old handle stays stale.
    Result<AgentId> again = s.world.addAgent(s.mesh, agentAt(6.0f, 6.0f));
    REQUIRE(again.ok());
    CHECK(again->index == gone.index);
    CHECK(again->generation != gone.generation);
    const uint64_t before = s.world.hashState();
    for (const AgentId stale : {gone, AgentId{}, AgentId{77, 1}})
    {
        CHECK(s.world.agent(stale) == nullptr);
        checkRefused(s.world.removeAgent(stale), "E_NAV_UNKNOWN_AGENT", "/agent");
        checkRefused(s.world.setAgentTarget(stale, glm::vec3(10.0f, 0.0f, 10.0f)), "E_NAV_UNKNOWN_AGENT",
                     "/agent");
        checkRefused(s.world.setAgentVelocity(stale, glm::vec3(1.0f, 0.0f, 0.0f)), "E_NAV_UNKNOWN_AGENT",
                     "/agent");
        checkRefused(s.world.stopAgent(stale), "E_NAV_UNKNOWN_AGENT", "/agent");
        checkRefused(s.world.setAgentDef(stale, defaultCrowdAgentDef()), "E_NAV_UNKNOWN_AGENT", "/agent");
    }
    CHECK(s.world.hashState() == before);
    CHECK(s.world.agentsInOrder() == std::vector<AgentId>{again.value(), kept});
}

TEST_CASE("an agent sent to a target follows its corridor, slows down, arrives and then stands exactly still")
{
    Scene s;
    putGround(s, bakeShapes(doorwayShapes()));
    // From the west room to the east one, through the door.
    const AgentId id = addWalker(s, 2.0f, 1.0f, 19.0f, 1.0f);
    // The target waits in the plan queue; the step plans it before moving.
    CHECK(s.world.agent(id)->corridor.polygons.size() == 1);
    CHECK(s.world.agent(id)->reason == AgentReason::WaitingForPlan);
    CHECK(s.world.crowdCounts().moving == 1);
    REQUIRE(s.world.stepCrowds(kDt).ok());
    CHECK(s.world.agent(id)->corridor.polygons.size() > 1);
    CHECK(s.world.agent(id)->reason == AgentReason::None);
    CHECK(s.world.agent(id)->position != glm::vec3(2.0f, 0.0f, 1.0f)); // it moved in the step it was planned in
    Watch w;
    const int steps = runScene(s, w, 1200, [&] { return allArrived(s); });
    CHECK(steps > 0);
    checkWatch(w);
    const CrowdAgent& a = *s.world.agent(id);
    CHECK(a.state == AgentState::Arrived);
    CHECK(agentStateName(a.state) == "arrived");
    const float dx = a.position.x - 19.0f, dz = a.position.z - 1.0f;
    CHECK(std::sqrt(dx * dx + dz * dz) <= a.def.stopDistance);
    // A lone agent walks at its max speed on the way (the path is about 18.5 m).
    CHECK(steps * kDt < 18.5 / a.def.maxSpeed + 1.5);
    const glm::vec3 at = a.position;
    for (int k = 0; k < 120; ++k)
    {
        REQUIRE(s.world.stepCrowds(kDt).ok());
        CHECK(s.world.agent(id)->velocity == glm::vec3(0.0f));
    }
    CHECK(s.world.agent(id)->position == at);
}

TEST_CASE("a moving target is re-planned only when it moved further than repath_distance")
{
    Scene s;
    putGround(s, bakeShapes(doorwayShapes()));
    const AgentId id = addWalker(s, 2.0f, 5.0f, 18.0f, 5.0f);
    for (int k = 0; k < 10; ++k)
        REQUIRE(s.world.stepCrowds(kDt).ok());
    const CrowdAgent& a = *s.world.agent(id);
    REQUIRE(a.def.repathDistance == doctest::Approx(0.5));
    const std::vector<uint32_t> corridor = a.corridor.polygons;
    // 0.3 m: the corridor stays; its end follows the target.
    REQUIRE(s.world.setAgentTarget(id, glm::vec3(18.0f, 0.0f, 5.3f)).ok());
    CHECK(a.plannedTarget == glm::vec3(18.0f, 0.0f, 5.0f));
    CHECK(a.target == glm::vec3(18.0f, 0.0f, 5.3f));
    CHECK(a.corridor.target == glm::vec3(18.0f, 0.0f, 5.3f));
    CHECK(a.corridor.polygons == corridor);
    // Another 0.15 m, 0.45 m from where it was planned to: still kept.
    REQUIRE(s.world.setAgentTarget(id, glm::vec3(18.0f, 0.0f, 5.45f)).ok());
    CHECK(a.plannedTarget == glm::vec3(18.0f, 0.0f, 5.0f));
    // 0.6 m from the planned target: planned again (in the next step).
    REQUIRE(s.world.setAgentTarget(id, glm::vec3(18.0f, 0.0f, 5.6f)).ok());
    CHECK(a.reason == AgentReason::WaitingForPlan);
    CHECK(a.plannedTarget == glm::vec3(18.0f, 0.0f, 5.0f));
    REQUIRE(s.world.stepCrowds(kDt).ok());
    CHECK(a.reason == AgentReason::None);
    CHECK(a.plannedTarget == glm::vec3(18.0f, 0.0f, 5.6f));
    CHECK(a.corridor.target == glm::vec3(18.0f, 0.0f, 5.6f));
    CHECK(a.state == AgentState::Moving);
    // A target off the mesh is refused and changes nothing.
    const uint64_t before = s.world.hashState();
    checkRefused(s.world.setAgentTarget(id, glm::vec3(50.0f, 0.0f, 5.0f)), "E_NAV_OFF_MESH", "/target");
    checkRefused(s.world.setAgentTarget(id, glm::vec3(kNaN, 0.0f, 5.0f)), "E_INVALID_PARAMS", "/target");
    CHECK(s.world.hashState() == before);
    // It walks to the last target.
    CHECK(stepUntil(s, 1200, [&] { return a.state == AgentState::Arrived; }) > 0);
    CHECK(std::fabs(a.position.z - 5.6f) <= a.def.stopDistance);
}

TEST_CASE("an agent with no route to its target reports no_path and stands")
{
    Scene s;
    // Two rooms with no door between them.
    putGround(s, bakeShapes(box(0, 0, 21, 10, {Rect2D{{10, 0}, {11, 10}}})));
    const Result<AgentId> id = s.world.addAgent(s.mesh, agentAt(3.0f, 5.0f));
    REQUIRE(id.ok());
    REQUIRE(s.world.setAgentTarget(id.value(), glm::vec3(17.0f, 0.0f, 5.0f)).ok());
    const CrowdAgent& a = *s.world.agent(id.value());
    CHECK(a.state == AgentState::Moving); // waiting for its plan: the step finds out
    REQUIRE(s.world.stepCrowds(kDt).ok());
    CHECK(a.state == AgentState::NoPath);
    CHECK(agentStateName(a.state) == "no_path");
    for (int k = 0; k < 60; ++k)
        REQUIRE(s.world.stepCrowds(kDt).ok());
    CHECK(a.state == AgentState::NoPath);
    CHECK(a.position == glm::vec3(3.0f, 0.0f, 5.0f));
    CHECK(a.velocity == glm::vec3(0.0f));
    CHECK(s.world.crowdCounts().noPath == 1);
    // A reachable target takes it out of no_path.
    REQUIRE(s.world.setAgentTarget(id.value(), glm::vec3(7.0f, 0.0f, 5.0f)).ok());
    CHECK(a.state == AgentState::Moving);
}

TEST_CASE("an obstacle-free re-bake (putMesh with the same name) re-plans every agent at the next step")
{
    Scene s;
    buildDoorway(s);
    for (int k = 0; k < 30; ++k)
        REQUIRE(s.world.stepCrowds(kDt).ok());
    const uint32_t oldGeneration = s.world.meshRecord(s.mesh)->polyGeneration;
    // The same rooms baked at half the cell size: other polygons, other numbers.
    Shapes2D finer = doorwayShapes();
    finer.cellSize = 0.05f;
    MeshDef def = defaultMeshDef();
    def.name = "ground";
    def.mesh = bakeShapes(finer);
    const Result<MeshId> again = s.world.putMesh(def);
    REQUIRE(again.ok());
    CHECK(again.value() == s.mesh);
    const uint32_t generation = s.world.meshRecord(s.mesh)->polyGeneration;
    REQUIRE(generation != oldGeneration);
    for (AgentId id : s.agents)
        CHECK(s.world.agent(id)->corridorGeneration == oldGeneration);
    REQUIRE(s.world.stepCrowds(kDt).ok());
    const NavMesh& mesh = *s.world.mesh(s.mesh);
    for (AgentId id : s.agents)
    {
        const CrowdAgent& a = *s.world.agent(id);
        CHECK(a.corridorGeneration == generation);
        CHECK(a.state == AgentState::Moving);
        CHECK(checkCorridor(mesh, a.corridor, defaultQueryFilter()));
        CHECK(a.corridor.target.x == doctest::Approx(a.target.x));
        CHECK(a.corridor.target.z == doctest::Approx(a.target.z));
    }
    // And they still all get there.
    Watch w;
    CHECK(runScene(s, w, 6000, [&] { return allArrived(s); }) > 0);
    checkWatch(w);
}

TEST_CASE("an agent whose mesh changes under it so that it is off the mesh reports off_mesh, and recovers")
{
    Scene s;
    putGround(s, bakeShapes(box(0, 0, 20, 20)));
    const AgentId walker = addWalker(s, 2.0f, 2.0f, 18.0f, 18.0f);
    const Result<AgentId> idle = s.world.addAgent(s.mesh, agentAt(10.0f, 3.0f));
    REQUIRE(idle.ok());
    for (int k = 0; k < 30; ++k)
        REQUIRE(s.world.stepCrowds(kDt).ok());
    const glm::vec3 at = s.world.agent(walker)->position;
    // The mesh becomes a room 40 m away.
    MeshDef far = defaultMeshDef();
    far.name = "ground";
    far.mesh = bakeShapes(box(60, 60, 80, 80));
    REQUIRE(s.world.putMesh(far).ok());
    REQUIRE(s.world.stepCrowds(kDt).ok());
    for (AgentId id : {walker, idle.value()})
    {
        const CrowdAgent& a = *s.world.agent(id);
        CHECK(a.state == AgentState::OffMesh);
        CHECK(agentStateName(a.state) == "off_mesh");
        CHECK(a.velocity == glm::vec3(0.0f));
        CHECK(a.corridor.polygons.empty());
    }
    CHECK(s.world.agent(walker)->position == at);
    CHECK(s.world.crowdCounts().offMesh == 2);
    for (int k = 0; k < 10; ++k)
        REQUIRE(s.world.stepCrowds(kDt).ok());
    CHECK(s.world.agent(walker)->position == at);
    // The room comes back: the walker walks on, the idle one stands.
    MeshDef back = defaultMeshDef();
    back.name = "ground";
    back.mesh = bakeShapes(box(0, 0, 20, 20));
    REQUIRE(s.world.putMesh(back).ok());
    REQUIRE(s.world.stepCrowds(kDt).ok());
    CHECK(s.world.agent(walker)->state == AgentState::Moving);
    CHECK(s.world.agent(idle.value())->state == AgentState::Idle);
    CHECK(stepUntil(s, 1200, [&] { return s.world.agent(walker)->state == AgentState::Arrived; }) > 0);
}

TEST_CASE("setAgentVelocity moves an agent at a velocity set by hand; stopAgent makes it idle")
{
    Scene s;
    openRoom(s);
    const Result<AgentId> id = s.world.addAgent(s.mesh, agentAt(2.0f, 10.0f));
    REQUIRE(id.ok());
    const uint64_t before = s.world.hashState();
    checkRefused(s.world.setAgentVelocity(id.value(), glm::vec3(kNaN, 0.0f, 0.0f)), "E_INVALID_PARAMS",
                 "/velocity");
    checkRefused(s.world.setAgentVelocity(id.value(), glm::vec3(3.0f, 0.0f, 3.0f)), "E_INVALID_PARAMS",
                 "/velocity");
    CHECK(s.world.hashState() == before);
    REQUIRE(s.world.setAgentVelocity(id.value(), glm::vec3(2.0f, 0.0f, 0.0f)).ok());
    CHECK(s.world.agent(id.value())->state == AgentState::Moving);
    for (int k = 0; k < 120; ++k)
        REQUIRE(s.world.stepCrowds(kDt).ok());
    const CrowdAgent& a = *s.world.agent(id.value());
    // Up to speed after 0.25 s at 8 m/s²: 2 m/s along +x.
    CHECK(a.velocity.x == doctest::Approx(2.0).epsilon(1e-3));
    CHECK(a.velocity.z == doctest::Approx(0.0).epsilon(1e-3));
    CHECK(a.position.x == doctest::Approx(2.0 + 2.0 * 2.0 - 0.25).epsilon(0.01));
    // Into the wall: it waits at its face (x = 19.6, the room eroded by its radius).
    for (int k = 0; k < 600; ++k)
        REQUIRE(s.world.stepCrowds(kDt).ok());
    CHECK(a.position.x <= 19.6f);
    CHECK(a.position.x > 19.55f);
    REQUIRE(s.world.stopAgent(id.value()).ok());
    CHECK(a.state == AgentState::Idle);
    CHECK(a.velocity == glm::vec3(0.0f));
    REQUIRE(s.world.stepCrowds(kDt).ok());
    CHECK(a.velocity == glm::vec3(0.0f));
}

TEST_CASE("stepCrowds refuses a step outside (0, 1] s and changes nothing")
{
    Scene s;
    openRoom(s);
    addWalker(s, 2.0f, 2.0f, 15.0f, 15.0f);
    const uint64_t before = s.world.hashState();
    for (double dt : {0.0, -0.1, 1.5, std::nan(""), std::numeric_limits<double>::infinity()})
        checkRefused(s.world.stepCrowds(dt), "E_INVALID_PARAMS", "/dt");
    CHECK(s.world.hashState() == before);
    CHECK(s.world.stepCrowds(1.0).ok());
}

TEST_CASE("a world holds at most kMaxCrowdAgents agents: one more is E_NAV_LIMIT")
{
    static_assert(kMaxCrowdAgents >= 65536);
    // One square polygon 260 m wide, the agents 1 m apart on a 256 × 256 grid.
    Scene s;
    putGround(s, std::make_shared<const NavMesh>(meshFromRects({{0, 0, 260, 260}}, true)));
    for (uint32_t k = 0; k < kMaxCrowdAgents; ++k)
    {
        const float x = 1.5f + static_cast<float>(k % 256), z = 1.5f + static_cast<float>(k / 256);
        REQUIRE(s.world.addAgent(s.mesh, agentAt(x, z)).ok());
    }
    // A full world steps: every agent walks 2 m east, the step's time and memory bounded by the crowd's size.
    for (AgentId id : s.world.agentsInOrder())
        REQUIRE(s.world.setAgentTarget(id, s.world.agent(id)->position + glm::vec3(2.0f, 0.0f, 0.0f)).ok());
    for (int k = 0; k < 3; ++k)
        REQUIRE(s.world.stepCrowds(kDt).ok());
    CHECK(s.world.crowdCounts().moving == kMaxCrowdAgents);
    CHECK(s.world.agent(s.world.agentsInOrder().front())->velocity.x > 0.0f);
    const uint64_t before = s.world.hashState();
    checkRefused(s.world.addAgent(s.mesh, agentAt(5.0f, 5.5f)).status(), "E_NAV_LIMIT", "");
    CHECK(s.world.agentCount() == kMaxCrowdAgents);
    CHECK(s.world.hashState() == before);
}

TEST_CASE("removing a mesh removes its agents")
{
    Scene s;
    openRoom(s);
    const AgentId id = addWalker(s, 2.0f, 2.0f, 15.0f, 15.0f);
    REQUIRE(s.world.removeMesh(s.mesh).ok());
    CHECK(s.world.agent(id) == nullptr);
    CHECK(s.world.agentCount() == 0);
    CHECK(s.world.stepCrowds(kDt).ok());
}

TEST_CASE("wallObstacle moves a wall out by the radius and cuts it back at an outside corner only")
{
    // Room [0,4]×[0,4] with a doorway [4,5]×[1.5,2.5]: at (4, 1.5) the room's
    // wall x = 4 (below the door) and the doorway's wall z = 1.5 meet round an
    // outside corner; at (5, 1.5) the doorway's walls meet round an inside one.
    const NavMesh mesh = meshFromRects({{0, 0, 4, 4}, {4, 1.5f, 5, 2.5f}});
    QueryScratch scratch;
    std::vector<WallHit> walls;
    REQUIRE(findWalls(mesh, scratch, glm::vec3(4.5f, 0.0f, 1.5f), 1.6f, walls).ok());
    auto find = [&](glm::vec3 a, glm::vec3 b)
    {
        for (size_t k = 0; k < walls.size(); ++k)
            if ((walls[k].wall.a == a && walls[k].wall.b == b) ||
                (walls[k].wall.a == b && walls[k].wall.b == a))
                return k;
        FAIL("wall not found");
        return size_t(0);
    };
    auto sorted = [](glm::dvec2 p, glm::dvec2 q)
    { return p.x < q.x || (p.x == q.x && p.y < q.y) ? std::pair(p, q) : std::pair(q, p); };
    glm::dvec2 p0, p1;
    // The room's wall below the door, x = 4 from z 0 to 1.5: out to x = 4.4, cut to z 1.1 at the corner.
    REQUIRE(wallObstacle(walls, find({4, 0, 0}, {4, 0, 1.5f}), 0.4, p0, p1));
    auto [lo, hi] = sorted(p0, p1);
    CHECK(lo.x == doctest::Approx(4.4));
    CHECK(lo.y == doctest::Approx(0.0));
    CHECK(hi.x == doctest::Approx(4.4));
    CHECK(hi.y == doctest::Approx(1.1));
    // The doorway's lower wall, z = 1.5 from x 4 to 5: out to z = 1.1, cut to x 4.4
    // at the outside corner, not at the inside corner (5, 1.5).
    REQUIRE(wallObstacle(walls, find({4, 0, 1.5f}, {5, 0, 1.5f}), 0.4, p0, p1));
    std::tie(lo, hi) = sorted(p0, p1);
    CHECK(lo.x == doctest::Approx(4.4));
    CHECK(lo.y == doctest::Approx(1.1));
    CHECK(hi.x == doctest::Approx(5.0));
    CHECK(hi.y == doctest::Approx(1.1));
    // The two meet at the corner of the real wall: (4.4, 1.1). A wall the cuts use up is skipped.
    CHECK_FALSE(wallObstacle(walls, find({4, 0, 1.5f}, {5, 0, 1.5f}), 3.0, p0, p1));
}

TEST_CASE("walls of a floor above do not stand in an agent's way")
{
    // A ground floor [0,10]×[0,4] at y 0 under a gallery [0,10]×[2,6] at y 3
    // (higher than an agent): the gallery's edge z = 2 is a wall 3 m up, right
    // over the ground floor; an agent crossing under it walks on.
    Scene s;
    putGround(s, std::make_shared<const NavMesh>(
                     meshFromRects({Rect{0, 0, 10, 4, 0, 0.0f}, Rect{0, 2, 10, 6, 0, 3.0f}}, false)));
    const AgentId id = addWalker(s, 1.0f, 3.5f, 9.0f, 0.5f);
    CHECK(stepUntil(s, 600, [&] { return s.world.agent(id)->state == AgentState::Arrived; }) > 0);
    CHECK(s.world.agent(id)->position.y == 0.0f);
}

TEST_CASE("agents far from the origin walk to their targets (arriving within 2^18 m of it)")
{
    // A 40 m square of ground at (x0, x0): at 65,536 m a float position's
    // spacing (7.8 mm) is more than an accelerating agent's first step, which
    // once left such agents standing for good (their velocity read back as 0).
    for (float x0 : {0.0f, 7.0e4f, 2.6e5f, 9.99e5f - 40.0f})
    {
        CAPTURE(x0);
        PolySoup soup;
        soup.vertices = {{x0, 0.0f, x0}, {x0 + 40.0f, 0.0f, x0}, {x0 + 40.0f, 0.0f, x0 + 40.0f}, {x0, 0.0f, x0 + 40.0f}};
        soup.indices = {0, 1, 2, 3};
        soup.polyStarts = {0, 4};
        soup.areas = {0};
        Result<NavMesh> mesh = buildNavMesh(soup, defaultNavMeshDef());
        REQUIRE(mesh.ok());
        Scene s;
        putGround(s, std::make_shared<const NavMesh>(std::move(mesh.value())));
        const AgentId a = addWalker(s, x0 + 5.0f, x0 + 5.0f, x0 + 35.0f, x0 + 5.0f);
        int steps = 0;
        while (s.world.agent(a)->state == AgentState::Moving && steps < 1200)
        {
            REQUIRE(s.world.stepCrowds(kDt).ok());
            ++steps;
        }
        const CrowdAgent& agent = *s.world.agent(a);
        CHECK(std::fabs(agent.velocity.x) <= agent.def.maxSpeed * 1.1f);
        if (x0 > 262144.0f)
        {
            // Past 2^18 m a position's spacing (62.5 mm at 1e6 m) is more than
            // the last slow steps: the agent walks the 30 m but halts within
            // a metre of the target, short of its stop distance (docs/tiles.md).
            CHECK(std::fabs(agent.position.x - (x0 + 35.0f)) <= 1.0f);
            continue;
        }
        CHECK(agent.state == AgentState::Arrived);
        CHECK(std::fabs(agent.position.x - (x0 + 35.0f)) <= 0.5f);
        // 30 m at 3.5 m/s, plus starting and slowing down: about 9 s.
        CHECK(steps < 12 * 60);
    }
}

TEST_CASE("an agent whose way is blocked by standing agents detours round them (a wall of idle agents)")
{
    // A 30 × 14 m hall with a 6 × 6 m pillar (x 12..18, z 4..10): the way from
    // (2, 11) to (28, 11) passes north of it, where 4 idle agents stand across
    // the passage (z 10..14); they never move, so only the south way is open.
    Scene s;
    putGround(s, bakeShapes(box(0, 0, 30, 14, {Rect2D{{12, 4}, {18, 10}}})));
    for (float z : {10.5f, 11.5f, 12.5f, 13.5f})
    {
        Result<AgentId> idle = s.world.addAgent(s.mesh, agentAt(15.0f, z));
        REQUIRE(idle.ok());
        s.agents.push_back(idle.value());
    }
    const AgentId walker = addWalker(s, 2.0f, 11.0f, 28.0f, 11.0f);
    float southmost = 14.0f;
    const int steps = stepUntil(s, 1800, [&] {
        southmost = std::min(southmost, s.world.agent(walker)->position.z);
        return s.world.agent(walker)->state == AgentState::Arrived;
    });
    MESSAGE("detour: arrived after " << steps << " steps, southmost z " << southmost);
    CHECK(steps > 0);
    CHECK(southmost < 4.0f); // it went round the pillar's south side
    for (size_t i = 0; i < 4; ++i)
        CHECK(s.world.agent(s.agents[i])->state == AgentState::Idle);
}
