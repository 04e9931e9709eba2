// Off-mesh links in path searches (docs/navmesh.md "Off-mesh links"): a jump between two platforms
// the mesh does not join, one-way links, unresolved ends, and bad defs.

#include "spark/nav/offmesh.h"
#include "spark/nav/query.h"

#include "../mesh/test_meshes.h"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

using namespace spark;
using namespace spark::nav;
using namespace spark::nav::test;

namespace
{

// Two platforms, x in [0, 4] and [6, 10], z in [0, 4]: a 2 m gap between them.
NavMesh platforms()
{
    return meshFromRects({Rect{0, 0, 2, 4}, Rect{2, 0, 4, 4}, Rect{6, 0, 8, 4}, Rect{8, 0, 10, 4}});
}

PathLink linkOf(const NavMesh& mesh, const OffMeshLinkDef& def, uint32_t id)
{
    const ResolvedOffMeshLink r = resolveOffMeshLink(mesh, def);
    REQUIRE(r.resolved);
    return PathLink{r.startPolygon, r.endPolygon, r.start, r.end, def.cost, def.bidirectional, id, def.kind, def.speed,
                    def.arcHeight};
}

PathResult path(const NavMesh& mesh, std::span<const PathLink> links, glm::vec3 from, glm::vec3 to)
{
    QueryScratch scratch;
    PathResult out;
    REQUIRE(findPath(mesh, scratch, from, to, defaultQueryFilter(), glm::vec3(0.5f), links, out).ok());
    return out;
}

} // namespace

TEST_CASE("a jump link joins two platforms: the path takes it with take-off and landing as consecutive points")
{
    const NavMesh mesh = platforms();
    OffMeshLinkDef def = defaultOffMeshLinkDef();
    def.start = glm::vec3(3.8f, 0.0f, 2.0f);
    def.end = glm::vec3(6.2f, 0.0f, 2.0f);
    const PathLink link = linkOf(mesh, def, 7);
    const PathResult none = path(mesh, {}, glm::vec3(1, 0, 1), glm::vec3(9, 0, 3));
    CHECK_FALSE(none.complete);
    const PathResult p = path(mesh, std::span<const PathLink>(&link, 1), glm::vec3(1, 0, 1), glm::vec3(9, 0, 3));
    REQUIRE(p.complete);
    REQUIRE(p.links.size() == 1);
    CHECK(p.links[0].link == 7);
    const uint32_t k = p.links[0].point;
    REQUIRE(k + 1 < p.points.size());
    CHECK(p.points[k] == link.start);
    CHECK(p.points[k + 1] == link.end);
    CHECK(p.points.front() == glm::vec3(1, 0, 1));
    CHECK(p.points.back() == glm::vec3(9, 0, 3));
    // Length: the walk to the take-off, the leap, the walk on.
    const double expect = std::hypot(2.8, 1.0) + 2.4 + std::hypot(2.8, 1.0);
    CHECK(p.length == doctest::Approx(expect).epsilon(1e-5));
    // Both ways by default.
    const PathResult back = path(mesh, std::span<const PathLink>(&link, 1), glm::vec3(9, 0, 3), glm::vec3(1, 0, 1));
    CHECK(back.complete);
    REQUIRE(back.links.size() == 1);
    CHECK(back.points[back.links[0].point] == link.end);
}

TEST_CASE("a one-way link refuses the way back; a costly link loses to a walk round")
{
    const NavMesh mesh = platforms();
    OffMeshLinkDef def = defaultOffMeshLinkDef();
    def.start = glm::vec3(3.8f, 0.0f, 2.0f);
    def.end = glm::vec3(6.2f, 0.0f, 2.0f);
    def.bidirectional = false;
    const PathLink link = linkOf(mesh, def, 1);
    CHECK(path(mesh, std::span<const PathLink>(&link, 1), glm::vec3(1, 0, 1), glm::vec3(9, 0, 3)).complete);
    const PathResult back = path(mesh, std::span<const PathLink>(&link, 1), glm::vec3(9, 0, 3), glm::vec3(1, 0, 1));
    CHECK_FALSE(back.complete);
    CHECK(back.links.empty());

    // Two links across the gap; the cheaper (cost × length) one is taken.
    OffMeshLinkDef far = def;
    far.start = glm::vec3(3.8f, 0.0f, 0.5f);
    far.end = glm::vec3(6.2f, 0.0f, 0.5f);
    PathLink pair[2] = {linkOf(mesh, def, 1), linkOf(mesh, far, 2)};
    pair[0].cost = 20.0f; // the straight one is made dear
    const PathResult p = path(mesh, pair, glm::vec3(3, 0, 2), glm::vec3(7, 0, 2));
    REQUIRE(p.links.size() == 1);
    CHECK(p.links[0].link == 2);
}

TEST_CASE("an end out of reach leaves the link unresolved; bad defs are refused with their field")
{
    const NavMesh mesh = platforms();
    OffMeshLinkDef def = defaultOffMeshLinkDef();
    def.start = glm::vec3(3.8f, 0.0f, 2.0f);
    def.end = glm::vec3(5.0f, 0.0f, 2.0f); // in the gap, 1 m from the far platform
    const ResolvedOffMeshLink r = resolveOffMeshLink(mesh, def);
    CHECK_FALSE(r.resolved);
    CHECK(r.startPolygon == 1);
    CHECK(r.endPolygon == kNoPolygon);
    // An unresolved link given to the search anyway is ignored.
    const PathLink broken{r.startPolygon, r.endPolygon, r.start, r.end, 1.0f, true, 3, OffMeshKind::Jump, 4.0f, 1.0f};
    CHECK_FALSE(path(mesh, std::span<const PathLink>(&broken, 1), glm::vec3(1, 0, 1), glm::vec3(9, 0, 3)).complete);

    auto refused = [](OffMeshLinkDef d, const char* field) {
        const Status st = validateOffMeshLink(d);
        REQUIRE_FALSE(st.ok());
        CHECK(st.error().code == "E_INVALID_PARAMS");
        CHECK(st.error().field == field);
        CHECK_FALSE(st.error().hint.empty());
    };
    OffMeshLinkDef good = def;
    CHECK(validateOffMeshLink(good).ok());
    OffMeshLinkDef d = good;
    d.start.x = NAN;
    refused(d, "/start");
    d = good;
    d.end = d.start;
    refused(d, "/end");
    d = good;
    d.radius = 0.0f;
    refused(d, "/radius");
    d = good;
    d.cost = -1.0f;
    refused(d, "/cost");
    d = good;
    d.speed = 1000.0f;
    refused(d, "/speed");
    d = good;
    d.arcHeight = -0.5f;
    refused(d, "/arc_height");
}
