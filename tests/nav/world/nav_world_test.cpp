// NavWorld: meshes by MeshId and by name, polygon references that go stale on a
// re-bake, refused inputs that change nothing, and the state as one value
// (save → change → restore gives the same hash; snapshots share the meshes).

#include "spark/nav/nav_world.h"

#include "../mesh/test_meshes.h"

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

using namespace spark;
using namespace spark::nav;
using namespace spark::nav::test;

namespace
{

using SharedMesh = std::shared_ptr<const NavMesh>;

// A mesh of unit rectangles side by side along x: `count` polygons.
SharedMesh stripMesh(int count)
{
    std::vector<Rect> rects;
    for (int i = 0; i < count; ++i)
        rects.push_back(Rect{float(i), 0.0f, float(i + 1), 1.0f});
    return std::make_shared<const NavMesh>(meshFromRects(rects));
}

MeshDef meshDef(std::string name, SharedMesh mesh, std::string source = "test")
{
    MeshDef def = defaultMeshDef();
    def.name = std::move(name);
    def.source = std::move(source);
    def.mesh = std::move(mesh);
    return def;
}

// Puts a mesh and requires success.
MeshId put(NavWorld& world, std::string name, SharedMesh mesh, std::string source = "test")
{
    Result<MeshId> id = world.putMesh(meshDef(std::move(name), std::move(mesh), std::move(source)));
    REQUIRE(id.ok());
    return id.value();
}

std::vector<std::string> namesInOrder(const NavWorld& world)
{
    std::vector<std::string> out;
    for (MeshId id : world.meshesInNameOrder())
        out.push_back(world.meshRecord(id)->name);
    return out;
}

// Checks that putting `def` fails with `code` at `field` and changes nothing.
void checkRefused(NavWorld& world, MeshDef def, const std::string& code, const std::string& field)
{
    const uint64_t before = world.hashState();
    const size_t count = world.meshCount();
    Result<MeshId> r = world.putMesh(std::move(def));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == code);
    CHECK(r.error().field == field);
    CHECK(world.hashState() == before);
    CHECK(world.meshCount() == count);
}

} // namespace

TEST_CASE("putMesh returns a live handle, findMesh finds it by name and the record holds the mesh")
{
    NavWorld world;
    CHECK(world.meshCount() == 0);
    CHECK_FALSE(world.findMesh("arena").valid());
    const SharedMesh mesh = stripMesh(2);
    const MeshId id = put(world, "arena", mesh, "polygons");
    CHECK(id.valid());
    CHECK(world.findMesh("arena") == id);
    CHECK_FALSE(world.findMesh("aren").valid());
    CHECK(world.meshCount() == 1);
    const WorldMesh* record = world.meshRecord(id);
    REQUIRE(record);
    CHECK(record->name == "arena");
    CHECK(record->source == "polygons");
    CHECK(record->baked == mesh); // the same object, not a copy
    CHECK(record->baseHash == hashNavMesh(*mesh));
    CHECK(world.mesh(id) == mesh.get());
}

TEST_CASE("meshesInNameOrder is name order whatever the insert order")
{
    const SharedMesh mesh = stripMesh(1);
    NavWorld first;
    for (const char* name : {"c", "a", "b"})
        (void)put(first, name, mesh);
    NavWorld second;
    for (const char* name : {"b", "c", "a"})
        (void)put(second, name, mesh);
    const std::vector<std::string> expected{"a", "b", "c"};
    CHECK(namesInOrder(first) == expected);
    CHECK(namesInOrder(second) == expected);
    // The handles are those of each world's own inserts.
    CHECK(first.meshesInNameOrder()[0] == first.findMesh("a"));
    CHECK(second.meshesInNameOrder()[2] == second.findMesh("c"));
}

