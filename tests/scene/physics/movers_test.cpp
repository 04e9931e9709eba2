// physics movers: the capsule character controller (ground, ramps, steps,
// walls, jumps, never inside a static shape over long random walks) and
// dynamic bodies coming to rest.

#include "spark/scene/physics.h"

#include "test_shapes.h"

#include "spark/core/rng.h"

#include <doctest/doctest.h>
#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace spark::scene::physics;
using glm::dvec3;
using namespace spark::scene::physics::test;

namespace
{

constexpr double kDt = 1.0 / 60.0;
const dvec3 kGravity(0, -9.81, 0);

// A box tilted about Z so its top rises along +X at `deg` degrees.
Shape rampBox(dvec3 c, dvec3 half, double deg)
{
    Shape s = box(c, half);
    const double a = deg * 3.14159265358979323846 / 180.0;
    s.axis[0] = {std::cos(a), std::sin(a), 0};
    s.axis[1] = {-std::sin(a), std::cos(a), 0};
    s.axis[2] = {0, 0, 1};
    return s;
}

struct Sim
{
    CollisionWorld world;
    std::vector<Collider> statics;
    std::vector<uint32_t> scratch;

    void add(const Shape& s) { statics.push_back({s, static_cast<uint32_t>(statics.size())}); }
    void build() { world.setStatic(statics); }
};

constexpr uint32_t kSelf = 100000;

CharacterDef defaultDef()
{
    CharacterDef d;
    d.height = 1.8;
    d.radius = 0.4;
    d.stepHeight = 0.4;
    d.maxSlopeCos = std::sqrt(0.5); // 45°
    d.jumpSpeed = 5.0;
    return d;
}

// Distance from a point to an oriented box (0 inside), computed directly.
double pointBoxDistance(const dvec3& p, const Shape& b)
{
    const dvec3 rel = p - b.center;
    double d2 = 0.0;
    for (int i = 0; i < 3; ++i)
    {
        const double x = glm::dot(rel, b.axis[i]);
        const double over = std::max(0.0, std::abs(x) - b.half[i]);
        d2 += over * over;
    }
    return std::sqrt(d2);
}

// Smallest distance from the capsule's axis (sampled) to a static shape, minus the radii.
double capsuleClearance(const CharacterDef& def, const dvec3& center, const Shape& s)
{
    const double half = 0.5 * def.height - def.radius;
    double best = 1e30;
    for (int k = 0; k <= 64; ++k)
    {
        const dvec3 p = center + dvec3(0, -half + 2.0 * half * k / 64.0, 0);
        const double d = s.kind == CoreKind::Box ? pointBoxDistance(p, s) : glm::length(p - s.center) - s.radius;
        best = std::min(best, d - def.radius);
    }
    return best;
}

} // namespace

TEST_CASE("A character settles on flat ground and stays grounded")
{
    Sim sim;
    sim.add(box({0, -0.5, 0}, {20, 0.5, 20}));
    sim.build();
    const CharacterDef def = defaultDef();
    CharacterMotion m;
    dvec3 c(0, 1.5, 0);
    for (int i = 0; i < 120; ++i)
        c = stepCharacter(sim.world, def, kSelf, c, m, kGravity, kDt, sim.scratch);
    CHECK(m.grounded);
    CHECK(std::abs(c.y - (0.9 + kSkin)) < 1e-3);
    // Walking keeps it grounded at the same height.
    m.wanted = {3, 0, 1};
    for (int i = 0; i < 60; ++i)
    {
        c = stepCharacter(sim.world, def, kSelf, c, m, kGravity, kDt, sim.scratch);
        CHECK(m.grounded);
    }
    CHECK(std::abs(c.y - (0.9 + kSkin)) < 1e-3);
    CHECK(std::abs(c.x - 3.0) < 1e-6);
    CHECK(std::abs(c.z - 1.0) < 1e-6);
}

