#pragma once
/// \file obstacle_helpers.h
/// What the NavWorld obstacle tests share: a mesh put into a world (named
/// "m"), circle and box obstacles standing at (x, 0, z).

#include "spark/nav/nav_world.h"

#include <doctest/doctest.h>

#include <memory>

namespace spark::nav::test
{

inline MeshId put(NavWorld& world, std::shared_ptr<const NavMesh> mesh)
{
    MeshDef def = defaultMeshDef();
    def.name = "m";
    def.source = "test";
    def.mesh = std::move(mesh);
    Result<MeshId> id = world.putMesh(std::move(def));
    REQUIRE(id.ok());
    return id.value();
}

inline ObstacleDef circleAt(float x, float z, float radius)
{
    ObstacleDef def = defaultObstacleDef();
    def.shape.shape = FootprintShape::Circle;
    def.shape.radius = radius;
    def.position = glm::vec3(x, 0.0f, z);
    return def;
}

inline ObstacleDef boxAt(float x, float z, float hx, float hz, float angle = 0.0f)
{
    ObstacleDef def = defaultObstacleDef();
    def.shape.shape = FootprintShape::Box;
    def.shape.halfExtents = glm::vec2(hx, hz);
    def.shape.angleDeg = angle;
    def.position = glm::vec3(x, 0.0f, z);
    return def;
}

} // namespace spark::nav::test
