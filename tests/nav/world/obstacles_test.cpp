// NavWorld obstacles (docs/navmesh.md "Obstacles"): carving changes paths at once, removing
// every obstacle gives back the baked mesh bit for bit, the carved mesh does
// not depend on the history of moves, polygon ids away from an obstacle stay
// valid, pieces are convex and cover exactly the base minus the footprints,
// and every refused input changes nothing.

#include "spark/nav/nav_world.h"

#include "../mesh/test_meshes.h"
#include "obstacle_helpers.h"

#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <vector>

using namespace spark;
using namespace spark::nav;
using namespace spark::nav::test;

namespace
{

using SharedMesh = std::shared_ptr<const NavMesh>;

constexpr float kRadius = 0.25f; // agent radius the test meshes were "baked" with

SharedMesh meshOf(const std::vector<Rect>& rects, bool is2d = true, float stepHeight = 0.4f)
{
    NavMeshDef def = defaultNavMeshDef();
    def.is2d = is2d;
    def.settings.agentRadius = kRadius;
    def.settings.stepHeight = stepHeight;
    def.settings.cellSize = 0.5f;
    Result<NavMesh> mesh = buildNavMesh(soupFromRects(rects), def);
    REQUIRE(mesh.ok());
    return std::make_shared<const NavMesh>(std::move(mesh).value());
}

// A corridor 20 m × 4 m of 1 m × 1 m cells (80 polygons).
SharedMesh corridorMesh()
{
    std::vector<Rect> rects;
    for (int z = 0; z < 4; ++z)
        for (int x = 0; x < 20; ++x)
            rects.push_back(Rect{float(x), float(z), float(x + 1), float(z + 1)});
    return meshOf(rects);
}

ObstacleId add(NavWorld& world, MeshId mesh, const ObstacleDef& def)
{
    Result<ObstacleId> id = world.addObstacle(mesh, def);
    REQUIRE(id.ok());
    return id.value();
}

PathResult pathOn(const NavWorld& world, MeshId mesh, glm::vec3 from, glm::vec3 to)
{
    PathResult out;
    REQUIRE(findPath(*world.mesh(mesh), world.queryScratch(), from, to, defaultQueryFilter(), glm::vec3(1.0f, 1.0f, 1.0f),
                     out)
                .ok());
    return out;
}

double twiceArea(const NavMesh& m, uint32_t p)
{
    double a2 = 0.0;
    const uint32_t n = m.polygonVertexCount(p);
    for (uint32_t i = 0; i < n; ++i)
    {
        const glm::vec3 a = m.polygonVertex(p, i), b = m.polygonVertex(p, (i + 1) % n);
        a2 += double(a.x) * b.z - double(b.x) * a.z;
    }
    return a2;
}

// Every walkable polygon: convex, counter-clockwise, at most 6 vertices (pieces), no sliver.
void checkPieces(const NavMesh& m, uint32_t baseCount)
{
    for (uint32_t p = 0; p < m.polygonCount(); ++p)
    {
        if (m.disabled(p))
            continue;
        const uint32_t n = m.polygonVertexCount(p);
        if (p >= baseCount)
        {
            CHECK(n <= kMaxBakedPolyVerts);
            CHECK(twiceArea(m, p) * 0.5 >= kMinCarvedPieceArea);
        }
        CHECK(n >= 3);
        CHECK(twiceArea(m, p) > 0.0);
        for (uint32_t i = 0; i < n; ++i)
        {
            const glm::vec3 a = m.polygonVertex(p, i), b = m.polygonVertex(p, (i + 1) % n);
            for (uint32_t k = 0; k < n; ++k)
            {
                const glm::vec3 c = m.polygonVertex(p, k);
                const double cross = (double(b.x) - a.x) * (double(c.z) - a.z) - (double(b.z) - a.z) * (double(c.x) - a.x);
                CHECK(cross >= -1.0e-5);
            }
        }
    }
}

} // namespace

