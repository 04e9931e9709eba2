// Carving a tiled mesh (docs/navmesh.md "Obstacles", docs/tiles.md): obstacles across
// tile edges and corners cut every tile they meet and give the tiles back bit for bit
// when they go; a change leaves the other tiles' polygons, references and generations
// as they were, and corridors through them stay (renumbered where slots moved).

#include "spark/nav/carve.h"
#include "spark/nav/nav_world.h"
#include "spark/nav/navmesh.h"
#include "spark/nav/query.h"

#include "../mesh/test_meshes.h"
#include "obstacle_helpers.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <vector>

using namespace spark;
using namespace spark::nav;
using namespace spark::nav::test;

namespace
{

constexpr float kFloorRadius = 0.25f;  // agent radius the mesh was "baked" with
constexpr uint32_t kTileCells = 8; // 8 cells of 0.5 m: 4 m tiles
constexpr float kTileSide = 4.0f;
constexpr int kTiles = 3; // 3 × 3 tiles, 12 m × 12 m

/// `tiles` × `tiles` tiles of 4 m (3 × 3: 12 m × 12 m), each 16 squares of 1 m with its own vertices, in tile order.
std::shared_ptr<const NavMesh> tiledFloor(int tiles = kTiles, bool (*keep)(int x, int z) = nullptr)
{
    std::vector<Rect> rects;
    std::vector<NavTile> out;
    for (int tz = 0; tz < tiles; ++tz)
        for (int tx = 0; tx < tiles; ++tx)
        {
            NavTile t;
            t.x = tx;
            t.z = tz;
            t.firstPolygon = static_cast<uint32_t>(rects.size());
            t.firstVertex = t.firstPolygon * 4;
            for (int z = 0; z < 4; ++z)
                for (int x = 0; x < 4; ++x)
                {
                    if (keep != nullptr && !keep(tx * 4 + x, tz * 4 + z))
                        continue;
                    const float x0 = float(tx) * kTileSide + float(x), z0 = float(tz) * kTileSide + float(z);
                    rects.push_back(Rect{x0, z0, x0 + 1.0f, z0 + 1.0f});
                }
            t.polygonCount = static_cast<uint32_t>(rects.size()) - t.firstPolygon;
            t.vertexCount = 4 * t.polygonCount;
            out.push_back(t);
        }
    NavMeshDef def = defaultNavMeshDef();
    def.is2d = true;
    def.settings.agentRadius = kFloorRadius;
    def.settings.cellSize = 0.5f;
    Result<NavMesh> mesh = buildTiledNavMesh(soupFromRects(rects), def, kTileCells, std::move(out));
    REQUIRE_MESSAGE(mesh.ok(), mesh.error().message);
    return std::make_shared<const NavMesh>(std::move(mesh).value());
}

/// The tiles (indices) whose base polygons the current carving disabled.
std::set<uint32_t> carvedTiles(const NavMesh& base, const NavMesh& carved)
{
    std::set<uint32_t> out;
    for (uint32_t p = 0; p < base.polygonCount(); ++p)
        if (carved.disabled(p))
            out.insert(base.tileOfPolygon(p));
    return out;
}

std::vector<glm::vec3> verticesOf(const NavMesh& mesh, uint32_t p)
{
    std::vector<glm::vec3> out;
    for (uint32_t k = 0; k < mesh.polygonVertexCount(p); ++k)
        out.push_back(mesh.polygonVertex(p, k));
    return out;
}

/// A path across the carving: complete, through walkable polygons each linked
/// to the next, and never inside the box [x0, x1] × [z0, z1] (the grown footprint).
void checkPathRound(const NavMesh& mesh, glm::vec3 from, glm::vec3 to, float x0, float z0, float x1, float z1)
{
    QueryScratch scratch;
    PathResult path;
    REQUIRE(findPath(mesh, scratch, from, to, defaultQueryFilter(), glm::vec3(0.2f, 1.0f, 0.2f), path).ok());
    CHECK(path.complete);
    CHECK(path.length > std::hypot(to.x - from.x, to.z - from.z) + 0.1f); // it had to go round
    for (size_t i = 0; i < path.polygons.size(); ++i)
    {
        CHECK_FALSE(mesh.disabled(path.polygons[i]));
        if (i + 1 < path.polygons.size())
        {
            const auto links = mesh.links(path.polygons[i]);
            CHECK(std::any_of(links.begin(), links.end(),
                              [&](const NavLink& l) { return l.neighbour == path.polygons[i + 1]; }));
        }
    }
    for (size_t i = 0; i + 1 < path.points.size(); ++i)
        for (int s = 0; s <= 100; ++s)
        {
            const glm::vec3 q = path.points[i] + (path.points[i + 1] - path.points[i]) * (float(s) / 100.0f);
            const bool inside = q.x > x0 + 1e-3f && q.x < x1 - 1e-3f && q.z > z0 + 1e-3f && q.z < z1 - 1e-3f;
            CHECK_FALSE(inside);
        }
}

} // namespace

