#pragma once
/// \file world.h
/// The runtime world of a session: it owns the objects of a `WorldDocument`
/// document (by `ObjectId`), the navigation world (3D and 2D meshes alike) and
/// the AI state, steps them in the fixed stage order of docs/architecture.md "A step", and saves,
/// restores and hashes all of it as one value (Jolt's state recorder is the
/// model: snapshots, determinism checks and rollback are one mechanism).
///
/// A world always exists: one with no objects is an empty scene, and a 2D or
/// polygon mesh, its crowds and their brains live in it like any other. Its
/// one `step` runs every stage; a stage with nothing to do (no objects, no
/// crowd agents, no brains) does nothing.
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
#include "spark/ai/leaf_registry.h"
#include "spark/scene/ai_host.h"
#include "spark/core/handle_pool.h"
#include "spark/core/hash.h"
#include "spark/core/id.h"
#include "spark/core/result.h"
#include "spark/nav/nav_world.h"
#include "spark/scene/physics.h"
#include "spark/scene/world_document.h"
#include "spark/scene/scene_colliders.h"

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "spark/core/export.h"
SPARK_SCENE_API_BEGIN

namespace spark::scene
{

struct ObjectTag;
/// An object of a `World`.
using ObjectId = Id<ObjectTag>;

/// The fixed step of the simulation. [Units: s]
inline constexpr double kFixedStep = 1.0 / 60.0;
/// Longest step `World::step` accepts. [Units: s]
inline constexpr double kMaxStep = 1.0;

/// What the physics carries from step to step for one object (zero for
/// objects that do not move).
struct ObjectMotion
{
    physics::CharacterMotion character; ///< For objects with a CharacterController.
    physics::BodyMotion body;           ///< For dynamic bodies.
};

/// The objects of a world: the document plus its indexes (a plain value).
struct WorldObjects
{
    WorldDocument document;                                     ///< Objects in document order.
    std::vector<ObjectId> order;                          ///< Handle of each object, parallel to `document.objects`.
    /// `hashObject3D` of each object, parallel; an entry whose `stale` flag is
    /// set is recomputed when the scene hash is next asked for (objects moved
    /// by a step are re-hashed once per question, not once per step).
    mutable std::vector<uint64_t> hashes;
    mutable std::vector<uint8_t> stale;                   ///< 1 where `hashes` is out of date, parallel.
    std::vector<ObjectMotion> motion;                     ///< Physics state of each object, parallel.
    HandlePool<ObjectTag, uint32_t> positions;            ///< Handle → index in `document.objects`.
    std::map<std::string, ObjectId, std::less<>> byName;  ///< Name → handle.
};

/// One command that changed the scene since it was made or loaded, as the
/// host logged it (the host's command text; libscene does not read it).
struct JournalEntry
{
    std::string command;   ///< Command id, e.g. `nav.bake`.
    std::string params;    ///< Its params as the host wrote them.
    uint64_t hash = 0;     ///< `World::hashState` right after it.
};

/// Something the scene noticed while stepping (kept in order, hashed).
struct SceneEvent
{
    uint64_t seq = 0;     ///< Position in the log, from 0.
    uint64_t frame = 0;   ///< Frame of the step that recorded it.
    std::string kind;     ///< `ai_error`, `agent_created`, `agent_removed`.
    std::string object;   ///< The object it concerns.
    std::string message;  ///< What happened.
};

/// Most scene events kept (older ones are dropped; `seq` keeps counting).
inline constexpr size_t kMaxSceneEvents = 4096;

/// The AI part of the last step.
struct StepAiFigures
{
    uint64_t brainsTicked = 0; ///< Brain ticks in the step(s).
    uint64_t events = 0;       ///< AI events recorded in the step(s).
    /// Non-zero when the work was stopped (spark/core/work.h) before this frame (1-based);
    /// then nothing changed and the figures are zero.
    uint32_t stoppedBeforeFrame = 0;
};

/// Everything a `World` saves, restores and hashes.
struct WorldState
{
    bool hasScene = false;      ///< A scene was made or loaded.
    WorldObjects objects;       ///< The objects.
    nav::NavWorldState nav;     ///< The scene's navigation world.
    ai::AiState ai;             ///< The scene's AI state.
    HostAgents agents;          ///< Agents of AiAgent components, by object name.
    std::vector<SceneEvent> events; ///< The scene's event log.
    uint64_t nextEventSeq = 0;  ///< Sequence number of the next scene event.
    uint64_t frame = 0;         ///< Steps taken since the scene was made or loaded.
    WorldDocument base;               ///< The document as made or loaded (the journal's start).
    std::vector<JournalEntry> journal; ///< What changed it since (not hashed: history, not state).
};

/// Most frames one `space3d.step` / `World::stepFrames` runs.
inline constexpr uint32_t kMaxStepFrames = 100000;
/// Most static colliders of the physics, a model's triangles counted on every
/// object that uses it (they are shared, not copied); past it a fixed model
/// shape is its bounding box (counted in `PhysicsInfo::approximatedModels`).
inline constexpr uint64_t kMaxStaticShapes = uint64_t{1} << 31;
/// Largest speed a character is asked for. [Units: m/s]
inline constexpr float kMaxCharacterSpeed = 1000.0f;

/// A ray cast through the scene's physics.
struct SceneRayHit
{
    bool hit = false;
    double fraction = 1.0;   ///< Along `to − from`, in [0, 1].
    glm::dvec3 point{0.0};   ///< [Units: m]
    glm::dvec3 normal{0.0};  ///< Unit, zero when the ray starts inside a shape.
    ObjectId object;         ///< The object hit.
};

/// What the physics holds (for answers and tests).
struct PhysicsInfo
{
    uint32_t staticShapes = 0;   ///< Shapes of fixed bodies (a model shape is one per triangle).
    uint32_t kinematicBodies = 0;
    uint32_t dynamicBodies = 0;
    uint32_t sleepingBodies = 0;
    uint32_t characters = 0;
    uint32_t approximatedModels = 0; ///< Model shapes taken as a box because the model could not be loaded.
};

/// The stages of one step, in their order.
enum class StepStage : uint8_t
{
    Agents,    ///< AiAgent components become agents (and go).
    Obstacles, ///< Following obstacles move.
    Positions, ///< Agents learn where their objects are.
    Brains,    ///< Brains tick.
    Crowds,    ///< Crowds steer.
    Drive,     ///< Objects get the crowd's velocity or position.
    Physics,   ///< Physics moves everything.
};

/// Observes the stages of a step (a profiler: a benchmark times them). The
/// world never reads a clock itself; an observer cannot change the step.
class FrameObserver; // recording.h

class StepObserver
{
public:
    virtual ~StepObserver() = default;
    virtual void begin(StepStage stage) = 0;
    virtual void end(StepStage stage) = 0;
};

/// The runtime world of one session.
class World
{
public:
    /// An empty world: no objects, empty navigation and AI, frame 0.
    World() = default;

