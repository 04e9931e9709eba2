// Determinism of the avoidance step: twin worlds in lockstep, compared bit for bit.
#include "spark/core/det_math.h"
#include "spark/nav/avoidance.h"

#include <doctest/doctest.h>
#include <glm/geometric.hpp>

#include <cmath>
#include <cstring>
#include <vector>

using namespace spark;
using namespace spark::nav;

namespace
{

struct World
{
    Avoidance avoidance;
    std::vector<AvoidanceAgent> agents;
    std::vector<glm::dvec2> goals;
    std::vector<AvoidanceAgent3D> fliers;
    std::vector<glm::dvec3> flierGoals;
    std::vector<glm::dvec2> out;
    std::vector<glm::dvec3> out3;
};

const std::vector<glm::dvec2> kPolygon{{-3.0, -1.0}, {3.0, -2.0}, {2.0, 2.0}, {-2.0, 1.5}};
const std::vector<glm::dvec2> kWall{{-8.0, 12.0}, {8.0, 12.0}};

/// `count` agents and as many fliers on circles, solved on `threads` threads.
World makeWorld(uint32_t count = 80, int threads = 0)
{
    AvoidanceDef def = defaultAvoidanceDef();
    def.threads = threads;
    auto made = createAvoidance(def);
    REQUIRE(made.ok());
    World w{std::move(made.value()), {}, {}, {}, {}, {}, {}};
    const double ring = 30.0 * std::sqrt(count / 80.0);
    for (uint32_t i = 0; i < count; ++i)
    {
        double s = 0.0, c = 0.0;
        det::sinCos(det::kTwoPi * i / count, s, c);
        AvoidanceAgent a;
        a.position = {ring * c, ring * s};
        a.radius = 0.4 + 0.01 * (i % 7);
        a.maxSpeed = 1.0 + 0.05 * (i % 5);
        a.priority = 1.0 + (i % 3);
        a.id = i;
        a.layers = 1u << (i % 4);
        a.ignores = i % 11 == 0 ? 0x2u : 0u;
        w.agents.push_back(a);
        w.goals.push_back({-ring * c + (i % 3), -ring * s});
        AvoidanceAgent3D f;
        f.position = {ring * (2.0 / 3.0) * c, 3.0 * s * c, ring * (2.0 / 3.0) * s};
        f.id = i;
        w.fliers.push_back(f);
        w.flierGoals.push_back(-f.position);
    }
    w.out.resize(w.agents.size());
    w.out3.resize(w.fliers.size());
    return w;
}

void step(World& w, int index)
{
    std::vector<AvoidanceObstacle> obstacles(3);
    obstacles[0].shape = ObstacleShape::Polygon;
    obstacles[0].points = kPolygon;
    obstacles[1].shape = ObstacleShape::Segment;
    obstacles[1].points = kWall;
    obstacles[2].shape = ObstacleShape::Circle;
    obstacles[2].center = {-10.0 + 0.05 * index, 5.0};
    obstacles[2].radius = 1.5;
    obstacles[2].velocity = {0.5, 0.0};
    for (std::size_t i = 0; i < w.agents.size(); ++i)
    {
        const glm::dvec2 d = w.goals[i] - w.agents[i].position;
        const double l = std::sqrt(glm::dot(d, d));
        w.agents[i].preferred = l > 1.0 ? d / l : d;
        const glm::dvec3 d3 = w.flierGoals[i] - w.fliers[i].position;
        const double l3 = std::sqrt(glm::dot(d3, d3));
        w.fliers[i].preferred = l3 > 1.0 ? d3 / l3 : d3;
    }
    REQUIRE(w.avoidance.avoid(w.agents, obstacles, 0.1, w.out).ok());
    std::vector<AvoidanceSphere> spheres(1);
    spheres[0].radius = 2.0;
    REQUIRE(w.avoidance.avoid3D(w.fliers, spheres, 0.1, w.out3).ok());
    for (std::size_t i = 0; i < w.agents.size(); ++i)
    {
        w.agents[i].velocity = w.out[i];
        w.agents[i].position += w.out[i] * 0.1;
        w.fliers[i].velocity = w.out3[i];
        w.fliers[i].position += w.out3[i] * 0.1;
    }
}

} // namespace

TEST_CASE("two worlds stepped in lockstep stay identical bit for bit")
{
    World a = makeWorld();
    World b = makeWorld();
    for (int s = 0; s < 400; ++s)
    {
        step(a, s);
        step(b, s);
        REQUIRE(std::memcmp(a.out.data(), b.out.data(), a.out.size() * sizeof(glm::dvec2)) == 0);
        REQUIRE(std::memcmp(a.out3.data(), b.out3.data(), a.out3.size() * sizeof(glm::dvec3)) == 0);
    }
    for (std::size_t i = 0; i < a.agents.size(); ++i)
    {
        CHECK(std::memcmp(&a.agents[i].position, &b.agents[i].position, sizeof(glm::dvec2)) == 0);
        CHECK(std::memcmp(&a.fliers[i].position, &b.fliers[i].position, sizeof(glm::dvec3)) == 0);
    }
}

TEST_CASE("a reused avoidance object gives the same bits as a fresh one")
{
    World reused = makeWorld();
    for (int s = 0; s < 50; ++s)
        step(reused, s);
    World fresh = makeWorld();
    for (int s = 0; s < 50; ++s)
        step(fresh, s);
    // Step both again, the reused one after a throw-away call of a different size.
    std::vector<AvoidanceAgent> few(reused.agents.begin(), reused.agents.begin() + 3);
    std::vector<glm::dvec2> fewOut(3);
    REQUIRE(reused.avoidance.avoid(few, {}, 0.1, fewOut).ok());
    step(reused, 50);
    step(fresh, 50);
    CHECK(std::memcmp(reused.out.data(), fresh.out.data(), reused.out.size() * sizeof(glm::dvec2)) == 0);
}

TEST_CASE("one thread and many give the same bits")
{
    // 700 agents: a call uses one thread per 128, so all four threads solve.
    World one = makeWorld(700, 1);
    World four = makeWorld(700, 4);
    World all = makeWorld(700, 0);
    for (int s = 0; s < 60; ++s)
    {
        step(one, s);
        step(four, s);
        step(all, s);
        REQUIRE(std::memcmp(one.out.data(), four.out.data(), one.out.size() * sizeof(glm::dvec2)) == 0);
        REQUIRE(std::memcmp(one.out3.data(), four.out3.data(), one.out3.size() * sizeof(glm::dvec3)) == 0);
        REQUIRE(std::memcmp(one.out.data(), all.out.data(), one.out.size() * sizeof(glm::dvec2)) == 0);
        REQUIRE(std::memcmp(one.out3.data(), all.out3.data(), one.out3.size() * sizeof(glm::dvec3)) == 0);
    }
    // The agents moved (the comparison above is not of 60 standing crowds).
    double moved = 0.0;
    for (const AvoidanceAgent& a : one.agents)
        moved += std::sqrt(glm::dot(a.velocity, a.velocity));
    CHECK(moved > 100.0);
}

TEST_CASE("a thread count past its limits is a config error")
{
    for (const int threads : {-1, kMaxAvoidanceThreads + 1})
    {
        AvoidanceDef def = defaultAvoidanceDef();
        def.threads = threads;
        auto made = createAvoidance(def);
        REQUIRE_FALSE(made.ok());
        CHECK(made.error().code == "E_NAV_AVOIDANCE_CONFIG");
        CHECK(made.error().field == "/threads");
    }
}
