/// \file avoidance.cpp
/// Design note — the avoidance step (ORCA, van den Berg, Guy, Lin, Manocha,
/// "Reciprocal n-body collision avoidance", 2011).
///
/// Per agent, in the neighbour grid's order (strip, then x: each strip's scan
/// start only moves forward, neighbours' data lies close in memory; an agent's
/// answer depends only on the inputs, so the order changes the work, never a
/// result): gather the obstacle constraints (hard: the agent
/// takes the whole avoidance, paper §6 with v_opt = 0), the `maxNeighbors`
/// nearest agents within `neighborDistance` (neighbor_grid_2d.cpp, neighbor_grid_3d.cpp) and one ORCA
/// half-plane per neighbour it does not ignore (orca_planes.h), then solve the
/// linear program for the velocity nearest the preferred one (lp.cpp).
///
/// Hard and soft constraints (our refinement of the paper's fallback). Besides
/// the full-horizon ORCA half-plane of each neighbour (v_opt = the current
/// velocities, horizon τ), each neighbour also gives a one-step guard: the same
/// construction with v_opt = 0, horizon dt and the combined radius shrunk by
/// `overlapTolerance`. With v_opt = 0 the guard always contains the zero
/// velocity unless the pair already overlaps past the tolerance, and two
/// agents that both meet their guards (shares summing to one) cannot come
/// closer than (1 − tolerance)·(rA + rB) during the step. A guard that no
/// velocity within the agent's max speed can violate (the neighbour is too far
/// to reach in one step) is left out of levels 1 and 2: it could change
/// neither answer (orca_planes.h guardReachSq). The obstacle and guard
/// constraints are hard, the full-horizon ones soft:
///  1. All constraints feasible: the nearest velocity to the preferred one.
///     On the plane, when the hard ones are feasible but not all, the soft
///     ones are rebuilt once with a shorter horizon, τ/8 (halved up to 3
///     times while above the one-step horizon), and its answer is taken when
///     feasible. A shorter horizon asks less of neighbours that are close
///     but not closing fast, so an agent in a dense jam can still edge toward
///     its goal instead of settling on the least-violation velocity, which
///     ignores the goal. The guards still bound every pair. Measured on
///     RVO2's circles (steps to arrive, smallest distance / 2r; RVO2 takes
///     3,547 / 11,349): no shorter horizon 4,597 / 13,259; τ/8, else the
///     longest feasible of τ/2, τ/4 (the previous rule) 3,331 / 10,273,
///     0.953 / 0.954; τ/8 only 2,988 / 9,618, 0.955 / 0.955, at 9% fewer
///     instructions per step; τ/4 only 3,765 / 10,397; τ/16 only 2,935 /
///     11,122; τ/32 only 3,192 / 11,295. Not in space: there it cost 4-20%
///     more steps on RVO2-3D's sphere (fliers pass around a jam).
///  2. Else, if the hard ones are: the velocity meeting them that minimises
///     the largest violation of the soft ones (the paper's 3D/4D program;
///     on the plane at the shortest horizon tried).
///  3. Else: minimise the largest violation of the guards, obstacles hard.
/// The paper's plain fallback trades a neighbour about to be touched this step
/// against one ten seconds away, so a dense crowd overlaps (the reference gets
/// 0.78 of 2r on the 250-agent circle); the guards spend the slack on the far
/// ones first. The tolerance matters: with none, a perfectly symmetric jam
/// (the circle's centre) reaches a standstill where every agent touches its
/// neighbours and none may move; 5% lets the jam shear and drain. Positions are
/// never corrected afterwards: the only output is the velocity.
///
/// Every input is validated before anything is written (docs/surface.md "Bad input").
#include "avoidance_internal.h"
#include "orca_planes.h"
#include "worker_pool.h"
#include "spark/core/work.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <string>

