// The session state: snapshot, restore and hash of everything a session owns.

#include "spark/scene/session_state.h"

#include "spark/core/work.h"

#include <optional>

namespace spark::scene
{

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
    }
    return figures;
}

} // namespace spark::scene
