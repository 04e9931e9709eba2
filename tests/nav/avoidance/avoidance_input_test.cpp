// Bad input to the avoidance object: coded errors with the field path, nothing written.
#include "spark/nav/avoidance.h"

#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

using namespace spark;
using namespace spark::nav;

namespace
{

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
const glm::dvec2 kSentinel2{-12345.0, 6789.0};
const glm::dvec3 kSentinel3{-12345.0, 6789.0, 42.0};

struct Case2
{
    std::string name;
    std::function<void(std::vector<AvoidanceAgent>&, std::vector<AvoidanceObstacle>&, double&)> mutate;
    std::string code;
    std::string field;
};

std::vector<AvoidanceAgent> goodAgents()
{
    std::vector<AvoidanceAgent> agents(4);
    for (std::size_t i = 0; i < agents.size(); ++i)
    {
        agents[i].position = {static_cast<double>(i) * 3.0, 1.0};
        agents[i].preferred = {1.0, 0.0};
        agents[i].id = static_cast<uint32_t>(i);
    }
    return agents;
}

const std::vector<glm::dvec2> kSquare{{10.0, 10.0}, {12.0, 10.0}, {12.0, 12.0}, {10.0, 12.0}};
const std::vector<glm::dvec2> kClockwise{{10.0, 10.0}, {10.0, 12.0}, {12.0, 12.0}, {12.0, 10.0}};
const std::vector<glm::dvec2> kTwoPoints{{10.0, 10.0}, {12.0, 10.0}};
const std::vector<glm::dvec2> kOnePoint{{10.0, 10.0}};
const std::vector<glm::dvec2> kCollinear{{0.0, 0.0}, {1.0, 0.0}, {2.0, 0.0}};
const std::vector<glm::dvec2> kRepeated{{10.0, 10.0}, {10.0, 10.0}};
const std::vector<glm::dvec2> kFar{{10.0, 10.0}, {2.0e6, 10.0}};
const std::vector<glm::dvec2> kNaNPoint{{10.0, 10.0}, {kNaN, 10.0}};

std::vector<AvoidanceObstacle> goodObstacles()
{
    AvoidanceObstacle poly;
    poly.shape = ObstacleShape::Polygon;
    poly.points = kSquare;
    AvoidanceObstacle circle;
    circle.shape = ObstacleShape::Circle;
    circle.center = {-5.0, -5.0};
    circle.radius = 1.0;
    AvoidanceObstacle segment;
    segment.shape = ObstacleShape::Segment;
    segment.points = kTwoPoints;
    return {poly, circle, segment};
}

} // namespace

TEST_CASE("the good input of the bad-input cases is accepted")
{
    auto made = createAvoidance(defaultAvoidanceDef());
    REQUIRE(made.ok());
    auto agents = goodAgents();
    auto obstacles = goodObstacles();
    std::vector<glm::dvec2> out(agents.size(), kSentinel2);
    CHECK(made->avoid(agents, obstacles, 0.1, out).ok());
    CHECK(out[0] != kSentinel2);
}

