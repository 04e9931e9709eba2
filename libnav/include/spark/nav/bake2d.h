#pragma once
/// \file bake2d.h
/// The 2D bake: a grid of blocked/free cells (with an area id per cell) is
/// eroded by the agent radius from blocked cells and the grid border, the free
/// cells are covered by maximal rectangles, and the rectangles are re-cut into
/// convex polygons whose corners are only corners of the free space.
/// Grid cell (x, y) is the square [ox + x·s, ox + (x+1)·s] × [oy + y·s, oy + (y+1)·s];
/// the resulting mesh stores 2D point (x, y) as (x, 0, y).
///
/// Stages (one file each under src/bake2d/): `rasterizeShapes2D` (shapes → grid,
/// raster.cpp), `computeClearance2D` + `erodeGrid2D` (exact Euclidean distance
/// transform, clearance.cpp), `coverWithRectangles2D` (rectangles.cpp),
/// `meshFromRectangles2D` (mesh2d.cpp) and `bakeGrid2D` (the stage order and the polygon soup, bake2d.cpp).
///
/// Owned by the 2D-bake part; the signatures below are the contract other parts
/// (queries tests, benchmarks, the CLI) build on.

#include "spark/core/result.h"
#include "spark/nav/navmesh.h"
#include "spark/nav/poly_soup.h"

#include <glm/vec2.hpp>
#include <glm/ext/vector_int2.hpp>
#include <glm/vec3.hpp>

#include <cstdint>
#include <span>
#include <vector>

#include "spark/core/export.h"
SPARK_NAV_API_BEGIN

