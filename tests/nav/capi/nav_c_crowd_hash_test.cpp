// spark_nav_world_crowd_hash: the crowd of one mesh as NavWorld::hashCrowd
// feeds it (what nav.hash answers as crowd_hash), through the C API.

#include "spark/core/hash.h"
#include "spark/nav/nav_world.h"
#include "spark/nav_c.h"

#include <doctest/doctest.h>

#include <memory>

using namespace spark;
using namespace spark::nav;

TEST_CASE("spark_nav_world_crowd_hash is the crowd part of the C++ world's state")
{
    const float v[] = {0, 0, 0, 10, 0, 0, 10, 0, 10, 0, 0, 10};
    const uint32_t idx[] = {0, 1, 2, 3}, starts[] = {0, 4};
    const float a[3] = {1, 0, 1}, b[3] = {9, 0, 9}, goal[3] = {9, 0, 1};
    spark_nav_mesh* mesh = nullptr;
    spark_nav_world* world = nullptr;
    uint64_t meshId = 0, agent = 0, other = 0, empty = 0, walking = 0, stepped = 0;
    REQUIRE(spark_nav_mesh_build(v, 4, idx, starts, 1, nullptr, 1, 0.3f, &mesh) == SPARK_NAV_OK);
    REQUIRE(spark_nav_world_create(&world) == SPARK_NAV_OK);
    REQUIRE(spark_nav_world_put_mesh(world, "floor", mesh, &meshId) == SPARK_NAV_OK);
    REQUIRE(spark_nav_world_crowd_hash(world, meshId, &empty) == SPARK_NAV_OK);
    const spark_nav_agent_settings settings = spark_nav_agent_settings_default();
    REQUIRE(spark_nav_agent_add(world, meshId, a, &settings, &agent) == SPARK_NAV_OK);
    REQUIRE(spark_nav_agent_add(world, meshId, b, &settings, &other) == SPARK_NAV_OK);
    REQUIRE(spark_nav_agent_set_target(world, agent, goal) == SPARK_NAV_OK);
    REQUIRE(spark_nav_world_crowd_hash(world, meshId, &walking) == SPARK_NAV_OK);
    REQUIRE(spark_nav_world_step(world, 1.0 / 60.0) == SPARK_NAV_OK);
    REQUIRE(spark_nav_world_crowd_hash(world, meshId, &stepped) == SPARK_NAV_OK);
    CHECK(empty != walking);
    CHECK(walking != stepped);

    // The same world through the C++ API hashes its crowd the same.
    NavWorld cpp;
    MeshDef md = defaultMeshDef();
    md.name = "floor";
    PolySoup soup;
    soup.vertices = {{0, 0, 0}, {10, 0, 0}, {10, 0, 10}, {0, 0, 10}};
    soup.indices = {0, 1, 2, 3};
    soup.polyStarts = {0, 4};
    soup.areas = {0};
    NavMeshDef def = defaultNavMeshDef();
    def.is2d = true;
    def.settings.agentRadius = 0.3f;
    auto built = buildNavMesh(soup, def);
    REQUIRE(built.ok());
    md.mesh = std::make_shared<const NavMesh>(std::move(built).value());
    const MeshId m = cpp.putMesh(std::move(md)).value();
    CrowdAgentDef agentDef = defaultCrowdAgentDef();
    agentDef.position = glm::vec3(1, 0, 1);
    const AgentId first = cpp.addAgent(m, agentDef).value();
    agentDef.position = glm::vec3(9, 0, 9);
    REQUIRE(cpp.addAgent(m, agentDef).ok());
    REQUIRE(cpp.setAgentTarget(first, glm::vec3(9, 0, 1)).ok());
    REQUIRE(cpp.stepCrowds(1.0 / 60.0).ok());
    Hasher h;
    cpp.hashCrowd(h, m);
    CHECK(h.digest() == stepped);

    // Errors: an unknown mesh, NULL arguments; nothing written.
    uint64_t untouched = 7;
    CHECK(spark_nav_world_crowd_hash(world, meshId + 12345, &untouched) == SPARK_NAV_UNKNOWN_ID);
    CHECK(spark_nav_world_crowd_hash(nullptr, meshId, &untouched) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_world_crowd_hash(world, meshId, nullptr) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(untouched == 7);
    spark_nav_world_destroy(world);
    spark_nav_mesh_destroy(mesh);
}

TEST_CASE("spark_nav_world_set_plan_budget sets the crowd's plan budget; 0 or past 2^30 is refused")
{
    spark_nav_world* world = nullptr;
    REQUIRE(spark_nav_world_create(&world) == SPARK_NAV_OK);
    uint32_t budget = 0;
    REQUIRE(spark_nav_world_get_plan_budget(world, &budget) == SPARK_NAV_OK);
    CHECK(budget == kDefaultPlanNodesPerStep);
    uint64_t before = 0, after = 0;
    REQUIRE(spark_nav_world_hash(world, &before) == SPARK_NAV_OK);
    for (uint32_t bad : {0u, (1u << 30) + 1u, 0xffffffffu})
    {
        CHECK(spark_nav_world_set_plan_budget(world, bad) == SPARK_NAV_INVALID_ARGUMENT);
        REQUIRE(spark_nav_world_get_plan_budget(world, &budget) == SPARK_NAV_OK);
        CHECK(budget == kDefaultPlanNodesPerStep);
    }
    REQUIRE(spark_nav_world_hash(world, &after) == SPARK_NAV_OK);
    CHECK(after == before);
    CHECK(spark_nav_world_set_plan_budget(world, 100) == SPARK_NAV_OK);
    REQUIRE(spark_nav_world_get_plan_budget(world, &budget) == SPARK_NAV_OK);
    CHECK(budget == 100u);
    REQUIRE(spark_nav_world_hash(world, &after) == SPARK_NAV_OK);
    CHECK(after != before); // state: hashed when not the default
    CHECK(spark_nav_world_set_plan_budget(nullptr, 100) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_world_get_plan_budget(world, nullptr) == SPARK_NAV_INVALID_ARGUMENT);
    spark_nav_world_destroy(world);
}
