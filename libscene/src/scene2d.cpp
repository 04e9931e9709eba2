/// \file scene2d.cpp
/// The 2D tile scene: reading and writing `.scene2d.json`, editing, and the
/// rasterisation into a `nav::Grid2D` for the 2D bake.
///
/// Design note — rasterisation. Cells are tileSize / subdivisions, so tile
/// boundaries are cell boundaries and the agent-radius erosion has
/// `subdivisions` steps per tile. Tiles are copied cell by cell; static boxes
/// block every cell whose open interior they overlap (conservative, as the
/// `solid_rects` of `nav::rasterizeShapes2D`), through the same difference
/// array (`nav::blockCellRects`), so the cost is linear in cells plus boxes
/// whatever the box sizes.

#include "spark/scene/scene2d.h"

#include "spark/core/hash.h"
#include "spark/core/text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <set>

namespace spark::scene
{
namespace
{

using json = nlohmann::json;

Error formatError(const std::string& message, const std::string& field)
{
    return makeError("E_SCENE_FORMAT", message, field);
}

Status checkKeys(const json& obj, std::initializer_list<const char*> allowed, const std::string& at)
{
    for (auto it = obj.begin(); it != obj.end(); ++it)
    {
        bool known = false;
        for (const char* k : allowed)
            known = known || it.key() == k;
        if (!known)
            return formatError("Unknown field '" + it.key() + "'.", at + "/" + it.key());
    }
    return Status::success();
}

Result<int64_t> readInt(const json& v, const std::string& field, int64_t lo, int64_t hi, const char* code)
{
    if (!v.is_number_integer())
        return formatError("Expected an integer.", field);
    const int64_t value = v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)
                              ? INT64_MAX
                              : v.get<int64_t>();
    if (value < lo || value > hi)
        return makeError(code, "Expected an integer in " + std::to_string(lo) + ".." + std::to_string(hi) + ".",
                         field);
    return value;
}

Result<float> readNumber(const json& v, const std::string& field)
{
    if (!v.is_number())
        return formatError("Expected a number.", field);
    const double d = v.get<double>();
    if (!std::isfinite(d) || std::fabs(d) > kMaxScene2DCoordinate)
        return formatError("Expected a finite number within +-1e6.", field);
    return static_cast<float>(d);
}

Result<glm::vec2> readVec2(const json& v, const std::string& field)
{
    if (!v.is_array() || v.size() != 2)
        return formatError("Expected [x, y].", field);
    auto x = readNumber(v[0], field + "/0");
    if (!x.ok())
        return x.error();
    auto y = readNumber(v[1], field + "/1");
    if (!y.ok())
        return y.error();
    return glm::vec2(x.value(), y.value());
}

Status checkBox(const Box2D& box, const std::string& at)
{
    if (box.name.empty())
        return formatError("A box needs a non-empty name.", at + "/name");
    if (!std::isfinite(box.position.x) || !std::isfinite(box.position.y) ||
        std::fabs(box.position.x) > kMaxScene2DCoordinate || std::fabs(box.position.y) > kMaxScene2DCoordinate)
        return formatError("The position must be finite, within +-1e6.", at + "/position");
    if (!(box.halfExtents.x > 0.0f) || !(box.halfExtents.y > 0.0f) || !(box.halfExtents.x <= kMaxScene2DCoordinate) ||
        !(box.halfExtents.y <= kMaxScene2DCoordinate))
        return formatError("Half extents must be > 0 and finite.", at + "/half_extents");
    return Status::success();
}

Result<TileLayer2D> readLayer(const json& v, const std::string& at)
{
    if (!v.is_object())
        return formatError("A layer is an object.", at);
    SPARK_TRY(checkKeys(v, {"name", "width", "height", "tiles", "solid", "areas"}, at));
    TileLayer2D layer;
    if (!v.contains("name") || !v["name"].is_string() || v["name"].get<std::string>().empty())
        return formatError("A layer needs a non-empty name.", at + "/name");
    layer.name = v["name"].get<std::string>();
    for (const char* key : {"width", "height"})
    {
        if (!v.contains(key))
            return formatError(std::string("Missing '") + key + "'.", at + "/" + key);
        auto n = readInt(v[key], at + "/" + key, 1, INT32_MAX, "E_SCENE_FORMAT");
        if (!n.ok())
            return n.error();
        if (n.value() > kMaxScene2DTiles)
            return makeError("E_SCENE_LIMIT",
                             "A layer has at most " + std::to_string(kMaxScene2DTiles) + " tiles per axis.",
                             at + "/" + key);
        (std::string(key) == "width" ? layer.width : layer.height) = static_cast<int>(n.value());
    }
    const size_t count = static_cast<size_t>(layer.width) * static_cast<size_t>(layer.height);
    if (!v.contains("tiles") || !v["tiles"].is_array())
        return formatError("Expected an array of width x height tile ids.", at + "/tiles");
    const json& tiles = v["tiles"];
    if (tiles.size() != count)
        return formatError("Expected " + std::to_string(count) + " tile ids, got " + std::to_string(tiles.size()) + ".",
                           at + "/tiles");
    layer.tiles.resize(count);
    for (size_t i = 0; i < count; ++i)
    {
        auto t = readInt(tiles[i], at + "/tiles/" + std::to_string(i), 0, kMaxScene2DTileId, "E_SCENE_FORMAT");
        if (!t.ok())
            return t.error();
        layer.tiles[i] = static_cast<int32_t>(t.value());
    }
    if (v.contains("solid"))
    {
        if (!v["solid"].is_array())
            return formatError("Expected an array of tile ids.", at + "/solid");
        for (size_t i = 0; i < v["solid"].size(); ++i)
        {
            auto t = readInt(v["solid"][i], at + "/solid/" + std::to_string(i), 0, kMaxScene2DTileId, "E_SCENE_FORMAT");
            if (!t.ok())
                return t.error();
            layer.solid.push_back(static_cast<int32_t>(t.value()));
        }
        std::sort(layer.solid.begin(), layer.solid.end());
        layer.solid.erase(std::unique(layer.solid.begin(), layer.solid.end()), layer.solid.end());
    }
    if (v.contains("areas"))
    {
        if (!v["areas"].is_object())
            return formatError("Expected an object {\"<tile id>\": <area id>}.", at + "/areas");
        for (auto it = v["areas"].begin(); it != v["areas"].end(); ++it)
        {
            const std::string field = at + "/areas/" + it.key();
            const std::string& key = it.key();
            if (key.empty() || key.size() > 5 || !std::all_of(key.begin(), key.end(), [](char c) { return c >= '0' && c <= '9'; }))
                return formatError("Area keys are tile ids (0..65535).", field);
            const long id = std::stol(key);
            if (id > kMaxScene2DTileId || std::to_string(id) != key)
                return formatError("Area keys are tile ids (0..65535) without leading zeros.", field);
            auto area = readInt(it.value(), field, 0, 15, "E_SCENE_FORMAT");
            if (!area.ok())
                return area.error();
            layer.areas.emplace_back(static_cast<int32_t>(id), static_cast<uint8_t>(area.value()));
        }
        std::sort(layer.areas.begin(), layer.areas.end());
    }
    return layer;
}

Result<Box2D> readBox(const json& v, const std::string& at)
{
    if (!v.is_object())
        return formatError("A box is an object.", at);
    SPARK_TRY(checkKeys(v, {"name", "position", "half_extents", "static"}, at));
    Box2D box;
    if (!v.contains("name") || !v["name"].is_string())
        return formatError("A box needs a name.", at + "/name");
    box.name = v["name"].get<std::string>();
    if (!v.contains("position"))
        return formatError("Missing 'position'.", at + "/position");
    auto p = readVec2(v["position"], at + "/position");
    if (!p.ok())
        return p.error();
    box.position = p.value();
    if (!v.contains("half_extents"))
        return formatError("Missing 'half_extents'.", at + "/half_extents");
    auto h = readVec2(v["half_extents"], at + "/half_extents");
    if (!h.ok())
        return h.error();
    box.halfExtents = h.value();
    if (v.contains("static"))
    {
        if (!v["static"].is_boolean())
            return formatError("Expected true or false.", at + "/static");
        box.isStatic = v["static"].get<bool>();
    }
    SPARK_TRY(checkBox(box, at));
    return box;
}

} // namespace

