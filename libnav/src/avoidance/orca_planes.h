#pragma once
/// \file orca_planes.h
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
///
/// On the plane the planes are built two pairs at a time, a pair per SSE2 lane
/// (orcaPlanePair2), from the pair table's columns: the same IEEE operations in
/// the same order as the scalar orcaPlane2 (no FMA: -ffp-contract=off), so the
/// same bits; the side of a leg only flips signs (a − b is a + (−b) exactly).
/// In space likewise (orcaPlanePair3) for pairs that lie apart and are not
/// exactly head on, the cut-off and the leg; the rest by orcaPlane3.
/// orcaPlane2 and orcaPlane3 are the scalar reference; planes_test.cpp builds
/// every plane both ways (PlanePath) and compares the bits. Each pair path is
/// kept for what it buys (callgrind, first 400 steps, one thread): without
/// it a step costs 6.2% more on RVO2's circle-250 (2D) and 5.8% more on
/// RVO2-3D's sphere (3D).
///
/// Internal to the avoidance (avoidance.cpp and the tests include it).
#include "avoidance_internal.h"

#include <array>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <limits>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace spark::nav::detail
{

/// How the planes of a pair table are built (the tests compare the two).
enum class PlanePath : uint8_t
{
    ByTwo,    ///< Two pairs at a time, a pair per SSE2 lane (where SSE2 is there).
    OneByOne, ///< The scalar plane of each pair.
};

} // namespace spark::nav::detail

namespace spark::nav::detail::planes
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

/// The squared reach within which the one-step guard of agent `a` (max
/// speed `maxSpeed`, taking `share`) against a neighbour may bind: the guard
/// of a neighbour at squared distance distSq may bind when
/// !(distSq > guardReachSq(guardRadius, stepReach)). With v_opt = 0 the guard
/// is v·p/|p| <= share·(|p| − R)/h (R the shrunk combined radius
/// `guardRadius`, h the one-step horizon), which every velocity within the
/// max speed meets when |p| > R + maxSpeed·h/share. The 1e-6 margin keeps a
/// skipped guard well outside the speed disc, so that it can change no step
/// of the programs (its bound on any line lies past the disc's by far more
/// than the rounding). `stepReach` is maxSpeed·h/share, computed as
/// (maxSpeed·h)/share.
inline double guardReachSq(double guardRadius, double stepReach)
{
    const double reach = (guardRadius + stepReach) * (1.0 + 1.0e-6);
    return reach * reach;
}

#if defined(__SSE2__)
/// The inputs of two pairs' planes, a pair per lane (orcaPlane2's, the
/// velocity of A and the horizons included).
struct PlaneLanes
{
    __m128d px, py, vx, vy, distSq, r, share;
    __m128d velocityX, velocityY, invHorizon, invDt;
};

/// A plane's normal and u (orcaPlane2's n and u), a pair per lane.
struct PlaneParts
{
    __m128d nx, ny, ux, uy;
};

/// `a` in the lanes of `mask`, `b` in the others.
[[gnu::always_inline]] inline PlaneParts selectLanes(__m128d mask, const PlaneParts& a, const PlaneParts& b)
{
    const auto pick = [&](__m128d x, __m128d y)
    { return _mm_or_pd(_mm_and_pd(mask, x), _mm_andnot_pd(mask, y)); };
    return PlaneParts{pick(a.nx, b.nx), pick(a.ny, b.ny), pick(a.ux, b.ux), pick(a.uy, b.uy)};
}