TEST_CASE("carving across tile borders restores the base: edges and corners, add, move and remove")
{
    const std::shared_ptr<const NavMesh> base = tiledFloor();
    NavWorld world;
    const MeshId mesh = put(world, base);
    const uint64_t baseHash = world.meshRecord(mesh)->baseHash;
    const std::vector<uint8_t> baked = serializeNavMesh(*base);

    // A box across the edge x = 4 (tiles 3 and 4), a circle on the corner (8, 8)
    // of tiles 4, 5, 7 and 8, and a circle across the edge z = 4 (tiles 2 and 5).
    const ObstacleId edge = world.addObstacle(mesh, boxAt(4.0f, 6.0f, 0.6f, 0.5f)).value();
    CHECK(carvedTiles(*base, *world.mesh(mesh)) == std::set<uint32_t>{3, 4});
    const ObstacleId corner = world.addObstacle(mesh, circleAt(8.0f, 8.0f, 0.7f)).value();
    CHECK(carvedTiles(*base, *world.mesh(mesh)) == std::set<uint32_t>{3, 4, 5, 7, 8});
    const ObstacleId lower = world.addObstacle(mesh, circleAt(10.0f, 4.0f, 0.5f)).value();
    CHECK(carvedTiles(*base, *world.mesh(mesh)) == std::set<uint32_t>{2, 3, 4, 5, 7, 8});
    CHECK(world.mesh(mesh)->tiles().size() == 9);

    // Paths across the carved seams go round the grown footprints (box grown by the radius).
    checkPathRound(*world.mesh(mesh), {2.5f, 0.0f, 6.0f}, {5.5f, 0.0f, 6.0f}, 3.15f, 5.25f, 4.85f, 6.75f);
    checkPathRound(*world.mesh(mesh), {6.5f, 0.0f, 6.5f}, {9.5f, 0.0f, 9.5f}, 7.5f, 7.5f, 8.5f, 8.5f);

    // Moves across other edges and corners, then back: the mesh of never moving.
    NavWorld still;
    const MeshId stillMesh = put(still, base);
    REQUIRE(still.addObstacle(stillMesh, boxAt(4.0f, 6.0f, 0.6f, 0.5f)).ok());
    REQUIRE(still.addObstacle(stillMesh, circleAt(8.0f, 8.0f, 0.7f)).ok());
    REQUIRE(still.addObstacle(stillMesh, circleAt(10.0f, 4.0f, 0.5f)).ok());
    const glm::vec3 stops[] = {{4.0f, 0.0f, 4.0f}, {8.0f, 0.0f, 2.0f}, {1.0f, 0.0f, 8.0f}, {11.5f, 0.0f, 11.5f}};
    for (const glm::vec3& at : stops)
    {
        REQUIRE(world.moveObstacle(corner, at).ok());
        CHECK(serializeNavMesh(*world.mesh(mesh)) != serializeNavMesh(*still.mesh(stillMesh)));
    }
    REQUIRE(world.moveObstacle(corner, {8.0f, 0.0f, 8.0f}).ok());
    CHECK(serializeNavMesh(*world.mesh(mesh)) == serializeNavMesh(*still.mesh(stillMesh)));
    CHECK(hashNavMesh(*world.mesh(mesh)) == hashNavMesh(*still.mesh(stillMesh)));

    // Removed one by one: the baked tiles again, bit for bit, polygon for polygon.
    REQUIRE(world.removeObstacle(edge).ok());
    REQUIRE(world.removeObstacle(corner).ok());
    CHECK(hashNavMesh(*world.mesh(mesh)) != baseHash);
    REQUIRE(world.removeObstacle(lower).ok());
    const NavMesh& back = *world.mesh(mesh);
    CHECK(hashNavMesh(back) == baseHash);
    CHECK(serializeNavMesh(back) == baked);
    REQUIRE(back.polygonCount() == base->polygonCount());
    CHECK(back.disabledCount() == 0);
    for (uint32_t p = 0; p < back.polygonCount(); ++p)
        CHECK(verticesOf(back, p) == verticesOf(*base, p));
    for (uint32_t t = 0; t < base->tiles().size(); ++t)
        CHECK(hashNavTile(back, t) == base->tiles()[t].hash);
}

