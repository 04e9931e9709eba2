/// \file orca_planes.cpp
/// Design note — the ORCA half-plane of a pair of agents, in 2D and 3D.
///
/// Source: van den Berg, Guy, Lin, Manocha, "Reciprocal n-body collision
/// avoidance" (2011), §3–§4. For agents A and B with relative position
/// p = pB − pA and combined radius R, the velocity obstacle for the horizon τ is
/// the set of relative velocities that meet the disc (ball) D(p, R) within τ:
/// a cone from the origin around p, cut off by the disc D(p/τ, R/τ). With the
/// relative velocity v = vA − vB, let u be the vector from v to the nearest
/// point of the obstacle's boundary and n the outward normal there. A taking
/// the share s of the avoidance gets the half-plane
///     ORCA = { v' : (v' − (vA + s·u)) · n >= 0 }.
///
/// Nearest boundary point (our derivation): with w = v − p/τ, the nearest
/// point lies on the cut-off circle exactly when w points back toward the origin
/// within the circle's visible arc, i.e. w·p < 0 and (w·p)² > R²|w|²; then
/// n = w/|w| and u = (R/τ − |w|)·n. Otherwise it lies on a leg of the cone:
/// the legs make the angle α with p, sin α = R/|p|. In 2D the leg on v's side
/// (the sign of det(p, w); zero picks the right leg, so a mirror-symmetric
/// head-on pair both turn right and pass). In 3D the leg lies in the plane
/// spanned by p and the part ρ of v across p; when ρ is zero (exactly head on)
/// the sidestep rule picks it: to the right of p with +Y up (p × Y), or, when p
/// is vertical, toward +X when rising and −X when falling. The mirrored pair
/// sees −p, −v and so picks the opposite side: the two separate.
///
/// Overlapping pairs (|p| <= R) use τ = dt as the paper prescribes: the
/// obstacle is the disc D(p/dt, R/dt), and u pushes the relative velocity out of
/// it, so the pair separates within one step if both keep their share.
#include "avoidance_internal.h"

#include <array>
#include <cassert>
#include <cmath>
#include <type_traits>

