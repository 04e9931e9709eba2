// scene2d.new, scene2d.load, scene2d.tiles.set, scene2d.box.add: the session's 2D
// tile scene (docs/scene.md), the input of `nav.bake` with `source: "scene2d"`.

#include "surface/registry.h"

#include "spark/core/path.h"
#include "spark/scene/scene2d.h"

#include <algorithm>

namespace spark::cli
{
/// This file's own namespace: the unity build puts several command files in one
/// translation unit, where their unnamed namespaces would be one.
namespace scene2d_commands
{
namespace
{

using scene::Scene2D;

json describeScene(const Scene2D& s)
{
    json layers = json::array();
    int width = 0, height = 0;
    for (const auto& layer : s.layers)
    {
        layers.push_back({{"name", layer.name}, {"width", layer.width}, {"height", layer.height}});
        width = std::max(width, layer.width);
        height = std::max(height, layer.height);
    }
    int staticBoxes = 0;
    for (const auto& box : s.boxes)
        staticBoxes += box.isStatic ? 1 : 0;
    return {{"tile_size", s.tileSize},
            {"width", width},
            {"height", height},
            {"layers", layers},
            {"boxes", s.boxes.size()},
            {"static_boxes", staticBoxes}};
}

Scene2D& requireScene2D(Context& ctx)
{
    if (!ctx.state.scene2d)
        fail("E_SCENE_NONE", "There is no 2D scene in this session.", json::object(),
             "Create one with scene2d.new or load one with scene2d.load.");
    return *ctx.state.scene2d;
}

json scene2dNew(Context& ctx, const json& params)
{
    auto made = scene::makeScene2D(params.value("tile_size", 1.0f), params.at("width").get<int>(),
                                   params.at("height").get<int>(), params.value("layer", std::string("ground")));
    if (!made.ok())
        failWith(made.error());
    ctx.state.scene2d = std::move(made.value());
    return describeScene(*ctx.state.scene2d);
}

json scene2dLoad(Context& ctx, const json& params)
{
    const std::string rel = params.at("path").get<std::string>();
    const auto path = ctx.resolvePath(rel, "/path");
    auto text = readTextFile(path);
    if (!text.ok())
        fail(text.error().code, text.error().message, {{"path", "/path"}, {"file", rel}});
    auto loaded = scene::parseScene2D(text.value());
    if (!loaded.ok())
    {
        const Error& e = loaded.error();
        // Errors inside the document name the field in the file, not in the params.
        fail(e.code, e.message, {{"path", "/path"}, {"file", rel}, {"field", e.field}}, e.hint);
    }
    ctx.state.scene2d = std::move(loaded.value());
    json out = describeScene(*ctx.state.scene2d);
    out["path"] = rel;
    return out;
}

json scene2dTilesSet(Context& ctx, const json& params)
{
    Scene2D& s = requireScene2D(ctx);
    const std::string layer = params.value("layer", std::string());
    const int w = params.value("width", 1), h = params.value("height", 1);
    const Status st = scene::setTiles2D(s, layer, params.at("x").get<int>(), params.at("y").get<int>(), w, h,
                                        params.at("tile").get<int32_t>());
    if (!st.ok())
        failWith(st.error());
    const int index = scene::findLayer2D(s, layer);
    return {{"layer", s.layers[static_cast<size_t>(index)].name}, {"changed", static_cast<int64_t>(w) * h}};
}

json scene2dBoxAdd(Context& ctx, const json& params)
{
    Scene2D& s = requireScene2D(ctx);
    scene::Box2D box;
    box.name = params.at("name").get<std::string>();
    box.position = {params.at("position")[0].get<float>(), params.at("position")[1].get<float>()};
    box.halfExtents = {params.at("half_extents")[0].get<float>(), params.at("half_extents")[1].get<float>()};
    box.isStatic = params.value("static", true);
    const Status st = scene::addBox2D(s, box);
    if (!st.ok())
        failWith(st.error());
    return {{"name", box.name}, {"boxes", s.boxes.size()}};
}

const Registrar kNew{
    {"scene2d.new", scene2dNew, Mutates::Yes, nullptr, {.destructive = true, .idempotent = true}}};
const Registrar kLoad{
    {"scene2d.load", scene2dLoad, Mutates::Yes, nullptr, {.destructive = true, .idempotent = true}}};
const Registrar kTilesSet{
    {"scene2d.tiles.set", scene2dTilesSet, Mutates::Yes, nullptr, {.idempotent = true}}};
const Registrar kBoxAdd{{"scene2d.box.add", scene2dBoxAdd, Mutates::Yes}};

} // namespace
} // namespace scene2d_commands
} // namespace spark::cli
