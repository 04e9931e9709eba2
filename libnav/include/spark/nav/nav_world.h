#pragma once
/// \file nav_world.h
/// The navigation world: the meshes of one simulation (and, as they land, their
/// obstacles, off-mesh links and crowds), each reached by a typed generational
/// handle. Names exist for the command surface and for a fixed iteration order
/// (meshes are visited in name order); inside, everything is a handle.
///
/// A baked mesh is immutable and shared (`std::shared_ptr<const NavMesh>`):
/// snapshots and copies of the world share it instead of copying polygons.
/// What changes a mesh after its bake (carving) is an overlay on top of it, so
/// removing every change gives back the baked mesh by construction.
///
/// Polygons are referred to from outside a mesh (paths, corridors) by
/// `PolyRef` (tile, polygon in the tile, generation); a re-bake (and, later, carving) gives the
/// polygons it renumbers a new generation, so a reference kept across the change
/// is refused (`E_NAV_STALE_POLY`) instead of silently naming another polygon.
///
/// Every operation validates before it writes: a call that returns an error
/// leaves the world as it was. The persistent state is one value
/// (`NavWorldState`), so `saveState`/`restoreState` are a copy (meshes shared)
/// and `hashState` covers exactly what they save.

#include "spark/core/handle_pool.h"
#include "spark/core/hash.h"
#include "spark/core/id.h"
#include "spark/core/result.h"
#include "spark/nav/avoidance.h"
#include "spark/nav/bake.h"
#include "spark/nav/carve.h"
#include "spark/nav/crowd.h"
#include "spark/nav/navmesh.h"
#include "spark/nav/offmesh.h"
#include "spark/nav/query.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "spark/core/export.h"
SPARK_NAV_API_BEGIN

namespace spark::nav
{

struct MeshTag;
struct AgentTag;
struct ObstacleTag;
struct LinkTag;
/// A mesh of a `NavWorld`.
using MeshId = Id<MeshTag>;
/// A crowd agent of a `NavWorld`.
using AgentId = Id<AgentTag>;
/// A carved obstacle of a `NavWorld`.
using ObstacleId = Id<ObstacleTag>;
/// An off-mesh link of a `NavWorld`.
using LinkId = Id<LinkTag>;

} // namespace spark::nav

namespace spark
{
/// The kinds that handle numbers carry (id.h): an agent's number is its
/// generation << 20 | index, as before kinds; the others are told apart from it.
template <> inline constexpr uint32_t kHandleKind<nav::AgentTag> = 0;
template <> inline constexpr uint32_t kHandleKind<nav::ObstacleTag> = 1;
template <> inline constexpr uint32_t kHandleKind<nav::LinkTag> = 2;
template <> inline constexpr uint32_t kHandleKind<nav::MeshTag> = 3;
} // namespace spark

namespace spark::nav
{

/// A polygon of a world mesh as seen from outside it, in 64 bits (docs/tiles.md):
/// the tile (22 bits), the polygon within the tile (20 bits) and the
/// generation the polygon had when the reference was made (22 bits; 0 means
/// null). The polygons after a mesh's tiles — every polygon of an untiled
/// mesh, the pieces carving adds to a tiled one — count as further tiles of
/// 2^20 polygons each, numbered from the tile count on. A re-bake or carving
/// gives the polygons it changes a new generation, so an older reference is
/// refused (`E_NAV_STALE_POLY`), never followed. Generations count world-wide
/// and wrap after 2^22 − 1 (a reference kept across four million re-bakes of
/// its polygon may resolve again).
struct PolyRef
{
    /// Bits 0–19 polygon, 20–41 tile, 42–63 generation.
    uint64_t bits = 0;

    /// Polygons of one tile field. [Limit]
    static constexpr uint32_t kPolygonMask = (1u << 20) - 1;
    /// Tile and generation fields. [Limit]
    static constexpr uint32_t kFieldMask = (1u << 22) - 1;

