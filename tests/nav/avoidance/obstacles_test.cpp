// Obstacles in 2D ORCA avoidance: circles, segments, polygons, still or moving.
#include "spark/core/det_math.h"
#include "spark/nav/avoidance.h"
#include "agent_util.h"

#include <doctest/doctest.h>
#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace spark;
using namespace spark::nav;

namespace
{

using test::length;
using test::makeAgent;

double distanceToSegment(glm::dvec2 x, glm::dvec2 a, glm::dvec2 b)
{
    const glm::dvec2 ab = b - a;
    const double t = std::clamp(glm::dot(x - a, ab) / glm::dot(ab, ab), 0.0, 1.0);
    return length(x - (a + ab * t));
}

/// Signed distance to a polygon's boundary: negative inside.
double signedDistanceToPolygon(glm::dvec2 x, const std::vector<glm::dvec2>& poly)
{
    double best = 1e300;
    bool inside = false;
    for (std::size_t k = 0; k < poly.size(); ++k)
    {
        const glm::dvec2 a = poly[k], b = poly[(k + 1) % poly.size()];
        best = std::min(best, distanceToSegment(x, a, b));
        if ((a.y > x.y) != (b.y > x.y) && x.x < a.x + (x.y - a.y) / (b.y - a.y) * (b.x - a.x))
            inside = !inside;
    }
    return inside ? -best : best;
}


glm::dvec2 toward(glm::dvec2 from, glm::dvec2 goal, double speed)
{
    const glm::dvec2 d = goal - from;
    const double l = length(d);
    return l < speed ? d : d * (speed / l);
}

} // namespace

TEST_CASE("agents never enter a counter-clockwise polygon in their way")
{
    auto made = createAvoidance(defaultAvoidanceDef());
    REQUIRE(made.ok());
    const std::vector<glm::dvec2> square{{-2.0, -2.0}, {2.0, -2.0}, {2.0, 2.0}, {-2.0, 2.0}};
    const std::vector<glm::dvec2> triangle{{4.0, 3.0}, {6.0, 3.5}, {4.5, 5.0}};
    AvoidanceObstacle squareObstacle;
    squareObstacle.shape = ObstacleShape::Polygon;
    squareObstacle.points = square;
    AvoidanceObstacle triangleObstacle = squareObstacle;
    triangleObstacle.points = triangle;
    const std::vector<AvoidanceObstacle> obstacles{squareObstacle, triangleObstacle};
    std::vector<AvoidanceAgent> agents;
    std::vector<glm::dvec2> goals;
    for (uint32_t i = 0; i < 12; ++i)
    {
        double s = 0.0, c = 0.0;
        det::sinCos(det::kTwoPi * (i + 0.3) / 12.0, s, c);
        agents.push_back(makeAgent({8.0 * c, 8.0 * s}, i));
        goals.push_back({-8.0 * c, -8.0 * s});
    }
    std::vector<glm::dvec2> out(agents.size());
    double closest = 1e300;
    for (int step = 0; step < 600; ++step)
    {
        for (std::size_t i = 0; i < agents.size(); ++i)
            agents[i].preferred = toward(agents[i].position, goals[i], 1.5);
        REQUIRE(made->avoid(agents, obstacles, 0.1, out).ok());
        for (std::size_t i = 0; i < agents.size(); ++i)
        {
            agents[i].velocity = out[i];
            agents[i].position += out[i] * 0.1;
            closest = std::min(closest, signedDistanceToPolygon(agents[i].position, square));
            closest = std::min(closest, signedDistanceToPolygon(agents[i].position, triangle));
        }
    }
    MESSAGE("closest centre to a polygon edge: " << closest);
    CHECK(closest >= 0.5 - 1e-9);
}

