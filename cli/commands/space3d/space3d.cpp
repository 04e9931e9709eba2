// space3d.new, space3d.load, space3d.save, space3d.spawn, space3d.despawn,
// space3d.get, space3d.list: the session's 3D scene document (SPEC §5), the
// input of `nav.bake` with `source: "space3d"`. The document itself is
// libscene's (scene3d.h); these handlers only move it between files, params and
// answers.

#include "surface/registry.h"

#include "spark/core/hash.h"
#include "spark/core/path.h"
#include "spark/scene/scene3d.h"

#include <string>

namespace spark::cli
{
namespace
{

using scene::Object3D;
using scene::Scene3D;

scene::Scene3D& requireScene(Context& ctx)
{
    if (!ctx.state.scene3d)
        fail("E_SCENE_NONE", "There is no 3D scene in this session.", json::object(),
             "Create one with space3d.new or load one with space3d.load.");
    return *ctx.state.scene3d;
}

const Object3D& requireObject(const Scene3D& s, const std::string& name)
{
    const Object3D* o = scene::findObject(s, name);
    if (!o)
        fail("E_SCENE_UNKNOWN_OBJECT", "There is no object named \"" + name + "\".", {{"path", "/name"}},
             "space3d.list shows the objects.");
    return *o;
}

json summary(const Scene3D& s)
{
    return {{"objects", s.objects.size()}, {"hash", hashToHex(scene::hashScene3D(s))}};
}

json gravityJson(const Scene3D& s)
{
    return json(scene::scene3DToJson(s)["gravity"]);
}

json space3dNew(Context& ctx, const json& params)
{
    Scene3D s;
    if (params.contains("gravity"))
    {
        const json& g = params["gravity"];
        s.gravity = {g[0].get<float>(), g[1].get<float>(), g[2].get<float>()};
    }
    ctx.state.scene3d = std::move(s);
    json out = summary(*ctx.state.scene3d);
    out["gravity"] = gravityJson(*ctx.state.scene3d);
    return out;
}

json space3dLoad(Context& ctx, const json& params)
{
    const std::string rel = params.at("path").get<std::string>();
    const auto path = ctx.resolvePath(rel, "/path");
    auto loaded = scene::loadScene3DFile(path);
    if (!loaded.ok())
    {
        const Error& e = loaded.error();
        // Errors inside the document name the field in the file, not in the params.
        json data = {{"path", "/path"}, {"file", rel}};
        if (!e.field.empty())
            data["field"] = e.field;
        fail(e.code, e.message, std::move(data), e.hint);
    }
    ctx.state.scene3d = std::move(loaded.value());
    json out = summary(*ctx.state.scene3d);
    out["path"] = rel;
    out["gravity"] = gravityJson(*ctx.state.scene3d);
    return out;
}

json space3dSave(Context& ctx, const json& params)
{
    const Scene3D& s = requireScene(ctx);
    const std::string rel = params.at("path").get<std::string>();
    const auto path = ctx.resolvePath(rel, "/path");
    const Status st = scene::saveScene3DFile(path, s);
    if (!st.ok())
        fail(st.error().code, st.error().message, {{"path", "/path"}, {"file", rel}});
    json out = summary(s);
    out["path"] = rel;
    return out;
}

json space3dSpawn(Context& ctx, const json& params)
{
    Scene3D& s = requireScene(ctx);
    const std::string name = params.at("name").get<std::string>();
    auto object = scene::parseObject3D(name, params.value("components", json::object()), "/components");
    if (!object.ok())
        failWith(object.error());
    const Status st = scene::addObject(s, std::move(object.value()));
    if (!st.ok())
        failWith(st.error());
    json out = summary(s);
    out["name"] = name;
    return out;
}

json space3dDespawn(Context& ctx, const json& params)
{
    Scene3D& s = requireScene(ctx);
    const std::string name = params.at("name").get<std::string>();
    requireObject(s, name);
    scene::removeObject(s, name);
    json out = summary(s);
    out["name"] = name;
    return out;
}

json space3dGet(Context& ctx, const json& params)
{
    const Scene3D& s = requireScene(ctx);
    const std::string name = params.at("name").get<std::string>();
    const Object3D& o = requireObject(s, name);
    return {{"name", o.name}, {"components", json(scene::componentsToJson(o))}};
}

json space3dList(Context& ctx, const json&)
{
    const Scene3D& s = requireScene(ctx);
    json objects = json::array();
    for (const Object3D& o : s.objects)
    {
        json components = json::array();
        // Component names in the canonical order of the document.
        const nlohmann::ordered_json doc = scene::componentsToJson(o);
        for (const auto& item : doc.items())
            components.push_back(item.key());
        json entry = {{"name", o.name}, {"components", components}};
        if (o.body)
        {
            entry["kind"] = scene::bodyKindName(o.body->kind);
            entry["shape"] = scene::shapeTypeName(o.body->shape.type);
            entry["sensor"] = o.body->sensor;
        }
        objects.push_back(std::move(entry));
    }
    return {{"count", s.objects.size()},
            {"hash", hashToHex(scene::hashScene3D(s))},
            {"gravity", gravityJson(s)},
            {"objects", std::move(objects)}};
}

const Registrar kNew{{"space3d.new", space3dNew, Mutates::Yes}};
const Registrar kLoad{{"space3d.load", space3dLoad, Mutates::Yes}};
const Registrar kSave{{"space3d.save", space3dSave, Mutates::No}};
const Registrar kSpawn{{"space3d.spawn", space3dSpawn, Mutates::Yes}};
const Registrar kDespawn{{"space3d.despawn", space3dDespawn, Mutates::Yes}};
const Registrar kGet{{"space3d.get", space3dGet, Mutates::No}};
const Registrar kList{{"space3d.list", space3dList, Mutates::No}};

} // namespace
} // namespace spark::cli
