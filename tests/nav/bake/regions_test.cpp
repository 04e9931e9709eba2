/// Tests of libnav/src/bake/regions.cpp: monotone regions.

#include "bake_test_util.h"

#include <map>

using namespace spark::nav;
using namespace spark::nav::bake;

namespace
{

OpenField regionsOf(const BakeInput& in, const BakeDef& def)
{
    glm::vec3 lo = in.vertices[0], hi = lo;
    for (const auto& v : in.vertices)
    {
        lo = glm::vec3(std::min(lo.x, v.x), std::min(lo.y, v.y), std::min(lo.z, v.z));
        hi = glm::vec3(std::max(hi.x, v.x), std::max(hi.y, v.y), std::max(hi.z, v.z));
    }
    const CellSettings cells = cellSettingsOf(def);
    SolidField solid;
    solid.grid = test::gridOver(lo, hi, def);
    voxelizeTriangles(in, cells, solid);
    OpenField open;
    REQUIRE(filterSpans(solid, cells, open).ok());
    erodeWalkable(open, cells);
    buildRegions(open, cells);
    return open;
}

/// Checks the monotone shape: every walkable span has a region, every region
/// has one run of consecutive columns per row, and the rows of a region are
/// consecutive with overlapping runs.
void checkMonotone(const OpenField& f)
{
    struct Run
    {
        int x0, x1;
    };
    std::map<uint32_t, std::map<int, Run>> rows; // region -> row -> run
    const Grid& g = f.grid;
    for (int z = 0; z < g.depth; ++z)
        for (int x = 0; x < g.width; ++x)
        {
            const size_t c = static_cast<size_t>(x + z * g.width);
            for (uint32_t k = 0; k < f.cellCount[c]; ++k)
            {
                const uint32_t i = f.cellFirst[c] + k;
                CHECK((f.region[i] != 0) == (f.area[i] != kNullArea));
                if (f.region[i] == 0)
                    continue;
                CHECK(f.region[i] <= f.regionCount);
                auto& row = rows[f.region[i]];
                auto it = row.find(z);
                if (it == row.end())
                    row[z] = Run{x, x};
                else
                {
                    CHECK(it->second.x1 == x - 1); // one run, no gap
                    it->second.x1 = x;
                }
            }
        }
    CHECK(rows.size() == f.regionCount);
    for (const auto& [region, row] : rows)
    {
        int prevZ = -1;
        Run prev{0, 0};
        for (const auto& [z, run] : row)
        {
            if (prevZ >= 0)
            {
                CHECK(z == prevZ + 1);
                CHECK(run.x0 <= prev.x1);
                CHECK(run.x1 >= prev.x0);
            }
            prevZ = z;
            prev = run;
        }
    }
}

} // namespace

TEST_CASE("an open floor is a single region")
{
    BakeInput in;
    test::addBox(in, {0, -0.2f, 0}, {4, 0, 4});
    const OpenField f = regionsOf(in, test::testDef());
    CHECK(f.regionCount == 1);
    checkMonotone(f);
}

TEST_CASE("a floor round a pillar splits into monotone regions without holes or overlaps")
{
    BakeInput in;
    test::addBox(in, {0, -0.2f, 0}, {6, 0, 6});
    test::addBox(in, {2.05f, 0, 2.05f}, {3.95f, 2, 3.95f});
    test::addBox(in, {4.45f, 0, 0.45f}, {4.95f, 2, 1.15f});
    const OpenField f = regionsOf(in, test::testDef());
    CHECK(f.regionCount >= 3);
    checkMonotone(f);
}

TEST_CASE("a step an agent climbs keeps floor and step in one region, a wall apart does not")
{
    BakeInput in;
    test::addBox(in, {0, -0.2f, 0}, {4, 0, 4});
    test::addBox(in, {2.05f, 0, 0}, {4, 0.3f, 4});
    CHECK(regionsOf(in, test::testDef()).regionCount == 1);
    BakeInput high;
    test::addBox(high, {0, -0.2f, 0}, {4, 0, 4});
    test::addBox(high, {2.05f, 0, 0}, {4, 0.9f, 4});
    const OpenField f = regionsOf(high, test::testDef());
    CHECK(f.regionCount == 2);
    checkMonotone(f);
}

TEST_CASE("islands smaller than the minimum region area are dropped")
{
    BakeInput in;
    test::addBox(in, {0, -0.2f, 0}, {4, 0, 4});
    test::addBox(in, {6, 0.9f, 0}, {7.2f, 1.1f, 1.2f}); // a 1.2 m square table, 0.4 x 0.4 after erosion
    BakeDef def = test::testDef();
    const OpenField kept = regionsOf(in, def);
    CHECK(kept.regionCount == 2);
    def.minRegionArea = 0.5f;
    const OpenField dropped = regionsOf(in, def);
    CHECK(dropped.regionCount == 1);
    checkMonotone(dropped);
}
