/// \file nearest.cpp
/// Nearest point of the mesh, the query filter and the shared query helpers.
///
/// Design note: the nearest point is found as Detour's findNearestPoly does —
/// gather the polygons whose bounds overlap the search box (here from the
/// mesh's uniform grid), take each one's closest point (the query point itself
/// when it lies over the polygon in x–z, else the closest point of its
/// boundary, with the polygon's height there) and keep the nearest in 3D;
/// ties go to the lowest polygon id so the answer does not depend on the
/// order of the grid lists.

#include "query_common.h"

#include <algorithm>
#include <memory>

#include <string>

namespace spark::nav
{

namespace detail
{

bool locate(const NavMesh& mesh, const glm::vec3& p, const glm::vec3& ext, MeshPoint& out)
{
    float best = 0.0f;
    uint32_t bestPoly = kNoPolygon;
    glm::vec3 bestPoint{0.0f};
    auto consider = [&](uint32_t poly) {
        const Bounds3& b = mesh.polygonBounds(poly);
        if (b.min.x > p.x + ext.x || b.max.x < p.x - ext.x || b.min.z > p.z + ext.z || b.max.z < p.z - ext.z ||
            b.min.y > p.y + ext.y || b.max.y < p.y - ext.y)
            return;
        if (bestPoly != kNoPolygon)
        {
            // Bounds clearly farther than the best so far: it cannot win or tie.
            const double bx = std::max({0.0, double(b.min.x) - p.x, double(p.x) - b.max.x});
            const double by = std::max({0.0, double(b.min.y) - p.y, double(p.y) - b.max.y});
            const double bz = std::max({0.0, double(b.min.z) - p.z, double(p.z) - b.max.z});
            if (bx * bx + by * by + bz * bz > double(best) * (1.0 + 1.0e-5) + 1.0e-9)
                return;
        }
        const glm::vec3 c = mesh.closestPointOnPolygon(poly, p);
        if (std::fabs(c.x - p.x) > ext.x || std::fabs(c.z - p.z) > ext.z || std::fabs(c.y - p.y) > ext.y)
            return;
        const float dx = c.x - p.x, dy = c.y - p.y, dz = c.z - p.z;
        const float d2 = dx * dx + dy * dy + dz * dz;
        if (bestPoly == kNoPolygon || d2 < best || (d2 == best && poly < bestPoly))
        {
            best = d2;
            bestPoly = poly;
            bestPoint = c;
        }
    };
    // The answer (smallest distance, then lowest id) does not depend on the
    // order polygons are tried in, but the pruning does: first the polygons
    // whose x–z bounds hold the point (one of them nearly always holds the
    // nearest point), then the rest of the box, pruned by the best found. A
    // polygon whose x–z bounds miss the square of half-size r (the best
    // distance, with the prune's margin) around the point would be pruned, so
    // the second look-up covers only that square.
    mesh.visitPolygonsInBoxXZ(p.x, p.z, p.x, p.z, [&](uint32_t poly) {
        const Bounds3& b = mesh.polygonBounds(poly);
        if (b.min.x <= p.x && p.x <= b.max.x && b.min.z <= p.z && p.z <= b.max.z)
            consider(poly);
    });
    const uint32_t first = bestPoly;
    float rx = ext.x, rz = ext.z;
    if (bestPoly != kNoPolygon)
    {
        // Padded for the float rounding of the box's sides.
        const float pad = 1.0e-6f * (1.0f + std::max(std::fabs(p.x), std::fabs(p.z)));
        const float r = static_cast<float>(std::sqrt(double(best) * (1.0 + 1.0e-5) + 1.0e-9)) * 1.001f + pad;
        rx = std::min(rx, r);
        rz = std::min(rz, r);
    }
    mesh.visitPolygonsInBoxXZ(p.x - rx, p.z - rz, p.x + rx, p.z + rz, [&](uint32_t poly) {
        if (poly != first)
            consider(poly);
    });
    if (bestPoly == kNoPolygon)
        return false;
    out.polygon = bestPoly;
    out.point = bestPoint;
    out.distance = std::sqrt(best);
    return true;
}

void beginSearch(ScratchData& s, uint32_t polys)
{
    if (s.stamp.size() < polys)
    {
        s.stamp.resize(polys, 0);
        s.cost.resize(polys);
        s.total.resize(polys);
        s.parent.resize(polys);
        s.parentLink.resize(polys);
        s.position.resize(polys);
        s.funnel.resize(polys);
        s.closed.resize(polys);
        s.heapIndex.resize(polys);
    }
    ++s.searchId;
    if (s.searchId == 0)
    {
        std::fill(s.stamp.begin(), s.stamp.end(), 0u);
        s.searchId = 1;
    }
}

Status checkPoint(const glm::vec3& p, const char* field)
{
    if (!finiteVec(p))
        return makeError("E_INVALID_PARAMS", "point coordinates must be finite", field);
    return Status::success();
}

Status checkExtents(const glm::vec3& ext)
{
    if (!finiteVec(ext) || ext.x < 0.0f || ext.y < 0.0f || ext.z < 0.0f)
        return makeError("E_INVALID_PARAMS", "search extents must be finite and >= 0", "/extents");
    return Status::success();
}

} // namespace detail

QueryScratch::QueryScratch() : m_data(std::make_unique<Data>()) {}
QueryScratch::~QueryScratch() = default;
QueryScratch::QueryScratch(const QueryScratch&) : m_data(std::make_unique<Data>()) {}
QueryScratch& QueryScratch::operator=(const QueryScratch&)
{
    return *this; // each keeps its own arrays: their contents mean nothing between calls
}

uint32_t QueryScratch::lastSearchNodes() const
{
    return m_data->anyNodesMade;
}

QueryFilter defaultQueryFilter()
{
    return QueryFilter{};
}

Status validateQueryFilter(const QueryFilter& filter)
{
    for (uint32_t a = 0; a < kAreaCount; ++a)
    {
        const float c = filter.areaCosts[a];
        if (!std::isfinite(c) || !(c > 0.0f) || c > 1.0e6f)
            return makeError("E_INVALID_PARAMS", "area costs must be finite, > 0 and <= 1e6",
                             "/area_costs/" + std::to_string(a));
    }
    return Status::success();
}

glm::vec3 defaultQueryExtents(const NavMesh& mesh)
{
    const NavMeshSettings& s = mesh.settings();
    const float h = std::max(2.0f * s.agentRadius, s.cellSize);
    return glm::vec3(h, s.agentHeight, h);
}

Result<MeshPoint> findNearest(const NavMesh& mesh, const glm::vec3& point, const glm::vec3& halfExtents)
{
    SPARK_TRY(detail::checkPoint(point, "/point"));
    SPARK_TRY(detail::checkExtents(halfExtents));
    MeshPoint out;
    if (!detail::locate(mesh, point, halfExtents, out))
        return makeError("E_NAV_OFF_MESH", "no point of the mesh lies within the search extents", "/point",
                         "move the point onto the mesh or widen the extents");
    return out;
}

} // namespace spark::nav
