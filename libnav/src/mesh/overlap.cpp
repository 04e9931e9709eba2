// Overlap check of a polygon soup: two polygons of one mesh may share edges,
// never area. Imported documents are checked before linking (a document of n
// copies of one polygon would otherwise cost n² link tests and give a mesh in
// which every query is ambiguous).
//
// Broad phase: a uniform grid over the x–z bounds with cells about the mean
// polygon size, built by sorting (cell, polygon) keys, so the cost is
// O(n log n) for meshes whose polygons are about evenly sized; polygon i is
// tested against the lower-numbered polygons of its cells, and the first
// overlap found ends the check. Narrow phase: the two convex polygons are
// clipped against each other in x–z (Sutherland–Hodgman); an intersection of
// more than `kMinOverlapArea` is an overlap when, at its centroid, the two
// surfaces are within the step height of each other (3D floors stacked higher
// apart than that are separate layers, not an overlap).

#include "spark/nav/navmesh.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace spark::nav
{
namespace
{

/// Intersections smaller than this are shared edges, not overlaps. [Units: m²]
constexpr double kMinOverlapArea = 1.0e-6;
/// Most pair tests of one check (each a few hundred nanoseconds).
constexpr uint64_t kMaxOverlapTests = 50'000'000;

struct XZ
{
    double x, z;
};

double cross(const XZ& o, const XZ& a, const XZ& b)
{
    return (a.x - o.x) * (b.z - o.z) - (a.z - o.z) * (b.x - o.x);
}

/// Clips convex `subject` by convex counter-clockwise `clip` (both in x–z).
std::vector<XZ> clipConvex(std::vector<XZ> subject, const std::vector<XZ>& clip)
{
    std::vector<XZ> input;
    for (size_t e = 0; e < clip.size() && !subject.empty(); ++e)
    {
        const XZ& a = clip[e];
        const XZ& b = clip[(e + 1) % clip.size()];
        input.swap(subject);
        subject.clear();
        for (size_t i = 0; i < input.size(); ++i)
        {
            const XZ& p = input[i];
            const XZ& q = input[(i + 1) % input.size()];
            const double dp = cross(a, b, p), dq = cross(a, b, q);
            if (dp >= 0.0)
                subject.push_back(p);
            if ((dp >= 0.0) != (dq >= 0.0))
            {
                const double t = dp / (dp - dq);
                subject.push_back({p.x + (q.x - p.x) * t, p.z + (q.z - p.z) * t});
            }
        }
    }
    return subject;
}

/// Height of the plane through a polygon's first vertex with the polygon's
/// Newell normal, at (x, z); the polygon's mean height when it is vertical.
double heightOn(const PolySoup& soup, uint32_t poly, double x, double z)
{
    const uint32_t s = soup.polyStarts[poly], e = soup.polyStarts[poly + 1];
    double nx = 0, ny = 0, nz = 0, meanY = 0;
    for (uint32_t k = s; k < e; ++k)
    {
        const glm::vec3& a = soup.vertices[soup.indices[k]];
        const glm::vec3& b = soup.vertices[soup.indices[k + 1 < e ? k + 1 : s]];
        nx += (static_cast<double>(a.y) - b.y) * (static_cast<double>(a.z) + b.z);
        ny += (static_cast<double>(a.z) - b.z) * (static_cast<double>(a.x) + b.x);
        nz += (static_cast<double>(a.x) - b.x) * (static_cast<double>(a.y) + b.y);
        meanY += a.y;
    }
    meanY /= static_cast<double>(e - s);
    if (std::fabs(ny) < 1e-12)
        return meanY;
    const glm::vec3& p = soup.vertices[soup.indices[s]];
    return p.y - (nx * (x - p.x) + nz * (z - p.z)) / ny;
}

std::vector<XZ> polygonXZ(const PolySoup& soup, uint32_t poly)
{
    std::vector<XZ> out;
    for (uint32_t k = soup.polyStarts[poly]; k < soup.polyStarts[poly + 1]; ++k)
    {
        const glm::vec3& v = soup.vertices[soup.indices[k]];
        out.push_back({v.x, v.z});
    }
    return out;
}

} // namespace

Status checkPolygonOverlaps(const PolySoup& soup, const NavMeshDef& def)
{
    const uint32_t polys = static_cast<uint32_t>(soup.polygonCount());
    if (polys < 2)
        return Status::success();
    if (soup.polygonCount() > kMaxPolygons)
        return makeError("E_NAV_LIMIT", "too many polygons (limit " + std::to_string(kMaxPolygons) + ")", "/polygons");
    // Bounds per polygon and of the whole soup.
    std::vector<float> minX(polys), maxX(polys), minZ(polys), maxZ(polys);
    float gx0 = INFINITY, gz0 = INFINITY, gx1 = -INFINITY, gz1 = -INFINITY;
    double extentSum = 0.0;
    for (uint32_t p = 0; p < polys; ++p)
    {
        minX[p] = minZ[p] = INFINITY;
        maxX[p] = maxZ[p] = -INFINITY;
        for (uint32_t k = soup.polyStarts[p]; k < soup.polyStarts[p + 1]; ++k)
        {
            const glm::vec3& v = soup.vertices[soup.indices[k]];
            minX[p] = std::min(minX[p], v.x), maxX[p] = std::max(maxX[p], v.x);
            minZ[p] = std::min(minZ[p], v.z), maxZ[p] = std::max(maxZ[p], v.z);
        }
        gx0 = std::min(gx0, minX[p]), gx1 = std::max(gx1, maxX[p]);
        gz0 = std::min(gz0, minZ[p]), gz1 = std::max(gz1, maxZ[p]);
        extentSum += std::max(maxX[p] - minX[p], maxZ[p] - minZ[p]);
    }
    const double span = std::max({static_cast<double>(gx1 - gx0), static_cast<double>(gz1 - gz0), 1e-6});
    // Cells about the mean polygon size, at most 4096 per side, and coarser
    // until the polygons cover at most 8 cells each on average.
    double cell = std::max(extentSum / polys, span / 4096.0);
    auto cellOf = [&](double v, double origin) {
        return static_cast<uint32_t>(std::min(std::floor((v - origin) / cell), 4095.0));
    };
    uint64_t covered = 0;
    for (;;)
    {
        covered = 0;
        for (uint32_t p = 0; p < polys; ++p)
            covered += static_cast<uint64_t>(cellOf(maxX[p], gx0) - cellOf(minX[p], gx0) + 1) *
                       (cellOf(maxZ[p], gz0) - cellOf(minZ[p], gz0) + 1);
        if (covered <= 8ull * polys || cell >= span)
            break;
        cell *= 2.0;
    }
    // One key per (cell, polygon): the cell (z × 4096 + x, below 2^24) above
    // the polygon id (below 2^22), so sorting the keys orders by cell, then
    // polygon, in 8 bytes an entry.
    static_assert(kMaxPolygons <= (1u << 22));
    constexpr int kPolyBits = 22;
    std::vector<uint64_t> entries;
    entries.reserve(covered);
    for (uint32_t p = 0; p < polys; ++p)
    {
        const uint32_t cx0 = cellOf(minX[p], gx0), cx1 = cellOf(maxX[p], gx0);
        const uint32_t cz0 = cellOf(minZ[p], gz0), cz1 = cellOf(maxZ[p], gz0);
        for (uint32_t cz = cz0; cz <= cz1; ++cz)
            for (uint32_t cx = cx0; cx <= cx1; ++cx)
                entries.push_back((uint64_t(cz) * 4096 + cx) << kPolyBits | p);
    }
    std::sort(entries.begin(), entries.end());
    auto cellOfEntry = [](uint64_t e) { return e >> kPolyBits; };
    auto polyOfEntry = [](uint64_t e) { return static_cast<uint32_t>(e & ((1u << kPolyBits) - 1)); };
    const double stepHeight = def.is2d ? INFINITY : std::max(def.settings.stepHeight, 1.0e-3f);
    // Within each cell, test every polygon against the earlier ones of that cell.
    // Polygons crowded into one area past a fixed budget of tests are refused
    // rather than checked for minutes.
    uint64_t tests = 0;
    for (size_t start = 0; start < entries.size();)
    {
        size_t end = start;
        while (end < entries.size() && cellOfEntry(entries[end]) == cellOfEntry(entries[start]))
            ++end;
        for (size_t i = start + 1; i < end; ++i)
        {
            const uint32_t a = polyOfEntry(entries[i]);
            std::vector<XZ> pa;
            for (size_t j = start; j < i; ++j)
            {
                const uint32_t b = polyOfEntry(entries[j]);
                if (++tests > kMaxOverlapTests)
                    return makeError("E_NAV_LIMIT",
                                     "too many polygons crowd one area to check them for overlaps (polygon " +
                                         std::to_string(a) + ")",
                                     "/polygons/" + std::to_string(a), "split long thin polygons");
                if (minX[a] >= maxX[b] || minX[b] >= maxX[a] || minZ[a] >= maxZ[b] || minZ[b] >= maxZ[a])
                    continue;
                if (pa.empty())
                    pa = polygonXZ(soup, a);
                const std::vector<XZ> inter = clipConvex(pa, polygonXZ(soup, b));
                if (inter.size() < 3)
                    continue;
                double area2 = 0.0, cx = 0.0, cz = 0.0;
                for (size_t k = 0; k < inter.size(); ++k)
                {
                    const XZ& p = inter[k];
                    const XZ& q = inter[(k + 1) % inter.size()];
                    const double c = p.x * q.z - q.x * p.z;
                    area2 += c;
                    cx += (p.x + q.x) * c;
                    cz += (p.z + q.z) * c;
                }
                if (area2 * 0.5 <= kMinOverlapArea)
                    continue;
                cx /= 3.0 * area2;
                cz /= 3.0 * area2;
                if (std::fabs(heightOn(soup, a, cx, cz) - heightOn(soup, b, cx, cz)) >= stepHeight)
                    continue;
                const uint32_t first = std::min(a, b), second = std::max(a, b);
                return makeError("E_NAV_FORMAT",
                                 "polygons " + std::to_string(first) + " and " + std::to_string(second) +
                                     " overlap (a mesh's polygons may share edges, not area)",
                                 "/polygons/" + std::to_string(second),
                                 "remove the duplicate polygon or split the two along their common part");
            }
        }
        start = end;
    }
    return Status::success();
}

} // namespace spark::nav
