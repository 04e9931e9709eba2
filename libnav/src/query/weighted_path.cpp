/// \file weighted_path.cpp
/// Cheapest paths when the allowed areas cost different amounts (issue 34, item 4).
///
/// Design note. Two stages.
///
/// 1. The cheapest vertex path, exactly (up to double rounding): A* over the
///    mesh's vertices plus the start and the goal. Two nodes are joined when
///    the segment between them stays on the allowed polygons; its cost is
///    Σ multiplier × length of each stretch of it inside one polygon (along a
///    shared edge, the cheaper side). The successors of a node are found by a
///    visibility sweep from it: windows (two rays from the node) are pushed
///    through the link stretches polygon by polygon, narrowed at each portal,
///    and every vertex (and the goal) inside a window is seen; its cost is
///    integrated over the window's chain of portals. The heuristic is the
///    straight distance × the cheapest allowed multiplier: a segment's cost is
///    at least that, so the heuristic is consistent, a closed node is final and
///    the goal's cost is the cheapest over all vertex paths.
///
/// 2. Snell refinement. A cheapest continuous path bends at obstacle corners
///    and refracts where it crosses an area border (c1 sin θ1 = c2 sin θ2),
///    rarely at a vertex. The vertex path is refined by coordinate descent:
///    each crossing of a cost change is made a point of the path; each point
///    lying on a polygon edge slides along that edge to the minimum of
///    c_before × |prev − x| + c_after × |x − next| (a convex function of the
///    position: golden-section search, a fixed count of steps, + − × / and
///    sqrt only); a point whose neighbours see each other more cheaply
///    straight is dropped. Every move is checked against the mesh (the two new
///    segments stay on allowed polygons, costed as in stage 1) and kept only
///    when the path's cost falls, so the answer never costs more than the
///    cheapest vertex path. Within one sequence of borders the problem is
///    convex and the descent converges to its optimum; the tests
///    (tests/nav/query/weighted_oracle_test.cpp) hold it within 0.5 % of a
///    fine-graph Dijkstra.
///
/// Work is bounded: past kWorkBudget steps (windows pushed plus portals
/// costed), or past 8 windows per link from one node (memory: a sliver mesh
/// whose rounding makes the windows circle), the query fails with E_NAV_LIMIT. Everything is in double in the
/// x–z plane; a segment's 3D length is the straight distance between its
/// ends, as PathResult::cost measures it.

#include "query_common.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

namespace spark::nav
{

namespace
{

using glm::dvec3;

constexpr uint32_t kNone = 0xffffffffu;
/// Steps (windows pushed + portals crossed while costing) one query may take.
constexpr uint64_t kWorkBudget = 40'000'000;
/// Golden-section steps per slide: the bracket shrinks by 0.618^64 ≈ 4e-14.
constexpr int kGoldenSteps = 64;
/// Refinement sweeps at most (a sweep that saves less than 1e-12 of the cost stops early).
constexpr int kMaxSweeps = 200;
/// Distance within which a point counts as on an edge or in a polygon. [Units: m]
constexpr double kOnEdge = 1.0e-5;

dvec3 d3(const glm::vec3& v)
{
    return dvec3(v.x, v.y, v.z);
}

double len3(const dvec3& a, const dvec3& b)
{
    const double dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
    return std::sqrt(dx * dx + dy * dy + dz * dz);
}

/// (a − o) × (b − o) in x–z.
double orient(const dvec3& o, const dvec3& a, const dvec3& b)
{
    return (a.x - o.x) * (b.z - o.z) - (a.z - o.z) * (b.x - o.x);
}

/// Distance (3D) from p to the point of segment a–b closest to it in x–z
/// (a lower bound of nothing more: used for pruning with len3 elsewhere, the
/// x–z distance is at most the 3D one).
double distToSegmentXZ(const dvec3& p, const dvec3& a, const dvec3& b)
{
    const double ex = b.x - a.x, ez = b.z - a.z;
    const double l2 = ex * ex + ez * ez;
    double t = l2 > 0.0 ? ((p.x - a.x) * ex + (p.z - a.z) * ez) / l2 : 0.0;
    t = std::clamp(t, 0.0, 1.0);
    const double dx = a.x + ex * t - p.x, dz = a.z + ez * t - p.z;
    return std::sqrt(dx * dx + dz * dz);
}

/// A visibility window: the rays root → right and root → left (left
/// counter-clockwise of right), through link `link` into polygon `poly`.
struct Window
{
    dvec3 right, left;
    uint32_t poly = 0;
    uint32_t from = 0;   ///< Polygon on the root's side of the link.
    uint32_t link = 0;   ///< Link id (NavMesh::link).
    uint32_t parent = 0; ///< Window before it (kNone: it leaves a root polygon).
};

struct Weighted
{
    const NavMesh& mesh;
    const QueryFilter& filter;
    const MeshPoint& start;
    const MeshPoint& goal;
    double minCost;
    uint64_t work = 0;

