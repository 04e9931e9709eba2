// Tests of several agent radii from one bake (BakeDef::agentRadii, bakeNavMeshes
// in libnav/src/bake/bake.cpp and tiles.cpp): each radius's mesh equals a bake
// of that radius alone bit for bit on a single grid; tiled (every tile voxelised
// once with the largest radius's border), the largest radius's does, and on the
// pillar floor every radius's; the same on 1, 2 and 7 threads; the errors.

#include "bake_test_util.h"


#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <string>

using namespace spark;
using namespace spark::nav;
using namespace spark::nav::test;

namespace
{

std::string hex(uint64_t h)
{
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
    return text;
}

/// A 24 m × 24 m floor with pillars and a 1.4 m gap between two walls: the
/// largest radius closes the gap, so the radii give different meshes.
BakeInput pillarFloor()
{
    BakeInput in;
    addBox(in, {0.0f, -0.5f, 0.0f}, {24.0f, 0.0f, 24.0f});
    addBox(in, {5.0f, 0.0f, 5.0f}, {7.0f, 2.5f, 7.0f});
    addBox(in, {15.5f, 0.0f, 3.0f}, {16.5f, 2.5f, 13.0f});
    addBox(in, {3.0f, 0.0f, 17.75f}, {12.0f, 2.5f, 18.5f});
    addBox(in, {10.0f, 0.0f, 19.9f}, {11.0f, 2.5f, 24.0f});
    return in;
}

/// Mesh i of `bakeNavMeshes(in, def)` against `bakeNavMesh` of radius i alone:
/// same bytes, same hash. Returns the hashes, in radius order. The span count
/// is that of the one voxelisation: a single grid's is every radius's; a tiled
/// bake's tiles have the largest radius's border, which bakeDefForRadius keeps
/// (borderRadius), so each radius's own bake voxelises the same spans.
std::vector<uint64_t> checkEachRadiusAlone(const BakeInput& in, const BakeDef& def)
{
    const float largest = *std::max_element(def.agentRadii.begin(), def.agentRadii.end());
    auto widest = bakeNavMesh(in, bakeDefForRadius(def, largest));
    REQUIRE(widest.ok());
    auto all = bakeNavMeshes(in, def);
    REQUIRE(all.ok());
    REQUIRE(all.value().size() == def.agentRadii.size());
    std::vector<uint64_t> hashes;
    for (size_t i = 0; i < def.agentRadii.size(); ++i)
    {
        CAPTURE(def.agentRadii[i]);
        auto alone = bakeNavMesh(in, bakeDefForRadius(def, def.agentRadii[i]));
        REQUIRE(alone.ok());
        const NavMesh& shared = all.value()[i].mesh;
        CHECK(shared.settings().agentRadius == def.agentRadii[i]);
        CHECK(hashNavMesh(shared) == hashNavMesh(alone.value().mesh));
        CHECK(serializeNavMesh(shared) == serializeNavMesh(alone.value().mesh));
        CHECK(all.value()[i].stats.regions == alone.value().stats.regions);
        CHECK(all.value()[i].stats.spans == widest.value().stats.spans);
        CHECK(alone.value().stats.spans == widest.value().stats.spans);
        hashes.push_back(hashNavMesh(shared));
    }
    return hashes;
}

} // namespace

TEST_CASE("bakeRadii and bakeDefForRadius")
{
    BakeDef def = defaultBakeDef();
    CHECK(bakeRadii(def) == std::vector<float>{def.agentRadius});
    def.agentRadii = {0.3f, 1.2f};
    CHECK(bakeRadii(def) == std::vector<float>{0.3f, 1.2f});
    const BakeDef one = bakeDefForRadius(def, 1.2f);
    CHECK(one.agentRadius == 1.2f);
    CHECK(one.agentRadii.empty());
}

TEST_CASE("dungeon.obj: three radii from one voxelisation equal three single-radius bakes bit for bit (pinned)")
{
    const BakeInput in = dungeonInput();
    BakeDef def = defaultBakeDef();
    def.agentRadii = {0.3f, 0.6f, 1.2f};
    const std::vector<uint64_t> hashes = checkEachRadiusAlone(in, def);
    CHECK(hashes[0] != hashes[1]);
    CHECK(hashes[1] != hashes[2]);
    CHECK(hex(hashes[0]) + " " + hex(hashes[1]) + " " + hex(hashes[2]) == "16fe717d00c65247 bf8fe90814c15b03 8d307e3163bde4a0");
}

/// The tiles of `a` and `b` (matched by tile coordinates) that differ: in
/// hash, or held by one of them only.
size_t differingTiles(const NavMesh& a, const NavMesh& b)
{
    std::map<std::pair<int32_t, int32_t>, std::pair<uint64_t, uint64_t>> byTile;
    for (const NavTile& t : a.tiles())
        byTile[{t.x, t.z}].first = t.hash;
    for (const NavTile& t : b.tiles())
        byTile[{t.x, t.z}].second = t.hash;
    size_t differ = 0;
    for (const auto& [at, hashes] : byTile)
        differ += hashes.first != hashes.second ? 1 : 0;
    return differ;
}

