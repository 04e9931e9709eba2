// nav.obstacle.add, nav.obstacle.move, nav.obstacle.remove, nav.obstacle.list:
// obstacles carved into a mesh (docs/navmesh.md "Obstacles"). The footprint JSON
// ({type: circle, radius} | {type: box, half_extents, angle_deg?} |
// {type: polygon, points}) becomes a nav::FootprintDef; the world validates,
// carves and answers. Obstacles are named by an opaque number like agents.

#include "commands/nav/nav_json.h"

#include "spark/nav/carve.h"
#include "spark/nav/nav_world.h"

namespace spark::cli
{
/// This file's own namespace: the unity build puts several command files in one
/// translation unit, where their unnamed namespaces would be one.
namespace nav_obstacle_commands
{
namespace
{

using namespace navjson;

/// The obstacle a command names; `E_NAV_UNKNOWN_OBSTACLE` at /id when there is none.
nav::ObstacleId requireObstacle(const nav::NavWorld& world, const json& params)
{
    const uint64_t n = params.at("id").get<uint64_t>();
    const nav::ObstacleId id = handleFromNumber<nav::ObstacleTag>(n);
    if (!world.obstacle(id))
        fail("E_NAV_UNKNOWN_OBSTACLE", "there is no obstacle " + std::to_string(n) + " (never made, or removed)",
             {{"path", "/id"}},
             otherKindHint(n, kHandleKind<nav::ObstacleTag>, "nav.obstacle.list shows the obstacles"));
    return id;
}

/// The footprint of `shape` (schema-checked: an object with a known type).
/// Fields of another shape's type are refused, so a typo does not pass unseen.
nav::FootprintDef footprintFromJson(const json& shape)
{
    nav::FootprintDef def;
    const std::string type = shape.at("type").get<std::string>();
    auto refuseField = [&](const char* field, const char* why) {
        if (shape.contains(field))
            fail("E_INVALID_PARAMS", std::string(why), {{"path", std::string("/shape/") + field}},
                 "a circle has radius; a box half_extents and angle_deg; a polygon points");
    };
    auto require = [&](const char* field) {
        if (!shape.contains(field))
            fail("E_INVALID_PARAMS", "a " + type + " footprint needs " + field, {{"path", std::string("/shape/") + field}},
                 "a circle has radius; a box half_extents and angle_deg; a polygon points");
    };
    if (type == "circle")
    {
        def.shape = nav::FootprintShape::Circle;
        require("radius");
        refuseField("half_extents", "only a box has half extents");
        refuseField("points", "only a polygon has points");
        refuseField("angle_deg", "a circle has no angle");
        def.radius = shape.at("radius").get<float>();
    }
    else if (type == "box")
    {
        def.shape = nav::FootprintShape::Box;
        require("half_extents");
        refuseField("radius", "only a circle has a radius");
        refuseField("points", "only a polygon has points");
        const json& he = shape.at("half_extents");
        def.halfExtents = glm::vec2(he.at(0).get<float>(), he.at(1).get<float>());
        def.angleDeg = shape.value("angle_deg", 0.0f);
    }
    else
    {
        def.shape = nav::FootprintShape::Polygon;
        require("points");
        refuseField("radius", "only a circle has a radius");
        refuseField("half_extents", "only a box has half extents");
        for (const json& p : shape.at("points"))
            def.points.emplace_back(p.at(0).get<float>(), p.at(1).get<float>());
        def.angleDeg = shape.value("angle_deg", 0.0f);
    }
    return def;
}

json footprintToJson(const nav::FootprintDef& def)
{
    switch (def.shape)
    {
    case nav::FootprintShape::Circle:
        return {{"type", "circle"}, {"radius", floatJson(def.radius)}};
    case nav::FootprintShape::Box:
        return {{"type", "box"},
                {"half_extents", json::array({floatJson(def.halfExtents.x), floatJson(def.halfExtents.y)})},
                {"angle_deg", floatJson(def.angleDeg)}};
    case nav::FootprintShape::Polygon: {
        json points = json::array();
        for (const glm::vec2& p : def.points)
            points.push_back(json::array({floatJson(p.x), floatJson(p.y)}));
        return {{"type", "polygon"}, {"points", std::move(points)}, {"angle_deg", floatJson(def.angleDeg)}};
    }
    }
    return json::object();
}

/// What every obstacle command answers about the mesh it changed.
json meshStateJson(const nav::NavWorld& world, nav::MeshId mesh)
{
    const nav::NavMesh& m = *world.mesh(mesh);
    return {{"mesh", world.meshRecord(mesh)->name},
            {"polygons", m.activePolygonCount()},
            {"hash", hashHex(nav::hashNavMesh(m))},
            {"base_hash", hashHex(world.meshRecord(mesh)->baseHash)}};
}

json obstacleJson(const nav::NavWorld& world, nav::ObstacleId id)
{
    const nav::WorldObstacle& o = *world.obstacle(id);
    const bool is2d = world.mesh(o.mesh)->is2d();
    json out = {{"id", handleNumber(id)},
                {"mesh", world.meshRecord(o.mesh)->name},
                {"shape", footprintToJson(o.def.shape)},
                {"position", pointToJson(o.def.position, is2d)},
                {"height", floatJson(o.def.height)}};
    if (!o.def.follow.empty())
        out["follow"] = o.def.follow;
    return out;
}

json navObstacleAdd(Context& ctx, const json& params)
{
    const MeshRef mesh = requireMesh(ctx, params);
    nav::NavWorld& world = ctx.state.world.nav();
    nav::ObstacleDef def = nav::defaultObstacleDef();
    def.shape = footprintFromJson(params.at("shape"));
    def.position = pointFromJson(params.at("position"), mesh.is2d, "/position");
    def.height = params.value("height", 0.0f);
    def.follow = params.value("follow", std::string());
    // An obstacle following no object would never move: refuse the name.
    if (!def.follow.empty() && !ctx.state.world.findObject(def.follow).valid())
        fail("E_SCENE_UNKNOWN_OBJECT", "there is no object named \"" + def.follow + "\" to follow",
             {{"path", "/follow"}},
             ctx.state.world.hasScene() ? "space3d.list shows the objects; leave follow out for an obstacle that stays"
                                        : "follow names an object of the 3D scene: make or load one first");
    auto added = world.addObstacle(mesh.id, def);
    if (!added.ok())
        failWith(added.error());
    json out = meshStateJson(world, mesh.id);
    out["id"] = handleNumber(added.value());
    return out;
}

json navObstacleMove(Context& ctx, const json& params)
{
    nav::NavWorld& world = ctx.state.world.nav();
    const nav::ObstacleId id = requireObstacle(world, params);
    const nav::MeshId mesh = world.obstacle(id)->mesh;
    const glm::vec3 position = pointFromJson(params.at("position"), world.mesh(mesh)->is2d(), "/position");
    std::optional<float> angle;
    if (params.contains("angle_deg"))
    {
        if (world.obstacle(id)->def.shape.shape == nav::FootprintShape::Circle)
            fail("E_INVALID_PARAMS", "a circle has no angle", {{"path", "/angle_deg"}},
                 "only boxes and polygons turn; leave angle_deg out");
        angle = params.at("angle_deg").get<float>();
    }
    const Status st = world.moveObstacle(id, position, angle);
    if (!st.ok())
        failWith(st.error());
    json out = meshStateJson(world, mesh);
    out["id"] = handleNumber(id);
    return out;
}

json navObstacleRemove(Context& ctx, const json& params)
{
    nav::NavWorld& world = ctx.state.world.nav();
    const nav::ObstacleId id = requireObstacle(world, params);
    const nav::MeshId mesh = world.obstacle(id)->mesh;
    const Status st = world.removeObstacle(id);
    if (!st.ok())
        failWith(st.error());
    json out = meshStateJson(world, mesh);
    out["removed"] = handleNumber(id);
    out["obstacles"] = world.obstacleCount();
    return out;
}

json navObstacleList(Context& ctx, const json& params)
{
    const nav::NavWorld& world = ctx.state.world.nav();
    nav::MeshId only;
    if (params.contains("mesh"))
        only = requireMesh(ctx, params).id;
    json obstacles = json::array();
    for (nav::ObstacleId id : world.obstaclesInOrder())
        if (!only.valid() || world.obstacle(id)->mesh == only)
            obstacles.push_back(obstacleJson(world, id));
    return {{"obstacles", std::move(obstacles)}};
}

const Registrar kAdd{{"nav.obstacle.add", navObstacleAdd, Mutates::Yes}};
const Registrar kMove{{"nav.obstacle.move", navObstacleMove, Mutates::Yes, nullptr, {.idempotent = true}}};
const Registrar kRemove{
    {"nav.obstacle.remove", navObstacleRemove, Mutates::Yes, nullptr, {.destructive = true, .idempotent = true}}};
const Registrar kList{{"nav.obstacle.list", navObstacleList, Mutates::No}};

} // namespace
} // namespace nav_obstacle_commands
} // namespace spark::cli
