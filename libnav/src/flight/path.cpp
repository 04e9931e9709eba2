/// \file path.cpp
/// Design note — paths through a flight volume.
///
/// A* (Hart, Nilsson, Raphael 1968) over open voxels, 26-connected; step costs
/// are voxelSize·{1, √2, √3}; a diagonal step is allowed only when every voxel
/// of the 2×2(×2) block it sweeps is open, so the straight segment between the
/// two centres stays in open space. The heuristic is the exact cost on an empty
/// 26-connected grid (with the sorted axis distances d1 >= d2 >= d3:
/// √3·d3 + √2·(d2 − d3) + (d1 − d2)), admissible and consistent, so each voxel
/// closes once. Ties in the open list go by (f, voxel index): a total order, so
/// the path never depends on heap internals. When the goal is unreachable the
/// path leads to the closed voxel with the smallest heuristic (ties: cost, then
/// index) and is marked partial.
///
/// Smoothing: from each kept point, jump to the furthest later point that a
/// raycast reaches without leaving open space (string pulling by line of sight).
///
/// The per-voxel buffers (cost, parent, a generation stamp) are allocated on
/// the first search and reused, so later searches allocate only for the result.
#include "flight_internal.h"

#include <algorithm>
#include <cmath>

namespace spark::nav
{
namespace
{

constexpr double kSqrt2 = 1.41421356237309504880;
constexpr double kSqrt3 = 1.73205080756887729353;

double heuristic(const glm::ivec3& a, const glm::ivec3& b)
{
    int d[3] = {std::abs(a.x - b.x), std::abs(a.y - b.y), std::abs(a.z - b.z)};
    std::sort(d, d + 3);
    return kSqrt3 * d[0] + kSqrt2 * (d[1] - d[0]) + (d[2] - d[1]);
}

bool heapBefore(const FlightVolume::Impl::HeapEntry& a, const FlightVolume::Impl::HeapEntry& b)
{
    // std::push_heap keeps the largest on top: "largest" = smallest (f, index).
    if (a.f != b.f)
        return a.f > b.f;
    return a.index > b.index;
}

} // namespace

Result<FlightPath> FlightVolume::path(const glm::dvec3& from, const glm::dvec3& to)
{
    SPARK_TRY(checkFlightPoint(from, "/from"));
    SPARK_TRY(checkFlightPoint(to, "/to"));
    Impl& g = *m_impl;
    if (!isOpen(from))
        return makeError("E_NAV_FLIGHT_BLOCKED", "the start is not in open space", "/from");
    if (!isOpen(to))
        return makeError("E_NAV_FLIGHT_BLOCKED", "the goal is not in open space", "/to");
    const std::size_t count = g.open.size();
    if (g.cost.size() != count)
    {
        g.cost.assign(count, 0.0f);
        g.parent.assign(count, 0);
        g.stamp.assign(count, 0);
        g.generation = 0;
    }
    if (g.generation >= 0x7fffffffu)
    {
        std::fill(g.stamp.begin(), g.stamp.end(), 0u);
        g.generation = 0;
    }
    ++g.generation;
    const uint32_t seen = 2 * g.generation;
    const uint32_t closed = seen + 1;

    const glm::ivec3 start = g.voxelOf(from);
    const glm::ivec3 goal = g.voxelOf(to);
    const uint32_t startIndex = static_cast<uint32_t>(g.index(start.x, start.y, start.z));
    const uint32_t goalIndex = static_cast<uint32_t>(g.index(goal.x, goal.y, goal.z));
    auto coordOf = [&](uint32_t i) {
        const int x = static_cast<int>(i % static_cast<uint32_t>(g.dims.x));
        const uint32_t rest = i / static_cast<uint32_t>(g.dims.x);
        return glm::ivec3(x, static_cast<int>(rest % static_cast<uint32_t>(g.dims.y)),
                          static_cast<int>(rest / static_cast<uint32_t>(g.dims.y)));
    };

    g.heap.clear();
    g.cost[startIndex] = 0.0f;
    g.parent[startIndex] = startIndex;
    g.stamp[startIndex] = seen;
    g.heap.push_back({static_cast<float>(heuristic(start, goal)), startIndex});
    uint32_t best = startIndex;
    double bestH = heuristic(start, goal);
    FlightPath result;
    bool reached = false;
    while (!g.heap.empty())
    {
        std::pop_heap(g.heap.begin(), g.heap.end(), heapBefore);
        const Impl::HeapEntry top = g.heap.back();
        g.heap.pop_back();
        if (g.stamp[top.index] == closed)
            continue;
        g.stamp[top.index] = closed;
        ++result.expandedVoxels;
        const glm::ivec3 c = coordOf(top.index);
        const double h = heuristic(c, goal);
        if (h < bestH || (h == bestH && (g.cost[top.index] < g.cost[best] ||
                                         (g.cost[top.index] == g.cost[best] && top.index < best))))
        {
            bestH = h;
            best = top.index;
        }
        if (top.index == goalIndex)
        {
            reached = true;
            break;
        }
        for (int dz = -1; dz <= 1; ++dz)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx)
                {
                    if (dx == 0 && dy == 0 && dz == 0)
                        continue;
                    const int nx = c.x + dx, ny = c.y + dy, nz = c.z + dz;
                    if (!g.openAt(nx, ny, nz))
                        continue;
                    // Every voxel of the swept block must be open (no corner cutting).
                    bool clear = true;
                    for (int sz = 0; sz <= (dz != 0) && clear; ++sz)
                        for (int sy = 0; sy <= (dy != 0) && clear; ++sy)
                            for (int sx = 0; sx <= (dx != 0) && clear; ++sx)
                                clear = g.openAt(c.x + sx * dx, c.y + sy * dy, c.z + sz * dz);
                    if (!clear)
                        continue;
                    const uint32_t n = static_cast<uint32_t>(g.index(nx, ny, nz));
                    if (g.stamp[n] == closed)
                        continue;
                    const int axes = (dx != 0) + (dy != 0) + (dz != 0);
                    const double stepCost = axes == 1 ? 1.0 : (axes == 2 ? kSqrt2 : kSqrt3);
                    const float next = static_cast<float>(g.cost[top.index] + stepCost);
                    if (g.stamp[n] == seen && !(next < g.cost[n]))
                        continue;
                    g.stamp[n] = seen;
                    g.cost[n] = next;
                    g.parent[n] = top.index;
                    g.heap.push_back({static_cast<float>(next + heuristic({nx, ny, nz}, goal)), n});
                    std::push_heap(g.heap.begin(), g.heap.end(), heapBefore);
                }
    }

    // Walk back from the goal (or the nearest reached voxel).
    const uint32_t end = reached ? goalIndex : best;
    result.partial = !reached;
    g.rawPath.clear();
    for (uint32_t i = end;; i = g.parent[i])
    {
        const glm::ivec3 c = coordOf(i);
        g.rawPath.push_back(g.centreOf(c.x, c.y, c.z));
        if (i == startIndex)
            break;
    }
    std::reverse(g.rawPath.begin(), g.rawPath.end());
    if (g.rawPath.size() == 1)
        g.rawPath.push_back(g.rawPath.front()); // start and end share a voxel
    g.rawPath.front() = from;
    if (reached)
        g.rawPath.back() = to;

    // Smooth by line of sight.
    result.points.push_back(g.rawPath.front());
    std::size_t at = 0;
    while (at + 1 < g.rawPath.size())
    {
        std::size_t next = at + 1;
        for (std::size_t j = g.rawPath.size() - 1; j > at + 1; --j)
            if (!raycastGrid(g, g.rawPath[at], g.rawPath[j]).blocked)
            {
                next = j;
                break;
            }
        result.points.push_back(g.rawPath[next]);
        at = next;
    }
    return result;
}

} // namespace spark::nav
