// Off-mesh links: checking a def and snapping its ends onto a mesh (docs/navmesh.md "Off-mesh links").

#include "spark/nav/offmesh.h"
#include "spark/nav/query.h"

#include <algorithm>
#include <cmath>

namespace spark::nav
{

OffMeshLinkDef defaultOffMeshLinkDef()
{
    return OffMeshLinkDef{};
}

Status validateOffMeshLink(const OffMeshLinkDef& def)
{
    const char* hint = "see `spark schema nav.offmesh.add`";
    for (int c = 0; c < 3; ++c)
    {
        if (!std::isfinite(def.start[c]) || std::fabs(def.start[c]) > kMaxCoordinate)
            return makeError("E_INVALID_PARAMS", "the start is finite and within ±1e6 m", "/start", hint);
        if (!std::isfinite(def.end[c]) || std::fabs(def.end[c]) > kMaxCoordinate)
            return makeError("E_INVALID_PARAMS", "the end is finite and within ±1e6 m", "/end", hint);
    }
    if (def.start == def.end)
        return makeError("E_INVALID_PARAMS", "the end is the start: a link joins two places", "/end", hint);
    auto in = [](float v, float lo, float hi, bool openLo) {
        return std::isfinite(v) && (openLo ? v > lo : v >= lo) && v <= hi;
    };
    if (!in(def.radius, 0.0f, kMaxOffMeshRadius, true))
        return makeError("E_INVALID_PARAMS", "the radius is a number in (0, 100] m", "/radius", hint);
    if (!in(def.cost, 0.0f, kMaxOffMeshCost, true))
        return makeError("E_INVALID_PARAMS", "the cost is a number in (0, 1000]", "/cost", hint);
    if (!in(def.speed, 0.0f, kMaxOffMeshSpeed, true))
        return makeError("E_INVALID_PARAMS", "the speed is a number in (0, 100] m/s", "/speed", hint);
    if (!in(def.arcHeight, 0.0f, kMaxOffMeshArcHeight, false))
        return makeError("E_INVALID_PARAMS", "the arc height is a number in [0, 100] m", "/arc_height", hint);
    if (def.kind != OffMeshKind::Jump && def.kind != OffMeshKind::Drop)
        return makeError("E_INVALID_PARAMS", "the kind is jump or drop", "/kind", hint);
    return Status::success();
}

ResolvedOffMeshLink resolveOffMeshLink(const NavMesh& mesh, const OffMeshLinkDef& def)
{
    ResolvedOffMeshLink out;
    out.start = def.start;
    out.end = def.end;
    const glm::vec3 extents(def.radius, std::max(def.radius, mesh.settings().stepHeight), def.radius);
    auto a = findNearest(mesh, def.start, extents);
    auto b = findNearest(mesh, def.end, extents);
    if (a.ok())
    {
        out.startPolygon = a->polygon;
        out.start = a->point;
    }
    if (b.ok())
    {
        out.endPolygon = b->polygon;
        out.end = b->point;
    }
    out.resolved = a.ok() && b.ok();
    return out;
}

} // namespace spark::nav
