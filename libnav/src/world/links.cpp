// The off-mesh links of a NavWorld (docs/navmesh.md "Off-mesh links"): kept as given, resolved
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
    bool changed = false;
    m_state.links.forEach([&](LinkId id, const WorldLink& l) {
        if (l.mesh != mesh)
            return;
        const ResolvedOffMeshLink r = resolveOffMeshLink(current, l.def);
        const ResolvedOffMeshLink& old = l.resolved;
        changed = changed || r.resolved != old.resolved || r.startPolygon != old.startPolygon ||
                  r.endPolygon != old.endPolygon || r.start != old.start || r.end != old.end;
        m_state.links.get(id)->resolved = r;
    });
    if (changed)
        ++m_state.meshes.get(mesh)->linkGeneration;
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
    if (link.resolved.resolved)
        ++m_state.meshes.get(mesh)->linkGeneration;
    return m_state.links.insert(std::move(link));
}

Status NavWorld::removeOffMeshLink(LinkId link)
{
    const WorldLink* l = m_state.links.get(link);
    if (!l)
        return makeError("E_NAV_UNKNOWN_LINK", "no such off-mesh link (the handle is stale)", "/id",
                         "nav.offmesh.list lists the links");
    if (l->resolved.resolved)
        ++m_state.meshes.get(l->mesh)->linkGeneration;
    m_state.links.remove(link);
    return Status::success();
}

std::vector<LinkId> NavWorld::offMeshLinksInOrder() const
{
    std::vector<LinkId> out;
    out.reserve(m_state.links.size());
    m_state.links.forEach([&](LinkId id, const WorldLink&) { out.push_back(id); });
    return out;
}

void NavWorld::pathLinksOf(MeshId mesh, std::vector<PathLink>& out) const
{
    out.clear();
    m_state.links.forEach([&](LinkId id, const WorldLink& l) {
        if (l.mesh != mesh || !l.resolved.resolved)
            return;
        out.push_back(PathLink{l.resolved.startPolygon, l.resolved.endPolygon, l.resolved.start, l.resolved.end,
                               l.def.cost, l.def.bidirectional, linkKey(id), l.def.kind, l.def.speed,
                               l.def.arcHeight});
    });
}

} // namespace spark::nav
