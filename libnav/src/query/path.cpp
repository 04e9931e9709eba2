/// \file path.cpp
/// Path finding: the corridor search, then string pulling with the funnel.
///
/// Design note. With one cost for every allowed area and no off-mesh link,
/// the corridor comes from the exact any-angle search (any_angle.cpp): the
/// returned path is the shortest on the mesh. With areas at different costs
/// and no off-mesh link, weighted_path.cpp gives the cheapest route (see its
/// design note). Otherwise (costs with off-mesh links, or a goal out of
/// reach) the search is A* (Hart, Nilsson & Raphael, 1968) on the
/// polygon adjacency graph, as in Detour's dtNavMeshQuery::findPath, but its
/// edge costs are not measured between fixed portal points (Detour's
/// midpoints over-charge the wide rectangles of a 2D bake and pick the wrong
/// corridor). Each node carries the funnel of the route that reached it (the
/// apex of the string-pulled path so far, the two sides, the length to the
/// apex), advanced by one step of the funnel algorithm per portal, in the
/// spirit of funnel-aware searches such as Demyen & Buro's TA* (2006) and
/// Cui & Harabor's Polyanya (2017). A node's cost is the length to its apex
/// plus the straight distance from the apex to the node's position, the point
/// of its entry portal on the way from the apex to the goal; the goal node's
/// cost is the pulled length to the goal itself. Area multipliers add a
/// penalty, (multiplier − 1) × the leg crossed in each polygon between entry
/// points. The heuristic is the straight distance times the cheapest allowed
/// multiplier. The costs are not additive, so a polygon closed early may have
/// been entered from the worse side: a clearly better route opens it again (a
/// few times at most, never through itself, so the parent links stay a tree).
/// The open list is
/// a binary heap ordered by (f, polygon id), so ties never depend on insertion
/// history. A goal that cannot be reached yields the path to the point, over
/// every polygon reached, closest to the goal. (With one restart per step the
/// carried funnel may forget an earlier portal, so a cost can fall short of
/// the true pulled length; the final path is always pulled over the whole
/// corridor.)
/// The same search with each leg costed on its own (no funnel carried: a
/// route costs the legs between its entry points, each polygon entered at its
/// portal's point on the way to the goal from the entry before; the costs are
/// additive, so nothing is opened again), a per-polygon extra cost and a limit
/// on the polygons expanded is the crowd's search for detours round jams
/// (`detail::legSearch`, crowd/congestion.cpp).
///
/// With the any-angle search, the corner points are the search's own turning
/// points (any_angle.cpp). Otherwise they come from the "simple stupid
/// funnel" (Mononen, 2010, after Lee & Preparata's funnel algorithm, 1984):
/// the funnel from the apex is narrowed portal by portal; when a side would
/// cross the other, the other side's point becomes a corner and the new apex.
/// Portals are the link stretches, so paths across T-junctions pull tight
/// through the shared part only.

#include "query_common.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>

