// The runtime world of a session: objects by handle with an ordered name
// index and per-object hashes, the navigation world and AI state, the one
// step in the stage order of docs/architecture.md "A step", and the state as one value.
//
// Mutations build what they write on the side and swap it in last, so an error
// return leaves the world as it was.

#include "spark/scene/world.h"

#include "spark/scene/recording.h"

#include <algorithm>
#include <cmath>

namespace spark::scene
{
namespace
{

Status checkName(std::string_view name, const std::string& field)
{
    if (name.empty())
        return makeError("E_SCENE_FORMAT", "an object needs a non-empty name", field);
    if (name.size() > kMaxSceneString)
        return makeError("E_SCENE_FORMAT", "object name too long (at most 1024 bytes)", field);
    return Status::success();
}

} // namespace

Status World::loadScene(WorldDocument scene)
{
    if (scene.objects.size() > kMaxSceneObjects)
        return makeError("E_SCENE_LIMIT", "too many objects (at most 100000)", "/objects");
    WorldObjects built;
    built.order.reserve(scene.objects.size());
    built.hashes.reserve(scene.objects.size());
    for (size_t i = 0; i < scene.objects.size(); ++i)
    {
        const Object3D& o = scene.objects[i];
        const std::string field = "/objects/" + std::to_string(i) + "/name";
        SPARK_TRY(checkName(o.name, field));
        if (built.byName.count(o.name))
            return makeError("E_SCENE_FORMAT", "duplicate object name \"" + o.name + "\"", field);
        const ObjectId id = built.positions.insert(static_cast<uint32_t>(i));
        built.byName.emplace(o.name, id);
        built.order.push_back(id);
        built.hashes.push_back(hashObject3D(o));
        built.stale.push_back(0);
    }
    built.motion.resize(scene.objects.size());
    WorldDocument base = scene;
    built.document = std::move(scene);
    // Commit: nothing below can fail.
    m_objects = std::move(built);
    m_nav = nav::NavWorld();
    m_ai = ai::AiState();
    m_agents.clear();
    m_events.clear();
    m_nextEventSeq = 0;
    m_frame = 0;
    m_hasScene = true;
    m_base = std::move(base);
    m_journal.clear();
    m_staticDirty = true;
    m_movingDirty = true;
    return Status::success();
}

Result<ObjectId> World::spawn(Object3D object)
{
    SPARK_TRY(checkName(object.name, "/name"));
    if (m_objects.byName.count(object.name))
        return makeError("E_SCENE_FORMAT", "an object named \"" + object.name + "\" already exists", "/name",
                         "despawn it first or pick another name");
    if (m_objects.order.size() >= kMaxSceneObjects)
        return makeError("E_SCENE_LIMIT", "the scene is full (at most 100000 objects)");
    const uint64_t hash = hashObject3D(object);
    std::string name = object.name;
    // Make room first (growing geometrically: reserving one more would copy
    // every object on every spawn) so the pushes below cannot throw halfway.
    auto room = [](auto& v) {
        if (v.size() == v.capacity())
            v.reserve(std::max<size_t>(16, v.capacity() * 2));
    };
    room(m_objects.document.objects);
    room(m_objects.order);
    room(m_objects.hashes);
    room(m_objects.stale);
    room(m_objects.motion);
    const ObjectId id = m_objects.positions.insert(static_cast<uint32_t>(m_objects.order.size()));
    m_objects.byName.emplace(std::move(name), id);
    m_objects.document.objects.push_back(std::move(object));
    m_objects.order.push_back(id);
    m_objects.hashes.push_back(hash);
    m_objects.stale.push_back(0);
    m_objects.motion.emplace_back();
    m_staticDirty = true;
    m_movingDirty = true;
    return id;
}

Status World::despawn(ObjectId object)
{
    const uint32_t* position = m_objects.positions.get(object);
    if (!position)
        return makeError("E_SCENE_UNKNOWN_OBJECT", "no such object (the handle is stale)");
    const uint32_t at = *position;
    // Its agent and brain go with it.
    if (auto agent = m_agents.find(m_objects.document.objects[at].name); agent != m_agents.end() &&
        (agent->second.fromComponent || agent->second.bound))
    {
        (void)m_nav.removeAgent(agent->second.agent);
        m_ai.brains.erase(agent->first);
        pushSceneEvent("agent_removed", agent->first, "its object was despawned");
        m_agents.erase(agent);
    }
    m_objects.byName.erase(m_objects.document.objects[at].name);
    m_objects.document.objects.erase(m_objects.document.objects.begin() + at);
    m_objects.order.erase(m_objects.order.begin() + at);
    m_objects.hashes.erase(m_objects.hashes.begin() + at);
    m_objects.stale.erase(m_objects.stale.begin() + at);
    m_objects.motion.erase(m_objects.motion.begin() + at);
    // What rested on the object may fall: every body wakes.
    for (ObjectMotion& m : m_objects.motion)
        m.body.sleeping = false, m.body.restFrames = 0;
    m_staticDirty = true;
    m_movingDirty = true;
    m_objects.positions.remove(object);
    for (size_t i = at; i < m_objects.order.size(); ++i)
        *m_objects.positions.get(m_objects.order[i]) = static_cast<uint32_t>(i);
    return Status::success();
}

ObjectId World::findObject(std::string_view name) const
{
    auto it = m_objects.byName.find(name);
    return it == m_objects.byName.end() ? ObjectId{} : it->second;
}

const Object3D* World::object(ObjectId object) const
{
    const uint32_t* position = m_objects.positions.get(object);
    return position ? &m_objects.document.objects[*position] : nullptr;
}

uint64_t World::sceneHash() const
{
    for (size_t i = 0; i < m_objects.stale.size(); ++i)
        if (m_objects.stale[i])
        {
            m_objects.hashes[i] = hashObject3D(m_objects.document.objects[i]);
            m_objects.stale[i] = 0;
        }
    return combineSceneHash(m_objects.document.gravity, m_objects.hashes);
}

Status World::step(double dt) { return step(dt, nullptr); }

Status World::step(double dt, StepObserver* observer)
{
    if (!std::isfinite(dt) || dt <= 0.0 || dt > kMaxStep)
        return makeError("E_SCENE_RANGE", "the step must be a finite time in (0, 1] seconds", "/dt");
    auto stage = [&](StepStage which, auto&& run) {
        if (observer)
            observer->begin(which);
        run();
        if (observer)
            observer->end(which);
    };
    stage(StepStage::Agents, [&] { createAgentsFromComponents(); });
    stage(StepStage::Obstacles, [&] { moveFollowingObstacles(); });
    stage(StepStage::Positions, [&] { readAgentPositions(); });
    stage(StepStage::Brains, [&] { tickBrains(dt); });
    stage(StepStage::Crowds, [&] { steerCrowds(dt); });
    stage(StepStage::Drive, [&] { driveObjects(dt); });
    stage(StepStage::Physics, [&] { stepPhysics(dt); });
    // Per-frame hooks (what must see every finished frame) go here, the one
    // place every step of every command passes.
    ++m_frame;
    if (m_frameObserver)
        m_frameObserver->frameStepped({m_nav, m_ai, m_agents, this, m_frame, dt});
    return Status::success();
}

// The AI stages are in world_ai.cpp, the physics stage in world_physics.cpp.

WorldState World::saveState() const
{
    WorldState s;
    s.hasScene = m_hasScene;
    s.objects = m_objects;
    s.nav = m_nav.saveState();
    s.ai = m_ai;
    s.agents = m_agents;
    s.events = m_events;
    s.nextEventSeq = m_nextEventSeq;
    s.frame = m_frame;
    s.base = m_base;
    s.journal = m_journal;
    return s;
}

void World::restoreState(WorldState state)
{
    m_hasScene = state.hasScene;
    m_objects = std::move(state.objects);
    m_nav.restoreState(std::move(state.nav));
    m_ai = std::move(state.ai);
    m_agents = std::move(state.agents);
    m_events = std::move(state.events);
    m_nextEventSeq = state.nextEventSeq;
    m_frame = state.frame;
    m_base = std::move(state.base);
    m_journal = std::move(state.journal);
    m_staticDirty = true;
    m_movingDirty = true;
}

void World::hashState(Hasher& io) const
{
    io.addString("world/1");
    io.addBool(m_hasScene);
    io.addU64(sceneHash());
    io.addU64(physicsHash());
    m_nav.hashState(io);
    io.addU64(ai::hashAiState(m_ai));
    hashHostAgents(io, m_agents);
    io.addU64(m_nextEventSeq);
    for (const SceneEvent& e : m_events)
    {
        io.addU64(e.seq);
        io.addU64(e.frame);
        io.addString(e.kind);
        io.addString(e.object);
        io.addString(e.message);
    }
    io.addU64(m_frame);
}

uint64_t World::hashState() const
{
    Hasher h;
    hashState(h);
    return h.digest();
}

} // namespace spark::scene