TEST_CASE("re-putting a mesh under its name keeps the MeshId, changes the base hash and stales old polygon "
          "references")
{
    NavWorld world;
    const MeshId id = put(world, "m", stripMesh(1));
    const uint64_t oldBase = world.meshRecord(id)->baseHash;
    Result<PolyRef> oldRef = world.polyRef(id, 0);
    REQUIRE(oldRef.ok());
    REQUIRE(world.resolvePoly(id, oldRef.value()).ok());
    CHECK(world.resolvePoly(id, oldRef.value()).value() == 0);

    const SharedMesh bigger = stripMesh(3);
    const MeshId again = put(world, "m", bigger, "rebake");
    CHECK(again == id);
    CHECK(world.meshCount() == 1);
    CHECK(world.mesh(id) == bigger.get());
    CHECK(world.meshRecord(id)->source == "rebake");
    CHECK(world.meshRecord(id)->baseHash == hashNavMesh(*bigger));
    CHECK(world.meshRecord(id)->baseHash != oldBase);

    // The old reference names polygon 0 of the old mesh: refused, not reused.
    Result<uint32_t> stale = world.resolvePoly(id, oldRef.value());
    REQUIRE_FALSE(stale.ok());
    CHECK(stale.error().code == "E_NAV_STALE_POLY");
    Result<PolyRef> fresh = world.polyRef(id, 2);
    REQUIRE(fresh.ok());
    CHECK(fresh.value().generation() != oldRef.value().generation());
    Result<uint32_t> resolved = world.resolvePoly(id, fresh.value());
    REQUIRE(resolved.ok());
    CHECK(resolved.value() == 2);
}

TEST_CASE("re-putting the same mesh keeps the base hash but still renews the polygon generation")
{
    NavWorld world;
    const SharedMesh mesh = stripMesh(2);
    const MeshId id = put(world, "m", mesh);
    const uint64_t base = world.meshRecord(id)->baseHash;
    const PolyRef before = world.polyRef(id, 1).value();
    CHECK(put(world, "m", stripMesh(2)) == id); // an equal mesh, another object
    CHECK(world.meshRecord(id)->baseHash == base);
    Result<uint32_t> stale = world.resolvePoly(id, before);
    REQUIRE_FALSE(stale.ok());
    CHECK(stale.error().code == "E_NAV_STALE_POLY");
}

TEST_CASE("polyRef refuses an index past the polygon count and resolvePoly refuses a null reference")
{
    NavWorld world;
    const MeshId id = put(world, "m", stripMesh(2));
    Result<PolyRef> past = world.polyRef(id, 2);
    REQUIRE_FALSE(past.ok());
    CHECK(past.error().code == "E_NAV_STALE_POLY");
    Result<uint32_t> null = world.resolvePoly(id, PolyRef{});
    REQUIRE_FALSE(null.ok());
    CHECK(null.error().code == "E_NAV_STALE_POLY");
    // A reference with the right generation but an index past the mesh is refused too.
    const PolyRef ok = world.polyRef(id, 1).value();
    Result<uint32_t> outside = world.resolvePoly(id, PolyRef::make(0, 5, ok.generation()));
    REQUIRE_FALSE(outside.ok());
    CHECK(outside.error().code == "E_NAV_STALE_POLY");
}

TEST_CASE("a removed mesh's handle is stale everywhere, and a new mesh does not revive it")
{
    NavWorld world;
    const MeshId keep = put(world, "keep", stripMesh(1));
    const MeshId gone = put(world, "gone", stripMesh(2));
    const PolyRef ref = world.polyRef(gone, 0).value();
    REQUIRE(world.removeMesh(gone).ok());
    CHECK(world.meshCount() == 1);
    CHECK_FALSE(world.findMesh("gone").valid());
    CHECK(world.mesh(gone) == nullptr);
    CHECK(world.meshRecord(gone) == nullptr);

    Result<PolyRef> r1 = world.polyRef(gone, 0);
    REQUIRE_FALSE(r1.ok());
    CHECK(r1.error().code == "E_NAV_NO_MESH");
    Result<uint32_t> r2 = world.resolvePoly(gone, ref);
    REQUIRE_FALSE(r2.ok());
    CHECK(r2.error().code == "E_NAV_NO_MESH");
    const uint64_t hash = world.hashState();
    Status r3 = world.removeMesh(gone);
    REQUIRE_FALSE(r3.ok());
    CHECK(r3.error().code == "E_NAV_NO_MESH");
    CHECK(world.hashState() == hash);

    // A new mesh takes the freed slot with a newer generation; a mesh under the
    // old name is a new handle too. The old handle stays stale.
    const MeshId other = put(world, "other", stripMesh(1));
    CHECK(other.index == gone.index);
    CHECK(other != gone);
    const MeshId sameName = put(world, "gone", stripMesh(2));
    CHECK(sameName != gone);
    CHECK(world.mesh(gone) == nullptr);
    CHECK_FALSE(world.polyRef(gone, 0).ok());
    CHECK_FALSE(world.removeMesh(gone).ok());
    CHECK(world.mesh(keep) != nullptr);
    CHECK(world.meshCount() == 3);
}

