// The crowd of one mesh: its step as a list of phases, after the loop of the
// reference's navcrowd sample and Detour's dtCrowd::update (which hands its
// phases to helpers), written here. Design note.
//
// `Crowd::step` is the list: the plan queue is served (`servePlans`, after
// Detour's dtPathQueue: `setAgentTarget` only queues, and the step plans
// first come first served within a node budget); agents on off-mesh links
// follow them (`followLinks`); the others, in handle order (`gatherAgents`),
// (1) `plan`: a corridor a mesh change broke is checked and queued again
// (served at once while the budget lasts), and an agent
// heading into a jam or making no headway may take a detour round it
// (congestion.cpp has the design note); (2) `steerAgents`: the corners give
// the steering velocity (`steer`); (3) `gatherWalls`: the walls near the
// agent (on its floor: within its height vertically) are gathered again
// after it moved a quarter of the range (`wallObstacle`).
// Then (4) `findNeighbours`, over a grid of the agents (cells as wide as the short rules' range,
// `kNearRange`; keep-right has a wider grid of the walking agents only),
// (5) `applyTrafficRules` turn the steering velocity into the velocity ORCA
// prefers, because ORCA alone is local and symmetric: two groups meeting in a
// doorway, or agents pressing into a crowd at their goal, come to a standstill
// in it (a known weakness of reciprocal avoidance; Detour's avoidance biases a
// side for the same reason):
//  - Arrival against the arrived: an agent walking into an arrived agent whose
//    target lies within their radii of its own has arrived too, so a crowd sent
//    to one point settles round it instead of pressing forever.
//  - Give way: of two agents not going to the same place, within
//    `kGiveWayRange` radii of touching, whose wanted velocities close in
//    faster than `kGiveWayClosing` of the max speed, the later in handle order
//    (stuck agents before the others: one waiting at a pillar's corner for a
//    gap in a stream walking along the wall would yield to every passer with
//    a lower handle, tests/nav/crowd/crowd_soak_test.cpp) gives way, unless its priority is the higher or the earlier one gives way
//    itself (so giving way never goes round in a circle): it steps back from
//    the other and to its right, and avoids with `kGiveWayPriority` of its
//    priority, so the other gets past.
//  - Keep right: an agent meeting another that walks toward it turns to its
//    right (up to `kSideWeight` of its speed), so opposite flows pass on their
//    right instead of pressing head on. Its range (`kSideRange`, 14 radii:
//    5.6 m at r 0.4) makes lanes: two groups meeting in a corridor split into
//    one lane each before they touch.
//  - Make way (`makeWay`): an agent parked on its target steps aside for a
//    walker that has made no headway for `kMakeWayAfter` and whose line passes
//    it, then walks back; it avoids with a tiny priority meanwhile.
// (6) `avoid`: ORCA then gives each agent a velocity clear of its neighbours
// and walls; (7) `limitAcceleration`: the change of velocity is limited by
// `maxAccel`, unless the limited velocities would bring a pair closer than
// the avoidance allows in the step (then both take the avoidance's velocity:
// separation before smoothness); (8) `moveAlongSurface`: the corridor moves
// along the surface and the velocity is what the move did; a pair the move
// brought under the avoidance's guard (a wall slid an agent) is taken back
// (`holdBackTooNear`), so no pair gets closer than 0.95 × (ri + rj) unless it
// started closer; (9) `trackHeadway`: stuck and unstuck.
//
// Determinism: agents in handle order, grids in (cell, index) order, one
// avoidance call per mesh; nothing depends on the address or timing of
// anything.
//
// The constants were chosen on the scenes of tests/nav/crowd (doorways of 2,
// 2.4 and 1.6 m, crossings, head-on single file and groups, shared goal, 200
// leaving a room). The two group scenes are sensitive: keep-right ranges of 6
// to 12 radii leave the head-on groups or the 1.6 m door unfinished, and
// giving way by the longer wait (instead of handle order) took the 1.6 m door
// from 1,566 to 3,758 steps, so the order stays the handle order, with only
// the stuck (2 s without headway) first: that took it to 1,548.

#include "crowd_phases.h"
#include "spark/core/work.h"
#include "spark/nav/steer.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

