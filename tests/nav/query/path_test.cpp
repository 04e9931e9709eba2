#include "spark/nav/query.h"

#include "../mesh/test_meshes.h"
#include "test_maps.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <vector>

using namespace spark;
using namespace spark::nav;
using namespace spark::nav::test;

namespace
{

const glm::vec3 kExt{0.5f, 1.0f, 0.5f};

PathResult path(const NavMesh& mesh, glm::vec3 a, glm::vec3 b, const QueryFilter& f = defaultQueryFilter())
{
    QueryScratch s;
    PathResult out;
    Status st = findPath(mesh, s, a, b, f, kExt, out);
    REQUIRE(st.ok());
    return out;
}

} // namespace

TEST_CASE("a path in one open polygon is one straight segment")
{
    const NavMesh mesh = meshFromRects({{0, 0, 10, 10}});
    const PathResult p = path(mesh, {1, 0, 1}, {9, 0, 6});
    CHECK(p.complete);
    REQUIRE(p.points.size() == 2);
    CHECK(p.length == doctest::Approx(std::sqrt(64.0 + 25.0)));
    CHECK(p.polygons.size() == 1);
}

TEST_CASE("a straight path across T-junctions stays one segment")
{
    // Strips of different sizes whose edges meet at T-junctions.
    const NavMesh mesh = meshFromRects({{0, 0, 2, 6}, {2, 0, 4, 1}, {2, 1, 4, 4}, {2, 4, 4, 6}, {4, 0, 7, 6}});
    const PathResult p = path(mesh, {0.5f, 0, 2.0f}, {6.5f, 0, 3.0f});
    CHECK(p.complete);
    CHECK(p.points.size() == 2);
    CHECK(p.polygons.size() == 3);
    CHECK(p.length == doctest::Approx(std::sqrt(36.0 + 1.0)));
}

TEST_CASE("a path round a corner bends at the inner corner only")
{
    // An L: [0,1]×[0,5] and [1,5]×[4,5].
    const NavMesh mesh = meshFromRects({{0, 0, 1, 5}, {1, 4, 5, 5}});
    const PathResult p = path(mesh, {0.5f, 0, 0.5f}, {4.5f, 0, 4.5f});
    CHECK(p.complete);
    REQUIRE(p.points.size() == 3);
    CHECK(p.points[1].x == doctest::Approx(1.0));
    CHECK(p.points[1].z == doctest::Approx(4.0));
    const double expected = std::sqrt(0.25 + 3.5 * 3.5) * 2.0;
    CHECK(p.length == doctest::Approx(expected));
}

TEST_CASE("a goal on another island gives the path to the closest reachable point, incomplete")
{
    // Left room [0,4]×[0,4]; island [6,8]×[0,4] not linked.
    const NavMesh mesh = meshFromRects({{0, 0, 4, 4}, {6, 0, 8, 4}});
    const PathResult p = path(mesh, {1, 0, 1}, {7, 0, 3});
    CHECK_FALSE(p.complete);
    REQUIRE(p.points.size() == 2);
    CHECK(p.points.back().x == doctest::Approx(4.0));
    CHECK(p.points.back().z == doctest::Approx(3.0));
    CHECK(p.polygons == std::vector<uint32_t>{0});
}

