// space3d.new, space3d.load, space3d.save, space3d.spawn, space3d.despawn,
// space3d.get, space3d.list: the session's 3D scene document (docs/scene.md), the
// input of `nav.bake` with `source: "space3d"`. The document itself is
// libscene's (world_document.h); these handlers only move it between files, params and
// answers.

#include "commands/space3d/space3d_common.h"
#include "surface/registry.h"

#include "spark/core/hash.h"
#include "spark/core/path.h"
#include "spark/scene/world_document.h"
#include "spark/scene/scene_colliders.h"
#include "spark/scene/world.h"

#include <optional>
#include <string>
#include <utility>

namespace spark::cli
{
/// This file's own namespace: the unity build puts several command files in one
/// translation unit, where their unnamed namespaces would be one.
namespace space3d_commands
{
namespace
{

using scene::Object3D;
using scene::ObjectId;
using scene::WorldDocument;
using scene::World;

json summary(const World& world)
{
    return {{"objects", world.objectCount()}, {"hash", hashToHex(world.sceneHash())}};
}

json gravityJson(const World& world)
{
    const nlohmann::ordered_json g = scene::worldDocumentToJson(WorldDocument{world.gravity(), {}})["gravity"];
    return json(g);
}

/// The first model path of `o` (Model.path, or a shape's model) that leaves the
/// project: its field under `componentsPointer` and the containment error; null when all stay inside.
std::optional<std::pair<std::string, Error>> modelPathOutside(const Context& ctx, const Object3D& o,
                                                              const std::string& componentsPointer)
{
    auto check = [&](const std::string& path, const char* field) -> std::optional<std::pair<std::string, Error>> {
        if (path.empty())
            return std::nullopt;
        auto resolved = resolveInProject(ctx.projectRoot, path);
        if (resolved.ok())
            return std::nullopt;
        return std::make_pair(componentsPointer + field, resolved.error());
    };
    if (o.model)
        if (auto bad = check(o.model->path, "/Model/path"))
            return bad;
    if (o.body)
        if (auto bad = check(o.body->shape.model, "/Body/shape/model"))
            return bad;
    return std::nullopt;
}

/// Replaces the session's 3D world with one built from `scene` (the scene's
/// navigation and AI state start empty, docs/scene.md; its snapshots go with it).
void loadWorld(Context& ctx, WorldDocument scene, std::string_view field)
{
    const Status st = ctx.state.world.loadScene(std::move(scene));
    if (!st.ok())
        failWith(st.error(), field);
    ctx.state.snapshots.clear();
    // The physics reads model shapes from the project.
    ctx.state.world.setModelLoader(scene::makeObjModelLoader(ctx.projectRoot));
}

json space3dNew(Context& ctx, const json& params)
{
    WorldDocument s;
    if (params.contains("gravity"))
    {
        const json& g = params["gravity"];
        s.gravity = {g[0].get<float>(), g[1].get<float>(), g[2].get<float>()};
    }
    loadWorld(ctx, std::move(s), {});
    json out = summary(ctx.state.world);
    out["gravity"] = gravityJson(ctx.state.world);
    return out;
}

json space3dLoad(Context& ctx, const json& params)
{
    const std::string rel = params.at("path").get<std::string>();
    const auto path = ctx.resolvePath(rel, "/path");
    auto loaded = scene::loadWorldDocumentFile(path);
    if (!loaded.ok())
    {
        const Error& e = loaded.error();
        // Errors inside the document name the field in the file, not in the params.
        json data = {{"path", "/path"}, {"file", rel}};
        if (!e.field.empty())
            data["field"] = e.field;
        fail(e.code, e.message, std::move(data), e.hint);
    }
    for (size_t i = 0; i < loaded.value().objects.size(); ++i)
        if (auto bad = modelPathOutside(ctx, loaded.value().objects[i], "/objects/" + std::to_string(i) + "/components"))
            fail("E_PATH", "a model path leaves the project: " + bad->second.message,
                 {{"path", "/path"}, {"file", rel}, {"field", bad->first}},
                 "model paths are relative to the project folder and stay inside it");
    loadWorld(ctx, std::move(loaded.value()), {});
    json out = summary(ctx.state.world);
    out["path"] = rel;
    out["gravity"] = gravityJson(ctx.state.world);
    return out;
}

json space3dSave(Context& ctx, const json& params)
{
    const World& world = requireScene(ctx);
    const std::string rel = params.at("path").get<std::string>();
    const auto path = ctx.resolvePath(rel, "/path");
    const Status st = scene::saveWorldDocumentFile(path, world.document());
    if (!st.ok())
        fail(st.error().code, st.error().message, {{"path", "/path"}, {"file", rel}});
    json out = summary(world);
    out["path"] = rel;
    return out;
}

json space3dSpawn(Context& ctx, const json& params)
{
    World& world = requireScene(ctx);
    const std::string name = params.at("name").get<std::string>();
    auto object = scene::parseObject3D(name, params.value("components", json::object()), "/components");
    if (!object.ok())
        failWith(object.error());
    if (auto bad = modelPathOutside(ctx, object.value(), "/components"))
        fail("E_PATH", "a model path leaves the project: " + bad->second.message, {{"path", bad->first}},
             "model paths are relative to the project folder and stay inside it");
    auto spawned = world.spawn(std::move(object.value()));
    if (!spawned.ok())
        failWith(spawned.error());
    json out = summary(world);
    out["name"] = name;
    return out;
}

json space3dDespawn(Context& ctx, const json& params)
{
    World& world = requireScene(ctx);
    const std::string name = params.at("name").get<std::string>();
    const Status st = world.despawn(requireObject(world, name));
    if (!st.ok())
        failWith(st.error());
    json out = summary(world);
    out["name"] = name;
    return out;
}

json space3dGet(Context& ctx, const json& params)
{
    const World& world = requireScene(ctx);
    const std::string name = params.at("name").get<std::string>();
    const Object3D& o = *world.object(requireObject(world, name));
    return {{"name", o.name}, {"components", json(scene::componentsToJson(o))}};
}

json space3dList(Context& ctx, const json&)
{
    const World& world = requireScene(ctx);
    json objects = json::array();
    for (const Object3D& o : world.document().objects)
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
    return {{"count", world.objectCount()},
            {"hash", hashToHex(world.sceneHash())},
            {"gravity", gravityJson(world)},
            {"objects", std::move(objects)}};
}

const Registrar kNew{
    {"space3d.new", space3dNew, Mutates::Yes, nullptr, {.destructive = true, .idempotent = true}}};
const Registrar kLoad{
    {"space3d.load", space3dLoad, Mutates::Yes, nullptr, {.destructive = true, .idempotent = true}}};
const Registrar kSave{{"space3d.save",
                       space3dSave,
                       Mutates::No,
                       nullptr,
                       {.destructive = true, .idempotent = true, .writesFiles = true}}};
const Registrar kSpawn{{"space3d.spawn", space3dSpawn, Mutates::Yes}};
const Registrar kDespawn{
    {"space3d.despawn", space3dDespawn, Mutates::Yes, nullptr, {.destructive = true, .idempotent = true}}};
const Registrar kGet{{"space3d.get", space3dGet, Mutates::No}};
const Registrar kList{{"space3d.list", space3dList, Mutates::No}};

} // namespace
} // namespace space3d_commands
} // namespace spark::cli
