// Tests of the tiled bake (libnav/src/bake/tiles.cpp): the tile table, a tile's
// independence from what lies outside its bordered box, thread counts, and the
// seams: paths, raycasts and corridors across tile edges and corners against
// the untiled bake of the same level and against straight lines on open ground.

#include "bake_test_util.h"

#include "spark/core/rng.h"
#include "spark/core/work.h"
#include "spark/nav/corridor.h"
#include "spark/nav/nav_world.h"
#include "spark/nav/query.h"
#include "spark/scene/model_obj.h"

#include <doctest/doctest.h>

#include <glm/geometric.hpp>

#include <cstdio>

using namespace spark;
using namespace spark::nav;
using namespace spark::nav::test;

namespace
{

/// Cells of 0.25 m (exact in binary), radius 0.5 m (two cells), no simplification:
/// the tiled and the untiled bake then cover the same cells with exact outlines.
BakeDef seamDef(int tileSize)
{
    BakeDef d = testDef();
    d.cellSize = 0.25f;
    d.agentRadius = 0.5f;
    d.maxSimplificationError = 0.0f;
    d.tileSize = tileSize;
    d.threads = 2;
    return d;
}

/// A 32 m × 32 m floor (top at y = 0, from the origin: 128 cells a side, 4 × 4
/// tiles of 32 cells) with pillars, some across tile edges and on a tile corner.
/// The pillars are 1.5 m tall: lower than an agent, so neither their tops nor
/// the floor inside their hollow boxes is walkable.
/// Two specks too small to stand on widen the bounds by 2.5 m, so the untiled
/// grid has empty cells round the floor as the tiles' borders do (at a grid's
/// edge the voxeliser puts the floor's sides into the floor's own columns).
BakeInput pillarHall(bool pillars)
{
    BakeInput in;
    addBox(in, {0.0f, -0.5f, 0.0f}, {32.0f, 0.0f, 32.0f});
    addBox(in, {-2.5f, -0.5f, -2.5f}, {-2.25f, -0.4f, -2.25f});
    addBox(in, {34.25f, -0.5f, 34.25f}, {34.5f, -0.4f, 34.5f});
    if (!pillars)
        return in;
    addBox(in, {7.0f, 0.0f, 7.0f}, {9.0f, 1.5f, 9.0f});     // on the corner of four tiles
    addBox(in, {15.5f, 0.0f, 3.0f}, {16.5f, 1.5f, 13.0f});  // along the seam x = 16
    addBox(in, {3.0f, 0.0f, 23.75f}, {12.0f, 1.5f, 24.5f}); // across the seam z = 24
    addBox(in, {20.0f, 0.0f, 20.0f}, {22.0f, 1.5f, 22.0f}); // inside one tile
    addBox(in, {26.0f, 0.0f, 5.0f}, {27.0f, 1.5f, 17.0f});  // across the seams z = 8 and 16
    return in;
}

NavMesh bakeMesh(const BakeInput& in, const BakeDef& def)
{
    auto baked = bakeNavMesh(in, def);
    REQUIRE_MESSAGE(baked.ok(), baked.error().message);
    return std::move(baked.value().mesh);
}

/// True when polygon p of the mesh lies inside its tile's square (x–z).
bool insideTile(const NavMesh& mesh, uint32_t p, const NavTile& t)
{
    const double side = double(mesh.tileSize()) * mesh.settings().cellSize;
    const Bounds3& b = mesh.polygonBounds(p);
    return b.min.x >= t.x * side - 1e-4 && b.max.x <= (t.x + 1) * side + 1e-4 && b.min.z >= t.z * side - 1e-4 &&
           b.max.z <= (t.z + 1) * side + 1e-4;
}

/// A point of the hall's floor at least `margin` from its edge, drawn from `rng`.
glm::vec3 floorPoint(Rng& rng, float margin)
{
    const float side = 32.0f - 2.0f * margin;
    const float x = margin + side * float(rngNextDouble(rng));
    return {x, 0.0f, margin + side * float(rngNextDouble(rng))};
}

/// Paths between 300 seeded pairs of floor points on the untiled and the tiled
/// mesh: `check(whole's, tiled's)` for every pair the untiled mesh finds (the
/// others start or end inside a pillar's eroded ring). With `sameCells` the
/// tiled mesh covers the untiled one's cells exactly and must find them too;
/// otherwise pairs it does not find (an outline a cell away) are passed over.
template <class F>
void forPathPairs(const NavMesh& whole, const NavMesh& tiled, uint64_t seed, float margin, bool sameCells, F&& check)
{
    QueryScratch scratch;
    Rng rng = rngFromSeed(seed);
    const glm::vec3 ext(0.1f, 2.0f, 0.1f);
    for (int i = 0; i < 300; ++i)
    {
        const glm::vec3 a = floorPoint(rng, margin);
        const glm::vec3 b = floorPoint(rng, margin);
        PathResult pw, pt;
        if (!findPath(whole, scratch, a, b, defaultQueryFilter(), ext, pw).ok())
            continue;
        const bool found = findPath(tiled, scratch, a, b, defaultQueryFilter(), ext, pt).ok();
        if (sameCells)
            REQUIRE(found);
        if (found)
            check(pw, pt);
    }
}

float pathLength(const NavMesh& mesh, QueryScratch& scratch, glm::vec3 a, glm::vec3 b, bool* complete = nullptr)
{
    PathResult path;
    const Status s = findPath(mesh, scratch, a, b, defaultQueryFilter(), glm::vec3(1.0f, 2.0f, 1.0f), path);
    REQUIRE_MESSAGE(s.ok(), s.error().message);
    if (complete)
        *complete = path.complete;
    return path.length;
}

/// The polygons of an uncarved mesh as the soup it was built from.
PolySoup soupOf(const NavMesh& mesh)
{
    PolySoup soup;
    for (uint32_t v = 0; v < mesh.vertexCount(); ++v)
        soup.vertices.push_back(mesh.vertex(v));
    soup.polyStarts.push_back(0);
    for (uint32_t p = 0; p < mesh.polygonCount(); ++p)
    {
        const auto idx = mesh.polygonIndices(p);
        soup.indices.insert(soup.indices.end(), idx.begin(), idx.end());
        soup.polyStarts.push_back(static_cast<uint32_t>(soup.indices.size()));
        soup.areas.push_back(mesh.area(p));
    }
    return soup;
}

} // namespace