TEST_CASE("an expensive area is avoided and an excluded area never entered")
{
    // Three lanes: the straight middle lane (area 2), a detour above (area 0).
    // [0,2]×[0,6] start room, [2,8]×[2,4] middle (area 2), [2,8]×[4,6] upper, [8,10]×[0,6] goal room.
    const std::vector<Rect> rects = {{0, 0, 2, 6}, {2, 2, 8, 4, 2}, {2, 4, 8, 6}, {8, 0, 10, 6}};
    const NavMesh mesh = meshFromRects(rects);
    const glm::vec3 a{1, 0, 3}, b{9, 0, 3};
    const PathResult direct = path(mesh, a, b);
    CHECK(std::find(direct.polygons.begin(), direct.polygons.end(), 1u) != direct.polygons.end());
    CHECK(direct.points.size() == 2);

    QueryFilter costly = defaultQueryFilter();
    costly.areaCosts[2] = 10.0f;
    const PathResult around = path(mesh, a, b, costly);
    CHECK(around.complete);
    CHECK(std::find(around.polygons.begin(), around.polygons.end(), 1u) == around.polygons.end());
    CHECK(around.length > direct.length);

    QueryFilter excluded = defaultQueryFilter();
    excluded.excludedAreas = 1u << 2;
    const PathResult ex = path(mesh, a, b, excluded);
    CHECK(ex.complete);
    CHECK(std::find(ex.polygons.begin(), ex.polygons.end(), 1u) == ex.polygons.end());
    for (const glm::vec3& pt : ex.points)
        CHECK_FALSE((pt.x > 2.001f && pt.x < 7.999f && pt.z < 3.999f));

    // Excluding the goal's area: incomplete.
    QueryFilter goalOut = defaultQueryFilter();
    goalOut.excludedAreas = 1u << 0;
    const PathResult none = path(mesh, {3, 0, 3}, {9, 0, 3}, goalOut);
    CHECK_FALSE(none.complete);
}

TEST_CASE("findPath reports off-mesh ends and bad filters with their fields")
{
    const NavMesh mesh = meshFromRects({{0, 0, 4, 4}});
    QueryScratch s;
    PathResult out;
    Status st = findPath(mesh, s, {100, 0, 100}, {1, 0, 1}, defaultQueryFilter(), kExt, out);
    REQUIRE_FALSE(st.ok());
    CHECK(st.error().code == "E_NAV_OFF_MESH");
    CHECK(st.error().field == "/from");
    st = findPath(mesh, s, {1, 0, 1}, {1, 0, 100}, defaultQueryFilter(), kExt, out);
    CHECK(st.error().field == "/to");
    st = findPath(mesh, s, {1, 0, std::nanf("")}, {1, 0, 1}, defaultQueryFilter(), kExt, out);
    CHECK(st.error().code == "E_INVALID_PARAMS");
    QueryFilter bad = defaultQueryFilter();
    bad.areaCosts[3] = -1.0f;
    st = findPath(mesh, s, {1, 0, 1}, {2, 0, 2}, bad, kExt, out);
    CHECK(st.error().code == "E_INVALID_PARAMS");
    CHECK(st.error().field == "/area_costs/3");
    CHECK(out.points.empty());
}

TEST_CASE("the same scratch serves many searches with identical answers")
{
    TestGrid g{30, 30, {}};
    uint32_t state = 5;
    for (int i = 0; i < g.width * g.height; ++i)
    {
        state = state * 1664525u + 1013904223u;
        g.blocked.push_back((state >> 24) < 70 ? 1 : 0);
    }
    const NavMesh mesh = meshFromRects(rectsFromGrid(g));
    QueryScratch shared;
    Rng rng = rngFromSeed(3);
    for (int i = 0; i < 100; ++i)
    {
        auto a = randomPoint(mesh, rng);
        auto b = randomPoint(mesh, rng);
        REQUIRE(a.ok());
        REQUIRE(b.ok());
        PathResult p1, p2;
        QueryScratch fresh;
        REQUIRE(findPath(mesh, shared, a->point, b->point, defaultQueryFilter(), kExt, p1).ok());
        REQUIRE(findPath(mesh, fresh, a->point, b->point, defaultQueryFilter(), kExt, p2).ok());
        CHECK(p1.points == p2.points);
        CHECK(p1.polygons == p2.polygons);
        CHECK(p1.complete == p2.complete);
    }
}