TEST_CASE("invalid defs are refused with their code and field, and the world is unchanged")
{
    NavWorld world;
    const SharedMesh mesh = stripMesh(1);
    const MeshId id = put(world, "m", mesh);
    checkRefused(world, meshDef("", stripMesh(1)), "E_NAV_CONFIG", "/name");
    checkRefused(world, meshDef(std::string(kMaxMeshName + 1, 'x'), stripMesh(1)), "E_NAV_CONFIG", "/name");
    checkRefused(world, meshDef("new", nullptr), "E_NAV_CONFIG", "/mesh");
    checkRefused(world, meshDef("new", std::make_shared<const NavMesh>()), "E_NAV_NO_GEOMETRY", "/mesh");
    // A refused replacement of an existing mesh keeps the existing one.
    checkRefused(world, meshDef("m", nullptr), "E_NAV_CONFIG", "/mesh");
    checkRefused(world, meshDef("m", std::make_shared<const NavMesh>()), "E_NAV_NO_GEOMETRY", "/mesh");
    CHECK(world.mesh(id) == mesh.get());
    CHECK_FALSE(world.findMesh("new").valid());
    // The longest allowed name is accepted.
    CHECK(world.putMesh(meshDef(std::string(kMaxMeshName, 'x'), stripMesh(1))).ok());
}

TEST_CASE("the mesh after the last allowed one is E_NAV_LIMIT; replacing an existing mesh still works")
{
    NavWorld world;
    const SharedMesh mesh = stripMesh(1);
    for (size_t i = 0; i < kMaxWorldMeshes; ++i)
        REQUIRE(world.putMesh(meshDef("m" + std::to_string(i), mesh)).ok());
    checkRefused(world, meshDef("one-too-many", mesh), "E_NAV_LIMIT", "/name");
    CHECK(world.putMesh(meshDef("m0", stripMesh(2))).ok());
    CHECK(world.meshCount() == kMaxWorldMeshes);
}

TEST_CASE("saveState, then changes, then restoreState gives back the same hashState and the same handles")
{
    NavWorld world;
    const MeshId a = put(world, "a", stripMesh(1));
    const MeshId b = put(world, "b", stripMesh(2));
    const PolyRef refB = world.polyRef(b, 1).value();
    const uint64_t saved = world.hashState();
    const NavWorldState state = world.saveState();

    (void)put(world, "c", stripMesh(3));
    (void)put(world, "b", stripMesh(4)); // re-bake: refB goes stale
    REQUIRE(world.removeMesh(a).ok());
    CHECK(world.hashState() != saved);
    CHECK_FALSE(world.resolvePoly(b, refB).ok());

    world.restoreState(state);
    CHECK(world.hashState() == saved);
    CHECK(world.meshCount() == 2);
    CHECK(world.findMesh("a") == a);
    CHECK(world.findMesh("b") == b);
    CHECK_FALSE(world.findMesh("c").valid());
    Result<uint32_t> resolved = world.resolvePoly(b, refB);
    REQUIRE(resolved.ok());
    CHECK(resolved.value() == 1);

    // The restored world goes on as the saved one would have: equal changes give equal hashes.
    NavWorld twin;
    twin.restoreState(state);
    CHECK(twin.hashState() == saved);
    (void)put(world, "d", stripMesh(1));
    (void)put(twin, "d", stripMesh(1));
    CHECK(twin.hashState() == world.hashState());
}

TEST_CASE("a saved state shares the baked meshes instead of copying them")
{
    NavWorld world;
    const SharedMesh mesh = stripMesh(2);
    const MeshId id = put(world, "m", mesh);
    const long owners = mesh.use_count();
    NavWorldState state = world.saveState();
    CHECK(mesh.use_count() == owners + 1);
    REQUIRE(state.meshes.get(id));
    CHECK(state.meshes.get(id)->baked.get() == mesh.get());

    NavWorld other;
    other.restoreState(std::move(state));
    CHECK(other.mesh(id) == mesh.get());
    CHECK(world.mesh(id) == mesh.get());
}

