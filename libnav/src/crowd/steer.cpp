// Steering from corridor corners: seek the first corner at the cruising speed,
// slow down linearly within the slow radius of the target (arrive), stop within
// the stop distance. A corner that starts an off-mesh link is arrived at like a
// target (slow down, then `atLink` within the stop distance), as Detour's crowd
// slows down for its off-mesh connections. Distances are measured along the
// corners in the x–z plane.

#include "spark/nav/steer.h"

#include <cmath>

namespace spark::nav
{

SteerDef defaultSteerDef()
{
    return SteerDef{};
}

Result<Steering> steer(const glm::vec3& position, std::span<const CorridorCorner> corners, const SteerDef& def)
{
    if (!(def.maxSpeed >= 0.0f && def.maxSpeed <= 1.0e4f))
        return makeError("E_INVALID_PARAMS", "maxSpeed is 0..1e4 m/s", "/maxSpeed");
    if (!(def.slowRadius >= 0.0f && def.slowRadius <= 1.0e6f))
        return makeError("E_INVALID_PARAMS", "slowRadius is 0..1e6 m", "/slowRadius");
    if (!(def.stopDistance >= 0.0f && def.stopDistance <= 1.0e6f))
        return makeError("E_INVALID_PARAMS", "stopDistance is 0..1e6 m", "/stopDistance");
    Steering out;
    if (corners.empty())
        return out;
    // Distances along the corners: to the last one, and to the first corner
    // that starts an off-mesh link (the agent must be able to stop there).
    float along = 0.0f;
    float toLink = -1.0f;
    glm::vec3 prev = position;
    for (const CorridorCorner& c : corners)
    {
        const float dx = c.point.x - prev.x, dz = c.point.z - prev.z;
        along += std::sqrt(dx * dx + dz * dz);
        if ((c.flags & kCornerOffMeshStart) && toLink < 0.0f)
            toLink = along;
        prev = c.point;
    }
    const bool endVisible = (corners.back().flags & kCornerEnd) != 0;
    if (endVisible)
        out.distanceToEnd = along;
    const CorridorCorner& next = corners.front();
    const float dx = next.point.x - position.x, dz = next.point.z - position.z;
    const float toNext = std::sqrt(dx * dx + dz * dz);
    if ((next.flags & kCornerOffMeshStart) && toNext <= def.stopDistance)
    {
        out.atLink = true;
        return out;
    }
    if (endVisible && along <= def.stopDistance)
    {
        out.arrived = true;
        return out;
    }
    if (toNext <= 0.0f)
        return out;
    // Arrive: slow down linearly toward the target or a link's start.
    float stopAt = endVisible ? along : -1.0f;
    if (toLink >= 0.0f && (stopAt < 0.0f || toLink < stopAt))
        stopAt = toLink;
    float speed = def.maxSpeed;
    if (stopAt >= 0.0f && def.slowRadius > 0.0f && stopAt < def.slowRadius)
        speed = def.maxSpeed * (stopAt / def.slowRadius);
    out.velocity = glm::vec3(dx / toNext * speed, 0.0f, dz / toNext * speed);
    return out;
}

} // namespace spark::nav
