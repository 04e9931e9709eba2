#pragma once
/// \file offmesh.h
/// Off-mesh links (docs/navmesh.md "Off-mesh links"): a jump or a drop joining two places the
/// walkable mesh does not join. Each end snaps to the nearest polygon within
/// the link's radius; a link is `resolved` when both ends found one. Path
/// searches take resolved links as extra edges (walk to the take-off, then
/// `cost` × the leap's length), and the funnel is split at them.

#include "spark/core/result.h"
#include "spark/nav/navmesh.h"

#include <glm/vec3.hpp>

#include <cstdint>

#include "spark/core/export.h"
SPARK_NAV_API_BEGIN

namespace spark::nav
{

/// How an agent crosses a link.
enum class OffMeshKind : uint8_t
{
    Jump, ///< An arc of `arcHeight` over the straight line, at `speed`.
    Drop, ///< Down along the line, at `speed` (physics falls).
};

/// Largest link radius, cost multiplier, speed and arc height. [Limit]
inline constexpr float kMaxOffMeshRadius = 100.0f;
inline constexpr float kMaxOffMeshCost = 1000.0f;
inline constexpr float kMaxOffMeshSpeed = 100.0f;
inline constexpr float kMaxOffMeshArcHeight = 100.0f;

/// An off-mesh link as a caller describes it.
struct OffMeshLinkDef
{
    glm::vec3 start{0.0f};           ///< Take-off (2D: (x, 0, y)). [Limit: |c| <= kMaxCoordinate] [Units: m]
    glm::vec3 end{0.0f};             ///< Landing. [Limit: |c| <= kMaxCoordinate] [Units: m]
    OffMeshKind kind = OffMeshKind::Jump; ///< Jump or drop.
    float radius = 0.5f;             ///< Each end snaps to a polygon within this (horizontally; vertically the mesh's step height, at least this). [Limit: (0, 100]] [Units: m]
    bool bidirectional = true;       ///< Usable from end to start too.
    float cost = 1.0f;               ///< Multiplier of the leap's length in path costs. [Limit: (0, 1000]]
    float speed = 4.0f;              ///< Speed along the leap. [Limit: (0, 100]] [Units: m/s]
    float arcHeight = 1.0f;          ///< Height of a jump's arc over the straight line (drops ignore it). [Limit: [0, 100]] [Units: m]
};

/// The defaults: a two-way jump, radius 0.5, cost 1, speed 4, arc 1.
OffMeshLinkDef defaultOffMeshLinkDef();

/// Checks a link def: `E_INVALID_PARAMS` with the field (`/start`, `/end`,
/// `/radius`, `/cost`, `/speed`, `/arc_height`, `/end` when both ends coincide).
Status validateOffMeshLink(const OffMeshLinkDef& def);

/// A link's ends on a mesh.
struct ResolvedOffMeshLink
{
    bool resolved = false;           ///< Both ends found a polygon.
    uint32_t startPolygon = kNoPolygon; ///< Polygon of the take-off (kNoPolygon when none).
    uint32_t endPolygon = kNoPolygon;   ///< Polygon of the landing (kNoPolygon when none).
    glm::vec3 start{0.0f};           ///< Take-off snapped onto the mesh (the def's point when unresolved). [Units: m]
    glm::vec3 end{0.0f};             ///< Landing snapped onto the mesh. [Units: m]
};

/// Snaps both ends of a (valid) link onto `mesh` (carved meshes: onto what
/// is left), within radius horizontally and max(radius, step height) vertically.
ResolvedOffMeshLink resolveOffMeshLink(const NavMesh& mesh, const OffMeshLinkDef& def);

/// A link as a path search uses it.
struct PathLink
{
    uint32_t startPolygon = kNoPolygon; ///< Take-off polygon.
    uint32_t endPolygon = kNoPolygon;   ///< Landing polygon.
    glm::vec3 start{0.0f};              ///< Take-off. [Units: m]
    glm::vec3 end{0.0f};                ///< Landing. [Units: m]
    float cost = 1.0f;                  ///< Multiplier of the leap's length.
    bool bidirectional = true;          ///< Usable from end to start too.
    uint64_t id = 0;                    ///< The caller's id, reported in paths and corridors.
    OffMeshKind kind = OffMeshKind::Jump; ///< How an agent crosses it.
    float speed = 4.0f;                 ///< Speed along the leap. [Units: m/s]
    float arcHeight = 1.0f;             ///< A jump's arc height. [Units: m]
};

} // namespace spark::nav
SPARK_NAV_API_END
