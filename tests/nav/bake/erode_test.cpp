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

TEST_CASE("erosion keeps exactly the spans whose centre is at least the agent radius from the border")
{
    BakeInput in;
    test::addBox(in, {0, -0.2f, 0}, {4, 0, 4}); // 20 x 20 cells of 0.2 m
    BakeDef def = test::testDef();
    // radius -> cells removed per side: the centre of cell i is (i + 0.5) * 0.2 m from the edge.
    const std::pair<float, int> cases[] = {{0.0f, 1}, {0.1f, 1}, {0.3f, 1}, {0.35f, 2}, {0.4f, 2}, {0.5f, 2}, {0.9f, 4}};
    for (const auto& [radius, band] : cases)
    {
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
    CHECK(distAt(0, 10) == 1);
    CHECK(distAt(1, 10) == 3);
    CHECK(distAt(4, 10) == 9);
    CHECK(distAt(10, 10) == 19);
    CHECK(distAt(1, 1) == 3);
    CHECK(distAt(2, 2) == 5);  // 1 + 2 + 2, or 1 + 3 + ... the smaller
    CHECK(distAt(3, 5) == 7);
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
        for (uint32_t k = 0; k < f.cellCount[c]; ++k)
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
