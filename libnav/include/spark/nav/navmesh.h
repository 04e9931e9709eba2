#pragma once
/// \file navmesh.h
/// The navigation mesh: convex polygons over shared vertices, each with an
/// area id, joined by portal links found by edge overlap.
///
/// Conventions (docs/navmesh.md): metres, +Y up. A polygon's vertices run with positive
/// winding in the x–z plane: its signed area Σ (x_i·z_{i+1} − x_{i+1}·z_i) / 2 is
/// positive (counter-clockwise when x points right and z points up the page; a
/// 2D mesh stores the 2D point (x, y) as (x, 0, y), so a 2D polygon is simply
/// counter-clockwise in its own x–y plane). Edge i of a polygon runs from its
/// vertex i to vertex i + 1 (mod n); the interior lies to its left.
///
/// Links join two polygons whose edges overlap in the ground plane (collinear
/// within `NavMeshDef::linkTolerance`, opposite directions, heights within
/// `NavMeshDef::stepHeight`), whatever their vertex ids, so T-junctions link.
/// A link covers only the overlapping stretch of the edge; a wall is a stretch
/// of an edge that no link covers.
///
/// `NavMesh` is a copyable value (it lives in the session state, which is
/// copied per command). Build it with `buildNavMesh`, which validates the soup.

#include "spark/core/result.h"
#include "spark/nav/poly_soup.h"

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include <array>
#include <bit>
#include <cassert>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "spark/core/export.h"
SPARK_NAV_API_BEGIN

namespace spark::nav
{

struct SPARK_INTERNAL NavMeshAccess; // libnav's own (src/mesh, a friend of NavMesh): not exported

/// Most vertices of a polygon a bake produces.
inline constexpr uint32_t kMaxBakedPolyVerts = 6;
/// Most vertices of a polygon `buildNavMesh` accepts (imported documents). [Limit]
inline constexpr uint32_t kMaxPolyVerts = 32;
/// Most polygons of one mesh. [Limit]
inline constexpr uint32_t kMaxPolygons = 1u << 22;
/// Most vertices of one mesh. [Limit]
inline constexpr uint32_t kMaxVertices = 1u << 24;
/// Largest coordinate magnitude accepted. [Units: m]
inline constexpr float kMaxCoordinate = 1.0e6f;
/// Largest area id.
inline constexpr uint8_t kMaxAreaId = 15;
/// Number of area ids (0..15).
inline constexpr uint32_t kAreaCount = 16;
/// "No polygon".
inline constexpr uint32_t kNoPolygon = 0xffffffffu;
/// Most tiles of one mesh (a `PolyRef` names a tile in 22 bits, and keeps 8
/// for the polygons past the tiles). [Limit]
inline constexpr uint32_t kMaxTiles = (1u << 22) - 8;
/// Most polygons of one tile (a `PolyRef` names a polygon of a tile in 20 bits). [Limit]
inline constexpr uint32_t kMaxTilePolygons = (1u << 20) - 1;

/// The bake settings a mesh was made with: metadata carried by export/import and
/// hashed with the mesh. `stepHeight` is also the height tolerance of linking.
struct NavMeshSettings
{
    float agentRadius = 0.4f; ///< Agent radius the bake eroded by. [Limit: >= 0] [Units: m]
    float agentHeight = 1.8f; ///< Agent height (clearance). [Limit: > 0] [Units: m]
    float stepHeight = 0.4f;  ///< Largest height difference an agent steps over; links join edges within it. [Limit: >= 0] [Units: m]
    float cellSize = 0.2f;    ///< Horizontal cell size of the bake. [Limit: > 0] [Units: m]
    float cellHeight = 0.1f;  ///< Vertical cell size of the bake (2D bakes: unused, kept). [Limit: > 0] [Units: m]
    float maxSlopeDeg = 45.0f; ///< Steepest walkable slope of the bake. [Limit: 0..90] [Units: degrees]
};

/// The defaults of docs/navmesh.md "The 3D bake" (radius 0.4, height 1.8, step 0.4, cell 0.2 × 0.1, slope 45).
NavMeshSettings defaultNavMeshSettings();

/// How `buildNavMesh` reads a soup.
struct NavMeshDef
{
    NavMeshSettings settings;          ///< Bake settings (metadata; `stepHeight` bounds link heights).
    bool is2d = false;                 ///< A 2D mesh: every vertex has y == 0; points are (x, 0, y).
    float linkTolerance = 1.0e-3f;     ///< Largest distance of an edge end from the other edge's line (x–z) for a link; overlaps shorter than this do not link. [Limit: > 0, <= 1] [Units: m]
    uint32_t maxPolyVerts = kMaxPolyVerts; ///< Most vertices per polygon accepted (6 for bakes). [Limit: 3..kMaxPolyVerts]
    /// Refuse polygons that share area (`checkPolygonOverlaps`) before linking.
    /// On for documents from outside; bakes partition space and switch it off.
    bool refuseOverlaps = true;
};

/// The defaults: `defaultNavMeshSettings()`, 3D, tolerance 1 mm, up to `kMaxPolyVerts` vertices.
NavMeshDef defaultNavMeshDef();

/// An axis-aligned box. [Units: m]
struct Bounds3
{
    glm::vec3 min{0.0f}; ///< Low corner.
    glm::vec3 max{0.0f}; ///< High corner.
};

/// A portal: the stretch of edge `edge` of the owning polygon shared with `neighbour`.
struct NavLink
{
    uint32_t neighbour = kNoPolygon; ///< Polygon on the other side.
    uint32_t edge = 0;               ///< Edge index in the owning polygon (vertex edge → edge + 1).
    float tMin = 0.0f;               ///< Start of the stretch along the edge. [Limit: 0..1]
    float tMax = 1.0f;               ///< End of the stretch along the edge. [Limit: tMin..1]
    glm::vec3 a{0.0f};               ///< Stretch start on the owning polygon's edge (at tMin). [Units: m]
    glm::vec3 b{0.0f};               ///< Stretch end on the owning polygon's edge (at tMax). [Units: m]
};

/// A wall: a stretch of a polygon edge no link covers, running a → b in the
/// polygon's winding (the walkable side is to its left).
struct NavWall
{
    uint32_t polygon = kNoPolygon; ///< Owning polygon.
    uint32_t edge = 0;             ///< Edge index in the polygon.
    glm::vec3 a{0.0f};             ///< Start. [Units: m]
    glm::vec3 b{0.0f};             ///< End. [Units: m]
    glm::vec3 normal{0.0f};        ///< Outward unit normal in the x–z plane (y = 0), pointing off the walkable side.
};

/// One tile of a tiled mesh (docs/tiles.md): the polygons baked from the square of
/// `tileSize` × `tileSize` cells of the world's cell lattice whose low corner
/// is cell (x · tileSize, z · tileSize) (cell (i, k) spans x in [i, i + 1) ×
/// cell size from the world origin). A tile's polygons and vertices are
/// contiguous ranges of the mesh, and its polygons use only its own vertices.
struct NavTile
{
    int32_t x = 0;                 ///< Tile column (along x).
    int32_t z = 0;                 ///< Tile row (along z).
    uint32_t firstPolygon = 0;     ///< First polygon of the tile.
    uint32_t polygonCount = 0;     ///< Polygons of the tile. [Limit: 1..kMaxTilePolygons]
    uint32_t firstVertex = 0;      ///< First vertex of the tile.
    uint32_t vertexCount = 0;      ///< Vertices of the tile.
    uint64_t hash = 0;             ///< XXH3-64 of the tile's canonical bytes (derived; see `hashNavTile`).
};

/// The navigation mesh. Invariants (guarded by `buildNavMesh`): every polygon is
/// convex with positive winding, 3..maxPolyVerts vertices, finite coordinates,
/// area 0..15; links and walls are derived from the geometry; the spatial index
/// covers every polygon.
class NavMesh
{
public:
    /// An empty mesh (no polygons). Use `buildNavMesh` for a real one.
    NavMesh() = default;