Result<Scene2D> scene2DFromJson(const json& doc)
{
    if (!doc.is_object())
        return formatError("A 2D scene is a JSON object.", "");
    SPARK_TRY(checkKeys(doc, {"version", "tile_size", "layers", "boxes"}, ""));
    if (!doc.contains("version") || !doc["version"].is_number_integer() || doc["version"].get<int64_t>() != 1)
        return formatError("Expected \"version\": 1.", "/version");
    Scene2D scene;
    if (doc.contains("tile_size"))
    {
        auto ts = readNumber(doc["tile_size"], "/tile_size");
        if (!ts.ok())
            return ts.error();
        if (!(ts.value() > 0.0f) || ts.value() > 1000.0f)
            return formatError("The tile size is > 0 and <= 1000.", "/tile_size");
        scene.tileSize = ts.value();
    }
    if (doc.contains("layers"))
    {
        const json& layers = doc["layers"];
        if (!layers.is_array())
            return formatError("Expected an array of layers.", "/layers");
        if (layers.size() > static_cast<size_t>(kMaxScene2DLayers))
            return makeError("E_SCENE_LIMIT", "At most " + std::to_string(kMaxScene2DLayers) + " layers.", "/layers");
        std::set<std::string> names;
        for (size_t i = 0; i < layers.size(); ++i)
        {
            auto layer = readLayer(layers[i], "/layers/" + std::to_string(i));
            if (!layer.ok())
                return layer.error();
            if (!names.insert(layer->name).second)
                return formatError("Duplicate layer name '" + layer->name + "'.", "/layers/" + std::to_string(i) + "/name");
            scene.layers.push_back(std::move(layer.value()));
        }
    }
    if (doc.contains("boxes"))
    {
        const json& boxes = doc["boxes"];
        if (!boxes.is_array())
            return formatError("Expected an array of boxes.", "/boxes");
        if (boxes.size() > static_cast<size_t>(kMaxScene2DBoxes))
            return makeError("E_SCENE_LIMIT", "At most " + std::to_string(kMaxScene2DBoxes) + " boxes.", "/boxes");
        std::set<std::string> names;
        for (size_t i = 0; i < boxes.size(); ++i)
        {
            auto box = readBox(boxes[i], "/boxes/" + std::to_string(i));
            if (!box.ok())
                return box.error();
            if (!names.insert(box->name).second)
                return formatError("Duplicate box name '" + box->name + "'.", "/boxes/" + std::to_string(i) + "/name");
            scene.boxes.push_back(std::move(box.value()));
        }
    }
    return scene;
}

