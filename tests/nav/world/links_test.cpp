// NavWorld off-mesh links (docs/navmesh.md "Off-mesh links"): resolving against the current mesh
// (again after a re-bake), removal with the mesh, and crowd agents that drop
// off a ledge and jump back up on a 3D mesh, with a pinned hash of the run.

#include "spark/nav/nav_world.h"

#include "../mesh/test_meshes.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <memory>

using namespace spark;
using namespace spark::nav;
using namespace spark::nav::test;

namespace
{

// A ledge: an upper floor x in [0, 4] at y = 2, a lower one x in [5, 10] at y = 0.
std::shared_ptr<const NavMesh> ledge(float upperY = 2.0f)
{
    NavMeshDef def = defaultNavMeshDef();
    def.is2d = false;
    def.settings.agentRadius = 0.25f;
    Result<NavMesh> mesh = buildNavMesh(soupFromRects({Rect{0, 0, 4, 4, 0, upperY}, Rect{5, 0, 10, 4, 0, 0.0f}}), def);
    REQUIRE(mesh.ok());
    return std::make_shared<const NavMesh>(std::move(mesh).value());
}

MeshId putLedge(NavWorld& world, std::shared_ptr<const NavMesh> mesh)
{
    MeshDef def = defaultMeshDef();
    def.name = "ledge";
    def.mesh = std::move(mesh);
    Result<MeshId> id = world.putMesh(std::move(def));
    REQUIRE(id.ok());
    return id.value();
}

OffMeshLinkDef linkDef(glm::vec3 a, glm::vec3 b, OffMeshKind kind, bool both)
{
    OffMeshLinkDef d = defaultOffMeshLinkDef();
    d.start = a;
    d.end = b;
    d.kind = kind;
    d.bidirectional = both;
    d.speed = 3.0f;
    d.arcHeight = 1.0f;
    return d;
}

} // namespace

TEST_CASE("links resolve on the current mesh, again after a re-bake, and go with their mesh")
{
    NavWorld world;
    const MeshId mesh = putLedge(world, ledge());
    const LinkId drop =
        world.addOffMeshLink(mesh, linkDef({3.8f, 2.0f, 2.0f}, {5.5f, 0.0f, 2.0f}, OffMeshKind::Drop, false)).value();
    CHECK(world.offMeshLink(drop)->resolved.resolved);
    CHECK(world.offMeshLink(drop)->resolved.startPolygon == 0);
    CHECK(world.offMeshLink(drop)->resolved.endPolygon == 1);
    // Re-baked with the upper floor 5 m up: the take-off no longer snaps.
    MeshDef higher = defaultMeshDef();
    higher.name = "ledge";
    higher.mesh = ledge(5.0f);
    REQUIRE(world.putMesh(std::move(higher)).ok());
    CHECK_FALSE(world.offMeshLink(drop)->resolved.resolved);
    std::vector<PathLink> usable;
    world.pathLinksOf(mesh, usable);
    CHECK(usable.empty());
    MeshDef back = defaultMeshDef();
    back.name = "ledge";
    back.mesh = ledge();
    REQUIRE(world.putMesh(std::move(back)).ok());
    CHECK(world.offMeshLink(drop)->resolved.resolved);
    world.pathLinksOf(mesh, usable);
    REQUIRE(usable.size() == 1);
    CHECK(NavWorld::linkOfKey(usable[0].id) == drop);

    const uint64_t before = world.hashState();
    CHECK(world.addOffMeshLink(mesh, linkDef({1, 2, 1}, {1, 2, 1}, OffMeshKind::Jump, true)).error().field == "/end");
    CHECK(world.addOffMeshLink(MeshId{}, linkDef({1, 2, 1}, {6, 0, 1}, OffMeshKind::Jump, true)).error().code ==
          "E_NAV_NO_MESH");
    CHECK(world.hashState() == before);
    REQUIRE(world.removeMesh(mesh).ok());
    CHECK(world.offMeshLinksInOrder().empty());
    CHECK(world.removeOffMeshLink(drop).error().code == "E_NAV_UNKNOWN_LINK");
}

TEST_CASE("crowd agents drop off a ledge and jump back up, arrive, and the run is pinned")
{
    NavWorld world;
    const MeshId mesh = putLedge(world, ledge());
    const LinkId drop =
        world.addOffMeshLink(mesh, linkDef({3.8f, 2.0f, 3.0f}, {5.5f, 0.0f, 3.0f}, OffMeshKind::Drop, false)).value();
    const LinkId jump =
        world.addOffMeshLink(mesh, linkDef({5.5f, 0.0f, 1.0f}, {3.8f, 2.0f, 1.0f}, OffMeshKind::Jump, false)).value();
    CrowdAgentDef def = defaultCrowdAgentDef();
    def.radius = 0.25f;
    def.position = glm::vec3(1.0f, 2.0f, 3.0f);
    const AgentId down = world.addAgent(mesh, def).value();
    def.position = glm::vec3(9.0f, 0.0f, 1.0f);
    const AgentId up = world.addAgent(mesh, def).value();
    REQUIRE(world.setAgentTarget(down, glm::vec3(9.0f, 0.0f, 3.0f)).ok());
    REQUIRE(world.setAgentTarget(up, glm::vec3(1.0f, 2.0f, 1.0f)).ok());
    REQUIRE(world.stepCrowds(0.05).ok()); // plans (the plan queue), and the first step along
    CHECK(world.agent(down)->corridor.hops.size() == 1);
    CHECK(NavWorld::linkOfKey(world.agent(up)->corridor.hops.at(0).link) == jump);
    float highest = 0.0f, lowestDown = 10.0f;
    bool sawDrop = false, sawJump = false;
    for (int i = 1; i < 400; ++i)
    {
        REQUIRE(world.stepCrowds(0.05).ok());
        const CrowdAgent& u = *world.agent(up);
        const CrowdAgent& d = *world.agent(down);
        if (u.leap.active)
        {
            sawJump = true;
            highest = std::max(highest, u.position.y);
            CHECK(u.state == AgentState::Moving);
        }
        if (d.leap.active)
        {
            sawDrop = true;
            CHECK(NavWorld::linkOfKey(d.leap.hop.link) == drop);
            lowestDown = std::min(lowestDown, d.position.y);
            CHECK(d.position.y <= 2.0f + 1e-4f); // a drop has no arc
        }
        if (u.state == AgentState::Arrived && d.state == AgentState::Arrived)
            break;
    }
    CHECK(sawDrop);
    CHECK(sawJump);
    CHECK(highest > 2.2f); // the arc rises over the line, past the upper floor
    CHECK(world.agent(down)->state == AgentState::Arrived);
    CHECK(world.agent(up)->state == AgentState::Arrived);
    CHECK(world.agent(down)->position.y == doctest::Approx(0.0f));
    CHECK(world.agent(up)->position.y == doctest::Approx(2.0f));
    CHECK(world.hashState() == 0xc43b0a37b3f90573ull);
}
