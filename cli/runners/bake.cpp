// `spark bake`: offline baking into a navmesh document (see runners/bake.h).
// The .obj path bakes here with nav::bakeTriangles and puts the mesh in a
// session; scene files go through their load commands and nav.bake. Either
// way the document is written by nav.export, the one serialiser of the format.

#include "runners/bake.h"

#include "commands/nav/nav_json.h"
#include "surface/dispatcher.h"
#include "surface/output.h"

#include "spark/core/hash.h"
#include "spark/nav/bake.h"
#include "spark/nav/navmesh.h"
#include "spark/scene/model_obj.h"
#include "spark/scene/session_state.h"

#include <chrono>
#include <climits>
#include <cstdio>
#include <iostream>
#include <string_view>
#include <unistd.h>

namespace spark::cli
{
namespace
{

bool endsWith(std::string_view s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// Progress on stderr, only for a person watching a terminal.
void progress(const std::string& line)
{
    static const bool tty = isatty(STDERR_FILENO) != 0;
    if (tty)
        std::cerr << "spark bake: " << line << "\n";
}

int printError(const json& envelope)
{
    std::cerr << renderHumanError(envelope);
    return 1;
}

} // namespace

nav::BakeDef bakeDefFromOptions(const BakeCliOptions& o)
{
    nav::BakeDef d = o.def;
    if (!o.tiles.empty())
        (void)parseTileRange(o.tiles, d.tileRange.x0, d.tileRange.x1, d.tileRange.z0, d.tileRange.z1);
    return d;
}

std::vector<std::string> radiusMeshNames(const BakeCliOptions& o)
{
    std::vector<std::string> names{o.meshName};
    for (size_t i = 1; i < o.def.agentRadii.size(); ++i)
        names.push_back(navjson::radiusMeshName(o.meshName, o.def.agentRadii[i]));
    return names;
}

std::string radiusOutputPath(const std::string& output, float radius)
{
    // "@<radius>" goes before the first dot of the file name: out/level.navmesh.json → out/level@0.6.navmesh.json.
    const size_t slash = output.find_last_of('/');
    const size_t nameStart = slash == std::string::npos ? 0 : slash + 1;
    const size_t dot = output.find('.', nameStart == output.size() ? nameStart : nameStart + 1);
    const std::string tag = navjson::radiusMeshName("", radius);
    return dot == std::string::npos ? output + tag : output.substr(0, dot) + tag + output.substr(dot);
}

namespace
{

json errorOf(const Error& e)
{
    json data = json::object();
    if (!e.field.empty())
        data["path"] = e.field;
    return errorEnvelope(e.code, e.message, data, e.hint);
}

/// Bakes an OBJ into `state` under `name`. Returns an error envelope, or null.
json bakeObj(const BakeCliOptions& o, scene::SessionState& state, json& outStats)
{
    progress("reading " + o.input);
    auto model = scene::loadObj(o.input);
    if (!model.ok())
        return errorOf(model.error());

    nav::BakeInput input;
    input.vertices = std::move(model.value().vertices);
    input.indices = std::move(model.value().indices);
    input.oneSided = true;
    input.solids = nav::connectedTriangleRuns(input); // closed pieces are filled, as nav.bake's colliders
    progress("baking " + std::to_string(input.indices.size() / 3) + " triangles");
    const auto start = std::chrono::steady_clock::now();
    auto baked = nav::bakeNavMeshes(input, bakeDefFromOptions(o));
    if (!baked.ok())
        return errorOf(baked.error());
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();

    // One mesh per radius, named as nav.bake names them.
    const std::vector<std::string> names = radiusMeshNames(o);
    for (size_t i = 0; i < names.size(); ++i)
    {
        nav::MeshDef def = nav::defaultMeshDef();
        def.name = names[i];
        def.source = "obj";
        def.mesh = std::make_shared<const nav::NavMesh>(std::move(baked.value()[i].mesh));
        auto put = state.world.nav().putMesh(std::move(def));
        if (!put.ok())
            return errorOf(put.error());
    }

    const nav::BakeStats& s = baked.value().front().stats;
    outStats = {{"cells", s.cells},
                {"spans", s.spans},
                {"regions", s.regions},
                {"fallback_regions", s.fallbackRegions},
                {"bake_ms", ms}};
    if (s.tiles != 0)
        outStats["tiles"] = s.tiles;
    return nullptr;
}

/// Loads a scene file with its load command and bakes it with nav.bake.
json bakeScene(const BakeCliOptions& o, Dispatcher& dispatcher, scene::SessionState& state, bool is3d,
               json& outStats)
{
    progress("loading " + o.input);
    json loaded = dispatcher.call(state, is3d ? "space3d.load" : "scene2d.load", {{"path", o.input}});
    if (!loaded["ok"].get<bool>())
        return loaded;

    json params = {{"name", o.meshName},
                   {"source", is3d ? "space3d" : "scene2d"},
                   {"agent_height", o.def.agentHeight},
                   {"step_height", o.def.stepHeight}};
    if (o.def.agentRadii.empty())
        params["agent_radius"] = o.def.agentRadius;
    else
        params["agent_radii"] = o.def.agentRadii;
    if (is3d)
    {
        params["cell_size"] = o.def.cellSize;
        params["cell_height"] = o.def.cellHeight;
        params["max_slope_deg"] = o.def.maxSlopeDeg;
        params["max_simplification_error"] = o.def.maxSimplificationError;
        params["max_edge_len"] = o.def.maxEdgeLen;
        params["min_region_area"] = o.def.minRegionArea;
        params["merge_region_area"] = o.def.mergeRegionArea;
        params["tile_size"] = o.def.tileSize;
        params["threads"] = o.def.threads;
        int32_t x0, x1, z0, z1;
        if (!o.tiles.empty() && parseTileRange(o.tiles, x0, x1, z0, z1))
            params["tiles"] = {{"x", {x0, x1}}, {"z", {z0, z1}}};
    }
    progress("baking");
    const auto start = std::chrono::steady_clock::now();
    json baked = dispatcher.call(state, "nav.bake", params);
    if (!baked["ok"].get<bool>())
        return baked;
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    outStats = baked["result"].value("stats", json::object());
    outStats["bake_ms"] = ms;
    return nullptr;
}

} // namespace

bool parseTileRange(const std::string& text, int32_t& x0, int32_t& x1, int32_t& z0, int32_t& z1)
{
    long long v[4];
    char sep[3];
    int used = 0;
    if (std::sscanf(text.c_str(), "%lld%c%lld%c%lld%c%lld%n", &v[0], &sep[0], &v[1], &sep[1], &v[2], &sep[2], &v[3],
                    &used) != 7 ||
        used != static_cast<int>(text.size()) || sep[0] != ':' || sep[1] != ',' || sep[2] != ':')
        return false;
    for (long long x : v)
        if (x < INT32_MIN || x > INT32_MAX)
            return false;
    x0 = static_cast<int32_t>(v[0]), x1 = static_cast<int32_t>(v[1]);
    z0 = static_cast<int32_t>(v[2]), z1 = static_cast<int32_t>(v[3]);
    return true;
}

int runBakeMerge(const BakeMergeOptions& o)
{
    if (o.inputs.empty() || o.output.empty())
    {
        std::cerr << "spark bake merge: give the tile documents and the output file with -o OUT\n";
        return 2;
    }
    DispatchOptions options;
    options.projectRoot = o.projectRoot;
    Dispatcher dispatcher(options);
    scene::SessionState state;
    std::vector<std::shared_ptr<const nav::NavMesh>> parts;
    for (size_t i = 0; i < o.inputs.size(); ++i)
    {
        progress("reading " + o.inputs[i]);
        const std::string name = "part" + std::to_string(i);
        json imported = dispatcher.call(state, "nav.import", {{"name", name}, {"path", o.inputs[i]}});
        if (!imported["ok"].get<bool>())
            return printError(imported);
        parts.push_back(state.world.nav().meshRecord(state.world.nav().findMesh(name))->baked);
    }
    return mergeAndWrite(dispatcher, parts, o.output, "");
}

int mergeAndWrite(Dispatcher& dispatcher, const std::vector<std::shared_ptr<const nav::NavMesh>>& parts,
                  const std::string& output, const std::string& note)
{
    std::vector<const nav::NavMesh*> pointers;
    for (const auto& p : parts)
        pointers.push_back(p.get());
    auto merged = nav::mergeTiledNavMeshes(pointers);
    if (!merged.ok())
        return printError(errorOf(merged.error()));
    scene::SessionState state;
    nav::MeshDef def = nav::defaultMeshDef();
    def.name = "merged";
    def.source = "merge";
    def.mesh = std::make_shared<const nav::NavMesh>(std::move(merged.value()));
    auto put = state.world.nav().putMesh(std::move(def));
    if (!put.ok())
        return printError(errorOf(put.error()));
    json exported = dispatcher.call(state, "nav.export", {{"mesh", "merged"}, {"path", output}});
    if (!exported["ok"].get<bool>())
        return printError(exported);
    const json& r = exported["result"];
    std::cout << output << ": " << r.value("polygons", 0) << " polygons, " << r.value("vertices", 0)
              << " vertices, hash " << r.value("hash", std::string()) << note << "\n";
    return 0;
}

int runBake(const BakeCliOptions& o)
{
    const bool isObj = endsWith(o.input, ".obj") || endsWith(o.input, ".OBJ");
    const bool is3d = endsWith(o.input, ".space3d.json");
    const bool is2d = endsWith(o.input, ".scene2d.json");
    if (!isObj && !is3d && !is2d)
    {
        std::cerr << "spark bake: INPUT must be an .obj, .space3d.json or .scene2d.json file\n";
        return 2;
    }
    if (o.output.empty())
    {
        std::cerr << "spark bake: give the output file with -o OUT\n";
        return 2;
    }
    int32_t range[4];
    if (!o.tiles.empty() && !parseTileRange(o.tiles, range[0], range[1], range[2], range[3]))
    {
        std::cerr << "spark bake: --tiles takes X0:X1,Z0:Z1 (tile numbers, both ends included)\n";
        return 2;
    }

    DispatchOptions options;
    options.projectRoot = o.projectRoot;
    Dispatcher dispatcher(options);
    scene::SessionState state;
    json stats = json::object();
    json failure = isObj ? bakeObj(o, state, stats) : bakeScene(o, dispatcher, state, is3d, stats);
    if (!failure.is_null())
        return printError(failure);

    // One document per radius: OUT for the first, OUT with "@<radius>" for the others.
    const std::vector<std::string> names = radiusMeshNames(o);
    for (size_t i = 0; i < names.size(); ++i)
    {
        const std::string path = i == 0 ? o.output : radiusOutputPath(o.output, o.def.agentRadii[i]);
        progress("writing " + path);
        json exported = dispatcher.call(state, "nav.export", {{"mesh", names[i]}, {"path", path}});
        if (!exported["ok"].get<bool>())
            return printError(exported);
        const json& r = exported["result"];
        std::cout << path << ": " << r.value("polygons", 0) << " polygons, " << r.value("vertices", 0)
                  << " vertices, hash " << r.value("hash", std::string()) << "\n";
    }
    if (o.verbose)
        std::cout << stats.dump() << "\n";
    return 0;
}

} // namespace spark::cli
