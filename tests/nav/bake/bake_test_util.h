#pragma once
/// \file bake_test_util.h
/// Geometry builders and mesh checks shared by the 3D bake tests.

#include "bake_stages.h"

#include "spark/core/hash.h"
#include "spark/nav/bake.h"
#include "spark/scene/model_obj.h"

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace spark::nav::test
{

/// RecastDemo's dungeon (data/meshes/dungeon.obj, read from the project root)
/// as `spark bake` bakes an OBJ: one-sided, the winding saying which side is up.
inline BakeInput dungeonInput()
{
    auto model = spark::scene::loadObj("data/meshes/dungeon.obj");
    REQUIRE(model.ok());
    BakeInput in;
    in.vertices = model->vertices;
    in.indices = model->indices;
    in.oneSided = true;
    return in;
}

/// Adds a closed axis-aligned box [lo, hi] (12 triangles, outward winding).
inline void addBox(BakeInput& in, glm::vec3 lo, glm::vec3 hi, uint8_t area = 0)
{
    const uint32_t b = static_cast<uint32_t>(in.vertices.size());
    for (int i = 0; i < 8; ++i)
        in.vertices.push_back({(i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z});
    // Corner i: bit0 = x, bit1 = y, bit2 = z. Faces with outward right-hand normals.
    const uint32_t quads[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
    if (area != 0 && in.areas.empty())
        in.areas.assign(in.indices.size() / 3, 0);
    for (const auto& q : quads)
    {
        const uint32_t tri[6] = {q[0], q[1], q[2], q[0], q[2], q[3]};
        for (uint32_t t : tri)
            in.indices.push_back(b + t);
        if (!in.areas.empty())
            in.areas.insert(in.areas.end(), 2, area);
    }
}

/// Adds a closed wedge: a ramp rising along +x from y0 at x0 to y1 at x1, over z0..z1.
inline void addRamp(BakeInput& in, float x0, float x1, float z0, float z1, float y0, float y1)
{
    const uint32_t b = static_cast<uint32_t>(in.vertices.size());
    in.vertices.push_back({x0, y0, z0}); // 0
    in.vertices.push_back({x1, y0, z0}); // 1
    in.vertices.push_back({x1, y1, z0}); // 2
    in.vertices.push_back({x0, y0, z1}); // 3
    in.vertices.push_back({x1, y0, z1}); // 4
    in.vertices.push_back({x1, y1, z1}); // 5
    const uint32_t tris[] = {0, 2, 1, 3, 4, 5,       // the two sides
                             0, 3, 5, 0, 5, 2,       // the slope
                             1, 2, 5, 1, 5, 4,       // the back
                             0, 1, 4, 0, 4, 3};      // the bottom
    for (uint32_t t : tris)
        in.indices.push_back(b + t);
    if (!in.areas.empty())
        in.areas.resize(in.indices.size() / 3, 0);
}

/// Signed area of polygon p in the x–z plane (positive = the winding of docs/navmesh.md).
inline double polygonArea(const PolySoup& m, size_t p)
{
    const uint32_t b = m.polyStarts[p], e = m.polyStarts[p + 1];
    double twice = 0.0;
    for (uint32_t k = b; k < e; ++k)
    {
        const glm::vec3& a = m.vertices[m.indices[k]];
        const glm::vec3& c = m.vertices[m.indices[k + 1 < e ? k + 1 : b]];
        twice += static_cast<double>(a.x) * c.z - static_cast<double>(c.x) * a.z;
    }
    return twice * 0.5;
}

inline double totalArea(const PolySoup& m)
{
    double a = 0.0;
    for (size_t p = 0; p < m.polygonCount(); ++p)
        a += polygonArea(m, p);
    return a;
}

/// Every polygon: 3..maxVerts vertices, positive area, strictly convex or
/// collinear corners only (never a reflex one), valid indices.
inline void checkPolygons(const PolySoup& m, int maxVerts = 6)
{
    REQUIRE(m.polyStarts.size() == m.polygonCount() + 1);
    REQUIRE(m.areas.size() == m.polygonCount());
    for (size_t p = 0; p < m.polygonCount(); ++p)
    {
        const uint32_t b = m.polyStarts[p], e = m.polyStarts[p + 1];
        const uint32_t n = e - b;
        CHECK(n >= 3);
        CHECK(static_cast<int>(n) <= maxVerts);
        CHECK(polygonArea(m, p) > 0.0);
        for (uint32_t k = 0; k < n; ++k)
        {
            REQUIRE(m.indices[b + k] < m.vertices.size());
            const glm::vec3& a = m.vertices[m.indices[b + k]];
            const glm::vec3& c = m.vertices[m.indices[b + (k + 1) % n]];
            const glm::vec3& d = m.vertices[m.indices[b + (k + 2) % n]];
            const double turn = (static_cast<double>(c.x) - a.x) * (static_cast<double>(d.z) - a.z) -
                                (static_cast<double>(d.x) - a.x) * (static_cast<double>(c.z) - a.z);
            CHECK(turn >= -1e-9);
        }
    }
}

/// Union-find over polygons joined by edges that overlap in x–z (collinear,
/// overlapping by more than `minOverlap`) with heights within `maxRise`.
inline std::vector<int> polygonComponents(const PolySoup& m, float maxRise, float minOverlap = 0.05f)
{
    const size_t n = m.polygonCount();
    std::vector<int> parent(n);
    for (size_t i = 0; i < n; ++i)
        parent[i] = static_cast<int>(i);
    auto find = [&](int x) {
        while (parent[static_cast<size_t>(x)] != x)
            x = parent[static_cast<size_t>(x)] = parent[static_cast<size_t>(parent[static_cast<size_t>(x)])];
        return x;
    };
    auto edge = [&](size_t p, uint32_t k, glm::vec3& a, glm::vec3& b) {
        const uint32_t s = m.polyStarts[p], e = m.polyStarts[p + 1];
        a = m.vertices[m.indices[s + k]];
        b = m.vertices[m.indices[s + (k + 1) % (e - s)]];
    };
    for (size_t p = 0; p < n; ++p)
        for (size_t q = p + 1; q < n; ++q)
            for (uint32_t i = 0; i < m.polyStarts[p + 1] - m.polyStarts[p]; ++i)
                for (uint32_t j = 0; j < m.polyStarts[q + 1] - m.polyStarts[q]; ++j)
                {
                    glm::vec3 a0, a1, b0, b1;
                    edge(p, i, a0, a1);
                    edge(q, j, b0, b1);
                    const glm::vec2 d(a1.x - a0.x, a1.z - a0.z);
                    const float len = std::sqrt(d.x * d.x + d.y * d.y);
                    if (len <= 0.0f)
                        continue;
                    const glm::vec2 u = d / len;
                    auto off = [&](const glm::vec3& v) { return u.x * (v.z - a0.z) - u.y * (v.x - a0.x); };
                    if (std::abs(off(b0)) > 1e-3f || std::abs(off(b1)) > 1e-3f)
                        continue;
                    auto along = [&](const glm::vec3& v) { return u.x * (v.x - a0.x) + u.y * (v.z - a0.z); };
                    const float lo = std::max(0.0f, std::min(along(b0), along(b1)));
                    const float hi = std::min(len, std::max(along(b0), along(b1)));
                    if (hi - lo <= minOverlap)
                        continue;
                    const float mid = 0.5f * (lo + hi);
                    auto heightA = a0.y + (a1.y - a0.y) * (mid / len);
                    const float tb = (mid - along(b0)) / (along(b1) - along(b0));
                    auto heightB = b0.y + (b1.y - b0.y) * tb;
                    if (std::abs(heightA - heightB) > maxRise)
                        continue;
                    parent[static_cast<size_t>(find(static_cast<int>(p)))] = find(static_cast<int>(q));
                }
    std::vector<int> out(n);
    for (size_t i = 0; i < n; ++i)
        out[i] = find(static_cast<int>(i));
    return out;
}

/// Index of a polygon containing (x, z) in the x–z plane, or -1.
inline int polygonAt(const PolySoup& m, float x, float z)
{
    for (size_t p = 0; p < m.polygonCount(); ++p)
    {
        const uint32_t b = m.polyStarts[p], e = m.polyStarts[p + 1];
        bool inside = true;
        for (uint32_t k = b; k < e && inside; ++k)
        {
            const glm::vec3& a = m.vertices[m.indices[k]];
            const glm::vec3& c = m.vertices[m.indices[k + 1 < e ? k + 1 : b]];
            const double cr = (static_cast<double>(c.x) - a.x) * (static_cast<double>(z) - a.z) -
                              (static_cast<double>(x) - a.x) * (static_cast<double>(c.z) - a.z);
            inside = cr >= 0.0;
        }
        if (inside)
            return static_cast<int>(p);
    }
    return -1;
}

/// The settings the small scenes use (`defaultBakeDef()`, no edge limit).
inline BakeDef testDef()
{
    BakeDef d = defaultBakeDef();
    d.maxEdgeLen = 0.0f;
    return d;
}

/// A grid over [lo, hi] as bakeTriangles would set it.
inline bake::Grid gridOver(glm::vec3 lo, glm::vec3 hi, const BakeDef& def)
{
    bake::Grid g;
    g.width = std::max(1, static_cast<int>(std::ceil((static_cast<double>(hi.x) - lo.x) / def.cellSize)));
    g.depth = std::max(1, static_cast<int>(std::ceil((static_cast<double>(hi.z) - lo.z) / def.cellSize)));
    g.origin = lo;
    g.cellSize = def.cellSize;
    g.cellHeight = def.cellHeight;
    return g;
}

} // namespace spark::nav::test