TEST_CASE("every bad 2D input is refused with a coded error naming the field, and nothing is written")
{
    const std::vector<Case2> cases{
        {"radius too large", [](auto& a, auto&, double&) { a[3].radius = 2.0e3; }, "E_NAV_AVOIDANCE_INPUT",
         "/agents/3/radius"},
        {"radius too small", [](auto& a, auto&, double&) { a[1].radius = 0.0; }, "E_NAV_AVOIDANCE_INPUT",
         "/agents/1/radius"},
        {"radius NaN", [](auto& a, auto&, double&) { a[2].radius = kNaN; }, "E_NAV_AVOIDANCE_INPUT",
         "/agents/2/radius"},
        {"max speed too large", [](auto& a, auto&, double&) { a[0].maxSpeed = 1.0e4; }, "E_NAV_AVOIDANCE_INPUT",
         "/agents/0/maxSpeed"},
        {"max speed negative", [](auto& a, auto&, double&) { a[0].maxSpeed = -1.0; }, "E_NAV_AVOIDANCE_INPUT",
         "/agents/0/maxSpeed"},
        {"velocity too fast", [](auto& a, auto&, double&) { a[2].velocity = {900.0, 900.0}; },
         "E_NAV_AVOIDANCE_INPUT", "/agents/2/velocity"},
        {"preferred infinite", [](auto& a, auto&, double&) { a[1].preferred = {kInf, 0.0}; },
         "E_NAV_AVOIDANCE_INPUT", "/agents/1/preferred"},
        {"coordinate too far", [](auto& a, auto&, double&) { a[2].position = {0.0, 1.5e6}; },
         "E_NAV_AVOIDANCE_INPUT", "/agents/2/position"},
        {"position NaN", [](auto& a, auto&, double&) { a[0].position = {kNaN, 0.0}; }, "E_NAV_AVOIDANCE_INPUT",
         "/agents/0/position"},
        {"priority zero", [](auto& a, auto&, double&) { a[3].priority = 0.0; }, "E_NAV_AVOIDANCE_INPUT",
         "/agents/3/priority"},
        {"time step too small", [](auto&, auto&, double& dt) { dt = 1.0e-6; }, "E_NAV_AVOIDANCE_INPUT", "/dt"},
        {"time step NaN", [](auto&, auto&, double& dt) { dt = kNaN; }, "E_NAV_AVOIDANCE_INPUT", "/dt"},
        {"empty polygon", [](auto&, auto& o, double&) { o[0].points = {}; }, "E_NAV_AVOIDANCE_INPUT",
         "/obstacles/0/points"},
        {"polygon of two points", [](auto&, auto& o, double&) { o[0].points = kTwoPoints; },
         "E_NAV_AVOIDANCE_INPUT", "/obstacles/0/points"},
        {"clockwise polygon", [](auto&, auto& o, double&) { o[0].points = kClockwise; }, "E_NAV_AVOIDANCE_INPUT",
         "/obstacles/0/points"},
        {"polygon of no area", [](auto&, auto& o, double&) { o[0].points = kCollinear; }, "E_NAV_AVOIDANCE_INPUT",
         "/obstacles/0/points"},
        {"segment of one point", [](auto&, auto& o, double&) { o[2].points = kOnePoint; }, "E_NAV_AVOIDANCE_INPUT",
         "/obstacles/2/points"},
        {"segment of no length", [](auto&, auto& o, double&) { o[2].points = kRepeated; }, "E_NAV_AVOIDANCE_INPUT",
         "/obstacles/2/points/1"},
        {"segment point too far", [](auto&, auto& o, double&) { o[2].points = kFar; }, "E_NAV_AVOIDANCE_INPUT",
         "/obstacles/2/points/1"},
        {"segment point NaN", [](auto&, auto& o, double&) { o[2].points = kNaNPoint; }, "E_NAV_AVOIDANCE_INPUT",
         "/obstacles/2/points/1"},
        {"circle radius zero", [](auto&, auto& o, double&) { o[1].radius = 0.0; }, "E_NAV_AVOIDANCE_INPUT",
         "/obstacles/1/radius"},
        {"obstacle too fast", [](auto&, auto& o, double&) { o[1].velocity = {2000.0, 0.0}; },
         "E_NAV_AVOIDANCE_INPUT", "/obstacles/1/velocity"},
        {"unknown shape", [](auto&, auto& o, double&) { o[1].shape = static_cast<ObstacleShape>(7); },
         "E_NAV_AVOIDANCE_INPUT", "/obstacles/1/shape"},
    };
    auto made = createAvoidance(defaultAvoidanceDef());
    REQUIRE(made.ok());
    for (const Case2& c : cases)
    {
        CAPTURE(c.name);
        auto agents = goodAgents();
        auto obstacles = goodObstacles();
        double dt = 0.1;
        c.mutate(agents, obstacles, dt);
        std::vector<glm::dvec2> out(agents.size(), kSentinel2);
        const Status status = made->avoid(agents, obstacles, dt, out);
        REQUIRE_FALSE(status.ok());
        CHECK(status.error().code == c.code);
        CHECK(status.error().field == c.field);
        CHECK_FALSE(status.error().message.empty());
        for (const glm::dvec2& v : out)
            CHECK(v == kSentinel2);
    }
}

