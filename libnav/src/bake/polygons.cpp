/// \file polygons.cpp
/// Stage 6 of the 3D bake: convex polygons from the region outlines.
///
/// Design note. Each outline is triangulated by ear clipping (the diagonal
/// tests of J. O'Rourke, "Computational Geometry in C", 1998, ch. 1), always
/// cutting the ear with the shortest diagonal first, which avoids slivers, as
/// Recast's `rcBuildPolyMesh` does (M. Mononen, Recast Navigation,
/// `RecastMesh.cpp`). The triangles are then merged greedily: of all pairs of
/// polygons sharing an edge whose union stays strictly convex and within
/// max_verts_per_poly vertices, the pair with the longest shared edge merges
/// first, until no pair can. All tests run on integer cell coordinates, so
/// they are exact. A region whose outline is degenerate or does not
/// triangulate is covered by one rectangle per row run of its spans instead
/// (counted in `stats.fallbackRegions`), so no walkable region is left out.
/// Vertices are shared between polygons by their exact cell position, and
/// every height is a contour corner height (the highest floor round it).

#include "bake_stages.h"
#include "outline_geometry.h"

#include <algorithm>
#include <array>

namespace spark::nav::bake
{
namespace
{

using Poly = std::array<int32_t, 6>;

using outline::between;
using outline::collinear;
using outline::cross;
using outline::Point;
using outline::segmentsIntersect;

inline bool left(const Point& a, const Point& b, const Point& c)
{
    return cross(a, b, c) > 0;
}
inline bool leftOn(const Point& a, const Point& b, const Point& c)
{
    return cross(a, b, c) >= 0;
}
inline bool samePoint(const Point& a, const Point& b)
{
    return a.x == b.x && a.z == b.z;
}

/// Reused scratch of the polygon stage.
struct Scratch
{
    std::vector<Point> pts;
    std::vector<int32_t> ring; ///< Remaining outline vertices (indices into pts).
    std::vector<uint8_t> ear;  ///< Ear flag per ring position.
    std::vector<Poly> polys;
    std::vector<uint8_t> counts;
};

/// True when ring[i]–ring[j] is a diagonal that crosses no outline edge.
bool diagonalClear(const Scratch& s, size_t i, size_t j)
{
    const size_t n = s.ring.size();
    const Point& d0 = s.pts[s.ring[i]];
    const Point& d1 = s.pts[s.ring[j]];
    for (size_t k = 0; k < n; ++k)
    {
        const size_t k1 = (k + 1) % n;
        if (k == i || k1 == i || k == j || k1 == j)
            continue;
        const Point& p0 = s.pts[s.ring[k]];
        const Point& p1 = s.pts[s.ring[k1]];
        if (samePoint(d0, p0) || samePoint(d1, p0) || samePoint(d0, p1) || samePoint(d1, p1))
            continue;
        if (segmentsIntersect(d0, d1, p0, p1))
            return false;
    }
    return true;
}

/// True when ring[j] lies inside the cone of the outline at ring[i].
bool inCone(const Scratch& s, size_t i, size_t j)
{
    const size_t n = s.ring.size();
    const Point& pi = s.pts[s.ring[i]];
    const Point& pj = s.pts[s.ring[j]];
    const Point& next = s.pts[s.ring[(i + 1) % n]];
    const Point& prev = s.pts[s.ring[(i + n - 1) % n]];
    if (leftOn(prev, pi, next))
        return left(pi, pj, prev) && left(pj, pi, next);
    return !(leftOn(pi, pj, next) && leftOn(pj, pi, prev));
}

bool isEar(const Scratch& s, size_t k)
{
    const size_t n = s.ring.size();
    const size_t prev = (k + n - 1) % n;
    const size_t next = (k + 1) % n;
    return left(s.pts[s.ring[prev]], s.pts[s.ring[k]], s.pts[s.ring[next]]) && inCone(s, prev, next) &&
           diagonalClear(s, prev, next);
}

/// Ear clipping of s.pts (positive winding). Triangles go to s.polys. False when stuck.
bool triangulate(Scratch& s)
{
    const size_t n0 = s.pts.size();
    s.ring.resize(n0);
    for (size_t i = 0; i < n0; ++i)
        s.ring[i] = static_cast<int32_t>(i);
    s.ear.resize(n0);
    for (size_t i = 0; i < n0; ++i)
        s.ear[i] = isEar(s, i) ? 1 : 0;

    while (s.ring.size() > 3)
    {
        const size_t n = s.ring.size();
        int64_t best = -1;
        size_t bestK = 0;
        for (size_t k = 0; k < n; ++k)
        {
            if (!s.ear[k])
                continue;
            const Point& a = s.pts[s.ring[(k + n - 1) % n]];
            const Point& b = s.pts[s.ring[(k + 1) % n]];
            const int64_t len = (b.x - a.x) * (b.x - a.x) + (b.z - a.z) * (b.z - a.z);
            if (best < 0 || len < best)
            {
                best = len;
                bestK = k;
            }
        }
        if (best < 0)
        {
            // Removing vertices can free ears away from the cut: look again once.
            bool any = false;
            for (size_t k = 0; k < n; ++k)
            {
                s.ear[k] = isEar(s, k) ? 1 : 0;
                any = any || s.ear[k];
            }
            if (!any)
                return false;
            continue;
        }
        const size_t prev = (bestK + n - 1) % n;
        const size_t next = (bestK + 1) % n;
        s.polys.push_back({s.ring[prev], s.ring[bestK], s.ring[next], -1, -1, -1});
        s.counts.push_back(3);
        s.ring.erase(s.ring.begin() + static_cast<std::ptrdiff_t>(bestK));
        s.ear.erase(s.ear.begin() + static_cast<std::ptrdiff_t>(bestK));
        const size_t m = s.ring.size();
        const size_t p = bestK == 0 ? m - 1 : bestK - 1; // the former prev
        const size_t q = bestK % m;                      // the former next
        if (m > 3)
        {
            s.ear[p] = isEar(s, p) ? 1 : 0;
            s.ear[q] = isEar(s, q) ? 1 : 0;
        }
    }
    if (!left(s.pts[s.ring[0]], s.pts[s.ring[1]], s.pts[s.ring[2]]))
        return false;
    s.polys.push_back({s.ring[0], s.ring[1], s.ring[2], -1, -1, -1});
    s.counts.push_back(3);
    return true;
}

/// Length² of the shared edge of a and b if their union is convex and small enough, else -1.
int64_t mergeValue(const Scratch& s, size_t a, size_t b, int maxVerts, int& outEa, int& outEb)
{
    const int na = s.counts[a], nb = s.counts[b];
    if (na + nb - 2 > maxVerts)
        return -1;
    const Poly& pa = s.polys[a];
    const Poly& pb = s.polys[b];
    for (int ea = 0; ea < na; ++ea)
    {
        const int32_t va0 = pa[ea], va1 = pa[(ea + 1) % na];
        for (int eb = 0; eb < nb; ++eb)
        {
            if (pb[eb] != va1 || pb[(eb + 1) % nb] != va0)
                continue;
            // Both junctions must turn strictly left.
            const Point& j0prev = s.pts[pa[(ea + na - 1) % na]];
            const Point& j0 = s.pts[va0];
            const Point& j0next = s.pts[pb[(eb + 2) % nb]];
            const Point& j1prev = s.pts[pb[(eb + nb - 1) % nb]];
            const Point& j1 = s.pts[va1];
            const Point& j1next = s.pts[pa[(ea + 2) % na]];
            if (!left(j0prev, j0, j0next) || !left(j1prev, j1, j1next))
                return -1;
            outEa = ea;
            outEb = eb;
            const int64_t dx = s.pts[va1].x - s.pts[va0].x, dz = s.pts[va1].z - s.pts[va0].z;
            return dx * dx + dz * dz;
        }
    }
    return -1;
}

void mergePolygons(Scratch& s, int maxVerts)
{
    if (maxVerts <= 3)
        return;
    for (;;)
    {
        int64_t best = -1;
        size_t bestA = 0, bestB = 0;
        int bestEa = 0, bestEb = 0;
        const size_t count = s.polys.size();
        for (size_t a = 0; a + 1 < count; ++a)
        {
            for (size_t b = a + 1; b < count; ++b)
            {
                int ea = 0, eb = 0;
                const int64_t v = mergeValue(s, a, b, maxVerts, ea, eb);
                if (v > best)
                {
                    best = v;
                    bestA = a;
                    bestB = b;
                    bestEa = ea;
                    bestEb = eb;
                }
            }
        }
        if (best < 0)
            return;
        // a from its edge's end round to its start, then b without the shared edge.
        const Poly pa = s.polys[bestA];
        const Poly pb = s.polys[bestB];
        const int na = s.counts[bestA], nb = s.counts[bestB];
        Poly merged{-1, -1, -1, -1, -1, -1};
        int m = 0;
        for (int k = 0; k < na; ++k)
            merged[m++] = pa[(bestEa + 1 + k) % na];
        for (int k = 2; k < nb; ++k)
            merged[m++] = pb[(bestEb + k) % nb];
        s.polys[bestA] = merged;
        s.counts[bestA] = static_cast<uint8_t>(m);
        s.polys.erase(s.polys.begin() + static_cast<std::ptrdiff_t>(bestB));
        s.counts.erase(s.counts.begin() + static_cast<std::ptrdiff_t>(bestB));
    }
}

/// Vertex welding by exact cell position (a chained hash; lookups only).
struct VertexWelder
{
    std::vector<int32_t> buckets;
    std::vector<int32_t> chain;
    std::vector<std::array<int32_t, 3>> cells;