TEST_CASE("a wall of obstacles across a corridor: the path goes round at once, then is blocked; removing restores the bake")
{
    NavWorld world;
    const SharedMesh base = corridorMesh();
    const MeshId mesh = put(world, base);
    const glm::vec3 from(1.0f, 0.0f, 2.0f), to(19.0f, 0.0f, 2.0f);
    const PathResult straight = pathOn(world, mesh, from, to);
    CHECK(straight.complete);
    CHECK(straight.length == doctest::Approx(18.0f).epsilon(1e-4));

    // One pillar in the middle: the path bends round it.
    const ObstacleId a = add(world, mesh, circleAt(10.0f, 2.0f, 0.5f));
    const PathResult round = pathOn(world, mesh, from, to);
    CHECK(round.complete);
    CHECK(round.length > straight.length + 0.05f);
    for (const glm::vec3& p : round.points) // no corner inside the grown pillar
        CHECK(std::hypot(p.x - 10.0f, p.z - 2.0f) >= 0.5f + kRadius - 1e-3f);
    CHECK(world.mesh(mesh)->activePolygonCount() > base->polygonCount() - 4);
    checkPieces(*world.mesh(mesh), base->polygonCount());

    // Boxes close the corridor: no way through.
    std::vector<ObstacleId> wall{a};
    wall.push_back(add(world, mesh, boxAt(10.0f, 0.5f, 0.3f, 0.6f)));
    wall.push_back(add(world, mesh, boxAt(10.0f, 3.5f, 0.3f, 0.6f)));
    const PathResult blocked = pathOn(world, mesh, from, to);
    CHECK_FALSE(blocked.complete);
    CHECK(blocked.points.back().x < 10.0f);

    // Remove them all: the baked mesh again, bit for bit.
    for (ObstacleId id : wall)
        REQUIRE(world.removeObstacle(id).ok());
    CHECK(world.obstacleCount() == 0);
    CHECK(hashNavMesh(*world.mesh(mesh)) == world.meshRecord(mesh)->baseHash);
    CHECK(serializeNavMesh(*world.mesh(mesh)) == serializeNavMesh(*base));
    const PathResult again = pathOn(world, mesh, from, to);
    CHECK(again.complete);
    CHECK(again.length == straight.length);
}

TEST_CASE("moving an obstacle away and back ends at the mesh of never moving it; the carving is pinned")
{
    NavWorld still, moved;
    const SharedMesh base = corridorMesh();
    const MeshId m1 = put(still, base), m2 = put(moved, base);
    add(still, m1, circleAt(5.3f, 1.7f, 0.6f));
    add(still, m1, boxAt(12.2f, 2.4f, 0.7f, 0.4f, 30.0f));
    add(moved, m2, circleAt(5.3f, 1.7f, 0.6f));
    const ObstacleId b = add(moved, m2, boxAt(12.2f, 2.4f, 0.7f, 0.4f, 30.0f));
    for (int i = 0; i < 5; ++i)
    {
        REQUIRE(moved.moveObstacle(b, glm::vec3(3.0f + float(i), 0.0f, 1.5f), 10.0f * float(i)).ok());
        CHECK(hashNavMesh(*moved.mesh(m2)) != hashNavMesh(*still.mesh(m1)));
    }
    REQUIRE(moved.moveObstacle(b, glm::vec3(12.2f, 0.0f, 2.4f), 30.0f).ok());
    CHECK(serializeNavMesh(*moved.mesh(m2)) == serializeNavMesh(*still.mesh(m1)));
    // The carving of this input, pinned (changes only with the geometry code).
    CHECK(hashNavMesh(*still.mesh(m1)) == 0xc774a160eed30189ull);
}

TEST_CASE("polygon ids away from an obstacle stay valid; those it carves go stale and come back with new generations")
{
    NavWorld world;
    const MeshId mesh = put(world, corridorMesh());
    const uint32_t far = 0, under = 10 + 20 * 2; // cell (10, 2)
    const PolyRef farRef = world.polyRef(mesh, far).value();
    const PolyRef underRef = world.polyRef(mesh, under).value();
    const ObstacleId o = add(world, mesh, circleAt(10.5f, 2.5f, 0.2f));
    CHECK(world.resolvePoly(mesh, farRef).ok());
    CHECK(world.resolvePoly(mesh, underRef).error().code == "E_NAV_STALE_POLY");
    CHECK(world.mesh(mesh)->disabled(under));
    CHECK(world.polyRef(mesh, under).error().code == "E_NAV_STALE_POLY");
    REQUIRE(world.removeObstacle(o).ok());
    CHECK(world.resolvePoly(mesh, farRef).ok());
    CHECK_FALSE(world.resolvePoly(mesh, underRef).ok()); // a new generation
    const PolyRef fresh = world.polyRef(mesh, under).value();
    CHECK(fresh.generation() > underRef.generation());
    CHECK(world.resolvePoly(mesh, fresh).ok());
}