TEST_CASE("a tiled bake gives a tile table in tile order whose polygons stay in their tiles")
{
    const NavMesh mesh = bakeMesh(pillarHall(true), seamDef(32));
    REQUIRE(mesh.tiled());
    CHECK(mesh.tileSize() == 32);
    REQUIRE(mesh.tiles().size() == 16); // 4 × 4 tiles hold polygons; the border-only ones and the specks' none
    uint32_t polygons = 0;
    for (size_t i = 0; i < mesh.tiles().size(); ++i)
    {
        const NavTile& t = mesh.tiles()[i];
        CHECK(t.x == int32_t(i % 4));
        CHECK(t.z == int32_t(i / 4));
        CHECK(t.firstPolygon == polygons);
        polygons += t.polygonCount;
        CHECK(t.hash == hashNavTile(mesh, uint32_t(i)));
        for (uint32_t p = t.firstPolygon; p < t.firstPolygon + t.polygonCount; ++p)
        {
            CHECK(insideTile(mesh, p, t));
            CHECK(mesh.tileOfPolygon(p) == i);
        }
    }
    CHECK(polygons == mesh.polygonCount());
    CHECK(mesh.tileOfPolygon(mesh.polygonCount()) == kNoPolygon);
    // Links cross the seams: the whole floor is one connected piece (the pillars' tops are islands).
    int floor = 0;
    for (uint32_t p = 0; p < mesh.polygonCount(); ++p)
        if (mesh.polygonBounds(p).max.y < 0.5f)
        {
            CHECK(mesh.component(p) == 0);
            ++floor;
        }
    CHECK(floor > 40);
}

TEST_CASE("the tiled bake covers the untiled bake's walkable area")
{
    const BakeInput in = pillarHall(true);
    const NavMesh tiled = bakeMesh(in, seamDef(32));
    const NavMesh whole = bakeMesh(in, seamDef(0));
    CHECK_FALSE(whole.tiled());
    CHECK(tiled.totalArea() == doctest::Approx(whole.totalArea()).epsilon(1e-6));
}

TEST_CASE("a tile's hash depends only on the geometry inside its bordered box")
{
    const BakeDef def = seamDef(32);
    BakeInput in = pillarHall(true);
    const NavMesh before = bakeMesh(in, def);
    // A box in tile (3, 3), farther than the border (2 + 3 cells) from the other tiles.
    addBox(in, {28.0f, 0.0f, 28.0f}, {29.0f, 1.0f, 29.0f});
    const NavMesh after = bakeMesh(in, def);
    REQUIRE(after.tiles().size() == before.tiles().size());
    for (size_t i = 0; i + 1 < before.tiles().size(); ++i)
        CHECK(after.tiles()[i].hash == before.tiles()[i].hash);
    CHECK(after.tiles().back().hash != before.tiles().back().hash);
    CHECK(hashNavMesh(after) != hashNavMesh(before));

    // Only the geometry of tile (0, 0)'s bordered box: that tile bakes the same.
    BakeInput corner;
    addBox(corner, {0.0f, -0.5f, 0.0f}, {9.25f, 0.0f, 9.25f});
    addBox(corner, {7.0f, 0.0f, 7.0f}, {9.0f, 1.5f, 9.0f});
    const NavMesh alone = bakeMesh(corner, def);
    REQUIRE(alone.tiles().size() >= 1);
    CHECK(alone.tiles()[0].x == 0);
    CHECK(alone.tiles()[0].z == 0);
    CHECK(alone.tiles()[0].hash == before.tiles()[0].hash);
}

TEST_CASE("1, 2 and 7 threads bake the same tiles bit for bit (pinned hash)")
{
    const BakeInput in = pillarHall(true);
    std::vector<uint64_t> hashes;
    NavMesh first;
    for (int threads : {1, 2, 7})
    {
        BakeDef def = seamDef(16);
        def.threads = threads;
        const NavMesh mesh = bakeMesh(in, def);
        if (threads == 1)
            first = mesh;
        REQUIRE(mesh.tiles().size() == first.tiles().size());
        for (size_t i = 0; i < mesh.tiles().size(); ++i)
            CHECK(mesh.tiles()[i].hash == first.tiles()[i].hash);
        CHECK(serializeNavMesh(mesh) == serializeNavMesh(first));
        hashes.push_back(hashNavMesh(mesh));
    }
    CHECK(hashes[1] == hashes[0]);
    CHECK(hashes[2] == hashes[0]);
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hashes[0]));
    CHECK(std::string(text) == "c2ba4626961efcb6");
}

TEST_CASE("the mesh hash is a hash over the tile hashes in tile order")
{
    const NavMesh mesh = bakeMesh(pillarHall(true), seamDef(32));
    // Rebuilt from its soup with one tile's polygons moved to another's range: refused.
    std::vector<NavTile> tiles(mesh.tiles().begin(), mesh.tiles().end());
    const PolySoup soup = soupOf(mesh);
    const NavMeshDef def = navMeshDefFromBake(seamDef(32), false); // as the bake built it
    auto again = buildTiledNavMesh(soup, def, mesh.tileSize(), tiles);
    REQUIRE(again.ok());
    CHECK(hashNavMesh(again.value()) == hashNavMesh(mesh));
    std::swap(tiles[0].x, tiles[1].x);
    auto swapped = buildTiledNavMesh(soup, def, mesh.tileSize(), tiles);
    REQUIRE_FALSE(swapped.ok());
    CHECK(swapped.error().code == "E_NAV_FORMAT");
    CHECK(swapped.error().field == "/tiles/1");
    tiles = std::vector<NavTile>(mesh.tiles().begin(), mesh.tiles().end());
    tiles[2].polygonCount += 1;
    auto overlapping = buildTiledNavMesh(soup, def, mesh.tileSize(), tiles);
    REQUIRE_FALSE(overlapping.ok());
    CHECK(overlapping.error().code == "E_NAV_FORMAT");
    auto noTiles = buildTiledNavMesh(soup, def, mesh.tileSize(), {});
    CHECK_FALSE(noTiles.ok());
    auto badSize = buildTiledNavMesh(soup, def, 0, tiles);
    CHECK_FALSE(badSize.ok());
}

