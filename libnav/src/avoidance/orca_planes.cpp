/// \file orca_planes.cpp
/// The ORCA planes' entry points (orca_planes_impl.h holds the planes and
/// their design note): the plane builders the tests compare path against
/// path, and pairConstraints. On the plane the avoidance compiles
/// planes::pairConstraintsOf itself (avoidance.cpp, rebuildPairs): the first
/// build of each agent inlined, without a call into this file.
#include "orca_planes_impl.h"

namespace spark::nav::detail
{

using namespace planes;

void softPlanes2(const PairTable<glm::dvec2>& table, std::size_t count, glm::dvec2 velocityA, uint64_t selfKey,
                 double invHorizon, double invDt, Constraint2* out, PlanePath path)
{
    if (path == PlanePath::ByTwo)
        softPlanesBy<PlanePath::ByTwo>(table, count, velocityA, selfKey, invHorizon, invDt, out);
    else
        softPlanesBy<PlanePath::OneByOne>(table, count, velocityA, selfKey, invHorizon, invDt, out);
}

void guardPlanes2(const PairTable<glm::dvec2>& table, const uint8_t* which, std::size_t count, uint64_t selfKey,
                  double guardFactor, double invOneStep, double invDt, Constraint2* out, PlanePath path)
{
    if (path == PlanePath::ByTwo)
        guardPlanesBy<PlanePath::ByTwo>(table, which, count, selfKey, guardFactor, invOneStep, invDt, out);
    else
        guardPlanesBy<PlanePath::OneByOne>(table, which, count, selfKey, guardFactor, invOneStep, invDt, out);
}

void softPlanes3(const PairTable<glm::dvec3>& table, std::size_t count, glm::dvec3 velocityA,
                 uint64_t selfKey, double invHorizon, double invDt, Constraint3* out, PlanePath path)
{
    if (path == PlanePath::ByTwo)
        softPlanes3By<PlanePath::ByTwo>(table, count, velocityA, selfKey, invHorizon, invDt, out);
    else
        softPlanes3By<PlanePath::OneByOne>(table, count, velocityA, selfKey, invHorizon, invDt, out);
}

void guardPlanes3(const PairTable<glm::dvec3>& table, const uint8_t* which, std::size_t count,
                  uint64_t selfKey, double guardFactor, double invOneStep, double invDt, Constraint3* out,
                  PlanePath path)
{
    if (path == PlanePath::ByTwo)
        guardPlanes3By<PlanePath::ByTwo>(table, which, count, selfKey, guardFactor, invOneStep, invDt, out);
    else
        guardPlanes3By<PlanePath::OneByOne>(table, which, count, selfKey, guardFactor, invOneStep, invDt,
                                            out);
}

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
