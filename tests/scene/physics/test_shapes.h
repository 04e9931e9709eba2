#pragma once
// Shape builders shared by the physics tests (world-space cores with radii).

#include "spark/scene/physics.h"

#include <glm/geometric.hpp>

namespace spark::scene::physics::test
{

inline Shape sphere(glm::dvec3 c, double r)
{
    Shape s;
    s.kind = CoreKind::Point;
    s.center = c;
    s.radius = r;
    return s;
}

inline Shape capsule(glm::dvec3 c, double halfHeight, double r, glm::dvec3 axis = {0, 1, 0})
{
    Shape s;
    s.kind = CoreKind::Segment;
    s.center = c;
    s.axis[1] = glm::normalize(axis);
    s.half = glm::dvec3(0, halfHeight, 0);
    s.radius = r;
    return s;
}

inline Shape box(glm::dvec3 c, glm::dvec3 half)
{
    Shape s;
    s.kind = CoreKind::Box;
    s.center = c;
    s.half = half;
    return s;
}

} // namespace spark::scene::physics::test
