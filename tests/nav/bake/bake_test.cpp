/// Tests of libnav/src/bake/bake.cpp: the whole 3D bake, its settings and errors.

#include "bake_test_util.h"

#include "spark/core/hash.h"
#include "spark/scene/model_obj.h"

#include <limits>

using namespace spark::nav;

namespace
{

BakeOutput bakeOk(const BakeInput& in, const BakeDef& def)
{
    auto out = bakeTriangles(in, def);
    if (!out)
        FAIL("bake failed: " << out.error().code << " " << out.error().message);
    return std::move(out).value();
}

/// True when the convex polygon p and the rectangle [x0, x1] × [z0, z1] overlap with positive area.
bool overlapsRect(const PolySoup& m, size_t p, float x0, float x1, float z0, float z1)
{
    const uint32_t b = m.polyStarts[p], e = m.polyStarts[p + 1];
    float px0 = 1e30f, px1 = -1e30f, pz0 = 1e30f, pz1 = -1e30f;
    for (uint32_t k = b; k < e; ++k)
    {
        const glm::vec3& v = m.vertices[m.indices[k]];
        px0 = std::min(px0, v.x), px1 = std::max(px1, v.x), pz0 = std::min(pz0, v.z), pz1 = std::max(pz1, v.z);
    }
    if (px1 <= x0 || px0 >= x1 || pz1 <= z0 || pz0 >= z1)
        return false;
    const float rx[4] = {x0, x1, x1, x0}, rz[4] = {z0, z0, z1, z1};
    for (uint32_t k = b; k < e; ++k)
    {
        const glm::vec3& a = m.vertices[m.indices[k]];
        const glm::vec3& c = m.vertices[m.indices[k + 1 < e ? k + 1 : b]];
        bool allOutside = true; // every rectangle corner right of (or on) the edge
        for (int r = 0; r < 4 && allOutside; ++r)
            allOutside = (c.x - a.x) * (rz[r] - a.z) - (rx[r] - a.x) * (c.z - a.z) <= 0.0f;
        if (allOutside)
            return false;
    }
    return true;
}

float segmentPointDistance(float ax, float az, float bx, float bz, float px, float pz)
{
    const float dx = bx - ax, dz = bz - az;
    const float len2 = dx * dx + dz * dz;
    float t = len2 > 0.0f ? ((px - ax) * dx + (pz - az) * dz) / len2 : 0.0f;
    t = std::clamp(t, 0.0f, 1.0f);
    const float ex = ax + dx * t - px, ez = az + dz * t - pz;
    return std::sqrt(ex * ex + ez * ez);
}

/// Distance in x–z between polygon p and the rectangle, 0 when they overlap.
float distanceToRect(const PolySoup& m, size_t p, float x0, float x1, float z0, float z1)
{
    if (overlapsRect(m, p, x0, x1, z0, z1))
        return 0.0f;
    const uint32_t b = m.polyStarts[p], e = m.polyStarts[p + 1];
    const float rx[4] = {x0, x1, x1, x0}, rz[4] = {z0, z0, z1, z1};
    float best = 1e30f;
    for (uint32_t k = b; k < e; ++k)
    {
        const glm::vec3& a = m.vertices[m.indices[k]];
        const glm::vec3& c = m.vertices[m.indices[k + 1 < e ? k + 1 : b]];
        for (int r = 0; r < 4; ++r)
        {
            best = std::min(best, segmentPointDistance(a.x, a.z, c.x, c.z, rx[r], rz[r]));
            best = std::min(best, segmentPointDistance(rx[r], rz[r], rx[(r + 1) % 4], rz[(r + 1) % 4], a.x, a.z));
        }
    }
    return best;
}

BakeInput floorWithBox()
{
    BakeInput in;
    test::addBox(in, {0, -0.2f, 0}, {10, 0, 10});
    test::addBox(in, {4.05f, 0, 3.05f}, {5.95f, 1.0f, 6.95f});
    return in;
}

} // namespace