    /// Number of polygon slots, disabled ones included (ids run 0..polygonCount() - 1).
    uint32_t polygonCount() const { return m_own0 + static_cast<uint32_t>(m_areas.size()); }
    /// Number of walkable (not disabled) polygons.
    uint32_t activePolygonCount() const { return polygonCount() - m_disabledCount; }
    /// True when polygon slot `poly` is disabled: a polygon carving replaced by
    /// pieces (docs/navmesh.md "Obstacles"). It keeps its id and geometry but has no area, links
    /// or walls and is in no spatial look-up. Baked and imported meshes have none.
    bool disabled(uint32_t poly) const
    {
        if (m_disabledCount == 0)
            return false;
        if (m_base) // a carved mesh: only base slots are, one bit each
            return poly < m_own0 && ((m_disabledBits[poly >> 6] >> (poly & 63)) & 1u) != 0;
        return m_disabled[poly] != 0;
    }
    /// Number of disabled polygon slots.
    uint32_t disabledCount() const { return m_disabledCount; }
    /// Number of vertices.
    uint32_t vertexCount() const { return m_vert0 + static_cast<uint32_t>(m_vertices.size()); }
    /// True when the mesh has no polygons.
    bool empty() const { return polygonCount() == 0; }
    /// Vertex `v` (< vertexCount()). [Units: m]
    const glm::vec3& vertex(uint32_t v) const { return v < m_vert0 ? m_base->m_vertices[v] : m_vertices[v - m_vert0]; }
    /// The vertex indices of polygon `poly`, in winding order. `poly` < polygonCount().
    std::span<const uint32_t> polygonIndices(uint32_t poly) const
    {
        assert(poly < polygonCount());
        uint32_t i;
        const NavMesh& g = geo(poly, i);
        return std::span<const uint32_t>(g.m_indices.data() + g.m_polyStarts[i], g.m_polyStarts[i + 1] - g.m_polyStarts[i]);
    }
    /// Number of vertices of polygon `poly`.
    uint32_t polygonVertexCount(uint32_t poly) const
    {
        uint32_t i;
        const NavMesh& g = geo(poly, i);
        return g.m_polyStarts[i + 1] - g.m_polyStarts[i];
    }
    /// Vertex `i` of polygon `poly` (position). [Units: m]
    glm::vec3 polygonVertex(uint32_t poly, uint32_t k) const
    {
        uint32_t i;
        const NavMesh& g = geo(poly, i);
        return g.m_vertices[g.m_indices[g.m_polyStarts[i] + k] - g.m_vert0];
    }
    /// Area id of polygon `poly`. [Limit: 0..15]
    uint8_t area(uint32_t poly) const
    {
        uint32_t i;
        return geo(poly, i).m_areas[i];
    }
    /// Area of polygon `poly` projected on the x–z plane (0 when disabled). [Units: m²]
    float polygonArea(uint32_t poly) const
    {
        if (poly < m_own0)
            return disabled(poly) ? 0.0f : m_base->m_polyAreas[poly];
        return m_polyAreas[poly - m_own0];
    }
    /// Running sum of polygon areas: entry i = area of polygons 0..i (x–z). [Units: m²]
    std::span<const double> areaPrefix() const { return m_base ? carvedAreaPrefix() : std::span<const double>(m_areaPrefix); }
    /// Total x–z area of the mesh. [Units: m²]
    double totalArea() const
    {
        const std::span<const double> prefix = areaPrefix();
        return prefix.empty() ? 0.0 : prefix.back();
    }
    /// Bounds of polygon `poly`.
    const Bounds3& polygonBounds(uint32_t poly) const
    {
        uint32_t i;
        return geo(poly, i).m_polyBounds[i];
    }
    /// The connected piece of the mesh polygon `poly` lies in (links followed
    /// both ways; ids are the smallest polygon id of each piece). Two polygons
    /// in different pieces cannot reach each other by links, whatever the filter.
    uint32_t component(uint32_t poly) const { return m_base ? carvedComponent(poly) : m_component[poly]; }
    /// Polygon `poly`'s vertices in x–z as doubles (x, z), the ring written
    /// twice: entry i (0 .. 2n − 1) is vertex i mod n, so the n entries from i
    /// are the polygon starting at vertex i (precomputed for the path search).
    const glm::dvec2* ringXZ(uint32_t poly) const
    {
        uint32_t i;
        const NavMesh& g = geo(poly, i);
        return g.m_ringXZ.data() + 2 * size_t(g.m_polyStarts[i]);
    }
    /// The heights of the same ring entries. [Units: m]
    const float* ringY(uint32_t poly) const
    {
        uint32_t i;
        const NavMesh& g = geo(poly, i);
        return g.m_ringY.data() + 2 * size_t(g.m_polyStarts[i]);
    }
    /// For link `link` (a link id, see `link`) from polygon p to q: the edge of q
    /// whose links lead back to p when that is one edge (0 when none), or
    /// kNoPolygon when several do (precomputed for the path search).
    uint32_t linkBackEdge(uint32_t link) const
    {
        return link < m_link0 ? m_base->m_linkBackEdge[link] : m_linkBackEdge[link - m_link0];
    }
    /// For link `link` from polygon p to q: kNoPolygon when q is not a dead end
    /// seen from p; q when q has at most one link; else the polygon r beyond q
    /// (q's two links lead to p and r, r ≠ p, and r has at most one link)
    /// (precomputed for the path search).
    uint32_t linkDeadEnd(uint32_t link) const
    {
        return link < m_link0 ? m_base->m_linkDeadEnd[link] : m_linkDeadEnd[link - m_link0];
    }
    /// The polygons behind link `link` (from p to q) when it is a bridge of
    /// the link graph: the one link each way between p and q, and every
    /// chain of links from q's side to p's crosses it (precomputed for the
    /// path search: a shortest path never enters such a side and leaves by
    /// the same portal). As bridgeOrder numbers: none when lo == hi, those
    /// in [lo, hi) when lo < hi, those outside [hi, lo) when lo > hi. A
    /// carved mesh keeps its base's bridges between polygons carving left
    /// whole (carving only takes links away, so they still are bridges) and
    /// marks no other: the search prunes a little less near obstacles.
    struct LinkBehind
    {
        uint32_t lo, hi;
    };
    LinkBehind linkBehind(uint32_t link) const
    {
        return link < m_link0 ? m_base->m_linkBehind[link] : m_linkBehind[link - m_link0];
    }
    /// Polygon `poly`'s number in the depth-first order `linkBehind` uses
    /// (a carved mesh's piece: its base polygon's).
    uint32_t bridgeOrder(uint32_t poly) const
    {
        uint32_t i;
        return geo(poly, i).m_bridgeOrder[i];
    }
    /// Point id of end `end` of link `link` (0: its `a`, 1: its `b`); ends
    /// with the same bits (x, y, z) share an id, and ends
    /// with different bits never do. Ids are below linkEndPointCount(); a
    /// built mesh numbers them in the order the links first name them, a
    /// carved mesh keeps its base's ids and the previous carving's, and
    /// numbers new points after them, so some ids may name no end
    /// (precomputed for the path search, which only indexes and compares by them).
    uint32_t linkEndPoint(uint32_t link, uint32_t end) const
    {
        return link < m_link0 ? m_base->m_linkEndPoint[2 * size_t(link) + end]
                              : m_linkEndPoint[2 * size_t(link - m_link0) + end];
    }
    /// One more than the largest link end point id.
    uint32_t linkEndPointCount() const { return m_point0 + m_endPointCount; }
    /// How link end point `id` (< linkEndPointCount()) meets the free space:
    /// bit kTurnCorner when a shortest path may turn there (a corner of the
    /// free space that is not convex, or a point whose surroundings could not
    /// be proven free or straight: see deriveQueryTables); bit kTurnAreas when
    /// polygons of more than one area meet there (a corner once an area is
    /// excluded); bit kTurnWall when a wall passes through it (straight on or
    /// turning convexly: a start lying a rounding's width beyond the wall's
    /// line may have to turn there). Precomputed for the path search.
    uint8_t linkEndTurn(uint32_t id) const
    {
        if (id >= m_point0)
            return m_linkEndTurn[id - m_point0];
        if (!m_turnOverIds.empty() && ((m_turnOverBits[id >> 6] >> (id & 63)) & 1u) != 0)
            return turnOverride(id);
        return m_base->m_linkEndTurn[id];
    }
    static constexpr uint8_t kTurnCorner = 1; ///< linkEndTurn: an obstacle corner.
    static constexpr uint8_t kTurnAreas = 2;  ///< linkEndTurn: where areas meet.
    static constexpr uint8_t kTurnWall = 4;   ///< linkEndTurn: on a wall, not a corner.
    /// The point id of the link end with the same bits as `p`, or
    /// linkEndPointCount() when no link end has them.
    uint32_t linkEndPointOf(const glm::vec3& p) const;
    /// Links of polygon `poly`, ordered by edge then stretch start.
    std::span<const NavLink> links(uint32_t poly) const
    {
        assert(poly < polygonCount());
        const uint32_t t = topo(poly);
        if (t == kNoPolygon)
            return std::span<const NavLink>(m_base->m_links.data() + m_base->m_linkStarts[poly],
                                            m_base->m_linkStarts[poly + 1] - m_base->m_linkStarts[poly]);
        return std::span<const NavLink>(m_links.data() + m_linkStarts[t], m_linkStarts[t + 1] - m_linkStarts[t]);
    }
    /// Link ids run 0 .. linkCount() − 1 (the path search's per-link tables
    /// are indexed by them); polygon `poly`'s links are the ids from
    /// firstLink(poly), in the order `links` gives them. A carved mesh's
    /// ids past its base's name its own links, and some of the base's name
    /// links no polygon has any more. Queries reach links through these
    /// (never through whole-array pointers).
    uint32_t linkCount() const { return m_link0 + static_cast<uint32_t>(m_links.size()); }
    /// The id of polygon `poly`'s first link (links(poly)[i] is link firstLink(poly) + i).
    uint32_t firstLink(uint32_t poly) const
    {
        const uint32_t t = topo(poly);
        return t == kNoPolygon ? m_base->m_linkStarts[poly] : m_link0 + m_linkStarts[t];
    }
    /// Link `link` (an id below linkCount()).
    const NavLink& link(uint32_t link) const { return link < m_link0 ? m_base->m_links[link] : m_links[link - m_link0]; }
    /// Walls of polygon `poly`, ordered by edge then stretch start.
    std::span<const NavWall> walls(uint32_t poly) const
    {
        assert(poly < polygonCount());
        const uint32_t t = topo(poly);
        if (t == kNoPolygon)
            return std::span<const NavWall>(m_base->m_walls.data() + m_base->m_wallStarts[poly],
                                            m_base->m_wallStarts[poly + 1] - m_base->m_wallStarts[poly]);
        return std::span<const NavWall>(m_walls.data() + m_wallStarts[t], m_wallStarts[t + 1] - m_wallStarts[t]);
    }
    /// Wall ids run 0 .. wallCount() − 1 (as link ids); polygon `poly`'s
    /// walls are the ids from firstWall(poly).
    uint32_t wallCount() const { return m_wall0 + static_cast<uint32_t>(m_walls.size()); }
    /// The id of polygon `poly`'s first wall (walls(poly)[i] is wall firstWall(poly) + i).
    uint32_t firstWall(uint32_t poly) const
    {
        const uint32_t t = topo(poly);
        return t == kNoPolygon ? m_base->m_wallStarts[poly] : m_wall0 + m_wallStarts[t];
    }
    /// Bounds of the whole mesh (all zero when empty).
    const Bounds3& bounds() const { return m_bounds; }
    /// True for a 2D mesh (points (x, 0, y)).
    bool is2d() const { return m_is2d; }
    /// The bake settings the mesh was made with.
    const NavMeshSettings& settings() const { return m_settings; }
    /// The link tolerance the mesh was built with. [Units: m]
    float linkTolerance() const { return m_linkTolerance; }
    /// Largest vertex count per polygon the mesh was built to accept.
    uint32_t maxPolyVerts() const { return m_maxPolyVerts; }
    /// True for a tiled mesh (docs/tiles.md).
    bool tiled() const { return !tiles().empty(); }
    /// Tile edge in cells (0 for an untiled mesh).
    uint32_t tileSize() const { return m_tileSize; }
    /// The tiles in tile order (z, then x); empty for an untiled mesh.
    std::span<const NavTile> tiles() const { return m_base ? m_base->m_tiles : m_tiles; }
    /// The tile holding polygon `poly`, or kNoPolygon when the mesh is untiled
    /// or `poly` is a piece carving added after the tiles' polygons.
    uint32_t tileOfPolygon(uint32_t poly) const;
    /// A carved mesh's base: the mesh it shares every polygon slot below
    /// `base()->polygonCount()` with (null for a baked or imported mesh).
    const std::shared_ptr<const NavMesh>& base() const { return m_base; }

