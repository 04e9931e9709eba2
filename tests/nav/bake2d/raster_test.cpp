#include "spark/nav/bake2d.h"

#include <doctest/doctest.h>

#include <limits>
#include <string>
#include <vector>

using namespace spark::nav;

namespace
{

std::string picture(const Grid2D& g)
{
    std::string s;
    for (int y = 0; y < g.height; ++y)
    {
        for (int x = 0; x < g.width; ++x)
        {
            const size_t i = static_cast<size_t>(y) * g.width + x;
            if (g.blocked[i])
                s += '#';
            else if (!g.areas.empty() && g.areas[i])
                s += static_cast<char>('0' + g.areas[i]);
            else
                s += '.';
        }
        s += '\n';
    }
    return s;
}

Shapes2D box(float x0, float y0, float x1, float y1, float cell)
{
    Shapes2D s;
    s.hasBounds = true;
    s.bounds = Rect2D{{x0, y0}, {x1, y1}};
    s.cellSize = cell;
    return s;
}

} // namespace

TEST_CASE("bounds become a grid aligned to multiples of the cell size")
{
    Shapes2D s = box(0.3f, -1.0f, 2.0f, 0.0f, 0.5f);
    auto g = rasterizeShapes2D(s);
    REQUIRE(g.ok());
    CHECK(g->origin.x == 0.0f);
    CHECK(g->origin.y == -1.0f);
    CHECK(g->width == 4);
    CHECK(g->height == 2);
    // Cell 0 (centre 0.25) lies outside the bounds' min x 0.3: blocked.
    CHECK(picture(g.value()) == "#...\n#...\n");
}

TEST_CASE("solid rectangles block every cell whose interior they overlap, not their neighbours")
{
    Shapes2D s = box(0, 0, 4, 3, 1.0f);
    s.solidRects.push_back(Rect2D{{1.0f, 1.0f}, {2.0f, 2.0f}}); // exactly one cell
    s.solidRects.push_back(Rect2D{{3.2f, 0.0f}, {3.3f, 0.4f}}); // a sliver inside cell (3, 0)
    auto g = rasterizeShapes2D(s);
    REQUIRE(g.ok());
    CHECK(picture(g.value()) == "...#\n.#..\n....\n");
}

TEST_CASE("blockCellRects blocks the union of the rectangles, overlaps and empty ones included")
{
    Grid2D g;
    g.width = 5;
    g.height = 4;
    g.blocked.assign(20, 0);
    g.blocked[19] = 1; // already blocked cells stay blocked
    const std::vector<CellRect> rects{
        {0, 0, 2, 2, 0}, // a 2 x 2 corner
        {1, 1, 2, 2, 0}, // overlapping it: counted twice, blocked once
        {4, 0, 0, 3, 0}, // no cells
        {3, 3, 1, 1, 0}, // one cell
    };
    blockCellRects(g, rects);
    CHECK(picture(g) == "##...\n###..\n.##..\n...##\n");
    blockCellRects(g, {});
    CHECK(picture(g) == "##...\n###..\n.##..\n...##\n");
}

TEST_CASE("obstacle polygons block cells under them and along thin edges")
{
    Shapes2D s = box(0, 0, 6, 4, 1.0f);
    // A thin diagonal sliver from (0.5, 0.5) to (5.5, 3.5): centres mostly outside.
    s.obstacles.push_back({{0.5f, 0.5f}, {5.5f, 3.4f}, {5.5f, 3.5f}});
    auto g = rasterizeShapes2D(s);
    REQUIRE(g.ok());
    // Every cell the line passes through is blocked; the corner cells far from it are free.
    CHECK(g->blocked[0] == 1);
    CHECK(g->blocked[3 * 6 + 5] == 1);
    CHECK(g->blocked[3 * 6 + 0] == 0);
    CHECK(g->blocked[0 * 6 + 5] == 0);
    // An axis-aligned square obstacle on cell lines blocks exactly its cells.
    Shapes2D t = box(0, 0, 4, 4, 1.0f);
    t.obstacles.push_back({{1, 1}, {3, 1}, {3, 3}, {1, 3}});
    auto h = rasterizeShapes2D(t);
    REQUIRE(h.ok());
    CHECK(picture(h.value()) == "....\n.##.\n.##.\n....\n");
}

