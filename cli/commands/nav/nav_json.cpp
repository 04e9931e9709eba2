// JSON ⇄ navigation structs for the nav.* commands (see nav_json.h).

#include "commands/nav/nav_json.h"

#include "spark/core/hash.h"

#include <simdjson.h>

#include <optional>
#include <span>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <iterator>

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

std::string radiusMeshName(const std::string& name, float radius)
{
    char buf[32];
    const auto res = std::to_chars(buf, buf + sizeof(buf), radius);
    return name + "@" + std::string(buf, res.ptr);
}

namespace
{

/// The mesh of `params["mesh_radius"]` (see requireMesh).
nav::MeshId meshOfRadius(const nav::NavWorld& world, const json& params)
{
    const float radius = params.at("mesh_radius").get<float>();
    std::string base;
    if (params.contains("mesh"))
    {
        base = params.at("mesh").get<std::string>();
        const size_t at = base.rfind('@'); // "level@0.6" names the bake of "level" too
        if (at != std::string::npos && world.findMesh(base.substr(0, at)).valid())
            base.resize(at);
        const bool known = world.findMesh(base).valid();
        if (!known)
            fail("E_NAV_NO_MESH", "There is no navigation mesh named '" + params.at("mesh").get<std::string>() + "'.",
                 {{"path", "/mesh"}, {"meshes", meshList(world)}}, "nav.list shows the meshes of the session.");
    }
    // The meshes of the bake (or all), and those of the radius among them, in name order.
    std::vector<nav::MeshId> matches;
    json radii = json::array();
    for (nav::MeshId id : world.meshesInNameOrder())
    {
        const std::string& name = world.meshRecord(id)->name;
        if (!base.empty() && name != base && name.rfind(base + "@", 0) != 0)
            continue;
        const float r = world.mesh(id)->settings().agentRadius;
        radii.push_back({{"mesh", name}, {"agent_radius", floatJson(r)}});
        if (r == radius)
            matches.push_back(id);
    }
    if (matches.size() == 1)
        return matches.front();
    const std::string where = base.empty() ? "the session" : "the bake of '" + base + "'";
    if (matches.empty())
        fail("E_NAV_NO_MESH", "No mesh of " + where + " was baked for agent radius " + floatJson(radius).dump() + ".",
             {{"path", "/mesh_radius"}, {"radii", std::move(radii)}},
             "Pick one of the radii listed, or bake this one: nav.bake with agent_radii gives one mesh per radius.");
    fail("E_NAV_NO_MESH",
         "Several meshes were baked for agent radius " + floatJson(radius).dump() + ": say which bake with 'mesh'.",
         {{"path", "/mesh"}, {"radii", std::move(radii)}});
}

} // namespace

MeshRef requireMesh(Context& ctx, const json& params)
{
    const nav::NavWorld& world = ctx.state.world.nav();
    nav::MeshId id;
    if (params.contains("mesh_radius"))
    {
        if (world.meshCount() == 0)
            fail("E_NAV_NO_MESH", "There is no navigation mesh in this session.", {{"meshes", json::array()}},
                 "Bake one with nav.bake or load one with nav.import.");
        id = meshOfRadius(world, params);
    }
    else if (params.contains("mesh"))
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

std::string otherKindHint(uint64_t n, uint32_t kind, const std::string& fallback)
{
    static const char* const kNames[] = {"an agent's", "an obstacle's", "a link's"};
    const uint32_t carried = handleNumberKind(n);
    if (carried == kind || carried >= std::size(kNames) || n >> 53 != 0)
        return fallback;
    return std::to_string(n) + " is " + kNames[carried] + " id; " + fallback;
}

json meshToDocument(const nav::NavMesh& carved)
{
    // A carved mesh is written as its walkable polygons (renumbered).
    const nav::NavMesh walkable = carved.disabledCount() != 0 ? nav::walkableMesh(carved) : nav::NavMesh{};
    const nav::NavMesh& mesh = carved.disabledCount() != 0 ? walkable : carved;
    const nav::NavMeshSettings& s = mesh.settings();
    json vertices = json::array();
    for (uint32_t v = 0; v < mesh.vertexCount(); ++v)
        vertices.push_back(pointToJson(mesh.vertex(v), mesh.is2d()));
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
        // docs/tiles.md: [x, z, first polygon, polygons, first vertex, vertices] per tile, in tile order.
        json tiles = json::array();
        for (const nav::NavTile& t : mesh.tiles())
            tiles.push_back({t.x, t.z, t.firstPolygon, t.polygonCount, t.firstVertex, t.vertexCount});
        doc["tiles"] = {{"tile_size", mesh.tileSize()}, {"list", std::move(tiles)}};
    }
    return doc;
}

