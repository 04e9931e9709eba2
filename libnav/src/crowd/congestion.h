#pragma once
/// \file congestion.h
/// Detours round jams (private to libnav's crowd step): how crowded each
/// polygon of a mesh is with agents that make little headway, and a search
/// over the polygons that charges crowded ones more (congestion.cpp).

#include "spark/nav/crowd.h"
#include "spark/nav/navmesh.h"
#include "spark/nav/query.h"

#include <glm/vec3.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace spark::nav
{

/// A jam is counted from agents that have made no headway for this long (an
/// agent starting off is slow too, but not for long). [Units: s]
inline constexpr float kJamAfter = 0.5f;
/// Entering a polygon costs this much more per slow agent on it (a queue to
/// wait in: a detour of that length is as good). [Units: m]
inline constexpr float kJamCost = 2.0f;
/// ... times 1 + (how long a walking one has waited, up to kJamWaitCap) /
/// kJamWaitScale: a polygon where agents wait long is a slower queue, and
/// charging it lets those waiting out (the soak's longest wait went from
/// 39.6 s to 13.1 s with a scale of 4 s, to 9.2 s with 2 s). [Units: s]
inline constexpr float kJamWaitScale = 2.0f;
inline constexpr float kJamWaitCap = 12.0f;
/// A corridor is congested when one of its next `kJamLookAhead` polygons
/// holds this many slow agents (counted as `measureCongestion` does).
inline constexpr float kJamAgents = 3.0f;
inline constexpr uint32_t kJamLookAhead = 8;
/// An agent looks for a detour every this many steps (agents take turns by
/// handle index) ... [Units: steps]
inline constexpr uint64_t kDetourPeriod = 60;
/// ... and at most this many agents of a mesh search in one step ...
inline constexpr uint32_t kDetoursPerStep = 32;
/// ... each search expanding at most this many polygons (past it the agent keeps its corridor).
inline constexpr uint32_t kDetourNodes = 4096;
/// An agent that has made no headway for this long looks for a detour on its
/// turn even when its corridor ahead is not crowded. [Units: s]
inline constexpr float kDetourBlocked = 1.0f;

/// Per-polygon crowding of one mesh, and the detour search's working arrays.
struct Congestion
{
    /// Per polygon: the slow agents on it (only `touched` are non-zero).
    std::vector<float> crowding;
    /// Per polygon: what entering it costs the detour search, kJamCost per slow
    /// agent, more for those that waited long (`measureCongestion`). [Units: m]
    std::vector<float> jamCost;
    /// Polygons whose crowding was set this step.
    std::vector<uint32_t> touched;
    /// The detour search's working arrays (path.cpp's corridor search).
    QueryScratch search;
};

/// Counts the slow agents on each polygon of `mesh` (the polygon each stands
/// on): a moving agent that has made no headway for `kJamAfter` counts
/// 1 − speed / max speed; an agent standing (arrived, idle, stopped) counts 1.
/// Each costs the detour search kJamCost × its count, a walking one times
/// 1 + min(its wait, kJamWaitCap) / kJamWaitScale (`Congestion::jamCost`).
void measureCongestion(const NavMesh& mesh, std::span<CrowdAgent* const> agents, Congestion& out);

/// True when one of the next `kJamLookAhead` polygons of the corridor holds `kJamAgents` slow agents.
bool corridorCongested(const Congestion& c, const Corridor& corridor);

/// The cheapest polygons from `start` (in `startPoly`) to `goal` (in
/// `goalPoly`), by path.cpp's corridor search with each leg costed on its own
/// (`detail::legSearch`): each leg (from entry point to entry point, each
/// entry the portal's point on the way to the goal) costs its length × the
/// area cost of the polygon it crosses, and entering a polygon its `jamCost`
/// (`measureCongestion`). False when the goal is not reached within `kDetourNodes`
/// polygons (`out` untouched).
bool planDetour(const NavMesh& mesh, Congestion& c, const QueryFilter& filter, uint32_t startPoly,
                const glm::vec3& start, uint32_t goalPoly, const glm::vec3& goal, std::vector<uint32_t>& out);

} // namespace spark::nav
