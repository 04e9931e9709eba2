#pragma once
/// \file navmesh_access.h
/// libnav-internal access to a NavMesh's storage: the one place that derives
/// a mesh's areas, bounds, spatial grid, links and walls from its polygons, so
/// `buildNavMesh` and carving (carved_mesh.cpp) produce meshes the same way.

#include "spark/nav/carve.h"
#include "spark/nav/navmesh.h"

#include <algorithm>
#include <numeric>
#include <span>
#include <utility>
#include <vector>

namespace spark::nav
{

/// The root of `x` in a union–find forest (`parent[root] == root`), halving the path.
inline uint32_t unionFindRoot(std::vector<uint32_t>& parent, uint32_t x)
{
    while (parent[x] != x)
    {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

/// Union–find over ids 0 .. n − 1 whose root is always the smallest id of its
/// set, so what it labels depends on the sets alone, not on the joins' order.
struct SmallestRootSets
{
    std::vector<uint32_t> parent;
    void reset(size_t n)
    {
        parent.resize(n);
        std::iota(parent.begin(), parent.end(), 0u);
    }
    uint32_t find(uint32_t x) { return unionFindRoot(parent, x); }
    void join(uint32_t a, uint32_t b)
    {
        a = find(a);
        b = find(b);
        if (a != b)
            parent[std::max(a, b)] = std::min(a, b);
    }
};

struct NavMeshAccess
{
    /// Fills areas, bounds, grid, links and walls from the mesh's vertices,
    /// polygons, areas, disabled flags, settings and link tolerance.
    static void assemble(NavMesh& mesh);

    /// Labels every polygon with its connected piece (`NavMesh::component`),
    /// from the links: union–find with the smaller id as the root (for links
    /// that are not all seen from both sides; else `deriveGraphTables` labels).
    static void labelComponents(NavMesh& mesh);

    /// Fills the tables the path search reads (`NavMesh::ringXZ`, `ringY`,
    /// `linkBackEdge`, `linkDeadEnd`, the turns and `deriveGraphTables`'s)
    /// from the polygons and links.
    static void deriveQueryTables(NavMesh& mesh);
    /// The whole-graph tables from the links, in one iterative depth-first
    /// search (Tarjan's bridges): the bridge tables (NavMesh::linkBehind,
    /// bridgeOrder) and the components (NavMesh::component; the search's
    /// roots, taken in id order, are the smallest ids of their pieces). When
    /// some link has no link back: no bridge at all, components by `labelComponents`.
    static void deriveGraphTables(NavMesh& mesh);
    /// The turn table (NavMesh::linkEndTurn), from the links and the point ids.
    static void deriveTurns(NavMesh& mesh);

    /// The id of the link end with exactly the bits of `p`, or kNoPolygon.
    static uint32_t findLinkEndPoint(const NavMesh& mesh, const glm::vec3& p);

    /// A mesh with `base`'s settings and the given polygons (valid: convex,
    /// counter-clockwise, at most base.maxPolyVerts() vertices), `disabled`
    /// empty or exactly one flag per polygon, assembled.
    static NavMesh fromParts(const NavMesh& base, std::vector<glm::vec3> vertices, std::vector<uint32_t> indices,
                             std::vector<uint32_t> polyStarts, std::vector<uint8_t> areas, std::vector<uint8_t> disabled);

    /// What carving hands to `carved`: the pieces (vertex ids from the
    /// base's vertex count, in the canonical order of recarveNavMesh) and the
    /// carved base slots.
    struct Pieces
    {
        std::vector<glm::vec3> vertices;
        std::vector<uint32_t> indices;    ///< Vertex ids of the whole mesh.
        std::vector<uint32_t> polyStarts; ///< Pieces + 1 entries, from 0.
        std::vector<uint8_t> areas;       ///< Per piece.
        std::vector<uint32_t> pieceBase;  ///< Per piece: the base slot it was cut from (non-decreasing).
        std::vector<uint32_t> carved;     ///< The carved base slots, increasing.
    };
    /// The carved mesh over `base` with `pieces`, sharing `base` (see
    /// NavMesh's "carved mesh" members): links, walls and tables of its own
    /// for the pieces and for the base slots whose links, walls or tables
    /// differ from the base's; everything else read from the base. What is
    /// not next to the change is copied from `previous` (`*base` or a mesh
    /// carved from it): `previousPiece[i]` is the piece of `previous` that
    /// piece i is the same polygon as (kNoPolygon: new or different);
    /// `changedNew` are the slots new or different now (pieces, slots whose
    /// carved flag flipped), `changedOld` those of `previous` gone or
    /// different. Equal to `reassembled` of the same slots, except that
    /// only the base's bridges between uncarved polygons are marked and point ids may differ.
    static NavMesh carved(const std::shared_ptr<const NavMesh>& base, const NavMesh& previous, Pieces pieces,
                          std::span<const uint32_t> previousPiece, std::span<const uint32_t> changedNew,
                          std::span<const uint32_t> changedOld, CarveWork& work);

    /// buildNavMesh with the tile table set before assembling (empty: untiled);
    /// buildTiledNavMesh checks the table first.
    static Result<NavMesh> build(PolySoup soup, const NavMeshDef& def, uint32_t tileSize, std::vector<NavTile> tiles);

    /// `mesh`'s polygons, disabled flags and tiles, assembled from scratch (reassembledNavMesh).
    static NavMesh reassembled(const NavMesh& mesh);

private:
    /// Areas, bounds and the grid of a plain mesh.
    static void assembleGeometry(NavMesh& mesh);
    /// Rings of every polygon of a plain mesh.
    static void deriveRings(NavMesh& mesh);
    /// The units of a plain mesh (NavMesh::m_unitOf and the rest): its tiles must be set.
    static void deriveUnits(NavMesh& mesh);
    /// The back edge and dead end of link `l` of polygon p (NavMesh::linkBackEdge, linkDeadEnd).
    static std::array<uint32_t, 2> linkTurnOf(const NavMesh& mesh, uint32_t p, const NavLink& l);
    /// Point ids numbered afresh, in the order the links first name them.
    static void numberLinkEnds(NavMesh& mesh);
    /// The turns of `points` ((id, position), increasing id, each once), from
    /// every link end at them, into `out` (one per point).
    static void turnsAt(const NavMesh& mesh, std::span<const std::pair<uint32_t, glm::vec3>> points,
                        std::vector<uint8_t>& out);
    /// A carved mesh's components (NavMesh::m_unitLabel and the rest) from
    /// its base's units, found again in the tiles of `changed` (base slots
    /// whose links differ from the base's).
    static void deriveCarvedUnits(NavMesh& mesh, std::span<const uint32_t> changed);
    template <class F> static void visitLinkCandidates(const NavMesh& mesh, uint32_t p, F&& visit);
    static void linkPair(const NavMesh& mesh, uint32_t p, uint32_t q, std::vector<NavLink>* outP,
                         std::vector<NavLink>* outQ);
    static void sortLinks(std::vector<NavLink>& links);
    static void appendWalls(const NavMesh& mesh, uint32_t p, std::span<const NavLink> links, std::vector<NavWall>& out);
    static void setParts(NavMesh& mesh, const NavMesh& base, std::vector<glm::vec3> vertices,
                         std::vector<uint32_t> indices, std::vector<uint32_t> polyStarts, std::vector<uint8_t> areas,
                         std::vector<uint8_t> disabled);
};

template <class F> inline void NavMeshAccess::visitLinkCandidates(const NavMesh& mesh, uint32_t p, F&& visit)
{
    const Bounds3& bp = mesh.polygonBounds(p);
    const float ft = mesh.m_linkTolerance;
    mesh.visitPolygonsInBoxXZ(bp.min.x - ft, bp.min.z - ft, bp.max.x + ft, bp.max.z + ft,
                              [&](uint32_t q)
                              {
                                  const Bounds3& bq = mesh.polygonBounds(q);
                                  if (bq.min.x > bp.max.x + ft || bq.max.x < bp.min.x - ft ||
                                      bq.min.z > bp.max.z + ft || bq.max.z < bp.min.z - ft)
                                      return;
                                  visit(q);
                              });
}

} // namespace spark::nav