TEST_CASE("a tiled mesh survives serialisation with its tiles and hash")
{
    const NavMesh mesh = bakeMesh(pillarHall(true), seamDef(32));
    const std::vector<uint8_t> bytes = serializeNavMesh(mesh);
    auto back = deserializeNavMesh(bytes);
    REQUIRE(back.ok());
    CHECK(back.value().tiles().size() == mesh.tiles().size());
    CHECK(hashNavMesh(back.value()) == hashNavMesh(mesh));
    CHECK(serializeNavMesh(back.value()) == bytes);
    // A cut tile table is refused, not misread.
    std::vector<uint8_t> cut(bytes.begin(), bytes.end() - 5);
    auto bad = deserializeNavMesh(cut);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().code == "E_NAV_FORMAT");
}

TEST_CASE("tile settings out of their limits are E_NAV_CONFIG naming the field")
{
    const BakeInput in = pillarHall(false);
    BakeDef def = seamDef(4);
    auto small = bakeTriangles(in, def);
    REQUIRE_FALSE(small.ok());
    CHECK(small.error().code == "E_NAV_CONFIG");
    CHECK(small.error().field == "/tile_size");
    def = seamDef(4096);
    CHECK(bakeTriangles(in, def).error().field == "/tile_size");
    def = seamDef(32);
    def.threads = -1;
    CHECK(bakeTriangles(in, def).error().field == "/threads");
    def.threads = 257;
    CHECK(bakeTriangles(in, def).error().field == "/threads");
}

TEST_CASE("a tiled bake needs no grid over the whole bounds: two floors 3 km apart bake into two tiles")
{
    BakeInput in;
    addBox(in, {0.0f, -0.5f, 0.0f}, {4.0f, 0.0f, 4.0f});
    addBox(in, {3000.0f, -0.5f, 2000.0f}, {3004.0f, 0.0f, 2004.0f});
    BakeDef whole = seamDef(0);
    auto refused = bakeTriangles(in, whole);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().code == "E_NAV_LIMIT");
    const NavMesh mesh = bakeMesh(in, seamDef(64));
    REQUIRE(mesh.tiles().size() == 2);
    CHECK(mesh.tiles()[0].x == 0);
    CHECK(mesh.tiles()[1].x == 187); // 3000 m / (64 × 0.25 m)
    CHECK(mesh.tiles()[1].z == 125);
}

TEST_CASE("tiles far apart (bucketed by sorting, not counting) bake as each alone does")
{
    // 64 km apart at tiles of 64 x 0.25 m: ~8 million tiles in the union
    // box of two, so the bucketing sorts its pairs instead of counting per tile.
    BakeInput near, far, both;
    addBox(near, {0.0f, -0.5f, 0.0f}, {20.0f, 0.0f, 20.0f});
    addBox(near, {7.0f, 0.0f, 7.0f}, {9.0f, 1.5f, 9.0f});
    addBox(far, {50000.0f, -0.5f, 40000.0f}, {50020.0f, 0.0f, 40020.0f});
    addBox(far, {50011.0f, 0.0f, 40013.0f}, {50012.0f, 2.0f, 40014.0f});
    addBox(both, {0.0f, -0.5f, 0.0f}, {20.0f, 0.0f, 20.0f});
    addBox(both, {50000.0f, -0.5f, 40000.0f}, {50020.0f, 0.0f, 40020.0f});
    addBox(both, {7.0f, 0.0f, 7.0f}, {9.0f, 1.5f, 9.0f});
    addBox(both, {50011.0f, 0.0f, 40013.0f}, {50012.0f, 2.0f, 40014.0f});
    const NavMesh a = bakeMesh(near, seamDef(64));
    const NavMesh b = bakeMesh(far, seamDef(64));
    const NavMesh ab = bakeMesh(both, seamDef(64));
    REQUIRE(a.tiles().size() > 1);
    REQUIRE(b.tiles().size() > 1);
    REQUIRE(ab.tiles().size() == a.tiles().size() + b.tiles().size());
    for (size_t i = 0; i < a.tiles().size(); ++i)
    {
        CHECK(ab.tiles()[i].x == a.tiles()[i].x);
        CHECK(ab.tiles()[i].z == a.tiles()[i].z);
        CHECK(ab.tiles()[i].hash == a.tiles()[i].hash);
    }
    for (size_t i = 0; i < b.tiles().size(); ++i)
    {
        const NavTile& t = ab.tiles()[a.tiles().size() + i];
        CHECK(t.x == b.tiles()[i].x);
        CHECK(t.z == b.tiles()[i].z);
        CHECK(t.hash == b.tiles()[i].hash);
    }
}

TEST_CASE("no two polygons of a tile overlap where a one-cell island touches a long wall at a corner (issue 33)")
{
    // The 102 triangles of the 4 km terrain (tools/terrain.py --size 4000)
    // round the spot of tile (26, 124) where, with 0.5 m cells and 64-cell
    // tiles, a one-cell region touches a region's sloped wall only at a
    // corner: the wall's simplified edge cut across the island and nav.import
    // refused the tile's document ("polygons 7 and 12 overlap").
    auto model = spark::scene::loadObj("tests/data/terrain4k-tile-26-124.obj");
    REQUIRE(model.ok());
    BakeInput in;
    in.vertices = model->vertices;
    in.indices = model->indices;
    in.oneSided = true; // as `spark bake` reads an OBJ
    BakeDef def = defaultBakeDef();
    def.cellSize = 0.5f;
    def.tileSize = 64;
    for (int threads : {1, 2})
    {
        def.threads = threads;
        const NavMesh mesh = bakeMesh(in, def);
        REQUIRE(mesh.tiles().size() == 1);
        CHECK(mesh.tiles()[0].x == 26);
        CHECK(mesh.tiles()[0].z == 124);
        CHECK(mesh.polygonCount() >= 10);
        // The import's own check: polygons share edges, never area.
        const Status overlaps = checkPolygonOverlaps(soupOf(mesh), navMeshDefFromBake(def, false));
        INFO((overlaps.ok() ? std::string() : overlaps.error().message));
        CHECK(overlaps.ok());
    }
}

