// nav.info, nav.list, nav.remove, nav.hash, nav.export, nav.import: managing the
// named meshes of the session and their versioned JSON document (docs/navmesh.md).

#include "commands/nav/nav_json.h"
#include "surface/dispatcher.h"

#include "spark/core/path.h"

#include <array>
#include <vector>

namespace spark::cli
{
/// This file's own namespace: the unity build puts several command files in one
/// translation unit, where their unnamed namespaces would be one.
namespace nav_mesh_commands
{
namespace
{

using namespace navjson;

/// Largest navmesh document nav.import reads from a file.
constexpr size_t kMaxDocumentBytes = 256u * 1024u * 1024u;

json settingsJson(const nav::NavMesh& mesh)
{
    const nav::NavMeshSettings& s = mesh.settings();
    return {{"agent_radius", floatJson(s.agentRadius)},
            {"agent_height", floatJson(s.agentHeight)},
            {"step_height", floatJson(s.stepHeight)},
            {"cell_size", floatJson(s.cellSize)},
            {"cell_height", floatJson(s.cellHeight)},
            {"max_slope_deg", floatJson(s.maxSlopeDeg)},
            {"link_tolerance", floatJson(mesh.linkTolerance())},
            {"max_poly_verts", mesh.maxPolyVerts()}};
}

size_t agentCount(Context& ctx, nav::MeshId mesh)
{
    const nav::NavWorld& world = ctx.state.world.nav();
    size_t n = 0;
    for (nav::AgentId id : world.agentsInOrder())
        n += world.agent(id)->mesh == mesh ? 1 : 0;
    return n;
}

std::string crowdHash(Context& ctx, nav::MeshId mesh)
{
    Hasher h;
    ctx.state.world.nav().hashCrowd(h, mesh);
    return hashHex(h.digest());
}

json navInfo(Context& ctx, const json& params)
{
    const MeshRef entry = requireMesh(ctx, params);
    const std::string& name = entry.name;
    const nav::NavMesh& mesh = entry.mesh;
    return {{"mesh", name},
            {"is2d", entry.is2d},
            {"source", entry.record.source},
            {"polygons", mesh.activePolygonCount()},
            {"vertices", mesh.vertexCount()},
            {"links", mesh.linkCount()},
            {"walls", mesh.wallCount()},
            {"area", floatJson(static_cast<float>(mesh.totalArea()))},
            {"bounds",
             {{"min", pointToJson(mesh.bounds().min, entry.is2d)}, {"max", pointToJson(mesh.bounds().max, entry.is2d)}}},
            {"settings", settingsJson(mesh)},
            {"hash", hashHex(nav::hashNavMesh(mesh))},
            {"base_hash", hashHex(entry.record.baseHash)},
            {"agents", agentCount(ctx, entry.id)},
            {"crowd_hash", crowdHash(ctx, entry.id)}};
}

json navList(Context& ctx, const json&)
{
    json meshes = json::array();
    const nav::NavWorld& world = ctx.state.world.nav();
    for (nav::MeshId id : world.meshesInNameOrder())
    {
        const nav::WorldMesh& record = *world.meshRecord(id);
        const nav::NavMesh& mesh = *world.mesh(id);
        meshes.push_back({{"name", record.name},
                          {"is2d", mesh.is2d()},
                          {"source", record.source},
                          {"polygons", mesh.activePolygonCount()},
                          {"hash", hashHex(nav::hashNavMesh(mesh))}});
    }
    return {{"meshes", std::move(meshes)}};
}

json navRemove(Context& ctx, const json& params)
{
    const MeshRef entry = requireMesh(ctx, params);
    const std::string name = entry.name;
    nav::NavWorld& world = ctx.state.world.nav();
    const Status st = world.removeMesh(entry.id);
    if (!st.ok())
        failWith(st.error());
    return {{"removed", name}, {"meshes", world.meshCount()}};
}

json navHash(Context& ctx, const json& params)
{
    const MeshRef entry = requireMesh(ctx, params);
    const std::string& name = entry.name;
    return {{"mesh", name},
            {"hash", hashHex(nav::hashNavMesh(entry.mesh))},
            {"base_hash", hashHex(entry.record.baseHash)},
            {"agents", agentCount(ctx, entry.id)},
            {"crowd_hash", crowdHash(ctx, entry.id)}};
}

json navExport(Context& ctx, const json& params)
{
    const MeshRef entry = requireMesh(ctx, params);
    const std::string& name = entry.name;
    json doc = meshToDocument(entry.mesh);
    json out = {{"mesh", name},
                {"hash", doc["hash"]},
                {"polygons", entry.mesh.polygonCount()},
                {"vertices", entry.mesh.vertexCount()}};
    if (params.contains("path"))
    {
        const std::string rel = params.at("path").get<std::string>();
        const auto path = ctx.resolvePath(rel, "/path");
        const std::string text = doc.dump(1) + "\n";
        Status st = writeTextFile(path, text);
        if (!st.ok())
            fail(st.error().code, st.error().message, {{"path", "/path"}, {"file", rel}}, st.error().hint);
        out["path"] = rel;
        out["bytes"] = text.size();
    }
    else
    {
        out["document"] = std::move(doc);
    }
    return out;
}

/// The navmesh document named by `params["path"]` (read straight from its
/// text with simdjson, never as a JSON tree), or `params["document"]`; fails
/// with the file's or the document's error.
nav::NavMesh meshFromParams(Context& ctx, const json& params)
{
    const bool hasPath = params.contains("path");
    const bool hasDoc = params.contains("document");
    if (hasPath == hasDoc)
        fail("E_INVALID_PARAMS", "give exactly one of 'path' and 'document'", {{"path", hasPath ? "/document" : "/path"}});
    if (!hasPath)
    {
        Result<nav::NavMesh> mesh = meshFromDocument(params.at("document"));
        if (!mesh.ok())
            failWith(mesh.error(), "/document");
        return std::move(mesh).value();
    }
    const std::string rel = params.at("path").get<std::string>();
    const auto path = ctx.resolvePath(rel, "/path");
    FileReadDef def = defaultFileReadDef();
    def.maxBytes = kMaxDocumentBytes;
    def.limitCode = "E_NAV_LIMIT";
    auto text = readTextFile(path, def);
    if (!text.ok())
        fail(text.error().code, text.error().message, {{"path", "/path"}, {"file", rel}});
    Result<nav::NavMesh> mesh = meshFromDocumentText(std::move(*text));
    if (!mesh.ok() && mesh.error().code == "E_FORMAT")
        fail("E_FORMAT", "the file is not valid JSON: " + mesh.error().message, {{"path", "/path"}, {"file", rel}});
    if (!mesh.ok())
        fail(mesh.error().code, mesh.error().message, {{"path", "/path"}, {"file", rel}, {"field", mesh.error().field}},
             mesh.error().hint);
    return std::move(mesh).value();
}

json navImport(Context& ctx, const json& params)
{
    const std::string name = params.at("name").get<std::string>();
    Result<nav::NavMesh> mesh = meshFromParams(ctx, params);
    const uint32_t polygons = mesh->polygonCount();
    const bool is2d = mesh->is2d();
    nav::MeshDef def = nav::defaultMeshDef();
    def.name = name;
    def.source = "import";
    def.mesh = std::make_shared<const nav::NavMesh>(std::move(mesh).value());
    auto put = ctx.state.world.nav().putMesh(std::move(def));
    if (!put.ok())
        failWith(put.error());
    const std::string hash = hashHex(ctx.state.world.nav().meshRecord(put.value())->baseHash);
    return {{"mesh", name}, {"hash", hash}, {"polygons", polygons}, {"is2d", is2d}};
}

/// The answer of the tile commands: the mesh, its hash and tiles, the tiles unloaded.
json tileAnswer(Context& ctx, const std::string& name, nav::MeshId id)
{
    const nav::WorldMesh& record = *ctx.state.world.nav().meshRecord(id);
    json unloaded = json::array();
    for (const auto& t : record.unloadedTiles)
        unloaded.push_back({t[0], t[1]});
    return {{"mesh", name},
            {"hash", hashHex(record.baseHash)},
            {"polygons", record.baked->polygonCount()},
            {"tiles", record.baked->tiles().size()},
            {"unloaded", std::move(unloaded)}};
}

json navTileUnload(Context& ctx, const json& params)
{
    const MeshRef entry = requireMesh(ctx, params);
    const std::string name = entry.name;
    const nav::MeshId id = entry.id;
    std::vector<std::array<int32_t, 2>> tiles;
    for (const json& t : params.at("tiles"))
        tiles.push_back({t[0].get<int32_t>(), t[1].get<int32_t>()});
    Status st = ctx.state.world.nav().unloadTiles(id, tiles);
    if (!st.ok())
        failWith(st.error());
    return tileAnswer(ctx, name, id);
}

json navTileLoad(Context& ctx, const json& params)
{
    const MeshRef entry = requireMesh(ctx, params);
    const std::string name = entry.name;
    const nav::MeshId id = entry.id;
    const nav::NavMesh tiles = meshFromParams(ctx, params);
    Status st = ctx.state.world.nav().loadTiles(id, tiles);
    if (!st.ok())
        failWith(st.error());
    return tileAnswer(ctx, name, id);
}

const Registrar kNavTileUnload{{"nav.tile.unload", navTileUnload, Mutates::Yes, nullptr, {.destructive = true}}};
const Registrar kNavTileLoad{{"nav.tile.load", navTileLoad, Mutates::Yes, nullptr, {.destructive = true}}};
const Registrar kNavInfo{{"nav.info", navInfo, Mutates::No}};
const Registrar kNavList{{"nav.list", navList, Mutates::No}};
const Registrar kNavRemove{
    {"nav.remove", navRemove, Mutates::Yes, nullptr, {.destructive = true, .idempotent = true}}};
const Registrar kNavHash{{"nav.hash", navHash, Mutates::No}};
const Registrar kNavExport{
    {"nav.export", navExport, Mutates::No, nullptr, {.idempotent = true, .writesFiles = true}}};
const Registrar kNavImport{
    {"nav.import", navImport, Mutates::Yes, nullptr, {.destructive = true, .idempotent = true}}};

} // namespace
} // namespace nav_mesh_commands
} // namespace spark::cli
