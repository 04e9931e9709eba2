/// \file mesh2d.cpp
/// Design note — from the rectangle cover to polygons without needless vertices.
///
/// The cover's rectangles have corners in open space and on straight walls
/// where no shortest path turns; an any-angle search may still try each. So:
///  1. Conforming triangles: every rectangle, with the corners of its
///     neighbours that lie on its sides (T-junctions), is cut into triangles by
///     ear clipping, so neighbouring triangles share whole edges.
///  2. Vertex removal: a grid corner whose four cells are walkable with one
///     area id (open space), or two side by side walkable with one area id and
///     the other two blocked (a straight wall), is needless. In row-major order
///     each one is removed: its triangles are deleted and the hole (the ring of
///     its neighbours, closed along the wall for a wall corner) is ear-clipped
///     again (the ear with the shortest diagonal first, as Recast's
///     `removeVertex` does). What is left are the corners of the free space
///     (convex, reflex, pinch points) and the corners of area borders.
///  3. Delaunay flips (C. L. Lawson, 1977) of edges that are not walls or area
///     borders, so the triangles are as fat as the kept vertices allow.
///  4. Greedy merging into convex polygons of at most kMaxBakedPolyVerts
///     vertices: edges in order of decreasing length (ties: vertex ids), the two
///     polygons of an edge merge when the union stays strictly convex. No
///     straight angles: a start on one half of such a split edge sees the
///     other half edge-on, which let a path cut a corner (property_test.cpp),
///     and at area borders the weighted search's corridor costs disagreed
///     with a re-costing of the same corridor.
/// Every test runs on integer grid corners (int64), so the result is
/// exact and depends only on the grid; no hash map is involved. Polygons come out
/// in order of their lowest triangle id, each starting at its lowest vertex.
/// The walkable area is exactly the cover's; edges are shared whole.

#include "spark/nav/bake2d.h"
#include "spark/nav/navmesh.h"

#include <algorithm>
#include <array>
#include <cassert>

namespace spark::nav
{
namespace
{

struct Pt
{
    int32_t x = 0;
    int32_t y = 0;
};

inline int64_t cross(const Pt& a, const Pt& b, const Pt& c)
{
    return static_cast<int64_t>(b.x - a.x) * (c.y - a.y) - static_cast<int64_t>(b.y - a.y) * (c.x - a.x);
}

inline int64_t dist2(const Pt& a, const Pt& b)
{
    const int64_t dx = b.x - a.x, dy = b.y - a.y;
    return dx * dx + dy * dy;
}

/// True when p is inside or on counter-clockwise triangle abc.
inline bool inClosedTriangle(const Pt& p, const Pt& a, const Pt& b, const Pt& c)
{
    return cross(a, b, p) >= 0 && cross(b, c, p) >= 0 && cross(c, a, p) >= 0;
}

/// True when d is strictly inside the circumcircle of counter-clockwise abc.
/// Exact in int64: differences are at most kMaxGrid2DCells + 1 = 4097, so each
/// of the three products is below 2 · 4097² · 2 · 4097² ≈ 1.2e15.
bool inCircumcircle(const Pt& a, const Pt& b, const Pt& c, const Pt& d)
{
    static_assert(kMaxGrid2DCells <= 4096, "the int64 bound below assumes grid edges of at most 4096 cells");
    const int64_t ax = a.x - d.x, ay = a.y - d.y, bx = b.x - d.x, by = b.y - d.y, cx = c.x - d.x, cy = c.y - d.y;
    const int64_t det = (ax * ax + ay * ay) * (bx * cy - cx * by) - (bx * bx + by * by) * (ax * cy - cx * ay) +
                         (cx * cx + cy * cy) * (ax * by - bx * ay);
    return det > 0;
}

using Tri = std::array<uint32_t, 3>;

/// Ear clipping of the simple counter-clockwise polygon `ring` (vertex ids into
/// pts, no repeated position; collinear runs allowed). An ear is a strictly
/// convex vertex whose closed triangle holds no other ring vertex; the one with
/// the shortest diagonal goes first (ties: the first in the ring). False when no
/// ear is left (not expected on a simple polygon; the caller keeps what it had).
/// O(n²) per polygon: only the two neighbours' ear flags change per cut.
bool earClip(const std::vector<Pt>& pts, std::vector<uint32_t> ring, std::vector<Tri>& out)
{
    auto isEar = [&](size_t k)
    {
        const size_t n = ring.size();
        const uint32_t a = ring[(k + n - 1) % n], b = ring[k], c = ring[(k + 1) % n];
        if (cross(pts[a], pts[b], pts[c]) <= 0)
            return false;
        for (uint32_t v : ring)
            if (v != a && v != b && v != c && inClosedTriangle(pts[v], pts[a], pts[b], pts[c]))
                return false;
        return true;
    };
    std::vector<uint8_t> ear(ring.size());
    for (size_t k = 0; k < ring.size(); ++k)
        ear[k] = isEar(k) ? 1 : 0;
    while (ring.size() > 3)
    {
        const size_t n = ring.size();
        size_t best = n;
        int64_t bestLen = 0;
        for (size_t k = 0; k < n; ++k)
        {
            if (ear[k] == 0)
                continue;
            const int64_t len = dist2(pts[ring[(k + n - 1) % n]], pts[ring[(k + 1) % n]]);
            if (best == n || len < bestLen)
                best = k, bestLen = len;
        }
        if (best == n)
            return false;
        out.push_back({ring[(best + n - 1) % n], ring[best], ring[(best + 1) % n]});
        ring.erase(ring.begin() + static_cast<ptrdiff_t>(best));
        ear.erase(ear.begin() + static_cast<ptrdiff_t>(best));
        const size_t m = ring.size();
        const size_t before = (best + m - 1) % m, after = best % m;
        ear[before] = isEar(before) ? 1 : 0;
        ear[after] = isEar(after) ? 1 : 0;
    }
    if (cross(pts[ring[0]], pts[ring[1]], pts[ring[2]]) <= 0)
        return false;
    out.push_back({ring[0], ring[1], ring[2]});
    return true;
}

/// A triangle mesh under edit: triangles (counter-clockwise), their area ids,
/// a live flag, and the triangles round each vertex.
struct TriMesh
{
    std::vector<Pt> pts;
    std::vector<Tri> tris;
    std::vector<uint8_t> triArea;
    std::vector<uint8_t> alive;
    std::vector<std::vector<uint32_t>> round; ///< Live triangle ids per vertex.