/// orcaPlane2 of two pairs at once: the same operations in the same order per
/// lane (the same bits). The overlapping disc, the cut-off and the legs are
/// each computed when a lane takes it, and each lane takes its own. False
/// (nothing written) when an overlapping lane has w = 0: orcaPlane2's
/// fallback directions are left to it.
[[gnu::always_inline]] inline bool orcaPlanePair2(const PlaneLanes& in, Constraint2* out0, Constraint2* out1)
{
    const __m128d zero = _mm_setzero_pd();
    const __m128d px = in.px, py = in.py, vx = in.vx, vy = in.vy, r = in.r, distSq = in.distSq;
    const __m128d rr = _mm_mul_pd(r, r);
    const __m128d overlap = _mm_cmpngt_pd(distSq, rr);
    const int overlapLanes = _mm_movemask_pd(overlap);
    PlaneParts parts{zero, zero, zero, zero};
    if (overlapLanes != 3)
    {
        const __m128d invH = in.invHorizon;
        const __m128d wx = _mm_sub_pd(vx, _mm_mul_pd(px, invH)), wy = _mm_sub_pd(vy, _mm_mul_pd(py, invH));
        const __m128d wp = _mm_add_pd(_mm_mul_pd(wx, px), _mm_mul_pd(wy, py));
        const __m128d wSq = _mm_add_pd(_mm_mul_pd(wx, wx), _mm_mul_pd(wy, wy));
        const __m128d cut =
            _mm_and_pd(_mm_cmplt_pd(wp, zero), _mm_cmpgt_pd(_mm_mul_pd(wp, wp), _mm_mul_pd(rr, wSq)));
        const int cutLanes = _mm_movemask_pd(cut) & ~overlapLanes;
        const int legLanes = 3 & ~(overlapLanes | cutLanes);
        // On the cut-off circle.
        const auto cutOff = [&]() __attribute__((always_inline))
        {
            const __m128d wLen = _mm_sqrt_pd(wSq);
            const __m128d nx = _mm_div_pd(wx, wLen), ny = _mm_div_pd(wy, wLen);
            const __m128d push = _mm_sub_pd(_mm_mul_pd(r, invH), wLen);
            return PlaneParts{nx, ny, _mm_mul_pd(nx, push), _mm_mul_pd(ny, push)};
        };
        // On a leg. Left: dir = ((px·leg − py·r), (px·r + py·leg)) / distSq,
        // n = (−dirY, dirX); right: ((px·leg + py·r), (−px·r + py·leg)) / distSq,
        // n = (dirY, −dirX). a − b is a + (−b) and (−a)·b is −(a·b), exactly:
        // the side only flips signs.
        const auto onLeg = [&]() __attribute__((always_inline))
        {
            const __m128d signBit = _mm_set1_pd(-0.0);
            const __m128d leg = _mm_sqrt_pd(_mm_sub_pd(distSq, rr));
            const __m128d side = _mm_sub_pd(_mm_mul_pd(px, wy), _mm_mul_pd(py, wx));
            const __m128d left = _mm_cmpgt_pd(side, zero);
            const __m128d flipLeft = _mm_and_pd(left, signBit), flipRight = _mm_andnot_pd(left, signBit);
            const __m128d dirX =
                _mm_div_pd(_mm_add_pd(_mm_mul_pd(px, leg), _mm_xor_pd(_mm_mul_pd(py, r), flipLeft)), distSq);
            const __m128d dirY =
                _mm_div_pd(_mm_add_pd(_mm_xor_pd(_mm_mul_pd(px, r), flipRight), _mm_mul_pd(py, leg)), distSq);
            const __m128d along = _mm_add_pd(_mm_mul_pd(vx, dirX), _mm_mul_pd(vy, dirY));
            return PlaneParts{_mm_xor_pd(dirY, flipLeft), _mm_xor_pd(dirX, flipRight),
                              _mm_sub_pd(_mm_mul_pd(dirX, along), vx),
                              _mm_sub_pd(_mm_mul_pd(dirY, along), vy)};
        };
        if (legLanes == 0)
            parts = cutOff();
        else if (cutLanes == 0)
            parts = onLeg();
        else
            parts = selectLanes(cut, cutOff(), onLeg());
    }
    if (overlapLanes != 0)
    {
        // Overlapping: the disc D(p/dt, R/dt).
        const __m128d wx = _mm_sub_pd(vx, _mm_mul_pd(px, in.invDt)),
                      wy = _mm_sub_pd(vy, _mm_mul_pd(py, in.invDt));
        const __m128d wLen = _mm_sqrt_pd(_mm_add_pd(_mm_mul_pd(wx, wx), _mm_mul_pd(wy, wy)));
        if ((_mm_movemask_pd(_mm_cmpgt_pd(wLen, zero)) & overlapLanes) != overlapLanes)
            return false;
        const __m128d nx = _mm_div_pd(wx, wLen), ny = _mm_div_pd(wy, wLen);
        const __m128d push = _mm_sub_pd(_mm_mul_pd(r, in.invDt), wLen);
        const PlaneParts disc{nx, ny, _mm_mul_pd(nx, push), _mm_mul_pd(ny, push)};
        parts = overlapLanes == 3 ? disc : selectLanes(overlap, disc, parts);
    }
    const __m128d pointX = _mm_add_pd(in.velocityX, _mm_mul_pd(parts.ux, in.share));
    const __m128d pointY = _mm_add_pd(in.velocityY, _mm_mul_pd(parts.uy, in.share));
    _mm_storeu_pd(&out0->point.x, _mm_unpacklo_pd(pointX, pointY));
    _mm_storeu_pd(&out0->normal.x, _mm_unpacklo_pd(parts.nx, parts.ny));
    _mm_storeu_pd(&out1->point.x, _mm_unpackhi_pd(pointX, pointY));
    _mm_storeu_pd(&out1->normal.x, _mm_unpackhi_pd(parts.nx, parts.ny));
    return true;
}

/// Table column `column` at entries i0 (lane 0) and i1 (lane 1).
inline __m128d lanesOf(const std::array<double, PairTable<glm::dvec2>::kRoom>& column, std::size_t i0,
                       std::size_t i1)
{
    return _mm_loadh_pd(_mm_load_sd(&column[i0]), &column[i1]);
}
#endif

/// out[j] = one(j) (an orcaPlane2 or orcaPlane3, as `out` is Constraint2 or
/// Constraint3) for j in [0, count): with PlanePath::ByTwo two at a time where
/// SSE2 is there, through orcaPlanePair2 or orcaPlanePair3 with the inputs
/// `lanes(j)` gives for j and j + 1; one(j) for an odd last, for a pair the
/// two-lane function leaves and for every j with PlanePath::OneByOne.
/// (Defined after orcaPlanePair3.)
template <PlanePath path, class Lanes, class One, class C>
[[gnu::always_inline]] inline void planesByTwo(std::size_t count, const Lanes& lanes, const One& one, C* out);

