// physics shapes: GJK core distances, analytic ray casts against every shape
// (agreeing with hand-worked answers within 1e-5), rays that start inside,
// grazing rays, the swept test, and the collision world's BVH against brute force.

#include "spark/scene/physics.h"

#include "test_shapes.h"

#include "spark/core/rng.h"

#include <doctest/doctest.h>
#include <glm/geometric.hpp>

#include <cmath>
#include <vector>

using namespace spark::scene::physics;
using glm::dvec3;
using namespace spark::scene::physics::test;

namespace
{

Shape triangle(dvec3 a, dvec3 b, dvec3 c)
{
    Shape s;
    s.kind = CoreKind::Triangle;
    s.vertex[0] = a;
    s.vertex[1] = b;
    s.vertex[2] = c;
    s.center = (a + b + c) / 3.0;
    return s;
}

void checkVec(const dvec3& got, const dvec3& want, double tol = 1e-5)
{
    CHECK(std::abs(got.x - want.x) <= tol);
    CHECK(std::abs(got.y - want.y) <= tol);
    CHECK(std::abs(got.z - want.z) <= tol);
}

} // namespace

TEST_CASE("GJK distance between cores matches the analytic distance")
{
    // Point to box face, edge and corner.
    const Shape b = box({0, 0, 0}, {1, 2, 3});
    CHECK(coreDistance(sphere({3, 0, 0}, 0), b).distance == doctest::Approx(2.0));
    CHECK(coreDistance(sphere({2, 3, 0}, 0), b).distance == doctest::Approx(std::sqrt(2.0)));
    CHECK(coreDistance(sphere({2, 3, 4}, 0), b).distance == doctest::Approx(std::sqrt(3.0)));
    // Segment to segment (skew lines one apart).
    const Shape s1 = capsule({0, 0, 0}, 1, 0, {1, 0, 0});
    const Shape s2 = capsule({0, 1, 0}, 1, 0, {0, 0, 1});
    CoreDistance d = coreDistance(s1, s2);
    CHECK(d.distance == doctest::Approx(1.0));
    CHECK(std::abs(d.onA.y) < 1e-9);
    CHECK(std::abs(d.onB.y - 1.0) < 1e-9);
    // Point above a triangle's interior, and beside its edge.
    const Shape t = triangle({0, 0, 0}, {4, 0, 0}, {0, 0, 4});
    CHECK(coreDistance(sphere({1, 2, 1}, 0), t).distance == doctest::Approx(2.0));
    CHECK(coreDistance(sphere({1, 0, -3}, 0), t).distance == doctest::Approx(3.0));
    // Overlapping cores.
    CHECK(coreDistance(box({0.5, 0, 0}, {1, 1, 1}), b).overlap);
    // A rotated box (45° about Y) and a point on its diagonal.
    Shape r = box({0, 0, 0}, {1, 1, 1});
    const double h = std::sqrt(0.5);
    r.axis[0] = {h, 0, -h};
    r.axis[2] = {h, 0, h};
    CHECK(coreDistance(sphere({3, 0, 0}, 0), r).distance == doctest::Approx(3.0 - std::sqrt(2.0)));
}

TEST_CASE("Ray casts agree with the analytic hits on every shape")
{
    SUBCASE("sphere")
    {
        const RayHit h = raycastShape(sphere({0, 0, 0}, 2), {-5, 1, 0}, {5, 1, 0});
        REQUIRE(h.hit);
        const double x = -std::sqrt(3.0);
        CHECK(std::abs(h.fraction - (x + 5) / 10) < 1e-5);
        checkVec(h.point, {x, 1, 0});
        checkVec(h.normal, dvec3(x, 1, 0) / 2.0);
    }
    SUBCASE("box, and a rotated box")
    {
        RayHit h = raycastShape(box({0, 0, 0}, {1, 2, 3}), {-4, 0.5, 0.5}, {4, 0.5, 0.5});
        REQUIRE(h.hit);
        CHECK(std::abs(h.fraction - 3.0 / 8.0) < 1e-5);
        checkVec(h.point, {-1, 0.5, 0.5});
        checkVec(h.normal, {-1, 0, 0});
        Shape r = box({0, 0, 0}, {1, 1, 1});
        const double q = std::sqrt(0.5);
        r.axis[0] = {q, 0, -q};
        r.axis[2] = {q, 0, q};
        h = raycastShape(r, {-5, 0, 0}, {5, 0, 0});
        REQUIRE(h.hit);
        checkVec(h.point, {-std::sqrt(2.0), 0, 0});
        CHECK(std::abs(std::abs(h.normal.x) - q) < 1e-5);
        CHECK(h.normal.x < 0);
    }
    SUBCASE("capsule side and cap")
    {
        const Shape c = capsule({0, 0, 0}, 1, 0.5);
        RayHit h = raycastShape(c, {-3, 0.5, 0}, {3, 0.5, 0});
        REQUIRE(h.hit);
        checkVec(h.point, {-0.5, 0.5, 0});
        checkVec(h.normal, {-1, 0, 0});
        h = raycastShape(c, {0, 5, 0}, {0, -5, 0});
        REQUIRE(h.hit);
        checkVec(h.point, {0, 1.5, 0});
        checkVec(h.normal, {0, 1, 0});
        // A ray past the side that clips the upper cap sphere only.
        h = raycastShape(c, {-3, 1.3, 0}, {3, 1.3, 0});
        REQUIRE(h.hit);
        checkVec(h.point, {-std::sqrt(0.25 - 0.09), 1.3, 0});
    }
    SUBCASE("triangle from both sides")
    {
        const Shape t = triangle({0, 0, 0}, {4, 0, 0}, {0, 0, 4});
        RayHit h = raycastShape(t, {1, 3, 1}, {1, -1, 1});
        REQUIRE(h.hit);
        CHECK(std::abs(h.fraction - 0.75) < 1e-5);
        checkVec(h.normal, {0, 1, 0});
        h = raycastShape(t, {1, -3, 1}, {1, 1, 1});
        REQUIRE(h.hit);
        checkVec(h.normal, {0, -1, 0});
        CHECK_FALSE(raycastShape(t, {3, 3, 3}, {3, -1, 3}).hit); // outside the hypotenuse
    }
}

