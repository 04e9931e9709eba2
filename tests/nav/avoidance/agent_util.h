#pragma once
// Helpers the 2D avoidance tests share: a plain agent and a vector length.

#include "spark/nav/avoidance.h"

#include <glm/geometric.hpp>

#include <cmath>
#include <cstdint>

namespace spark::nav::test
{

inline double length(glm::dvec2 v) { return std::sqrt(glm::dot(v, v)); }

/// An agent at `position`, standing still, radius 0.5 m and 1.5 m/s unless given.
inline AvoidanceAgent makeAgent(glm::dvec2 position, uint32_t id, double radius = 0.5, double maxSpeed = 1.5)
{
    AvoidanceAgent a;
    a.position = position;
    a.radius = radius;
    a.maxSpeed = maxSpeed;
    a.id = id;
    return a;
}

} // namespace spark::nav::test
