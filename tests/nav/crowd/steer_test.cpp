// Steering, analytically: straight toward the first corner at the cruising
// speed, a linear slow-down within the slow radius of the target measured along
// the corners, zero and `arrived` within the stop distance, `atLink` at a link.

#include "spark/nav/steer.h"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

using namespace spark;
using namespace spark::nav;

namespace
{

CorridorCorner corner(float x, float z, uint8_t flags = 0)
{
    CorridorCorner c;
    c.point = glm::vec3(x, 0.0f, z);
    c.flags = flags;
    return c;
}

SteerDef def(float maxSpeed, float slowRadius, float stopDistance)
{
    SteerDef d = defaultSteerDef();
    d.maxSpeed = maxSpeed;
    d.slowRadius = slowRadius;
    d.stopDistance = stopDistance;
    return d;
}

float speedOf(const glm::vec3& v)
{
    return std::sqrt(v.x * v.x + v.z * v.z);
}

} // namespace

TEST_CASE("steer heads straight for the first corner at max speed when the target is far")
{
    // From the origin the first corner is (3, 4): direction (0.6, 0.8); the
    // target is 5 + 7 = 12 m away along the corners, beyond the slow radius.
    const std::vector<CorridorCorner> corners{corner(3, 4), corner(10, 4, kCornerEnd)};
    auto s = steer(glm::vec3(0.0f), corners, def(3.5f, 1.5f, 0.1f));
    REQUIRE(s.ok());
    CHECK(s->velocity.x == doctest::Approx(2.1));
    CHECK(s->velocity.z == doctest::Approx(2.8));
    CHECK(s->velocity.y == 0.0f);
    CHECK(s->distanceToEnd == doctest::Approx(12.0));
    CHECK_FALSE(s->arrived);
    CHECK_FALSE(s->atLink);
}

TEST_CASE("steer ignores the height difference: the velocity is in the x–z plane")
{
    const std::vector<CorridorCorner> corners{corner(0, 10, kCornerEnd)};
    auto s = steer(glm::vec3(0.0f, -3.0f, 0.0f), corners, def(2.0f, 1.0f, 0.1f));
    REQUIRE(s.ok());
    CHECK(s->velocity == glm::vec3(0.0f, 0.0f, 2.0f));
    CHECK(s->distanceToEnd == doctest::Approx(10.0));
}

TEST_CASE("steer without the target among the corners never slows down")
{
    // The corner is 0.5 m ahead but it is a bend, not the end.
    const std::vector<CorridorCorner> corners{corner(0.5f, 0), corner(0.5f, 0.5f)};
    auto s = steer(glm::vec3(0.0f), corners, def(3.0f, 4.0f, 0.2f));
    REQUIRE(s.ok());
    CHECK(speedOf(s->velocity) == doctest::Approx(3.0));
    CHECK(s->distanceToEnd == -1.0f);
    CHECK_FALSE(s->arrived);
}

TEST_CASE("steer slows down linearly within slow_radius: speed = max × d / slow_radius")
{
    for (float d : {0.25f, 0.5f, 1.0f, 1.5f, 1.99f})
    {
        CAPTURE(d);
        const std::vector<CorridorCorner> corners{corner(d, 0, kCornerEnd)};
        auto s = steer(glm::vec3(0.0f), corners, def(4.0f, 2.0f, 0.1f));
        REQUIRE(s.ok());
        CHECK(s->velocity.x == doctest::Approx(4.0f * d / 2.0f));
        CHECK(s->velocity.z == 0.0f);
    }
    // At and beyond the slow radius: full speed.
    for (float d : {2.0f, 2.5f})
    {
        const std::vector<CorridorCorner> corners{corner(0, -d, kCornerEnd)};
        auto s = steer(glm::vec3(0.0f), corners, def(4.0f, 2.0f, 0.1f));
        REQUIRE(s.ok());
        CHECK(s->velocity.z == doctest::Approx(-4.0));
    }
    // The distance is measured along the corners: 1 + 1 = 2 of a slow radius of
    // 4 gives half speed, toward the first corner.
    const std::vector<CorridorCorner> bend{corner(1, 0), corner(1, 1, kCornerEnd)};
    auto s = steer(glm::vec3(0.0f), bend, def(4.0f, 4.0f, 0.1f));
    REQUIRE(s.ok());
    CHECK(s->velocity.x == doctest::Approx(2.0));
    CHECK(s->velocity.z == doctest::Approx(0.0));
    // A slow radius of zero: full speed up to the stop distance.
    const std::vector<CorridorCorner> near{corner(0.3f, 0, kCornerEnd)};
    auto z = steer(glm::vec3(0.0f), near, def(4.0f, 0.0f, 0.1f));
    REQUIRE(z.ok());
    CHECK(z->velocity.x == doctest::Approx(4.0));
}

