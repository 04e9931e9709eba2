/// Tests of libnav/src/bake/voxelize.cpp: triangles into solid spans.

#include "bake_test_util.h"

using namespace spark::nav;
using namespace spark::nav::bake;

namespace
{

struct Voxelized
{
    SolidField field;
    CellSettings cells;
};

Voxelized voxelize(const BakeInput& in, const BakeDef& def, glm::vec3 lo, glm::vec3 hi)
{
    Voxelized v;
    v.cells = cellSettingsOf(def);
    v.field.grid = test::gridOver(lo, hi, def);
    voxelizeTriangles(in, v.cells, v.field);
    return v;
}

/// The spans of column (x, z), bottom up.
std::vector<SolidSpan> column(const SolidField& f, int x, int z)
{
    std::vector<SolidSpan> out;
    for (int32_t s = f.columns[static_cast<size_t>(x + z * f.grid.width)]; s != -1; s = f.spans[s].next)
        out.push_back(f.spans[s]);
    return out;
}

} // namespace

TEST_CASE("a flat floor becomes one walkable span per column with its top within a cell height above it")
{
    BakeInput in;
    in.vertices = {{0, 0, 0}, {4, 0, 0}, {4, 0, 4}, {0, 0, 4}};
    in.indices = {0, 1, 2, 0, 2, 3};
    const BakeDef def = test::testDef();
    const Voxelized v = voxelize(in, def, {0, 0, 0}, {4, 0, 4});
    REQUIRE(v.field.grid.width == 20);
    REQUIRE(v.field.grid.depth == 20);
    CHECK(v.field.spanCount == 400);
    for (int z = 0; z < 20; ++z)
        for (int x = 0; x < 20; ++x)
        {
            const auto spans = column(v.field, x, z);
            REQUIRE(spans.size() == 1);
            CHECK(spans[0].area == 1); // area id 0, walkable
            const float top = static_cast<float>(spans[0].top) * def.cellHeight;
            CHECK(top >= 0.0f);
            CHECK(top <= def.cellHeight + 1e-6f);
        }
}

TEST_CASE("a triangle steeper than the slope limit gives spans nobody may stand on")
{
    BakeInput in;
    // A wall in the plane x = 1, 2 m high, plus a floor strip to set the bounds.
    in.vertices = {{1, 0, 0}, {1, 2, 0}, {1, 2, 2}, {1, 0, 2}};
    in.indices = {0, 1, 2, 0, 2, 3};
    const BakeDef def = test::testDef();
    const Voxelized v = voxelize(in, def, {0, 0, 0}, {2, 2, 2});
    REQUIRE(v.field.spanCount > 0);
    for (const auto& s : v.field.spans)
        CHECK(s.area == kNullArea);
}

TEST_CASE("a ramp under the slope limit is walkable and one over it is not")
{
    const BakeDef def = test::testDef(); // 45 degrees
    for (const float rise : {1.0f, 3.0f}) // 2 m long: 26.6 and 56.3 degrees
    {
        BakeInput in;
        in.vertices = {{0, 0, 0}, {2, rise, 0}, {2, rise, 2}, {0, 0, 2}};
        in.indices = {0, 1, 2, 0, 2, 3};
        const Voxelized v = voxelize(in, def, {0, 0, 0}, {2, rise, 2});
        size_t walkable = 0;
        for (int z = 0; z < v.field.grid.depth; ++z)
            for (int x = 0; x < v.field.grid.width; ++x)
                for (const auto& s : column(v.field, x, z))
                    walkable += s.area != kNullArea ? 1 : 0;
        if (rise < 2.0f)
            CHECK(walkable == 100);
        else
            CHECK(walkable == 0);
    }
}

