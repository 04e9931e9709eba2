// nav.nearest, nav.path, nav.raycast, nav.random_point, nav.walls: the mesh
// queries of docs/navmesh.md "Queries" on a named mesh of the session (2D meshes take and
// return [x, y]).

#include "commands/nav/nav_json.h"

#include "spark/nav/query.h"

namespace spark::cli
{
/// This file's own namespace: the unity build puts several command files in one
/// translation unit, where their unnamed namespaces would be one.
namespace nav_query_commands
{
namespace
{

using namespace navjson;

/// Limits of the query commands.
constexpr int kMaxRandomPoints = 10000;
constexpr int kMaxWallsDefault = 1000;

json meshPointJson(const nav::MeshPoint& p, bool is2d)
{
    return {{"point", pointToJson(p.point, is2d)}, {"polygon", p.polygon}, {"distance", floatJson(p.distance)}};
}

json navNearest(Context& ctx, const json& params)
{
    const MeshRef entry = requireMesh(ctx, params);
    const std::string& name = entry.name;
    const glm::vec3 point = pointFromJson(params.at("point"), entry.is2d, "/point");
    const glm::vec3 ext = params.contains("extents") ? extentsFromJson(params.at("extents"), entry.is2d, "/extents")
                                                     : nav::defaultQueryExtents(entry.mesh);
    auto r = nav::findNearest(entry.mesh, point, ext);
    if (!r.ok())
        failWith(r.error());
    json out = meshPointJson(*r, entry.is2d);
    out["mesh"] = name;
    return out;
}

json navPath(Context& ctx, const json& params)
{
    const MeshRef entry = requireMesh(ctx, params);
    const std::string& name = entry.name;
    const glm::vec3 from = pointFromJson(params.at("from"), entry.is2d, "/from");
    const glm::vec3 to = pointFromJson(params.at("to"), entry.is2d, "/to");
    const nav::QueryFilter filter = filterFromJson(params);
    const glm::vec3 ext = params.contains("extents") ? extentsFromJson(params.at("extents"), entry.is2d, "/extents")
                                                     : nav::defaultQueryExtents(entry.mesh);
    nav::QueryScratch& scratch = ctx.state.world.nav().queryScratch();
    nav::PathResult path;
    std::vector<nav::PathLink> offMesh;
    ctx.state.world.nav().pathLinksOf(entry.id, offMesh);
    // A goal in an unloaded tile (streaming): the path goes to the loaded
    // ground nearest it, within a tile's side, and says why it stops there.
    glm::vec3 goal = to;
    const bool unloaded = ctx.state.world.nav().tileUnloaded(entry.id, to);
    if (unloaded)
    {
        const float side = static_cast<float>(entry.mesh.tileSize()) * entry.mesh.settings().cellSize;
        auto near = nav::findNearest(entry.mesh, to, glm::vec3(side, ext.y + side, side));
        if (near.ok())
            goal = near->point;
    }
    Status st = nav::findPath(entry.mesh, scratch, from, goal, filter, ext, offMesh, path);
    if (!st.ok())
        failWith(st.error());
    if (unloaded)
        path.complete = false;
    json links = json::array();
    for (const nav::PathResult::LinkUse& use : path.links)
        links.push_back({{"point", use.point}, {"link", handleNumber(nav::NavWorld::linkOfKey(use.link))}});
    json points = json::array();
    for (const glm::vec3& p : path.points)
        points.push_back(pointToJson(p, entry.is2d));
    json corridor = json::array();
    if (params.value("corridor", false))
        for (uint32_t p : path.polygons)
            corridor.push_back(p);
    json out = {{"mesh", name},
                {"points", std::move(points)},
                {"length", floatJson(path.length)},
                {"cost", floatJson(path.cost)},
                {"complete", path.complete},
                {"polygons", path.polygons.size()},
                {"links", std::move(links)}};
    if (params.value("corridor", false))
        out["corridor"] = std::move(corridor);
    if (unloaded)
        out["reason"] = "tile_not_loaded";
    else if (!path.complete)
    {
        // Why: a second search with every area allowed tells a goal the
        // filter cuts off from one no route reaches.
        nav::PathResult open;
        const bool filtered = nav::findPath(entry.mesh, scratch, from, to, nav::defaultQueryFilter(), ext, offMesh, open).ok() &&
                              open.complete;
        out["reason"] = filtered ? "excluded_area" : "unreachable";
    }
    return out;
}

json navRaycast(Context& ctx, const json& params)
{
    const MeshRef entry = requireMesh(ctx, params);
    const std::string& name = entry.name;
    const glm::vec3 from = pointFromJson(params.at("from"), entry.is2d, "/from");
    const glm::vec3 to = pointFromJson(params.at("to"), entry.is2d, "/to");
    const nav::QueryFilter filter = filterFromJson(params);
    nav::QueryScratch& scratch = ctx.state.world.nav().queryScratch();
    auto r = nav::raycast(entry.mesh, scratch, from, to, filter, nav::defaultQueryExtents(entry.mesh));
    if (!r.ok())
        failWith(r.error());
    return {{"mesh", name},
            {"hit", r->hit},
            {"fraction", floatJson(r->fraction)},
            {"point", pointToJson(r->point, entry.is2d)},
            {"normal", pointToJson(r->normal, entry.is2d)},
            {"polygon", r->polygon}};
}

json navRandomPoint(Context& ctx, const json& params)
{
    const MeshRef entry = requireMesh(ctx, params);
    const std::string& name = entry.name;
    const uint64_t seed = params.at("seed").get<uint64_t>();
    const int count = params.value("count", 1);
    if (count < 1 || count > kMaxRandomPoints)
        fail("E_INVALID_PARAMS", "count is 1..10000", {{"path", "/count"}});
    Rng rng = rngFromSeed(seed);
    json points = json::array();
    json polygons = json::array();
    for (int i = 0; i < count; ++i)
    {
        auto p = nav::randomPoint(entry.mesh, rng);
        if (!p.ok())
            failWith(p.error());
        points.push_back(pointToJson(p->point, entry.is2d));
        polygons.push_back(p->polygon);
    }
    return {{"mesh", name}, {"points", std::move(points)}, {"polygons", std::move(polygons)}};
}

json navWalls(Context& ctx, const json& params)
{
    const MeshRef entry = requireMesh(ctx, params);
    const std::string& name = entry.name;
    const glm::vec3 point = pointFromJson(params.at("point"), entry.is2d, "/point");
    const float range = params.at("range").get<float>();
    const int maxWalls = params.value("max_walls", kMaxWallsDefault);
    nav::QueryScratch& scratch = ctx.state.world.nav().queryScratch();
    std::vector<nav::WallHit> hits;
    Status st = nav::findWalls(entry.mesh, scratch, point, range, hits);
    if (!st.ok())
        failWith(st.error());
    json walls = json::array();
    for (size_t i = 0; i < hits.size() && static_cast<int>(i) < maxWalls; ++i)
    {
        const nav::WallHit& h = hits[i];
        walls.push_back({{"a", pointToJson(h.wall.a, entry.is2d)},
                         {"b", pointToJson(h.wall.b, entry.is2d)},
                         {"normal", pointToJson(h.wall.normal, entry.is2d)},
                         {"closest", pointToJson(h.closest, entry.is2d)},
                         {"distance", floatJson(h.distance)},
                         {"polygon", h.wall.polygon},
                         {"edge", h.wall.edge}});
    }
    return {{"mesh", name}, {"walls", std::move(walls)}, {"total", hits.size()}};
}

const Registrar kNavNearest{{"nav.nearest", navNearest, Mutates::No}};
const Registrar kNavPath{{"nav.path", navPath, Mutates::No}};
const Registrar kNavRaycast{{"nav.raycast", navRaycast, Mutates::No}};
const Registrar kNavRandomPoint{{"nav.random_point", navRandomPoint, Mutates::No}};
const Registrar kNavWalls{{"nav.walls", navWalls, Mutates::No}};

} // namespace
} // namespace nav_query_commands
} // namespace spark::cli