TEST_CASE("a carve re-cuts only the tiles its footprint meets: other tiles keep refs, generations and corridors")
{
    NavWorld world;
    const std::shared_ptr<const NavMesh> base = tiledFloor();
    const MeshId mesh = put(world, base);
    // An obstacle inside the last tile (8: x, z in [8, 12]), and an agent whose corridor runs round it there.
    REQUIRE(world.addObstacle(mesh, circleAt(10.0f, 10.0f, 0.5f)).ok());
    CrowdAgentDef ad;
    ad.position = {8.6f, 0.0f, 10.0f};
    const AgentId agent = world.addAgent(mesh, ad).value();
    REQUIRE(world.setAgentTarget(agent, {11.4f, 0.0f, 10.0f}).ok());
    REQUIRE(world.stepCrowds(0.05).ok());
    const std::vector<uint32_t> corridor = world.agent(agent)->corridor.polygons;
    REQUIRE(corridor.size() >= 2);

    // Every walkable polygon's reference, tile and geometry before the change.
    struct Seen
    {
        PolyRef ref;
        uint32_t slot;
        std::vector<glm::vec3> vertices;
    };
    std::vector<Seen> seen;
    const NavMesh& before = *world.mesh(mesh);
    for (uint32_t p = 0; p < before.polygonCount(); ++p)
        if (!before.disabled(p))
            seen.push_back(Seen{world.polyRef(mesh, p).value(), p, verticesOf(before, p)});
    std::vector<PolyRef> corridorRefs;
    for (uint32_t p : corridor)
    {
        corridorRefs.push_back(world.polyRef(mesh, p).value());
        CHECK(corridorRefs.back().tile() == 8);
    }
    CHECK(std::any_of(corridor.begin(), corridor.end(), [&](uint32_t p) { return p >= base->polygonCount(); }));

    // A box across the edge x = 8 between tiles 4 and 5: its pieces come before tile 8's in slot order.
    const ObstacleId o = world.addObstacle(mesh, boxAt(8.0f, 6.0f, 0.5f, 0.5f)).value();
    const NavMesh& after = *world.mesh(mesh);
    CHECK(carvedTiles(*base, after) == std::set<uint32_t>{4, 5, 8});
    size_t kept = 0, stale = 0, movedSlots = 0;
    for (const Seen& s : seen)
    {
        Result<uint32_t> now = world.resolvePoly(mesh, s.ref);
        if (s.ref.tile() == 4 || s.ref.tile() == 5)
        {
            if (!now.ok())
            {
                CHECK(now.error().code == "E_NAV_STALE_POLY");
                ++stale;
            }
            continue;
        }
        // Untouched tiles: the same polygon under the same reference and generation.
        REQUIRE(now.ok());
        CHECK(verticesOf(after, now.value()) == s.vertices);
        CHECK(world.polyRef(mesh, now.value()).value() == s.ref);
        movedSlots += now.value() != s.slot ? 1 : 0;
        ++kept;
    }
    CHECK(stale >= 2); // the polygons under the box in both tiles
    CHECK(kept == seen.size() - 32); // every polygon of the seven other tiles
    CHECK(movedSlots > 0); // tile 8's pieces moved behind tiles 4 and 5's
    // The agent's corridor was renumbered, not broken: its references name its polygons now.
    const std::vector<uint32_t>& renumbered = world.agent(agent)->corridor.polygons;
    REQUIRE(renumbered.size() == corridorRefs.size());
    CHECK(renumbered != corridor);
    for (size_t i = 0; i < corridorRefs.size(); ++i)
        CHECK(world.resolvePoly(mesh, corridorRefs[i]).value() == renumbered[i]);
    CHECK(checkCorridor(after, world.agent(agent)->corridor, defaultQueryFilter()));
    const std::vector<uint32_t> keptCorridor = renumbered;
    REQUIRE(world.stepCrowds(0.05).ok());
    const std::vector<uint32_t>& stepped = world.agent(agent)->corridor.polygons;
    REQUIRE(stepped.size() <= keptCorridor.size());
    CHECK(std::equal(stepped.begin(), stepped.end(), keptCorridor.end() - std::ptrdiff_t(stepped.size())));

    // Removing the box gives tiles 4 and 5 back; tile 8's references still hold.
    REQUIRE(world.removeObstacle(o).ok());
    for (const PolyRef& r : corridorRefs)
        CHECK(world.resolvePoly(mesh, r).ok());
    // A reference past a tile's pieces, or into a tile with none, is refused.
    const NavTile& t8 = base->tiles()[8];
    CHECK(world.resolvePoly(mesh, PolyRef::make(8, t8.polygonCount + 1000, corridorRefs[0].generation()))
              .error()
              .code == "E_NAV_STALE_POLY");
    CHECK(world.resolvePoly(mesh, PolyRef::make(0, 16, corridorRefs[0].generation())).error().code ==
          "E_NAV_STALE_POLY");
}

