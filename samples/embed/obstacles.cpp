// obstacles.cpp — carving obstacles into a mesh and keeping a corridor valid,
// using only the library API (docs/navmesh.md "Obstacles", docs/embedding.md "Corridor").
//
// A hall 24 m × 8 m is built from 1 m cells (buildNavMesh of a polygon soup;
// a real host would bake). An agent's corridor runs from the west end to the
// east end. Then, as a game would:
//   1. a crate is carved into the hall, across the corridor (NavWorld::addObstacle);
//      checkCorridor says the corridor broke (it crossed polygons the crate
//      replaced), so replanCorridor plans round the crate;
//   2. a door's obstacle closes the hall (a box across it): the corridor
//      breaks again and the re-plan is incomplete — the way is shut;
//   3. the door slides open (moveObstacle) and the corridor is planned again;
//   4. every obstacle is removed: the mesh is the baked one again, bit for bit.
// Corridors away from a change stay valid: a second corridor in the west
// part is checked after every change and never needs a re-plan.
// Prints each stage; exits 0 when every expectation held, 1 otherwise.
#include "spark/nav/corridor.h"
#include "spark/nav/nav_world.h"

#include <cstdio>
#include <memory>

using namespace spark;
using namespace spark::nav;

namespace
{

int failures = 0;

void expect(bool ok, const char* what)
{
    std::printf("  %s %s\n", ok ? "ok  " : "FAIL", what);
    failures += ok ? 0 : 1;
}

std::shared_ptr<const NavMesh> hall()
{
    PolySoup soup;
    soup.polyStarts.push_back(0);
    for (int z = 0; z < 8; ++z)
        for (int x = 0; x < 24; ++x)
        {
            const uint32_t base = static_cast<uint32_t>(soup.vertices.size());
            for (const glm::vec3 v : {glm::vec3(x, 0, z), glm::vec3(x + 1, 0, z), glm::vec3(x + 1, 0, z + 1),
                                      glm::vec3(x, 0, z + 1)})
                soup.vertices.push_back(v);
            for (uint32_t i = 0; i < 4; ++i)
                soup.indices.push_back(base + i);
            soup.polyStarts.push_back(static_cast<uint32_t>(soup.indices.size()));
            soup.areas.push_back(0);
        }
    NavMeshDef def = defaultNavMeshDef();
    def.is2d = true;
    def.settings.agentRadius = 0.4f;
    auto mesh = buildNavMesh(soup, def);
    if (!mesh.ok())
    {
        std::printf("buildNavMesh: %s\n", mesh.error().message.c_str());
        std::exit(1);
    }
    return std::make_shared<const NavMesh>(std::move(mesh).value());
}

ObstacleDef box(float x, float z, float hx, float hz)
{
    ObstacleDef def = defaultObstacleDef();
    def.shape.shape = FootprintShape::Box;
    def.shape.halfExtents = glm::vec2(hx, hz);
    def.position = glm::vec3(x, 0.0f, z);
    return def;
}

/// Checks the corridor on the current mesh and plans it again when it broke.
void keepValid(const NavWorld& world, MeshId mesh, Corridor& corridor, const char* name)
{
    const NavMesh& current = *world.mesh(mesh);
    const QueryFilter filter = defaultQueryFilter();
    if (checkCorridor(current, corridor, filter))
    {
        std::printf("  %s: still valid (%zu polygons)\n", name, corridor.polygons.size());
        return;
    }
    const Status st = replanCorridor(current, world.queryScratch(), corridor, filter, glm::vec3(1.0f));
    std::printf("  %s: broken, re-planned: %s, %zu polygons, %s\n", name, st.ok() ? "ok" : st.error().message.c_str(),
                corridor.polygons.size(), corridor.complete ? "complete" : "incomplete");
}

} // namespace

int main()
{
    NavWorld world;
    MeshDef md = defaultMeshDef();
    md.name = "hall";
    md.source = "sample";
    md.mesh = hall();
    const MeshId mesh = world.putMesh(std::move(md)).value();
    const uint64_t baseHash = world.meshRecord(mesh)->baseHash;
    const QueryFilter filter = defaultQueryFilter();

    Corridor walk, west;
    if (!planCorridor(*world.mesh(mesh), world.queryScratch(), glm::vec3(1, 0, 4), glm::vec3(23, 0, 4), filter,
                      glm::vec3(1.0f), walk)
             .ok() ||
        !planCorridor(*world.mesh(mesh), world.queryScratch(), glm::vec3(1, 0, 1), glm::vec3(4, 0, 1), filter,
                      glm::vec3(1.0f), west)
             .ok())
        return 1;
    std::printf("planned: %zu polygons east, %zu west\n", walk.polygons.size(), west.polygons.size());

    std::printf("1. a crate across the way\n");
    const ObstacleId crate = world.addObstacle(mesh, box(12.0f, 4.0f, 1.0f, 1.0f)).value();
    expect(!checkCorridor(*world.mesh(mesh), walk, filter), "the east corridor broke");
    keepValid(world, mesh, walk, "east");
    expect(walk.complete, "round the crate");
    keepValid(world, mesh, west, "west");
    expect(checkCorridor(*world.mesh(mesh), west, filter), "the west corridor was never touched");

    std::printf("2. a door shuts the hall\n");
    const ObstacleId door = world.addObstacle(mesh, box(18.0f, 4.0f, 0.2f, 4.5f)).value();
    keepValid(world, mesh, walk, "east");
    expect(!walk.complete, "no way through the shut door");

    std::printf("3. the door slides open\n");
    expect(world.moveObstacle(door, glm::vec3(18.0f, 0.0f, 10.5f)).ok(), "moved");
    const Status st = replanCorridor(*world.mesh(mesh), world.queryScratch(), walk, filter, glm::vec3(1.0f));
    expect(st.ok() && walk.complete, "the way is open again");
    keepValid(world, mesh, west, "west");

    std::printf("4. everything removed\n");
    expect(world.removeObstacle(crate).ok() && world.removeObstacle(door).ok(), "removed");
    expect(hashNavMesh(*world.mesh(mesh)) == baseHash, "the mesh is the baked one, bit for bit");
    std::printf("%s\n", failures == 0 ? "all held" : "some failed");
    return failures == 0 ? 0 : 1;
}
