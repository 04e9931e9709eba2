#include "spark/nav/navmesh.h"

#include "test_meshes.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>

using namespace spark;
using namespace spark::nav;
using namespace spark::nav::test;

namespace
{

NavMeshDef def2d()
{
    NavMeshDef def = defaultNavMeshDef();
    def.is2d = true;
    return def;
}

PolySoup triangleSoup(glm::vec3 a, glm::vec3 b, glm::vec3 c, uint8_t area = 0)
{
    PolySoup s;
    s.vertices = {a, b, c};
    s.indices = {0, 1, 2};
    s.polyStarts = {0, 3};
    s.areas = {area};
    return s;
}

} // namespace

TEST_CASE("a T-junction links the long edge to both short edges, each over its own stretch")
{
    // Big square [0,2]², two unit squares to its right: edge 1 of the big one
    // runs (2,0) → (2,2) and meets two edges that share none of its vertices.
    const NavMesh mesh = meshFromRects({{0, 0, 2, 2}, {2, 0, 3, 1}, {2, 1, 3, 2}});
    REQUIRE(mesh.polygonCount() == 3);
    const auto links = mesh.links(0);
    REQUIRE(links.size() == 2);
    CHECK(links[0].neighbour == 1);
    CHECK(links[0].edge == 1);
    CHECK(links[0].tMin == doctest::Approx(0.0));
    CHECK(links[0].tMax == doctest::Approx(0.5));
    CHECK(links[0].a.z == doctest::Approx(0.0));
    CHECK(links[0].b.z == doctest::Approx(1.0));
    CHECK(links[1].neighbour == 2);
    CHECK(links[1].tMin == doctest::Approx(0.5));
    CHECK(links[1].tMax == doctest::Approx(1.0));
    // Each small square links back to the big one over its whole left edge.
    for (uint32_t p : {1u, 2u})
    {
        const auto back = mesh.links(p);
        REQUIRE(back.size() == 2); // the big square and the other small square
        bool sawBig = false;
        for (const NavLink& l : back)
            if (l.neighbour == 0)
            {
                sawBig = true;
                CHECK(l.edge == 3);
                CHECK(l.tMin == doctest::Approx(0.0));
                CHECK(l.tMax == doctest::Approx(1.0));
            }
        CHECK(sawBig);
    }
    // The long edge is fully covered: no wall on it.
    for (const NavWall& w : mesh.walls(0))
        CHECK(w.edge != 1);
}

TEST_CASE("a link covers only the overlap and the rest of each edge is a wall")
{
    // A = [0,1]×[0,2], B = [1,2]×[1,3]: they share x = 1 for z in [1, 2].
    const NavMesh mesh = meshFromRects({{0, 0, 1, 2}, {1, 1, 2, 3}});
    const auto la = mesh.links(0);
    REQUIRE(la.size() == 1);
    CHECK(la[0].a.z == doctest::Approx(1.0));
    CHECK(la[0].b.z == doctest::Approx(2.0));
    // A's edge 1 (x = 1, z 0 → 2) keeps a wall on z in [0, 1].
    int found = 0;
    for (const NavWall& w : mesh.walls(0))
        if (w.edge == 1)
        {
            ++found;
            CHECK(w.a.z == doctest::Approx(0.0));
            CHECK(w.b.z == doctest::Approx(1.0));
            CHECK(w.normal.x == doctest::Approx(1.0)); // outward = +x
            CHECK(w.normal.z == doctest::Approx(0.0));
        }
    CHECK(found == 1);
    // B's edge 3 (x = 1, z 3 → 1) keeps a wall on z in [2, 3].
    found = 0;
    for (const NavWall& w : mesh.walls(1))
        if (w.edge == 3)
        {
            ++found;
            CHECK(std::max(w.a.z, w.b.z) == doctest::Approx(3.0));
            CHECK(std::min(w.a.z, w.b.z) == doctest::Approx(2.0));
            CHECK(w.normal.x == doctest::Approx(-1.0));
        }
    CHECK(found == 1);
    // Walls: A has 3 full edges + 1 partial; B likewise.
    CHECK(mesh.walls(0).size() == 4);
    CHECK(mesh.walls(1).size() == 4);
    CHECK(mesh.wallCount() == 8);
}