namespace spark::nav
{
namespace detail
{

PairCounts pairConstraints(std::span<const AvoidanceAgent> agents, std::size_t self, const Neighbor* neighbors,
                           std::size_t count, const PairSettings& settings, Constraint2* out, PairBuild build,
                           PairTable<glm::dvec2>& table)
{
    return planes::pairConstraintsOf(agents, self, neighbors, count, settings, out, build, table);
}

PairCounts pairConstraints(std::span<const AvoidanceAgent3D> agents, std::size_t self, const Neighbor* neighbors,
                           std::size_t count, const PairSettings& settings, Constraint3* out, PairBuild build,
                           PairTable<glm::dvec3>& table)
{
    return planes::pairConstraintsOf(agents, self, neighbors, count, settings, out, build, table);
}

} // namespace detail

using namespace detail;

namespace
{
/// Largest accepted `AvoidanceDef::maxNeighbors`.
constexpr int kMaxNeighborsLimit = 64;
/// The neighbour search first tries the agent's own k-th squared distance of
/// the last call (or, without one, the last agent's) times this (a crowd's
/// density changes slowly); only the work depends on it. Measured (callgrind,
/// Ir/step on RVO2's circle-250 / first 1,000 steps of the sphere): 1.5 gave
/// 928,713 / 6,419,873, 1.2 912,016 / 6,300,515, 1.1 903,079 / 6,247,068,
/// 1.05 898,195 / 6,219,931, 1.02 904,467 / 6,305,145 (more second searches).
constexpr double kGuessGrowth = 1.05;
/// When an agent's full-horizon program on the plane is infeasible, it is
/// solved once more with the horizon halved this many times (fewer when that
/// would reach the one-step horizon; design note). In space none: measured on RVO2-3D's
/// sphere, any number of halvings (1 to 5) took 4-20% more steps to arrive.
constexpr int kHorizonHalvings2D = 3;
/// A call uses one more thread per this many agents (up to the definition's
/// threads): a thread's wake-up costs about as much as solving ~100 agents.
/// Work only.
constexpr std::size_t kAgentsPerWorker = 128;
/// Threads take the grid's slots this many at a time (consecutive slots are
/// neighbours: a thread's scan starts stay near). Work only.
constexpr std::size_t kSlotsPerChunk = 32;
} // namespace

/// What one thread solving agents of a call uses (its own, so that threads
/// share nothing but the call's inputs).
struct AvoidanceWorker
{
    /// The neighbours of the agent being solved.
    std::array<Neighbor, kMaxNeighborsLimit> neighborList;
    Neighbor* neighbors() { return neighborList.data(); }
    /// Sized once per call to the most one agent can have; a step writes them by index.
    std::vector<Constraint2> constraints2, scratch2;
    std::vector<Constraint3> constraints3, scratch3;
    PairTable<glm::dvec2> table2; ///< The pairs of the agent being solved.
    PairTable<glm::dvec3> table3;
    NeighborGrid2D::Cursor cursor2; ///< The grids' scan starts for this thread's queries.
    NeighborGrid3D::Cursor cursor3;
    /// The last agent's k-th squared distance of this call, grown: the first
    /// bound a search tries when the agent has none of its own (work only).
    double guessSq = 0.0;
};

struct Avoidance::Impl
{
    AvoidanceDef def;
    NeighborGrid2D grid2;
    NeighborGrid3D grid3;
    std::vector<glm::dvec2> positions2;
    std::vector<glm::dvec3> positions3;
    std::vector<uint32_t> ids;
    /// Per agent index, the squared distance of its k-th neighbour in the last
    /// call (fewer found: 0 on the plane, -1 in space; 0 also for an agent
    /// new to the call): the first bound its search tries (work only). Each
    /// agent's solve reads and writes only its own.
    std::vector<double> kthSq;
    std::vector<std::unique_ptr<AvoidanceWorker>> workers;
    WorkerPool pool;
    std::vector<glm::dvec4> obstacleBounds; ///< (minX, minY, maxX, maxY) per 2D obstacle.

    /// Agent i's `wanted` nearest within `range` into `w.neighbors()`. The search first
    /// tries its own k-th squared distance of the last call, grown, else the
    /// worker's last agent's; both are updated for the next.
    template <int D, class Grid>
    std::size_t nearest(const Grid& grid, typename Grid::Cursor& cursor, AvoidanceWorker& w, std::size_t i,
                        double range, std::size_t wanted)
    {
        if constexpr (D == 3)
        {
            // In space an agent that found fewer than k in the last call
            // (marked -1) searches the whole range at once: it mostly finds
            // fewer again, and a first search within the last agent's guess
            // would be wasted (measured: 0.27% of a step of RVO2-3D's sphere;
            // on the plane it cost more than it saved).
            const double own = kthSq[i];
            const double start = own > 0.0 ? own * kGuessGrowth : (own < 0.0 ? 0.0 : w.guessSq);
            const std::size_t found = grid.query(i, range, wanted, w.neighbors(), start, cursor);
            kthSq[i] = found == wanted ? w.neighbors()[found - 1].distanceSquared : -1.0;
            w.guessSq = found == wanted ? kthSq[i] * kGuessGrowth : 0.0;
            return found;
        }
        const double ownGuess = kthSq[i] * kGuessGrowth;
        const std::size_t found =
            grid.query(i, range, wanted, w.neighbors(), ownGuess > 0.0 ? ownGuess : w.guessSq, cursor);
        kthSq[i] = found == wanted ? w.neighbors()[found - 1].distanceSquared : 0.0;
        w.guessSq = kthSq[i] * kGuessGrowth;
        return found;
    }

