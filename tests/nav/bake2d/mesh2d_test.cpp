// meshFromRectangles2D (mesh2d.cpp) and the 2D bake's polygons: an exact cover of
// the walkable cells by convex polygons of at most kMaxBakedPolyVerts corners that
// share whole edges, whose corners are exactly the corners of the free space.
#include "spark/nav/bake2d.h"
#include "spark/nav/navmesh.h"

#include "grid_test_util.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <map>
#include <utility>
#include <vector>

using namespace spark::nav;
using test::lcg;

namespace
{

constexpr int kBlocked = -1;

int cellClass(int w, int h, const std::vector<uint8_t>& walk, const std::vector<uint8_t>& areas, int x, int y)
{
    if (x < 0 || y < 0 || x >= w || y >= h || walk[size_t(y) * w + x] == 0)
        return kBlocked;
    return areas.empty() ? 0 : areas[size_t(y) * w + x];
}

/// The four cells round corner (x, y), counter-clockwise from the low-left one.
std::array<int, 4> cellsRound(int w, int h, const std::vector<uint8_t>& walk, const std::vector<uint8_t>& areas, int x,
                              int y)
{
    return {cellClass(w, h, walk, areas, x - 1, y - 1), cellClass(w, h, walk, areas, x, y - 1),
            cellClass(w, h, walk, areas, x, y), cellClass(w, h, walk, areas, x - 1, y)};
}

/// Open space of one area, or a straight wall with one area on its free side.
bool needless(const std::array<int, 4>& c)
{
    if (c[0] != kBlocked && c[0] == c[1] && c[1] == c[2] && c[2] == c[3])
        return true;
    for (int k = 0; k < 4; ++k)
        if (c[k] != kBlocked && c[k] == c[(k + 1) % 4] && c[(k + 2) % 4] == kBlocked && c[(k + 3) % 4] == kBlocked)
            return true;
    return false;
}

/// The free space turns here: a convex, reflex or pinch corner (by blocked/free alone).
bool turning(const std::array<int, 4>& c)
{
    int free = 0;
    for (int v : c)
        free += v != kBlocked ? 1 : 0;
    // Two free cells turn only when they touch at the corner alone (a pinch).
    return free == 1 || free == 3 || (free == 2 && (c[0] != kBlocked) == (c[2] != kBlocked));
}

int64_t cross(const glm::ivec2& a, const glm::ivec2& b, const glm::ivec2& c)
{
    return int64_t(b.x - a.x) * (c.y - a.y) - int64_t(b.y - a.y) * (c.x - a.x);
}

/// Checks everything the design note promises; returns the mesh for more checks.
CornerMesh2D checkMesh(int w, int h, const std::vector<uint8_t>& walk, const std::vector<uint8_t>& areas,
                       uint32_t maxVerts = kMaxBakedPolyVerts)
{
    const std::vector<CellRect> rects = coverWithRectangles2D(w, h, walk, areas);
    CornerMesh2D m = meshFromRectangles2D(w, h, rects, walk, areas, maxVerts);
    const size_t polys = m.areas.size();
    REQUIRE(m.polyStarts.size() == polys + 1);
    REQUIRE(m.polyStarts.back() == m.indices.size());

    // Corners: row-major, each a corner of the free space or of an area border, and
    // every turning corner of the free space is one.
    for (size_t i = 1; i < m.corners.size(); ++i)
        CHECK((m.corners[i - 1].y < m.corners[i].y ||
               (m.corners[i - 1].y == m.corners[i].y && m.corners[i - 1].x < m.corners[i].x)));
    std::vector<uint8_t> isVertex(size_t(w + 1) * (h + 1), 0);
    for (const glm::ivec2& c : m.corners)
    {
        CHECK_FALSE(needless(cellsRound(w, h, walk, areas, c.x, c.y)));
        isVertex[size_t(c.y) * (w + 1) + c.x] = 1;
    }
    for (int y = 0; y <= h; ++y)
        for (int x = 0; x <= w; ++x)
            if (turning(cellsRound(w, h, walk, areas, x, y)))
                CHECK_MESSAGE(isVertex[size_t(y) * (w + 1) + x] == 1, "corner " << x << "," << y);

    // Polygons: 3..maxVerts corners, convex (straight angles allowed), positive area.
    std::map<std::pair<uint32_t, uint32_t>, int> directed;
    for (size_t p = 0; p < polys; ++p)
    {
        const uint32_t b = m.polyStarts[p], n = m.polyStarts[p + 1] - b;
        REQUIRE(n >= 3);
        REQUIRE(n <= maxVerts);
        int64_t twiceArea = 0;
        for (uint32_t k = 0; k < n; ++k)
        {
            const glm::ivec2& a = m.corners[m.indices[b + k]];
            const glm::ivec2& c = m.corners[m.indices[b + (k + 1) % n]];
            const glm::ivec2& d = m.corners[m.indices[b + (k + 2) % n]];
            CHECK(cross(a, c, d) >= 0);
            twiceArea += int64_t(a.x) * c.y - int64_t(c.x) * a.y;
            ++directed[{m.indices[b + k], m.indices[b + (k + 1) % n]}];
        }
        CHECK(twiceArea > 0);
    }
    // Edges: shared whole by exactly two polygons, or a wall with blocked cells outside.
    for (const auto& [e, count] : directed)
    {
        CHECK(count == 1);
        if (directed.count({e.second, e.first}) != 0)
            continue;
        const glm::ivec2 a = m.corners[e.first], b = m.corners[e.second];
        REQUIRE((a.x == b.x || a.y == b.y));
        // Outside is on the right of a → b.
        if (a.y == b.y)
            for (int x = std::min(a.x, b.x); x < std::max(a.x, b.x); ++x)
                CHECK(cellClass(w, h, walk, areas, x, b.x > a.x ? a.y - 1 : a.y) == kBlocked);
        else
            for (int y = std::min(a.y, b.y); y < std::max(a.y, b.y); ++y)
                CHECK(cellClass(w, h, walk, areas, b.y > a.y ? a.x : a.x - 1, y) == kBlocked);
    }
    // Exact cover: each walkable cell's (perturbed) centre in exactly one polygon, of its area.
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
        {
            const double px = x + 0.5 + 1.0e-4, py = y + 0.5 + 1.41421356e-4;
            int inside = 0, area = -2;
            for (size_t p = 0; p < polys; ++p)
            {
                const uint32_t b = m.polyStarts[p], n = m.polyStarts[p + 1] - b;
                bool in = true;
                for (uint32_t k = 0; k < n && in; ++k)
                {
                    const glm::ivec2& a = m.corners[m.indices[b + k]];
                    const glm::ivec2& c = m.corners[m.indices[b + (k + 1) % n]];
                    in = double(c.x - a.x) * (py - a.y) - double(c.y - a.y) * (px - a.x) > 0.0;
                }
                if (in)
                    ++inside, area = m.areas[p];
            }
            const int cls = cellClass(w, h, walk, areas, x, y);
            CHECK_MESSAGE(inside == (cls == kBlocked ? 0 : 1), "cell " << x << "," << y);
            if (cls != kBlocked)
                CHECK(area == cls);
        }
    return m;
}

std::vector<uint8_t> randomWalkable(uint32_t seed, int w, int h, int obstacles)
{
    std::vector<uint8_t> walk(size_t(w) * h, 1);
    uint32_t s = seed;
    for (int i = 0; i < obstacles; ++i)
    {
        const int x = int(lcg(s) % uint32_t(w)), y = int(lcg(s) % uint32_t(h));
        const int rw = 1 + int(lcg(s) % 5), rh = 1 + int(lcg(s) % 5);
        for (int yy = y; yy < std::min(h, y + rh); ++yy)
            for (int xx = x; xx < std::min(w, x + rw); ++xx)
                walk[size_t(yy) * w + xx] = 0;
    }
    return walk;
}

} // namespace