TEST_CASE("A character walks up a 30 degree ramp grounded but not up a 50 degree one")
{
    for (const double deg : {30.0, 50.0})
    {
        CAPTURE(deg);
        Sim sim;
        sim.add(box({0, -0.5, 0}, {20, 0.5, 20}));
        // The ramp's foot at x = 2: a long thin box tilted up along +X.
        const double a = deg * 3.14159265358979323846 / 180.0;
        const double len = 6.0;
        const dvec3 center(2.0 + 0.5 * len * std::cos(a), 0.5 * len * std::sin(a) - 0.2 * std::cos(a), 0);
        sim.add(rampBox(center, {0.5 * len, 0.2, 3}, deg));
        sim.build();
        const CharacterDef def = defaultDef();
        CharacterMotion m;
        dvec3 c(0, 0.9 + kSkin, 0);
        m.grounded = true;
        m.wanted = {2, 0, 0};
        int grounded = 0;
        for (int i = 0; i < 120; ++i)
        {
            c = stepCharacter(sim.world, def, kSelf, c, m, kGravity, kDt, sim.scratch);
            grounded += m.grounded ? 1 : 0;
        }
        if (deg == 30.0)
        {
            CHECK(grounded == 120);
            CHECK(c.x > 3.5);
            // The capsule's bottom sphere touches the ramp: height = x·tan30 above the foot plus the radius over cos.
            const double feetOnRamp = (c.x - (2.0 - 0.2 * std::sin(a))) * std::tan(a) + def.radius / std::cos(a) - def.radius;
            CHECK(std::abs((c.y - 0.9) - feetOnRamp) < 0.01);
        }
        else
        {
            CHECK(c.y < 0.9 + 0.05); // never climbs
            CHECK(c.x < 2.0);
        }
    }
}

TEST_CASE("With step_height 0.4 a character steps up 0.3 m but not 0.6 m")
{
    for (const double h : {0.3, 0.6})
    {
        CAPTURE(h);
        Sim sim;
        sim.add(box({0, -0.5, 0}, {20, 0.5, 20}));
        sim.add(box({4, 0.5 * h, 0}, {1.5, 0.5 * h, 3})); // a step from x = 2.5
        sim.build();
        const CharacterDef def = defaultDef();
        CharacterMotion m;
        m.grounded = true;
        m.wanted = {2, 0, 0};
        dvec3 c(0, 0.9 + kSkin, 0);
        for (int i = 0; i < 120; ++i)
            c = stepCharacter(sim.world, def, kSelf, c, m, kGravity, kDt, sim.scratch);
        if (h == 0.3)
        {
            CHECK(c.x > 3.0);
            CHECK(std::abs(c.y - (0.9 + 0.3)) < 2e-3);
            CHECK(m.grounded);
        }
        else
        {
            CHECK(c.x < 2.5 - 0.4 + 1e-3);
            CHECK(std::abs(c.y - 0.9) < 2e-3);
        }
    }
}

TEST_CASE("A character that hits a wall at 45 degrees slides along it keeping the tangential speed")
{
    Sim sim;
    sim.add(box({0, -0.5, 0}, {20, 0.5, 20}));
    sim.add(box({3, 1, 0}, {0.5, 1, 20})); // wall face at x = 2.5
    sim.build();
    const CharacterDef def = defaultDef();
    CharacterMotion m;
    m.grounded = true;
    const double v = 4.0;
    m.wanted = {v * std::sqrt(0.5), 0, v * std::sqrt(0.5)};
    dvec3 c(1.0, 0.9 + kSkin, 0);
    for (int i = 0; i < 60; ++i)
        c = stepCharacter(sim.world, def, kSelf, c, m, kGravity, kDt, sim.scratch);
    // Pressed against the wall, a skin away.
    CHECK(std::abs(c.x - (2.5 - 0.4 - kSkin)) < 1e-6);
    const dvec3 before = c;
    c = stepCharacter(sim.world, def, kSelf, c, m, kGravity, kDt, sim.scratch);
    CHECK(std::abs((c.z - before.z) / kDt - v * std::sqrt(0.5)) < 1e-6);
    CHECK(std::abs(c.x - before.x) < 1e-9);
}

TEST_CASE("A jump reaches v^2/2g within 2 % and lands grounded")
{
    Sim sim;
    sim.add(box({0, -0.5, 0}, {20, 0.5, 20}));
    sim.build();
    const CharacterDef def = defaultDef();
    CharacterMotion m;
    m.grounded = true;
    dvec3 c(0, 0.9 + kSkin, 0);
    const double start = c.y;
    m.jump = true;
    double apex = c.y;
    bool left = false;
    for (int i = 0; i < 120; ++i)
    {
        c = stepCharacter(sim.world, def, kSelf, c, m, kGravity, kDt, sim.scratch);
        apex = std::max(apex, c.y);
        left = left || !m.grounded;
    }
    CHECK(left);
    CHECK(m.grounded);
    const double want = 25.0 / (2.0 * 9.81);
    CHECK(std::abs((apex - start) - want) / want < 0.02);
    CHECK(std::abs(c.y - start) < 1e-3);
    // A press in the air does nothing.
    m.jump = false;
    m.grounded = false;
    m.verticalSpeed = 0.0;
    dvec3 air(0, 3, 0);
    m.jump = true;
    air = stepCharacter(sim.world, def, kSelf, air, m, kGravity, kDt, sim.scratch);
    CHECK(air.y < 3.0);
    CHECK_FALSE(m.jump);
}

