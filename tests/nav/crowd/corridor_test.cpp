// Corridors: planning, corners by the funnel, moving along the surface (wall
// sliding, trimming, extending off the list), checks after the mesh changed,
// re-planning, and no allocation once the buffers have grown.
//
// The mesh of most cases (x right, z up the page, all at height 1.25):
//
//   C [0,2]×[4,6]          an alcove above room A (linked along z = 4, x 0..2)
//   A [0,4]×[0,4]          room A
//   D [4,5]×[1.5,2.5]      a 1 m doorway
//   B [5,9]×[0,4]          room B

#include "spark/nav/corridor.h"

#include "../mesh/test_meshes.h"
#include "alloc_count.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

using namespace spark;
using namespace spark::nav;
using namespace spark::nav::test;

namespace
{

constexpr float kY = 1.25f;
constexpr uint32_t kA = 0, kD = 1, kB = 2, kC = 3;

Rect at(Rect r)
{
    r.y = kY;
    return r;
}

std::vector<Rect> roomsRects()
{
    return {at({0, 0, 4, 4}), at({4, 1.5f, 5, 2.5f}), at({5, 0, 9, 4}), at({0, 4, 2, 6})};
}

NavMesh rooms()
{
    return meshFromRects(roomsRects(), false);
}

const glm::vec3 kExtents(0.5f, 2.0f, 0.5f);

glm::vec3 p(float x, float z)
{
    return glm::vec3(x, kY, z);
}

Corridor planned(const NavMesh& mesh, QueryScratch& s, glm::vec3 from, glm::vec3 to)
{
    Corridor c;
    REQUIRE(planCorridor(mesh, s, from, to, defaultQueryFilter(), kExtents, c).ok());
    return c;
}

} // namespace

TEST_CASE("planCorridor lists the polygons from the start to the goal")
{
    const NavMesh mesh = rooms();
    QueryScratch s;
    const Corridor c = planned(mesh, s, p(1, 0.5f), p(8, 0.5f));
    CHECK(c.complete);
    CHECK(c.polygons == std::vector<uint32_t>{kA, kD, kB});
    CHECK(c.position == p(1, 0.5f));
    CHECK(c.target == p(8, 0.5f));
}

TEST_CASE("planCorridor to a goal off the mesh is E_NAV_OFF_MESH at /to; an unreachable goal is partial")
{
    const NavMesh mesh = meshFromRects({at({0, 0, 4, 4}), at({6, 0, 9, 4})}, false); // two islands
    QueryScratch s;
    Corridor c;
    const Status off = planCorridor(mesh, s, p(1, 1), p(30, 30), defaultQueryFilter(), kExtents, c);
    REQUIRE_FALSE(off.ok());
    CHECK(off.error().code == "E_NAV_OFF_MESH");
    CHECK(off.error().field == "/to");
    REQUIRE(planCorridor(mesh, s, p(1, 1), p(8, 1), defaultQueryFilter(), kExtents, c).ok());
    CHECK_FALSE(c.complete);
    CHECK(c.polygons == std::vector<uint32_t>{0});
}

TEST_CASE("corners bend at the doorway's jambs and the last one is the target, flagged kCornerEnd")
{
    // From (1, 0.5) to (8, 0.5) the straight line runs under the doorway
    // (z 1.5..2.5): the string bends round (4, 1.5) and (5, 1.5).
    const NavMesh mesh = rooms();
    QueryScratch s;
    const Corridor c = planned(mesh, s, p(1, 0.5f), p(8, 0.5f));
    std::vector<CorridorCorner> corners;
    REQUIRE(findCorridorCorners(mesh, s, c, kMaxCorridorCorners, corners).ok());
    REQUIRE(corners.size() == 3);
    CHECK(corners[0].point.x == doctest::Approx(4.0));
    CHECK(corners[0].point.z == doctest::Approx(1.5));
    CHECK(corners[0].flags == 0);
    CHECK(corners[1].point.x == doctest::Approx(5.0));
    CHECK(corners[1].point.z == doctest::Approx(1.5));
    CHECK(corners[1].flags == 0);
    CHECK(corners[2].point == p(8, 0.5f));
    CHECK(corners[2].flags == kCornerEnd);
    CHECK(corners[2].polygon == kB);
    for (const CorridorCorner& k : corners)
        CHECK(k.point.y == doctest::Approx(kY));

    // A count of 1 gives the first bend only, without the end flag.
    REQUIRE(findCorridorCorners(mesh, s, c, 1, corners).ok());
    REQUIRE(corners.size() == 1);
    CHECK(corners[0].flags == 0);

    // A straight line through the doorway has no bend: the target only.
    const Corridor straight = planned(mesh, s, p(1, 2), p(8, 2));
    REQUIRE(findCorridorCorners(mesh, s, straight, 4, corners).ok());
    REQUIRE(corners.size() == 1);
    CHECK(corners[0].point == p(8, 2));
    CHECK(corners[0].flags == kCornerEnd);
}