TEST_CASE("an open grid and a room with a door keep only the corners of the free space")
{
    // Open 10 × 6: the rectangle itself.
    const std::vector<uint8_t> open(60, 1);
    const CornerMesh2D a = checkMesh(10, 6, open, {});
    CHECK(a.areas.size() == 1);
    CHECK(a.corners.size() == 4);

    // Two 8 × 8 rooms joined by a 2-cell door in a 1-cell wall: 12 corners. No
    // polygon has a straight angle, so the door corners split each room's side:
    // three polygons a room and the door.
    const int w = 17, h = 8;
    std::vector<uint8_t> rooms(size_t(w) * h, 1);
    for (int y = 0; y < h; ++y)
        if (y < 3 || y > 4)
            rooms[size_t(y) * w + 8] = 0;
    const CornerMesh2D b = checkMesh(w, h, rooms, {});
    CHECK(b.corners.size() == 12);
    CHECK(b.areas.size() == 7);
}

TEST_CASE("a plus-shaped room has its 12 corners and no others, triangulated when asked")
{
    const int n = 9;
    std::vector<uint8_t> plus(size_t(n) * n, 0);
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x)
            if ((x >= 3 && x < 6) || (y >= 3 && y < 6))
                plus[size_t(y) * n + x] = 1;
    const CornerMesh2D m = checkMesh(n, n, plus, {});
    CHECK(m.corners.size() == 12);
    const CornerMesh2D t = checkMesh(n, n, plus, {}, 3);
    CHECK(t.corners.size() == 12);
    // A simple polygon of 12 corners: 10 triangles.
    CHECK(t.areas.size() == 10);
    CHECK(m.areas.size() < t.areas.size());
}

