/// Tests of libnav/src/bake/contours.cpp: outlines, simplification, edge splits.

#include "bake_test_util.h"

#include <set>
#include <tuple>

using namespace spark::nav;
using namespace spark::nav::bake;

namespace
{

struct Traced
{
    OpenField open;
    ContourSet set;
};

Traced trace(const BakeInput& in, const BakeDef& def)
{
    glm::vec3 lo = in.vertices[0], hi = lo;
    for (const auto& v : in.vertices)
    {
        lo = glm::vec3(std::min(lo.x, v.x), std::min(lo.y, v.y), std::min(lo.z, v.z));
        hi = glm::vec3(std::max(hi.x, v.x), std::max(hi.y, v.y), std::max(hi.z, v.z));
    }
    Traced t;
    const CellSettings cells = cellSettingsOf(def);
    SolidField solid;
    solid.grid = test::gridOver(lo, hi, def);
    voxelizeTriangles(in, cells, solid);
    REQUIRE(filterSpans(solid, cells, t.open).ok());
    erodeWalkable(t.open, cells);
    buildRegions(t.open, cells);
    buildContours(t.open, cells, t.set);
    return t;
}

int64_t twiceArea(const Contour& c)
{
    const size_t n = c.verts.size() / 3;
    int64_t a = 0;
    for (size_t k = 0, j = n - 1; k < n; j = k++)
        a += static_cast<int64_t>(c.verts[j * 3]) * c.verts[k * 3 + 2] -
             static_cast<int64_t>(c.verts[k * 3]) * c.verts[j * 3 + 2];
    return a;
}

} // namespace

TEST_CASE("an eroded square floor has a four-corner outline with positive winding at the floor height")
{
    BakeInput in;
    test::addBox(in, {0, -0.2f, 0}, {4, 0, 4});
    const Traced t = trace(in, test::testDef());
    REQUIRE(t.set.contours.size() == 1);
    const Contour& c = t.set.contours[0];
    CHECK_FALSE(c.needsFallback);
    REQUIRE(c.verts.size() == 12);
    std::set<std::pair<int, int>> corners;
    for (size_t k = 0; k < 4; ++k)
    {
        corners.insert({c.verts[k * 3], c.verts[k * 3 + 2]});
        CHECK(c.verts[k * 3 + 1] == t.open.y[t.open.cellFirst[210]]);
    }
    // The ledge ring and two cells of radius (0.4 m) come off every side.
    CHECK(corners == std::set<std::pair<int, int>>{{3, 3}, {17, 3}, {17, 17}, {3, 17}});
    CHECK(twiceArea(c) == 2 * 14 * 14);
}

TEST_CASE("no outline edge is longer than max_edge_len")
{
    BakeInput in;
    test::addBox(in, {0, -0.2f, 0}, {8, 0, 8});
    BakeDef def = test::testDef();
    def.maxEdgeLen = 1.0f; // 5 cells
    const Traced t = trace(in, def);
    REQUIRE(t.set.contours.size() == 1);
    const Contour& c = t.set.contours[0];
    const size_t n = c.verts.size() / 3;
    CHECK(n > 4);
    for (size_t k = 0; k < n; ++k)
    {
        const size_t j = (k + 1) % n;
        const int dx = c.verts[j * 3] - c.verts[k * 3];
        const int dz = c.verts[j * 3 + 2] - c.verts[k * 3 + 2];
        CHECK(dx * dx + dz * dz <= 25);
    }
}

TEST_CASE("every walkable cell centre is inside its simplified outline or within max_simplification_error of it")
{
    BakeInput in;
    // A floor with a diagonal wall: the eroded border is a staircase.
    in.vertices = {{0, 0, 0}, {6, 0, 0}, {0, 0, 6}};
    in.indices = {0, 1, 2};
    BakeDef def = test::testDef();
    for (const float error : {0.5f, 1.3f, 3.0f})
    {
        def.maxSimplificationError = error;
        const Traced t = trace(in, def);
        REQUIRE(t.set.contours.size() == 1);
        const Contour& c = t.set.contours[0];
        const size_t n = c.verts.size() / 3;
        CHECK(twiceArea(c) > 0);
        // Every walkable cell centre is inside the outline grown by the error (+ half a cell).
        for (int z = 0; z < t.open.grid.depth; ++z)
            for (int x = 0; x < t.open.grid.width; ++x)
            {
                const size_t col = static_cast<size_t>(x + z * t.open.grid.width);
                if (t.open.cellCount(col) == 0 || t.open.region[t.open.cellFirst[col]] == 0)
                    continue;
                const double px = x + 0.5, pz = z + 0.5;
                // Inside the outline (crossing number), or within the error of it.
                bool inside = false;
                double nearest = 1e9;
                for (size_t k = 0, j = n - 1; k < n; j = k++)
                {
                    const double ax = c.verts[j * 3], az = c.verts[j * 3 + 2];
                    const double bx = c.verts[k * 3], bz = c.verts[k * 3 + 2];
                    if ((az > pz) != (bz > pz) && px < ax + (bx - ax) * (pz - az) / (bz - az))
                        inside = !inside;
                    const double dx = bx - ax, dz = bz - az;
                    const double t = std::clamp(((px - ax) * dx + (pz - az) * dz) / (dx * dx + dz * dz), 0.0, 1.0);
                    nearest = std::min(nearest, std::hypot(ax + dx * t - px, az + dz * t - pz));
                }
                CHECK((inside || nearest <= error));
            }
    }
}

TEST_CASE("neighbouring regions put the same vertices on their common border")
{
    BakeInput in;
    test::addBox(in, {0, -0.2f, 0}, {6, 0, 6});
    test::addBox(in, {2.05f, 0, 2.05f}, {3.95f, 2, 3.95f});
    BakeDef def = test::testDef();
    def.maxEdgeLen = 1.0f;
    const Traced t = trace(in, def);
    REQUIRE(t.set.contours.size() >= 3);
    for (const Contour& a : t.set.contours)
    {
        std::set<std::pair<int, int>> own;
        for (size_t k = 0; k < a.verts.size() / 3; ++k)
            own.insert({a.verts[k * 3], a.verts[k * 3 + 2]});
        for (const Contour& b : t.set.contours)
        {
            if (&a == &b)
                continue;
            const size_t n = b.verts.size() / 3;
            for (size_t k = 0; k < n; ++k)
            {
                // A vertex of b lying on an edge of a (strictly inside it) would be a T-junction.
                const int px = b.verts[k * 3], pz = b.verts[k * 3 + 2];
                const size_t m = a.verts.size() / 3;
                for (size_t e = 0; e < m; ++e)
                {
                    const size_t f = (e + 1) % m;
                    const int ax = a.verts[e * 3], az = a.verts[e * 3 + 2];
                    const int bx = a.verts[f * 3], bz = a.verts[f * 3 + 2];
                    const int64_t cr = static_cast<int64_t>(bx - ax) * (pz - az) - static_cast<int64_t>(px - ax) * (bz - az);
                    const bool within = std::min(ax, bx) <= px && px <= std::max(ax, bx) && std::min(az, bz) <= pz &&
                                        pz <= std::max(az, bz);
                    if (cr == 0 && within)
                        CHECK(own.count({px, pz}) == 1);
                }
            }
        }
    }
}