    Weighted(const NavMesh& m, const QueryFilter& f, const MeshPoint& s, const MeshPoint& gl, double c)
        : mesh(m), filter(f), start(s), goal(gl), minCost(c)
    {
    }

    // Per node (vertex ids, then start, then goal).
    std::vector<double> g;
    std::vector<uint32_t> parent;
    std::vector<uint8_t> closed;
    std::vector<std::pair<double, uint32_t>> heap;
    std::vector<Window> windows;
    std::vector<uint32_t> roots, goalPolys, boxPolys;
    // Steiner points on the link stretches between areas of different cost:
    // those of link l are nodes steinerFirst[l] .. steinerFirst[l + 1] − 1
    // (counted from V + 2), at steinerPoints[node − V − 2].
    std::vector<uint32_t> steinerFirst;
    /// Per vertex: 1 when a cheapest path may bend there (an obstacle corner,
    /// or where areas meet: NavMesh::linkEndTurn); other vertices are passed
    /// straight through and are not nodes.
    std::vector<uint8_t> turns;
    std::vector<dvec3> steinerPoints;

    /// Places the Steiner points: on each border stretch, evenly, about two per
    /// cell size of its length (3 to 31).
    void placeSteiner()
    {
        steinerFirst.assign(size_t(mesh.linkCount()) + 1, 0);
        steinerPoints.clear();
        const double cell = std::max(1.0e-3, double(mesh.settings().cellSize));
        for (uint32_t poly = 0; poly < mesh.polygonCount(); ++poly)
            for (uint32_t k = 0; k < mesh.links(poly).size(); ++k)
            {
                const NavLink& l = mesh.links(poly)[k];
                const size_t li = mesh.firstLink(poly) + k;
                steinerFirst[li] = static_cast<uint32_t>(steinerPoints.size());
                if (!allowed(poly) || !allowed(l.neighbour) || mult(poly) == mult(l.neighbour))
                    continue;
                const dvec3 a = d3(l.a), b = d3(l.b);
                // (Fewer lose the route: 1 a cell, 2..8 a stretch, gave 1.06 % above
                // the fine graph in weighted_oracle_test, 0.5 a cell 10 %.)
                const int n = std::clamp(static_cast<int>(2.0 * len3(a, b) / cell), 4, 32);
                for (int i = 1; i < n; ++i)
                    steinerPoints.push_back(a + (b - a) * (double(i) / n));
            }
        steinerFirst[mesh.linkCount()] = static_cast<uint32_t>(steinerPoints.size());
    }

    /// Relaxes the Steiner points on polygon `poly`'s links that pass `seen`, at `cost(point)`.
    template <class Seen, class Cost> void relaxSteiner(uint32_t poly, uint32_t u, Seen&& seen, Cost&& cost)
    {
        const std::span<const NavLink> links = mesh.links(poly);
        for (const NavLink& l : links)
        {
            const size_t li = mesh.firstLink(poly) + static_cast<size_t>(&l - links.data());
            for (uint32_t k = steinerFirst[li]; k < steinerFirst[li + 1]; ++k)
            {
                const uint32_t node = goalNode() + 1 + k;
                if (!closed[node] && seen(steinerPoints[k]) && worth(node, nodePoint(u), steinerPoints[k], g[u]))
                    relax(node, cost(steinerPoints[k]), u);
            }
        }
    }

