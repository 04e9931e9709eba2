#pragma once
/// \file test_meshes.h
/// Hand-built meshes for the navmesh and query tests: axis-aligned rectangles
/// (each with its own four vertices, so links can only come from edge overlap),
/// and a greedy rectangle cover of a free/blocked grid (T-junctions everywhere),
/// independent of the 2D bake.

#include "spark/nav/navmesh.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

namespace spark::nav::test
{

/// A rectangle [x0, x1] × [z0, z1] at height y with an area id.
struct Rect
{
    float x0, z0, x1, z1;
    uint8_t area = 0;
    float y = 0.0f;
};

/// A soup of rectangles, each with its own vertices, positive winding in x–z.
inline PolySoup soupFromRects(const std::vector<Rect>& rects)
{
    PolySoup soup;
    soup.polyStarts.push_back(0);
    for (const Rect& r : rects)
    {
        const uint32_t base = static_cast<uint32_t>(soup.vertices.size());
        soup.vertices.push_back({r.x0, r.y, r.z0});
        soup.vertices.push_back({r.x1, r.y, r.z0});
        soup.vertices.push_back({r.x1, r.y, r.z1});
        soup.vertices.push_back({r.x0, r.y, r.z1});
        for (uint32_t i = 0; i < 4; ++i)
            soup.indices.push_back(base + i);
        soup.polyStarts.push_back(static_cast<uint32_t>(soup.indices.size()));
        soup.areas.push_back(r.area);
    }
    return soup;
}

/// Builds a mesh from rectangles and requires success.
inline NavMesh meshFromRects(const std::vector<Rect>& rects, bool is2d = true)
{
    NavMeshDef def = defaultNavMeshDef();
    def.is2d = is2d;
    def.settings.agentRadius = 0.0f;
    def.settings.cellSize = 1.0f;
    Result<NavMesh> mesh = buildNavMesh(soupFromRects(rects), def);
    REQUIRE(mesh.ok());
    return std::move(mesh).value();
}

/// A free/blocked grid: cell (x, y) is [x, x+1] × [y, y+1] in (x, z).
struct TestGrid
{
    int width = 0;
    int height = 0;
    std::vector<uint8_t> blocked; ///< y · width + x
    bool isFree(int x, int y) const
    {
        return x >= 0 && y >= 0 && x < width && y < height && !blocked[size_t(y) * width + x];
    }
};

/// Greedy rectangle cover of the free cells: scan order, widest run, then grow down.
inline std::vector<Rect> rectsFromGrid(const TestGrid& g)
{
    std::vector<uint8_t> used(g.blocked.size(), 0);
    std::vector<Rect> rects;
    for (int y = 0; y < g.height; ++y)
        for (int x = 0; x < g.width; ++x)
        {
            if (!g.isFree(x, y) || used[size_t(y) * g.width + x])
                continue;
            int x1 = x;
            while (x1 + 1 < g.width && g.isFree(x1 + 1, y) && !used[size_t(y) * g.width + x1 + 1])
                ++x1;
            int y1 = y;
            for (;;)
            {
                const int ny = y1 + 1;
                bool ok = ny < g.height;
                for (int k = x; ok && k <= x1; ++k)
                    ok = g.isFree(k, ny) && !used[size_t(ny) * g.width + k];
                if (!ok)
                    break;
                y1 = ny;
            }
            for (int yy = y; yy <= y1; ++yy)
                for (int xx = x; xx <= x1; ++xx)
                    used[size_t(yy) * g.width + xx] = 1;
            rects.push_back(Rect{float(x), float(y), float(x1 + 1), float(y1 + 1)});
        }
    return rects;
}

} // namespace spark::nav::test
