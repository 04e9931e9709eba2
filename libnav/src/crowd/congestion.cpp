// Detours round jams. Design note.
//
// Random trips through a hall of pillars take shortest paths that cross in
// the middle and hug the pillars' corners: there the demand grows past what a
// packed crowd passes, and agents wait in the jam for tens of seconds while
// parallel corridors stay free (tests/nav/crowd/crowd_soak_test.cpp). The
// cure is routing, not avoidance: each step the crowd measures how much of
// each polygon holds slow agents (`measureCongestion`, from the agents'
// states only, in handle order, touching only polygons with agents on them),
// and agents whose corridor runs into a crowded polygon, or who make no
// headway, search again with crowded polygons charged more (`planDetour`).
//
// The search is A* over the polygon graph, each polygon entered at the point
// of its portal on the way to the goal (path.cpp's entry points, without its
// funnel: a detour is a choice of corridor, and the crowd's corners pull the
// string over it each step). Entering a polygon costs kJamCost metres per
// slow agent on it, an additive cost: a wall of standing agents across a wide
// passage covers little of its area but blocks it as surely as a crowd. The
// heuristic, the straight distance, stays a lower bound. The
// open list is ordered by (estimated total, polygon id), so ties never depend
// on history. The per-step budget (kDetoursPerStep searches of at most
// kDetourNodes polygons) bounds the work.

#include "congestion.h"

#include "../query/query_common.h"

#include <algorithm>
#include <cmath>

namespace spark::nav
{

void measureCongestion(const NavMesh& mesh, std::span<CrowdAgent* const> agents, Congestion& out)
{
    const uint32_t polys = mesh.polygonCount();
    for (uint32_t p : out.touched)
        if (p < out.crowding.size())
            out.crowding[p] = 0.0f;
    out.touched.clear();
    if (out.crowding.size() < polys)
        out.crowding.resize(polys, 0.0f);
    for (const CrowdAgent* a : agents)
    {
        if (a->corridor.polygons.empty() || a->leap.active || a->state == AgentState::OffMesh)
            continue;
        const uint32_t poly = a->corridor.polygons.front();
        if (poly >= polys)
            continue;
        float share = 1.0f;
        if (a->state == AgentState::Moving)
        {
            if (a->blockedFor < kJamAfter || a->def.maxSpeed <= 0.0f)
                continue;
            const float speed = std::sqrt(a->velocity.x * a->velocity.x + a->velocity.z * a->velocity.z);
            share = std::max(0.0f, 1.0f - speed / a->def.maxSpeed);
        }
        if (share <= 0.0f)
            continue;
        if (out.crowding[poly] == 0.0f)
            out.touched.push_back(poly);
        out.crowding[poly] += share;
    }
}

bool corridorCongested(const Congestion& c, const Corridor& corridor)
{
    const size_t n = std::min<size_t>(corridor.polygons.size(), kJamLookAhead);
    for (size_t i = 0; i < n; ++i)
    {
        const uint32_t p = corridor.polygons[i];
        if (p < c.crowding.size() && c.crowding[p] >= kJamAgents)
            return true;
    }
    return false;
}

bool planDetour(const NavMesh& mesh, Congestion& c, const QueryFilter& filter, uint32_t startPoly,
                const glm::vec3& start, uint32_t goalPoly, const glm::vec3& goal, std::vector<uint32_t>& out)
{
    const uint32_t polys = mesh.polygonCount();
    if (startPoly >= polys || goalPoly >= polys)
        return false;
    if (c.crowding.size() < polys)
        c.crowding.resize(polys, 0.0f);
    if (c.stamp.size() < polys)
    {
        c.stamp.resize(polys, 0);
        c.cost.resize(polys);
        c.parent.resize(polys);
        c.entry.resize(polys);
        c.closed.resize(polys);
    }
    if (++c.searchId == 0)
    {
        std::fill(c.stamp.begin(), c.stamp.end(), 0u);
        c.searchId = 1;
    }
    const uint32_t sid = c.searchId;
    auto heapOrder = [](const std::pair<float, uint32_t>& l, const std::pair<float, uint32_t>& r) { return l > r; };
    c.heap.clear();
    auto relax = [&](uint32_t poly, float g, float h, uint32_t from, const glm::vec3& at) {
        if (c.stamp[poly] == sid && (c.closed[poly] || g >= c.cost[poly]))
            return;
        c.stamp[poly] = sid;
        c.closed[poly] = 0;
        c.cost[poly] = g;
        c.parent[poly] = from;
        c.entry[poly] = at;
        c.heap.emplace_back(g + h, poly);
        std::push_heap(c.heap.begin(), c.heap.end(), heapOrder);
    };
    relax(startPoly, 0.0f, detail::dist3(start, goal), kNoPolygon, start);
    uint32_t expanded = 0;
    bool found = false;
    while (!c.heap.empty() && expanded < kDetourNodes)
    {
        std::pop_heap(c.heap.begin(), c.heap.end(), heapOrder);
        const uint32_t cur = c.heap.back().second;
        c.heap.pop_back();
        if (c.closed[cur])
            continue; // a stale entry
        c.closed[cur] = 1;
        if (cur == goalPoly)
        {
            found = true;
            break;
        }
        ++expanded;
        const glm::vec3 pos = c.entry[cur];
        const float g = c.cost[cur];
        const float mult = filter.areaCosts[mesh.area(cur)];
        for (const NavLink& link : mesh.links(cur))
        {
            const uint32_t nb = link.neighbour;
            if (nb == c.parent[cur] || mesh.disabled(nb) || detail::excluded(filter, mesh.area(nb)))
                continue;
            const glm::vec3 at = detail::entryToward(link.a, link.b, pos, goal);
            float legs = g + detail::dist3(pos, at) * mult + kJamCost * c.crowding[nb];
            // The goal's polygon: its leg to the goal is part of the cost.
            float h = detail::dist3(at, goal);
            if (nb == goalPoly)
            {
                legs += h * filter.areaCosts[mesh.area(nb)];
                h = 0.0f;
            }
            relax(nb, legs, h, cur, at);
        }
    }
    if (!found)
        return false;
    out.clear();
    for (uint32_t p = goalPoly; p != kNoPolygon; p = c.parent[p])
        out.push_back(p);
    std::reverse(out.begin(), out.end());
    return true;
}

} // namespace spark::nav
