#include "spark/core/hash.h"
#include "spark/nav/navmesh.h"

#include "test_meshes.h"

#include <doctest/doctest.h>

using namespace spark;
using namespace spark::nav;
using namespace spark::nav::test;

TEST_CASE("serialise, deserialise, serialise gives the same bytes and hash")
{
    const NavMesh mesh = meshFromRects({{0, 0, 2, 2}, {2, 0, 3, 1, 4}, {2, 1, 3, 2}});
    const std::vector<uint8_t> bytes = serializeNavMesh(mesh);
    auto back = deserializeNavMesh(bytes);
    REQUIRE(back.ok());
    CHECK(serializeNavMesh(*back) == bytes);
    CHECK(hashNavMesh(*back) == hashNavMesh(mesh));
    CHECK(back->is2d());
    CHECK(back->area(1) == 4);
    CHECK(back->linkCount() == mesh.linkCount());
    CHECK(back->wallCount() == mesh.wallCount());
}

TEST_CASE("every truncation and a bad magic or version are E_NAV_FORMAT")
{
    const NavMesh mesh = meshFromRects({{0, 0, 2, 2}, {2, 0, 3, 1}});
    const std::vector<uint8_t> bytes = serializeNavMesh(mesh);
    for (size_t n = 0; n < bytes.size(); ++n)
    {
        auto r = deserializeNavMesh(std::span<const uint8_t>(bytes.data(), n));
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().code == "E_NAV_FORMAT");
    }
    std::vector<uint8_t> extra = bytes;
    extra.push_back(0);
    CHECK(deserializeNavMesh(extra).error().code == "E_NAV_FORMAT");
    std::vector<uint8_t> magic = bytes;
    magic[0] = 'X';
    CHECK(deserializeNavMesh(magic).error().code == "E_NAV_FORMAT");
    std::vector<uint8_t> version = bytes;
    version[4] = 9;
    CHECK(deserializeNavMesh(version).error().code == "E_NAV_FORMAT");
    // A corrupted index is caught by the re-validation.
    std::vector<uint8_t> bad = bytes;
    REQUIRE(bad.size() > 20);
    *(bad.end() - 2) = 0xff; // the last polygon's last index
    CHECK_FALSE(deserializeNavMesh(bad).ok());
}

TEST_CASE("the hash depends on geometry, areas and settings, not on -0 or on copies")
{
    const std::vector<Rect> rects = {{0, 0, 2, 2}, {2, 0, 3, 1}};
    const uint64_t h = hashNavMesh(meshFromRects(rects));
    CHECK(hashNavMesh(meshFromRects(rects)) == h);
    NavMesh copy = meshFromRects(rects);
    CHECK(hashNavMesh(NavMesh(copy)) == h);

    PolySoup negZero = soupFromRects(rects);
    negZero.vertices[0].x = -0.0f;
    NavMeshDef def = defaultNavMeshDef();
    def.is2d = true;
    def.settings.agentRadius = 0.0f;
    def.settings.cellSize = 1.0f;
    auto nz = buildNavMesh(negZero, def);
    REQUIRE(nz.ok());
    CHECK(hashNavMesh(*nz) == h);

    std::vector<Rect> moved = rects;
    moved[1].x1 = 3.5f;
    CHECK(hashNavMesh(meshFromRects(moved)) != h);
    std::vector<Rect> area = rects;
    area[1].area = 2;
    CHECK(hashNavMesh(meshFromRects(area)) != h);
    def.settings.agentRadius = 0.5f;
    CHECK(hashNavMesh(*buildNavMesh(soupFromRects(rects), def)) != h);
}

TEST_CASE("the serialised format is pinned by a committed hash")
{
    // Changing the byte layout changes every stored hash: do it on purpose only.
    const NavMesh mesh = meshFromRects({{0, 0, 2, 2}, {2, 0, 3, 1, 4}});
    CHECK(hashToHex(hashNavMesh(mesh)) == std::string("b5c35303b635597f"));
}