    /// A reference to polygon `polygon` of tile `tile` (each cut to its field)
    /// with world generation `generation` (>= 1; folded into 1 .. 2^22 − 1).
    static PolyRef make(uint32_t tile, uint32_t polygon, uint32_t generation)
    {
        return PolyRef{uint64_t(polygon & kPolygonMask) | (uint64_t(tile & kFieldMask) << 20) |
                       (uint64_t(foldGeneration(generation)) << 42)};
    }
    /// The generation a world generation `g` (>= 1) has in a reference.
    static uint32_t foldGeneration(uint32_t g) { return g == 0 ? 0 : (g - 1) % kFieldMask + 1; }

    /// The tile.
    uint32_t tile() const { return uint32_t(bits >> 20) & kFieldMask; }
    /// The polygon within the tile.
    uint32_t polygon() const { return uint32_t(bits) & kPolygonMask; }
    /// The (folded) generation; 0 for a null reference.
    uint32_t generation() const { return uint32_t(bits >> 42); }
    /// True when this reference names a polygon (it may still be stale).
    bool valid() const { return generation() != 0; }
    friend auto operator<=>(const PolyRef&, const PolyRef&) = default;
};

/// Longest mesh name. [Units: bytes]
inline constexpr size_t kMaxMeshName = 256;
/// Most meshes of one world. [Limit]
inline constexpr size_t kMaxWorldMeshes = 4096;

/// How a mesh enters the world.
struct MeshDef
{
    /// Unique name. [Limit: 1..kMaxMeshName bytes]
    std::string name;
    /// Where it came from (free text shown by listings: "scene2d", "polygons", "space3d", "import").
    std::string source;
    /// The baked (or imported) mesh. [Limit: non-null, at least one polygon]
    std::shared_ptr<const NavMesh> mesh;
    /// The settings a tiled 3D mesh was baked with, kept for `rebakeMeshTiles`
    /// (none: the mesh cannot be re-baked per tile).
    std::optional<BakeDef> bake;
};

/// The defaults: no name, no source, no mesh.
MeshDef defaultMeshDef();

/// Most obstacles of one world. [Limit]
inline constexpr size_t kMaxWorldObstacles = 4096;
/// Largest obstacle height. [Units: m]
inline constexpr float kMaxObstacleHeight = 1.0e4f;

/// An obstacle carved into a mesh (docs/navmesh.md "Obstacles").
struct ObstacleDef
{
    FootprintDef shape;        ///< Footprint (grown by the mesh's agent radius when carved).
    glm::vec3 position{0.0f};  ///< Base of the obstacle; a 2D mesh's point (x, y) is (x, 0, y). [Limit: |c| <= kMaxCoordinate] [Units: m]
    /// Reach above `position.y`: the obstacle carves the polygons whose heights
    /// meet [position.y - stepHeight, position.y + height]; 0 = the mesh's agent
    /// height. 2D meshes: every polygon under the footprint. [Limit: 0..kMaxObstacleHeight] [Units: m]
    float height = 0.0f;
    std::string follow;        ///< Name of a scene object the obstacle tracks (kept; the stepping scene moves it). [Limit: <= kMaxMeshName bytes]
};

/// The defaults: a circle of radius 0.5 at the origin, agent height, following nothing.
ObstacleDef defaultObstacleDef();

/// One obstacle of the world.
struct WorldObstacle
{
    MeshId mesh;     ///< The mesh it carves.
    ObstacleDef def; ///< Its footprint, position, height and follow target.
    CarveCut cut;    ///< Its footprint grown by the mesh's agent radius, where it is now.
};

/// Most off-mesh links of one world. [Limit]
inline constexpr size_t kMaxWorldLinks = 4096;

/// One off-mesh link of the world.
struct WorldLink
{
    MeshId mesh;                  ///< The mesh it joins places of.
    OffMeshLinkDef def;           ///< As given.
    ResolvedOffMeshLink resolved; ///< Its ends on the current (carved) mesh; again after each change.
};

/// One mesh of the world.
struct WorldMesh
{
    std::string name;                     ///< Unique name.
    std::string source;                   ///< Where it came from.
    std::shared_ptr<const NavMesh> baked; ///< The mesh as baked or imported (shared, never changed).
    uint64_t baseHash = 0;                ///< `hashNavMesh(*baked)`.
    uint32_t polyGeneration = 1;          ///< Generation of the baked polygons; bumped by each re-bake.
    /// The baked mesh minus its obstacles (shared, replaced on each change);
    /// null until an obstacle first touches the mesh and after a re-bake.
    std::shared_ptr<const CarvedMesh> carved;
    /// The newest generation any polygon of the current mesh has (>= polyGeneration).
    uint32_t meshGeneration = 1;
    /// Bumped when the mesh's usable off-mesh links change (added, removed,
    /// resolved differently): agents with a target plan again.
    uint32_t linkGeneration = 0;
    /// The generation of each polygon of `baked` when they differ (a tiled
    /// re-bake keeps the generations of the tiles it left as they were);
    /// empty: every polygon has `polyGeneration`.
    std::vector<uint32_t> baseGenerations;
    /// The settings a tiled 3D mesh was baked with (`MeshDef::bake`).
    std::optional<BakeDef> bake;
    /// Tiles unloaded (`NavWorld::unloadTiles`) and not loaded again, (x, z), increasing.
    std::vector<std::array<int32_t, 2>> unloadedTiles;
};

/// Everything a `NavWorld` saves, restores and hashes. A plain value: copying it
/// shares the baked meshes.
struct NavWorldState
{
    HandlePool<MeshTag, WorldMesh> meshes;               ///< Meshes by handle.
    std::map<std::string, MeshId, std::less<>> byName;   ///< Name → handle (ordered: the iteration order).
    uint32_t nextPolyGeneration = 1;                     ///< Next polygon generation handed out (world-wide).
    HandlePool<AgentTag, CrowdAgent> agents;             ///< Crowd agents by handle (every mesh's).
    HandlePool<ObstacleTag, WorldObstacle> obstacles;    ///< Carved obstacles by handle (every mesh's).
    HandlePool<LinkTag, WorldLink> links;                ///< Off-mesh links by handle (every mesh's).
    uint64_t crowdSteps = 0;                             ///< Crowd steps taken.
    uint64_t planRequests = 0;                           ///< Plan requests made (the last `CrowdAgent::planTicket` handed out).
    uint32_t planNodesPerStep = kDefaultPlanNodesPerStep; ///< `NavWorld::setPlanNodesPerStep`.
};

/// An event of a crowd agent (`NavWorld::crowdEvents`).
struct CrowdEvent
{
    AgentId agent;       ///< Whose.
    CrowdEventKind kind; ///< What happened.
    uint64_t step = 0;   ///< The crowd step it happened in (`crowdSteps()` then).
};

/// Most crowd events kept for a host to read; older ones are dropped. [Limit]
inline constexpr size_t kMaxCrowdEvents = 65536;

/// What the plan phase of the last crowd step did, summed over the meshes.
struct CrowdPlanStats
{
    uint32_t served = 0;  ///< Requests served (corridors planned).
    uint32_t searches = 0; ///< Searches run for them (requests sharing none: one each).
    uint64_t nodes = 0;   ///< Search nodes charged (see `NavWorld::setPlanNodesPerStep`).
    uint64_t maxNodes = 0; ///< The most nodes one mesh's crowd charged.
    uint32_t waiting = 0; ///< Requests left waiting for a later step.
};

/// Counts of agents per state after a step.
struct CrowdCounts
{
    uint32_t idle = 0, moving = 0, arrived = 0, noPath = 0, offMesh = 0;
};

class SPARK_INTERNAL Crowd; // libnav's own (src/crowd/crowd_phases.h, a friend of NavWorld): not exported

/// The navigation world.
class NavWorld
{
public:
    NavWorld() = default;

