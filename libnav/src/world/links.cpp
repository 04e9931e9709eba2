// The off-mesh links of a NavWorld (SPEC §2.5): kept as given, resolved
// against the current mesh whenever it changes (carving, re-bake).

#include "spark/nav/nav_world.h"

namespace spark::nav
{

void NavWorld::resolveLinks(MeshId mesh)
{
    const WorldMesh* record = m_state.meshes.get(mesh);
    if (!record)
        return;
    const NavMesh& current = currentMesh(*record);
    m_state.links.forEach([&](LinkId id, const WorldLink& l) {
        if (l.mesh == mesh)
            m_state.links.get(id)->resolved = resolveOffMeshLink(current, l.def);
    });
}

Result<LinkId> NavWorld::addOffMeshLink(MeshId mesh, const OffMeshLinkDef& def)
{
    const WorldMesh* record = m_state.meshes.get(mesh);
    if (!record)
        return makeError("E_NAV_NO_MESH", "no such mesh (the handle is stale)", "/mesh", "nav.list lists the meshes");
    SPARK_TRY(validateOffMeshLink(def));
    if (m_state.links.size() >= kMaxWorldLinks)
        return makeError("E_NAV_LIMIT", "the world has 4096 off-mesh links already", "", "remove links first");
    WorldLink link{mesh, def, resolveOffMeshLink(currentMesh(*record), def)};
    return m_state.links.insert(std::move(link));
}

Status NavWorld::removeOffMeshLink(LinkId link)
{
    if (!m_state.links.remove(link))
        return makeError("E_NAV_UNKNOWN_LINK", "no such off-mesh link (the handle is stale)", "/id",
                         "nav.offmesh.list lists the links");
    return Status::success();
}

std::vector<LinkId> NavWorld::offMeshLinksInOrder() const
{
    std::vector<LinkId> out;
    out.reserve(m_state.links.size());
    m_state.links.forEach([&](LinkId id, const WorldLink&) { out.push_back(id); });
    return out;
}

void NavWorld::pathLinksOf(MeshId mesh, std::vector<PathLink>& out, std::vector<LinkId>& ids) const
{
    out.clear();
    ids.clear();
    m_state.links.forEach([&](LinkId id, const WorldLink& l) {
        if (l.mesh != mesh || !l.resolved.resolved)
            return;
        out.push_back(PathLink{l.resolved.startPolygon, l.resolved.endPolygon, l.resolved.start, l.resolved.end,
                               l.def.cost, l.def.bidirectional, static_cast<uint32_t>(ids.size())});
        ids.push_back(id);
    });
}

} // namespace spark::nav
