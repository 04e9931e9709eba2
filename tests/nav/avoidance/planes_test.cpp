// The ORCA planes built two pairs at a time (orca_planes.h's SSE2 pair paths,
// PlanePath::ByTwo) against the scalar plane of each pair (PlanePath::OneByOne),
// bit for bit, lane by lane, on random pair tables that mix every case of the
// plane: the legs (both sides and the exact head-on side = 0), the cut-off
// circle, the overlapping disc, and the overlapping w = 0 pairs the SSE2 path
// hands back to the scalar one (also beside a lane it keeps). Also the
// gather of a uniform crowd's pairs against the general gather.
#include "orca_planes.h"

#include "spark/core/rng.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

using namespace spark;
using namespace spark::nav::detail;

namespace
{

/// The kinds of pair the tables mix (what the scalar plane does with each).
enum PlanesTestKind : int
{
    kPlanesFar,       ///< Apart, a random relative velocity: a leg or the cut-off.
    kPlanesCutOff,    ///< Apart, relative velocity near p/τ: the cut-off circle.
    kPlanesHeadOn,    ///< Apart along x, velocity along x: the leg with side exactly 0.
    kPlanesOverlap,   ///< Overlapping, w != 0: the disc.
    kPlanesOverlapW0, ///< Overlapping with v = p/dt exactly: w = 0, p's direction.
    kPlanesOnTop,     ///< p = 0, v = 0: w = 0 and no direction, the tie axis.
    kPlanesKinds
};

constexpr double kPlanesInvHorizon = 1.0 / 5.0;
constexpr double kPlanesInvDt = 1.0 / 0.3; // not a power of two: p / dt rounds
constexpr double kPlanesGuardFactor = 0.95;
constexpr double kPlanesInvOneStep = 1.0 / 0.3;

/// Writes a random pair of kind `kind` into entry e of `t`.
void planesTestPair(Rng& rng, int kind, std::size_t e, PairTable<glm::dvec2>& t)
{
    const double r = rngNextRange(rng, 0.5, 3.0);
    glm::dvec2 p{}, v{};
    switch (kind)
    {
    case kPlanesFar:
    case kPlanesCutOff:
        // The cut-off wants w = v − p/τ pointing back at 0 well within the
        // circle's arc: |p| > 1.5 R and w = −p·s.
        do
            p = {rngNextRange(rng, -20.0, 20.0), rngNextRange(rng, -20.0, 20.0)};
        while (!(glm::dot(p, p) > (kind == kPlanesFar ? r * r : 2.25 * r * r)));
        if (kind == kPlanesFar)
            v = {rngNextRange(rng, -4.0, 4.0), rngNextRange(rng, -4.0, 4.0)};
        else
            v = p * kPlanesInvHorizon - p * (rngNextRange(rng, 0.01, 0.9) * kPlanesInvHorizon);
        break;
    case kPlanesHeadOn:
        // w = p/τ·s, s >= 0: a leg (w·p >= 0), and side = px·wy − py·wx = 0.
        p = {rngNextRange(rng, r + 0.1, 20.0) * (rngNextBelow(rng, 2) == 0 ? 1.0 : -1.0), 0.0};
        v = {p.x * kPlanesInvHorizon * (1.0 + rngNextDouble(rng)), 0.0};
        break;
    case kPlanesOverlap:
    case kPlanesOverlapW0:
        do
            p = {rngNextRange(rng, -r, r), rngNextRange(rng, -r, r)};
        while (!(glm::dot(p, p) <= r * r) || glm::dot(p, p) == 0.0);
        v = kind == kPlanesOverlap ? glm::dvec2(rngNextRange(rng, -4.0, 4.0), rngNextRange(rng, -4.0, 4.0))
                                   : glm::dvec2(p.x * kPlanesInvDt, p.y * kPlanesInvDt);
        break;
    default:
        break; // on top: p = v = 0
    }
    t.relativePosition[0][e] = p.x;
    t.relativePosition[1][e] = p.y;
    t.relativeVelocity[0][e] = v.x;
    t.relativeVelocity[1][e] = v.y;
    t.distSq[e] = p.x * p.x + p.y * p.y;
    t.radius[e] = r;
    const uint32_t shareKind = rngNextBelow(rng, 3);
    t.share[e] = shareKind == 0 ? 0.5 : (shareKind == 1 ? 1.0 : rngNextRange(rng, 0.01, 1.0));
    t.otherKey[e] = (uint64_t{rngNextU32(rng)} << 32) | rngNextBelow(rng, 1000);
}

/// Both paths' planes, entry by entry, to the bit; returns the entries that differ.
int planesTestDiffer(const std::vector<Constraint2>& a, const std::vector<Constraint2>& b, std::size_t count)
{
    int differ = 0;
    for (std::size_t j = 0; j < count; ++j)
        differ += std::memcmp(&a[j], &b[j], sizeof(Constraint2)) != 0 ? 1 : 0;
    return differ;
}

} // namespace

