#pragma once
/// \file bake.h
/// The 3D bake (Recast-style, written here): triangles in, convex polygons out.
/// Stages, one file each under src/bake/: voxelise → filter → erode → regions →
/// contours → polygons (see the design note in src/bake/bake.cpp).
///
/// Owned by the 3D-bake part; `BakeInput`, `defaultBakeDef()` and `bakeTriangles`
/// are the contract the scene, the CLI and `spark bake` build on.

#include "spark/core/result.h"
#include "spark/nav/navmesh.h"
#include "spark/nav/poly_soup.h"

#include <glm/vec3.hpp>

#include <cstdint>
#include <vector>

#include "spark/core/export.h"
SPARK_NAV_API_BEGIN

namespace spark::nav
{

/// Bake settings. Every length is in metres.
struct BakeDef
{
    float cellSize = 0.2f;               ///< Horizontal voxel size. [Limit: > 0] [Units: m]
    float cellHeight = 0.1f;             ///< Vertical voxel size. [Limit: > 0] [Units: m]
    float agentRadius = 0.4f;            ///< Erosion from every border. [Limit: >= 0] [Units: m]
    float agentHeight = 1.8f;            ///< Head room needed. [Limit: > 0] [Units: m]
    float stepHeight = 0.4f;             ///< Largest step an agent climbs. [Limit: >= 0] [Units: m]
    float maxSlopeDeg = 45.0f;           ///< Steepest walkable slope. [Limit: 0..90] [Units: degrees]
    float maxSimplificationError = 1.3f; ///< Contour simplification tolerance. [Limit: >= 0] [Units: cells]
    float maxEdgeLen = 12.0f;            ///< Longest contour edge; 0 = no limit. [Limit: >= 0] [Units: m]
    int maxVertsPerPoly = 6;             ///< Vertices per polygon after merging. [Limit: 3..6]
    float minRegionArea = 0.0f;          ///< Connected walkable islands smaller than this are dropped. [Limit: >= 0] [Units: m²]
    /// Regions smaller than this (and any region that touches no unwalkable
    /// border) join a neighbour, so open floors give few, large polygons;
    /// 0 keeps the plain monotone partition. The default is Recast's 20 × 20
    /// cells at the default cell size. [Limit: >= 0] [Units: m²]
    float mergeRegionArea = 16.0f;
};

/// The default settings of SPEC §2.1.
BakeDef defaultBakeDef();

/// The def a mesh baked with `def` is built with: the bake's settings (agent
/// radius and height, step height — which is also the height tolerance of
/// linking —, cell sizes, slope), `is2d`, and the baked polygon vertex limit.
/// The one place a bake's settings become a mesh's; never copy them by hand.
NavMeshDef navMeshDefFromBake(const BakeDef& def, bool is2d);

/// Triangles to bake, with an area id per triangle (0 = walkable default).
struct BakeInput
{
    std::vector<glm::vec3> vertices; ///< [Units: m]
    std::vector<uint32_t> indices;   ///< Three per triangle; any winding.
    std::vector<uint8_t> areas;      ///< One per triangle, or empty for all 0. [Limit: 0..15]
    /// False (default): winding is ignored, a triangle's slope is that of its
    /// plane (closed collider solids). True: a triangle can only be walkable
    /// when its front faces up, the front being the side from which its corners
    /// run counter-clockwise (right-hand normal, the OBJ convention), so the
    /// underside of a ceiling in a mesh of open surfaces is not a floor.
    bool oneSided = false;
};

/// Counters of a bake (no timings: those are measured by the caller).
struct BakeStats
{
    uint64_t cells = 0;            ///< Grid columns (width × depth).
    uint64_t spans = 0;            ///< Solid spans after voxelisation.
    uint32_t regions = 0;          ///< Regions after partitioning.
    uint32_t fallbackRegions = 0;  ///< Regions whose contour could not be triangulated (row runs used).
};

/// The result of a bake.
struct BakeOutput
{
    PolySoup mesh;
    BakeStats stats;
    glm::vec3 boundsMin{0.0f};
    glm::vec3 boundsMax{0.0f};
};

/// Bakes triangles into convex polygons. Errors: `E_NAV_CONFIG` (settings out of
/// their limits, with the field), `E_NAV_LIMIT` (more than 4096 × 4096 cells),
/// `E_NAV_NO_GEOMETRY` (nothing walkable).
Result<BakeOutput> bakeTriangles(const BakeInput& input, const BakeDef& def);

/// A baked navigation mesh and the counters of its bake.
struct BakedNavMesh
{
    NavMesh mesh;    ///< Built with `navMeshDefFromBake(def, false)`.
    BakeStats stats; ///< Counters of the bake.
};

/// The whole 3D bake: `bakeTriangles`, then `buildNavMesh` with the def
/// `navMeshDefFromBake` makes. Every host (`nav.bake`, `spark bake`, a game)
/// bakes through this one function. Errors: those of both.
Result<BakedNavMesh> bakeNavMesh(const BakeInput& input, const BakeDef& def);

} // namespace spark::nav
SPARK_NAV_API_END
