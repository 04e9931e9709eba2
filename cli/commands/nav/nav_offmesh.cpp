// nav.offmesh.add, nav.offmesh.remove, nav.offmesh.list: jump and drop links
// between places the mesh does not join (docs/navmesh.md "Off-mesh links"). Links are named by an
// opaque number like agents and obstacles.

#include "commands/nav/nav_json.h"

#include "spark/nav/nav_world.h"
#include "spark/nav/offmesh.h"

namespace spark::cli
{
/// This file's own namespace: the unity build puts several command files in one
/// translation unit, where their unnamed namespaces would be one.
namespace nav_offmesh_commands
{
namespace
{

using namespace navjson;

nav::LinkId requireLink(const nav::NavWorld& world, const json& params)
{
    const uint64_t n = params.at("id").get<uint64_t>();
    const nav::LinkId id = handleFromNumber<nav::LinkTag>(n);
    if (!world.offMeshLink(id))
        fail("E_NAV_UNKNOWN_LINK", "there is no off-mesh link " + std::to_string(n) + " (never made, or removed)",
             {{"path", "/id"}},
             otherKindHint(n, kHandleKind<nav::LinkTag>, "nav.offmesh.list shows the links"));
    return id;
}

json linkJson(const nav::NavWorld& world, nav::LinkId id)
{
    const nav::WorldLink& l = *world.offMeshLink(id);
    const bool is2d = world.mesh(l.mesh)->is2d();
    json out = {{"id", handleNumber(id)},
                {"mesh", world.meshRecord(l.mesh)->name},
                {"kind", l.def.kind == nav::OffMeshKind::Jump ? "jump" : "drop"},
                {"start", pointToJson(l.def.start, is2d)},
                {"end", pointToJson(l.def.end, is2d)},
                {"radius", floatJson(l.def.radius)},
                {"bidirectional", l.def.bidirectional},
                {"cost", floatJson(l.def.cost)},
                {"speed", floatJson(l.def.speed)},
                {"arc_height", floatJson(l.def.arcHeight)},
                {"resolved", l.resolved.resolved}};
    if (l.resolved.startPolygon != nav::kNoPolygon)
        out["start_on_mesh"] = pointToJson(l.resolved.start, is2d);
    if (l.resolved.endPolygon != nav::kNoPolygon)
        out["end_on_mesh"] = pointToJson(l.resolved.end, is2d);
    return out;
}

json navOffmeshAdd(Context& ctx, const json& params)
{
    const MeshRef mesh = requireMesh(ctx, params);
    nav::NavWorld& world = ctx.state.world.nav();
    nav::OffMeshLinkDef def = nav::defaultOffMeshLinkDef();
    def.start = pointFromJson(params.at("start"), mesh.is2d, "/start");
    def.end = pointFromJson(params.at("end"), mesh.is2d, "/end");
    def.kind = params.value("kind", std::string("jump")) == "drop" ? nav::OffMeshKind::Drop : nav::OffMeshKind::Jump;
    def.radius = params.value("radius", def.radius);
    def.bidirectional = params.value("bidirectional", def.bidirectional);
    def.cost = params.value("cost", def.cost);
    def.speed = params.value("speed", def.speed);
    def.arcHeight = params.value("arc_height", def.arcHeight);
    auto added = world.addOffMeshLink(mesh.id, def);
    if (!added.ok())
        failWith(added.error());
    return linkJson(world, added.value());
}

json navOffmeshRemove(Context& ctx, const json& params)
{
    nav::NavWorld& world = ctx.state.world.nav();
    const nav::LinkId id = requireLink(world, params);
    const Status st = world.removeOffMeshLink(id);
    if (!st.ok())
        failWith(st.error());
    return {{"removed", handleNumber(id)}, {"links", world.offMeshLinksInOrder().size()}};
}

json navOffmeshList(Context& ctx, const json& params)
{
    const nav::NavWorld& world = ctx.state.world.nav();
    nav::MeshId only;
    if (params.contains("mesh"))
        only = requireMesh(ctx, params).id;
    json links = json::array();
    for (nav::LinkId id : world.offMeshLinksInOrder())
        if (!only.valid() || world.offMeshLink(id)->mesh == only)
            links.push_back(linkJson(world, id));
    return {{"links", std::move(links)}};
}

const Registrar kOffmeshAdd{{"nav.offmesh.add", navOffmeshAdd, Mutates::Yes}};
const Registrar kOffmeshRemove{
    {"nav.offmesh.remove", navOffmeshRemove, Mutates::Yes, nullptr, {.destructive = true, .idempotent = true}}};
const Registrar kOffmeshList{{"nav.offmesh.list", navOffmeshList, Mutates::No}};

} // namespace
} // namespace nav_offmesh_commands
} // namespace spark::cli