TEST_CASE("planes two at a time equal the scalar plane to the bit, lane by lane")
{
    Rng rng = rngFromSeed(2026);
    PairTable<glm::dvec2> table;
    std::array<int, kPlanesKinds> seen{};
    int mixedPairs = 0; // lanes of one SSE2 pair taking different cases
    int softDiffer = 0, guardDiffer = 0;
    std::size_t planes = 0;
    std::vector<Constraint2> byTwo(PairTable<glm::dvec2>::kRoom), oneByOne(PairTable<glm::dvec2>::kRoom);
    for (int trial = 0; trial < 3000; ++trial)
    {
        const std::size_t count = 1 + rngNextBelow(rng, PairTable<glm::dvec2>::kRoom);
        // Mostly one kind per table (whole SSE2 pairs of it), else any mix.
        const bool mixed = rngNextBelow(rng, 2) == 0;
        const int tableKind = static_cast<int>(rngNextBelow(rng, kPlanesKinds));
        std::array<int, PairTable<glm::dvec2>::kRoom> kinds{};
        for (std::size_t e = 0; e < count; ++e)
        {
            kinds[e] = mixed ? static_cast<int>(rngNextBelow(rng, kPlanesKinds)) : tableKind;
            planesTestPair(rng, kinds[e], e, table);
            ++seen[static_cast<std::size_t>(kinds[e])];
        }
        table.count = count;
        const glm::dvec2 velocityA{rngNextRange(rng, -2.0, 2.0), rngNextRange(rng, -2.0, 2.0)};
        const uint64_t selfKey = (uint64_t{rngNextU32(rng)} << 32) | rngNextBelow(rng, 1000);

        const auto poison = [&]
        {
            // Any entry a path leaves unwritten differs.
            for (std::size_t j = 0; j < byTwo.size(); ++j)
            {
                byTwo[j] = Constraint2{glm::dvec2(1.0e300), glm::dvec2(1.0e300)};
                oneByOne[j] = Constraint2{glm::dvec2(-1.0e300), glm::dvec2(-1.0e300)};
            }
        };
        poison();
        planes::softPlanesBy<PlanePath::ByTwo>(table, count, velocityA, selfKey, kPlanesInvHorizon,
                                               kPlanesInvDt, byTwo.data());
        planes::softPlanesBy<PlanePath::OneByOne>(table, count, velocityA, selfKey, kPlanesInvHorizon,
                                                  kPlanesInvDt, oneByOne.data());
        softDiffer += planesTestDiffer(byTwo, oneByOne, count);
        for (std::size_t j = 0; j + 1 < count; j += 2)
            mixedPairs += kinds[j] != kinds[j + 1] ? 1 : 0;

        // The guards of a random subset, in entry order.
        std::array<uint8_t, PairTable<glm::dvec2>::kRoom> which{};
        std::size_t guards = 0;
        for (std::size_t e = 0; e < count; ++e)
            if (rngNextBelow(rng, 4) != 0)
                which[guards++] = static_cast<uint8_t>(e);
        poison();
        planes::guardPlanesBy<PlanePath::ByTwo>(table, which.data(), guards, selfKey, kPlanesGuardFactor,
                                                kPlanesInvOneStep, kPlanesInvDt, byTwo.data());
        planes::guardPlanesBy<PlanePath::OneByOne>(table, which.data(), guards, selfKey, kPlanesGuardFactor,
                                                   kPlanesInvOneStep, kPlanesInvDt, oneByOne.data());
        guardDiffer += planesTestDiffer(byTwo, oneByOne, guards);
        planes += count + guards;
    }
    CHECK(softDiffer == 0);
    CHECK(guardDiffer == 0);
    CHECK(planes > 100000);
    CHECK(mixedPairs > 10000);
    for (const int n : seen)
        CHECK(n > 10000);
}