TEST_CASE("every baked polygon is convex, counter-clockwise and has at most max_verts_per_poly vertices")
{
    BakeInput in = floorWithBox();
    test::addRamp(in, 7, 9, 7, 9.5f, 0, 1); // 26.6 degrees
    test::addBox(in, {1.05f, 0, 7.05f}, {3.05f, 0.3f, 9.5f});
    for (int maxVerts = 3; maxVerts <= 6; ++maxVerts)
    {
        BakeDef def = test::testDef();
        def.maxVertsPerPoly = maxVerts;
        def.maxEdgeLen = maxVerts == 6 ? 2.0f : 0.0f;
        const BakeOutput out = bakeOk(in, def);
        CHECK(out.mesh.polygonCount() > 0);
        test::checkPolygons(out.mesh, maxVerts);
        CHECK(out.stats.fallbackRegions == 0);
        CHECK(out.stats.regions > 0);
        CHECK(out.stats.cells == 50u * 50u);
    }
}

TEST_CASE("each vertex lies within a cell height above a walkable surface")
{
    const BakeInput in = floorWithBox();
    const BakeDef def = test::testDef();
    const BakeOutput out = bakeOk(in, def);
    const float surfaces[] = {0.0f, 1.0f};
    for (const glm::vec3& v : out.mesh.vertices)
    {
        bool near = false;
        for (float s : surfaces)
            near = near || (v.y >= s - 1e-5f && v.y <= s + def.cellHeight + 1e-5f);
        CHECK(near);
    }
    // Both the floor and the box top are walkable.
    CHECK(test::polygonAt(out.mesh, 1.0f, 1.0f) >= 0);
    CHECK(test::polygonAt(out.mesh, 5.0f, 5.0f) >= 0);
}

TEST_CASE("no floor polygon comes nearer to a box's footprint than the agent radius")
{
    const BakeInput in = floorWithBox();
    BakeDef def = test::testDef();
    for (const float radius : {0.0f, 0.4f, 0.7f, 1.0f})
    {
        CAPTURE(radius);
        def.agentRadius = radius;
        def.maxSimplificationError = radius < 0.5f ? 1.3f : 0.5f;
        const BakeOutput out = bakeOk(in, def);
        // The eroded band is the radius to within half a cell (the chamfer metric
        // overrates diagonals by up to 6 %); the outline simplification may then
        // cut into it by max_simplification_error cells.
        const float grow = std::max(0.0f, 0.94f * radius - 0.5f * def.cellSize -
                                              def.maxSimplificationError * def.cellSize) - 1e-4f;
        size_t floorPolygons = 0;
        for (size_t p = 0; p < out.mesh.polygonCount(); ++p)
        {
            if (out.mesh.vertices[out.mesh.indices[out.mesh.polyStarts[p]]].y > 0.5f)
                continue; // on the box
            ++floorPolygons;
            CHECK_FALSE(overlapsRect(out.mesh, p, 4.05f, 5.95f, 3.05f, 6.95f));
            CHECK(distanceToRect(out.mesh, p, 4.05f, 5.95f, 3.05f, 6.95f) >= grow);
        }
        CHECK(floorPolygons > 0);
    }
}

TEST_CASE("a flat floor's walkable area is its area minus the eroded border, within a cell")
{
    BakeInput in;
    test::addBox(in, {0, -0.2f, 0}, {10, 0, 8});
    BakeDef def = test::testDef();
    for (const float radius : {0.0f, 0.3f, 0.4f, 0.55f, 1.0f})
    {
        for (const float cell : {0.2f, 0.3f})
        {
            CAPTURE(radius);
            CAPTURE(cell);
            def.agentRadius = radius;
            def.cellSize = cell;
            const BakeOutput out = bakeOk(in, def);
            test::checkPolygons(out.mesh);
            // The floor ends in a drop: its outer cell is a ledge, and the
            // erosion takes whole cells from there (the radius rounded up).
            const double eroded = cell * (1.0 + std::ceil(radius / cell - 1.0e-3));
            const double w = 10.0 - 2.0 * eroded, d = 8.0 - 2.0 * eroded;
            const double analytic = w * d;
            const double band = (w + d) * 2.0 * cell; // one cell along the whole border
            CHECK(std::abs(test::totalArea(out.mesh) - analytic) <= band);
        }
    }
}

