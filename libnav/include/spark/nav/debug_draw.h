#pragma once
/// \file debug_draw.h
/// Debug pictures of a navmesh: a deterministic software rasteriser that draws
/// the mesh from above (x to the right, z down the picture — a 2D mesh's y down)
/// with integer / fixed-point scan conversion and no anti-aliasing, so equal
/// state gives equal pixels on any machine (docs/debug-draw.md).
///
/// What is drawn, bottom to top: polygons filled by area colour and shaded by
/// height, polygon edges (a darker shade), tile borders (faint grey dashes;
/// tiled meshes of more than one tile only), walls (white), obstacles (red, filled
/// with a bright outline), off-mesh links (dashed magenta, take-off dot magenta,
/// landing dot cyan), paths (yellow, corners as white dots), agents (discs with a
/// heading line). See the design note in src/debug/debug_draw.cpp.

#include "spark/core/image.h"
#include "spark/core/result.h"
#include "spark/nav/navmesh.h"

#include <glm/vec3.hpp>

#include <cstdint>
#include <vector>

#include "spark/core/export.h"
SPARK_NAV_API_BEGIN

namespace spark::nav
{

/// Smallest and largest picture edge. [Units: px]
inline constexpr int kMinDebugImageSize = 16;
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
inline constexpr int kMaxDebugImageSize = 1024; // fuzz builds: one input stays fast
#else
inline constexpr int kMaxDebugImageSize = 4096;
#endif

/// An agent to draw.
struct DebugAgent
{
    glm::vec3 position{0.0f}; ///< Centre. [Units: m]
    float radius = 0.4f;      ///< Disc radius (drawn at least 3 px). [Limit: >= 0] [Units: m]
    glm::vec3 heading{0.0f};  ///< Facing or velocity (x–z used); zero = no heading line.
};

/// An off-mesh link to draw.
struct DebugLink
{
    glm::vec3 start{0.0f}; ///< Take-off. [Units: m]
    glm::vec3 end{0.0f};   ///< Landing. [Units: m]
};

/// What to draw over the mesh.
struct DebugOverlay
{
    std::vector<std::vector<glm::vec3>> paths;     ///< Polylines (path corners). [Units: m]
    std::vector<std::vector<glm::vec3>> obstacles; ///< Footprint outlines (x–z used). [Units: m]
    std::vector<DebugAgent> agents;
    std::vector<DebugLink> links;
};

/// Picture settings.
struct DebugDrawDef
{
    int width = 512;          ///< Picture width. [Limit: 16..4096] [Units: px]
    int height = 512;         ///< Picture height. [Limit: 16..4096] [Units: px]
    int margin = 8;           ///< Empty border around the fitted bounds. [Limit: 0..width/4] [Units: px]
    bool hasBounds = false;   ///< When false the view fits the mesh bounds.
    float minX = 0.0f;        ///< View bounds, x–z. [Units: m]
    float minZ = 0.0f;        ///< [Units: m]
    float maxX = 0.0f;        ///< [Limit: > minX, extent 1e-3..1e7] [Units: m]
    float maxZ = 0.0f;        ///< [Limit: > minZ, extent 1e-3..1e7] [Units: m]
};

/// The default settings: 512 × 512, margin 8, fit to the mesh.
DebugDrawDef defaultDebugDrawDef();

/// Colours (RGBA, 0xRRGGBBAA) used by the rasteriser, for tests and legends.
inline constexpr uint32_t kDebugBackground = 0x1c1c1cffu;
inline constexpr uint32_t kDebugWall = 0xffffffffu;
inline constexpr uint32_t kDebugTileBorder = 0x8c8c8cffu;
inline constexpr uint32_t kDebugPath = 0xffd800ffu;
inline constexpr uint32_t kDebugPathCorner = 0xffffffffu;
inline constexpr uint32_t kDebugObstacleFill = 0xa01c1cffu;
inline constexpr uint32_t kDebugObstacleEdge = 0xff3030ffu;
inline constexpr uint32_t kDebugLink = 0xff30ffffu;
inline constexpr uint32_t kDebugLinkStart = 0xff30ffffu;
inline constexpr uint32_t kDebugLinkEnd = 0x30ffffffu;
inline constexpr uint32_t kDebugAgent = 0x40a0ffffu;
inline constexpr uint32_t kDebugAgentHeading = 0x000000ffu;

/// Base fill colour of an area id (0..15; shaded by height when drawn).
uint32_t debugAreaColor(uint8_t area);

/// The transform from world x–z to pixels of a picture.
struct DebugView
{
    double scale = 1.0;   ///< Pixels per metre.
    double offsetX = 0.0; ///< Pixel x of world x = minX.
    double offsetY = 0.0; ///< Pixel y of world z = minZ.
    double minX = 0.0;    ///< [Units: m]
    double minZ = 0.0;    ///< [Units: m]
};

/// The view a picture of `mesh` with `def` uses (bounds fitted, centred).
/// Errors as `drawNavMeshDebug`.
Result<DebugView> debugViewFor(const NavMesh& mesh, const DebugDrawDef& def);

/// Draws the mesh and the overlay. Errors: `E_NAV_CONFIG` (picture size, margin
/// or bounds out of their limits, non-finite overlay numbers; field `/width`,
/// `/bounds`, `/paths/i/j`...), `E_NAV_NO_GEOMETRY` (empty mesh and no bounds).
Result<Image> drawNavMeshDebug(const NavMesh& mesh, const DebugOverlay& overlay, const DebugDrawDef& def);

} // namespace spark::nav
SPARK_NAV_API_END