    /// Solves agents at the grid slots [0, agentCount) on the workers the
    /// definition allows, each taking the next chunk of slots in turn, and
    /// calls solve(worker, slot) per slot. Which worker solves an agent
    /// changes only the work (see AvoidanceWorker).
    template <int D, class Solve> void forEachSlot(std::size_t agentCount, std::size_t room, const Solve& solve);
};

template <int D, class Solve>
void Avoidance::Impl::forEachSlot(std::size_t agentCount, std::size_t room, const Solve& solve)
{
    const unsigned wanted = workerThreads(def.threads);
    const unsigned count = static_cast<unsigned>(
        std::clamp<std::size_t>(agentCount / kAgentsPerWorker, 1, wanted));
    while (workers.size() < count)
        workers.push_back(std::make_unique<AvoidanceWorker>());
    // Everything a solve may grow, grown here: a worker never allocates.
    for (unsigned k = 0; k < count; ++k)
    {
        AvoidanceWorker& w = *workers[k];
        const auto grow = [room](auto& v)
        {
            if (v.size() < room)
                v.resize(room);
        };
        if constexpr (D == 2)
        {
            grow(w.constraints2);
            grow(w.scratch2);
            grid2.resetCursor(w.cursor2);
        }
        else
        {
            grow(w.constraints3);
            grow(w.scratch3);
            grid3.resetCursor(w.cursor3);
        }
        w.guessSq = 0.0;
    }
    std::atomic<std::size_t> next{0};
    const std::size_t chunks = (agentCount + kSlotsPerChunk - 1) / kSlotsPerChunk;
    auto job = [&](unsigned k)
    {
        AvoidanceWorker& w = *workers[k];
        for (std::size_t c = next.fetch_add(1, std::memory_order_relaxed); c < chunks;
             c = next.fetch_add(1, std::memory_order_relaxed))
            for (std::size_t slot = c * kSlotsPerChunk; slot < std::min(agentCount, (c + 1) * kSlotsPerChunk); ++slot)
                solve(w, slot);
    };
    pool.run(count, job);
}

AvoidanceDef defaultAvoidanceDef() { return AvoidanceDef{}; }

Avoidance::Avoidance(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
Avoidance::Avoidance(Avoidance&&) noexcept = default;
Avoidance& Avoidance::operator=(Avoidance&&) noexcept = default;
Avoidance::~Avoidance() = default;

const AvoidanceDef& Avoidance::def() const { return m_impl->def; }

namespace
{

constexpr const char* kInput = "E_NAV_AVOIDANCE_INPUT";
constexpr const char* kLimit = "E_NAV_AVOIDANCE_LIMIT";
constexpr const char* kConfig = "E_NAV_AVOIDANCE_CONFIG";

std::string at(const char* list, std::size_t index, const char* field)
{
    return std::string("/") + list + "/" + std::to_string(index) + "/" + field;
}

/// A field path built only when an error needs it: /list/index/name[/sub].
struct Field
{
    const char* list;
    std::size_t index;
    const char* name;
    long sub = -1;
    std::string str() const { return at(list, index, name) + (sub >= 0 ? "/" + std::to_string(sub) : ""); }
};

bool finite(double x) { return std::isfinite(x); }

template <class V> bool finiteVec(const V& v)
{
    for (int d = 0; d < V::length(); ++d)
        if (!std::isfinite(v[d]))
            return false;
    return true;
}

template <class V> bool positionOk(const V& p)
{
    for (int d = 0; d < V::length(); ++d)
        if (!(std::abs(p[d]) <= kMaxAvoidanceCoordinate)) // false for NaN too
            return false;
    return true;
}

template <class V> bool velocityOk(const V& v)
{
    // False for a NaN or infinite component too: the squared length is then NaN or infinite.
    return glm::dot(v, v) <= kMaxAvoidanceSpeed * kMaxAvoidanceSpeed;
}

template <class V> Status checkPosition(const V& p, const Field& field)
{
    if (!finiteVec(p))
        return makeError(kInput, "position is not a finite number", field.str());
    for (int d = 0; d < V::length(); ++d)
        if (std::abs(p[d]) > kMaxAvoidanceCoordinate)
            return makeError(kInput, "coordinate is past kMaxAvoidanceCoordinate (1e6 m)", field.str());
    return Status::success();
}

template <class V> Status checkVelocity(const V& v, const Field& field)
{
    if (!finiteVec(v))
        return makeError(kInput, "velocity is not a finite number", field.str());
    if (glm::dot(v, v) > kMaxAvoidanceSpeed * kMaxAvoidanceSpeed)
        return makeError(kInput, "speed is past kMaxAvoidanceSpeed (1e3 m/s)", field.str());
    return Status::success();
}

/// True when `checkAgent` would accept `a` (the cheap test run first).
template <class Agent> bool agentOk(const Agent& a)
{
    return positionOk(a.position) && velocityOk(a.velocity) && velocityOk(a.preferred) &&
           a.radius >= kMinAvoidanceRadius && a.radius <= kMaxAvoidanceRadius && a.maxSpeed >= 0.0 &&
           a.maxSpeed <= kMaxAvoidanceSpeed && a.priority > 0.0 && a.priority <= kMaxAvoidancePriority;
}


template <class Agent> Status checkAgent(const Agent& a, std::size_t i)
{
    SPARK_TRY(checkPosition(a.position, Field{"agents", i, "position"}));
    SPARK_TRY(checkVelocity(a.velocity, Field{"agents", i, "velocity"}));
    SPARK_TRY(checkVelocity(a.preferred, Field{"agents", i, "preferred"}));
    if (!finite(a.radius) || a.radius < kMinAvoidanceRadius || a.radius > kMaxAvoidanceRadius)
        return makeError(kInput, "radius must lie in [1e-3, 1e3] m", at("agents", i, "radius"));
    if (!finite(a.maxSpeed) || a.maxSpeed < 0.0 || a.maxSpeed > kMaxAvoidanceSpeed)
        return makeError(kInput, "max speed must lie in [0, 1e3] m/s", at("agents", i, "maxSpeed"));
    if (!finite(a.priority) || a.priority <= 0.0 || a.priority > kMaxAvoidancePriority)
        return makeError(kInput, "priority must lie in (0, 1e6]", at("agents", i, "priority"));
    return Status::success();
}

Status checkStep(double dt, std::size_t agentCount, std::size_t outCount, int maxAgents)
{
    if (!finite(dt) || dt < kMinAvoidanceTime || dt > kMaxAvoidanceTime)
        return makeError(kInput, "time step must lie in [1e-4, 60] s", "/dt");
    if (agentCount > static_cast<std::size_t>(maxAgents))
        return makeError(kLimit, "more agents than the definition's maxAgents", "/agents");
    if (outCount != agentCount)
        return makeError(kInput, "the output holds " + std::to_string(outCount) + " velocities for " +
                                     std::to_string(agentCount) + " agents",
                         "/velocities");
    return Status::success();
}

/// True when `checkObstacle` would accept `o` (the cheap test run first; the
/// detailed check runs only to say what is wrong).
bool obstacleOk(const AvoidanceObstacle& o)
{
    if (!velocityOk(o.velocity))
        return false;
    if (o.shape == ObstacleShape::Circle)
        return positionOk(o.center) && o.radius > 0.0 && o.radius <= kMaxAvoidanceCoordinate;
    if (o.shape != ObstacleShape::Segment && o.shape != ObstacleShape::Polygon)
        return false;
    const bool segment = o.shape == ObstacleShape::Segment;
    const std::size_t n = o.points.size();
    if (segment ? n != 2 : n < 3)
        return false;
    double twiceArea = 0.0;
    for (std::size_t k = 0; k < n; ++k)
    {
        const glm::dvec2& a = o.points[k];
        const glm::dvec2& b = o.points[k + 1 == n ? 0 : k + 1];
        if (!positionOk(a) || a == b)
            return false;
        twiceArea += a.x * b.y - a.y * b.x;
    }
    return segment || twiceArea > 0.0;
}

Status checkObstacle(const AvoidanceObstacle& o, std::size_t i)
{
    SPARK_TRY(checkVelocity(o.velocity, Field{"obstacles", i, "velocity"}));
    switch (o.shape)
    {
    case ObstacleShape::Circle:
        SPARK_TRY(checkPosition(o.center, Field{"obstacles", i, "center"}));
        if (!finite(o.radius) || o.radius <= 0.0 || o.radius > kMaxAvoidanceCoordinate)
            return makeError(kInput, "circle radius must lie in (0, 1e6] m", at("obstacles", i, "radius"));
        return Status::success();
    case ObstacleShape::Segment:
    case ObstacleShape::Polygon: {
        const bool segment = o.shape == ObstacleShape::Segment;
        if (segment && o.points.size() != 2)
            return makeError(kInput, "a segment has exactly 2 points", at("obstacles", i, "points"));
        if (!segment && o.points.size() < 3)
            return makeError(kInput, "a polygon has at least 3 points", at("obstacles", i, "points"));
        for (std::size_t k = 0; k < o.points.size(); ++k)
            SPARK_TRY(checkPosition(o.points[k], Field{"obstacles", i, "points", static_cast<long>(k)}));
        double twiceArea = 0.0;
        for (std::size_t k = 0; k < o.points.size(); ++k)
        {
            const glm::dvec2& a = o.points[k];
            const glm::dvec2& b = o.points[(k + 1) % o.points.size()];
            if (a == b)
                return makeError(kInput, "two consecutive points are equal (an edge of no length)",
                                 at("obstacles", i, "points") + "/" + std::to_string((k + 1) % o.points.size()));
            twiceArea += a.x * b.y - a.y * b.x;
        }
        if (!segment && !(twiceArea > 0.0))
            return makeError(kInput, "polygon is clockwise or of no area; give its points counter-clockwise",
                             at("obstacles", i, "points"));
        return Status::success();
    }
    }
    return makeError(kInput, "unknown obstacle shape", at("obstacles", i, "shape"));
}

glm::dvec2 closestOnSegment(const glm::dvec2& x, const glm::dvec2& a, const glm::dvec2& b)
{
    const glm::dvec2 ab = b - a;
    const double t = std::clamp(glm::dot(x - a, ab) / glm::dot(ab, ab), 0.0, 1.0);
    return a + ab * t;
}

/// Adds the constraint of a convex piece whose nearest point to the agent is
/// `nearest`; `fallbackToward` is used when the centre lies on the piece.
void addPiece(const AvoidanceAgent& agent, const glm::dvec2& nearest, double pieceRadius,
              const glm::dvec2& fallbackToward, const glm::dvec2& velocity, double reach, double horizon, double dt,
              Constraint2* out, std::size_t& ioCount)
{
    const glm::dvec2 diff = nearest - agent.position;
    const double dist = std::sqrt(glm::dot(diff, diff));
    const double gap = dist - pieceRadius - agent.radius;
    if (gap > reach)
        return;
    const glm::dvec2 toward = dist > 0.0 ? diff / dist : fallbackToward;
    out[ioCount++] = obstaclePlane(toward, gap, velocity, horizon, dt);
}

/// Writes the agent's constraints against `o` to out[ioCount ..): at most one
/// per point of `o` (one for a circle).
void addObstacle(const AvoidanceAgent& agent, const AvoidanceObstacle& o, double horizon, double dt,
                 Constraint2* out, std::size_t& ioCount)
{
    const double reach = (agent.maxSpeed + std::sqrt(glm::dot(o.velocity, o.velocity))) * horizon;
    if (o.shape == ObstacleShape::Circle)
    {
        addPiece(agent, o.center, o.radius, glm::dvec2(1.0, 0.0), o.velocity, reach, horizon, dt, out, ioCount);
        return;
    }
    if (o.shape == ObstacleShape::Segment)
    {
        const glm::dvec2 e = o.points[1] - o.points[0];
        const glm::dvec2 side = glm::normalize(glm::dvec2(-e.y, e.x));
        addPiece(agent, closestOnSegment(agent.position, o.points[0], o.points[1]), 0.0, side, o.velocity, reach,
                 horizon, dt, out, ioCount);
        return;
    }
    // Polygon: inside (crossing test) or outside.
    const std::size_t count = o.points.size();
    const glm::dvec2 x = agent.position;
    bool inside = false;
    double nearestSq = 0.0;
    glm::dvec2 nearestPoint{};
    for (std::size_t k = 0; k < count; ++k)
    {
        const glm::dvec2& a = o.points[k];
        const glm::dvec2& b = o.points[(k + 1) % count];
        if ((a.y > x.y) != (b.y > x.y))
        {
            const double cross = a.x + (x.y - a.y) / (b.y - a.y) * (b.x - a.x);
            if (x.x < cross)
                inside = !inside;
        }
        const glm::dvec2 q = closestOnSegment(x, a, b);
        const double dSq = glm::dot(q - x, q - x);
        if (k == 0 || dSq < nearestSq)
        {
            nearestSq = dSq;
            nearestPoint = q;
        }
    }
    if (inside)
    {
        // Leave through the nearest edge within the step.
        const double dist = std::sqrt(nearestSq);
        const glm::dvec2 out2 = dist > 0.0 ? (nearestPoint - x) / dist : glm::dvec2(1.0, 0.0);
        out[ioCount++] = obstaclePlane(-out2, -(dist + agent.radius), o.velocity, horizon, dt);
        return;
    }
    for (std::size_t k = 0; k < count; ++k)
    {
        const glm::dvec2& a = o.points[k];
        const glm::dvec2& b = o.points[(k + 1) % count];
        const glm::dvec2 e = b - a;
        const glm::dvec2 outward(e.y, -e.x); // counter-clockwise: the outside is on the right
        if (glm::dot(x - a, outward) < 0.0)
            continue; // the agent is on the inner side of this edge: it faces away
        addPiece(agent, closestOnSegment(x, a, b), 0.0, -glm::normalize(outward), o.velocity, reach, horizon, dt,
                 out, ioCount);
    }
}

/// pairConstraints for an agent's later builds (the rarer reruns: SoftOnly,
/// EveryGuard). In space the library's. On the plane compiled here, out of
/// line: solveAgent, which inlines the first build there, then calls only
/// code the compiler sees (a call into another file cost 0.8% of a step of
/// RVO2's circle: values kept across it), and inlined too the reruns cost
/// more than they saved (2%: the program's registers; measured).
PairCounts rebuildPairs(std::span<const AvoidanceAgent3D> agents, std::size_t self, const Neighbor* neighbors,
                        std::size_t count, const PairSettings& settings, Constraint3* out, PairBuild build,
                        PairTable<glm::dvec3>& table)
{
    return pairConstraints(agents, self, neighbors, count, settings, out, build, table);
}
[[gnu::noinline]] PairCounts rebuildPairs(std::span<const AvoidanceAgent> agents, std::size_t self,
                                          const Neighbor* neighbors, std::size_t count,
                                          const PairSettings& settings, Constraint2* out, PairBuild build,
                                          PairTable<glm::dvec2>& table)
{
    return planes::pairConstraintsOf(agents, self, neighbors, count, settings, out, build, table);
}

/// Builds and solves one agent's program (the design note's three levels, with
/// the shortened horizons). `constraints` holds the `obstacleCount` obstacle
/// constraints; the pair constraints follow them: the one-step guards that may
/// bind (with the obstacles the hard ones), then the full-horizon ones.
template <class Agent, class V>
[[gnu::always_inline]] inline V solveAgent(std::span<const Agent> agents, std::size_t self, const Neighbor* neighbors, std::size_t found,
             const PairSettings& pairs, Constraint<V>* constraints, std::size_t obstacleCount,
             std::vector<Constraint<V>>& scratch, PairTable<V>& table, int halvings)
{
    const Agent& a = agents[self];
    Constraint<V>* pairOut = constraints + obstacleCount;
    // On the plane the first build inlined (and the reruns compiled in this
    // file, rebuildPairs): calling the library's pairConstraints for every
    // build instead costs 2.4% of a step of RVO2's circle (circle-250,
    // 401,003 -> 410,491 Ir/step; in space inlining saved nothing).
    PairCounts counts;
    if constexpr (std::is_same_v<V, glm::dvec2>)
        counts =
            planes::pairConstraintsOf(agents, self, neighbors, found, pairs, pairOut, PairBuild::All, table);
    else
        counts = pairConstraints(agents, self, neighbors, found, pairs, pairOut, PairBuild::All, table);
    std::size_t hardCount = obstacleCount + counts.guards;
    std::span<const Constraint<V>> all(constraints, hardCount + counts.soft);
    // The hard constraints first: their optimum is where every later program
    // (the full horizon and each shorter one) resumes.
    // With none, the programs below start from the beginning (start 0 takes
    // the unconstrained optimum, what a program of no constraints returns).
    V hardResult{};
    std::size_t met =
        hardCount == 0
            ? 0
            : solveLinearProgram(all.first(hardCount), a.maxSpeed, a.preferred, Objective::Closest, hardResult);
    V result = hardResult;
    if (met == hardCount)
    {
        met = solveLinearProgram(all, a.maxSpeed, a.preferred, Objective::Closest, result, hardCount);
        if (met == all.size())
            return result;
        // The shortest horizon only: when it is infeasible too, the longer
        // ones nearly always are (their velocity obstacles hold the shorter's).
        int steps = 0;
        double shorterHorizon = pairs.horizon;
        while (steps < halvings && shorterHorizon * 0.5 > pairs.oneStepHorizon)
        {
            shorterHorizon *= 0.5;
            ++steps;
        }
        if (steps > 0)
        {
            rebuildPairs(agents, self, neighbors, found, pairs.withHorizon(shorterHorizon), pairOut,
                         PairBuild::SoftOnly, table);
            result = hardResult;
            met = solveLinearProgram(all, a.maxSpeed, a.preferred, Objective::Closest, result, hardCount);
            if (met == all.size())
                return result;
        }
        // Level 2: the hard constraints hold; least violation of the others
        // (at the shortest horizon tried).
        solveLeastViolation(all, hardCount, met, a.maxSpeed, result, scratch);
        return result;
    }
    // Level 3: least violation of the one-step constraints, obstacles hard (or,
    // when the obstacles alone cannot be met, nothing hard). Every guard takes
    // part here, also those that cannot bind: they enter the program of the
    // violations.
    if (counts.guards < counts.soft)
    {
        const PairCounts every =
            rebuildPairs(agents, self, neighbors, found, pairs, pairOut, PairBuild::EveryGuard, table);
        hardCount = obstacleCount + every.guards;
        all = std::span<const Constraint<V>>(constraints, hardCount);
        result = V{};
        met = solveLinearProgram(all, a.maxSpeed, a.preferred, Objective::Closest, result);
    }
    const std::span<const Constraint<V>> hard = all.first(hardCount);
    solveLeastViolation(hard, met >= obstacleCount ? obstacleCount : 0, met, a.maxSpeed, result, scratch);
    return result;
}

} // namespace

Result<Avoidance> createAvoidance(const AvoidanceDef& def)
{
    if (def.maxAgents < 1 || def.maxAgents > kMaxAvoidanceCapacity)
        return makeError(kConfig, "maxAgents must lie in [1, 1048576]", "/maxAgents");
    if (def.maxObstacles < 0 || def.maxObstacles > kMaxAvoidanceCapacity)
        return makeError(kConfig, "maxObstacles must lie in [0, 1048576]", "/maxObstacles");
    if (def.maxObstaclePoints < 0 || def.maxObstaclePoints > kMaxAvoidanceCapacity)
        return makeError(kConfig, "maxObstaclePoints must lie in [0, 1048576]", "/maxObstaclePoints");
    if (!finite(def.neighborDistance) || def.neighborDistance <= 0.0 || def.neighborDistance > 1.0e4)
        return makeError(kConfig, "neighborDistance must lie in (0, 1e4] m", "/neighborDistance");
    if (def.maxNeighbors < 1 || def.maxNeighbors > kMaxNeighborsLimit)
        return makeError(kConfig, "maxNeighbors must lie in [1, 64]", "/maxNeighbors");
    if (!finite(def.timeHorizon) || def.timeHorizon <= 0.0 || def.timeHorizon > 1.0e3)
        return makeError(kConfig, "timeHorizon must lie in (0, 1e3] s", "/timeHorizon");
    if (!finite(def.overlapTolerance) || def.overlapTolerance < 0.0 || def.overlapTolerance > 0.5)
        return makeError(kConfig, "overlapTolerance must lie in [0, 0.5]", "/overlapTolerance");
    if (!finite(def.timeHorizonObstacles) || def.timeHorizonObstacles <= 0.0 || def.timeHorizonObstacles > 1.0e3)
        return makeError(kConfig, "timeHorizonObstacles must lie in (0, 1e3] s", "/timeHorizonObstacles");
    if (def.threads < 0 || def.threads > kMaxAvoidanceThreads)
        return makeError(kConfig, "threads must lie in [0, 256] (0: every hardware thread)", "/threads");
    auto impl = std::make_unique<Avoidance::Impl>();
    impl->def = def;
    const std::size_t agents = static_cast<std::size_t>(std::min(def.maxAgents, 1 << 16));
    impl->positions2.reserve(agents);
    impl->ids.reserve(agents);
    impl->kthSq.reserve(agents);
    return Avoidance(std::move(impl));
}

Status Avoidance::avoid(std::span<const AvoidanceAgent> agents, std::span<const AvoidanceObstacle> obstacles,
                        double dt, std::span<glm::dvec2> outVelocities)
{
    return avoid(agents, obstacles, {}, dt, outVelocities);
}

Status Avoidance::avoid(std::span<const AvoidanceAgent> agents, std::span<const AvoidanceObstacle> obstacles,
                        std::span<const ObstacleRange> perAgent, double dt, std::span<glm::dvec2> outVelocities)
{
    Impl& m = *m_impl;
    const AvoidanceDef& def = m.def;
    SPARK_TRY(checkStep(dt, agents.size(), outVelocities.size(), def.maxAgents));
    if (obstacles.size() > static_cast<std::size_t>(def.maxObstacles))
        return makeError(kLimit, "more obstacles than the definition's maxObstacles", "/obstacles");
    std::size_t points = 0;
    for (std::size_t i = 0; i < obstacles.size(); ++i)
    {
        if (!obstacleOk(obstacles[i]))
            SPARK_TRY(checkObstacle(obstacles[i], i));
        points += obstacles[i].shape == ObstacleShape::Circle ? 1 : obstacles[i].points.size();
    }
    if (points > static_cast<std::size_t>(def.maxObstaclePoints))
        return makeError(kLimit, "more obstacle points than the definition's maxObstaclePoints", "/obstacles");
    for (std::size_t i = 0; i < agents.size(); ++i)
    {
        if (!agentOk(agents[i]))
            SPARK_TRY(checkAgent(agents[i], i));
        if (agents[i].maxNeighbors < 0 || agents[i].maxNeighbors > def.maxNeighbors)
            return makeError(kInput, "maxNeighbors is 0..the definition's maxNeighbors",
                             "/agents/" + std::to_string(i) + "/maxNeighbors");
    }
    if (!perAgent.empty() && perAgent.size() != agents.size())
        return makeError(kInput, "give one obstacle range per agent, or none", "/perAgent");
    for (std::size_t i = 0; i < perAgent.size(); ++i)
        if (static_cast<uint64_t>(perAgent[i].first) + perAgent[i].count > obstacles.size())
            return makeError(kInput, "the obstacle range runs past the obstacles", "/perAgent/" + std::to_string(i));

    // Neighbour grid.
    m.positions2.resize(agents.size());
    m.ids.resize(agents.size());
    for (std::size_t i = 0; i < agents.size(); ++i)
    {
        m.positions2[i] = agents[i].position;
        m.ids[i] = agents[i].id;
    }
    m.grid2.build(m.positions2, m.ids, def.neighborDistance, static_cast<std::size_t>(def.maxNeighbors));
    // Obstacle bounds for a quick reject.
    m.obstacleBounds.resize(obstacles.size());
    for (std::size_t i = 0; i < obstacles.size(); ++i)
    {
        const AvoidanceObstacle& o = obstacles[i];
        glm::dvec4 box(o.center - o.radius, o.center + o.radius);
        if (o.shape != ObstacleShape::Circle)
        {
            box = glm::dvec4(o.points[0], o.points[0]);
            for (const glm::dvec2& p : o.points)
                box = glm::dvec4(std::min(box.x, p.x), std::min(box.y, p.y), std::max(box.z, p.x), std::max(box.w, p.y));
        }
        m.obstacleBounds[i] = box;
    }

    PairSettings pairs =
        PairSettings::of(def.timeHorizon, 1.0 - def.overlapTolerance, dt, uniformPairRadius(agents));
    pairs.neighborsByDistance = true; // the lists come from the grid's query
    // Room for the most constraints one agent can have: one per obstacle point, two per neighbour.
    const std::size_t room = points + 2 * static_cast<std::size_t>(def.maxNeighbors);
    m.kthSq.resize(agents.size());
    m.forEachSlot<2>(agents.size(), room,
                  [&](AvoidanceWorker& w, std::size_t slot) __attribute__((always_inline))
                  {
                      const std::size_t i = m.grid2.agentAt(slot);
                      const AvoidanceAgent& a = agents[i];
                      Constraint2* constraints = w.constraints2.data();
                      std::size_t obstacleCount = 0;
                      const std::size_t firstObstacle = perAgent.empty() ? 0 : perAgent[i].first;
                      const std::size_t endObstacle =
                          perAgent.empty() ? obstacles.size() : firstObstacle + perAgent[i].count;
                      for (std::size_t k = firstObstacle; k < endObstacle; ++k)
                      {
                          const glm::dvec4& box = m.obstacleBounds[k];
                          const double reach =
                              a.radius + (a.maxSpeed + std::sqrt(glm::dot(obstacles[k].velocity, obstacles[k].velocity))) *
                                             def.timeHorizonObstacles;
                          if (a.position.x < box.x - reach || a.position.x > box.z + reach ||
                              a.position.y < box.y - reach || a.position.y > box.w + reach)
                              continue;
                          addObstacle(a, obstacles[k], def.timeHorizonObstacles, dt, constraints, obstacleCount);
                      }
                      assert(obstacleCount <= points);
                      const std::size_t wanted =
                          static_cast<std::size_t>(a.maxNeighbors > 0 ? a.maxNeighbors : def.maxNeighbors);
                      const std::size_t found = m.nearest<2>(m.grid2, w.cursor2, w, i, def.neighborDistance, wanted);
                      outVelocities[i] = solveAgent<AvoidanceAgent, glm::dvec2>(
                          agents, i, w.neighbors(), found, pairs, constraints, obstacleCount, w.scratch2, w.table2,
                          kHorizonHalvings2D);
                  });
    return Status::success();
}

Status Avoidance::avoid3D(std::span<const AvoidanceAgent3D> agents, std::span<const AvoidanceSphere> spheres,
                          double dt, std::span<glm::dvec3> outVelocities)
{
    Impl& m = *m_impl;
    const AvoidanceDef& def = m.def;
    SPARK_TRY(checkStep(dt, agents.size(), outVelocities.size(), def.maxAgents));
    if (spheres.size() > static_cast<std::size_t>(def.maxObstacles) ||
        spheres.size() > static_cast<std::size_t>(def.maxObstaclePoints))
        return makeError(kLimit, "more spheres than the definition's maxObstacles or maxObstaclePoints", "/spheres");
    for (std::size_t i = 0; i < spheres.size(); ++i)
    {
        SPARK_TRY(checkPosition(spheres[i].center, Field{"spheres", i, "center"}));
        SPARK_TRY(checkVelocity(spheres[i].velocity, Field{"spheres", i, "velocity"}));
        if (!finite(spheres[i].radius) || spheres[i].radius <= 0.0 || spheres[i].radius > kMaxAvoidanceCoordinate)
            return makeError(kInput, "sphere radius must lie in (0, 1e6] m", at("spheres", i, "radius"));
    }
    for (std::size_t i = 0; i < agents.size(); ++i)
        if (!agentOk(agents[i]))
            SPARK_TRY(checkAgent(agents[i], i));

    m.positions3.resize(agents.size());
    m.ids.resize(agents.size());
    for (std::size_t i = 0; i < agents.size(); ++i)
    {
        m.positions3[i] = agents[i].position;
        m.ids[i] = agents[i].id;
    }
    m.grid3.build(m.positions3, m.ids, def.neighborDistance, static_cast<std::size_t>(def.maxNeighbors));

    PairSettings pairs =
        PairSettings::of(def.timeHorizon, 1.0 - def.overlapTolerance, dt, uniformPairRadius(agents));
    pairs.neighborsByDistance = true; // the lists come from the grid's query
    // Room for the most constraints one agent can have: one per sphere, two per neighbour.
    const std::size_t room = spheres.size() + 2 * static_cast<std::size_t>(def.maxNeighbors);
    m.kthSq.resize(agents.size());
    m.forEachSlot<3>(agents.size(), room,
                  [&](AvoidanceWorker& w, std::size_t slot) __attribute__((always_inline))
                  {
                      const std::size_t i = m.grid3.agentAt(slot);
                      const AvoidanceAgent3D& a = agents[i];
                      Constraint3* constraints = w.constraints3.data();
                      std::size_t obstacleCount = 0;
                      for (const AvoidanceSphere& s : spheres)
                      {
                          const glm::dvec3 diff = s.center - a.position;
                          const double dist = std::sqrt(glm::dot(diff, diff));
                          const double gap = dist - s.radius - a.radius;
                          const double reach =
                              (a.maxSpeed + std::sqrt(glm::dot(s.velocity, s.velocity))) * def.timeHorizonObstacles;
                          if (gap > reach)
                              continue;
                          const glm::dvec3 toward = dist > 0.0 ? diff / dist : glm::dvec3(1.0, 0.0, 0.0);
                          constraints[obstacleCount++] =
                              obstaclePlane(toward, gap, s.velocity, def.timeHorizonObstacles, dt);
                      }
                      const std::size_t wanted = static_cast<std::size_t>(def.maxNeighbors);
                      const std::size_t found = m.nearest<3>(m.grid3, w.cursor3, w, i, def.neighborDistance, wanted);
                      outVelocities[i] = solveAgent<AvoidanceAgent3D, glm::dvec3>(
                          agents, i, w.neighbors(), found, pairs, constraints, obstacleCount, w.scratch3, w.table3, 0);
                  });
    return Status::success();
}

} // namespace spark::nav
