#pragma once
// Helpers the scene::World tests share: the ragdoll-wall sample (the guard
// demo's arena) as a world, and spawning that must succeed. Tests run from the
// project root, so the sample's relative path resolves.

#include "spark/scene/world.h"

#include <doctest/doctest.h>

namespace spark::scene::test
{

inline constexpr const char* kRagdollSample = "samples/space3d/ragdoll-wall.space3d.json";

/// The ragdoll-wall sample loaded into a fresh world, with the project's model loader.
inline World ragdollWorld()
{
    auto scene = loadWorldDocumentFile(kRagdollSample);
    REQUIRE(scene.ok());
    World w;
    REQUIRE(w.loadScene(std::move(scene.value())).ok());
    w.setModelLoader(makeObjModelLoader("."));
    return w;
}

/// Spawns `object`; the test fails unless it is accepted.
inline ObjectId spawnOk(World& w, Object3D object)
{
    Result<ObjectId> id = w.spawn(std::move(object));
    REQUIRE(id.ok());
    return id.value();
}

} // namespace spark::scene::test
