// The linear programs of ORCA (libnav/src/avoidance/lp.cpp).
#include "avoidance_internal.h"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

using namespace spark::nav::detail;

namespace
{

Constraint2 halfPlane(glm::dvec2 point, glm::dvec2 normal) { return {point, glm::normalize(normal)}; }

double violation(const Constraint2& c, glm::dvec2 v) { return glm::dot(c.point - v, c.normal); }

} // namespace

TEST_CASE("the 2D program returns the preferred velocity when it is allowed, clamped to the speed disc")
{
    const std::vector<Constraint2> cs{halfPlane({0.0, -5.0}, {0.0, 1.0})};
    glm::dvec2 v{};
    CHECK(solveLinearProgram(cs, 2.0, {1.0, 1.0}, Objective::Closest, v) == 1);
    CHECK(v == glm::dvec2(1.0, 1.0));
    CHECK(solveLinearProgram(cs, 2.0, {3.0, 4.0}, Objective::Closest, v) == 1);
    CHECK(v.x == doctest::Approx(1.2));
    CHECK(v.y == doctest::Approx(1.6));
}

TEST_CASE("the 2D program projects onto the binding half-plane and meets every constraint")
{
    // y <= 0.5 and x <= 0.25: the nearest allowed point to (1, 1) is their corner.
    const std::vector<Constraint2> cs{halfPlane({0.0, 0.5}, {0.0, -1.0}), halfPlane({0.25, 0.0}, {-1.0, 0.0})};
    glm::dvec2 v{};
    REQUIRE(solveLinearProgram(cs, 5.0, {1.0, 1.0}, Objective::Closest, v) == 2);
    CHECK(v.x == doctest::Approx(0.25));
    CHECK(v.y == doctest::Approx(0.5));
    for (const Constraint2& c : cs)
        CHECK(violation(c, v) <= 1e-12);
}

TEST_CASE("an infeasible 2D program falls back to the least largest violation, keeping the hard constraints")
{
    // x >= 1 and x <= -1 cannot both hold: least violation is x = 0 (1 each).
    std::vector<Constraint2> cs{halfPlane({1.0, 0.0}, {1.0, 0.0}), halfPlane({-1.0, 0.0}, {-1.0, 0.0})};
    glm::dvec2 v{};
    const std::size_t met = solveLinearProgram(cs, 5.0, {0.0, 3.0}, Objective::Closest, v);
    REQUIRE(met == 1);
    std::vector<Constraint2> scratch;
    solveLeastViolation(cs, 0, met, 5.0, v, scratch);
    CHECK(v.x == doctest::Approx(0.0).epsilon(1e-12));
    CHECK(violation(cs[0], v) == doctest::Approx(1.0));
    // With the first hard, it holds exactly and the other takes the whole violation.
    glm::dvec2 w{};
    REQUIRE(solveLinearProgram(cs, 5.0, {0.0, 3.0}, Objective::Closest, w) == 1);
    solveLeastViolation(cs, 1, 1, 5.0, w, scratch);
    CHECK(violation(cs[0], w) <= 1e-12);
    CHECK(w.x == doctest::Approx(1.0));
}

TEST_CASE("the 3D program meets planes and the speed ball, and its fallback balances violations")
{
    const std::vector<Constraint3> cs{{{0.0, 0.5, 0.0}, {0.0, -1.0, 0.0}},
                                      {{0.0, 0.0, 0.25}, {0.0, 0.0, -1.0}},
                                      {{-0.1, 0.0, 0.0}, {1.0, 0.0, 0.0}}};
    glm::dvec3 v{};
    REQUIRE(solveLinearProgram(cs, 10.0, {-1.0, 1.0, 1.0}, Objective::Closest, v) == 3);
    CHECK(v.x == doctest::Approx(-0.1));
    CHECK(v.y == doctest::Approx(0.5));
    CHECK(v.z == doctest::Approx(0.25));
    // Opposed planes z >= 1 and z <= -1: the fallback settles at z = 0.
    const std::vector<Constraint3> opposed{{{0.0, 0.0, 1.0}, {0.0, 0.0, 1.0}}, {{0.0, 0.0, -1.0}, {0.0, 0.0, -1.0}}};
    glm::dvec3 w{};
    const std::size_t met = solveLinearProgram(opposed, 5.0, {1.0, 0.0, 0.0}, Objective::Closest, w);
    REQUIRE(met == 1);
    std::vector<Constraint3> scratch;
    solveLeastViolation(opposed, 0, met, 5.0, w, scratch);
    CHECK(w.z == doctest::Approx(0.0).epsilon(1e-12));
    CHECK(glm::length(w) <= 5.0 + 1e-12);
}
