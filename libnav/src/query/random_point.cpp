/// \file random_point.cpp
/// Uniform random points on the mesh.
///
/// Design note: uniform by area in two stages, as Detour's findRandomPoint
/// (which uses reservoir sampling) but with the mesh's precomputed running sum
/// of polygon areas and a binary search: a polygon is drawn with probability
/// area / total, then a triangle of its fan by area, then a point uniform in
/// the triangle by folding the unit square onto it (u + v > 1 → 1 − u, 1 − v;
/// Turk, "Generating random points in triangles", Graphics Gems, 1990). Each
/// draw uses four doubles from the seeded generator.

#include "query_common.h"

#include <algorithm>

namespace spark::nav
{

Result<MeshPoint> randomPoint(const NavMesh& mesh, Rng& io)
{
    if (mesh.empty())
        return makeError("E_NAV_NO_MESH", "the mesh has no polygons");
    const std::span<const double> prefix = mesh.areaPrefix();
    const double r = rngNextDouble(io) * mesh.totalArea();
    uint32_t poly = static_cast<uint32_t>(std::upper_bound(prefix.begin(), prefix.end(), r) - prefix.begin());
    poly = std::min(poly, mesh.polygonCount() - 1);

    // A triangle of the fan by area.
    const uint32_t n = mesh.polygonVertexCount(poly);
    const glm::vec3 v0 = mesh.polygonVertex(poly, 0);
    double area2 = 0.0;
    for (uint32_t i = 1; i + 1 < n; ++i)
    {
        const glm::vec3 v1 = mesh.polygonVertex(poly, i), v2 = mesh.polygonVertex(poly, i + 1);
        area2 += (double(v1.x) - v0.x) * (double(v2.z) - v0.z) - (double(v1.z) - v0.z) * (double(v2.x) - v0.x);
    }
    const double pick = rngNextDouble(io) * area2;
    uint32_t tri = n - 2;
    double acc = 0.0;
    for (uint32_t i = 1; i + 1 < n; ++i)
    {
        const glm::vec3 v1 = mesh.polygonVertex(poly, i), v2 = mesh.polygonVertex(poly, i + 1);
        acc += (double(v1.x) - v0.x) * (double(v2.z) - v0.z) - (double(v1.z) - v0.z) * (double(v2.x) - v0.x);
        if (pick < acc)
        {
            tri = i;
            break;
        }
    }
    const glm::vec3 v1 = mesh.polygonVertex(poly, tri), v2 = mesh.polygonVertex(poly, tri + 1);
    double u = rngNextDouble(io), v = rngNextDouble(io);
    if (u + v > 1.0)
    {
        u = 1.0 - u;
        v = 1.0 - v;
    }
    MeshPoint out;
    out.polygon = poly;
    out.point = glm::vec3(static_cast<float>(v0.x + u * (double(v1.x) - v0.x) + v * (double(v2.x) - v0.x)),
                          static_cast<float>(v0.y + u * (double(v1.y) - v0.y) + v * (double(v2.y) - v0.y)),
                          static_cast<float>(v0.z + u * (double(v1.z) - v0.z) + v * (double(v2.z) - v0.z)));
    return out;
}

} // namespace spark::nav