    uint32_t startNode() const { return mesh.vertexCount(); }
    uint32_t goalNode() const { return mesh.vertexCount() + 1; }

    dvec3 nodePoint(uint32_t n) const
    {
        if (n == startNode())
            return d3(start.point);
        if (n == goalNode())
            return d3(goal.point);
        if (n > goalNode())
            return steinerPoints[n - goalNode() - 1];
        return d3(mesh.vertex(n));
    }

    bool allowed(uint32_t poly) const
    {
        return !mesh.disabled(poly) && (!detail::excluded(filter, mesh.area(poly)) || poly == start.polygon);
    }

    double mult(uint32_t poly) const { return filter.areaCosts[mesh.area(poly)]; }

    /// True when polygon `poly` at (x, z) lies within half the agent height
    /// (at least the step height) of height y: a 3D mesh may hold floors above
    /// one another in x–z. Always true on a 2D mesh.
    bool sameLevel(uint32_t poly, double x, double z, double y) const
    {
        if (mesh.is2d())
            return true;
        const double tol = std::max(0.5 * double(mesh.settings().agentHeight), double(mesh.settings().stepHeight));
        return std::abs(double(mesh.heightAt(poly, float(x), float(z))) - y) <= tol;
    }

    /// Allowed polygons whose closed x–z region holds `p` (within kOnEdge), sorted.
    void holding(const dvec3& p, uint32_t hint, std::vector<uint32_t>& out)
    {
        out.clear();
        const float e = 1.0e-4f;
        mesh.visitPolygonsInBoxXZ(float(p.x) - e, float(p.z) - e, float(p.x) + e, float(p.z) + e, [&](uint32_t poly) {
            if (allowed(poly) && mesh.containsXZ(poly, float(p.x), float(p.z), float(kOnEdge)) &&
                sameLevel(poly, p.x, p.z, p.y))
                out.push_back(poly);
        });
        if (hint != kNoPolygon && allowed(hint))
            out.push_back(hint);
        std::sort(out.begin(), out.end());
        out.erase(std::unique(out.begin(), out.end()), out.end());
    }

    /// Where segment r → v crosses the line of link `l` (clamped to the stretch), as a fraction of r → v.
    static double crossAt(const dvec3& r, const dvec3& v, const NavLink& l)
    {
        const dvec3 a = d3(l.a), b = d3(l.b);
        const double dx = v.x - r.x, dz = v.z - r.z;
        const double ex = b.x - a.x, ez = b.z - a.z;
        const double den = dx * ez - dz * ex;
        if (den == 0.0)
            return 0.0;
        const double t = ((a.x - r.x) * ez - (a.z - r.z) * ex) / den;
        return std::clamp(t, 0.0, 1.0);
    }

    /// Cost of r → v through the chain of windows ending at `w` (v in its polygon).
    double chainCost(const dvec3& r, const dvec3& v, uint32_t w)
    {
        const double length = len3(r, v);
        double cost = 0.0, tPrev = 1.0;
        uint32_t poly = windows[w].poly;
        for (uint32_t i = w; i != kNone; i = windows[i].parent)
        {
            ++work;
            const double t = std::min(tPrev, crossAt(r, v, mesh.link(windows[i].link)));
            cost += mult(poly) * (tPrev - t) * length;
            tPrev = t;
            poly = windows[i].from;
        }
        return cost + mult(poly) * tPrev * length;
    }

    void relax(uint32_t n, double cost, uint32_t from)
    {
        if (closed[n] || cost >= g[n])
            return;
        g[n] = cost;
        parent[n] = from;
        heap.emplace_back(cost + minCost * len3(nodePoint(n), d3(goal.point)), n);
        std::push_heap(heap.begin(), heap.end(), std::greater<>());
    }

