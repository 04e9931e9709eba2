// The navigation world: meshes by handle, polygon references, state.
//
// Every mutation checks all of its inputs first and writes last, so an error
// return leaves `m_state` untouched (the command surface relies on this instead
// of copying the world per command).

#include "spark/nav/nav_world.h"

#include <algorithm>
#include <cmath>

namespace spark::nav
{

namespace
{

/// The first polygon after the mesh's tiles (0 for an untiled mesh).
uint32_t afterTiles(const NavMesh& m)
{
    return m.tiles().empty() ? 0 : m.tiles().back().firstPolygon + m.tiles().back().polygonCount;
}

/// A polygon index as the reference's (tile, polygon within it): see `PolyRef`.
/// A piece carved out of a tile's polygon is named in that tile
/// (`carvedPieceAddress`), so carving one tile leaves the others' references.
std::pair<uint32_t, uint32_t> tileAndPolygon(const WorldMesh& record, const NavMesh& m, uint32_t index)
{
    const uint32_t tile = m.tileOfPolygon(index);
    if (tile != kNoPolygon)
        return {tile, index - m.tiles()[tile].firstPolygon};
    if (record.carved)
        if (const PieceAddress at = carvedPieceAddress(*record.carved, *record.baked, index); at.tile != kNoPolygon)
            return {at.tile, at.polygon};
    const uint32_t rest = index - afterTiles(m);
    return {static_cast<uint32_t>(m.tiles().size()) + (rest >> 20), rest & PolyRef::kPolygonMask};
}

/// The polygon index a reference's (tile, polygon) names in `m`, or kNoPolygon.
uint32_t indexOf(const WorldMesh& record, const NavMesh& m, PolyRef ref)
{
    const uint32_t tiles = static_cast<uint32_t>(m.tiles().size());
    if (ref.tile() < tiles)
    {
        const NavTile& t = m.tiles()[ref.tile()];
        if (ref.polygon() < t.polygonCount)
            return t.firstPolygon + ref.polygon();
        return record.carved ? carvedPieceSlot(*record.carved, *record.baked, ref.tile(), ref.polygon()) : kNoPolygon;
    }
    const uint64_t index = afterTiles(m) + (uint64_t(ref.tile() - tiles) << 20) + ref.polygon();
    return index < m.polygonCount() ? static_cast<uint32_t>(index) : kNoPolygon;
}

/// The settings a mesh was baked with, for the state hash.
void hashBakeDef(Hasher& io, const BakeDef& d)
{
    io.addString("bake");
    for (float v : {d.cellSize, d.cellHeight, d.agentRadius, d.agentHeight, d.stepHeight, d.maxSlopeDeg,
                    d.maxSimplificationError, d.maxEdgeLen, d.minRegionArea, d.mergeRegionArea})
        io.addF32(v);
    for (int32_t v : {int32_t(d.maxVertsPerPoly), int32_t(d.tileSize), d.tileRange.x0,
                      d.tileRange.x1, d.tileRange.z0, d.tileRange.z1})
        io.addU32(static_cast<uint32_t>(v));
}

} // namespace

MeshDef defaultMeshDef()
{
    return MeshDef{};
}

Result<MeshId> NavWorld::putMesh(MeshDef def)
{
    if (def.name.empty())
        return makeError("E_NAV_CONFIG", "a mesh needs a non-empty name", "/name");
    if (def.name.size() > kMaxMeshName)
        return makeError("E_NAV_CONFIG", "the mesh name is longer than 256 bytes", "/name");
    if (!def.mesh)
        return makeError("E_NAV_CONFIG", "no mesh given", "/mesh");
    if (def.mesh->empty())
        return makeError("E_NAV_NO_GEOMETRY", "the mesh has no polygons", "/mesh");
    const uint64_t hash = hashNavMesh(*def.mesh);
    auto found = m_state.byName.find(def.name);
    if (found != m_state.byName.end())
    {
        WorldMesh* existing = m_state.meshes.get(found->second);
        const uint32_t generation = m_state.nextPolyGeneration++;
        keepTileGenerations(found->second, *def.mesh, generation);
        existing->source = std::move(def.source);
        existing->baked = std::move(def.mesh);
        existing->bake = std::move(def.bake);
        existing->baseHash = hash;
        existing->polyGeneration = generation;
        existing->meshGeneration = generation;
        existing->carved.reset();
        carveRebaked(found->second); // its obstacles carve the new bake
        resolveLinks(found->second); // links survive a re-bake
        return found->second;
    }
    if (m_state.meshes.size() >= kMaxWorldMeshes)
        return makeError("E_NAV_LIMIT", "the world has 4096 meshes already", "/name", "remove one with nav.remove");
    WorldMesh record;
    record.name = def.name;
    record.source = std::move(def.source);
    record.baked = std::move(def.mesh);
    record.bake = std::move(def.bake);
    record.baseHash = hash;
    record.polyGeneration = m_state.nextPolyGeneration++;
    record.meshGeneration = record.polyGeneration;
    const MeshId id = m_state.meshes.insert(std::move(record));
    m_state.byName.emplace(std::move(def.name), id);
    return id;
}

void NavWorld::keepTileGenerations(MeshId mesh, const NavMesh& next, uint32_t generation)
{
    WorldMesh& record = *m_state.meshes.get(mesh);
    const NavMesh& old = *record.baked;
    std::vector<uint32_t> generations;
    // Old polygon index → new one, for the polygons of tiles kept (kNoPolygon: gone).
    std::vector<uint32_t> renumber;
    if (old.tiled() && next.tiled() && old.tileSize() == next.tileSize())
    {
        // A tile is kept when it has the same place in the table and the same
        // content: a reference (tile, polygon in the tile) to it names the same
        // polygon, so its polygons keep their generations.
        generations.assign(next.polygonCount(), generation);
        renumber.assign(old.polygonCount(), kNoPolygon);
        bool kept = false;
        for (size_t t = 0; t < next.tiles().size() && t < old.tiles().size(); ++t)
        {
            const NavTile& a = old.tiles()[t];
            const NavTile& b = next.tiles()[t];
            if (a.x != b.x || a.z != b.z || a.hash != b.hash)
                continue;
            for (uint32_t i = 0; i < b.polygonCount; ++i)
            {
                const uint32_t p = a.firstPolygon + i;
                generations[b.firstPolygon + i] =
                    record.baseGenerations.empty() ? record.polyGeneration : record.baseGenerations[p];
                renumber[p] = b.firstPolygon + i;
            }
            kept = true;
        }
        if (!kept)
            generations.clear();
    }
    record.baseGenerations = std::move(generations);
    if (record.baseGenerations.empty())
        return; // every polygon is new: every corridor is planned again
    // Corridors name polygons by index: those wholly in kept tiles are
    // renumbered (and stay valid); the others are planned again.
    m_state.agents.forEach([&](AgentId, CrowdAgent& a) {
        if (a.mesh != mesh || a.corridor.polygons.empty())
            return;
        bool whole = true;
        for (uint32_t p : a.corridor.polygons)
            whole = whole && p < renumber.size() && renumber[p] != kNoPolygon;
        if (!whole)
        {
            a.corridorGeneration = 0;
            return;
        }
        for (uint32_t& p : a.corridor.polygons)
            p = renumber[p];
        a.wallGeneration = 0;
    });
}

Result<TileRebake> NavWorld::rebakeMeshTiles(MeshId mesh, const BakeInput& input, const Bounds3& bounds)
{
    const WorldMesh* record = m_state.meshes.get(mesh);
    if (!record)
        return makeError("E_NAV_NO_MESH", "no such mesh (the handle is stale)", "/mesh");
    if (!record->bake)
        return makeError("E_NAV_CONFIG", "the mesh was not baked in tiles from 3D geometry", "/mesh",
                         "bake it with source space3d and a tile_size");
    auto rebaked = rebakeNavMeshTiles(*record->baked, input, *record->bake, bounds);
    if (!rebaked.ok())
        return rebaked.error();
    MeshDef def;
    def.name = record->name;
    def.source = record->source;
    def.bake = record->bake;
    def.mesh = std::make_shared<const NavMesh>(rebaked.value().mesh);
    auto put = putMesh(std::move(def));
    if (!put.ok())
        return put.error();
    return rebaked;
}

namespace
{

/// The tile of `mesh` holding x–z point `p`, as (x, z).
std::array<int32_t, 2> tileAt(const NavMesh& mesh, const glm::vec3& p)
{
    const double side = double(mesh.tileSize()) * mesh.settings().cellSize;
    return {static_cast<int32_t>(std::floor(p.x / side)), static_cast<int32_t>(std::floor(p.z / side))};
}

} // namespace

Status NavWorld::unloadTiles(MeshId mesh, std::span<const std::array<int32_t, 2>> tiles)
{
    const WorldMesh* record = m_state.meshes.get(mesh);
    if (!record)
        return makeError("E_NAV_NO_MESH", "no such mesh (the handle is stale)", "/mesh");
    if (!record->baked->tiled())
        return makeError("E_NAV_CONFIG", "only a tiled mesh unloads tiles", "/mesh", "bake it with a tile_size");
    auto rest = removeNavMeshTiles(*record->baked, tiles);
    if (!rest.ok())
        return rest.error();
    std::vector<std::array<int32_t, 2>> unloaded = record->unloadedTiles;
    unloaded.insert(unloaded.end(), tiles.begin(), tiles.end());
    std::sort(unloaded.begin(), unloaded.end());
    unloaded.erase(std::unique(unloaded.begin(), unloaded.end()), unloaded.end());
    MeshDef def{record->name, record->source, std::make_shared<const NavMesh>(std::move(rest.value())), record->bake};
    auto put = putMesh(std::move(def)); // cannot fail: the mesh exists and has polygons
    if (!put.ok())
        return put.error();
    m_state.meshes.get(mesh)->unloadedTiles = std::move(unloaded);
    return Status::success();
}

Status NavWorld::loadTiles(MeshId mesh, const NavMesh& tiles)
{
    const WorldMesh* record = m_state.meshes.get(mesh);
    if (!record)
        return makeError("E_NAV_NO_MESH", "no such mesh (the handle is stale)", "/mesh");
    if (!record->baked->tiled())
        return makeError("E_NAV_CONFIG", "only a tiled mesh loads tiles", "/mesh", "bake it with a tile_size");
    const NavMesh* parts[] = {record->baked.get(), &tiles};
    auto merged = mergeTiledNavMeshes(parts);
    if (!merged.ok())
    {
        Error e = merged.error();
        if (e.code == "E_NAV_FORMAT")
            e.field = "/tiles";
        return e;
    }
    std::vector<std::array<int32_t, 2>> unloaded;
    for (const auto& t : record->unloadedTiles)
        if (std::none_of(tiles.tiles().begin(), tiles.tiles().end(),
                         [&](const NavTile& n) { return n.x == t[0] && n.z == t[1]; }))
            unloaded.push_back(t);
    MeshDef def{record->name, record->source, std::make_shared<const NavMesh>(std::move(merged.value())), record->bake};
    auto put = putMesh(std::move(def));
    if (!put.ok())
        return put.error();
    m_state.meshes.get(mesh)->unloadedTiles = std::move(unloaded);
    return Status::success();
}

bool NavWorld::tileUnloaded(MeshId mesh, const glm::vec3& point) const
{
    const WorldMesh* record = m_state.meshes.get(mesh);
    if (!record || record->unloadedTiles.empty())
        return false;
    return std::binary_search(record->unloadedTiles.begin(), record->unloadedTiles.end(),
                              tileAt(*record->baked, point));
}

Status NavWorld::removeMesh(MeshId mesh)
{
    const WorldMesh* record = m_state.meshes.get(mesh);
    if (!record)
        return makeError("E_NAV_NO_MESH", "no such mesh (the handle is stale)");
    m_state.byName.erase(record->name);
    m_state.meshes.remove(mesh);
    // Its agents go with it.
    std::vector<AgentId> gone;
    m_state.agents.forEach([&](AgentId id, const CrowdAgent& a) {
        if (a.mesh == mesh)
            gone.push_back(id);
    });
    for (AgentId id : gone)
        m_state.agents.remove(id);
    // And its obstacles.
    std::vector<ObstacleId> carved;
    m_state.obstacles.forEach([&](ObstacleId id, const WorldObstacle& o) {
        if (o.mesh == mesh)
            carved.push_back(id);
    });
    for (ObstacleId id : carved)
        m_state.obstacles.remove(id);
    // And its links.
    for (LinkId id : offMeshLinksInOrder())
        if (m_state.links.get(id)->mesh == mesh)
            m_state.links.remove(id);
    return Status::success();
}

MeshId NavWorld::findMesh(std::string_view name) const
{
    auto it = m_state.byName.find(name);
    return it == m_state.byName.end() ? MeshId{} : it->second;
}

std::vector<MeshId> NavWorld::meshesInNameOrder() const
{
    std::vector<MeshId> out;
    out.reserve(m_state.byName.size());
    for (const auto& [name, id] : m_state.byName)
        out.push_back(id);
    return out;
}

const NavMesh* NavWorld::mesh(MeshId mesh) const
{
    const WorldMesh* record = m_state.meshes.get(mesh);
    return record ? &currentMesh(*record) : nullptr;
}

Result<PolyRef> NavWorld::polyRef(MeshId mesh, uint32_t poly) const
{
    const WorldMesh* record = m_state.meshes.get(mesh);
    if (!record)
        return makeError("E_NAV_NO_MESH", "no such mesh (the handle is stale)");
    const NavMesh& current = currentMesh(*record);
    if (poly >= current.polygonCount() || current.disabled(poly))
        return makeError("E_NAV_STALE_POLY",
                         "polygon " + std::to_string(poly) + " is not a walkable polygon of the mesh's " +
                             std::to_string(current.polygonCount()) + " polygon slots",
                         std::string(), "find the polygon with nav.nearest");
    const auto [tile, inTile] = tileAndPolygon(*record, current, poly);
    if (inTile > PolyRef::kPolygonMask)
        return makeError("E_NAV_LIMIT", "the tile holds more than 1048575 polygons and carved pieces",
                         std::string(), "carve fewer obstacles into one tile");
    return PolyRef::make(tile, inTile, polyGenerationOf(mesh, poly));
}

Result<uint32_t> NavWorld::resolvePoly(MeshId mesh, PolyRef ref) const
{
    const WorldMesh* record = m_state.meshes.get(mesh);
    if (!record)
        return makeError("E_NAV_NO_MESH", "no such mesh (the handle is stale)");
    if (!ref.valid())
        return makeError("E_NAV_STALE_POLY", "the polygon reference is null");
    const NavMesh& current = currentMesh(*record);
    const uint32_t index = indexOf(*record, current, ref);
    if (index == kNoPolygon || ref.generation() != PolyRef::foldGeneration(polyGenerationOf(mesh, index)) ||
        current.disabled(index))
        return makeError("E_NAV_STALE_POLY",
                         "polygon " + std::to_string(ref.polygon()) + " of tile " + std::to_string(ref.tile()) +
                             " changed since the reference was made",
                         std::string(), "find the polygon again (nearest point) or re-plan the path");
    return index;
}

void NavWorld::hashState(Hasher& io) const
{
    io.addString("navworld/1");
    io.addU64(m_state.byName.size());
    for (const auto& [name, id] : m_state.byName)
    {
        const WorldMesh& m = *m_state.meshes.get(id);
        io.addString(name);
        io.addString(m.source);
        io.addU64(m.baseHash);
        io.addU32(m.polyGeneration);
        if (!m.baseGenerations.empty()) // only after a tiled re-bake kept tiles: older pinned hashes stay
        {
            io.addString("tile generations");
            io.addU64(m.baseGenerations.size());
            for (uint32_t g : m.baseGenerations)
                io.addU32(g);
        }
        if (m.bake)
            hashBakeDef(io, *m.bake);
        if (!m.unloadedTiles.empty())
        {
            io.addString("unloaded tiles");
            io.addU64(m.unloadedTiles.size());
            for (const auto& t : m.unloadedTiles)
            {
                io.addU32(static_cast<uint32_t>(t[0]));
                io.addU32(static_cast<uint32_t>(t[1]));
            }
        }
        if (m.linkGeneration != 0)
        {
            io.addString("link generation");
            io.addU32(m.linkGeneration);
        }
        if (m.carved) // only once an obstacle touched the mesh: older pinned hashes stay
        {
            io.addString("carved");
            io.addU32(m.meshGeneration);
            io.addU64(hashNavMesh(m.carved->mesh));
            const uint32_t slots = m.carved->mesh.polygonCount();
            io.addU64(slots);
            for (uint32_t slot = 0; slot < slots; ++slot)
                io.addU32(carvedGeneration(*m.carved, slot, m.polyGeneration, m.baseGenerations));
        }
        io.addU64(m_state.agents.size() == 0 ? 0 : 1);
        if (m_state.agents.size() != 0)
            hashCrowd(io, id);
    }
    io.addU32(m_state.nextPolyGeneration);
    if (m_state.obstacles.size() != 0)
    {
        io.addString("obstacles");
        io.addU64(m_state.obstacles.size());
        m_state.obstacles.forEach([&](ObstacleId id, const WorldObstacle& o) {
            io.addU32(id.index);
            io.addU32(id.generation);
            io.addString(m_state.meshes.get(o.mesh)->name);
            io.addU32(static_cast<uint32_t>(o.def.shape.shape));
            io.addF32(o.def.shape.radius);
            io.addF32(o.def.shape.halfExtents.x);
            io.addF32(o.def.shape.halfExtents.y);
            io.addF32(o.def.shape.angleDeg);
            io.addU64(o.def.shape.points.size());
            for (const glm::vec2& p : o.def.shape.points)
            {
                io.addF32(p.x);
                io.addF32(p.y);
            }
            io.addF32(o.def.position.x);
            io.addF32(o.def.position.y);
            io.addF32(o.def.position.z);
            io.addF32(o.def.height);
            io.addString(o.def.follow);
        });
    }
    if (m_state.links.size() != 0)
    {
        io.addString("links");
        io.addU64(m_state.links.size());
        m_state.links.forEach([&](LinkId id, const WorldLink& l) {
            io.addU32(id.index);
            io.addU32(id.generation);
            io.addString(m_state.meshes.get(l.mesh)->name);
            for (const glm::vec3& v : {l.def.start, l.def.end, l.resolved.start, l.resolved.end})
            {
                io.addF32(v.x);
                io.addF32(v.y);
                io.addF32(v.z);
            }
            io.addU8(static_cast<uint8_t>(l.def.kind));
            io.addF32(l.def.radius);
            io.addBool(l.def.bidirectional);
            io.addF32(l.def.cost);
            io.addF32(l.def.speed);
            io.addF32(l.def.arcHeight);
            io.addBool(l.resolved.resolved);
            io.addU32(l.resolved.startPolygon);
            io.addU32(l.resolved.endPolygon);
        });
    }
    io.addU64(m_state.agents.size());
    io.addU64(m_state.crowdSteps);
    if (m_state.planNodesPerStep != kDefaultPlanNodesPerStep) // only when set: older pinned hashes stay
    {
        io.addString("plan nodes per step");
        io.addU32(m_state.planNodesPerStep);
    }
}

uint64_t NavWorld::hashState() const
{
    Hasher h;
    hashState(h);
    return h.digest();
}

} // namespace spark::nav