TEST_CASE("every wall normal points away from its polygon")
{
    const NavMesh mesh = meshFromRects({{0, 0, 2, 2}, {2, 0, 3, 1}, {2, 1, 3, 2}, {-1, 0.5f, 0, 1.5f}});
    for (uint32_t wp = 0; wp < mesh.polygonCount(); ++wp)
        for (const NavWall& w : mesh.walls(wp))
    {
        const glm::vec3 mid = (w.a + w.b) * 0.5f;
        const glm::vec3 out = mid + w.normal * 0.01f;
        const glm::vec3 in = mid - w.normal * 0.01f;
        CHECK_FALSE(mesh.containsXZ(w.polygon, out.x, out.z, 0.0f));
        CHECK(mesh.containsXZ(w.polygon, in.x, in.z, 0.0f));
        CHECK(std::fabs(std::sqrt(w.normal.x * w.normal.x + w.normal.z * w.normal.z) - 1.0f) < 1e-6f);
    }
}

TEST_CASE("edges apart by more than the tolerance, touching at a corner, or running the same way do not link")
{
    // Gap of 0.01 m (> 1 mm tolerance).
    CHECK(meshFromRects({{0, 0, 1, 1}, {1.01f, 0, 2, 1}}).linkCount() == 0);
    // Diagonal neighbours touching at one point.
    CHECK(meshFromRects({{0, 0, 1, 1}, {1, 1, 2, 2}}).linkCount() == 0);
    // Overlapping squares (same-direction edges are not portals), with the overlap check off.
    NavMeshDef lenient = defaultNavMeshDef();
    lenient.is2d = true;
    lenient.refuseOverlaps = false;
    auto overlapping = buildNavMesh(soupFromRects({{0, 0, 1, 1}, {0, 0, 1, 1}}), lenient);
    REQUIRE(overlapping.ok());
    CHECK(overlapping->linkCount() == 0);
    // Within the tolerance they link.
    CHECK(meshFromRects({{0, 0, 1, 1}, {1.0005f, 0, 2, 1}}).linkCount() == 2);
}

TEST_CASE("edges link only when their heights are within the step height")
{
    std::vector<Rect> rects = {{0, 0, 1, 1, 0, 0.0f}, {1, 0, 2, 1, 0, 0.3f}};
    CHECK(meshFromRects(rects, false).linkCount() == 2); // step 0.4 by default
    rects[1].y = 0.5f;
    CHECK(meshFromRects(rects, false).linkCount() == 0);
}

