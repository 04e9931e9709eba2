#include "spark/nav/debug_draw.h"

#include "spark/core/hash.h"
#include "spark/nav/bake.h"
#include "spark/nav/bake2d.h"

#include <doctest/doctest.h>

#include <array>
#include <limits>
#include <vector>

using namespace spark;
using namespace spark::nav;

namespace
{

uint32_t pixel(const Image& img, int x, int y)
{
    const uint8_t* p = img.rgba.data() + (static_cast<size_t>(y) * img.width + x) * 4;
    return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | p[3];
}

// The area colour at 85 % (a flat mesh).
uint32_t flatShade(uint8_t area)
{
    const uint32_t c = debugAreaColor(area);
    auto ch = [&](int s) { return ((((c >> s) & 0xffu) * 85u) / 100u) << s; };
    return ch(24) | ch(16) | ch(8) | 0xffu;
}

PolySoup rectSoup(std::vector<std::array<float, 4>> rects, std::vector<uint8_t> areas = {})
{
    PolySoup s;
    s.polyStarts.push_back(0);
    for (size_t i = 0; i < rects.size(); ++i)
    {
        const auto& r = rects[i];
        const uint32_t base = static_cast<uint32_t>(s.vertices.size());
        s.vertices.emplace_back(r[0], 0.0f, r[1]);
        s.vertices.emplace_back(r[2], 0.0f, r[1]);
        s.vertices.emplace_back(r[2], 0.0f, r[3]);
        s.vertices.emplace_back(r[0], 0.0f, r[3]);
        for (uint32_t k = 0; k < 4; ++k)
            s.indices.push_back(base + k);
        s.polyStarts.push_back(static_cast<uint32_t>(s.indices.size()));
        s.areas.push_back(areas.empty() ? 0 : areas[i]);
    }
    return s;
}

NavMesh mesh2d(const PolySoup& soup)
{
    NavMeshDef def = defaultNavMeshDef();
    def.is2d = true;
    auto m = buildNavMesh(soup, def);
    REQUIRE(m.ok());
    return m.value();
}

DebugDrawDef square(int size)
{
    DebugDrawDef def = defaultDebugDrawDef();
    def.width = size;
    def.height = size;
    def.margin = 0;
    return def;
}

} // namespace

TEST_CASE("a square mesh fills the picture with its area colour and white walls on the border")
{
    const NavMesh mesh = mesh2d(rectSoup({{0, 0, 10, 10}}));
    auto img = drawNavMeshDebug(mesh, {}, square(100));
    REQUIRE(img.ok());
    CHECK(img->width == 100);
    CHECK(pixel(img.value(), 50, 50) == flatShade(0));
    CHECK(pixel(img.value(), 30, 70) == flatShade(0));
    // The walls run along the border: white at the left and top edges.
    CHECK(pixel(img.value(), 0, 50) == kDebugWall);
    CHECK(pixel(img.value(), 50, 0) == kDebugWall);
}

TEST_CASE("the view fits the mesh bounds with the margin, centred")
{
    const NavMesh mesh = mesh2d(rectSoup({{0, 0, 20, 10}}));
    DebugDrawDef def = square(120);
    def.margin = 10;
    auto view = debugViewFor(mesh, def);
    REQUIRE(view.ok());
    CHECK(view->scale == doctest::Approx(5.0));
    CHECK(view->offsetX == doctest::Approx(10.0));
    CHECK(view->offsetY == doctest::Approx(35.0));
    auto img = drawNavMeshDebug(mesh, {}, def);
    REQUIRE(img.ok());
    CHECK(pixel(img.value(), 60, 20) == kDebugBackground); // above the mesh
    CHECK(pixel(img.value(), 60, 60) == flatShade(0));
}

TEST_CASE("polygons sharing an edge leave no gap and keep their area colours")
{
    const NavMesh mesh = mesh2d(rectSoup({{0, 0, 5, 10}, {5, 0, 10, 10}}, {0, 2}));
    auto img = drawNavMeshDebug(mesh, {}, square(100));
    REQUIRE(img.ok());
    CHECK(pixel(img.value(), 25, 50) == flatShade(0));
    CHECK(pixel(img.value(), 75, 50) == flatShade(2));
    // Inside the mesh (away from the border walls) no pixel keeps the background.
    for (int y = 3; y < 97; ++y)
        for (int x = 3; x < 97; ++x)
            REQUIRE(pixel(img.value(), x, y) != kDebugBackground);
}