TEST_CASE("carved area is the base area minus the grown footprints: overlapping, touching and bigger than the mesh")
{
    NavWorld world;
    const SharedMesh base = corridorMesh();
    const MeshId mesh = put(world, base);
    const double baseArea = base->totalArea();
    // Axis-aligned boxes grow to boxes (right-angle corners are mitred exactly).
    const ObstacleId a = add(world, mesh, boxAt(4.0f, 2.0f, 0.5f, 0.5f)); // grown: [3.25, 4.75] × [1.25, 2.75]
    CHECK(world.mesh(mesh)->totalArea() == doctest::Approx(baseArea - 1.5 * 1.5).epsilon(1e-4));
    add(world, mesh, boxAt(5.0f, 2.0f, 0.5f, 0.5f)); // overlaps a: union [3.25, 5.75] × [1.25, 2.75]
    CHECK(world.mesh(mesh)->totalArea() == doctest::Approx(baseArea - 2.5 * 1.5).epsilon(1e-4));
    add(world, mesh, boxAt(7.0f, 2.0f, 0.5f, 0.5f)); // [6.25, 7.75]: 0.5 m from the union
    CHECK(world.mesh(mesh)->totalArea() == doctest::Approx(baseArea - 2.5 * 1.5 - 2.25).epsilon(1e-4));
    add(world, mesh, boxAt(6.0f, 2.0f, 0.0001f, 0.5f)); // [5.75, 6.25]: touches both sides, closing the gap
    CHECK(world.mesh(mesh)->totalArea() == doctest::Approx(baseArea - 4.5 * 1.5).epsilon(1e-4));
    checkPieces(*world.mesh(mesh), base->polygonCount());
    REQUIRE(world.removeObstacle(a).ok());
    CHECK(world.mesh(mesh)->totalArea() == doctest::Approx(baseArea - 3.5 * 1.5).epsilon(1e-4));

    // Bigger than the mesh: nothing walkable is left.
    NavWorld all;
    const MeshId m = put(all, base);
    add(all, m, boxAt(10.0f, 2.0f, 50.0f, 50.0f));
    CHECK(all.mesh(m)->activePolygonCount() == 0);
    CHECK(all.mesh(m)->totalArea() == 0.0);
    CHECK(findNearest(*all.mesh(m), glm::vec3(5.0f, 0.0f, 2.0f), glm::vec3(2.0f)).error().code == "E_NAV_OFF_MESH");
}

TEST_CASE("an obstacle on a T-junction between regions: the pieces on both sides link, the path goes round")
{
    // One long polygon below two short ones: a T-junction at x = 2.
    NavWorld world;
    const MeshId mesh = put(world, meshOf({Rect{0, 0, 4, 2}, Rect{0, 2, 2, 4}, Rect{2, 2, 4, 4}}));
    add(world, mesh, circleAt(2.0f, 2.0f, 0.3f));
    checkPieces(*world.mesh(mesh), 3);
    const PathResult p = pathOn(world, mesh, glm::vec3(0.5f, 0.0f, 3.5f), glm::vec3(3.5f, 0.0f, 3.5f));
    CHECK(p.complete);
    const PathResult q = pathOn(world, mesh, glm::vec3(0.5f, 0.0f, 3.5f), glm::vec3(3.5f, 0.0f, 0.5f));
    CHECK(q.complete);
    for (const glm::vec3& c : q.points)
        CHECK(std::hypot(c.x - 2.0f, c.z - 2.0f) >= 0.3f + kRadius - 1e-3f);
}

