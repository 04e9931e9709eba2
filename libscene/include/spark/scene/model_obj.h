#pragma once
/// \file model_obj.h
/// Wavefront OBJ models: positions and triangles only (what baking and
/// physics need). Understood: `v x y z [w]`; `f` with 3 or more corners,
/// each `i`, `i/t`, `i//n` or `i/t/n`, 1-based or negative (relative to the
/// vertices read so far); polygons are fan-triangulated from their first
/// corner. Texture coordinates, normals, groups, objects, materials, smoothing
/// groups, lines and points are read past. Anything else that is malformed is
/// `E_FORMAT` with the line number.

#include "spark/core/result.h"

#include <glm/vec3.hpp>

#include <cstdint>
#include <filesystem>
#include <string_view>
#include <vector>

#include "spark/core/export.h"
SPARK_SCENE_API_BEGIN

namespace spark::scene
{

/// Largest number of vertices or triangles an OBJ file may hold.
inline constexpr size_t kMaxObjElements = 16u * 1024u * 1024u;

/// Largest OBJ file read. [Units: bytes]
inline constexpr size_t kMaxObjFileBytes = 512u * 1024u * 1024u;

/// A triangle mesh read from an OBJ file.
struct ObjModel
{
    std::vector<glm::vec3> vertices; ///< Positions as written in the file. [Units: m]
    std::vector<uint32_t> indices;   ///< Three 0-based vertex indices per triangle, in file order.

    /// Number of triangles.
    size_t triangleCount() const { return indices.size() / 3; }
};

/// Parses OBJ text. `E_FORMAT` (message names the line) on malformed input:
/// a vertex without three finite numbers, a face with fewer than three
/// corners, a zero or out-of-range index, an unknown statement, or more than
/// `kMaxObjElements` vertices or triangles.
Result<ObjModel> parseObj(std::string_view text, std::string_view sourceName = "obj");

/// Reads and parses an OBJ file: `E_IO` when it cannot be read or is not a
/// regular file, `E_SCENE_LIMIT` past `kMaxObjFileBytes`, else as `parseObj`.
Result<ObjModel> loadObj(const std::filesystem::path& path);

} // namespace spark::scene
SPARK_SCENE_API_END