    // -- The scene --------------------------------------------------------------

    /// Replaces the objects with those of `scene` and drops the navigation and AI
    /// state (docs/scene.md: a new scene starts without them); the frame restarts at 0.
    /// Errors (nothing changes): `E_SCENE_FORMAT` for an empty, too long or
    /// duplicate name (field `/objects/i/name`), `E_SCENE_LIMIT` for too many objects.
    [[nodiscard]] Status loadScene(WorldDocument scene);
    /// True once a scene document was made or loaded (`loadScene`). The world
    /// steps either way; the CLI's `space3d.*` commands address the document
    /// only once there is one.
    bool hasScene() const { return m_hasScene; }
    /// The scene document (objects in document order). Valid until the next change.
    const WorldDocument& document() const { return m_objects.document; }
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
    /// Hash of the scene document: equal to `hashWorldDocument(document())`, computed
    /// from the kept per-object hashes in O(objects).
    uint64_t sceneHash() const;

    /// Replaces an object's transform (how kinematic objects move; a fixed
    /// body's colliders follow). `E_SCENE_UNKNOWN_OBJECT`, `E_SCENE_RANGE`
    /// (field `/position` …) for non-finite or out-of-range values.
    [[nodiscard]] Status setTransform(ObjectId object, const Transform3D& transform);

    // -- Physics -----------------------------------------------------------------