/// The full-horizon planes of the table's pairs [0, count) into out[0, count) (A's velocity
/// `velocityA`, A's key (idA << 32) | indexA `selfKey`), by `path`: the same bits either way.
template <PlanePath path>
[[gnu::always_inline]] inline void softPlanesBy(const PairTable<glm::dvec2>& t, std::size_t count,
                                                glm::dvec2 velocityA, uint64_t selfKey, double invHorizon,
                                                double invDt, Constraint2* out)
{
    // The scalar plane stays out of line (an odd last pair, w = 0): captured
    // by value, its constants need not live on the stack for every agent.
    const auto one = [&t, velocityA, selfKey, invHorizon, invDt](std::size_t j)
    {
        return orcaPlane2({t.position(j), t.velocity(j), t.distSq[j], t.radius[j], selfKey < t.otherKey[j]},
                          velocityA, t.share[j], invHorizon, invDt);
    };
#if defined(__SSE2__)
    const __m128d vax = _mm_set1_pd(velocityA.x), vay = _mm_set1_pd(velocityA.y);
    const __m128d invH = _mm_set1_pd(invHorizon), invD = _mm_set1_pd(invDt);
    const auto lanes = [&t, vax, vay, invH, invD](std::size_t j)
    {
        // Lane by lane (lanesOf), not one 16-byte load: the table was just
        // written 8 bytes at a time, and a load spanning two such stores
        // cannot take their values from the store buffer (it waits for them).
        return PlaneLanes{lanesOf(t.relativePosition[0], j, j + 1),
                          lanesOf(t.relativePosition[1], j, j + 1),
                          lanesOf(t.relativeVelocity[0], j, j + 1),
                          lanesOf(t.relativeVelocity[1], j, j + 1),
                          lanesOf(t.distSq, j, j + 1),
                          lanesOf(t.radius, j, j + 1),
                          lanesOf(t.share, j, j + 1),
                          vax,
                          vay,
                          invH,
                          invD};
    };
#else
    const int lanes = 0;
#endif
    planesByTwo<path>(count, lanes, one, out);
}

/// The one-step guards of the table's entries `which[0, count)` into out[0, count): the plane
/// with v_opt = 0, the combined radius times `guardFactor`, the horizon 1 / `invOneStep`.
template <PlanePath path>
[[gnu::always_inline]] inline void guardPlanesBy(const PairTable<glm::dvec2>& t, const uint8_t* which,
                                                 std::size_t count, uint64_t selfKey, double guardFactor,
                                                 double invOneStep, double invDt, Constraint2* out)
{
    const auto one = [&t, which, selfKey, guardFactor, invOneStep, invDt](std::size_t g)
    {
        const std::size_t e = which[g];
        return orcaPlane2(
            {t.position(e), glm::dvec2(0.0), t.distSq[e], t.radius[e] * guardFactor, selfKey < t.otherKey[e]},
            glm::dvec2(0.0), t.share[e], invOneStep, invDt);
    };
#if defined(__SSE2__)
    const __m128d zero = _mm_setzero_pd(), factor = _mm_set1_pd(guardFactor);
    const __m128d invH = _mm_set1_pd(invOneStep), invD = _mm_set1_pd(invDt);
    const auto lanes = [&t, which, zero, factor, invH, invD](std::size_t g)
    {
        const std::size_t e0 = which[g], e1 = which[g + 1];
        // v_opt = 0: no relative velocity, and A's own velocity counts as 0.
        return PlaneLanes{lanesOf(t.relativePosition[0], e0, e1),
                          lanesOf(t.relativePosition[1], e0, e1),
                          zero,
                          zero,
                          lanesOf(t.distSq, e0, e1),
                          _mm_mul_pd(lanesOf(t.radius, e0, e1), factor),
                          lanesOf(t.share, e0, e1),
                          zero,
                          zero,
                          invH,
                          invD};
    };
#else
    const int lanes = 0;
#endif
    planesByTwo<path>(count, lanes, one, out);
}

#if defined(__SSE2__)
/// The inputs of two 3D pairs' planes, a pair per lane.
struct PlaneLanes3
{
    __m128d px, py, pz, vx, vy, vz, distSq, r, share;
    __m128d velocityX, velocityY, velocityZ, invHorizon;
};

/// A 3D plane's normal and u (orcaPlane3's n and u), a pair per lane.
struct PlaneParts3
{
    __m128d nx, ny, nz, ux, uy, uz;
};

