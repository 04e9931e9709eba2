#pragma once
/// \file corridor.h
/// Path corridors: the polygons from an agent's position to its target, kept
/// up to date as the agent moves (Detour's path corridor is the model). A host
/// without a crowd uses these directly: plan once, then each step find the next
/// corners, steer toward them, and move the corridor along the surface.
///
/// Every function takes caller-owned buffers (the corridor, the corners, a
/// `QueryScratch`) and allocates nothing once they have grown.

#include "spark/core/result.h"
#include "spark/nav/navmesh.h"
#include "spark/nav/query.h"

#include <glm/vec3.hpp>

#include <cstdint>
#include <vector>

#include "spark/core/export.h"
SPARK_NAV_API_BEGIN

namespace spark::nav
{

/// Most corners `findCorridorCorners` returns. [Limit]
inline constexpr uint32_t kMaxCorridorCorners = 16;
/// Longest corridor kept (polygons); a longer plan is cut and re-planned on the way. [Limit]
inline constexpr uint32_t kMaxCorridorPolygons = 4096;

/// Corner flags.
enum CornerFlags : uint8_t
{
    kCornerEnd = 1,          ///< The corner is the corridor's target.
    kCornerOffMeshStart = 2, ///< The corner starts an off-mesh link (set once links exist).
};

/// A corner of the string-pulled corridor.
struct CorridorCorner
{
    glm::vec3 point{0.0f};         ///< Position. [Units: m]
    uint32_t polygon = kNoPolygon; ///< Polygon the corner leaves the corridor through (the target's for the end).
    uint8_t flags = 0;             ///< `CornerFlags`.
};

/// An off-mesh link a corridor takes: polygons[index - 1] holds the
/// take-off, polygons[index] the landing.
struct CorridorHop
{
    uint32_t index = 0;        ///< Corridor index of the landing polygon (>= 1).
    glm::vec3 start{0.0f};     ///< Take-off. [Units: m]
    glm::vec3 end{0.0f};       ///< Landing. [Units: m]
    uint64_t link = 0;         ///< `PathLink::id` of the link.
    OffMeshKind kind = OffMeshKind::Jump; ///< How it is crossed.
    float speed = 4.0f;        ///< Speed along it. [Units: m/s]
    float arcHeight = 1.0f;    ///< A jump's arc height. [Units: m]
};

/// A corridor: where the agent is, where it goes, and the polygons between.
struct Corridor
{
    glm::vec3 position{0.0f};       ///< The agent's position, on the first polygon. [Units: m]
    glm::vec3 target{0.0f};         ///< The target (the closest reachable point when the goal is cut off). [Units: m]
    std::vector<uint32_t> polygons; ///< From the polygon holding `position` to the one holding `target`.
    bool complete = false;          ///< False when the goal asked for could not be reached.
    std::vector<CorridorHop> hops;  ///< Off-mesh links on the way, in order (empty without links).
};

/// Plans a corridor from `start` to `goal` (both located within `halfExtents`),
/// with `findPath`. A goal that cannot be reached gives the corridor to the
/// closest reachable point, `complete` false. Errors: those of `findPath`
/// (`E_NAV_OFF_MESH` with field `/from` or `/to`).
Status planCorridor(const NavMesh& mesh, QueryScratch& scratch, const glm::vec3& start, const glm::vec3& goal,
                    const QueryFilter& filter, const glm::vec3& halfExtents, Corridor& out);

/// As above, with off-mesh links (`findPath` with links): the links taken
/// become the corridor's hops. The corners then end at the first hop's
/// take-off (`kCornerOffMeshStart`); the host crosses the link and calls
/// `landCorridor`.
Status planCorridor(const NavMesh& mesh, QueryScratch& scratch, const glm::vec3& start, const glm::vec3& goal,
                    const QueryFilter& filter, const glm::vec3& halfExtents, std::span<const PathLink> links,
                    Corridor& out);

/// After crossing the corridor's first hop: the position becomes its landing
/// and the polygons before it are dropped. `E_INVALID_PARAMS` when there is no hop.
Status landCorridor(Corridor& io);

/// Up to `maxCorners` (1..kMaxCorridorCorners) next corners of the corridor by
/// string pulling over its portals, from the position; the last one is the
/// target when it is reached within them (`kCornerEnd`). Corners nearer than
/// 1 mm to the position are skipped. `out` is cleared first.
/// Errors: `E_INVALID_PARAMS` (an empty corridor, a bad count).
Status findCorridorCorners(const NavMesh& mesh, QueryScratch& scratch, const Corridor& corridor, uint32_t maxCorners,
                           std::vector<CorridorCorner>& out);

/// Moves the position toward `wanted` along the surface: the reachable point
/// of the polygons around the position closest to `wanted` (so a move into a
/// wall slides along it), found by a search of at most 16 polygons; the height
/// is the surface's, and the position never leaves the mesh. The corridor is
/// trimmed of the polygons passed and, when the move ends in a polygon off the
/// corridor, extended through it.
/// Errors: `E_INVALID_PARAMS` (an empty corridor or a non-finite point).
Status moveCorridor(const NavMesh& mesh, QueryScratch& scratch, Corridor& io, const glm::vec3& wanted,
                    const QueryFilter& filter);

/// True when every polygon of the corridor exists in `mesh`, is not disabled
/// (carved away), is not excluded by `filter`, and is linked to the next one.
bool checkCorridor(const NavMesh& mesh, const Corridor& corridor, const QueryFilter& filter);

/// Plans again from the corridor's position to its target (after the mesh
/// changed or the target moved), keeping both. The hops are those of the new
/// plan (none without links). Errors: as `planCorridor`.
Status replanCorridor(const NavMesh& mesh, QueryScratch& scratch, Corridor& io, const QueryFilter& filter,
                      const glm::vec3& halfExtents);

/// As above, over the off-mesh links `links` (as `planCorridor` with links).
Status replanCorridor(const NavMesh& mesh, QueryScratch& scratch, Corridor& io, const QueryFilter& filter,
                      const glm::vec3& halfExtents, std::span<const PathLink> links);

/// Where an agent crossing the corridor's first hop is.
struct HopProgress
{
    glm::vec3 point{0.0f}; ///< Where the agent is. [Units: m]
    float fraction = 0.0f; ///< Share of the crossing done, 0..1.
    float duration = 0.0f; ///< The whole crossing's time: its straight 3D length over the speed. [Units: s]
    bool landed = false;   ///< The crossing is done and `point` is the landing: call `landCorridor`.
};

/// The crossing of the corridor's first hop, `time` seconds after the agent
/// took off from the corridor's position (the take-off, or wherever it stood
/// when it left): along the straight line to the landing at the hop's speed;
/// a jump is lifted by 4 · arcHeight · s · (1 − s) at the share s done (a
/// parabola through both ends, its top arcHeight over the line's middle)
/// when `arc` is true (false on 2D meshes, whose agents stay on the plane).
/// This is how the crowd crosses its links. Errors: `E_INVALID_PARAMS` for
/// a corridor without a hop (`/hops`), a hop speed that is not positive
/// (`/hops/0/speed`), a time that is negative or not finite (`/time`).
Result<HopProgress> crossHop(const Corridor& corridor, float time, bool arc);

} // namespace spark::nav
SPARK_NAV_API_END