TEST_CASE("the plane cases the random tables take: the legs, the cut-off, the disc, w = 0")
{
    // The kinds above do reach the scalar plane's cases (else the comparison
    // would leave some untested): checked on one pair of each, by the planes.
    Rng rng = rngFromSeed(5);
    PairTable<glm::dvec2> table;
    std::vector<Constraint2> out(1);
    const auto planeOf = [&](int kind)
    {
        planesTestPair(rng, kind, 0, table);
        table.share[0] = 1.0;
        planes::softPlanesBy<PlanePath::OneByOne>(table, 1, glm::dvec2(0.0), 0, kPlanesInvHorizon,
                                                  kPlanesInvDt, out.data());
        return out[0];
    };
    for (int trial = 0; trial < 200; ++trial)
    {
        // w = 0 overlapping: the normal points from B back to A (−p / |p|).
        const Constraint2 w0 = planeOf(kPlanesOverlapW0);
        const glm::dvec2 p{table.relativePosition[0][0], table.relativePosition[1][0]};
        CHECK(glm::dot(w0.normal, p) < 0.0);
        CHECK(std::abs(glm::dot(w0.normal, w0.normal) - 1.0) < 1.0e-12);
        // On top: the tie axis, ±x.
        const Constraint2 top = planeOf(kPlanesOnTop);
        CHECK(std::abs(top.normal.x) == 1.0);
        CHECK(top.normal.y == 0.0);
        // Cut-off: the normal is w / |w| with w = v − p/τ.
        const Constraint2 cut = planeOf(kPlanesCutOff);
        const glm::dvec2 w{table.relativeVelocity[0][0] - table.relativePosition[0][0] * kPlanesInvHorizon,
                           table.relativeVelocity[1][0] - table.relativePosition[1][0] * kPlanesInvHorizon};
        CHECK(std::abs(glm::dot(cut.normal, w) - std::sqrt(glm::dot(w, w))) < 1.0e-9);
        // Head on along x: the right leg, whose normal points to −y for p along +x.
        const Constraint2 head = planeOf(kPlanesHeadOn);
        CHECK((head.normal.y < 0.0) == (table.relativePosition[0][0] > 0.0));
    }
}