    /// Height of polygon `poly` at x–z position (x, z): interpolated on its
    /// triangle fan (clamped to the polygon when (x, z) lies outside). [Units: m]
    float heightAt(uint32_t poly, float x, float z) const;
    /// True when (x, z) lies in polygon `poly` in the x–z plane, within `eps` of its edges. [Units: m]
    bool containsXZ(uint32_t poly, float x, float z, float eps) const;
    /// The point of polygon `poly` closest to `p` (3D distance measured to the
    /// point of the polygon's surface closest in x–z, then its height).
    glm::vec3 closestPointOnPolygon(uint32_t poly, const glm::vec3& p) const;

    /// Calls `visit(poly)` for every polygon whose x–z bounds may overlap the
    /// x–z box [minX, maxX] × [minZ, maxZ] (spatial grid look-up; a polygon may be
    /// visited more than once, and some visited ones may not overlap: test them).
    /// Disabled polygons are never visited.
    template <class F> void visitPolygonsInBoxXZ(float minX, float minZ, float maxX, float maxZ, F&& visit) const
    {
        if (empty() || maxX < m_bounds.min.x || maxZ < m_bounds.min.z || minX > m_bounds.max.x ||
            minZ > m_bounds.max.z)
            return;
        // A carved mesh looks up its base's grid (its disabled slots skipped)
        // and its pieces, listed by the same cells.
        const NavMesh& g = m_base ? *m_base : *this;
        const int x0 = g.cellCoord(minX, g.m_gridOriginX, g.m_gridCols);
        const int x1 = g.cellCoord(maxX, g.m_gridOriginX, g.m_gridCols);
        const int z0 = g.cellCoord(minZ, g.m_gridOriginZ, g.m_gridRows);
        const int z1 = g.cellCoord(maxZ, g.m_gridOriginZ, g.m_gridRows);
        for (int z = z0; z <= z1; ++z)
            for (int x = x0; x <= x1; ++x)
                visitCell(static_cast<uint32_t>(z) * static_cast<uint32_t>(g.m_gridCols) + static_cast<uint32_t>(x), visit);
    }

private:
    friend Result<NavMesh> buildNavMesh(PolySoup soup, const NavMeshDef& def);
    friend Result<NavMesh> buildTiledNavMesh(PolySoup soup, const NavMeshDef& def, uint32_t tileSize,
                                             std::vector<NavTile> tiles);
    friend struct NavMeshAccess; // libnav's carving builds meshes from pieces (src/mesh)