namespace spark::nav
{

/// Largest grid edge of a 2D bake (cells per axis); above it `E_NAV_LIMIT`.
/// Fuzz builds (libFuzzer's FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION) use a
/// smaller bound so one input stays fast; the limit path is the same.
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
inline constexpr int kMaxGrid2DCells = 512;
#else
inline constexpr int kMaxGrid2DCells = 4096;
#endif
/// Largest vertex count of one shape polygon given to `rasterizeShapes2D`.
inline constexpr int kMaxShapePolygonVertices = 1024;
/// Largest vertex count of all shape polygons of one `Shapes2D` together.
inline constexpr int kMaxShapeTotalVertices = 65536;
/// Largest number of `solidRects` plus `areas` of one `Shapes2D`.
inline constexpr int kMaxShapeRects = 65536;

/// A rasterised 2D map.
struct Grid2D
{
    int width = 0;                ///< Cells along x. [Limit: 1..4096]
    int height = 0;               ///< Cells along y. [Limit: 1..4096]
    float cellSize = 1.0f;        ///< Edge of a cell. [Limit: > 0] [Units: m]
    glm::vec2 origin{0.0f, 0.0f}; ///< World position of cell (0, 0)'s low corner. [Units: m]
    std::vector<uint8_t> blocked; ///< width × height, row-major (index = y · width + x); non-zero = blocked.
    std::vector<uint8_t> areas;   ///< width × height area ids [Limit: 0..15]; empty = all area 0.
};

/// Bakes a grid into polygons: erosion by `agentRadius` (cells whose centre is
/// nearer than the radius to a blocked cell or the border are removed), then a
/// cover of the free cells (of equal area) by maximal rectangles, re-cut into
/// convex polygons (at most kMaxBakedPolyVerts corners) whose corners are only
/// corners of the free space or of area borders (`meshFromRectangles2D`).
/// Errors: `E_NAV_CONFIG` (bad radius or cell size, size mismatch), `E_NAV_LIMIT`
/// (more than 4096 × 4096 cells), `E_NAV_NO_GEOMETRY` (nothing walkable left).
Result<PolySoup> bakeGrid2D(const Grid2D& grid, float agentRadius);

/// Counters of a 2D bake.
struct Bake2DStats
{
    uint64_t cells = 0;          ///< Grid cells (width × height).
    uint64_t blockedCells = 0;   ///< Cells blocked in the input grid.
    uint64_t erodedCells = 0;    ///< Free cells removed by the agent-radius erosion.
    uint64_t walkableCells = 0;  ///< Cells left walkable (covered by the rectangles).
    uint32_t rectangles = 0;     ///< Rectangles of the cover (before they are re-cut into the polygons).
};

/// A 2D bake with its counters and the grid's bounds.
struct Bake2DOutput
{
    PolySoup mesh;
    Bake2DStats stats;
    glm::vec3 boundsMin{0.0f}; ///< Low corner of the grid, as (x, 0, y). [Units: m]
    glm::vec3 boundsMax{0.0f}; ///< High corner of the grid, as (x, 0, y). [Units: m]
};

/// `bakeGrid2D` that also reports counters and bounds (same errors).
Result<Bake2DOutput> bakeGrid2DWithStats(const Grid2D& grid, float agentRadius);

/// Checks a grid (sizes, cell size, origin, area ids) without baking it:
/// `E_NAV_CONFIG` or `E_NAV_LIMIT` with the field (`/cell_size`, `/width`, ...).
Status validateGrid2D(const Grid2D& grid);

/// Exact squared clearance of every cell, in units of (cellSize / 2)²: for a free
/// cell, the squared Euclidean distance from its centre to the nearest point of a
/// blocked cell (a closed square) or of the grid border; 0 for blocked cells.
/// Integer-exact (Felzenszwalb–Huttenlocher lower envelopes, see clearance.cpp).
/// The grid must have passed `validateGrid2D`.
std::vector<uint32_t> computeClearance2D(const Grid2D& grid);

/// Walkable mask after erosion (1 = walkable): free cells whose clearance is at
/// least `agentRadius`. The grid must have passed `validateGrid2D`; `agentRadius`
/// must be finite and >= 0.
std::vector<uint8_t> erodeGrid2D(const Grid2D& grid, float agentRadius);

/// A rectangle of cells [x, x + width) × [y, y + height), all of one area id.
struct CellRect
{
    int x = 0;
    int y = 0;
    int width = 0;
    int height = 0;
    uint8_t area = 0;
};

/// Blocks every cell of `rects` in `io.blocked` (each rectangle within the
/// grid; those without cells are skipped), through one difference array, so
/// the cost is O(cells + rectangles) however many overlap. Areas are ignored.
void blockCellRects(Grid2D& io, std::span<const CellRect> rects);

/// Covers the cells with `walkable[i] != 0` exactly (no overlap, no gap) by
/// rectangles of equal area id (`areas` empty = all 0), in row-major order of
/// their first cell. Greedy: at the first uncovered cell it takes the larger of
/// "widest run, then grow down" and "tallest run, then grow right" (ties: widest),
/// so each rectangle is maximal among the cells still uncovered when it is made.
std::vector<CellRect> coverWithRectangles2D(int width, int height, const std::vector<uint8_t>& walkable,
                                            const std::vector<uint8_t>& areas);

/// A 2D mesh on grid corners: corner (x, y) is the point origin + (x, y) · cellSize.
struct CornerMesh2D
{
    std::vector<glm::ivec2> corners;  ///< Row-major (y, then x), each used by a polygon.
    std::vector<uint32_t> indices;    ///< Polygon corners, counter-clockwise (x toward y).
    std::vector<uint32_t> polyStarts; ///< polygonCount + 1 offsets into indices.
    std::vector<uint8_t> areas;       ///< Area id per polygon.
};

/// The cells of `rects` (a cover of `walkable`, as `coverWithRectangles2D` makes)
/// as convex polygons of at most kMaxBakedPolyVerts corners that share whole
/// edges and keep no needless corner: only corners of the walkable space (or of
/// an area border) are left, as in a constrained triangulation, whose triangles
/// are then merged (design note in mesh2d.cpp). Exact integer arithmetic; the
/// result depends only on the inputs. `maxPolyVerts` 3 leaves the constrained
/// Delaunay triangulation of those corners unmerged. Cost: about
/// O(corners · log corners). [Limit: maxPolyVerts 3..kMaxBakedPolyVerts]
CornerMesh2D meshFromRectangles2D(int width, int height, std::span<const CellRect> rects,
                                  const std::vector<uint8_t>& walkable, const std::vector<uint8_t>& areas,
                                  uint32_t maxPolyVerts = kMaxBakedPolyVerts);

/// An axis-aligned rectangle in world units.
struct Rect2D
{
    glm::vec2 min{0.0f}; ///< [Units: m]
    glm::vec2 max{0.0f}; ///< [Limit: >= min] [Units: m]
};

/// A rectangle that paints an area id.
struct AreaRect2D
{
    glm::vec2 min{0.0f}; ///< [Units: m]
    glm::vec2 max{0.0f}; ///< [Limit: >= min] [Units: m]
    uint8_t area = 0;    ///< [Limit: 0..15]
};

/// Shapes to rasterise into a `Grid2D` (the `polygons` source of `nav.bake`).
/// Rules: a cell is free when its centre is inside one of `walkable` (or, when
/// `walkable` is empty, anywhere inside the bounds); it is blocked when an
/// `obstacles` polygon or a `solidRects` rectangle overlaps its interior (a
/// conservative test: thin walls block every cell they pass through); its area
/// is that of the last `areas` rectangle containing its centre (else 0).
/// Polygons are simple (non-self-intersecting), in any winding, even-odd filled.
struct Shapes2D
{
    bool hasBounds = false;                      ///< When false the bounds are those of `walkable`.
    Rect2D bounds;                               ///< Region to rasterise. [Units: m]
    float cellSize = 0.25f;                      ///< Grid cell edge; the grid is aligned to multiples of it. [Limit: > 0] [Units: m]
    std::vector<std::vector<glm::vec2>> obstacles; ///< Blocked polygons. [Limit: 3..1024 vertices each]
    std::vector<std::vector<glm::vec2>> walkable;  ///< Walkable polygons. [Limit: 3..1024 vertices each]
    std::vector<Rect2D> solidRects;              ///< Blocked rectangles.
    std::vector<AreaRect2D> areas;               ///< Area rectangles; later ones win.
};

/// Rasterises shapes into a grid whose cells are aligned to multiples of
/// `cellSize` (the origin is the bounds' low corner rounded down to the lattice).
/// Errors: `E_NAV_CONFIG` (non-finite numbers, bad rectangles or polygons, area id
/// out of range; field like `/obstacles/2/1`), `E_NAV_LIMIT` (more than 4096 cells
/// along an axis, too many vertices or rectangles), `E_NAV_NO_GEOMETRY` (no bounds
/// and no walkable polygon).
Result<Grid2D> rasterizeShapes2D(const Shapes2D& shapes);

} // namespace spark::nav
SPARK_NAV_API_END
