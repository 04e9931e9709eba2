// A consumer of the installed package: builds a mesh of two rooms and a
// door, carves a crate in the door's way, and finds a path round it. Prints
// the versions, the path's length and the carved mesh's hash, so the test
// can compare them with the same program built from pkg-config.
#include "spark/ai/version.h"
#include "spark/nav/nav_world.h"
#include "spark/nav/version.h"

#include <cstdio>
#include <memory>

int main()
{
    using namespace spark::nav;
    PolySoup soup;
    soup.polyStarts.push_back(0);
    const float rects[3][4] = {{0, 0, 5, 5}, {5, 2, 7, 3}, {7, 0, 12, 5}};
    for (const auto& r : rects)
    {
        const uint32_t base = static_cast<uint32_t>(soup.vertices.size());
        soup.vertices.insert(soup.vertices.end(), {{r[0], 0, r[1]}, {r[2], 0, r[1]}, {r[2], 0, r[3]}, {r[0], 0, r[3]}});
        for (uint32_t i = 0; i < 4; ++i)
            soup.indices.push_back(base + i);
        soup.polyStarts.push_back(static_cast<uint32_t>(soup.indices.size()));
        soup.areas.push_back(0);
    }
    NavMeshDef def = defaultNavMeshDef();
    def.is2d = true;
    def.settings.agentRadius = 0.2f;
    auto built = buildNavMesh(soup, def);
    if (!built.ok())
        return 1;
    NavWorld world;
    MeshDef md = defaultMeshDef();
    md.name = "rooms";
    md.mesh = std::make_shared<const NavMesh>(std::move(built).value());
    const MeshId mesh = world.putMesh(std::move(md)).value();
    ObstacleDef crate = defaultObstacleDef();
    crate.shape.radius = 0.3f;
    crate.position = glm::vec3(3.5f, 0.0f, 2.5f);
    if (!world.addObstacle(mesh, crate).ok())
        return 1;
    PathResult path;
    if (!findPath(*world.mesh(mesh), world.queryScratch(), glm::vec3(1, 0, 2.5f), glm::vec3(11, 0, 2.5f),
                  defaultQueryFilter(), glm::vec3(0.5f), path)
             .ok() ||
        !path.complete)
        return 1;
    std::printf("nav %s ai %s length %.6f hash %016llx\n", spark::nav::version(), spark::ai::version(), path.length,
                static_cast<unsigned long long>(hashNavMesh(*world.mesh(mesh))));
    return 0;
}