    int cellCoord(float v, float origin, int count) const
    {
        float f = (v - origin) * m_gridInvCell;
        if (!(f > 0.0f))
            return 0;
        if (f >= static_cast<float>(count - 1))
            return count - 1;
        return static_cast<int>(f);
    }
    /// The polygons listed in grid cell `cell` (of the base's grid for a
    /// carved mesh), disabled ones left out (visitPolygonsInBoxXZ).
    template <class F> void visitCell(uint32_t cell, F&& visit) const
    {
        const NavMesh& g = m_base ? *m_base : *this;
        for (uint32_t k = g.m_cellStarts[cell]; k < g.m_cellStarts[cell + 1]; ++k)
            if (m_disabledCount == 0 || !disabled(g.m_cellItems[k]))
                visit(g.m_cellItems[k]);
        if (!m_pieceCells.empty())
            for (size_t k = firstPieceCell(cell); k < m_pieceCells.size() && m_pieceCells[k][0] == cell; ++k)
                visit(m_pieceCells[k][1]);
    }
    /// The grid cell holding x–z point (x, z), clamped to the grid (as visitPolygonsInBoxXZ's).
    uint32_t cellOf(float x, float z) const
    {
        const NavMesh& g = m_base ? *m_base : *this;
        return static_cast<uint32_t>(g.cellCoord(z, g.m_gridOriginZ, g.m_gridRows)) * static_cast<uint32_t>(g.m_gridCols) +
               static_cast<uint32_t>(g.cellCoord(x, g.m_gridOriginX, g.m_gridCols));
    }
    /// Where polygon `poly`'s geometry lives: the base (carved mesh, `poly` a
    /// base slot) or this mesh, and its index there (`i`).
    const NavMesh& geo(uint32_t poly, uint32_t& i) const
    {
        if (poly < m_own0)
        {
            i = poly;
            return *m_base;
        }
        i = poly - m_own0;
        return *this;
    }
    /// This mesh's own index of polygon `poly`'s links and walls
    /// (`m_linkStarts`, `m_wallStarts`), or kNoPolygon when
    /// they are the base's: a plain mesh owns all (index = id); a carved
    /// mesh owns its pieces' (first) and those of the base slots listed in
    /// `m_overIds` (after them).
    uint32_t topo(uint32_t poly) const
    {
        if (poly >= m_own0)
            return poly - m_own0;
        if (m_overIds.empty() || ((m_overBits[poly >> 6] >> (poly & 63)) & 1u) == 0)
            return kNoPolygon;
        return overTopo(poly);
    }
    uint32_t overTopo(uint32_t poly) const           // a listed base slot's own index: pieces + its rank in the bits
    {
        const uint64_t below = m_overBits[poly >> 6] & ((uint64_t(1) << (poly & 63)) - 1);
        return static_cast<uint32_t>(m_areas.size()) + m_overRank[poly >> 6] + static_cast<uint32_t>(std::popcount(below));
    }
    uint8_t turnOverride(uint32_t id) const;         // a base point's turn in this carved mesh
    size_t firstPieceCell(uint32_t cell) const;      // first m_pieceCells entry of `cell`
    uint32_t carvedUnit(uint32_t poly) const;        // a carved mesh's unit of `poly` (see m_unitOf)
    uint32_t carvedComponent(uint32_t poly) const;   // component() of a carved mesh
    std::span<const double> carvedAreaPrefix() const; // areaPrefix() of a carved mesh (made on first use)

