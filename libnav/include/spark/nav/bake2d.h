#pragma once
/// \file bake2d.h
/// The 2D bake: a grid of blocked/free cells (with an area id per cell) is
/// eroded by the agent radius from blocked cells and the grid border, and the
/// free cells are covered by maximal rectangles, which become the polygons.
/// Grid cell (x, y) is the square [ox + x·s, ox + (x+1)·s] × [oy + y·s, oy + (y+1)·s];
/// the resulting mesh stores 2D point (x, y) as (x, 0, y).
///
/// Owned by the 2D-bake part; the signatures below are the contract other parts
/// (queries tests, benchmarks, the CLI) build on.

#include "spark/core/result.h"
#include "spark/nav/poly_soup.h"

#include <glm/vec2.hpp>

#include <cstdint>
#include <vector>

namespace spark::nav
{

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
/// cover of the free cells (of equal area) by maximal rectangles.
/// Errors: `E_NAV_CONFIG` (bad radius or cell size, size mismatch), `E_NAV_LIMIT`
/// (more than 4096 × 4096 cells), `E_NAV_NO_GEOMETRY` (nothing walkable left).
Result<PolySoup> bakeGrid2D(const Grid2D& grid, float agentRadius);

} // namespace spark::nav