TEST_CASE("walkable polygons open only the cells whose centre is inside")
{
    Shapes2D s;
    s.cellSize = 1.0f;
    // A triangle: bounds come from the polygon.
    s.walkable.push_back({{0, 0}, {4, 0}, {0, 4}});
    auto g = rasterizeShapes2D(s);
    REQUIRE(g.ok());
    CHECK(g->width == 4);
    CHECK(g->height == 4);
    CHECK(picture(g.value()) == "...#\n..##\n.###\n####\n");
}

TEST_CASE("area rectangles paint centres, the last one winning")
{
    Shapes2D s = box(0, 0, 4, 2, 1.0f);
    s.areas.push_back(AreaRect2D{{0, 0}, {3, 2}, 1});
    s.areas.push_back(AreaRect2D{{2, 0}, {4, 1}, 2});
    auto g = rasterizeShapes2D(s);
    REQUIRE(g.ok());
    CHECK(picture(g.value()) == "1122\n111.\n");
}

TEST_CASE("bad shapes are coded errors with the field")
{
    const float nan = std::numeric_limits<float>::quiet_NaN();
    Shapes2D s = box(0, 0, 4, 4, 1.0f);
    s.obstacles.push_back({{0, 0}, {1, 0}, {1, nan}});
    auto r = rasterizeShapes2D(s);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == "E_NAV_CONFIG");
    CHECK(r.error().field == "/obstacles/0/2");

    Shapes2D two = box(0, 0, 4, 4, 1.0f);
    two.walkable.push_back({{0, 0}, {1, 0}});
    CHECK(rasterizeShapes2D(two).error().field == "/walkable/0");

    Shapes2D flipped = box(0, 0, 4, 4, 1.0f);
    flipped.solidRects.push_back(Rect2D{{2, 2}, {1, 1}});
    CHECK(rasterizeShapes2D(flipped).error().field == "/solid_rects/0");

    Shapes2D area = box(0, 0, 4, 4, 1.0f);
    area.areas.push_back(AreaRect2D{{0, 0}, {1, 1}, 16});
    CHECK(rasterizeShapes2D(area).error().field == "/areas/0/area");

    Shapes2D none;
    CHECK(rasterizeShapes2D(none).error().code == "E_NAV_NO_GEOMETRY");

    Shapes2D flat = box(0, 0, 4, 0, 1.0f);
    CHECK(rasterizeShapes2D(flat).error().field == "/bounds");

    Shapes2D cell = box(0, 0, 4, 4, -1.0f);
    CHECK(rasterizeShapes2D(cell).error().field == "/cell_size");

    Shapes2D many = box(0, 0, 4, 4, 1.0f);
    many.obstacles.push_back(std::vector<glm::vec2>(kMaxShapePolygonVertices + 1, glm::vec2(1, 1)));
    CHECK(rasterizeShapes2D(many).error().code == "E_NAV_LIMIT");
}

TEST_CASE("bounds needing more than 4096 cells per axis are E_NAV_LIMIT")
{
    auto r = rasterizeShapes2D(box(0, 0, 5000, 5000, 1.0f));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == "E_NAV_LIMIT");
    CHECK(r.error().field == "/bounds");
    auto huge = rasterizeShapes2D(box(-3e38f, 0, 3e38f, 1, 1e-30f));
    CHECK(huge.error().code == "E_NAV_LIMIT");
    auto ok = rasterizeShapes2D(box(0, 0, 4096, 1, 1.0f));
    CHECK(ok.ok());
}

TEST_CASE("rasterised shapes bake into a mesh around the obstacle")
{
    Shapes2D s = box(0, 0, 10, 10, 0.5f);
    s.solidRects.push_back(Rect2D{{4, 4}, {6, 6}});
    auto g = rasterizeShapes2D(s);
    REQUIRE(g.ok());
    auto soup = bakeGrid2D(g.value(), 0.5f);
    REQUIRE(soup.ok());
    for (const auto& v : soup->vertices)
    {
        const bool inHole = v.x > 3.5f && v.x < 6.5f && v.z > 3.5f && v.z < 6.5f;
        CHECK_FALSE(inHole);
    }
    CHECK(soup->polygonCount() >= 4);
}