    /// Pushes the windows through polygon `poly`'s links that face the root.
    void pushExits(const dvec3& r, double gu, uint32_t poly, const Window* in, uint32_t inIndex)
    {
        const dvec3 goalPoint = d3(goal.point);
        const auto ring = mesh.polygonIndices(poly);
        const uint32_t n = static_cast<uint32_t>(ring.size());
        const std::span<const NavLink> links = mesh.links(poly);
        for (const NavLink& l : links)
        {
            const dvec3 p = d3(mesh.vertex(ring[l.edge])), q = d3(mesh.vertex(ring[(l.edge + 1) % n]));
            if (!(orient(p, q, r) > 0.0) || !allowed(l.neighbour))
                continue; // the root is on the edge's line or beyond it
            dvec3 right = d3(l.a), left = d3(l.b);
            if (in)
            {
                if (!(orient(r, in->right, right) > 0.0))
                    right = in->right;
                if (!(orient(r, left, in->left) > 0.0))
                    left = in->left;
                if (!(orient(r, right, left) > 0.0))
                    continue;
            }
            // Every route through the stretch costs at least the cheapest
            // multiplier × (root → stretch + stretch → goal): none may beat the goal's cost so far.
            const dvec3 sa = d3(l.a), sb = d3(l.b);
            if (gu + minCost * (distToSegmentXZ(r, sa, sb) + distToSegmentXZ(goalPoint, sa, sb)) >= g[goalNode()])
                continue;
            ++work;
            if (windows.size() >= 8 * size_t(mesh.linkCount()) + 4096)
            {
                work = kWorkBudget + 1; // a planar mesh never needs this many (see the file's note)
                return;
            }
            windows.push_back(Window{right, left, l.neighbour, poly,
                                     mesh.firstLink(poly) + static_cast<uint32_t>(&l - links.data()), inIndex});
        }
    }

    /// True when a route through `p` from the root (cost so far gu) could
    /// still improve node `n` or the goal: the cheapest multiplier times the
    /// straight distances bounds its cost from below.
    bool worth(uint32_t n, const dvec3& r, const dvec3& p, double gu) const
    {
        const double reach = gu + minCost * len3(r, p);
        return reach < g[n] && reach + minCost * len3(p, d3(goal.point)) < g[goalNode()];
    }

    /// Every node seen from node `u` (cost so far gu), relaxed.
    void expand(uint32_t u, double gu)
    {
        const dvec3 r = nodePoint(u);
        holding(r, u == startNode() ? start.polygon : kNoPolygon, roots);
        windows.clear();
        const dvec3 goalPoint = d3(goal.point);
        for (const uint32_t poly : roots)
        {
            for (const uint32_t v : mesh.polygonIndices(poly))
                if (turns[v])
                    relax(v, gu + mult(poly) * len3(r, d3(mesh.vertex(v))), u);
            if (std::binary_search(goalPolys.begin(), goalPolys.end(), poly))
                relax(goalNode(), gu + mult(poly) * len3(r, goalPoint), u);
            relaxSteiner(poly, u, [](const dvec3&) { return true; },
                         [&](const dvec3& p) { return gu + mult(poly) * len3(r, p); });
            pushExits(r, gu, poly, nullptr, kNone);
        }
        for (uint32_t i = 0; i < windows.size() && work <= kWorkBudget; ++i)
        {
            const Window w = windows[i];
            auto inside = [&](const dvec3& p) { return orient(r, w.right, p) >= 0.0 && orient(r, p, w.left) >= 0.0; };
            for (const uint32_t v : mesh.polygonIndices(w.poly))
            {
                const dvec3 p = d3(mesh.vertex(v));
                if (turns[v] && !closed[v] && inside(p) && worth(v, r, p, gu))
                    relax(v, gu + chainCost(r, p, i), u);
            }
            if (std::binary_search(goalPolys.begin(), goalPolys.end(), w.poly) && inside(goalPoint))
                relax(goalNode(), gu + chainCost(r, goalPoint, i), u);
            relaxSteiner(w.poly, u, inside, [&](const dvec3& p) { return gu + chainCost(r, p, i); });
            pushExits(r, gu, w.poly, &w, i);
        }
    }

