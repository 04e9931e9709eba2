// JSON ⇄ navigation structs for the nav.* commands (see nav_json.h).

#include "commands/nav/nav_json.h"

#include "spark/core/hash.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace spark::cli::navjson
{

namespace
{

constexpr const char* kFormat = "spark.navmesh";
constexpr int kVersion = 1;

json meshList(const nav::NavWorld& world)
{
    json names = json::array();
    for (nav::MeshId id : world.meshesInNameOrder())
        names.push_back(world.meshRecord(id)->name);
    return names;
}

Error formatError(const std::string& field, const std::string& message)
{
    return makeError("E_NAV_FORMAT", message, field);
}

/// A JSON number that fits a float (finite, within ±1e6 for coordinates when `coord`).
bool readFloat(const json& j, float& out)
{
    if (!j.is_number())
        return false;
    const double d = j.get<double>();
    if (!std::isfinite(d) || std::fabs(d) > 3.0e38)
        return false;
    out = static_cast<float>(d);
    return std::isfinite(out);
}

} // namespace

json floatJson(float v)
{
    if (v == 0.0f)
        return 0.0;
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof(buf), v);
    *res.ptr = '\0';
    return std::strtod(buf, nullptr);
}

json pointToJson(const glm::vec3& p, bool is2d)
{
    if (is2d)
        return json::array({floatJson(p.x), floatJson(p.z)});
    return json::array({floatJson(p.x), floatJson(p.y), floatJson(p.z)});
}

glm::vec3 pointFromJson(const json& j, bool is2d, std::string_view field)
{
    const size_t want = is2d ? 2 : 3;
    if (!j.is_array() || j.size() != want)
        fail("E_INVALID_PARAMS",
             is2d ? "this is a 2D mesh: give the point as [x, y]" : "this is a 3D mesh: give the point as [x, y, z]",
             {{"path", std::string(field)}});
    float c[3] = {0.0f, 0.0f, 0.0f};
    for (size_t i = 0; i < want; ++i)
        if (!readFloat(j[i], c[i]))
            fail("E_INVALID_PARAMS", "point coordinates must be finite numbers",
                 {{"path", std::string(field) + "/" + std::to_string(i)}});
    return is2d ? glm::vec3(c[0], 0.0f, c[1]) : glm::vec3(c[0], c[1], c[2]);
}

glm::vec3 extentsFromJson(const json& j, bool is2d, std::string_view field)
{
    glm::vec3 e = pointFromJson(j, is2d, field);
    if (is2d)
        e.y = 1.0f;
    if (e.x < 0.0f || e.y < 0.0f || e.z < 0.0f)
        fail("E_INVALID_PARAMS", "extents must be >= 0", {{"path", std::string(field)}});
    return e;
}

MeshRef requireMesh(Context& ctx, const json& params)
{
    const nav::NavWorld& world = ctx.state.nav();
    nav::MeshId id;
    if (params.contains("mesh"))
    {
        const std::string name = params.at("mesh").get<std::string>();
        id = world.findMesh(name);
        if (!id.valid())
            fail("E_NAV_NO_MESH", "There is no navigation mesh named '" + name + "'.",
                 {{"path", "/mesh"}, {"meshes", meshList(world)}}, "nav.list shows the meshes of the session.");
    }
    else
    {
        if (world.meshCount() == 0)
            fail("E_NAV_NO_MESH", "There is no navigation mesh in this session.", {{"meshes", json::array()}},
                 "Bake one with nav.bake or load one with nav.import.");
        if (world.meshCount() > 1)
            fail("E_NAV_NO_MESH", "There are several navigation meshes: say which one with 'mesh'.",
                 {{"path", "/mesh"}, {"meshes", meshList(world)}});
        id = world.meshesInNameOrder().front();
    }
    const nav::WorldMesh& record = *world.meshRecord(id);
    const nav::NavMesh& mesh = *world.mesh(id);
    return MeshRef{record.name, id, record, mesh, mesh.is2d()};
}

