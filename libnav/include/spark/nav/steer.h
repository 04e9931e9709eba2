#pragma once
/// \file steer.h
/// Steering: from the next corners of a corridor, the velocity an agent wants —
/// follow the path, slow down linearly within `slowRadius` of the target, stop
/// within `stopDistance`, and say when the next corner starts an off-mesh link
/// (the agent slows down toward a link's start as toward a target, measured
/// along the corners, so it can stop there).

#include "spark/core/result.h"
#include "spark/nav/corridor.h"

#include <glm/vec3.hpp>

#include <span>

#include "spark/core/export.h"
SPARK_NAV_API_BEGIN

namespace spark::nav
{

/// How an agent steers.
struct SteerDef
{
    float maxSpeed = 3.5f;     ///< Cruising speed. [Limit: 0..1e4] [Units: m/s]
    float slowRadius = 1.5f;   ///< Distance from the target where slowing down starts. [Limit: >= 0] [Units: m]
    float stopDistance = 0.1f; ///< Distance from the target that counts as arrived. [Limit: >= 0] [Units: m]
};

/// The defaults above.
SteerDef defaultSteerDef();

/// What the agent should do now.
struct Steering
{
    glm::vec3 velocity{0.0f};    ///< Wanted velocity (x–z; y = 0). [Units: m/s]
    float distanceToEnd = -1.0f; ///< Distance along the corners to the target, or −1 when it is not among them. [Units: m]
    bool arrived = false;        ///< Within `stopDistance` of the target: the velocity is zero.
    bool atLink = false;         ///< The next corner starts an off-mesh link and is within `stopDistance`.
};

/// Steers from `position` toward `corners` (as `findCorridorCorners` gives
/// them). Errors: `E_INVALID_PARAMS` (a def field out of its limits, named).
Result<Steering> steer(const glm::vec3& position, std::span<const CorridorCorner> corners, const SteerDef& def);

} // namespace spark::nav
SPARK_NAV_API_END
