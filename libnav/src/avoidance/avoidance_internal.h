#pragma once
/// \file avoidance_internal.h
/// Shared pieces of the ORCA implementation: the half-plane / half-space
/// constraint, the incremental linear programs (lp.cpp), the constraint
/// builders (orca_planes.h) and the neighbour grids (neighbor_grid_2d.h, neighbor_grid_3d.h).
/// See the design notes at the top of each file.

#include "neighbor_grid_2d.h"
#include "neighbor_grid_3d.h"
#include "spark/nav/avoidance.h"

#include <glm/geometric.hpp>
#include <glm/vec4.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace spark::nav::detail
{

/// The set of velocities {v : (v − point) · normal >= 0}; |normal| = 1.
template <class V> struct Constraint
{
    V point{};
    V normal{};
};

using Constraint2 = Constraint<glm::dvec2>;
using Constraint3 = Constraint<glm::dvec3>;

/// What the linear programs optimise.
enum class Objective : uint8_t
{
    Closest,   ///< The velocity nearest to `target`.
    Direction, ///< The velocity furthest along the unit vector `target`.
};

/// Incremental 2D linear program (van den Berg et al. 2011, §5.2; de Berg et al.,
/// "Computational Geometry", §4.4): the velocity within the disc of radius
/// `maxSpeed` satisfying every constraint, optimal for `objective`. Returns the
/// number of constraints processed: `constraints.size()` on success, else the
/// index of the first one that could not be met (then `ioResult` satisfies the
/// ones before it). With `start` > 0 the program resumes: `ioResult` must be
/// what a solve of the first `start` constraints returned (the same answer, bit
/// for bit, as solving all from the beginning).
std::size_t solveLinearProgram(std::span<const Constraint2> constraints, double maxSpeed, glm::dvec2 target,
                               Objective objective, glm::dvec2& ioResult, std::size_t start = 0);
/// The same in 3D with half-spaces and the ball of radius `maxSpeed`.
std::size_t solveLinearProgram(std::span<const Constraint3> constraints, double maxSpeed, glm::dvec3 target,
                               Objective objective, glm::dvec3& ioResult, std::size_t start = 0);

/// The fallback for an infeasible program (the paper's one-dimension-higher
/// program): keeps constraints [0, hardCount) met and, among the rest, minimises
/// the largest violation, starting at `firstFailed` with `ioResult` meeting every
/// constraint before it. `scratch` is reused between calls.
void solveLeastViolation(std::span<const Constraint2> constraints, std::size_t hardCount, std::size_t firstFailed,
                         double maxSpeed, glm::dvec2& ioResult, std::vector<Constraint2>& scratch);
void solveLeastViolation(std::span<const Constraint3> constraints, std::size_t hardCount, std::size_t firstFailed,
                         double maxSpeed, glm::dvec3& ioResult, std::vector<Constraint3>& scratch);

/// Share of the avoidance agent `a` takes against `b`: 0 when `a` ignores `b`,
/// 1 when only `b` ignores `a`, else pB / (pA + pB).
inline double avoidanceShare(double priorityA, uint32_t layersA, uint32_t ignoresA, double priorityB,
                             uint32_t layersB, uint32_t ignoresB)
{
    if ((ignoresA & layersB) != 0)
        return 0.0;
    if ((ignoresB & layersA) != 0)
        return 1.0;
    // Equal priorities: p / (p + p) is 0.5 exactly (p + p is exact for p <= kMaxAvoidancePriority).
    if (priorityA == priorityB)
        return 0.5;
    return priorityB / (priorityA + priorityB);
}

/// The step's constants of the pair constraints (avoidance.cpp's design note),
/// with the inverses the planes multiply by, divided once per step (and once
/// per shorter horizon) instead of once per agent.
struct PairSettings
{
    double horizon;        ///< τ of the full-horizon constraints. [Units: s]
    double oneStepHorizon; ///< min(dt, τ), the horizon of the one-step guards. [Units: s]
    double guardFactor;    ///< 1 − overlapTolerance: the guards' share of the combined radius.
    double dt;             ///< The time step. [Units: s]
    double invHorizon;     ///< 1 / horizon.
    double invOneStep;     ///< 1 / oneStepHorizon.
    double invDt;          ///< 1 / dt.
    /// r + r when every agent has the radius r and one priority and ignores
    /// none (each pair then shares its avoidance equally), else 0 (see
    /// uniformPairRadius). Only the work depends on it.
    double uniformPairRadius;
    /// True when every neighbour list pairConstraints gets is in the
    /// neighbour search's order (squared distance first, the grids' query):
    /// a uniform crowd's guards then lead the list (one guard reach for
    /// every pair), which pairConstraints otherwise checks per neighbour.
    /// Only the work depends on it, given lists in that order.
    bool neighborsByDistance = false;

    /// The settings of a step of `dt` with the full horizon `horizon`.
    static PairSettings of(double horizon, double guardFactor, double dt, double uniformPairRadius)
    {
        const double oneStep = std::min(dt, horizon);
        return PairSettings{horizon, oneStep,       guardFactor, dt, 1.0 / horizon,
                            1.0 / oneStep, 1.0 / dt, uniformPairRadius};
    }
    /// The same with the full horizon `h`.
    PairSettings withHorizon(double h) const
    {
        PairSettings s = *this;
        s.horizon = h;
        s.invHorizon = 1.0 / h;
        return s;
    }
};

/// PairSettings::uniformPairRadius of `agents`: r + r when every agent has
/// the radius r and the priority of the first and ignores no layer, else 0.
template <class Agent> double uniformPairRadius(std::span<const Agent> agents)
{
    if (agents.empty())
        return 0.0;
    const double radius = agents[0].radius, priority = agents[0].priority;
    for (const Agent& a : agents)
        if (a.radius != radius || a.priority != priority || a.ignores != 0)
            return 0.0;
    return radius + radius;
}

/// What pairConstraints writes.
enum class PairBuild : uint8_t
{
    All,        ///< The guards that may bind this step, then every full-horizon constraint.
    SoftOnly,   ///< Only the full-horizon constraints, where `All` writes them (a re-run at another horizon).
    EveryGuard, ///< Every guard, then every full-horizon constraint.
};

/// How many guards and full-horizon constraints pairConstraints wrote.
struct PairCounts
{
    std::size_t guards = 0;
    std::size_t soft = 0;
};

/// The pairs of the agent last built, kept for a SoftOnly re-run: what the
/// planes of each pair need (gathered once per agent), a column per field so
/// that the planes of two pairs are built at once (orca_planes.h).
template <class V> struct PairTable
{
    static constexpr std::size_t kRoom = 64;
    static constexpr int kDim = V::length();
    using Column = std::array<double, kRoom>;
    std::array<Column, kDim> relativePosition; ///< pB − pA, per axis.
    std::array<Column, kDim> relativeVelocity; ///< vA − vB, per axis.
    Column distSq;                             ///< The neighbour's squared distance (dot(pB − pA, pB − pA)).
    Column radius;                             ///< rA + rB.
    Column share;                              ///< A's share of the avoidance.
    std::array<uint64_t, kRoom> otherKey; ///< (idB << 32) | indexB: exact ties break by (id, index) order.
    std::size_t count = 0;                     ///< Neighbours kept (not ignored).
    std::size_t guards = 0;                    ///< Of them, those with a guard.
    /// R > 0 when every entry of `radius` holds R and every entry of `share`
    /// 0.5 (a uniform crowd's, written once instead of per pair), else 0.
    double uniformRadius = 0.0;

    /// Pair j's pB − pA.
    V position(std::size_t j) const
    {
        V v;
        for (int d = 0; d < kDim; ++d)
            v[d] = relativePosition[static_cast<std::size_t>(d)][j];
        return v;
    }
    /// Pair j's vA − vB.
    V velocity(std::size_t j) const
    {
        V v;
        for (int d = 0; d < kDim; ++d)
            v[d] = relativeVelocity[static_cast<std::size_t>(d)][j];
        return v;
    }
};

/// Writes agent `self`'s constraints against its `count` neighbours (those it
/// does not ignore, in the given order) to `out`, which holds 2 × `count`:
/// first the one-step guards (v_opt = 0, horizon `oneStepHorizon`, radius
/// shrunk by `guardFactor`), then every full-horizon constraint. A guard that
/// no velocity within the agent's max speed can violate (the neighbour is
/// further than the guard radius plus the agent's one-step reach over its
/// share) is left out unless `build` is EveryGuard: it could change no answer.
/// `table` receives the pairs (All, EveryGuard); SoftOnly reads them from it,
/// so it must follow a build of the same agent.
PairCounts pairConstraints(std::span<const AvoidanceAgent> agents, std::size_t self, const Neighbor* neighbors,
                           std::size_t count, const PairSettings& settings, Constraint2* out, PairBuild build,
                           PairTable<glm::dvec2>& table);
PairCounts pairConstraints(std::span<const AvoidanceAgent3D> agents, std::size_t self, const Neighbor* neighbors,
                           std::size_t count, const PairSettings& settings, Constraint3* out, PairBuild build,
                           PairTable<glm::dvec3>& table);

/// The constraint keeping an agent (radius included in `gap`) off a convex
/// obstacle piece: `toward` is the unit vector from the agent's centre to the
/// piece's nearest point, `gap` the centre distance minus the agent's radius
/// (negative when overlapping), `obstacleVelocity` the piece's velocity.
template <class V>
Constraint<V> obstaclePlane(V toward, double gap, V obstacleVelocity, double horizon, double dt)
{
    // The velocity obstacle of a convex piece K is the union of s·K for s >= 1/τ,
    // itself convex; its point nearest to the relative velocity 0 (the agent
    // keeping pace with the obstacle, the paper's v_opt = 0) is toward·gap/τ,
    // and the supporting line there is perpendicular to `toward`. An agent
    // already overlapping uses τ = dt and must leave within the step.
    const double limit = gap > 0.0 ? gap / horizon : gap / dt;
    Constraint<V> c;
    c.normal = -toward;
    c.point = obstacleVelocity + toward * limit;
    return c;
}

} // namespace spark::nav::detail
