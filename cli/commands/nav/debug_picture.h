#pragma once
/// \file debug_picture.h
/// The picture of a mesh that nav.debug.capture writes and nav.golden.* store
/// and compare: params → overlay and settings → `nav::drawNavMeshDebug`.

#include "surface/registry.h"

#include "spark/core/image.h"

namespace spark::cli
{

/// A rendered picture and what was drawn.
struct DebugPicture
{
    Image image;
    std::string mesh;        ///< Name of the mesh drawn.
    json paths = json::array(); ///< The paths drawn, as point lists ([x, y] on a 2D mesh).
    json pathResult;         ///< For path_from/path_to: {complete, length, points}; null otherwise.
};

/// Renders the mesh addressed by `params` (`mesh`, `width`, `height`, `margin`,
/// `bounds`, `path_from`/`path_to` with `area_costs`/`excluded_areas`, `paths`).
/// Fails the command with the coded error of the bad field.
DebugPicture renderDebugPicture(Context& ctx, const json& params);

} // namespace spark::cli
