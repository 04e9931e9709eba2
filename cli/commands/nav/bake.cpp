// nav.bake: bakes a navigation mesh under a name from one of the sources
// (SPEC §2.1, §2.2): "scene2d" and "polygons" here, "space3d" in
// commands/space3d/nav_bake_space3d.cpp. Each source is one function that turns the params (and the
// session) into a polygon soup plus its settings and counters; the table
// `kSources` maps the `source` param to it, so a new source is one more entry.
// The common tail builds the NavMesh, stores it (a re-bake under an existing
// name replaces the mesh and keeps the rest of the entry) and answers.

#include "commands/nav/nav_json.h"
#include "commands/space3d/nav_bake_space3d.h"

#include "spark/nav/bake2d.h"
#include "spark/scene/scene2d.h"

#include <string>

namespace spark::cli
{
namespace
{

using namespace navjson;

/// What a source hands to the common tail.
struct BakedSoup
{
    nav::PolySoup soup;
    nav::NavMeshSettings settings;
    bool is2d = false;
    json stats = json::object(); ///< Source-specific counters (never timings).
};

using SourceBaker = BakedSoup (*)(Context& ctx, const json& params);

nav::NavMeshSettings settingsFromParams(const json& params)
{
    nav::NavMeshSettings s = nav::defaultNavMeshSettings();
    s.agentRadius = params.value("agent_radius", s.agentRadius);
    s.agentHeight = params.value("agent_height", s.agentHeight);
    s.stepHeight = params.value("step_height", s.stepHeight);
    return s;
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
                                       "max_edge_len", "include_sensors", "include_kinds"};

/// The common 2D tail: erode + rectangles.
BakedSoup bakeGrid(const nav::Grid2D& grid, const json& params)
{
    for (const char* key : k3DOnlyKeys)
        if (params.contains(key))
            fail("E_NAV_CONFIG", std::string("'") + key + "' is a setting of the 3D bake (source \"space3d\").",
                 {{"path", std::string("/") + key}});
    BakedSoup out;
    out.settings = settingsFromParams(params);
    out.settings.cellSize = grid.cellSize;
    out.is2d = true;
    auto baked = nav::bakeGrid2DWithStats(grid, out.settings.agentRadius);
    if (!baked.ok())
        failWith(baked.error());
    out.soup = std::move(baked.value().mesh);
    out.stats = gridStats(baked.value().stats, grid);
    return out;
}

/// source "polygons": shapes given in the params.
BakedSoup bakePolygons(Context&, const json& params)
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
BakedSoup bakeScene2D(Context& ctx, const json& params)
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
    BakedSoup out = bakeGrid(grid.value(), params);
    out.stats["subdivisions"] = params.value("subdivisions", 4);
    return out;
}

/// source "space3d": the static colliders of the session's 3D scene.
BakedSoup bakeSpace3D(Context& ctx, const json& params)
{
    Space3DBake baked = bakeFromScene(ctx, params);
    BakedSoup out;
    out.soup = std::move(baked.soup);
    out.settings = baked.settings;
    out.is2d = false;
    out.stats = std::move(baked.stats);
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
    else if (ctx.state.scene3d)
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
    BakedSoup baked = baker(ctx, params);

    nav::NavMeshDef def = nav::defaultNavMeshDef();
    def.settings = baked.settings;
    def.is2d = baked.is2d;
    def.maxPolyVerts = nav::kMaxBakedPolyVerts;
    auto mesh = nav::buildNavMesh(baked.soup, def);
    if (!mesh.ok())
        failWith(mesh.error());

    const uint64_t hash = nav::hashNavMesh(mesh.value());
    auto found = ctx.state.nav.meshes.find(name);
    const bool replaced = found != ctx.state.nav.meshes.end();
    scene::MeshEntry& entry = replaced ? found->second : ctx.state.nav.meshes[name];
    entry.mesh = std::move(mesh.value());
    entry.is2d = baked.is2d;
    entry.baseHash = hash;
    entry.bakeSettings = baked.settings;
    entry.source = source;

    const nav::NavMesh& m = entry.mesh;
    return {{"name", name},
            {"source", source},
            {"replaced", replaced},
            {"hash", hashHex(hash)},
            {"polygons", m.polygonCount()},
            {"vertices", m.vertexCount()},
            {"bounds", {{"min", pointToJson(m.bounds().min, entry.is2d)}, {"max", pointToJson(m.bounds().max, entry.is2d)}}},
            {"stats", baked.stats}};
}

const Registrar kNavBake{{"nav.bake", navBake, Mutates::Yes}};

} // namespace
} // namespace spark::cli