TEST_CASE("subset bakes merged give the whole bake bit for bit")
{
    const BakeInput in = pillarHall(true);
    const NavMesh whole = bakeMesh(in, seamDef(32));
    BakeDef west = seamDef(32), east = seamDef(32), middle = seamDef(32);
    west.tileRange = TileRange{0, 1, 0, 3};
    east.tileRange = TileRange{2, 3, 0, 3};
    middle.tileRange = TileRange{1, 2, 1, 2};
    const NavMesh w = bakeMesh(in, west), e = bakeMesh(in, east), m = bakeMesh(in, middle);
    CHECK(w.tiles().size() == 8);
    CHECK(m.tiles().size() == 4);
    // Any order of parts, with tiles in two parts (the middle ones) taken once.
    const NavMesh* parts[] = {&e, &m, &w};
    auto merged = mergeTiledNavMeshes(parts);
    REQUIRE(merged.ok());
    CHECK(serializeNavMesh(merged.value()) == serializeNavMesh(whole));
    CHECK(hashNavMesh(merged.value()) == hashNavMesh(whole));
    // A subset alone is a valid mesh of its tiles, with the whole bake's tile hashes.
    CHECK(w.tiles()[0].hash == whole.tiles()[0].hash);
    CHECK(e.tiles()[0].hash == whole.tiles()[2].hash);

    // Refused: nothing to merge, an untiled part, another tile size, one tile two ways.
    CHECK(mergeTiledNavMeshes({}).error().code == "E_NAV_FORMAT");
    const NavMesh flat = bakeMesh(in, seamDef(0));
    const NavMesh* withFlat[] = {&w, &flat};
    CHECK(mergeTiledNavMeshes(withFlat).error().field == "/parts/1");
    const NavMesh other = bakeMesh(in, seamDef(16));
    const NavMesh* sizes[] = {&w, &other};
    CHECK(mergeTiledNavMeshes(sizes).error().field == "/parts/1");
    BakeInput changed = in;
    addBox(changed, {1.0f, 0.0f, 1.0f}, {2.0f, 1.5f, 2.0f});
    const NavMesh w2 = bakeMesh(changed, west);
    const NavMesh* clash[] = {&w, &w2};
    auto refused = mergeTiledNavMeshes(clash);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().code == "E_NAV_FORMAT");
    // A bad range is refused, and a range only of tiles with nothing walkable bakes nothing.
    BakeDef bad = seamDef(32);
    bad.tileRange = TileRange{2, 1, 0, 0};
    CHECK(bakeTriangles(in, bad).error().field == "/tiles");
    BakeDef untiled = seamDef(0);
    untiled.tileRange = TileRange{0, 0, 0, 0};
    CHECK(bakeTriangles(in, untiled).error().field == "/tiles");
    BakeDef empty = seamDef(32);
    empty.tileRange = TileRange{10, 12, 10, 12};
    CHECK(bakeTriangles(in, empty).error().code == "E_NAV_NO_GEOMETRY");
}

// --- Seams -------------------------------------------------------------------

TEST_CASE("on open ground paths across tile edges and corners are straight lines")
{
    const NavMesh mesh = bakeMesh(pillarHall(false), seamDef(32));
    QueryScratch scratch;
    Rng rng = rngFromSeed(7);
    for (int i = 0; i < 200; ++i)
    {
        // Anywhere on the eroded floor, off its edge: most pairs cross several seams.
        const glm::vec3 a = floorPoint(rng, 1.0f);
        const glm::vec3 b = floorPoint(rng, 1.0f);
        bool complete = false;
        const float length = pathLength(mesh, scratch, a, b, &complete);
        CHECK(complete);
        CHECK(length == doctest::Approx(glm::distance(a, b)).epsilon(1e-5));
    }
    // Exactly through the corner of four tiles, and along a seam.
    CHECK(pathLength(mesh, scratch, {4.0f, 0.0f, 4.0f}, {12.0f, 0.0f, 12.0f}) ==
          doctest::Approx(std::sqrt(128.0f)).epsilon(1e-6));
    CHECK(pathLength(mesh, scratch, {8.0f, 0.0f, 1.0f}, {8.0f, 0.0f, 31.0f}) == doctest::Approx(30.0f).epsilon(1e-6));
}

TEST_CASE("paths round pillars across seams are as long as on the untiled mesh")
{
    const BakeInput in = pillarHall(true);
    const NavMesh tiled = bakeMesh(in, seamDef(32));
    const NavMesh whole = bakeMesh(in, seamDef(0));
    int compared = 0;
    forPathPairs(whole, tiled, 11, 0.5f, true, [&](const PathResult& pw, const PathResult& pt) {
        CHECK(pt.complete == pw.complete);
        CHECK(pt.length == doctest::Approx(pw.length).epsilon(1e-5));
        ++compared;
    });
    CHECK(compared > 200);
}

TEST_CASE("with the default simplification no seam loses walkable ground and paths stay as short")
{
    // Simplification must not cut a corner where a region's outline leaves the
    // tile's edge for a wall: that leaves ground along the seam uncovered, and
    // paths round it (this failed with the seam treated as one wall stretch,
    // and with one stretch round a tile's corner).
    BakeInput in = pillarHall(true);
    addBox(in, {14.0f, 0.0f, 22.5f}, {15.0f, 1.5f, 23.6f}); // a wall ending 0.4 m short of the seam z = 24
    BakeDef tiledDef = seamDef(32), wholeDef = seamDef(0);
    tiledDef.maxSimplificationError = wholeDef.maxSimplificationError = defaultBakeDef().maxSimplificationError;
    const NavMesh tiled = bakeMesh(in, tiledDef);
    const NavMesh whole = bakeMesh(in, wholeDef);
    CHECK(tiled.totalArea() == doctest::Approx(whole.totalArea()).epsilon(0.01));
    double worst = 0.0;
    forPathPairs(whole, tiled, 3, 1.0f, false, [&](const PathResult& pw, const PathResult& pt) {
        worst = std::max(worst, double(pt.length) - pw.length);
    });
    // Outlines within 1.3 cells of the cells either way: a detour of a few such steps at most.
    CHECK(worst < 0.5);
}

