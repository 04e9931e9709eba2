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
            for (uint32_t k = 0; k < f.cellCount(c); ++k)
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
    BakeDef def = test::testDef();
    def.mergeRegionArea = 0.0f;
    const OpenField f = regionsOf(in, def);
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
    test::addBox(in, {6, 0.9f, 0}, {7.6f, 1.1f, 1.6f}); // a 1.6 m square table, 0.4 x 0.4 after erosion
    BakeDef def = test::testDef();
    const OpenField kept = regionsOf(in, def);
    CHECK(kept.regionCount == 2);
    def.minRegionArea = 0.5f;
    const OpenField dropped = regionsOf(in, def);
    CHECK(dropped.regionCount == 1);
    checkMonotone(dropped);
}

namespace
{

/// Region of every walkable span, and checks that come with merging: every
/// region is one piece whose traced outline is a single simple loop (one
/// contour, no fallback), and no region holds two spans of one column.
void checkMergedRegions(const OpenField& f, const CellSettings& cells)
{
    const Grid& g = f.grid;
    std::vector<uint32_t> spans(f.regionCount + 1, 0);
    for (int z = 0; z < g.depth; ++z)
        for (int x = 0; x < g.width; ++x)
        {
            const size_t c = static_cast<size_t>(x + z * g.width);
            std::vector<uint32_t> seen;
            for (uint32_t k = 0; k < f.cellCount(c); ++k)
            {
                const uint32_t i = f.cellFirst[c] + k;
                CHECK((f.region[i] != 0) == (f.area[i] != kNullArea));
                if (f.region[i] == 0)
                    continue;
                REQUIRE(f.region[i] <= f.regionCount);
                ++spans[f.region[i]];
                CHECK(std::find(seen.begin(), seen.end(), f.region[i]) == seen.end());
                seen.push_back(f.region[i]);
            }
        }
    for (uint32_t r = 1; r <= f.regionCount; ++r)
        CHECK(spans[r] > 0); // ids are dense
    ContourSet set;
    buildContours(f, cells, set);
    CHECK(set.contours.size() == f.regionCount);
    for (const Contour& c : set.contours)
        CHECK_FALSE(c.needsFallback);
}

/// Walkable spans per area code.
std::map<uint8_t, size_t> spansByArea(const OpenField& f)
{
    std::map<uint8_t, size_t> out;
    for (size_t i = 0; i < f.spanCount(); ++i)
        if (f.region[i] != 0)
            ++out[f.area[i]];
    return out;
}

} // namespace

TEST_CASE("small monotone regions merge into one simple region per floor piece, and never across areas or layers")
{
    // A floor with pillars: the sweep cuts it into several monotone regions.
    BakeInput in;
    test::addBox(in, {0, -0.2f, 0}, {6, 0, 6});
    test::addBox(in, {2.05f, 0, 2.05f}, {3.95f, 2, 3.95f});
    test::addBox(in, {4.45f, 0, 0.45f}, {4.95f, 2, 1.15f});
    BakeDef def = test::testDef();
    def.mergeRegionArea = 0.0f;
    const OpenField plain = regionsOf(in, def);
    def.mergeRegionArea = 16.0f;
    const OpenField merged = regionsOf(in, def);
    CHECK(merged.regionCount < plain.regionCount);
    checkMergedRegions(merged, cellSettingsOf(def));
    // Merging relabels, it never adds or drops a span.
    CHECK(spansByArea(merged) == spansByArea(plain));

    // A tiny merge area only merges regions that touch no unwalkable border.
    def.mergeRegionArea = 0.01f;
    const OpenField tiny = regionsOf(in, def);
    CHECK(tiny.regionCount <= plain.regionCount);
    CHECK(tiny.regionCount >= merged.regionCount);
    checkMergedRegions(tiny, cellSettingsOf(def));

    // Two areas side by side stay two regions however small.
    BakeInput areas;
    test::addBox(areas, {0, -0.2f, 0}, {2, 0, 4});
    test::addBox(areas, {2, -0.2f, 0}, {4, 0, 4});
    areas.areas.assign(areas.indices.size() / 3, 0);
    for (size_t t = areas.areas.size() / 2; t < areas.areas.size(); ++t)
        areas.areas[t] = 3;
    def.mergeRegionArea = 1000.0f;
    const OpenField two = regionsOf(areas, def);
    CHECK(two.regionCount == 2);
    checkMergedRegions(two, cellSettingsOf(def));

    // A deck over a floor: the layers share columns and never become one region.
    BakeInput bridge;
    test::addBox(bridge, {0, -0.2f, 0}, {8, 0, 8});
    test::addBox(bridge, {3, 2.6f, -1}, {5, 2.8f, 9}); // 2.6 m of head room under it
    const OpenField layered = regionsOf(bridge, def);
    checkMergedRegions(layered, cellSettingsOf(def));
}