/// orcaPlane3 of two pairs at once when both lie apart and neither is an
/// exact head-on leg (nearly every pair of RVO2-3D's sphere): its operations
/// for the cut-off sphere and for a leg in the same order per lane (the same
/// bits). The cut-off and the leg are each computed when a lane takes it, and
/// each lane takes its own. False (nothing written) when a lane overlaps or
/// takes the sidestep rule (v's part across p about zero): orcaPlane3 builds
/// both then.
[[gnu::always_inline]] inline bool orcaPlanePair3(const PlaneLanes3& in, Constraint3* out0, Constraint3* out1)
{
    const __m128d zero = _mm_setzero_pd();
    const __m128d px = in.px, py = in.py, pz = in.pz, vx = in.vx, vy = in.vy, vz = in.vz;
    const __m128d r = in.r, invH = in.invHorizon, distSq = in.distSq;
    const __m128d rr = _mm_mul_pd(r, r);
    if (_mm_movemask_pd(_mm_cmpgt_pd(distSq, rr)) != 3)
        return false;
    const __m128d wx = _mm_sub_pd(vx, _mm_mul_pd(px, invH));
    const __m128d wy = _mm_sub_pd(vy, _mm_mul_pd(py, invH));
    const __m128d wz = _mm_sub_pd(vz, _mm_mul_pd(pz, invH));
    const __m128d wp = _mm_add_pd(_mm_add_pd(_mm_mul_pd(wx, px), _mm_mul_pd(wy, py)), _mm_mul_pd(wz, pz));
    const __m128d wSq = _mm_add_pd(_mm_add_pd(_mm_mul_pd(wx, wx), _mm_mul_pd(wy, wy)), _mm_mul_pd(wz, wz));
    const __m128d cut =
        _mm_and_pd(_mm_cmplt_pd(wp, zero), _mm_cmpgt_pd(_mm_mul_pd(wp, wp), _mm_mul_pd(rr, wSq)));
    const int cutLanes = _mm_movemask_pd(cut);
    // On the cut-off sphere.
    const auto cutOff = [&]() __attribute__((always_inline))
    {
        const __m128d wLen = _mm_sqrt_pd(wSq);
        const __m128d nx = _mm_div_pd(wx, wLen), ny = _mm_div_pd(wy, wLen), nz = _mm_div_pd(wz, wLen);
        const __m128d push = _mm_sub_pd(_mm_mul_pd(r, invH), wLen);
        return PlaneParts3{nx, ny, nz, _mm_mul_pd(nx, push), _mm_mul_pd(ny, push), _mm_mul_pd(nz, push)};
    };
    PlaneParts3 parts{};
    if (cutLanes == 3)
        parts = cutOff();
    else
    {
        // On the cone: the leg in the plane of p and v's part across p
        // (orcaPlane3's, for the lanes where that part is not about zero).
        const __m128d dist = _mm_sqrt_pd(distSq);
        const __m128d ax = _mm_div_pd(px, dist), ay = _mm_div_pd(py, dist), az = _mm_div_pd(pz, dist);
        const __m128d sinA = _mm_div_pd(r, dist);
        const __m128d cosA = _mm_div_pd(_mm_sqrt_pd(_mm_sub_pd(distSq, rr)), dist);
        const __m128d va = _mm_add_pd(_mm_add_pd(_mm_mul_pd(vx, ax), _mm_mul_pd(vy, ay)), _mm_mul_pd(vz, az));
        const __m128d cx = _mm_sub_pd(vx, _mm_mul_pd(ax, va));
        const __m128d cy = _mm_sub_pd(vy, _mm_mul_pd(ay, va));
        const __m128d cz = _mm_sub_pd(vz, _mm_mul_pd(az, va));
        const __m128d acrossSq =
            _mm_add_pd(_mm_add_pd(_mm_mul_pd(cx, cx), _mm_mul_pd(cy, cy)), _mm_mul_pd(cz, cz));
        const __m128d vSq =
            _mm_add_pd(_mm_add_pd(_mm_mul_pd(vx, vx), _mm_mul_pd(vy, vy)), _mm_mul_pd(vz, vz));
        const __m128d across =
            _mm_cmpgt_pd(acrossSq, _mm_mul_pd(_mm_set1_pd(1.0e-24), _mm_add_pd(vSq, _mm_set1_pd(1.0e-300))));
        if ((_mm_movemask_pd(across) | cutLanes) != 3)
            return false; // a leg lane takes the sidestep rule
        const __m128d acrossLen = _mm_sqrt_pd(acrossSq);
        const __m128d sx = _mm_div_pd(cx, acrossLen), sy = _mm_div_pd(cy, acrossLen),
                      sz = _mm_div_pd(cz, acrossLen);
        const __m128d lx = _mm_add_pd(_mm_mul_pd(ax, cosA), _mm_mul_pd(sx, sinA));
        const __m128d ly = _mm_add_pd(_mm_mul_pd(ay, cosA), _mm_mul_pd(sy, sinA));
        const __m128d lz = _mm_add_pd(_mm_mul_pd(az, cosA), _mm_mul_pd(sz, sinA));
        const __m128d along =
            _mm_add_pd(_mm_add_pd(_mm_mul_pd(vx, lx), _mm_mul_pd(vy, ly)), _mm_mul_pd(vz, lz));
        parts = PlaneParts3{_mm_sub_pd(_mm_mul_pd(sx, cosA), _mm_mul_pd(ax, sinA)),
                            _mm_sub_pd(_mm_mul_pd(sy, cosA), _mm_mul_pd(ay, sinA)),
                            _mm_sub_pd(_mm_mul_pd(sz, cosA), _mm_mul_pd(az, sinA)),
                            _mm_sub_pd(_mm_mul_pd(lx, along), vx),
                            _mm_sub_pd(_mm_mul_pd(ly, along), vy),
                            _mm_sub_pd(_mm_mul_pd(lz, along), vz)};
        if (cutLanes != 0)
        {
            // One lane of each: the cut-off in its lane, the leg in the other.
            const PlaneParts3 onCut = cutOff();
            const auto pick = [&](__m128d x, __m128d y) __attribute__((always_inline))
            {
                return _mm_or_pd(_mm_and_pd(cut, x), _mm_andnot_pd(cut, y));
            };
            parts = PlaneParts3{pick(onCut.nx, parts.nx), pick(onCut.ny, parts.ny), pick(onCut.nz, parts.nz),
                                pick(onCut.ux, parts.ux), pick(onCut.uy, parts.uy), pick(onCut.uz, parts.uz)};
        }
    }
    const __m128d pointX = _mm_add_pd(in.velocityX, _mm_mul_pd(parts.ux, in.share));
    const __m128d pointY = _mm_add_pd(in.velocityY, _mm_mul_pd(parts.uy, in.share));
    const __m128d pointZ = _mm_add_pd(in.velocityZ, _mm_mul_pd(parts.uz, in.share));
    // A constraint is six doubles in a row (point x y z, normal x y z),
    // stored two at a time.
    static_assert(sizeof(Constraint3) == 6 * sizeof(double) &&
                  offsetof(Constraint3, normal) == 3 * sizeof(double));
    double* const to0 = reinterpret_cast<double*>(out0);
    double* const to1 = reinterpret_cast<double*>(out1);
    _mm_storeu_pd(to0, _mm_unpacklo_pd(pointX, pointY));
    _mm_storeu_pd(to0 + 2, _mm_unpacklo_pd(pointZ, parts.nx));
    _mm_storeu_pd(to0 + 4, _mm_unpacklo_pd(parts.ny, parts.nz));
    _mm_storeu_pd(to1, _mm_unpackhi_pd(pointX, pointY));
    _mm_storeu_pd(to1 + 2, _mm_unpackhi_pd(pointZ, parts.nx));
    _mm_storeu_pd(to1 + 4, _mm_unpackhi_pd(parts.ny, parts.nz));
    return true;
}
#endif

