#pragma once
/// \file levels.h
/// The benchmark levels, the same triangles for Spark and the peer: dungeon
/// (RecastDemo's, data/meshes/dungeon.obj) and two made here, terrain
/// ("open terrain with many small obstacles": a 200 × 200 m ground grid of 1 m
/// quads whose height is a fixed sum of integer-frequency sines, and 400 boxes,
/// octagonal pillars and short walls placed by a seeded spark::Rng) and ramps
/// ("long ramps": straight 40 m ramps at 20°, 25°, 30° and 50°, a rotated one,
/// two staircases, a thin four-flight switchback, terraces, a bridge and a low
/// slab). The generated levels are closed solids wound outwards (right-hand
/// normals); every level is baked one-sided, as Recast reads triangles. Used by
/// bake_bench and path_bench (`--level=`).

#include "recastdemo.h"

#include "spark/core/rng.h"
#include "spark/nav/bake.h"

#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace spark::bench::levels
{

constexpr uint64_t kTerrainSeed = 20240601;
constexpr double kPi = 3.14159265358979323846;

struct Level
{
    std::string name;
    std::string what;
    spark::nav::BakeInput input;
    std::vector<int> recastTris; ///< The same indices as ints.
};

/// Closed solids and surfaces as triangles with right-hand normals.
class MeshBuilder
{
  public:
    explicit MeshBuilder(spark::nav::BakeInput& in) : in_(in) {}

    uint32_t vertex(glm::vec3 p)
    {
        in_.vertices.push_back(p);
        return static_cast<uint32_t>(in_.vertices.size() - 1);
    }
    void triangle(uint32_t a, uint32_t b, uint32_t c) { in_.indices.insert(in_.indices.end(), {a, b, c}); }

    /// A convex planar polygon, fanned from its first corner and wound so its
    /// normal (Newell) points along `outward`.
    void face(std::vector<glm::vec3> pts, glm::vec3 outward)
    {
        glm::dvec3 n(0.0);
        for (size_t i = 0; i < pts.size(); ++i)
        {
            const glm::dvec3 a(pts[i]), b(pts[(i + 1) % pts.size()]);
            n.x += (a.y - b.y) * (a.z + b.z);
            n.y += (a.z - b.z) * (a.x + b.x);
            n.z += (a.x - b.x) * (a.y + b.y);
        }
        if (glm::dot(n, glm::dvec3(outward)) < 0.0)
            std::reverse(pts.begin(), pts.end());
        const uint32_t first = vertex(pts[0]);
        uint32_t prev = vertex(pts[1]);
        for (size_t i = 2; i < pts.size(); ++i)
        {
            const uint32_t cur = vertex(pts[i]);
            triangle(first, prev, cur);
            prev = cur;
        }
    }

    /// A closed solid over the convex x–z footprint `foot` (any winding), its
    /// bottom at bottom[i] and its top at top[i] above corner i (the top may
    /// slope; each top and bottom triangle is planar by construction).
    void solid(const std::vector<glm::vec2>& foot, const std::vector<float>& bottom,
               const std::vector<float>& top)
    {
        const size_t n = foot.size();
        glm::vec2 centre(0.0f);
        for (const glm::vec2& p : foot)
            centre += p / static_cast<float>(n);
        auto at = [&](size_t i, float y) { return glm::vec3(foot[i].x, y, foot[i].y); };
        for (size_t i = 1; i + 1 < n; ++i)
        {
            face({at(0, top[0]), at(i, top[i]), at(i + 1, top[i + 1])}, {0.0f, 1.0f, 0.0f});
            face({at(0, bottom[0]), at(i, bottom[i]), at(i + 1, bottom[i + 1])}, {0.0f, -1.0f, 0.0f});
        }
        for (size_t i = 0; i < n; ++i)
        {
            const size_t j = (i + 1) % n;
            const glm::vec2 mid = 0.5f * (foot[i] + foot[j]) - centre;
            face({at(i, bottom[i]), at(j, bottom[j]), at(j, top[j]), at(i, top[i])}, {mid.x, 0.0f, mid.y});
        }
    }

    /// A solid of constant bottom and top over `foot`.
    void prism(const std::vector<glm::vec2>& foot, float bottom, float top)
    {
        solid(foot, std::vector<float>(foot.size(), bottom), std::vector<float>(foot.size(), top));
    }

    /// An axis-aligned box.
    void box(float x0, float z0, float x1, float z1, float y0, float y1)
    {
        prism({{x0, z0}, {x1, z0}, {x1, z1}, {x0, z1}}, y0, y1);
    }

    /// A straight ramp along x from x0 (top y0) to x1 (top y1), z0..z1 wide; its
    /// underside is flat at `base` (solid to the ground) or, when thickness > 0,
    /// parallel to the top (a floating slab).
    void rampX(float x0, float x1, float z0, float z1, float y0, float y1, float base, float thickness = 0.0f)
    {
        const std::vector<glm::vec2> foot = {{x0, z0}, {x1, z0}, {x1, z1}, {x0, z1}};
        const std::vector<float> top = {y0, y1, y1, y0};
        std::vector<float> bottom(4, base);
        if (thickness > 0.0f)
            bottom = {y0 - thickness, y1 - thickness, y1 - thickness, y0 - thickness};
        solid(foot, bottom, top);
    }

  private:
    spark::nav::BakeInput& in_;
};

/// Corners of a w × d rectangle centred on (cx, cz), turned by `yaw` about +Y.
inline std::vector<glm::vec2> rotatedRect(double cx, double cz, double w, double d, double yaw)
{
    const double c = std::cos(yaw), s = std::sin(yaw);
    std::vector<glm::vec2> out;
    const double corners[4][2] = {{-0.5, -0.5}, {0.5, -0.5}, {0.5, 0.5}, {-0.5, 0.5}};
    for (const auto& uv : corners)
        out.emplace_back(static_cast<float>(cx + c * uv[0] * w - s * uv[1] * d),
                         static_cast<float>(cz + s * uv[0] * w + c * uv[1] * d));
    return out;
}

/// The terrain level's ground height. [Units: m]
inline double terrainHeight(double x, double z)
{
    const double u = 2.0 * kPi * x / 200.0, w = 2.0 * kPi * z / 200.0;
    return 3.0 * std::sin(3.0 * u) * std::sin(2.0 * w) + 1.6 * std::sin(2.0 * u) * std::cos(w) +
           0.7 * std::sin(5.0 * (u + w)) + 0.6 * std::sin(31.0 * u) * std::sin(29.0 * w);
}

inline void finishLevel(Level& level)
{
    level.input.oneSided = true;
    level.recastTris.assign(level.input.indices.begin(), level.input.indices.end());
}

inline Level dungeonLevel()
{
    Level level;
    level.name = "dungeon";
    level.what = demo::kDungeonPath;
    level.input = demo::loadObjInput(demo::kDungeonPath);
    finishLevel(level); // an OBJ's winding says which side is up, as Recast reads it
    return level;
}

/// 200 × 200 m of undulating ground (1 m quads) with 400 small obstacles.
inline Level terrainLevel()
{
    Level level;
    level.name = "terrain";
    level.what = "200x200 m sine ground, 1 m quads, 400 boxes/pillars/walls (seeded)";
    MeshBuilder mb(level.input);
    constexpr int kQuads = 200;
    for (int j = 0; j <= kQuads; ++j)
        for (int i = 0; i <= kQuads; ++i)
            mb.vertex(glm::vec3(static_cast<float>(i), static_cast<float>(terrainHeight(i, j)),
                                static_cast<float>(j)));
    auto id = [](int i, int j) { return static_cast<uint32_t>(i + j * (kQuads + 1)); };
    for (int j = 0; j < kQuads; ++j)
        for (int i = 0; i < kQuads; ++i)
        {
            // Both triangles face up: (i,j) (i,j+1) (i+1,j) and (i+1,j) (i,j+1) (i+1,j+1).
            mb.triangle(id(i, j), id(i, j + 1), id(i + 1, j));
            mb.triangle(id(i + 1, j), id(i, j + 1), id(i + 1, j + 1));
        }

    spark::Rng rng = spark::rngFromSeed(kTerrainSeed);
    auto range = [&](double lo, double hi) { return spark::rngNextRange(rng, lo, hi); };
    for (int k = 0; k < 400; ++k)
    {
        const double cx = range(6.0, 194.0), cz = range(6.0, 194.0);
        const uint32_t kind = spark::rngNextBelow(rng, 10);
        std::vector<glm::vec2> foot;
        double height = 0.0;
        if (kind < 5) // box, 0.6..3 m a side, 0.3..3.5 m tall (some low enough to step on)
        {
            const double w = range(0.6, 3.0), d = range(0.6, 3.0), yaw = range(0.0, 0.5 * kPi);
            foot = rotatedRect(cx, cz, w, d, yaw);
            height = range(0.3, 3.5);
        }
        else if (kind < 8) // octagonal pillar, radius 0.3..0.9 m, 2..6 m tall
        {
            const double r = range(0.3, 0.9);
            for (int a = 0; a < 8; ++a)
                foot.emplace_back(static_cast<float>(cx + r * std::cos(a * kPi / 4.0)),
                                  static_cast<float>(cz + r * std::sin(a * kPi / 4.0)));
            height = range(2.0, 6.0);
        }
        else // short wall, 4..10 m long, 0.4 m thick, 1..2.5 m tall
        {
            foot = rotatedRect(cx, cz, range(4.0, 10.0), 0.4, range(0.0, kPi));
            height = range(1.0, 2.5);
        }
        double groundLo = terrainHeight(cx, cz), groundHi = groundLo;
        for (const glm::vec2& p : foot)
        {
            const double g = terrainHeight(p.x, p.y);
            groundLo = std::min(groundLo, g);
            groundHi = std::max(groundHi, g);
        }
        mb.prism(foot, static_cast<float>(groundLo - 0.5), static_cast<float>(groundHi + height));
    }
    finishLevel(level);
    return level;
}

/// Long ramps, stairs, a switchback, terraces and platforms on a 160 × 120 m slab.
inline Level rampsLevel()
{
    Level level;
    level.name = "ramps";
    level.what = "160x120 m: 40 m ramps 20/25/30/50 deg + rotated, stairs, switchback, terraces, bridge";
    MeshBuilder mb(level.input);
    const auto rise = [](double run, double deg)
    { return static_cast<float>(run * std::tan(deg * kPi / 180.0)); };

    mb.box(0, 0, 160, 120, -1, 0); // ground

    // Straight solid ramps 40 m long (x 10..50) at 20°, 25°, 30°, each onto an 8 m platform.
    const double angles[3] = {20.0, 25.0, 30.0};
    for (int k = 0; k < 3; ++k)
    {
        const float z0 = 5.0f + 9.0f * static_cast<float>(k), z1 = z0 + 4.0f;
        const float top = rise(40.0, angles[k]);
        mb.rampX(10, 50, z0, z1, 0, top, -0.5f);
        mb.box(50, z0 - 2, 58, z1 + 2, -0.5f, top);
    }
    // Too steep: 15 m at 50°, onto a platform.
    {
        const float top = rise(15.0, 50.0);
        mb.rampX(10, 25, 32, 36, 0, top, -0.5f);
        mb.box(25, 30, 31, 38, -0.5f, top);
    }
    // Stairs: 60 steps of 0.5 m tread, 0.25 m riser (26.6°), then a platform.
    for (int s = 0; s < 60; ++s)
        mb.box(10 + 0.5f * s, 40, 10.5f + 0.5f * s, 43, -0.5f, 0.25f * (s + 1));
    mb.box(40, 39, 46, 44, -0.5f, 15.0f);
    // Steep stairs: 30 steps of 0.5 m tread, 0.45 m riser (42°, each under the climb).
    for (int s = 0; s < 30; ++s)
        mb.box(10 + 0.5f * s, 47, 10.5f + 0.5f * s, 50, -0.5f, 0.45f * (s + 1));
    mb.box(25, 46, 31, 51, -0.5f, 13.5f);

    // Switchback: four thin (0.4 m) flights, 30 m at 21.8° (12 m rise) each, in
    // lanes 1 m apart, turning on thin landings; open space under every flight.
    for (int f = 0; f < 4; ++f)
    {
        const float z0 = 5.0f + 5.0f * static_cast<float>(f), z1 = z0 + 4.0f;
        const float y0 = 12.0f * static_cast<float>(f), y1 = y0 + 12.0f;
        if (f % 2 == 0)
        {
            mb.rampX(70, 100, z0, z1, y0, y1, 0, 0.4f);
            mb.box(100, z0, 106, z1 + 5, y1 - 0.4f, y1); // landing toward the next lane
        }
        else
        {
            mb.rampX(100, 70, z0, z1, y0, y1, 0, 0.4f);
            mb.box(64, z0, 70, z1 + 5, y1 - 0.4f, y1);
        }
    }

    // Terraces along x: 0.5 → 1.0 (climbable 0.5 m) → 2.2 (1.2 m ledge) → 2.8 → 4.5 (1.7 m ledge).
    const float terraces[5] = {0.5f, 1.0f, 2.2f, 2.8f, 4.5f};
    for (int t = 0; t < 5; ++t)
        mb.box(110 + 9.0f * t, 5, 119 + 9.0f * t, 45, -0.5f, terraces[t]);

    // A bridge 3 m up (2.7 m head room under it), 15° ramps at both ends.
    mb.rampX(5, 20, 60, 66, 0, 3.0f, -0.5f);
    mb.box(20, 60, 60, 66, 2.7f, 3.0f);
    mb.rampX(75, 60, 60, 66, 0, 3.0f, -0.5f);
    // A low slab (1.2 m head room: the ground under it is not walkable, its top is a ledge).
    mb.box(90, 58, 110, 70, 1.2f, 1.5f);

    // A 40 m ramp at 22°, turned 30° about +Y, onto an 8 m platform.
    {
        const double yaw = 30.0 * kPi / 180.0, c = std::cos(yaw), s = std::sin(yaw);
        const double sx = 95.0, sz = 80.0; // foot of the ramp's centre line
        const float top = rise(40.0, 22.0);
        const auto at = [&](double along, double across)
        {
            return glm::vec2(static_cast<float>(sx + c * along - s * across),
                             static_cast<float>(sz + s * along + c * across));
        };
        mb.solid({at(0, -2), at(40, -2), at(40, 2), at(0, 2)}, {-0.5f, -0.5f, -0.5f, -0.5f},
                 {0, top, top, 0});
        mb.prism({at(40, -4), at(48, -4), at(48, 4), at(40, 4)}, -0.5f, top);
    }
    finishLevel(level);
    return level;
}

inline Level makeLevel(const std::string& name)
{
    if (name == "dungeon")
        return dungeonLevel();
    if (name == "terrain")
        return terrainLevel();
    if (name == "ramps")
        return rampsLevel();
    std::fprintf(stderr, "unknown level '%s' (dungeon, terrain, ramps, all)\n", name.c_str());
    std::exit(2);
}

} // namespace spark::bench::levels