TEST_CASE("the faces of a closed box merge where they touch and its top is walkable")
{
    BakeInput in;
    test::addBox(in, {0, 0, 0}, {2, 1, 2});
    const BakeDef def = test::testDef();
    const Voxelized v = voxelize(in, def, {0, 0, 0}, {2, 1, 2});
    for (int z = 0; z < 10; ++z)
        for (int x = 0; x < 10; ++x)
        {
            const auto spans = column(v.field, x, z);
            const bool side = x == 0 || z == 0 || x == 9 || z == 9;
            // Side columns: one span from the bottom face up through the top face.
            // Inside: the bottom and the top face apart (the box is a shell).
            REQUIRE(spans.size() == (side ? 1u : 2u));
            CHECK(spans.front().bottom == 0);
            CHECK(spans.back().top == 11); // a face on a cell boundary fills the cell above it
            CHECK(spans.back().area == 1);
        }
}

TEST_CASE("a closed solid is filled: the floor under a box is covered and nothing is left inside it")
{
    // A 12 x 12 floor slab and a 2 x 2 x 2 box standing on it at the middle.
    BakeInput in;
    test::addBox(in, {-6, -0.2f, -6}, {6, 0, 6});
    test::addBox(in, {-1, 0, -1}, {1, 2, 1});
    in.solids = {{0, 12}, {12, 12}};
    const BakeDef def = test::testDef();
    const Voxelized v = voxelize(in, def, {-6, -0.2f, -6}, {6, 2, 6});
    // Columns 25..34 hold the box (x, z in [-1, 1] at 0.2 m from -6).
    for (int z = 25; z < 35; ++z)
        for (int x = 25; x < 35; ++x)
        {
            CAPTURE(x);
            CAPTURE(z);
            const auto spans = column(v.field, x, z);
            // One span from the slab's bottom through the box's top, walkable on top only.
            REQUIRE(spans.size() == 1u);
            CHECK(spans[0].bottom == 0);
            CHECK(spans[0].top == 23); // 2.2 m over the origin, a face on a boundary fills the cell above
            CHECK(spans[0].area == 1);
        }
    // Beside the box, the slab alone.
    const auto beside = column(v.field, 10, 10);
    REQUIRE(beside.size() == 1u);
    CHECK(beside[0].top == 3);
}

TEST_CASE("a solid is filled in either winding, and a run that does not close stays a shell")
{
    BakeInput in;
    test::addBox(in, {0, 0, 0}, {2, 1, 2});
    BakeInput inward = in;
    for (size_t t = 0; t < inward.indices.size(); t += 3)
        std::swap(inward.indices[t + 1], inward.indices[t + 2]);
    inward.solids = {{0, 12}};
    BakeInput open = in;
    open.indices.resize(open.indices.size() - 6); // one face short
    open.solids = {{0, 10}};
    const BakeDef def = test::testDef();
    const Voxelized filled = voxelize(inward, def, {0, 0, 0}, {2, 1, 2});
    const Voxelized shell = voxelize(open, def, {0, 0, 0}, {2, 1, 2});
    for (int z = 1; z < 9; ++z)
        for (int x = 1; x < 9; ++x)
        {
            CHECK(column(filled.field, x, z).size() == 1u);
            CHECK(column(shell.field, x, z).size() == 2u);
        }
}

TEST_CASE("a turned closed solid is one span in every column whose centre it holds")
{
    // A 3 x 2 box turned about y by 30 degrees, so its faces' diagonals meet
    // cell centres at odd places.
    BakeInput in;
    const float c = 0.8660254f, s = 0.5f;
    test::addBox(in, {-1.5f, 0, -1.0f}, {1.5f, 3.0f, 1.0f});
    for (glm::vec3& v : in.vertices)
        v = {c * v.x - s * v.z, v.y, s * v.x + c * v.z};
    in.solids = {{0, 12}};
    const BakeDef def = test::testDef();
    const Voxelized v = voxelize(in, def, {-2, 0, -2}, {2, 3, 2});
    int inside = 0;
    for (int z = 0; z < v.field.grid.depth; ++z)
        for (int x = 0; x < v.field.grid.width; ++x)
        {
            // The centre in the box's own frame (turned back).
            const float wx = -2.0f + (x + 0.5f) * def.cellSize, wz = -2.0f + (z + 0.5f) * def.cellSize;
            const float lx = c * wx + s * wz, lz = -s * wx + c * wz;
            if (std::abs(lx) > 1.49f || std::abs(lz) > 0.99f)
                continue;
            ++inside;
            CAPTURE(x);
            CAPTURE(z);
            const auto spans = column(v.field, x, z);
            REQUIRE(spans.size() == 1u);
            CHECK(spans[0].bottom == 0);
            CHECK(spans[0].top == 31);
        }
    CHECK(inside > 120); // 6 m^2 of 0.04 m^2 cells, less the rim
}

