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

/// A candidate merge of polygons a < b (ids: positions before any merge),
/// valid while both polygons are as they were when it was valued.
struct MergeCandidate
{
    int64_t value = 0; ///< mergeValue: length² of the shared edge.
    int32_t a = 0, b = 0;
    int32_t ea = 0, eb = 0;
    uint32_t versionA = 0, versionB = 0;
};

/// Heap order: the greatest value on top; of equal values the first pair
/// (a, then b), which is the pair the scan over positions would pick first.
struct CandidateOrder
{
    bool operator()(const MergeCandidate& x, const MergeCandidate& y) const
    {
        if (x.value != y.value)
            return x.value < y.value;
        if (x.a != y.a)
            return x.a > y.a;
        return x.b > y.b;
    }
};

/// Reused scratch of the polygon stage.
struct Scratch
{
    std::vector<Point> pts;
    std::vector<int32_t> ring; ///< Remaining outline vertices (indices into pts).
    std::vector<uint8_t> ear;  ///< Ear flag per ring position.
    std::vector<Poly> polys;
    std::vector<uint8_t> counts;
    // mergePolygons:
    std::vector<std::array<int32_t, 3>> edges;      ///< (lower corner, higher corner, polygon) per polygon edge.
    std::vector<std::vector<int32_t>> neighbours;   ///< Per polygon id: the polygons sharing an edge with it.
    std::vector<uint32_t> versions;                 ///< Per polygon id: merges it has taken in.
    std::vector<uint8_t> alive;                     ///< Per polygon id: not merged into another.
    std::vector<MergeCandidate> heap;               ///< Valued pairs (CandidateOrder).
};