namespace
{

// The navmesh document is read with simdjson (a 55 MiB document of a million
// polygons in a fraction of the time and memory of a general JSON tree): the
// parser validates UTF-8 and bounds the nesting, and the walk below reads the
// values straight into the polygon soup.
using simdjson::dom::element;

// An integer in [lo, hi], or false.
bool integerIn(const element& e, int64_t lo, int64_t hi, int64_t& out)
{
    if (e.is_int64())
        out = int64_t(e);
    else
        return false; // not an integer, or one past int64 (past every limit here)
    return out >= lo && out <= hi;
}

// A number that fits a float (finite, within ±3e38).
bool readFloat(const element& e, float& out)
{
    double d = 0.0;
    if (e.is_double())
        d = double(e);
    else if (e.is_int64())
        d = static_cast<double>(int64_t(e));
    else if (e.is_uint64())
        d = static_cast<double>(uint64_t(e));
    else
        return false;
    if (!std::isfinite(d) || std::fabs(d) > 3.0e38)
        return false;
    out = static_cast<float>(d);
    return std::isfinite(out);
}

// The member `key` of an object (null when absent).
bool member(const simdjson::dom::object& o, std::string_view key, element& out)
{
    return !o.at_key(key).get(out);
}

// What a document holds, read and checked, before the mesh is built from it.
struct DocumentParts
{
    nav::NavMeshDef def = nav::defaultNavMeshDef();
    nav::PolySoup soup;
    std::optional<std::string> hash;
    uint32_t tileSize = 0;
    std::vector<nav::NavTile> tiles; // empty: an untiled mesh
};

// The optional "tiles" of a document: tile size and table, validated for
// shape here and for content by nav::buildTiledNavMesh.
Status readTiles(const element& value, uint32_t& outTileSize, std::vector<nav::NavTile>& outTiles)
{
    const char* const kShape = "tiles is {\"tile_size\": cells, \"list\": [[x, z, first_polygon, polygons, "
                               "first_vertex, vertices], ...]}";
    simdjson::dom::object tiles;
    element size, listValue;
    if (value.get(tiles) || tiles.size() != 2 || !member(tiles, "tile_size", size) || !member(tiles, "list", listValue))
        return formatError("/tiles", kShape);
    int64_t number = 0;
    if (!integerIn(size, 1, 65536, number))
        return formatError("/tiles/tile_size", "tile_size is an integer 1..65536");
    outTileSize = static_cast<uint32_t>(number);
    simdjson::dom::array list;
    if (listValue.get(list) || list.size() == 0)
        return formatError("/tiles/list", "list is a non-empty array of tiles");
    if (list.size() > nav::kMaxTiles)
        return makeError("E_NAV_LIMIT", "too many tiles", "/tiles/list");
    outTiles.reserve(list.size());
    size_t i = 0;
    for (const element t : list)
    {
        const std::string field = "/tiles/list/" + std::to_string(i++);
        simdjson::dom::array entries;
        if (t.get(entries) || entries.size() != 6)
            return formatError(field, "a tile is [x, z, first_polygon, polygons, first_vertex, vertices]");
        int64_t v[6];
        size_t k = 0;
        for (const element x : entries)
        {
            const int64_t lo = k < 2 ? INT32_MIN : 0, hi = k < 2 ? INT32_MAX : UINT32_MAX;
            if (!integerIn(x, lo, hi, v[k]))
                return formatError(field + "/" + std::to_string(k), "tile entries are 32-bit integers");
            ++k;
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

Status readDocument(const element& root, DocumentParts& out)
{
    nav::NavMeshDef& def = out.def;
    nav::PolySoup& soup = out.soup;
    simdjson::dom::object doc;
    if (root.get(doc))
        return formatError("", "a navmesh document is a JSON object");
    static const char* const kKeys[] = {"format", "version", "dimensions", "settings", "vertices",
                                        "polygons", "areas", "hash", "tiles"};
    for (const auto field : doc)
    {
        bool known = false;
        for (const char* k : kKeys)
            known = known || field.key == k;
        if (!known)
            return formatError("/" + std::string(field.key), "unknown field '" + std::string(field.key) + "' in a navmesh document");
    }
    element format, version, dimensions, settingsValue, vertices, polygons, areas, hash;
    element* required[] = {&format, &version, &dimensions, &settingsValue, &vertices, &polygons, &areas};
    for (size_t i = 0; i < 7; ++i)
        if (!member(doc, kKeys[i], *required[i]))
            return formatError("/" + std::string(kKeys[i]), std::string("missing field '") + kKeys[i] + "'");
    if (!format.is_string() || std::string_view(format) != kFormat)
        return formatError("/format", "format must be \"spark.navmesh\"");
    int64_t number = 0;
    if (!integerIn(version, kVersion, kVersion, number))
        return formatError("/version", "unsupported version (this build reads version 1)");
    if (!integerIn(dimensions, 2, 3, number))
        return formatError("/dimensions", "dimensions must be 2 or 3");
    const bool is2d = number == 2;

    def.is2d = is2d;
    simdjson::dom::object settings;
    if (settingsValue.get(settings))
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
    for (const auto field : settings)
    {
        bool known = field.key == "max_poly_verts";
        for (const FloatField& f : floats)
            known = known || field.key == f.name;
        if (!known)
            return formatError("/settings/" + std::string(field.key), "unknown setting '" + std::string(field.key) + "'");
    }
    for (const FloatField& f : floats)
    {
        const std::string field = std::string("/settings/") + f.name;
        element value;
        if (!member(settings, f.name, value))
            return formatError(field, std::string("missing setting '") + f.name + "'");
        if (!readFloat(value, *f.target))
            return formatError(field, "settings are finite numbers");
    }
    element maxPolyVerts;
    if (!member(settings, "max_poly_verts", maxPolyVerts))
        return formatError("/settings/max_poly_verts", "missing setting 'max_poly_verts'");
    if (!integerIn(maxPolyVerts, 3, nav::kMaxPolyVerts, number))
        return formatError("/settings/max_poly_verts", "max_poly_verts is an integer 3..32");
    def.maxPolyVerts = static_cast<uint32_t>(number);

    simdjson::dom::array vertexList;
    if (vertices.get(vertexList))
        return formatError("/vertices", "vertices must be an array of points");
    if (vertexList.size() > nav::kMaxVertices)
        return makeError("E_NAV_LIMIT", "too many vertices", "/vertices");
    soup.vertices.reserve(vertexList.size());
    const size_t arity = is2d ? 2 : 3;
    size_t i = 0;
    for (const element v : vertexList)
    {
        // Field paths are made only for an error (a million vertices make none).
        auto field = [&] { return "/vertices/" + std::to_string(i); };
        simdjson::dom::array point;
        if (v.get(point) || point.size() != arity)
            return formatError(field(), is2d ? "a 2D vertex is [x, y]" : "a 3D vertex is [x, y, z]");
        float c[3] = {0.0f, 0.0f, 0.0f};
        size_t k = 0;
        for (const element x : point)
        {
            if (!readFloat(x, c[k]) || std::fabs(c[k]) > nav::kMaxCoordinate)
                return formatError(field() + "/" + std::to_string(k), "coordinates are finite numbers within ±1e6");
            ++k;
        }
        soup.vertices.push_back(is2d ? glm::vec3(c[0], 0.0f, c[1]) : glm::vec3(c[0], c[1], c[2]));
        ++i;
    }

    simdjson::dom::array polygonList, areaList;
    if (polygons.get(polygonList))
        return formatError("/polygons", "polygons must be an array of vertex index lists");
    if (polygonList.size() > nav::kMaxPolygons)
        return makeError("E_NAV_LIMIT", "too many polygons", "/polygons");
    if (areas.get(areaList))
        return formatError("/areas", "areas must be an array of area ids");
    if (areaList.size() != polygonList.size())
        return formatError("/areas", "there must be one area id per polygon");
    soup.polyStarts.reserve(polygonList.size() + 1);
    soup.areas.reserve(polygonList.size());
    soup.polyStarts.push_back(0);
    auto area = areaList.begin();
    size_t p = 0;
    for (const element poly : polygonList)
    {
        auto field = [&] { return "/polygons/" + std::to_string(p); };
        simdjson::dom::array corners;
        if (poly.get(corners))
            return formatError(field(), "a polygon is an array of vertex indices");
        if (corners.size() > def.maxPolyVerts)
            return makeError("E_NAV_LIMIT", "a polygon has at most max_poly_verts vertices", field());
        size_t k = 0;
        for (const element index : corners)
        {
            if (!integerIn(index, 0, static_cast<int64_t>(soup.vertices.size()) - 1, number))
                return formatError(field() + "/" + std::to_string(k), "vertex indices are integers into vertices");
            soup.indices.push_back(static_cast<uint32_t>(number));
            ++k;
        }
        soup.polyStarts.push_back(static_cast<uint32_t>(soup.indices.size()));
        if (!integerIn(*area, 0, nav::kMaxAreaId, number))
            return formatError("/areas/" + std::to_string(p), "area ids are integers 0..15");
        soup.areas.push_back(static_cast<uint8_t>(number));
        ++area;
        ++p;
    }

    if (member(doc, "hash", hash))
    {
        if (!hash.is_string())
            return formatError("/hash", "hash is a string of 16 hex digits");
        out.hash = std::string(std::string_view(hash));
    }
    element tiles;
    if (member(doc, "tiles", tiles))
        SPARK_TRY(readTiles(tiles, out.tileSize, out.tiles));
    return Status::success();
}

// The streaming reader: simdjson On-Demand reads the values straight from
// the text into the soup, holding only the text and its structural index
// (about 3 bytes a byte of a grid document) where the tree of readDocument
// adds a tape of 8 bytes a value. It accepts a document only when every check
// of readDocument passes, whatever the order of the fields; anything else
// (an error, a duplicate field, text that is not JSON) sends the document to
// readDocument, whose answer (an error with its field, or the same parts) is
// the import's. So it needs no error of its own.
namespace od = simdjson::ondemand;
using Value = simdjson::simdjson_result<od::value>; // a value, or the error of reaching it

// An integer literal in [lo, hi] (as integerIn: no fraction, no exponent).
bool streamInteger(Value& v, int64_t lo, int64_t hi, int64_t& out)
{
    return !v.get_int64().get(out) && out >= lo && out <= hi;
}

// A number that fits a float, as readFloat: int64, uint64 or a double; an
// integer literal past uint64 is no JSON number to the tree parser.
bool streamFloat(Value& v, float& out)
{
    double d = 0.0;
    int64_t i = 0;
    uint64_t u = 0;
    if (!v.get_int64().get(i))
        d = static_cast<double>(i);
    else if (!v.get_uint64().get(u))
        d = static_cast<double>(u);
    else
    {
        std::string_view token;
        if (v.raw_json_token().get(token) || token.find_first_of(".eE") == std::string_view::npos ||
            v.get_double().get(d))
            return false;
    }
    if (!std::isfinite(d) || std::fabs(d) > 3.0e38)
        return false;
    out = static_cast<float>(d);
    return std::isfinite(out);
}

// The index of `key` among `names`, marked in `seen` (bit k: field k read),
// or names.size() when the key is unknown or read before.
size_t fieldIndex(std::string_view key, std::span<const std::string_view> names, uint32_t& seen)
{
    size_t k = 0;
    while (k < names.size() && names[k] != key)
        ++k;
    if (k == names.size() || (seen >> k & 1u) != 0)
        return names.size();
    seen |= 1u << k;
    return k;
}

bool streamSettings(Value& v, nav::NavMeshDef& def)
{
    const std::string_view kNames[] = {"agent_radius", "agent_height", "step_height",   "cell_size",
                                       "cell_height",  "max_slope_deg", "link_tolerance", "max_poly_verts"};
    float* const targets[] = {&def.settings.agentRadius, &def.settings.agentHeight, &def.settings.stepHeight,
                              &def.settings.cellSize,    &def.settings.cellHeight,  &def.settings.maxSlopeDeg,
                              &def.linkTolerance};
    od::object settings;
    if (v.get_object().get(settings))
        return false;
    uint32_t seen = 0;
    for (auto field : settings)
    {
        std::string_view key;
        if (field.unescaped_key().get(key))
            return false;
        Value value = field.value();
        const size_t k = fieldIndex(key, kNames, seen);
        if (k == std::size(kNames))
            return false;
        int64_t number = 0;
        if (k < std::size(targets) ? !streamFloat(value, *targets[k])
                                   : !streamInteger(value, 3, nav::kMaxPolyVerts, number))
            return false;
        if (k == std::size(targets))
            def.maxPolyVerts = static_cast<uint32_t>(number);
    }
    return seen == (1u << std::size(kNames)) - 1;
}

// Vertices of 2 or 3 coordinates, stored as readDocument stores them for
// that arity; `arity` is the one every vertex has (0 when there are none).
bool streamVertices(Value& v, std::vector<glm::vec3>& out, size_t& arity)
{
    od::array list;
    if (v.get_array().get(list))
        return false;
    for (auto item : list)
    {
        od::array point;
        if (item.get_array().get(point) || out.size() == nav::kMaxVertices)
            return false;
        double c[3] = {0.0, 0.0, 0.0};
        size_t k = 0;
        for (auto x : point)
        {
            if (k == 3 || x.get_double().get(c[k]) || !(std::fabs(c[k]) <= nav::kMaxCoordinate))
                return false;
            ++k;
        }
        if (k < 2 || (arity != 0 && k != arity))
            return false;
        arity = k;
        // Within ±1e6 the double is a float's and the int64/uint64 reading of readFloat gives the same.
        out.push_back(k == 2 ? glm::vec3(float(c[0]), 0.0f, float(c[1]))
                             : glm::vec3(float(c[0]), float(c[1]), float(c[2])));
    }
    return true;
}

// Polygons of at most kMaxPolyVerts indices; the largest corner count and
// index are checked against the settings and vertices once all is read.
bool streamPolygons(Value& v, nav::PolySoup& soup, size_t& maxCorners, int64_t& maxIndex)
{
    od::array list;
    if (v.get_array().get(list))
        return false;
    soup.polyStarts.assign(1, 0);
    for (auto item : list)
    {
        od::array corners;
        if (item.get_array().get(corners) || soup.polyStarts.size() > nav::kMaxPolygons)
            return false;
        size_t k = 0;
        for (auto x : corners)
        {
            int64_t index = 0;
            if (k == nav::kMaxPolyVerts || !streamInteger(x, 0, nav::kMaxVertices, index))
                return false;
            maxIndex = std::max(maxIndex, index);
            soup.indices.push_back(static_cast<uint32_t>(index));
            ++k;
        }
        maxCorners = std::max(maxCorners, k);
        soup.polyStarts.push_back(static_cast<uint32_t>(soup.indices.size()));
    }
    return true;
}

bool streamAreas(Value& v, std::vector<uint8_t>& out)
{
    od::array list;
    if (v.get_array().get(list))
        return false;
    for (auto item : list)
    {
        int64_t area = 0;
        if (out.size() == nav::kMaxPolygons || !streamInteger(item, 0, nav::kMaxAreaId, area))
            return false;
        out.push_back(static_cast<uint8_t>(area));
    }
    return true;
}

bool streamTiles(Value& v, uint32_t& outTileSize, std::vector<nav::NavTile>& outTiles)
{
    od::object tiles;
    if (v.get_object().get(tiles))
        return false;
    bool haveSize = false, haveList = false;
    for (auto field : tiles)
    {
        std::string_view key;
        if (field.unescaped_key().get(key))
            return false;
        Value value = field.value();
        int64_t number = 0;
        if (key == "tile_size" && !haveSize && streamInteger(value, 1, 65536, number))
        {
            haveSize = true;
            outTileSize = static_cast<uint32_t>(number);
            continue;
        }
        od::array list;
        if (key != "list" || haveList || value.get_array().get(list))
            return false;
        haveList = true;
        for (auto item : list)
        {
            od::array entries;
            if (item.get_array().get(entries) || outTiles.size() == nav::kMaxTiles)
                return false;
            int64_t e[6];
            size_t k = 0;
            for (auto x : entries)
            {
                const int64_t lo = k < 2 ? INT32_MIN : 0, hi = k < 2 ? INT32_MAX : UINT32_MAX;
                if (k == 6 || !streamInteger(x, lo, hi, e[k]))
                    return false;
                ++k;
            }
            if (k != 6)
                return false;
            outTiles.push_back(nav::NavTile{static_cast<int32_t>(e[0]), static_cast<int32_t>(e[1]),
                                            static_cast<uint32_t>(e[2]), static_cast<uint32_t>(e[3]),
                                            static_cast<uint32_t>(e[4]), static_cast<uint32_t>(e[5]), 0});
        }
    }
    return haveSize && haveList && !outTiles.empty();
}

// The parts of a document `text` (padded for simdjson) that readDocument would
// read, or false (see above).
bool streamDocument(const std::string& text, DocumentParts& out)
{
    od::parser parser;
    od::document doc;
    od::object root;
    if (parser.allocate(text.size(), kMaxDocumentDepth) ||
        parser.iterate(text.data(), text.size(), text.capacity()).get(doc) || doc.get_object().get(root))
        return false;
    static const std::string_view kKeys[] = {"format", "version", "dimensions", "settings", "vertices",
                                             "polygons", "areas", "hash", "tiles"};
    uint32_t seen = 0;
    int64_t version = 0, dimensions = 0, maxIndex = -1;
    size_t arity = 0, maxCorners = 0;
    for (auto field : root)
    {
        std::string_view key, string;
        if (field.unescaped_key().get(key))
            return false;
        Value value = field.value();
        const size_t k = fieldIndex(key, kKeys, seen);
        bool ok = k < std::size(kKeys);
        switch (k)
        {
        case 0: ok = !value.get_string().get(string) && string == kFormat; break;
        case 1: ok = streamInteger(value, kVersion, kVersion, version); break;
        case 2: ok = streamInteger(value, 2, 3, dimensions); break;
        case 3: ok = streamSettings(value, out.def); break;
        case 4: ok = streamVertices(value, out.soup.vertices, arity); break;
        case 5: ok = streamPolygons(value, out.soup, maxCorners, maxIndex); break;
        case 6: ok = streamAreas(value, out.soup.areas); break;
        case 7:
            ok = !value.get_string().get(string);
            out.hash = std::string(string);
            break;
        case 8: ok = streamTiles(value, out.tileSize, out.tiles); break;
        default: break; // unknown or repeated: ok is false
        }
        if (!ok)
            return false;
    }
    // Nothing after the document, every required field, and the checks across fields.
    const char* end = nullptr;
    if (doc.current_location().get(end) != simdjson::OUT_OF_BOUNDS || (seen & 0x7fu) != 0x7fu)
        return false;
    out.def.is2d = dimensions == 2;
    // The mesh keeps these arrays: exactly sized (grown by doubling, they may hold up to twice).
    out.soup.vertices.shrink_to_fit();
    out.soup.indices.shrink_to_fit();
    out.soup.polyStarts.shrink_to_fit();
    out.soup.areas.shrink_to_fit();
    return (arity == 0 || arity == size_t(dimensions)) && maxCorners <= out.def.maxPolyVerts &&
           maxIndex < static_cast<int64_t>(out.soup.vertices.size()) &&
           out.soup.areas.size() == out.soup.polygonCount();
}

} // namespace

Result<nav::NavMesh> meshFromDocumentText(std::string text)
{
    DocumentParts parts;
    // The text is read by streamDocument (padding it for simdjson, with
    // initialised bytes, costs a copy when it has no room), and by
    // readDocument only when that fails.
    const size_t size = text.size();
    text.resize(size + simdjson::SIMDJSON_PADDING, ' ');
    text.resize(size);
    if (streamDocument(text, parts))
        std::string().swap(text);
    else
    {
        // The parser's memory (several times the text) and the text are freed
        // before the mesh is built, and the mesh takes over the soup's storage.
        parts = DocumentParts{};
        simdjson::dom::parser parser;
        if (parser.allocate(text.size(), kMaxDocumentDepth))
            return makeError("E_NAV_LIMIT", "the navmesh document is too large to read", "");
        element root;
        if (const auto error = parser.parse(text.data(), text.size()).get(root))
            return makeError("E_FORMAT", simdjson::error_message(error), "");
        SPARK_TRY(readDocument(root, parts));
        std::string().swap(text);
    }
    Result<nav::NavMesh> mesh = parts.tiles.empty()
                                    ? nav::buildNavMesh(std::move(parts.soup), parts.def)
                                    : nav::buildTiledNavMesh(std::move(parts.soup), parts.def, parts.tileSize,
                                                             std::move(parts.tiles));
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
    if (parts.hash && *parts.hash != hashHex(nav::hashNavMesh(mesh.value())))
        return makeError("E_NAV_FORMAT", "the document's hash does not match its content", "/hash",
                         "remove the hash field after editing a document by hand");
    return mesh;
}

Result<nav::NavMesh> meshFromDocument(const json& doc)
{
    return meshFromDocumentText(doc.dump(-1, ' ', false, json::error_handler_t::replace));
}

} // namespace spark::cli::navjson