TEST_CASE("a wall rising more than a step above a floor is not walkable in any order of its pieces")
{
    const BakeDef def = test::testDef(); // step 0.4 = 4 cells
    for (const float h : {0.3f, 0.6f, 1.5f})
    {
        CAPTURE(h);
        BakeInput in;
        in.vertices = {{0, 0, 0}, {4, 0, 0}, {4, 0, 4}, {0, 0, 4}, {2.05f, 0, 0}, {2.05f, h, 0}, {2.05f, h, 4},
                       {2.05f, 0, 4}};
        for (const bool wallFirst : {false, true})
        {
            in.indices = wallFirst ? std::vector<uint32_t>{4, 5, 6, 4, 6, 7, 0, 1, 2, 0, 2, 3}
                                   : std::vector<uint32_t>{0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7};
            const Voxelized v = voxelize(in, def, {0, 0, 0}, {4, h, 4});
            const auto spans = column(v.field, 10, 10);
            REQUIRE(spans.size() == 1);
            CHECK((spans[0].area != kNullArea) == (h < def.stepHeight));
        }
    }
}

TEST_CASE("separate surfaces in one column stay separate spans, sorted bottom up")
{
    BakeInput in;
    test::addBox(in, {0, 0, 0}, {1, 0.2f, 1});
    test::addBox(in, {0, 2, 0}, {1, 2.2f, 1}, 3);
    const BakeDef def = test::testDef();
    const Voxelized v = voxelize(in, def, {0, 0, 0}, {1, 2.2f, 1});
    const auto spans = column(v.field, 2, 2);
    REQUIRE(spans.size() == 4); // bottom and top face of each shell
    for (size_t k = 1; k < spans.size(); ++k)
        CHECK(spans[k - 1].top < spans[k].bottom);
    CHECK(spans[1].area == 1);
    CHECK(spans[3].area == 4); // area id 3
}

TEST_CASE("one-sided triangles are walkable only when their front faces up")
{
    BakeInput in;
    in.vertices = {{0, 0, 0}, {2, 0, 0}, {2, 0, 2}, {0, 0, 2}};
    in.indices = {0, 2, 1, 0, 3, 2}; // right-hand normal +Y
    in.oneSided = true;
    const BakeDef def = test::testDef();
    const Voxelized up = voxelize(in, def, {0, 0, 0}, {2, 0, 2});
    for (const auto& s : up.field.spans)
        CHECK(s.area == 1);
    in.indices = {0, 1, 2, 0, 2, 3}; // facing down
    const Voxelized down = voxelize(in, def, {0, 0, 0}, {2, 0, 2});
    REQUIRE(down.field.spanCount == 100);
    for (int32_t c : down.field.columns)
        CHECK(down.field.spans[c].area == kNullArea);
    in.oneSided = false;
    const Voxelized both = voxelize(in, def, {0, 0, 0}, {2, 0, 2});
    for (int32_t c : both.field.columns)
        CHECK(both.field.spans[c].area == 1);
}

