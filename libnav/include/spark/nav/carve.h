#pragma once
/// \file carve.h
/// Obstacle footprints and the geometry of carving them out of convex
/// polygons (docs/navmesh.md "Obstacles"), in the x–z plane: the footprint of an obstacle —
/// a circle, a box (half extents and an angle) or a convex polygon — grown by
/// the mesh's agent radius, and a convex polygon minus such footprints as
/// convex pieces of at most `kMaxBakedPolyVerts` vertices.
///
/// Conventions: points are (x, z); polygons run counter-clockwise in that
/// plane (positive signed area, as `NavMesh` polygons do); angles turn from
/// +x toward +z. The grown footprint always covers every point within the
/// agent radius of the footprint (it is a polygon round the exact rounded
/// shape), so an agent's centre kept outside it keeps the agent clear.
/// Arithmetic is in double with fixed operation order and no libm
/// trigonometry (core's det_math), so the same input gives the same pieces
/// on every machine.

#include "spark/core/result.h"
#include "spark/nav/navmesh.h"

#include <glm/vec2.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "spark/core/export.h"
SPARK_NAV_API_BEGIN

namespace spark::nav
{

/// The kinds of footprint.
enum class FootprintShape : uint8_t
{
    Circle,  ///< `radius` round the position.
    Box,     ///< `halfExtents` (x, z) turned by `angleDeg` round the position.
    Polygon, ///< `points` (relative to the position, convex, counter-clockwise).
};

/// Most points of a polygon footprint. [Limit]
inline constexpr uint32_t kMaxFootprintPoints = 32;
/// Sides of the polygon a circle footprint becomes (round the circle).
inline constexpr uint32_t kCircleFootprintSides = 12;
/// Largest footprint size: radius, half extent or point distance. [Limit] [Units: m]
inline constexpr float kMaxFootprintSize = 1.0e4f;
/// Carved pieces smaller than this are dropped (slivers a footprint edge
/// leaves along a polygon edge). [Units: m²]
inline constexpr double kMinCarvedPieceArea = 1.0e-6;

/// An obstacle's footprint.
struct FootprintDef
{
    FootprintShape shape = FootprintShape::Circle; ///< Which of the fields below apply.
    float radius = 0.5f;                           ///< Circle radius. [Limit: > 0, <= kMaxFootprintSize] [Units: m]
    glm::vec2 halfExtents{0.5f, 0.5f};             ///< Box half extents (x, z). [Limit: > 0, <= kMaxFootprintSize] [Units: m]
    float angleDeg = 0.0f;                         ///< Box and polygon turn from +x toward +z (circles ignore it). [Limit: finite, |a| <= 1e6] [Units: degrees]
    std::vector<glm::vec2> points;                 ///< Polygon: 3..kMaxFootprintPoints points, convex, counter-clockwise, relative to the position. [Units: m]
};

/// Checks a footprint: E_INVALID_PARAMS with the field (`/shape/radius`,
/// `/shape/half_extents`, `/shape/angle_deg`, `/shape/points` or
/// `/shape/points/<i>`) for a bad size, a non-finite number, too few or too
/// many points, a repeated point, a clockwise or non-convex polygon.
Status validateFootprint(const FootprintDef& def);

/// The footprint at `position` (x, z), grown by `grow` (>= 0, the agent
/// radius), as a convex counter-clockwise polygon covering every point within
/// `grow` of the footprint: each edge moved out by `grow`, a corner whose
/// mitre would reach past 2 × grow cut by the tangent across its bisector.
/// Validates the footprint first. [Units: m]
Result<std::vector<glm::dvec2>> footprintPolygon(const FootprintDef& def, const glm::dvec2& position, double grow);

/// Twice the signed area of a polygon (x, z). [Units: m²]
double twiceSignedArea(std::span<const glm::dvec2> polygon);

/// The part of convex polygon `polygon` on the left of the directed line
/// a → b (points within 1e-9 m of the line count as on it), written to `out`
/// without repeated or collinear points; empty when nothing of area is left.
void clipConvexLeft(std::span<const glm::dvec2> polygon, const glm::dvec2& a, const glm::dvec2& b,
                    std::vector<glm::dvec2>& out);

/// Convex polygon `polygon` minus convex polygon `cut` (both counter-clockwise):
/// appends the convex, counter-clockwise, pairwise disjoint pieces (one per
/// edge of `cut` at most; those under `minArea` dropped) to `out`.
void subtractConvex(std::span<const glm::dvec2> polygon, std::span<const glm::dvec2> cut, double minArea,
                    std::vector<std::vector<glm::dvec2>>& out);

/// Splits a convex counter-clockwise polygon into convex pieces of at most
/// `maxVerts` (>= 3) vertices by diagonals, appending them to `out`.
void splitConvex(std::span<const glm::dvec2> polygon, uint32_t maxVerts, std::vector<std::vector<glm::dvec2>>& out);

/// Convex polygon `polygon` minus every footprint of `cuts`: the convex,
/// counter-clockwise pieces of at most `maxVerts` vertices that remain,
/// pieces under `kMinCarvedPieceArea` dropped, in a fixed order (the order of
/// the cuts, then of their edges). `out` is replaced.
void carveConvex(std::span<const glm::dvec2> polygon, std::span<const std::vector<glm::dvec2>> cuts,
                 uint32_t maxVerts, std::vector<std::vector<glm::dvec2>>& out);

/// Joins convex, counter-clockwise, pairwise disjoint pieces that share a
/// whole edge (ends within 1e-9 m) where the union is convex with at most
/// `maxVerts` points, greedily in a fixed order (Hertel–Mehlhorn), until no
/// pair joins: fewer polygons for the same area. Carving a mesh applies it to
/// each carved polygon's pieces.
void mergeConvexPieces(std::vector<std::vector<glm::dvec2>>& pieces, uint32_t maxVerts);

// -- Carving a mesh -------------------------------------------------------------

/// A grown footprint as carving uses it: the polygon, its x–z bounds and the
/// heights of the polygons it carves.
struct CarveCut
{
    std::vector<glm::dvec2> polygon; ///< Convex, counter-clockwise (x, z). [Units: m]
    glm::dvec2 min{0.0};             ///< Low corner of the polygon's bounds. [Units: m]
    glm::dvec2 max{0.0};             ///< High corner of the polygon's bounds. [Units: m]
    float minY = -1.0e30f;           ///< Polygons whose heights reach into [minY, maxY] are carved. [Units: m]
    float maxY = 1.0e30f;            ///< See `minY`. [Units: m]
};

/// A cut from a grown footprint and a height range (bounds computed).
CarveCut makeCarveCut(std::vector<glm::dvec2> polygon, float minY, float maxY);

/// A mesh minus cuts. Polygon slots 0..base.polygonCount() - 1 are the base
/// polygons, in place: those no cut meets are the base's own, carved ones are
/// disabled (they keep their id and geometry for stale-reference checks).
/// Then come the pieces of the carved polygons, base polygon by base polygon
/// (increasing id), each base polygon's pieces in `carveConvex` order. So the
/// mesh is a function of the base and the cuts alone, whatever their history.
/// What one `recarveNavMesh` derived again rather than copied from the
/// previous carving or shared with the base: the work that follows the
/// change. Every count depends only on the polygons round the change, not on
/// the size of the mesh (a test holds this on meshes of 4 and 64 tiles).
struct CarveWork
{
    uint32_t polygonsRecut = 0;  ///< Base polygons cut again (their bounds meet a region).
    uint32_t polygonsLinked = 0; ///< Polygons whose links and walls were found again.
    uint32_t linksDerived = 0;   ///< Links whose back edge and dead end were derived again.
    uint32_t pointsDerived = 0;  ///< Link end points whose turn was derived again.
};

struct CarvedMesh
{
    NavMesh mesh;                       ///< The carved mesh.
    std::vector<uint32_t> carvedBases;  ///< The carved base polygons, increasing.
    std::vector<uint32_t> pieceStarts;  ///< carvedBases.size() + 1 entries: the pieces of carvedBases[i] are slots base + [pieceStarts[i], pieceStarts[i + 1]).
    /// The base slots whose generation is not their base generation (slot,
    /// generation), by increasing slot: slots carved or given back since the
    /// base was set (see `carvedGeneration`).
    std::vector<std::array<uint32_t, 2>> slotGenerations;
    std::vector<uint32_t> pieceGenerations; ///< The generation of each piece (slot base + i).
    CarveWork work;                         ///< What the carving that made it derived again.
};

/// The generation of slot `slot` of `carved`: a piece's, an entry of
/// `slotGenerations`, or the base generation (`baseGenerations[slot]` when
/// not empty, else `baseGeneration`); 0 for a slot past the mesh.
uint32_t carvedGeneration(const CarvedMesh& carved, uint32_t slot, uint32_t baseGeneration,
                          std::span<const uint32_t> baseGenerations);

/// The x–z box and heights a change of cuts touches (an obstacle's old or new cut).
struct CarveRegion
{
    glm::dvec2 min{0.0};   ///< Low corner. [Units: m]
    glm::dvec2 max{0.0};   ///< High corner. [Units: m]
    float minY = -1.0e30f; ///< Lowest height. [Units: m]
    float maxY = 1.0e30f;  ///< Highest height. [Units: m]
};

/// A carved mesh as a plain mesh: its walkable polygons only (disabled slots
/// and the vertices only they used left out), renumbered in slot order; what
/// `nav.export` writes. A mesh with no disabled polygon comes back unchanged.
NavMesh walkableMesh(const NavMesh& mesh);

/// The same mesh (slots, disabled flags, tiles) with every derived table —
/// bounds, grid, links, walls, components and the path search's tables —
/// built from scratch, as a bake builds them: what a carving's incremental
/// update (`recarveNavMesh`) must equal; point ids match as a partition
/// (NavMesh::linkEndPoint).
NavMesh reassembledNavMesh(const NavMesh& mesh);

/// The region of a cut.
CarveRegion carveRegionOf(const CarveCut& cut);

/// Carves `base` again after the cuts changed inside `regions`: each base
/// polygon whose bounds meet a region is cut by every cut of `cuts` (in that
/// order) that overlaps it with area and reaches its heights; the other base
/// polygons keep their pieces from `previous` (null: nothing carved before;
/// else carved from the same `base`). Pieces take their base polygon's area
/// id and heights (`heightAt`); pieces under `kMinCarvedPieceArea` are
/// dropped. Slots whose content changed or moved (on a tiled base: moved
/// within its tile) get `generation`; the others keep theirs (base slots
/// never carved: `baseGeneration`, or `baseGenerations[slot]` when that is
/// not empty). With no carved polygon left the mesh is `base` bit for bit.
/// The carved mesh shares `base` and holds only what differs (NavMesh::base):
/// a change costs the cut of the polygons in the regions and the linking,
/// tables and components round them and in the tiles they touch, plus
/// passes over the tile table and the other carvings' pieces; not a pass
/// over the mesh. On a tiled base a piece keeps its generation when it is
/// unchanged at the same `carvedPieceAddress`, so only the tiles a change
/// re-cut get new generations. `renumbered`, when given, receives for each
/// piece of `previous` (index: slot − base polygon count) the slot holding
/// the same polygon now, or kNoPolygon (gone or re-cut); base slots keep
/// their numbers. Corridors are renumbered with it.
CarvedMesh recarveNavMesh(const std::shared_ptr<const NavMesh>& base, const CarvedMesh* previous,
                          std::span<const CarveCut* const> cuts, std::span<const CarveRegion> regions,
                          uint32_t baseGeneration, uint32_t generation, std::span<const uint32_t> baseGenerations = {},
                          std::vector<uint32_t>* renumbered = nullptr);

/// Where a piece of a carved tiled mesh lives for references (`PolyRef`):
/// the tile of the base polygon it was cut from, and its place in that tile
/// after the tile's baked polygons (the tile's polygon count + the piece's
/// index among the tile's pieces, which follow base polygon by base polygon).
/// A change in one tile therefore leaves the addresses of every other tile's
/// pieces as they were, although their slots may move. `tile` is kNoPolygon
/// for an untiled base, a base slot or a slot past the mesh.
struct PieceAddress
{
    uint32_t tile = kNoPolygon; ///< Tile index in `base.tiles()`.
    uint32_t polygon = 0;       ///< Place in the tile (>= the tile's polygon count).
};

/// The address of piece slot `slot` of `carved` (carved from `base`). O(log).
PieceAddress carvedPieceAddress(const CarvedMesh& carved, const NavMesh& base, uint32_t slot);

/// The slot of the piece at `polygon` (>= the tile's polygon count) of tile
/// `tile`, or kNoPolygon when there is none. O(log).
uint32_t carvedPieceSlot(const CarvedMesh& carved, const NavMesh& base, uint32_t tile, uint32_t polygon);

} // namespace spark::nav
SPARK_NAV_API_END