namespace
{

void checkSameLinks(std::span<const NavLink> a, std::span<const NavLink> b)
{
    REQUIRE(a.size() == b.size());
    for (size_t i = 0; i < a.size(); ++i)
    {
        CHECK(a[i].neighbour == b[i].neighbour);
        CHECK(a[i].edge == b[i].edge);
        CHECK(a[i].tMin == b[i].tMin);
        CHECK(a[i].tMax == b[i].tMax);
        CHECK(a[i].a == b[i].a);
        CHECK(a[i].b == b[i].b);
    }
}

void checkSameWalls(std::span<const NavWall> a, std::span<const NavWall> b)
{
    REQUIRE(a.size() == b.size());
    for (size_t i = 0; i < a.size(); ++i)
    {
        CHECK(a[i].polygon == b[i].polygon);
        CHECK(a[i].edge == b[i].edge);
        CHECK(a[i].a == b[i].a);
        CHECK(a[i].b == b[i].b);
        CHECK(a[i].normal == b[i].normal);
    }
}

/// Point ids name the same points in both meshes: ends at the same bits share
/// an id, ends at other bits never do, and lookups by position find them.
/// (Link ids differ: a carved mesh's own links follow its base's ids.)
void checkSamePointPartition(const NavMesh& a, const NavMesh& b)
{
    auto keyOf = [](const glm::vec3& v) { return std::array<float, 3>{v.x, v.y, v.z}; };
    std::map<std::array<float, 3>, uint32_t> idsA, idsB;
    std::set<uint32_t> usedA, usedB;
    for (uint32_t p = 0; p < a.polygonCount(); ++p)
        for (uint32_t i = 0; i < a.links(p).size(); ++i)
            for (uint32_t k = 0; k < 2; ++k)
            {
                const uint32_t la = a.firstLink(p) + i, lb = b.firstLink(p) + i;
                const glm::vec3 at = k == 0 ? a.link(la).a : a.link(la).b;
                const uint32_t ia = a.linkEndPoint(la, k), ib = b.linkEndPoint(lb, k);
                CHECK(ia < a.linkEndPointCount());
                CHECK(a.linkEndPointOf(at) == ia);
                CHECK(b.linkEndPointOf(at) == ib);
                CHECK(idsA.emplace(keyOf(at), ia).first->second == ia);
                CHECK(idsB.emplace(keyOf(at), ib).first->second == ib);
                usedA.insert(ia);
                usedB.insert(ib);
                CHECK(a.linkEndTurn(ia) == b.linkEndTurn(ib)); // the same turn at the same point
            }
    CHECK(usedA.size() == idsA.size()); // distinct points, distinct ids
    CHECK(usedB.size() == idsB.size());
    CHECK(a.linkEndPointOf(glm::vec3(0.123f, 0.0f, 0.456f)) == a.linkEndPointCount());
}

/// True when bridgeOrder number `o` lies behind `b`.
bool behindOf(NavMesh::LinkBehind b, uint32_t o)
{
    return b.lo < b.hi ? (o >= b.lo && o < b.hi) : (o < b.hi || o >= b.lo);
}

/// Every derived table of `carved` equals a from-scratch assembly's; of the
/// bridges, those `carved` marks are bridges of the fresh assembly with the
/// same polygons behind them (it marks only its base's, see NavMesh::linkBehind).
/// Returns how many links `carved` marks as bridges.
int checkEqualsReassembled(const NavMesh& carved)
{
    const NavMesh fresh = reassembledNavMesh(carved);
    REQUIRE(fresh.polygonCount() == carved.polygonCount());
    CHECK(serializeNavMesh(fresh) == serializeNavMesh(carved));
    CHECK(hashNavMesh(fresh) == hashNavMesh(carved));
    CHECK(fresh.bounds().min == carved.bounds().min);
    CHECK(fresh.bounds().max == carved.bounds().max);
    CHECK(fresh.totalArea() == carved.totalArea());
    const std::span<const double> fa = fresh.areaPrefix(), ca = carved.areaPrefix();
    CHECK(std::equal(fa.begin(), fa.end(), ca.begin(), ca.end()));
    int bridges = 0;
    for (uint32_t p = 0; p < carved.polygonCount(); ++p)
    {
        CHECK(fresh.polygonArea(p) == carved.polygonArea(p));
        CHECK(fresh.polygonBounds(p).min == carved.polygonBounds(p).min);
        CHECK(fresh.polygonBounds(p).max == carved.polygonBounds(p).max);
        CHECK(fresh.component(p) == carved.component(p));
        CHECK(fresh.disabled(p) == carved.disabled(p));
        checkSameLinks(fresh.links(p), carved.links(p));
        checkSameWalls(fresh.walls(p), carved.walls(p));
        const uint32_t n = carved.polygonVertexCount(p);
        for (uint32_t i = 0; i < 2 * n; ++i)
        {
            CHECK(fresh.ringXZ(p)[i] == carved.ringXZ(p)[i]);
            CHECK(fresh.ringY(p)[i] == carved.ringY(p)[i]);
        }
        for (uint32_t i = 0; i < carved.links(p).size(); ++i)
        {
            const uint32_t lf = fresh.firstLink(p) + i, lc = carved.firstLink(p) + i;
            CHECK(fresh.linkBackEdge(lf) == carved.linkBackEdge(lc));
            CHECK(fresh.linkDeadEnd(lf) == carved.linkDeadEnd(lc));
            const NavMesh::LinkBehind bc = carved.linkBehind(lc), bf = fresh.linkBehind(lf);
            if (bc.lo == bc.hi)
                continue;
            ++bridges;
            REQUIRE(bf.lo != bf.hi);
            for (uint32_t x = 0; x < carved.polygonCount(); ++x)
                if (carved.component(x) == carved.component(p))
                    CHECK(behindOf(bc, carved.bridgeOrder(x)) == behindOf(bf, fresh.bridgeOrder(x)));
        }
    }
    checkSamePointPartition(carved, fresh);
    return bridges;
}

} // namespace