TEST_CASE("a step lower than step_height is crossed and a higher one is not")
{
    BakeDef def = test::testDef(); // step 0.4
    for (const float h : {0.25f, 0.35f, 0.5f, 0.8f})
    {
        CAPTURE(h);
        BakeInput in;
        test::addBox(in, {0, -0.2f, 0}, {8, 0, 4});
        test::addBox(in, {4.05f, 0, 0}, {8, h, 4});
        const BakeOutput out = bakeOk(in, def);
        const int low = test::polygonAt(out.mesh, 2.0f, 2.0f);
        const int high = test::polygonAt(out.mesh, 6.0f, 2.0f);
        REQUIRE(low >= 0);
        REQUIRE(high >= 0);
        const auto comp = test::polygonComponents(out.mesh, def.stepHeight + def.cellHeight);
        if (h < def.stepHeight)
            CHECK(comp[static_cast<size_t>(low)] == comp[static_cast<size_t>(high)]);
        else
            CHECK(comp[static_cast<size_t>(low)] != comp[static_cast<size_t>(high)]);
    }
}

TEST_CASE("a ramp under the slope limit is walkable and one over it is not")
{
    BakeDef def = test::testDef(); // 45 degrees
    for (const float rise : {1.0f, 1.6f, 2.4f, 4.0f}) // over 2 m: 26.6, 38.7, 50.2, 63.4 degrees
    {
        CAPTURE(rise);
        BakeInput in;
        test::addBox(in, {0, -0.2f, 0}, {3, 0, 4});
        test::addRamp(in, 3, 5, 0, 4, 0, rise);
        test::addBox(in, {5, 0, 0}, {8, rise, 4});
        const BakeOutput out = bakeOk(in, def);
        test::checkPolygons(out.mesh);
        const int mid = test::polygonAt(out.mesh, 4.0f, 2.0f);
        if (rise < 2.0f)
        {
            REQUIRE(mid >= 0);
            const auto comp = test::polygonComponents(out.mesh, def.stepHeight + def.cellHeight);
            const int bottom = test::polygonAt(out.mesh, 1.5f, 2.0f);
            const int top = test::polygonAt(out.mesh, 6.5f, 2.0f);
            REQUIRE(bottom >= 0);
            REQUIRE(top >= 0);
            CHECK(comp[static_cast<size_t>(bottom)] == comp[static_cast<size_t>(top)]);
        }
        else
        {
            CHECK(mid < 0);
        }
    }
}

TEST_CASE("area ids of the triangles reach the polygons above them")
{
    BakeInput in;
    test::addBox(in, {0, -0.2f, 0}, {4, 0, 4});
    test::addBox(in, {4, -0.2f, 0}, {8, 0, 4}, 5);
    const BakeOutput out = bakeOk(in, test::testDef());
    const int left = test::polygonAt(out.mesh, 1.0f, 2.0f);
    const int right = test::polygonAt(out.mesh, 7.0f, 2.0f);
    REQUIRE(left >= 0);
    REQUIRE(right >= 0);
    CHECK(out.mesh.areas[static_cast<size_t>(left)] == 0);
    CHECK(out.mesh.areas[static_cast<size_t>(right)] == 5);
}

TEST_CASE("a bake is bit-identical run to run")
{
    BakeInput in = floorWithBox();
    test::addRamp(in, 7, 9, 7, 9.5f, 0, 1);
    BakeDef def = test::testDef();
    def.maxEdgeLen = 1.5f;
    const uint64_t first = hashPolySoup(bakeOk(in, def).mesh);
    for (int i = 0; i < 3; ++i)
        CHECK(hashPolySoup(bakeOk(in, def).mesh) == first);
}