    // Geometry, per own polygon (a plain mesh: every polygon; a carved
    // mesh: its pieces, polygon ids from m_own0, vertex ids from m_vert0).
    std::vector<glm::vec3> m_vertices;
    std::vector<uint32_t> m_indices;    // vertex ids (global)
    std::vector<uint32_t> m_polyStarts; // own polygons + 1 entries (or empty)
    std::vector<uint8_t> m_areas;
    std::vector<float> m_polyAreas;
    std::vector<double> m_areaPrefix; // plain meshes only
    std::vector<Bounds3> m_polyBounds;
    std::vector<glm::dvec2> m_ringXZ;   // two per polygon index (ringXZ)
    std::vector<float> m_ringY;         // two per polygon index (ringY)
    std::vector<uint32_t> m_bridgeOrder;  // one per own polygon
    // Links, walls and flags by own index (topo); links and walls by own id (id − m_link0, id − m_wall0).
    std::vector<uint8_t> m_disabled; // plain meshes: one per polygon when any is disabled, else empty
    uint32_t m_disabledCount = 0;
    std::vector<NavLink> m_links;
    std::vector<uint32_t> m_linkStarts; // own indices + 1 entries
    std::vector<uint32_t> m_linkBackEdge; // one per own link
    std::vector<uint32_t> m_linkDeadEnd;  // one per own link
    std::vector<LinkBehind> m_linkBehind; // one per own link
    std::vector<uint32_t> m_linkEndPoint; // two per own link (linkEndPoint); found by position through the grid
    std::vector<uint8_t> m_linkEndTurn;   // one per own point id (id − m_point0)
    uint32_t m_endPointCount = 0;         // own point ids
    std::vector<NavWall> m_walls;
    std::vector<uint32_t> m_wallStarts; // own indices + 1 entries
    std::vector<uint32_t> m_component;  // plain meshes: one per polygon
    // Plain meshes: each polygon's piece of its tile (a "unit": polygons of
    // one tile joined by links inside it; an untiled mesh is one tile), the
    // unit's tile and smallest polygon, and the pairs of units linked across
    // tiles (unique, sorted). Carving finds a carved mesh's components from
    // these without a pass over the whole mesh.
    std::vector<uint32_t> m_unitOf;
    std::vector<uint32_t> m_unitTile;
    std::vector<uint32_t> m_unitMin;
    std::vector<std::array<uint32_t, 2>> m_unitSeams;
    Bounds3 m_bounds;
    bool m_is2d = false;
    NavMeshSettings m_settings;
    float m_linkTolerance = 1.0e-3f;
    uint32_t m_maxPolyVerts = kMaxPolyVerts;
    uint32_t m_tileSize = 0;
    std::vector<NavTile> m_tiles; // plain meshes (a carved mesh's are its base's)
    // Uniform grid over polygon x–z bounds (CSR lists of polygon ids per cell; plain meshes).
    float m_gridOriginX = 0.0f;
    float m_gridOriginZ = 0.0f;
    float m_gridInvCell = 1.0f;
    float m_gridCell = 1.0f;
    int m_gridCols = 1;
    int m_gridRows = 1;
    std::vector<uint32_t> m_cellStarts;
    std::vector<uint32_t> m_cellItems;