TEST_CASE("incremental carving equals a from-scratch assembly after random adds, moves and removes across tiles")
{
    const std::shared_ptr<const NavMesh> base = tiledFloor();
    NavWorld world;
    const MeshId mesh = put(world, base);
    std::mt19937 rng(20261206u); // seeded: the same sequence every run
    std::uniform_real_distribution<float> coord(0.3f, 11.7f), size(0.2f, 0.9f);
    std::vector<ObstacleId> live;
    for (int step = 0; step < 60; ++step)
    {
        CAPTURE(step);
        const uint32_t kind = live.empty() ? 0 : rng() % 3;
        if (kind == 0 && live.size() < 12)
        {
            const float x = coord(rng), z = coord(rng), s = size(rng);
            const ObstacleDef def = rng() % 2 == 0 ? circleAt(x, z, s) : boxAt(x, z, s, size(rng), float(rng() % 90));
            live.push_back(world.addObstacle(mesh, def).value());
        }
        else if (kind == 1 || kind == 0)
        {
            const float x = coord(rng), z = coord(rng);
            REQUIRE(world.moveObstacle(live[rng() % live.size()], glm::vec3(x, 0.0f, z)).ok());
        }
        else
        {
            const size_t i = rng() % live.size();
            REQUIRE(world.removeObstacle(live[i]).ok());
            live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
        }
        checkEqualsReassembled(*world.mesh(mesh));
    }
    while (!live.empty())
    {
        REQUIRE(world.removeObstacle(live.back()).ok());
        live.pop_back();
        checkEqualsReassembled(*world.mesh(mesh));
    }
    CHECK(serializeNavMesh(*world.mesh(mesh)) == serializeNavMesh(*base));
}

