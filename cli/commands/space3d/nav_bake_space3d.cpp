// The "space3d" source of nav.bake: scene colliders → triangles → 3D bake.

#include "commands/space3d/nav_bake_space3d.h"

#include "spark/nav/bake.h"
#include "spark/scene/scene_colliders.h"

#include <string>

namespace spark::cli
{
namespace
{

scene::BodyKind kindFromName(const std::string& name, size_t index)
{
    if (name == "fixed")
        return scene::BodyKind::Fixed;
    if (name == "dynamic")
        return scene::BodyKind::Dynamic;
    if (name == "kinematic")
        return scene::BodyKind::Kinematic;
    fail("E_INVALID_PARAMS", "unknown body kind '" + name + "' (fixed, dynamic, kinematic)",
         {{"path", "/include_kinds/" + std::to_string(index)}});
}

} // namespace

Space3DBake bakeScene3D(const scene::Scene3D& scene, const std::filesystem::path& projectRoot,
                        const json& params)
{
    nav::BakeDef def = nav::defaultBakeDef();
    def.agentRadius = params.value("agent_radius", def.agentRadius);
    def.agentHeight = params.value("agent_height", def.agentHeight);
    def.maxSlopeDeg = params.value("max_slope_deg", def.maxSlopeDeg);
    def.stepHeight = params.value("step_height", def.stepHeight);
    def.cellSize = params.value("cell_size", def.cellSize);
    def.cellHeight = params.value("cell_height", def.cellHeight);
    def.maxSimplificationError = params.value("max_simplification_error", def.maxSimplificationError);
    def.maxEdgeLen = params.value("max_edge_len", def.maxEdgeLen);

    scene::ColliderDef colliders = scene::defaultColliderDef();
    colliders.includeSensors = params.value("include_sensors", false);
    if (params.contains("include_kinds"))
    {
        colliders.includeKinds.clear();
        const json& kinds = params["include_kinds"];
        for (size_t i = 0; i < kinds.size(); ++i)
            colliders.includeKinds.push_back(kindFromName(kinds[i].get<std::string>(), i));
    }

    const scene::ColliderTriangles triangles =
        scene::collectColliderTriangles(scene, colliders, scene::makeObjModelLoader(projectRoot));
    if (triangles.input.indices.empty())
        fail("E_NAV_NO_GEOMETRY", "The 3D scene has no colliders to bake.", {{"path", "/source"}},
             "Add fixed bodies, or include other kinds with include_kinds / include_sensors.");
    auto baked = nav::bakeTriangles(triangles.input, def);
    if (!baked.ok())
        failWith(baked.error());

    Space3DBake out;
    out.soup = std::move(baked.value().mesh);
    out.settings = nav::defaultNavMeshSettings();
    out.settings.agentRadius = def.agentRadius;
    out.settings.agentHeight = def.agentHeight;
    out.settings.stepHeight = def.stepHeight;
    out.settings.cellSize = def.cellSize;
    out.settings.cellHeight = def.cellHeight;
    out.settings.maxSlopeDeg = def.maxSlopeDeg;

    json approximations = json::array();
    for (const scene::ColliderApproximation& a : triangles.approximations)
        approximations.push_back({{"object", a.object}, {"code", a.code}, {"message", a.message}});
    const nav::BakeStats& s = baked.value().stats;
    out.stats = {{"cells", s.cells},
                 {"spans", s.spans},
                 {"regions", s.regions},
                 {"fallback_regions", s.fallbackRegions},
                 {"colliders", triangles.colliders},
                 {"triangles", triangles.input.indices.size() / 3},
                 {"approximated_colliders", triangles.approximatedColliders},
                 {"approximations", std::move(approximations)}};
    return out;
}

Space3DBake bakeFromScene(Context& ctx, const json& params)
{
    if (!ctx.state.scene3d)
        fail("E_NAV_NO_GEOMETRY", "There is no 3D scene to bake.", {{"path", "/source"}},
             "Create one with space3d.new or load one with space3d.load.");
    for (const char* key : {"bounds", "obstacles", "walkable", "solid_rects", "areas", "subdivisions"})
        if (params.contains(key))
            fail("E_NAV_CONFIG",
                 std::string("'") + key +
                     "' is not a setting of source \"space3d\"; the scene's colliders give the shapes.",
                 {{"path", std::string("/") + key}});
    return bakeScene3D(*ctx.state.scene3d, ctx.projectRoot, params);
}

} // namespace spark::cli
