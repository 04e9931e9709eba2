#pragma once
/// \file nav_state.h
/// The navigation state of a session: named navigation meshes. A plain value
/// (maps of copyable values), copied with the session state before every
/// mutating command. `nav.bake` and `nav.import` put meshes in; `nav.*` queries
/// read them; `nav.remove` takes them out.

#include "spark/nav/navmesh.h"

#include <cstdint>
#include <map>
#include <string>

namespace spark::scene
{

/// One named mesh and what it was made from.
struct MeshEntry
{
    nav::NavMesh mesh;                ///< The current mesh (after obstacles, once there are any).
    bool is2d = false;                ///< 2D mesh: commands take and return [x, y] (stored as (x, 0, y)).
    uint64_t baseHash = 0;            ///< `hashNavMesh` of the mesh as baked or imported, before obstacles.
    nav::NavMeshSettings bakeSettings; ///< The settings of the bake (or of the imported document).
    std::string source;               ///< Where it came from: "scene2d", "polygons", "space3d" or "import".
};

/// Every mesh of the session, by name (ordered, so listings are deterministic).
struct NavState
{
    std::map<std::string, MeshEntry> meshes; ///< Meshes by name.
};

} // namespace spark::scene