TEST_CASE("findCorridorCorners refuses an empty corridor and a corner count outside 1..16")
{
    const NavMesh mesh = rooms();
    QueryScratch s;
    std::vector<CorridorCorner> corners(3);
    Corridor empty;
    CHECK(findCorridorCorners(mesh, s, empty, 4, corners).error().code == "E_INVALID_PARAMS");
    CHECK(corners.empty());
    const Corridor c = planned(mesh, s, p(1, 0.5f), p(8, 0.5f));
    CHECK(findCorridorCorners(mesh, s, c, 0, corners).error().field == "/maxCorners");
    CHECK(findCorridorCorners(mesh, s, c, kMaxCorridorCorners + 1, corners).error().field == "/maxCorners");
}

TEST_CASE("moveCorridor into a wall slides along it and stays at the surface's height")
{
    const NavMesh mesh = rooms();
    QueryScratch s;
    Corridor c = planned(mesh, s, p(3, 0.5f), p(8, 0.5f));
    // Wanted (3.5, -1) lies beyond the wall z = 0: the agent ends on the wall at x = 3.5.
    REQUIRE(moveCorridor(mesh, s, c, glm::vec3(3.5f, 0.0f, -1.0f), defaultQueryFilter()).ok());
    CHECK(c.position.x == doctest::Approx(3.5));
    CHECK(c.position.z == doctest::Approx(0.0));
    CHECK(c.position.y == kY); // the surface's height, not the wanted point's
    CHECK(c.polygons == std::vector<uint32_t>{kA, kD, kB});
    // Into the corner: both walls stop it.
    REQUIRE(moveCorridor(mesh, s, c, glm::vec3(-2.0f, kY + 3.0f, -2.0f), defaultQueryFilter()).ok());
    CHECK(c.position.x == doctest::Approx(0.0));
    CHECK(c.position.z == doctest::Approx(0.0));
    CHECK(c.position.y == kY);
    // Beside the doorway on room A's side, past the jamb's wall: stops on x = 4.
    REQUIRE(moveCorridor(mesh, s, c, p(3.8f, 1.0f), defaultQueryFilter()).ok());
    REQUIRE(moveCorridor(mesh, s, c, p(4.6f, 1.0f), defaultQueryFilter()).ok());
    CHECK(c.position.x == doctest::Approx(4.0));
    CHECK(c.position.z == doctest::Approx(1.0));
    CHECK(c.polygons.front() == kA);
}

TEST_CASE("moveCorridor never leaves the mesh, even by less than the link tolerance")
{
    // (4.0007, 4.0007) is within 1 mm of both edges at room A's corner (4, 4),
    // close enough to count as in A, but off it: the agent stops on the corner.
    const NavMesh mesh = rooms();
    QueryScratch s;
    Corridor c = planned(mesh, s, p(3.9f, 3.9f), p(8, 2));
    REQUIRE(moveCorridor(mesh, s, c, p(4.0007f, 4.0007f), defaultQueryFilter()).ok());
    CHECK(mesh.containsXZ(kA, c.position.x, c.position.z, 0.0f));
    CHECK(c.position.x == doctest::Approx(4.0));
    CHECK(c.position.z == doctest::Approx(4.0));
}

