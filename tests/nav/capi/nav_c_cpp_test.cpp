// The C++ side of the C API's bit-for-bit check: the run of nav_c_test.c
// (a hall of 1 m cells, a turned crate carved across it, one agent walking
// round it) through the C++ API. Both tests pin the same hashes, so the C
// API can only pass by giving exactly the C++ API's results.

#include "spark/nav/nav_world.h"

#include <doctest/doctest.h>

#include <memory>

using namespace spark;
using namespace spark::nav;

TEST_CASE("the C test's run through the C++ API gives the hashes both tests pin")
{
    PolySoup soup;
    soup.polyStarts.push_back(0);
    for (int z = 0; z < 4; ++z)
        for (int x = 0; x < 12; ++x)
        {
            const float cx[4] = {float(x), float(x + 1), float(x + 1), float(x)};
            const float cz[4] = {float(z), float(z), float(z + 1), float(z + 1)};
            for (int c = 0; c < 4; ++c)
            {
                soup.indices.push_back(static_cast<uint32_t>(soup.vertices.size()));
                soup.vertices.emplace_back(cx[c], 0.0f, cz[c]);
            }
            soup.polyStarts.push_back(static_cast<uint32_t>(soup.indices.size()));
            soup.areas.push_back(0);
        }
    NavMeshDef def = defaultNavMeshDef();
    def.is2d = true;
    def.settings.agentRadius = 0.25f;
    auto built = buildNavMesh(soup, def);
    REQUIRE(built.ok());
    CHECK(hashNavMesh(built.value()) == 0x1b4faaec5b3e5610ull);

    NavWorld world;
    MeshDef md = defaultMeshDef();
    md.name = "hall";
    md.source = "c";
    md.mesh = std::make_shared<const NavMesh>(built.value());
    const MeshId mesh = world.putMesh(std::move(md)).value();
    ObstacleDef crate = defaultObstacleDef();
    crate.shape.shape = FootprintShape::Box;
    crate.shape.halfExtents = glm::vec2(0.5f, 0.5f);
    crate.shape.angleDeg = 30.0f;
    crate.position = glm::vec3(6.0f, 0.0f, 2.5f);
    REQUIRE(world.addObstacle(mesh, crate).ok());
    CHECK(hashNavMesh(*world.mesh(mesh)) == 0x7e25e624f5d03228ull);

    CrowdAgentDef a = defaultCrowdAgentDef();
    a.radius = 0.25f;
    a.position = glm::vec3(1.0f, 0.0f, 2.5f);
    const AgentId agent = world.addAgent(mesh, a).value();
    REQUIRE(world.setAgentTarget(agent, glm::vec3(11.0f, 0.0f, 2.5f)).ok());
    for (int i = 0; i < 200 && world.agent(agent)->state != AgentState::Arrived; ++i)
        REQUIRE(world.stepCrowds(0.05).ok());
    CHECK(world.agent(agent)->state == AgentState::Arrived);
    CHECK(world.hashState() == 0x57dbf74598ac600dull);
}