TEST_CASE("an obstacle carves the floor it stands on, not the floor above it")
{
    NavWorld world;
    const MeshId mesh = put(world, meshOf({Rect{0, 0, 4, 4, 0, 0.0f}, Rect{0, 0, 4, 4, 0, 3.0f}}, false));
    ObstacleDef low = circleAt(2.0f, 2.0f, 0.5f);
    low.height = 2.0f;
    add(world, mesh, low);
    const NavMesh& m = *world.mesh(mesh);
    CHECK(m.disabled(0));
    CHECK_FALSE(m.disabled(1));
}

TEST_CASE("refused obstacles change nothing and name their field")
{
    NavWorld world;
    const MeshId mesh = put(world, corridorMesh());
    const ObstacleId o = add(world, mesh, circleAt(3.0f, 2.0f, 0.5f));
    const uint64_t before = world.hashState();
    auto refusedAdd = [&](ObstacleDef def, const char* field) {
        Result<ObstacleId> r = world.addObstacle(mesh, def);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().code == "E_INVALID_PARAMS");
        CHECK(r.error().field == field);
        CHECK(world.hashState() == before);
    };
    refusedAdd(circleAt(3.0f, 2.0f, 0.0f), "/shape/radius");
    refusedAdd(circleAt(NAN, 2.0f, 0.5f), "/position");
    refusedAdd(boxAt(3.0f, 2.0f, -1.0f, 1.0f), "/shape/half_extents");
    ObstacleDef clockwise = defaultObstacleDef();
    clockwise.shape.shape = FootprintShape::Polygon;
    clockwise.shape.points = {{0, 0}, {0, 1}, {1, 0}};
    refusedAdd(clockwise, "/shape/points");
    ObstacleDef tall = circleAt(3.0f, 2.0f, 0.5f);
    tall.height = -1.0f;
    refusedAdd(tall, "/height");
    CHECK(world.addObstacle(MeshId{}, circleAt(3.0f, 2.0f, 0.5f)).error().code == "E_NAV_NO_MESH");

    CHECK(world.moveObstacle(o, glm::vec3(INFINITY, 0.0f, 0.0f)).error().field == "/position");
    CHECK(world.moveObstacle(o, glm::vec3(3.0f, 0.0f, 2.0f), NAN).error().field == "/angle_deg");
    CHECK(world.hashState() == before);
    REQUIRE(world.removeObstacle(o).ok());
    CHECK(world.removeObstacle(o).error().code == "E_NAV_UNKNOWN_OBSTACLE");
    CHECK(world.moveObstacle(o, glm::vec3(1.0f)).error().code == "E_NAV_UNKNOWN_OBSTACLE");
}

TEST_CASE("a re-bake keeps the obstacles and carves the new mesh; removing the mesh removes them")
{
    NavWorld world;
    const MeshId mesh = put(world, corridorMesh());
    add(world, mesh, circleAt(10.0f, 2.0f, 0.5f));
    const uint64_t carved = hashNavMesh(*world.mesh(mesh));
    MeshDef again = defaultMeshDef();
    again.name = "m";
    again.mesh = corridorMesh();
    REQUIRE(world.putMesh(std::move(again)).ok());
    CHECK(world.obstacleCount() == 1);
    CHECK(hashNavMesh(*world.mesh(mesh)) == carved);
    REQUIRE(world.removeMesh(mesh).ok());
    CHECK(world.obstacleCount() == 0);
}