    // -- Meshes ---------------------------------------------------------------

    /// Adds the mesh `def.name`, or, when a mesh by that name exists, replaces
    /// its baked mesh and keeps its handle (and what lives on it). Every polygon
    /// gets a new generation either way. Errors (nothing changes):
    /// `E_NAV_CONFIG` (empty or too long name, field `/name`; no mesh, `/mesh`),
    /// `E_NAV_NO_GEOMETRY` (a mesh with no polygons), `E_NAV_LIMIT` (too many meshes).
    [[nodiscard]] Result<MeshId> putMesh(MeshDef def);
    /// Re-bakes the tiles of a tiled mesh that a change of the scene inside
    /// `bounds` can change, from `input` (the scene as it is now) with the
    /// settings the mesh was baked with (`rebakeNavMeshTiles`), and puts the
    /// result in as `putMesh` does: obstacles carve it, links resolve again,
    /// agents stay. Polygons of the tiles left as they were (same place in the
    /// tile table, same hash) keep their generation and corridors through only
    /// such tiles are renumbered, so only references and corridors into the
    /// changed tiles go stale and re-plan (a tile added or dropped shifts the
    /// table: the tiles after it count as changed). Errors
    /// (nothing changes): `E_NAV_NO_MESH`, `E_NAV_CONFIG` (`/mesh`: the mesh
    /// was not baked in tiles from 3D geometry here), those of `rebakeNavMeshTiles`.
    [[nodiscard]] Result<TileRebake> rebakeMeshTiles(MeshId mesh, const BakeInput& input, const Bounds3& bounds);
    /// Streaming: takes the tiles at `tiles` ((x, z) each) out of a tiled
    /// mesh, as `putMesh` of the mesh without them (obstacles carve it again,
    /// links resolve again, agents stay; references into the tiles go stale).
    /// The world remembers them as unloaded (`tileUnloaded`). Errors (nothing
    /// changes): `E_NAV_NO_MESH`, `E_NAV_CONFIG` (`/mesh`: not tiled),
    /// `E_INVALID_PARAMS` (`/tiles/i`: not in the mesh), `E_NAV_NO_GEOMETRY`
    /// (every tile would go).
    [[nodiscard]] Status unloadTiles(MeshId mesh, std::span<const std::array<int32_t, 2>> tiles);
    /// Streaming: puts the tiles of the tiled mesh `tiles` (a tile document,
    /// e.g. a subset bake) into a tiled mesh, as `mergeTiledNavMeshes` joins
    /// them (a tile already there must be the same); they are no longer
    /// unloaded. Unloading tiles and loading them again gives back the mesh
    /// and its hash bit for bit. Errors (nothing changes): `E_NAV_NO_MESH`,
    /// `E_NAV_CONFIG` (`/mesh`: not tiled), `E_NAV_FORMAT` (`/tiles`: other
    /// settings or tile size, a carved mesh, a tile with other contents).
    [[nodiscard]] Status loadTiles(MeshId mesh, const NavMesh& tiles);
    /// True when `point` (x–z) lies in a tile of `mesh` that was unloaded.
    bool tileUnloaded(MeshId mesh, const glm::vec3& point) const;
    /// Removes a mesh. `E_NAV_NO_MESH` for a stale handle (nothing changes).
    [[nodiscard]] Status removeMesh(MeshId mesh);
    /// The mesh named `name`, or a null handle.
    MeshId findMesh(std::string_view name) const;
    /// Every mesh, in name order.
    std::vector<MeshId> meshesInNameOrder() const;
    /// Number of meshes.
    size_t meshCount() const { return m_state.meshes.size(); }
    /// The record of a mesh (name, source, baked mesh, base hash), or null when stale.
    const WorldMesh* meshRecord(MeshId mesh) const { return m_state.meshes.get(mesh); }
    /// The current mesh (the baked one minus its obstacles), or null when stale.
    const NavMesh* mesh(MeshId mesh) const;
    /// The current mesh of a record.
    static const NavMesh& currentMesh(const WorldMesh& record)
    {
        return record.carved ? record.carved->mesh : *record.baked;
    }