TEST_CASE("steer within stop_distance of the target says arrived and wants no velocity")
{
    for (float d : {0.0f, 0.05f, 0.2f})
    {
        CAPTURE(d);
        const std::vector<CorridorCorner> corners{corner(0, d, kCornerEnd)};
        auto s = steer(glm::vec3(0.0f), corners, def(3.5f, 1.5f, 0.2f));
        REQUIRE(s.ok());
        CHECK(s->arrived);
        CHECK(s->velocity == glm::vec3(0.0f));
        CHECK_FALSE(s->atLink);
    }
    // Just outside: not arrived, slow (0.21 / 1.5 of max speed).
    const std::vector<CorridorCorner> corners{corner(0, 0.21f, kCornerEnd)};
    auto s = steer(glm::vec3(0.0f), corners, def(3.5f, 1.5f, 0.2f));
    REQUIRE(s.ok());
    CHECK_FALSE(s->arrived);
    CHECK(s->velocity.z == doctest::Approx(3.5 * 0.21 / 1.5));
    // A corner that is not the end never means arrived.
    const std::vector<CorridorCorner> bend{corner(0, 0.05f), corner(5, 0.05f)};
    auto b = steer(glm::vec3(0.0f), bend, def(3.5f, 1.5f, 0.2f));
    REQUIRE(b.ok());
    CHECK_FALSE(b->arrived);
}

TEST_CASE("steer says atLink when the next corner starts an off-mesh link within stop_distance")
{
    const std::vector<CorridorCorner> atStart{corner(0.05f, 0, kCornerOffMeshStart)};
    auto s = steer(glm::vec3(0.0f), atStart, def(3.5f, 1.5f, 0.1f));
    REQUIRE(s.ok());
    CHECK(s->atLink);
    CHECK_FALSE(s->arrived);
    CHECK(s->velocity == glm::vec3(0.0f));
    // Further away: no flag, and the agent slows down toward the link's start
    // as toward a target (so it can stop there): 1 / 1.5 of max speed.
    const std::vector<CorridorCorner> ahead{corner(1.0f, 0, kCornerOffMeshStart), corner(5, 0, kCornerEnd)};
    auto a = steer(glm::vec3(0.0f), ahead, def(3.0f, 1.5f, 0.1f));
    REQUIRE(a.ok());
    CHECK_FALSE(a->atLink);
    CHECK(a->velocity.x == doctest::Approx(3.0 * 1.0 / 1.5));
    // The link's start as a later corner does not count.
    const std::vector<CorridorCorner> later{corner(0.05f, 0.05f), corner(0.06f, 0.05f, kCornerOffMeshStart)};
    auto l = steer(glm::vec3(0.0f), later, def(3.5f, 1.5f, 0.1f));
    REQUIRE(l.ok());
    CHECK_FALSE(l->atLink);
}

TEST_CASE("steer with no corners wants no velocity")
{
    auto s = steer(glm::vec3(1.0f), {}, def(3.5f, 1.5f, 0.1f));
    REQUIRE(s.ok());
    CHECK(s->velocity == glm::vec3(0.0f));
    CHECK_FALSE(s->arrived);
    CHECK(s->distanceToEnd == -1.0f);
}

TEST_CASE("steer refuses a def field out of its limits, naming it")
{
    const std::vector<CorridorCorner> corners{corner(1, 0, kCornerEnd)};
    struct Bad
    {
        SteerDef def;
        const char* field;
    };
    const float nan = std::nanf("");
    const std::vector<Bad> bad{
        {def(-1.0f, 1.5f, 0.1f), "/maxSpeed"},   {def(2.0e4f, 1.5f, 0.1f), "/maxSpeed"},
        {def(nan, 1.5f, 0.1f), "/maxSpeed"},     {def(1.0f, -0.5f, 0.1f), "/slowRadius"},
        {def(1.0f, nan, 0.1f), "/slowRadius"},   {def(1.0f, 1.5f, -0.1f), "/stopDistance"},
        {def(1.0f, 1.5f, nan), "/stopDistance"}, {def(1.0f, 2.0e6f, 0.1f), "/slowRadius"},
    };
    for (const Bad& b : bad)
    {
        CAPTURE(b.field);
        auto s = steer(glm::vec3(0.0f), corners, b.def);
        REQUIRE_FALSE(s.ok());
        CHECK(s.error().code == "E_INVALID_PARAMS");
        CHECK(s.error().field == b.field);
    }
}
