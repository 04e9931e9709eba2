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
// The search is path.cpp's corridor search (A* over the polygon graph) with
// each leg costed on its own (`detail::legSearch`): each polygon entered at
// the point of its portal on the way to the goal, without the funnel (a
// detour is a choice of corridor, and the crowd's corners pull the string
// over it each step). Entering a polygon costs kJamCost metres per slow agent
// on it (`Congestion::jamCost`, the search's per-polygon extra cost), an
// additive cost: a wall of standing agents across a wide passage covers
// little of its area but blocks it as surely as a crowd. A walking agent
// that has waited long costs more (up to 7 × at 12 s): where agents wait
// long the queue is slow, and routing others away lets them out (the soak's
// longest wait went from 39.6 s to 13.1 s with up to 4 ×, to 9.2 s with up
// to 7 ×, tests/nav/crowd/crowd_soak_test.cpp). The heuristic, the
// straight distance, stays a lower bound. The open list is ordered by
// (estimated total, polygon id), so ties never depend on history. The
// per-step budget (kDetoursPerStep searches of at most kDetourNodes
// polygons) bounds the work.

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
            out.crowding[p] = out.jamCost[p] = 0.0f;
    out.touched.clear();
    if (out.crowding.size() < polys)
    {
        out.crowding.resize(polys, 0.0f);
        out.jamCost.resize(polys, 0.0f);
    }
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
        const float waited = a->state == AgentState::Moving ? std::min(a->blockedFor, kJamWaitCap) : 0.0f;
        out.jamCost[poly] += kJamCost * share * (1.0f + waited / kJamWaitScale);
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
    if (c.crowding.size() < polys)
    {
        c.crowding.resize(polys, 0.0f);
        c.jamCost.resize(polys, 0.0f);
    }
    return detail::legSearch(mesh, c.search.data(), startPoly, start, goalPoly, goal, filter, c.jamCost, kDetourNodes,
                             out);
}

} // namespace spark::nav
