#pragma once
/// \file session_state.h
/// Everything one session owns: the 3D scene's runtime world (objects, its
/// navigation world, its AI state), the detached state used when there is no
/// 3D scene (2D meshes, AI documents), and the 2D scene document.
///
/// Commands change it in place: every operation validates before it writes, so
/// a failed command changes nothing without a copy. A command made of several
/// steps (a scenario) takes a `save()` snapshot first and `restore()`s it on
/// failure; snapshots share the immutable baked meshes.

#include "spark/ai/brain.h"
#include "spark/core/hash.h"
#include "spark/nav/nav_world.h"
#include "spark/scene/scene2d.h"
#include "spark/scene/world.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "spark/core/export.h"
SPARK_SCENE_API_BEGIN

namespace spark::scene
{

/// A saved session (see `SessionState::save`).
struct SessionSnapshot
{
    WorldState space;                  ///< The 3D world.
    nav::NavWorldState detachedNav;    ///< The detached navigation world.
    ai::AiState detachedAi;            ///< The detached AI state.
    std::optional<Scene2D> scene2d;    ///< The 2D scene.
    HostAgents detachedAgents;         ///< Named detached agents (brains' bodies).
    std::map<std::string, WorldState> snapshots; ///< Named 3D snapshots.
};

/// Most named 3D snapshots a session keeps (`space3d.snapshot.take`).
inline constexpr size_t kMaxSnapshots = 64;
/// Most memory the named snapshots of a session hold in all, as estimated by
/// `approximateStateBytes` (a 100,000-object scene is about 100 MiB). [Units: bytes]
inline constexpr size_t kMaxSnapshotBytes = size_t{1} << 30;

/// The memory a saved world state holds, estimated from its contents: the
/// objects (document, indexes, the document as loaded), the journal, the scene
/// and AI event logs, brains, trees, agents, obstacles and links. Baked and
/// carved meshes are shared between states and not counted. Deterministic (it
/// reads sizes, never the allocator). O(objects + brains + events). [Units: bytes]
size_t approximateStateBytes(const WorldState& state);

/// The state of one session.
struct SessionState
{
    World space;                    ///< The 3D scene's world (`space.hasScene()` once made or loaded).
    nav::NavWorld detachedNav;      ///< Meshes when there is no 3D scene (2D and polygon bakes).
    ai::AiState detachedAi;         ///< AI documents and brains when there is no 3D scene.
    HostAgents detachedAgents;      ///< Detached crowd agents that brains drive, by name (the agent's number).
    std::optional<Scene2D> scene2d; ///< The session's 2D tile scene (scene2d.*), when one was made or loaded.
    std::map<std::string, WorldState> snapshots; ///< Named snapshots of the 3D world (`space3d.snapshot.take`).
    uint64_t commandsRun = 0;       ///< Successful mutating commands so far (diagnostics only, not hashed).
    /// Told about every frame either world steps (`observeFrames`; not state).
    FrameObserver* frameObserver = nullptr;

    /// Sets the observer of every frame stepped, the 3D world's and the detached state's (null: none).
    void observeFrames(FrameObserver* observer)
    {
        frameObserver = observer;
        space.setFrameObserver(observer);
    }

    /// The navigation world commands address: the 3D scene's when there is one, else the detached one.
    nav::NavWorld& nav() { return space.hasScene() ? space.nav() : detachedNav; }
    /// The navigation world commands address.
    const nav::NavWorld& nav() const { return space.hasScene() ? space.nav() : detachedNav; }
    /// The AI state commands address: the 3D scene's when there is one, else the detached one.
    ai::AiState& ai() { return space.hasScene() ? space.ai() : detachedAi; }
    /// The AI state commands address.
    const ai::AiState& ai() const { return space.hasScene() ? space.ai() : detachedAi; }

    /// The named agents brains drive: the 3D scene's when there is one, else the detached ones.
    HostAgents& agents() { return space.hasScene() ? space.agentsForBrains() : detachedAgents; }
    /// Steps the detached state `frames` times by `dt`: brains due tick
    /// (agent-name order, against the detached navigation world; line of sight
    /// is a ray along the mesh), then the crowds steer. Answers the AI figures.
    /// `dt` must be finite and in (0, 1] (checked by the caller). Polls the current work
    /// control between frames: a stopped step changes nothing and says so in
    /// `stoppedBeforeFrame`.
    StepAiFigures stepDetached(uint32_t frames, double dt, const ai::LeafRegistry& leaves);

    /// The whole state as a value (baked meshes shared).
    SessionSnapshot save() const;
    /// Brings back a snapshot taken by `save`.
    void restore(SessionSnapshot snapshot);
    /// Hash of everything `save` keeps (the transaction tests compare it before
    /// and after a failed command).
    uint64_t hash() const;
};

} // namespace spark::scene
SPARK_SCENE_API_END
