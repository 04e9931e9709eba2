#pragma once
// An exact oracle for shortest paths on tile maps (any_angle_test.cpp,
// any_angle_exact_test.cpp): the free region is the union of the free cells;
// Dijkstra over the visibility graph of the convex obstacle corners, decided
// from the cells alone (no navmesh).

#include "spark/nav/bake2d.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace spark::nav::test
{

struct Pt
{
    double x = 0.0, z = 0.0;
};

/// A tile map seen as a closed free region: the union of its free cells.
struct Oracle
{
    int w = 0, h = 0;
    std::vector<uint8_t> blocked;

    bool free(int x, int z) const { return x >= 0 && z >= 0 && x < w && z < h && !blocked[size_t(z) * w + x]; }

    /// True when segment a–b lies in the closed free region: every piece
    /// between grid-line crossings lies in a free cell, or runs along a grid
    /// line with a free cell on at least one side. (Maps have no pinch, two
    /// free cells meeting only at a corner, so passing a grid vertex is safe.)
    bool visible(const Pt& a, const Pt& b) const
    {
        if (a.x == b.x && a.z == b.z)
            return true; // (a point of the free region: the query's own snapping put it there)
        std::vector<double> ts{0.0, 1.0};
        const double dx = b.x - a.x, dz = b.z - a.z;
        if (dx != 0.0)
            for (int k = int(std::ceil(std::min(a.x, b.x))); k <= int(std::floor(std::max(a.x, b.x))); ++k)
                ts.push_back((k - a.x) / dx);
        if (dz != 0.0)
            for (int k = int(std::ceil(std::min(a.z, b.z))); k <= int(std::floor(std::max(a.z, b.z))); ++k)
                ts.push_back((k - a.z) / dz);
        std::sort(ts.begin(), ts.end());
        for (size_t i = 1; i < ts.size(); ++i)
        {
            const double t0 = std::clamp(ts[i - 1], 0.0, 1.0), t1 = std::clamp(ts[i], 0.0, 1.0);
            if (t1 - t0 < 1e-12)
                continue;
            const double t = 0.5 * (t0 + t1);
            const double mx = a.x + dx * t, mz = a.z + dz * t;
            const bool onX = dx == 0.0 && mx == std::floor(mx);
            const bool onZ = dz == 0.0 && mz == std::floor(mz);
            const int cx = int(std::floor(mx)), cz = int(std::floor(mz));
            if (onX && onZ)
                return false; // a zero-length piece would have been skipped
            if (onX)
            {
                if (!free(cx - 1, cz) && !free(cx, cz))
                    return false;
            }
            else if (onZ)
            {
                if (!free(cx, cz - 1) && !free(cx, cz))
                    return false;
            }
            else if (!free(cx, cz))
                return false;
        }
        return true;
    }

    /// True when p is a grid vertex with exactly one blocked cell around it:
    /// a convex obstacle corner, the only place a shortest path may turn.
    bool corner(const Pt& p) const
    {
        if (p.x != std::floor(p.x) || p.z != std::floor(p.z))
            return false;
        const int x = int(p.x), z = int(p.z);
        return !free(x - 1, z - 1) + !free(x, z - 1) + !free(x - 1, z) + !free(x, z) == 1;
    }

    /// Shortest path length from a to b (Dijkstra over the visibility graph
    /// of a, b and the convex obstacle corners), or −1 when unreachable.
    double shortest(const Pt& a, const Pt& b) const
    {
        if (a.x == b.x && a.z == b.z)
            return 0.0;
        std::vector<Pt> nodes{a, b};
        for (int z = 0; z <= h; ++z)
            for (int x = 0; x <= w; ++x)
            {
                const int blockedAround = !free(x - 1, z - 1) + !free(x, z - 1) + !free(x - 1, z) + !free(x, z);
                if (blockedAround == 1)
                    nodes.push_back(Pt{double(x), double(z)});
            }
        const size_t n = nodes.size();
        std::vector<double> dist(n, 1e300);
        std::vector<uint8_t> done(n, 0);
        dist[0] = 0.0;
        for (;;)
        {
            size_t u = n;
            for (size_t i = 0; i < n; ++i)
                if (!done[i] && dist[i] < 1e299 && (u == n || dist[i] < dist[u]))
                    u = i;
            if (u == n)
                return -1.0;
            if (u == 1)
                return dist[1];
            done[u] = 1;
            for (size_t v = 0; v < n; ++v)
            {
                if (done[v])
                    continue;
                const double d = std::hypot(nodes[v].x - nodes[u].x, nodes[v].z - nodes[u].z);
                if (dist[u] + d < dist[v] && visible(nodes[u], nodes[v]))
                    dist[v] = dist[u] + d;
            }
        }
    }
};

/// Blocks one cell of every pinch (two free cells meeting only at a corner)
/// until none is left: the navmesh does not pass such a corner, the oracle
/// would.
inline void removePinches(Grid2D& g)
{
    auto blocked = [&](int x, int z) { return g.blocked[size_t(z) * g.width + x] != 0; };
    for (bool changed = true; changed;)
    {
        changed = false;
        for (int z = 0; z + 1 < g.height; ++z)
            for (int x = 0; x + 1 < g.width; ++x)
            {
                const bool a = blocked(x, z), b = blocked(x + 1, z), c = blocked(x, z + 1), d = blocked(x + 1, z + 1);
                if ((a && d && !b && !c) || (b && c && !a && !d))
                {
                    g.blocked[size_t(z) * g.width + x + (a ? 1 : 0)] = 1;
                    changed = true;
                }
            }
    }
}

} // namespace spark::nav::test
