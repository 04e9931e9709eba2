#pragma once
// Weighted-cost oracles on a tile grid (cell 1 m at the origin, radius-0
// bake): segment costs integrated cell by cell from the grid alone, and
// Dijkstra over any node set joined pairwise by segments
// (weighted_oracle_test.cpp, bench/path_bench_weighted.cpp). See
// weighted_oracle_test.cpp for the oracles' error bounds.

#include "spark/nav/bake2d.h"
#include "spark/nav/query.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <utility>
#include <vector>

namespace spark::nav::test
{

inline constexpr double kInf = std::numeric_limits<double>::infinity();

/// A grid and the multipliers of a filter.
struct CostGrid
{
    const Grid2D& grid;
    const QueryFilter& filter;

    /// Multiplier of cell (x, z), infinity for a blocked cell or one off the grid.
    double cell(int x, int z) const
    {
        if (x < 0 || z < 0 || x >= grid.width || z >= grid.height || grid.blocked[size_t(z) * grid.width + x])
            return kInf;
        return filter.areaCosts[grid.areas[size_t(z) * grid.width + x]];
    }

    /// Σ multiplier × length over the cells segment p → q crosses (x–z); on a
    /// cell line, the cheaper side. Infinity when it crosses a blocked cell.
    double segment(double px, double pz, double qx, double qz) const
    {
        std::vector<double> ts{0.0, 1.0};
        const double dx = qx - px, dz = qz - pz;
        auto cuts = [&](double p, double d) {
            if (d == 0.0)
                return;
            const double lo = std::min(p, p + d), hi = std::max(p, p + d);
            for (double v = std::ceil(lo); v <= hi; v += 1.0)
            {
                const double t = (v - p) / d;
                if (t > 0.0 && t < 1.0)
                    ts.push_back(t);
            }
        };
        cuts(px, dx);
        cuts(pz, dz);
        std::sort(ts.begin(), ts.end());
        const double length = std::sqrt(dx * dx + dz * dz);
        double cost = 0.0;
        for (size_t i = 0; i + 1 < ts.size(); ++i)
        {
            const double t = 0.5 * (ts[i] + ts[i + 1]);
            const double mx = px + dx * t, mz = pz + dz * t;
            const double fx = std::floor(mx), fz = std::floor(mz);
            const bool onX = std::abs(mx - std::round(mx)) < 1e-9, onZ = std::abs(mz - std::round(mz)) < 1e-9;
            double c;
            if (onX && onZ)
                c = std::min({cell(int(std::round(mx)) - 1, int(std::round(mz)) - 1),
                              cell(int(std::round(mx)), int(std::round(mz)) - 1),
                              cell(int(std::round(mx)) - 1, int(std::round(mz))),
                              cell(int(std::round(mx)), int(std::round(mz)))});
            else if (onX)
                c = std::min(cell(int(std::round(mx)) - 1, int(fz)), cell(int(std::round(mx)), int(fz)));
            else if (onZ)
                c = std::min(cell(int(fx), int(std::round(mz)) - 1), cell(int(fx), int(std::round(mz))));
            else
                c = cell(int(fx), int(fz));
            if (c == kInf)
            {
                if ((ts[i + 1] - ts[i]) * length > 1e-6)
                    return kInf;
                continue;
            }
            cost += c * (ts[i + 1] - ts[i]) * length;
        }
        return cost;
    }

    /// Dijkstra over `nodes` (x, z) with every pair joined by a segment; node 0
    /// is the start, node 1 the goal.
    double dijkstra(const std::vector<std::pair<double, double>>& nodes, std::vector<size_t>* route = nullptr) const
    {
        const size_t n = nodes.size();
        std::vector<double> dist(n, kInf);
        std::vector<uint8_t> done(n, 0);
        std::vector<size_t> from(n, 0);
        using Item = std::pair<double, size_t>;
        std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
        dist[0] = 0.0;
        open.push({0.0, 0});
        while (!open.empty())
        {
            const auto [d, u] = open.top();
            open.pop();
            if (done[u])
                continue;
            done[u] = 1;
            if (u == 1)
            {
                if (route)
                    for (size_t x = 1; x != 0; x = from[x])
                        route->push_back(x);
                return d;
            }
            for (size_t v = 0; v < n; ++v)
            {
                if (done[v])
                    continue;
                const double c = segment(nodes[u].first, nodes[u].second, nodes[v].first, nodes[v].second);
                if (d + c < dist[v])
                {
                    dist[v] = d + c;
                    from[v] = u;
                    open.push({dist[v], v});
                }
            }
        }
        return kInf;
    }

    /// The fine graph's nodes (see the file comment), start and goal first.
    std::vector<std::pair<double, double>> fineNodes(const glm::vec3& a, const glm::vec3& b, int k) const
    {
        std::vector<std::pair<double, double>> nodes{{a.x, a.z}, {b.x, b.z}};
        for (int z = 0; z <= grid.height; ++z)
            for (int x = 0; x <= grid.width; ++x)
            {
                const double c[4] = {cell(x - 1, z - 1), cell(x, z - 1), cell(x - 1, z), cell(x, z)};
                if (c[0] == kInf && c[1] == kInf && c[2] == kInf && c[3] == kInf)
                    continue;
                if (!(c[0] == c[1] && c[1] == c[2] && c[2] == c[3]))
                    nodes.emplace_back(x, z);
            }
        // Unit edges between two free cells of different cost, split into k.
        for (int z = 0; z < grid.height; ++z)
            for (int x = 0; x < grid.width; ++x)
            {
                const double here = cell(x, z);
                if (here == kInf)
                    continue;
                const double right = cell(x + 1, z), up = cell(x, z + 1);
                for (int i = 1; i < k; ++i)
                {
                    if (right != kInf && right != here)
                        nodes.emplace_back(x + 1, z + double(i) / k);
                    if (up != kInf && up != here)
                        nodes.emplace_back(x + double(i) / k, z + 1);
                }
            }
        return nodes;
    }
};

} // namespace spark::nav::test
