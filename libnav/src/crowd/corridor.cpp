// Path corridors (after Detour's dtPathCorridor, written here).
//
// Corners: the portals between consecutive corridor polygons (the link stretch
// from one to the next, as the path search uses them) go through the same
// funnel as `findPath`, from the position to the target.
//
// Moving: a breadth-first search from the position's polygon over the links
// whose stretch lies within reach of the move (the circle round the segment
// from the position to the wanted point), at most 16 polygons. The wanted point
// itself, when a visited polygon holds it (within the link tolerance, and then
// clamped onto the polygon), else the point of the visited polygons' walls
// nearest to it, is where the agent ends up; so a move into a wall slides along
// it, and the position never leaves the mesh. The visited chain to that polygon
// is merged into the corridor: the furthest corridor polygon the chain touched
// becomes the join, polygons before it are dropped, and a chain that left the
// corridor is prepended (Detour's "merge corridor start moved").

#include "spark/nav/corridor.h"

#include "../query/query_common.h"

#include <algorithm>
#include <cmath>

namespace spark::nav
{

using namespace detail;

namespace
{

constexpr uint32_t kMaxMoveVisited = 16;
constexpr float kCornerSkip = 1.0e-3f;
/// Polygons whose portals the corner search tries first.
constexpr size_t kCornerLookahead = 24;

/// The link of `from` into `to`, or null.
const NavLink* linkBetween(const NavMesh& mesh, uint32_t from, uint32_t to)
{
    for (const NavLink& l : mesh.links(from))
        if (l.neighbour == to)
            return &l;
    return nullptr;
}

float distXZ2(const glm::vec3& a, const glm::vec3& b)
{
    const float dx = a.x - b.x, dz = a.z - b.z;
    return dx * dx + dz * dz;
}

/// Squared x–z distance from p to segment a–b.
float segDist2XZ(const glm::vec3& p, const glm::vec3& a, const glm::vec3& b)
{
    return distXZ2(p, closestOnSegmentXZ(a, b, p));
}

} // namespace

Status planCorridor(const NavMesh& mesh, QueryScratch& scratch, const glm::vec3& start, const glm::vec3& goal,
                    const QueryFilter& filter, const glm::vec3& halfExtents, Corridor& out)
{
    return planCorridor(mesh, scratch, start, goal, filter, halfExtents, std::span<const PathLink>(), out);
}

Status landCorridor(Corridor& io)
{
    if (io.hops.empty())
        return makeError("E_INVALID_PARAMS", "the corridor takes no off-mesh link", "/hops");
    const CorridorHop hop = io.hops.front();
    io.polygons.erase(io.polygons.begin(), io.polygons.begin() + hop.index);
    io.hops.erase(io.hops.begin());
    for (CorridorHop& h : io.hops)
        h.index -= hop.index;
    io.position = hop.end;
    return Status::success();
}

Status planCorridor(const NavMesh& mesh, QueryScratch& scratch, const glm::vec3& start, const glm::vec3& goal,
                    const QueryFilter& filter, const glm::vec3& halfExtents, std::span<const PathLink> links,
                    Corridor& out)
{
    PathResult path;
    SPARK_TRY(findPath(mesh, scratch, start, goal, filter, halfExtents, links, path));
    out.hops.clear();
    for (size_t i = 1; i < path.polygons.size() && i < kMaxCorridorPolygons; ++i)
    {
        const uint32_t code = path.entries[i - 1];
        if (code == kNoPolygon)
            continue;
        const PathLink& l = links[code >> 1];
        const bool reversed = (code & 1u) != 0;
        out.hops.push_back(CorridorHop{static_cast<uint32_t>(i), reversed ? l.end : l.start, reversed ? l.start : l.end,
                                       l.id, l.kind, l.speed, l.arcHeight});
    }
    out.polygons.assign(path.polygons.begin(),
                        path.polygons.begin() + std::min<size_t>(path.polygons.size(), kMaxCorridorPolygons));
    out.position = path.points.front();
    out.target = path.polygons.size() > kMaxCorridorPolygons
                     ? mesh.closestPointOnPolygon(out.polygons.back(), path.points.back())
                     : path.points.back();
    out.complete = path.complete && path.polygons.size() <= kMaxCorridorPolygons;
    return Status::success();
}

Status findCorridorCorners(const NavMesh& mesh, QueryScratch& scratch, const Corridor& corridor, uint32_t maxCorners,
                           std::vector<CorridorCorner>& out)
{
    ScratchData& s = scratch.data();
    out.clear();
    if (corridor.polygons.empty())
        return makeError("E_INVALID_PARAMS", "the corridor is empty", "/polygons");
    if (maxCorners < 1 || maxCorners > kMaxCorridorCorners)
        return makeError("E_INVALID_PARAMS", "maxCorners is 1..16", "/maxCorners");
    // The corners found while the funnel walks the portals depend on no later
    // portal: first try the portals of the next 24 polygons only, stopping
    // one point past the corners wanted; on a long corridor with few bends
    // (or when the corridor ends first) walk them all.
    std::vector<glm::vec3>& points = s.pulled;
    // A corridor with an off-mesh link ends, for its corners, at the take-off.
    const bool hop = !corridor.hops.empty();
    const size_t limit = hop ? corridor.hops.front().index : corridor.polygons.size();
    auto portalsUpTo = [&](size_t count) {
        s.portalsLeft.clear();
        s.portalsRight.clear();
        s.portalsLeft.push_back(corridor.position);
        s.portalsRight.push_back(corridor.position);
        for (size_t i = 1; i < count; ++i)
        {
            const NavLink* link = linkBetween(mesh, corridor.polygons[i - 1], corridor.polygons[i]);
            if (!link)
                return i; // a broken corridor: the corners end at the last good polygon
            s.portalsLeft.push_back(link->b);
            s.portalsRight.push_back(link->a);
        }
        return count;
    };
    auto skipped = [&](const glm::vec3& p) { return distXZ2(p, corridor.position) < kCornerSkip * kCornerSkip; };
    // Pulls the string over the portals built, stopping at `maxPoints`, and
    // takes the corners. points[0] is the position; when the funnel reached
    // the end of the portals, the last point is the end (of the corridor when
    // `usable` covers it). A stopped funnel's points are all corners, the
    // same as the whole corridor's first ones.
    auto collect = [&](size_t maxPoints, size_t usable) {
        points.clear();
        out.clear();
        const bool stopped = pullString(s.portalsLeft, s.portalsRight, points, maxPoints);
        const bool reachesTarget = usable == limit;
        for (size_t i = 1; i < points.size() && out.size() < maxCorners; ++i)
        {
            const bool last = !stopped && i + 1 == points.size();
            if (!last && skipped(points[i]))
                continue;
            CorridorCorner c;
            c.point = points[i];
            c.polygon = last ? corridor.polygons[usable - 1] : kNoPolygon;
            c.flags = last && reachesTarget ? (hop ? kCornerOffMeshStart : kCornerEnd) : 0;
            out.push_back(c);
        }
        return stopped;
    };
    // Stopping one point past the corners wanted keeps every corner taken off
    // the end of the string (the end may fall on the last point found).
    if (limit > kCornerLookahead && portalsUpTo(kCornerLookahead) == kCornerLookahead &&
        collect(maxCorners + 2, kCornerLookahead) && out.size() == maxCorners)
        return Status::success();
    const size_t usable = portalsUpTo(limit);
    const glm::vec3 end = usable == limit ? (hop ? corridor.hops.front().start : corridor.target)
                                          : mesh.closestPointOnPolygon(corridor.polygons[usable - 1], corridor.target);
    s.portalsLeft.push_back(end);
    s.portalsRight.push_back(end);
    if (collect(maxCorners + 2, usable) && out.size() < maxCorners)
        collect(static_cast<size_t>(-1), usable); // corners within kCornerSkip of the position took places
    return Status::success();
}

Status moveCorridor(const NavMesh& mesh, QueryScratch& scratch, Corridor& io, const glm::vec3& wanted,
                    const QueryFilter& filter)
{
    ScratchData& s = scratch.data();
    if (io.polygons.empty())
        return makeError("E_INVALID_PARAMS", "the corridor is empty", "/polygons");
    if (!finiteVec(wanted))
        return makeError("E_INVALID_PARAMS", "the wanted position is not finite", "/wanted");
    const uint32_t startPoly = io.polygons.front();
    const glm::vec3 start = io.position;
    const glm::vec3 mid = (start + wanted) * 0.5f;
    const float reach = std::sqrt(distXZ2(start, wanted)) * 0.5f + 1.0e-3f;
    const float reach2 = reach * reach;

    // Breadth-first over nearby polygons; s.list holds the visit order, s.parent the chain.
    beginSearch(s, mesh.polygonCount());
    s.list.clear();
    s.list.push_back(startPoly);
    s.stamp[startPoly] = s.searchId;
    s.parent[startPoly] = kNoPolygon;
    const float eps = mesh.linkTolerance();
    uint32_t bestPoly = startPoly;
    glm::vec3 best = start;
    float bestD2 = distXZ2(start, wanted);
    for (size_t head = 0; head < s.list.size(); ++head)
    {
        const uint32_t poly = s.list[head];
        if (mesh.containsXZ(poly, wanted.x, wanted.z, eps))
        {
            // Within the link tolerance of the polygon: onto it (never off the mesh).
            bestPoly = poly;
            best = mesh.closestPointOnPolygon(poly, wanted);
            break;
        }
        for (const NavWall& w : mesh.walls(poly))
        {
            const glm::vec3 c = closestOnSegmentXZ(w.a, w.b, wanted);
            const float d2 = distXZ2(c, wanted);
            if (d2 < bestD2)
            {
                bestD2 = d2;
                best = c;
                bestPoly = poly;
            }
        }
        for (const NavLink& l : mesh.links(poly))
        {
            if (s.list.size() >= kMaxMoveVisited)
                break;
            const uint32_t n = l.neighbour;
            if (s.stamp[n] == s.searchId)
                continue;
            if (excluded(filter, mesh.area(n)))
            {
                // An excluded neighbour is a wall: its stretch bounds the move.
                const glm::vec3 c = closestOnSegmentXZ(l.a, l.b, wanted);
                const float d2 = distXZ2(c, wanted);
                if (d2 < bestD2)
                {
                    bestD2 = d2;
                    best = c;
                    bestPoly = poly;
                }
                continue;
            }
            if (segDist2XZ(mid, l.a, l.b) > reach2)
                continue;
            s.stamp[n] = s.searchId;
            s.parent[n] = poly;
            s.list.push_back(n);
        }
    }
    // The chain from the start polygon to the end polygon (reversed into s.corridor).
    s.corridor.clear();
    for (uint32_t p = bestPoly; p != kNoPolygon; p = s.parent[p])
        s.corridor.push_back(p); // end ... start
    // Join: the furthest corridor polygon that the chain touches.
    size_t joinCorridor = 0, joinChain = s.corridor.size() - 1; // the start polygon at least
    const size_t scan = std::min<size_t>(io.hops.empty() ? io.polygons.size() : io.hops.front().index, 64);
    for (size_t j = scan; j-- > 0;)
    {
        bool found = false;
        for (size_t c = 0; c < s.corridor.size(); ++c)
            if (s.corridor[c] == io.polygons[j])
            {
                joinCorridor = j;
                joinChain = c;
                found = true;
                break;
            }
        if (found)
            break;
    }
    // New corridor: chain from the end polygon down to the join (exclusive of
    // the join's duplicate), then the corridor from the join on.
    std::vector<uint32_t>& polys = io.polygons;
    polys.erase(polys.begin(), polys.begin() + static_cast<std::ptrdiff_t>(joinCorridor));
    if (joinChain > 0)
        polys.insert(polys.begin(), s.corridor.begin(), s.corridor.begin() + static_cast<std::ptrdiff_t>(joinChain));
    if (polys.size() > kMaxCorridorPolygons)
        polys.resize(kMaxCorridorPolygons);
    for (CorridorHop& h : io.hops)
        h.index = static_cast<uint32_t>(h.index - joinCorridor + joinChain);
    while (!io.hops.empty() && io.hops.back().index >= polys.size())
        io.hops.pop_back();
    best.y = mesh.heightAt(bestPoly, best.x, best.z);
    io.position = best;
    return Status::success();
}

bool checkCorridor(const NavMesh& mesh, const Corridor& corridor, const QueryFilter& filter)
{
    if (corridor.polygons.empty())
        return false;
    for (size_t i = 0; i < corridor.polygons.size(); ++i)
    {
        const uint32_t p = corridor.polygons[i];
        if (p >= mesh.polygonCount() || mesh.disabled(p) || (i > 0 && excluded(filter, mesh.area(p))))
            return false;
        const bool hopHere = std::any_of(corridor.hops.begin(), corridor.hops.end(),
                                         [&](const CorridorHop& h) { return h.index == i; });
        if (i > 0 && !hopHere && !linkBetween(mesh, corridor.polygons[i - 1], p))
            return false;
    }
    return mesh.containsXZ(corridor.polygons.front(), corridor.position.x, corridor.position.z, 0.05f);
}

Status replanCorridor(const NavMesh& mesh, QueryScratch& scratch, Corridor& io, const QueryFilter& filter,
                      const glm::vec3& halfExtents)
{
    return replanCorridor(mesh, scratch, io, filter, halfExtents, std::span<const PathLink>());
}

Status replanCorridor(const NavMesh& mesh, QueryScratch& scratch, Corridor& io, const QueryFilter& filter,
                      const glm::vec3& halfExtents, std::span<const PathLink> links)
{
    Corridor planned;
    SPARK_TRY(planCorridor(mesh, scratch, io.position, io.target, filter, halfExtents, links, planned));
    io.polygons.swap(planned.polygons);
    io.hops.swap(planned.hops); // the old hops index the old polygons
    io.position = planned.position;
    io.complete = planned.complete;
    io.target = planned.target;
    return Status::success();
}

Result<HopProgress> crossHop(const Corridor& corridor, float time, bool arc)
{
    if (corridor.hops.empty())
        return makeError("E_INVALID_PARAMS", "the corridor takes no off-mesh link", "/hops");
    const CorridorHop& hop = corridor.hops.front();
    if (!(hop.speed > 0.0f))
        return makeError("E_INVALID_PARAMS", "the hop's speed is positive", "/hops/0/speed");
    if (!(std::isfinite(time) && time >= 0.0f))
        return makeError("E_INVALID_PARAMS", "the time is finite and not negative", "/time");
    const glm::vec3 d = hop.end - corridor.position;
    HopProgress out;
    out.duration = std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z) / hop.speed;
    // A duration of 0 (take-off on the landing) is landed at once; an
    // infinite one (a speed near 0) never lands: the host decides to give up.
    out.fraction = out.duration > 0.0f ? std::min(time / out.duration, 1.0f) : 1.0f;
    if (out.fraction >= 1.0f)
    {
        out.point = hop.end;
        out.landed = true;
        return out;
    }
    const float s = out.fraction;
    out.point = corridor.position + d * s;
    if (arc && hop.kind == OffMeshKind::Jump)
        out.point.y += 4.0f * hop.arcHeight * s * (1.0f - s);
    return out;
}

} // namespace spark::nav