TEST_CASE("a path is drawn yellow with white corners")
{
    const NavMesh mesh = mesh2d(rectSoup({{0, 0, 10, 10}}));
    DebugOverlay overlay;
    overlay.paths.push_back({{2.0f, 0.0f, 5.0f}, {8.0f, 0.0f, 5.0f}, {8.0f, 0.0f, 8.0f}});
    auto img = drawNavMeshDebug(mesh, overlay, square(100));
    REQUIRE(img.ok());
    CHECK(pixel(img.value(), 50, 50) == kDebugPath);
    CHECK(pixel(img.value(), 80, 65) == kDebugPath);
    CHECK(pixel(img.value(), 20, 50) == kDebugPathCorner);
    CHECK(pixel(img.value(), 80, 50) == kDebugPathCorner);
    CHECK(pixel(img.value(), 50, 40) == flatShade(0));
}

TEST_CASE("obstacles are red, agents are discs with a heading line, links are dashed magenta")
{
    const NavMesh mesh = mesh2d(rectSoup({{0, 0, 10, 10}}));
    DebugOverlay overlay;
    overlay.obstacles.push_back({{4, 0, 1}, {6, 0, 1}, {6, 0, 3}, {4, 0, 3}});
    overlay.agents.push_back(DebugAgent{{5.0f, 0.0f, 8.0f}, 0.5f, {1.0f, 0.0f, 0.0f}});
    overlay.links.push_back(DebugLink{{1.0f, 0.0f, 5.0f}, {9.0f, 0.0f, 5.0f}});
    auto img = drawNavMeshDebug(mesh, overlay, square(100));
    REQUIRE(img.ok());
    CHECK(pixel(img.value(), 50, 20) == kDebugObstacleFill);
    CHECK(pixel(img.value(), 40, 20) == kDebugObstacleEdge);
    CHECK(pixel(img.value(), 47, 77) == kDebugAgent);
    CHECK(pixel(img.value(), 54, 80) == kDebugAgentHeading);
    CHECK(pixel(img.value(), 46, 80) == kDebugAgent); // behind the centre: no heading line
    CHECK(pixel(img.value(), 10, 50) == kDebugLinkStart);
    CHECK(pixel(img.value(), 90, 50) == kDebugLinkEnd);
    int on = 0, off = 0;
    for (int x = 20; x < 80; ++x)
        (pixel(img.value(), x, 50) == kDebugLink ? on : off) += 1;
    CHECK(on > 25);
    CHECK(off > 15);
}

TEST_CASE("equal state gives equal pixels")
{
    Grid2D g;
    g.width = 60;
    g.height = 40;
    g.cellSize = 0.25f;
    g.blocked.assign(60 * 40, 0);
    g.areas.assign(60 * 40, 0);
    uint32_t s = 4242;
    for (size_t i = 0; i < g.blocked.size(); ++i)
    {
        s = s * 1664525u + 1013904223u;
        g.blocked[i] = (s >> 24) < 30;
        g.areas[i] = (s >> 20) % 7 == 0 ? 3 : 0;
    }
    auto soup = bakeGrid2D(g, 0.2f);
    REQUIRE(soup.ok());
    const NavMesh a = mesh2d(soup.value());
    const NavMesh b = mesh2d(soup.value());
    DebugOverlay overlay;
    overlay.paths.push_back({{0.5f, 0, 0.5f}, {14.3f, 0, 9.7f}});
    overlay.agents.push_back(DebugAgent{{7.1f, 0, 3.3f}, 0.4f, {0.3f, 0, -0.8f}});
    overlay.links.push_back(DebugLink{{1, 0, 9}, {13, 0, 1}});
    DebugDrawDef def = defaultDebugDrawDef();
    def.width = 300;
    def.height = 200;
    auto i1 = drawNavMeshDebug(a, overlay, def);
    auto i2 = drawNavMeshDebug(b, overlay, def);
    REQUIRE(i1.ok());
    REQUIRE(i2.ok());
    CHECK(i1->rgba == i2->rgba);
    CHECK(hashBytes(i1->rgba) == hashBytes(i2->rgba));
}

TEST_CASE("bad picture settings and overlays are E_NAV_CONFIG with the field")
{
    const NavMesh mesh = mesh2d(rectSoup({{0, 0, 10, 10}}));
    DebugDrawDef def = square(8);
    CHECK(drawNavMeshDebug(mesh, {}, def).error().field == "/width");
    def = square(100);
    def.height = 5000;
    CHECK(drawNavMeshDebug(mesh, {}, def).error().field == "/height");
    def = square(100);
    def.hasBounds = true;
    def.minX = 0;
    def.maxX = std::numeric_limits<float>::quiet_NaN();
    def.maxZ = 1;
    CHECK(drawNavMeshDebug(mesh, {}, def).error().field == "/bounds");
    DebugOverlay overlay;
    overlay.paths.push_back({{0, 0, 0}, {std::numeric_limits<float>::infinity(), 0, 0}});
    auto bad = drawNavMeshDebug(mesh, overlay, square(100));
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().code == "E_NAV_CONFIG");
    CHECK(bad.error().field == "/paths/0/1");
    const NavMesh empty;
    CHECK(drawNavMeshDebug(empty, {}, square(100)).error().code == "E_NAV_NO_GEOMETRY");
}