TEST_CASE("moveCorridor trims the polygons passed")
{
    const NavMesh mesh = rooms();
    QueryScratch s;
    Corridor c = planned(mesh, s, p(3.5f, 2), p(8, 2));
    REQUIRE(c.polygons == std::vector<uint32_t>{kA, kD, kB});
    REQUIRE(moveCorridor(mesh, s, c, p(4.5f, 2), defaultQueryFilter()).ok());
    CHECK(c.position == p(4.5f, 2));
    CHECK(c.polygons == std::vector<uint32_t>{kD, kB});
    // Through the rest of the doorway into B in one move.
    REQUIRE(moveCorridor(mesh, s, c, p(5.6f, 2), defaultQueryFilter()).ok());
    CHECK(c.position == p(5.6f, 2));
    CHECK(c.polygons == std::vector<uint32_t>{kB});
    CHECK(c.target == p(8, 2));
}

TEST_CASE("moveCorridor into a neighbour off the list extends the corridor through it")
{
    const NavMesh mesh = rooms();
    QueryScratch s;
    Corridor c = planned(mesh, s, p(1, 3.5f), p(8, 2));
    REQUIRE(c.polygons == std::vector<uint32_t>{kA, kD, kB});
    // Up into the alcove C, which is not on the corridor: C is prepended, so the
    // corridor still runs from the agent's polygon to the target's.
    REQUIRE(moveCorridor(mesh, s, c, p(1, 4.5f), defaultQueryFilter()).ok());
    CHECK(c.position == p(1, 4.5f));
    CHECK(c.polygons == std::vector<uint32_t>{kC, kA, kD, kB});
    CHECK(checkCorridor(mesh, c, defaultQueryFilter()));
    // The corners now leave C through its portal with A and go on as before.
    std::vector<CorridorCorner> corners;
    REQUIRE(findCorridorCorners(mesh, s, c, 4, corners).ok());
    REQUIRE_FALSE(corners.empty());
    CHECK(corners.back().flags == kCornerEnd);
    CHECK(corners.back().point == p(8, 2));
    // Back into A: C is trimmed again.
    REQUIRE(moveCorridor(mesh, s, c, p(1.5f, 3.5f), defaultQueryFilter()).ok());
    CHECK(c.polygons == std::vector<uint32_t>{kA, kD, kB});
}

TEST_CASE("moveCorridor refuses an empty corridor and a non-finite point, changing nothing")
{
    const NavMesh mesh = rooms();
    QueryScratch s;
    Corridor empty;
    CHECK(moveCorridor(mesh, s, empty, p(1, 1), defaultQueryFilter()).error().code == "E_INVALID_PARAMS");
    Corridor c = planned(mesh, s, p(1, 1), p(8, 2));
    const Corridor before = c;
    const Status st = moveCorridor(mesh, s, c, glm::vec3(std::nanf(""), 0, 1), defaultQueryFilter());
    REQUIRE_FALSE(st.ok());
    CHECK(st.error().field == "/wanted");
    CHECK(c.position == before.position);
    CHECK(c.polygons == before.polygons);
}

TEST_CASE(
    "checkCorridor fails after a re-bake that removes a polygon or breaks a link; replanCorridor restores it")
{
    const NavMesh mesh = rooms();
    QueryScratch s;
    const Corridor c = planned(mesh, s, p(1, 0.5f), p(8, 0.5f));
    CHECK(checkCorridor(mesh, c, defaultQueryFilter()));

    // B removed: polygon 2 no longer exists.
    const NavMesh noB = meshFromRects({at({0, 0, 4, 4}), at({4, 1.5f, 5, 2.5f})}, false);
    CHECK_FALSE(checkCorridor(noB, c, defaultQueryFilter()));

    // Room A shrunk away from the doorway: A and D keep their numbers but are no longer linked.
    const NavMesh gap = meshFromRects({at({0, 0, 3.9f, 4}), at({4, 1.5f, 5, 2.5f}), at({5, 0, 9, 4})}, false);
    CHECK_FALSE(checkCorridor(gap, c, defaultQueryFilter()));

    // The same rooms numbered the other way round: 0 = C, 1 = B, 2 = D, 3 = A.
    const std::vector<Rect> r = roomsRects();
    const NavMesh renumbered = meshFromRects({r[kC], r[kB], r[kD], r[kA]}, false);
    CHECK_FALSE(checkCorridor(renumbered, c, defaultQueryFilter()));
    Corridor re = c;
    REQUIRE(replanCorridor(renumbered, s, re, defaultQueryFilter(), kExtents).ok());
    CHECK(re.complete);
    CHECK(re.polygons == std::vector<uint32_t>{3, 2, 1});
    CHECK(re.position == c.position);
    CHECK(re.target == c.target);
    CHECK(checkCorridor(renumbered, re, defaultQueryFilter()));

    // An excluded area on the way fails the check too.
    QueryFilter noDoor = defaultQueryFilter();
    const NavMesh doorArea =
        meshFromRects({at({0, 0, 4, 4}), at({4, 1.5f, 5, 2.5f, 3}), at({5, 0, 9, 4})}, false);
    CHECK(checkCorridor(doorArea, c, noDoor));
    noDoor.excludedAreas = 1u << 3;
    CHECK_FALSE(checkCorridor(doorArea, c, noDoor));

    // A position that left the first polygon fails the check.
    Corridor moved = c;
    moved.position = p(6, 1);
    CHECK_FALSE(checkCorridor(mesh, moved, defaultQueryFilter()));
    Corridor none;
    CHECK_FALSE(checkCorridor(mesh, none, defaultQueryFilter()));
}

