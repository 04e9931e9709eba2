#pragma once
/// \file scene_bake.h
/// The 3D bake of a scene (docs/navmesh.md "The 3D bake"): the static colliders of a `WorldDocument` as
/// triangles (`collectColliderTriangles`), through libnav's one bake path
/// (`nav::bakeNavMesh`), into a navigation mesh with the counters a host shows.

#include "spark/core/result.h"
#include "spark/nav/bake.h"
#include "spark/nav/navmesh.h"
#include "spark/scene/world_document.h"
#include "spark/scene/scene_colliders.h"

#include <cstdint>
#include <memory>
#include <vector>

#include "spark/core/export.h"
SPARK_SCENE_API_BEGIN

namespace spark::scene
{

/// How a scene is baked.
struct SceneBakeDef
{
    nav::BakeDef bake = nav::defaultBakeDef();          ///< Voxel and agent settings.
    ColliderDef colliders = defaultColliderDef();      ///< Which bodies are baked.
    /// Bake a collider whose model cannot be loaded as a box (counted in
    /// `approximations`) instead of failing with the model's error.
    bool allowApproximations = false;
};

/// The defaults: `nav::defaultBakeDef()` over fixed, non-sensor bodies.
SceneBakeDef defaultSceneBakeDef();

/// A baked scene.
struct SceneBake
{
    std::shared_ptr<const nav::NavMesh> mesh;           ///< The mesh (immutable, ready for a `NavWorld`); the first radius's.
    nav::BakeStats stats;                              ///< Counters of the bake (of the first radius).
    /// Every radius's mesh, in the order of `nav::bakeRadii(def.bake)` (the
    /// first is `mesh`): one per `agentRadii` entry (`nav::bakeNavMeshes`).
    std::vector<std::shared_ptr<const nav::NavMesh>> meshes;
    uint32_t colliders = 0;                            ///< Objects that contributed triangles.
    uint64_t triangles = 0;                            ///< Triangles voxelised.
    uint32_t approximatedColliders = 0;                ///< Colliders baked as a box.
    std::vector<ColliderApproximation> approximations; ///< Why, one per approximated collider.
};

/// The colliders of `scene` selected by `def` as the bake's triangles (what
/// `bakeWorldDocument` bakes; a per-tile re-bake reads the scene through it too).
/// Errors: the model's own error when a model cannot be loaded and
/// `def.allowApproximations` is false; `E_NAV_NO_GEOMETRY` (field `/source`)
/// when no collider is selected.
Result<ColliderTriangles> sceneBakeInput(const WorldDocument& scene, const SceneBakeDef& def, const ModelLoader& loader);

/// Bakes the colliders of `scene` selected by `def` (models read through
/// `loader`). Errors: the model's own error (`E_IO`, `E_PATH`, `E_FORMAT`,
/// `E_SCENE_LIMIT`; field `/objects/<name>`) when a model cannot be loaded and
/// `def.allowApproximations` is false; `E_NAV_NO_GEOMETRY` (field `/source`) when no collider is
/// selected, and those of `nav::bakeNavMeshes` (`E_NAV_CONFIG` with the setting's
/// field, `E_NAV_LIMIT`, `E_NAV_NO_GEOMETRY`).
Result<SceneBake> bakeWorldDocument(const WorldDocument& scene, const SceneBakeDef& def, const ModelLoader& loader);

} // namespace spark::scene
SPARK_SCENE_API_END