TEST_CASE("agents never cross a segment, from either side")
{
    auto made = createAvoidance(defaultAvoidanceDef());
    REQUIRE(made.ok());
    const std::vector<glm::dvec2> wall{{0.0, -3.0}, {0.0, 3.0}};
    AvoidanceObstacle segment;
    segment.shape = ObstacleShape::Segment;
    segment.points = wall;
    const std::vector<AvoidanceObstacle> obstacles{segment};
    std::vector<AvoidanceAgent> agents;
    std::vector<glm::dvec2> goals;
    for (uint32_t i = 0; i < 6; ++i)
    {
        const double y = -2.5 + i;
        agents.push_back(makeAgent({i % 2 == 0 ? -6.0 : 6.0, y}, i));
        goals.push_back({i % 2 == 0 ? 6.0 : -6.0, -y});
    }
    std::vector<glm::dvec2> out(agents.size());
    double closest = 1e300;
    for (int step = 0; step < 500; ++step)
    {
        for (std::size_t i = 0; i < agents.size(); ++i)
            agents[i].preferred = toward(agents[i].position, goals[i], 1.5);
        REQUIRE(made->avoid(agents, obstacles, 0.1, out).ok());
        for (std::size_t i = 0; i < agents.size(); ++i)
        {
            const glm::dvec2 before = agents[i].position;
            agents[i].velocity = out[i];
            agents[i].position += out[i] * 0.1;
            closest = std::min(closest, distanceToSegment(agents[i].position, wall[0], wall[1]));
            // Never on the other side at the same height band of the wall.
            if (std::abs(before.y) < 3.0 && std::abs(agents[i].position.y) < 3.0)
                CHECK((before.x < 0.0) == (agents[i].position.x < 0.0));
        }
    }
    CHECK(closest >= 0.5 - 1e-9);
}

TEST_CASE("an agent is never reached by a moving circle obstacle crossing its path")
{
    auto made = createAvoidance(defaultAvoidanceDef());
    REQUIRE(made.ok());
    AvoidanceObstacle circle;
    circle.shape = ObstacleShape::Circle;
    circle.center = {0.0, -8.0};
    circle.radius = 1.0;
    circle.velocity = {0.0, 1.0};
    std::vector<AvoidanceAgent> agents{makeAgent({-6.0, 0.0}, 1), makeAgent({6.0, 0.3}, 2)};
    const std::vector<glm::dvec2> goals{{6.0, 0.0}, {-6.0, 0.3}};
    std::vector<glm::dvec2> out(agents.size());
    double closest = 1e300;
    for (int step = 0; step < 300; ++step)
    {
        for (std::size_t i = 0; i < agents.size(); ++i)
            agents[i].preferred = toward(agents[i].position, goals[i], 1.5);
        std::vector<AvoidanceObstacle> obstacles{circle};
        REQUIRE(made->avoid(agents, obstacles, 0.1, out).ok());
        circle.center += circle.velocity * 0.1;
        for (std::size_t i = 0; i < agents.size(); ++i)
        {
            agents[i].velocity = out[i];
            agents[i].position += out[i] * 0.1;
            closest = std::min(closest, length(agents[i].position - circle.center) - circle.radius);
        }
    }
    MESSAGE("closest centre to the moving circle's edge: " << closest);
    CHECK(closest >= 0.5 - 1e-9);
    CHECK(length(agents[0].position - goals[0]) < 0.1);
    CHECK(length(agents[1].position - goals[1]) < 0.1);
}

TEST_CASE("an agent whose preferred velocity points into a wall waits at its face")
{
    auto made = createAvoidance(defaultAvoidanceDef());
    REQUIRE(made.ok());
    const std::vector<glm::dvec2> wall{{2.0, -5.0}, {2.0, 5.0}};
    AvoidanceObstacle segment;
    segment.shape = ObstacleShape::Segment;
    segment.points = wall;
    const std::vector<AvoidanceObstacle> obstacles{segment};
    std::vector<AvoidanceAgent> agents{makeAgent({-3.0, 0.0}, 1)};
    std::vector<glm::dvec2> out(1);
    for (int step = 0; step < 1500; ++step)
    {
        agents[0].preferred = {1.5, 0.0};
        REQUIRE(made->avoid(agents, obstacles, 0.1, out).ok());
        agents[0].velocity = out[0];
        agents[0].position += out[0] * 0.1;
        CHECK(agents[0].position.x <= 1.5 + 1e-9);
    }
    CHECK(agents[0].position.x == doctest::Approx(1.5).epsilon(0.02));
    CHECK(agents[0].position.y == 0.0);
    CHECK(length(out[0]) < 0.01);
}

TEST_CASE("an agent already overlapping an obstacle is sent out of it within a step")
{
    auto made = createAvoidance(defaultAvoidanceDef());
    REQUIRE(made.ok());
    AvoidanceObstacle circle;
    circle.shape = ObstacleShape::Circle;
    circle.center = {0.0, 0.0};
    circle.radius = 1.0;
    const std::vector<AvoidanceObstacle> obstacles{circle};
    std::vector<AvoidanceAgent> agents{makeAgent({1.3, 0.0}, 1)};
    agents[0].maxSpeed = 5.0;
    std::vector<glm::dvec2> out(1);
    REQUIRE(made->avoid(agents, obstacles, 0.1, out).ok());
    CHECK(out[0].x >= 2.0 - 1e-9); // leaves the 0.2 m overlap within the 0.1 s step
}
