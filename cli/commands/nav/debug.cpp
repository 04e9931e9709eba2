// nav.debug.capture: draws a mesh from above with the deterministic software
// rasteriser (libnav debug_draw.h) and writes a PNG (docs/debug-draw.md). The params that
// choose what is drawn are shared with nav.golden.update / nav.golden.check.

#include "commands/nav/debug_picture.h"
#include "commands/nav/nav_json.h"

#include "spark/core/hash.h"
#include "spark/nav/debug_draw.h"
#include "spark/nav/query.h"

namespace spark::cli
{

using namespace navjson;

DebugPicture renderDebugPicture(Context& ctx, const json& params)
{
    DebugPicture out;
    const MeshRef entry = requireMesh(ctx, params);
    out.mesh = entry.name;
    const nav::NavMesh& mesh = entry.mesh;

    nav::DebugDrawDef def = nav::defaultDebugDrawDef();
    def.width = params.value("width", def.width);
    def.height = params.value("height", def.height);
    def.margin = params.value("margin", def.margin);
    if (params.contains("bounds"))
    {
        const glm::vec3 mn = pointFromJson(params["bounds"].at("min"), entry.is2d, "/bounds/min");
        const glm::vec3 mx = pointFromJson(params["bounds"].at("max"), entry.is2d, "/bounds/max");
        def.hasBounds = true;
        def.minX = mn.x;
        def.minZ = mn.z;
        def.maxX = mx.x;
        def.maxZ = mx.z;
    }

    nav::DebugOverlay overlay;
    if (params.contains("paths"))
    {
        const json& paths = params["paths"];
        for (size_t i = 0; i < paths.size(); ++i)
        {
            std::vector<glm::vec3> line;
            for (size_t k = 0; k < paths[i].size(); ++k)
                line.push_back(pointFromJson(paths[i][k], entry.is2d, "/paths/" + std::to_string(i) + "/" + std::to_string(k)));
            overlay.paths.push_back(std::move(line));
        }
    }
    if (params.contains("path_from") != params.contains("path_to"))
        fail("E_INVALID_PARAMS", "path_from and path_to go together.",
             {{"path", params.contains("path_from") ? "/path_to" : "/path_from"}});
    if (params.contains("path_from"))
    {
        const glm::vec3 from = pointFromJson(params["path_from"], entry.is2d, "/path_from");
        const glm::vec3 to = pointFromJson(params["path_to"], entry.is2d, "/path_to");
        const nav::QueryFilter filter = filterFromJson(params);
        nav::QueryScratch& scratch = ctx.state.world.nav().queryScratch();
        nav::PathResult path;
        std::vector<nav::PathLink> offMesh;
        ctx.state.world.nav().pathLinksOf(entry.id, offMesh);
        const Status st =
            nav::findPath(mesh, scratch, from, to, filter, nav::defaultQueryExtents(mesh), offMesh, path);
        if (!st.ok())
        {
            Error e = st.error();
            if (e.field == "/from" || e.field == "/to")
                e.field = "/path" + (e.field == "/from" ? std::string("_from") : std::string("_to"));
            failWith(e);
        }
        json points = json::array();
        for (const glm::vec3& p : path.points)
            points.push_back(pointToJson(p, entry.is2d));
        out.pathResult = {{"complete", path.complete}, {"length", floatJson(path.length)}, {"points", points}};
        overlay.paths.push_back(path.points);
    }
    for (const auto& line : overlay.paths)
    {
        json points = json::array();
        for (const glm::vec3& p : line)
            points.push_back(pointToJson(p, entry.is2d));
        out.paths.push_back(std::move(points));
    }

    // The mesh's obstacles: their footprints (the carved hole round each
    // shows the agent radius it was grown by).
    const nav::NavWorld& world = ctx.state.world.nav();
    for (nav::ObstacleId id : world.obstaclesInOrder())
    {
        const nav::WorldObstacle& o = *world.obstacle(id);
        if (o.mesh != entry.id)
            continue;
        auto outline = nav::footprintPolygon(o.def.shape, glm::dvec2(o.def.position.x, o.def.position.z), 0.0);
        if (!outline.ok())
            continue; // validated when added: cannot happen
        std::vector<glm::vec3> points;
        for (const glm::dvec2& q : outline.value())
            points.emplace_back(static_cast<float>(q.x), o.def.position.y, static_cast<float>(q.y));
        overlay.obstacles.push_back(std::move(points));
    }

    // The mesh's off-mesh links: take-off magenta, landing cyan, dashed
    // between (the snapped ends when resolved, else the ends as given).
    for (nav::LinkId id : world.offMeshLinksInOrder())
    {
        const nav::WorldLink& l = *world.offMeshLink(id);
        if (l.mesh == entry.id)
            overlay.links.push_back(nav::DebugLink{l.resolved.start, l.resolved.end});
    }

    // The mesh's crowd: each agent as a disc with a heading line, and what is
    // left of its path (position, then its next corners).
    for (nav::AgentId id : world.agentsInOrder())
    {
        const nav::CrowdAgent& a = *world.agent(id);
        if (a.mesh != entry.id)
            continue;
        overlay.agents.push_back(nav::DebugAgent{a.position, a.def.radius, a.velocity});
        if (a.state == nav::AgentState::Moving && !a.corners.empty())
        {
            std::vector<glm::vec3> rest{a.position};
            for (const nav::CorridorCorner& c : a.corners)
                rest.push_back(c.point);
            overlay.paths.push_back(std::move(rest));
        }
    }

    auto image = nav::drawNavMeshDebug(mesh, overlay, def);
    if (!image.ok())
        failWith(image.error());
    out.image = std::move(image.value());
    return out;
}

/// This file's own namespace: the unity build puts several command files in one
/// translation unit, where their unnamed namespaces would be one.
namespace nav_debug_commands
{
namespace
{

json navDebugCapture(Context& ctx, const json& params)
{
    const std::string rel = params.at("path").get<std::string>();
    const auto file = ctx.resolvePath(rel, "/path");
    DebugPicture picture = renderDebugPicture(ctx, params);
    const Status written = writePng(file, picture.image);
    if (!written.ok())
        fail(written.error().code, written.error().message, {{"path", "/path"}, {"file", rel}});
    json out = {{"path", rel},
                {"mesh", picture.mesh},
                {"width", picture.image.width},
                {"height", picture.image.height},
                {"pixels_hash", hashToHex(hashBytes(picture.image.rgba))},
                {"paths", picture.paths}};
    if (!picture.pathResult.is_null())
        out["path_result"] = picture.pathResult;
    return out;
}

const Registrar kNavDebugCapture{
    {"nav.debug.capture", navDebugCapture, Mutates::No, nullptr, {.idempotent = true, .writesFiles = true}}};

} // namespace
} // namespace nav_debug_commands
} // namespace spark::cli
