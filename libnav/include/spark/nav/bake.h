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

#include <climits>
#include <cstdint>
#include <vector>

#include "spark/core/export.h"
SPARK_NAV_API_BEGIN

namespace spark::nav
{

/// A range of tiles, both ends included: tiles (x, z) with x0 <= x <= x1 and z0 <= z <= z1.
struct TileRange
{
    int32_t x0 = INT32_MIN; ///< First tile column.
    int32_t x1 = INT32_MAX; ///< Last tile column. [Limit: >= x0]
    int32_t z0 = INT32_MIN; ///< First tile row.
    int32_t z1 = INT32_MAX; ///< Last tile row. [Limit: >= z0]
};

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
    /// Tile edge in cells (docs/tiles.md): 0 bakes one grid over the input's
    /// bounds (at most kMaxBakeColumns a side; the mesh is untiled); N > 0
    /// bakes square tiles of N × N cells on the world's cell lattice (anchored
    /// at the origin), each with a border of `tileBorderCells` cells, and
    /// links them into one tiled mesh. Recast's usual range is 32..128.
    /// [Limit: 0, or 8..kMaxBakeColumns - 2 × border] [Units: cells]
    int tileSize = 0;
    /// Threads baking tiles at once; 0 = the hardware's. The result is the same
    /// bit for bit for any count. [Limit: 0..256]
    int threads = 0;
    /// Tiled bakes: only the tiles in this range are baked (a subset bake,
    /// for a build farm; `mergeTiledNavMeshes` joins subsets into the whole
    /// mesh bit for bit). The default range holds every tile. Untiled bakes:
    /// must be the default.
    TileRange tileRange;
    /// Several agent radii from one bake (docs/navmesh.md "Agent radii"):
    /// empty bakes `agentRadius` alone; otherwise `bakeNavMeshes` gives one
    /// mesh per radius, in this order. Both bakes voxelise and filter once
    /// and erode onward per radius. Each mesh is the same bit for bit as a
    /// bake of `bakeDefForRadius(def, radius)`; a tiled bake voxelises each
    /// tile once with the largest radius's border, which that def keeps in
    /// `borderRadius`. The single-mesh functions take one radius at most.
    /// [Limit: 1..kMaxAgentRadii distinct radii, each 0..1000] [Units: m]
    std::vector<float> agentRadii;
    /// Tiled bakes: the radius whose tile border the voxelisation uses when
    /// it is wider than `agentRadius`'s (0: `agentRadius`'s own). A wider
    /// border moves the bordered grid's origin and floor, so a wall on a cell
    /// line can round into the next cell: `bakeDefForRadius` sets it to the
    /// largest radius so a radius's mesh, and `nav.rebake` of its tiles, equal
    /// the several-radii bake. [Limit: 0..1000] [Units: m]
    float borderRadius = 0.0f;
};

/// Most radii of one bake. [Limit]
inline constexpr size_t kMaxAgentRadii = 8;

/// Most cells along one side of a bake grid (one tile, with its border). [Limit]
inline constexpr int kMaxBakeColumns = 4096;
/// Most threads of a tiled bake. [Limit]
inline constexpr int kMaxBakeThreads = 256;

/// The border of a tile of a bake with `def` (which must be valid), in cells:
/// the agent radius (or `borderRadius` when wider) in cells rounded up, plus
/// 3 (as Recast), so erosion and
/// the ledge filter see past the tile's edge.
int tileBorderCells(const BakeDef& def);

/// The tiles of `def`'s range whose bordered box (widened by a cell) meets the
/// x–z box of `bounds`: the tiles the tiled bake gives a triangle with these
/// bounds to, so those a change of the geometry inside `bounds` can change.
/// `def` valid and tiled.
NavTileBox tilesMeetingBounds(const BakeDef& def, const Bounds3& bounds);

/// The default settings of docs/navmesh.md "The 3D bake".
BakeDef defaultBakeDef();

/// The def a mesh baked with `def` is built with: the bake's settings (agent
/// radius and height, step height — which is also the height tolerance of
/// linking —, cell sizes, slope), `is2d`, and the baked polygon vertex limit.
/// The one place a bake's settings become a mesh's; never copy them by hand.
NavMeshDef navMeshDefFromBake(const BakeDef& def, bool is2d);

/// A run of triangles [firstTriangle, firstTriangle + triangleCount) of a
/// `BakeInput` that may bound one closed solid (a collider's box, sphere, hull).
struct SolidRange
{
    uint32_t firstTriangle = 0; ///< Index of the run's first triangle (not of its first index).
    uint32_t triangleCount = 0; ///< Triangles in the run.
};

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
    /// Runs of triangles that bound solids. A run whose triangles close up
    /// (every edge shared by two triangles running it in opposite directions)
    /// is filled: the columns inside it are solid from its lowest to its
    /// highest surface, so the floor under a box is covered by the box and
    /// nothing inside it can be walkable. An open run is baked as its
    /// surfaces alone. Either winding; runs may overlap. [Limit: within the triangles]
    std::vector<SolidRange> solids;
};

