#pragma once
/// \file navmesh_access.h
/// libnav-internal access to a NavMesh's storage: the one place that derives
/// a mesh's areas, bounds, spatial grid, links and walls from its polygons, so
/// `buildNavMesh` and carving (carved_mesh.cpp) produce meshes the same way.

#include "spark/nav/carve.h"
#include "spark/nav/navmesh.h"

#include <span>
#include <vector>

namespace spark::nav
{

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

    /// As `deriveQueryTables` after `assembleIncremental`: polygon p's links
    /// are `previous`'s polygon copiedFrom[p]'s, renumbered by `remap`
    /// (kNoPolygon: linked again). Tables of links away from a change are
    /// copied; point ids are kept (see NavMesh::linkEndPoint). `relinkedOld`:
    /// `previous`'s polygons whose links no polygon copies (gone or linked
    /// again); the first `kept` polygons have `previous`'s vertices and indices.
    static void deriveQueryTablesIncremental(NavMesh& mesh, const NavMesh& previous, std::span<const uint32_t> remap,
                                             std::span<const uint32_t> copiedFrom,
                                             std::span<const uint32_t> relinkedOld, uint32_t kept, CarveWork& work);

    /// The id of the link end with exactly the bits of `p`, or kNoPolygon.
    static uint32_t findLinkEndPoint(const NavMesh& mesh, const glm::vec3& p);

    /// As `assemble`, but only the polygons next to a change are linked
    /// again: `changedNew` (this mesh's polygons that are new or different),
    /// the polygons meeting them, and the previous neighbours of `changedOld`
    /// (`previous`'s polygons that are gone or different). Every other polygon
    /// keeps its geometry and neighbours, so its links and walls are copied
    /// from `previous` (whose polygon o is this mesh's `remap[o]`, kNoPolygon
    /// when gone), renumbered. The first `kept` polygons have `previous`'s
    /// vertices and indices (carving's base slots). The same result as `assemble`.
    static void assembleIncremental(NavMesh& mesh, const NavMesh& previous, std::span<const uint32_t> remap,
                                    std::span<const uint32_t> changedNew, std::span<const uint32_t> changedOld,
                                    uint32_t kept, CarveWork& work);

    /// A mesh with `base`'s settings and the given polygons (valid: convex,
    /// counter-clockwise, at most base.maxPolyVerts() vertices), `disabled`
    /// empty or exactly one flag per polygon, assembled.
    static NavMesh fromParts(const NavMesh& base, std::vector<glm::vec3> vertices, std::vector<uint32_t> indices,
                             std::vector<uint32_t> polyStarts, std::vector<uint8_t> areas, std::vector<uint8_t> disabled);

    /// As `fromParts`, assembled with `assembleIncremental` against `previous`.
    static NavMesh fromPartsIncremental(const NavMesh& base, const NavMesh& previous, std::span<const uint32_t> remap,
                                        std::span<const uint32_t> changedNew, std::span<const uint32_t> changedOld,
                                        std::vector<glm::vec3> vertices,
                                        std::vector<uint32_t> indices, std::vector<uint32_t> polyStarts,
                                        std::vector<uint8_t> areas, std::vector<uint8_t> disabled, CarveWork& work);

    /// `mesh`'s polygons, disabled flags and tiles, assembled from scratch (reassembledNavMesh).
    static NavMesh reassembled(const NavMesh& mesh);

private:
    /// Areas, bounds and the grid; the first `kept` polygons have `previous`'s
    /// vertices and indices, so their bounds are copied.
    static void assembleGeometry(NavMesh& mesh, const NavMesh* previous = nullptr, uint32_t kept = 0);
    /// Rings of every polygon; the first `kept` copied from `previous` (same vertices and indices).
    static void deriveRings(NavMesh& mesh, const NavMesh* previous = nullptr, uint32_t kept = 0);
    /// Link `li` of polygon p's back edge and dead end (NavMesh::linkBackEdge, linkDeadEnd).
    static void deriveLinkTurn(NavMesh& mesh, uint32_t p, uint32_t li);
    static void updateLinkTurns(NavMesh& mesh, const NavMesh& previous, std::span<const uint32_t> remap,
                                std::span<const uint32_t> copiedFrom, CarveWork& work);
    /// Point ids numbered afresh, in the order the links first name them.
    static void numberLinkEnds(NavMesh& mesh);
    static void updateLinkEnds(NavMesh& mesh, const NavMesh& previous, std::span<const uint32_t> copiedFrom,
                               std::span<const uint32_t> relinkedOld, CarveWork& work);
    /// As `deriveTurns`, only at the points with an end on a polygon linked
    /// again (now or in `previous`); the other points' turns are copied.
    static void updateTurns(NavMesh& mesh, const NavMesh& previous, std::span<const uint32_t> copiedFrom,
                            std::span<const uint32_t> relinkedOld, CarveWork& work);
    template <class F> static void visitLinkCandidates(const NavMesh& mesh, uint32_t p, F&& visit);
    static void linkPair(const NavMesh& mesh, uint32_t p, uint32_t q, std::vector<NavLink>* outP,
                         std::vector<NavLink>* outQ);
    static void sortLinks(std::vector<NavLink>& links);
    static void appendWalls(NavMesh& mesh, uint32_t p, std::span<const NavLink> links);
    static void setParts(NavMesh& mesh, const NavMesh& base, std::vector<glm::vec3> vertices,
                         std::vector<uint32_t> indices, std::vector<uint32_t> polyStarts, std::vector<uint8_t> areas,
                         std::vector<uint8_t> disabled);
};

} // namespace spark::nav