TEST_CASE("a low obstacle right above a walkable span takes its area, a higher one does not")
{
    // A floor at y = 0, and a thin vertical board floating 0.2 m above it (a
    // cell apart, so the board is a span of its own): its top edge is not
    // walkable by slope. With its top 0.2 m above the floor's span (step 0.4)
    // an agent steps onto it; 0.5 m above, it stays a wall.
    const BakeDef def = test::testDef();
    for (const float h : {0.3f, 0.6f})
    {
        BakeInput in;
        in.vertices = {{0, 0, 0}, {4, 0, 0}, {4, 0, 4}, {0, 0, 4},
                       {2.05f, 0.2f, 0}, {2.05f, h, 0}, {2.05f, h, 4}, {2.05f, 0.2f, 4}};
        in.indices = {0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7};
        in.areas = {2, 2, 5, 5}; // the board's own area would never be walkable by slope
        const Voxelized v = voxelize(in, def, {0, 0, 0}, {4, h, 4});
        const auto spans = column(v.field, 10, 10); // the board's column
        REQUIRE(spans.size() == 2);
        CHECK(spans[0].area == 3); // the floor: area id 2, walkable
        CAPTURE(h);
        if (h < def.stepHeight)
            CHECK(spans[1].area == 3); // the floor's area, not the board's
        else
            CHECK(spans[1].area == kNullArea);
        // A column away from the board keeps its one floor span.
        const auto floor = column(v.field, 3, 10);
        REQUIRE(floor.size() == 1);
        CHECK(floor[0].area == 3);
    }
}

TEST_CASE("a part of the input (a tile's) voxelises as a copy of its triangles would")
{
    // A slab and a box (solids, the box with area id 4), a ramp (open): the
    // part takes the box, every other ramp triangle and the box as its one
    // solid, indexed in the whole input, as tiles.cpp hands them over.
    BakeInput in;
    test::addBox(in, {-6, -0.2f, -6}, {6, 0, 6});
    test::addBox(in, {-1, 0, -1}, {1, 2, 1}, 4);
    test::addRamp(in, 2, 5, -2, 2, 0, 1);
    in.solids = {{0, 12}, {12, 12}};
    std::vector<uint32_t> triangles;
    for (uint32_t t = 12; t < 24; ++t)
        triangles.push_back(t);
    for (uint32_t t = 24; t < 32; t += 2)
        triangles.push_back(t);
    const std::vector<SolidRange> boxSolid = {{12, 12}};

    BakeInput copy; // the part as an input of its own, areas and the box's run with it
    copy.vertices = in.vertices; // (shared: a solid closes through its shared vertices)
    for (uint32_t t : triangles)
    {
        for (uint32_t k = 0; k < 3; ++k)
            copy.indices.push_back(in.indices[3 * t + k]);
        copy.areas.push_back(in.areas[t]);
    }
    copy.solids = {{0, 12}};

    const BakeDef def = test::testDef();
    const CellSettings cells = cellSettingsOf(def);
    SolidField part, whole;
    part.grid = whole.grid = test::gridOver({-6, -0.2f, -6}, {6, 2, 6}, def);
    voxelizeTriangles(in, cells, part, InputPart{&triangles, boxSolid});
    const Voxelized copied = voxelize(copy, def, {-6, -0.2f, -6}, {6, 2, 6});
    voxelizeTriangles(in, cells, whole);

    REQUIRE(part.spanCount == copied.field.spanCount);
    bool differsFromWhole = false;
    for (int z = 0; z < part.grid.depth; ++z)
        for (int x = 0; x < part.grid.width; ++x)
        {
            CAPTURE(x);
            CAPTURE(z);
            const auto a = column(part, x, z), b = column(copied.field, x, z);
            REQUIRE(a.size() == b.size());
            for (size_t i = 0; i < a.size(); ++i)
            {
                CHECK(a[i].bottom == b[i].bottom);
                CHECK(a[i].top == b[i].top);
                CHECK(a[i].area == b[i].area);
            }
            differsFromWhole = differsFromWhole || a.size() != column(whole, x, z).size();
        }
    // Inside the box: filled from the box's bottom (the slab is not in the
    // part: the whole input's column starts at 0), its area id on top.
    const auto boxTop = column(part, 30, 30);
    REQUIRE(boxTop.size() == 1u);
    CHECK(boxTop[0].bottom == static_cast<uint16_t>(std::lround(0.2f / def.cellHeight)));
    CHECK(column(whole, 30, 30).front().bottom == 0);
    CHECK(boxTop[0].area == 5);
    CHECK(differsFromWhole); // the slab is not in the part
}