TEST_CASE("settings out of their limits are E_NAV_CONFIG naming the field")
{
    BakeInput in = floorWithBox();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    struct Case
    {
        void (*apply)(BakeDef&, float, float);
        const char* field;
    };
    const Case cases[] = {
        {[](BakeDef& d, float, float) { d.cellSize = 0.0f; }, "/cell_size"},
        {[](BakeDef& d, float n, float) { d.cellSize = n; }, "/cell_size"},
        {[](BakeDef& d, float, float) { d.cellHeight = -0.1f; }, "/cell_height"},
        {[](BakeDef& d, float, float) { d.agentRadius = -0.4f; }, "/agent_radius"},
        {[](BakeDef& d, float, float i) { d.agentRadius = i; }, "/agent_radius"},
        {[](BakeDef& d, float, float) { d.agentHeight = 0.0f; }, "/agent_height"},
        {[](BakeDef& d, float, float) { d.stepHeight = -1.0f; }, "/step_height"},
        {[](BakeDef& d, float, float) { d.maxSlopeDeg = 91.0f; }, "/max_slope_deg"},
        {[](BakeDef& d, float, float) { d.maxSlopeDeg = -1.0f; }, "/max_slope_deg"},
        {[](BakeDef& d, float, float) { d.maxSimplificationError = -0.5f; }, "/max_simplification_error"},
        {[](BakeDef& d, float n, float) { d.maxEdgeLen = n; }, "/max_edge_len"},
        {[](BakeDef& d, float, float) { d.maxVertsPerPoly = 2; }, "/max_verts_per_poly"},
        {[](BakeDef& d, float, float) { d.maxVertsPerPoly = 7; }, "/max_verts_per_poly"},
        {[](BakeDef& d, float, float) { d.minRegionArea = -1.0f; }, "/min_region_area"},
        {[](BakeDef& d, float, float) { d.mergeRegionArea = -1.0f; }, "/merge_region_area"},
        {[](BakeDef& d, float n, float) { d.mergeRegionArea = n; }, "/merge_region_area"},
    };
    for (const Case& c : cases)
    {
        CAPTURE(c.field);
        BakeDef def = defaultBakeDef();
        c.apply(def, nan, inf);
        auto out = bakeTriangles(in, def);
        REQUIRE_FALSE(out.ok());
        CHECK(out.error().code == "E_NAV_CONFIG");
        CHECK(out.error().field == c.field);
    }
}

TEST_CASE("bad triangle input is E_NAV_CONFIG with the offending element")
{
    BakeInput in = floorWithBox();
    BakeInput badIndex = in;
    badIndex.indices[4] = 999;
    auto a = bakeTriangles(badIndex, defaultBakeDef());
    REQUIRE_FALSE(a.ok());
    CHECK(a.error().code == "E_NAV_CONFIG");
    CHECK(a.error().field == "/indices/4");

    BakeInput badVertex = in;
    badVertex.vertices[2].y = std::numeric_limits<float>::infinity();
    auto b = bakeTriangles(badVertex, defaultBakeDef());
    REQUIRE_FALSE(b.ok());
    CHECK(b.error().field == "/vertices/2");

    BakeInput badArea = in;
    badArea.areas.assign(in.indices.size() / 3, 0);
    badArea.areas[3] = 16;
    auto c = bakeTriangles(badArea, defaultBakeDef());
    REQUIRE_FALSE(c.ok());
    CHECK(c.error().field == "/areas/3");

    BakeInput ragged = in;
    ragged.indices.pop_back();
    auto d = bakeTriangles(ragged, defaultBakeDef());
    REQUIRE_FALSE(d.ok());
    CHECK(d.error().field == "/indices");
}

TEST_CASE("a solid's run past the last triangle is E_NAV_CONFIG naming it")
{
    BakeInput in = floorWithBox();
    in.solids = {{0, 12}, {12, 13}};
    auto out = bakeTriangles(in, defaultBakeDef());
    REQUIRE_FALSE(out.ok());
    CHECK(out.error().code == "E_NAV_CONFIG");
    CHECK(out.error().field == "/solids/1");
    in.solids = {{0, 12}, {12, 12}};
    CHECK(bakeTriangles(in, defaultBakeDef()).ok());
}

TEST_CASE("no polygon lies inside a solid box standing on a floor, whatever the agent's height")
{
    // The reproducer of issue 42: a 12 x 12 floor and a 2 x 2 x 2 box at (0, 1, 0).
    BakeInput in;
    test::addBox(in, {-6, -0.2f, -6}, {6, 0, 6});
    test::addBox(in, {-1, 0, -1}, {1, 2, 1});
    in.solids = {{0, 12}, {12, 12}};
    for (const float height : {0.5f, 1.0f, 1.8f})
    {
        CAPTURE(height);
        BakeDef def = defaultBakeDef();
        def.agentHeight = height;
        const BakeOutput out = bakeOk(in, def);
        for (size_t p = 0; p < out.mesh.polygonCount(); ++p)
        {
            const float y = out.mesh.vertices[out.mesh.indices[out.mesh.polyStarts[p]]].y;
            if (y > 1.9f)
                continue; // on the box's top
            CHECK(y < 0.2f);
            CHECK_FALSE(overlapsRect(out.mesh, p, -0.95f, 0.95f, -0.95f, 0.95f));
        }
    }
}