TEST_CASE("raycasts cross seams on open ground and stop at the same walls as on the untiled mesh")
{
    const BakeInput in = pillarHall(true);
    const NavMesh tiled = bakeMesh(in, seamDef(32));
    const NavMesh whole = bakeMesh(in, seamDef(0));
    QueryScratch scratch;
    const glm::vec3 ext(0.1f, 2.0f, 0.1f);
    // Along z = 14 from x = 1 to x = 14: crosses the seam x = 8 with nothing in the way.
    auto clear = raycast(tiled, scratch, {1.0f, 0.0f, 14.0f}, {14.0f, 0.0f, 14.0f}, defaultQueryFilter(), ext);
    REQUIRE(clear.ok());
    CHECK_FALSE(clear.value().hit);
    // Diagonal through the corner (16, 24) of four tiles: clear too.
    auto corner = raycast(tiled, scratch, {14.0f, 0.0f, 26.0f}, {18.0f, 0.0f, 22.0f}, defaultQueryFilter(), ext);
    REQUIRE(corner.ok());
    CHECK_FALSE(corner.value().hit);
    Rng rng = rngFromSeed(5);
    for (int i = 0; i < 200; ++i)
    {
        const glm::vec3 a = floorPoint(rng, 0.5f);
        const glm::vec3 b = floorPoint(rng, 0.5f);
        auto w = raycast(whole, scratch, a, b, defaultQueryFilter(), ext);
        if (!w.ok())
            continue;
        auto t = raycast(tiled, scratch, a, b, defaultQueryFilter(), ext);
        REQUIRE(t.ok());
        CHECK(t.value().hit == w.value().hit);
        CHECK(t.value().fraction == doctest::Approx(w.value().fraction).epsilon(1e-4));
    }
}

TEST_CASE("a corridor planned across seams is walked to its target")
{
    const NavMesh mesh = bakeMesh(pillarHall(true), seamDef(32));
    QueryScratch scratch;
    Corridor corridor;
    const glm::vec3 start(2.0f, 0.0f, 2.0f), goal(30.0f, 0.0f, 30.0f);
    REQUIRE(planCorridor(mesh, scratch, start, goal, defaultQueryFilter(), glm::vec3(1.0f, 2.0f, 1.0f), corridor).ok());
    REQUIRE(corridor.complete);
    std::vector<uint32_t> tilesCrossed;
    for (uint32_t p : corridor.polygons)
        if (tilesCrossed.empty() || tilesCrossed.back() != mesh.tileOfPolygon(p))
            tilesCrossed.push_back(mesh.tileOfPolygon(p));
    CHECK(tilesCrossed.size() >= 4);
    CHECK(checkCorridor(mesh, corridor, defaultQueryFilter()));
    // Walk it in steps of 0.3 m toward the next corner.
    std::vector<CorridorCorner> corners;
    int steps = 0;
    while (steps < 1000)
    {
        REQUIRE(findCorridorCorners(mesh, scratch, corridor, 2, corners).ok());
        if (corners.empty())
            break; // within a millimetre of the target
        const glm::vec3 to = corners[0].point - corridor.position;
        const float d = glm::length(to);
        const glm::vec3 wanted = d <= 0.3f ? corners[0].point : corridor.position + to * (0.3f / d);
        REQUIRE(moveCorridor(mesh, scratch, corridor, wanted, defaultQueryFilter()).ok());
        ++steps;
    }
    CHECK(steps > 90); // about 40 m in steps of 0.3 m
    CHECK(glm::distance(glm::vec2(corridor.position.x, corridor.position.z), glm::vec2(goal.x, goal.z)) <= 2e-3f);
    CHECK(corridor.polygons.size() == 1);
    CHECK(mesh.tileOfPolygon(corridor.polygons[0]) == mesh.tiles().size() - 1);
}

// --- Per-tile re-bake ----------------------------------------------------------