namespace
{

/// Checks NavMesh::linkBehind against a flood from each link's far side that
/// does not cross between its two polygons; returns how many links are bridges.
int checkBridges(const NavMesh& mesh)
{
    int bridges = 0;
    const uint32_t polys = mesh.polygonCount();
    auto count = [&](uint32_t p, uint32_t q)
    {
        return std::count_if(mesh.links(p).begin(), mesh.links(p).end(),
                             [&](const NavLink& l) { return l.neighbour == q; });
    };
    for (uint32_t p = 0; p < polys; ++p)
        for (const NavLink& l : mesh.links(p))
        {
            const uint32_t li = mesh.firstLink(p) + static_cast<uint32_t>(&l - mesh.links(p).data());
            const uint32_t q = l.neighbour;
            const NavMesh::LinkBehind b = mesh.linkBehind(li);
            std::vector<uint8_t> seen(polys, 0);
            std::vector<uint32_t> todo{q};
            seen[q] = 1;
            while (!todo.empty())
            {
                const uint32_t x = todo.back();
                todo.pop_back();
                for (const NavLink& m : mesh.links(x))
                    if (!seen[m.neighbour] && !((x == q && m.neighbour == p) || (x == p && m.neighbour == q)))
                    {
                        seen[m.neighbour] = 1;
                        todo.push_back(m.neighbour);
                    }
            }
            if (seen[p] || count(p, q) != 1 || count(q, p) != 1)
            {
                CHECK(b.lo == b.hi);
                continue;
            }
            REQUIRE(b.lo != b.hi);
            ++bridges;
            for (uint32_t x = 0; x < polys; ++x)
            {
                const uint32_t o = mesh.bridgeOrder(x);
                const bool behind = b.lo < b.hi ? (o >= b.lo && o < b.hi) : (o < b.hi || o >= b.lo);
                if (mesh.component(x) == mesh.component(p))
                    CHECK(behind == bool(seen[x]));
            }
        }
    return bridges;
}

/// Checks the tables the path search reads (NavMesh::ringXZ, ringY,
/// linkBackEdge, linkDeadEnd, linkEndPoint, linkBehind) against the polygons
/// and links they stand for; returns how many links lead into a dead end.
int checkQueryTables(const NavMesh& mesh, int* bridges = nullptr)
{
    const int found = checkBridges(mesh);
    if (bridges != nullptr)
        *bridges = found;
    int deadEnds = 0;
    // Point ids: two link ends share one exactly when their bits are equal;
    // the ids are 0 .. count − 1, each used, numbered in the order the links
    // first name them; a point on no link end has none.
    const uint32_t points = mesh.linkEndPointCount();
    uint32_t named = 0;
    auto bits = [](const glm::vec3& v) {
        return std::array<uint32_t, 3>{std::bit_cast<uint32_t>(v.x), std::bit_cast<uint32_t>(v.y), std::bit_cast<uint32_t>(v.z)};
    };
    std::vector<std::array<uint32_t, 3>> idBits(points);
    std::vector<uint8_t> idUsed(points, 0);
    for (uint32_t li = 0; li < mesh.linkCount(); ++li)
        for (uint32_t end = 0; end < 2; ++end)
        {
            const glm::vec3& v = end == 0 ? mesh.link(li).a : mesh.link(li).b;
            const uint32_t id = mesh.linkEndPoint(li, end);
            REQUIRE(id < points);
            CHECK(mesh.linkEndPointOf(v) == id);
            if (idUsed[id])
                CHECK(idBits[id] == bits(v));
            else
                CHECK(id == named++); // a new point takes the next id
            idBits[id] = bits(v);
            idUsed[id] = 1;
        }
    CHECK(std::count(idUsed.begin(), idUsed.end(), uint8_t{0}) == 0);
    std::vector<std::array<uint32_t, 3>> sortedBits = idBits;
    std::sort(sortedBits.begin(), sortedBits.end());
    CHECK(std::adjacent_find(sortedBits.begin(), sortedBits.end()) == sortedBits.end()); // one id per point
    CHECK(mesh.linkEndPointOf(glm::vec3(-12345.5f, 0.25f, 777.125f)) == points);
    for (uint32_t p = 0; p < mesh.polygonCount(); ++p)
    {
        const uint32_t n = mesh.polygonVertexCount(p);
        for (uint32_t i = 0; i < 2 * n; ++i)
        {
            const glm::vec3 v = mesh.polygonVertex(p, i % n);
            CHECK(mesh.ringXZ(p)[i].x == double(v.x));
            CHECK(mesh.ringXZ(p)[i].y == double(v.z));
            CHECK(mesh.ringY(p)[i] == v.y);
        }
        for (const NavLink& l : mesh.links(p))
        {
            const uint32_t li = mesh.firstLink(p) + static_cast<uint32_t>(&l - mesh.links(p).data());
            const uint32_t q = l.neighbour;
            // Edges of q holding a link back to p.
            std::vector<uint32_t> backEdges;
            for (const NavLink& b : mesh.links(q))
                if (b.neighbour == p && std::find(backEdges.begin(), backEdges.end(), b.edge) == backEdges.end())
                    backEdges.push_back(b.edge);
            if (backEdges.size() == 1)
                CHECK(mesh.linkBackEdge(li) == backEdges[0]);
            else
                CHECK(mesh.linkBackEdge(li) == (backEdges.empty() ? 0u : kNoPolygon));
            const uint32_t dead = mesh.linkDeadEnd(li);
            deadEnds += dead != kNoPolygon ? 1 : 0;
            const size_t qLinks = mesh.links(q).size();
            if (qLinks <= 1)
                CHECK(dead == q);
            else if (dead != kNoPolygon)
            {
                // q leads only back to p and on to `dead`, itself with at most one link.
                REQUIRE(qLinks == 2);
                const uint32_t a = mesh.links(q)[0].neighbour, b = mesh.links(q)[1].neighbour;
                CHECK(((a == p && b == dead) || (b == p && a == dead)));
                CHECK(dead != p);
                CHECK(mesh.links(dead).size() <= 1);
            }
            else if (qLinks == 2)
            {
                const uint32_t a = mesh.links(q)[0].neighbour, b = mesh.links(q)[1].neighbour;
                const uint32_t on = a == p ? b : (b == p ? a : kNoPolygon);
                CHECK((on == kNoPolygon || on == p || mesh.links(on).size() > 1));
            }
        }
    }
    return deadEnds;
}

} // namespace