TEST_CASE("random grids, with and without area ids, bake to valid meshes without needless corners")
{
    for (uint32_t seed = 1; seed <= 30; ++seed)
    {
        const int w = 12 + int(seed % 7) * 3, h = 10 + int(seed % 5) * 4;
        const std::vector<uint8_t> walk = randomWalkable(seed, w, h, w * h / 12);
        std::vector<uint8_t> areas;
        if (seed % 2 == 0)
        {
            areas.assign(walk.size(), 0);
            uint32_t s = seed * 7u;
            for (int i = 0; i < 3; ++i)
            {
                const int x = int(lcg(s) % uint32_t(w)), y = int(lcg(s) % uint32_t(h));
                const uint8_t id = uint8_t(1 + lcg(s) % 3);
                for (int yy = y; yy < std::min(h, y + 6); ++yy)
                    for (int xx = x; xx < std::min(w, x + 8); ++xx)
                        areas[size_t(yy) * w + xx] = id;
            }
        }
        CAPTURE(seed);
        checkMesh(w, h, walk, areas);
        checkMesh(w, h, walk, areas, 3);
        // Fewer corners than the rectangles had.
        const std::vector<CellRect> rects = coverWithRectangles2D(w, h, walk, areas);
        std::vector<std::pair<int, int>> rectCorners;
        for (const CellRect& r : rects)
            for (const auto& c : {std::pair{r.x, r.y}, std::pair{r.x + r.width, r.y},
                                  std::pair{r.x + r.width, r.y + r.height}, std::pair{r.x, r.y + r.height}})
                rectCorners.push_back(c);
        std::sort(rectCorners.begin(), rectCorners.end());
        rectCorners.erase(std::unique(rectCorners.begin(), rectCorners.end()), rectCorners.end());
        CHECK(meshFromRectangles2D(w, h, rects, walk, areas).corners.size() <= rectCorners.size());
    }
}

TEST_CASE("diagonal pinches and a grid filled to its border keep their corners and bake to a valid mesh")
{
    // A checkerboard of 2 × 2 blocks touches itself at every block corner.
    const int w = 12, h = 12;
    std::vector<uint8_t> walk(size_t(w) * h, 1);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            walk[size_t(y) * w + x] = ((x / 2 + y / 2) % 2 == 0) ? 1 : 0;
    checkMesh(w, h, walk, {});
    // A 1-cell serpentine corridor: long thin polygons and many reflex corners.
    std::vector<uint8_t> spiral(size_t(w) * h, 0);
    for (int y = 0; y < h; y += 2)
    {
        for (int x = 0; x < w; ++x)
            spiral[size_t(y) * w + x] = 1;
        if (y + 1 < h)
            spiral[size_t(y + 1) * w + ((y / 2) % 2 == 0 ? w - 1 : 0)] = 1;
    }
    checkMesh(w, h, spiral, {});
}

TEST_CASE("the 2D bake's soup is the corner mesh in world units and links into a valid navmesh")
{
    Grid2D g = test::makeGrid(30, 20, 0.5f);
    g.origin = {-3.0f, 2.0f};
    g.blocked = randomWalkable(77, 30, 20, 50);
    for (auto& b : g.blocked)
        b = b != 0 ? 0 : 1; // randomWalkable marks free cells with 1
    auto baked = bakeGrid2DWithStats(g, 0.0f);
    REQUIRE(baked.ok());
    const std::vector<uint8_t> walk = erodeGrid2D(g, 0.0f);
    const CornerMesh2D m = meshFromRectangles2D(30, 20, coverWithRectangles2D(30, 20, walk, {}), walk, {});
    const PolySoup& soup = baked->mesh;
    REQUIRE(soup.vertices.size() == m.corners.size());
    for (size_t i = 0; i < m.corners.size(); ++i)
    {
        CHECK(soup.vertices[i].x == -3.0f + float(m.corners[i].x) * 0.5f);
        CHECK(soup.vertices[i].z == 2.0f + float(m.corners[i].y) * 0.5f);
    }
    CHECK(soup.indices == m.indices);
    CHECK(soup.polyStarts == m.polyStarts);
    NavMeshDef def = defaultNavMeshDef();
    def.is2d = true;
    def.settings.cellSize = 0.5f;
    def.maxPolyVerts = kMaxBakedPolyVerts;
    auto mesh = buildNavMesh(soup, def);
    REQUIRE(mesh.ok());
    CHECK(mesh->polygonCount() == m.areas.size());
}
