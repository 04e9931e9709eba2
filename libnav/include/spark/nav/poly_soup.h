#pragma once
/// \file poly_soup.h
/// The hand-over format between a bake and the navmesh: shared vertices and
/// convex, counter-clockwise polygons (seen from +Y: positive winding in the
/// x–z plane) with an area id each. `NavMesh` is built from one of these.
/// Coordinates are metres, +Y up; 2D meshes store (x, 0, y).

#include <glm/vec3.hpp>

#include <cstdint>
#include <vector>

#include "spark/core/export.h"
SPARK_NAV_API_BEGIN

namespace spark::nav
{

/// Convex polygons over shared vertices, as a bake produces them.
struct PolySoup
{
    std::vector<glm::vec3> vertices;   ///< Vertex positions. [Units: m]
    std::vector<uint32_t> indices;     ///< Every polygon's vertex indices, concatenated, counter-clockwise.
    std::vector<uint32_t> polyStarts;  ///< Polygon i uses indices[polyStarts[i] .. polyStarts[i + 1]); size = polygons + 1.
    std::vector<uint8_t> areas;        ///< Area id per polygon. [Limit: 0..15]

    /// Number of polygons.
    size_t polygonCount() const { return polyStarts.empty() ? 0 : polyStarts.size() - 1; }
};

} // namespace spark::nav
SPARK_NAV_API_END