TEST_CASE("the path search's mesh tables match the polygons and links")
{
    // T-junctions (several links on one edge) and a dead-end chain.
    checkQueryTables(meshFromRects({{0, 0, 2, 6}, {2, 0, 4, 1}, {2, 1, 4, 4}, {2, 4, 4, 6}, {4, 0, 7, 6}}));
    // From the square: the strip of two (its far end has one link) and the top
    // rectangle (one link) are dead ends.
    // Bridges: square → strip, strip → its far end, square → top, each both ways.
    int bridges = 0;
    CHECK(checkQueryTables(meshFromRects({{0, 0, 4, 4}, {4, 1, 6, 3}, {6, 1, 8, 3}, {0, 4, 4, 6}}),
                           &bridges) >= 2);
    CHECK(bridges == 6);
    // A ring of four round a hole has none; the tail hung on it has two.
    CHECK(checkQueryTables(
              meshFromRects({{0, 0, 4, 1}, {3, 1, 4, 4}, {0, 4, 4, 5}, {0, 1, 1, 4}, {4, 0, 6, 1}}),
              &bridges) == 1);
    CHECK(bridges == 2);
    int total = 0;
    for (uint64_t seed = 1; seed <= 20; ++seed)
    {
        checkQueryTables(bake(randomGrid(seed, 24, 24, 10, 0), 0.3f), &bridges);
        total += bridges;
    }
    CHECK(total > 0);
}
