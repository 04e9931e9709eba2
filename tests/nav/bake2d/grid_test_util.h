#pragma once
// Shared set-up for the 2D-bake tests.

#include "spark/nav/bake2d.h"

#include <cstdint>

namespace spark::nav::test
{

/// An all-free grid of w × h cells of edge `cell`.
inline Grid2D makeGrid(int w, int h, float cell = 1.0f)
{
    Grid2D g;
    g.width = w;
    g.height = h;
    g.cellSize = cell;
    g.blocked.assign(static_cast<size_t>(w) * h, 0);
    return g;
}

/// The numbers of a small linear congruential generator (the random grids).
inline uint32_t lcg(uint32_t& s)
{
    s = s * 1664525u + 1013904223u;
    return s >> 8;
}

} // namespace spark::nav::test
