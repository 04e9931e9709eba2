/// \file any_angle.cpp
/// Optimal (Euclidean-shortest) paths over the navmesh for uniform costs.
///
/// Design note. This is Polyanya (Cui, Harabor & Grastien, "Compromise-free
/// Pathfinding on a Navigation Mesh", IJCAI 2017), written from the paper. A
/// search node is a *root* (the start or a corner the path turns at) and an
/// *interval*: a piece of a portal that every point of is visible from the
/// root in a straight line. Expanding a node projects the two rays root →
/// interval ends through the polygon beyond; the stretch of that polygon's
/// boundary between the rays is seen from the same root (observable
/// successors, same g); the stretches outside the rays can only be reached by
/// turning at an interval end (non-observable successors, rooted there, g +
/// the distance to it) — and only an end that is the end of a portal stretch
/// can be a corner of the free space. f = g + the exact shortest distance from
/// the root through the interval to the goal (the goal mirrored in the
/// interval's line when it lies on the root's side), so f never overestimates
/// and the first node popped in the goal's polygon is optimal. Pruning, as in
/// the paper: a root reached again with a larger g is dropped (root-level
/// pruning), and dead-end polygons other than the goal's are not entered
/// (one link, or two whose other one leads to such a polygon); nor is the
/// side of a bridge of the link graph with no start or goal polygon on it
/// (NavMesh::linkBehind, the mesh's table: a path could only come back out
/// by the same portal; a maze's side branches, at any depth).
///
/// Exactness. An interval end cut by a ray keeps its place in double and the
/// ray's line as two mesh points; which side of a ray a vertex lies on is the
/// exact sign of the orientation of mesh coordinates (exact_orient.h), so a
/// vertex on a ray is met exactly and the turn there is made (issue 34: float
/// cuts missed (204, 83) by 1.5e-5). A start or goal on an edge or vertex lies
/// in every polygon sharing it: the search leaves from all of them and ends in
/// any. A root on the line of an interval but beside it (a path running along
/// a wall, or along a row of collinear vertices) sees nothing beyond that
/// line: the node is made rooted at the interval's ends instead, where the
/// path may turn (`turnOnLine`; treating it as seeing the polygon beyond
/// crossed walls).
///
/// Turns. A path turns only at a link end the mesh marks as a corner
/// (NavMesh::linkEndTurn: where the free space is not convex, or could not be
/// proven free or straight), and at area borders when the filter excludes an
/// area; every other vertex (open space, straight walls, convex corners) is
/// passed straight through, as in the paper.
///
/// The search runs in the x–z plane in double precision; portals may be
/// stretches of edges (T-junctions), so a polygon's boundary is read as its
/// edges' link stretches, walls between them. It returns the corridor and the
/// path itself: the start, the roots the goal node descends from (link ends,
/// with the mesh's own heights), the end of the goal node's interval where the
/// last leg bends (where the heuristic clamps), the goal. That is the string
/// pulled tight over the corridor, decided in double precision: the float
/// funnel over the same corridor (path.cpp) gives the same points except where
/// it meets exact collinearity (it may keep a vertex the path passes straight
/// through, or turn back at a start lying on a portal's line).
///
/// Differences from the paper, all conservative: the other stretches of the entry edge
/// (T-junctions) are successors rooted at the interval end on their side; and a root lying on the entry's
/// line (a vertex the path turns at, a start on an edge) sees the whole polygon, so such a polygon is entered
/// once per root and length — which also stops the search circling a fan of polygons round a vertex inside
/// the free space.
///
/// The open list is a binary heap of (f, g, node) entries ordered by (f, −g,
/// node index), a total order. After an expansion the least successor skips
/// the heap when it comes before the heap's top (it is what the next pop would
/// return), so the order of expansion is that of the plain heap. (Expanding
/// every single successor at once, the paper's intermediate pruning, expanded
/// 9 % more nodes on the dungeon benchmark and was slower; on the terrain
/// level 24 % more, 361 → 449 a query.) Nothing is allocated once the scratch
/// buffers have grown: the nodes are written in place in a vector that only
/// grows, room for a polygon's successors made before it is expanded; the root
/// and seen tables are cleared slot by slot.
///
/// Tile seams. A tiled mesh's seam vertices are open floor (never turned
/// at), but a cone crossing one is split in two, and where the next tile's
/// polygon has one edge for both (a T-junction) the two pieces enter it apart
/// and are expanded apart through every polygon after. Joining touching
/// pieces of the same root and polygon when the later one is made (exact:
/// they meet at a point no path turns at) was tried and not kept: the earlier
/// piece has mostly been expanded by then (the piece holding the line to the
/// goal goes first, and its successors after it), so joins removed only 9 %
/// of the expansions on the tiled dungeon, and their bookkeeping cost more
/// than that saved (the commit that added this note has the figures).
///
/// Measured on path_bench's terrain level (a query expands 361 nodes, Detour's
/// A* closes 149 polygons): 350 of the nodes made have f below the optimum's,
/// so any A* over these nodes and this heuristic must expand them; 331 of the
/// expanded nodes are rooted at a turning point, 30 at the start. Every link end
/// of the three benchmark levels lies within a millimetre of a wall (the
/// monotone partition puts region corners on obstacles), and at every turn the
/// search makes, a wall at the end points to the side it turns to (or along the
/// root's line): turning only near walls, or only where a wall lies on the
/// turn's side, removes no node there.

