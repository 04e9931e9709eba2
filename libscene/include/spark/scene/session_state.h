#pragma once
/// \file session_state.h
/// Everything one session owns: its world (objects, every navigation mesh 3D
/// and 2D, the AI state), the named snapshots of that world, and the 2D scene
/// document.
///
/// Commands change it in place: every operation validates before it writes, so
/// a failed command changes nothing without a copy. A command made of several
/// steps (a scenario) takes a `save()` snapshot first and `restore()`s it on
/// failure; snapshots share the immutable baked meshes.

#include "spark/core/hash.h"
#include "spark/scene/scene2d.h"
#include "spark/scene/world.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "spark/core/export.h"
SPARK_SCENE_API_BEGIN

namespace spark::scene
{

/// A named snapshot of a world (`space3d.snapshot.take`): its saved state and
/// its hash, both fixed when it is taken. A snapshot never changes, so copies
/// share the state, and a session's hash reads the kept hash instead of
/// restoring every snapshot into a world to hash it.
class WorldSnapshot
{
  public:
    /// The state of `world` now. O(world) (a copy and a hash).
    explicit WorldSnapshot(const World& world);
    /// The saved state (World::restoreState brings it back).
    const WorldState& state() const { return *m_state; }
    /// `World::hashState` of a world holding `state()`.
    uint64_t hash() const { return m_hash; }

  private:
    std::shared_ptr<const WorldState> m_state;
    uint64_t m_hash = 0;
};

/// A saved session (see `SessionState::save`).
struct SessionSnapshot
{
    WorldState world;                  ///< The world.
    std::optional<Scene2D> scene2d;    ///< The 2D scene.
    std::map<std::string, WorldSnapshot> snapshots; ///< Named snapshots of the world.
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
    World world;                    ///< The session's world (`world.hasScene()` once a 3D scene was made or loaded).
    std::optional<Scene2D> scene2d; ///< The session's 2D tile scene (scene2d.*), when one was made or loaded.
    std::map<std::string, WorldSnapshot> snapshots; ///< Named snapshots of the world (`space3d.snapshot.take`).
    uint64_t commandsRun = 0;       ///< Successful mutating commands so far (diagnostics only, not hashed).
    /// Told about every frame the world steps (`observeFrames`; not state).
    FrameObserver* frameObserver = nullptr;

    /// Sets the observer of every frame the world steps (null: none).
    void observeFrames(FrameObserver* observer)
    {
        frameObserver = observer;
        world.setFrameObserver(observer);
    }

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
