// The navigation world: meshes by handle, polygon references, state.
//
// Every mutation checks all of its inputs first and writes last, so an error
// return leaves `m_state` untouched (the command surface relies on this instead
// of copying the world per command).

#include "spark/nav/nav_world.h"

namespace spark::nav
{

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
        existing->source = std::move(def.source);
        existing->baked = std::move(def.mesh);
        existing->baseHash = hash;
        existing->polyGeneration = m_state.nextPolyGeneration++;
        return found->second;
    }
    if (m_state.meshes.size() >= kMaxWorldMeshes)
        return makeError("E_NAV_LIMIT", "the world has 4096 meshes already", "/name", "remove one with nav.remove");
    WorldMesh record;
    record.name = def.name;
    record.source = std::move(def.source);
    record.baked = std::move(def.mesh);
    record.baseHash = hash;
    record.polyGeneration = m_state.nextPolyGeneration++;
    const MeshId id = m_state.meshes.insert(std::move(record));
    m_state.byName.emplace(std::move(def.name), id);
    return id;
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
    return record ? record->baked.get() : nullptr;
}

Result<PolyRef> NavWorld::polyRef(MeshId mesh, uint32_t poly) const
{
    const WorldMesh* record = m_state.meshes.get(mesh);
    if (!record)
        return makeError("E_NAV_NO_MESH", "no such mesh (the handle is stale)");
    if (poly >= record->baked->polygonCount())
        return makeError("E_NAV_STALE_POLY", "polygon " + std::to_string(poly) + " is past the mesh's " +
                                                 std::to_string(record->baked->polygonCount()) + " polygons");
    return PolyRef{poly, record->polyGeneration};
}

Result<uint32_t> NavWorld::resolvePoly(MeshId mesh, PolyRef ref) const
{
    const WorldMesh* record = m_state.meshes.get(mesh);
    if (!record)
        return makeError("E_NAV_NO_MESH", "no such mesh (the handle is stale)");
    if (!ref.valid())
        return makeError("E_NAV_STALE_POLY", "the polygon reference is null");
    if (ref.generation != record->polyGeneration || ref.index >= record->baked->polygonCount())
        return makeError("E_NAV_STALE_POLY",
                         "polygon " + std::to_string(ref.index) + " changed since the reference was made",
                         std::string(), "find the polygon again (nearest point) or re-plan the path");
    return ref.index;
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
        io.addU64(m_state.agents.size() == 0 ? 0 : 1);
        if (m_state.agents.size() != 0)
            hashCrowd(io, id);
    }
    io.addU32(m_state.nextPolyGeneration);
    io.addU64(m_state.agents.size());
    io.addU64(m_state.crowdSteps);
}

uint64_t NavWorld::hashState() const
{
    Hasher h;
    hashState(h);
    return h.digest();
}

} // namespace spark::nav