    /// Stage 1: the cheapest vertex path into `path` (start first). False when
    /// the goal is not reached; `work` tells whether the budget ran out.
    bool vertexPath(std::vector<dvec3>& path, std::vector<double>& legCost)
    {
        placeSteiner();
        turns.assign(mesh.vertexCount(), 0);
        for (uint32_t v = 0; v < mesh.vertexCount(); ++v)
        {
            const uint32_t id = mesh.linkEndPointOf(mesh.vertex(v));
            turns[v] = id < mesh.linkEndPointCount() &&
                       (mesh.linkEndTurn(id) & (NavMesh::kTurnCorner | NavMesh::kTurnAreas)) != 0;
        }
        const uint32_t nodes = mesh.vertexCount() + 2 + static_cast<uint32_t>(steinerPoints.size());
        g.assign(nodes, 1.0e300);
        parent.assign(nodes, kNone);
        closed.assign(nodes, 0);
        heap.clear();
        holding(d3(goal.point), goal.polygon, goalPolys);
        g[startNode()] = 0.0;
        heap.emplace_back(minCost * len3(d3(start.point), d3(goal.point)), startNode());
        while (!heap.empty() && work <= kWorkBudget)
        {
            std::pop_heap(heap.begin(), heap.end(), std::greater<>());
            const uint32_t u = heap.back().second;
            heap.pop_back();
            if (closed[u])
                continue;
            closed[u] = 1;
            if (u == goalNode())
            {
                path.clear();
                legCost.clear();
                for (uint32_t n = u; n != kNone; n = parent[n])
                {
                    path.push_back(nodePoint(n));
                    if (parent[n] != kNone)
                        legCost.push_back(g[n] - g[parent[n]]);
                }
                std::reverse(path.begin(), path.end());
                std::reverse(legCost.begin(), legCost.end());
                return true;
            }
            expand(u, g[u]);
        }
        return false;
    }

    // ---- Stage 2 --------------------------------------------------------------

    /// A stretch of a segment inside one polygon: from fraction t0 to t1.
    struct Piece
    {
        double t0, t1;
        uint32_t poly;
    };
    std::vector<Piece> clips, pieces;
    std::vector<double> cuts;

    /// Costs segment p → q by clipping it to the allowed polygons near it:
    /// each elementary stretch at the cheapest polygon covering it. False when
    /// a stretch longer than kOnEdge is covered by none (the segment leaves
    /// the allowed mesh). `pieces` gets the stretches in order.
    bool segmentCost(const dvec3& p, const dvec3& q, double& cost)
    {
        clips.clear();
        pieces.clear();
        const double length = len3(p, q);
        const double dx = q.x - p.x, dz = q.z - p.z;
        const float e = 1.0e-4f;
        boxPolys.clear();
        mesh.visitPolygonsInBoxXZ(float(std::min(p.x, q.x)) - e, float(std::min(p.z, q.z)) - e,
                                  float(std::max(p.x, q.x)) + e, float(std::max(p.z, q.z)) + e,
                                  [&](uint32_t poly) { boxPolys.push_back(poly); });
        std::sort(boxPolys.begin(), boxPolys.end());
        boxPolys.erase(std::unique(boxPolys.begin(), boxPolys.end()), boxPolys.end());
        for (const uint32_t poly : boxPolys)
        {
            if (!allowed(poly))
                continue;
            ++work;
            // Cyrus–Beck against the edges' half-planes (closed: a segment along
            // a shared edge lies in both polygons).
            double t0 = 0.0, t1 = 1.0;
            const auto ring = mesh.polygonIndices(poly);
            const size_t n = ring.size();
            for (size_t i = 0; i < n && t0 <= t1; ++i)
            {
                const dvec3 a = d3(mesh.vertex(ring[i])), b = d3(mesh.vertex(ring[(i + 1) % n]));
                const double ex = b.x - a.x, ez = b.z - a.z;
                const double f0 = ex * (p.z - a.z) - ez * (p.x - a.x); // ≥ 0 inside
                const double f1 = ex * dz - ez * dx;
                if (f1 == 0.0)
                {
                    if (f0 < -kOnEdge * std::sqrt(ex * ex + ez * ez))
                        t1 = -1.0;
                }
                else if (f1 > 0.0)
                    t0 = std::max(t0, -f0 / f1);
                else
                    t1 = std::min(t1, -f0 / f1);
            }
            const double tm = 0.5 * (t0 + t1);
            if ((t0 < t1 || (length == 0.0 && t0 <= t1)) &&
                sameLevel(poly, p.x + dx * tm, p.z + dz * tm, p.y + (q.y - p.y) * tm))
                clips.push_back(Piece{t0, t1, poly});
        }
        cuts.assign({0.0, 1.0});
        for (const Piece& c : clips)
        {
            cuts.push_back(c.t0);
            cuts.push_back(c.t1);
        }
        std::sort(cuts.begin(), cuts.end());
        cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
        cost = 0.0;
        for (size_t i = 0; i + 1 < cuts.size(); ++i)
        {
            const double a = cuts[i], b = cuts[i + 1];
            uint32_t best = kNone;
            for (const Piece& c : clips)
                if (c.t0 <= a && c.t1 >= b && (best == kNone || mult(c.poly) < mult(best)))
                    best = c.poly;
            if (best == kNone)
            {
                if ((b - a) * length > kOnEdge)
                    return false;
                continue;
            }
            cost += mult(best) * (b - a) * length;
            if (!pieces.empty() && pieces.back().poly == best)
                pieces.back().t1 = b;
            else
                pieces.push_back(Piece{a, b, best});
        }
        if (length == 0.0 && clips.empty())
            return false;
        return true;
    }