Result<Scene2D> parseScene2D(std::string_view text)
{
    SPARK_TRY(checkJsonText(text));
    json doc = json::parse(text.begin(), text.end(), nullptr, false);
    if (doc.is_discarded())
        return makeError("E_FORMAT", "The 2D scene is not valid JSON.");
    return scene2DFromJson(doc);
}

json scene2DToJson(const Scene2D& scene)
{
    json doc = json::object();
    doc["version"] = 1;
    doc["tile_size"] = scene.tileSize;
    json layers = json::array();
    for (const TileLayer2D& layer : scene.layers)
    {
        json l = json::object();
        l["name"] = layer.name;
        l["width"] = layer.width;
        l["height"] = layer.height;
        l["tiles"] = layer.tiles;
        l["solid"] = layer.solid;
        if (!layer.areas.empty())
        {
            json areas = json::object();
            for (const auto& [tile, area] : layer.areas)
                areas[std::to_string(tile)] = area;
            l["areas"] = areas;
        }
        layers.push_back(std::move(l));
    }
    doc["layers"] = std::move(layers);
    json boxes = json::array();
    for (const Box2D& box : scene.boxes)
        boxes.push_back({{"name", box.name},
                         {"position", {box.position.x, box.position.y}},
                         {"half_extents", {box.halfExtents.x, box.halfExtents.y}},
                         {"static", box.isStatic}});
    doc["boxes"] = std::move(boxes);
    return doc;
}

Result<Scene2D> makeScene2D(float tileSize, int width, int height, std::string layerName)
{
    if (!std::isfinite(tileSize) || !(tileSize > 0.0f) || tileSize > 1000.0f)
        return formatError("The tile size is > 0 and <= 1000.", "/tile_size");
    if (width < 1 || height < 1)
        return formatError("A layer has at least one tile along each axis.", width < 1 ? "/width" : "/height");
    if (width > kMaxScene2DTiles || height > kMaxScene2DTiles)
        return makeError("E_SCENE_LIMIT", "A layer has at most " + std::to_string(kMaxScene2DTiles) + " tiles per axis.",
                         width > kMaxScene2DTiles ? "/width" : "/height");
    if (layerName.empty())
        return formatError("A layer needs a non-empty name.", "/layer");
    Scene2D scene;
    scene.tileSize = tileSize;
    TileLayer2D layer;
    layer.name = std::move(layerName);
    layer.width = width;
    layer.height = height;
    layer.tiles.assign(static_cast<size_t>(width) * static_cast<size_t>(height), 0);
    layer.solid = {1};
    scene.layers.push_back(std::move(layer));
    return scene;
}

