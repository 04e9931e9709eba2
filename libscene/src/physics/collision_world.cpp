// The collision world: a bounding-volume hierarchy over the static colliders
// (built top-down, median split on the longest axis of the centroids, ties by
// index, at most 2 colliders per leaf) and the moving colliders sorted by the
// low x of their bounds (sweep and prune on one axis, kept sorted as they move).
// Ray casts walk the tree nearest child first and stop at the best hit so far;
// region queries answer indices sorted ascending so callers see the same order
// whatever the tree looks like.
//
// A placed model (a trimesh or convex hull on many objects) is one box of the
// world's tree; its triangles stay in model space in the model's own tree,
// shared by every object. A box query walks the model's tree with each box
// placed in the world (its placed box holds every placed point in it); a ray
// maps its segment into model space (placements are affine: the segment's
// parameter is the same on both sides). Boxes are padded far past any
// rounding, and each candidate is tested as the world-space triangle placing
// it by hand gives, so the answers equal those of the triangles listed one by one.

#include "spark/scene/physics.h"

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace spark::scene::physics
{
namespace
{

using glm::dvec3;

constexpr uint32_t kLeafSize = 2;

Bounds merge(const Bounds& a, const Bounds& b) { return {glm::min(a.min, b.min), glm::max(a.max, b.max)}; }

bool overlaps(const Bounds& a, const Bounds& b)
{
    return a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y &&
           a.min.z <= b.max.z && b.min.z <= a.max.z;
}

// Slab test of the segment o + t·d (t in [0, tMax]) against a box; the entry t or −1.
double rayBounds(const Bounds& b, const dvec3& o, const dvec3& invD, const std::array<bool, 3>& zero, double tMax)
{
    double t0 = 0.0, t1 = tMax;
    for (int i = 0; i < 3; ++i)
    {
        if (zero[i])
        {
            if (o[i] < b.min[i] || o[i] > b.max[i])
                return -1.0;
            continue;
        }
        double a = (b.min[i] - o[i]) * invD[i], c = (b.max[i] - o[i]) * invD[i];
        if (a > c)
            std::swap(a, c);
        t0 = std::max(t0, a);
        t1 = std::min(t1, c);
        if (t0 > t1)
            return -1.0;
    }
    return t0;
}

bool ignored(std::span<const uint32_t> ignoreOwners, uint32_t owner)
{
    return std::binary_search(ignoreOwners.begin(), ignoreOwners.end(), owner);
}

uint32_t buildNode(BoundsTree& io, uint32_t begin, uint32_t end)
{
    const uint32_t index = static_cast<uint32_t>(io.nodes.size());
    io.nodes.push_back({});
    Bounds b = io.boxes[io.order[begin]];
    Bounds centroids{(b.min + b.max) * 0.5, (b.min + b.max) * 0.5};
    for (uint32_t i = begin + 1; i < end; ++i)
    {
        const Bounds& o = io.boxes[io.order[i]];
        b = merge(b, o);
        const dvec3 c = (o.min + o.max) * 0.5;
        centroids = merge(centroids, {c, c});
    }
    io.nodes[index].bounds = b;
    if (end - begin <= kLeafSize)
    {
        io.nodes[index].first = begin;
        io.nodes[index].count = end - begin;
        return index;
    }
    const dvec3 extent = centroids.max - centroids.min;
    const int axis = extent.x >= extent.y && extent.x >= extent.z ? 0 : (extent.y >= extent.z ? 1 : 2);
    auto key = [&](uint32_t i) {
        const Bounds& o = io.boxes[i];
        return o.min[axis] + o.max[axis];
    };
    std::sort(io.order.begin() + begin, io.order.begin() + end, [&](uint32_t a, uint32_t c) {
        const double ka = key(a), kc = key(c);
        return ka < kc || (ka == kc && a < c);
    });
    const uint32_t mid = begin + (end - begin) / 2;
    const uint32_t left = buildNode(io, begin, mid);
    const uint32_t right = buildNode(io, mid, end);
    io.nodes[index].first = left;
    io.nodes[index].right = right;
    io.nodes[index].count = 0;
    return index;
}

// Calls `fn(i)` for every box of the tree that `keep` accepts, in tree order
// (`keep` must accept a node's box whenever it accepts a box inside it).
template <class Keep, class Fn> void walkTree(const BoundsTree& tree, Keep&& keep, Fn&& fn)
{
    if (tree.nodes.empty())
        return;
    uint32_t stack[64];
    int top = 0;
    stack[top++] = 0;
    while (top > 0)
    {
        const BoundsTree::Node& n = tree.nodes[stack[--top]];
        if (!keep(n.bounds))
            continue;
        if (n.count > 0)
        {
            for (uint32_t i = n.first; i < n.first + n.count; ++i)
                if (keep(tree.boxes[tree.order[i]]))
                    fn(tree.order[i]);
            continue;
        }
        if (top + 2 <= 64)
        {
            stack[top++] = n.right;
            stack[top++] = n.first;
        }
    }
}

// Calls `fn(i)` for every box of the tree overlapping `box`.
template <class Fn> void walkBoxes(const BoundsTree& tree, const Bounds& box, Fn&& fn)
{
    walkTree(tree, [&](const Bounds& b) { return overlaps(b, box); }, fn);
}

double maxAbs(const dvec3& v) { return std::max({std::abs(v.x), std::abs(v.y), std::abs(v.z)}); }

// Padding of model-space boxes: far past the rounding of placing a point and
// of mapping one back (a few ulps of the magnitudes involved), far below any
// geometry. Candidates it lets in are tested exactly in world space.
constexpr double kSlack = 1e-9;
// A scale below this on an axis flattens the model on it: no filtering there.
constexpr double kFlatScale = 1e-12;

double worldMagnitude(const TriangleModel& m, const Placement& p)
{
    return maxAbs(p.position) + (std::abs(p.scale.x) + std::abs(p.scale.y) + std::abs(p.scale.z)) * m.extent + 1.0;
}

bool flattened(const Placement& p)
{
    return std::abs(p.scale.x) < kFlatScale || std::abs(p.scale.y) < kFlatScale || std::abs(p.scale.z) < kFlatScale;
}

// The world-space triangle `t` of a placed model: the vertices placed one by
// one, the centre their mean (as listing the triangles by hand gives them).
Shape placedTriangle(const TriangleModel& m, const Placement& p, uint32_t t)
{
    Shape tri;
    tri.kind = CoreKind::Triangle;
    for (int k = 0; k < 3; ++k)
        tri.vertex[k] = placePoint(p, m.vertices[m.indices[3 * size_t{t} + k]]);
    tri.center = (tri.vertex[0] + tri.vertex[1] + tri.vertex[2]) / 3.0;
    return tri;
}

// A world box holding the model-space box `local` placed: the placed centre ±
// the placed half extents (exact for a parallelepiped's box), padded by `pad`.
Bounds placedBox(const Placement& p, const Bounds& local, double pad)
{
    const dvec3 c = (local.min + local.max) * 0.5, h = (local.max - local.min) * 0.5;
    dvec3 half(pad);
    for (int k = 0; k < 3; ++k)
        half += glm::abs(p.axis[k] * p.scale[k]) * h[k];
    const dvec3 w = placePoint(p, c);
    return {w - half, w + half};
}

// A world box holding every placed vertex of a model.
Bounds placedBounds(const TriangleModel& m, const Placement& p)
{
    return placedBox(p, m.bounds, kSlack * worldMagnitude(m, p));
}

// Calls `fn(t)` for every triangle of a placed model whose world bounds may
// overlap `box` (a superset: each candidate is tested exactly by the caller).
template <class Fn> void walkPlaced(const TriangleModel& m, const Placement& p, const Bounds& box, Fn&& fn)
{
    const double pad = kSlack * worldMagnitude(m, p);
    walkTree(m.tree, [&](const Bounds& local) { return overlaps(placedBox(p, local, pad), box); }, fn);
}

// A world point in model space along the axes the placement does not flatten.
dvec3 toLocal(const Placement& p, const dvec3& w)
{
    const dvec3 d = w - p.position;
    dvec3 out(0.0);
    for (int k = 0; k < 3; ++k)
        if (std::abs(p.scale[k]) >= kFlatScale)
            out[k] = glm::dot(d, p.axis[k]) / p.scale[k];
    return out;
}

// Model-space padding for world points of magnitude up to `worldMax`.
dvec3 localPad(const TriangleModel& m, const Placement& p, double worldMax)
{
    const double magnitude = worldMax + worldMagnitude(m, p);
    dvec3 pad(0.0);
    for (int k = 0; k < 3; ++k)
        pad[k] = std::abs(p.scale[k]) >= kFlatScale ? kSlack * (magnitude / std::abs(p.scale[k]) + m.extent + 1.0)
                                                    : std::numeric_limits<double>::infinity();
    return pad;
}

// Walks a tree nearest box first for a segment: `entry(box, tMax)` is where
// the segment enters a box (−1: not at all, or past tMax), `limit()` the best
// hit so far (boxes entered past it are skipped); `leaf(i)` is called for the
// boxes of each leaf reached (with `testLeaves`, only for those it enters).
// Each node's box is tested once, by its parent; the nearer child goes first.
template <class Entry, class Limit, class Leaf>
void walkNearestFirst(const BoundsTree& tree, Entry&& entry, Limit&& limit, bool testLeaves, Leaf&& leaf)
{
    if (tree.nodes.empty())
        return;
    struct Item
    {
        uint32_t node;
        double t;
    };
    Item stack[64];
    int top = 0;
    const double t0 = entry(tree.nodes[0].bounds, 1.0);
    if (t0 >= 0.0)
        stack[top++] = {0, t0};
    while (top > 0)
    {
        const Item e = stack[--top];
        const double lim = limit();
        if (e.t > lim)
            continue;
        const BoundsTree::Node& n = tree.nodes[e.node];
        if (n.count > 0)
        {
            for (uint32_t i = n.first; i < n.first + n.count; ++i)
                if (!testLeaves || entry(tree.boxes[tree.order[i]], lim) >= 0.0)
                    leaf(tree.order[i]);
            continue;
        }
        const double tl = entry(tree.nodes[n.first].bounds, lim);
        const double tr = entry(tree.nodes[n.right].bounds, lim);
        if (top + 2 > 64)
            continue; // deeper than any tree of <= 2^60 leaves: never reached
        const bool leftFirst = tl >= 0.0 && (tr < 0.0 || tl <= tr);
        if (leftFirst)
        {
            if (tr >= 0.0)
                stack[top++] = {n.right, tr};
            stack[top++] = {n.first, tl};
        }
        else if (tr >= 0.0)
        {
            if (tl >= 0.0)
                stack[top++] = {n.first, tl};
            stack[top++] = {n.right, tr};
        }
    }
}

// The reciprocal direction of a segment for the slab test (0 where it does not move).
dvec3 inverseDirection(const dvec3& d, std::array<bool, 3>& outZero)
{
    outZero = {d.x == 0.0, d.y == 0.0, d.z == 0.0};
    return {outZero[0] ? 0.0 : 1.0 / d.x, outZero[1] ? 0.0 : 1.0 / d.y, outZero[2] ? 0.0 : 1.0 / d.z};
}

// Calls `fn(t)` for every triangle of a placed model the segment may hit,
// nearest box first, skipping boxes entered past `limit()`.
template <class Limit, class Fn>
void walkSegment(const TriangleModel& m, const Placement& p, const dvec3& from, const dvec3& to, Limit&& limit, Fn&& fn)
{
    if (flattened(p))
    {
        walkPlaced(m, p, {glm::min(from, to), glm::max(from, to)}, fn);
        return;
    }
    const dvec3 o = toLocal(p, from);
    const dvec3 pad = localPad(m, p, std::max(maxAbs(from), maxAbs(to)));
    std::array<bool, 3> zero{};
    const dvec3 invD = inverseDirection(toLocal(p, to) - o, zero);
    auto entry = [&](const Bounds& b, double tMax) { return rayBounds({b.min - pad, b.max + pad}, o, invD, zero, tMax); };
    walkNearestFirst(m.tree, entry, limit, true, fn);
}

} // namespace

void BoundsTree::build(std::vector<Bounds> boxesIn)
{
    boxes = std::move(boxesIn);
    order.resize(boxes.size());
    for (uint32_t i = 0; i < order.size(); ++i)
        order[i] = i;
    nodes.clear();
    if (!boxes.empty())
    {
        nodes.reserve(2 * (boxes.size() / kLeafSize + 1));
        buildNode(*this, 0, static_cast<uint32_t>(boxes.size()));
    }
}

dvec3 placePoint(const Placement& p, const dvec3& local)
{
    const dvec3 s = local * p.scale;
    return p.position + p.axis[0] * s.x + p.axis[1] * s.y + p.axis[2] * s.z;
}

std::shared_ptr<const TriangleModel> makeTriangleModel(std::span<const glm::vec3> vertices,
                                                       std::span<const uint32_t> indices)
{
    auto model = std::make_shared<TriangleModel>();
    model->vertices.assign(vertices.begin(), vertices.end());
    const size_t triangles = indices.size() / 3;
    model->indices.assign(indices.begin(), indices.begin() + 3 * triangles);
    std::vector<Bounds> boxes(triangles);
    for (size_t t = 0; t < triangles; ++t)
    {
        const dvec3 a = model->vertices[model->indices[3 * t]], b = model->vertices[model->indices[3 * t + 1]],
                    c = model->vertices[model->indices[3 * t + 2]];
        boxes[t] = {glm::min(a, glm::min(b, c)), glm::max(a, glm::max(b, c))};
    }
    if (!model->vertices.empty())
    {
        model->bounds = {model->vertices[0], model->vertices[0]};
        for (const dvec3& v : model->vertices)
        {
            model->bounds = merge(model->bounds, {v, v});
            model->extent = std::max({model->extent, std::abs(v.x), std::abs(v.y), std::abs(v.z)});
        }
    }
    model->tree.build(std::move(boxes));
    return model;
}

void CollisionWorld::setStatic(std::vector<Collider> colliders)
{
    std::vector<StaticItem> items(colliders.size());
    for (size_t i = 0; i < colliders.size(); ++i)
        items[i].collider = colliders[i];
    setStatic(std::move(items));
    m_plain = std::move(colliders);
}

void CollisionWorld::setStatic(std::vector<StaticItem> items)
{
    m_plain.clear();
    m_items = std::move(items);
    m_itemBase.assign(1, 0);
    std::vector<Bounds> boxes;
    boxes.reserve(m_items.size());
    for (const StaticItem& item : m_items)
    {
        const size_t count = item.model ? item.model->indices.size() / 3 : 1;
        m_itemBase.push_back(static_cast<uint32_t>(m_itemBase.back() + count));
        boxes.push_back(item.model ? placedBounds(*item.model, item.placement) : shapeBounds(item.collider.shape));
    }
    m_tree.build(std::move(boxes));
}

Collider CollisionWorld::staticCollider(uint32_t index) const
{
    const auto it = std::upper_bound(m_itemBase.begin(), m_itemBase.end(), index);
    const auto item = static_cast<size_t>(it - m_itemBase.begin()) - 1;
    const StaticItem& s = m_items[item];
    if (!s.model)
        return s.collider;
    return {placedTriangle(*s.model, s.placement, index - m_itemBase[item]), s.collider.owner};
}

void CollisionWorld::queryItem(uint32_t item, const Bounds& box, std::vector<uint32_t>& out) const
{
    const StaticItem& s = m_items[item];
    if (!s.model)
    {
        out.push_back(m_itemBase[item]); // its box overlaps: tested by the caller
        return;
    }
    // Candidates from the model's tree, kept when the placed triangle's bounds overlap.
    const TriangleModel& m = *s.model;
    walkPlaced(m, s.placement, box, [&](uint32_t t) {
        if (overlaps(shapeBounds(placedTriangle(m, s.placement, t)), box))
            out.push_back(m_itemBase[item] + t);
    });
}

void CollisionWorld::setMoving(std::vector<Collider> colliders)
{
    m_moving = std::move(colliders);
    const size_t n = m_moving.size();
    m_movingBounds.resize(n);
    m_movingByX.resize(n);
    m_movingRank.resize(n);
    m_movingMaxWidth = 0.0;
    for (uint32_t i = 0; i < n; ++i)
    {
        m_movingBounds[i] = shapeBounds(m_moving[i].shape);
        m_movingMaxWidth = std::max(m_movingMaxWidth, m_movingBounds[i].max.x - m_movingBounds[i].min.x);
        m_movingByX[i] = i;
    }
    std::sort(m_movingByX.begin(), m_movingByX.end(), [&](uint32_t a, uint32_t b) {
        const double xa = m_movingBounds[a].min.x, xb = m_movingBounds[b].min.x;
        return xa < xb || (xa == xb && a < b);
    });
    for (uint32_t r = 0; r < n; ++r)
        m_movingRank[m_movingByX[r]] = r;
}

void CollisionWorld::moveMoving(size_t index, const Shape& shape)
{
    m_moving[index].shape = shape;
    const Bounds b = shapeBounds(shape);
    m_movingBounds[index] = b;
    m_movingMaxWidth = std::max(m_movingMaxWidth, b.max.x - b.min.x);
    // Restore the order by swapping with neighbours (a move is small, so few swaps).
    auto before = [&](uint32_t a, uint32_t c) {
        const double xa = m_movingBounds[a].min.x, xc = m_movingBounds[c].min.x;
        return xa < xc || (xa == xc && a < c);
    };
    uint32_t r = m_movingRank[index];
    while (r > 0 && before(static_cast<uint32_t>(index), m_movingByX[r - 1]))
    {
        m_movingByX[r] = m_movingByX[r - 1];
        m_movingRank[m_movingByX[r]] = r;
        --r;
    }
    while (r + 1 < m_movingByX.size() && before(m_movingByX[r + 1], static_cast<uint32_t>(index)))
    {
        m_movingByX[r] = m_movingByX[r + 1];
        m_movingRank[m_movingByX[r]] = r;
        ++r;
    }
    m_movingByX[r] = static_cast<uint32_t>(index);
    m_movingRank[index] = r;
}

void CollisionWorld::queryMoving(const Bounds& box, std::vector<uint32_t>& out) const
{
    out.clear();
    const double from = box.min.x - m_movingMaxWidth;
    auto it = std::lower_bound(m_movingByX.begin(), m_movingByX.end(), from,
                               [&](uint32_t i, double x) { return m_movingBounds[i].min.x < x; });
    for (; it != m_movingByX.end() && m_movingBounds[*it].min.x <= box.max.x; ++it)
        if (overlaps(m_movingBounds[*it], box))
            out.push_back(*it);
    std::sort(out.begin(), out.end());
}

RayHit CollisionWorld::raycast(const dvec3& from, const dvec3& to, std::span<const uint32_t> ignoreOwners,
                               uint32_t* outOwner) const
{
    RayHit best;
    uint32_t bestOwner = UINT32_MAX;
    uint64_t bestIndex = UINT64_MAX;
    auto consider = [&](const Shape& shape, uint32_t owner, uint64_t index) {
        const RayHit h = raycastShape(shape, from, to);
        if (!h.hit)
            return;
        if (!best.hit || h.fraction < best.fraction ||
            (h.fraction == best.fraction && (owner < bestOwner || (owner == bestOwner && index < bestIndex))))
        {
            best = h;
            bestOwner = owner;
            bestIndex = index;
        }
    };
    auto limit = [&] { return best.hit ? best.fraction : 1.0; };
    auto considerItem = [&](uint32_t item) {
        const StaticItem& s = m_items[item];
        if (ignored(ignoreOwners, s.collider.owner))
            return;
        if (!s.model)
        {
            consider(s.collider.shape, s.collider.owner, m_itemBase[item]);
            return;
        }
        walkSegment(*s.model, s.placement, from, to, limit, [&](uint32_t t) {
            consider(placedTriangle(*s.model, s.placement, t), s.collider.owner, uint64_t{m_itemBase[item]} + t);
        });
    };
    std::array<bool, 3> zero{};
    const dvec3 invD = inverseDirection(to - from, zero);
    walkNearestFirst(m_tree, [&](const Bounds& b, double tMax) { return rayBounds(b, from, invD, zero, tMax); }, limit,
                     false, considerItem);
    if (!m_moving.empty())
    {
        const Bounds area{glm::min(from, to), glm::max(from, to)};
        queryMoving(area, m_rayScratch);
        for (uint32_t i : m_rayScratch)
            if (!ignored(ignoreOwners, m_moving[i].owner))
                consider(m_moving[i].shape, m_moving[i].owner, uint64_t{UINT32_MAX} + 1 + i);
    }
    if (outOwner)
        *outOwner = bestOwner;
    return best;
}

void CollisionWorld::queryStatic(const Bounds& box, std::vector<uint32_t>& out) const
{
    out.clear();
    walkBoxes(m_tree, box, [&](uint32_t item) { queryItem(item, box, out); });
    std::sort(out.begin(), out.end());
}

} // namespace spark::scene::physics