namespace
{

/// An octagon of radius `r` round (x, z), as a 2D cut.
CarveCut octagonCut(double x, double z, double r)
{
    std::vector<glm::dvec2> ring;
    for (int i = 0; i < 8; ++i)
    {
        const double a = (double(i) + 0.5) * (3.14159265358979323846 / 4.0);
        ring.emplace_back(x + r * std::cos(a), z + r * std::sin(a));
    }
    return makeCarveCut(std::move(ring), -1.0e30f, 1.0e30f);
}

/// The work of adding, moving and removing one cut across tile edges, beside
/// a cut that stays, on a floor of `tiles` × `tiles` tiles (all of it at
/// least 3 m from the edges of a 3 × 3-tile floor: a change derives again the
/// links up to two polygons beyond the polygons it re-links).
std::array<CarveWork, 3> changeWork(int tiles)
{
    const std::shared_ptr<const NavMesh> base = tiledFloor(tiles);
    const CarveCut stays = octagonCut(7.0, 5.0, 0.5), added = octagonCut(4.3, 6.0, 0.9),
                   moved = octagonCut(5.6, 7.6, 0.9);
    auto carve = [&](const CarvedMesh* previous, std::vector<const CarveCut*> cuts, std::vector<CarveRegion> regions)
    {
        CarvedMesh out = recarveNavMesh(base, previous, cuts, regions, 1, 2);
        checkEqualsReassembled(out.mesh); // the counted work gives the same tables as a full assembly
        return out;
    };
    const CarvedMesh first = carve(nullptr, {&stays}, {carveRegionOf(stays)});
    const CarvedMesh add = carve(&first, {&stays, &added}, {carveRegionOf(added)});
    const CarvedMesh move = carve(&add, {&stays, &moved}, {carveRegionOf(added), carveRegionOf(moved)});
    const CarvedMesh remove = carve(&move, {&stays}, {carveRegionOf(moved)});
    CHECK(hashNavMesh(remove.mesh) == hashNavMesh(first.mesh));
    return {add.work, move.work, remove.work};
}

} // namespace

TEST_CASE("the work of a carving change follows the obstacle, not the size of the mesh: 9 and 64 tiles")
{
    // The same cuts among the same polygons: what a change cuts, links and
    // derives again is counted the same on a 3 × 3-tile floor (144 squares)
    // and an 8 × 8-tile one (1,024 squares).
    const std::array<CarveWork, 3> small = changeWork(3), big = changeWork(8);
    const char* names[] = {"add", "move", "remove"};
    for (size_t i = 0; i < 3; ++i)
    {
        CAPTURE(names[i]);
        CHECK(small[i].polygonsRecut > 0);
        CHECK(small[i].polygonsLinked > 0);
        CHECK(small[i].linksDerived > 0);
        CHECK(small[i].pointsDerived > 0);
        CHECK(small[i].polygonsLinked < 48); // the squares round the cuts, not a third of the 144
        CHECK(big[i].polygonsRecut == small[i].polygonsRecut);
        CHECK(big[i].polygonsLinked == small[i].polygonsLinked);
        CHECK(big[i].linksDerived == small[i].linksDerived);
        CHECK(big[i].pointsDerived == small[i].pointsDerived);
    }
}