namespace spark::nav
{
namespace
{

/// Priority that makes the others take the whole avoidance of a standing agent.
constexpr double kStandingPriority = 1.0e6;
/// "Gives way to no one" in the step's scratch.
constexpr uint32_t kNoAgent = 0xffffffffu;

/// ORCA: how far ahead agents avoid each other (long horizons make crowds stiff
/// and slow at doorways; short ones swerve late). [Units: s]
constexpr double kTimeHorizon = 1.5;
/// ORCA: how far ahead agents avoid walls. An agent heading for a corner of its
/// path slows down within max_speed × this of the wall behind the corner, so it
/// is short: walls are also enforced by the move along the surface. [Units: s]
constexpr double kTimeHorizonWalls = 0.5;
/// Keep right: of an agent walking toward it within this many of its radii of touching. [Units: radii]
constexpr double kSideRange = 14.0;
/// The short rules (make way, give way, arrival, the acceleration limit's
/// check, holding back) look at agents within this many radii (make way's
/// reach is the farthest: 5.9 radii). [Units: radii]
constexpr double kNearRange = 6.0;
/// Keep right: how far it turns, as a fraction of its speed sideways.
constexpr double kSideWeight = 0.5;
/// Give way: two agents within this many radii of touching can conflict. [Units: radii]
constexpr double kGiveWayRange = 1.0;
/// Give way: they conflict when their wanted velocities close in faster than this fraction of the max speed.
constexpr double kGiveWayClosing = 0.3;
/// Give way: the agent giving way steps back from the other at this fraction of its speed ...
constexpr double kGiveWayBack = 0.3;
/// ... and to its right at this fraction.
constexpr double kGiveWaySide = 0.5;
/// Give way: its avoidance priority is multiplied by this (the others take less of the avoidance of it).
constexpr double kGiveWayPriority = 0.3;
/// Arrival against the arrived: touching means centres within this × (ri + rj).
constexpr double kContact = 1.1;
/// Make way: a parked agent steps aside for a walker whose line passes within
/// their radii of it and who is within this many of the walker's radii of
/// touching it. [Units: radii]
constexpr double kMakeWayRange = 3.0;
/// Make way: the walker's line passes clear of the parked agent when their
/// centres stay this many × (ri + rj) apart (a pass at exactly touching
/// distance is one ORCA refuses: a rounding error is an overlap).
constexpr double kMakeWayClear = 1.5;
/// Make way: only for a walker that has made no headway for this long (one
/// that can walk round the parked agent does so). [Units: s]
constexpr float kMakeWayAfter = 0.5f;
/// Make way: it steps aside at this fraction of its max speed ...
constexpr double kMakeWaySpeed = 0.6;
/// ... and its avoidance priority is multiplied by this (it takes nearly all of
/// the avoidance: the walker passes as if it were not there, the parked agent
/// is pushed aside).
constexpr double kMakeWayPriority = 0.01;

// Plane helpers on (x, z), in double.
glm::dvec2 xz(const glm::vec3& v) { return glm::dvec2(v.x, v.z); }
double dot2(const glm::dvec2& a, const glm::dvec2& b) { return a.x * b.x + a.y * b.y; }
double len2(const glm::dvec2& v) { return v.x * v.x + v.y * v.y; }
double square(double v) { return v * v; }
/// The right of a heading (x, z), +Y up: (−z, x).
glm::dvec2 rightOf(const glm::dvec2& d) { return glm::dvec2(-d.y, d.x); }
/// Squared distance within which two wall ends are the same point. [Units: m²]
constexpr double kSameEnd2 = 1.0e-8;

/// The agent stands at `point` of `polygon`: its corridor that polygon alone, no link.
void standOnPolygon(CrowdAgent& a, const glm::vec3& point, uint32_t polygon)
{
    a.position = point;
    a.corridor.position = point;
    a.corridor.polygons.assign(1, polygon);
    a.corridor.hops.clear();
    a.corridor.target = point;
}

} // namespace
// A wall is where an agent's centre may go; the obstacle is r further out.
// At an outside corner the two moved walls overlap past the corner, over ground
// the centre may cross (an agent walking along one toward the corner would stop
// there), so each is cut back to where the moved walls meet: the moved walls
// cross at at + r·n + s·along with s = r(1 − n·on)/(along·on). Ends closer
// than 0.1 mm are one (a wall's ends at a T-junction are interpolated).
bool wallObstacle(std::span<const WallHit> walls, size_t k, double r, glm::dvec2& p0, glm::dvec2& p1)
{
    const NavWall& w = walls[k].wall;
    const glm::dvec2 a(w.a.x, w.a.z), b(w.b.x, w.b.z);
    const glm::dvec2 n(w.normal.x, w.normal.z);
    const double length = std::sqrt(len2(b - a));
    if (!(length > 0.0) || len2(n) == 0.0)
        return false;
    // How far to cut back from each end (0: a, 1: b).
    double cut[2] = {0.0, 0.0};
    for (int end = 0; end < 2; ++end)
    {
        const glm::dvec2 at = end == 0 ? a : b;
        const glm::dvec2 along = (end == 0 ? b - a : a - b) / length; // from the end into the wall
        for (size_t m = 0; m < walls.size(); ++m)
        {
            if (m == k)
                continue;
            const NavWall& o = walls[m].wall;
            const glm::dvec2 oa(o.a.x, o.a.z), ob(o.b.x, o.b.z), on(o.normal.x, o.normal.z);
            glm::dvec2 far;
            if (len2(oa - at) <= kSameEnd2)
                far = ob;
            else if (len2(ob - at) <= kSameEnd2)
                far = oa;
            else
                continue;
            if (dot2(far - at, n) <= 1.0e-9 * length)
                continue; // not an outside corner
            const double den = dot2(along, on);
            if (den <= 0.0)
                continue;
            cut[end] = std::max(cut[end], r * (1.0 - dot2(n, on)) / den);
        }
    }
    if (cut[0] + cut[1] >= length)
        return false;
    const glm::dvec2 dir = (b - a) / length;
    p0 = a + n * r + dir * cut[0];
    p1 = b + n * r - dir * cut[1];
    return true;
}

void resetHeadway(CrowdAgent& a)
{
    a.anchor = a.position;
    a.blockedFor = 0.0f;
    a.stuck = false;
    if (a.reason == AgentReason::BlockedByAgents || a.reason == AgentReason::NoHeadway)
        a.reason = AgentReason::None;
}

namespace
{

using StepData = CrowdStepData;
using GridCell = CrowdStepData::Cell;

/// The cell of a point (x, z) in a grid of cells `cellSize` wide, packed.
uint64_t gridCell(const glm::dvec2& p, double cellSize, int64_t dx = 0, int64_t dz = 0)
{
    const int64_t cx = static_cast<int64_t>(std::floor(p.x / cellSize)) + dx;
    const int64_t cz = static_cast<int64_t>(std::floor(p.y / cellSize)) + dz;
    return (static_cast<uint64_t>(static_cast<uint32_t>(static_cast<int32_t>(cx))) << 32) |
           static_cast<uint64_t>(static_cast<uint32_t>(static_cast<int32_t>(cz)));
}

/// A grid of the agents `keep(i)` accepts: sorted by (cell, index), a fixed order.
template <class Keep>
void buildGrid(std::vector<GridCell>& grid, const std::vector<glm::dvec2>& position, double cellSize, Keep&& keep)
{
    grid.clear();
    for (size_t i = 0; i < position.size(); ++i)
        if (keep(i))
            grid.push_back({gridCell(position[i], cellSize), static_cast<uint32_t>(i)});
    std::sort(grid.begin(), grid.end(), [](const GridCell& l, const GridCell& r) {
        return l.cell != r.cell ? l.cell < r.cell : l.index < r.index;
    });
}

/// Calls visit(j) for every agent of the grid in the 3 × 3 cells round `p`, in grid order.
template <class Visit>
void forEachInCells(const std::vector<GridCell>& grid, double cellSize, const glm::dvec2& p, Visit&& visit)
{
    for (int64_t dz = -1; dz <= 1; ++dz)
        for (int64_t dx = -1; dx <= 1; ++dx)
        {
            const uint64_t key = gridCell(p, cellSize, dx, dz);
            auto it = std::lower_bound(grid.begin(), grid.end(), key,
                                       [](const GridCell& l, uint64_t k) { return l.cell < k; });
            for (; it != grid.end() && it->cell == key; ++it)
                visit(it->index);
        }
}

/// Calls visit(j) for every other agent near agent i (within one cell width
/// at the start of the step), in the neighbour grid's order: a fixed order.
template <class Visit> void forEachNearOf(const StepData& cs, size_t i, Visit&& visit)
{
    for (uint32_t k = cs.nearStart[i], end = cs.nearStart[i + 1]; k < end; ++k)
        visit(static_cast<size_t>(cs.nearList[k]));
}

/// True when `a` ignores `b` (a layer of b's is one a ignores).
bool ignores(const CrowdAgent& a, const CrowdAgent& b)
{
    return (a.def.ignores & b.def.layers) != 0;
}

/// True when both go to the same place (their corridors' ends within their radii).
bool sameGoal(const CrowdAgent& a, const CrowdAgent& b)
{
    if (!a.hasTarget || !b.hasTarget)
        return false;
    const double reach = static_cast<double>(a.def.radius) + b.def.radius;
    return len2(xz(a.corridor.target) - xz(b.corridor.target)) <= reach * reach;
}

/// True when two agents stand on one floor (heights apart less than the taller one's height).
bool oneLevel(const CrowdAgent& a, const CrowdAgent& b)
{
    return std::fabs(a.position.y - b.position.y) < std::max(a.def.height, b.def.height);
}

/// Parked: it has arrived at its target, or walks back to it after making way.
bool parked(const CrowdAgent& a)
{
    return a.hasTarget && !a.manualVelocity && !a.leap.active &&
           (a.state == AgentState::Arrived ||
            (a.state == AgentState::Moving && a.reason == AgentReason::MakingWay));
}

/// May look for a detour: it follows a complete corridor of more than one
/// polygon, without off-mesh links (a detour takes none), and is not making way.
bool mayDetour(const CrowdAgent& a)
{
    return a.state == AgentState::Moving && a.hasTarget && !a.manualVelocity && !a.leap.active &&
           a.planTicket == 0 && a.reason != AgentReason::MakingWay && a.corridor.complete && a.corridor.hops.empty() &&
           a.corridor.polygons.size() > 1;
}

/// Rule "make way": a parked agent in the path of a walking agent that is not
/// going to its place (the walker's line passes within their radii of it,
/// within `kMakeWayRange` of the walker's radii ahead of touching, and not
/// past the walker's goal) steps
/// aside, away from that line (to the walker's left when exactly on it: the
/// walker keeps right), at `kMakeWaySpeed` of its speed; it is `moving` with
/// reason `making_way` and avoids with `kMakeWayPriority` of its priority, so
/// the walker passes. With no walker in the way it walks back to its target
/// (its steering) and arrives again. Of several walkers, the nearest ahead.
/// For agent i: it reads the others' positions, headings and goals and
/// writes only agent i.
void makeWay(StepData& cs, size_t i)
{
    CrowdAgent& a = *cs.agents[i];
    if (!parked(a))
        return;
    double nearest = std::numeric_limits<double>::infinity();
    glm::dvec2 aside(0.0);
    forEachNearOf(cs, i, [&](size_t j) {
        const CrowdAgent& b = *cs.agents[j];
        if (!cs.walking[j] || b.blockedFor < kMakeWayAfter || ignores(b, a) || sameGoal(a, b))
            return;
        const glm::dvec2 dj = cs.heading[j];
        const glm::dvec2 rel = cs.position[i] - cs.position[j];
        const double touch = static_cast<double>(a.def.radius) + b.def.radius;
        const double along = dot2(rel, dj), across = dot2(rel, rightOf(dj));
        const double toGoal = std::sqrt(len2(xz(b.corridor.target) - cs.position[j]));
        if (along <= 0.0 || along - touch >= b.def.radius * kMakeWayRange || std::fabs(across) >= touch * kMakeWayClear ||
            along - touch >= toGoal || along >= nearest)
            return; // behind it, too far ahead, clear of its line, past its goal, or not the nearest
        nearest = along;
        aside = across > 0.0 ? rightOf(dj) : -rightOf(dj);
    });
    if (!(nearest < std::numeric_limits<double>::infinity()))
        return;
    const double speed = static_cast<double>(a.def.maxSpeed) * kMakeWaySpeed;
    a.state = AgentState::Moving;
    a.reason = AgentReason::MakingWay;
    a.desired = glm::vec3(static_cast<float>(aside.x * speed), 0.0f, static_cast<float>(aside.y * speed));
    cs.standing[i] = 0;
}

/// Separation before motion: the move along the surface can end elsewhere than
/// the velocity asked (a wall slides the agent, the acceleration limit was
/// undone), so after the moves each pair on one floor that ended closer than
/// `guardRatio` × (ri + rj) and closer than it was is taken back: both
/// agents return to where they stood (a velocity of zero), until no pair is.
/// It ends: with every agent taken back the step changes no distance.
/// This is what keeps "no pair under 0.95 × 2r" at every step.
void holdBackTooNear(StepData& cs, size_t n, double guardRatio, const NavMesh& mesh, QueryScratch& scratch,
                     const QueryFilter& filter, float invDt)
{
    cs.heldBack.assign(n, 0);
    auto takeBack = [&](size_t k) {
        CrowdAgent& a = *cs.agents[k];
        cs.heldBack[k] = 1;
        if (a.position == cs.before[k])
            return;
        if (moveCorridor(mesh, scratch, a.corridor, cs.before[k], filter).ok())
            a.position = a.corridor.position;
        a.velocity = glm::vec3((a.position.x - cs.before[k].x) * invDt, 0.0f, (a.position.z - cs.before[k].z) * invDt);
    };
    for (bool changed = true; changed;)
    {
        changed = false;
        for (size_t i = 0; i < n; ++i)
            forEachNearOf(cs, i, [&](size_t j) {
                if (j < i || (cs.heldBack[i] && cs.heldBack[j]))
                    return; // each pair once; both back where they were
                const CrowdAgent& a = *cs.agents[i];
                const CrowdAgent& b = *cs.agents[j];
                if ((ignores(a, b) && ignores(b, a)) || !oneLevel(a, b))
                    return;
                const double guard = guardRatio * (static_cast<double>(a.def.radius) + b.def.radius);
                const double now2 = len2(xz(b.position) - xz(a.position));
                if (now2 >= guard * guard || now2 >= len2(xz(cs.before[j]) - xz(cs.before[i])))
                    return;
                for (size_t k : {i, j})
                    if (!cs.heldBack[k])
                        takeBack(k);
                changed = true;
            });
    }
}
/// The unit direction agent i wants to walk in (out), when it follows its corridor (true).
bool wantDir(const StepData& cs, size_t i, glm::dvec2& out)
{
    out = cs.heading[i];
    return cs.walking[i] != 0;
}

} // namespace

/// A per-agent phase takes one more thread per this many agents (up to the
/// crowd's threads), as the avoidance does: waking a thread costs about as
/// much as ~100 agents' work. Work only.
constexpr size_t kAgentsPerWorker = 128;
/// Workers take the agents this many at a time (neighbours in handle order
/// are often neighbours on the mesh). Work only.
constexpr size_t kAgentsPerChunk = 32;

void Crowd::setThreads(int threads)
{
    if (threads == m_threads)
        return;
    m_threads = threads;
    m_avoidance.reset(); // made again with the new count by `prepare`
}

unsigned Crowd::threadsWanted() const
{
    return workerThreads(m_threads);
}

template <class Job> void Crowd::forEachAgent(size_t n, const Job& job)
{
    const unsigned wanted = threadsWanted();
    const unsigned count = static_cast<unsigned>(std::clamp<size_t>(n / kAgentsPerWorker, 1, wanted));
    if (count == 1)
    {
        CrowdWorker& w = mainWorker();
        for (size_t i = 0; i < n; ++i)
            job(w, i);
        return;
    }
    while (m_workers.size() < count)
        m_workers.push_back(std::make_unique<CrowdWorker>());
    std::atomic<size_t> next{0};
    const size_t chunks = (n + kAgentsPerChunk - 1) / kAgentsPerChunk;
    auto work = [&](unsigned k) {
        CrowdWorker& w = *m_workers[k];
        for (size_t c = next.fetch_add(1, std::memory_order_relaxed); c < chunks;
             c = next.fetch_add(1, std::memory_order_relaxed))
            for (size_t i = c * kAgentsPerChunk; i < std::min(n, (c + 1) * kAgentsPerChunk); ++i)
                job(w, i);
    };
    m_pool.run(count, work);
}

Status Crowd::prepare()
{
    if (!m_avoidance)
    {
        AvoidanceDef def = defaultAvoidanceDef();
        def.maxAgents = static_cast<int>(kMaxCrowdAgents);
        def.maxObstacles = kMaxAvoidanceCapacity;
        def.maxObstaclePoints = kMaxAvoidanceCapacity;
        def.maxNeighbors = kMaxAgentNeighbors;
        def.timeHorizon = kTimeHorizon;
        def.timeHorizonObstacles = kTimeHorizonWalls;
        def.threads = m_threads;
        auto made = createAvoidance(def);
        if (!made.ok())
            return made.error();
        m_avoidance.emplace(std::move(made.value()));
        m_guardRatio = 1.0 - m_avoidance->def().overlapTolerance;
    }
    if (m_workers.empty())
        m_workers.push_back(std::make_unique<CrowdWorker>());
    return Status::success();
}

void Crowd::step(const CrowdStepInputs& in)
{
    in.world->pathLinksOf(m_mesh, m_links);
    m_planSpent = 0;
    servePlans(in); // the targets set since the last step first: the jam measure sees them planned
    gatherAgents(in); // before the links: an agent landing this step steps from the next
    followLinks(in);
    if (m_stepAgents.empty())
    {
        servePlans(in); // those landed this step
        return;
    }
    plan(in);
    steerAgents(in);
    gatherWalls(in);
    findNeighbours(in);
    applyTrafficRules(in);
    avoid(in);
    limitAcceleration(in);
    moveAlongSurface(in);
    trackHeadway(in);
}

// 0. Agents on an off-mesh link follow it, out of everyone's way, and on
//    landing find their polygon and plan on from there (next step).
void Crowd::followLinks(const CrowdStepInputs& in)
{
    const NavMesh& navmesh = *in.mesh;
    const double dt = in.dt;
    const uint32_t generation = in.generation, linkGeneration = in.linkGeneration;
    auto& agents = in.world->m_state.agents;
    agents.forEach([&](AgentId id, const CrowdAgent& c) {
        if (c.mesh != m_mesh || !c.leap.active)
            return;
        CrowdAgent& a = *agents.get(id);
        CrowdAgent::Leap& l = a.leap;
        l.time += static_cast<float>(dt);
        const float s = std::min(l.time / l.duration, 1.0f);
        const glm::vec3 before = a.position;
        a.position = l.hop.start + (l.hop.end - l.hop.start) * s;
        if (l.hop.kind == OffMeshKind::Jump && !navmesh.is2d())
            a.position.y += 4.0f * l.hop.arcHeight * s * (1.0f - s);
        a.velocity = (a.position - before) * static_cast<float>(1.0 / dt);
        a.reason = AgentReason::OnLink;
        if (s < 1.0f)
            return;
        // Landed.
        l.active = false;
        a.position = l.hop.end;
        a.velocity = glm::vec3(0.0f);
        (void)landCorridor(a.corridor);
        auto at = findNearest(navmesh, a.position, agentSearchExtents(a.def));
        if (at.ok())
        {
            // It stands on its polygon and plans on from there (the plan queue, this step).
            standOnPolygon(a, at->point, at->polygon);
            a.state = AgentState::Moving;
            a.reason = AgentReason::None;
            if (a.planTicket == 0)
            {
                a.planTicket = ++in.world->m_state.planRequests;
                a.planFresh = false;
            }
        }
        else
        {
            a.corridor.polygons.clear();
            a.corridor.hops.clear();
            a.state = AgentState::OffMesh;
            a.reason = AgentReason::OffMesh;
        }
        resetHeadway(a);
        a.corridorGeneration = generation;
        a.linkGeneration = linkGeneration;
        a.wallGeneration = 0;
    });
}

void Crowd::gatherAgents(const CrowdStepInputs& in)
{
    CrowdStepData& cs = m_data;
    auto& agents = in.world->m_state.agents;
    m_stepAgents.clear();
    agents.forEach([&](AgentId id, const CrowdAgent& a) {
        if (a.mesh == m_mesh && !a.leap.active)
            m_stepAgents.push_back(id);
    });
    const size_t n = m_stepAgents.size();
    // The agents do not move in memory during the step: look each one up once.
    cs.agents.resize(n);
    for (size_t i = 0; i < n; ++i)
        cs.agents[i] = agents.get(m_stepAgents[i]);
    m_maxRadius = m_maxSpeed = 0.0;
    for (size_t i = 0; i < n; ++i)
    {
        m_maxRadius = std::max(m_maxRadius, static_cast<double>(cs.agents[i]->def.radius));
        m_maxSpeed = std::max(m_maxSpeed, static_cast<double>(cs.agents[i]->def.maxSpeed));
    }
    measureCongestion(*in.mesh, cs.agents, cs.congestion);
}

void Crowd::plan(const CrowdStepInputs& in)
{
    CrowdStepData& cs = m_data;
    const NavMesh& navmesh = *in.mesh;
    const uint32_t generation = in.generation, linkGeneration = in.linkGeneration;
    const QueryFilter& filter = in.filter;
    const NavWorld& world = *in.world;
    const size_t n = m_stepAgents.size();
    cs.plannedAgain.assign(n, 0);
    // 1. A mesh change (a new generation: a re-bake, or carving, which gives
    //    new generations only to the polygon slots it changed): a corridor
    //    whose polygons all kept their generation stays (`checkCorridor`);
    //    otherwise find the agent again, and one with a target plans again.
    //    Per agent.
    forEachAgent(n, [&](CrowdWorker&, size_t i) {
        CrowdAgent& a = agentAt(i);
        if (a.corridorGeneration != generation && !a.replan && world.corridorStillValid(m_mesh, a) &&
            !(a.hasTarget && a.linkGeneration != linkGeneration))
        {
            a.corridorGeneration = generation;
            a.wallGeneration = 0; // walls near it may have changed
        }
        if (a.replan)
            a.corridorGeneration = 0; // relocated, or given a speed again: plan again
        a.replan = false;
        if (a.hasTarget && !a.manualVelocity && a.linkGeneration != linkGeneration)
            a.corridorGeneration = 0; // the links changed: plan again
        a.linkGeneration = linkGeneration;
        const bool planAgain = a.corridorGeneration != generation;
        bool search = false;
        if (planAgain)
        {
            auto at = findNearest(navmesh, a.position, agentSearchExtents(a.def));
            if (!at.ok())
            {
                a.state = AgentState::OffMesh;
                a.reason = AgentReason::OffMesh;
                a.corridor.polygons.clear();
            }
            else
            {
                a.position = at->point;
                a.corridor.position = at->point;
                a.corridor.polygons.assign(1, at->polygon);
                a.corridor.target = at->point;
                if (a.state == AgentState::OffMesh)
                {
                    a.state = a.hasTarget || a.manualVelocity ? AgentState::Moving : AgentState::Idle;
                    a.reason = AgentReason::None;
                }
                if (a.hasTarget)
                    search = true; // into the plan queue (below)
            }
            a.corridorGeneration = generation;
            a.wallGeneration = 0;
        }
        cs.plannedAgain[i] = search ? 2 : planAgain ? 1 : 0;
    });
    //    Those with a target join the plan queue in handle order (an agent
    //    waiting already keeps its place); then the queue is served.
    for (size_t i = 0; i < n; ++i)
    {
        CrowdAgent& a = agentAt(i);
        if (cs.plannedAgain[i] == 2 && a.planTicket == 0)
        {
            a.planTicket = ++in.world->m_state.planRequests;
            a.planFresh = false;
        }
    }
    servePlans(in);
    // 1b. A detour round a jam (congestion.cpp): on its turn, an agent whose
    //     corridor runs into a crowded polygon or that makes no headway, or a
    //     stuck one just planned again, searches with crowded polygons
    //     charged more, within the step's budget: in handle order.
    uint32_t detours = 0;
    for (size_t i = 0; i < n && detours < kDetoursPerStep; ++i)
    {
        CrowdAgent& a = agentAt(i);
        if (mayDetour(a) &&
            ((cs.plannedAgain[i] && a.stuck) ||
             ((in.step + m_stepAgents[i].index) % kDetourPeriod == 0 &&
              (a.blockedFor >= kDetourBlocked || corridorCongested(cs.congestion, a.corridor)))))
        {
            ++detours;
            if (planDetour(navmesh, cs.congestion, filter, a.corridor.polygons.front(), a.position,
                           a.corridor.polygons.back(), a.corridor.target, cs.detour) &&
                cs.detour.size() <= kMaxCorridorPolygons && cs.detour != a.corridor.polygons)
                a.corridor.polygons.assign(cs.detour.begin(), cs.detour.end());
        }
    }
}

namespace
{

/// How a plan request's search ended.
enum PlanOutcome : uint8_t
{
    kPlanned = 0,     ///< A corridor (complete, or to the closest point reached).
    kStartOffMesh = 1, ///< The agent stands where no polygon is.
    kGoalOffMesh = 2,  ///< The target is where no polygon is (the mesh changed since it was set).
};

/// The agent stands on the polygon under it, with no route: no_path /
/// unreachable (off_mesh when no polygon is within its reach).
void standUnreachable(CrowdAgent& a, const NavMesh& mesh)
{
    auto at = findNearest(mesh, a.position, agentSearchExtents(a.def));
    if (!at.ok())
    {
        a.state = AgentState::OffMesh;
        a.reason = AgentReason::OffMesh;
        a.corridor.polygons.clear();
        return;
    }
    standOnPolygon(a, at->point, at->polygon);
    a.state = AgentState::NoPath;
    a.reason = AgentReason::Unreachable;
}

/// An agent's plan request served: its corridor `planned` (swapped in) and
/// its state. A new order (`planFresh`, whose headway `setAgentTarget`
/// started again) starts its state again, as `setAgentTarget` did when it
/// planned at once; a re-plan keeps an
/// arrived agent arrived and a stuck one stuck (until it makes headway).
void commitPlan(CrowdAgent& a, Corridor& planned, uint8_t outcome, const CrowdStepInputs& in)
{
    const bool fresh = a.planFresh;
    a.planTicket = 0;
    a.planFresh = false;
    a.corridorGeneration = in.generation;
    a.linkGeneration = in.linkGeneration;
    if (fresh)
    {
        a.plannedTarget = a.target;
        a.corners.clear();
    }
    if (outcome != kPlanned)
    {
        standUnreachable(a, *in.mesh);
        return;
    }
    if (!planned.complete)
    {
        a.state = AgentState::NoPath;
        a.reason = AgentReason::Unreachable;
        if (fresh)
        {
            // Unreachable: stand where it is and say so.
            a.corridor.position = a.position;
            a.corridor.target = a.position;
            a.corridor.polygons.assign(1, planned.polygons.front());
            a.corridor.complete = false;
        }
        return;
    }
    std::swap(a.corridor, planned);
    if (fresh)
    {
        a.state = AgentState::Moving;
        a.reason = AgentReason::None;
        // A target but no speed (the first step would say so too).
        if (a.def.maxSpeed <= 0.0f && distXZ(a.position, a.corridor.target) > a.def.stopDistance)
        {
            a.state = AgentState::NoPath;
            a.reason = AgentReason::ZeroSpeed;
        }
        return;
    }
    a.state = a.state == AgentState::Arrived ? AgentState::Arrived : AgentState::Moving;
    if (!a.stuck && a.reason != AgentReason::MakingWay)
        a.reason = AgentReason::None; // a stuck agent stays so until it makes headway
}

} // namespace

// 1a. The plan queue, after Detour's dtPathQueue: the requests of the
//     mesh's agents in ticket order (first come first served), each one
//     search. A search once started finishes (the any-angle search is not
//     resumable; its own node limit bounds it) and is charged in full, so a
//     request is started while the step has spent less than its budget and
//     the rest wait, in order, for the next step. The searches of a batch
//     run on the workers (each reads its agent and the mesh, writes its own
//     answer); the answers are taken in ticket order until the budget is
//     spent, and those of the batch past it are thrown away (searched again
//     next step): which requests are served depends only on the order and
//     the node counts, never on the thread count.
void Crowd::servePlans(const CrowdStepInputs& in)
{
    auto& agents = in.world->m_state.agents;
    m_planQueue.clear();
    m_planLeft = 0;
    agents.forEach([&](AgentId id, const CrowdAgent& a) {
        if (a.mesh == m_mesh && a.planTicket != 0 && !a.leap.active)
            m_planQueue.push_back(agents.get(id));
    });
    if (m_planQueue.empty())
        return;
    std::sort(m_planQueue.begin(), m_planQueue.end(),
              [](const CrowdAgent* l, const CrowdAgent* r) { return l->planTicket < r->planTicket; });
    // One request at a time on one thread (nothing thrown away); a batch
    // that fills the workers otherwise.
    const unsigned wanted = threadsWanted();
    const size_t batch = wanted > 1 ? static_cast<size_t>(wanted) * kAgentsPerWorker : 1;
    uint64_t& spent = m_planSpent;
    const uint64_t before = spent;
    size_t next = 0;
    while (next < m_planQueue.size() && spent < in.planBudget)
    {
        const size_t count = std::min(batch, m_planQueue.size() - next);
        if (m_planned.size() < count)
            m_planned.resize(count);
        m_planNodes.resize(count);
        m_planOutcome.resize(count);
        forEachAgent(count, [&](CrowdWorker& w, size_t k) {
            const CrowdAgent& a = *m_planQueue[next + k];
            Corridor& planned = m_planned[k];
            const Status st = planCorridor(*in.mesh, w.scratch, a.position, a.target, in.filter,
                                           agentSearchExtents(a.def), m_links, planned);
            m_planOutcome[k] = st.ok() ? kPlanned : st.error().field == "/from" ? kStartOffMesh : kGoalOffMesh;
            // Charged: the any-angle search's nodes, else (a straight walk,
            // the polygon search with off-mesh links) the corridor's polygons.
            const uint32_t made = w.scratch.lastSearchNodes();
            m_planNodes[k] = std::max<uint32_t>(
                1, made != 0 ? made : st.ok() ? static_cast<uint32_t>(planned.polygons.size()) : 0u);
        });
        for (size_t k = 0; k < count && spent < in.planBudget; ++k, ++next)
        {
            commitPlan(*m_planQueue[next], m_planned[k], m_planOutcome[k], in);
            spent += m_planNodes[k];
        }
    }
    // The rest wait (standing, `steerAgents`), and say so.
    for (size_t k = next; k < m_planQueue.size(); ++k)
    {
        CrowdAgent& a = *m_planQueue[k];
        if (a.state == AgentState::Moving && a.reason == AgentReason::None)
            a.reason = AgentReason::WaitingForPlan;
    }
    CrowdPlanStats& stats = in.world->m_planStats;
    stats.served += static_cast<uint32_t>(next);
    stats.searches += static_cast<uint32_t>(next);
    stats.nodes += spent - before;
    stats.maxNodes = std::max(stats.maxNodes, spent);
    m_planLeft = static_cast<uint32_t>(m_planQueue.size() - next);
}

// 2. Corners and steering. Per agent.
void Crowd::steerAgents(const CrowdStepInputs& in)
{
    CrowdStepData& cs = m_data;
    const NavMesh& navmesh = *in.mesh;
    const double dt = in.dt;
    const size_t n = m_stepAgents.size();
    cs.standing.assign(n, 0);
    forEachAgent(n, [&](CrowdWorker& w, size_t i) {
        CrowdAgent& a = agentAt(i);
        a.desired = glm::vec3(0.0f);
        a.corners.clear();
        if (a.state == AgentState::Moving && a.planTicket != 0)
        {
            cs.standing[i] = 1; // waiting for its plan: it stands (others avoid it as standing)
            return;
        }
        if (a.state == AgentState::Moving && a.manualVelocity)
            a.desired = a.manual;
        else if (a.state == AgentState::Moving &&
                 findCorridorCorners(navmesh, w.scratch, a.corridor, kAgentCorners, a.corners).ok())
        {
            SteerDef sd = defaultSteerDef();
            sd.maxSpeed = a.def.maxSpeed;
            sd.slowRadius = a.def.slowRadius;
            sd.stopDistance = a.def.stopDistance;
            auto st = steer(a.position, a.corners, sd);
            // No corner: the agent stands within 1 mm of the corridor's end
            // (its target, or the take-off of its next link, which the
            // corners skip when that near).
            const bool atEnd = a.corners.empty();
            // At the take-off of an off-mesh link: start across it.
            if (!a.corridor.hops.empty() &&
                ((atEnd && distXZ(a.position, a.corridor.hops.front().start) <= kLinkTakeoffReach) ||
                 (!atEnd && (a.corners.front().flags & kCornerOffMeshStart) &&
                  distXZ(a.position, a.corners.front().point) <= kLinkTakeoffReach)))
            {
                const CorridorHop& hop = a.corridor.hops.front();
                const glm::vec3 d = hop.end - a.position;
                const float length = std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
                // A crossing longer than kMaxLeapSeconds (a link speed near 0) is refused.
                if (!(length / hop.speed <= kMaxLeapSeconds))
                {
                    a.state = AgentState::NoPath;
                    a.reason = AgentReason::LinkTooSlow;
                    a.velocity = glm::vec3(0.0f);
                }
                else
                {
                    CrowdAgent::Leap& l = a.leap;
                    l.active = true;
                    l.hop = hop;
                    l.time = 0.0f;
                    l.hop.start = a.position;
                    l.duration = std::max(length / l.hop.speed, static_cast<float>(dt));
                    a.reason = AgentReason::OnLink;
                }
                a.desired = glm::vec3(0.0f);
            }
            else if ((st.ok() && st->arrived) || (atEnd && a.corridor.complete && a.corridor.hops.empty()))
            {
                a.state = AgentState::Arrived;
                if (a.reason == AgentReason::MakingWay)
                    a.reason = AgentReason::None; // back on its target
                a.velocity = glm::vec3(0.0f);
            }
            else if (a.def.maxSpeed <= 0.0f)
            {
                // A target but no speed to walk to it.
                a.state = AgentState::NoPath;
                a.reason = AgentReason::ZeroSpeed;
                a.velocity = glm::vec3(0.0f);
            }
            else if (st.ok())
                a.desired = st->velocity;
        }
        cs.standing[i] = a.state != AgentState::Moving || a.leap.active ? 1 : 0;
    });
}

// 3. Walls near the agent, gathered again after a quarter of the range. Per agent.
void Crowd::gatherWalls(const CrowdStepInputs& in)
{
    const NavMesh& navmesh = *in.mesh;
    const uint32_t generation = in.generation;
    forEachAgent(m_stepAgents.size(), [&](CrowdWorker& w, size_t i) {
        CrowdAgent& a = agentAt(i);
        // The range covers every wall ORCA can reach (the radius plus max_speed
        // × its wall horizon) until they are gathered again: a third more.
        const float range = static_cast<float>(
            (a.def.radius * 2.0 + static_cast<double>(a.def.maxSpeed) * kTimeHorizonWalls) * (4.0 / 3.0));
        if (a.state != AgentState::OffMesh &&
            (a.wallGeneration != generation || distXZ(a.position, a.wallCenter) > range * 0.25f))
        {
            a.walls.clear();
            if (findWalls(navmesh, w.scratch, a.position, range, w.wallHits).ok())
            {
                // Walls a floor above or below (as far as its height) are not in its way.
                std::erase_if(w.wallHits,
                              [&](const WallHit& h) { return std::fabs(h.closest.y - a.position.y) >= a.def.height; });
                for (size_t k = 0; k < w.wallHits.size(); ++k)
                {
                    glm::dvec2 p0, p1;
                    if (wallObstacle(w.wallHits, k, a.def.radius, p0, p1))
                    {
                        a.walls.push_back(p0);
                        a.walls.push_back(p1);
                    }
                }
            }
            a.wallCenter = a.position;
            a.wallGeneration = generation;
        }
    });
}

// 4. The neighbour grids: agents sorted by (cell, index), a fixed order.
//    The near grid's cells are as wide as the rules' short ranges (make
//    way, give way, arrival, the reach of two agents within one step);
//    keep-right looks 14 radii ahead, so it has a grid of its own, of the
//    walking agents only (the only ones it looks at), with cells that wide:
//    one wide grid for everything made every rule scan 4 × the agents.
void Crowd::findNeighbours(const CrowdStepInputs& in)
{
    CrowdStepData& cs = m_data;
    const double dt = in.dt;
    const double maxRadius = m_maxRadius, maxSpeed = m_maxSpeed;
    const size_t n = m_stepAgents.size();
    const double cellSize = std::max({maxRadius * kNearRange, 2.0 * maxRadius + 2.0 * maxSpeed * dt * 1.01, 1.0e-2});
    cs.position.resize(n);
    for (size_t i = 0; i < n; ++i)
        cs.position[i] = xz(agentAt(i).position);
    buildGrid(cs.grid, cs.position, cellSize, [](size_t) { return true; });
    // Per agent, once per step: the other agents of the 3 × 3 cells round it
    // that are within one cell width (every short rule looks no further), in
    // the order of the grid (cell, index), a fixed order.
    const double reach2 = cellSize * cellSize;
    cs.nearStart.resize(n + 1);
    cs.nearList.clear();
    for (size_t i = 0; i < n; ++i)
    {
        cs.nearStart[i] = static_cast<uint32_t>(cs.nearList.size());
        const glm::dvec2 pi = cs.position[i];
        forEachInCells(cs.grid, cellSize, pi, [&](uint32_t j) {
            if (j != i && len2(cs.position[j] - pi) <= reach2)
                cs.nearList.push_back(j);
        });
    }
    cs.nearStart[n] = static_cast<uint32_t>(cs.nearList.size());
    // The unit direction each agent wants to walk in, when it follows its corridor.
    cs.heading.assign(n, glm::dvec2(0.0));
    cs.walking.assign(n, 0);
    for (size_t i = 0; i < n; ++i)
    {
        const CrowdAgent& a = agentAt(i);
        const glm::dvec2 d = xz(a.desired);
        const double len = std::sqrt(len2(d));
        if (!cs.standing[i] && !a.manualVelocity && len > 0.0)
        {
            cs.heading[i] = d / len;
            // Walking back after making way is not walking for the rules below (but arrives against the arrived).
            cs.walking[i] = a.reason == AgentReason::MakingWay ? 0 : 1;
        }
    }
}

// 5. The traffic rules: the velocity each agent prefers, the avoidance's input.
void Crowd::applyTrafficRules(const CrowdStepInputs& in)
{
    (void)in;
    CrowdStepData& cs = m_data;
    const double maxRadius = m_maxRadius;
    const size_t n = m_stepAgents.size();
    // 5a. Arrival against the arrived (an agent reads the states the earlier ones got).
    for (size_t i = 0; i < n; ++i)
    {
        CrowdAgent& a = agentAt(i);
        const glm::dvec2 di = cs.heading[i];
        if (cs.standing[i] || len2(di) == 0.0 || a.manualVelocity)
            continue;
        bool stop = false;
        forEachNearOf(cs, i, [&](size_t j) {
            const CrowdAgent& b = agentAt(j);
            if (stop || b.state != AgentState::Arrived || !sameGoal(a, b))
                return;
            const glm::dvec2 rel = xz(b.position) - xz(a.position);
            const double touch = (static_cast<double>(a.def.radius) + b.def.radius) * kContact;
            stop = len2(rel) <= touch * touch && dot2(rel, di) >= 0.0;
        });
        if (stop)
        {
            a.state = AgentState::Arrived;
            if (a.reason == AgentReason::MakingWay)
                a.reason = AgentReason::None;
            a.velocity = a.desired = glm::vec3(0.0f);
            cs.standing[i] = 1;
            cs.walking[i] = 0;
        }
    }

    // 5b. Make way (makeWay): parked agents step aside for walkers.
    forEachAgent(n, [&](CrowdWorker&, size_t i) { makeWay(cs, i); });

    // 5c. Give way: to the nearest earlier agent in conflict that does not give
    //    way itself. A stuck agent comes before every agent that is not (then
    //    handle order): one waiting for a gap in a stream gets it. The stuck
    //    decide first, so each agent's choice is made before a later one reads it.
    cs.givesWayTo.assign(n, kNoAgent);
    auto precedes = [&](size_t j, size_t i) { return agentAt(j).stuck != agentAt(i).stuck ? agentAt(j).stuck : j < i; };
    cs.giveWayOrder.clear();
    for (const bool stuck : {true, false})
        for (size_t i = 0; i < n; ++i)
            if (agentAt(i).stuck == stuck)
                cs.giveWayOrder.push_back(static_cast<uint32_t>(i));
    for (const size_t i : cs.giveWayOrder)
    {
        const CrowdAgent& a = agentAt(i);
        glm::dvec2 di;
        if (!wantDir(cs, i, di))
            continue;
        double best = std::numeric_limits<double>::infinity();
        forEachNearOf(cs, i, [&](size_t j) {
            glm::dvec2 dj;
            if (!precedes(j, i) || cs.givesWayTo[j] != kNoAgent || !wantDir(cs, j, dj))
                return;
            const CrowdAgent& b = agentAt(j);
            if (ignores(a, b) || sameGoal(a, b) || b.def.priority < a.def.priority)
                return;
            const glm::dvec2 rel = xz(b.position) - xz(a.position);
            const double d2 = len2(rel);
            const double touch = static_cast<double>(a.def.radius) + b.def.radius;
            if (dot2(rel, di) <= 0.0 || d2 >= square(touch + a.def.radius * kGiveWayRange) || d2 >= best)
                return; // behind, too far, or not the nearest
            const double closing = -dot2(xz(b.desired) - xz(a.desired), rel) / std::sqrt(d2);
            if (closing < kGiveWayClosing * a.def.maxSpeed)
                return;
            best = d2;
            cs.givesWayTo[i] = static_cast<uint32_t>(j);
        });
    }

    // 5d. Keep right, and the preferred velocity after the rules above.
    //    Keep-right's grid: the walking agents, cells as wide as its range.
    const double sideCell = std::max(maxRadius * (2.0 + kSideRange), 1.0e-2);
    buildGrid(cs.sideGrid, cs.position, sideCell, [&](size_t i) { return cs.walking[i] != 0; });
    cs.preferred.resize(n);
    forEachAgent(n, [&](CrowdWorker&, size_t i) {
        const CrowdAgent& a = agentAt(i);
        glm::dvec2 preferred = xz(a.desired);
        glm::dvec2 di;
        if (wantDir(cs, i, di))
        {
            const double want = std::sqrt(len2(preferred));
            if (cs.givesWayTo[i] != kNoAgent)
            {
                // Step back from the agent it gives way to, and to its right.
                const glm::dvec2 rel = xz(a.position) - xz(agentAt(cs.givesWayTo[i]).position);
                const double len = std::sqrt(len2(rel));
                const glm::dvec2 away = len > 0.0 ? rel / len : -di;
                preferred = (rightOf(di) * kGiveWaySide + away * kGiveWayBack) * want;
            }
            else
            {
                // Keep right of the nearest-facing agent walking toward it.
                double side = 0.0;
                forEachInCells(cs.sideGrid, sideCell, cs.position[i], [&](size_t j) {
                    glm::dvec2 dj;
                    if (j == i || !wantDir(cs, j, dj))
                        return;
                    const CrowdAgent& b = agentAt(j);
                    if (ignores(a, b) || sameGoal(a, b))
                        return;
                    const double facing = -dot2(di, dj);
                    const glm::dvec2 rel = xz(b.position) - xz(a.position);
                    if (facing <= 0.0 || dot2(rel, di) <= 0.0)
                        return; // not walking toward it, or behind
                    const double dist = std::sqrt(len2(rel));
                    const double touch = static_cast<double>(a.def.radius) + b.def.radius;
                    const double range = static_cast<double>(a.def.radius) * kSideRange;
                    if (dist >= touch + range)
                        return;
                    side = std::max(side, facing * (dist <= touch ? 1.0 : 1.0 - (dist - touch) / range));
                });
                if (side > 0.0)
                {
                    const glm::dvec2 turned = di + rightOf(di) * (kSideWeight * side);
                    preferred = turned * (want / std::sqrt(len2(turned)));
                }
            }
        }
        cs.preferred[i] = preferred;
    });
}

// 6. ORCA for the whole mesh, each agent with its own walls.
void Crowd::avoid(const CrowdStepInputs& in)
{
    CrowdStepData& cs = m_data;
    const double dt = in.dt;
    const size_t n = m_stepAgents.size();
    m_avoidAgents.clear();
    m_avoidObstacles.clear();
    m_avoidRanges.clear();
    //    One avoidance call takes at most kMaxAvoidanceCapacity obstacle
    //    points (two a wall): past that (tens of thousands of agents among
    //    many walls) each agent keeps its nearest walls, an equal share each
    //    (the move along the surface still keeps it on the mesh).
    size_t wallPoints = 0;
    for (size_t i = 0; i < n; ++i)
        if (!cs.standing[i])
            wallPoints += agentAt(i).walls.size();
    const size_t wallShare = wallPoints > static_cast<size_t>(kMaxAvoidanceCapacity)
                                 ? static_cast<size_t>(kMaxAvoidanceCapacity) / (2 * n)
                                 : std::numeric_limits<size_t>::max();
    for (size_t i = 0; i < n; ++i)
    {
        const AgentId id = m_stepAgents[i];
        const CrowdAgent& a = agentAt(i);
        const bool standing = cs.standing[i] != 0;
        const glm::dvec2 preferred = cs.preferred[i];
        ObstacleRange r;
        r.first = static_cast<uint32_t>(m_avoidObstacles.size());
        auto pushWall = [&](size_t k) {
            AvoidanceObstacle o;
            o.shape = ObstacleShape::Segment;
            o.points = std::span<const glm::dvec2>(a.walls.data() + k, 2);
            m_avoidObstacles.push_back(o);
        };
        if (!standing && a.walls.size() / 2 <= wallShare)
            for (size_t k = 0; k + 1 < a.walls.size(); k += 2)
                pushWall(k);
        else if (!standing)
        {
            // Its nearest wallShare walls, nearer first (ties by index: a fixed order).
            cs.wallOrder.clear();
            const glm::dvec2 p = xz(a.position);
            for (size_t k = 0; k + 1 < a.walls.size(); k += 2)
            {
                const glm::dvec2 w0 = a.walls[k], w1 = a.walls[k + 1], d = w1 - w0;
                const double dd = len2(d);
                const double t = dd > 0.0 ? std::clamp(dot2(p - w0, d) / dd, 0.0, 1.0) : 0.0;
                cs.wallOrder.push_back({len2(w0 + d * t - p), static_cast<uint32_t>(k)});
            }
            std::sort(cs.wallOrder.begin(), cs.wallOrder.end());
            for (size_t m = 0; m < std::min(wallShare, cs.wallOrder.size()); ++m)
                pushWall(cs.wallOrder[m].second);
        }
        r.count = static_cast<uint32_t>(m_avoidObstacles.size()) - r.first;
        m_avoidRanges.push_back(r);
        AvoidanceAgent av;
        av.position = xz(a.position);
        av.velocity = standing ? glm::dvec2(0.0) : xz(a.velocity);
        av.preferred = preferred;
        av.radius = a.def.radius;
        av.maxSpeed = standing ? 0.0 : a.def.maxSpeed;
        av.priority = standing                                ? kStandingPriority
                      : a.reason == AgentReason::MakingWay   ? a.def.priority * kMakeWayPriority
                      : cs.givesWayTo[i] != kNoAgent         ? a.def.priority * kGiveWayPriority
                                                              : static_cast<double>(a.def.priority);
        av.id = id.index;
        av.layers = a.def.layers;
        av.ignores = a.def.ignores;
        av.maxNeighbors = a.def.maxNeighbors;
        // Speeds past the avoidance limits cannot happen: max_speed <= 100.
        m_avoidAgents.push_back(av);
    }
    m_avoidVelocities.assign(n, glm::dvec2(0.0));
    const Status avoided = m_avoidance->avoid(m_avoidAgents, m_avoidObstacles, m_avoidRanges, dt, m_avoidVelocities);
    if (!avoided.ok())
        for (size_t i = 0; i < n; ++i)
            m_avoidVelocities[i] = m_avoidAgents[i].preferred;
}

// 7. The acceleration limit: each moving agent's change of velocity is at
//    most max_accel × dt. The avoidance keeps two agents apart only when
//    both move at its velocities, so a pair that the limited velocities
//    would bring within (1 − the avoidance's overlap tolerance) × (ri + rj)
//    during the step (or closer, when already nearer) takes the
//    avoidance's velocities instead, until no pair does.
void Crowd::limitAcceleration(const CrowdStepInputs& in)
{
    CrowdStepData& cs = m_data;
    const double dt = in.dt;
    const size_t n = m_stepAgents.size();
    cs.velocity.assign(n, glm::dvec2(0.0));
    cs.avoided.assign(n, 1);
    for (size_t i = 0; i < n; ++i)
    {
        const CrowdAgent& a = agentAt(i);
        if (a.state != AgentState::Moving)
            continue; // stands: zero, as the avoidance gave it
        const glm::dvec2 v = m_avoidVelocities[i];
        const glm::dvec2 old = xz(a.velocity);
        const glm::dvec2 dv = v - old;
        const double maxDv = static_cast<double>(a.def.maxAccel) * dt;
        const double dvLen = std::sqrt(len2(dv));
        cs.velocity[i] = v;
        if (dvLen > maxDv)
        {
            cs.velocity[i] = old + dv * (maxDv / dvLen);
            cs.avoided[i] = 0;
        }
    }
    const double guardRatio = m_guardRatio;
    // Only pairs with an agent at a limited velocity can be unsafe: each such
    // agent checks its neighbours, in order, until a round changes nothing.
    for (bool changed = true; changed;)
    {
        changed = false;
        for (size_t i = 0; i < n; ++i)
        {
            if (cs.avoided[i])
                continue;
            const CrowdAgent& a = agentAt(i);
            forEachNearOf(cs, i, [&](size_t j) {
                if (cs.avoided[i])
                    return; // already at the avoidance's velocity
                const CrowdAgent& b = agentAt(j);
                if (ignores(a, b) && ignores(b, a))
                    return;
                const glm::dvec2 rel = xz(b.position) - xz(a.position);
                const glm::dvec2 w = cs.velocity[j] - cs.velocity[i];
                const double ww = len2(w);
                const double t = ww > 0.0 ? std::clamp(-dot2(rel, w) / ww, 0.0, dt) : 0.0;
                const double guard = guardRatio * (static_cast<double>(a.def.radius) + b.def.radius);
                if (len2(rel + w * t) >= std::min(guard * guard, len2(rel)))
                    return;
                for (size_t k : {i, j})
                    if (!cs.avoided[k])
                    {
                        cs.avoided[k] = 1;
                        cs.velocity[k] = m_avoidVelocities[k];
                        changed = true;
                    }
            });
        }
    }
}

// 8. The move along the surface; the velocity is what the move achieved.
//    Per agent; then separation before motion (holdBackTooNear).
void Crowd::moveAlongSurface(const CrowdStepInputs& in)
{
    CrowdStepData& cs = m_data;
    const NavMesh& navmesh = *in.mesh;
    const double dt = in.dt;
    const QueryFilter& filter = in.filter;
    const size_t n = m_stepAgents.size();
    const float invDt = static_cast<float>(1.0 / dt);
    cs.before.resize(n);
    forEachAgent(n, [&](CrowdWorker& w, size_t i) {
        CrowdAgent& a = agentAt(i);
        cs.before[i] = a.position;
        if (a.state != AgentState::Moving || a.leap.active)
        {
            a.velocity = glm::vec3(0.0f);
            return;
        }
        const glm::dvec2 v = cs.velocity[i];
        const glm::vec3 wanted(a.position.x + static_cast<float>(v.x * dt), a.position.y,
                               a.position.z + static_cast<float>(v.y * dt));
        const glm::vec3 before = a.position;
        if (moveCorridor(navmesh, w.scratch, a.corridor, wanted, filter).ok())
            a.position = a.corridor.position;
        a.velocity = glm::vec3((a.position.x - before.x) * invDt, 0.0f, (a.position.z - before.z) * invDt);
        // Far from the origin a float position cannot hold a small step (at
        // 65,536 m its spacing is 7.8 mm, more than an accelerating agent's
        // first step): the displacement read back as 0 there and the agent
        // never started. Where the spacing / dt is coarser than 1 cm/s and the
        // move went where asked, the velocity is the one asked.
        constexpr float kCoarseVelocity = 0.01f; // [Units: m/s]
        const float spacing = std::max(std::nextafter(std::fabs(before.x), INFINITY) - std::fabs(before.x),
                                       std::nextafter(std::fabs(before.z), INFINITY) - std::fabs(before.z));
        if (spacing * invDt > kCoarseVelocity && a.position.x == wanted.x && a.position.z == wanted.z)
            a.velocity = glm::vec3(static_cast<float>(v.x), 0.0f, static_cast<float>(v.y));
    });
    holdBackTooNear(cs, n, m_guardRatio, navmesh, mainWorker().scratch, filter, invDt);
}

// 9. Heading, and headway: an agent following its corridor that has not
//    got kStuckReach radii from where it last made headway for
//    kStuckSeconds is stuck (an event, and a reason), unstuck when it
//    gets that far, arrives or stops following. In handle order (the events).
void Crowd::trackHeadway(const CrowdStepInputs& in)
{
    CrowdStepData& cs = m_data;
    const double dt = in.dt;
    NavWorld& world = *in.world;
    const size_t n = m_stepAgents.size();
    for (size_t i = 0; i < n; ++i)
    {
        CrowdAgent& a = agentAt(i);
        const double speed = std::sqrt(len2(xz(a.velocity)));
        if (speed > 0.1)
            a.heading = glm::vec2(static_cast<float>(a.velocity.x / speed), static_cast<float>(a.velocity.z / speed));
        const bool following = a.state == AgentState::Moving && a.hasTarget && !a.manualVelocity && !a.leap.active &&
                               a.planTicket == 0; // waiting for its plan is not being blocked
        const float reach = kStuckReach * a.def.radius;
        if (!following || distXZ(a.position, a.anchor) > reach)
        {
            if (a.stuck)
                world.pushCrowdEvent(m_stepAgents[i], CrowdEventKind::Unstuck);
            resetHeadway(a);
            continue;
        }
        a.blockedFor += static_cast<float>(dt);
        if (a.stuck || a.blockedFor < kStuckSeconds)
            continue;
        a.stuck = true;
        bool touching = false;
        forEachNearOf(cs, i, [&](size_t j) {
            const CrowdAgent& b = agentAt(j);
            const double reachJ = (static_cast<double>(a.def.radius) + b.def.radius) * 1.5;
            touching = touching || len2(xz(b.position) - xz(a.position)) <= reachJ * reachJ;
        });
        a.reason = touching ? AgentReason::BlockedByAgents : AgentReason::NoHeadway;
        a.replan = true; // plan again from where it stands (the mesh may have changed round it)
        world.pushCrowdEvent(m_stepAgents[i], CrowdEventKind::Stuck);
    }
}

} // namespace spark::nav