template <PlanePath path, class Lanes, class One, class C>
[[gnu::always_inline]] inline void planesByTwo(std::size_t count, [[maybe_unused]] const Lanes& lanes,
                                               const One& one, C* out)
{
    std::size_t j = 0;
#if defined(__SSE2__)
    if constexpr (path == PlanePath::ByTwo)
        for (; j + 2 <= count; j += 2)
        {
            bool both = false;
            if constexpr (std::is_same_v<C, Constraint2>)
                both = orcaPlanePair2(lanes(j), out + j, out + j + 1);
            else
                both = orcaPlanePair3(lanes(j), out + j, out + j + 1);
            if (!both)
            {
                out[j] = one(j);
                out[j + 1] = one(j + 1);
            }
        }
#endif
    for (; j < count; ++j)
        out[j] = one(j);
}

/// softPlanesBy in space: ByTwo builds two pairs at once where both lie apart and neither is an
/// exact head-on leg.
template <PlanePath path>
[[gnu::always_inline]] inline void softPlanes3By(const PairTable<glm::dvec3>& t, std::size_t count,
                                                 glm::dvec3 velocityA, uint64_t selfKey, double invHorizon,
                                                 double invDt, Constraint3* out)
{
    const auto one = [&](std::size_t j) __attribute__((always_inline))
    {
        return orcaPlane3({t.position(j), t.velocity(j), t.distSq[j], t.radius[j], selfKey < t.otherKey[j]},
                          velocityA, t.share[j], invHorizon, invDt);
    };
#if defined(__SSE2__)
    const __m128d vax = _mm_set1_pd(velocityA.x), vay = _mm_set1_pd(velocityA.y),
                  vaz = _mm_set1_pd(velocityA.z);
    const __m128d invH = _mm_set1_pd(invHorizon);
    const auto lanes = [&](std::size_t j) __attribute__((always_inline))
    {
        return PlaneLanes3{lanesOf(t.relativePosition[0], j, j + 1),
                           lanesOf(t.relativePosition[1], j, j + 1),
                           lanesOf(t.relativePosition[2], j, j + 1),
                           lanesOf(t.relativeVelocity[0], j, j + 1),
                           lanesOf(t.relativeVelocity[1], j, j + 1),
                           lanesOf(t.relativeVelocity[2], j, j + 1),
                           lanesOf(t.distSq, j, j + 1),
                           lanesOf(t.radius, j, j + 1),
                           lanesOf(t.share, j, j + 1),
                           vax,
                           vay,
                           vaz,
                           invH};
    };
#else
    const int lanes = 0;
#endif
    planesByTwo<path>(count, lanes, one, out);
}

/// guardPlanesBy in space.
template <PlanePath path>
[[gnu::always_inline]] inline void guardPlanes3By(const PairTable<glm::dvec3>& t, const uint8_t* which,
                                                  std::size_t count, uint64_t selfKey, double guardFactor,
                                                  double invOneStep, double invDt, Constraint3* out)
{
    const auto one = [&](std::size_t g) __attribute__((always_inline))
    {
        const std::size_t e = which[g];
        return orcaPlane3(
            {t.position(e), glm::dvec3(0.0), t.distSq[e], t.radius[e] * guardFactor, selfKey < t.otherKey[e]},
            glm::dvec3(0.0), t.share[e], invOneStep, invDt);
    };
#if defined(__SSE2__)
    const __m128d zero = _mm_setzero_pd(), factor = _mm_set1_pd(guardFactor), invH = _mm_set1_pd(invOneStep);
    const auto lanes = [&](std::size_t g) __attribute__((always_inline))
    {
        const std::size_t e0 = which[g], e1 = which[g + 1];
        // v_opt = 0: no relative velocity, and A's own velocity counts as 0.
        return PlaneLanes3{lanesOf(t.relativePosition[0], e0, e1),
                           lanesOf(t.relativePosition[1], e0, e1),
                           lanesOf(t.relativePosition[2], e0, e1),
                           zero,
                           zero,
                           zero,
                           lanesOf(t.distSq, e0, e1),
                           _mm_mul_pd(lanesOf(t.radius, e0, e1), factor),
                           lanesOf(t.share, e0, e1),
                           zero,
                           zero,
                           zero,
                           invH};
    };
#else
    const int lanes = 0;
#endif
    planesByTwo<path>(count, lanes, one, out);
}