/// The polygons of `out` that are neither on the floor (y < 0.2) nor on the box's top (y > 1.9), or overlap the box.
int polygonsInsideBox(const BakeOutput& out)
{
    int inside = 0;
    for (size_t p = 0; p < out.mesh.polygonCount(); ++p)
    {
        const float y = out.mesh.vertices[out.mesh.indices[out.mesh.polyStarts[p]]].y;
        if (y > 1.9f)
            continue;
        inside += !(y < 0.2f) || overlapsRect(out.mesh, p, -0.95f, 0.95f, -0.95f, 0.95f);
    }
    return inside;
}

TEST_CASE("connectedTriangleRuns: an OBJ's closed pieces are solids, an inward-wound room stays hollow")
{
    // The same reproducer given as an OBJ or the C API give it: triangles without solids.
    BakeInput in;
    in.oneSided = true;
    test::addBox(in, {-6, -0.2f, -6}, {6, 0, 6});
    test::addBox(in, {-1, 0, -1}, {1, 2, 1});
    const std::vector<SolidRange> runs = connectedTriangleRuns(in);
    REQUIRE(runs.size() == 2);
    CHECK(runs[0].firstTriangle == 0);
    CHECK(runs[0].triangleCount == 12);
    CHECK(runs[1].firstTriangle == 12);
    CHECK(runs[1].triangleCount == 12);
    BakeDef def = defaultBakeDef();
    def.agentHeight = 1.0f;
    CHECK(polygonsInsideBox(bakeOk(in, def)) > 0); // without solids: the walkable floor inside the box
    in.solids = runs;
    CHECK(polygonsInsideBox(bakeOk(in, def)) == 0);

    // The box wound inward (a room seen from inside) on one-sided input: hollow, its floor kept.
    BakeInput room = in;
    for (size_t t = 12; t < 24; ++t)
        std::swap(room.indices[t * 3 + 1], room.indices[t * 3 + 2]);
    room.solids = connectedTriangleRuns(room);
    CHECK(room.solids.size() == 2);
    CHECK(polygonsInsideBox(bakeOk(room, def)) > 0);

    // An open piece (a floor quad strip: a terrain) is no solid: only the closed box is listed.
    BakeInput open = in;
    const uint32_t v0 = static_cast<uint32_t>(open.vertices.size());
    for (float x : {8.0f, 9.0f, 10.0f})
        open.vertices.push_back({x, 0, 0}), open.vertices.push_back({x, 0, 1});
    for (uint32_t q = 0; q < 2; ++q)
        for (uint32_t i : {0u, 1u, 3u, 0u, 3u, 2u})
            open.indices.push_back(v0 + 2 * q + i);
    const std::vector<SolidRange> openRuns = connectedTriangleRuns(open);
    REQUIRE(openRuns.size() == 2);
    CHECK(openRuns[1].firstTriangle == 12);

    // Separate pieces joined by nothing but order are separate runs; a bad index gives none.
    BakeInput odd = in;
    odd.indices.push_back(0), odd.indices.push_back(1), odd.indices.push_back(99);
    CHECK(connectedTriangleRuns(odd).empty());
    CHECK(connectedTriangleRuns(BakeInput{}).empty());
}

TEST_CASE("a grid over 4096 cells on a side is E_NAV_LIMIT")
{
    BakeInput in;
    test::addBox(in, {0, -0.2f, 0}, {820, 0, 2}); // 4100 cells of 0.2 m
    auto out = bakeTriangles(in, defaultBakeDef());
    REQUIRE_FALSE(out.ok());
    CHECK(out.error().code == "E_NAV_LIMIT");
    BakeDef coarse = defaultBakeDef();
    coarse.cellSize = 0.25f; // 3280 cells: fine
    CHECK(bakeTriangles(in, coarse).ok());
}

