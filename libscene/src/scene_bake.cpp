// The 3D bake of a scene: colliders → triangles → nav::bakeNavMeshes (one mesh per agent radius).

#include "spark/scene/scene_bake.h"

namespace spark::scene
{

SceneBakeDef defaultSceneBakeDef()
{
    return SceneBakeDef{};
}

Result<ColliderTriangles> sceneBakeInput(const WorldDocument& scene, const SceneBakeDef& def, const ModelLoader& loader)
{
    ColliderTriangles triangles = collectColliderTriangles(scene, def.colliders, loader);
    if (!def.allowApproximations)
        for (const ColliderApproximation& a : triangles.approximations)
            if (a.code != "E_SCENE_APPROXIMATED") // a model that failed to load, not a fracture asset
                return makeError(a.code, "the model of object \"" + a.object + "\" cannot be baked: " + a.cause,
                                 "/objects/" + a.object,
                                 "fix the model, or pass allow_approximations: true to bake it as a box");
    if (triangles.input.indices.empty())
        return makeError("E_NAV_NO_GEOMETRY", "The 3D scene has no colliders to bake.", "/source",
                         "Add fixed bodies, or include other kinds with include_kinds / include_sensors.");
    return triangles;
}

Result<SceneBake> bakeWorldDocument(const WorldDocument& scene, const SceneBakeDef& def, const ModelLoader& loader)
{
    auto collected = sceneBakeInput(scene, def, loader);
    if (!collected.ok())
        return collected.error();
    ColliderTriangles& triangles = collected.value();
    auto baked = nav::bakeNavMeshes(triangles.input, def.bake);
    if (!baked.ok())
        return baked.error();
    SceneBake out;
    for (nav::BakedNavMesh& b : baked.value())
        out.meshes.push_back(std::make_shared<const nav::NavMesh>(std::move(b.mesh)));
    out.mesh = out.meshes.front();
    out.stats = baked.value().front().stats;
    out.colliders = triangles.colliders;
    out.triangles = triangles.input.indices.size() / 3;
    out.approximatedColliders = triangles.approximatedColliders;
    out.approximations = std::move(triangles.approximations);
    return out;
}

} // namespace spark::scene
