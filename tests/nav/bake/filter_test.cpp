/// Tests of libnav/src/bake/filter.cpp: walkability filters and the open field.

#include "bake_test_util.h"

#include "spark/core/rng.h"

using namespace spark::nav;
using namespace spark::nav::bake;

namespace
{

struct Filtered
{
    SolidField solid;
    OpenField open;
    CellSettings cells;
};

Filtered filter(const BakeInput& in, const BakeDef& def)
{
    Filtered f;
    glm::vec3 lo = in.vertices[0], hi = lo;
    for (const auto& v : in.vertices)
    {
        lo = glm::vec3(std::min(lo.x, v.x), std::min(lo.y, v.y), std::min(lo.z, v.z));
        hi = glm::vec3(std::max(hi.x, v.x), std::max(hi.y, v.y), std::max(hi.z, v.z));
    }
    f.cells = cellSettingsOf(def);
    f.solid.grid = test::gridOver(lo, hi, def);
    voxelizeTriangles(in, f.cells, f.solid);
    REQUIRE(filterSpans(f.solid, f.cells, f.open).ok());
    return f;
}

/// The open spans of column (x, z) as (floor, area) pairs.
std::vector<std::pair<int, uint8_t>> openColumn(const OpenField& f, int x, int z)
{
    std::vector<std::pair<int, uint8_t>> out;
    const size_t c = static_cast<size_t>(x + z * f.grid.width);
    for (uint32_t k = 0; k < f.cellCount(c); ++k)
        out.emplace_back(f.y[f.cellFirst[c] + k], f.area[f.cellFirst[c] + k]);
    return out;
}

} // namespace

TEST_CASE("an obstacle lower than the step height becomes walkable on top")
{
    const BakeDef def = test::testDef(); // step 0.4
    for (const float h : {0.3f, 0.6f})
    {
        BakeInput in;
        test::addBox(in, {0, -0.2f, 0}, {4, 0, 4});
        // A thin vertical board standing on the floor: its top edge is not walkable by slope.
        in.vertices.insert(in.vertices.end(), {{2.05f, 0, 0}, {2.05f, h, 0}, {2.05f, h, 4}, {2.05f, 0, 4}});
        const uint32_t b = static_cast<uint32_t>(in.vertices.size() - 4);
        in.indices.insert(in.indices.end(), {b, b + 1, b + 2, b, b + 2, b + 3});
        const Filtered f = filter(in, def);
        const auto col = openColumn(f.open, 10, 10); // the board's column
        if (h < def.stepHeight)
        {
            REQUIRE(col.size() == 1);
            CHECK(col[0].second != kNullArea);
        }
        else
        {
            CHECK(col.empty()); // the board's top is not walkable
        }
    }
}

TEST_CASE("spans with less head room than the agent height are dropped")
{
    BakeDef def = test::testDef(); // agent height 1.8
    BakeInput in;
    test::addBox(in, {0, -0.2f, 0}, {4, 0, 4});
    test::addBox(in, {1.05f, 1.5f, 0}, {2.95f, 1.7f, 4}); // a slab 1.5 m above the floor
    const Filtered low = filter(in, def);
    CHECK(openColumn(low.open, 10, 10).size() == 1); // only the slab's top
    CHECK(openColumn(low.open, 10, 10)[0].first > 10);
    CHECK(openColumn(low.open, 2, 10).size() == 1); // the floor beside the slab
    def.agentHeight = 1.4f;
    const Filtered high = filter(in, def);
    CHECK(openColumn(high.open, 10, 10).size() == 2); // the floor under the slab too
}

TEST_CASE("a span beside a drop deeper than the step height is flagged as a ledge")
{
    const BakeDef def = test::testDef();
    BakeInput in;
    test::addBox(in, {0, -0.2f, 0}, {4, 0, 4});
    test::addBox(in, {1.05f, 0, 1.05f}, {2.95f, 1, 2.95f}); // a platform 1 m high, columns 5..14
    const Filtered f = filter(in, def);
    // Platform top: columns 5..14. Its edge column is a ledge, its inner ones are not.
    const auto edge = openColumn(f.open, 5, 10);
    const auto inner = openColumn(f.open, 10, 10);
    REQUIRE(edge.size() == 1);
    REQUIRE(inner.size() == 1);
    CHECK((edge[0].second & kLedgeFlag) != 0);
    CHECK((inner[0].second & kLedgeFlag) == 0);
    // The floor at the platform's foot is no ledge: the platform rises, it does not drop.
    const auto foot = openColumn(f.open, 4, 10);
    REQUIRE(foot.size() == 1);
    CHECK((foot[0].second & kLedgeFlag) == 0);
    // The grid's own border is a drop.
    CHECK((openColumn(f.open, 0, 10)[0].second & kLedgeFlag) != 0);
}