TEST_CASE("a cut that only touches a polygon along an edge or at a corner leaves it as it is")
{
    // A square cut inside the 1 m square (1, 1) of the first tile, its sides on
    // the square's right and top edges: squares (2, 1) and (1, 2) meet it along
    // an edge, (2, 2) at a point. Only square (1, 1) (id 5) is carved.
    const std::shared_ptr<const NavMesh> base = tiledFloor(3);
    const CarveCut cut = makeCarveCut({{1.2, 1.2}, {2.0, 1.2}, {2.0, 2.0}, {1.2, 2.0}}, -1.0e30f, 1.0e30f);
    const std::vector<const CarveCut*> cuts = {&cut};
    const std::vector<CarveRegion> regions = {carveRegionOf(cut)};
    const CarvedMesh carved = recarveNavMesh(base, nullptr, cuts, regions, 1, 2);
    CHECK(carved.work.polygonsRecut == 4); // their bounds meet the cut's
    CHECK(carved.carvedBases == std::vector<uint32_t>{5});
    CHECK(carved.mesh.disabledCount() == 1);
    CHECK(carved.mesh.disabled(5));
    CHECK_FALSE(carved.mesh.disabled(6));
    CHECK_FALSE(carved.mesh.disabled(9));
    CHECK_FALSE(carved.mesh.disabled(10));
    checkEqualsReassembled(carved.mesh);
    // Pushed 1 cm into the neighbours, the cut carves all four.
    const CarveCut over = makeCarveCut({{1.2, 1.2}, {2.01, 1.2}, {2.01, 2.01}, {1.2, 2.01}}, -1.0e30f, 1.0e30f);
    const std::vector<const CarveCut*> overCuts = {&over};
    const std::vector<CarveRegion> overRegions = {carveRegionOf(over)};
    const CarvedMesh four = recarveNavMesh(base, nullptr, overCuts, overRegions, 1, 2);
    CHECK(four.carvedBases == std::vector<uint32_t>{5, 6, 9, 10});
}

TEST_CASE("carving a comb of dead ends: the bridges kept are sound and paths equal a from-scratch assembly's")
{
    // A comb: a spine along x = 0 and rows of squares at even z off it, so
    // every link of a row is a bridge. Obstacles cut rows and the spine; the
    // carved mesh keeps the base's bridges between uncarved squares, and the
    // path search finds the same paths (bit for bit) as on the same polygons
    // assembled from scratch, where every bridge is marked.
    const std::shared_ptr<const NavMesh> base = tiledFloor(kTiles, [](int x, int z) { return x == 0 || z % 2 == 0; });
    NavWorld world;
    const MeshId mesh = put(world, base);
    std::mt19937 rng(20261207u); // seeded: the same sequence every run
    std::uniform_real_distribution<float> coord(0.2f, 11.8f), size(0.15f, 0.35f);
    std::vector<ObstacleId> live;
    int compared = 0, complete = 0;
    for (int step = 0; step < 24; ++step)
    {
        CAPTURE(step);
        if (live.size() < 6 || rng() % 3 != 0)
        {
            // On a row (even z) or the spine: a small circle that narrows it but leaves room.
            const bool spine = rng() % 4 == 0;
            const float x = spine ? 0.5f : coord(rng), z = spine ? coord(rng) : float(2 * (rng() % 6)) + 0.5f;
            live.push_back(world.addObstacle(mesh, circleAt(x, z, size(rng))).value());
        }
        else
        {
            const size_t i = rng() % live.size();
            REQUIRE(world.removeObstacle(live[i]).ok());
            live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
        }
        const NavMesh& carved = *world.mesh(mesh);
        REQUIRE(carved.base() == base); // shared, not copied
        CHECK(checkEqualsReassembled(carved) > 50); // the rows' links away from the cuts stay bridges
        const NavMesh fresh = reassembledNavMesh(carved);
        QueryScratch sa, sb;
        for (int q = 0; q < 12; ++q)
        {
            const glm::vec3 from(0.5f, 0.0f, float(2 * (rng() % 6)) + 0.5f), to(coord(rng), 0.0f, float(2 * (rng() % 6)) + 0.5f);
            PathResult a, b;
            const Status ra = findPath(carved, sa, from, to, defaultQueryFilter(), glm::vec3(0.3f, 1.0f, 0.3f), a);
            const Status rb = findPath(fresh, sb, from, to, defaultQueryFilter(), glm::vec3(0.3f, 1.0f, 0.3f), b);
            REQUIRE(ra.ok() == rb.ok());
            if (!ra.ok())
                continue;
            ++compared;
            complete += a.complete ? 1 : 0;
            CHECK(a.complete == b.complete);
            CHECK(a.polygons == b.polygons);
            REQUIRE(a.points.size() == b.points.size());
            for (size_t k = 0; k < a.points.size(); ++k)
                CHECK(a.points[k] == b.points[k]);
        }
    }
    CHECK(compared > 200);
    CHECK(complete > 100); // most paths get through the narrowed rows
}