TEST_CASE("hashState covers the names, sources, meshes and polygon generations")
{
    const SharedMesh one = stripMesh(1);
    auto build = [&](const char* name, const char* source, const SharedMesh& mesh, int rebakes)
    {
        NavWorld w;
        for (int i = 0; i <= rebakes; ++i)
            (void)put(w, name, mesh, source);
        return w.hashState();
    };
    const uint64_t base = build("m", "test", one, 0);
    CHECK(build("m", "test", one, 0) == base);          // equal operations, equal hash
    CHECK(build("m", "test", stripMesh(1), 0) == base); // an equal mesh hashes the same
    CHECK(build("n", "test", one, 0) != base);
    CHECK(build("m", "import", one, 0) != base);
    CHECK(build("m", "test", stripMesh(2), 0) != base);
    CHECK(build("m", "test", one, 1) != base); // a re-bake renews the polygon generation
    CHECK(NavWorld().hashState() != base);
}

namespace
{

// A tiled strip: `tiles` tiles of two unit rectangles each along x (tile size 2 cells of 1 m).
SharedMesh tiledStripMesh(int tiles)
{
    std::vector<Rect> rects;
    std::vector<NavTile> table;
    for (int t = 0; t < tiles; ++t)
    {
        for (int k = 0; k < 2; ++k)
            rects.push_back(Rect{float(2 * t + k), 0.0f, float(2 * t + k + 1), 1.0f});
        NavTile tile;
        tile.x = t;
        tile.firstPolygon = uint32_t(2 * t);
        tile.polygonCount = 2;
        tile.firstVertex = uint32_t(8 * t);
        tile.vertexCount = 8;
        table.push_back(tile);
    }
    NavMeshDef def = defaultNavMeshDef();
    def.is2d = true;
    def.settings.cellSize = 1.0f;
    Result<NavMesh> mesh = buildTiledNavMesh(soupFromRects(rects), def, 2, table);
    REQUIRE(mesh.ok());
    return std::make_shared<const NavMesh>(std::move(mesh).value());
}

} // namespace

TEST_CASE("a polygon reference is 64 bits naming the tile, the polygon in it and its generation")
{
    static_assert(sizeof(PolyRef) == 8);
    NavWorld world;
    const MeshId id = put(world, "m", tiledStripMesh(3));
    const PolyRef ref = world.polyRef(id, 5).value(); // the second polygon of tile 2
    CHECK(ref.tile() == 2);
    CHECK(ref.polygon() == 1);
    CHECK(ref.valid());
    CHECK(world.resolvePoly(id, ref).value() == 5);
    // A tile or polygon the mesh does not have is refused.
    CHECK(world.resolvePoly(id, PolyRef::make(3, 0, ref.generation())).error().code == "E_NAV_STALE_POLY");
    CHECK(world.resolvePoly(id, PolyRef::make(1, 2, ref.generation())).error().code == "E_NAV_STALE_POLY");
    CHECK(world.resolvePoly(id, PolyRef::make(1, 1, ref.generation())).value() == 3);
    // Re-baked with the same tiles: a tile at the same place with the same
    // content keeps its generation, so the reference still names its polygon.
    CHECK(put(world, "m", tiledStripMesh(3)) == id);
    CHECK(world.resolvePoly(id, ref).value() == 5);
    // Re-baked without tile 2: the reference into it is stale.
    CHECK(put(world, "m", tiledStripMesh(2)) == id);
    CHECK(world.resolvePoly(id, ref).error().code == "E_NAV_STALE_POLY");
    CHECK(world.resolvePoly(id, world.polyRef(id, 3).value()).value() == 3);

    // An untiled mesh: tile 0 holds its first 2^20 polygons.
    const MeshId flat = put(world, "flat", stripMesh(2));
    const PolyRef r1 = world.polyRef(flat, 1).value();
    CHECK(r1.tile() == 0);
    CHECK(r1.polygon() == 1);
    // Generations fold into 22 bits and never into the null 0.
    CHECK(PolyRef::foldGeneration(1) == 1);
    CHECK(PolyRef::foldGeneration(PolyRef::kFieldMask) == PolyRef::kFieldMask);
    CHECK(PolyRef::foldGeneration(PolyRef::kFieldMask + 1) == 1);
    CHECK(PolyRef::make(PolyRef::kFieldMask, PolyRef::kPolygonMask, 0xffffffffu).valid());
}