TEST_CASE("given bounds frame a part of the mesh and far-away geometry is clipped")
{
    const NavMesh mesh = mesh2d(rectSoup({{0, 0, 1000, 1000}}));
    DebugDrawDef def = square(64);
    def.hasBounds = true;
    def.minX = 10;
    def.minZ = 10;
    def.maxX = 20;
    def.maxZ = 20;
    DebugOverlay overlay;
    overlay.paths.push_back({{-1e6f, 0, 15}, {1e6f, 0, 15}});
    auto img = drawNavMeshDebug(mesh, overlay, def);
    REQUIRE(img.ok());
    CHECK(pixel(img.value(), 32, 10) == flatShade(0));
    CHECK(pixel(img.value(), 5, 32) == kDebugPath);
    CHECK(pixel(img.value(), 60, 32) == kDebugPath);
}

namespace
{

/// An 8 m × 8 m floor baked on 0.25 m cells, in tiles of `tileSize` cells (0: one grid).
NavMesh bakedFloor(int tileSize)
{
    BakeInput in;
    const glm::vec3 lo{0.0f, -0.5f, 0.0f}, hi{8.0f, 0.0f, 8.0f};
    for (int i = 0; i < 8; ++i)
        in.vertices.emplace_back((i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z);
    const uint32_t faces[12][3] = {{0, 1, 3}, {0, 3, 2}, {4, 6, 7}, {4, 7, 5}, {0, 4, 5}, {0, 5, 1},
                                   {2, 3, 7}, {2, 7, 6}, {0, 2, 6}, {0, 6, 4}, {1, 5, 7}, {1, 7, 3}};
    for (const auto& f : faces)
        in.indices.insert(in.indices.end(), {f[0], f[1], f[2]});
    BakeDef def = defaultBakeDef();
    def.cellSize = 0.25f;
    def.tileSize = tileSize;
    def.threads = 1;
    auto baked = bakeNavMesh(in, def);
    REQUIRE(baked.ok());
    return std::move(baked.value().mesh);
}

size_t countPixels(const Image& img, uint32_t rgba)
{
    size_t n = 0;
    for (int y = 0; y < img.height; ++y)
        for (int x = 0; x < img.width; ++x)
            n += pixel(img, x, y) == rgba ? 1 : 0;
    return n;
}

} // namespace

TEST_CASE("tile borders are drawn faintly on a mesh of several tiles, never on one tile or an untiled mesh")
{
    DebugDrawDef def = defaultDebugDrawDef();
    def.width = 200;
    def.height = 200;
    def.hasBounds = true;
    def.minX = -1.0f;
    def.minZ = -1.0f;
    def.maxX = 9.0f;
    def.maxZ = 9.0f;
    const NavMesh tiled = bakedFloor(16); // 4 m tiles: the seams x = 4 and z = 4 cross the floor
    REQUIRE(tiled.tiles().size() == 4);
    auto img = drawNavMeshDebug(tiled, {}, def);
    REQUIRE(img.ok());
    // x = 4 m is pixel column 100 (20 px per metre from -1 m): dashes of the border colour along it.
    size_t onSeam = 0;
    for (int y = 40; y < 160; ++y)
        onSeam += pixel(img.value(), 100, y) == kDebugTileBorder ? 1 : 0;
    CHECK(onSeam > 30);  // dashed: 3 on, 5 off
    CHECK(onSeam < 100);
    CHECK(pixel(img.value(), 60, 60) != kDebugTileBorder); // inside a tile: the floor
    const NavMesh oneTile = bakedFloor(64);
    REQUIRE(oneTile.tiles().size() == 1);
    auto single = drawNavMeshDebug(oneTile, {}, def);
    REQUIRE(single.ok());
    CHECK(countPixels(single.value(), kDebugTileBorder) == 0);
    auto whole = drawNavMeshDebug(bakedFloor(0), {}, def);
    REQUIRE(whole.ok());
    CHECK(countPixels(whole.value(), kDebugTileBorder) == 0);
}