TEST_CASE("a vertex beyond 1e6 m is E_NAV_LIMIT with a readable message, not a wrapped grid size")
{
    BakeInput in;
    test::addBox(in, {0, -0.2f, 0}, {10, 0, 10});
    in.vertices.push_back({1e38f, 0, 0}); // an OBJ's stray vertex
    in.indices.insert(in.indices.end(), {0, 1, static_cast<uint32_t>(in.vertices.size() - 1)});
    auto out = bakeTriangles(in, defaultBakeDef());
    REQUIRE_FALSE(out.ok());
    CHECK(out.error().code == "E_NAV_LIMIT");
    CHECK(out.error().field == "/vertices/" + std::to_string(in.vertices.size() - 1));
    CHECK(out.error().message.find("1e+38 m from the origin") != std::string::npos);
    CHECK_FALSE(out.error().hint.empty());

    // Within the coordinate limit, a tiny cell gives a grid too large for an
    // integer: the message says so in powers of ten (was INT64_MIN, from UB).
    BakeInput wide;
    test::addBox(wide, {-1e6f, -0.2f, -1e6f}, {1e6f, 0, 1e6f});
    BakeDef fine = defaultBakeDef();
    fine.cellSize = 1e-30f;
    auto grid = bakeTriangles(wide, fine);
    REQUIRE_FALSE(grid.ok());
    CHECK(grid.error().code == "E_NAV_LIMIT");
    CHECK(grid.error().message == "the bake grid would be 2e+36 x 2e+36 cells, more than 4096 x 4096");
}

TEST_CASE("nothing walkable is E_NAV_NO_GEOMETRY")
{
    BakeInput empty;
    auto a = bakeTriangles(empty, defaultBakeDef());
    REQUIRE_FALSE(a.ok());
    CHECK(a.error().code == "E_NAV_NO_GEOMETRY");

    BakeInput wall;
    wall.vertices = {{0, 0, 0}, {0, 3, 0}, {0, 3, 3}, {0, 0, 3}};
    wall.indices = {0, 1, 2, 0, 2, 3};
    auto b = bakeTriangles(wall, defaultBakeDef());
    REQUIRE_FALSE(b.ok());
    CHECK(b.error().code == "E_NAV_NO_GEOMETRY");

    BakeInput tiny; // a floor narrower than the agent
    test::addBox(tiny, {0, -0.2f, 0}, {0.5f, 0, 0.5f});
    auto c = bakeTriangles(tiny, defaultBakeDef());
    REQUIRE_FALSE(c.ok());
    CHECK(c.error().code == "E_NAV_NO_GEOMETRY");
}

TEST_CASE("dungeon.obj bakes with the benchmark settings into a valid mesh")
{
    const BakeInput in = test::dungeonInput();
    BakeDef def = defaultBakeDef();
    def.cellSize = 0.3f;
    def.cellHeight = 0.2f;
    def.agentHeight = 2.0f;
    def.agentRadius = 0.6f;
    def.stepHeight = 0.9f;
    def.maxSlopeDeg = 45.0f;
    const BakeOutput out = bakeOk(in, def);
    test::checkPolygons(out.mesh);
    CHECK(out.mesh.polygonCount() > 50);
    CHECK(out.stats.regions > 10);
    CHECK(out.stats.fallbackRegions * 10 <= out.stats.regions);
    // Recast's mesh of the same settings covers about 1580 m² (bench/bake_bench.cpp).
    CHECK(test::totalArea(out.mesh) > 1400.0);
    CHECK(test::totalArea(out.mesh) < 1750.0);
    for (const glm::vec3& v : out.mesh.vertices)
    {
        CHECK(v.x >= out.boundsMin.x - 1e-3f);
        CHECK(v.x <= out.boundsMax.x + 1e-3f);
        CHECK(v.y >= out.boundsMin.y - 1e-3f);
        CHECK(v.y <= out.boundsMax.y + def.cellHeight + 1e-3f);
    }
    CHECK(hashPolySoup(bakeOk(in, def).mesh) == hashPolySoup(out.mesh));
}
