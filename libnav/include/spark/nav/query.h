#pragma once
/// \file query.h
/// Queries on a `NavMesh`: nearest point, path (any-angle or A* corridor + funnel),
/// raycast along the mesh, uniform random points, walls near a point.
///
/// Hot queries take a caller-owned `QueryScratch` (node arrays, open heap,
/// corridor buffers) and a caller-owned result, both reused between calls, so a
/// query allocates nothing once the buffers have grown to the mesh. Ties are
/// broken by polygon id, then index, so every answer is deterministic.

#include "spark/core/result.h"
#include "spark/core/rng.h"
#include "spark/nav/navmesh.h"
#include "spark/nav/offmesh.h"

#include <glm/vec3.hpp>

#include <array>
#include <memory>
#include <span>
#include <cstdint>
#include <utility>
#include <vector>

#include "spark/core/export.h"
SPARK_NAV_API_BEGIN

namespace spark::nav
{

/// Which polygons a query may use and what crossing them costs.
struct QueryFilter
{
    /// Cost multiplier per area id: travelling d metres in a polygon of area a costs d · areaCosts[a]. [Limit: > 0, finite, <= 1e6]
    std::array<float, kAreaCount> areaCosts{1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f,
                                            1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f};
    /// Bit a set = area a may not be entered (treated like a wall).
    uint16_t excludedAreas = 0;
};

/// All areas allowed, all costs 1.
QueryFilter defaultQueryFilter();

/// Checks a filter. Errors: `E_INVALID_PARAMS` (field `/area_costs/<a>`).
Status validateQueryFilter(const QueryFilter& filter);

/// The default search box half-extents for locating points on `mesh`:
/// 2 × agent radius horizontally but at least one cell size (so radius-0 meshes
/// still snap points a little off), agent height vertically. [Units: m]
glm::vec3 defaultQueryExtents(const NavMesh& mesh);

/// Reusable working memory of the queries (node arrays, open lists, funnels;
/// what it holds is libnav's own, `libnav/src/query/query_scratch.h`).
/// Contents are meaningless between calls; one scratch per thread. It grows to
/// the largest mesh it served, so a query allocates nothing once it has grown.
/// A copy starts empty (there is nothing worth copying).
class QueryScratch
{
public:
    struct Data; ///< The working arrays (internal to libnav).

    QueryScratch();
    ~QueryScratch();
    QueryScratch(const QueryScratch&);
    QueryScratch& operator=(const QueryScratch&);

    /// Nodes the last any-angle path search made (benchmarks report its peak;
    /// 0 after a findPath the straight-line walk answered).
    uint32_t lastSearchNodes() const;