    /// The multiplier of a segment known to lie in one area (its longest piece's).
    double segmentMult(const dvec3& p, const dvec3& q)
    {
        double c = 0.0;
        if (!segmentCost(p, q, c) || pieces.empty())
            return 0.0;
        const Piece* longest = &pieces.front();
        for (const Piece& piece : pieces)
            if (piece.t1 - piece.t0 > longest->t1 - longest->t0)
                longest = &piece;
        return mult(longest->poly);
    }

    /// Edges (as end pairs) of allowed polygons that pass within kOnEdge of `p`.
    void edgesThrough(const dvec3& p, std::vector<std::pair<dvec3, dvec3>>& out)
    {
        out.clear();
        holding(p, kNoPolygon, roots);
        for (const uint32_t poly : roots)
        {
            const auto ring = mesh.polygonIndices(poly);
            const size_t n = ring.size();
            for (size_t i = 0; i < n; ++i)
            {
                const dvec3 a = d3(mesh.vertex(ring[i])), b = d3(mesh.vertex(ring[(i + 1) % n]));
                const double ex = b.x - a.x, ez = b.z - a.z;
                const double l2 = ex * ex + ez * ez;
                if (l2 <= 0.0)
                    continue;
                const double c = ex * (p.z - a.z) - ez * (p.x - a.x);
                const double s = ((p.x - a.x) * ex + (p.z - a.z) * ez) / l2;
                if (c * c <= kOnEdge * kOnEdge * l2 && s >= -1.0e-9 && s <= 1.0 + 1.0e-9)
                    out.emplace_back(a, b);
            }
        }
    }