int findLayer2D(const Scene2D& scene, std::string_view name)
{
    if (name.empty())
        return scene.layers.empty() ? -1 : 0;
    for (size_t i = 0; i < scene.layers.size(); ++i)
        if (scene.layers[i].name == name)
            return static_cast<int>(i);
    return -1;
}

Status setTiles2D(Scene2D& scene, std::string_view layerName, int x, int y, int w, int h, int32_t tile)
{
    const int index = findLayer2D(scene, layerName);
    if (index < 0)
        return makeError("E_SCENE_UNKNOWN", "No layer '" + std::string(layerName) + "' in the 2D scene.", "/layer");
    if (tile < 0 || tile > kMaxScene2DTileId)
        return formatError("Tile ids are 0..65535.", "/tile");
    TileLayer2D& layer = scene.layers[static_cast<size_t>(index)];
    if (w < 1 || h < 1)
        return makeError("E_SCENE_RANGE", "The rectangle needs a width and height >= 1.", w < 1 ? "/width" : "/height");
    if (x < 0 || x >= layer.width)
        return makeError("E_SCENE_RANGE", "x is outside the layer (0.." + std::to_string(layer.width - 1) + ").", "/x");
    if (y < 0 || y >= layer.height)
        return makeError("E_SCENE_RANGE", "y is outside the layer (0.." + std::to_string(layer.height - 1) + ").", "/y");
    if (w > layer.width - x)
        return makeError("E_SCENE_RANGE", "The rectangle runs past the layer's right edge.", "/width");
    if (h > layer.height - y)
        return makeError("E_SCENE_RANGE", "The rectangle runs past the layer's bottom edge.", "/height");
    for (int j = y; j < y + h; ++j)
        for (int i = x; i < x + w; ++i)
            layer.tiles[static_cast<size_t>(j) * layer.width + i] = tile;
    return Status::success();
}

Status addBox2D(Scene2D& scene, const Box2D& box)
{
    SPARK_TRY(checkBox(box, ""));
    for (const Box2D& other : scene.boxes)
        if (other.name == box.name)
            return makeError("E_SCENE_DUPLICATE", "A box named '" + box.name + "' exists already.", "/name");
    if (scene.boxes.size() >= static_cast<size_t>(kMaxScene2DBoxes))
        return makeError("E_SCENE_LIMIT", "At most " + std::to_string(kMaxScene2DBoxes) + " boxes.", "/name");
    scene.boxes.push_back(box);
    return Status::success();
}