namespace
{

/// Writes a random 3D pair of kind `kind` (the 2D kinds; far: half the time
/// closing fast, a leg; head on: p and v along one axis, the sidestep rule)
/// into entry e of `t`.
void planesTestPair3(Rng& rng, int kind, std::size_t e, PairTable<glm::dvec3>& t)
{
    const double r = rngNextRange(rng, 0.5, 3.0);
    glm::dvec3 p{}, v{};
    const auto randomVec = [&](double limit)
    {
        return glm::dvec3(rngNextRange(rng, -limit, limit), rngNextRange(rng, -limit, limit),
                          rngNextRange(rng, -limit, limit));
    };
    switch (kind)
    {
    case kPlanesFar:
    case kPlanesCutOff:
        do
            p = randomVec(20.0);
        while (!(glm::dot(p, p) > (kind == kPlanesFar ? r * r : 2.25 * r * r)));
        if (kind == kPlanesFar)
            // Any velocity, or half the time closing faster than p/τ, off
            // the axis: a leg (w leads away from the cut-off sphere).
            v = rngNextBelow(rng, 2) == 0
                    ? randomVec(4.0)
                    : p * (kPlanesInvHorizon * rngNextRange(rng, 1.2, 3.0)) + randomVec(1.0);
        else
            v = p * kPlanesInvHorizon - p * (rngNextRange(rng, 0.01, 0.9) * kPlanesInvHorizon);
        break;
    case kPlanesHeadOn:
    {
        // p and v along one axis (y: the vertical sidestep too), w along p: a leg, nothing across.
        const int axis = static_cast<int>(rngNextBelow(rng, 3));
        p[axis] = rngNextRange(rng, r + 0.1, 20.0) * (rngNextBelow(rng, 2) == 0 ? 1.0 : -1.0);
        v[axis] = p[axis] * kPlanesInvHorizon * (1.0 + rngNextDouble(rng));
        break;
    }
    case kPlanesOverlap:
    case kPlanesOverlapW0:
        do
            p = randomVec(r);
        while (!(glm::dot(p, p) <= r * r) || glm::dot(p, p) == 0.0);
        v = kind == kPlanesOverlap ? randomVec(4.0) : p * kPlanesInvDt;
        break;
    default:
        break; // on top: p = v = 0
    }
    for (std::size_t d = 0; d < 3; ++d)
    {
        t.relativePosition[d][e] = p[static_cast<int>(d)];
        t.relativeVelocity[d][e] = v[static_cast<int>(d)];
    }
    t.distSq[e] = glm::dot(p, p);
    t.radius[e] = r;
    const uint32_t shareKind = rngNextBelow(rng, 3);
    t.share[e] = shareKind == 0 ? 0.5 : (shareKind == 1 ? 1.0 : rngNextRange(rng, 0.01, 1.0));
    t.otherKey[e] = (uint64_t{rngNextU32(rng)} << 32) | rngNextBelow(rng, 1000);
}

/// The case orcaPlane3 takes for entry e of `t`, by its arithmetic: 0
/// overlapping, 1 the cut-off sphere (w·p < 0 and (w·p)² > R²|w|², w = v − p/τ),
/// 2 a leg, 3 a leg by the sidestep rule (v's part across p about zero).
int planesTestCase3(const PairTable<glm::dvec3>& t, std::size_t e, bool guard)
{
    const double r = guard ? t.radius[e] * kPlanesGuardFactor : t.radius[e];
    const double invH = guard ? kPlanesInvOneStep : kPlanesInvHorizon;
    const double distSq = t.distSq[e];
    if (!(distSq > r * r))
        return 0;
    double w[3], v[3], p[3];
    for (std::size_t d = 0; d < 3; ++d)
    {
        p[d] = t.relativePosition[d][e];
        v[d] = guard ? 0.0 : t.relativeVelocity[d][e];
        w[d] = v[d] - p[d] * invH;
    }
    const double wp = w[0] * p[0] + w[1] * p[1] + w[2] * p[2];
    const double wSq = w[0] * w[0] + w[1] * w[1] + w[2] * w[2];
    if (wp < 0.0 && wp * wp > r * r * wSq)
        return 1;
    const double dist = std::sqrt(distSq);
    const double a[3] = {p[0] / dist, p[1] / dist, p[2] / dist};
    const double va = v[0] * a[0] + v[1] * a[1] + v[2] * a[2];
    double acrossSq = 0.0;
    for (std::size_t d = 0; d < 3; ++d)
        acrossSq = acrossSq + (v[d] - a[d] * va) * (v[d] - a[d] * va);
    return acrossSq > 1.0e-24 * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + 1.0e-300) ? 2 : 3;
}

} // namespace

