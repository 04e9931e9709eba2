#pragma once
/// \file recast_area.h
/// The walkable area of a Recast polygon mesh (x–z), for the benchmarks that
/// report it beside Spark's.

#include <recastnavigation/Recast.h>

#include <cmath>

namespace spark::bench
{

/// Sum of the x–z areas of `pmesh`'s polygons (vertices in cells of `cs`). [Units: m²]
inline double recastPolyMeshArea(const rcPolyMesh& pmesh, float cs)
{
    double area = 0.0;
    for (int p = 0; p < pmesh.npolys; ++p)
    {
        const unsigned short* poly = &pmesh.polys[p * pmesh.nvp * 2];
        int n = 0;
        while (n < pmesh.nvp && poly[n] != RC_MESH_NULL_IDX)
            ++n;
        double twice = 0.0;
        for (int k = 0; k < n; ++k)
        {
            const unsigned short* a = &pmesh.verts[poly[k] * 3];
            const unsigned short* c = &pmesh.verts[poly[(k + 1) % n] * 3];
            twice += static_cast<double>(a[0]) * c[2] - static_cast<double>(c[0]) * a[2];
        }
        area += std::abs(twice) * 0.5 * static_cast<double>(cs) * cs;
    }
    return area;
}

} // namespace spark::bench