Result<nav::Grid2D> scene2DToGrid(const Scene2D& scene, int subdivisions)
{
    if (subdivisions < 1 || subdivisions > 64)
        return makeError("E_NAV_CONFIG", "Subdivisions are 1..64 cells per tile.", "/subdivisions");
    if (scene.layers.empty())
        return makeError("E_NAV_NO_GEOMETRY", "The 2D scene has no tile layer to bake.", "",
                         "Create one with scene2d.new or load a .scene2d.json.");
    int tilesW = 0, tilesH = 0;
    for (const TileLayer2D& layer : scene.layers)
    {
        tilesW = std::max(tilesW, layer.width);
        tilesH = std::max(tilesH, layer.height);
    }
    const int64_t cellsW = static_cast<int64_t>(tilesW) * subdivisions;
    const int64_t cellsH = static_cast<int64_t>(tilesH) * subdivisions;
    if (cellsW > nav::kMaxGrid2DCells || cellsH > nav::kMaxGrid2DCells)
        return makeError("E_NAV_LIMIT",
                         "The 2D scene needs " + std::to_string(cellsW) + " x " + std::to_string(cellsH) +
                             " cells; at most " + std::to_string(nav::kMaxGrid2DCells) + " per axis are allowed.",
                         "/subdivisions", "Use fewer subdivisions or a smaller map.");
    nav::Grid2D grid;
    grid.width = static_cast<int>(cellsW);
    grid.height = static_cast<int>(cellsH);
    grid.cellSize = scene.tileSize / static_cast<float>(subdivisions);
    grid.origin = glm::vec2(0.0f);
    const size_t cells = static_cast<size_t>(cellsW) * static_cast<size_t>(cellsH);
    grid.blocked.assign(cells, 0);
    std::vector<uint8_t> areas(cells, 0);
    bool anyArea = false;

    // Tiles, layer by layer.
    for (const TileLayer2D& layer : scene.layers)
    {
        for (int ty = 0; ty < layer.height; ++ty)
            for (int tx = 0; tx < layer.width; ++tx)
            {
                const int32_t tile = layer.tiles[static_cast<size_t>(ty) * layer.width + tx];
                const bool solid = std::binary_search(layer.solid.begin(), layer.solid.end(), tile);
                const auto mapped = std::lower_bound(layer.areas.begin(), layer.areas.end(),
                                                     std::make_pair(tile, uint8_t{0}));
                const bool hasArea = mapped != layer.areas.end() && mapped->first == tile;
                if (!solid && !hasArea)
                    continue;
                for (int sy = 0; sy < subdivisions; ++sy)
                    for (int sx = 0; sx < subdivisions; ++sx)
                    {
                        const size_t i = static_cast<size_t>(ty * subdivisions + sy) * grid.width +
                                         static_cast<size_t>(tx * subdivisions + sx);
                        if (solid)
                            grid.blocked[i] = 1;
                        if (hasArea)
                        {
                            areas[i] = mapped->second;
                            anyArea = anyArea || mapped->second != 0;
                        }
                    }
            }
    }

    // Static boxes: every cell whose open interior the box overlaps.
    std::vector<nav::CellRect> boxCells;
    const double cell = grid.cellSize;
    auto clampCell = [](double v, int hi) {
        if (!(v > 0.0))
            return 0;
        if (!(v < hi))
            return hi;
        return static_cast<int>(v);
    };
    for (const Box2D& box : scene.boxes)
    {
        if (!box.isStatic)
            continue;
        const double x0 = (static_cast<double>(box.position.x) - box.halfExtents.x) / cell;
        const double x1 = (static_cast<double>(box.position.x) + box.halfExtents.x) / cell;
        const double y0 = (static_cast<double>(box.position.y) - box.halfExtents.y) / cell;
        const double y1 = (static_cast<double>(box.position.y) + box.halfExtents.y) / cell;
        const int i0 = clampCell(std::floor(x0), grid.width), i1 = clampCell(std::ceil(x1), grid.width);
        const int j0 = clampCell(std::floor(y0), grid.height), j1 = clampCell(std::ceil(y1), grid.height);
        boxCells.push_back(nav::CellRect{i0, j0, i1 - i0, j1 - j0, 0});
    }
    nav::blockCellRects(grid, boxCells);
    if (anyArea)
        grid.areas = std::move(areas);
    return grid;
}

uint64_t hashScene2D(const Scene2D& scene)
{
    Hasher h;
    h.addString("scene2d/1");
    h.addF32(scene.tileSize);
    h.addU64(scene.layers.size());
    for (const TileLayer2D& layer : scene.layers)
    {
        h.addString(layer.name);
        h.addU32(static_cast<uint32_t>(layer.width));
        h.addU32(static_cast<uint32_t>(layer.height));
        h.addU64(layer.tiles.size());
        for (int32_t t : layer.tiles)
            h.addU32(static_cast<uint32_t>(t));
        h.addU64(layer.solid.size());
        for (int32_t t : layer.solid)
            h.addU32(static_cast<uint32_t>(t));
        h.addU64(layer.areas.size());
        for (const auto& [tile, area] : layer.areas)
        {
            h.addU32(static_cast<uint32_t>(tile));
            h.addU8(area);
        }
    }
    h.addU64(scene.boxes.size());
    for (const Box2D& box : scene.boxes)
    {
        h.addString(box.name);
        h.addF32(box.position.x);
        h.addF32(box.position.y);
        h.addF32(box.halfExtents.x);
        h.addF32(box.halfExtents.y);
        h.addBool(box.isStatic);
    }
    return h.digest();
}

} // namespace spark::scene
