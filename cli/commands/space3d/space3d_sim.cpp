// space3d.step, space3d.character.move, space3d.raycast, space3d.hash,
// space3d.snapshot.take / restore / save / load, space3d.determinism.check:
// the 3D scene as a simulation (docs/scene.md). The world (libscene's World) does
// the work; these handlers translate params and answers.

#include "surface/dispatcher.h"
#include "commands/space3d/space3d_common.h"
#include "surface/registry.h"

#include "spark/core/hash.h"
#include "spark/core/path.h"
#include "spark/core/text.h"
#include "spark/scene/world_document.h"
#include "spark/scene/scene_colliders.h"
#include "spark/scene/world.h"

#include <string>
#include <vector>

namespace spark::cli
{
/// This file's own namespace: the unity build puts several command files in one
/// translation unit, where their unnamed namespaces would be one.
namespace space3d_sim_commands
{
namespace
{

using scene::ObjectId;
using scene::World;

glm::vec3 vec3Of(const json& v) { return {v[0].get<float>(), v[1].get<float>(), v[2].get<float>()}; }

json vecJson(const glm::dvec3& v) { return json::array({v.x + 0.0, v.y + 0.0, v.z + 0.0}); } // + 0.0 folds -0

json physicsJson(const World& world)
{
    const scene::PhysicsInfo p = world.physicsInfo();
    return {{"static_shapes", p.staticShapes}, {"kinematic", p.kinematicBodies}, {"dynamic", p.dynamicBodies},
            {"sleeping", p.sleepingBodies},    {"characters", p.characters},     {"approximated_models", p.approximatedModels}};
}

json hashesJson(const World& world)
{
    return {{"hash", hashToHex(world.hashState())},
            {"scene_hash", hashToHex(world.sceneHash())},
            {"physics_hash", hashToHex(world.physicsHash())},
            {"nav_hash", hashToHex(world.nav().hashState())},
            {"ai_hash", hashToHex(ai::hashAiState(world.ai()))},
            {"frame", world.frame()},
            {"time", static_cast<double>(world.frame()) * scene::kFixedStep}};
}

json space3dStep(Context& ctx, const json& params)
{
    World& world = requireScene(ctx);
    const uint32_t frames = params.value("frames", 1u);
    // Validated here so a bad count changes nothing; the steps themselves cannot fail.
    if (frames == 0 || frames > scene::kMaxStepFrames)
        fail("E_SCENE_RANGE", "frames must be in 1..100000", {{"path", "/frames"}});
    const Status st = world.stepFrames(frames);
    if (!st.ok())
        failWith(st.error());
    json out = hashesJson(world);
    out["frames"] = frames;
    out["physics"] = physicsJson(world);
    return out;
}

json space3dCharacterMove(Context& ctx, const json& params)
{
    World& world = requireScene(ctx);
    const std::string name = params.at("object").get<std::string>();
    const ObjectId id = requireObject(world, name, "/object");
    const Status st = world.moveCharacter(id, vec3Of(params.at("velocity")), params.value("jump", false));
    if (!st.ok())
        failWith(st.error());
    const scene::ObjectMotion& m = *world.motion(id);
    return {{"object", name},
            {"velocity", vecJson(m.character.wanted)},
            {"jump", m.character.jump},
            {"grounded", m.character.grounded}};
}

json space3dRaycast(Context& ctx, const json& params)
{
    const World& world = requireScene(ctx);
    std::vector<ObjectId> ignore;
    if (params.contains("ignore"))
    {
        const json& names = params["ignore"];
        for (size_t i = 0; i < names.size(); ++i)
            ignore.push_back(requireObject(world, names[i].get<std::string>(), "/ignore/" + std::to_string(i)));
    }
    auto hit = world.raycast(vec3Of(params.at("from")), vec3Of(params.at("to")), ignore);
    if (!hit.ok())
        failWith(hit.error());
    const scene::SceneRayHit& h = hit.value();
    json out = {{"hit", h.hit}, {"fraction", h.fraction}, {"point", vecJson(h.point)}, {"normal", vecJson(h.normal)}};
    out["object"] = h.hit ? json(world.object(h.object)->name) : json(nullptr);
    return out;
}

json space3dHash(Context& ctx, const json&)
{
    return hashesJson(requireScene(ctx));
}

const std::string& snapshotName(const json& params) { return params.at("name").get_ref<const std::string&>(); }

// The estimated memory of the kept snapshots, but for the one named `except`.
size_t snapshotBytes(const std::map<std::string, scene::WorldSnapshot>& store, const std::string& except)
{
    size_t total = 0;
    for (const auto& [name, snapshot] : store)
        if (name != except)
            total += scene::approximateStateBytes(snapshot.state());
    return total;
}

std::string mebibytes(size_t bytes) { return std::to_string((bytes + (1u << 19)) >> 20) + " MiB"; }

json space3dSnapshotTake(Context& ctx, const json& params)
{
    const World& world = requireScene(ctx);
    const std::string& name = snapshotName(params);
    auto& store = ctx.state.snapshots;
    if (!store.count(name) && store.size() >= scene::kMaxSnapshots)
        fail("E_SCENE_LIMIT", "a session keeps at most 64 snapshots", {{"path", "/name"}},
             "reuse a name to replace a snapshot, or drop one with space3d.snapshot.drop");
    // The copy is made first (one world's worth, dropped on refusal): its
    // estimate is what the store would keep.
    scene::WorldSnapshot snapshot(world);
    const size_t bytes = scene::approximateStateBytes(snapshot.state());
    const size_t others = snapshotBytes(store, name);
    const size_t limit = ctx.dispatcher->options().snapshotByteBudget;
    if (bytes > limit || others > limit - bytes)
        fail("E_SCENE_LIMIT",
             "snapshots would hold " + mebibytes(others + bytes) + ", past the limit of " + mebibytes(limit) +
                 " (this one " + mebibytes(bytes) + ")",
             {{"path", "/name"}, {"bytes", bytes}, {"kept_bytes", others}, {"limit_bytes", limit}},
             "drop snapshots you no longer need with space3d.snapshot.drop, or reuse a name to replace one");
    store.insert_or_assign(name, std::move(snapshot));
    json out = hashesJson(world);
    out["name"] = name;
    out["snapshots"] = store.size();
    out["bytes"] = bytes;
    out["kept_bytes"] = others + bytes;
    return out;
}

json space3dSnapshotDrop(Context& ctx, const json& params)
{
    const std::string& name = snapshotName(params);
    auto& store = ctx.state.snapshots;
    auto it = store.find(name);
    if (it == store.end())
    {
        json names = json::array();
        for (const auto& [n, unused] : store)
            names.push_back(n);
        fail("E_SCENE_UNKNOWN", "There is no snapshot named \"" + name + "\".", {{"path", "/name"}, {"snapshots", names}},
             "data.snapshots lists those kept");
    }
    store.erase(it);
    return {{"name", name}, {"snapshots", store.size()}, {"kept_bytes", snapshotBytes(store, std::string())}};
}

json space3dSnapshotRestore(Context& ctx, const json& params)
{
    const std::string& name = snapshotName(params);
    auto it = ctx.state.snapshots.find(name);
    if (it == ctx.state.snapshots.end())
    {
        json names = json::array();
        for (const auto& [n, unused] : ctx.state.snapshots)
            names.push_back(n);
        fail("E_SCENE_UNKNOWN", "There is no snapshot named \"" + name + "\".", {{"path", "/name"}, {"snapshots", names}},
             "space3d.snapshot.take makes one; data.snapshots lists those kept");
    }
    ctx.state.world.restoreState(it->second.state());
    json out = hashesJson(ctx.state.world);
    out["name"] = name;
    return out;
}

// The file of snapshot.save: the scene as made or loaded plus the journal.
json space3dSnapshotSave(Context& ctx, const json& params)
{
    const World& world = requireScene(ctx);
    const std::string rel = params.at("path").get<std::string>();
    const auto path = ctx.resolvePath(rel, "/path");
    json commands = json::array();
    for (const scene::JournalEntry& e : world.journal())
        commands.push_back({{"command", e.command}, {"params", json::parse(e.params)}, {"hash", hashToHex(e.hash)}});
    nlohmann::ordered_json doc;
    doc["version"] = 1;
    doc["kind"] = "spark.space3d.snapshot";
    doc["hash"] = hashToHex(world.hashState());
    doc["scene"] = scene::worldDocumentToJson(world.baseDocument());
    doc["commands"] = nlohmann::ordered_json(commands);
    const std::string text = doc.dump(1) + "\n";
    const Status st = writeTextFile(path, text);
    if (!st.ok())
        fail(st.error().code, st.error().message, {{"path", "/path"}, {"file", rel}}, st.error().hint);
    json out = hashesJson(world);
    out["path"] = rel;
    out["commands"] = world.journal().size();
    return out;
}

json space3dSnapshotLoad(Context& ctx, const json& params)
{
    const std::string rel = params.at("path").get<std::string>();
    const auto path = ctx.resolvePath(rel, "/path");
    FileReadDef readDef = defaultFileReadDef();
    readDef.maxBytes = scene::kMaxSceneFileBytes;
    readDef.limitCode = "E_SCENE_LIMIT";
    auto text = readTextFile(path, readDef);
    if (!text.ok())
        fail(text.error().code, text.error().message, {{"path", "/path"}, {"file", rel}}, text.error().hint);
    if (const Status checked = checkJsonText(text.value()); !checked.ok())
        fail("E_FORMAT", "snapshot file " + rel + ": " + checked.error().message, {{"path", "/path"}, {"file", rel}});
    auto formatError = [&](const std::string& message, const std::string& field) {
        fail("E_SCENE_FORMAT", "snapshot file " + rel + ": " + message, {{"path", "/path"}, {"file", rel}, {"field", field}},
             "snapshot files are written by space3d.snapshot.save");
    };
    json doc = json::parse(text.value(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        formatError("not a JSON object", "");
    if (doc.value("kind", "") != "spark.space3d.snapshot" || doc.value("version", 0) != 1)
        formatError("not a version 1 snapshot (kind spark.space3d.snapshot)", "/kind");
    if (!doc.contains("commands") || !doc["commands"].is_array())
        formatError("commands must be an array", "/commands");
    if (!doc.contains("hash") || !doc["hash"].is_string())
        formatError("hash must be a string", "/hash");
    auto parsed = scene::parseWorldDocument(doc.value("scene", json()));
    if (!parsed.ok())
        formatError(parsed.error().message, "/scene" + parsed.error().field);

    // Replay on a scratch session; the session changes only if every step agrees.
    scene::SessionState scratch;
    const Status loaded = scratch.world.loadScene(std::move(parsed.value()));
    if (!loaded.ok())
        formatError(loaded.error().message, "/scene" + loaded.error().field);
    scratch.world.setModelLoader(scene::makeObjModelLoader(ctx.projectRoot));
    const json& commands = doc["commands"];
    for (size_t i = 0; i < commands.size(); ++i)
    {
        const std::string at = "/commands/" + std::to_string(i);
        const json& c = commands[i];
        if (!c.is_object() || !c.contains("command") || !c["command"].is_string() || !c.contains("hash") ||
            !c["hash"].is_string())
            formatError("each command needs command, params and hash", at);
        const std::string id = c["command"].get<std::string>();
        if (id == "space3d.new" || id == "space3d.load" || id.rfind("space3d.snapshot.", 0) == 0)
            formatError("a snapshot replays no scene or snapshot loads", at + "/command");
        json answer = ctx.dispatcher->call(scratch, id, c.value("params", json::object()));
        if (!answer.value("ok", false))
            fail("E_SCENE_DIVERGED", "snapshot " + rel + ": step " + std::to_string(i) + " (" + id + ") failed on replay",
                 {{"path", "/path"}, {"file", rel}, {"step", i}, {"command", id}, {"error", answer["error"]}},
                 "the files it reads (models, trees) may have changed since it was saved");
        const std::string got = hashToHex(scratch.world.hashState());
        if (got != c["hash"].get<std::string>())
            fail("E_SCENE_DIVERGED",
                 "snapshot " + rel + ": step " + std::to_string(i) + " (" + id + ") gives another state on replay",
                 {{"path", "/path"}, {"file", rel}, {"step", i}, {"command", id}, {"expected", c["hash"]}, {"actual", got}},
                 "the files it reads (models, trees) may have changed since it was saved, or another spark version wrote it");
    }
    const std::string final = hashToHex(scratch.world.hashState());
    if (final != doc["hash"].get<std::string>())
        fail("E_SCENE_DIVERGED", "snapshot " + rel + ": the replayed state's hash differs from the saved one",
             {{"path", "/path"}, {"file", rel}, {"step", commands.size()}, {"expected", doc["hash"]}, {"actual", final}},
             "the file may have been edited");
    ctx.state.world.restoreState(scratch.world.saveState());
    ctx.state.world.setModelLoader(scene::makeObjModelLoader(ctx.projectRoot));
    json out = hashesJson(ctx.state.world);
    out["path"] = rel;
    out["commands"] = commands.size();
    return out;
}

json space3dDeterminismCheck(Context& ctx, const json& params)
{
    World& world = requireScene(ctx);
    const uint32_t frames = params.value("frames", 60u);
    if (frames == 0 || frames > scene::kMaxStepFrames)
        fail("E_SCENE_RANGE", "frames must be in 1..100000", {{"path", "/frames"}});
    const scene::WorldState start = world.saveState();
    std::vector<uint64_t> first;
    first.reserve(frames);
    for (uint32_t f = 0; f < frames; ++f)
    {
        (void)world.step(scene::kFixedStep);
        first.push_back(world.hashState());
    }
    world.restoreState(start);
    json differs = nullptr;
    for (uint32_t f = 0; f < frames; ++f)
    {
        (void)world.step(scene::kFixedStep);
        if (world.hashState() != first[f])
        {
            differs = f + 1;
            break;
        }
    }
    world.restoreState(start);
    return {{"passed", differs.is_null()},
            {"frames", frames},
            {"first_difference", differs},
            {"final_hash", hashToHex(first.back())},
            {"hash", hashToHex(world.hashState())}};
}

json space3dEvents(Context& ctx, const json& params)
{
    const World& world = requireScene(ctx);
    const uint64_t since = params.value("since", uint64_t{0});
    const std::string kind = params.value("kind", "");
    json events = json::array();
    for (const scene::SceneEvent& e : world.sceneEvents())
        if (e.seq >= since && (kind.empty() || e.kind == kind))
            events.push_back({{"seq", e.seq}, {"frame", e.frame}, {"kind", e.kind}, {"object", e.object}, {"message", e.message}});
    const auto all = world.sceneEvents();
    return {{"events", std::move(events)}, {"next", all.empty() ? 0 : all.back().seq + 1}};
}

const Registrar kStep{{"space3d.step", space3dStep, Mutates::Yes}};
const Registrar kEvents{{"space3d.events", space3dEvents, Mutates::No}};
const Registrar kCharacterMove{{"space3d.character.move", space3dCharacterMove, Mutates::Yes, nullptr, {.idempotent = true}}};
const Registrar kRaycast{{"space3d.raycast", space3dRaycast, Mutates::No}};
const Registrar kHash{{"space3d.hash", space3dHash, Mutates::No}};
const Registrar kTake{{"space3d.snapshot.take", space3dSnapshotTake, Mutates::Yes, nullptr, {.idempotent = true}}};
const Registrar kDrop{{"space3d.snapshot.drop", space3dSnapshotDrop, Mutates::Yes, nullptr, {.destructive = true}}};
const Registrar kRestore{
    {"space3d.snapshot.restore", space3dSnapshotRestore, Mutates::Yes, nullptr, {.destructive = true, .idempotent = true}}};
const Registrar kSnapSave{{"space3d.snapshot.save",
                           space3dSnapshotSave,
                           Mutates::No,
                           nullptr,
                           {.destructive = true, .idempotent = true, .writesFiles = true}}};
const Registrar kSnapLoad{
    {"space3d.snapshot.load", space3dSnapshotLoad, Mutates::Yes, nullptr, {.destructive = true, .idempotent = true}}};
const Registrar kDeterminism{{"space3d.determinism.check", space3dDeterminismCheck, Mutates::No}};

} // namespace
} // namespace space3d_sim_commands
} // namespace spark::cli