    // -- Polygon references ---------------------------------------------------

    /// A reference to polygon `poly` of the current mesh. `E_NAV_NO_MESH` for a
    /// stale mesh, `E_NAV_STALE_POLY` for an index past the polygon count.
    [[nodiscard]] Result<PolyRef> polyRef(MeshId mesh, uint32_t poly) const;
    /// The index a reference names in the current mesh. `E_NAV_NO_MESH` for a
    /// stale mesh; `E_NAV_STALE_POLY` when the polygon was renumbered or removed
    /// since the reference was made (re-bake, carving), its tile or polygon is
    /// not in the mesh, or the reference is null.
    [[nodiscard]] Result<uint32_t> resolvePoly(MeshId mesh, PolyRef ref) const;

    /// The generation of polygon `poly` of the current mesh (0 past its end).
    uint32_t polyGenerationOf(MeshId mesh, uint32_t poly) const;

    // -- Obstacles (carving, docs/navmesh.md "Obstacles") -------------------

    /// Carves an obstacle into `mesh`: its footprint grown by the mesh's agent
    /// radius is cut out of every polygon it covers, at once. Errors (nothing
    /// changes): `E_NAV_NO_MESH`, `E_INVALID_PARAMS` (field `/shape/...`,
    /// `/position`, `/height`, `/follow`), `E_NAV_LIMIT` (kMaxWorldObstacles).
    [[nodiscard]] Result<ObstacleId> addObstacle(MeshId mesh, const ObstacleDef& def);
    /// Moves (and, for boxes and polygons, turns) an obstacle; only the
    /// polygons under its old and new footprints are cut again. Errors:
    /// `E_NAV_UNKNOWN_OBSTACLE`, `E_INVALID_PARAMS` (`/position`, `/angle_deg`).
    [[nodiscard]] Status moveObstacle(ObstacleId obstacle, const glm::vec3& position,
                                      std::optional<float> angleDeg = std::nullopt);
    /// Removes an obstacle; with the last one gone the mesh is the baked one
    /// again, bit for bit. `E_NAV_UNKNOWN_OBSTACLE` for a stale handle.
    [[nodiscard]] Status removeObstacle(ObstacleId obstacle);
    /// The obstacle of a handle, or null when the handle is stale.
    const WorldObstacle* obstacle(ObstacleId obstacle) const { return m_state.obstacles.get(obstacle); }
    /// Every obstacle, in handle (slot) order.
    std::vector<ObstacleId> obstaclesInOrder() const;
    /// Number of obstacles.
    size_t obstacleCount() const { return m_state.obstacles.size(); }

