// Behaviour of 3D ORCA avoidance for fliers (Avoidance::avoid3D).
#include "spark/core/det_math.h"
#include "spark/nav/avoidance.h"

#include <doctest/doctest.h>
#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

using namespace spark;
using namespace spark::nav;

namespace
{

double length(glm::dvec3 v) { return std::sqrt(glm::dot(v, v)); }

glm::dvec3 towardGoal(glm::dvec3 from, glm::dvec3 goal, double speed)
{
    const glm::dvec3 d = goal - from;
    const double l = length(d);
    return l < speed ? d : d * (speed / l);
}

double minPairDistance(const std::vector<AvoidanceAgent3D>& agents, double cut)
{
    std::vector<std::size_t> order(agents.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return agents[a].position.x < agents[b].position.x; });
    double best = 1e300;
    for (std::size_t i = 0; i < order.size(); ++i)
        for (std::size_t j = i + 1; j < order.size(); ++j)
        {
            const glm::dvec3 pi = agents[order[i]].position, pj = agents[order[j]].position;
            if (pj.x - pi.x > cut)
                break;
            best = std::min(best, length(pi - pj));
        }
    return best;
}

AvoidanceAgent3D makeFlier(glm::dvec3 position, uint32_t id)
{
    AvoidanceAgent3D a;
    a.position = position;
    a.radius = 0.5;
    a.maxSpeed = 1.5;
    a.id = id;
    return a;
}

struct PairRun3D
{
    std::vector<glm::dvec3> a, b;
    double minDistance = 1e300;
};

PairRun3D runPair3D(glm::dvec3 from, glm::dvec3 to, int steps)
{
    auto made = createAvoidance(defaultAvoidanceDef());
    REQUIRE(made.ok());
    std::vector<AvoidanceAgent3D> agents{makeFlier(from, 1), makeFlier(to, 2)};
    std::vector<glm::dvec3> out(2);
    PairRun3D run;
    for (int s = 0; s < steps; ++s)
    {
        agents[0].preferred = towardGoal(agents[0].position, to, 1.5);
        agents[1].preferred = towardGoal(agents[1].position, from, 1.5);
        REQUIRE(made->avoid3D(agents, {}, 0.1, out).ok());
        for (std::size_t i = 0; i < 2; ++i)
        {
            agents[i].velocity = out[i];
            agents[i].position += out[i] * 0.1;
        }
        run.a.push_back(agents[0].position);
        run.b.push_back(agents[1].position);
        run.minDistance = std::min(run.minDistance, length(agents[0].position - agents[1].position));
    }
    return run;
}

} // namespace

TEST_CASE("fliers on a sphere swap to the antipodes with every pair kept above 0.93 of 2r")
{
    // Rings of a sphere of radius 50 every 0.2 rad of polar angle, ceil(r / 2.5)
    // fliers per ring (206 fliers), the 3D reference example at a quarter size.
    AvoidanceDef def = defaultAvoidanceDef();
    std::vector<AvoidanceAgent3D> agents;
    std::vector<glm::dvec3> goals;
    for (int ring = 0; ring * 0.2 < det::kPi; ++ring)
    {
        double s = 0.0, c = 0.0;
        det::sinCos(ring * 0.2, s, c);
        const double r = 50.0 * s;
        const int count = static_cast<int>(std::ceil(r / 2.5));
        for (int k = 0; k < count; ++k)
        {
            double s2 = 0.0, c2 = 0.0;
            det::sinCos(det::kTwoPi * k / count, s2, c2);
            AvoidanceAgent3D a = makeFlier({r * c2, 50.0 * c, r * s2}, static_cast<uint32_t>(agents.size()));
            a.radius = 1.5;
            a.maxSpeed = 2.0;
            agents.push_back(a);
            goals.push_back(-a.position);
        }
    }
    REQUIRE(agents.size() >= 200);
    def.maxAgents = static_cast<int>(agents.size());
    auto made = createAvoidance(def);
    REQUIRE(made.ok());
    std::vector<glm::dvec3> out(agents.size());
    double minRatio = 1e300;
    int steps = 0;
    bool allArrived = false;
    for (; steps < 6000; ++steps)
    {
        bool all = true;
        for (std::size_t i = 0; i < agents.size(); ++i)
        {
            if (length(goals[i] - agents[i].position) >= agents[i].radius)
                all = false;
            agents[i].preferred = towardGoal(agents[i].position, goals[i], 1.0);
        }
        if (all)
        {
            allArrived = true;
            break;
        }
        REQUIRE(made->avoid3D(agents, {}, 0.125, out).ok());
        for (std::size_t i = 0; i < agents.size(); ++i)
        {
            CHECK(length(out[i]) <= 2.0 * (1.0 + 1e-12));
            agents[i].velocity = out[i];
            agents[i].position += out[i] * 0.125;
        }
        minRatio = std::min(minRatio, minPairDistance(agents, 3.0) / 3.0);
    }
    MESSAGE(agents.size() << " fliers: steps until all arrive = " << steps << ", min centre distance / 2r = "
                          << minRatio);
    CHECK(allArrived);
    CHECK(minRatio > 0.93);
}

