#pragma once
// Random tile maps, their radius-r bakes and an 8-connected grid A* for the
// query tests (property_test.cpp, any_angle_test.cpp).

#include "spark/nav/bake2d.h"
#include "spark/nav/query.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <queue>
#include <vector>

namespace spark::nav::test
{

/// A random map: scattered rectangular obstacles on a W × H grid, optional area rectangles.
inline Grid2D randomGrid(uint64_t seed, int w, int h, int obstacles, int areaRects)
{
    Rng rng = rngFromSeed(seed, 11);
    Grid2D g;
    g.width = w;
    g.height = h;
    g.cellSize = 1.0f;
    g.blocked.assign(size_t(w) * h, 0);
    g.areas.assign(size_t(w) * h, 0);
    for (int i = 0; i < obstacles; ++i)
    {
        const int x = int(rngNextBelow(rng, w)), y = int(rngNextBelow(rng, h));
        const int rw = 1 + int(rngNextBelow(rng, 6)), rh = 1 + int(rngNextBelow(rng, 6));
        for (int yy = y; yy < std::min(h, y + rh); ++yy)
            for (int xx = x; xx < std::min(w, x + rw); ++xx)
                g.blocked[size_t(yy) * w + xx] = 1;
    }
    for (int i = 0; i < areaRects; ++i)
    {
        const int x = int(rngNextBelow(rng, w)), y = int(rngNextBelow(rng, h));
        const int rw = 2 + int(rngNextBelow(rng, 10)), rh = 2 + int(rngNextBelow(rng, 10));
        const uint8_t a = static_cast<uint8_t>(1 + rngNextBelow(rng, 3));
        for (int yy = y; yy < std::min(h, y + rh); ++yy)
            for (int xx = x; xx < std::min(w, x + rw); ++xx)
                g.areas[size_t(yy) * w + xx] = a;
    }
    return g;
}

inline NavMesh bake(const Grid2D& g, float radius)
{
    auto soup = bakeGrid2D(g, radius);
    REQUIRE(soup.ok());
    NavMeshDef def = defaultNavMeshDef();
    def.is2d = true;
    def.settings.agentRadius = radius;
    def.settings.cellSize = g.cellSize;
    def.maxPolyVerts = kMaxBakedPolyVerts;
    auto mesh = buildNavMesh(*soup, def);
    REQUIRE(mesh.ok());
    return std::move(mesh).value();
}

inline float dist2d(const glm::vec3& a, const glm::vec3& b)
{
    return std::sqrt((a.x - b.x) * (a.x - b.x) + (a.z - b.z) * (a.z - b.z));
}

/// Octile 8-connected A* on the walkable cells (no corner cutting), cell centres.
/// Returns −1 when unreachable.
inline double gridAStar(const std::vector<uint8_t>& walk, int w, int h, int sx, int sy, int gx, int gy)
{
    const double kDiag = std::sqrt(2.0);
    std::vector<double> g(walk.size(), 1e300);
    std::vector<uint8_t> closed(walk.size(), 0);
    using Item = std::pair<double, int>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
    auto hfun = [&](int x, int y) {
        const int dx = std::abs(x - gx), dy = std::abs(y - gy);
        return (kDiag - 1.0) * std::min(dx, dy) + std::max(dx, dy);
    };
    const int s = sy * w + sx, goal = gy * w + gx;
    g[s] = 0.0;
    open.push({hfun(sx, sy), s});
    auto free = [&](int x, int y) { return x >= 0 && y >= 0 && x < w && y < h && walk[size_t(y) * w + x]; };
    while (!open.empty())
    {
        const int cur = open.top().second;
        open.pop();
        if (closed[cur])
            continue;
        closed[cur] = 1;
        if (cur == goal)
            return g[cur];
        const int cx = cur % w, cy = cur / w;
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx)
            {
                if ((dx == 0 && dy == 0) || !free(cx + dx, cy + dy))
                    continue;
                if (dx != 0 && dy != 0 && (!free(cx + dx, cy) || !free(cx, cy + dy)))
                    continue;
                const int nb = (cy + dy) * w + cx + dx;
                const double ng = g[cur] + ((dx != 0 && dy != 0) ? kDiag : 1.0);
                if (ng < g[nb])
                {
                    g[nb] = ng;
                    open.push({ng + hfun(cx + dx, cy + dy), nb});
                }
            }
    }
    return -1.0;
}

} // namespace spark::nav::test