    void add(const Tri& t, uint8_t area)
    {
        const uint32_t id = static_cast<uint32_t>(tris.size());
        tris.push_back(t);
        triArea.push_back(area);
        alive.push_back(1);
        for (uint32_t v : t)
            round[v].push_back(id);
    }
    void kill(uint32_t id)
    {
        alive[id] = 0;
        for (uint32_t v : tris[id])
        {
            auto& r = round[v];
            r.erase(std::find(r.begin(), r.end(), id));
        }
    }
    /// The live triangle holding directed edge a → b, or UINT32_MAX.
    uint32_t withEdge(uint32_t a, uint32_t b) const
    {
        for (uint32_t t : round[a])
            for (int k = 0; k < 3; ++k)
                if (tris[t][k] == a && tris[t][(k + 1) % 3] == b)
                    return t;
        return UINT32_MAX;
    }
};

/// Removes vertex v (needless by the grid) when its star re-triangulates; see the design note.
void removeVertex(TriMesh& m, uint32_t v, std::vector<Tri>& scratch)
{
    const std::vector<uint32_t> star = m.round[v];
    if (star.empty())
        return;
    // Each triangle (v, a, b) gives link edge a → b (counter-clockwise round v).
    std::vector<std::pair<uint32_t, uint32_t>> link;
    for (uint32_t t : star)
    {
        const Tri& tri = m.tris[t];
        const int k = tri[0] == v ? 0 : tri[1] == v ? 1 : 2;
        link.emplace_back(tri[(k + 1) % 3], tri[(k + 2) % 3]);
    }
    // Start at an `a` that is no `b` (the wall end), else anywhere (a closed ring).
    uint32_t start = link[0].first;
    for (const auto& edge : link)
    {
        const uint32_t a = edge.first; // not a structured binding: older clang cannot capture those
        if (std::none_of(link.begin(), link.end(), [&](const auto& e) { return e.second == a; }))
            start = a;
    }
    std::vector<uint32_t> ring{start};
    for (size_t guard = 0; guard < link.size(); ++guard)
    {
        const auto it = std::find_if(link.begin(), link.end(), [&](const auto& e) { return e.first == ring.back(); });
        if (it == link.end())
            break;
        if (it->second == start)
            break;
        ring.push_back(it->second);
    }
    const bool closed = ring.size() == link.size();
    const bool open = ring.size() == link.size() + 1;
    if (!closed && !open)
        return; // not a disk or half disk: keep v
    scratch.clear();
    if (!earClip(m.pts, ring, scratch))
        return;
    const uint8_t area = m.triArea[star[0]];
    for (uint32_t t : star)
        m.kill(t);
    for (const Tri& t : scratch)
        m.add(t, area);
}

/// Lawson flips to the constrained Delaunay triangulation of the kept edges:
/// an edge between two live triangles of one area id flips when the far vertex
/// is strictly inside the other triangle's circumcircle (the quad is then convex).
void delaunayFlips(TriMesh& m)
{
    std::vector<std::pair<uint32_t, uint32_t>> stack;
    for (uint32_t t = 0; t < m.tris.size(); ++t)
        if (m.alive[t] != 0)
            for (int k = 0; k < 3; ++k)
                if (m.tris[t][k] < m.tris[t][(k + 1) % 3])
                    stack.emplace_back(m.tris[t][k], m.tris[t][(k + 1) % 3]);
    std::reverse(stack.begin(), stack.end());
    while (!stack.empty())
    {
        const uint32_t a = stack.back().first, b = stack.back().second; // captured below: no structured binding
        stack.pop_back();
        const uint32_t t1 = m.withEdge(a, b), t2 = m.withEdge(b, a);
        if (t1 == UINT32_MAX || t2 == UINT32_MAX || m.triArea[t1] != m.triArea[t2])
            continue;
        auto third = [&](uint32_t t)
        {
            for (uint32_t v : m.tris[t])
                if (v != a && v != b)
                    return v;
            return a;
        };
        const uint32_t c = third(t1), d = third(t2);
        // t1 = (a, b, c), t2 = (b, a, d), both counter-clockwise.
        if (!inCircumcircle(m.pts[a], m.pts[b], m.pts[c], m.pts[d]))
            continue;
        if (cross(m.pts[c], m.pts[a], m.pts[d]) <= 0 || cross(m.pts[d], m.pts[b], m.pts[c]) <= 0)
            continue;
        const uint8_t area = m.triArea[t1];
        m.kill(t1);
        m.kill(t2);
        m.add({c, a, d}, area);
        m.add({d, b, c}, area);
        for (const auto& [p, q] : {std::pair{a, c}, std::pair{c, b}, std::pair{b, d}, std::pair{d, a}})
            stack.emplace_back(std::min(p, q), std::max(p, q));
    }
}

} // namespace

CornerMesh2D meshFromRectangles2D(int width, int height, std::span<const CellRect> rects,
                                  const std::vector<uint8_t>& walkable, const std::vector<uint8_t>& areas,
                                  uint32_t maxPolyVerts)
{
    maxPolyVerts = std::clamp<uint32_t>(maxPolyVerts, 3, kMaxBakedPolyVerts);
    assert(walkable.size() == static_cast<size_t>(width) * static_cast<size_t>(height));
    const int64_t stride = static_cast<int64_t>(width) + 1;
    auto key = [&](int x, int y) { return static_cast<int64_t>(y) * stride + x; };

    // Corners, row-major (by key) and column-major, for the T-junction look-ups.
    std::vector<int64_t> rowKeys;
    rowKeys.reserve(rects.size() * 4);
    for (const CellRect& r : rects)
        for (const auto& [x, y] : {std::pair{r.x, r.y}, std::pair{r.x + r.width, r.y},
                                   std::pair{r.x + r.width, r.y + r.height}, std::pair{r.x, r.y + r.height}})
            rowKeys.push_back(key(x, y));
    std::sort(rowKeys.begin(), rowKeys.end());
    rowKeys.erase(std::unique(rowKeys.begin(), rowKeys.end()), rowKeys.end());
    TriMesh m;
    m.pts.reserve(rowKeys.size());
    for (int64_t k : rowKeys)
        m.pts.push_back(Pt{static_cast<int32_t>(k % stride), static_cast<int32_t>(k / stride)});
    m.round.resize(m.pts.size());
    std::vector<uint32_t> byColumn(m.pts.size());
    for (uint32_t i = 0; i < byColumn.size(); ++i)
        byColumn[i] = i;
    std::sort(byColumn.begin(), byColumn.end(), [&](uint32_t a, uint32_t b)
              { return m.pts[a].x != m.pts[b].x ? m.pts[a].x < m.pts[b].x : m.pts[a].y < m.pts[b].y; });
    auto idOf = [&](int x, int y)
    { return static_cast<uint32_t>(std::lower_bound(rowKeys.begin(), rowKeys.end(), key(x, y)) - rowKeys.begin()); };
    // Corners strictly inside the horizontal side y, x0..x1 in the direction given.
    auto alongRow = [&](int y, int x0, int x1, std::vector<uint32_t>& ring)
    {
        const auto lo = std::upper_bound(rowKeys.begin(), rowKeys.end(), key(std::min(x0, x1), y));
        const auto hi = std::lower_bound(rowKeys.begin(), rowKeys.end(), key(std::max(x0, x1), y));
        const size_t at = ring.size();
        for (auto it = lo; it < hi; ++it)
            ring.push_back(static_cast<uint32_t>(it - rowKeys.begin()));
        if (x1 < x0)
            std::reverse(ring.begin() + static_cast<ptrdiff_t>(at), ring.end());
    };
    auto colLess = [&](uint32_t id, const Pt& p)
    { return m.pts[id].x != p.x ? m.pts[id].x < p.x : m.pts[id].y < p.y; };
    auto alongColumn = [&](int x, int y0, int y1, std::vector<uint32_t>& ring)
    {
        const Pt lowP{x, std::min(y0, y1)}, highP{x, std::max(y0, y1)};
        auto lo = std::lower_bound(byColumn.begin(), byColumn.end(), lowP, colLess);
        if (lo != byColumn.end() && m.pts[*lo].x == lowP.x && m.pts[*lo].y == lowP.y)
            ++lo;
        const auto hi = std::lower_bound(byColumn.begin(), byColumn.end(), highP, colLess);
        const size_t at = ring.size();
        for (auto it = lo; it < hi; ++it)
            ring.push_back(*it);
        if (y1 < y0)
            std::reverse(ring.begin() + static_cast<ptrdiff_t>(at), ring.end());
    };

    // 1. Conforming triangles of every rectangle.
    std::vector<uint32_t> ring;
    std::vector<Tri> tris;
    for (const CellRect& r : rects)
    {
        const int x0 = r.x, x1 = r.x + r.width, y0 = r.y, y1 = r.y + r.height;
        ring.clear();
        ring.push_back(idOf(x0, y0));
        alongRow(y0, x0, x1, ring);
        ring.push_back(idOf(x1, y0));
        alongColumn(x1, y0, y1, ring);
        ring.push_back(idOf(x1, y1));
        alongRow(y1, x1, x0, ring);
        ring.push_back(idOf(x0, y1));
        alongColumn(x0, y1, y0, ring);
        tris.clear();
        const bool ok = earClip(m.pts, ring, tris);
        assert(ok); // a rectangle with points on its sides always clips
        (void)ok;
        for (const Tri& t : tris)
            m.add(t, r.area);
    }

    // 2. Needless corners, by the four cells round them (outside the grid = blocked).
    constexpr int kBlocked = -1;
    auto cellClass = [&](int x, int y) -> int
    {
        if (x < 0 || y < 0 || x >= width || y >= height)
            return kBlocked;
        const size_t i = static_cast<size_t>(y) * static_cast<size_t>(width) + static_cast<size_t>(x);
        if (walkable[i] == 0)
            return kBlocked;
        return areas.empty() ? 0 : areas[i];
    };
    for (uint32_t v = 0; v < m.pts.size(); ++v)
    {
        const int x = m.pts[v].x, y = m.pts[v].y;
        // Cells round the corner, counter-clockwise: low-left, low-right, high-right, high-left.
        const int c[4] = {cellClass(x - 1, y - 1), cellClass(x, y - 1), cellClass(x, y), cellClass(x - 1, y)};
        bool needless = c[0] != kBlocked && c[0] == c[1] && c[1] == c[2] && c[2] == c[3];
        for (int k = 0; k < 4 && !needless; ++k)
        {
            const int p = c[k], q = c[(k + 1) % 4], r = c[(k + 2) % 4], s = c[(k + 3) % 4];
            needless = p != kBlocked && p == q && r == kBlocked && s == kBlocked;
        }
        if (needless)
            removeVertex(m, v, tris);
    }

    // 3. Fatter triangles.
    delaunayFlips(m);

    // 4. Merge into convex polygons: union-find over triangles, loops per root.
    std::vector<uint32_t> parent(m.tris.size());
    std::vector<std::vector<uint32_t>> loops(m.tris.size());
    struct Edge
    {
        int64_t len2;
        uint32_t a, b; ///< a < b
        uint32_t t1, t2;
    };
    std::vector<Edge> edges;
    for (uint32_t t = 0; t < m.tris.size(); ++t)
    {
        parent[t] = t;
        if (m.alive[t] == 0)
            continue;
        loops[t].assign(m.tris[t].begin(), m.tris[t].end());
        for (int k = 0; k < 3; ++k)
        {
            const uint32_t a = m.tris[t][k], b = m.tris[t][(k + 1) % 3];
            if (a > b)
                continue;
            const uint32_t other = m.withEdge(b, a);
            if (other != UINT32_MAX && m.triArea[other] == m.triArea[t])
                edges.push_back(Edge{dist2(m.pts[a], m.pts[b]), a, b, t, other});
        }
    }
    std::sort(edges.begin(), edges.end(), [](const Edge& l, const Edge& r)
              { return l.len2 != r.len2 ? l.len2 > r.len2 : (l.a != r.a ? l.a < r.a : l.b < r.b); });
    auto find = [&](uint32_t t)
    {
        while (parent[t] != t)
            t = parent[t] = parent[parent[t]];
        return t;
    };
    std::vector<uint32_t> merged;
    for (const Edge& e : edges)
    {
        const uint32_t p = find(e.t1), q = find(e.t2);
        if (p == q || loops[p].size() + loops[q].size() - 2 > maxPolyVerts)
            continue;
        // In p the edge runs a → b, in q b → a: p from b round to a, then q past a up to b.
        const auto& lp = loops[p];
        const auto& lq = loops[q];
        const size_t np = lp.size(), nq = lq.size();
        const size_t ia = static_cast<size_t>(std::find(lp.begin(), lp.end(), e.a) - lp.begin());
        const size_t jb = static_cast<size_t>(std::find(lq.begin(), lq.end(), e.b) - lq.begin());
        merged.clear();
        for (size_t k = 1; k <= np; ++k) // b ... a
            merged.push_back(lp[(ia + k) % np]);
        for (size_t k = 2; k < nq; ++k) // after b, a in q: the rest
            merged.push_back(lq[(jb + k) % nq]);
        const size_t n = merged.size();
        // Strictly convex: a straight angle would put a vertex in the middle of
        // an edge, and a start on one of its two halves sees the other edge-on,
        // which the path search does not take (a path cut a corner that way).
        bool convex = true;
        for (size_t k = 0; k < n && convex; ++k)
            convex = cross(m.pts[merged[k]], m.pts[merged[(k + 1) % n]], m.pts[merged[(k + 2) % n]]) > 0;
        if (!convex)
            continue;
        const uint32_t root = std::min(p, q), gone = std::max(p, q);
        parent[gone] = root;
        loops[root] = merged;
        loops[gone].clear();
    }

    // Output: kept vertices renumbered in row-major order.
    CornerMesh2D out;
    std::vector<uint32_t> newId(m.pts.size(), UINT32_MAX);
    for (uint32_t t = 0; t < m.tris.size(); ++t)
        if (m.alive[t] != 0 && find(t) == t)
            for (uint32_t v : loops[t])
                newId[v] = 0;
    for (uint32_t v = 0; v < m.pts.size(); ++v)
        if (newId[v] != UINT32_MAX)
        {
            newId[v] = static_cast<uint32_t>(out.corners.size());
            out.corners.emplace_back(m.pts[v].x, m.pts[v].y);
        }
    out.polyStarts.push_back(0);
    for (uint32_t t = 0; t < m.tris.size(); ++t)
    {
        if (m.alive[t] == 0 || find(t) != t)
            continue;
        const auto& loop = loops[t];
        const size_t first = static_cast<size_t>(std::min_element(loop.begin(), loop.end()) - loop.begin());
        for (size_t k = 0; k < loop.size(); ++k)
            out.indices.push_back(newId[loop[(first + k) % loop.size()]]);
        out.polyStarts.push_back(static_cast<uint32_t>(out.indices.size()));
        out.areas.push_back(m.triArea[t]);
    }
    return out;
}

} // namespace spark::nav