TEST_CASE("3D planes two at a time equal the scalar plane to the bit: the cut-off, the legs and the rest")
{
    Rng rng = rngFromSeed(2027);
    PairTable<glm::dvec3> table;
    std::array<int, kPlanesKinds> seen{};
    // SSE2 pairs whose lanes both take the cut-off sphere, one the cut-off and
    // one a leg, both a leg (the two-lane paths), or else (the scalar plane).
    int bothCutOff = 0, cutOffAndLeg = 0, bothLeg = 0, notBoth = 0;
    const auto countLanes = [&](const PairTable<glm::dvec3>& t, std::size_t e0, std::size_t e1, bool guard)
    {
        const int c0 = planesTestCase3(t, e0, guard), c1 = planesTestCase3(t, e1, guard);
        if (c0 == 1 && c1 == 1)
            ++bothCutOff;
        else if (c0 == 2 && c1 == 2)
            ++bothLeg;
        else if ((c0 == 1 || c0 == 2) && (c1 == 1 || c1 == 2))
            ++cutOffAndLeg;
        else
            ++notBoth;
    };
    int softDiffer = 0, guardDiffer = 0;
    std::vector<Constraint3> byTwo(PairTable<glm::dvec3>::kRoom), oneByOne(PairTable<glm::dvec3>::kRoom);
    for (int trial = 0; trial < 3000; ++trial)
    {
        const std::size_t count = 1 + rngNextBelow(rng, PairTable<glm::dvec3>::kRoom);
        // Mostly one kind per table, else any mix.
        const bool mixed = rngNextBelow(rng, 2) == 0;
        const int tableKind = static_cast<int>(rngNextBelow(rng, kPlanesKinds));
        for (std::size_t e = 0; e < count; ++e)
        {
            const int kind = mixed ? static_cast<int>(rngNextBelow(rng, kPlanesKinds)) : tableKind;
            planesTestPair3(rng, kind, e, table);
            ++seen[static_cast<std::size_t>(kind)];
        }
        table.count = count;
        const glm::dvec3 velocityA{rngNextRange(rng, -2.0, 2.0), rngNextRange(rng, -2.0, 2.0),
                                   rngNextRange(rng, -2.0, 2.0)};
        const uint64_t selfKey = (uint64_t{rngNextU32(rng)} << 32) | rngNextBelow(rng, 1000);
        const auto poison = [&]
        {
            // Any entry a path leaves unwritten differs.
            for (std::size_t j = 0; j < byTwo.size(); ++j)
            {
                byTwo[j] = Constraint3{glm::dvec3(1.0e300), glm::dvec3(1.0e300)};
                oneByOne[j] = Constraint3{glm::dvec3(-1.0e300), glm::dvec3(-1.0e300)};
            }
        };
        const auto differ = [&](std::size_t n)
        {
            int d = 0;
            for (std::size_t j = 0; j < n; ++j)
                d += std::memcmp(&byTwo[j], &oneByOne[j], sizeof(Constraint3)) != 0 ? 1 : 0;
            return d;
        };
        poison();
        planes::softPlanes3By<PlanePath::ByTwo>(table, count, velocityA, selfKey, kPlanesInvHorizon,
                                                kPlanesInvDt, byTwo.data());
        planes::softPlanes3By<PlanePath::OneByOne>(table, count, velocityA, selfKey, kPlanesInvHorizon,
                                                   kPlanesInvDt, oneByOne.data());
        softDiffer += differ(count);
        for (std::size_t j = 0; j + 1 < count; j += 2)
            countLanes(table, j, j + 1, false);

        // The guards of a random subset, in entry order.
        std::array<uint8_t, PairTable<glm::dvec3>::kRoom> which{};
        std::size_t guards = 0;
        for (std::size_t e = 0; e < count; ++e)
            if (rngNextBelow(rng, 4) != 0)
                which[guards++] = static_cast<uint8_t>(e);
        poison();
        planes::guardPlanes3By<PlanePath::ByTwo>(table, which.data(), guards, selfKey, kPlanesGuardFactor,
                                                 kPlanesInvOneStep, kPlanesInvDt, byTwo.data());
        planes::guardPlanes3By<PlanePath::OneByOne>(table, which.data(), guards, selfKey, kPlanesGuardFactor,
                                                    kPlanesInvOneStep, kPlanesInvDt, oneByOne.data());
        guardDiffer += differ(guards);
        for (std::size_t g = 0; g + 1 < guards; g += 2)
            countLanes(table, which[g], which[g + 1], true);
    }
    CHECK(softDiffer == 0);
    CHECK(guardDiffer == 0);
    // Each two-lane case and the scalar fallback are taken often.
    CHECK(bothCutOff > 10000);
    CHECK(cutOffAndLeg > 1000);
    CHECK(bothLeg > 1000);
    CHECK(notBoth > 10000);
    for (const int n : seen)
        CHECK(n > 10000);
}

