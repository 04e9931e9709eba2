/// \file walls.cpp
/// Walls near a point.
///
/// Design note: the polygons whose bounds meet the box point ± range come from
/// the mesh's spatial grid (deduplicated with the scratch's search stamps);
/// each of their wall stretches is measured by its closest point to the query
/// point (3D). Results are sorted nearest first, ties by the wall's index in
/// the mesh (polygon, then edge, then stretch start), so the order is total.

#include "query_common.h"

#include <algorithm>

namespace spark::nav
{

Status findWalls(const NavMesh& mesh, QueryScratch& scratch, const glm::vec3& point, float range, std::vector<WallHit>& out)
{
    ScratchData& s = scratch.data();
    out.clear();
    SPARK_TRY(detail::checkPoint(point, "/point"));
    if (!std::isfinite(range) || range < 0.0f)
        return makeError("E_INVALID_PARAMS", "range must be finite and >= 0", "/range");
    detail::beginSearch(s, mesh.polygonCount());
    const uint32_t sid = s.searchId;
    mesh.visitPolygonsInBoxXZ(point.x - range, point.z - range, point.x + range, point.z + range, [&](uint32_t poly) {
        if (s.stamp[poly] == sid)
            return;
        s.stamp[poly] = sid;
        const Bounds3& b = mesh.polygonBounds(poly);
        if (b.min.x > point.x + range || b.max.x < point.x - range || b.min.z > point.z + range ||
            b.max.z < point.z - range || b.min.y > point.y + range || b.max.y < point.y - range)
            return;
        const std::span<const NavWall> walls = mesh.walls(poly);
        for (const NavWall& w : walls)
        {
            // Closest point on the wall segment in 3D.
            const glm::vec3 d = w.b - w.a;
            const float l2 = d.x * d.x + d.y * d.y + d.z * d.z;
            float t = l2 > 0.0f ? ((point.x - w.a.x) * d.x + (point.y - w.a.y) * d.y + (point.z - w.a.z) * d.z) / l2 : 0.0f;
            t = std::clamp(t, 0.0f, 1.0f);
            const glm::vec3 c(w.a.x + d.x * t, w.a.y + d.y * t, w.a.z + d.z * t);
            const float dist = detail::dist3(c, point);
            if (dist > range)
                continue;
            WallHit hit;
            hit.wall = w;
            hit.wallIndex = mesh.firstWall(poly) + static_cast<uint32_t>(&w - walls.data());
            hit.closest = c;
            hit.distance = dist;
            out.push_back(hit);
        }
    });
    std::sort(out.begin(), out.end(), [](const WallHit& x, const WallHit& y) {
        if (x.distance != y.distance)
            return x.distance < y.distance;
        return x.wallIndex < y.wallIndex;
    });
    return Status::success();
}

} // namespace spark::nav