nav::QueryFilter filterFromJson(const json& params)
{
    nav::QueryFilter f = nav::defaultQueryFilter();
    if (params.contains("area_costs"))
    {
        const json& costs = params.at("area_costs");
        if (!costs.is_object())
            fail("E_INVALID_PARAMS", "area_costs is an object {\"<area id>\": cost}", {{"path", "/area_costs"}});
        for (const auto& [key, value] : costs.items())
        {
            const std::string field = "/area_costs/" + key;
            int area = -1;
            const auto res = std::from_chars(key.data(), key.data() + key.size(), area);
            if (res.ec != std::errc() || res.ptr != key.data() + key.size() || area < 0 ||
                area > static_cast<int>(nav::kMaxAreaId))
                fail("E_INVALID_PARAMS", "area ids are 0..15", {{"path", field}});
            float c = 0.0f;
            if (!readFloat(value, c) || !(c > 0.0f) || c > 1.0e6f)
                fail("E_INVALID_PARAMS", "an area cost is a number > 0 and <= 1e6", {{"path", field}});
            f.areaCosts[area] = c;
        }
    }
    if (params.contains("excluded_areas"))
    {
        const json& ex = params.at("excluded_areas");
        if (!ex.is_array())
            fail("E_INVALID_PARAMS", "excluded_areas is an array of area ids", {{"path", "/excluded_areas"}});
        for (size_t i = 0; i < ex.size(); ++i)
        {
            if (!ex[i].is_number_integer() || ex[i].get<int64_t>() < 0 || ex[i].get<int64_t>() > nav::kMaxAreaId)
                fail("E_INVALID_PARAMS", "area ids are 0..15", {{"path", "/excluded_areas/" + std::to_string(i)}});
            f.excludedAreas = static_cast<uint16_t>(f.excludedAreas | (1u << ex[i].get<int>()));
        }
    }
    return f;
}

std::string hashHex(uint64_t hash)
{
    return spark::hashToHex(hash);
}

json meshToDocument(const nav::NavMesh& carved)
{
    // A carved mesh is written as its walkable polygons (renumbered).
    const nav::NavMesh walkable = carved.disabledCount() != 0 ? nav::walkableMesh(carved) : nav::NavMesh{};
    const nav::NavMesh& mesh = carved.disabledCount() != 0 ? walkable : carved;
    const nav::NavMeshSettings& s = mesh.settings();
    json vertices = json::array();
    for (const glm::vec3& v : mesh.vertices())
        vertices.push_back(pointToJson(v, mesh.is2d()));
    json polygons = json::array();
    json areas = json::array();
    for (uint32_t p = 0; p < mesh.polygonCount(); ++p)
    {
        const auto idx = mesh.polygonIndices(p);
        polygons.push_back(json(std::vector<uint32_t>(idx.begin(), idx.end())));
        areas.push_back(mesh.area(p));
    }
    json doc = {{"format", kFormat},
            {"version", kVersion},
            {"dimensions", mesh.is2d() ? 2 : 3},
            {"settings",
             {{"agent_radius", floatJson(s.agentRadius)},
              {"agent_height", floatJson(s.agentHeight)},
              {"step_height", floatJson(s.stepHeight)},
              {"cell_size", floatJson(s.cellSize)},
              {"cell_height", floatJson(s.cellHeight)},
              {"max_slope_deg", floatJson(s.maxSlopeDeg)},
              {"link_tolerance", floatJson(mesh.linkTolerance())},
              {"max_poly_verts", mesh.maxPolyVerts()}}},
            {"vertices", std::move(vertices)},
            {"polygons", std::move(polygons)},
            {"areas", std::move(areas)},
            {"hash", hashHex(nav::hashNavMesh(mesh))}};
    if (mesh.tiled())
    {
        // SPEC §2.6: [x, z, first polygon, polygons, first vertex, vertices] per tile, in tile order.
        json tiles = json::array();
        for (const nav::NavTile& t : mesh.tiles())
            tiles.push_back({t.x, t.z, t.firstPolygon, t.polygonCount, t.firstVertex, t.vertexCount});
        doc["tiles"] = {{"tile_size", mesh.tileSize()}, {"list", std::move(tiles)}};
    }
    return doc;
}

