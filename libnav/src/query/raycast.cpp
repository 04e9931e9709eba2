/// \file raycast.cpp
/// Walking a segment along the mesh to the first wall.
///
/// Design note. As Detour's dtNavMeshQuery::raycast, the segment is followed
/// polygon by polygon in the x–z plane: in the current convex polygon the exit
/// parameter is the smallest t at which the segment leaves one of its edge
/// half-planes (Cyrus–Beck clipping); the exit point is then handed to the
/// neighbour whose link stretch contains it. Ours differs where the segment
/// passes exactly through a vertex or along an edge, which string-pulled
/// paths do all the time: polygons are widened by the mesh's link tolerance,
/// and at an exit point every polygon reachable through links whose stretch
/// contains that point is a candidate (so a ray through a T-junction corner or
/// a four-way vertex goes on); the candidate that keeps the segment longest
/// wins, ties to the lowest id. No candidate making progress means a wall: the
/// answer is the exit point on the exit edge and that edge's outward normal.

#include "query_common.h"

#include <algorithm>

namespace spark::nav
{

namespace
{

/// How far along S + D·t (t >= t0) the segment stays inside polygon `poly`
/// widened by `eps`; `outEdge` is the edge it leaves through, `outEdgeT` the
/// parameter where it crosses that (unwidened) edge.
double exitParam(const NavMesh& mesh, uint32_t poly, double sx, double sz, double dx, double dz, double t0,
                 double eps, uint32_t& outEdge, double& outEdgeT)
{
    const uint32_t n = mesh.polygonVertexCount(poly);
    double tExit = 1.0e30;
    outEdge = 0;
    outEdgeT = 1.0e30;
    glm::vec3 a = mesh.polygonVertex(poly, n - 1);
    for (uint32_t i = 0; i < n; ++i)
    {
        const glm::vec3 b = mesh.polygonVertex(poly, i);
        const double ex = double(b.x) - a.x, ez = double(b.z) - a.z;
        const double len = std::sqrt(ex * ex + ez * ez);
        // Signed distance of S + D t from the edge line, positive inside: f0 + f1 t.
        const double f0 = (ex * (sz - a.z) - ez * (sx - a.x)) / len;
        const double f1 = (ex * dz - ez * dx) / len;
        if (f1 < 0.0)
        {
            const double t = (-eps - f0) / f1;
            if (t < tExit)
            {
                tExit = t;
                outEdge = (i + n - 1) % n; // edge from vertex i−1 to vertex i
                outEdgeT = -f0 / f1;
            }
        }
        a = b;
    }
    return std::max(tExit, t0);
}

/// Distance² in x–z from (px, pz) to segment a–b.
double segDist2XZ(const glm::vec3& a, const glm::vec3& b, double px, double pz)
{
    const double ex = double(b.x) - a.x, ez = double(b.z) - a.z;
    const double l2 = ex * ex + ez * ez;
    double t = l2 > 0.0 ? ((px - a.x) * ex + (pz - a.z) * ez) / l2 : 0.0;
    t = std::clamp(t, 0.0, 1.0);
    const double qx = a.x + ex * t - px, qz = a.z + ez * t - pz;
    return qx * qx + qz * qz;
}

constexpr size_t kMaxHopCandidates = 64;

} // namespace

Result<RaycastResult> raycast(const NavMesh& mesh, QueryScratch& scratch, const glm::vec3& from, const glm::vec3& to,
                              const QueryFilter& filter, const glm::vec3& halfExtents)
{
    ScratchData& s = scratch.data();
    SPARK_TRY(detail::checkPoint(from, "/from"));
    SPARK_TRY(detail::checkPoint(to, "/to"));
    SPARK_TRY(detail::checkExtents(halfExtents));
    MeshPoint start;
    if (!detail::locate(mesh, from, halfExtents, start))
        return makeError("E_NAV_OFF_MESH", "the ray start is not on the mesh (nothing within the search extents)",
                         "/from");

    const double sx = start.point.x, sz = start.point.z;
    const double dx = double(to.x) - sx, dz = double(to.z) - sz;
    const double eps = mesh.linkTolerance();
    RaycastResult out;
    out.polygon = start.polygon;
    if (dx * dx + dz * dz <= 0.0)
    {
        out.point = start.point;
        return out;
    }
    auto pointAt = [&](uint32_t poly, double t) {
        const float x = static_cast<float>(sx + dx * t), z = static_cast<float>(sz + dz * t);
        return glm::vec3(x, mesh.heightAt(poly, x, z), z);
    };

    // Polygons reachable from `from` through links whose stretch contains the
    // point at parameter t; the one keeping the segment longest is returned.
    auto bestCandidate = [&](uint32_t fromPoly, double t, double& bestT) {
        const double px = sx + dx * t, pz = sz + dz * t;
        s.list.clear();
        s.list.push_back(fromPoly);
        uint32_t best = kNoPolygon;
        bestT = t;
        for (size_t k = 0; k < s.list.size(); ++k)
        {
            for (const NavLink& link : mesh.links(s.list[k]))
            {
                const uint32_t nb = link.neighbour;
                if (detail::excluded(filter, mesh.area(nb)) ||
                    std::find(s.list.begin(), s.list.end(), nb) != s.list.end())
                    continue;
                if (segDist2XZ(link.a, link.b, px, pz) > 4.0 * eps * eps)
                    continue;
                if (s.list.size() >= kMaxHopCandidates)
                    break;
                s.list.push_back(nb);
                uint32_t edge;
                double edgeT;
                const double tc = exitParam(mesh, nb, sx, sz, dx, dz, t, eps, edge, edgeT);
                if (tc > bestT || (tc == bestT && best != kNoPolygon && nb < best))
                {
                    bestT = tc;
                    best = nb;
                }
            }
        }
        return best;
    };

    uint32_t cur = start.polygon;
    double t = 0.0;
    {
        // Starting on a shared edge or vertex: begin in the polygon the ray heads into.
        uint32_t edge;
        double edgeT;
        const double tc = exitParam(mesh, cur, sx, sz, dx, dz, 0.0, eps, edge, edgeT);
        double bestT;
        const uint32_t alt = bestCandidate(cur, 0.0, bestT);
        if (alt != kNoPolygon && bestT > tc)
            cur = alt;
    }
    const uint32_t maxSteps = 4 * mesh.polygonCount() + 16;
    for (uint32_t step = 0; step < maxSteps; ++step)
    {
        uint32_t edge;
        double edgeT;
        const double tExit = exitParam(mesh, cur, sx, sz, dx, dz, t, eps, edge, edgeT);
        if (tExit >= 1.0)
        {
            out.hit = false;
            out.fraction = 1.0f;
            out.polygon = cur;
            out.point = pointAt(cur, 1.0);
            return out;
        }
        // Neighbours are looked for where the ray crosses the exit edge itself: at a
        // grazing angle the widened exit point can lie farther than the tolerance
        // from a link stretch through that edge's vertex.
        double nextT;
        const uint32_t next = bestCandidate(cur, std::clamp(edgeT, t, tExit), nextT);
        if (next != kNoPolygon && nextT > tExit + 1.0e-9)
        {
            cur = next;
            t = tExit;
            continue;
        }
        // A wall (or an excluded area) stops the ray on the exit edge.
        const double tHit = std::clamp(std::max(edgeT, t), 0.0, 1.0);
        out.hit = true;
        out.fraction = static_cast<float>(tHit);
        out.polygon = cur;
        out.point = pointAt(cur, tHit);
        const uint32_t n = mesh.polygonVertexCount(cur);
        const glm::vec3 a = mesh.polygonVertex(cur, edge);
        const glm::vec3 b = mesh.polygonVertex(cur, (edge + 1) % n);
        const double ex = double(b.x) - a.x, ez = double(b.z) - a.z;
        const double len = std::sqrt(ex * ex + ez * ez);
        out.normal = glm::vec3(static_cast<float>(ez / len), 0.0f, static_cast<float>(-ex / len));
        return out;
    }
    return makeError("E_INTERNAL", "the raycast did not finish within its step limit");
}

} // namespace spark::nav