/// True when ring[i]–ring[j] is a diagonal that crosses no outline edge.
bool diagonalClear(const Scratch& s, size_t i, size_t j)
{
    const size_t n = s.ring.size();
    const Point& d0 = s.pts[s.ring[i]];
    const Point& d1 = s.pts[s.ring[j]];
    for (size_t k = 0; k < n; ++k)
    {
        const size_t k1 = k + 1 == n ? 0 : k + 1;
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
    // Greedy: the mergeable pair with the longest shared edge first, the first
    // such pair in polygon order on ties. Only polygons sharing an edge can
    // merge, and a merge changes only the pairs of the merged polygon, so the
    // pairs are kept in a heap (entries of changed polygons are dropped when
    // they surface) and each polygon knows its neighbours: O(P log P) for P
    // triangles where a rescan of all pairs per merge was O(P^3) (a fuzzed
    // bake of one outline of 2,000 corners took 23-43 s). Polygons keep
    // their ids; a merged pair keeps the smaller one, as the scan kept the
    // smaller position, so the result is the same polygon for polygon.
    const size_t count = s.polys.size();
    auto& neighbours = s.neighbours;
    neighbours.assign(count, {});
    {
        // Polygons sharing an edge (either direction) are neighbours.
        auto& edges = s.edges;
        edges.clear();
        for (size_t p = 0; p < count; ++p)
            for (int k = 0; k < s.counts[p]; ++k)
            {
                const int32_t u = s.polys[p][static_cast<size_t>(k)];
                const int32_t v = s.polys[p][static_cast<size_t>((k + 1) % s.counts[p])];
                edges.push_back({std::min(u, v), std::max(u, v), static_cast<int32_t>(p)});
            }
        std::sort(edges.begin(), edges.end());
        for (size_t i = 0; i < edges.size();)
        {
            size_t j = i + 1;
            while (j < edges.size() && edges[j][0] == edges[i][0] && edges[j][1] == edges[i][1])
                ++j;
            for (size_t x = i; x < j; ++x)
                for (size_t y = x + 1; y < j; ++y)
                    if (edges[x][2] != edges[y][2])
                    {
                        neighbours[static_cast<size_t>(edges[x][2])].push_back(edges[y][2]);
                        neighbours[static_cast<size_t>(edges[y][2])].push_back(edges[x][2]);
                    }
            i = j;
        }
        for (auto& n : neighbours)
        {
            std::sort(n.begin(), n.end());
            n.erase(std::unique(n.begin(), n.end()), n.end());
        }
    }
    std::vector<uint32_t>& version = s.versions;
    version.assign(count, 0);
    std::vector<uint8_t>& alive = s.alive;
    alive.assign(count, 1);
    std::vector<MergeCandidate>& heap = s.heap;
    heap.clear();
    const auto offer = [&](int32_t x, int32_t y) {
        const int32_t a = std::min(x, y), b = std::max(x, y);
        int ea = 0, eb = 0;
        const int64_t v = mergeValue(s, static_cast<size_t>(a), static_cast<size_t>(b), maxVerts, ea, eb);
        if (v < 0)
            return;
        heap.push_back({v, a, b, ea, eb, version[static_cast<size_t>(a)], version[static_cast<size_t>(b)]});
        std::push_heap(heap.begin(), heap.end(), CandidateOrder{});
    };
    for (size_t p = 0; p < count; ++p)
        for (int32_t q : neighbours[p])
            if (q > static_cast<int32_t>(p))
                offer(static_cast<int32_t>(p), q);

    while (!heap.empty())
    {
        std::pop_heap(heap.begin(), heap.end(), CandidateOrder{});
        const MergeCandidate c = heap.back();
        heap.pop_back();
        const size_t a = static_cast<size_t>(c.a), b = static_cast<size_t>(c.b);
        if (!alive[a] || !alive[b] || version[a] != c.versionA || version[b] != c.versionB)
            continue; // a polygon of the pair changed since: its pairs were valued again
        // a from its edge's end round to its start, then b without the shared edge.
        const Poly pa = s.polys[a];
        const Poly pb = s.polys[b];
        const int na = s.counts[a], nb = s.counts[b];
        Poly merged{-1, -1, -1, -1, -1, -1};
        int m = 0;
        for (int k = 0; k < na; ++k)
            merged[m++] = pa[(c.ea + 1 + k) % na];
        for (int k = 2; k < nb; ++k)
            merged[m++] = pb[(c.eb + k) % nb];
        s.polys[a] = merged;
        s.counts[a] = static_cast<uint8_t>(m);
        alive[b] = 0;
        ++version[a];
        // a's neighbours: its own and b's; b's neighbours now border a.
        std::vector<int32_t>& around = neighbours[a];
        for (int32_t q : neighbours[b])
        {
            if (q == c.a)
                continue;
            std::vector<int32_t>& nq = neighbours[static_cast<size_t>(q)];
            nq.erase(std::remove(nq.begin(), nq.end(), c.b), nq.end());
            if (std::find(nq.begin(), nq.end(), c.a) == nq.end())
                nq.push_back(c.a);
            if (std::find(around.begin(), around.end(), q) == around.end())
                around.push_back(q);
        }
        around.erase(std::remove(around.begin(), around.end(), c.b), around.end());
        neighbours[b].clear();
        for (int32_t q : around)
            offer(c.a, q);
    }
    // Drop the merged-away polygons, keeping the order.
    size_t out = 0;
    for (size_t p = 0; p < count; ++p)
        if (alive[p])
        {
            s.polys[out] = s.polys[p];
            s.counts[out] = s.counts[p];
            ++out;
        }
    s.polys.resize(out);
    s.counts.resize(out);
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
    // A row's spans are scanned as one run; the column is looked up only at
    // the spans of fallback regions.
    for (int z = 0; z < g.depth; ++z)
    {
        const SpanRange row = rowSpans(field, z);
        for (uint32_t i = row.first; i < row.last; ++i)
        {
            const uint32_t r = field.region[i];
            if (r == 0 || !fallback[r])
                continue;
            const size_t c = columnOfSpan(field, z, i);
            const int x = static_cast<int>(static_cast<int64_t>(c) - static_cast<int64_t>(z) * g.width);
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
