// The detour search round jams (libnav/src/crowd/congestion.cpp): path.cpp's
// corridor search with each leg costed on its own and a per-polygon extra
// cost (`detail::legSearch`), and the crowding it is charged from.

#include "congestion.h"
#include "crowd_test_util.h"
#include "query_common.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

using namespace spark;
using namespace spark::nav;
using namespace spark::nav::test;

namespace
{

/// A 20 × 10 m hall with a 4 × 4 m block in the middle: two ways round it.
std::shared_ptr<const NavMesh> blockHall()
{
    return bakeShapes(box(0, 0, 20, 10, {Rect2D{{8, 3}, {12, 7}}}));
}

uint32_t polygonAt(const NavMesh& mesh, float x, float z)
{
    Result<MeshPoint> at = findNearest(mesh, glm::vec3(x, 0.0f, z), glm::vec3(0.5f, 1.0f, 0.5f));
    REQUIRE(at.ok());
    return at->polygon;
}

/// Each polygon linked to the one before it.
bool linkedChain(const NavMesh& mesh, const std::vector<uint32_t>& polys)
{
    for (size_t i = 1; i < polys.size(); ++i)
    {
        bool linked = false;
        for (const NavLink& l : mesh.links(polys[i - 1]))
            linked = linked || l.neighbour == polys[i];
        if (!linked)
            return false;
    }
    return true;
}

/// A polygon of the corridor beside the block (its bounds' middle over x 8..12).
uint32_t besideBlock(const NavMesh& mesh, const std::vector<uint32_t>& polys)
{
    for (uint32_t p : polys)
    {
        const Bounds3& b = mesh.polygonBounds(p);
        const float mid = 0.5f * (b.min.x + b.max.x);
        if (mid > 8.0f && mid < 12.0f)
            return p;
    }
    return kNoPolygon;
}

} // namespace

TEST_CASE("detour: crowded polygons are charged, so the search goes the other way round")
{
    const std::shared_ptr<const NavMesh> mesh = blockHall();
    const glm::vec3 from(2.0f, 0.0f, 5.0f), to(18.0f, 0.0f, 5.0f);
    const uint32_t a = polygonAt(*mesh, from.x, from.z), b = polygonAt(*mesh, to.x, to.z);
    Congestion c;
    std::vector<uint32_t> free;
    REQUIRE(planDetour(*mesh, c, defaultQueryFilter(), a, from, b, to, free));
    REQUIRE(free.size() >= 3);
    CHECK(free.front() == a);
    CHECK(free.back() == b);
    CHECK(linkedChain(*mesh, free));
    const uint32_t side = besideBlock(*mesh, free);
    REQUIRE(side != kNoPolygon);
    const bool north = mesh->polygonBounds(side).min.z >= 7.0f - 1.0e-3f;

    // Without extra costs the shared search gives the same corridor.
    std::vector<uint32_t> plain;
    REQUIRE(detail::legSearch(*mesh, c.search.data(), a, from, b, to, defaultQueryFilter(), {}, kDetourNodes, plain));
    CHECK(plain == free);

    // Three standing agents on the polygon beside the block: 6 m more to
    // enter it, more than going round the other side costs (the same length).
    c.crowding[side] = 3.0f;
    c.jamCost[side] = kJamCost * 3.0f;
    c.touched.push_back(side);
    std::vector<uint32_t> detour;
    REQUIRE(planDetour(*mesh, c, defaultQueryFilter(), a, from, b, to, detour));
    CHECK(detour.front() == a);
    CHECK(detour.back() == b);
    CHECK(linkedChain(*mesh, detour));
    CHECK(std::find(detour.begin(), detour.end(), side) == detour.end());
    const uint32_t other = besideBlock(*mesh, detour);
    REQUIRE(other != kNoPolygon);
    CHECK((mesh->polygonBounds(other).min.z >= 7.0f - 1.0e-3f) != north);
}