    void reset(size_t expected)
    {
        size_t size = 64;
        while (size < expected * 2)
            size *= 2;
        buckets.assign(size, -1);
        chain.clear();
        cells.clear();
    }
    uint32_t add(int32_t x, int32_t y, int32_t z, const Grid& g, PolySoup& mesh)
    {
        const uint32_t h = (static_cast<uint32_t>(x) * 73856093u) ^ (static_cast<uint32_t>(y) * 19349663u) ^
                           (static_cast<uint32_t>(z) * 83492791u);
        const size_t b = h & (buckets.size() - 1);
        for (int32_t v = buckets[b]; v != -1; v = chain[static_cast<size_t>(v)])
        {
            const auto& c = cells[static_cast<size_t>(v)];
            if (c[0] == x && c[1] == y && c[2] == z)
                return static_cast<uint32_t>(v);
        }
        const int32_t id = static_cast<int32_t>(cells.size());
        cells.push_back({x, y, z});
        chain.push_back(buckets[b]);
        buckets[b] = id;
        if (g.onLattice)
            mesh.vertices.push_back(glm::vec3(
                static_cast<float>(static_cast<double>(g.latticeX + x) * static_cast<double>(g.cellSize)),
                static_cast<float>(static_cast<double>(g.latticeY + y) * static_cast<double>(g.cellHeight)),
                static_cast<float>(static_cast<double>(g.latticeZ + z) * static_cast<double>(g.cellSize))));
        else
            mesh.vertices.push_back(glm::vec3(g.origin.x + static_cast<float>(x) * g.cellSize,
                                              g.origin.y + static_cast<float>(y) * g.cellHeight,
                                              g.origin.z + static_cast<float>(z) * g.cellSize));
        if (cells.size() * 2 > buckets.size())
            rehash();
        return static_cast<uint32_t>(id);
    }
    void rehash()
    {
        buckets.assign(buckets.size() * 2, -1);
        for (size_t v = 0; v < cells.size(); ++v)
        {
            const auto& c = cells[v];
            const uint32_t h = (static_cast<uint32_t>(c[0]) * 73856093u) ^
                               (static_cast<uint32_t>(c[1]) * 19349663u) ^
                               (static_cast<uint32_t>(c[2]) * 83492791u);
            const size_t b = h & (buckets.size() - 1);
            chain[v] = buckets[b];
            buckets[b] = static_cast<int32_t>(v);
        }
    }
};

void emitPolygon(PolySoup& mesh, const uint32_t* ids, int count, uint8_t area)
{
    for (int k = 0; k < count; ++k)
        mesh.indices.push_back(ids[k]);
    mesh.polyStarts.push_back(static_cast<uint32_t>(mesh.indices.size()));
    mesh.areas.push_back(area);
}

/// Covers the fallback regions with one rectangle per row run of their spans.
void emitRowRuns(const OpenField& field, const std::vector<uint8_t>& fallback, VertexWelder& welder,
                 PolySoup& mesh)
{
    const Grid& g = field.grid;
    for (int z = 0; z < g.depth; ++z)
    {
        for (int x = 0; x < g.width; ++x)
        {
            const size_t c = static_cast<size_t>(x + z * g.width);
            const uint32_t first = field.cellFirst[c];
            const uint32_t last = field.cellFirst[c + 1];
            for (uint32_t i = first; i < last; ++i)
            {
                const uint32_t r = field.region[i];
                if (r == 0 || !fallback[r])
                    continue;
                // Start a run only where the -x neighbour does not continue it.
                const uint32_t back = connectionOf(field, i, 0);
                if (back != kNoConnection && field.region[field.cellFirst[c - 1] + back] == r)
                    continue;
                int endX = x;
                uint32_t end = i;
                for (;;)
                {
                    const uint32_t fwd = connectionOf(field, end, 2);
                    if (fwd == kNoConnection)
                        break;
                    const uint32_t nxt = field.cellFirst[static_cast<size_t>(endX + 1 + z * g.width)] + fwd;
                    if (field.region[nxt] != r)
                        break;
                    end = nxt;
                    ++endX;
                }
                uint32_t ids[4];
                ids[0] = welder.add(x, cornerHeight(field, x, z, i, 3), z, g, mesh);
                ids[1] = welder.add(endX + 1, cornerHeight(field, endX, z, end, 2), z, g, mesh);
                ids[2] = welder.add(endX + 1, cornerHeight(field, endX, z, end, 1), z + 1, g, mesh);
                ids[3] = welder.add(x, cornerHeight(field, x, z, i, 0), z + 1, g, mesh);
                emitPolygon(mesh, ids, 4, static_cast<uint8_t>((field.area[i] & kAreaMask) - 1));
            }
        }
    }
}

} // namespace

uint32_t buildPolygons(const ContourSet& set, const OpenField& field, const CellSettings& cells,
                       PolySoup& outMesh)
{
    outMesh.vertices.clear();
    outMesh.indices.clear();
    outMesh.areas.clear();
    outMesh.polyStarts.assign(1, 0);

    // A region takes the fallback when any of its outlines is unusable or it has several.
    std::vector<uint8_t> fallback(static_cast<size_t>(field.regionCount) + 1, 0);
    std::vector<uint32_t> outlines(static_cast<size_t>(field.regionCount) + 1, 0);
    size_t expected = 0;
    for (const Contour& c : set.contours)
    {
        ++outlines[c.region];
        if (c.needsFallback)
            fallback[c.region] = 1;
        expected += c.verts.size() / 3;
    }
    for (size_t r = 1; r < outlines.size(); ++r)
        if (outlines[r] != 1)
            fallback[r] = 1;

    VertexWelder welder;
    welder.reset(expected + 16);
    Scratch s;
    std::vector<uint32_t> ids;
    for (const Contour& c : set.contours)
    {
        if (fallback[c.region])
            continue;
        const size_t n = c.verts.size() / 3;
        s.pts.resize(n);
        for (size_t k = 0; k < n; ++k)
            s.pts[k] = Point{c.verts[k * 3], c.verts[k * 3 + 2]};
        s.polys.clear();
        s.counts.clear();
        if (!triangulate(s))
        {
            fallback[c.region] = 1;
            continue;
        }
        mergePolygons(s, cells.maxVertsPerPoly);

        ids.resize(n);
        for (size_t k = 0; k < n; ++k)
            ids[k] = welder.add(c.verts[k * 3], c.verts[k * 3 + 1], c.verts[k * 3 + 2], set.grid, outMesh);
        const uint8_t area = static_cast<uint8_t>((c.area & kAreaMask) - 1);
        for (size_t p = 0; p < s.polys.size(); ++p)
        {
            uint32_t poly[6];
            for (int k = 0; k < s.counts[p]; ++k)
                poly[k] = ids[static_cast<size_t>(s.polys[p][static_cast<size_t>(k)])];
            emitPolygon(outMesh, poly, s.counts[p], area);
        }
    }

    uint32_t fallbackRegions = 0;
    for (size_t r = 1; r < fallback.size(); ++r)
        fallbackRegions += fallback[r];
    if (fallbackRegions > 0)
        emitRowRuns(field, fallback, welder, outMesh);
    return fallbackRegions;
}

} // namespace spark::nav::bake