TEST_CASE("two fliers meeting head on pass, each sidestepping to its right")
{
    // a flies +Z: its right with +Y up is −X; b flies −Z: its right is +X.
    const PairRun3D run = runPair3D({0.0, 0.0, -10.0}, {0.0, 0.0, 10.0}, 300);
    double aMinX = 0.0, bMaxX = 0.0;
    for (std::size_t s = 0; s < run.a.size(); ++s)
    {
        aMinX = std::min(aMinX, run.a[s].x);
        bMaxX = std::max(bMaxX, run.b[s].x);
        CHECK(run.a[s].y == 0.0);
    }
    CHECK(aMinX < -0.2);
    CHECK(bMaxX > 0.2);
    CHECK(run.minDistance >= 1.0 - 1e-9);
    CHECK(length(run.a.back() - glm::dvec3(0.0, 0.0, 10.0)) < 0.05);
    CHECK(length(run.b.back() - glm::dvec3(0.0, 0.0, -10.0)) < 0.05);
}

TEST_CASE("a rising and a falling flier pass, sidestepping toward +X and -X")
{
    const PairRun3D run = runPair3D({0.0, -10.0, 0.0}, {0.0, 10.0, 0.0}, 300);
    double aMaxX = 0.0, bMinX = 0.0;
    for (std::size_t s = 0; s < run.a.size(); ++s)
    {
        aMaxX = std::max(aMaxX, run.a[s].x);
        bMinX = std::min(bMinX, run.b[s].x);
        CHECK(run.a[s].z == 0.0);
    }
    CHECK(aMaxX > 0.2);
    CHECK(bMinX < -0.2);
    CHECK(run.minDistance >= 1.0 - 1e-9);
    CHECK(length(run.a.back() - glm::dvec3(0.0, 10.0, 0.0)) < 0.05);
    CHECK(length(run.b.back() - glm::dvec3(0.0, -10.0, 0.0)) < 0.05);
}

TEST_CASE("fliers never enter a still or a moving sphere")
{
    auto made = createAvoidance(defaultAvoidanceDef());
    REQUIRE(made.ok());
    std::vector<AvoidanceSphere> spheres(2);
    spheres[0].center = {0.0, 0.0, 0.0};
    spheres[0].radius = 2.0;
    spheres[1].center = {0.0, -10.0, 5.0};
    spheres[1].radius = 1.0;
    spheres[1].velocity = {0.0, 1.0, 0.0};
    std::vector<AvoidanceAgent3D> agents;
    std::vector<glm::dvec3> goals;
    for (uint32_t i = 0; i < 8; ++i)
    {
        double s = 0.0, c = 0.0;
        det::sinCos(det::kTwoPi * (i + 0.25) / 8.0, s, c);
        agents.push_back(makeFlier({8.0 * c, 0.3 * s, 8.0 * s}, i));
        goals.push_back(-agents.back().position);
    }
    agents.push_back(makeFlier({-8.0, 0.0, 5.0}, 100));
    goals.push_back({8.0, 0.0, 5.0});
    std::vector<glm::dvec3> out(agents.size());
    double closest = 1e300;
    for (int step = 0; step < 500; ++step)
    {
        for (std::size_t i = 0; i < agents.size(); ++i)
            agents[i].preferred = towardGoal(agents[i].position, goals[i], 1.5);
        REQUIRE(made->avoid3D(agents, spheres, 0.1, out).ok());
        for (AvoidanceSphere& s : spheres)
            s.center += s.velocity * 0.1;
        for (std::size_t i = 0; i < agents.size(); ++i)
        {
            agents[i].velocity = out[i];
            agents[i].position += out[i] * 0.1;
            for (const AvoidanceSphere& s : spheres)
                closest = std::min(closest, length(agents[i].position - s.center) - s.radius);
        }
    }
    MESSAGE("closest centre to a sphere's surface: " << closest);
    CHECK(closest >= 0.5 - 1e-9);
}