    // -- Off-mesh links (docs/navmesh.md "Off-mesh links") -------------------

    /// Adds a link to `mesh`, its ends snapped onto the current mesh (a link
    /// that does not resolve is kept and listed, and used once it does: links
    /// resolve again after every carving and re-bake). Errors (nothing
    /// changes): `E_NAV_NO_MESH`, `E_INVALID_PARAMS` (field), `E_NAV_LIMIT`.
    [[nodiscard]] Result<LinkId> addOffMeshLink(MeshId mesh, const OffMeshLinkDef& def);
    /// Removes a link. `E_NAV_UNKNOWN_LINK` for a stale handle.
    [[nodiscard]] Status removeOffMeshLink(LinkId link);
    /// The link of a handle, or null when stale.
    const WorldLink* offMeshLink(LinkId link) const { return m_state.links.get(link); }
    /// Every link, in handle (slot) order.
    std::vector<LinkId> offMeshLinksInOrder() const;
    /// The resolved links of `mesh` for a path search, in handle order; each
    /// `PathLink::id` is `linkKey` of its handle.
    void pathLinksOf(MeshId mesh, std::vector<PathLink>& out) const;
    /// A link handle as a `PathLink::id`: (generation << 32) | index.
    static uint64_t linkKey(LinkId id) { return (uint64_t(id.generation) << 32) | id.index; }
    /// The handle of a `PathLink::id` made by `linkKey`.
    static LinkId linkOfKey(uint64_t key) { return LinkId{uint32_t(key & 0xffffffffu), uint32_t(key >> 32)}; }

    // -- Crowds -----------------------------------------------------------------