#include "exact_orient.h"
#include "query_common.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace spark::nav
{

namespace
{

constexpr uint32_t kNone = 0xffffffffu;
constexpr uint32_t kStartRoot = 0; ///< The start is the first root of a search.

/// A point in the x–z plane (no default initialisation: the chain arrays of
/// `expand` are filled before use).
struct P2
{
    double x, z;
};

P2 flat(const glm::vec3& v)
{
    return P2{v.x, v.z};
}

double cross(const P2& o, const P2& a, const P2& b)
{
    return (a.x - o.x) * (b.z - o.z) - (a.z - o.z) * (b.x - o.x);
}

double dist(const P2& a, const P2& b)
{
    const double dx = a.x - b.x, dz = a.z - b.z;
    return std::sqrt(dx * dx + dz * dz);
}

bool same(const P2& a, const P2& b)
{
    const double dx = a.x - b.x, dz = a.z - b.z;
    return dx * dx + dz * dz < 1.0e-18;
}

P2 pos(const AnyAngleEnd& e)
{
    return P2{e.x, e.z};
}

glm::vec3 point3(const AnyAngleEnd& e)
{
    return glm::vec3(static_cast<float>(e.x), e.y, static_cast<float>(e.z));
}

/// The interval end at mesh point `p`.
AnyAngleEnd meshEnd(const glm::vec3& p)
{
    return AnyAngleEnd{p.x, p.z, p.y, kAnyStretchEnd};
}

bool stretchEnd(const AnyAngleEnd& e)
{
    return e.ray == kAnyStretchEnd;
}

/// The line of a ray, through two mesh points (or the start), `from` before `to`.
struct Ray
{
    P2 from, to;
};

/// The ray from the root at `root` through end `e` of a node (AnyAngleEnd::ray).
[[gnu::always_inline]] inline Ray rayOf(const AnyAngleEnd& e, const P2& root, const NavMesh& mesh,
                                        const ScratchData& s)
{
    if (stretchEnd(e))
        return Ray{root, pos(e)};
    if ((e.ray & kAnyRayFromRoot) == 0)
    {
        const NavLink& l = mesh.link(e.ray >> 1);
        return Ray{root, flat((e.ray & 1) == 0 ? l.a : l.b)};
    }
    return Ray{flat(s.anyRoots[e.ray & ~kAnyRayFromRoot].point), root};
}

/// Which side of the line of ray `r` point `c` lies on (> 0: left). The line
/// is given by two mesh points and `c` is a mesh point, so the sign is exact
/// when the differences of the coordinates and their products are exact in
/// double (coordinates of float meshes within 2^26 of each other in scale,
/// e.g. any grid bake): a vertex on the ray is seen on it, never a rounding's
/// width to one side.
[[gnu::always_inline]] inline double side(const Ray& r, const P2& c)
{
    return detail::orientValue(r.from.x, r.from.z, r.to.x, r.to.z, c.x, c.z);
}

[[gnu::noinline]] double sideSlow(const Ray& r, const P2& c)
{
    return detail::orientValue(r.from.x, r.from.z, r.to.x, r.to.z, c.x, c.z);
}

/// `side` for mesh points, with a static filter: `bound` exceeds the
/// rounding error of the determinant for any three points of the mesh's box
/// (Shewchuk's (3 + 16ε)ε times 2 w², w its larger extent), so a vertex costs
/// one comparison more than the plain determinant unless it lies on the ray
/// (or within that bound of it), where the exact sign is taken.
[[gnu::always_inline]] inline double sideOnMesh(const Ray& r, const P2& c, double bound)
{
    const double det = cross(r.from, r.to, c);
    if (det > bound || -det > bound)
        return det;
    if (c.x == r.to.x && c.z == r.to.z)
        return 0.0; // the ray's own end (the entry edge's ends: two per expansion)
    return sideSlow(r, c);
}

/// The bound of sideOnMesh for `mesh`.
double sideBound(const NavMesh& mesh)
{
    const Bounds3& b = mesh.bounds();
    const double w = std::max(double(b.max.x) - b.min.x, double(b.max.z) - b.min.z);
    // (Computed differences may exceed w by an ulp: the factor covers them.)
    return 3.3306690738754716e-16 * 2.0 * w * w * 1.000001;
}

/// A run of a polygon's ring (NavMesh::ringXZ) read as points.
struct Chain
{
    const glm::dvec2* at;
    P2 operator[](uint32_t i) const { return P2{at[i].x, at[i].y}; }
};

/// The shortest distance from `root` through some point of the interval
/// right–left to `goal`: a goal on the root's side of the interval's line is
/// mirrored in it (a path must cross the line and come back), then the
/// straight line is clamped to the interval.
[[gnu::always_inline]] inline double heuristic(const P2& root, const P2& left, const P2& right,
                                               const P2& goal)
{
    P2 g = goal;
    const double dx = left.x - right.x, dz = left.z - right.z;
    const double l2 = dx * dx + dz * dz;
    if (l2 <= 0.0)
        return dist(root, right) + dist(right, goal);
    const double sg = dx * (g.z - right.z) - dz * (g.x - right.x);
    const double sr = dx * (root.z - right.z) - dz * (root.x - right.x);
    if ((sg > 0.0 && sr > 0.0) || (sg < 0.0 && sr < 0.0))
    {
        const double k = 2.0 * sg / l2;
        g.x += k * dz;
        g.z -= k * dx;
    }
    const double ex = g.x - root.x, ez = g.z - root.z;
    const double den = dx * ez - dz * ex;
    double t;
    if (den == 0.0)
        t = ((root.x - right.x) * dx + (root.z - right.z) * dz) / l2;
    else
        t = ((root.x - right.x) * ez - (root.z - right.z) * ex) / den;
    t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    const P2 p{right.x + dx * t, right.z + dz * t};
    return dist(root, p) + dist(p, g);
}

/// The root record for the point with id `id` (NavMesh::linkEndPoint) at
/// `p`, created with g = +inf when new. Roots are points: the same id, the
/// same root.
[[gnu::always_inline]] inline uint32_t rootOf(ScratchData& s, uint32_t id, const glm::vec3& p)
{
    uint32_t& slot = s.anyRootTable[id];
    if (slot == kNone)
    {
        slot = static_cast<uint32_t>(s.anyRoots.size());
        s.anyRoots.push_back(AnyAngleRoot{p, 1.0e300, id});
    }
    return slot;
}

/// Records that `poly` is entered from `root` at length g; false when it was
/// entered from that root before at a length no greater.
bool firstVisit(ScratchData& s, uint32_t root, uint32_t poly, double g)
{
    constexpr uint64_t kEmpty = ~0ull;
    auto slotOf = [](uint64_t key, size_t mask)
    {
        const uint64_t h = key * 0x9e3779b97f4a7c15ull;
        return static_cast<size_t>(h ^ (h >> 31)) & mask;
    };
    if (s.anySeen.size() < 2 * (size_t(s.anySeenCount) + 1))
    {
        std::vector<AnyAngleSeen> old;
        old.swap(s.anySeen);
        size_t size = std::max<size_t>(64, old.size());
        while (size < 4 * (size_t(s.anySeenCount) + 1))
            size *= 2;
        s.anySeen.assign(size, AnyAngleSeen{kEmpty, 0.0});
        s.anySeenUsed.clear();
        for (const AnyAngleSeen& e : old)
            if (e.key != kEmpty)
            {
                size_t slot = slotOf(e.key, size - 1);
                while (s.anySeen[slot].key != kEmpty)
                    slot = (slot + 1) & (size - 1);
                s.anySeen[slot] = e;
                s.anySeenUsed.push_back(static_cast<uint32_t>(slot));
            }
    }
    const uint64_t key = (uint64_t(root) << 32) | poly;
    const size_t mask = s.anySeen.size() - 1;
    size_t slot = slotOf(key, mask);
    while (s.anySeen[slot].key != kEmpty)
    {
        if (s.anySeen[slot].key == key)
        {
            if (g >= s.anySeen[slot].g)
                return false;
            s.anySeen[slot].g = g;
            return true;
        }
        slot = (slot + 1) & mask;
    }
    s.anySeen[slot] = AnyAngleSeen{key, g};
    s.anySeenUsed.push_back(static_cast<uint32_t>(slot));
    ++s.anySeenCount;
    return true;
}

/// Empties the root table and the seen table of the last search, touching
/// only the slots it used, and sizes the root table for `points` point ids
/// (and the start's).
void clearTables(ScratchData& s, uint32_t points)
{
    for (const AnyAngleRoot& r : s.anyRoots)
        s.anyRootTable[r.id] = kNone;
    if (s.anyRootTable.size() < size_t(points) + 1)
        s.anyRootTable.resize(size_t(points) + 1, kNone);
    s.anyRoots.clear();
    for (const uint32_t slot : s.anySeenUsed)
        s.anySeen[slot].key = ~0ull;
    s.anySeenUsed.clear();
    s.anySeenCount = 0;
}

/// Open-list order: smaller f first, then larger g (deeper first on ties), then smaller node index.
bool openLess(const AnyAngleOpen& a, const AnyAngleOpen& b)
{
    if (a.f != b.f)
        return a.f < b.f;
    if (a.g != b.g)
        return a.g > b.g;
    return a.node < b.node;
}

/// The open list: a binary heap of (f, g, node) entries, smallest (f, −g,
/// node) on top, written out (an entry moves as a hole, not by swaps) over the
/// scratch's vector, whose size only grows (`size` is the heap's). The order
/// is total, so the pops are those of any correct heap.
struct OpenList
{
    std::vector<AnyAngleOpen>& v;
    size_t size = 0;

    [[gnu::noinline]] void grow() { v.resize(std::max<size_t>(64, 2 * v.size())); }

    [[gnu::always_inline]] void push(const AnyAngleOpen& e)
    {
        if (size == v.size())
            grow();
        AnyAngleOpen* at = v.data();
        size_t i = size++;
        while (i > 0)
        {
            const size_t up = (i - 1) / 2;
            if (!openLess(e, at[up]))
                break;
            at[i] = at[up];
            i = up;
        }
        at[i] = e;
    }

    uint32_t pop()
    {
        AnyAngleOpen* at = v.data();
        const uint32_t top = at[0].node;
        const size_t n = --size;
        const AnyAngleOpen last = at[n];
        size_t i = 0;
        for (;;)
        {
            size_t c = 2 * i + 1;
            if (c >= n)
                break;
            if (c + 1 < n && openLess(at[c + 1], at[c]))
                ++c;
            if (!openLess(at[c], last))
                break;
            at[i] = at[c];
            i = c;
        }
        at[i] = last;
        return top;
    }
};

/// Marks polygon `p` reached (for the closest-point fallback; the list is
/// made from the stamps only when the search fails).
[[gnu::always_inline]] inline void reach(ScratchData& s, uint32_t p)
{
    s.stamp[p] = s.searchId;
}

/// The polygons holding point `p` (x–z, a mesh point: exact sides) among
/// `poly` and the polygons linked to it round `p`: one when `p` is inside
/// `poly`, two or more when it lies on an edge or a vertex they share.
void holding(const NavMesh& mesh, uint32_t poly, const P2& p, std::vector<uint32_t>& out)
{
    out.clear();
    out.push_back(poly);
    for (size_t k = 0; k < out.size() && k < 64; ++k)
    {
        const uint32_t q = out[k];
        const uint32_t n = mesh.polygonVertexCount(q);
        const Chain c{mesh.ringXZ(q)};
        bool onBoundary = false;
        for (uint32_t i = 0; i < n; ++i)
        {
            const double side = cross(c[i], c[i + 1], p);
            if (side < 0.0)
                return; // not holding it (only the first, given, can be reached here)
            onBoundary = onBoundary || side == 0.0;
        }
        if (!onBoundary)
            return;
        for (const NavLink& l : mesh.links(q))
        {
            if (std::find(out.begin(), out.end(), l.neighbour) != out.end())
                continue;
            const uint32_t m = mesh.polygonVertexCount(l.neighbour);
            const Chain d{mesh.ringXZ(l.neighbour)};
            bool holds = true;
            for (uint32_t i = 0; i < m && holds; ++i)
                holds = cross(d[i], d[i + 1], p) >= 0.0;
            if (holds)
                out.push_back(l.neighbour);
        }
    }
}

struct Search
{
    const NavMesh& mesh;
    ScratchData& s;
    const QueryFilter& filter;
    P2 goal;
    uint32_t goalPoly;
    const std::vector<uint32_t>& goals; ///< The polygons holding the goal (goalPoly first).
    const std::vector<uint32_t>& starts; ///< The polygons holding the start.
    bool plain;             ///< No excluded area and no disabled polygon: every linked polygon is usable.
    uint8_t turnMask;       ///< linkEndTurn bits that allow a turn: corners, and area borders when an area is excluded.
    uint8_t startTurnMask;  ///< The same for nodes rooted at the start: walls too.
    double sideLimit;       ///< sideBound(mesh).
    uint32_t startOrder;    ///< mesh.bridgeOrder of starts[0].
    uint32_t goalOrder;     ///< mesh.bridgeOrder of goals[0].
    uint32_t count = 0;     ///< Nodes made (the first entries of s.anyNodes, which only grows).
    uint32_t via = kNone;   ///< The `via` of the nodes `add` makes (set by turnOnLine only).
    size_t budget = 0;      ///< anyAngleBudget(mesh): the buffer grows in doublings up to it.

    /// True when a path from root `root` may turn at link end point `id`: a
    /// corner, or a point on a wall seen from the start (which the query snaps
    /// into its polygon only to float precision: on a wall's line it may lie a
    /// rounding's width outside the free space, where even a straight wall's
    /// vertex bends the path). A point with free space all round it (inside
    /// open ground, or on a tile seam) is never turned at.
    bool turnable(uint32_t root, uint32_t id) const
    {
        return (mesh.linkEndTurn(id) & (root == kStartRoot ? startTurnMask : turnMask)) != 0;
    }

    /// Makes room for `more` nodes after the first `count` (the vector only
    /// grows, so nodes stay where they are while a polygon is expanded).
    void makeRoom(size_t more)
    {
        const size_t want = count + more;
        if (want > s.anyNodes.size())
            s.anyNodes.resize(std::max(want, std::min(std::max<size_t>(256, 2 * want), budget)));
    }

    [[gnu::always_inline]] bool isGoal(uint32_t poly) const
    {
        return poly == goalPoly || (goals.size() > 1 && std::find(goals.begin(), goals.end(), poly) != goals.end());
    }

    /// True when a start or goal polygon lies behind a bridge (NavMesh::linkBehind).
    [[gnu::always_inline]] bool holdsEnd(NavMesh::LinkBehind b) const
    {
        auto behind = [&](uint32_t o)
        { return b.lo < b.hi ? (o >= b.lo && o < b.hi) : (o < b.hi || o >= b.lo); };
        if (starts.size() == 1 && goals.size() == 1) // (the usual case: the two orders kept)
            return behind(startOrder) || behind(goalOrder);
        for (const uint32_t p : starts)
            if (behind(mesh.bridgeOrder(p)))
                return true;
        for (const uint32_t p : goals)
            if (behind(mesh.bridgeOrder(p)))
                return true;
        return false;
    }

    bool usable(uint32_t nb) const
    {
        return plain || (!mesh.disabled(nb) && !detail::excluded(filter, mesh.area(nb)));
    }

    /// Adds the node (root, interval right..left on link `link`, entering its neighbour).
    [[gnu::always_inline]] void add(uint32_t parent, uint32_t from, uint32_t root, const P2& rootAt, double g,
                                    uint32_t link, const AnyAngleEnd& right, const AnyAngleEnd& left)
    {
        const uint32_t nb = mesh.link(link).neighbour;
        // A dead end: nothing beyond it but the way in (a shortest path never
        // enters one; it could only come back into the convex polygon it
        // left), or one polygon on that is itself a dead end (the mesh's
        // table, for the link's owner `from`); unless the goal is there.
        const uint32_t dead = mesh.linkDeadEnd(link);
        if (dead != kNone && !isGoal(nb) && !isGoal(dead))
        {
            reach(s, nb);
            reach(s, dead);
            return;
        }
        // The same to any depth: a bridge of the link graph with no start or
        // goal polygon behind it (a path entering there could only leave by
        // the same portal; a maze's side branches). The search succeeds
        // whenever it runs (the caller checked the goal is linked), so the
        // polygons passed over need no stamp.
        const NavMesh::LinkBehind behind = mesh.linkBehind(link);
        if (behind.lo != behind.hi && !holdsEnd(behind))
            return;
        // A root on the interval's line (at an end, or the start on an edge;
        // exactly, on the link's own mesh points) sees the whole polygon
        // beyond whichever way it came in: enter it once per root (this also
        // stops the circling of a fan of polygons round a vertex). A root on
        // the line but beside the interval sees nothing beyond the line: the
        // path can only run on along it and turn at an end of the interval.
        const P2 l2 = pos(left), r2 = pos(right);
        const NavLink& ln = mesh.link(link);
        const bool atEnd = same(rootAt, l2) || same(rootAt, r2);
        if (atEnd || detail::orientExact(ln.a.x, ln.a.z, ln.b.x, ln.b.z, rootAt.x, rootAt.z) == 0)
        {
            if (!atEnd && (r2.x - rootAt.x) * (l2.x - rootAt.x) + (r2.z - rootAt.z) * (l2.z - rootAt.z) > 0.0)
            {
                turnOnLine(parent, from, root, rootAt, g, link, right, left);
                return;
            }
            if (!firstVisit(s, root, nb, g))
                return;
        }
        // Written in place (room was made by `makeRoom`).
        AnyAngleNode& n = s.anyNodes[count++]; // put on the open list by the search loop
        n.left = left;
        n.right = right;
        n.g = g;
        n.f = g + heuristic(rootAt, l2, r2, goal);
        n.root = root;
        n.poly = nb;
        n.link = link;
        n.from = from;
        n.parent = parent;
        n.via = via;
    }

    /// The node (interval right..left on link `link`) seen from `rootAt` on
    /// the interval's line beside it: made rooted at each end of the interval
    /// a path may turn at (a corner that is a stretch end), reached along the
    /// line (issue 34: treating such a root as seeing the polygon beyond
    /// crossed walls; a path along a wall turns at its end this way).
    void turnOnLine(uint32_t parent, uint32_t from, uint32_t root, const P2& rootAt, double g, uint32_t link,
                    const AnyAngleEnd& right, const AnyAngleEnd& left)
    {
        const NavLink& ln = mesh.link(link);
        for (uint32_t end = 0; end < 2; ++end)
        {
            const AnyAngleEnd& e = end == 0 ? right : left;
            const uint32_t id = mesh.linkEndPoint(link, end);
            if (!stretchEnd(e) || !turnable(root, id))
                continue;
            const P2 at = pos(e);
            const double eg = g + dist(rootAt, at);
            const uint32_t r = rootOf(s, id, point3(e));
            if (!(eg <= s.anyRoots[r].g * (1.0 + 1.0e-12) + 1.0e-9))
                continue;
            s.anyRoots[r].g = std::min(s.anyRoots[r].g, eg);
            makeRoom(1);
            via = root; // (the root may be a turn no node of its own records)
            add(parent, from, r, at, eg, link, meshEnd(ln.a), meshEnd(ln.b));
            via = kNone;
        }
    }

    /// The edge of `poly` the interval (on link `link`, owned by `from`) lies
    /// on: the edge of `poly`'s link back to `from`; with several, the one
    /// whose stretch holds the interval's middle.
    uint32_t entryEdge(std::span<const NavLink> links, uint32_t link, uint32_t from, const P2& a,
                       const P2& b) const
    {
        // Usually one edge of `poly` links back to `from`: the mesh's table has it.
        const uint32_t only = mesh.linkBackEdge(link);
        if (only != kNone)
            return only;
        const P2 mid{0.5 * (a.x + b.x), 0.5 * (a.z + b.z)};
        uint32_t best = 0;
        double bestOff = 1.0e300;
        for (const NavLink& l : links)
        {
            if (l.neighbour != from)
                continue;
            const P2 u = flat(l.a), v = flat(l.b);
            const double len2 = (v.x - u.x) * (v.x - u.x) + (v.z - u.z) * (v.z - u.z);
            double off = std::abs(cross(u, v, mid)) / std::sqrt(std::max(len2, 1e-300));
            const double t =
                len2 > 0.0 ? ((mid.x - u.x) * (v.x - u.x) + (mid.z - u.z) * (v.z - u.z)) / len2 : 0.0;
            off += t < 0.0 ? -t : (t > 1.0 ? t - 1.0 : 0.0);
            if (off < bestOff)
            {
                bestOff = off;
                best = l.edge;
            }
        }
        return best;
    }

    void expand(uint32_t index)
    {
        // At most three successors per link (a stretch cut by the two rays).
        makeRoom(3 * mesh.links(s.anyNodes[index].poly).size());
        const AnyAngleNode node = s.anyNodes[index];
        const uint32_t poly = node.poly;
        const uint32_t n = mesh.polygonVertexCount(poly);
        const P2 root = flat(s.anyRoots[node.root].point);
        const P2 L = pos(node.left), R = pos(node.right);
        const std::span<const NavLink> links = mesh.links(poly);
        const uint32_t firstLink = mesh.firstLink(poly); // links[i] is link firstLink + i
        const uint32_t k = entryEdge(links, node.link, node.from, L, R);
        // Chain vertices c[0] = v[k+1] .. c[n-1] = v[k] (a run of the mesh's
        // doubled ring), and their heights cy.
        const Chain c{mesh.ringXZ(poly) + (k + 1)};
        const float* cy = mesh.ringY(poly) + (k + 1);

        // Right ray root → R: first crossing from right of it to left of it.
        double rightHit = 0.0;
        if (!same(root, R))
        {
            const Ray ray = rayOf(node.right, root, mesh, s);
            auto side = [&](const P2& p) { return sideOnMesh(ray, p, sideLimit); };
            double prev = side(c[0]);
            if (prev > 0.0)
                prev = 0.0;
            rightHit = static_cast<double>(n - 1);
            for (uint32_t i = 1; i < n; ++i)
            {
                const double cur = (i == n - 1) ? std::max(0.0, side(c[i])) : side(c[i]);
                if (cur >= 0.0)
                {
                    const double t = prev == cur ? 0.0 : prev / (prev - cur);
                    rightHit = (i - 1) + std::clamp(t, 0.0, 1.0);
                    break;
                }
                prev = cur;
            }
        }
        // Left ray root → L: last crossing from right of it to left of it.
        double leftHit = static_cast<double>(n - 1);
        if (!same(root, L))
        {
            const Ray ray = rayOf(node.left, root, mesh, s);
            auto side = [&](const P2& p) { return sideOnMesh(ray, p, sideLimit); };
            double next = side(c[n - 1]);
            if (next < 0.0)
                next = 0.0;
            leftHit = 0.0;
            for (int i = static_cast<int>(n) - 2; i >= 0; --i)
            {
                const double cur = (i == 0) ? std::min(0.0, side(c[i])) : side(c[i]);
                if (cur <= 0.0)
                {
                    const double t = cur == next ? 1.0 : cur / (cur - next);
                    leftHit = i + std::clamp(t, 0.0, 1.0);
                    break;
                }
                next = cur;
            }
        }
        if (leftHit < rightHit)
            leftHit = rightHit; // numerically crossed rays: nothing observable

        // Other stretches of the entry edge (T-junctions on the same line) can
        // only be reached by turning at an interval end: those before L (edge
        // parameter below L's) at L, those after R at R.
        const P2 ek = c[n - 1], ek1 = c[0]; // entry edge v[k] → v[k+1]
        const double elen2 = (ek1.x - ek.x) * (ek1.x - ek.x) + (ek1.z - ek.z) * (ek1.z - ek.z);
        auto edgeParam = [&](const P2& p) {
            return elen2 > 0.0 ? ((p.x - ek.x) * (ek1.x - ek.x) + (p.z - ek.z) * (ek1.z - ek.z)) / elen2
                               : 0.0;
        };
        // (Only needed when a successor may be rooted at an interval end: an
        // end that is a stretch end, or the root itself.)
        const bool rootL = same(root, L), rootR = same(root, R);
        const bool endsMatter = stretchEnd(node.left) || stretchEnd(node.right) || rootL || rootR;
        double tL = 0.0, tR = 0.0;
        bool sameLeft = false, sameRight = false;
        if (endsMatter)
        {
            tL = edgeParam(L);
            tR = edgeParam(R);
            if ((stretchEnd(node.right) && !(rightHit > 0.0)) ||
                (stretchEnd(node.left) && !(leftHit < n - 1)))
                for (const NavLink& link : links)
                    if (link.edge == k && usable(link.neighbour))
                    {
                        sameLeft = sameLeft || link.tMax <= tL + 1.0e-7;
                        sameRight = sameRight || link.tMin >= tR - 1.0e-7;
                    }
        }

        // Roots for turning at the interval's ends.
        uint32_t rightRoot = kNone, leftRoot = kNone;
        double rightG = 0.0, leftG = 0.0;
        const uint32_t rightId = mesh.linkEndPoint(node.link, 0);
        const uint32_t leftId = mesh.linkEndPoint(node.link, 1);
        if (stretchEnd(node.right) && (rightHit > 0.0 || sameRight) && !rootR && turnable(node.root, rightId))
        {
            rightG = node.g + dist(root, R);
            const uint32_t r = rootOf(s, rightId, point3(node.right));
            if (rightG <= s.anyRoots[r].g * (1.0 + 1.0e-12) + 1.0e-9)
            {
                s.anyRoots[r].g = std::min(s.anyRoots[r].g, rightG);
                rightRoot = r;
            }
        }
        if (stretchEnd(node.left) && (leftHit < n - 1 || sameLeft) && !rootL && turnable(node.root, leftId))
        {
            leftG = node.g + dist(root, L);
            const uint32_t r = rootOf(s, leftId, point3(node.left));
            if (leftG <= s.anyRoots[r].g * (1.0 + 1.0e-12) + 1.0e-9)
            {
                s.anyRoots[r].g = std::min(s.anyRoots[r].g, leftG);
                leftRoot = r;
            }
        }

        const bool turns = rightRoot != kNone || leftRoot != kNone;
        // The rays of cut ends (AnyAngleEnd::ray): seen from the node's root,
        // a cut by the ray through a stretch end runs to that link end, and a
        // cut by a cut end's ray keeps that ray; seen from a turn at an
        // interval end, the ray runs from the node's root to that end.
        const uint32_t rightRay = stretchEnd(node.right) ? 2 * node.link : node.right.ray;
        const uint32_t leftRay = stretchEnd(node.left) ? 2 * node.link + 1 : node.left.ray;
        const uint32_t turnRay = kAnyRayFromRoot | node.root;
        for (const NavLink& link : links)
        {
            const uint32_t i = link.edge > k ? link.edge - k - 1 : link.edge + n - k - 1; // chain edge index
            if (!usable(link.neighbour))
                continue;
            if (i == n - 1)
            {
                if (!endsMatter)
                    continue;
                const uint32_t li = firstLink + static_cast<uint32_t>(&link - links.data());
                if (link.tMax <= tL + 1.0e-7)
                {
                    if (rootL)
                        add(index, poly, node.root, root, node.g, li, meshEnd(link.a), meshEnd(link.b));
                    else if (leftRoot != kNone)
                        add(index, poly, leftRoot, L, leftG, li, meshEnd(link.a), meshEnd(link.b));
                }
                else if (link.tMin >= tR - 1.0e-7)
                {
                    if (rootR)
                        add(index, poly, node.root, root, node.g, li, meshEnd(link.a), meshEnd(link.b));
                    else if (rightRoot != kNone)
                        add(index, poly, rightRoot, R, rightG, li, meshEnd(link.a), meshEnd(link.b));
                }
                continue;
            }
            const double p0 = i + static_cast<double>(link.tMin);
            const double p1 = i + static_cast<double>(link.tMax);
            // Without a turn, only the stretches the observable part meets
            // give a successor: the others are passed over before any work.
            if (!turns && !(std::min(p1, leftHit) > std::max(p0, rightHit)))
                continue;
            const uint32_t li = firstLink + static_cast<uint32_t>(&link - links.data());
            const P2 u = c[i], v = c[i + 1];
            // A cut by a ray: the point where the ray's line meets the edge
            // (at parameter p − i, from the sides of the edge's ends), on that line.
            auto cut = [&](double p, uint32_t ray)
            {
                const double t = p - i;
                return AnyAngleEnd{u.x + (v.x - u.x) * t, u.z + (v.z - u.z) * t,
                                   cy[i] + (cy[i + 1] - cy[i]) * static_cast<float>(t), ray};
            };
            // A piece [lo, hi] of the stretch seen from `rootAt`; a cut end
            // lies on ray `loRay` (lo) or `hiRay` (hi).
            auto piece = [&](double lo, double hi, uint32_t rootIndex, const P2& rootAt, double g,
                             uint32_t loRay, uint32_t hiRay) __attribute__((always_inline))
            {
                if (!(hi > lo))
                    return;
                // A cut that lands on the stretch's end (to rounding) is that end.
                const bool loEnd = lo - p0 <= 1.0e-9, hiEnd = p1 - hi <= 1.0e-9;
                add(index, poly, rootIndex, rootAt, g, li, loEnd ? meshEnd(link.a) : cut(lo, loRay),
                    hiEnd ? meshEnd(link.b) : cut(hi, hiRay));
            };
            // Non-observable on the right: [0, rightHit), its cut on the right ray's line.
            if (rightRoot != kNone && p0 < rightHit)
                piece(p0, std::min(p1, rightHit), rightRoot, R, rightG, turnRay, turnRay);
            // Observable: [rightHit, leftHit].
            piece(std::max(p0, rightHit), std::min(p1, leftHit), node.root, root, node.g, rightRay, leftRay);
            // Non-observable on the left: (leftHit, n − 1], its cut on the left ray's line.
            if (leftRoot != kNone && p1 > leftHit)
                piece(std::max(p0, leftHit), p1, leftRoot, L, leftG, turnRay, turnRay);
        }
    }
};

} // namespace

size_t detail::anyAngleBudget(const NavMesh& mesh)
{
    return std::clamp<size_t>(64 * size_t(mesh.polygonCount()), size_t(1) << 18, size_t(1) << 22);
}

detail::AnyAngleOutcome detail::anyAngleSearch(const NavMesh& mesh, ScratchData& s, const MeshPoint& start,
                                               const glm::vec3& goal, uint32_t goalPoly, const QueryFilter& filter)
{
    detail::beginSearch(s, mesh.polygonCount());
    s.list.clear();
    clearTables(s, mesh.linkEndPointCount());
    s.anyGoalNode = kNone;
    s.anyNodesMade = 0;
    reach(s, start.polygon);
    if (start.polygon == goalPoly)
        return AnyAngleOutcome::found;
    // A start or goal on an edge or vertex lies in every polygon sharing it:
    // the search leaves from all of them, and ends in any.
    std::vector<uint32_t>& starts = s.anyStarts;
    std::vector<uint32_t>& goals = s.anyGoals;
    holding(mesh, start.polygon, flat(start.point), starts);
    holding(mesh, goalPoly, flat(goal), goals);
    Search search{mesh,
                  s,
                  filter,
                  flat(goal),
                  goalPoly,
                  goals,
                  starts,
                  filter.excludedAreas == 0 && mesh.disabledCount() == 0,
                  uint8_t(NavMesh::kTurnCorner | (filter.excludedAreas != 0 ? NavMesh::kTurnAreas : 0)),
                  uint8_t(NavMesh::kTurnCorner | NavMesh::kTurnWall |
                          (filter.excludedAreas != 0 ? NavMesh::kTurnAreas : 0)),
                  sideBound(mesh),
                  mesh.bridgeOrder(starts[0]),
                  mesh.bridgeOrder(goals[0])};
    search.budget = anyAngleBudget(mesh);
    const uint32_t startRoot = rootOf(s, mesh.linkEndPointOf(start.point), start.point);
    assert(startRoot == kStartRoot);
    s.anyRoots[startRoot].g = 0.0;
    for (const uint32_t from : starts)
    {
        if (from != start.polygon && !search.usable(from))
            continue;
        reach(s, from);
        search.makeRoom(mesh.links(from).size());
        const std::span<const NavLink> links = mesh.links(from);
        for (uint32_t i = 0; i < links.size(); ++i)
            if (search.usable(links[i].neighbour))
                search.add(kNone, from, startRoot, flat(start.point), 0.0, mesh.firstLink(from) + i,
                           meshEnd(links[i].a), meshEnd(links[i].b));
    }
    auto entry = [&](uint32_t i) { return AnyAngleOpen{s.anyNodes[i].f, s.anyNodes[i].g, i}; };
    OpenList open{s.anyHeap};
    for (uint32_t i = 0; i < search.count; ++i)
        open.push(entry(i));
    uint32_t index = kNone;
    for (;;)
    {
        if (index == kNone)
        {
            if (open.size == 0)
                break;
            index = open.pop();
        }
        const AnyAngleNode& node = s.anyNodes[index];
        if (node.g > s.anyRoots[node.root].g * (1.0 + 1.0e-12) + 1.0e-9)
        {
            index = kNone;
            continue; // its root was reached more cheaply since
        }
        reach(s, node.poly);
        if (search.isGoal(node.poly))
        {
            s.anyGoalNode = index;
            s.anyNodesMade = search.count;
            return AnyAngleOutcome::found;
        }
        if (search.count > search.budget)
        {
            s.anyNodesMade = search.count;
            return AnyAngleOutcome::overBudget;
        }
        const uint32_t first = search.count;
        search.expand(index);
        const uint32_t end = search.count;
        // The successors go on the open list, but the least of them skips it
        // when it comes before the list's top: it is what the next pop would
        // give (the order is total), so the order of expansion is unchanged.
        index = kNone;
        if (first == end)
            continue;
        uint32_t least = first;
        for (uint32_t i = first + 1; i < end; ++i)
            if (openLess(entry(i), entry(least)))
                least = i;
        for (uint32_t i = first; i < end; ++i)
            if (i != least)
                open.push(entry(i));
        if (open.size == 0 || openLess(entry(least), s.anyHeap[0]))
            index = least;
        else
            open.push(entry(least));
    }
    s.anyNodesMade = search.count;
    // Not reached: list every polygon reached, from the stamps.
    for (uint32_t p = 0; p < mesh.polygonCount(); ++p)
        if (s.stamp[p] == s.searchId)
            s.list.push_back(p);
    return AnyAngleOutcome::unreached;
}

void detail::anyAngleCorridor(const NavMesh& mesh, const ScratchData& s, uint32_t startPoly,
                              const glm::vec3& start, const glm::vec3& end, std::vector<uint32_t>& polygons,
                              std::vector<uint32_t>& vias, std::vector<glm::vec3>& points)
{
    polygons.clear();
    vias.clear();
    points.clear();
    // (Consecutive points equal in x–z and height are kept once, as the funnel does.)
    auto pushPoint = [&](const glm::vec3& p)
    {
        const float dx = points.back().x - p.x, dz = points.back().z - p.z;
        if (!(dx * dx + dz * dz < 1.0e-12f) || points.back().y != p.y)
            points.push_back(p);
    };
    points.push_back(end);
    if (s.anyGoalNode != kNone)
    {
        // The last leg bends at an end of the goal node's interval when the
        // goal is not seen through it (where the heuristic clamps).
        const AnyAngleNode& node = s.anyNodes[s.anyGoalNode];
        const P2 root = flat(s.anyRoots[node.root].point), goal = flat(end), L = pos(node.left),
                 R = pos(node.right);
        const double dx = L.x - R.x, dz = L.z - R.z;
        const double ex = goal.x - root.x, ez = goal.z - root.z;
        const double den = dx * ez - dz * ex;
        const double l2 = dx * dx + dz * dz;
        double t;
        if (l2 <= 0.0)
            t = -1.0; // a point: the path passes through it
        else if (den == 0.0)
            t = ((root.x - R.x) * dx + (root.z - R.z) * dz) / l2;
        else
            t = ((root.x - R.x) * ez - (root.z - R.z) * ex) / den;
        // Beside a ray through a mesh point, the side of its line decides
        // (exactly: a goal on the ray is passed straight through).
        if (l2 > 0.0 && !same(root, R))
            t = side(rayOf(node.right, root, mesh, s), goal) < 0.0 ? -1.0
                                                                                     : std::max(t, 0.0);
        if (l2 > 0.0 && !same(root, L))
            t = side(rayOf(node.left, root, mesh, s), goal) > 0.0 ? 2.0 : std::min(t, 1.0);
        if (t < 0.0)
            pushPoint(point3(node.right));
        else if (t > 1.0)
            pushPoint(point3(node.left));
    }
    uint32_t root = kNone;
    for (uint32_t i = s.anyGoalNode; i != kNone; i = s.anyNodes[i].parent)
    {
        const AnyAngleNode& node = s.anyNodes[i];
        if (node.parent == kNone)
            startPoly = node.from; // the start polygon the search left from (the start on its boundary)
        polygons.push_back(node.poly);
        vias.push_back(node.link);
        // (Not the start's root, pushed last. A start node can have another
        // root: seen from a start on a link's line beside it, it is rooted at
        // the link's end (turnOnLine), a turn the path must keep.)
        if (node.root != root && node.root != kStartRoot)
        {
            root = node.root;
            pushPoint(s.anyRoots[root].point);
        }
        if (node.via != kNone)
            pushPoint(s.anyRoots[node.via].point); // the turn before the root, on the same line
    }
    pushPoint(start);
    polygons.push_back(startPoly);
    std::reverse(polygons.begin(), polygons.end());
    std::reverse(vias.begin(), vias.end());
    std::reverse(points.begin(), points.end());
    // A root the path passes straight through (a tie between turning at a
    // point on the line and not turning: the same length) is not a corner
    // of the path: dropped when exactly on the line of its neighbours, at
    // the same height.
    size_t kept = 1;
    for (size_t i = 1; i + 1 < points.size(); ++i)
    {
        const P2 a = flat(points[kept - 1]), b = flat(points[i]), c = flat(points[i + 1]);
        const bool straight = cross(a, b, c) == 0.0 && (b.x - a.x) * (c.x - b.x) + (b.z - a.z) * (c.z - b.z) > 0.0 &&
                              points[kept - 1].y == points[i].y && points[i].y == points[i + 1].y;
        if (!straight)
            points[kept++] = points[i];
    }
    if (points.size() > 1)
    {
        points[kept++] = points.back();
        points.resize(kept);
    }
}

void detail::anyAngleRelease(ScratchData& s)
{
    if (s.anyNodes.size() > kAnyAngleKeptNodes)
        std::vector<AnyAngleNode>().swap(s.anyNodes);
    if (s.anyHeap.size() > kAnyAngleKeptNodes)
        std::vector<AnyAngleOpen>().swap(s.anyHeap);
    if (s.anySeen.size() > 4 * kAnyAngleKeptNodes)
    {
        std::vector<AnyAngleSeen>().swap(s.anySeen);
        std::vector<uint32_t>().swap(s.anySeenUsed);
        s.anySeenCount = 0;
    }
}

} // namespace spark::nav
