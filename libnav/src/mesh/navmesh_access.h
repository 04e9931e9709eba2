#pragma once
/// \file navmesh_access.h
/// libnav-internal access to a NavMesh's storage: the one place that derives
/// a mesh's areas, bounds, spatial grid, links and walls from its polygons, so
/// `buildNavMesh` and carving (carved_mesh.cpp) produce meshes the same way.

#include "spark/nav/navmesh.h"

#include <vector>

namespace spark::nav
{

struct NavMeshAccess
{
    /// Fills areas, bounds, grid, links and walls from the mesh's vertices,
    /// polygons, areas, disabled flags, settings and link tolerance.
    static void assemble(NavMesh& mesh);

    /// A mesh with `base`'s settings and the given polygons (valid: convex,
    /// counter-clockwise, at most base.maxPolyVerts() vertices), `disabled`
    /// empty or exactly one flag per polygon, assembled.
    static NavMesh fromParts(const NavMesh& base, std::vector<glm::vec3> vertices, std::vector<uint32_t> indices,
                             std::vector<uint32_t> polyStarts, std::vector<uint8_t> areas, std::vector<uint8_t> disabled);
};

} // namespace spark::nav