    /// Adds an agent on `mesh` at `def.position` (snapped onto the mesh within
    /// its radius × 2 horizontally and its height vertically). Errors (nothing
    /// changes): `E_NAV_NO_MESH`, `E_INVALID_PARAMS` (a def field out of its
    /// limits, field `/<name>`), `E_NAV_OFF_MESH` (field `/position`),
    /// `E_NAV_LIMIT` (`kMaxCrowdAgents`).
    [[nodiscard]] Result<AgentId> addAgent(MeshId mesh, const CrowdAgentDef& def);
    /// Removes an agent. `E_NAV_UNKNOWN_AGENT` for a stale handle.
    [[nodiscard]] Status removeAgent(AgentId agent);
    /// The agent of a handle, or null when the handle is stale.
    const CrowdAgent* agent(AgentId agent) const { return m_state.agents.get(agent); }
    /// Every agent, in handle (slot) order.
    std::vector<AgentId> agentsInOrder() const;
    /// Number of agents.
    size_t agentCount() const { return m_state.agents.size(); }
    /// Sends an agent to `target` (located on its mesh): when a corridor
    /// exists and the target moved no more than the agent's `repathDistance`,
    /// keeps it; otherwise the agent joins the plan queue (`moving`, reason
    /// `waiting_for_plan`, standing) and the next `stepCrowds` plans its
    /// corridor before it moves, within the step's node budget
    /// (`setPlanNodesPerStep`; past it, in a later step, first come first
    /// served). An agent already waiting keeps its place with the new target.
    /// A target that cannot be reached leaves the agent in `no_path` once
    /// planned. Errors (nothing changes): `E_NAV_UNKNOWN_AGENT`,
    /// `E_NAV_OFF_MESH` (field `/target`, or `/agent` when the agent stands
    /// off the mesh), `E_INVALID_PARAMS`.
    [[nodiscard]] Status setAgentTarget(AgentId agent, const glm::vec3& target);
    /// Moves an agent at a velocity set by hand (x–z; avoidance still applies)
    /// until a target is set or it is stopped. Errors: `E_NAV_UNKNOWN_AGENT`,
    /// `E_INVALID_PARAMS` (non-finite or faster than its max speed, field `/velocity`).
    [[nodiscard]] Status setAgentVelocity(AgentId agent, const glm::vec3& velocity);
    /// Drops an agent's target or velocity: it stands (`idle`). `E_NAV_UNKNOWN_AGENT`.
    [[nodiscard]] Status stopAgent(AgentId agent);
    /// Tells an agent where its body really is (a host whose physics moves the
    /// body): the agent moves along the mesh surface towards `position` from
    /// where it was, keeping its corridor (trimmed or extended as it passes
    /// polygons; walls stop it, so it never leaves the mesh). An agent on an
    /// off-mesh link, or whose corridor awaits a re-plan, stays. Errors:
    /// `E_NAV_UNKNOWN_AGENT`, `E_INVALID_PARAMS` (`/position`).
    [[nodiscard]] Status placeAgent(AgentId agent, const glm::vec3& position);
    /// Changes an agent's settings (all but `position`, which stays where the
    /// agent is). Errors: `E_NAV_UNKNOWN_AGENT`, `E_INVALID_PARAMS` (field `/<name>`).
    [[nodiscard]] Status setAgentDef(AgentId agent, const CrowdAgentDef& def);
    /// Advances every crowd by `dt` seconds: meshes in name order, agents in
    /// handle order (see crowd.h). `E_INVALID_PARAMS` for a step that is not
    /// finite or not in (0, 1] (nothing changes).
    [[nodiscard]] Status stepCrowds(double dt);
    /// Crowd steps taken so far (the clock of a world stepped without a scene).
    uint64_t crowdSteps() const { return m_state.crowdSteps; }
    /// Agents per state.
    CrowdCounts crowdCounts() const;
    /// Agents' events (stuck, unstuck, relocated) since the host last called
    /// `clearCrowdEvents`, oldest first (at most `kMaxCrowdEvents`). An outbox,
    /// not state: not hashed or saved.
    std::span<const CrowdEvent> crowdEvents() const { return m_crowdEvents; }
    /// Empties the outbox of `crowdEvents`.
    void clearCrowdEvents() { m_crowdEvents.clear(); }
    /// Threads the crowd step runs on (its per-agent phases and its
    /// avoidance): 0 = every hardware thread (the default), 1 = the calling
    /// thread only. The result is the same bits for every count; not state
    /// (not saved or hashed). `E_INVALID_PARAMS` (field `/threads`) outside
    /// 0..kMaxCrowdThreads (nothing changes).
    [[nodiscard]] Status setCrowdThreads(int threads);
    /// The crowd step's threads (`setCrowdThreads`).
    int crowdThreads() const { return m_crowdThreads; }
    /// The plan phase's budget: search nodes each mesh's crowd spends per
    /// step on its plan queue (new targets, re-plans after a mesh change, a
    /// landing or a stuck spell), served first come first served (Detour's
    /// dtPathQueue). A search, once started, finishes (it is bounded by its
    /// own node limit) and is charged in full: requests are started while
    /// the step has spent less than the budget, the rest wait, in order, for
    /// the next step (reason `waiting_for_plan`). A search is charged the
    /// nodes the any-angle search made (`QueryScratch::lastSearchNodes`), or,
    /// when another search answered (off-mesh links, a straight walk), its
    /// corridor's polygons; at least 1. Default `kDefaultPlanNodesPerStep`.
    /// State (saved, and hashed when not the default). `E_INVALID_PARAMS`
    /// (field `/plan_nodes_per_step`) outside 1..kMaxPlanNodesPerStep.
    [[nodiscard]] Status setPlanNodesPerStep(uint32_t nodes);
    /// The plan phase's budget (`setPlanNodesPerStep`).
    uint32_t planNodesPerStep() const { return m_state.planNodesPerStep; }
    /// What the plan phase of the last `stepCrowds` did (not state).
    const CrowdPlanStats& lastPlanStats() const { return m_planStats; }
    /// Checks an agent def; the error names the field (`/radius`, …).
    static Status validateAgentDef(const CrowdAgentDef& def);