TEST_CASE("crowd agents whose corridor an obstacle breaks re-plan round it; others keep their corridor")
{
    NavWorld world;
    const MeshId mesh = put(world, corridorMesh());
    CrowdAgentDef def = defaultCrowdAgentDef();
    def.radius = kRadius;
    def.position = glm::vec3(1.0f, 0.0f, 2.0f);
    const AgentId walker = world.addAgent(mesh, def).value();
    def.position = glm::vec3(1.0f, 0.0f, 0.5f);
    const AgentId other = world.addAgent(mesh, def).value();
    REQUIRE(world.setAgentTarget(walker, glm::vec3(19.0f, 0.0f, 2.0f)).ok());
    REQUIRE(world.setAgentTarget(other, glm::vec3(3.0f, 0.0f, 0.5f)).ok());
    REQUIRE(world.stepCrowds(0.1).ok());
    const std::vector<uint32_t> otherCorridor = world.agent(other)->corridor.polygons;
    add(world, mesh, circleAt(10.0f, 2.0f, 0.8f));
    REQUIRE(world.stepCrowds(0.1).ok());
    // The walker's corridor no longer crosses a carved slot.
    for (uint32_t p : world.agent(walker)->corridor.polygons)
        CHECK_FALSE(world.mesh(mesh)->disabled(p));
    CHECK(world.agent(other)->corridor.polygons.front() == otherCorridor.front());
    double closest = 1e9;
    for (int i = 0; i < 300 && world.agent(walker)->state != AgentState::Arrived; ++i)
    {
        REQUIRE(world.stepCrowds(0.1).ok());
        const glm::vec3 p = world.agent(walker)->position;
        closest = std::min(closest, std::hypot(double(p.x) - 10.0, double(p.z) - 2.0));
    }
    CHECK(world.agent(walker)->state == AgentState::Arrived);
    CHECK(closest >= 0.8 + kRadius - 0.05);
}

TEST_CASE("links and walls after any sequence of changes equal those of the same polygons linked from scratch")
{
    NavWorld world;
    const MeshId mesh = put(world, corridorMesh());
    std::vector<ObstacleId> live;
    uint32_t state = 12345u;
    auto next = [&](float lo, float hi) {
        state = state * 1664525u + 1013904223u;
        return lo + (hi - lo) * float(state >> 8) / float(1u << 24);
    };
    for (int step = 0; step < 60; ++step)
    {
        const float pick = next(0.0f, 1.0f);
        if (live.empty() || pick < 0.4f)
            live.push_back(add(world, mesh,
                               step % 2 ? circleAt(next(0.0f, 20.0f), next(0.0f, 4.0f), next(0.1f, 0.7f))
                                        : boxAt(next(0.0f, 20.0f), next(0.0f, 4.0f), next(0.1f, 0.6f), next(0.1f, 0.6f),
                                                next(-90.0f, 90.0f))));
        else if (pick < 0.8f)
            REQUIRE(world.moveObstacle(live[size_t(next(0.0f, float(live.size()) - 0.01f))],
                                       glm::vec3(next(0.0f, 20.0f), 0.0f, next(0.0f, 4.0f)))
                        .ok());
        else
        {
            const size_t i = size_t(next(0.0f, float(live.size()) - 0.01f));
            REQUIRE(world.removeObstacle(live[i]).ok());
            live.erase(live.begin() + long(i));
        }
        const NavMesh& carved = *world.mesh(mesh);
        const NavMesh plain = walkableMesh(carved); // linked from scratch
        std::vector<uint32_t> renumber(carved.polygonCount(), kNoPolygon);
        uint32_t w = 0;
        for (uint32_t p = 0; p < carved.polygonCount(); ++p)
            if (!carved.disabled(p))
                renumber[p] = w++;
        REQUIRE(w == plain.polygonCount());
        for (uint32_t p = 0; p < carved.polygonCount(); ++p)
        {
            if (carved.disabled(p))
            {
                CHECK(carved.links(p).empty());
                CHECK(carved.walls(p).empty());
                continue;
            }
            const auto mine = carved.links(p);
            const auto theirs = plain.links(renumber[p]);
            REQUIRE(mine.size() == theirs.size());
            for (size_t k = 0; k < mine.size(); ++k)
            {
                CHECK(renumber[mine[k].neighbour] == theirs[k].neighbour);
                CHECK(mine[k].edge == theirs[k].edge);
                CHECK(mine[k].tMin == theirs[k].tMin);
                CHECK(mine[k].tMax == theirs[k].tMax);
                CHECK(mine[k].a == theirs[k].a);
                CHECK(mine[k].b == theirs[k].b);
            }
            const auto myWalls = carved.walls(p);
            const auto theirWalls = plain.walls(renumber[p]);
            REQUIRE(myWalls.size() == theirWalls.size());
            for (size_t k = 0; k < myWalls.size(); ++k)
            {
                CHECK(myWalls[k].a == theirWalls[k].a);
                CHECK(myWalls[k].b == theirWalls[k].b);
            }
        }
    }
}
