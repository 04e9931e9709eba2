#pragma once
/// \file scene2d.h
/// The 2D tile scene (`.scene2d.json`, docs/scene.md): tile layers with solid tile
/// ids, and boxes. It is the input of the 2D bake (`nav.bake` with
/// `source: "scene2d"`): solid tiles and static boxes block, tile area maps give
/// the cells their area ids.
///
/// Coordinates: metres, x to the right, y down the page; tile (x, y) of a layer
/// covers [x · tileSize, (x + 1) · tileSize] × [y · tileSize, (y + 1) · tileSize],
/// and the layer's `tiles` are row-major from y = 0 (index = y · width + x).
///
/// Document:
///
///     {"version": 1, "tile_size": 1.0,
///      "layers": [{"name": "ground", "width": 8, "height": 6, "tiles": [0, 1, ...],
///                  "solid": [1], "areas": {"2": 3}}],
///      "boxes": [{"name": "crate", "position": [3.5, 2.0], "half_extents": [0.5, 0.5], "static": true}]}
///
/// `areas` (optional) maps a tile id to an area id 0..15; a later layer's mapping
/// wins over an earlier one's. `static` defaults to true; only static boxes block
/// the bake. Unknown fields are errors (`E_SCENE_FORMAT`, with the JSON pointer
/// of the field); the scene saves back what it loaded.

#include "spark/core/result.h"
#include "spark/nav/bake2d.h"

#include <glm/vec2.hpp>
#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "spark/core/export.h"
SPARK_SCENE_API_BEGIN

namespace spark::scene
{

/// Largest layer edge in tiles. [Limit]
inline constexpr int kMaxScene2DTiles = 4096;
/// Most layers of a 2D scene. [Limit]
inline constexpr int kMaxScene2DLayers = 16;
/// Most boxes of a 2D scene. [Limit]
inline constexpr int kMaxScene2DBoxes = 4096;
/// Largest tile id. [Limit]
inline constexpr int32_t kMaxScene2DTileId = 65535;
/// Largest coordinate magnitude of a box. [Units: m]
inline constexpr float kMaxScene2DCoordinate = 1.0e6f;

/// One tile layer.
struct TileLayer2D
{
    std::string name;                               ///< Unique in the scene, not empty.
    int width = 0;                                  ///< Tiles along x. [Limit: 1..4096]
    int height = 0;                                 ///< Tiles along y. [Limit: 1..4096]
    std::vector<int32_t> tiles;                     ///< width × height tile ids, row-major. [Limit: 0..65535]
    std::vector<int32_t> solid;                     ///< Tile ids that block, sorted, unique.
    std::vector<std::pair<int32_t, uint8_t>> areas; ///< Tile id → area id, sorted by tile id.
};

/// An axis-aligned box.
struct Box2D
{
    std::string name;              ///< Unique in the scene, not empty.
    glm::vec2 position{0.0f};      ///< Centre. [Units: m]
    glm::vec2 halfExtents{0.5f};   ///< Half size. [Limit: > 0] [Units: m]
    bool isStatic = true;          ///< Static boxes block the bake.
};

/// A 2D scene.
struct Scene2D
{
    float tileSize = 1.0f;            ///< Edge of a tile. [Limit: > 0, <= 1000] [Units: m]
    std::vector<TileLayer2D> layers;  ///< Drawn and rasterised in order.
    std::vector<Box2D> boxes;         ///< In insertion order.
};

/// Reads a scene document. Errors: `E_SCENE_FORMAT` (field: JSON pointer),
/// `E_SCENE_LIMIT` (sizes over the limits above).
Result<Scene2D> scene2DFromJson(const nlohmann::json& doc);
/// Parses scene text: `E_FORMAT` when it is not JSON, else as `scene2DFromJson`.
Result<Scene2D> parseScene2D(std::string_view text);
/// The scene as a document (`scene2DFromJson` of it gives the scene back).
nlohmann::json scene2DToJson(const Scene2D& scene);

/// A new scene with one layer `layerName` of width × height tiles of id 0
/// and `solid` = {1}. Errors: `E_SCENE_FORMAT`, `E_SCENE_LIMIT`.
Result<Scene2D> makeScene2D(float tileSize, int width, int height, std::string layerName = "ground");

/// Index of the layer called `name` (empty name = the first layer), or -1.
int findLayer2D(const Scene2D& scene, std::string_view name);

/// Sets the tiles of the rectangle [x, x + w) × [y, y + h) of layer `layer` to
/// `tile`. Errors: `E_SCENE_UNKNOWN` (no such layer, field `/layer`),
/// `E_SCENE_RANGE` (rectangle outside the layer, field `/x`...), `E_SCENE_FORMAT`
/// (tile id out of 0..65535, field `/tile`).
Status setTiles2D(Scene2D& scene, std::string_view layer, int x, int y, int w, int h, int32_t tile);

/// Adds a box. Errors: `E_SCENE_FORMAT` (empty name, non-finite or out-of-range
/// numbers, half extents <= 0), `E_SCENE_DUPLICATE` (name taken, field `/name`),
/// `E_SCENE_LIMIT` (too many boxes).
Status addBox2D(Scene2D& scene, const Box2D& box);

/// XXH3-64 of the scene (tile size, layers with tiles, solid and area tables,
/// boxes), canonical field by field.
uint64_t hashScene2D(const Scene2D& scene);

/// Rasterises the scene for the 2D bake on cells of tileSize / subdivisions:
/// a cell is blocked when it lies in a solid tile of any layer or a static box
/// overlaps its interior; its area is that of its tile in the last layer that
/// maps it. The grid covers [0, maxWidth · tileSize] × [0, maxHeight · tileSize].
/// Errors: `E_NAV_CONFIG` (subdivisions outside 1..64, field `/subdivisions`),
/// `E_NAV_LIMIT` (more than 4096 cells along an axis), `E_NAV_NO_GEOMETRY`
/// (no layer).
Result<nav::Grid2D> scene2DToGrid(const Scene2D& scene, int subdivisions);

} // namespace spark::scene
SPARK_SCENE_API_END