/// The solids of triangles that come without them (an OBJ, the C API): each
/// maximal run of consecutive triangles joined through shared vertex indices
/// (a box written as one piece) that closes up, for `BakeInput::solids`; open
/// runs (a terrain) are left out and baked as surfaces. On a one-sided input
/// the bake fills only those wound outward (a closed room wound inward, seen
/// from inside, stays hollow). Empty when an index is out of range (the bake
/// refuses such input).
std::vector<SolidRange> connectedTriangleRuns(const BakeInput& input);

/// Counters of a bake (no timings: those are measured by the caller).
struct BakeStats
{
    uint64_t cells = 0;            ///< Grid columns (width × depth).
    uint64_t spans = 0;            ///< Solid spans after voxelisation.
    uint32_t regions = 0;          ///< Regions after partitioning.
    uint32_t fallbackRegions = 0;  ///< Regions whose contour could not be triangulated (row runs used).
    uint32_t tiles = 0;            ///< Tiles with polygons (0 for an untiled bake).
};

/// The result of a bake.
struct BakeOutput
{
    /// The polygons; in a tiled bake the tiles' polygons one tile after the
    /// other in tile order, each tile with its own vertices.
    PolySoup mesh;
    /// Tiled bakes: the tile table (`buildTiledNavMesh`); empty otherwise.
    std::vector<NavTile> tiles;
    BakeStats stats;
    glm::vec3 boundsMin{0.0f};
    glm::vec3 boundsMax{0.0f};
};

/// Bakes triangles into convex polygons, in one grid or (tileSize > 0) in
/// tiles on `def.threads` threads. Errors: `E_NAV_CONFIG` (settings out of
/// their limits, with the field), `E_NAV_LIMIT` (an untiled grid of more than
/// 4096 × 4096 cells; a scene or tile more than 65534 cells tall; a tile of
/// more than kMaxTilePolygons polygons), `E_NAV_NO_GEOMETRY` (nothing walkable).
Result<BakeOutput> bakeTriangles(const BakeInput& input, const BakeDef& def);

/// A baked navigation mesh and the counters of its bake.
struct BakedNavMesh
{
    NavMesh mesh;    ///< Built with `navMeshDefFromBake(def, false)` (tiled when def.tileSize > 0).
    BakeStats stats; ///< Counters of the bake.
};

/// The whole 3D bake: `bakeTriangles`, then `buildNavMesh` with the def
/// `navMeshDefFromBake` makes. Every host (`nav.bake`, `spark bake`, a game)
/// bakes through this one function. Errors: those of both.
Result<BakedNavMesh> bakeNavMesh(const BakeInput& input, const BakeDef& def);

/// The radii a bake with `def` gives meshes for: `def.agentRadii`, or
/// `{def.agentRadius}` when that is empty.
std::vector<float> bakeRadii(const BakeDef& def);

/// `def` for one of its radii: `agentRadius` = radius, `agentRadii` empty
/// (the settings the mesh of that radius was baked with).
BakeDef bakeDefForRadius(const BakeDef& def, float radius);

/// Bakes one mesh per radius of `bakeRadii(def)` (in that order) from one
/// voxelisation and filter pass (single-grid bakes; see `BakeDef::agentRadii`).
/// Mesh i equals `bakeNavMesh(input, bakeDefForRadius(def, radii[i]))` bit for
/// bit. Errors: those of `bakeNavMesh`; `E_NAV_CONFIG` `/agent_radii/<i>` for
/// a bad radius; `E_NAV_NO_GEOMETRY` names the radius that keeps nothing.
Result<std::vector<BakedNavMesh>> bakeNavMeshes(const BakeInput& input, const BakeDef& def);

/// What a per-tile re-bake made.
struct TileRebake
{
    NavMesh mesh;     ///< The mesh with the re-baked tiles in place (the others copied as they were).
    NavTileBox tiles; ///< The tiles re-baked: every tile of the bake's range whose bordered box meets the bounds (may be none).
    BakeStats stats;  ///< Counters of the tiles baked.
};

/// Re-bakes the tiles of the tiled `mesh` that a change of the geometry inside
/// `bounds` (x–z) can change — every tile whose bordered box meets them — from
/// `input` (the whole scene as it is now) with `def` (the settings the mesh
/// was baked with), and puts them in place of the old ones: tiles with nothing
/// walkable left are dropped, new ones added. When the geometry changed only
/// inside `bounds`, the result is the full bake of `input` bit for bit (each
/// tile depends only on the triangles meeting its bordered box). Cost: the
/// tiles re-baked plus a copy of the mesh. Errors (nothing changes):
/// `E_NAV_CONFIG` (bad settings; an untiled mesh or another tile size,
/// `/tile_size`; other settings than the mesh's, `/mesh`), `E_INVALID_PARAMS`
/// (`/bounds`), `E_NAV_LIMIT`, `E_NAV_NO_GEOMETRY` (no tile left).
Result<TileRebake> rebakeNavMeshTiles(const NavMesh& mesh, const BakeInput& input, const BakeDef& def,
                                      const Bounds3& bounds);

} // namespace spark::nav
SPARK_NAV_API_END