TEST_CASE("buildNavMesh rejects bad soups with a coded error and the field")
{
    const NavMeshDef def = defaultNavMeshDef();
    SUBCASE("clockwise polygon")
    {
        auto r = buildNavMesh(triangleSoup({0, 0, 0}, {0, 0, 1}, {1, 0, 0}), def);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().code == "E_NAV_FORMAT");
        CHECK(r.error().field == "/polygons/0");
    }
    SUBCASE("non-convex polygon")
    {
        PolySoup s = soupFromRects({{0, 0, 2, 2}});
        s.vertices[2] = {0.5f, 0, 0.5f}; // pull a corner inside
        auto r = buildNavMesh(s, def);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().code == "E_NAV_FORMAT");
    }
    SUBCASE("NaN and huge coordinates")
    {
        PolySoup s = soupFromRects({{0, 0, 1, 1}});
        s.vertices[1].z = std::nanf("");
        auto r = buildNavMesh(s, def);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().code == "E_NAV_FORMAT");
        CHECK(r.error().field == "/vertices/1/2");
        s.vertices[1].z = 1e9f;
        CHECK(buildNavMesh(s, def).error().field == "/vertices/1/2");
    }
    SUBCASE("area id above 15")
    {
        PolySoup s = soupFromRects({{0, 0, 1, 1}, {1, 0, 2, 1}});
        s.areas[1] = 16;
        auto r = buildNavMesh(s, def);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().field == "/areas/1");
    }
    SUBCASE("too many vertices for the limit")
    {
        PolySoup s;
        for (int i = 0; i < 7; ++i)
        {
            // A convex heptagon (positive winding in x–z: counter-clockwise with z up).
            const float angles[7] = {0.0f, 0.9f, 1.8f, 2.7f, 3.6f, 4.5f, 5.4f};
            s.vertices.push_back({std::cos(angles[i]), 0.0f, std::sin(angles[i])});
            s.indices.push_back(i);
        }
        s.polyStarts = {0, 7};
        s.areas = {0};
        CHECK(buildNavMesh(s, def).ok());
        NavMeshDef baked = def;
        baked.maxPolyVerts = kMaxBakedPolyVerts;
        auto r = buildNavMesh(s, baked);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().code == "E_NAV_LIMIT");
        CHECK(r.error().field == "/polygons/0");
    }
    SUBCASE("index out of range, repeated vertex, too few vertices")
    {
        PolySoup s = soupFromRects({{0, 0, 1, 1}});
        s.indices[2] = 99;
        CHECK(buildNavMesh(s, def).error().field == "/polygons/0/2");
        s = soupFromRects({{0, 0, 1, 1}});
        s.indices[3] = s.indices[1];
        CHECK(buildNavMesh(s, def).error().code == "E_NAV_FORMAT");
        s = soupFromRects({{0, 0, 1, 1}});
        s.indices.resize(2);
        s.polyStarts = {0, 2};
        CHECK(buildNavMesh(s, def).error().code == "E_NAV_FORMAT");
    }
    SUBCASE("inconsistent sizes and empty soups")
    {
        PolySoup s = soupFromRects({{0, 0, 1, 1}});
        s.areas.clear();
        CHECK(buildNavMesh(s, def).error().field == "/areas");
        CHECK(buildNavMesh(PolySoup{}, def).error().code == "E_NAV_NO_GEOMETRY");
        s = soupFromRects({{0, 0, 1, 1}});
        s.polyStarts.back() = 3;
        CHECK(buildNavMesh(s, def).error().code == "E_NAV_FORMAT");
    }
    SUBCASE("a 2D mesh with a vertex off the plane")
    {
        PolySoup s = soupFromRects({{0, 0, 1, 1}});
        s.vertices[0].y = 0.5f;
        CHECK(buildNavMesh(s, def2d()).error().field == "/vertices/0");
        CHECK(buildNavMesh(s, def).ok());
    }
    SUBCASE("a bad def")
    {
        NavMeshDef bad = def;
        bad.settings.agentHeight = -1.0f;
        CHECK(buildNavMesh(soupFromRects({{0, 0, 1, 1}}), bad).error().code == "E_NAV_CONFIG");
        bad = def;
        bad.linkTolerance = std::nanf("");
        CHECK(buildNavMesh(soupFromRects({{0, 0, 1, 1}}), bad).error().code == "E_NAV_CONFIG");
    }
}

TEST_CASE("collinear extra vertices from an import are accepted and still link")
{
    // A square with a vertex in the middle of its right edge, next to two squares.
    PolySoup s;
    s.vertices = {{0, 0, 0}, {2, 0, 0}, {2, 0, 1}, {2, 0, 2}, {0, 0, 2}, {2, 0, 0}, {3, 0, 0}, {3, 0, 2}, {2, 0, 2}};
    s.indices = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    s.polyStarts = {0, 5, 9};
    s.areas = {0, 3};
    auto r = buildNavMesh(s, def2d());
    REQUIRE(r.ok());
    CHECK(r->links(0).size() == 2); // edges (2,0)-(2,1) and (2,1)-(2,2)
    CHECK(r->links(1).size() == 2); // one long edge, two stretches
    CHECK(r->area(1) == 3);
}

