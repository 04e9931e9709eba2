/// \file lp.cpp
/// Design note — the linear programs of ORCA.
///
/// Source: van den Berg, Guy, Lin, Manocha, "Reciprocal n-body collision
/// avoidance" (ISRR 2009 / Springer Tracts in Advanced Robotics 70, 2011), §5.2,
/// which solves "nearest velocity to the preferred one inside every ORCA half-plane
/// and the max-speed disc" by the randomised incremental algorithm of Seidel /
/// de Berg et al. ("Computational Geometry", §4.4), run here in the fixed input
/// order (deterministic; the inputs are few, so the expected-time argument of
/// random order buys nothing).
///
/// Incremental step: keep the optimum of the constraints seen so far; when the
/// next constraint i excludes it, the new optimum lies on i's boundary, so solve
/// the problem one dimension lower on that boundary (a line in 2D; a plane in 3D,
/// which in turn drops to lines), against the constraints before i.
///
/// Infeasible case (paper §5.2, last paragraph): when the half-planes leave no
/// velocity, choose the one that minimises the largest violation
/// δ = max_i −(v − q_i)·n_i — a program one dimension higher in (v, δ). Solved
/// incrementally as well: when constraint i is violated by more than the current
/// δ, the new optimum has δ = δ_i, so maximise (v − q_i)·n_i subject to
/// δ_j(v) <= δ_i(v) for the earlier j, i.e. v·(n_j − n_i) >= q_j·n_j − q_i·n_i,
/// a half-plane again (skipped when n_j = n_i: then j never exceeds i). Hard
/// constraints (obstacles, and in the avoidance's first fallback tier the
/// one-step constraints) are kept as they are.
///
/// All vectors are doubles (see avoidance.h); constraint normals are unit length,
/// so the tolerances below are in m/s.
#include "avoidance_internal.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace spark::nav::detail
{
namespace
{

/// Two unit vectors whose cross/dot measure falls below this count as parallel.
constexpr double kParallel = 1.0e-12;
/// A parallel constraint is "met" when violated by at most this. [Units: m/s]
constexpr double kSlack = 1.0e-12;

template <class V> double violation(const Constraint<V>& c, const V& v) { return glm::dot(c.point - v, c.normal); }

/// Optimum on the line `origin + t·dir` (|dir| = 1) within the speed ball and the
/// constraints [0, limit). False when that set is empty.
template <Objective objective, class V>
bool solveOnLine(std::span<const Constraint<V>> cs, std::size_t limit, const V& origin, const V& dir, double maxSpeed,
                 const V& target, V& out)
{
    const double b = glm::dot(origin, dir);
    const double disc = b * b + maxSpeed * maxSpeed - glm::dot(origin, origin);
    if (disc < 0.0)
        return false;
    const double root = std::sqrt(disc);
    double lo = -b - root;
    double hi = -b + root;
    // lo only grows and hi only shrinks: once lo > hi it stays so, and the
    // one test after the loop returns what a test per constraint would.
    // False: the constraint is parallel and its boundary passes the wrong side.
    const auto narrow = [&](double den, double num) __attribute__((always_inline))
    {
        if (den > kParallel)
            lo = std::max(lo, num / den);
        else if (den < -kParallel)
            hi = std::min(hi, num / den);
        else if (num > kSlack)
            return false;
        return true;
    };
    if constexpr (std::is_same_v<V, glm::dvec2>)
    {
        // On the plane in scalars and by pointer, glm::dot's operations in
        // its order (the same bits): no loop index beside the pointer.
        const double dx = dir.x, dy = dir.y, ox = origin.x, oy = origin.y;
        for (const Constraint2 *c = cs.data(), *end = cs.data() + limit; c != end; ++c)
            if (!narrow(dx * c->normal.x + dy * c->normal.y,
                        (c->point.x - ox) * c->normal.x + (c->point.y - oy) * c->normal.y))
                return false;
    }
    else
    {
        for (std::size_t k = 0; k < limit; ++k)
            if (!narrow(glm::dot(dir, cs[k].normal), glm::dot(cs[k].point - origin, cs[k].normal)))
                return false;
    }
    if (lo > hi)
        return false;
    double t = 0.0;
    if constexpr (objective == Objective::Direction)
        t = glm::dot(dir, target) > 0.0 ? hi : lo;
    else
        t = std::clamp(glm::dot(target - origin, dir), lo, hi);
    out = origin + dir * t;
    return true;
}

/// The unconstrained optimum inside the speed ball.
template <Objective objective, class V> V startingPoint(double maxSpeed, const V& target)
{
    if constexpr (objective == Objective::Direction)
        return target * maxSpeed;
    const double len2 = glm::dot(target, target);
    if (len2 > maxSpeed * maxSpeed)
        return target * (maxSpeed / std::sqrt(len2));
    return target;
}

/// 3D: optimum on the plane of constraint i within the ball and constraints [0, i).
template <Objective objective>
bool solveOnPlane(std::span<const Constraint3> cs, std::size_t i, double maxSpeed, const glm::dvec3& target,
                  glm::dvec3& out)
{
    const Constraint3& plane = cs[i];
    const double offset = glm::dot(plane.point, plane.normal);
    const double discRadius2 = maxSpeed * maxSpeed - offset * offset;
    if (discRadius2 < 0.0)
        return false;
    const double discRadius = std::sqrt(discRadius2);
    const glm::dvec3 centre = plane.normal * offset; // nearest point of the plane to 0
    glm::dvec3 result;
    if constexpr (objective == Objective::Direction)
    {
        const glm::dvec3 along = target - plane.normal * glm::dot(target, plane.normal);
        const double len2 = glm::dot(along, along);
        result = len2 > kParallel * kParallel ? centre + along * (discRadius / std::sqrt(len2)) : centre;
    }
    else
    {
        result = target - plane.normal * glm::dot(target - plane.point, plane.normal);
        const glm::dvec3 fromCentre = result - centre;
        const double len2 = glm::dot(fromCentre, fromCentre);
        if (len2 > discRadius2)
            result = centre + fromCentre * (discRadius / std::sqrt(len2));
    }
    for (std::size_t j = 0; j < i; ++j)
    {
        if (violation(cs[j], result) <= 0.0)
            continue;
        glm::dvec3 lineDir = glm::cross(plane.normal, cs[j].normal);
        const double len2 = glm::dot(lineDir, lineDir);
        if (len2 <= kParallel * kParallel)
            return false; // parallel planes: every point of plane i violates j alike
        lineDir /= std::sqrt(len2);
        // A point on both planes: from plane.point, move inside plane i
        // perpendicular to the line until constraint j's boundary is met.
        const glm::dvec3 across = glm::cross(lineDir, plane.normal);
        const double s = glm::dot(cs[j].point - plane.point, cs[j].normal) / glm::dot(across, cs[j].normal);
        const glm::dvec3 origin = plane.point + across * s;
        if (!solveOnLine<objective, glm::dvec3>(cs, j, origin, lineDir, maxSpeed, target, result))
            return false;
    }
    out = result;
    return true;
}

/// The first of cs[from, size) that `v` violates (its violation not <= 0), or
/// the size. On the plane in scalars, glm::dot's operations in its order (the
/// same bits): the compiler then keeps `v` in two registers instead of
/// unpacking it for every constraint of the programs' hottest loop. Always
/// inlined: in space the compiler otherwise calls it after every constraint
/// met (measured: 0.24% of a step of RVO2-3D's sphere).
template <class V>
[[gnu::always_inline]] inline std::size_t firstViolated(std::span<const Constraint<V>> cs, std::size_t from,
                                                        const V& v)
{
    if constexpr (std::is_same_v<V, glm::dvec2>)
    {
        const double vx = v.x, vy = v.y;
        for (std::size_t i = from; i < cs.size(); ++i)
        {
            const Constraint2& c = cs[i];
            if (!((c.point.x - vx) * c.normal.x + (c.point.y - vy) * c.normal.y <= 0.0))
                return i;
        }
    }
    else
    {
        for (std::size_t i = from; i < cs.size(); ++i)
            if (!(violation(cs[i], v) <= 0.0))
                return i;
    }
    return cs.size();
}

template <Objective objective, class V>
std::size_t solveGeneric(std::span<const Constraint<V>> cs, double maxSpeed, const V& target, V& ioResult,
                         std::size_t start = 0)
{
    V result = start == 0 ? startingPoint<objective>(maxSpeed, target) : ioResult;
    for (std::size_t i = firstViolated(cs, start, result); i < cs.size(); i = firstViolated(cs, i + 1, result))
    {
        V next = result;
        bool ok = false;
        if constexpr (std::is_same_v<V, glm::dvec2>)
        {
            const glm::dvec2 dir{-cs[i].normal.y, cs[i].normal.x};
            ok = solveOnLine<objective, glm::dvec2>(cs, i, cs[i].point, dir, maxSpeed, target, next);
        }
        else
        {
            ok = solveOnPlane<objective>(cs, i, maxSpeed, target, next);
        }
        if (!ok)
        {
            ioResult = result;
            return i;
        }
        result = next;
    }
    ioResult = result;
    return cs.size();
}

template <class V>
void leastViolationGeneric(std::span<const Constraint<V>> cs, std::size_t hardCount, std::size_t firstFailed,
                           double maxSpeed, V& ioResult, std::vector<Constraint<V>>& scratch)
{
    double worst = 0.0;
    bool headed = false; // the hard constraints head every program below: copied once
    // Room for the most a program below holds (written by index, no growth per constraint).
    if (scratch.size() < cs.size())
        scratch.resize(cs.size());
    for (std::size_t i = std::max(firstFailed, hardCount); i < cs.size(); ++i)
    {
        if (violation(cs[i], ioResult) <= worst)
            continue;
        if (!headed)
            std::copy(cs.begin(), cs.begin() + static_cast<std::ptrdiff_t>(hardCount), scratch.begin());
        headed = true;
        std::size_t used = hardCount;
        // In space constraint i's values in locals: the writes to `scratch`
        // could alias `cs`, and the compiler would read them again for every
        // j (measured: 0.1% of a step of RVO2-3D's sphere; on the plane the
        // locals cost 0.1% more, so it reads them per j as before).
        constexpr bool kHoisted = std::is_same_v<V, glm::dvec3>;
        const V normalI = cs[i].normal;
        const double offsetI = glm::dot(cs[i].point, cs[i].normal);
        for (std::size_t j = hardCount; j < i; ++j)
        {
            const V diff = cs[j].normal - (kHoisted ? normalI : cs[i].normal);
            const double len2 = glm::dot(diff, diff);
            if (len2 <= kParallel * kParallel)
                continue;
            const double len = std::sqrt(len2);
            const double offset = glm::dot(cs[j].point, cs[j].normal) -
                                  (kHoisted ? offsetI : glm::dot(cs[i].point, cs[i].normal));
            Constraint<V>& c = scratch[used++];
            c.normal = diff / len;
            c.point = c.normal * (offset / len);
        }
        const std::span<const Constraint<V>> program(scratch.data(), used);
        V candidate = ioResult;
        if (solveGeneric<Objective::Direction, V>(program, maxSpeed, cs[i].normal, candidate) == used)
            ioResult = candidate;
        worst = violation(cs[i], ioResult);
    }
}

} // namespace

std::size_t solveLinearProgram(std::span<const Constraint2> constraints, double maxSpeed, glm::dvec2 target,
                               Objective objective, glm::dvec2& ioResult, std::size_t start)
{
    return objective == Objective::Closest
               ? solveGeneric<Objective::Closest, glm::dvec2>(constraints, maxSpeed, target, ioResult, start)
               : solveGeneric<Objective::Direction, glm::dvec2>(constraints, maxSpeed, target, ioResult, start);
}

std::size_t solveLinearProgram(std::span<const Constraint3> constraints, double maxSpeed, glm::dvec3 target,
                               Objective objective, glm::dvec3& ioResult, std::size_t start)
{
    return objective == Objective::Closest
               ? solveGeneric<Objective::Closest, glm::dvec3>(constraints, maxSpeed, target, ioResult, start)
               : solveGeneric<Objective::Direction, glm::dvec3>(constraints, maxSpeed, target, ioResult, start);
}

void solveLeastViolation(std::span<const Constraint2> constraints, std::size_t hardCount, std::size_t firstFailed,
                         double maxSpeed, glm::dvec2& ioResult, std::vector<Constraint2>& scratch)
{
    leastViolationGeneric<glm::dvec2>(constraints, hardCount, firstFailed, maxSpeed, ioResult, scratch);
}

void solveLeastViolation(std::span<const Constraint3> constraints, std::size_t hardCount, std::size_t firstFailed,
                         double maxSpeed, glm::dvec3& ioResult, std::vector<Constraint3>& scratch)
{
    leastViolationGeneric<glm::dvec3>(constraints, hardCount, firstFailed, maxSpeed, ioResult, scratch);
}

} // namespace spark::nav::detail