TEST_CASE("findCorridorCorners and moveCorridor allocate nothing once the buffers have grown")
{
    // Walk the corridor back and forth through the doorway, step by step as an
    // agent does; after one round trip the per-step calls allocate nothing
    // (planning may: it is not a per-step call).
    const NavMesh mesh = rooms();
    QueryScratch s;
    Corridor c = planned(mesh, s, p(1, 3.5f), p(8, 0.5f));
    std::vector<CorridorCorner> corners;
    uint64_t stepAllocations = 0;
    auto roundTrip = [&]
    {
        for (int leg = 0; leg < 2; ++leg)
        {
            c.target = leg == 0 ? p(8, 0.5f) : p(1, 3.5f);
            REQUIRE(replanCorridor(mesh, s, c, defaultQueryFilter(), kExtents).ok());
            const uint64_t before = allocationCount();
            int step = 0;
            for (; step < 1000; ++step)
            {
                REQUIRE(findCorridorCorners(mesh, s, c, 4, corners).ok());
                const glm::vec3 d = corners.front().point - c.position;
                const float len = std::sqrt(d.x * d.x + d.z * d.z);
                if (len < 1.0e-3f)
                    break;
                const float stepLen = std::min(len, 0.05f);
                REQUIRE(
                    moveCorridor(mesh, s, c, c.position + d * (stepLen / len), defaultQueryFilter()).ok());
            }
            stepAllocations += allocationCount() - before;
            CHECK(step < 1000);
            CHECK(c.polygons.size() == 1);
            CHECK(c.position.x == doctest::Approx(c.target.x));
            CHECK(c.position.z == doctest::Approx(c.target.z));
        }
    };
    roundTrip();
    stepAllocations = 0;
    roundTrip();
    roundTrip();
    CHECK(stepAllocations == 0);
}

namespace
{

/// Two floors split by a 2 m gap: W [0,4]×[0,4] at y 0 and E [6,10]×[0,4] at
/// y 1, joined only by a one-way jump from (3.5, 0, 2) to (6.5, 1, 2).
struct GapScene
{
    NavMesh mesh = meshFromRects({{0, 0, 4, 4, 0, 0.0f}, {6, 0, 10, 4, 0, 1.0f}}, false);
    PathLink jump{0, 1, glm::vec3(3.5f, 0, 2), glm::vec3(6.5f, 1, 2), 1.0f, false, 42, OffMeshKind::Jump, 2.0f, 1.5f};
};

} // namespace