TEST_CASE("the mesh reports areas, bounds and the 2D flag")
{
    const NavMesh mesh = meshFromRects({{0, 0, 2, 2}, {2, 0, 3, 1, 5}});
    CHECK(mesh.is2d());
    CHECK(mesh.polygonArea(0) == doctest::Approx(4.0));
    CHECK(mesh.polygonArea(1) == doctest::Approx(1.0));
    CHECK(mesh.totalArea() == doctest::Approx(5.0));
    CHECK(mesh.area(1) == 5);
    CHECK(mesh.bounds().min.x == 0.0f);
    CHECK(mesh.bounds().max.x == 3.0f);
    CHECK(mesh.bounds().max.z == 2.0f);
    CHECK(mesh.polygonIndices(1).size() == 4);
    CHECK(mesh.polygonVertex(1, 2).x == 3.0f);
    const NavMesh empty;
    CHECK(empty.empty());
    CHECK(empty.totalArea() == 0.0);
}

TEST_CASE("heights are interpolated over a sloped polygon")
{
    PolySoup s;
    s.vertices = {{0, 0, 0}, {4, 2, 0}, {4, 2, 4}, {0, 0, 4}};
    s.indices = {0, 1, 2, 3};
    s.polyStarts = {0, 4};
    s.areas = {0};
    auto r = buildNavMesh(s, defaultNavMeshDef());
    REQUIRE(r.ok());
    CHECK(r->heightAt(0, 2.0f, 1.0f) == doctest::Approx(1.0));
    CHECK(r->heightAt(0, 1.0f, 3.0f) == doctest::Approx(0.5));
    const glm::vec3 c = r->closestPointOnPolygon(0, {6.0f, 5.0f, 2.0f});
    CHECK(c.x == doctest::Approx(4.0));
    CHECK(c.y == doctest::Approx(2.0));
}

TEST_CASE("the spatial grid visits every polygon whose bounds meet the box")
{
    // A random grid map covered by rectangles.
    TestGrid g{40, 30, {}};
    uint32_t state = 12345;
    for (int i = 0; i < g.width * g.height; ++i)
    {
        state = state * 1664525u + 1013904223u;
        g.blocked.push_back((state >> 24) < 60 ? 1 : 0);
    }
    const NavMesh mesh = meshFromRects(rectsFromGrid(g));
    uint32_t boxState = 7;
    for (int q = 0; q < 200; ++q)
    {
        boxState = boxState * 1664525u + 1013904223u;
        const float x = float(boxState % 4000) / 100.0f;
        boxState = boxState * 1664525u + 1013904223u;
        const float z = float(boxState % 3000) / 100.0f;
        const float r = float(q % 7) * 0.7f;
        std::set<uint32_t> visited;
        mesh.visitPolygonsInBoxXZ(x - r, z - r, x + r, z + r, [&](uint32_t p) { visited.insert(p); });
        for (uint32_t p = 0; p < mesh.polygonCount(); ++p)
        {
            const Bounds3& b = mesh.polygonBounds(p);
            const bool meets = b.min.x <= x + r && b.max.x >= x - r && b.min.z <= z + r && b.max.z >= z - r;
            if (meets)
                CHECK(visited.count(p) == 1);
        }
    }
}

TEST_CASE("links are symmetric across a random rectangle cover")
{
    TestGrid g{30, 30, {}};
    uint32_t state = 99;
    for (int i = 0; i < g.width * g.height; ++i)
    {
        state = state * 1664525u + 1013904223u;
        g.blocked.push_back((state >> 24) < 50 ? 1 : 0);
    }
    const NavMesh mesh = meshFromRects(rectsFromGrid(g));
    for (uint32_t p = 0; p < mesh.polygonCount(); ++p)
        for (const NavLink& l : mesh.links(p))
        {
            bool back = false;
            for (const NavLink& m : mesh.links(l.neighbour))
                if (m.neighbour == p && std::fabs(std::fabs(m.a.z - m.b.z) + std::fabs(m.a.x - m.b.x) -
                                                  std::fabs(l.a.z - l.b.z) - std::fabs(l.a.x - l.b.x)) < 1e-5f)
                    back = true;
            CHECK(back);
        }
    // Total wall length + link length = total perimeter.
    double perimeter = 0.0, linked = 0.0, walls = 0.0;
    for (uint32_t p = 0; p < mesh.polygonCount(); ++p)
    {
        const Bounds3& b = mesh.polygonBounds(p);
        perimeter += 2.0 * ((b.max.x - b.min.x) + (b.max.z - b.min.z));
        for (const NavLink& l : mesh.links(p))
            linked += std::fabs(l.b.x - l.a.x) + std::fabs(l.b.z - l.a.z);
    }
    for (uint32_t wp = 0; wp < mesh.polygonCount(); ++wp)
        for (const NavWall& w : mesh.walls(wp))
            walls += std::fabs(w.b.x - w.a.x) + std::fabs(w.b.z - w.a.z);
    CHECK(walls + linked == doctest::Approx(perimeter));
}

