/// Tests of libnav/src/bake/erode.cpp: chamfer distance and erosion.

#include "bake_test_util.h"

using namespace spark::nav;
using namespace spark::nav::bake;

namespace
{

OpenField erodedFloor(const BakeInput& in, const BakeDef& def, glm::vec3 lo, glm::vec3 hi)
{
    const CellSettings cells = cellSettingsOf(def);
    SolidField solid;
    solid.grid = test::gridOver(lo, hi, def);
    voxelizeTriangles(in, cells, solid);
    OpenField open;
    REQUIRE(filterSpans(solid, cells, open).ok());
    erodeWalkable(open, cells);
    return open;
}

size_t walkableCount(const OpenField& f)
{
    size_t n = 0;
    for (uint8_t a : f.area)
        n += a != kNullArea ? 1 : 0;
    return n;
}

} // namespace

TEST_CASE("erosion keeps exactly the spans whose whole cell is at least the agent radius from the border")
{
    BakeInput in;
    test::addBox(in, {0, -0.2f, 0}, {4, 0, 4}); // 20 x 20 cells of 0.2 m
    BakeDef def = test::testDef();
    // radius -> cells removed per side: the outer ring is a ledge (the floor
    // ends in a drop), which is a border itself, as in Recast; inside it, cell
    // i (from 0) has its near side i * 0.2 m from that border and is kept when
    // that is at least the radius.
    const std::pair<float, int> cases[] = {{0.0f, 1}, {0.1f, 2}, {0.2f, 2}, {0.3f, 3}, {0.35f, 3},
                                           {0.4f, 3}, {0.5f, 4}, {0.9f, 6}};
    for (const auto& [caseRadius, band] : cases)
    {
        const float radius = caseRadius; // CAPTURE takes a plain variable (clang 14 cannot capture bindings)
        CAPTURE(radius);
        def.agentRadius = radius;
        const OpenField f = erodedFloor(in, def, {0, -0.2f, 0}, {4, 0, 4});
        const size_t side = static_cast<size_t>(20 - 2 * band);
        CHECK(walkableCount(f) == side * side);
        // The kept ones are the inner square.
        for (int z = 0; z < 20; ++z)
            for (int x = 0; x < 20; ++x)
            {
                const bool inner = x >= band && z >= band && x < 20 - band && z < 20 - band;
                const uint32_t i = f.cellFirst[static_cast<size_t>(x + z * 20)];
                CHECK((f.area[i] != kNullArea) == inner);
            }
    }
}

TEST_CASE("distances grow by two per cell along an axis and three per diagonal step")
{
    BakeInput in;
    test::addBox(in, {0, -0.2f, 0}, {4, 0, 4});
    BakeDef def = test::testDef();
    def.agentRadius = 0.0f;
    const OpenField f = erodedFloor(in, def, {0, -0.2f, 0}, {4, 0, 4});
    auto distAt = [&](int x, int z) { return f.dist[f.cellFirst[static_cast<size_t>(x + z * 20)]]; };
    // The outer ring is a ledge and the ring inside it borders the ledge: both start at 0.
    CHECK(distAt(0, 10) == 0);
    CHECK(distAt(1, 10) == 0);
    CHECK(distAt(2, 10) == 2);
    CHECK(distAt(4, 10) == 6);
    CHECK(distAt(10, 10) == 16); // eight cells from the ring at x = 18
    CHECK(distAt(1, 1) == 0);
    CHECK(distAt(2, 2) == 2);  // one axis step from (2, 1)
    CHECK(distAt(3, 3) == 4);  // one axis step from (3, 2) beats a diagonal one from (2, 2)
    CHECK(distAt(3, 5) == 4);
}

TEST_CASE("a wall eroded the floor around its footprint by the agent radius")
{
    BakeInput in;
    test::addBox(in, {0, -0.2f, 0}, {4, 0, 4});
    test::addBox(in, {1.65f, 0, 1.65f}, {2.35f, 2, 2.35f}); // a pillar, cells 8..11
    BakeDef def = test::testDef(); // radius 0.4: two cells
    const OpenField f = erodedFloor(in, def, {0, -0.2f, 0}, {4, 2, 4});
    auto floorWalkable = [&](int x, int z) {
        const size_t c = static_cast<size_t>(x + z * 20);
        for (uint32_t k = 0; k < f.cellCount(c); ++k)
            if (f.y[f.cellFirst[c] + k] <= 4)
                return f.area[f.cellFirst[c] + k] != kNullArea;
        return false;
    };
    CHECK_FALSE(floorWalkable(7, 10));
    CHECK_FALSE(floorWalkable(6, 10));
    CHECK(floorWalkable(5, 10));
    CHECK_FALSE(floorWalkable(12, 10));
    CHECK_FALSE(floorWalkable(13, 10));
    CHECK(floorWalkable(14, 10));
}