TEST_CASE("a per-tile re-bake after a change equals the full bake of the changed scene bit for bit")
{
    const BakeInput before = pillarHall(true);
    const BakeDef def = seamDef(32);
    const NavMesh old = bakeMesh(before, def);
    // A new pillar across the seam x = 16 (tiles 0 and 1 of row 0).
    BakeInput after = before;
    addBox(after, {15.0f, 0.0f, 1.0f}, {17.0f, 1.5f, 2.0f});
    const Bounds3 changed{{15.0f, 0.0f, 1.0f}, {17.0f, 1.5f, 2.0f}};
    auto rebaked = rebakeNavMeshTiles(old, after, def, changed);
    REQUIRE_MESSAGE(rebaked.ok(), rebaked.error().message);
    const NavMesh full = bakeMesh(after, def);
    CHECK(serializeNavMesh(rebaked.value().mesh) == serializeNavMesh(full));
    CHECK(hashNavMesh(rebaked.value().mesh) == hashNavMesh(full));
    CHECK(hashNavMesh(full) != hashNavMesh(old));
    // Only the tiles whose bordered boxes (6 cells = 1.5 m past the 8 m
    // tiles, with the bucketing's extra cell) meet the change were baked:
    // columns 1 and 2 of rows -1 and 0; row -1 has nothing walkable.
    const NavTileBox& t = rebaked.value().tiles;
    CHECK(t.x0 == 1);
    CHECK(t.x1 == 2);
    CHECK(t.z0 == -1);
    CHECK(t.z1 == 0);
    CHECK(rebaked.value().stats.tiles == 2);
    // The other tiles are the old ones.
    REQUIRE(full.tiles().size() == old.tiles().size());
    for (uint32_t i = 0; i < full.tiles().size(); ++i)
        if (full.tiles()[i].z != 0 || full.tiles()[i].x < 1 || full.tiles()[i].x > 2)
            CHECK(full.tiles()[i].hash == old.tiles()[i].hash);

    // Removing the pillar again and re-baking the same bounds gives back the old mesh.
    auto back = rebakeNavMeshTiles(rebaked.value().mesh, before, def, changed);
    REQUIRE(back.ok());
    CHECK(serializeNavMesh(back.value().mesh) == serializeNavMesh(old));

    // A floor added far away makes new tiles; bounds that meet no tile of the range change nothing.
    BakeInput grown = before;
    addBox(grown, {40.0f, -0.5f, 0.0f}, {48.0f, 0.0f, 8.0f});
    auto added = rebakeNavMeshTiles(old, grown, def, Bounds3{{40.0f, -0.5f, 0.0f}, {48.0f, 0.0f, 8.0f}});
    REQUIRE(added.ok());
    CHECK(serializeNavMesh(added.value().mesh) == serializeNavMesh(bakeMesh(grown, def)));
    CHECK(added.value().mesh.tiles().size() > old.tiles().size());
    BakeDef ranged = def;
    ranged.tileRange = TileRange{0, 1, 0, 1};
    auto outside = rebakeNavMeshTiles(old, after, ranged, Bounds3{{30.0f, 0.0f, 30.0f}, {31.0f, 1.0f, 31.0f}});
    REQUIRE(outside.ok());
    CHECK(outside.value().stats.tiles == 0);
    CHECK(serializeNavMesh(outside.value().mesh) == serializeNavMesh(old));

    // Refused, naming the field: an untiled mesh, other settings, bad bounds.
    const NavMesh flat = bakeMesh(before, seamDef(0));
    CHECK(rebakeNavMeshTiles(flat, after, def, changed).error().field == "/tile_size");
    BakeDef otherRadius = def;
    otherRadius.agentRadius = 0.75f;
    CHECK(rebakeNavMeshTiles(old, after, otherRadius, changed).error().field == "/mesh");
    Bounds3 inverted = changed;
    std::swap(inverted.min, inverted.max);
    CHECK(rebakeNavMeshTiles(old, after, def, inverted).error().field == "/bounds");
}

TEST_CASE("a world's per-tile re-bake keeps agents, obstacles and links; only corridors through changed tiles re-plan")
{
    const BakeInput before = pillarHall(true);
    const BakeDef def = seamDef(32);
    NavWorld world;
    MeshDef md = defaultMeshDef();
    md.name = "hall";
    md.source = "test";
    md.bake = def;
    md.mesh = std::make_shared<const NavMesh>(bakeMesh(before, def));
    const MeshId mesh = world.putMesh(md).value();
    // Agent a walks along the far row of tiles; agent b along the near row, through where a pillar will stand.
    CrowdAgentDef ad;
    ad.position = {2.0f, 0.0f, 29.0f};
    const AgentId a = world.addAgent(mesh, ad).value();
    ad.position = {12.0f, 0.0f, 1.5f};
    const AgentId b = world.addAgent(mesh, ad).value();
    REQUIRE(world.setAgentTarget(a, {30.0f, 0.0f, 30.0f}).ok());
    REQUIRE(world.setAgentTarget(b, {20.0f, 0.0f, 1.5f}).ok());
    ObstacleDef od = defaultObstacleDef();
    od.position = {4.0f, 0.0f, 12.0f}; // far from the change
    REQUIRE(world.addObstacle(mesh, od).ok());
    OffMeshLinkDef ld = defaultOffMeshLinkDef();
    ld.start = {28.0f, 0.0f, 12.0f};
    ld.end = {28.0f, 0.0f, 14.0f};
    REQUIRE(world.addOffMeshLink(mesh, ld).ok());
    REQUIRE(world.stepCrowds(0.1).ok());
    std::vector<PolyRef> refsA, refsB;
    for (uint32_t p : world.agent(a)->corridor.polygons)
        refsA.push_back(world.polyRef(mesh, p).value());
    for (uint32_t p : world.agent(b)->corridor.polygons)
        refsB.push_back(world.polyRef(mesh, p).value());
    const std::vector<uint32_t> corridorB = world.agent(b)->corridor.polygons;

    BakeInput after = before;
    addBox(after, {15.0f, 0.0f, 0.5f}, {17.0f, 1.5f, 2.5f});
    const Bounds3 changed{{15.0f, 0.0f, 0.5f}, {17.0f, 1.5f, 2.5f}};
    auto rebaked = world.rebakeMeshTiles(mesh, after, changed);
    REQUIRE_MESSAGE(rebaked.ok(), rebaked.error().message);
    CHECK(rebaked.value().stats.tiles == 2);
    // The baked mesh is the full bake of the changed scene; obstacle, link and agents stayed.
    const NavMesh full = bakeMesh(after, def);
    CHECK(world.meshRecord(mesh)->baseHash == hashNavMesh(full));
    CHECK(serializeNavMesh(*world.meshRecord(mesh)->baked) == serializeNavMesh(full));
    CHECK(world.obstacleCount() == 1);
    CHECK(world.offMeshLinksInOrder().size() == 1);
    CHECK(world.agentCount() == 2);
    // a's corridor lies in tiles left as they were: its references still resolve, to its renumbered polygons.
    const std::vector<uint32_t>& corridorA = world.agent(a)->corridor.polygons;
    REQUIRE(corridorA.size() == refsA.size());
    for (size_t i = 0; i < refsA.size(); ++i)
    {
        auto resolved = world.resolvePoly(mesh, refsA[i]);
        REQUIRE(resolved.ok());
        CHECK(resolved.value() == corridorA[i]);
    }
    // b's corridor crossed a re-baked tile: references into it are stale.
    size_t stale = 0;
    for (const PolyRef& r : refsB)
        if (!world.resolvePoly(mesh, r).ok())
        {
            CHECK(world.resolvePoly(mesh, r).error().code == "E_NAV_STALE_POLY");
            ++stale;
        }
    CHECK(stale > 0);
    // A step keeps a's corridor (only its front trims as it walks) and re-plans b's round the new pillar.
    const std::vector<uint32_t> keptA = corridorA;
    REQUIRE(world.stepCrowds(0.1).ok());
    const std::vector<uint32_t>& stepA = world.agent(a)->corridor.polygons;
    REQUIRE(stepA.size() <= keptA.size());
    CHECK(std::equal(stepA.begin(), stepA.end(), keptA.end() - static_cast<std::ptrdiff_t>(stepA.size())));
    const CrowdAgent& nb = *world.agent(b);
    CHECK(nb.state == AgentState::Moving);
    CHECK(nb.corridor.complete);
    CHECK(nb.corridor.polygons != corridorB);
    CHECK(checkCorridor(*world.mesh(mesh), nb.corridor, defaultQueryFilter()));

    // Refused, nothing changed: a mesh baked elsewhere, a stale handle, bad bounds.
    MeshDef imported = md;
    imported.name = "imported";
    imported.bake.reset();
    const MeshId other = world.putMesh(imported).value();
    CHECK(world.rebakeMeshTiles(other, after, changed).error().field == "/mesh");
    REQUIRE(world.removeMesh(other).ok());
    const uint64_t hash = world.hashState();
    CHECK(world.rebakeMeshTiles(other, after, changed).error().code == "E_NAV_NO_MESH");
    Bounds3 inverted = changed;
    std::swap(inverted.min, inverted.max);
    CHECK(world.rebakeMeshTiles(mesh, after, inverted).error().field == "/bounds");
    CHECK(world.hashState() == hash);
}

