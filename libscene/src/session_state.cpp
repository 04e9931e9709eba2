// The session state: snapshot, restore and hash of everything a session owns.

#include "spark/scene/session_state.h"

#include "spark/core/work.h"
#include "spark/scene/recording.h"

#include <optional>

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
    for (const auto& [name, brain] : ai.brains)
        bytes += sizeof(ai::Brain) + kNode + 2 * name.capacity() + brain.nodes.byteSize() + brain.blackboard.size() * 64;
    bytes += ai.events.events.size() * (sizeof(ai::AiEvent) + 64);
    return bytes;
}

SessionSnapshot SessionState::save() const
{
    return SessionSnapshot{space.saveState(), detachedNav.saveState(), detachedAi, scene2d, detachedAgents, snapshots};
}

void SessionState::restore(SessionSnapshot snapshot)
{
    space.restoreState(std::move(snapshot.space));
    detachedNav.restoreState(std::move(snapshot.detachedNav));
    detachedAi = std::move(snapshot.detachedAi);
    scene2d = std::move(snapshot.scene2d);
    detachedAgents = std::move(snapshot.detachedAgents);
    snapshots = std::move(snapshot.snapshots);
}

uint64_t SessionState::hash() const
{
    Hasher h;
    h.addString("session/1");
    space.hashState(h);
    detachedNav.hashState(h);
    h.addU64(ai::hashAiState(detachedAi));
    hashHostAgents(h, detachedAgents);
    h.addBool(scene2d.has_value());
    if (scene2d)
        h.addU64(hashScene2D(*scene2d));
    // Snapshots by name and the hash of the world each keeps.
    h.addU64(snapshots.size());
    for (const auto& [name, state] : snapshots)
    {
        h.addString(name);
        World probe;
        probe.restoreState(state);
        h.addU64(probe.hashState());
    }
    return h.digest();
}

StepAiFigures SessionState::stepDetached(uint32_t frames, double dt, const ai::LeafRegistry& leaves)
{
    // Safe points between frames (spark/core/work.h); a stopped step restores what it
    // saved (only when stopping is possible and there is more than one frame to undo).
    struct Detached
    {
        nav::NavWorldState nav;
        ai::AiState ai;
        HostAgents agents;
    };
    std::optional<Detached> start;
    if (frames > 1 && workCancellable())
        start = Detached{detachedNav.saveState(), detachedAi, detachedAgents};
    StepAiFigures figures;
    for (uint32_t f = 0; f < frames; ++f)
    {
        if (!workCheckpoint("frames", f, frames))
        {
            if (start)
            {
                detachedNav.restoreState(std::move(start->nav));
                detachedAi = std::move(start->ai);
                detachedAgents = std::move(start->agents);
            }
            StepAiFigures stopped;
            stopped.stoppedBeforeFrame = f + 1;
            return stopped;
        }
        // Agents whose crowd agent is gone lose their brain.
        for (auto it = detachedAgents.begin(); it != detachedAgents.end();)
        {
            if (detachedNav.agent(it->second.agent))
            {
                ++it;
                continue;
            }
            detachedAi.brains.erase(it->first);
            it = detachedAgents.erase(it);
        }
        if (!detachedAi.brains.empty())
        {
            uint64_t before = 0, after = 0;
            for (const auto& [name, brain] : detachedAi.brains)
                before += brain.ticks;
            const uint64_t eventsBefore = detachedAi.events.nextSeq;
            AiHost host(detachedNav, detachedAgents, nullptr);
            ai::stepBrains(detachedAi, host, ai::TickClock{detachedNav.crowdSteps(), dt}, leaves);
            for (const auto& [name, brain] : detachedAi.brains)
                after += brain.ticks;
            figures.brainsTicked += after - before;
            figures.events += detachedAi.events.nextSeq - eventsBefore;
        }
        (void)detachedNav.stepCrowds(dt);
        updateHeadings(detachedNav, detachedAgents);
        if (frameObserver)
            frameObserver->frameStepped({detachedNav, detachedAi, detachedAgents, nullptr, detachedNav.crowdSteps(), dt});
    }
    return figures;
}

} // namespace spark::scene
