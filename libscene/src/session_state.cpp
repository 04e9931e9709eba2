// The session state: snapshot, restore and hash of everything a session owns.

#include "spark/scene/session_state.h"

namespace spark::scene
{

SessionSnapshot SessionState::save() const
{
    return SessionSnapshot{space.saveState(), detachedNav.saveState(), detachedAi, scene2d, snapshots};
}

void SessionState::restore(SessionSnapshot snapshot)
{
    space.restoreState(std::move(snapshot.space));
    detachedNav.restoreState(std::move(snapshot.detachedNav));
    detachedAi = std::move(snapshot.detachedAi);
    scene2d = std::move(snapshot.scene2d);
    snapshots = std::move(snapshot.snapshots);
}

uint64_t SessionState::hash() const
{
    Hasher h;
    h.addString("session/1");
    space.hashState(h);
    detachedNav.hashState(h);
    h.addU64(ai::hashAiState(detachedAi));
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

} // namespace spark::scene
