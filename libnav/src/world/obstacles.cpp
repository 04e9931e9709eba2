// The obstacles of a NavWorld (docs/navmesh.md "Obstacles"): each keeps its grown footprint (its
// cut); a change re-carves its mesh under the old and new footprints only.
// Like every mutation, all inputs are checked before anything is written.

#include "spark/nav/nav_world.h"

#include <cmath>

namespace spark::nav
{

namespace
{

Status validateObstacle(const ObstacleDef& def)
{
    SPARK_TRY(validateFootprint(def.shape));
    for (int c = 0; c < 3; ++c)
        if (!std::isfinite(def.position[c]) || std::fabs(def.position[c]) > kMaxCoordinate)
            return makeError("E_INVALID_PARAMS", "the position is finite and within ±1e6 m", "/position");
    if (!std::isfinite(def.height) || def.height < 0.0f || def.height > kMaxObstacleHeight)
        return makeError("E_INVALID_PARAMS", "the height is a number in [0, 1e4] m (0: the mesh's agent height)",
                         "/height");
    if (def.follow.size() > kMaxMeshName)
        return makeError("E_INVALID_PARAMS", "the follow target's name is longer than 256 bytes", "/follow");
    return Status::success();
}

/// The cut of an obstacle on `base`: its footprint grown by the agent radius,
/// reaching the polygons within [y - step height, y + height] (2D: all).
Result<CarveCut> cutOf(const NavMesh& base, const ObstacleDef& def)
{
    SPARK_TRY(validateObstacle(def));
    const NavMeshSettings& s = base.settings();
    auto polygon = footprintPolygon(def.shape, glm::dvec2(def.position.x, def.position.z), s.agentRadius);
    if (!polygon.ok())
        return polygon.error();
    if (base.is2d())
        return makeCarveCut(std::move(polygon.value()), -1.0e30f, 1.0e30f);
    const float height = def.height > 0.0f ? def.height : s.agentHeight;
    return makeCarveCut(std::move(polygon.value()), def.position.y - s.stepHeight, def.position.y + height);
}

} // namespace

ObstacleDef defaultObstacleDef()
{
    return ObstacleDef{};
}

uint32_t NavWorld::polyGenerationOf(MeshId mesh, uint32_t poly) const
{
    const WorldMesh* record = m_state.meshes.get(mesh);
    if (!record)
        return 0;
    if (record->carved)
        return carvedGeneration(*record->carved, poly, record->polyGeneration, record->baseGenerations);
    if (poly >= record->baked->polygonCount())
        return 0;
    return record->baseGenerations.empty() ? record->polyGeneration : record->baseGenerations[poly];
}

bool NavWorld::corridorStillValid(MeshId mesh, const CrowdAgent& agent) const
{
    const WorldMesh* record = m_state.meshes.get(mesh);
    if (!record || agent.corridor.polygons.empty())
        return false;
    const NavMesh& current = currentMesh(*record);
    for (uint32_t p : agent.corridor.polygons)
    {
        const uint32_t g = polyGenerationOf(mesh, p);
        if (g == 0 || g > agent.corridorGeneration || current.disabled(p))
            return false;
    }
    return true;
}

void NavWorld::carveRebaked(MeshId mesh)
{
    const NavMesh& baked = *m_state.meshes.get(mesh)->baked;
    std::vector<CarveRegion> regions;
    m_state.obstacles.forEach([&](ObstacleId id, const WorldObstacle& o) {
        if (o.mesh != mesh)
            return;
        WorldObstacle& obstacle = *m_state.obstacles.get(id);
        obstacle.cut = cutOf(baked, obstacle.def).value(); // the def was valid when added
        regions.push_back(carveRegionOf(obstacle.cut));
    });
    if (!regions.empty())
        recarve(mesh, regions);
}

void NavWorld::recarve(MeshId mesh, std::span<const CarveRegion> regions)
{
    WorldMesh& record = *m_state.meshes.get(mesh);
    std::vector<const CarveCut*> cuts;
    m_state.obstacles.forEach([&](ObstacleId, const WorldObstacle& o) {
        if (o.mesh == mesh)
            cuts.push_back(&o.cut);
    });
    const uint32_t generation = m_state.nextPolyGeneration++;
    std::vector<uint32_t> renumbered;
    record.carved = std::make_shared<const CarvedMesh>(
        recarveNavMesh(record.baked, record.carved.get(), cuts, regions, record.polyGeneration, generation,
                       record.baseGenerations, &renumbered));
    record.meshGeneration = generation;
    // Corridors name polygons by slot: pieces of tiles the change left alone
    // may have moved in the slot order (their references did not), so the
    // corridors are renumbered; one through a re-cut polygon is left to fail
    // `corridorStillValid` and re-plan.
    m_state.agents.forEach([&](AgentId, CrowdAgent& a) {
        if (a.mesh != mesh)
            return;
        // (`renumbered` lists the previous pieces; base slots keep their numbers.)
        const uint32_t baseCount = record.baked->polygonCount();
        auto now = [&](uint32_t p) {
            return p < baseCount ? p : (p - baseCount < renumbered.size() ? renumbered[p - baseCount] : kNoPolygon);
        };
        bool moved = false;
        for (uint32_t p : a.corridor.polygons)
            moved = moved || (now(p) != kNoPolygon && now(p) != p);
        if (!moved)
            return;
        for (uint32_t& p : a.corridor.polygons)
        {
            const uint32_t q = now(p);
            if (q == kNoPolygon)
            {
                a.corridorGeneration = 0; // part of it is gone: plan again
                return;
            }
            p = q;
        }
    });
    resolveLinks(mesh); // against what is left
}

Result<ObstacleId> NavWorld::addObstacle(MeshId mesh, const ObstacleDef& def)
{
    const WorldMesh* record = m_state.meshes.get(mesh);
    if (!record)
        return makeError("E_NAV_NO_MESH", "no such mesh (the handle is stale)", "/mesh");
    auto cut = cutOf(*record->baked, def);
    if (!cut.ok())
        return cut.error();
    if (m_state.obstacles.size() >= kMaxWorldObstacles)
        return makeError("E_NAV_LIMIT", "the world has 4096 obstacles already", "", "remove obstacles first");
    const CarveRegion region = carveRegionOf(cut.value());
    const ObstacleId id = m_state.obstacles.insert(WorldObstacle{mesh, def, std::move(cut.value())});
    recarve(mesh, std::span<const CarveRegion>(&region, 1));
    return id;
}

Status NavWorld::moveObstacle(ObstacleId obstacle, const glm::vec3& position, std::optional<float> angleDeg)
{
    WorldObstacle* o = m_state.obstacles.get(obstacle);
    if (!o)
        return makeError("E_NAV_UNKNOWN_OBSTACLE", "no such obstacle (the handle is stale)", "/id",
                         "nav.obstacle.list lists the obstacles");
    ObstacleDef def = o->def;
    def.position = position;
    if (angleDeg)
        def.shape.angleDeg = *angleDeg;
    auto cut = cutOf(*m_state.meshes.get(o->mesh)->baked, def);
    if (!cut.ok())
    {
        Error e = cut.error();
        if (e.field == "/shape/angle_deg")
            e.field = "/angle_deg";
        return e;
    }
    const CarveRegion regions[2] = {carveRegionOf(o->cut), carveRegionOf(cut.value())};
    o->def = std::move(def);
    o->cut = std::move(cut.value());
    recarve(o->mesh, regions);
    return Status::success();
}

Status NavWorld::removeObstacle(ObstacleId obstacle)
{
    const WorldObstacle* o = m_state.obstacles.get(obstacle);
    if (!o)
        return makeError("E_NAV_UNKNOWN_OBSTACLE", "no such obstacle (the handle is stale)", "/id",
                         "nav.obstacle.list lists the obstacles");
    const MeshId mesh = o->mesh;
    const CarveRegion region = carveRegionOf(o->cut);
    m_state.obstacles.remove(obstacle);
    recarve(mesh, std::span<const CarveRegion>(&region, 1));
    return Status::success();
}

std::vector<ObstacleId> NavWorld::obstaclesInOrder() const
{
    std::vector<ObstacleId> out;
    out.reserve(m_state.obstacles.size());
    m_state.obstacles.forEach([&](ObstacleId id, const WorldObstacle&) { out.push_back(id); });
    return out;
}

} // namespace spark::nav
