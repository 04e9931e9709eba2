#pragma once
/// \file nav_json.h
/// JSON ⇄ navigation structs for the nav.* commands: points ([x, y] on a 2D
/// mesh, [x, y, z] on a 3D one), mesh look-up by the optional `mesh` param,
/// query filters, and the versioned navmesh document of nav.export/nav.import.

#include "surface/registry.h"

#include "spark/nav/navmesh.h"
#include "spark/nav/query.h"
#include "spark/nav/nav_world.h"

#include <string>
#include <string_view>

namespace spark::cli::navjson
{

/// A float as a JSON number that prints as the shortest decimal reading back to
/// the same float (0.1f prints "0.1", not "0.10000000149011612").
json floatJson(float v);

/// A mesh point as JSON: [x, z] as [x, y] on a 2D mesh, else [x, y, z].
json pointToJson(const glm::vec3& p, bool is2d);

/// A JSON point to a mesh point: [x, y] → (x, 0, y) on a 2D mesh, [x, y, z] on a
/// 3D one. Fails with `E_INVALID_PARAMS` at `field` on a wrong arity or a
/// non-finite coordinate.
glm::vec3 pointFromJson(const json& j, bool is2d, std::string_view field);

/// Half-extents from JSON: [x, y] (2D: x and z, vertical 1 m) or [x, y, z]; same errors.
glm::vec3 extentsFromJson(const json& j, bool is2d, std::string_view field);

/// The mesh a command addresses, as found in the session's navigation world.
struct MeshRef
{
    const std::string& name;      ///< Its name.
    nav::MeshId id;               ///< Its handle.
    const nav::WorldMesh& record; ///< Source, base hash, baked mesh.
    const nav::NavMesh& mesh;     ///< The current mesh.
    bool is2d;                    ///< Points are [x, y].
};

/// The mesh a command addresses: `params["mesh"]` when given (it must exist),
/// else the only mesh of the session's navigation world (`SessionState::world`).
/// With `params["mesh_radius"]`: the mesh baked for that agent radius among
/// those of `mesh`'s bake (`mesh` and `mesh@<radius>`, nav.bake agent_radii),
/// or among all meshes when `mesh` is left out.
/// Fails with `E_NAV_NO_MESH` (unknown name, no mesh, several meshes and no
/// name, no mesh of that radius — path `/mesh_radius`, data listing the radii
/// there are), data listing the meshes.
MeshRef requireMesh(Context& ctx, const json& params);

/// The name nav.bake gives the mesh of a further radius of `agent_radii`:
/// `name@<radius>`, the radius as the shortest decimal that reads back to it
/// ("level@0.6", "level@1").
std::string radiusMeshName(const std::string& name, float radius);

/// `area_costs` ({"1": 3.0}) and `excluded_areas` ([2, 5]) of the params as a filter.
/// Fails with `E_INVALID_PARAMS` at the bad field.
nav::QueryFilter filterFromJson(const json& params);

/// The navmesh document (format "spark.navmesh", version 1) of a mesh:
/// {format, version, dimensions, settings, vertices, polygons, areas, hash};
/// a carved mesh is written as its walkable polygons (`nav::walkableMesh`).
json meshToDocument(const nav::NavMesh& mesh);

/// Reads and validates a navmesh document. Errors: `E_NAV_FORMAT` with the JSON
/// pointer (inside the document) of the bad field; `E_NAV_LIMIT` for sizes over
/// the documented limits.
Result<nav::NavMesh> meshFromDocument(const json& doc);
/// Deepest nesting a navmesh document's text may have (as every JSON text we read).
inline constexpr size_t kMaxDocumentDepth = 256;
/// Reads the text of a navmesh document (simdjson: UTF-8 validated, nesting at
/// most kMaxDocumentDepth): `E_FORMAT` (the parser's reason as the message)
/// when it is not JSON, else as `meshFromDocument`. A valid document is
/// streamed into the mesh's soup (simdjson On-Demand: the text and its
/// structural index, no tree); any other is read as a tree for its error. The
/// text is freed once read, before the mesh is built.
Result<nav::NavMesh> meshFromDocumentText(std::string text);

/// World handles are the opaque integers of spark::handleNumber (id.h), with
/// world 0: they carry their kind, so an agent's number names no obstacle.
/// What `n` names when it is no handle of `kind` ("an agent's id", ...), for
/// the hint of an unknown-handle error; `fallback` when it carries that kind.
std::string otherKindHint(uint64_t n, uint32_t kind, const std::string& fallback);

/// A hash as the 16 hex digits of the surface.
std::string hashHex(uint64_t hash);

} // namespace spark::cli::navjson