    /// How model shapes are read (`makeObjModelLoader`); without one, or when a
    /// model cannot be read, the shape is a box of half extents 0.5 scaled by
    /// the transform (counted in `PhysicsInfo::approximatedModels`).
    void setModelLoader(ModelLoader loader);
    /// Sets a character's wanted horizontal velocity (y ignored) and, with
    /// `jump`, one jump press for the next step. `E_SCENE_UNKNOWN_OBJECT`,
    /// `E_SCENE_NO_CONTROLLER` (no CharacterController), `E_SCENE_RANGE`
    /// (field `/velocity`) for a non-finite speed or one above `kMaxCharacterSpeed`.
    [[nodiscard]] Status moveCharacter(ObjectId object, const glm::vec3& velocity, bool jump);
    /// The first hit of the segment `from` → `to` on a non-sensor collider
    /// (fixed, kinematic and dynamic bodies, character capsules) whose object
    /// is not in `ignore` (none in a world without objects). `E_SCENE_RANGE`
    /// (field `/from`, `/to`) for a non-finite or out-of-range point; stale
    /// handles in `ignore` are skipped.
    [[nodiscard]] Result<SceneRayHit> raycast(const glm::vec3& from, const glm::vec3& to,
                                              std::span<const ObjectId> ignore) const;
    /// The physics state of an object (null for a stale handle).
    const ObjectMotion* motion(ObjectId object) const;
    /// Counts of what the physics holds.
    PhysicsInfo physicsInfo() const;
    /// Hash of the physics state carried between steps (every object's motion).
    uint64_t physicsHash() const;

    // -- Navigation and AI -------------------------------------------------------

    /// The navigation world (every mesh of the session, 3D and 2D).
    nav::NavWorld& nav() { return m_nav; }
    /// The navigation world.
    const nav::NavWorld& nav() const { return m_nav; }
    /// The AI state (trees, utility documents, brains, event log).
    ai::AiState& ai() { return m_ai; }
    /// The AI state.
    const ai::AiState& ai() const { return m_ai; }

    // -- AI agents -----------------------------------------------------------------

    /// The leaves brains may call (null: the built-ins). Not state: set it once.
    void setLeafRegistry(const ai::LeafRegistry* leaves) { m_leaves = leaves; }
    /// The named agents brains drive: those made from AiAgent components (by
    /// object name) and those a host named by hand.
    const HostAgents& agents() const { return m_agents; }
    /// The named agents, for a host that adds agents by hand (`ai.brain.attach`
    /// on a `nav.agent.add` agent); entries without `fromComponent` stay until
    /// their crowd agent is removed.
    HostAgents& agentsForBrains() { return m_agents; }
    /// Binds crowd agent `agent` to object `object` as an AiAgent component
    /// would: the agent reads a character's feet, drives the object and goes
    /// with it. `E_SCENE_UNKNOWN_OBJECT`, or `E_INVALID_PARAMS` when the object
    /// has an agent already (nothing changes).
    [[nodiscard]] Status bindAgent(std::string_view object, nav::AgentId agent);

    /// libai's view of this world, as the brains' stage uses it: positions are
    /// the objects' ground points, or the crowd agents' own for agents without
    /// an object; line of sight is the physics ray cast, or in a world without
    /// objects a ray along the agent's mesh (walls block). Valid until the
    /// agents or the objects change.
    AiHost aiHost();
    /// An object's ground point: a character's feet, any other object's position.
    bool groundPosition(std::string_view name, glm::dvec3& out) const;
    /// True when the physics lets `self` (an object name, or "") see from `from`
    /// to `to`: the ray ignores `self`'s own body, and a hit within 5 cm of
    /// `to` is the body at `to` itself (the target), not something in front.
    bool lineOfSight(std::string_view self, const glm::dvec3& from, const glm::dvec3& to) const;
    /// The scene's event log (ai_error, agent_created, agent_removed), oldest first.
    std::span<const SceneEvent> sceneEvents() const { return m_events; }
    /// AI figures of the steps since the last `takeStepAiFigures`.
    StepAiFigures takeStepAiFigures();

    // -- Stepping ----------------------------------------------------------------

