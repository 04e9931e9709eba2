// The C++ side of the C API's bit-for-bit check: the run of nav_c_test.c
// (a hall of 1 m cells, a turned crate carved across it, one agent walking
// round it) through the C++ API. Both tests pin the same hashes, so the C
// API can only pass by giving exactly the C++ API's results. Then the C ids'
// kinds and worlds, and a bake whose polygon merge was unbounded.

#include "spark/nav/nav_world.h"
#include "spark/nav_c.h"

#include <doctest/doctest.h>

#include <ctime>
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

TEST_CASE("C ids carry their kind and their world: another kind's or another world's id is SPARK_NAV_UNKNOWN_ID")
{
    // One 8 x 8 square polygon, as a 2D mesh, in two worlds.
    const float vertices[] = {0, 0, 0, 8, 0, 0, 8, 0, 8, 0, 0, 8};
    const uint32_t indices[] = {0, 1, 2, 3}, starts[] = {0, 4};
    spark_nav_mesh* mesh = nullptr;
    REQUIRE(spark_nav_mesh_build(vertices, 4, indices, starts, 1, nullptr, 1, 0.25f, &mesh) == SPARK_NAV_OK);
    spark_nav_world *a = nullptr, *b = nullptr;
    REQUIRE(spark_nav_world_create(&a) == SPARK_NAV_OK);
    REQUIRE(spark_nav_world_create(&b) == SPARK_NAV_OK);
    uint64_t meshA = 0, meshB = 0, agentA = 0, agentB = 0, obstacleA = 0;
    REQUIRE(spark_nav_world_put_mesh(a, "hall", mesh, &meshA) == SPARK_NAV_OK);
    REQUIRE(spark_nav_world_put_mesh(b, "hall", mesh, &meshB) == SPARK_NAV_OK);
    const spark_nav_agent_settings settings = spark_nav_agent_settings_default();
    const float at[3] = {2, 0, 2}, crate[3] = {6, 0, 6}, size[2] = {0.5f, 0.5f};
    REQUIRE(spark_nav_agent_add(a, meshA, at, &settings, &agentA) == SPARK_NAV_OK);
    REQUIRE(spark_nav_agent_add(b, meshB, at, &settings, &agentB) == SPARK_NAV_OK);
    REQUIRE(spark_nav_obstacle_add(a, meshA, SPARK_NAV_CIRCLE, size, 0.0f, crate, &obstacleA) == SPARK_NAV_OK);
    // The first of each kind in each world: all different numbers.
    CHECK(agentA != agentB);
    CHECK(meshA != meshB);
    CHECK(agentA != obstacleA);
    CHECK(agentA != meshA);
    // An agent's id is no obstacle's, a mesh's no agent's; another world's agent is not this world's.
    CHECK(spark_nav_obstacle_remove(a, agentA) == SPARK_NAV_UNKNOWN_ID);
    CHECK(spark_nav_agent_remove(a, obstacleA) == SPARK_NAV_UNKNOWN_ID);
    CHECK(spark_nav_agent_get(a, meshA, nullptr, nullptr, nullptr) == SPARK_NAV_UNKNOWN_ID);
    CHECK(spark_nav_agent_get(a, agentB, nullptr, nullptr, nullptr) == SPARK_NAV_UNKNOWN_ID);
    CHECK(spark_nav_agent_add(b, meshA, at, &settings, &agentB) == SPARK_NAV_UNKNOWN_ID);
    // Nothing was removed by the refused calls; the right ids still work.
    CHECK(spark_nav_agent_get(a, agentA, nullptr, nullptr, nullptr) == SPARK_NAV_OK);
    CHECK(spark_nav_obstacle_remove(a, obstacleA) == SPARK_NAV_OK);
    CHECK(spark_nav_agent_remove(b, agentB) == SPARK_NAV_OK);
    spark_nav_world_destroy(a);
    spark_nav_world_destroy(b);
    spark_nav_mesh_destroy(mesh);
}

TEST_CASE("a bake of one big outline answers in bounded time (the fuzz_capi slow unit of 23-43 s)")
{
    // A triangle with 4,096 m legs at 6.25 m cells: max_edge_len (12 m) is
    // one cell, so the one region's outline keeps a corner at every boundary
    // cell, about 2,200, and the polygon merge scanned every pair of its
    // triangles after every merge: 16.5 s of CPU in a Release build, 0.07 s now.
    const float verts[] = {-4, 0, -4, 4096, 0, -4, -4, 0, 4096};
    const uint32_t idx[] = {0, 1, 2};
    spark_nav_bake_settings settings = spark_nav_bake_settings_default();
    settings.cell_size = 6.25f;
    spark_nav_mesh* mesh = nullptr;
    const std::clock_t start = std::clock();
    REQUIRE(spark_nav_mesh_bake(verts, 3, idx, 3, nullptr, 0, &settings, &mesh) == SPARK_NAV_OK);
    const double seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
    CHECK(seconds < 4.0);
    uint32_t polygons = 0;
    uint64_t hash = 0;
    CHECK(spark_nav_mesh_polygon_count(mesh, &polygons) == SPARK_NAV_OK);
    CHECK(spark_nav_mesh_hash(mesh, &hash) == SPARK_NAV_OK);
    CHECK(polygons == 1157);
    CHECK(hash == 0x484469f4ceef2a3aULL); // the mesh the unbounded merge made
    spark_nav_mesh_destroy(mesh);
}