TEST_CASE("replanCorridor keeps the hops of the new plan only: none without links, the link's with them")
{
    GapScene g;
    QueryScratch s;
    Corridor c;
    const glm::vec3 extents(0.5f, 2, 0.5f);
    REQUIRE(planCorridor(g.mesh, s, glm::vec3(1, 0, 1), glm::vec3(9, 1, 3), defaultQueryFilter(), extents,
                         std::span<const PathLink>(&g.jump, 1), c)
                .ok());
    REQUIRE(c.complete);
    REQUIRE(c.hops.size() == 1);
    CHECK(c.hops[0].link == 42);
    Corridor without = c;
    REQUIRE(replanCorridor(g.mesh, s, without, defaultQueryFilter(), glm::vec3(0.5f, 2, 0.5f)).ok());
    CHECK_FALSE(without.complete); // the east floor cannot be reached on foot
    CHECK(without.hops.empty());   // the old hop indexed polygons the new plan has not
    CHECK(without.polygons == std::vector<uint32_t>{0});
    CHECK(without.target.x <= 4.0f); // the target kept is the closest point on the west floor
    Corridor again = c;
    REQUIRE(replanCorridor(g.mesh, s, again, defaultQueryFilter(), glm::vec3(0.5f, 2, 0.5f),
                           std::span<const PathLink>(&g.jump, 1))
                .ok());
    CHECK(again.complete);
    CHECK(again.hops.size() == 1);
    CHECK(again.polygons == c.polygons);
}

TEST_CASE("crossHop follows the line at the hop's speed, a jump lifted on a parabola, and lands at the end")
{
    GapScene g;
    Corridor c;
    c.polygons = {0, 1};
    c.position = glm::vec3(3.5f, 0, 2);
    c.target = glm::vec3(9, 1, 2);
    c.hops = {CorridorHop{1, g.jump.start, g.jump.end, 42, OffMeshKind::Jump, 2.0f, 1.5f}};
    // Length sqrt(3² + 1²) = sqrt(10) at 2 m/s.
    const float duration = std::sqrt(10.0f) / 2.0f;
    auto start = crossHop(c, 0.0f, true);
    REQUIRE(start.ok());
    CHECK(start->point == c.position);
    CHECK(start->duration == duration);
    CHECK_FALSE(start->landed);
    auto mid = crossHop(c, duration * 0.5f, true);
    REQUIRE(mid.ok());
    CHECK(mid->fraction == doctest::Approx(0.5f));
    CHECK(mid->point.x == doctest::Approx(5.0f));
    CHECK(mid->point.y == doctest::Approx(0.5f + 1.5f)); // the line's middle plus arcHeight
    CHECK(mid->point.z == 2.0f);
    auto flat = crossHop(c, duration * 0.5f, false);
    REQUIRE(flat.ok());
    CHECK(flat->point.y == doctest::Approx(0.5f));
    auto end = crossHop(c, duration * 3.0f, true);
    REQUIRE(end.ok());
    CHECK(end->landed);
    CHECK(end->fraction == 1.0f);
    CHECK(end->point == g.jump.end);
    // A drop goes along the line, arc or not.
    c.hops[0].kind = OffMeshKind::Drop;
    auto drop = crossHop(c, duration * 0.5f, true);
    REQUIRE(drop.ok());
    CHECK(drop->point.y == doctest::Approx(0.5f));
    // Landing: the corridor goes on from the landing polygon.
    REQUIRE(landCorridor(c).ok());
    CHECK(c.position == g.jump.end);
    CHECK(c.polygons == std::vector<uint32_t>{1});
    CHECK(c.hops.empty());
}

TEST_CASE("crossHop refuses a corridor without a hop, a hop speed that is not positive and a bad time")
{
    Corridor c;
    c.polygons = {0};
    auto none = crossHop(c, 0.0f, true);
    REQUIRE_FALSE(none.ok());
    CHECK(none.error().field == "/hops");
    c.hops = {CorridorHop{1, glm::vec3(0), glm::vec3(1, 0, 0), 1, OffMeshKind::Jump, 0.0f, 1.0f}};
    auto still = crossHop(c, 0.0f, true);
    REQUIRE_FALSE(still.ok());
    CHECK(still.error().field == "/hops/0/speed");
    c.hops[0].speed = 1.0f;
    for (float t : {-1.0f, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()})
    {
        auto bad = crossHop(c, t, true);
        REQUIRE_FALSE(bad.ok());
        CHECK(bad.error().code == "E_INVALID_PARAMS");
        CHECK(bad.error().field == "/time");
    }
    // A take-off on the landing is landed at once.
    c.position = glm::vec3(1, 0, 0);
    auto there = crossHop(c, 0.0f, true);
    REQUIRE(there.ok());
    CHECK(there->landed);
}