TEST_CASE("A ray that starts inside a solid shape hits at fraction 0 with a zero normal")
{
    for (const Shape& s : {sphere({0, 0, 0}, 1), box({0, 0, 0}, {1, 1, 1}), capsule({0, 0, 0}, 1, 0.5)})
    {
        const RayHit h = raycastShape(s, {0.1, 0.2, 0.1}, {5, 5, 5});
        REQUIRE(h.hit);
        CHECK(h.fraction == 0.0);
        CHECK(h.normal == dvec3(0.0));
        checkVec(h.point, {0.1, 0.2, 0.1});
    }
}

TEST_CASE("Grazing rays: along a box face is a hit at the face plane, just past it a miss")
{
    const Shape b = box({0, 0, 0}, {1, 1, 1});
    // Exactly along the top face (y = 1): touches the closed box.
    RayHit h = raycastShape(b, {-3, 1, 0}, {3, 1, 0});
    CHECK(h.hit);
    CHECK(std::abs(h.fraction - 2.0 / 6.0) < 1e-9);
    CHECK_FALSE(raycastShape(b, {-3, 1 + 1e-9, 0}, {3, 1 + 1e-9, 0}).hit);
    // Tangent to a sphere: a hit at the tangent point; a hair above: a miss.
    h = raycastShape(sphere({0, 0, 0}, 1), {-3, 1, 0}, {3, 1, 0});
    CHECK(h.hit);
    checkVec(h.point, {0, 1, 0});
    CHECK_FALSE(raycastShape(sphere({0, 0, 0}, 1), {-3, 1 + 1e-7, 0}, {3, 1 + 1e-7, 0}).hit);
    // A ray that ends before the shape, and one parallel to a slab outside it.
    CHECK_FALSE(raycastShape(b, {-5, 0, 0}, {-2, 0, 0}).hit);
    CHECK_FALSE(raycastShape(b, {-5, 2, 0}, {5, 2, 0}).hit);
}

TEST_CASE("A sweep stops a skin short of the obstacle, and ignores one it moves away from")
{
    const Shape floor = box({0, -0.5, 0}, {10, 0.5, 10});
    const Shape ball = sphere({0, 2, 0}, 0.5);
    SweepHit h = sweepShape(ball, {0, -5, 0}, floor);
    REQUIRE(h.hit);
    CHECK(std::abs(h.fraction * 5 - (1.5 - kSkin)) < 1e-7);
    checkVec(h.normal, {0, 1, 0}, 1e-9);
    // Resting at the skin and moving up or sideways: no hit.
    const Shape resting = sphere({0, 0.5 + kSkin, 0}, 0.5);
    CHECK_FALSE(sweepShape(resting, {0, 1, 0}, floor).hit);
    CHECK_FALSE(sweepShape(resting, {1, 0, 0}, floor).hit);
    h = sweepShape(resting, {0, -1, 0}, floor);
    CHECK(h.hit);
    CHECK(h.fraction == 0.0);
    // A box falling onto a box: lands face down a skin above.
    const Shape crate = box({3, 4, 2}, {0.4, 0.4, 0.4});
    h = sweepShape(crate, {0, -10, 0}, floor);
    REQUIRE(h.hit);
    CHECK(std::abs(4 - 10 * h.fraction - (0.4 + kSkin)) < 1e-7);
}