namespace
{

/// The optional "tiles" of a document: tile size and table, validated for
/// shape here and for content by nav::buildTiledNavMesh.
Status readTiles(const json& doc, uint32_t& outTileSize, std::vector<nav::NavTile>& outTiles)
{
    const json& tiles = doc["tiles"];
    if (!tiles.is_object() || tiles.size() != 2 || !tiles.contains("tile_size") || !tiles.contains("list"))
        return formatError("/tiles", "tiles is {\"tile_size\": cells, \"list\": [[x, z, first_polygon, polygons, "
                                     "first_vertex, vertices], ...]}");
    const json& size = tiles["tile_size"];
    if (!size.is_number_integer() || size.get<int64_t>() < 1 || size.get<int64_t>() > 65536)
        return formatError("/tiles/tile_size", "tile_size is an integer 1..65536");
    outTileSize = size.get<uint32_t>();
    const json& list = tiles["list"];
    if (!list.is_array() || list.empty())
        return formatError("/tiles/list", "list is a non-empty array of tiles");
    if (list.size() > nav::kMaxTiles)
        return makeError("E_NAV_LIMIT", "too many tiles", "/tiles/list");
    for (size_t i = 0; i < list.size(); ++i)
    {
        const std::string field = "/tiles/list/" + std::to_string(i);
        const json& t = list[i];
        if (!t.is_array() || t.size() != 6)
            return formatError(field, "a tile is [x, z, first_polygon, polygons, first_vertex, vertices]");
        int64_t v[6];
        for (size_t k = 0; k < 6; ++k)
        {
            const int64_t lo = k < 2 ? INT32_MIN : 0, hi = k < 2 ? INT32_MAX : UINT32_MAX;
            if (!t[k].is_number_integer() || t[k].get<int64_t>() < lo || t[k].get<int64_t>() > hi)
                return formatError(field + "/" + std::to_string(k), "tile entries are 32-bit integers");
            v[k] = t[k].get<int64_t>();
        }
        nav::NavTile tile;
        tile.x = static_cast<int32_t>(v[0]);
        tile.z = static_cast<int32_t>(v[1]);
        tile.firstPolygon = static_cast<uint32_t>(v[2]);
        tile.polygonCount = static_cast<uint32_t>(v[3]);
        tile.firstVertex = static_cast<uint32_t>(v[4]);
        tile.vertexCount = static_cast<uint32_t>(v[5]);
        outTiles.push_back(tile);
    }
    return Status::success();
}

} // namespace