TEST_CASE("a copied mesh is an independent equal value")
{
    NavMesh a = meshFromRects({{0, 0, 2, 2}, {2, 0, 3, 1}});
    NavMesh b = a;
    CHECK(b.polygonCount() == 2);
    CHECK(b.links(0).size() == a.links(0).size());
    a = meshFromRects({{0, 0, 1, 1}});
    CHECK(b.polygonCount() == 2);
    CHECK(a.polygonCount() == 1);
}

TEST_CASE("polygons that share area are refused with the later one's field; shared edges and separate floors are not")
{
    NavMeshDef def2d = defaultNavMeshDef();
    def2d.is2d = true;
    auto same = buildNavMesh(soupFromRects({{0, 0, 1, 1}, {2, 0, 3, 1}, {0, 0, 1, 1}}), def2d);
    REQUIRE_FALSE(same.ok());
    CHECK(same.error().code == "E_NAV_FORMAT");
    CHECK(same.error().field == "/polygons/2");
    auto partly = buildNavMesh(soupFromRects({{0, 0, 2, 2}, {1, 1, 3, 3}}), def2d);
    REQUIRE_FALSE(partly.ok());
    CHECK(partly.error().field == "/polygons/1");
    // Neighbours sharing an edge or a corner are fine.
    CHECK(buildNavMesh(soupFromRects({{0, 0, 1, 1}, {1, 0, 2, 1}, {1, 1, 2, 2}}), def2d).ok());
    // 3D: a floor and a bridge 3 m above it overlap in x–z but are separate layers;
    // two floors 0.1 m apart (within the step height) are one overlapping floor.
    NavMeshDef def3d = defaultNavMeshDef();
    Rect floor{0, 0, 4, 4};
    Rect bridge{1, 1, 3, 3};
    bridge.y = 3.0f;
    CHECK(buildNavMesh(soupFromRects({floor, bridge}), def3d).ok());
    Rect thin = bridge;
    thin.y = 0.1f;
    CHECK_FALSE(buildNavMesh(soupFromRects({floor, thin}), def3d).ok());
}

TEST_CASE("50,000 copies of one polygon are refused at once, not linked pair by pair")
{
    std::vector<Rect> copies(50000, Rect{0, 0, 1, 1});
    NavMeshDef def = defaultNavMeshDef();
    def.is2d = true;
    auto mesh = buildNavMesh(soupFromRects(copies), def);
    REQUIRE_FALSE(mesh.ok());
    CHECK(mesh.error().field == "/polygons/1");
}

TEST_CASE("connected pieces: polygons joined by links share a piece, separate islands do not, ids are the smallest member")
{
    // Two rooms of two linked rectangles each, apart from each other, and a lone one.
    const NavMesh mesh = meshFromRects({{0, 0, 2, 2}, {2, 0, 4, 2}, {10, 0, 12, 2}, {12, 0, 14, 2}, {20, 20, 21, 21}});
    REQUIRE(mesh.polygonCount() == 5);
    CHECK(mesh.component(0) == 0);
    CHECK(mesh.component(1) == 0);
    CHECK(mesh.component(2) == 2);
    CHECK(mesh.component(3) == 2);
    CHECK(mesh.component(4) == 4);
    // A chain linked only through its middle polygon is one piece whatever the order.
    const NavMesh chain = meshFromRects({{4, 0, 6, 2}, {0, 0, 2, 2}, {2, 0, 4, 2}});
    for (uint32_t p = 0; p < 3; ++p)
        CHECK(chain.component(p) == 0);
}