TEST_CASE("open spans link to the neighbours an agent can step to and not across a high step")
{
    const BakeDef def = test::testDef(); // step 0.4 = 4 cells
    BakeInput in;
    test::addBox(in, {0, -0.2f, 0}, {4, 0, 4});
    test::addBox(in, {2.05f, 0, 0}, {2.95f, 0.3f, 4}); // low step, columns 10..14
    test::addBox(in, {3.05f, 0, 0}, {3.95f, 0.9f, 4}); // high step, columns 15..19
    const Filtered f = filter(in, def);
    auto spanAt = [&](int x, int z) { return f.open.cellFirst[static_cast<size_t>(x + z * f.open.grid.width)]; };
    CHECK(connectionOf(f.open, spanAt(9, 10), 2) != kNoConnection);  // floor -> low step
    CHECK(connectionOf(f.open, spanAt(10, 10), 0) != kNoConnection); // low step -> floor
    CHECK(connectionOf(f.open, spanAt(14, 10), 2) == kNoConnection); // low step -> high step: 0.6 m
    CHECK(connectionOf(f.open, spanAt(5, 10), 1) != kNoConnection);  // along the floor
    CHECK(connectionOf(f.open, spanAt(5, 0), 3) == kNoConnection);   // the grid's edge
}

TEST_CASE("open ground filters the same with and without a roof far overhead")
{
    // Columns of one span each under open sky take the filter's short path;
    // a span far overhead in every column (above any head room or step that
    // matters) sends the same floors through the general loop. Floors,
    // bottoms, gaps and walkability are random, so links, ledges by drop,
    // by deep bottom and by uneven reach all occur; both fields must agree.
    CellSettings cells;
    cells.walkableHeight = 10;
    cells.walkableClimb = 4;
    spark::Rng rng = spark::rngFromSeed(33);
    for (int round = 0; round < 20; ++round)
    {
        const int w = 12, d = 9;
        SolidField open, roofed;
        for (SolidField* f : {&open, &roofed})
        {
            f->grid.width = w;
            f->grid.depth = d;
            f->columns.assign(static_cast<size_t>(w * d), kEmptyColumn);
            f->spans.clear();
            f->spanCount = 0;
        }
        for (int c = 0; c < w * d; ++c)
        {
            if (rngNextBelow(rng, 10) == 0)
                continue; // an empty column
            const uint16_t top = static_cast<uint16_t>(20 + rngNextBelow(rng, 16));
            // Mostly a solid ground; sometimes a floating slab whose bottom
            // lies an agent's height or more above the neighbours' floors.
            const uint16_t bottom = rngNextBelow(rng, 6) == 0 ? static_cast<uint16_t>(top - 1) : uint16_t{0};
            const uint8_t area = rngNextBelow(rng, 8) == 0 ? kNullArea : uint8_t{1};
            for (SolidField* f : {&open, &roofed})
            {
                const int32_t s = static_cast<int32_t>(f->spans.size());
                f->spans.push_back(SolidSpan{bottom, top, 0, area, -1});
                f->columns[static_cast<size_t>(c)] = static_cast<uint32_t>(s);
                ++f->spanCount;
            }
            SolidSpan& low = roofed.spans.back();
            low.next = static_cast<int32_t>(roofed.spans.size());
            roofed.spans.push_back(SolidSpan{60000, 60010, 0, kNullArea, -1});
            ++roofed.spanCount;
        }
        OpenField a, b;
        REQUIRE(filterSpans(open, cells, a).ok());
        REQUIRE(filterSpans(roofed, cells, b).ok());
        REQUIRE(a.spanCount() == b.spanCount());
        CHECK(a.y == b.y);
        CHECK(a.con == b.con);
        CHECK(a.area == b.area);
        size_t ledges = 0, links = 0;
        for (size_t i = 0; i < a.spanCount(); ++i)
        {
            ledges += (a.area[i] & kLedgeFlag) != 0 ? 1 : 0;
            for (int dir = 0; dir < 4; ++dir)
                links += connectionOf(a, static_cast<uint32_t>(i), dir) != kNoConnection ? 1 : 0;
        }
        CHECK(ledges > 0);
        CHECK(links > 0);
    }
}