TEST_CASE("carving across tile edges and corners cuts every tile it meets, and removing it restores the tiles bit for bit")
{
    const BakeDef def = seamDef(32);
    NavWorld world;
    MeshDef md = defaultMeshDef();
    md.name = "hall";
    md.mesh = std::make_shared<const NavMesh>(bakeMesh(pillarHall(false), def));
    const MeshId mesh = world.putMesh(md).value();
    const std::vector<uint8_t> baked = serializeNavMesh(*md.mesh);
    const uint64_t base = world.meshRecord(mesh)->baseHash;
    // A box across the seam x = 8 and a circle on the corner of four tiles (16, 16).
    ObstacleDef across = defaultObstacleDef();
    across.shape.shape = FootprintShape::Box;
    across.shape.halfExtents = {1.0f, 3.0f};
    across.position = {8.0f, 0.0f, 4.0f};
    ObstacleDef corner = defaultObstacleDef();
    corner.shape.radius = 1.0f;
    corner.position = {16.0f, 0.0f, 16.0f};
    const ObstacleId a = world.addObstacle(mesh, across).value();
    const ObstacleId c = world.addObstacle(mesh, corner).value();
    const NavMesh& carved = *world.mesh(mesh);
    // Every tile under a footprint lost polygons to it: the carved base polygons lie in 2 + 4 tiles.
    std::vector<uint32_t> tilesCut;
    for (uint32_t p = 0; p < md.mesh->polygonCount(); ++p)
        if (carved.disabled(p))
            tilesCut.push_back(md.mesh->tileOfPolygon(p));
    std::sort(tilesCut.begin(), tilesCut.end());
    tilesCut.erase(std::unique(tilesCut.begin(), tilesCut.end()), tilesCut.end());
    CHECK(tilesCut.size() == 6);
    // Paths go round both, across the seams, and keep out of the grown footprints.
    QueryScratch scratch;
    PathResult path;
    // (The box, grown by 0.5 m, closes z 0.5 .. 7.5: the way round is past z = 7.5.)
    REQUIRE(findPath(carved, scratch, {5.0f, 0.0f, 4.0f}, {11.0f, 0.0f, 4.0f}, defaultQueryFilter(),
                     glm::vec3(0.5f, 2.0f, 0.5f), path)
                .ok());
    CHECK(path.complete);
    CHECK(path.length > 9.0f);
    REQUIRE(findPath(carved, scratch, {13.0f, 0.0f, 13.0f}, {19.0f, 0.0f, 19.0f}, defaultQueryFilter(),
                     glm::vec3(0.5f, 2.0f, 0.5f), path)
                .ok());
    CHECK(path.complete);
    CHECK(path.length > std::sqrt(72.0f) + 0.05f);
    // Moved across another corner and back, then removed: the baked tiles again, bit for bit.
    REQUIRE(world.moveObstacle(c, {8.0f, 0.0f, 8.0f}).ok());
    REQUIRE(world.moveObstacle(c, {16.0f, 0.0f, 16.0f}).ok());
    REQUIRE(world.removeObstacle(a).ok());
    CHECK(hashNavMesh(*world.mesh(mesh)) != base);
    REQUIRE(world.removeObstacle(c).ok());
    CHECK(hashNavMesh(*world.mesh(mesh)) == base);
    CHECK(serializeNavMesh(*world.mesh(mesh)) == baked);
    REQUIRE(world.mesh(mesh)->tiles().size() == md.mesh->tiles().size());
    for (uint32_t t = 0; t < md.mesh->tiles().size(); ++t)
        CHECK(hashNavTile(*world.mesh(mesh), t) == md.mesh->tiles()[t].hash);
}

