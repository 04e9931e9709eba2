/// \file raycast.cpp
/// Design note — raycast through the voxels of a flight volume.
///
/// Voxel traversal by Amanatides & Woo, "A fast voxel traversal algorithm for
/// ray tracing" (Eurographics 1987): along the segment a + t·(b − a), keep for
/// each axis the t of the next voxel boundary (tMax) and the t between two
/// boundaries (tDelta); step the axis with the smallest tMax (ties: x, then y,
/// then z — a segment through an edge or corner visits one of the side voxels,
/// which is the conservative answer) until t passes 1 or a voxel is blocked.
/// The answer is the entry point of the first blocked voxel.
#include "flight_internal.h"

#include <limits>

namespace spark::nav
{

FlightRaycastHit raycastGrid(const FlightVolume::Impl& g, const glm::dvec3& from, const glm::dvec3& to)
{
    FlightRaycastHit hit;
    const double s = g.def.voxelSize;
    const glm::dvec3 rel = (from - g.def.boundsMin) / s;
    glm::ivec3 v = g.voxelOf(from);
    const bool startInside = rel.x >= 0.0 && rel.y >= 0.0 && rel.z >= 0.0 && rel.x < g.dims.x && rel.y < g.dims.y &&
                             rel.z < g.dims.z;
    if (!startInside || !g.openAt(v.x, v.y, v.z))
    {
        hit.blocked = true;
        hit.t = 0.0;
        hit.point = from;
        return hit;
    }
    const glm::dvec3 dir = to - from;
    glm::ivec3 step(0);
    glm::dvec3 tMax(std::numeric_limits<double>::infinity());
    glm::dvec3 tDelta(std::numeric_limits<double>::infinity());
    for (int d = 0; d < 3; ++d)
    {
        if (dir[d] > 0.0)
        {
            step[d] = 1;
            tDelta[d] = s / dir[d];
            tMax[d] = ((v[d] + 1) * s + g.def.boundsMin[d] - from[d]) / dir[d];
        }
        else if (dir[d] < 0.0)
        {
            step[d] = -1;
            tDelta[d] = -s / dir[d];
            tMax[d] = (v[d] * s + g.def.boundsMin[d] - from[d]) / dir[d];
        }
    }
    for (;;)
    {
        int axis = 0;
        if (tMax[1] < tMax[axis])
            axis = 1;
        if (tMax[2] < tMax[axis])
            axis = 2;
        const double t = tMax[axis];
        if (!(t <= 1.0))
            break;
        v[axis] += step[axis];
        if (!g.openAt(v.x, v.y, v.z))
        {
            hit.blocked = true;
            hit.t = std::max(0.0, t);
            hit.point = from + dir * hit.t;
            return hit;
        }
        tMax[axis] += tDelta[axis];
    }
    hit.point = to;
    return hit;
}

Result<FlightRaycastHit> FlightVolume::raycast(const glm::dvec3& from, const glm::dvec3& to) const
{
    SPARK_TRY(checkFlightPoint(from, "/from"));
    SPARK_TRY(checkFlightPoint(to, "/to"));
    return raycastGrid(*m_impl, from, to);
}

} // namespace spark::nav
