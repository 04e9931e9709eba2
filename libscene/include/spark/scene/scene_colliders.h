#pragma once
/// \file scene_colliders.h
/// The static colliders of a 3D scene as triangles for the 3D bake (docs/navmesh.md "The 3D bake"
/// step 1): fixed bodies' boxes, spheres and capsules (tessellated), convex
/// hulls and triangle meshes with their model's real triangles, from_mesh
/// shapes as their model's bounding box, and anchored, non-dynamic
/// Destructible objects at their initial shape. Sensors and the other body
/// kinds join only when asked. Everything is in world space, objects in scene
/// order, so equal scenes give bit-identical triangles.

#include "spark/core/result.h"
#include "spark/nav/bake.h"
#include "spark/scene/world_document.h"

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "spark/core/export.h"
SPARK_SCENE_API_BEGIN

namespace spark::scene
{

/// Triangles in an object's own frame. [Units: m]
struct ColliderMesh
{
    std::vector<glm::vec3> vertices;
    std::vector<uint32_t> indices; ///< Three per triangle, counter-clockwise seen from outside.
};

/// Longitude segments of a tessellated sphere or capsule.
inline constexpr int kRoundSlices = 16;
/// Latitude bands of a tessellated sphere (a capsule has the same bands split by its cylinder).
inline constexpr int kRoundStacks = 8;

/// A closed box of 8 vertices and 12 triangles.
ColliderMesh tessellateBox(const glm::vec3& halfExtents);
/// A closed UV sphere (`kRoundSlices` × `kRoundStacks`), angles from spark::det.
ColliderMesh tessellateSphere(float radius);
/// A closed capsule along local +Y: two hemispheres `halfHeight` above and below the centre.
ColliderMesh tessellateCapsule(float radius, float halfHeight);

/// Rotates `v` by the quaternion `q` (x, y, z, w), normalised first.
glm::vec3 rotateByQuaternion(const glm::vec4& q, const glm::vec3& v);
/// World position of a local point: position + rotation · (scale ⊙ local).
glm::vec3 transformPoint(const Transform3D& transform, const glm::vec3& local);

/// Loads a model's triangles by its path as written in the scene.
using ModelLoader = std::function<Result<ColliderMesh>(std::string_view path)>;

/// A loader reading OBJ files (model_obj.h) at paths relative to `projectRoot`:
/// `E_PATH` for a path leaving the project, `E_IO` / `E_FORMAT` from the reader.
ModelLoader makeObjModelLoader(std::filesystem::path projectRoot);

/// Which colliders to collect.
struct ColliderDef
{
    /// Include sensor bodies (they never block in physics).
    bool includeSensors = false;
    /// Body kinds to include. Anchored, non-dynamic Destructible objects are included whatever their kind.
    std::vector<BodyKind> includeKinds{BodyKind::Fixed};
};

/// The defaults: fixed, non-sensor bodies (plus anchored destructibles).
ColliderDef defaultColliderDef();

/// Why a collider was baked as a box instead of its real shape.
struct ColliderApproximation
{
    std::string object; ///< Object name.
    /// `E_*` code of the cause: the model's load error, or `E_SCENE_APPROXIMATED` for a fracture asset.
    std::string code;
    std::string message; ///< What happened (the cause and the box it was baked as).
    std::string cause;   ///< Why, alone: the model's load error ("model \"x\" could not be loaded (...)").
};

/// The triangles of a scene's colliders, ready for `nav::bakeTriangles`.
struct ColliderTriangles
{
    nav::BakeInput input;                              ///< World triangles, area 0; a solid each.
    uint32_t colliders = 0;                            ///< Objects that contributed triangles.
    uint32_t approximatedColliders = 0;                ///< Of those, baked as a box.
    std::vector<ColliderApproximation> approximations; ///< One per approximated collider, in scene order.
};

/// Collects the colliders of `scene` selected by `def`. Each model is loaded
/// once through `loader`; a model that cannot be loaded (or has no triangles)
/// is baked as the box of half extents 0.5 scaled by its transform and counted
/// in `approximatedColliders`, as is a Destructible with a fracture `asset`
/// (baked as the bounding box of its shape).
ColliderTriangles collectColliderTriangles(const WorldDocument& scene, const ColliderDef& def,
                                           const ModelLoader& loader);

} // namespace spark::scene
SPARK_SCENE_API_END