TEST_CASE("dungeon.obj tiled: three radii from one voxelisation per tile (pinned); the largest as alone")
{
    // Every tile is voxelised once on the grid of the largest radius's border
    // (1.2 m: 9 cells), and a tile's voxel arithmetic runs from its grid's
    // origin and height floor: a wall or floor lying on a cell line can round
    // into the next cell or layer when the border moves. bakeDefForRadius
    // keeps that border (borderRadius), so each radius's mesh is its own def's
    // bake bit for bit; a bake of the radius with its own narrower border
    // differs in one tile of 78 for 0.3 m and for 0.6 m (pinned), polygons
    // within 2 %.
    const BakeInput in = dungeonInput();
    BakeDef def = defaultBakeDef();
    def.tileSize = 32;
    def.agentRadii = {0.3f, 0.6f, 1.2f};
    std::vector<std::vector<uint64_t>> tileHashes;
    for (int threads : {1, 2})
    {
        def.threads = threads;
        auto all = bakeNavMeshes(in, def);
        REQUIRE(all.ok());
        REQUIRE(all.value().size() == 3);
        std::vector<size_t> differ;
        std::vector<uint64_t> hashes;
        for (size_t i = 0; i < 3; ++i)
        {
            CAPTURE(def.agentRadii[i]);
            const BakeDef radiusDef = bakeDefForRadius(def, def.agentRadii[i]);
            CHECK(radiusDef.borderRadius == 1.2f);
            auto same = bakeNavMesh(in, radiusDef);
            REQUIRE(same.ok());
            CHECK(hashNavMesh(same.value().mesh) == hashNavMesh(all.value()[i].mesh));
            BakeDef ownBorder = radiusDef;
            ownBorder.borderRadius = 0.0f;
            auto alone = bakeNavMesh(in, ownBorder);
            REQUIRE(alone.ok());
            const NavMesh& shared = all.value()[i].mesh;
            const NavMesh& own = alone.value().mesh;
            CHECK(shared.settings().agentRadius == def.agentRadii[i]);
            CHECK(shared.tiles().size() == own.tiles().size());
            const double polys = static_cast<double>(shared.polygonCount());
            CHECK(std::abs(polys - static_cast<double>(own.polygonCount())) <= 0.02 * polys);
            differ.push_back(differingTiles(shared, own));
            hashes.push_back(hashNavMesh(shared));
            for (const NavTile& t : shared.tiles())
                hashes.push_back(t.hash);
        }
        CHECK(differ == std::vector<size_t>{1, 1, 0});
        CHECK(all.value()[0].mesh.tiles().size() == 78);
        tileHashes.push_back(hashes);
        CHECK(hex(hashes[0]) == "7a99878c3543261d");
    }
    CHECK(tileHashes[0] == tileHashes[1]);
    def.threads = 1;
    auto all = bakeNavMeshes(in, def);
    REQUIRE(all.ok());
    CHECK(hex(hashNavMesh(all.value()[0].mesh)) + " " + hex(hashNavMesh(all.value()[1].mesh)) + " " +
              hex(hashNavMesh(all.value()[2].mesh)) ==
          "7a99878c3543261d 7e970f5c481055ee c1e501357489477c");
}

TEST_CASE("a tiled bake of three radii: re-baking a smaller radius's tiles gives back its mesh bit for bit")
{
    // nav.rebake keeps the mesh's bake settings (bakeDefForRadius, with the
    // largest radius's border), so a re-baked tile is the several-radii bake's.
    const BakeInput in = dungeonInput();
    BakeDef def = defaultBakeDef();
    def.tileSize = 32;
    def.agentRadii = {0.3f, 0.6f, 1.2f};
    auto all = bakeNavMeshes(in, def);
    REQUIRE(all.ok());
    Bounds3 everything;
    everything.min = glm::vec3(-1000.0f);
    everything.max = glm::vec3(1000.0f);
    for (size_t i = 0; i < 2; ++i)
    {
        CAPTURE(def.agentRadii[i]);
        const NavMesh& baked = all.value()[i].mesh;
        auto rebaked = rebakeNavMeshTiles(baked, in, bakeDefForRadius(def, def.agentRadii[i]), everything);
        REQUIRE(rebaked.ok());
        CHECK(rebaked.value().tiles.x0 <= rebaked.value().tiles.x1);
        CHECK(serializeNavMesh(rebaked.value().mesh) == serializeNavMesh(baked));
    }
}