namespace
{

/// A random crowd of `n` for the gather test: one radius, one priority,
/// nothing ignored (so uniformPairRadius holds), random layers, positions
/// close enough that some pairs overlap and some guards bind, others not.
template <class Agent> std::vector<Agent> uniformTestCrowd(Rng& rng, std::size_t n, double radius)
{
    using V = decltype(Agent::position);
    std::vector<Agent> agents(n);
    for (Agent& a : agents)
    {
        for (int d = 0; d < V::length(); ++d)
        {
            a.position[d] = rngNextRange(rng, -4.0, 4.0);
            a.velocity[d] = rngNextRange(rng, -1.5, 1.5);
        }
        a.radius = radius;
        a.maxSpeed = rngNextRange(rng, 0.5, 3.0);
        a.priority = 2.0;
        a.id = rngNextBelow(rng, 8); // repeated ids: the keys break ties by index
        a.layers = rngNextU32(rng);
        a.ignores = 0;
    }
    return agents;
}

/// Agent `self`'s pairs built with the uniform gather into `uniformTable` and
/// the general one (uniformPairRadius 0) into `generalTable`, each build then
/// a SoftOnly re-run: the constraints that differ to the bit and the counts
/// that differ; `guards` and `pairs` add what the uniform build wrote. The
/// neighbours in index order, or with `sorted` in the neighbour search's
/// (distance, id, index) order, where the guards lead and the plane builds
/// its planes straight from the agents; with `saySorted` too the uniform
/// build is told so (PairSettings::neighborsByDistance) and counts the
/// leading guards without checking the rest of the list.
template <class Agent, class V>
int uniformTestDiffer(const std::vector<Agent>& agents, std::size_t self, PairBuild build,
                      PairTable<V>& uniformTable, PairTable<V>& generalTable, std::size_t& guards,
                      std::size_t& pairs, bool sorted = false, bool saySorted = false)
{
    std::vector<Neighbor> neighbors;
    for (std::size_t j = 0; j < agents.size() && neighbors.size() < PairTable<V>::kRoom; ++j)
        if (j != self)
        {
            const V diff = agents[j].position - agents[self].position;
            neighbors.push_back(Neighbor{glm::dot(diff, diff), static_cast<uint32_t>(j), agents[j].id});
        }
    if (sorted)
        std::sort(neighbors.begin(), neighbors.end(),
                  [](const Neighbor& x, const Neighbor& y)
                  {
                      if (x.distanceSquared != y.distanceSquared)
                          return x.distanceSquared < y.distanceSquared;
                      return x.id != y.id ? x.id < y.id : x.index < y.index;
                  });
    const double pairRadius = uniformPairRadius<Agent>(agents);
    PairSettings uniform = PairSettings::of(5.0, 0.95, 0.3, pairRadius);
    PairSettings general = uniform;
    general.uniformPairRadius = 0.0;
    uniform.neighborsByDistance = sorted && saySorted;
    const std::size_t room = 2 * neighbors.size();
    std::vector<Constraint<V>> out(room, Constraint<V>{V(1.0e300), V(1.0e300)});
    std::vector<Constraint<V>> generalOut(room, Constraint<V>{V(-1.0e300), V(-1.0e300)});
    int differ = 0;
    const auto compare = [&](const PairCounts& a, const PairCounts& b)
    {
        differ += a.guards != b.guards || a.soft != b.soft ? 1 : 0;
        for (std::size_t j = 0; j < a.guards + a.soft; ++j)
            differ += std::memcmp(&out[j], &generalOut[j], sizeof(Constraint<V>)) != 0 ? 1 : 0;
    };
    // Both tables first hold a mixed crowd's pairs (radii and shares of their
    // own): the uniform build must not take them for its own.
    std::vector<Agent> mixed = agents;
    for (Agent& m : mixed)
    {
        m.radius *= 1.0 + 0.25 * static_cast<double>(m.id % 3);
        m.priority = 1.0 + static_cast<double>(m.id % 2);
    }
    for (PairTable<V>* t : {&uniformTable, &generalTable})
        pairConstraints(std::span<const Agent>(mixed), self, neighbors.data(), neighbors.size(), general,
                        out.data(), PairBuild::All, *t);
    const PairCounts counts = pairConstraints(agents, self, neighbors.data(), neighbors.size(), uniform,
                                              out.data(), build, uniformTable);
    compare(counts, pairConstraints(agents, self, neighbors.data(), neighbors.size(), general,
                                    generalOut.data(), build, generalTable));
    guards += counts.guards;
    pairs += counts.soft;
    compare(pairConstraints(agents, self, neighbors.data(), neighbors.size(), uniform.withHorizon(0.625),
                            out.data(), PairBuild::SoftOnly, uniformTable),
            pairConstraints(agents, self, neighbors.data(), neighbors.size(), general.withHorizon(0.625),
                            generalOut.data(), PairBuild::SoftOnly, generalTable));
    return differ;
}

} // namespace