/// The planes of a uniform crowd's pairs with agent `a` straight from the
/// agents and the neighbour list, without the pair table: the full-horizon
/// planes (kGuard false, `radius` = the pair radius, `invH` = 1 / the
/// horizon) or the guards (kGuard true, `radius` = the pair radius times the
/// guard factor, `invH` = 1 / the one-step horizon) of neighbours [0, count),
/// each pair with the share 0.5. The inputs are the table's values computed
/// by the same operations (b − a per lane is glm's per-component b − a), so
/// the planes are softPlanesBy's and guardPlanesBy's, bit for bit.
template <bool kGuard>
[[gnu::always_inline]] inline void uniformPlanes2(std::span<const AvoidanceAgent> agents,
                                                  const AvoidanceAgent& a, const Neighbor* neighbors,
                                                  std::size_t count, uint64_t selfKey, double radius,
                                                  double invH, double invDt, Constraint2* out)
{
    const auto one = [&](std::size_t j) __attribute__((always_inline))
    {
        const Neighbor& n = neighbors[j];
        const AvoidanceAgent& b = agents[n.index];
        const uint64_t otherKey = (uint64_t{b.id} << 32) | n.index;
        return orcaPlane2({b.position - a.position, kGuard ? glm::dvec2(0.0) : a.velocity - b.velocity,
                           n.distanceSquared, radius, selfKey < otherKey},
                          kGuard ? glm::dvec2(0.0) : a.velocity, 0.5, invH, invDt);
    };
#if defined(__SSE2__)
    const __m128d zero = _mm_setzero_pd();
    const __m128d positionA = _mm_loadu_pd(&a.position.x), velocityA = _mm_loadu_pd(&a.velocity.x);
    const __m128d vax = kGuard ? zero : _mm_set1_pd(a.velocity.x),
                  vay = kGuard ? zero : _mm_set1_pd(a.velocity.y);
    const __m128d r = _mm_set1_pd(radius), share = _mm_set1_pd(0.5);
    const __m128d invHorizon = _mm_set1_pd(invH), invStep = _mm_set1_pd(invDt);
    const auto lanes = [&](std::size_t j) __attribute__((always_inline))
    {
        const Neighbor& n0 = neighbors[j];
        const Neighbor& n1 = neighbors[j + 1];
        const AvoidanceAgent& b0 = agents[n0.index];
        const AvoidanceAgent& b1 = agents[n1.index];
        // (x, y) of each pair, then x and y of the two.
        const __m128d p0 = _mm_sub_pd(_mm_loadu_pd(&b0.position.x), positionA);
        const __m128d p1 = _mm_sub_pd(_mm_loadu_pd(&b1.position.x), positionA);
        __m128d vx = zero, vy = zero;
        if constexpr (!kGuard)
        {
            const __m128d v0 = _mm_sub_pd(velocityA, _mm_loadu_pd(&b0.velocity.x));
            const __m128d v1 = _mm_sub_pd(velocityA, _mm_loadu_pd(&b1.velocity.x));
            vx = _mm_unpacklo_pd(v0, v1);
            vy = _mm_unpackhi_pd(v0, v1);
        }
        return PlaneLanes{_mm_unpacklo_pd(p0, p1),
                          _mm_unpackhi_pd(p0, p1),
                          vx,
                          vy,
                          _mm_loadh_pd(_mm_load_sd(&n0.distanceSquared), &n1.distanceSquared),
                          r,
                          share,
                          vax,
                          vay,
                          invHorizon,
                          invStep};
    };
#else
    const int lanes = 0;
#endif
    planesByTwo<PlanePath::ByTwo>(count, lanes, one, out);
}