TEST_CASE("detour: the search gives up past its polygon budget or on bad polygons, leaving the output alone")
{
    const std::shared_ptr<const NavMesh> mesh = blockHall();
    const glm::vec3 from(2.0f, 0.0f, 5.0f), to(18.0f, 0.0f, 5.0f);
    const uint32_t a = polygonAt(*mesh, from.x, from.z), b = polygonAt(*mesh, to.x, to.z);
    REQUIRE(a != b);
    QueryScratch scratch;
    const std::vector<uint32_t> kept{7u, 7u};
    std::vector<uint32_t> out = kept;
    CHECK_FALSE(detail::legSearch(*mesh, scratch.data(), a, from, b, to, defaultQueryFilter(), {}, 1, out));
    CHECK(out == kept);
    CHECK_FALSE(detail::legSearch(*mesh, scratch.data(), mesh->polygonCount(), from, b, to, defaultQueryFilter(), {},
                                  kDetourNodes, out));
    CHECK_FALSE(detail::legSearch(*mesh, scratch.data(), a, from, mesh->polygonCount(), to, defaultQueryFilter(), {},
                                  kDetourNodes, out));
    // Extra costs must cover every polygon.
    const std::vector<float> short_(mesh->polygonCount() - 1, 0.0f);
    CHECK_FALSE(detail::legSearch(*mesh, scratch.data(), a, from, b, to, defaultQueryFilter(), short_, kDetourNodes,
                                  out));
    CHECK(out == kept);
    // The start's polygon holds the goal: a corridor of one.
    CHECK(detail::legSearch(*mesh, scratch.data(), a, from, a, from + glm::vec3(0.1f, 0.0f, 0.0f),
                            defaultQueryFilter(), {}, 1, out));
    CHECK(out == std::vector<uint32_t>{a});
}

TEST_CASE("detour: crowding counts standing agents whole and slow walkers by how slow, charged more the longer they wait")
{
    Scene s;
    putGround(s, blockHall());
    const AgentId walker = addWalker(s, 2.0f, 5.0f, 18.0f, 5.0f);
    const AgentId other = addWalker(s, 2.5f, 5.0f, 18.0f, 5.0f);
    CrowdAgent w = *s.world.agent(walker);
    CrowdAgent o = *s.world.agent(other);
    REQUIRE(w.corridor.polygons.front() == o.corridor.polygons.front());
    const uint32_t poly = w.corridor.polygons.front();
    const NavMesh& mesh = *s.world.mesh(w.mesh);
    // A walker without headway for 2 s at a quarter of its speed counts 0.75;
    // one that has just started counts nothing; a standing one counts 1.
    w.blockedFor = 2.0f;
    w.velocity = glm::vec3(0.25f * w.def.maxSpeed, 0.0f, 0.0f);
    o.blockedFor = 0.1f;
    CrowdAgent standing = o;
    standing.state = AgentState::Idle;
    std::vector<CrowdAgent*> agents{&w, &o};
    Congestion c;
    measureCongestion(mesh, agents, c);
    CHECK(c.crowding[poly] == doctest::Approx(0.75f));
    // Its cost grows with its wait: 2 s / kJamWaitScale more.
    const float grown = 1.0f + 2.0f / kJamWaitScale;
    CHECK(c.jamCost[poly] == doctest::Approx(kJamCost * 0.75f * grown));
    agents.push_back(&standing);
    measureCongestion(mesh, agents, c);
    CHECK(c.crowding[poly] == doctest::Approx(1.75f));
    CHECK(c.jamCost[poly] == doctest::Approx(kJamCost * (0.75f * grown + 1.0f)));
    // A wait counts up to kJamWaitCap.
    w.blockedFor = 100.0f;
    measureCongestion(mesh, agents, c);
    CHECK(c.jamCost[poly] == doctest::Approx(kJamCost * (0.75f * (1.0f + kJamWaitCap / kJamWaitScale) + 1.0f)));
    w.blockedFor = 2.0f;
    CHECK_FALSE(corridorCongested(c, w.corridor));
    // Two more standing: 3.75 slow agents, a jam (kJamAgents) ahead of the walker.
    agents.push_back(&standing);
    agents.push_back(&standing);
    measureCongestion(mesh, agents, c);
    CHECK(c.crowding[poly] == doctest::Approx(3.75f));
    CHECK(corridorCongested(c, w.corridor));
    // The next measure starts from nothing.
    agents.assign({&o});
    measureCongestion(mesh, agents, c);
    CHECK(c.crowding[poly] == 0.0f);
    CHECK(c.jamCost[poly] == 0.0f);
    CHECK(c.touched.empty());
}
