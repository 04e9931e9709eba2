/// \file bake2d.cpp
/// Design note — the 2D bake's stage order.
///
/// validate → erode (exact Euclidean clearance, clearance.cpp) → cover the
/// walkable cells by rectangles of one area id each (rectangles.cpp) → re-cut
/// the rectangles into convex polygons whose corners are only corners of the
/// free space or of area borders (mesh2d.cpp) → polygon soup. Vertices are grid
/// corners in row-major order, so the soup depends only on the grid. Each
/// polygon runs counter-clockwise in the x–y plane, stored as (x, 0, y): a
/// positive winding in the x–z plane (x · z' − x' · z summed is > 0), the
/// PolySoup convention; neighbours share whole edges. This is the 2D counterpart
/// of the Recast pipeline (M. Mononen, Recast Navigation) with the region and
/// contour stages replaced by the rectangle cover, which is exact on a grid.

#include "spark/nav/bake2d.h"

#include "spark/core/work.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace spark::nav
{

Status validateGrid2D(const Grid2D& grid)
{
    if (!std::isfinite(grid.cellSize) || !(grid.cellSize > 0.0f))
        return makeError("E_NAV_CONFIG", "The cell size must be a finite number > 0.", "/cell_size");
    if (!std::isfinite(grid.origin.x) || !std::isfinite(grid.origin.y))
        return makeError("E_NAV_CONFIG", "The grid origin must be finite.", "/origin");
    if (grid.width < 1 || grid.height < 1)
        return makeError("E_NAV_CONFIG", "The grid must have at least one cell along each axis.",
                         grid.width < 1 ? "/width" : "/height");
    if (grid.width > kMaxGrid2DCells || grid.height > kMaxGrid2DCells)
        return makeError("E_NAV_LIMIT",
                         "The grid is " + std::to_string(grid.width) + " x " + std::to_string(grid.height) +
                             " cells; at most " + std::to_string(kMaxGrid2DCells) + " per axis are allowed.",
                         grid.width > kMaxGrid2DCells ? "/width" : "/height",
                         "Use a larger cell size or a smaller map.");
    const size_t cells = static_cast<size_t>(grid.width) * static_cast<size_t>(grid.height);
    if (grid.blocked.size() != cells)
        return makeError("E_NAV_CONFIG", "The blocked mask has " + std::to_string(grid.blocked.size()) +
                                             " entries; width x height = " + std::to_string(cells) + ".",
                         "/blocked");
    if (!grid.areas.empty())
    {
        if (grid.areas.size() != cells)
            return makeError("E_NAV_CONFIG", "The area ids have " + std::to_string(grid.areas.size()) +
                                                 " entries; width x height = " + std::to_string(cells) + ".",
                             "/areas");
        for (size_t i = 0; i < cells; ++i)
            if (grid.areas[i] > 15)
                return makeError("E_NAV_CONFIG", "Area ids are 0..15.", "/areas/" + std::to_string(i));
    }
    const double farX = static_cast<double>(grid.origin.x) + static_cast<double>(grid.width) * grid.cellSize;
    const double farY = static_cast<double>(grid.origin.y) + static_cast<double>(grid.height) * grid.cellSize;
    if (!std::isfinite(static_cast<float>(farX)) || !std::isfinite(static_cast<float>(farY)))
        return makeError("E_NAV_CONFIG", "The grid extends beyond the float range.", "/cell_size");
    return Status::success();
}

Result<Bake2DOutput> bakeGrid2DWithStats(const Grid2D& grid, float agentRadius)
{
    if (!std::isfinite(agentRadius) || agentRadius < 0.0f)
        return makeError("E_NAV_CONFIG", "The agent radius must be a finite number >= 0.", "/agent_radius");
    SPARK_TRY(validateGrid2D(grid));

    const int w = grid.width;
    const int h = grid.height;
    // Safe points (spark/core/work.h): a stopped bake returns nothing.
    if (!workCheckpoint("bake2d: erode", 0, 3))
        return cancelledError("bake2d: erode");
    const std::vector<uint8_t> walkable = erodeGrid2D(grid, agentRadius);

    Bake2DOutput out;
    out.stats.cells = static_cast<uint64_t>(w) * static_cast<uint64_t>(h);
    for (size_t i = 0; i < walkable.size(); ++i)
    {
        if (grid.blocked[i] != 0)
            ++out.stats.blockedCells;
        else if (walkable[i] == 0)
            ++out.stats.erodedCells;
        else
            ++out.stats.walkableCells;
    }
    if (out.stats.walkableCells == 0)
        return makeError("E_NAV_NO_GEOMETRY",
                         out.stats.blockedCells == out.stats.cells
                             ? "Every cell of the grid is blocked: nothing to walk on."
                             : "No cell keeps a clearance of the agent radius: nothing to walk on.",
                         "", "Use a smaller agent_radius or a finer cell size.");

    if (!workCheckpoint("bake2d: rectangles", 1, 3))
        return cancelledError("bake2d: rectangles");
    const std::vector<CellRect> rects = coverWithRectangles2D(w, h, walkable, grid.areas);
    if (!workCheckpoint("bake2d: polygons", 2, 3))
        return cancelledError("bake2d: polygons");
    out.stats.rectangles = static_cast<uint32_t>(rects.size());

    const CornerMesh2D corners = meshFromRectangles2D(w, h, rects, walkable, grid.areas);
    PolySoup& soup = out.mesh;
    soup.vertices.reserve(corners.corners.size());
    for (const glm::ivec2& c : corners.corners)
        soup.vertices.emplace_back(grid.origin.x + static_cast<float>(c.x) * grid.cellSize, 0.0f,
                                   grid.origin.y + static_cast<float>(c.y) * grid.cellSize);
    soup.indices = corners.indices;
    soup.polyStarts = corners.polyStarts;
    soup.areas = corners.areas;

    out.boundsMin = glm::vec3(grid.origin.x, 0.0f, grid.origin.y);
    out.boundsMax = glm::vec3(grid.origin.x + static_cast<float>(w) * grid.cellSize, 0.0f,
                              grid.origin.y + static_cast<float>(h) * grid.cellSize);
    return out;
}

Result<PolySoup> bakeGrid2D(const Grid2D& grid, float agentRadius)
{
    auto out = bakeGrid2DWithStats(grid, agentRadius);
    if (!out.ok())
        return out.error();
    return std::move(out.value().mesh);
}

} // namespace spark::nav