/// uniformPlanes2 in space: the planes of a uniform crowd's pairs straight
/// from the agents (softPlanes3By's and guardPlanes3By's, bit for bit).
template <bool kGuard>
[[gnu::always_inline]] inline void uniformPlanes3(std::span<const AvoidanceAgent3D> agents,
                                                  const AvoidanceAgent3D& a, const Neighbor* neighbors,
                                                  std::size_t count, uint64_t selfKey, double radius,
                                                  double invH, double invDt, Constraint3* out)
{
    const auto one = [&](std::size_t j) __attribute__((always_inline))
    {
        const Neighbor& n = neighbors[j];
        const AvoidanceAgent3D& b = agents[n.index];
        const uint64_t otherKey = (uint64_t{b.id} << 32) | n.index;
        return orcaPlane3({b.position - a.position, kGuard ? glm::dvec3(0.0) : a.velocity - b.velocity,
                           n.distanceSquared, radius, selfKey < otherKey},
                          kGuard ? glm::dvec3(0.0) : a.velocity, 0.5, invH, invDt);
    };
#if defined(__SSE2__)
    const __m128d zero = _mm_setzero_pd();
    const __m128d positionA = _mm_loadu_pd(&a.position.x), velocityA = _mm_loadu_pd(&a.velocity.x);
    const __m128d positionAZ = _mm_set1_pd(a.position.z), velocityAZ = _mm_set1_pd(a.velocity.z);
    const __m128d vax = kGuard ? zero : _mm_set1_pd(a.velocity.x),
                  vay = kGuard ? zero : _mm_set1_pd(a.velocity.y);
    const __m128d vaz = kGuard ? zero : velocityAZ;
    const __m128d r = _mm_set1_pd(radius), share = _mm_set1_pd(0.5), invHorizon = _mm_set1_pd(invH);
    const auto lanes = [&](std::size_t j) __attribute__((always_inline))
    {
        const Neighbor& n0 = neighbors[j];
        const Neighbor& n1 = neighbors[j + 1];
        const AvoidanceAgent3D& b0 = agents[n0.index];
        const AvoidanceAgent3D& b1 = agents[n1.index];
        // (x, y) of each pair, then x and y of the two; z of the two at once.
        const __m128d p0 = _mm_sub_pd(_mm_loadu_pd(&b0.position.x), positionA);
        const __m128d p1 = _mm_sub_pd(_mm_loadu_pd(&b1.position.x), positionA);
        const __m128d pz = _mm_sub_pd(_mm_loadh_pd(_mm_load_sd(&b0.position.z), &b1.position.z), positionAZ);
        __m128d vx = zero, vy = zero, vz = zero;
        if constexpr (!kGuard)
        {
            const __m128d v0 = _mm_sub_pd(velocityA, _mm_loadu_pd(&b0.velocity.x));
            const __m128d v1 = _mm_sub_pd(velocityA, _mm_loadu_pd(&b1.velocity.x));
            vx = _mm_unpacklo_pd(v0, v1);
            vy = _mm_unpackhi_pd(v0, v1);
            vz = _mm_sub_pd(velocityAZ, _mm_loadh_pd(_mm_load_sd(&b0.velocity.z), &b1.velocity.z));
        }
        return PlaneLanes3{_mm_unpacklo_pd(p0, p1),
                           _mm_unpackhi_pd(p0, p1),
                           pz,
                           vx,
                           vy,
                           vz,
                           _mm_loadh_pd(_mm_load_sd(&n0.distanceSquared), &n1.distanceSquared),
                           r,
                           share,
                           vax,
                           vay,
                           vaz,
                           invHorizon};
    };
#else
    const int lanes = 0;
#endif
    planesByTwo<PlanePath::ByTwo>(count, lanes, one, out);
}

/// Gathers agent `a`'s neighbours that it does not ignore into `table` (its
/// count and guards too) and the entries whose guard may bind (all with
/// `everyGuard`) into `guarded`. kUniform: every agent has one radius and one
/// priority and ignores none (settings.uniformPairRadius > 0), so each pair's
/// share is avoidanceShare's 0.5 and its combined radius a.radius + b.radius
/// is uniformPairRadius: the same values, with no per-pair share, radius or
/// guard reach to work out.
template <bool kUniform, class Agent, class V>
[[gnu::always_inline]] inline void
gatherPairs(std::span<const Agent> agents, const Agent& a, const Neighbor* neighbors, std::size_t count,
            const PairSettings& settings, bool everyGuard, PairTable<V>& table, uint8_t* guarded)
{
    constexpr double kEveryGuard =
        std::numeric_limits<double>::infinity(); // a reach every distance is within
    double reachShare = 0.0, stepReach = 0.0;    // guardReachSq's stepReach for the share reachShare
    double uniformReachSq = 0.0;
    if constexpr (kUniform)
    {
        // Every pair's combined radius and share, in every entry (once while
        // the crowd stays uniform).
        if (table.uniformRadius != settings.uniformPairRadius)
        {
            table.radius.fill(settings.uniformPairRadius);
            table.share.fill(0.5);
            table.uniformRadius = settings.uniformPairRadius;
        }
        reachShare = 0.5;
        stepReach = a.maxSpeed * settings.oneStepHorizon / reachShare;
        uniformReachSq = everyGuard
                             ? kEveryGuard
                             : guardReachSq(settings.uniformPairRadius * settings.guardFactor, stepReach);
    }
    if constexpr (!kUniform)
        table.uniformRadius = 0.0; // the entries below get their own
    std::size_t keptCount = 0, guardCount = 0;
    for (std::size_t k = 0; k < count; ++k)
    {
        const Neighbor& nb = neighbors[k];
        const Agent& b = agents[nb.index];
        double share = reachShare, radius = settings.uniformPairRadius;
        if constexpr (!kUniform)
        {
            share = avoidanceShare(a.priority, a.layers, a.ignores, b.priority, b.layers, b.ignores);
            if (share == 0.0)
                continue;
            radius = a.radius + b.radius;
        }
        const std::size_t e = keptCount++;
        const V relativePosition = b.position - a.position;
        const V relativeVelocity = a.velocity - b.velocity;
        for (int d = 0; d < V::length(); ++d)
        {
            table.relativePosition[static_cast<std::size_t>(d)][e] = relativePosition[d];
            table.relativeVelocity[static_cast<std::size_t>(d)][e] = relativeVelocity[d];
        }
        table.distSq[e] = nb.distanceSquared;
        if constexpr (!kUniform)
        {
            table.radius[e] = radius;
            table.share[e] = share;
        }
        table.otherKey[e] = (uint64_t{b.id} << 32) | nb.index;
        double reachSq = uniformReachSq;
        if constexpr (!kUniform)
        {
            if (share != reachShare)
            {
                // Neighbours mostly share one share (equal priorities): one division per agent.
                reachShare = share;
                stepReach = a.maxSpeed * settings.oneStepHorizon / share;
            }
            reachSq = everyGuard ? kEveryGuard : guardReachSq(radius * settings.guardFactor, stepReach);
        }
        const bool guard = !(nb.distanceSquared > reachSq);
        guarded[guardCount] = static_cast<uint8_t>(e);
        guardCount += guard ? 1 : 0;
    }
    table.count = keptCount;
    table.guards = guardCount;
}

