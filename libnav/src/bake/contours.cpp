/// \file contours.cpp
/// Stage 5 of the 3D bake: region outlines.
///
/// Design note. As in Recast's `rcBuildContours` (M. Mononen, Recast
/// Navigation, `RecastContour.cpp`), each region's outline is walked along the
/// cell edges that separate it from anything else, keeping a hand on the
/// boundary: on a boundary edge record its start corner and turn one way,
/// otherwise step into the neighbour span and turn the other way. Every corner
/// carries the region on the far side of its edge and the corner height (the
/// highest of the up to four floors round it).
///
/// Simplification keeps the corners where the far-side region changes (so
/// neighbouring regions keep common vertices), then refines every stretch with
/// Douglas–Peucker (D. Douglas, T. Peucker, 1973) to within
/// max_simplification_error cells, and halves edges longer than max_edge_len.
/// Both refinements walk a stretch from its lexicographically smaller end, so
/// two regions sharing a border choose the same points from either side. An
/// outline that collapses to two points (a region thinner than the error) gets
/// the farthest corner of both its stretches back.
/// Outlines come out with positive winding in the x–z plane; a degenerate or
/// hole-shaped outline is marked for the row-run fallback.

#include "bake_stages.h"

#include <algorithm>
#include <cstdlib>

namespace spark::nav::bake
{
namespace
{

/// A traced corner: position in cells and the far-side region of the edge it ends.
struct RawVertex
{
    int32_t x, y, z;
    uint32_t farRegion;
};

struct SimpleVertex
{
    int32_t x, y, z;
    int32_t raw; ///< Index of the raw vertex it came from.
};

/// Squared distance of point (px, pz) to segment a–b, in cells².
float distanceToSegment2(int px, int pz, int ax, int az, int bx, int bz)
{
    const float dx = static_cast<float>(bx - ax);
    const float dz = static_cast<float>(bz - az);
    float ex = static_cast<float>(px - ax);
    float ez = static_cast<float>(pz - az);
    const float len2 = dx * dx + dz * dz;
    float t = len2 > 0.0f ? (dx * ex + dz * ez) / len2 : 0.0f;
    t = std::clamp(t, 0.0f, 1.0f);
    ex -= dx * t;
    ez -= dz * t;
    return ex * ex + ez * ez;
}

/// True when b lies after a in the canonical (x, then z) order.
inline bool canonicalForward(int ax, int az, int bx, int bz)
{
    return bx > ax || (bx == ax && bz > az);
}

/// True when the stretch that ends at raw corner `end` is a wall: nothing
/// walkable beyond it, or a region of another area.
inline bool wallStretch(const std::vector<RawVertex>& raw, const std::vector<uint8_t>& regionArea, uint8_t area,
                        int end)
{
    const uint32_t far = raw[static_cast<size_t>(end)].farRegion;
    return far == 0 || regionArea[far] != area;
}

void simplifyOutline(const std::vector<RawVertex>& raw, const std::vector<uint8_t>& regionArea, uint8_t area,
                     const CellSettings& cells, std::vector<SimpleVertex>& out)
{
    const int n = static_cast<int>(raw.size());
    out.clear();
    // Keep the corners where the far side changes. Corner i ends edge i (whose
    // far side it carries) and starts edge i + 1.
    for (int i = 0; i < n; ++i)
    {
        const int next = (i + 1) % n;
        if (raw[i].farRegion != raw[next].farRegion)
            out.push_back({raw[i].x, raw[i].y, raw[i].z, i});
    }
    if (out.empty())
    {
        // One neighbour all round: start from the lowest-left and highest-right corners.
        int lo = 0, hi = 0;
        for (int i = 1; i < n; ++i)
        {
            if (raw[i].x < raw[lo].x || (raw[i].x == raw[lo].x && raw[i].z < raw[lo].z))
                lo = i;
            if (raw[i].x > raw[hi].x || (raw[i].x == raw[hi].x && raw[i].z > raw[hi].z))
                hi = i;
        }
        out.push_back({raw[lo].x, raw[lo].y, raw[lo].z, lo});
        if (hi != lo)
            out.push_back({raw[hi].x, raw[hi].y, raw[hi].z, hi});
    }

    // Douglas–Peucker on every wall stretch, always scanned from its canonical
    // start. A stretch between two regions of one area stays straight: both
    // regions keep exactly its two ends, as Recast's contours do.
    const float maxError2 = cells.maxError * cells.maxError;
    for (size_t i = 0; i < out.size();)
    {
        const size_t ii = (i + 1) % out.size();
        int ax = out[i].x, az = out[i].z, ai = out[i].raw;
        int bx = out[ii].x, bz = out[ii].z, bi = out[ii].raw;
        if (!wallStretch(raw, regionArea, area, bi))
        {
            ++i;
            continue;
        }
        int step, ci, endi;
        if (canonicalForward(ax, az, bx, bz))
        {
            step = 1;
            ci = (ai + 1) % n;
            endi = bi;
        }
        else
        {
            step = n - 1;
            ci = (bi + n - 1) % n;
            endi = ai;
            std::swap(ax, bx);
            std::swap(az, bz);
        }
        float maxD = 0.0f;
        int maxI = -1;
        for (; ci != endi; ci = (ci + step) % n)
        {
            const float d = distanceToSegment2(raw[ci].x, raw[ci].z, ax, az, bx, bz);
            if (d > maxD)
            {
                maxD = d;
                maxI = ci;
            }
        }
        if (maxI != -1 && maxD > maxError2)
            out.insert(out.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                       SimpleVertex{raw[maxI].x, raw[maxI].y, raw[maxI].z, maxI});
        else
            ++i;
    }

    // A thin region can collapse to a segment within the error: put back the
    // farthest corner of each stretch so it keeps an area.
    if (out.size() == 2)
    {
        std::vector<SimpleVertex> widened;
        for (size_t i = 0; i < 2; ++i)
        {
            const SimpleVertex& a = out[i];
            const SimpleVertex& b = out[1 - i];
            widened.push_back(a);
            float maxD = 0.0f;
            int maxI = -1;
            for (int ci = (a.raw + 1) % n; ci != b.raw; ci = (ci + 1) % n)
            {
                const float d = distanceToSegment2(raw[ci].x, raw[ci].z, a.x, a.z, b.x, b.z);
                if (d > maxD)
                {
                    maxD = d;
                    maxI = ci;
                }
            }
            if (maxI != -1)
                widened.push_back({raw[maxI].x, raw[maxI].y, raw[maxI].z, maxI});
        }
        out.swap(widened);
    }

    // Halve edges longer than the limit, at the middle raw corner counted canonically.
    if (cells.maxEdgeLen > 0)
    {
        const int64_t maxLen2 = static_cast<int64_t>(cells.maxEdgeLen) * cells.maxEdgeLen;
        for (size_t i = 0; i < out.size();)
        {
            const size_t ii = (i + 1) % out.size();
            const int ai = out[i].raw, bi = out[ii].raw;
            const int64_t dx = out[ii].x - out[i].x;
            const int64_t dz = out[ii].z - out[i].z;
            const int span = (bi - ai + n) % n;
            int mid = -1;
            if (dx * dx + dz * dz > maxLen2 && span > 1 && wallStretch(raw, regionArea, area, bi))
            {
                if (canonicalForward(out[i].x, out[i].z, out[ii].x, out[ii].z))
                    mid = (ai + span / 2) % n;
                else
                    mid = (ai + (span + 1) / 2) % n;
            }
            if (mid != -1)
                out.insert(out.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                           SimpleVertex{raw[mid].x, raw[mid].y, raw[mid].z, mid});
            else
                ++i;
        }
    }

    // Drop repeated positions.
    for (size_t i = 0; i < out.size() && out.size() > 1;)
    {
        const size_t ii = (i + 1) % out.size();
        if (out[i].x == out[ii].x && out[i].z == out[ii].z)
            out.erase(out.begin() + static_cast<std::ptrdiff_t>(ii));
        else
            ++i;
    }
}

} // namespace

int cornerHeight(const OpenField& field, int x, int z, uint32_t i, int dir)
{
    const int width = field.grid.width;
    const int turn = (dir + 1) & 3;
    int height = field.y[i];
    auto step = [&](int cx, int cz, uint32_t s, int d, int& outX, int& outZ) -> uint32_t {
        const uint32_t link = connectionOf(field, s, d);
        if (link == kNoConnection)
            return UINT32_MAX;
        outX = cx + kDirX[d];
        outZ = cz + kDirZ[d];
        return field.cellFirst[static_cast<size_t>(outX + outZ * width)] + link;
    };
    int ax, az, bx, bz, dx, dz;
    const uint32_t a = step(x, z, i, dir, ax, az);
    if (a != UINT32_MAX)
    {
        height = std::max<int>(height, field.y[a]);
        const uint32_t d = step(ax, az, a, turn, dx, dz);
        if (d != UINT32_MAX)
            height = std::max<int>(height, field.y[d]);
    }
    const uint32_t b = step(x, z, i, turn, bx, bz);
    if (b != UINT32_MAX)
    {
        height = std::max<int>(height, field.y[b]);
        const uint32_t d = step(bx, bz, b, dir, dx, dz);
        if (d != UINT32_MAX)
            height = std::max<int>(height, field.y[d]);
    }
    return height;
}

void buildContours(const OpenField& field, const CellSettings& cells, ContourSet& outSet)
{
    const Grid& g = field.grid;
    outSet.grid = g;
    outSet.contours.clear();
    const size_t n = field.spanCount();

    // Boundary edges of every span: bit d set when the far side of edge d is another region.
    std::vector<uint8_t> boundary(n, 0);
    for (int z = 0; z < g.depth; ++z)
    {
        for (uint32_t k = field.rowStart[static_cast<size_t>(z)]; k < field.rowStart[static_cast<size_t>(z) + 1]; ++k)
        {
            const auto [x, first, last] = usedColumn(field, z, k);
            for (uint32_t i = first; i < last; ++i)
            {
                if (field.region[i] == 0)
                    continue;
                uint8_t bits = 0;
                for (int dir = 0; dir < 4; ++dir)
                {
                    const uint32_t link = connectionOf(field, i, dir);
                    uint32_t far = 0;
                    if (link != kNoConnection)
                        far = field.region[field.cellFirst[static_cast<size_t>((x + kDirX[dir]) +
                                                                               (z + kDirZ[dir]) * g.width)] +
                                           link];
                    if (far != field.region[i])
                        bits = static_cast<uint8_t>(bits | (1u << dir));
                }
                boundary[i] = bits;
            }
        }
    }

    // The area of every region, to tell walls from portals.
    std::vector<uint8_t> regionArea(static_cast<size_t>(field.regionCount) + 1, kNullArea);
    for (size_t i = 0; i < n; ++i)
        if (field.region[i] != 0)
            regionArea[field.region[i]] = field.area[i];

    // Boundary edges not yet traced.
    std::vector<uint8_t> edges = boundary;
    std::vector<RawVertex> raw;
    std::vector<SimpleVertex> simple;
    const size_t maxSteps = n * 8 + 16;
    for (int z = 0; z < g.depth; ++z)
    {
        for (uint32_t k = field.rowStart[static_cast<size_t>(z)]; k < field.rowStart[static_cast<size_t>(z) + 1]; ++k)
        {
            const auto [x, first, last] = usedColumn(field, z, k);
            for (uint32_t start = first; start < last; ++start)
            {
                if (edges[start] == 0)
                    continue;
                int startDir = 0;
                while ((edges[start] & (1u << startDir)) == 0)
                    ++startDir;

                // Walk the outline with the boundary on one hand.
                raw.clear();
                int cx = x, cz = z, dir = startDir;
                uint32_t i = start;
                bool closed = false;
                for (size_t steps = 0; steps < maxSteps; ++steps)
                {
                    if ((boundary[i] & (1u << dir)) != 0)
                    {
                        if ((edges[i] & (1u << dir)) == 0)
                            break; // an edge met twice: the outline is not simple
                        int px = cx, pz = cz;
                        if (dir == 0)
                            pz += 1;
                        else if (dir == 1)
                            px += 1, pz += 1;
                        else if (dir == 2)
                            px += 1;
                        const uint32_t link = connectionOf(field, i, dir);
                        uint32_t far = 0;
                        if (link != kNoConnection)
                            far = field.region[field.cellFirst[static_cast<size_t>((cx + kDirX[dir]) +
                                                                                   (cz + kDirZ[dir]) * g.width)] +
                                               link];
                        raw.push_back({px, cornerHeight(field, cx, cz, i, dir), pz, far});
                        edges[i] = static_cast<uint8_t>(edges[i] & ~(1u << dir));
                        dir = (dir + 1) & 3;
                    }
                    else
                    {
                        const uint32_t link = connectionOf(field, i, dir);
                        cx += kDirX[dir];
                        cz += kDirZ[dir];
                        i = field.cellFirst[static_cast<size_t>(cx + cz * g.width)] + link;
                        dir = (dir + 3) & 3;
                    }
                    if (i == start && dir == startDir)
                    {
                        closed = true;
                        break;
                    }
                }

                Contour contour;
                contour.region = field.region[start];
                contour.area = field.area[start];
                if (!closed || raw.size() < 3)
                {
                    contour.needsFallback = true;
                    outSet.contours.push_back(std::move(contour));
                    continue;
                }
                simplifyOutline(raw, regionArea, field.area[start], cells, simple);
                // The walk winds negatively in x–z; store it reversed (positive).
                contour.verts.reserve(simple.size() * 3);
                for (size_t k = simple.size(); k-- > 0;)
                {
                    contour.verts.push_back(simple[k].x);
                    contour.verts.push_back(simple[k].y);
                    contour.verts.push_back(simple[k].z);
                }
                int64_t area2 = 0;
                const size_t m = simple.size();
                for (size_t k = 0, j = m - 1; k < m; j = k++)
                    area2 += static_cast<int64_t>(contour.verts[j * 3]) * contour.verts[k * 3 + 2] -
                             static_cast<int64_t>(contour.verts[k * 3]) * contour.verts[j * 3 + 2];
                if (m < 3 || area2 <= 0)
                    contour.needsFallback = true;
                outSet.contours.push_back(std::move(contour));
            }
        }
    }
}

} // namespace spark::nav::bake
