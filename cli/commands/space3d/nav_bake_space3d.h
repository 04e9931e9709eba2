#pragma once
/// \file nav_bake_space3d.h
/// The "space3d" source of `nav.bake` (SPEC §2.1): the static colliders of a 3D
/// scene, as triangles, through the 3D bake (`nav::bakeTriangles`).

#include "surface/registry.h"

#include "spark/nav/navmesh.h"
#include "spark/nav/poly_soup.h"
#include "spark/scene/scene3d.h"

#include <filesystem>

namespace spark::cli
{

/// What the space3d source hands to nav.bake's common tail.
struct Space3DBake
{
    nav::PolySoup soup;            ///< The baked polygons.
    nav::NavMeshSettings settings; ///< The settings the mesh was baked with.
    json stats = json::object();   ///< cells, spans, regions, fallback_regions, colliders, triangles,
                                   ///< approximated_colliders and approximations [{object, code, message}].
};

/// Bakes `scene` with the bake settings in `params` (agent_radius, agent_height,
/// max_slope_deg, step_height, cell_size, cell_height, max_simplification_error,
/// max_edge_len, include_sensors, include_kinds; missing ones take the SPEC
/// defaults). Models are read relative to `projectRoot`. Fails (through `fail`)
/// with `E_NAV_CONFIG`, `E_NAV_LIMIT` or `E_NAV_NO_GEOMETRY` and the param path.
Space3DBake bakeScene3D(const scene::Scene3D& scene, const std::filesystem::path& projectRoot,
                        const json& params);

/// `nav.bake` with `source: "space3d"`: bakes the session's 3D scene
/// (`E_NAV_NO_GEOMETRY` when there is none; `E_NAV_CONFIG` for params of the
/// 2D sources).
Space3DBake bakeFromScene(Context& ctx, const json& params);

} // namespace spark::cli