/// pairConstraints, inlined into its one caller per dimension and into the
/// avoidance's first build of each agent on the plane (no call and argument
/// shuffle per agent).
template <class Agent, class V>
[[gnu::always_inline]] inline PairCounts pairConstraintsOf(std::span<const Agent> agents, std::size_t self,
                                                           const Neighbor* neighbors, std::size_t count,
                                                           const PairSettings& settings, Constraint<V>* out,
                                                           PairBuild build, PairTable<V>& table)
{
    const Agent& a = agents[self];
    const double invDt = settings.invDt;
    const double invHorizon = settings.invHorizon;
    const double invOneStep = settings.invOneStep;
    // The (id, index) key of agent A: exact ties break by key order.
    const uint64_t selfKey = (uint64_t{a.id} << 32) | static_cast<uint32_t>(self);
    {
        // A uniform crowd: the planes straight from the agents when the
        // guards lead the neighbour list (the neighbour search sorts it by
        // distance, and every pair has one guard reach). Else, or with an
        // unsorted list, the table below.
        if (settings.uniformPairRadius > 0.0)
        {
            std::size_t guards = count; // EveryGuard
            bool leading = true;
            if (build == PairBuild::SoftOnly)
                guards = table.guards;
            else if (build == PairBuild::All)
            {
                const double reachSq = guardReachSq(settings.uniformPairRadius * settings.guardFactor,
                                                    a.maxSpeed * settings.oneStepHorizon / 0.5);
                guards = 0;
                while (guards < count && !(neighbors[guards].distanceSquared > reachSq))
                    ++guards;
                if (!settings.neighborsByDistance)
                {
                    // Counted without a branch per neighbour: a later guard is rare.
                    std::size_t late = 0;
                    for (std::size_t k = guards; k < count; ++k)
                        late += neighbors[k].distanceSquared > reachSq ? 0 : 1;
                    leading = late == 0;
                }
            }
            if (leading)
            {
                if (build != PairBuild::SoftOnly)
                {
                    table.count = count;
                    table.guards = guards;
                    if (guards > 0)
                    {
                        const double guardRadius = settings.uniformPairRadius * settings.guardFactor;
                        if constexpr (std::is_same_v<V, glm::dvec2>)
                            uniformPlanes2<true>(agents, a, neighbors, guards, selfKey, guardRadius,
                                                 invOneStep, invDt, out);
                        else
                            uniformPlanes3<true>(agents, a, neighbors, guards, selfKey, guardRadius,
                                                 invOneStep, invDt, out);
                    }
                }
                if constexpr (std::is_same_v<V, glm::dvec2>)
                    uniformPlanes2<false>(agents, a, neighbors, count, selfKey, settings.uniformPairRadius,
                                          invHorizon, invDt, out + guards);
                else
                    uniformPlanes3<false>(agents, a, neighbors, count, selfKey, settings.uniformPairRadius,
                                          invHorizon, invDt, out + guards);
                return PairCounts{guards, count};
            }
        }
    }
    if (build != PairBuild::SoftOnly)
    {
        // The neighbours kept, with what their planes need, and which have a guard.
        assert(count <= PairTable<V>::kRoom);
        std::array<uint8_t, PairTable<V>::kRoom> guarded;
        const bool everyGuard = build == PairBuild::EveryGuard;
        if (settings.uniformPairRadius > 0.0)
            gatherPairs<true>(agents, a, neighbors, count, settings, everyGuard, table, guarded.data());
        else
            gatherPairs<false>(agents, a, neighbors, count, settings, everyGuard, table, guarded.data());
        // The guards lead the output, in the neighbours' order (most agents
        // in a crowd that is not jammed have none).
        if constexpr (std::is_same_v<V, glm::dvec2>)
        {
            if (table.guards > 0)
                guardPlanesBy<PlanePath::ByTwo>(table, guarded.data(), table.guards, selfKey,
                                                settings.guardFactor, invOneStep, invDt, out);
        }
        else
        {
            // A loop of its own (the plane inlined here and below): no
            // per-pair choice between a guard's inputs and a full-horizon one's.
            guardPlanes3By<PlanePath::ByTwo>(table, guarded.data(), table.guards, selfKey,
                                             settings.guardFactor, invOneStep, invDt, out);
        }
    }
    const std::size_t keptCount = table.count;
    Constraint<V>* soft = out + table.guards;
    if constexpr (std::is_same_v<V, glm::dvec2>)
    {
        // The full-horizon constraints, after the guards.
        softPlanesBy<PlanePath::ByTwo>(table, keptCount, a.velocity, selfKey, invHorizon, invDt, soft);
    }
    else
    {
        softPlanes3By<PlanePath::ByTwo>(table, keptCount, a.velocity, selfKey, invHorizon, invDt, soft);
    }
    return PairCounts{table.guards, keptCount};
}

} // namespace spark::nav::detail::planes
