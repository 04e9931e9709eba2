// The any-angle search (any_angle.cpp) on hand-made and generated meshes with
// degenerate geometry: the regression meshes of issue #34, starts and goals on
// vertices and edges, and an exact oracle (shortest paths over the visibility
// graph of the mesh's boundary, decided with exact predicates).

#include "spark/nav/query.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <vector>

using namespace spark;
using namespace spark::nav;

namespace exact_test
{

/// A rectangle [x0, x1] × [z0, z1] of the free space.
struct Box
{
    float x0, x1, z0, z1;
};

/// A 2D mesh of rectangles (T-junctions allowed: the navmesh links by edge overlap).
NavMesh boxMesh(const std::vector<Box>& boxes)
{
    PolySoup soup;
    soup.polyStarts.push_back(0);
    for (const Box& b : boxes)
    {
        const glm::vec3 ring[4] = {{b.x0, 0.0f, b.z0}, {b.x1, 0.0f, b.z0}, {b.x1, 0.0f, b.z1}, {b.x0, 0.0f, b.z1}};
        for (const glm::vec3& v : ring)
        {
            uint32_t i = 0;
            while (i < soup.vertices.size() && soup.vertices[i] != v)
                ++i;
            if (i == soup.vertices.size())
                soup.vertices.push_back(v);
            soup.indices.push_back(i);
        }
        soup.polyStarts.push_back(static_cast<uint32_t>(soup.indices.size()));
        soup.areas.push_back(0);
    }
    NavMeshDef def = defaultNavMeshDef();
    def.is2d = true;
    auto mesh = buildNavMesh(soup, def);
    REQUIRE(mesh.ok());
    return std::move(mesh).value();
}

double pathLength(const NavMesh& mesh, glm::vec3 from, glm::vec3 to)
{
    QueryScratch scratch;
    PathResult path;
    REQUIRE(findPath(mesh, scratch, from, to, defaultQueryFilter(), glm::vec3(0.25f, 1.0f, 0.25f), path).ok());
    REQUIRE(path.complete);
    return path.length;
}

} // namespace exact_test

using namespace exact_test;

TEST_CASE("issue 34's eight rectangles: the shortest path both ways")
{
    const NavMesh mesh = boxMesh({{209, 211, 57, 81},
                                  {207, 209, 58, 83},
                                  {205, 207, 59, 85},
                                  {203, 205, 60, 83},
                                  {201, 203, 61, 85},
                                  {211, 213, 80, 81},
                                  {209, 210, 81, 82},
                                  {203, 204, 83, 84}});
    const glm::vec3 s(213, 0, 80), a(202, 0, 84), b(201, 0, 85);
    CHECK(pathLength(mesh, s, a) == doctest::Approx(11.722901).epsilon(1e-6));
    CHECK(pathLength(mesh, a, s) == doctest::Approx(11.722901).epsilon(1e-6));
    CHECK(pathLength(mesh, s, b) == doctest::Approx(13.092384).epsilon(1e-6));
    CHECK(pathLength(mesh, b, s) == doctest::Approx(13.092384).epsilon(1e-6));
}