TEST_CASE("100 characters walking at random for 2,000 steps never end a step inside a static shape")
{
    Sim sim;
    std::vector<Shape> shapes;
    shapes.push_back(box({0, -0.5, 0}, {30, 0.5, 30}));
    for (int i = 0; i < 4; ++i)
    {
        const double s = i < 2 ? 1.0 : -1.0;
        shapes.push_back(i % 2 == 0 ? box({s * 30, 2, 0}, {0.5, 2, 30}) : box({0, 2, s * 30}, {30, 2, 0.5}));
    }
    spark::Rng rng = spark::rngFromSeed(2026);
    auto uni = [&](double lo, double hi) { return spark::rngNextRange(rng, lo, hi); };
    for (int i = 0; i < 40; ++i)
        shapes.push_back(box({uni(-25, 25), uni(0.0, 0.7), uni(-25, 25)}, {uni(0.3, 2), uni(0.1, 0.7), uni(0.3, 2)}));
    for (int i = 0; i < 8; ++i)
        shapes.push_back(rampBox({uni(-25, 25), 0.3, uni(-25, 25)}, {2, 0.3, 1.5}, uni(10, 60)));
    for (int i = 0; i < 10; ++i)
        shapes.push_back(sphere({uni(-25, 25), uni(-0.5, 1.0), uni(-25, 25)}, uni(0.3, 1.5)));
    for (const Shape& s : shapes)
        sim.add(s);
    sim.build();
    const CharacterDef def = defaultDef();
    struct Walker
    {
        dvec3 c;
        CharacterMotion m;
    };
    std::vector<Walker> walkers;
    while (walkers.size() < 100)
    {
        const dvec3 c(uni(-28, 28), uni(3, 6), uni(-28, 28));
        bool clear = true;
        for (const Shape& s : shapes)
            clear = clear && capsuleClearance(def, c, s) > 0.01;
        if (clear)
            walkers.push_back({c, {}});
    }
    double worst = 1e30;
    for (int step = 0; step < 2000; ++step)
    {
        for (Walker& w : walkers)
        {
            if (step % 60 == 0)
            {
                w.m.wanted = {uni(-4, 4), 0, uni(-4, 4)};
                w.m.jump = uni(0, 1) < 0.2;
            }
            w.c = stepCharacter(sim.world, def, kSelf, w.c, w.m, kGravity, kDt, sim.scratch);
            for (const Shape& s : shapes)
                worst = std::min(worst, capsuleClearance(def, w.c, s));
        }
    }
    CHECK(worst > -1e-6);
}

TEST_CASE("Dynamic bodies fall, come to rest on the floor, on a ledge and on each other, and stop moving")
{
    Sim sim;
    sim.add(box({0, -0.5, 0}, {20, 0.5, 20}));
    sim.add(box({5, 0.5, 0}, {1, 0.5, 1})); // a ledge, top at y = 1
    sim.build();
    // Three bodies: a crate over the floor, a ball over the ledge, a crate above the first crate.
    std::vector<Shape> bodies = {box({0, 3, 0}, {0.4, 0.4, 0.4}), sphere({5, 4, 0}, 0.3),
                                 box({0.1, 6, 0}, {0.3, 0.3, 0.3})};
    std::vector<BodyMotion> motion(bodies.size());
    std::vector<Collider> moving;
    for (uint32_t i = 0; i < bodies.size(); ++i)
        moving.push_back({bodies[i], 1000 + i});
    sim.world.setMoving(moving);
    std::vector<dvec3> last(bodies.size());
    for (int step = 0; step < 600; ++step)
        for (uint32_t i = 0; i < bodies.size(); ++i)
        {
            const dvec3 d = stepBody(sim.world, sim.world.movingColliders()[i].shape, 1000 + i, motion[i], kGravity,
                                     kDt, sim.scratch);
            sim.world.moveMoving(i, translated(sim.world.movingColliders()[i].shape, d));
        }
    const auto rest = sim.world.movingColliders();
    CHECK(std::abs(rest[0].shape.center.y - 0.4) < 1e-3);
    CHECK(std::abs(rest[1].shape.center.y - 1.3) < 1e-3);
    CHECK(std::abs(rest[2].shape.center.y - (0.8 + 0.3)) < 1e-3);
    for (const BodyMotion& m : motion)
    {
        CHECK(m.sleeping);
        CHECK(m.velocity == dvec3(0.0));
    }
    for (uint32_t i = 0; i < bodies.size(); ++i)
        last[i] = rest[i].shape.center;
    for (uint32_t i = 0; i < bodies.size(); ++i)
        CHECK(stepBody(sim.world, rest[i].shape, 1000 + i, motion[i], kGravity, kDt, sim.scratch) == dvec3(0.0));
}