TEST_CASE("border_radius: refused when not a finite radius 0..1000; widens only tiled bakes")
{
    const BakeInput in = pillarFloor();
    BakeDef def = testDef();
    for (float bad : {-1.0f, 1001.0f, std::numeric_limits<float>::quiet_NaN()})
    {
        def.borderRadius = bad;
        auto baked = bakeNavMesh(in, def);
        REQUIRE(!baked.ok());
        CHECK(baked.error().code == "E_NAV_CONFIG");
        CHECK(baked.error().field == "/border_radius");
    }
    def.borderRadius = 0.0f;
    auto plain = bakeNavMesh(in, def);
    def.borderRadius = 1.0f;
    auto wide = bakeNavMesh(in, def);
    REQUIRE(plain.ok());
    REQUIRE(wide.ok());
    CHECK(hashNavMesh(plain.value().mesh) == hashNavMesh(wide.value().mesh)); // one grid has no tile border
    BakeDef narrow = def;
    narrow.borderRadius = 0.0f;
    REQUIRE(def.agentRadius < 1.0f);
    CHECK(tileBorderCells(def) > tileBorderCells(narrow));
}

TEST_CASE("a single-grid bake of radii in any order gives each radius the same mesh")
{
    const BakeInput in = pillarFloor();
    BakeDef def = testDef();
    def.agentRadii = {0.8f, 0.2f, 0.4f};
    const std::vector<uint64_t> hashes = checkEachRadiusAlone(in, def);
    def.agentRadii = {0.2f, 0.4f, 0.8f};
    const std::vector<uint64_t> sorted = checkEachRadiusAlone(in, def);
    CHECK(hashes[0] == sorted[2]);
    CHECK(hashes[1] == sorted[0]);
    CHECK(hashes[2] == sorted[1]);
}

TEST_CASE("a tiled bake of three radii: each tiled as alone, the same on 1, 2 and 7 threads (pinned)")
{
    const BakeInput in = pillarFloor();
    std::vector<uint64_t> first;
    for (int threads : {1, 2, 7})
    {
        CAPTURE(threads);
        BakeDef def = testDef();
        def.cellSize = 0.25f;
        def.tileSize = 16;
        def.threads = threads;
        def.agentRadii = {0.25f, 0.5f, 1.0f};
        const std::vector<uint64_t> hashes = checkEachRadiusAlone(in, def);
        auto all = bakeNavMeshes(in, def);
        REQUIRE(all.ok());
        for (const BakedNavMesh& m : all.value())
        {
            CHECK(m.mesh.tiled());
            CHECK(m.mesh.tileSize() == 16u);
            CHECK(m.mesh.tiles().size() > 4);
        }
        if (first.empty())
            first = hashes;
        CHECK(hashes == first);
    }
    CHECK(hex(first[0]) + " " + hex(first[1]) + " " + hex(first[2]) == "49067c8eef92351c 88d061ab82a73c21 1df147c1eadff7ef");
}

TEST_CASE("one radius in agent_radii bakes as agent_radius")
{
    const BakeInput in = pillarFloor();
    BakeDef def = testDef();
    def.agentRadii = {0.6f};
    auto viaList = bakeNavMesh(in, def);
    auto plain = bakeNavMesh(in, bakeDefForRadius(def, 0.6f));
    REQUIRE(viaList.ok());
    REQUIRE(plain.ok());
    CHECK(serializeNavMesh(viaList.value().mesh) == serializeNavMesh(plain.value().mesh));
}

TEST_CASE("bad radii are E_NAV_CONFIG naming the radius; a radius that keeps nothing names itself")
{
    const BakeInput in = pillarFloor();
    BakeDef def = testDef();
    def.agentRadii = {0.3f, 0.3f};
    auto twice = bakeNavMeshes(in, def);
    REQUIRE(!twice.ok());
    CHECK(twice.error().code == "E_NAV_CONFIG");
    CHECK(twice.error().field == "/agent_radii/1");
    CHECK(!twice.error().hint.empty());
    def.agentRadii = {0.3f, -1.0f};
    CHECK(bakeNavMeshes(in, def).error().field == "/agent_radii/1");
    def.agentRadii = {std::nanf(""), 0.3f};
    CHECK(bakeNavMeshes(in, def).error().field == "/agent_radii/0");
    def.agentRadii.assign(kMaxAgentRadii + 1, 0.0f);
    for (size_t i = 0; i < def.agentRadii.size(); ++i)
        def.agentRadii[i] = 0.1f * static_cast<float>(i);
    CHECK(bakeNavMeshes(in, def).error().field == "/agent_radii");

    // The single-mesh functions make one mesh: several radii are refused.
    def.agentRadii = {0.3f, 0.6f};
    CHECK(bakeNavMesh(in, def).error().field == "/agent_radii");
    CHECK(bakeTriangles(in, def).error().field == "/agent_radii");

    // 20 m of radius erodes the whole floor.
    def.agentRadii = {0.3f, 20.0f};
    auto gone = bakeNavMeshes(in, def);
    REQUIRE(!gone.ok());
    CHECK(gone.error().code == "E_NAV_NO_GEOMETRY");
    CHECK(gone.error().field == "/agent_radii/1");
    def.tileSize = 16;
    gone = bakeNavMeshes(in, def);
    REQUIRE(!gone.ok());
    CHECK(gone.error().code == "E_NAV_NO_GEOMETRY");
    CHECK(gone.error().field == "/agent_radii/1");
}