    /// The working arrays (for libnav's queries).
    Data& data() { return *m_data; }
    const Data& data() const { return *m_data; }

private:
    std::unique_ptr<Data> m_data;
};

/// A point on the mesh.
struct MeshPoint
{
    uint32_t polygon = kNoPolygon; ///< Polygon holding the point.
    glm::vec3 point{0.0f};         ///< Position. [Units: m]
    float distance = 0.0f;         ///< Distance from the queried point. [Units: m]
};

/// The point of the mesh nearest to `point` within the box `point ± halfExtents`
/// (distance measured in 3D to the polygon surface; ties: lowest polygon id).
/// Errors: `E_NAV_OFF_MESH` (nothing within extents), `E_INVALID_PARAMS`
/// (non-finite point or extents, negative extents).
Result<MeshPoint> findNearest(const NavMesh& mesh, const glm::vec3& point, const glm::vec3& halfExtents);

/// The answer of `findPath`.
struct PathResult
{
    std::vector<glm::vec3> points;  ///< Corner points from the start (snapped on the mesh) to the goal or the closest reachable point. [Units: m]
    std::vector<uint32_t> polygons; ///< The corridor: polygons from start to end.
    float length = 0.0f;            ///< Length of the polyline `points` (3D). [Units: m]
    float cost = 0.0f;              ///< True cost of `points`: each stretch of a leg × the multiplier of the polygon it crosses, each leap × its link's cost.
    bool complete = false;          ///< False when the goal was not reachable (path to the closest reachable point).
    /// The off-mesh links the path takes: `point` is the index in `points` of
    /// the take-off (the landing is the next point), `link` the link's id.
    struct LinkUse
    {
        uint32_t point = 0; ///< Index of the take-off in `points`.
        uint64_t link = 0;  ///< `PathLink::id`.
    };
    std::vector<LinkUse> links; ///< In path order.
    /// For each polygon of `polygons` but the first, the off-mesh link it was
    /// entered by (index into the search's links, with bit 0 = taken from its
    /// end), or kNoPolygon when it was entered through a portal.
    std::vector<uint32_t> entries;
};

/// Finds a path: `from` and `to` are located with `findNearest` within
/// `halfExtents`. When every area the filter allows costs the same, the
/// corridor comes from an exact any-angle search (Polyanya) and the path is
/// the shortest on the mesh (measured in x–z). With areas at different costs
/// and no off-mesh link, the cheapest route over obstacle corners, vertices
/// where areas meet and points along area borders (exact for that graph: A*
/// with a consistent heuristic), its border crossings then refined by Snell's
/// law (1-D minimisation per crossing): within 0.5 % of the cheapest path in
/// the tests (docs/navmesh.md "Paths: what is exact"); past its work budget,
/// `E_NAV_LIMIT`. With costs and off-mesh links, or a goal out of reach:
/// A* over polygons whose node positions are the portal entry
/// points (the point of each portal closest to the previous position), edge
/// costs = distance × the area multiplier of the polygon crossed, heuristic =
/// straight distance × the cheapest allowed multiplier; then the funnel
/// (string pulling) over the corridor's portals gives the corner points. A goal
/// not reachable from the start gives the path to the reachable point closest
/// to it with `complete = false` (a success). A start polygon of an excluded
/// area is allowed (the agent must be able to leave it).
/// Errors: `E_NAV_OFF_MESH` (field `/from` or `/to`), `E_INVALID_PARAMS`,
/// `E_NAV_LIMIT` (weighted search past its work budget, field `/area_costs`).
Status findPath(const NavMesh& mesh, QueryScratch& scratch, const glm::vec3& from, const glm::vec3& to,
                const QueryFilter& filter, const glm::vec3& halfExtents, PathResult& out);

/// As above, with off-mesh links as extra edges: from a link's take-off
/// polygon (either end's polygon when bidirectional) to the other end's, at
/// the cost of the walk to the take-off plus `cost` × the leap's length. The
/// funnel is split at each link taken: take-off and landing are consecutive
/// points, listed in `out.links`. Links whose polygons are kNoPolygon, past
/// the mesh or disabled, or the same polygon at both ends, are ignored.
Status findPath(const NavMesh& mesh, QueryScratch& scratch, const glm::vec3& from, const glm::vec3& to,
                const QueryFilter& filter, const glm::vec3& halfExtents, std::span<const PathLink> links,
                PathResult& out);

/// The path along a given corridor: the string pulled from `start` (in the
/// first polygon) to `end` (in the last) over the portals between consecutive
/// polygons (the first link between each pair), with its length and true cost
/// (as `findPath` reports them). `complete` is true; `entries` all kNoPolygon.
/// Errors: `E_INVALID_PARAMS` (empty corridor, polygon out of range at
/// `/corridor/<i>`, or not linked to the one before it).
Status pathAlongCorridor(const NavMesh& mesh, QueryScratch& scratch, const glm::vec3& start, const glm::vec3& end,
                         std::span<const uint32_t> corridor, const QueryFilter& filter, PathResult& out);

/// The answer of `raycast`.
struct RaycastResult
{
    bool hit = false;              ///< True when a wall stopped the ray before `to`.
    float fraction = 1.0f;         ///< Fraction of from → to travelled (1 = no hit). [Limit: 0..1]
    glm::vec3 point{0.0f};         ///< Where the ray stopped, on the mesh. [Units: m]
    glm::vec3 normal{0.0f};        ///< Outward normal of the wall hit (x–z, unit), zero without a hit.
    uint32_t polygon = kNoPolygon; ///< Polygon the ray ended in.
};

/// Walks the segment from → to (in the x–z plane) across polygons through
/// their links and stops at the first wall (an edge stretch no link covers,
/// or a link into an excluded area). `from` is located with `findNearest`
/// within `halfExtents`; the walk starts at that point. Points exactly on
/// shared edges and vertices pass (tolerance: the mesh's link tolerance).
/// Errors: `E_NAV_OFF_MESH` (field `/from`), `E_INVALID_PARAMS`.
Result<RaycastResult> raycast(const NavMesh& mesh, QueryScratch& scratch, const glm::vec3& from, const glm::vec3& to,
                              const QueryFilter& filter, const glm::vec3& halfExtents);

/// A uniformly distributed point of the mesh (by x–z area): a polygon chosen
/// with probability proportional to its area, then a triangle of its fan by
/// area, then a uniform point in it. Draws from `io` only.
/// Errors: `E_NAV_NO_MESH` when the mesh is empty.
Result<MeshPoint> randomPoint(const NavMesh& mesh, Rng& io);

/// A wall near a point.
struct WallHit
{
    NavWall wall;            ///< The wall (with its outward normal).
    uint32_t wallIndex = 0;  ///< The wall's id: `NavMesh::firstWall(polygon)` + its index in `walls(polygon)`.
    glm::vec3 closest{0.0f}; ///< Point of the wall closest to the query point. [Units: m]
    float distance = 0.0f;   ///< Distance to it (3D). [Units: m]
};

/// Every wall within `range` of `point` (3D distance to the wall segment),
/// nearest first (ties: polygon id, then edge, then stretch start). `out` is
/// cleared first. Errors: `E_INVALID_PARAMS` (non-finite input, negative range).
Status findWalls(const NavMesh& mesh, QueryScratch& scratch, const glm::vec3& point, float range,
                 std::vector<WallHit>& out);

} // namespace spark::nav
SPARK_NAV_API_END