    /// Stage 2 on `pts` / `legs` (costs of each leg): see the design note.
    void refine(std::vector<dvec3>& pts, std::vector<double>& legs)
    {
        std::vector<dvec3> nextPts;
        std::vector<double> nextLegs;
        std::vector<std::pair<dvec3, dvec3>> edges;
        auto total = [&]() {
            double t = 0.0;
            for (double c : legs)
                t += c;
            return t;
        };
        for (int sweep = 0; sweep < kMaxSweeps && work <= kWorkBudget; ++sweep)
        {
            const double before = total();
            // Each change of cost along a leg becomes a point of the path.
            nextPts.assign(1, pts[0]);
            nextLegs.clear();
            for (size_t i = 0; i + 1 < pts.size(); ++i)
            {
                double c = 0.0;
                const bool ok = segmentCost(pts[i], pts[i + 1], c);
                if (ok && c <= legs[i] * (1.0 + 1.0e-9) + 1.0e-12 && pieces.size() > 1)
                {
                    // Runs of one multiplier (a run shorter than 1 µm joins the one before).
                    const dvec3 p = pts[i], q = pts[i + 1];
                    const double l = len3(p, q);
                    double runCost = 0.0, runMult = mult(pieces.front().poly);
                    for (size_t k = 0; k < pieces.size(); ++k)
                    {
                        const Piece& piece = pieces[k];
                        runCost += mult(piece.poly) * (piece.t1 - piece.t0) * l;
                        const bool last = k + 1 == pieces.size();
                        const bool change = !last && mult(pieces[k + 1].poly) != runMult &&
                                            (pieces[k + 1].t1 - pieces[k + 1].t0) * l >= 1.0e-6;
                        if (last || change)
                        {
                            nextLegs.push_back(runCost);
                            nextPts.push_back(last ? q : p + (q - p) * piece.t1);
                            runCost = 0.0;
                            if (!last)
                                runMult = mult(pieces[k + 1].poly);
                        }
                    }
                }
                else
                {
                    nextLegs.push_back(ok ? std::min(c, legs[i]) : legs[i]);
                    nextPts.push_back(pts[i + 1]);
                }
            }
            pts.swap(nextPts);
            legs.swap(nextLegs);
            // Slide each point along the edges through it; drop it when straight is cheaper.
            for (size_t i = 1; i + 1 < pts.size(); ++i)
            {
                const dvec3 a = pts[i - 1], b = pts[i + 1];
                double straight = 0.0;
                if (segmentCost(a, b, straight) && straight < legs[i - 1] + legs[i] - 1.0e-12 * straight)
                {
                    pts.erase(pts.begin() + static_cast<std::ptrdiff_t>(i));
                    legs[i - 1] = straight;
                    legs.erase(legs.begin() + static_cast<std::ptrdiff_t>(i));
                    --i;
                    continue;
                }
                const double ca = segmentMult(a, pts[i]), cb = segmentMult(pts[i], b);
                if (ca <= 0.0 || cb <= 0.0)
                    continue;
                edgesThrough(pts[i], edges);
                for (const auto& edge : edges)
                {
                    const dvec3 e0 = edge.first, e1 = edge.second; // not bindings: lambdas capture them
                    auto f = [&](double s) {
                        const dvec3 x = e0 + (e1 - e0) * s;
                        return ca * len3(a, x) + cb * len3(x, b);
                    };
                    // Golden-section search on [0, 1] (f is convex along the edge).
                    constexpr double kInvPhi = 0.6180339887498949;
                    double lo = 0.0, hi = 1.0;
                    double x1 = hi - kInvPhi * (hi - lo), x2 = lo + kInvPhi * (hi - lo);
                    double f1 = f(x1), f2 = f(x2);
                    for (int k = 0; k < kGoldenSteps; ++k)
                    {
                        if (f1 <= f2)
                        {
                            hi = x2;
                            x2 = x1;
                            f2 = f1;
                            x1 = hi - kInvPhi * (hi - lo);
                            f1 = f(x1);
                        }
                        else
                        {
                            lo = x1;
                            x1 = x2;
                            f1 = f2;
                            x2 = lo + kInvPhi * (hi - lo);
                            f2 = f(x2);
                        }
                    }
                    double s = 0.5 * (lo + hi);
                    if (f(0.0) < f(s))
                        s = 0.0;
                    if (f(1.0) < f(s))
                        s = 1.0;
                    const dvec3 x = s <= 0.0 ? e0 : (s >= 1.0 ? e1 : e0 + (e1 - e0) * s);
                    double c0 = 0.0, c1 = 0.0;
                    if (segmentCost(a, x, c0) && segmentCost(x, b, c1) &&
                        c0 + c1 < legs[i - 1] + legs[i] - 1.0e-13 * (c0 + c1))
                    {
                        pts[i] = x;
                        legs[i - 1] = c0;
                        legs[i] = c1;
                    }
                }
            }
            if (!(total() < before * (1.0 - 1.0e-12)))
                break;
        }
    }
};

/// Polygons from `a` to `b` over links (breadth first, lowest ids first), appended without `a`.
bool linkPolygons(const NavMesh& mesh, const Weighted& w, uint32_t a, uint32_t b, std::vector<uint32_t>& out,
                  std::vector<uint32_t>& from, std::vector<uint32_t>& queue)
{
    queue.assign(1, a);
    from.assign(mesh.polygonCount(), kNone);
    from[a] = a;
    for (size_t i = 0; i < queue.size(); ++i)
    {
        const uint32_t p = queue[i];
        if (p == b)
        {
            const size_t at = out.size();
            for (uint32_t x = b; x != a; x = from[x])
                out.push_back(x);
            std::reverse(out.begin() + static_cast<std::ptrdiff_t>(at), out.end());
            return true;
        }
        for (const NavLink& l : mesh.links(p))
            if (from[l.neighbour] == kNone && w.allowed(l.neighbour))
            {
                from[l.neighbour] = p;
                queue.push_back(l.neighbour);
            }
    }
    return false;
}

} // namespace

Status detail::weightedPath(const NavMesh& mesh, ScratchData& s, const MeshPoint& start, const MeshPoint& goal,
                            const QueryFilter& filter, float minCost, PathResult& out, bool& found)
{
    (void)s;
    Weighted w(mesh, filter, start, goal, double(minCost));
    std::vector<dvec3> pts;
    std::vector<double> legs;
    found = w.vertexPath(pts, legs);
    if (w.work > kWorkBudget)
        return makeError("E_NAV_LIMIT", "the weighted path search passed its work budget (" +
                                            std::to_string(kWorkBudget) + " steps)",
                         "/area_costs", "give every area the same cost, or query shorter paths");
    if (!found)
        return Status::success();
    w.refine(pts, legs);
    if (w.work > kWorkBudget)
        return makeError("E_NAV_LIMIT", "the weighted path search passed its work budget (" +
                                            std::to_string(kWorkBudget) + " steps)",
                         "/area_costs", "give every area the same cost, or query shorter paths");

    // The points (start and goal as located), their length and cost, and the
    // corridor: the polygons each leg crosses, joined over links.
    out.points.clear();
    out.polygons.clear();
    double length = 0.0, cost = 0.0;
    for (size_t i = 0; i < pts.size(); ++i)
    {
        const glm::vec3 p = i == 0 ? start.point
                                   : (i + 1 == pts.size() ? goal.point
                                                          : glm::vec3(float(pts[i].x), float(pts[i].y), float(pts[i].z)));
        if (!out.points.empty() && out.points.back() == p)
            continue;
        out.points.push_back(p);
    }
    if (out.points.size() == 1)
        out.points.push_back(out.points[0]);
    std::vector<uint32_t> from, queue;
    out.polygons.push_back(start.polygon);
    for (size_t i = 0; i + 1 < out.points.size(); ++i)
    {
        const dvec3 p = d3(out.points[i]), q = d3(out.points[i + 1]);
        length += len3(p, q);
        double c = 0.0;
        if (!w.segmentCost(p, q, c))
            c = i < legs.size() ? legs[i] : 0.0; // (rounding to float moved a point off the mesh by a hair)
        cost += c;
        for (const auto& piece : w.pieces)
            if (piece.poly != out.polygons.back() &&
                !linkPolygons(mesh, w, out.polygons.back(), piece.poly, out.polygons, from, queue))
                out.polygons.push_back(piece.poly);
    }
    if (out.polygons.back() != goal.polygon &&
        !linkPolygons(mesh, w, out.polygons.back(), goal.polygon, out.polygons, from, queue))
        out.polygons.push_back(goal.polygon);
    out.entries.assign(out.polygons.size() - 1, kNoPolygon);
    out.links.clear();
    out.length = static_cast<float>(length);
    out.cost = static_cast<float>(cost);
    out.complete = true;
    return Status::success();
}

} // namespace spark::nav