namespace spark::nav
{

namespace
{

using detail::dist3;

/// `QueryScratch::parentLink` of a polygon entered by an off-mesh link: this
/// bit, then (link index << 1) | reversed.
constexpr uint32_t kOffMeshEntry = 0x80000000u;

/// A closed polygon is opened again only by a route at least this much
/// (relative) cheaper, and at most kMaxReopens times per search.
constexpr float kReopenMargin = 1.0e-4f;
constexpr uint32_t kMaxReopens = 8;

/// No limit on the polygons a search expands.
constexpr uint32_t kNoLimit = 0xffffffffu;

/// The cheapest multiplier of the areas the filter allows (1 when it allows none).
float cheapestCost(const QueryFilter& filter)
{
    float minCost = 1.0e30f;
    for (uint32_t a = 0; a < kAreaCount; ++a)
        if (!detail::excluded(filter, static_cast<uint8_t>(a)))
            minCost = std::min(minCost, filter.areaCosts[a]);
    return minCost > 1.0e29f ? 1.0f : minCost;
}

/// Heap order: smaller f first, then smaller polygon id.
bool heapLess(const ScratchData& s, uint32_t a, uint32_t b)
{
    if (s.total[a] != s.total[b])
        return s.total[a] < s.total[b];
    return a < b;
}

void siftUp(ScratchData& s, uint32_t i)
{
    const uint32_t node = s.heap[i];
    while (i > 0)
    {
        const uint32_t parent = (i - 1) / 2;
        if (!heapLess(s, node, s.heap[parent]))
            break;
        s.heap[i] = s.heap[parent];
        s.heapIndex[s.heap[i]] = i;
        i = parent;
    }
    s.heap[i] = node;
    s.heapIndex[node] = i;
}

// (siftDown and heapPop are inlined into both searches: called, they cost the
// corridor search ~0.9 % more instructions.)
[[gnu::always_inline]] inline void siftDown(ScratchData& s, uint32_t i)
{
    const uint32_t n = static_cast<uint32_t>(s.heap.size());
    const uint32_t node = s.heap[i];
    for (;;)
    {
        uint32_t child = 2 * i + 1;
        if (child >= n)
            break;
        if (child + 1 < n && heapLess(s, s.heap[child + 1], s.heap[child]))
            ++child;
        if (!heapLess(s, s.heap[child], node))
            break;
        s.heap[i] = s.heap[child];
        s.heapIndex[s.heap[i]] = i;
        i = child;
    }
    s.heap[i] = node;
    s.heapIndex[node] = i;
}

void heapPush(ScratchData& s, uint32_t poly)
{
    s.heap.push_back(poly);
    siftUp(s, static_cast<uint32_t>(s.heap.size() - 1));
}

[[gnu::always_inline]] inline uint32_t heapPop(ScratchData& s)
{
    const uint32_t top = s.heap.front();
    s.heapIndex[top] = kNoPolygon;
    const uint32_t last = s.heap.back();
    s.heap.pop_back();
    if (!s.heap.empty())
    {
        s.heap[0] = last;
        siftDown(s, 0);
    }
    return top;
}

float crossXZ(const glm::vec3& o, const glm::vec3& a, const glm::vec3& b)
{
    return (a.x - o.x) * (b.z - o.z) - (a.z - o.z) * (b.x - o.x);
}

bool sameXZ(const glm::vec3& a, const glm::vec3& b)
{
    const float dx = a.x - b.x, dz = a.z - b.z;
    return dx * dx + dz * dz < 1.0e-12f;
}

/// One step of the funnel algorithm on the carried funnel with the next
/// portal (l, r). When a side crosses the other, the crossed side's point
/// becomes the apex and the funnel restarts at this portal.
void funnelStep(SearchFunnel& f, const glm::vec3& l, const glm::vec3& r)
{
    if (crossXZ(f.apex, f.right, r) >= 0.0f)
    {
        if (sameXZ(f.apex, f.right) || crossXZ(f.apex, f.left, r) < 0.0f)
            f.right = r;
        else
        {
            f.apexLength += dist3(f.apex, f.left);
            f.apex = f.left;
            f.left = l;
            f.right = r;
            return;
        }
    }
    if (crossXZ(f.apex, f.left, l) <= 0.0f)
    {
        if (sameXZ(f.apex, f.left) || crossXZ(f.apex, f.right, l) > 0.0f)
            f.left = l;
        else
        {
            f.apexLength += dist3(f.apex, f.right);
            f.apex = f.right;
            f.left = l;
            f.right = r;
        }
    }
}

[[gnu::always_inline]] inline void pushPoint(std::vector<glm::vec3>& pts, const glm::vec3& p)
{
    if (pts.empty() || !sameXZ(pts.back(), p) || pts.back().y != p.y)
        pts.push_back(p);
}

} // namespace

/// The funnel over portals (left[i], right[i]), i = 0 .. n−1, where portal 0 is
/// the start and portal n−1 the end (both sides equal). Left/right as seen
/// walking forward: a left point has cross(dir, point) > 0. A corner, once
/// found, depends on no later portal, so stopping at `maxPoints` points gives
/// the first points of the whole string.
bool detail::pullString(const std::vector<glm::vec3>& left, const std::vector<glm::vec3>& right,
                        std::vector<glm::vec3>& out, size_t maxPoints)
{
    const size_t n = left.size();
    glm::vec3 apex = left[0], portalLeft = left[0], portalRight = right[0];
    size_t apexIndex = 0, leftIndex = 0, rightIndex = 0;
    pushPoint(out, apex);
    for (size_t i = 1; i < n; ++i)
    {
        const glm::vec3& l = left[i];
        const glm::vec3& r = right[i];
        // Narrow the right side.
        if (crossXZ(apex, portalRight, r) >= 0.0f)
        {
            if (sameXZ(apex, portalRight) || crossXZ(apex, portalLeft, r) < 0.0f)
            {
                portalRight = r;
                rightIndex = i;
            }
            else
            {
                // The right side crosses the left one: the left point is a corner.
                apex = portalLeft;
                apexIndex = leftIndex;
                pushPoint(out, apex);
                if (out.size() >= maxPoints)
                    return true;
                portalLeft = portalRight = apex;
                leftIndex = rightIndex = apexIndex;
                i = apexIndex;
                continue;
            }
        }
        // Narrow the left side.
        if (crossXZ(apex, portalLeft, l) <= 0.0f)
        {
            if (sameXZ(apex, portalLeft) || crossXZ(apex, portalRight, l) > 0.0f)
            {
                portalLeft = l;
                leftIndex = i;
            }
            else
            {
                apex = portalRight;
                apexIndex = rightIndex;
                pushPoint(out, apex);
                if (out.size() >= maxPoints)
                    return true;
                portalLeft = portalRight = apex;
                leftIndex = rightIndex = apexIndex;
                i = apexIndex;
                continue;
            }
        }
    }
    pushPoint(out, left[n - 1]);
    return false;
}

namespace
{

/// The point, over every polygon the last search reached (`s.list`) but
/// `skip`, closest to `goal` (ties: lowest polygon id).
void closestReached(const NavMesh& mesh, ScratchData& s, const glm::vec3& goal, uint32_t skip,
                    uint32_t& endPoly, glm::vec3& endPoint)
{
    float best = 0.0f;
    endPoly = kNoPolygon;
    auto boundsDist2 = [&](uint32_t poly) {
        const Bounds3& bb = mesh.polygonBounds(poly);
        const double bx = std::max({0.0, double(bb.min.x) - goal.x, double(goal.x) - bb.max.x});
        const double by = std::max({0.0, double(bb.min.y) - goal.y, double(goal.y) - bb.max.y});
        const double bz = std::max({0.0, double(bb.min.z) - goal.z, double(goal.z) - bb.max.z});
        return bx * bx + by * by + bz * bz;
    };
    auto consider = [&](uint32_t poly) {
        // A polygon whose bounds are clearly farther than the best cannot win
        // or tie (the bounds distance kept in float is within 1e-7 of it, well
        // inside the margin).
        if (endPoly != kNoPolygon && double(s.cost[poly]) > double(best) * best * (1.0 + 1.0e-5) + 1.0e-9)
            return;
        const glm::vec3 c = mesh.closestPointOnPolygon(poly, goal);
        const float d = dist3(c, goal);
        if (endPoly == kNoPolygon || d < best || (d == best && poly < endPoly))
        {
            best = d;
            endPoly = poly;
            endPoint = c;
        }
    };
    // The answer (smallest distance, then lowest id) does not depend on the
    // order; trying the polygon with the nearest bounds first lets its
    // distance prune most of the others by their bounds.
    uint32_t first = kNoPolygon;
    double firstDist2 = 0.0;
    for (uint32_t poly : s.list)
    {
        if (poly == skip)
            continue;
        const double d2 = boundsDist2(poly);
        s.cost[poly] = static_cast<float>(std::min(d2, 1.0e30)); // (capped: a larger one is simply tried)
        if (first == kNoPolygon || d2 < firstDist2)
        {
            first = poly;
            firstDist2 = d2;
        }
    }
    if (first == kNoPolygon)
        return;
    consider(first);
    for (uint32_t poly : s.list)
        if (poly != skip && poly != first)
            consider(poly);
}

/// Where (0..1 along a → b) the segment crosses the line of portal l–r in
/// x–z, no earlier than `from`.
double crossing(const glm::vec3& a, const glm::vec3& b, const glm::vec3& l, const glm::vec3& r, double from)
{
    if ((b.x == l.x && b.y == l.y && b.z == l.z) || (b.x == r.x && b.y == r.y && b.z == r.z))
        return 1.0;
    const double dx = double(b.x) - a.x, dz = double(b.z) - a.z;
    const double px = double(r.x) - l.x, pz = double(r.z) - l.z;
    const double den = dx * pz - dz * px;
    if (den == 0.0)
        return from;
    const double u = ((double(l.x) - a.x) * pz - (double(l.z) - a.z) * px) / den;
    return std::clamp(u, from, 1.0);
}

/// The true cost of `out.points` along the corridor `out.polygons` entered by
/// `vias`: each stretch of a leg × the multiplier of the polygon it lies in,
/// each off-mesh leap × its link's cost.
float trueCost(const NavMesh& mesh, const ScratchData& s, const QueryFilter& filter,
               std::span<const PathLink> offMesh, const PathResult& out)
{
    const auto& pts = out.points;
    double cost = 0.0;
    size_t k = 0; // current leg: pts[k] → pts[k + 1]
    double t0 = 0.0;
    size_t leap = 0;
    for (size_t i = 1; i < out.polygons.size() && k + 1 < pts.size(); ++i)
    {
        const double mult = filter.areaCosts[mesh.area(out.polygons[i - 1])];
        const uint32_t via = s.vias[i - 1];
        if (via & kOffMeshEntry)
        {
            // Walk to the take-off, then leap to the landing.
            const PathLink& l = offMesh[(via & ~kOffMeshEntry) >> 1];
            const size_t takeoff = out.links[leap++].point;
            for (; k < takeoff && k + 1 < pts.size(); ++k, t0 = 0.0)
                cost += (1.0 - t0) * dist3(pts[k], pts[k + 1]) * mult;
            if (k + 1 < pts.size())
                cost += l.cost * dist3(pts[k], pts[k + 1]);
            ++k;
            t0 = 0.0;
            continue;
        }
        const NavLink& link = mesh.link(via);
        const double u = crossing(pts[k], pts[k + 1], link.a, link.b, t0);
        cost += (u - t0) * dist3(pts[k], pts[k + 1]) * mult;
        t0 = u;
        if (u >= 1.0)
        {
            ++k;
            t0 = 0.0;
        }
    }
    const double last = filter.areaCosts[mesh.area(out.polygons.back())];
    for (; k + 1 < pts.size(); ++k, t0 = 0.0)
        cost += (1.0 - t0) * dist3(pts[k], pts[k + 1]) * last;
    return static_cast<float>(cost);
}

void finishPoints(const NavMesh& mesh, ScratchData& s, const QueryFilter& filter, std::span<const PathLink> offMesh,
                  PathResult& out);

/// Portals of the corridor in `out.polygons` / `s.vias`, the string pulled
/// over them (split at each off-mesh link), the length and the true cost.
void finishPath(const NavMesh& mesh, ScratchData& s, const glm::vec3& startPoint, const glm::vec3& endPoint,
                const QueryFilter& filter, std::span<const PathLink> offMesh, PathResult& out)
{
    // Portals: start, each link stretch (left = its end, right = its start, seen
    // walking out of the polygon that owns it), end.
    s.portalsLeft.assign(1, startPoint);
    s.portalsRight.assign(1, startPoint);
    for (const uint32_t via : s.vias)
    {
        if (via & kOffMeshEntry)
        {
            // Split the funnel: pull the string to the take-off, then start
            // again at the landing (the next point).
            const uint32_t code = via & ~kOffMeshEntry;
            const PathLink& l = offMesh[code >> 1];
            const bool reversed = (code & 1u) != 0;
            const glm::vec3& takeoff = reversed ? l.end : l.start;
            s.portalsLeft.push_back(takeoff);
            s.portalsRight.push_back(takeoff);
            detail::pullString(s.portalsLeft, s.portalsRight, out.points);
            out.links.push_back(PathResult::LinkUse{static_cast<uint32_t>(out.points.size() - 1), l.id});
            const glm::vec3& landing = reversed ? l.start : l.end;
            s.portalsLeft.assign(1, landing);
            s.portalsRight.assign(1, landing);
            continue;
        }
        const NavLink& link = mesh.link(via);
        s.portalsLeft.push_back(link.b);
        s.portalsRight.push_back(link.a);
    }
    s.portalsLeft.push_back(endPoint);
    s.portalsRight.push_back(endPoint);
    detail::pullString(s.portalsLeft, s.portalsRight, out.points);
    finishPoints(mesh, s, filter, offMesh, out);
}

/// The length and the true cost of the points in `out.points` (corridor in
/// `out.polygons` / `s.vias`); a single point is doubled.
void finishPoints(const NavMesh& mesh, ScratchData& s, const QueryFilter& filter, std::span<const PathLink> offMesh,
                  PathResult& out)
{
    if (out.points.size() == 1)
        out.points.push_back(out.points[0]);

    double length = 0.0;
    for (size_t i = 1; i < out.points.size(); ++i)
        length += dist3(out.points[i - 1], out.points[i]);
    out.length = static_cast<float>(length);
    out.cost = trueCost(mesh, s, filter, offMesh, out);
}

/// The straight segment start → goal in x–z, when it provably stays on the
/// mesh: walked polygon to polygon (each convex, so the segment leaves it
/// once), each exit point strictly inside one link stretch of a unique exit
/// edge, through polygons the filter allows. True with the corridor in
/// `polygons` and its links in `vias`; false (nothing decided) when the segment
/// meets a wall, or passes a vertex or a stretch end, where the full search
/// decides. A straight segment is the shortest path there is, so the exact
/// search has nothing to add when this succeeds.
bool straightCorridor(const NavMesh& mesh, const MeshPoint& start, const MeshPoint& goal, const QueryFilter& filter,
                      std::vector<uint32_t>& polygons, std::vector<uint32_t>& vias)
{
    polygons.clear();
    vias.clear();
    uint32_t cur = start.polygon;
    polygons.push_back(cur);
    if (cur == goal.polygon)
        return true;
    const double sx = start.point.x, sz = start.point.z;
    const double dx = double(goal.point.x) - sx, dz = double(goal.point.z) - sz;
    if (dx * dx + dz * dz <= 0.0)
        return false;
    constexpr double kMargin = 1.0e-6; // of an edge's length, kept from its ends
    double t = 0.0;
    const uint32_t maxSteps = mesh.polygonCount() + 1;
    for (uint32_t step = 0; step < maxSteps; ++step)
    {
        // Cyrus–Beck: the smallest parameter past t at which the segment
        // leaves an edge's half-plane; a tie (a vertex) gives up.
        const uint32_t n = mesh.polygonVertexCount(cur);
        double tExit = 1.0e30;
        uint32_t exitEdge = 0;
        bool tie = false;
        glm::vec3 a = mesh.polygonVertex(cur, n - 1);
        for (uint32_t i = 0; i < n; ++i)
        {
            const glm::vec3 b = mesh.polygonVertex(cur, i);
            const double ex = double(b.x) - a.x, ez = double(b.z) - a.z;
            const double f0 = ex * (sz - a.z) - ez * (sx - a.x);
            const double f1 = ex * dz - ez * dx;
            if (f1 < 0.0)
            {
                const double te = -f0 / f1;
                if (te < tExit)
                {
                    tie = te > tExit - 1.0e-12;
                    tExit = te;
                    exitEdge = (i + n - 1) % n;
                }
                else if (te < tExit + 1.0e-12)
                {
                    tie = true;
                }
            }
            a = b;
        }
        if (tExit >= 1.0)
            return cur == goal.polygon;
        if (tie || tExit < t - 1.0e-9)
            return false;
        // The link whose stretch holds the exit point well inside.
        const double px = sx + dx * tExit, pz = sz + dz * tExit;
        const glm::vec3 ea = mesh.polygonVertex(cur, exitEdge);
        const glm::vec3 eb = mesh.polygonVertex(cur, (exitEdge + 1) % n);
        const double ex = double(eb.x) - ea.x, ez = double(eb.z) - ea.z;
        const double l2 = ex * ex + ez * ez;
        if (l2 <= 0.0)
            return false;
        const double u = ((px - ea.x) * ex + (pz - ea.z) * ez) / l2;
        const std::span<const NavLink> links = mesh.links(cur);
        uint32_t through = kNoPolygon; // index in links
        for (uint32_t k = 0; k < links.size(); ++k)
            if (links[k].edge == exitEdge && u > double(links[k].tMin) + kMargin && u < double(links[k].tMax) - kMargin)
                through = k;
        if (through == kNoPolygon)
            return false;
        const uint32_t nb = links[through].neighbour;
        if (mesh.disabled(nb) || detail::excluded(filter, mesh.area(nb)))
            return false;
        vias.push_back(mesh.firstLink(cur) + through);
        polygons.push_back(nb);
        cur = nb;
        t = tExit;
    }
    return false;
}

/// Flood over the links from `startPoly` through polygons the filter allows:
/// true when `goalPoly` is reached (early out). Otherwise `s.list` holds every
/// polygon reached.
/// Lists (in `s.list`, stamped with a new search id) the polygons of the
/// start's connected piece: what a flood over the links without exclusions reaches.
void listComponent(const NavMesh& mesh, ScratchData& s, uint32_t startPoly)
{
    detail::beginSearch(s, mesh.polygonCount());
    const uint32_t sid = s.searchId;
    const uint32_t piece = mesh.component(startPoly);
    s.list.clear();
    for (uint32_t p = 0; p < mesh.polygonCount(); ++p)
        if (mesh.component(p) == piece && (p == startPoly || !mesh.disabled(p)))
        {
            s.stamp[p] = sid;
            s.list.push_back(p);
        }
}

bool linkedTo(const NavMesh& mesh, ScratchData& s, uint32_t startPoly, uint32_t goalPoly, const QueryFilter& filter)
{
    detail::beginSearch(s, mesh.polygonCount());
    const uint32_t sid = s.searchId;
    s.list.clear();
    s.list.push_back(startPoly);
    s.stamp[startPoly] = sid;
    for (size_t i = 0; i < s.list.size(); ++i)
    {
        const uint32_t p = s.list[i];
        if (p == goalPoly)
            return true;
        for (const NavLink& link : mesh.links(p))
        {
            const uint32_t nb = link.neighbour;
            if (s.stamp[nb] == sid || mesh.disabled(nb) || detail::excluded(filter, mesh.area(nb)))
                continue;
            s.stamp[nb] = sid;
            s.list.push_back(nb);
        }
    }
    return false;
}

/// The simple walk: A* over the portals' middles (a node per link, one per
/// off-mesh link use, one for the goal), each leg at the multiplier of the
/// polygon it lies in, each leap at its link's cost. The costs are additive
/// and the heuristic (straight distance × the cheapest multiplier) consistent,
/// so this is exact for its graph. On success the corridor is in out.polygons,
/// out.entries and s.vias.
bool midpointWalk(const NavMesh& mesh, ScratchData& s, const MeshPoint& start, const MeshPoint& goal,
                  const QueryFilter& filter, std::span<const PathLink> offMesh, float minCost, PathResult& out)
{
    const uint32_t linkCount = mesh.linkCount();
    const uint32_t offCount = static_cast<uint32_t>(s.offMeshIndex.size());
    const uint32_t goalNode = linkCount + offCount;
    const uint32_t nodes = goalNode + 1;
    if (s.walkStamp.size() < nodes)
    {
        s.walkStamp.resize(nodes, 0);
        s.walkCost.resize(nodes);
        s.walkParent.resize(nodes);
    }
    detail::beginSearch(s, mesh.polygonCount()); // new search id (also for walkStamp)
    const uint32_t sid = s.searchId;
    if (sid == 1)
        std::fill(s.walkStamp.begin(), s.walkStamp.end(), 0u);
    s.walkHeap.clear();
    auto heapOrder = [](const std::pair<float, uint32_t>& a, const std::pair<float, uint32_t>& b) { return a > b; };
    // Where a node is and which polygon it stands in.
    auto nodePoint = [&](uint32_t n) -> glm::vec3 {
        if (n < linkCount)
            return 0.5f * (mesh.link(n).a + mesh.link(n).b);
        const uint32_t code = uint32_t(s.offMeshIndex[n - linkCount] & 0xffffffffu);
        const PathLink& l = offMesh[code >> 1];
        return (code & 1u) ? l.start : l.end;
    };
    auto nodePolygon = [&](uint32_t n) -> uint32_t {
        if (n < linkCount)
            return mesh.link(n).neighbour;
        const uint32_t code = uint32_t(s.offMeshIndex[n - linkCount] & 0xffffffffu);
        const PathLink& l = offMesh[code >> 1];
        return (code & 1u) ? l.startPolygon : l.endPolygon;
    };
    auto relax = [&](uint32_t n, float g, float h, uint32_t parent) {
        if (s.walkStamp[n] == sid && g >= s.walkCost[n])
            return;
        s.walkStamp[n] = sid;
        s.walkCost[n] = g;
        s.walkParent[n] = parent;
        s.walkHeap.emplace_back(g + h, n);
        std::push_heap(s.walkHeap.begin(), s.walkHeap.end(), heapOrder);
    };
    // Leaves polygon `poly` from point `at` (cost so far g) by every allowed way.
    auto leave = [&](uint32_t poly, const glm::vec3& at, float g, uint32_t from) {
        const float areaCost = filter.areaCosts[mesh.area(poly)];
        if (poly == goal.polygon)
            relax(goalNode, g + dist3(at, goal.point) * areaCost, 0.0f, from);
        const std::span<const NavLink> links = mesh.links(poly);
        for (uint32_t k = 0; k < links.size(); ++k)
        {
            const NavLink& link = links[k];
            if (mesh.disabled(link.neighbour) || detail::excluded(filter, mesh.area(link.neighbour)))
                continue;
            const uint32_t n = mesh.firstLink(poly) + k;
            const glm::vec3 mid = 0.5f * (link.a + link.b);
            relax(n, g + dist3(at, mid) * areaCost, dist3(mid, goal.point) * minCost, from);
        }
        auto it = std::lower_bound(s.offMeshIndex.begin(), s.offMeshIndex.end(), uint64_t(poly) << 32);
        for (; it != s.offMeshIndex.end() && uint32_t(*it >> 32) == poly; ++it)
        {
            const uint32_t n = linkCount + static_cast<uint32_t>(it - s.offMeshIndex.begin());
            const uint32_t code = uint32_t(*it & 0xffffffffu);
            const PathLink& l = offMesh[code >> 1];
            if (detail::excluded(filter, mesh.area(nodePolygon(n))))
                continue;
            const glm::vec3& takeoff = (code & 1u) ? l.end : l.start;
            const glm::vec3 landing = nodePoint(n);
            relax(n, g + dist3(at, takeoff) * areaCost + l.cost * dist3(takeoff, landing),
                  dist3(landing, goal.point) * minCost, from);
        }
    };
    leave(start.polygon, start.point, 0.0f, kNoPolygon);
    bool found = false;
    while (!s.walkHeap.empty())
    {
        std::pop_heap(s.walkHeap.begin(), s.walkHeap.end(), heapOrder);
        const auto [f, n] = s.walkHeap.back();
        s.walkHeap.pop_back();
        if (n == goalNode)
        {
            found = true;
            break;
        }
        const float g = s.walkCost[n];
        if (f > g + dist3(nodePoint(n), goal.point) * minCost)
            continue; // stale entry
        leave(nodePolygon(n), nodePoint(n), g, n);
    }
    if (!found)
        return false;
    out.polygons.clear();
    out.entries.clear();
    s.vias.clear();
    for (uint32_t n = s.walkParent[goalNode]; n != kNoPolygon; n = s.walkParent[n])
    {
        out.polygons.push_back(nodePolygon(n));
        const uint32_t via =
            n < linkCount ? n : (kOffMeshEntry | uint32_t(s.offMeshIndex[n - linkCount] & 0xffffffffu));
        s.vias.push_back(via);
        out.entries.push_back((via & kOffMeshEntry) ? (via & ~kOffMeshEntry) : kNoPolygon);
    }
    out.polygons.push_back(start.polygon);
    std::reverse(out.polygons.begin(), out.polygons.end());
    std::reverse(s.vias.begin(), s.vias.end());
    std::reverse(out.entries.begin(), out.entries.end());
    return true;
}

/// The corridor search (A* over the polygons; the design note at the top).
/// kLegs: each polygon is entered at its portal's point on the way from the
/// entry point before (not from the funnel's apex) and a route costs the sum
/// of its legs between entry points × the area cost of the polygon crossed,
/// with no funnel carried and no off-mesh link (the crowd's detours,
/// `detail::legSearch`). Either way entering polygon p costs `extra[p]` more
/// (empty: nothing; findPath passes none, and its instance is compiled
/// without the branch), and with kLegs the search stops after expanding
/// `maxExpanded` polygons. True when the goal's polygon was reached; the tree
/// is in s.parent / s.parentLink, the polygons reached in s.list.
template <bool kLegs>
bool polygonSearch(const NavMesh& mesh, ScratchData& s, uint32_t startPoly, const glm::vec3& start, uint32_t goalPoly,
                   const glm::vec3& goal, const QueryFilter& filter, std::span<const PathLink> offMesh, float minCost,
                   std::span<const float> extra, uint32_t maxExpanded)
{
    detail::beginSearch(s, mesh.polygonCount());
    s.heap.clear();
    s.list.clear();
    const uint32_t sid = s.searchId;
    const bool charged = !extra.empty();

    s.stamp[startPoly] = sid;
    s.cost[startPoly] = 0.0f;
    s.parent[startPoly] = kNoPolygon;
    s.parentLink[startPoly] = kNoPolygon;
    s.position[startPoly] = start;
    if constexpr (!kLegs)
        s.funnel[startPoly] = SearchFunnel{start, start, start, 0.0f, 0.0f};
    s.closed[startPoly] = 0;
    s.list.push_back(startPoly);
    if (startPoly == goalPoly)
        s.total[startPoly] = dist3(start, goal) * filter.areaCosts[mesh.area(startPoly)];
    else
        s.total[startPoly] = dist3(start, goal) * minCost;
    heapPush(s, startPoly);

    // Offers node `nb` a route (cost so far g, estimate h) entered by `via`.
    auto relax = [&](uint32_t nb, float g, float h, uint32_t via, const glm::vec3& entry, const SearchFunnel* fn) {
        if (s.stamp[nb] == sid)
        {
            if constexpr (kLegs)
            {
                // Additive costs: a cheaper route to an open polygon replaces
                // the one it has; its place in the open list is the lower of
                // the two estimates (the first estimate offered stays its key
                // when the cheaper route's is higher). Closed ones stay closed.
                if (s.closed[nb] || g >= s.cost[nb])
                    return;
                s.cost[nb] = g;
                s.total[nb] = std::min(s.total[nb], g + h);
                s.parent[nb] = s.current;
                s.parentLink[nb] = via;
                s.position[nb] = entry;
                siftUp(s, s.heapIndex[nb]);
                return;
            }
            // Routes into a polygon end at different entry points: compare
            // their estimated totals, not their costs so far. A closed polygon
            // is opened again by a clearly better route (the funnel costs are
            // not additive, so a polygon closed early may have been entered
            // from the worse side), a few times at most, and never by a route
            // through itself (the parent links stay a tree).
            if (g + h >= s.total[nb])
                return;
            if (s.closed[nb] & 1u)
            {
                if (g + h > s.total[nb] * (1.0f - kReopenMargin) || (s.closed[nb] >> 1) >= kMaxReopens)
                    return;
                for (uint32_t p = s.current; p != kNoPolygon; p = s.parent[p])
                    if (p == nb)
                        return;
                s.closed[nb] = static_cast<uint8_t>(((s.closed[nb] >> 1) + 1) << 1); // open, count kept
                s.heapIndex[nb] = kNoPolygon;
            }
        }
        else
        {
            s.stamp[nb] = sid;
            s.closed[nb] = 0;
            s.heapIndex[nb] = kNoPolygon;
            s.list.push_back(nb);
        }
        s.cost[nb] = g;
        s.total[nb] = g + h;
        s.parent[nb] = s.current;
        s.parentLink[nb] = via;
        s.position[nb] = entry;
        if constexpr (!kLegs)
            s.funnel[nb] = *fn;
        if (s.heapIndex[nb] != kNoPolygon)
            siftUp(s, s.heapIndex[nb]);
        else
            heapPush(s, nb);
    };

    uint32_t expanded = 0;
    while (!s.heap.empty())
    {
        if constexpr (kLegs)
            if (expanded >= maxExpanded)
                break;
        const uint32_t cur = heapPop(s);
        s.current = cur;
        s.closed[cur] |= 1u;
        if (cur == goalPoly)
            return true;
        if constexpr (kLegs)
            ++expanded;
        const glm::vec3 pos = s.position[cur];
        const float areaCost = filter.areaCosts[mesh.area(cur)];
        const std::span<const NavLink> links = mesh.links(cur);
        const uint32_t firstLink = mesh.firstLink(cur); // links[i] is link firstLink + i
        // (No link leads to a disabled polygon: it is in no grid cell.)
        for (const NavLink& link : links)
        {
            const uint32_t nb = link.neighbour;
            if (nb == s.parent[cur])
                continue;
            const uint8_t nbArea = mesh.area(nb);
            if (detail::excluded(filter, nbArea))
                continue;
            const uint32_t via = firstLink + static_cast<uint32_t>(&link - links.data());
            if constexpr (kLegs)
            {
                const glm::vec3 entry = detail::entryToward(link.a, link.b, pos, goal);
                float g = s.cost[cur] + dist3(pos, entry) * areaCost;
                if (charged)
                    g += extra[nb];
                float h = dist3(entry, goal);
                if (nb == goalPoly)
                {
                    // The goal's polygon: its leg to the goal is part of the cost.
                    g += h * filter.areaCosts[nbArea];
                    h = 0.0f;
                }
                relax(nb, g, h * minCost, via, entry, nullptr);
                continue;
            }
            SearchFunnel fn = s.funnel[cur];
            funnelStep(fn, link.b, link.a);
            const glm::vec3 entry = detail::entryToward(link.a, link.b, fn.apex, goal);
            fn.penalty += (areaCost - 1.0f) * dist3(pos, entry);
            if (charged)
                fn.penalty += extra[nb];
            float g;
            float h;
            if (nb == goalPoly)
            {
                fn.penalty += (filter.areaCosts[nbArea] - 1.0f) * dist3(entry, goal);
                SearchFunnel end = fn;
                funnelStep(end, goal, goal);
                g = end.apexLength + dist3(end.apex, goal) + fn.penalty;
                h = 0.0f;
            }
            else
            {
                g = fn.apexLength + dist3(fn.apex, entry) + fn.penalty;
                h = dist3(entry, goal) * minCost;
            }
            relax(nb, g, h, via, entry, &fn);
        }
        if constexpr (kLegs)
            continue;
        // Off-mesh links from this polygon: the walk to the take-off, then
        // the leap; the funnel starts again at the landing.
        auto it = std::lower_bound(s.offMeshIndex.begin(), s.offMeshIndex.end(), uint64_t(cur) << 32);
        for (; it != s.offMeshIndex.end() && uint32_t(*it >> 32) == cur; ++it)
        {
            const uint32_t code = uint32_t(*it & 0xffffffffu);
            const PathLink& l = offMesh[code >> 1];
            const bool reversed = (code & 1u) != 0;
            const uint32_t nb = reversed ? l.startPolygon : l.endPolygon;
            if (nb == s.parent[cur] || detail::excluded(filter, mesh.area(nb)))
                continue;
            const glm::vec3& takeoff = reversed ? l.end : l.start;
            const glm::vec3& landing = reversed ? l.start : l.end;
            SearchFunnel fn = s.funnel[cur];
            funnelStep(fn, takeoff, takeoff);
            const float walked = fn.apexLength + dist3(fn.apex, takeoff) + l.cost * dist3(takeoff, landing);
            SearchFunnel landed{landing, landing, landing, walked, fn.penalty + (areaCost - 1.0f) * dist3(pos, takeoff)};
            if (charged)
                landed.penalty += extra[nb];
            float g, h;
            if (nb == goalPoly)
            {
                landed.penalty += (filter.areaCosts[mesh.area(nb)] - 1.0f) * dist3(landing, goal);
                g = walked + dist3(landing, goal) + landed.penalty;
                h = 0.0f;
            }
            else
            {
                g = walked + landed.penalty;
                h = dist3(landing, goal) * minCost;
            }
            relax(nb, g, h, kOffMeshEntry | code, landing, &landed);
        }
    }
    return false;
}

/// The corridor of the search tree in s.parent / s.parentLink from the start
/// to `endPoly`, into out.polygons, out.entries and s.vias.
void corridorFromTree(ScratchData& s, uint32_t endPoly, PathResult& out)
{
    out.polygons.clear();
    out.entries.clear();
    for (uint32_t p = endPoly; p != kNoPolygon; p = s.parent[p])
        out.polygons.push_back(p);
    std::reverse(out.polygons.begin(), out.polygons.end());
    s.vias.clear();
    for (size_t i = 1; i < out.polygons.size(); ++i)
    {
        const uint32_t via = s.parentLink[out.polygons[i]];
        s.vias.push_back(via);
        out.entries.push_back((via & kOffMeshEntry) ? (via & ~kOffMeshEntry) : kNoPolygon);
    }
}

} // namespace

bool detail::legSearch(const NavMesh& mesh, ScratchData& s, uint32_t startPoly, const glm::vec3& start,
                       uint32_t goalPoly, const glm::vec3& goal, const QueryFilter& filter,
                       std::span<const float> extraCost, uint32_t maxExpanded, std::vector<uint32_t>& out)
{
    const uint32_t polys = mesh.polygonCount();
    if (startPoly >= polys || goalPoly >= polys || (!extraCost.empty() && extraCost.size() < polys))
        return false;
    if (!polygonSearch<true>(mesh, s, startPoly, start, goalPoly, goal, filter, std::span<const PathLink>(),
                             cheapestCost(filter),
                             extraCost, maxExpanded))
        return false;
    out.clear();
    for (uint32_t p = goalPoly; p != kNoPolygon; p = s.parent[p])
        out.push_back(p);
    std::reverse(out.begin(), out.end());
    return true;
}

Status findPath(const NavMesh& mesh, QueryScratch& scratch, const glm::vec3& from, const glm::vec3& to,
                const QueryFilter& filter, const glm::vec3& halfExtents, PathResult& out)
{
    return findPath(mesh, scratch, from, to, filter, halfExtents, std::span<const PathLink>(), out);
}

Status findPath(const NavMesh& mesh, QueryScratch& scratch, const glm::vec3& from, const glm::vec3& to,
                const QueryFilter& filter, const glm::vec3& halfExtents, std::span<const PathLink> offMesh,
                PathResult& out)
{
    ScratchData& s = scratch.data();
    s.anyNodesMade = 0; // (a query the straight walk answers makes none)
    out.points.clear();
    out.polygons.clear();
    out.links.clear();
    out.entries.clear();
    out.length = 0.0f;
    out.cost = 0.0f;
    out.complete = false;
    SPARK_TRY(detail::checkPoint(from, "/from"));
    SPARK_TRY(detail::checkPoint(to, "/to"));
    SPARK_TRY(detail::checkExtents(halfExtents));
    // Every area allowed at cost 1 (the default filter): valid, one cost everywhere.
    static constexpr std::array<float, kAreaCount> kUnitCosts{1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f,
                                                              1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f};
    const bool unitFilter = filter.excludedAreas == 0 &&
                            std::memcmp(filter.areaCosts.data(), kUnitCosts.data(), sizeof kUnitCosts) == 0;
    if (!unitFilter)
        SPARK_TRY(validateQueryFilter(filter));

    MeshPoint start, goal;
    if (!detail::locate(mesh, from, halfExtents, start))
        return makeError("E_NAV_OFF_MESH", "the start is not on the mesh (nothing within the search extents)", "/from");
    if (!detail::locate(mesh, to, halfExtents, goal))
        return makeError("E_NAV_OFF_MESH", "the goal is not on the mesh (nothing within the search extents)", "/to");

    const float minCost = unitFilter ? 1.0f : cheapestCost(filter);

    const uint32_t polys = mesh.polygonCount();
    // Off-mesh links by the polygon they leave from.
    s.offMeshIndex.clear();
    for (uint32_t i = 0; i < offMesh.size(); ++i)
    {
        const PathLink& l = offMesh[i];
        if (l.startPolygon >= polys || l.endPolygon >= polys || l.startPolygon == l.endPolygon ||
            mesh.disabled(l.startPolygon) || mesh.disabled(l.endPolygon))
            continue;
        s.offMeshIndex.push_back((uint64_t(l.startPolygon) << 32) | (uint64_t(i) << 1));
        if (l.bidirectional)
            s.offMeshIndex.push_back((uint64_t(l.endPolygon) << 32) | (uint64_t(i) << 1) | 1u);
    }
    std::sort(s.offMeshIndex.begin(), s.offMeshIndex.end());

    const uint32_t startPoly = start.polygon;
    const uint32_t goalPoly = goal.polygon;
    const bool goalAllowed = !detail::excluded(filter, mesh.area(goalPoly)) || goalPoly == startPoly;

    // One cost everywhere the filter allows and no off-mesh link: the exact
    // any-angle search gives the shortest path.
    bool uniform = true;
    bool coneSearchesFail = false; // the any-angle search passed its node budget
    if (!unitFilter)
        for (uint32_t a = 0; a < kAreaCount; ++a)
            if (!detail::excluded(filter, static_cast<uint8_t>(a)) && filter.areaCosts[a] != minCost)
                uniform = false;
    if (uniform && s.offMeshIndex.empty())
    {
        // (A straight walk over links never reaches another piece.)
        const bool samePiece = mesh.component(startPoly) == mesh.component(goalPoly);
        if (goalAllowed && samePiece && straightCorridor(mesh, start, goal, filter, out.polygons, s.vias))
        {
            // The straight segment is the path (not the funnel over its
            // corridor, which may turn back at a start on a portal's line).
            out.complete = true;
            out.entries.assign(s.vias.size(), kNoPolygon);
            out.points.assign({start.point, goal.point});
            finishPoints(mesh, s, filter, offMesh, out);
            return Status::success();
        }
        uint32_t endPoly = goalPoly;
        glm::vec3 endPoint = goal.point;
        // A goal the links cannot reach would make the any-angle search visit
        // every reachable polygon before giving up: a plain flood over the
        // links (no geometry) finds that first, and gives the reached set.
        // Without exclusions, polygons of one connected piece reach each other
        // (disabled polygons have no links), so the flood is only needed when
        // the pieces differ or the filter excludes an area.
        // Without exclusions, a goal in another piece is out of reach and the
        // polygons reached are the start's piece: listed from the piece ids
        // (links go both ways, so the flood would find the same set).
        bool linked;
        if (filter.excludedAreas == 0)
        {
            linked = samePiece;
            if (!linked)
                listComponent(mesh, s, startPoly);
        }
        else
            linked = linkedTo(mesh, s, startPoly, goalAllowed ? goalPoly : kNoPolygon, filter);
        using detail::AnyAngleOutcome;
        AnyAngleOutcome end = linked ? detail::anyAngleSearch(mesh, s, start, goal.point, goalPoly, filter)
                                     : AnyAngleOutcome::unreached;
        out.complete = end == AnyAngleOutcome::found;
        if (end == AnyAngleOutcome::unreached)
        {
            // The reached point closest to the goal, then the path to it.
            closestReached(mesh, s, goal.point, goalAllowed ? kNoPolygon : goalPoly, endPoly, endPoint);
            end = detail::anyAngleSearch(mesh, s, start, endPoint, endPoly, filter);
            if (end == AnyAngleOutcome::unreached)
            {
                endPoly = startPoly; // unreachable in exact arithmetic; stay safe
                endPoint = mesh.closestPointOnPolygon(startPoly, goal.point);
                s.anyGoalNode = kNoPolygon;
                end = AnyAngleOutcome::found;
            }
        }
        if (end == AnyAngleOutcome::found)
        {
            // The search's own path is the string pulled over its corridor.
            detail::anyAngleCorridor(mesh, s, startPoly, start.point, endPoint, out.polygons, s.vias,
                                     out.points);
            detail::anyAngleRelease(s);
            out.entries.assign(s.vias.size(), kNoPolygon);
            finishPoints(mesh, s, filter, offMesh, out);
            return Status::success();
        }
        // Past the node budget: the polygon search and funnel below answer
        // (bounded by the polygon count; a path, not always the shortest).
        // The weighted search is skipped: its windows would circle the same way.
        detail::anyAngleRelease(s);
        out.complete = false;
        coneSearchesFail = true;
    }

    // Areas at different costs, no off-mesh link: the cheapest vertex path
    // refined at the area borders (weighted_path.cpp), when the goal can be
    // reached; otherwise the searches below find the closest reachable point.
    if (!coneSearchesFail && s.offMeshIndex.empty() && goalAllowed &&
        (filter.excludedAreas == 0 ? mesh.component(startPoly) == mesh.component(goalPoly)
                                   : linkedTo(mesh, s, startPoly, goalPoly, filter)))
    {
        bool found = false;
        SPARK_TRY(detail::weightedPath(mesh, s, start, goal, filter, minCost, out, found));
        if (found)
            return Status::success();
    }

    // The weighted search below is a heuristic (its funnel costs are not
    // additive). The simple walk is exact for its own graph: both corridors are
    // pulled and costed, and the cheaper path is returned, so the answer never
    // costs more than the walk's.
    bool walked = false;
    float walkCost = 0.0f, walkLength = 0.0f;
    if (goalAllowed && midpointWalk(mesh, s, start, goal, filter, offMesh, minCost, out))
    {
        walked = true;
        finishPath(mesh, s, start.point, goal.point, filter, offMesh, out);
        walkCost = out.cost;
        walkLength = out.length;
        s.altPoints.swap(out.points);
        s.altPolygons.swap(out.polygons);
        s.altEntries.swap(out.entries);
        s.altLinks.clear();
        for (const PathResult::LinkUse& u : out.links)
            s.altLinks.emplace_back(u.point, u.link);
        out.points.clear();
        out.polygons.clear();
        out.entries.clear();
        out.links.clear();
    }

    const bool found = polygonSearch<false>(mesh, s, startPoly, start.point, goalPoly, goal.point, filter, offMesh,
                                           minCost, std::span<const float>(), kNoLimit);

    // The end of the corridor: the goal, or the reached point closest to it.
    uint32_t endPoly = goalPoly;
    glm::vec3 endPoint = goal.point;
    out.complete = found && goalAllowed;
    if (!out.complete)
        closestReached(mesh, s, goal.point, goalAllowed ? kNoPolygon : goalPoly, endPoly, endPoint);

    corridorFromTree(s, endPoly, out);
    finishPath(mesh, s, start.point, endPoint, filter, offMesh, out);
    if (walked && (!out.complete || walkCost < out.cost))
    {
        out.points.swap(s.altPoints);
        out.polygons.swap(s.altPolygons);
        out.entries.swap(s.altEntries);
        out.links.clear();
        for (const auto& [point, link] : s.altLinks)
            out.links.push_back(PathResult::LinkUse{point, link});
        out.cost = walkCost;
        out.length = walkLength;
        out.complete = true;
    }
    return Status::success();
}

Status pathAlongCorridor(const NavMesh& mesh, QueryScratch& scratch, const glm::vec3& start, const glm::vec3& end,
                         std::span<const uint32_t> corridor, const QueryFilter& filter, PathResult& out)
{
    ScratchData& s = scratch.data();
    out = PathResult{};
    SPARK_TRY(detail::checkPoint(start, "/start"));
    SPARK_TRY(detail::checkPoint(end, "/end"));
    SPARK_TRY(validateQueryFilter(filter));
    if (corridor.empty())
        return makeError("E_INVALID_PARAMS", "the corridor is empty", "/corridor");
    s.vias.clear();
    for (size_t i = 0; i < corridor.size(); ++i)
    {
        if (corridor[i] >= mesh.polygonCount())
            return makeError("E_INVALID_PARAMS", "no such polygon", "/corridor/" + std::to_string(i));
        if (i == 0)
            continue;
        uint32_t via = kNoPolygon;
        const std::span<const NavLink> links = mesh.links(corridor[i - 1]);
        for (uint32_t k = 0; k < links.size(); ++k)
            if (links[k].neighbour == corridor[i])
            {
                via = mesh.firstLink(corridor[i - 1]) + k;
                break;
            }
        if (via == kNoPolygon)
            return makeError("E_INVALID_PARAMS", "the polygon is not linked to the one before it",
                             "/corridor/" + std::to_string(i));
        s.vias.push_back(via);
    }
    out.polygons.assign(corridor.begin(), corridor.end());
    out.entries.assign(s.vias.size(), kNoPolygon);
    out.complete = true;
    finishPath(mesh, s, start, end, filter, std::span<const PathLink>(), out);
    return Status::success();
}

} // namespace spark::nav