    // A carved mesh (docs/tiles.md "Carving"): its base, shared, and what
    // differs from it. Ids below these counts are the base's.
    std::shared_ptr<const NavMesh> m_base;
    uint32_t m_own0 = 0, m_vert0 = 0, m_link0 = 0, m_wall0 = 0, m_point0 = 0;
    std::vector<uint64_t> m_overBits;  // base slots with links, walls and flags of their own (one bit each)
    std::vector<uint32_t> m_overIds;   // the same slots, increasing
    std::vector<uint32_t> m_overRank;  // per word of m_overBits: the bits set in the words before it
    std::vector<uint64_t> m_disabledBits; // the carved base slots (one bit each)
    std::vector<uint64_t> m_turnOverBits; // base points whose turn differs (one bit each)
    std::vector<uint32_t> m_turnOverIds;  // the same points, increasing
    std::vector<uint8_t> m_turnOverValues; // their turns
    std::vector<uint32_t> m_pieceBase;  // per piece: the base slot it was cut from
    std::vector<std::array<uint32_t, 2>> m_pieceCells; // (base grid cell, piece id), sorted
    // Components: units of the tiles carving touched, found again; every
    // unit's component label (base units of touched tiles unused).
    std::vector<uint32_t> m_unitLabel;
    std::vector<uint64_t> m_touchedBits;   // tiles whose units were found again (one bit each)
    std::vector<uint32_t> m_touchedTiles;  // the same, increasing
    std::vector<uint32_t> m_touchedStarts; // per touched tile: first entry in m_touchedUnits (+1 entry)
    std::vector<uint32_t> m_touchedUnits;  // per base polygon of a touched tile: its unit
    std::vector<uint32_t> m_pieceUnit;     // per piece: its unit
    struct LazyPrefix;
    std::shared_ptr<LazyPrefix> m_lazyPrefix; // carved: the area prefix, made on first use
};

/// Builds a mesh from a soup: validates it (finite coordinates within
/// ±kMaxCoordinate, y == 0 when `def.is2d`, 3..def.maxPolyVerts vertices per
/// polygon, valid and distinct indices, convex with positive winding and
/// non-zero area, area ids 0..15, sizes consistent), then finds the portal
/// links and walls and builds the spatial index. -0 coordinates become +0.
/// Errors: `E_NAV_FORMAT` (field: `/vertices/i`, `/polygons/i`, `/areas/i`),
/// `E_NAV_LIMIT` (too many polygons, vertices or polygon vertices),
/// `E_NAV_CONFIG` (bad def), `E_NAV_NO_GEOMETRY` (no polygons). The mesh
/// takes over the soup's storage: pass an rvalue (`std::move(soup)`) to build
/// a big mesh without a second copy of its polygons.
Result<NavMesh> buildNavMesh(PolySoup soup, const NavMeshDef& def);

/// Builds a tiled mesh: `buildNavMesh` on the soup (the tiles' polygons
/// concatenated in tile order), then the tile table. The tiles must be in
/// strictly increasing (z, x) order, their polygon and vertex ranges must
/// follow each other from 0 and cover the soup, each tile must hold 1 ..
/// kMaxTilePolygons polygons and its polygons must use only its vertices;
/// `tileSize` is 1..65536 cells. Their hashes are computed here (the given
/// ones are ignored). Errors: those of `buildNavMesh`, and `E_NAV_FORMAT`
/// (field `/tiles/i`) or `E_NAV_LIMIT` for a bad tile table.
Result<NavMesh> buildTiledNavMesh(PolySoup soup, const NavMeshDef& def, uint32_t tileSize,
                                  std::vector<NavTile> tiles);

/// Joins tiled meshes (subset bakes of one level, docs/tiles.md) into one tiled
/// mesh: every tile of every part, in tile order, each with its own polygons
/// and vertices as it was, so subsets that together hold every tile of a
/// whole bake merge into that bake bit for bit. A tile found in two parts is
/// taken once when both copies hash the same. Errors: `E_NAV_FORMAT` (field
/// `/parts/i`) for no parts, a part that is untiled or carved, parts baked
/// with other settings or tile sizes, or one tile with two different
/// contents; those of `buildTiledNavMesh`.
Result<NavMesh> mergeTiledNavMeshes(std::span<const NavMesh* const> parts);

/// A box of tiles, both ends included: tiles (x, z) with x0 <= x <= x1 and z0 <= z <= z1.
struct NavTileBox
{
    int32_t x0 = 0; ///< First tile column.
    int32_t x1 = -1; ///< Last tile column (< x0: no tile).
    int32_t z0 = 0; ///< First tile row.
    int32_t z1 = -1; ///< Last tile row (< z0: no tile).
};

/// `mesh` with its tiles inside `box` replaced by the tiles of `fresh` (a
/// per-tile re-bake; null: those tiles are dropped): the other tiles are
/// copied as they are, the result in tile order as `mergeTiledNavMeshes`
/// joins. Errors: `E_NAV_FORMAT` (field `/mesh` or `/tiles`) for an untiled
/// or carved mesh, other settings, or a new tile outside `box`;
/// `E_NAV_NO_GEOMETRY` when no tile is left; those of `buildTiledNavMesh`.
Result<NavMesh> replaceNavMeshTiles(const NavMesh& mesh, const NavTileBox& box, const NavMesh* fresh);

/// `mesh` without the tiles at `gone` ((x, z) each), the others copied as
/// they are. Errors: `E_NAV_FORMAT` (`/mesh`) for an untiled or carved mesh,
/// `E_INVALID_PARAMS` (`/tiles/i`) for a tile not in the mesh,
/// `E_NAV_NO_GEOMETRY` when no tile is left.
Result<NavMesh> removeNavMeshTiles(const NavMesh& mesh, std::span<const std::array<int32_t, 2>> gone);

/// Checks that no two polygons of a (validated: convex, counter-clockwise)
/// soup share area in the x–z plane while lying within `def.settings.stepHeight`
/// of each other vertically (any two, for a 2D mesh). `E_NAV_FORMAT` naming the
/// later polygon (`/polygons/i`); `E_NAV_LIMIT` when so many polygons crowd one
/// area that checking them would take minutes. O(n log n) for polygons of about
/// even size.
Status checkPolygonOverlaps(const PolySoup& soup, const NavMeshDef& def);

/// Canonical little-endian serialisation: magic "SPNM", format version, the def,
/// vertices, polygons and areas, then, only for a tiled mesh, "TILE" and the
/// tile table, then, only for a carved mesh, "DSBL" and the ids of its
/// disabled polygons. Equal meshes give equal bytes; an untiled mesh with no
/// disabled polygon serialises exactly as before tiles and carving existed.
std::vector<uint8_t> serializeNavMesh(const NavMesh& mesh);

/// Reads bytes written by `serializeNavMesh` and rebuilds (and re-validates)
/// the mesh. Errors: `E_NAV_FORMAT` (truncated, bad magic or version, bad
/// content, trailing bytes — a carved mesh is not read back: the world keeps
/// its base and obstacles), plus those of `buildNavMesh`.
Result<NavMesh> deserializeNavMesh(std::span<const uint8_t> bytes);

/// The mesh hash. Untiled: XXH3-64 of `serializeNavMesh(mesh)`. Tiled: XXH3-64
/// of "SPNT", the tile size and each tile's (x, z, hash) in tile order
/// (docs/tiles.md), followed, for a carved mesh, by the hash of its whole bytes.
uint64_t hashNavMesh(const NavMesh& mesh);

/// XXH3-64 of tile `tile`'s canonical bytes: "SPTL", the format version, the
/// mesh def (as in `serializeNavMesh`), the tile size, the tile's x and z, its
/// vertices, and its polygons (indices counted from the tile's first vertex)
/// with their areas. It depends on nothing outside the tile, so a tile baked
/// alone hashes as the same tile baked in a whole world. `tile` < tiles().size().
uint64_t hashNavTile(const NavMesh& mesh, uint32_t tile);

/// Hash of everything a polygon soup holds (a bake's output before the mesh
/// is built): the vertex count and vertices, the index count and indices,
/// the polygon starts and the areas (spark::Hasher, little-endian fields).
uint64_t hashPolySoup(const PolySoup& soup);

} // namespace spark::nav
SPARK_NAV_API_END