TEST_CASE("unloading tiles and loading their documents again restores the mesh and its hash; refs into them go stale")
{
    const BakeInput in = pillarHall(true);
    const BakeDef def = seamDef(32);
    NavWorld world;
    MeshDef md = defaultMeshDef();
    md.name = "hall";
    md.bake = def;
    md.mesh = std::make_shared<const NavMesh>(bakeMesh(in, def));
    const MeshId mesh = world.putMesh(md).value();
    const uint64_t base = world.meshRecord(mesh)->baseHash;
    // A reference into tile (1, 1) and one into tile (0, 0).
    const glm::vec3 inside(12.0f, 0.0f, 12.0f), home(2.0f, 0.0f, 2.0f);
    const glm::vec3 ext(0.5f, 2.0f, 0.5f);
    const PolyRef far = world.polyRef(mesh, findNearest(*world.mesh(mesh), inside, ext).value().polygon).value();
    const PolyRef near = world.polyRef(mesh, findNearest(*world.mesh(mesh), home, ext).value().polygon).value();

    const std::array<int32_t, 2> gone[] = {{1, 1}, {3, 3}};
    REQUIRE(world.unloadTiles(mesh, gone).ok());
    CHECK(world.mesh(mesh)->tiles().size() == md.mesh->tiles().size() - 2);
    CHECK(world.tileUnloaded(mesh, inside));
    CHECK_FALSE(world.tileUnloaded(mesh, home));
    CHECK(world.resolvePoly(mesh, far).error().code == "E_NAV_STALE_POLY");
    CHECK(world.resolvePoly(mesh, near).ok()); // tile (0, 0) kept its place and content
    CHECK_FALSE(findNearest(*world.mesh(mesh), inside, ext).ok());

    // The tile documents: subset bakes of the two tiles, loaded one after the other.
    BakeDef one = def, other = def;
    one.tileRange = TileRange{1, 1, 1, 1};
    other.tileRange = TileRange{3, 3, 3, 3};
    const NavMesh tileA = bakeMesh(in, one), tileB = bakeMesh(in, other);
    REQUIRE(world.loadTiles(mesh, tileA).ok());
    CHECK_FALSE(world.tileUnloaded(mesh, inside));
    REQUIRE(world.loadTiles(mesh, tileB).ok());
    CHECK(world.meshRecord(mesh)->baseHash == base);
    CHECK(serializeNavMesh(*world.mesh(mesh)) == serializeNavMesh(*md.mesh));
    CHECK(world.meshRecord(mesh)->unloadedTiles.empty());
    CHECK(world.resolvePoly(mesh, far).error().code == "E_NAV_STALE_POLY"); // still stale after the reload

    // Refused, nothing changed: a tile not in the mesh, a tile of another tiling, every tile, an untiled mesh.
    MeshDef flat = defaultMeshDef();
    flat.name = "flat";
    flat.mesh = std::make_shared<const NavMesh>(bakeMesh(in, seamDef(0)));
    const MeshId flatId = world.putMesh(flat).value();
    const uint64_t hash = world.hashState();
    const std::array<int32_t, 2> missing[] = {{0, 0}, {9, 9}};
    CHECK(world.unloadTiles(mesh, missing).error().field == "/tiles/1");
    CHECK(world.loadTiles(mesh, bakeMesh(in, seamDef(16))).error().field == "/tiles");
    std::vector<std::array<int32_t, 2>> all;
    for (const NavTile& t : md.mesh->tiles())
        all.push_back({t.x, t.z});
    CHECK(world.unloadTiles(mesh, all).error().code == "E_NAV_NO_GEOMETRY");
    CHECK(world.unloadTiles(flatId, gone).error().field == "/mesh");
    CHECK(world.loadTiles(flatId, tileA).error().field == "/mesh");
    CHECK(world.hashState() == hash);
}

TEST_CASE("a tiled bake reports tiles finished and stops between tiles when cancelled, on 1 and 2 threads")
{
    const BakeInput in = pillarHall(true);
    for (int threads : {1, 2})
    {
        CAPTURE(threads);
        BakeDef def = seamDef(32);
        def.threads = threads;
        WorkControl control;
        uint64_t lastDone = 0, total = 0, reports = 0;
        control.setProgress([&](std::string_view stage, uint64_t done, uint64_t all) {
            if (stage != "bake: tiles")
                return;
            CHECK(done >= lastDone);
            lastDone = done;
            total = all;
            ++reports;
        });
        const NavMesh plain = bakeMesh(in, seamDef(32));
        {
            WorkScope scope(&control);
            auto whole = bakeNavMesh(in, def);
            REQUIRE(whole.ok());
            CHECK(serializeNavMesh(whole.value().mesh) == serializeNavMesh(plain));
        }
        CHECK(total >= 16);
        CHECK(reports >= 1);
        CHECK(lastDone <= total);
        // Cancelled at the first tile: the bake stops with E_CANCELLED.
        WorkControl cancel;
        cancel.setProgress([&](std::string_view stage, uint64_t, uint64_t) {
            if (stage == "bake: tiles")
                cancel.requestCancel();
        });
        WorkScope scope(&cancel);
        auto stopped = bakeNavMesh(in, def);
        REQUIRE_FALSE(stopped.ok());
        CHECK(stopped.error().code == "E_CANCELLED");
    }
}

TEST_CASE("a tiled bake fills closed solids as the one-grid bake does: no floor inside a tall box")
{
    // A box taller than an agent stands on the floor. Its inside is solid
    // (BakeInput::solids), so the floor under it is not walkable, one grid
    // or tiles; its top is, on both. The box crosses the seams x = 8 and z = 8.
    BakeInput in;
    addBox(in, {0.0f, -0.5f, 0.0f}, {16.0f, 0.0f, 16.0f});
    addBox(in, {6.0f, 0.0f, 6.0f}, {10.0f, 3.0f, 10.0f});
    in.solids = connectedTriangleRuns(in);
    REQUIRE(in.solids.size() == 2);
    for (int tileSize : {0, 32})
    {
        CAPTURE(tileSize);
        auto baked = bakeNavMesh(in, seamDef(tileSize));
        REQUIRE(baked.ok());
        const NavMesh& mesh = baked->mesh;
        int inside = 0, top = 0;
        for (uint32_t p = 0; p < mesh.polygonCount(); ++p)
        {
            glm::vec3 c(0.0f);
            for (uint32_t k = 0; k < mesh.polygonVertexCount(p); ++k)
                c += mesh.polygonVertex(p, k) / float(mesh.polygonVertexCount(p));
            const bool under = c.x > 6.0f && c.x < 10.0f && c.z > 6.0f && c.z < 10.0f;
            inside += under && c.y < 1.0f ? 1 : 0;
            top += under && c.y > 2.9f ? 1 : 0;
        }
        CHECK(inside == 0);
        CHECK(top > 0);
    }
}
