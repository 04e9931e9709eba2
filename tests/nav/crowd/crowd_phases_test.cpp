// The crowd's phases one by one (libnav/src/crowd/crowd_phases.h): called in
// order they are the step, and each does its own part (a lone agent's steer,
// preferred velocity, acceleration limit and move, checked analytically).

#include "crowd_phases.h"
#include "crowd_test_util.h"

#include "spark/core/hash.h"

#include <doctest/doctest.h>

using namespace spark;
using namespace spark::nav;
using namespace spark::nav::test;

namespace
{

/// The step's inputs for `mesh` of `world`, as `NavWorld::stepCrowds` makes them.
CrowdStepInputs phaseInputs(NavWorld& world, MeshId mesh, uint64_t step)
{
    const WorldMesh& record = *world.meshRecord(mesh);
    CrowdStepInputs in;
    in.world = &world;
    in.mesh = &NavWorld::currentMesh(record);
    in.generation = record.meshGeneration;
    in.linkGeneration = record.linkGeneration;
    in.step = step;
    in.dt = kDt;
    in.filter = defaultQueryFilter();
    return in;
}

/// The crowd part of the world's hash (`hashCrowd`): the agents only.
uint64_t crowdHash(const NavWorld& world, MeshId mesh)
{
    Hasher h;
    world.hashCrowd(h, mesh);
    return h.digest();
}

} // namespace

TEST_CASE("the crowd's phases called one by one step the doorway scene as stepCrowds does")
{
    Scene a, b;
    buildDoorway(a);
    buildDoorway(b);
    Crowd crowd(b.mesh);
    REQUIRE(crowd.prepare().ok());
    for (uint64_t k = 0; k < 600; ++k)
    {
        REQUIRE(a.world.stepCrowds(kDt).ok());
        const CrowdStepInputs in = phaseInputs(b.world, b.mesh, k);
        crowd.gatherAgents(in);
        crowd.followLinks(in);
        crowd.plan(in);
        crowd.steerAgents(in);
        crowd.gatherWalls(in);
        crowd.findNeighbours(in);
        crowd.applyTrafficRules(in);
        crowd.avoid(in);
        crowd.limitAcceleration(in);
        crowd.moveAlongSurface(in);
        crowd.trackHeadway(in);
        if (crowdHash(a.world, a.mesh) != crowdHash(b.world, b.mesh))
        {
            FAIL_CHECK("the phases differ from the step after step " << k + 1);
            break;
        }
    }
    CHECK(a.world.crowdCounts().arrived > 0); // the scene went somewhere
}

TEST_CASE("a lone agent from rest: steer toward its corner, prefer that, accelerate by max_accel × dt, move by it")
{
    // Open ground, one agent at (2, 5) sent to (18, 5): its one corner is the
    // target straight ahead (+x), 16 m away, far past its slow radius.
    Scene s;
    putGround(s, bakeShapes(box(0, 0, 20, 10)));
    addWalker(s, 2.0f, 5.0f, 18.0f, 5.0f);
    const CrowdAgent& agent = *s.world.agent(s.agents[0]);
    Crowd crowd(s.mesh);
    REQUIRE(crowd.prepare().ok());
    const CrowdStepInputs in = phaseInputs(s.world, s.mesh, 0);
    crowd.gatherAgents(in);
    crowd.followLinks(in);
    crowd.plan(in);
    crowd.steerAgents(in);
    // Steer: full speed straight at the target.
    CHECK(agent.desired.x == doctest::Approx(agent.def.maxSpeed).epsilon(1e-6));
    CHECK(agent.desired.z == doctest::Approx(0.0).epsilon(1e-6));
    CHECK(crowd.data().standing[0] == 0);
    crowd.gatherWalls(in);
    crowd.findNeighbours(in);
    CHECK(crowd.data().walking[0] == 1);
    crowd.applyTrafficRules(in);
    // No one near: the preferred velocity is the steering velocity.
    CHECK(crowd.data().preferred[0].x == doctest::Approx(agent.desired.x));
    CHECK(crowd.data().preferred[0].y == doctest::Approx(agent.desired.z));
    crowd.avoid(in);
    crowd.limitAcceleration(in);
    // From rest the change of velocity is capped at max_accel × dt, along +x.
    const glm::dvec2 v = crowd.data().velocity[0];
    CHECK(v.x == doctest::Approx(agent.def.maxAccel * kDt).epsilon(1e-6));
    CHECK(v.y == doctest::Approx(0.0).epsilon(1e-9));
    CHECK(crowd.data().avoided[0] == 0);
    const glm::vec3 before = agent.position;
    crowd.moveAlongSurface(in);
    // Open ground: the move goes where the velocity says, and the velocity is the move.
    CHECK(agent.position.x - before.x == doctest::Approx(v.x * kDt).epsilon(1e-4));
    CHECK(agent.position.z == doctest::Approx(before.z));
    CHECK(agent.velocity.x == doctest::Approx(v.x).epsilon(1e-4));
    crowd.trackHeadway(in);
    CHECK(agent.heading.x == doctest::Approx(1.0f));
    CHECK_FALSE(agent.stuck);
}
