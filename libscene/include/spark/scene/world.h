#pragma once
/// \file world.h
/// The runtime world of a 3D scene: built once from a `Scene3D` document, it
/// owns the objects (by `ObjectId`), the navigation world of the scene and its
/// AI state, steps them in the fixed stage order of SPEC §5, and saves,
/// restores and hashes all of it as one value (Jolt's state recorder is the
/// model: snapshots, determinism checks and rollback are one mechanism).
///
/// Objects keep document order (file order, then spawn order) for saving and
/// for every iteration; names are looked up through an ordered index, so
/// loading n objects costs O(n log n) and a name look-up O(log n). The scene
/// hash is kept incrementally: each object's hash is computed when it changes,
/// and the scene hash combines them in document order.
///
/// Every operation validates everything before it writes anything: an error
/// return leaves the world unchanged.

#include "spark/ai/brain.h"
#include "spark/core/handle_pool.h"
#include "spark/core/hash.h"
#include "spark/core/id.h"
#include "spark/core/result.h"
#include "spark/nav/nav_world.h"
#include "spark/scene/scene3d.h"

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace spark::scene
{

struct ObjectTag;
/// An object of a `World`.
using ObjectId = Id<ObjectTag>;

/// The fixed step of the simulation. [Units: s]
inline constexpr double kFixedStep = 1.0 / 60.0;
/// Longest step `World::step` accepts. [Units: s]
inline constexpr double kMaxStep = 1.0;

/// The objects of a world: the document plus its indexes (a plain value).
struct WorldObjects
{
    Scene3D document;                                     ///< Objects in document order.
    std::vector<ObjectId> order;                          ///< Handle of each object, parallel to `document.objects`.
    std::vector<uint64_t> hashes;                         ///< `hashObject3D` of each object, parallel.
    HandlePool<ObjectTag, uint32_t> positions;            ///< Handle → index in `document.objects`.
    std::map<std::string, ObjectId, std::less<>> byName;  ///< Name → handle.
};

/// Everything a `World` saves, restores and hashes.
struct WorldState
{
    bool hasScene = false;      ///< A scene was made or loaded.
    WorldObjects objects;       ///< The objects.
    nav::NavWorldState nav;     ///< The scene's navigation world.
    ai::AiState ai;             ///< The scene's AI state.
    uint64_t frame = 0;         ///< Steps taken since the scene was made or loaded.
};

/// The runtime world of one 3D scene.
class World
{
public:
    /// A world with no scene (`hasScene()` false), empty navigation and AI.
    World() = default;

    // -- The scene --------------------------------------------------------------

    /// Replaces the objects with those of `scene` and drops the navigation and AI
    /// state (SPEC §5: a new scene starts without them); the frame restarts at 0.
    /// Errors (nothing changes): `E_SCENE_FORMAT` for an empty, too long or
    /// duplicate name (field `/objects/i/name`), `E_SCENE_LIMIT` for too many objects.
    [[nodiscard]] Status loadScene(Scene3D scene);
    /// True once a scene was made or loaded.
    bool hasScene() const { return m_hasScene; }
    /// The scene document (objects in document order). Valid until the next change.
    const Scene3D& document() const { return m_objects.document; }
    /// Gravity of the scene. [Units: m/s²]
    glm::vec3 gravity() const { return m_objects.document.gravity; }

    // -- Objects ------------------------------------------------------------------

    /// Adds an object at the end of the document order. Errors (nothing changes):
    /// `E_SCENE_FORMAT` (field `/name`) for an empty, too long or taken name,
    /// `E_SCENE_LIMIT` when the scene holds `kMaxSceneObjects`.
    [[nodiscard]] Result<ObjectId> spawn(Object3D object);
    /// Removes an object. `E_SCENE_UNKNOWN_OBJECT` for a stale handle.
    [[nodiscard]] Status despawn(ObjectId object);
    /// The object named `name`, or a null handle. O(log n).
    ObjectId findObject(std::string_view name) const;
    /// The object of a handle, or null when the handle is stale.
    const Object3D* object(ObjectId object) const;
    /// Number of objects.
    size_t objectCount() const { return m_objects.order.size(); }
    /// Every object's handle, in document order.
    std::span<const ObjectId> objectsInOrder() const { return m_objects.order; }
    /// Hash of the scene document: equal to `hashScene3D(document())`, computed
    /// from the kept per-object hashes in O(objects).
    uint64_t sceneHash() const;

    // -- Navigation and AI -------------------------------------------------------

    /// The scene's navigation world.
    nav::NavWorld& nav() { return m_nav; }
    /// The scene's navigation world.
    const nav::NavWorld& nav() const { return m_nav; }
    /// The scene's AI state (trees, utility documents, brains, event log).
    ai::AiState& ai() { return m_ai; }
    /// The scene's AI state.
    const ai::AiState& ai() const { return m_ai; }

    // -- Stepping ----------------------------------------------------------------

    /// Advances the world by `dt` seconds in the fixed order of SPEC §5 (see the
    /// stage functions below). `E_SCENE_RANGE` for a step that is not finite,
    /// not positive or longer than `kMaxStep` (nothing changes); `E_SCENE_NONE`
    /// when there is no scene.
    [[nodiscard]] Status step(double dt);
    /// Steps taken since the scene was made or loaded.
    uint64_t frame() const { return m_frame; }

    // -- State ---------------------------------------------------------------------

    /// The whole state as a value (meshes shared, not copied).
    WorldState saveState() const;
    /// Brings back a state saved by `saveState` (of this or another world).
    void restoreState(WorldState state);
    /// Feeds the whole state canonically into `io`: the scene hash, the
    /// navigation world, the AI state and the frame.
    void hashState(Hasher& io) const;
    /// XXH3-64 of `hashState`.
    uint64_t hashState() const;

private:
    // The stages of one step, in SPEC §5's order. Those whose parts have not
    // landed yet do nothing; each later part fills its own.
    void createAgentsFromComponents(); ///< AiAgent components become crowd agents with brains.
    void moveFollowingObstacles();     ///< Obstacles with `follow` move to their objects.
    void readAgentPositions();         ///< Agents learn where their objects really are.
    void tickBrains(double dt);        ///< Brains tick in agent-name order, every `period` steps.
    void steerCrowds(double dt);       ///< Crowds steer, in mesh-name order.
    void driveObjects(double dt);      ///< Characters get the crowd velocity, others their transform.
    void stepPhysics(double dt);       ///< Physics moves everything.

    bool m_hasScene = false;
    WorldObjects m_objects;
    nav::NavWorld m_nav;
    ai::AiState m_ai;
    uint64_t m_frame = 0;
};

} // namespace spark::scene