TEST_CASE("a uniform crowd's pairs (one radius, one priority, nothing ignored) equal the general gather's to "
          "the bit")
{
    Rng rng = rngFromSeed(715);
    int differ = 0;
    std::size_t guards = 0, pairs = 0, everyGuards = 0, everyPairs = 0;
    // Two tables per dimension, reused with their roles swapped trial by
    // trial: a table a uniform crowd filled (another radius) is then built
    // generally, and the reverse.
    std::array<std::unique_ptr<PairTable<glm::dvec2>>, 2> tables2{std::make_unique<PairTable<glm::dvec2>>(),
                                                                  std::make_unique<PairTable<glm::dvec2>>()};
    std::array<std::unique_ptr<PairTable<glm::dvec3>>, 2> tables3{std::make_unique<PairTable<glm::dvec3>>(),
                                                                  std::make_unique<PairTable<glm::dvec3>>()};
    for (int trial = 0; trial < 400; ++trial)
    {
        const std::size_t n = 2 + rngNextBelow(rng, 40);
        const double radius = rngNextBelow(rng, 2) == 0 ? 0.5 : 0.75; // repeated: a table may hold it already
        const std::size_t self = rngNextBelow(rng, static_cast<uint32_t>(n));
        const std::size_t u = static_cast<std::size_t>(trial / 2 % 2); // the uniform build's table
        if (trial % 2 == 0)
        {
            const auto agents = uniformTestCrowd<nav::AvoidanceAgent>(rng, n, radius);
            REQUIRE(uniformPairRadius<nav::AvoidanceAgent>(agents) == radius + radius);
            for (const int order : {0, 1, 2}) // index order; sorted; sorted, and said so
            {
                const bool sorted = order > 0, saySorted = order == 2;
                differ += uniformTestDiffer<nav::AvoidanceAgent, glm::dvec2>(
                    agents, self, PairBuild::All, *tables2[u], *tables2[1 - u], guards, pairs, sorted,
                    saySorted);
                differ += uniformTestDiffer<nav::AvoidanceAgent, glm::dvec2>(
                    agents, self, PairBuild::EveryGuard, *tables2[1 - u], *tables2[u], everyGuards,
                    everyPairs, sorted, saySorted);
            }
        }
        else
        {
            const auto agents = uniformTestCrowd<nav::AvoidanceAgent3D>(rng, n, radius);
            REQUIRE(uniformPairRadius<nav::AvoidanceAgent3D>(agents) == radius + radius);
            for (const int order : {0, 1, 2}) // index order; sorted; sorted, and said so
            {
                const bool sorted = order > 0, saySorted = order == 2;
                differ += uniformTestDiffer<nav::AvoidanceAgent3D, glm::dvec3>(
                    agents, self, PairBuild::All, *tables3[u], *tables3[1 - u], guards, pairs, sorted,
                    saySorted);
                differ += uniformTestDiffer<nav::AvoidanceAgent3D, glm::dvec3>(
                    agents, self, PairBuild::EveryGuard, *tables3[1 - u], *tables3[u], everyGuards,
                    everyPairs, sorted, saySorted);
            }
        }
    }
    CHECK(differ == 0);
    // Some guards bind and some are left out; EveryGuard writes them all.
    CHECK(guards > pairs / 10);
    CHECK(guards < pairs * 9 / 10);
    CHECK(everyGuards == everyPairs);
}

TEST_CASE("the uniform pair radius is 0 once one agent's radius, priority or ignored layers differ")
{
    Rng rng = rngFromSeed(716);
    const auto agents = uniformTestCrowd<nav::AvoidanceAgent>(rng, 12, 0.75);
    CHECK(uniformPairRadius<nav::AvoidanceAgent>(agents) == 1.5);
    CHECK(uniformPairRadius<nav::AvoidanceAgent>(std::span<const nav::AvoidanceAgent>()) == 0.0);
    for (int field = 0; field < 3; ++field)
    {
        auto changed = agents;
        nav::AvoidanceAgent& last = changed.back();
        if (field == 0)
            last.radius = 0.7500000001;
        else if (field == 1)
            last.priority = 1.0;
        else
            last.ignores = 4;
        CHECK(uniformPairRadius<nav::AvoidanceAgent>(changed) == 0.0);
    }
}