/// Tries each number of an agent (every lane of a vector) at, just inside and
/// just past its limits, NaN and infinite, against the limits written out
/// plainly. The library checks an agent with one quick test first and names
/// the field only when it fails; a quick test that let a bad value through
/// would show here as an accepted call.
template <class Agent> void checkAgentLimits()
{
    using Vec = decltype(Agent::position);
    constexpr int dim = Vec::length();
    const auto below = [](double x) { return std::nextafter(x, -kInf); };
    const auto above = [](double x) { return std::nextafter(x, kInf); };
    const auto probes = [&](std::vector<double> bounds)
    {
        std::vector<double> values{kNaN, kInf, -kInf, 0.0, -0.0, 1.0, -1.0};
        for (const double b : bounds)
            for (const double v : {b, below(b), above(b), -b, below(-b), above(-b)})
                values.push_back(v);
        return values;
    };
    struct Field
    {
        std::string name;
        std::function<double&(Agent&)> at;
        std::function<bool(const Agent&)> ok;
        std::vector<double> values;
    };
    const auto inRange = [](double x, double lo, double hi) { return x >= lo && x <= hi; };
    const auto speedOk = [](const Vec& v)
    {
        double sq = v[0] * v[0] + v[1] * v[1];
        if constexpr (dim == 3)
            sq = sq + v[2] * v[2];
        return sq <= 1.0e6;
    };
    const auto coordinateOk = [](const Vec& p)
    {
        for (int d = 0; d < dim; ++d)
            if (!(std::abs(p[d]) <= 1.0e6))
                return false;
        return true;
    };
    std::vector<Field> fields{
        {"radius", [](Agent& a) -> double& { return a.radius; },
         [&](const Agent& a) { return inRange(a.radius, kMinAvoidanceRadius, kMaxAvoidanceRadius); },
         probes({kMinAvoidanceRadius, kMaxAvoidanceRadius})},
        {"maxSpeed", [](Agent& a) -> double& { return a.maxSpeed; },
         [&](const Agent& a) { return inRange(a.maxSpeed, 0.0, kMaxAvoidanceSpeed); }, probes({kMaxAvoidanceSpeed})},
        {"priority", [](Agent& a) -> double& { return a.priority; },
         [&](const Agent& a) { return a.priority > 0.0 && a.priority <= kMaxAvoidancePriority; },
         probes({kMaxAvoidancePriority})},
    };
    for (int d = 0; d < dim; ++d)
    {
        fields.push_back({"position", [d](Agent& a) -> double& { return a.position[d]; },
                          [&](const Agent& a) { return coordinateOk(a.position); }, probes({kMaxAvoidanceCoordinate})});
        fields.push_back({"velocity", [d](Agent& a) -> double& { return a.velocity[d]; },
                          [&](const Agent& a) { return speedOk(a.velocity); },
                          probes({kMaxAvoidanceSpeed, 600.0, 800.0})});
        fields.push_back({"preferred", [d](Agent& a) -> double& { return a.preferred[d]; },
                          [&](const Agent& a) { return speedOk(a.preferred); },
                          probes({kMaxAvoidanceSpeed, 600.0, 800.0})});
    }
    auto made = createAvoidance(defaultAvoidanceDef());
    REQUIRE(made.ok());
    int accepted = 0, refused = 0;
    for (const Field& f : fields)
        for (const double value : f.values)
            for (int rest = 0; rest < 3; ++rest) // the other lanes of a speed: none, or (600, 800) at the limit
            {
                std::vector<Agent> agents(4);
                for (std::size_t i = 0; i < agents.size(); ++i)
                {
                    agents[i].position[0] = static_cast<double>(i) * 3.0;
                    agents[i].id = static_cast<uint32_t>(i);
                }
                Agent& a = agents[2];
                a.velocity = Vec(0.0);
                a.velocity[rest % dim] = 600.0;
                a.velocity[(rest + 1) % dim] = rest == 0 ? 0.0 : 800.0;
                a.preferred = a.velocity;
                a.preferred[dim - 1] = a.velocity[0];
                a.preferred[0] = a.velocity[dim - 1];
                f.at(a) = value;
                CAPTURE(f.name);
                CAPTURE(value);
                CAPTURE(rest);
                const bool expected = f.ok(a);
                std::vector<Vec> out(agents.size(), Vec(-12345.0));
                Status status = Status::success();
                if constexpr (dim == 2)
                    status = made->avoid(agents, {}, 0.1, out);
                else
                    status = made->avoid3D(agents, {}, 0.1, out);
                CHECK(status.ok() == expected);
                if (expected)
                {
                    ++accepted;
                    continue;
                }
                ++refused;
                if (!status.ok())
                {
                    CHECK(status.error().code == "E_NAV_AVOIDANCE_INPUT");
                    CHECK(status.error().field == "/agents/2/" + f.name);
                }
                CHECK(out[0] == Vec(-12345.0));
            }
    // Both sides of every limit were reached.
    CHECK(accepted > 100);
    CHECK(refused > 100);
}