namespace spark::nav::detail
{
namespace
{

/// Everything an ORCA pair needs, dimension-free.
template <class V> struct PairInput
{
    V relativePosition; ///< pB − pA.
    V relativeVelocity; ///< vA − vB.
    double distSq;      ///< dot(pB − pA, pB − pA), as the neighbour search computed it.
    double combinedRadius;
    bool aBeforeB; ///< (idA, indexA) < (idB, indexB): breaks exact ties.
};

/// Unit vector across a pair lying exactly on top of each other: a fixed
/// axis, signed by the (id, index) order so the two see opposite directions.
template <class V> V tieAxis(bool aBeforeB)
{
    V axis{};
    axis.x = aBeforeB ? -1.0 : 1.0;
    return axis;
}

/// The ORCA half-plane of agent A against B (taking `share` of the avoidance),
/// seen from A's velocity `velocityA`; `invHorizon` is 1 / the VO's
/// truncation, `invDt` 1 / the step for pairs that already overlap.
/// Always inlined into pairConstraintsOf's two loops (a call per pair cost
/// about 8% of a step).
[[gnu::always_inline]] inline Constraint2 orcaPlane2(const PairInput<glm::dvec2>& pair, glm::dvec2 velocityA,
                                                     double share, double invHorizon, double invDt)
{
    // In scalars (the overlapping disc, the cut-off, the legs): written out
    // from an earlier vector form with the same operations in the same order
    // (the same bits), without the vector shuffles of the hottest function.
    const double px = pair.relativePosition.x, py = pair.relativePosition.y;
    const double vx = pair.relativeVelocity.x, vy = pair.relativeVelocity.y;
    const double r = pair.combinedRadius;
    const double distSq = pair.distSq;
    double nx = 0.0, ny = 0.0, ux = 0.0, uy = 0.0;
    if (!(distSq > r * r))
    {
        // Overlapping: the disc D(p/dt, R/dt).
        const double wx = vx - px * invDt, wy = vy - py * invDt;
        const double wLen = std::sqrt(wx * wx + wy * wy);
        if (wLen > 0.0)
        {
            nx = wx / wLen;
            ny = wy / wLen;
        }
        else if (distSq > 0.0)
        {
            const double dist = std::sqrt(distSq);
            nx = -px / dist;
            ny = -py / dist;
        }
        else
        {
            const glm::dvec2 axis = tieAxis<glm::dvec2>(pair.aBeforeB);
            nx = axis.x;
            ny = axis.y;
        }
        const double push = r * invDt - wLen;
        ux = nx * push;
        uy = ny * push;
    }
    else
    {
        const double wx = vx - px * invHorizon, wy = vy - py * invHorizon;
        const double wp = wx * px + wy * py;
        const double wSq = wx * wx + wy * wy;
        if (wp < 0.0 && wp * wp > r * r * wSq)
        {
            // On the cut-off circle.
            const double wLen = std::sqrt(wSq);
            nx = wx / wLen;
            ny = wy / wLen;
            const double push = r * invHorizon - wLen;
            ux = nx * push;
            uy = ny * push;
        }
        else
        {
            const double leg = std::sqrt(distSq - r * r);
            const double side = px * wy - py * wx;
            double dirX = 0.0, dirY = 0.0;
            if (side > 0.0)
            {
                // Left leg: p turned counter-clockwise by α; outward normal on its left.
                dirX = (px * leg - py * r) / distSq;
                dirY = (px * r + py * leg) / distSq;
                nx = -dirY;
                ny = dirX;
            }
            else
            {
                // Right leg: p turned clockwise by α; outward normal on its right.
                dirX = (px * leg + py * r) / distSq;
                dirY = (-px * r + py * leg) / distSq;
                nx = dirY;
                ny = -dirX;
            }
            const double along = vx * dirX + vy * dirY;
            ux = dirX * along - vx;
            uy = dirY * along - vy;
        }
    }
    Constraint2 c;
    c.normal = glm::dvec2(nx, ny);
    c.point = glm::dvec2(velocityA.x + ux * share, velocityA.y + uy * share);
    return c;
}

/// The ORCA half-space in 3D, with the sidestep rule for exact head-on pairs.
/// In scalars like orcaPlane2: the operations of the earlier vector form (the
/// overlapping ball, the cut-off, the legs; glm's dot is (x + y) + z) in the
/// same order, the same bits, without the vector moves.
[[gnu::always_inline]] inline Constraint3 orcaPlane3(const PairInput<glm::dvec3>& pair, glm::dvec3 velocityA,
                                                     double share, double invHorizon, double invDt)
{
    const double px = pair.relativePosition.x, py = pair.relativePosition.y, pz = pair.relativePosition.z;
    const double vx = pair.relativeVelocity.x, vy = pair.relativeVelocity.y, vz = pair.relativeVelocity.z;
    const double r = pair.combinedRadius;
    const double distSq = pair.distSq;
    double nx = 0.0, ny = 0.0, nz = 0.0, ux = 0.0, uy = 0.0, uz = 0.0;
    if (!(distSq > r * r))
    {
        // Overlapping: the ball D(p/dt, R/dt).
        const double wx = vx - px * invDt, wy = vy - py * invDt, wz = vz - pz * invDt;
        const double wLen = std::sqrt(wx * wx + wy * wy + wz * wz);
        if (wLen > 0.0)
        {
            nx = wx / wLen;
            ny = wy / wLen;
            nz = wz / wLen;
        }
        else if (distSq > 0.0)
        {
            const double dist = std::sqrt(distSq);
            nx = -px / dist;
            ny = -py / dist;
            nz = -pz / dist;
        }
        else
        {
            const glm::dvec3 axis = tieAxis<glm::dvec3>(pair.aBeforeB);
            nx = axis.x;
            ny = axis.y;
            nz = axis.z;
        }
        const double push = r * invDt - wLen;
        ux = nx * push;
        uy = ny * push;
        uz = nz * push;
    }
    else
    {
        const double wx = vx - px * invHorizon, wy = vy - py * invHorizon, wz = vz - pz * invHorizon;
        const double wp = wx * px + wy * py + wz * pz;
        const double wSq = wx * wx + wy * wy + wz * wz;
        if (wp < 0.0 && wp * wp > r * r * wSq)
        {
            // On the cut-off sphere.
            const double wLen = std::sqrt(wSq);
            nx = wx / wLen;
            ny = wy / wLen;
            nz = wz / wLen;
            const double push = r * invHorizon - wLen;
            ux = nx * push;
            uy = ny * push;
            uz = nz * push;
        }
        else
        {
            // On the cone: the leg in the plane of p and v's part across p.
            const double dist = std::sqrt(distSq);
            const double ax = px / dist, ay = py / dist, az = pz / dist;
            const double sinA = r / dist;
            const double cosA = std::sqrt(distSq - r * r) / dist;
            const double va = vx * ax + vy * ay + vz * az;
            const double cx = vx - ax * va, cy = vy - ay * va, cz = vz - az * va;
            const double acrossSq = cx * cx + cy * cy + cz * cz;
            double sx = 0.0, sy = 0.0, sz = 0.0;
            if (acrossSq > 1.0e-24 * (vx * vx + vy * vy + vz * vz + 1.0e-300))
            {
                const double acrossLen = std::sqrt(acrossSq);
                sx = cx / acrossLen;
                sy = cy / acrossLen;
                sz = cz / acrossLen;
            }
            else
            {
                // Sidestep rule: exactly head on.
                const double flat = std::sqrt(ax * ax + az * az);
                if (flat > 1.0e-9)
                {
                    // axis × (+Y): the right.
                    sx = -az / flat;
                    sy = 0.0 / flat;
                    sz = ax / flat;
                }
                else
                {
                    sx = ay > 0.0 ? 1.0 : -1.0;
                }
            }
            const double lx = ax * cosA + sx * sinA, ly = ay * cosA + sy * sinA, lz = az * cosA + sz * sinA;
            nx = sx * cosA - ax * sinA;
            ny = sy * cosA - ay * sinA;
            nz = sz * cosA - az * sinA;
            const double along = vx * lx + vy * ly + vz * lz;
            ux = lx * along - vx;
            uy = ly * along - vy;
            uz = lz * along - vz;
        }
    }
    Constraint3 c;
    c.normal = glm::dvec3(nx, ny, nz);
    c.point = glm::dvec3(velocityA.x + ux * share, velocityA.y + uy * share, velocityA.z + uz * share);
    return c;
}

/// True when the one-step guard of agent `a` (max speed `maxSpeed`, taking
/// `share`) against a neighbour at squared distance `distSq` may bind: with
/// v_opt = 0 the guard is v·p/|p| <= share·(|p| − R)/h (R the shrunk combined
/// radius, h the one-step horizon), which every velocity within the max speed
/// meets when |p| > R + maxSpeed·h/share. The 1e-6 margin keeps a skipped guard
/// well outside the speed disc, so that it can change no step of the programs
/// (its bound on any line lies past the disc's by far more than the rounding).
inline bool guardMayBind(double distSq, double guardRadius, double maxSpeed, double share, double h)
{
    const double reach = (guardRadius + maxSpeed * h / share) * (1.0 + 1.0e-6);
    return !(distSq > reach * reach);
}

template <class Agent, class V>
PairCounts pairConstraintsOf(std::span<const Agent> agents, std::size_t self, const Neighbor* neighbors,
                             std::size_t count, const PairSettings& settings, Constraint<V>* out, PairBuild build,
                             PairTable<V>& table)
{
    const Agent& a = agents[self];
    const double invDt = 1.0 / settings.dt;
    const double invHorizon = 1.0 / settings.horizon;
    const double invOneStep = 1.0 / settings.oneStepHorizon;
    // The (id, index) key of agent A: exact ties break by key order.
    const uint64_t selfKey = (uint64_t{a.id} << 32) | static_cast<uint32_t>(self);
    std::size_t guardCount = table.guards;
    if (build != PairBuild::SoftOnly)
    {
        // The neighbours kept, with what their planes need; on the plane the
        // guards are written as they are found (they lead the output).
        assert(count <= table.entries.size());
        std::size_t keptCount = 0;
        guardCount = 0;
        for (std::size_t k = 0; k < count; ++k)
        {
            const Neighbor& nb = neighbors[k];
            const Agent& b = agents[nb.index];
            const double share = avoidanceShare(a.priority, a.layers, a.ignores, b.priority, b.layers, b.ignores);
            if (share == 0.0)
                continue;
            PairEntry<V>& e = table.entries[keptCount++];
            e.relativePosition = b.position - a.position;
            e.relativeVelocity = a.velocity - b.velocity;
            e.distSq = nb.distanceSquared;
            e.radius = a.radius + b.radius;
            e.share = share;
            e.otherKey = (uint64_t{b.id} << 32) | nb.index;
            e.guard = build == PairBuild::EveryGuard ||
                      guardMayBind(nb.distanceSquared, e.radius * settings.guardFactor, a.maxSpeed, share,
                                   settings.oneStepHorizon);
            if constexpr (std::is_same_v<V, glm::dvec2>)
                if (e.guard)
                    out[guardCount] = orcaPlane2({e.relativePosition, V(0.0), e.distSq, e.radius * settings.guardFactor,
                                                  selfKey < e.otherKey},
                                                 V(0.0), e.share, invOneStep, invDt);
            guardCount += e.guard ? 1 : 0;
        }
        table.count = keptCount;
        table.guards = guardCount;
    }
    const std::size_t keptCount = table.count;
    Constraint<V>* soft = out + table.guards;
    if constexpr (std::is_same_v<V, glm::dvec2>)
    {
        // The full-horizon constraints, after the guards.
        for (std::size_t j = 0; j < keptCount; ++j)
        {
            const PairEntry<V>& e = table.entries[j];
            soft[j] = orcaPlane2({e.relativePosition, e.relativeVelocity, e.distSq, e.radius, selfKey < e.otherKey},
                                 a.velocity, e.share, invHorizon, invDt);
        }
    }
    else
    {
        // The guards, then the full-horizon constraints, from one call site,
        // so that the (longer) 3D plane is inlined.
        std::size_t g = 0;
        for (std::size_t j = build != PairBuild::SoftOnly ? 0 : keptCount; j < 2 * keptCount; ++j)
        {
            const bool guard = j < keptCount;
            const PairEntry<V>& e = table.entries[guard ? j : j - keptCount];
            if (guard && !e.guard)
                continue;
            const PairInput<V> pair{e.relativePosition, guard ? V(0.0) : e.relativeVelocity, e.distSq,
                                    guard ? e.radius * settings.guardFactor : e.radius, selfKey < e.otherKey};
            Constraint<V>& to = guard ? out[g++] : soft[j - keptCount];
            to = orcaPlane3(pair, guard ? V(0.0) : a.velocity, e.share, guard ? invOneStep : invHorizon, invDt);
        }
    }
    return PairCounts{table.guards, keptCount};
}

} // namespace

PairCounts pairConstraints(std::span<const AvoidanceAgent> agents, std::size_t self, const Neighbor* neighbors,
                           std::size_t count, const PairSettings& settings, Constraint2* out, PairBuild build,
                           PairTable<glm::dvec2>& table)
{
    return pairConstraintsOf(agents, self, neighbors, count, settings, out, build, table);
}

PairCounts pairConstraints(std::span<const AvoidanceAgent3D> agents, std::size_t self, const Neighbor* neighbors,
                           std::size_t count, const PairSettings& settings, Constraint3* out, PairBuild build,
                           PairTable<glm::dvec3>& table)
{
    return pairConstraintsOf(agents, self, neighbors, count, settings, out, build, table);
}

} // namespace spark::nav::detail
