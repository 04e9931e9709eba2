// nav.bake: bakes a navigation mesh under a name from one of the sources
// (docs/navmesh.md "The 3D bake", "The 2D bake"): "scene2d", "polygons" and "space3d". Each source is one
// function that turns the params (and the session) into a built mesh plus its
// counters, through the libraries' bake functions; the table `kSources` maps
// the `source` param to it, so a new source is one more entry. The params
// become a `nav::BakeDef` in one place (`bakeDefFromParams`), and libnav turns
// that into the mesh's settings (`navMeshDefFromBake`). The common tail puts the
// mesh into the session's navigation world (a re-bake under an existing name
// replaces the mesh and keeps its handle) and answers.

#include "commands/nav/nav_json.h"

#include "spark/nav/bake.h"
#include "spark/nav/bake2d.h"
#include "spark/scene/scene2d.h"
#include "spark/scene/scene_bake.h"

#include <optional>
#include <string>

namespace spark::cli
{
/// This file's own namespace: the unity build puts several command files in one
/// translation unit, where their unnamed namespaces would be one.
namespace nav_bake_commands
{
namespace
{

using namespace navjson;

/// What a source hands to the common tail.
struct BakedMesh
{
    std::shared_ptr<const nav::NavMesh> mesh;
    json stats = json::object(); ///< Source-specific counters (never timings).
    std::optional<nav::BakeDef> bake; ///< The settings of a tiled 3D bake (nav.rebake re-bakes with them).
    /// With agent_radii: the other radii's meshes (the first radius's is `mesh`).
    std::vector<std::shared_ptr<const nav::NavMesh>> others;
};

using SourceBaker = BakedMesh (*)(Context& ctx, const json& params);

/// The bake settings of the params (missing ones take `defaultBakeDef()`'s values).
nav::BakeDef bakeDefFromParams(const json& params)
{
    nav::BakeDef def = nav::defaultBakeDef();
    def.agentRadius = params.value("agent_radius", def.agentRadius);
    def.agentHeight = params.value("agent_height", def.agentHeight);
    def.stepHeight = params.value("step_height", def.stepHeight);
    def.maxSlopeDeg = params.value("max_slope_deg", def.maxSlopeDeg);
    def.cellSize = params.value("cell_size", def.cellSize);
    def.cellHeight = params.value("cell_height", def.cellHeight);
    def.maxSimplificationError = params.value("max_simplification_error", def.maxSimplificationError);
    def.maxEdgeLen = params.value("max_edge_len", def.maxEdgeLen);
    def.minRegionArea = params.value("min_region_area", def.minRegionArea);
    def.mergeRegionArea = params.value("merge_region_area", def.mergeRegionArea);
    def.tileSize = params.value("tile_size", def.tileSize);
    def.threads = params.value("threads", def.threads);
    if (params.contains("agent_radii"))
    {
        if (params.contains("agent_radius"))
            fail("E_NAV_CONFIG", "Give agent_radius or agent_radii, not both.", {{"path", "/agent_radii"}},
                 "agent_radii bakes one mesh per radius; list every radius there.");
        def.agentRadii = params["agent_radii"].get<std::vector<float>>();
    }
    if (params.contains("tiles"))
    {
        const json& t = params["tiles"];
        def.tileRange = nav::TileRange{t["x"][0].get<int32_t>(), t["x"][1].get<int32_t>(), t["z"][0].get<int32_t>(),
                                       t["z"][1].get<int32_t>()};
    }
    return def;
}

glm::vec2 vec2At(const json& j, const std::string& field)
{
    const glm::vec3 p = pointFromJson(j, true, field);
    return {p.x, p.z};
}

std::vector<std::vector<glm::vec2>> polygonsAt(const json& params, const char* key)
{
    std::vector<std::vector<glm::vec2>> out;
    if (!params.contains(key))
        return out;
    const json& list = params.at(key);
    for (size_t i = 0; i < list.size(); ++i)
    {
        std::vector<glm::vec2> poly;
        for (size_t k = 0; k < list[i].size(); ++k)
            poly.push_back(vec2At(list[i][k], "/" + std::string(key) + "/" + std::to_string(i) + "/" + std::to_string(k)));
        out.push_back(std::move(poly));
    }
    return out;
}

json gridStats(const nav::Bake2DStats& s, const nav::Grid2D& grid)
{
    return {{"grid_width", grid.width},
            {"grid_height", grid.height},
            {"cell_size", floatJson(grid.cellSize)},
            {"cells", s.cells},
            {"blocked_cells", s.blockedCells},
            {"eroded_cells", s.erodedCells},
            {"walkable_cells", s.walkableCells},
            {"rectangles", s.rectangles}};
}

/// Settings of the 3D bake only, refused by the 2D sources.
constexpr const char* k3DOnlyKeys[] = {"cell_height", "max_slope_deg", "max_simplification_error",
                                       "max_edge_len", "min_region_area", "merge_region_area", "tile_size", "threads", "tiles", "include_sensors", "include_kinds", "allow_approximations", "agent_radii"};

/// The common 2D tail: erode + rectangles, then the mesh.
BakedMesh bakeGrid(const nav::Grid2D& grid, const json& params)
{
    for (const char* key : k3DOnlyKeys)
        if (params.contains(key))
            fail("E_NAV_CONFIG", std::string("'") + key + "' is a setting of the 3D bake (source \"space3d\").",
                 {{"path", std::string("/") + key}});
    nav::BakeDef def = bakeDefFromParams(params);
    def.cellSize = grid.cellSize;
    auto baked = nav::bakeGrid2DWithStats(grid, def.agentRadius);
    if (!baked.ok())
        failWith(baked.error());
    auto mesh = nav::buildNavMesh(baked.value().mesh, nav::navMeshDefFromBake(def, true));
    if (!mesh.ok())
        failWith(mesh.error());
    BakedMesh out;
    out.mesh = std::make_shared<const nav::NavMesh>(std::move(mesh.value()));
    out.stats = gridStats(baked.value().stats, grid);
    return out;
}

/// source "polygons": shapes given in the params.
BakedMesh bakePolygons(Context&, const json& params)
{
    nav::Shapes2D shapes;
    shapes.cellSize = params.value("cell_size", 0.2f);
    if (params.contains("bounds"))
    {
        shapes.hasBounds = true;
        shapes.bounds.min = vec2At(params["bounds"].at("min"), "/bounds/min");
        shapes.bounds.max = vec2At(params["bounds"].at("max"), "/bounds/max");
    }
    shapes.obstacles = polygonsAt(params, "obstacles");
    shapes.walkable = polygonsAt(params, "walkable");
    if (params.contains("solid_rects"))
        for (size_t i = 0; i < params["solid_rects"].size(); ++i)
        {
            const std::string at = "/solid_rects/" + std::to_string(i);
            shapes.solidRects.push_back(
                nav::Rect2D{vec2At(params["solid_rects"][i].at("min"), at + "/min"),
                            vec2At(params["solid_rects"][i].at("max"), at + "/max")});
        }
    if (params.contains("areas"))
        for (size_t i = 0; i < params["areas"].size(); ++i)
        {
            const std::string at = "/areas/" + std::to_string(i);
            const json& a = params["areas"][i];
            shapes.areas.push_back(nav::AreaRect2D{vec2At(a.at("min"), at + "/min"), vec2At(a.at("max"), at + "/max"),
                                                   a.at("area").get<uint8_t>()});
        }
    auto grid = nav::rasterizeShapes2D(shapes);
    if (!grid.ok())
        failWith(grid.error());
    return bakeGrid(grid.value(), params);
}

/// source "scene2d": the session's 2D tile scene, tileSize / subdivisions cells.
BakedMesh bakeScene2D(Context& ctx, const json& params)
{
    if (!ctx.state.scene2d)
        fail("E_NAV_NO_GEOMETRY", "There is no 2D scene to bake.", {{"path", "/source"}},
             "Create one with scene2d.new or load one with scene2d.load.");
    for (const char* key : {"cell_size", "bounds", "obstacles", "walkable", "solid_rects", "areas"})
        if (params.contains(key))
            fail("E_NAV_CONFIG", std::string("'") + key + "' is for source \"polygons\"; the 2D scene gives the shapes.",
                 {{"path", std::string("/") + key}}, "Use subdivisions to set the cell size (tile_size / subdivisions).");
    auto grid = scene::scene2DToGrid(*ctx.state.scene2d, params.value("subdivisions", 4));
    if (!grid.ok())
        failWith(grid.error());
    BakedMesh out = bakeGrid(grid.value(), params);
    out.stats["subdivisions"] = params.value("subdivisions", 4);
    return out;
}

scene::BodyKind kindFromName(const std::string& name, size_t index)
{
    if (name == "fixed")
        return scene::BodyKind::Fixed;
    if (name == "dynamic")
        return scene::BodyKind::Dynamic;
    if (name == "kinematic")
        return scene::BodyKind::Kinematic;
    fail("E_INVALID_PARAMS", "unknown body kind '" + name + "' (fixed, dynamic, kinematic)",
         {{"path", "/include_kinds/" + std::to_string(index)}});
}

/// The colliders a space3d bake (or re-bake) selects, with the bake settings of the params.
scene::SceneBakeDef sceneBakeDefFromParams(const json& params)
{
    scene::SceneBakeDef def = scene::defaultSceneBakeDef();
    def.bake = bakeDefFromParams(params);
    def.colliders.includeSensors = params.value("include_sensors", false);
    def.allowApproximations = params.value("allow_approximations", false);
    if (params.contains("include_kinds"))
    {
        def.colliders.includeKinds.clear();
        const json& kinds = params["include_kinds"];
        for (size_t i = 0; i < kinds.size(); ++i)
            def.colliders.includeKinds.push_back(kindFromName(kinds[i].get<std::string>(), i));
    }
    return def;
}

/// source "space3d": the static colliders of the session's 3D scene (libscene's bake).
BakedMesh bakeSpace3D(Context& ctx, const json& params)
{
    if (!ctx.state.world.hasScene())
        fail("E_NAV_NO_GEOMETRY", "There is no 3D scene to bake.", {{"path", "/source"}},
             "Create one with space3d.new or load one with space3d.load.");
    for (const char* key : {"bounds", "obstacles", "walkable", "solid_rects", "areas", "subdivisions"})
        if (params.contains(key))
            fail("E_NAV_CONFIG",
                 std::string("'") + key +
                     "' is not a setting of source \"space3d\"; the scene's colliders give the shapes.",
                 {{"path", std::string("/") + key}});
    const scene::SceneBakeDef def = sceneBakeDefFromParams(params);
    auto baked = scene::bakeWorldDocument(ctx.state.world.document(), def, scene::makeObjModelLoader(ctx.projectRoot));
    if (!baked.ok())
        failWith(baked.error());
    json approximations = json::array();
    for (const scene::ColliderApproximation& a : baked->approximations)
        approximations.push_back({{"object", a.object}, {"code", a.code}, {"message", a.message}});
    const nav::BakeStats& s = baked->stats;
    BakedMesh out;
    out.mesh = baked->mesh;
    out.others.assign(baked->meshes.begin() + 1, baked->meshes.end());
    if (def.bake.tileSize > 0)
        out.bake = def.bake; // kept for nav.rebake (per radius: bakeDefForRadius)
    out.stats = {{"cells", s.cells},
                 {"spans", s.spans},
                 {"regions", s.regions},
                 {"fallback_regions", s.fallbackRegions},
                 {"colliders", baked->colliders},
                 {"triangles", baked->triangles},
                 {"approximated_colliders", baked->approximatedColliders},
                 {"approximations", std::move(approximations)}};
    if (s.tiles != 0)
        out.stats["tiles"] = s.tiles;
    return out;
}

struct SourceEntry
{
    const char* name;
    SourceBaker bake;
};

/// Every source nav.bake knows, by its `source` name.
constexpr SourceEntry kSources[] = {
    {"polygons", bakePolygons},
    {"scene2d", bakeScene2D},
    {"space3d", bakeSpace3D},
};

json navBake(Context& ctx, const json& params)
{
    const std::string name = params.value("name", std::string("default"));
    std::string source;
    if (params.contains("source"))
        source = params["source"].get<std::string>();
    else if (ctx.state.world.hasScene())
        source = "space3d";
    else if (ctx.state.scene2d)
        source = "scene2d";
    else
        fail("E_NAV_NO_GEOMETRY", "Nothing to bake: give a source.", {{"path", "/source"}},
             "Use source \"polygons\" with shapes, or load a 3D or 2D scene.");
    if (params.contains("subdivisions") && source != "scene2d")
        fail("E_NAV_CONFIG", "'subdivisions' is for source \"scene2d\".", {{"path", "/subdivisions"}});

    SourceBaker baker = nullptr;
    for (const SourceEntry& entry : kSources)
        if (source == entry.name)
            baker = entry.bake;
    if (!baker)
        fail("E_NAV_CONFIG", "Unknown bake source '" + source + "'.", {{"path", "/source"}});
    BakedMesh baked = baker(ctx, params);

    // One mesh per radius: the first under `name`, the others `name@<radius>`
    // (docs/navmesh.md "Agent radii"). The bake has succeeded and every name
    // fits (name <= 128 bytes, a radius <= 16), so the puts cannot fail halfway.
    std::vector<std::shared_ptr<const nav::NavMesh>> meshes{baked.mesh};
    meshes.insert(meshes.end(), baked.others.begin(), baked.others.end());
    nav::NavWorld& world = ctx.state.world.nav();
    const bool replaced = world.findMesh(name).valid();
    json list = json::array();
    std::string firstHash;
    for (size_t i = 0; i < meshes.size(); ++i)
    {
        const float radius = meshes[i]->settings().agentRadius;
        nav::MeshDef def = nav::defaultMeshDef();
        def.name = i == 0 ? name : radiusMeshName(name, radius);
        def.source = source;
        def.mesh = meshes[i];
        if (baked.bake)
            def.bake = nav::bakeDefForRadius(*baked.bake, radius);
        const std::string meshName = def.name;
        auto put = world.putMesh(std::move(def));
        if (!put.ok())
            failWith(put.error());
        const std::string hash = hashHex(world.meshRecord(put.value())->baseHash);
        if (i == 0)
            firstHash = hash;
        list.push_back({{"name", meshName},
                        {"agent_radius", floatJson(radius)},
                        {"hash", hash},
                        {"polygons", meshes[i]->polygonCount()},
                        {"vertices", meshes[i]->vertexCount()}});
    }

    const nav::NavMesh& m = *baked.mesh;
    const bool is2d = m.is2d();
    json out = {{"name", name},
                {"source", source},
                {"replaced", replaced},
                {"hash", firstHash},
                {"polygons", m.polygonCount()},
                {"vertices", m.vertexCount()},
                {"bounds", {{"min", pointToJson(m.bounds().min, is2d)}, {"max", pointToJson(m.bounds().max, is2d)}}},
                {"stats", baked.stats}};
    if (params.contains("agent_radii"))
        out["meshes"] = std::move(list);
    return out;
}

/// nav.rebake: the tiles of a tiled space3d mesh that meet `bounds`, baked
/// again from the scene as it is now (libnav's `NavWorld::rebakeMeshTiles`).
json navRebake(Context& ctx, const json& params)
{
    if (!ctx.state.world.hasScene())
        fail("E_NAV_NO_GEOMETRY", "There is no 3D scene to bake.", {{"path", "/mesh"}},
             "Create one with space3d.new or load one with space3d.load.");
    const MeshRef ref = requireMesh(ctx, params);
    const std::string name = ref.name;
    const nav::MeshId id = ref.id;
    nav::Bounds3 bounds;
    bounds.min = pointFromJson(params.at("bounds").at("min"), false, "/bounds/min");
    bounds.max = pointFromJson(params.at("bounds").at("max"), false, "/bounds/max");
    const scene::SceneBakeDef def = sceneBakeDefFromParams(params);
    auto input = scene::sceneBakeInput(ctx.state.world.document(), def, scene::makeObjModelLoader(ctx.projectRoot));
    if (!input.ok())
        failWith(input.error());
    nav::NavWorld& world = ctx.state.world.nav();
    auto rebaked = world.rebakeMeshTiles(id, input.value().input, bounds);
    if (!rebaked.ok())
        failWith(rebaked.error());
    const nav::NavTileBox& t = rebaked.value().tiles;
    const nav::WorldMesh& record = *world.meshRecord(id);
    json tiles = t.x0 <= t.x1 && t.z0 <= t.z1 ? json{{"x", {t.x0, t.x1}}, {"z", {t.z0, t.z1}}} : json(nullptr);
    return {{"mesh", name},
            {"hash", hashHex(record.baseHash)},
            {"polygons", record.baked->polygonCount()},
            {"tiles", record.baked->tiles().size()},
            {"rebaked", {{"range", std::move(tiles)}, {"tiles", rebaked.value().stats.tiles}}}};
}

const Registrar kNavBake{
    {"nav.bake", navBake, Mutates::Yes, nullptr, {.destructive = true, .idempotent = true}}};
const Registrar kNavRebake{
    {"nav.rebake", navRebake, Mutates::Yes, nullptr, {.destructive = true, .idempotent = true}}};

} // namespace
} // namespace nav_bake_commands
} // namespace spark::cli