TEST_CASE("each 2D agent number at, beside and past its limits, NaN or infinite, is judged as the limits say")
{
    checkAgentLimits<AvoidanceAgent>();
}

TEST_CASE("each 3D agent number at, beside and past its limits, NaN or infinite, is judged as the limits say")
{
    checkAgentLimits<AvoidanceAgent3D>();
}

TEST_CASE("an output of the wrong size and counts past the capacities are refused")
{
    AvoidanceDef def = defaultAvoidanceDef();
    def.maxAgents = 4;
    def.maxObstacles = 3;
    def.maxObstaclePoints = 7;
    auto made = createAvoidance(def);
    REQUIRE(made.ok());
    auto agents = goodAgents();
    auto obstacles = goodObstacles();
    std::vector<glm::dvec2> shortOut(3, kSentinel2);
    Status s = made->avoid(agents, obstacles, 0.1, shortOut);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().code == "E_NAV_AVOIDANCE_INPUT");
    CHECK(s.error().field == "/velocities");
    for (const glm::dvec2& v : shortOut)
        CHECK(v == kSentinel2);

    agents.push_back(agents[0]);
    std::vector<glm::dvec2> out(agents.size(), kSentinel2);
    s = made->avoid(agents, obstacles, 0.1, out);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().code == "E_NAV_AVOIDANCE_LIMIT");
    CHECK(s.error().field == "/agents");

    agents.pop_back();
    out.resize(agents.size(), kSentinel2);
    obstacles.push_back(obstacles[1]);
    s = made->avoid(agents, obstacles, 0.1, out);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().code == "E_NAV_AVOIDANCE_LIMIT");

    obstacles.pop_back();
    obstacles[2].shape = ObstacleShape::Polygon;
    obstacles[2].points = kSquare; // 4 + 1 + 4 = 9 points > 7
    s = made->avoid(agents, obstacles, 0.1, out);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().code == "E_NAV_AVOIDANCE_LIMIT");
    for (const glm::dvec2& v : out)
        CHECK(v == kSentinel2);
}