TEST_CASE("The collision world's ray cast and region query equal brute force over 2,000 random shapes")
{
    spark::Rng rng = spark::rngFromSeed(77);
    auto uni = [&](double lo, double hi) { return spark::rngNextRange(rng, lo, hi); };
    std::vector<Collider> colliders;
    for (uint32_t i = 0; i < 2000; ++i)
    {
        const dvec3 c(uni(-50, 50), uni(-5, 5), uni(-50, 50));
        Shape s;
        switch (i % 4)
        {
        case 0: s = sphere(c, uni(0.1, 1)); break;
        case 1: s = box(c, {uni(0.1, 1), uni(0.1, 1), uni(0.1, 1)}); break;
        case 2: s = capsule(c, uni(0, 1), uni(0.1, 0.5), {uni(-1, 1), 1, uni(-1, 1)}); break;
        default: s = triangle(c, c + dvec3(uni(-2, 2), uni(-2, 2), uni(-2, 2)), c + dvec3(uni(-2, 2), uni(-2, 2), uni(-2, 2)));
        }
        colliders.push_back({s, i});
    }
    CollisionWorld world;
    world.setStatic(colliders);
    for (int k = 0; k < 300; ++k)
    {
        const dvec3 a(uni(-60, 60), uni(-6, 6), uni(-60, 60)), b(uni(-60, 60), uni(-6, 6), uni(-60, 60));
        uint32_t owner = 0;
        const RayHit got = world.raycast(a, b, {}, &owner);
        RayHit want;
        uint32_t wantOwner = UINT32_MAX;
        for (const Collider& c : colliders)
        {
            const RayHit h = raycastShape(c.shape, a, b);
            if (h.hit && (!want.hit || h.fraction < want.fraction))
            {
                want = h;
                wantOwner = c.owner;
            }
        }
        REQUIRE(got.hit == want.hit);
        if (want.hit)
        {
            CHECK(owner == wantOwner);
            CHECK(got.fraction == want.fraction);
        }
        const Bounds q{glm::min(a, b) * 0.2, glm::max(a, b) * 0.2};
        std::vector<uint32_t> found;
        world.queryStatic(q, found);
        std::vector<uint32_t> brute;
        for (uint32_t i = 0; i < colliders.size(); ++i)
        {
            const Bounds s = shapeBounds(colliders[i].shape);
            if (s.min.x <= q.max.x && q.min.x <= s.max.x && s.min.y <= q.max.y && q.min.y <= s.max.y &&
                s.min.z <= q.max.z && q.min.z <= s.max.z)
                brute.push_back(i);
        }
        CHECK(found == brute);
    }
}

TEST_CASE("Segment and point distances to boxes and to each other match dense sampling on 500 random pairs")
{
    spark::Rng rng = spark::rngFromSeed(99);
    auto uni = [&](double lo, double hi) { return spark::rngNextRange(rng, lo, hi); };
    auto pointBox = [](const dvec3& p, const Shape& b) {
        double d2 = 0.0;
        for (int i = 0; i < 3; ++i)
        {
            const double x = glm::dot(p - b.center, b.axis[i]);
            const double over = std::max(0.0, std::abs(x) - b.half[i]);
            d2 += over * over;
        }
        return std::sqrt(d2);
    };
    for (int k = 0; k < 500; ++k)
    {
        Shape b = box({uni(-2, 2), uni(-2, 2), uni(-2, 2)}, {uni(0.1, 2), uni(0.1, 2), uni(0.1, 2)});
        const double a = uni(0, 3.14159), c = std::cos(a), s = std::sin(a);
        b.axis[0] = {c, 0, -s};
        b.axis[2] = {s, 0, c};
        const Shape seg = capsule({uni(-5, 5), uni(-5, 5), uni(-5, 5)}, k % 5 == 0 ? 0.0 : uni(0.1, 3), 0.3,
                                  {uni(-1, 1), uni(-1, 1), uni(-1, 1)});
        const dvec3 p = seg.center - seg.axis[1] * seg.half.y, q = seg.center + seg.axis[1] * seg.half.y;
        double sampled = 1e30;
        for (int i = 0; i <= 2000; ++i)
            sampled = std::min(sampled, pointBox(p + (q - p) * (i / 2000.0), b));
        const CoreDistance d = coreDistance(seg, b);
        CHECK(d.distance <= sampled + 1e-9);
        CHECK(d.distance >= sampled - 2e-3);
        CHECK(std::abs(glm::length(d.onA - d.onB) - d.distance) < 1e-9);
        CHECK(std::abs(pointBox(d.onA, b) - d.distance) < 1e-9); // onA is a point of the segment at that distance
        // And the same pair the other way round.
        const CoreDistance r = coreDistance(b, seg);
        CHECK(r.distance == d.distance);
        // Segment to segment against sampling of both.
        const Shape other = capsule({uni(-5, 5), uni(-5, 5), uni(-5, 5)}, uni(0, 3), 0.3, {uni(-1, 1), uni(-1, 1), uni(-1, 1)});
        const dvec3 p2 = other.center - other.axis[1] * other.half.y, q2 = other.center + other.axis[1] * other.half.y;
        double best = 1e30;
        for (int i = 0; i <= 200; ++i)
            for (int j = 0; j <= 200; ++j)
                best = std::min(best, glm::length((p + (q - p) * (i / 200.0)) - (p2 + (q2 - p2) * (j / 200.0))));
        const double ss = coreDistance(seg, other).distance;
        CHECK(ss <= best + 1e-9);
        CHECK(ss >= best - 0.05);
    }
}
