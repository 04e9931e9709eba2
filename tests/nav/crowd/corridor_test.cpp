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
