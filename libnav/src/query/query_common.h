#pragma once
/// \file query_common.h
/// Small helpers shared by the query files (private to libnav/src/query).

#include "query_scratch.h"
#include "spark/nav/query.h"

#include <cmath>
#include <span>
#include <vector>

namespace spark::nav::detail
{

inline bool finiteVec(const glm::vec3& v)
{
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

inline float dist3(const glm::vec3& a, const glm::vec3& b)
{
    const float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
    return std::sqrt(dx * dx + dy * dy + dz * dz);
}

/// True when area `a` is excluded by the filter.
inline bool excluded(const QueryFilter& f, uint8_t a)
{
    return (f.excludedAreas >> a) & 1u;
}

/// Point of segment a–b closest to p in x–z (height interpolated along the segment).
inline glm::vec3 closestOnSegmentXZ(const glm::vec3& a, const glm::vec3& b, const glm::vec3& p)
{
    const float dx = b.x - a.x, dz = b.z - a.z;
    const float l2 = dx * dx + dz * dz;
    float t = l2 > 0.0f ? ((p.x - a.x) * dx + (p.z - a.z) * dz) / l2 : 0.0f;
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    return glm::vec3(a.x + dx * t, a.y + (b.y - a.y) * t, a.z + dz * t);
}

/// The point of portal a–b that minimises |pos − q| + |q − goal| in x–z (the
/// straight line to the goal where it crosses the portal, the goal mirrored in
/// the portal line when both lie on one side, clamped to the stretch).
inline glm::vec3 entryToward(const glm::vec3& a, const glm::vec3& b, const glm::vec3& pos, const glm::vec3& goal)
{
    const float dx = b.x - a.x, dz = b.z - a.z;
    const float sp = dx * (pos.z - a.z) - dz * (pos.x - a.x);
    float gx = goal.x, gz = goal.z;
    const float sg = dx * (gz - a.z) - dz * (gx - a.x);
    const float l2 = dx * dx + dz * dz;
    if ((sp > 0.0f && sg > 0.0f) || (sp < 0.0f && sg < 0.0f))
    {
        // Mirror the goal in the portal line.
        const float k = 2.0f * sg / l2;
        gx += k * dz;
        gz -= k * dx;
    }
    const float ex = gx - pos.x, ez = gz - pos.z;
    const float den = dx * ez - dz * ex;
    float t;
    if (den == 0.0f)
        t = ((pos.x - a.x) * dx + (pos.z - a.z) * dz) / l2;
    else
        t = ((pos.x - a.x) * ez - (pos.z - a.z) * ex) / den;
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    return glm::vec3(a.x + dx * t, a.y + (b.y - a.y) * t, a.z + dz * t);
}

/// Locates `point` on the mesh within `ext` (the work of findNearest, without building an error).
bool locate(const NavMesh& mesh, const glm::vec3& point, const glm::vec3& ext, MeshPoint& out);

/// Grows the per-polygon arrays of the scratch to `polys` and starts a new search id.
void beginSearch(ScratchData& scratch, uint32_t polys);

/// Checks a query point and extents for finiteness. `field` names the point.
Status checkPoint(const glm::vec3& p, const char* field);
Status checkExtents(const glm::vec3& ext);

/// The funnel (string pulling) over portals (left[i], right[i]), i = 0 .. n−1,
/// where portal 0 is the start and portal n−1 the end (both sides equal);
/// appends the corner points to `out` (path.cpp). With `maxPoints`, stops
/// (true) once `out` holds that many points: they are the first points of the
/// whole string, and the portals after the last one found need not exist yet.
bool pullString(const std::vector<glm::vec3>& left, const std::vector<glm::vec3>& right, std::vector<glm::vec3>& out,
                size_t maxPoints = static_cast<size_t>(-1));

/// The corridor search of path.cpp with each leg costed on its own (its
/// design note; the crowd's detours round jams): the cheapest polygons from
/// `start` in `startPoly` to `goal` in `goalPoly`, each polygon entered at its
/// portal's point on the way to the goal from the entry point before, a route
/// costing its legs between entry points × the area cost of the polygon
/// crossed, plus `extraCost[p]` for entering polygon p (empty: none; else one
/// per polygon). The heuristic is the straight distance × the cheapest
/// allowed area cost. False when the goal's polygon is not reached within
/// `maxExpanded` expanded polygons (`out` untouched); else the polygons in `out`.
bool legSearch(const NavMesh& mesh, ScratchData& scratch, uint32_t startPoly, const glm::vec3& start,
               uint32_t goalPoly, const glm::vec3& goal, const QueryFilter& filter, std::span<const float> extraCost,
               uint32_t maxExpanded, std::vector<uint32_t>& out);

/// How an any-angle search ended.
enum class AnyAngleOutcome : uint8_t
{
    found,      ///< The goal's polygon was reached: `anyAngleCorridor` gives the path.
    unreached,  ///< Every reachable polygon was searched: `scratch.list` holds them.
    overBudget, ///< More than anyAngleBudget(mesh) nodes were made (nothing usable).
};

/// The most nodes an any-angle search makes on `mesh`: 64 per polygon, at
/// least 2^18 and at most 2^22 (about 370 MB of nodes). Real searches stay
/// far below (the 1024 x 1024 benchmark maps peak near 26,000 nodes); a
/// mesh whose slivers make the search circle (rounding on near-collinear
/// carved edges) is stopped here instead of filling the memory.
size_t anyAngleBudget(const NavMesh& mesh);

/// Any-angle search (any_angle.cpp) from `start` to `goal` in `goalPoly`, over
/// polygons the filter allows, all at one cost, within anyAngleBudget(mesh) nodes.
AnyAngleOutcome anyAngleSearch(const NavMesh& mesh, ScratchData& scratch, const MeshPoint& start, const glm::vec3& goal,
                               uint32_t goalPoly, const QueryFilter& filter);

/// The corridor of the last successful `anyAngleSearch` (from `start` in
/// `startPoly` to `end`): polygons from the start's to the goal's and, for
/// each but the first, the link entered by; and the path's points, `start`,
/// the roots it turns at, `end` (consecutive equal points once).
void anyAngleCorridor(const NavMesh& mesh, const ScratchData& scratch, uint32_t startPoly, const glm::vec3& start,
                      const glm::vec3& end, std::vector<uint32_t>& polygons, std::vector<uint32_t>& vias,
                      std::vector<glm::vec3>& points);

/// The cheapest path when the allowed areas cost different amounts
/// (weighted_path.cpp): the cheapest vertex path, then Snell refinement of
/// its area-border crossings. `found` is false when the goal was not reached
/// (out untouched). Errors: `E_NAV_LIMIT` past the work budget.
Status weightedPath(const NavMesh& mesh, ScratchData& scratch, const MeshPoint& start, const MeshPoint& goal,
                    const QueryFilter& filter, float minCost, PathResult& out, bool& found);

/// Frees the any-angle buffers after a large search (more than
/// kAnyAngleKeptNodes nodes), so one long query does not keep its memory.
void anyAngleRelease(ScratchData& scratch);

/// The most any-angle nodes the scratch keeps between queries (about 6 MB).
inline constexpr size_t kAnyAngleKeptNodes = size_t(1) << 16;

} // namespace spark::nav::detail
