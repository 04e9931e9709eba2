// Model loading for the colliders: OBJ files inside the project.

#include "spark/core/path.h"
#include "spark/scene/model_obj.h"
#include "spark/scene/scene_colliders.h"

namespace spark::scene
{

ModelLoader makeObjModelLoader(std::filesystem::path projectRoot)
{
    return [root = std::move(projectRoot)](std::string_view path) -> Result<ColliderMesh>
    {
        auto resolved = resolveInProject(root, path);
        if (!resolved.ok())
            return resolved.error();
        auto obj = loadObj(resolved.value());
        if (!obj.ok())
            return obj.error();
        ColliderMesh mesh;
        mesh.vertices = std::move(obj.value().vertices);
        mesh.indices = std::move(obj.value().indices);
        return mesh;
    };
}

} // namespace spark::scene