TEST_CASE("every bad 3D input is refused with a coded error naming the field, and nothing is written")
{
    auto made = createAvoidance(defaultAvoidanceDef());
    REQUIRE(made.ok());
    auto good = [] {
        std::vector<AvoidanceAgent3D> agents(3);
        for (std::size_t i = 0; i < agents.size(); ++i)
        {
            agents[i].position = {static_cast<double>(i) * 3.0, 1.0, 2.0};
            agents[i].id = static_cast<uint32_t>(i);
        }
        return agents;
    };
    std::vector<AvoidanceSphere> spheres(1);
    spheres[0].center = {20.0, 0.0, 0.0};
    {
        auto agents = good();
        std::vector<glm::dvec3> out(agents.size(), kSentinel3);
        REQUIRE(made->avoid3D(agents, spheres, 0.1, out).ok());
    }
    struct Case3
    {
        std::string name;
        std::function<void(std::vector<AvoidanceAgent3D>&, std::vector<AvoidanceSphere>&)> mutate;
        std::string field;
    };
    const std::vector<Case3> cases{
        {"radius past the limit", [](auto& a, auto&) { a[2].radius = 5.0e3; }, "/agents/2/radius"},
        {"NaN z", [](auto& a, auto&) { a[1].position.z = kNaN; }, "/agents/1/position"},
        {"coordinate past the limit", [](auto& a, auto&) { a[0].position.y = -3.0e6; }, "/agents/0/position"},
        {"speed past the limit", [](auto& a, auto&) { a[0].maxSpeed = 1.0e5; }, "/agents/0/maxSpeed"},
        {"preferred NaN", [](auto& a, auto&) { a[2].preferred.y = kNaN; }, "/agents/2/preferred"},
        {"sphere radius negative", [](auto&, auto& s) { s[0].radius = -1.0; }, "/spheres/0/radius"},
        {"sphere centre NaN", [](auto&, auto& s) { s[0].center.x = kNaN; }, "/spheres/0/center"},
        {"sphere too fast", [](auto&, auto& s) { s[0].velocity = {0.0, 0.0, 5.0e3}; }, "/spheres/0/velocity"},
    };
    for (const Case3& c : cases)
    {
        CAPTURE(c.name);
        auto agents = good();
        auto s = spheres;
        c.mutate(agents, s);
        std::vector<glm::dvec3> out(agents.size(), kSentinel3);
        const Status status = made->avoid3D(agents, s, 0.1, out);
        REQUIRE_FALSE(status.ok());
        CHECK(status.error().code == "E_NAV_AVOIDANCE_INPUT");
        CHECK(status.error().field == c.field);
        for (const glm::dvec3& v : out)
            CHECK(v == kSentinel3);
    }
}

TEST_CASE("a definition past its limits is refused with the field named")
{
    struct DefCase
    {
        std::function<void(AvoidanceDef&)> mutate;
        std::string field;
    };
    const std::vector<DefCase> cases{
        {[](AvoidanceDef& d) { d.maxAgents = 0; }, "/maxAgents"},
        {[](AvoidanceDef& d) { d.maxObstacles = -1; }, "/maxObstacles"},
        {[](AvoidanceDef& d) { d.maxObstaclePoints = 1 << 30; }, "/maxObstaclePoints"},
        {[](AvoidanceDef& d) { d.neighborDistance = 0.0; }, "/neighborDistance"},
        {[](AvoidanceDef& d) { d.neighborDistance = kNaN; }, "/neighborDistance"},
        {[](AvoidanceDef& d) { d.maxNeighbors = 0; }, "/maxNeighbors"},
        {[](AvoidanceDef& d) { d.maxNeighbors = 65; }, "/maxNeighbors"},
        {[](AvoidanceDef& d) { d.timeHorizon = -1.0; }, "/timeHorizon"},
        {[](AvoidanceDef& d) { d.timeHorizonObstacles = kInf; }, "/timeHorizonObstacles"},
        {[](AvoidanceDef& d) { d.overlapTolerance = 0.6; }, "/overlapTolerance"},
    };
    for (const DefCase& c : cases)
    {
        CAPTURE(c.field);
        AvoidanceDef def = defaultAvoidanceDef();
        c.mutate(def);
        auto made = createAvoidance(def);
        REQUIRE_FALSE(made.ok());
        CHECK(made.error().code == "E_NAV_AVOIDANCE_CONFIG");
        CHECK(made.error().field == c.field);
    }
}

TEST_CASE("a step with no agents succeeds and a step with no neighbours keeps the preferred velocity")
{
    auto made = createAvoidance(defaultAvoidanceDef());
    REQUIRE(made.ok());
    CHECK(made->avoid({}, {}, 0.1, {}).ok());
    CHECK(made->avoid3D({}, {}, 0.1, {}).ok());
    std::vector<AvoidanceAgent3D> lone(1);
    lone[0].preferred = {0.5, -0.25, 1.0};
    std::vector<glm::dvec3> out(1, kSentinel3);
    REQUIRE(made->avoid3D(lone, {}, 0.1, out).ok());
    CHECK(out[0] == lone[0].preferred);
}
