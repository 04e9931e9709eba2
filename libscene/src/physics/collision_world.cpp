// The collision world: a bounding-volume hierarchy over the static colliders
// (built top-down, median split on the longest axis of the centroids, ties by
// index, at most 2 colliders per leaf) and the moving colliders sorted by the
// low x of their bounds (sweep and prune on one axis, kept sorted as they move).
// Ray casts walk the tree nearest child first and stop at the best hit so far;
// region queries answer indices sorted ascending so callers see the same order
// whatever the tree looks like.

#include "spark/scene/physics.h"

#include <glm/common.hpp>

#include <algorithm>
#include <array>

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

} // namespace

void CollisionWorld::setStatic(std::vector<Collider> colliders)
{
    m_static = std::move(colliders);
    m_staticBounds.clear();
    m_staticBounds.reserve(m_static.size());
    for (const Collider& c : m_static)
        m_staticBounds.push_back(shapeBounds(c.shape));
    m_leafOrder.resize(m_static.size());
    for (uint32_t i = 0; i < m_leafOrder.size(); ++i)
        m_leafOrder[i] = i;
    m_nodes.clear();
    if (!m_static.empty())
    {
        m_nodes.reserve(2 * (m_static.size() / kLeafSize + 1));
        buildNode(0, static_cast<uint32_t>(m_static.size()));
    }
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

uint32_t CollisionWorld::buildNode(uint32_t begin, uint32_t end)
{
    const uint32_t index = static_cast<uint32_t>(m_nodes.size());
    m_nodes.push_back({});
    Bounds b = m_staticBounds[m_leafOrder[begin]];
    Bounds centroids{(b.min + b.max) * 0.5, (b.min + b.max) * 0.5};
    for (uint32_t i = begin + 1; i < end; ++i)
    {
        const Bounds& o = m_staticBounds[m_leafOrder[i]];
        b = merge(b, o);
        const dvec3 c = (o.min + o.max) * 0.5;
        centroids = merge(centroids, {c, c});
    }
    m_nodes[index].bounds = b;
    if (end - begin <= kLeafSize)
    {
        m_nodes[index].first = begin;
        m_nodes[index].count = end - begin;
        return index;
    }
    const dvec3 extent = centroids.max - centroids.min;
    const int axis = extent.x >= extent.y && extent.x >= extent.z ? 0 : (extent.y >= extent.z ? 1 : 2);
    auto key = [&](uint32_t i) {
        const Bounds& o = m_staticBounds[i];
        return o.min[axis] + o.max[axis];
    };
    std::sort(m_leafOrder.begin() + begin, m_leafOrder.begin() + end, [&](uint32_t a, uint32_t c) {
        const double ka = key(a), kc = key(c);
        return ka < kc || (ka == kc && a < c);
    });
    const uint32_t mid = begin + (end - begin) / 2;
    const uint32_t left = buildNode(begin, mid);
    const uint32_t right = buildNode(mid, end);
    m_nodes[index].first = left;
    m_nodes[index].right = right;
    m_nodes[index].count = 0;
    return index;
}

RayHit CollisionWorld::raycast(const dvec3& from, const dvec3& to, std::span<const uint32_t> ignoreOwners,
                               uint32_t* outOwner) const
{
    RayHit best;
    uint32_t bestOwner = UINT32_MAX;
    auto consider = [&](const Collider& c) {
        if (ignored(ignoreOwners, c.owner))
            return;
        const RayHit h = raycastShape(c.shape, from, to);
        if (!h.hit)
            return;
        if (!best.hit || h.fraction < best.fraction || (h.fraction == best.fraction && c.owner < bestOwner))
        {
            best = h;
            bestOwner = c.owner;
        }
    };
    if (!m_nodes.empty())
    {
        const dvec3 d = to - from;
        std::array<bool, 3> zero{d.x == 0.0, d.y == 0.0, d.z == 0.0};
        const dvec3 invD(zero[0] ? 0.0 : 1.0 / d.x, zero[1] ? 0.0 : 1.0 / d.y, zero[2] ? 0.0 : 1.0 / d.z);
        // Each node's box is tested once, by its parent; nearer child popped first.
        struct Entry
        {
            uint32_t node;
            double t;
        };
        Entry stack[64];
        int top = 0;
        const double t0 = rayBounds(m_nodes[0].bounds, from, invD, zero, 1.0);
        if (t0 >= 0.0)
            stack[top++] = {0, t0};
        while (top > 0)
        {
            const Entry e = stack[--top];
            const double limit = best.hit ? best.fraction : 1.0;
            if (e.t > limit)
                continue;
            const Node& n = m_nodes[e.node];
            if (n.count > 0)
            {
                for (uint32_t i = n.first; i < n.first + n.count; ++i)
                    consider(m_static[m_leafOrder[i]]);
                continue;
            }
            const double tl = rayBounds(m_nodes[n.first].bounds, from, invD, zero, limit);
            const double tr = rayBounds(m_nodes[n.right].bounds, from, invD, zero, limit);
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
    if (!m_moving.empty())
    {
        const Bounds area{glm::min(from, to), glm::max(from, to)};
        queryMoving(area, m_rayScratch);
        for (uint32_t i : m_rayScratch)
            consider(m_moving[i]);
    }
    if (outOwner)
        *outOwner = bestOwner;
    return best;
}

void CollisionWorld::queryStatic(const Bounds& box, std::vector<uint32_t>& out) const
{
    out.clear();
    if (m_nodes.empty())
        return;
    uint32_t stack[64];
    int top = 0;
    stack[top++] = 0;
    while (top > 0)
    {
        const Node& n = m_nodes[stack[--top]];
        if (!overlaps(n.bounds, box))
            continue;
        if (n.count > 0)
        {
            for (uint32_t i = n.first; i < n.first + n.count; ++i)
                if (overlaps(m_staticBounds[m_leafOrder[i]], box))
                    out.push_back(m_leafOrder[i]);
            continue;
        }
        if (top + 2 <= 64)
        {
            stack[top++] = n.right;
            stack[top++] = n.first;
        }
    }
    std::sort(out.begin(), out.end());
}

} // namespace spark::scene::physics