Result<nav::NavMesh> meshFromDocument(const json& doc)
{
    if (!doc.is_object())
        return formatError("", "a navmesh document is a JSON object");
    static const char* const kKeys[] = {"format", "version", "dimensions", "settings", "vertices",
                                        "polygons", "areas", "hash", "tiles"};
    for (const auto& [key, value] : doc.items())
    {
        bool known = false;
        for (const char* k : kKeys)
            known = known || key == k;
        if (!known)
            return formatError("/" + key, "unknown field '" + key + "' in a navmesh document");
    }
    for (const char* k : kKeys)
        if (std::string(k) != "hash" && std::string(k) != "tiles" && !doc.contains(k))
            return formatError("/" + std::string(k), std::string("missing field '") + k + "'");
    if (!doc["format"].is_string() || doc["format"].get<std::string>() != kFormat)
        return formatError("/format", "format must be \"spark.navmesh\"");
    if (!doc["version"].is_number_integer() || doc["version"].get<int64_t>() != kVersion)
        return formatError("/version", "unsupported version (this build reads version 1)");
    if (!doc["dimensions"].is_number_integer() ||
        (doc["dimensions"].get<int64_t>() != 2 && doc["dimensions"].get<int64_t>() != 3))
        return formatError("/dimensions", "dimensions must be 2 or 3");
    const bool is2d = doc["dimensions"].get<int64_t>() == 2;

    nav::NavMeshDef def = nav::defaultNavMeshDef();
    def.is2d = is2d;
    const json& settings = doc["settings"];
    if (!settings.is_object())
        return formatError("/settings", "settings must be an object");
    struct FloatField
    {
        const char* name;
        float* target;
    };
    const FloatField floats[] = {{"agent_radius", &def.settings.agentRadius},
                                 {"agent_height", &def.settings.agentHeight},
                                 {"step_height", &def.settings.stepHeight},
                                 {"cell_size", &def.settings.cellSize},
                                 {"cell_height", &def.settings.cellHeight},
                                 {"max_slope_deg", &def.settings.maxSlopeDeg},
                                 {"link_tolerance", &def.linkTolerance}};
    for (const auto& [key, value] : settings.items())
    {
        bool known = key == "max_poly_verts";
        for (const FloatField& f : floats)
            known = known || key == f.name;
        if (!known)
            return formatError("/settings/" + key, "unknown setting '" + key + "'");
    }
    for (const FloatField& f : floats)
    {
        const std::string field = std::string("/settings/") + f.name;
        if (!settings.contains(f.name))
            return formatError(field, std::string("missing setting '") + f.name + "'");
        if (!readFloat(settings[f.name], *f.target))
            return formatError(field, "settings are finite numbers");
    }
    if (!settings.contains("max_poly_verts"))
        return formatError("/settings/max_poly_verts", "missing setting 'max_poly_verts'");
    if (!settings["max_poly_verts"].is_number_integer() || settings["max_poly_verts"].get<int64_t>() < 3 ||
        settings["max_poly_verts"].get<int64_t>() > nav::kMaxPolyVerts)
        return formatError("/settings/max_poly_verts", "max_poly_verts is an integer 3..32");
    def.maxPolyVerts = settings["max_poly_verts"].get<uint32_t>();

    const json& vertices = doc["vertices"];
    if (!vertices.is_array())
        return formatError("/vertices", "vertices must be an array of points");
    if (vertices.size() > nav::kMaxVertices)
        return makeError("E_NAV_LIMIT", "too many vertices", "/vertices");
    nav::PolySoup soup;
    soup.vertices.reserve(vertices.size());
    const size_t arity = is2d ? 2 : 3;
    for (size_t i = 0; i < vertices.size(); ++i)
    {
        const std::string field = "/vertices/" + std::to_string(i);
        const json& v = vertices[i];
        if (!v.is_array() || v.size() != arity)
            return formatError(field, is2d ? "a 2D vertex is [x, y]" : "a 3D vertex is [x, y, z]");
        float c[3] = {0.0f, 0.0f, 0.0f};
        for (size_t k = 0; k < arity; ++k)
            if (!readFloat(v[k], c[k]) || std::fabs(c[k]) > nav::kMaxCoordinate)
                return formatError(field + "/" + std::to_string(k), "coordinates are finite numbers within ±1e6");
        soup.vertices.push_back(is2d ? glm::vec3(c[0], 0.0f, c[1]) : glm::vec3(c[0], c[1], c[2]));
    }

    const json& polygons = doc["polygons"];
    const json& areas = doc["areas"];
    if (!polygons.is_array())
        return formatError("/polygons", "polygons must be an array of vertex index lists");
    if (polygons.size() > nav::kMaxPolygons)
        return makeError("E_NAV_LIMIT", "too many polygons", "/polygons");
    if (!areas.is_array())
        return formatError("/areas", "areas must be an array of area ids");
    if (areas.size() != polygons.size())
        return formatError("/areas", "there must be one area id per polygon");
    soup.polyStarts.push_back(0);
    for (size_t p = 0; p < polygons.size(); ++p)
    {
        const std::string field = "/polygons/" + std::to_string(p);
        const json& poly = polygons[p];
        if (!poly.is_array())
            return formatError(field, "a polygon is an array of vertex indices");
        if (poly.size() > def.maxPolyVerts)
            return makeError("E_NAV_LIMIT", "a polygon has at most max_poly_verts vertices", field);
        for (size_t i = 0; i < poly.size(); ++i)
        {
            if (!poly[i].is_number_integer() || poly[i].get<int64_t>() < 0 ||
                poly[i].get<int64_t>() >= static_cast<int64_t>(soup.vertices.size()))
                return formatError(field + "/" + std::to_string(i), "vertex indices are integers into vertices");
            soup.indices.push_back(poly[i].get<uint32_t>());
        }
        soup.polyStarts.push_back(static_cast<uint32_t>(soup.indices.size()));
        const json& a = areas[p];
        if (!a.is_number_integer() || a.get<int64_t>() < 0 || a.get<int64_t>() > nav::kMaxAreaId)
            return formatError("/areas/" + std::to_string(p), "area ids are integers 0..15");
        soup.areas.push_back(static_cast<uint8_t>(a.get<int64_t>()));
    }

    uint32_t tileSize = 0;
    std::vector<nav::NavTile> tiles;
    if (doc.contains("tiles"))
        SPARK_TRY(readTiles(doc, tileSize, tiles));
    Result<nav::NavMesh> mesh =
        tiles.empty() ? nav::buildNavMesh(soup, def) : nav::buildTiledNavMesh(soup, def, tileSize, std::move(tiles));
    if (!mesh.ok())
    {
        Error e = mesh.error();
        if (e.code == "E_NAV_CONFIG" || e.code == "E_NAV_NO_GEOMETRY")
            e.code = "E_NAV_FORMAT";
        if (e.field.starts_with("/tiles/")) // the library's tile i is the document's /tiles/list/i
            e.field = "/tiles/list/" + e.field.substr(7);
        else if (e.field == "/tiles" || e.field == "/tile_size")
            e.field = e.field == "/tiles" ? "/tiles/list" : "/tiles/tile_size";
        return e;
    }
    if (doc.contains("hash"))
    {
        if (!doc["hash"].is_string())
            return formatError("/hash", "hash is a string of 16 hex digits");
        if (doc["hash"].get<std::string>() != hashHex(nav::hashNavMesh(mesh.value())))
            return makeError("E_NAV_FORMAT", "the document's hash does not match its content", "/hash",
                             "remove the hash field after editing a document by hand");
    }
    return mesh;
}

} // namespace spark::cli::navjson
