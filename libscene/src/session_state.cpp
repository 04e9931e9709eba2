// The session state: snapshot, restore and hash of everything a session owns.

#include "spark/scene/session_state.h"

namespace spark::scene
{

namespace
{

size_t objectBytes(const Object3D& o)
{
    size_t bytes = sizeof(Object3D) + o.name.capacity();
    if (o.model)
        bytes += o.model->path.capacity();
    if (o.aiAgent)
        bytes += sizeof(AiAgent) + o.aiAgent->mesh.capacity() + o.aiAgent->blackboard.size() * 64;
    return bytes;
}

} // namespace

size_t approximateStateBytes(const WorldState& state)
{
    // Each figure is what the container holds plus a map node's or a string's overhead.
    constexpr size_t kNode = 48;
    size_t bytes = sizeof(WorldState);
    for (const Object3D& o : state.objects.document.objects)
        bytes += objectBytes(o) + sizeof(ObjectId) + sizeof(uint64_t) + 1 + sizeof(ObjectMotion) + kNode +
                 sizeof(std::string) + o.name.capacity();
    for (const Object3D& o : state.base.objects)
        bytes += objectBytes(o);
    for (const JournalEntry& e : state.journal)
        bytes += sizeof(JournalEntry) + e.command.capacity() + e.params.capacity();
    for (const SceneEvent& e : state.events)
        bytes += sizeof(SceneEvent) + e.kind.capacity() + e.object.capacity() + e.message.capacity();
    bytes += state.nav.agents.size() * (sizeof(nav::CrowdAgent) + 512) + state.nav.obstacles.size() * sizeof(nav::WorldObstacle) +
             state.nav.links.size() * sizeof(nav::WorldLink) + state.nav.meshes.size() * (sizeof(nav::WorldMesh) + kNode);
    for (const auto& [name, agent] : state.agents)
        bytes += sizeof(HostAgent) + kNode + 2 * name.capacity();
    const ai::AiState& ai = state.ai;
    for (const auto& [name, tree] : ai.trees)
        bytes += sizeof(ai::CompiledTree) + kNode + tree.nodes.size() * sizeof(ai::Node) +
                 tree.children.size() * sizeof(uint32_t) + tree.keys.size() * sizeof(std::string);
    for (const ai::Brain& brain : ai.brains)
        bytes += sizeof(ai::Brain) + kNode + 2 * brain.agent.capacity() + brain.nodes.byteSize() +
                 brain.blackboard.size() * 64;
    bytes += ai.events.events.size() * (sizeof(ai::AiEvent) + 64);
    return bytes;
}

WorldSnapshot::WorldSnapshot(const World& world)
    : m_state(std::make_shared<const WorldState>(world.saveState())), m_hash(world.hashState())
{
}

SessionSnapshot SessionState::save() const
{
    return SessionSnapshot{world.saveState(), scene2d, snapshots};
}

void SessionState::restore(SessionSnapshot snapshot)
{
    world.restoreState(std::move(snapshot.world));
    scene2d = std::move(snapshot.scene2d);
    snapshots = std::move(snapshot.snapshots);
}

uint64_t SessionState::hash() const
{
    Hasher h;
    h.addString("session/2");
    world.hashState(h);
    h.addBool(scene2d.has_value());
    if (scene2d)
        h.addU64(hashScene2D(*scene2d));
    // Snapshots by name and the hash of the world each keeps (taken with it).
    h.addU64(snapshots.size());
    for (const auto& [name, snapshot] : snapshots)
    {
        h.addString(name);
        h.addU64(snapshot.hash());
    }
    return h.digest();
}

} // namespace spark::scene