    // -- Queries ----------------------------------------------------------------

    /// The scratch memory the world's queries share (sized to the largest mesh
    /// queried, reused by every query: no allocation per query after warm-up).
    /// Not part of the state; one query at a time.
    QueryScratch& queryScratch() const { return m_scratch; }

    // -- State ----------------------------------------------------------------

    /// The persistent state (a copy; meshes are shared, not copied).
    NavWorldState saveState() const { return m_state; }
    /// Brings back a state saved by `saveState` of this or another world.
    void restoreState(NavWorldState state) { m_state = std::move(state); }
    /// Feeds the persistent state into `io` canonically: meshes in name order
    /// (name, source, base hash, polygon generation), the generation counter,
    /// then the agents in handle order (settings, position, velocity, state,
    /// target, corridor).
    void hashState(Hasher& io) const;
    /// XXH3-64 of `hashState`.
    uint64_t hashState() const;

    /// Feeds the agents of `mesh` (handle order) into `io`: the crowd part of the state.
    void hashCrowd(Hasher& io, MeshId mesh) const;

private:
    /// Carves `mesh` again under `regions` with all of its obstacles (cannot fail).
    void recarve(MeshId mesh, std::span<const CarveRegion> regions);
    /// Cuts every obstacle of a re-baked `mesh` again (grown by its new agent radius) and carves.
    void carveRebaked(MeshId mesh);
    /// Gives the polygons of a new baked `next` of `mesh` their generations:
    /// those of the old baked mesh's tiles left as they were keep theirs, and
    /// corridors wholly in such tiles are renumbered; the others re-plan.
    void keepTileGenerations(MeshId mesh, const NavMesh& next, uint32_t generation);
    /// Snaps the links of `mesh` onto its current mesh again.
    void resolveLinks(MeshId mesh);

    /// True when every polygon of the agent's corridor kept the generation it
    /// had when the corridor was made (carving elsewhere leaves it valid).
    bool corridorStillValid(MeshId mesh, const CrowdAgent& agent) const;

    /// The crowd of a mesh steps its agents (libnav/src/crowd/crowd_phases.h).
    friend class Crowd;

    NavWorldState m_state;
    mutable QueryScratch m_scratch;
    // Working memory of the crowd step (not state): the crowd of each mesh.
    CrowdStepScratch m_crowdScratch;
    int m_crowdThreads = 0; // setCrowdThreads
    CrowdPlanStats m_planStats; // lastPlanStats
    std::vector<PathLink> m_pathLinks; // a mesh's links, for setAgentTarget
    std::vector<CrowdEvent> m_crowdEvents; // outbox, see crowdEvents()
    void pushCrowdEvent(AgentId agent, CrowdEventKind kind);
};

} // namespace spark::nav
SPARK_NAV_API_END