    /// Advances the world by `dt` seconds in the fixed order of docs/architecture.md "A step" (see the
    /// stage functions below); the one step of the world, whatever it holds.
    /// `E_SCENE_RANGE` for a step that is not finite, not positive or longer
    /// than `kMaxStep` (nothing changes).
    [[nodiscard]] Status step(double dt);
    /// As `step`, telling `observer` where each stage begins and ends.
    [[nodiscard]] Status step(double dt, StepObserver* observer);
    /// Runs `frames` steps of `dt` (what `space3d.step`, `ai.step` and
    /// `nav.step` run). `E_SCENE_RANGE` (field `/frames`) for 0 or more than
    /// `kMaxStepFrames`, (field `/dt`) for a bad `dt`; nothing changes then.
    /// Polls the current work control between frames (spark/core/work.h): a
    /// stopped run brings back the world as it was and answers the cancel error.
    [[nodiscard]] Status stepFrames(uint32_t frames, double dt = kFixedStep);
    /// Steps taken since the world was made or its scene loaded (the brains' clock).
    uint64_t frame() const { return m_frame; }
    /// Tells `observer` about every frame `step` ends (null: nobody; not state:
    /// never saved, restored or hashed). The observer must outlive its use.
    void setFrameObserver(FrameObserver* observer) { m_frameObserver = observer; }

    // -- Journal ---------------------------------------------------------------------

    /// The document as it was made or loaded: replaying the journal on it rebuilds the world.
    const WorldDocument& baseDocument() const { return m_base; }
    /// The commands that changed the scene since, in order.
    std::span<const JournalEntry> journal() const { return m_journal; }
    /// Logs a command that changed the scene (the host calls it after each one).
    void appendJournal(JournalEntry entry) { m_journal.push_back(std::move(entry)); }

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
    // The stages of one step, in the order of docs/architecture.md "A step". Those whose parts have not
    // landed yet do nothing; each later part fills its own.
    void createAgentsFromComponents(); ///< AiAgent components become crowd agents with brains.
    /// Adds the named agent; the brain of that name (if any) gets its key.
    void adoptAgent(std::string_view name, const HostAgent& agent);
    void moveFollowingObstacles();     ///< Obstacles with `follow` move to their objects.
    void readAgentPositions();         ///< Agents learn where their objects really are.
    void tickBrains(double dt);        ///< Brains tick in agent-name order, every `period` steps.
    void steerCrowds(double dt);       ///< Crowds steer, in mesh-name order.
    void driveObjects(double dt);      ///< Characters get the crowd velocity, others their transform.
    void stepPhysics(double dt);       ///< Physics moves everything.
    void pushSceneEvent(std::string kind, std::string object, std::string message);

    // The collision world is derived from the document: rebuilt when the
    // fixed bodies change, moving colliders refreshed when objects move.
    void ensureCollision() const;
    void refreshMoving() const;
    /// A model's triangles through the loader, read once per path (null when it cannot be read).
    const ColliderMesh* modelMesh(const std::string& path) const;
    /// A model's triangles for the collision world, built once per path and
    /// shared by every object on it (null when it cannot be read).
    std::shared_ptr<const physics::TriangleModel> triangleModel(const std::string& path) const;

    bool m_hasScene = false;
    WorldObjects m_objects;
    WorldDocument m_base;
    std::vector<JournalEntry> m_journal;
    ModelLoader m_loader;
    mutable physics::CollisionWorld m_collision;
    mutable bool m_staticDirty = true;
    mutable bool m_movingDirty = true;
    mutable uint32_t m_approximatedModels = 0;
    mutable std::map<std::string, std::optional<ColliderMesh>, std::less<>> m_models;
    mutable std::map<std::string, std::shared_ptr<const physics::TriangleModel>, std::less<>> m_triangleModels;
    mutable std::vector<uint32_t> m_movingOf;    ///< Moving-collider index of each object, or UINT32_MAX.
    mutable std::vector<uint32_t> m_scratch;
    mutable std::vector<uint32_t> m_skipScratch;
    std::vector<uint8_t> m_enabledBefore; ///< Working memory of tickBrains (not state).
    nav::NavWorld m_nav;
    ai::AiState m_ai;
    HostAgents m_agents;
    std::vector<SceneEvent> m_events;
    uint64_t m_nextEventSeq = 0;
    uint64_t m_frame = 0;
    const ai::LeafRegistry* m_leaves = nullptr;
    StepAiFigures m_figures;
    FrameObserver* m_frameObserver = nullptr;
};

} // namespace spark::scene
SPARK_SCENE_API_END
