// Flight volumes: voxelisation, erosion, raycast and A* paths (libnav/src/flight).
#include "spark/nav/flight.h"

#include <doctest/doctest.h>
#include <glm/geometric.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using namespace spark;
using namespace spark::nav;

namespace
{

FlightVolumeDef smallDef()
{
    FlightVolumeDef def = defaultFlightVolumeDef();
    def.boundsMin = {0.0, 0.0, 0.0};
    def.boundsMax = {20.0, 10.0, 20.0};
    def.voxelSize = 0.5;
    def.flierRadius = 0.5;
    return def;
}

/// A wall across x = 10 (full height), with a window at 4..6 in z and 3..7 in y.
std::vector<FlightBox> wallWithWindow()
{
    return {
        {{9.5, 0.0, 0.0}, {10.5, 10.0, 4.0}},
        {{9.5, 0.0, 6.0}, {10.5, 10.0, 20.0}},
        {{9.5, 0.0, 4.0}, {10.5, 3.0, 6.0}},
        {{9.5, 7.0, 4.0}, {10.5, 10.0, 6.0}},
    };
}

bool segmentOpen(FlightVolume& volume, glm::dvec3 a, glm::dvec3 b)
{
    auto hit = volume.raycast(a, b);
    REQUIRE(hit.ok());
    return !hit->blocked;
}

double pathLength(const std::vector<glm::dvec3>& points)
{
    double total = 0.0;
    for (std::size_t i = 1; i < points.size(); ++i)
        total += glm::length(points[i] - points[i - 1]);
    return total;
}

} // namespace

TEST_CASE("an empty volume is open everywhere but within the flier radius of its faces")
{
    auto built = buildFlightVolume(smallDef(), {});
    REQUIRE(built.ok());
    CHECK(built->dims() == glm::ivec3(40, 20, 40));
    // Voxel centres at 0.25 from a face are closed (0.25 < 0.5); those at 0.75 are open.
    CHECK(built->openVoxelCount() == 38LL * 18 * 38);
    CHECK(built->isOpen({10.0, 5.0, 10.0}));
    CHECK_FALSE(built->isOpen({0.2, 5.0, 10.0}));
    CHECK_FALSE(built->isOpen({-1.0, 5.0, 10.0}));
    CHECK_FALSE(built->isOpen({std::numeric_limits<double>::quiet_NaN(), 5.0, 10.0}));
}

TEST_CASE("boxes and triangles become solid, eroded by the flier radius")
{
    const std::vector<FlightBox> boxes{{{5.0, 0.0, 5.0}, {6.0, 10.0, 6.0}}};
    // A horizontal triangle (a floor patch) at y = 5.1.
    const std::vector<glm::dvec3> vertices{{12.0, 5.1, 12.0}, {18.0, 5.1, 12.0}, {12.0, 5.1, 18.0}};
    const std::vector<uint32_t> indices{0, 1, 2};
    FlightGeometry geometry;
    geometry.boxes = boxes;
    geometry.vertices = vertices;
    geometry.indices = indices;
    auto built = buildFlightVolume(smallDef(), geometry);
    REQUIRE(built.ok());
    CHECK_FALSE(built->isOpen({5.5, 5.0, 5.5}));  // inside the box
    CHECK_FALSE(built->isOpen({6.3, 5.0, 5.5}));  // centre 0.05 from the box
    CHECK(built->isOpen({6.8, 5.0, 5.5}));        // centre 0.75 from the box
    CHECK_FALSE(built->isOpen({13.0, 5.2, 13.0})); // on the triangle
    CHECK_FALSE(built->isOpen({13.0, 5.8, 13.0})); // voxel above: centre 0.25 from the solid voxel
    CHECK(built->isOpen({13.0, 6.3, 13.0}));        // two above: centre 0.75 from it
    CHECK(built->isOpen({17.5, 5.2, 17.5})); // beyond the hypotenuse
}

TEST_CASE("a raycast stops at the first blocked voxel and passes through open space")
{
    const auto boxes = wallWithWindow();
    FlightGeometry geometry;
    geometry.boxes = boxes;
    auto built = buildFlightVolume(smallDef(), geometry);
    REQUIRE(built.ok());
    auto hit = built->raycast({2.0, 5.0, 10.0}, {18.0, 5.0, 10.0});
    REQUIRE(hit.ok());
    CHECK(hit->blocked);
    // The wall's voxels start at 9.5; eroded by 0.5 the first closed voxel is [9.0, 9.5).
    CHECK(hit->point.x == doctest::Approx(9.0));
    CHECK(hit->t == doctest::Approx(7.0 / 16.0));
    CHECK(hit->point.y == 5.0);
    // Through the window.
    CHECK(segmentOpen(*built, {2.0, 5.0, 5.0}, {18.0, 5.0, 5.0}));
    // Backwards and diagonal.
    auto back = built->raycast({18.0, 5.0, 12.0}, {2.0, 6.0, 14.0});
    REQUIRE(back.ok());
    CHECK(back->blocked);
    CHECK(back->point.x == doctest::Approx(11.0));
    // A start in blocked space is blocked at once.
    auto inside = built->raycast({10.0, 5.0, 10.0}, {2.0, 5.0, 10.0});
    REQUIRE(inside.ok());
    CHECK(inside->blocked);
    CHECK(inside->t == 0.0);
    // A ray of no length in open space is clear.
    CHECK(segmentOpen(*built, {3.0, 3.0, 3.0}, {3.0, 3.0, 3.0}));
}

TEST_CASE("a path goes through the window, every leg in open space, and is near the shortest")
{
    const auto boxes = wallWithWindow();
    FlightGeometry geometry;
    geometry.boxes = boxes;
    auto built = buildFlightVolume(smallDef(), geometry);
    REQUIRE(built.ok());
    const glm::dvec3 from{3.0, 5.0, 15.0}, to{17.0, 5.0, 15.0};
    auto path = built->path(from, to);
    REQUIRE(path.ok());
    CHECK_FALSE(path->partial);
    REQUIRE(path->points.size() >= 3);
    CHECK(path->points.front() == from);
    CHECK(path->points.back() == to);
    for (std::size_t i = 1; i < path->points.size(); ++i)
        CHECK(segmentOpen(*built, path->points[i - 1], path->points[i]));
    // Through the open window (z in 4.5..5.5 after erosion), so it bends.
    bool throughWindow = false;
    for (std::size_t i = 1; i < path->points.size(); ++i)
    {
        const glm::dvec3 a = path->points[i - 1], b = path->points[i];
        if ((a.x - 10.0) * (b.x - 10.0) <= 0.0 && a.x != b.x)
        {
            const double t = (10.0 - a.x) / (b.x - a.x);
            const glm::dvec3 p = a + (b - a) * t;
            throughWindow = p.z > 4.4 && p.z < 5.6 && p.y > 3.4 && p.y < 6.6;
        }
    }
    CHECK(throughWindow);
    // Straight-line lower bound through the window's centre region: 2 × |(7, 0, 10)| ≈ 24.4.
    const double length = pathLength(path->points);
    MESSAGE("smoothed path length " << length << " with " << path->points.size() << " points");
    CHECK(length < 24.4 * 1.08);
}

TEST_CASE("a goal that cannot be reached gives a partial path to the nearest reachable voxel")
{
    // A closed wall across x = 10.
    const std::vector<FlightBox> boxes{{{9.5, 0.0, 0.0}, {10.5, 10.0, 20.0}}};
    FlightGeometry geometry;
    geometry.boxes = boxes;
    auto built = buildFlightVolume(smallDef(), geometry);
    REQUIRE(built.ok());
    auto path = built->path({3.0, 5.0, 10.0}, {17.0, 5.0, 10.0});
    REQUIRE(path.ok());
    CHECK(path->partial);
    CHECK(path->points.back().x == doctest::Approx(8.75));
    CHECK(path->points.back().z == doctest::Approx(10.25));
    CHECK(path->expandedVoxels > 1000);
}

TEST_CASE("path endpoints outside open space and bad points are refused with coded errors")
{
    const auto boxes = wallWithWindow();
    FlightGeometry geometry;
    geometry.boxes = boxes;
    auto built = buildFlightVolume(smallDef(), geometry);
    REQUIRE(built.ok());
    auto blockedStart = built->path({10.0, 5.0, 10.0}, {17.0, 5.0, 15.0});
    REQUIRE_FALSE(blockedStart.ok());
    CHECK(blockedStart.error().code == "E_NAV_FLIGHT_BLOCKED");
    CHECK(blockedStart.error().field == "/from");
    auto blockedGoal = built->path({3.0, 5.0, 15.0}, {30.0, 5.0, 15.0});
    REQUIRE_FALSE(blockedGoal.ok());
    CHECK(blockedGoal.error().field == "/to");
    const double nan = std::numeric_limits<double>::quiet_NaN();
    auto nanRay = built->raycast({3.0, 5.0, 15.0}, {nan, 5.0, 15.0});
    REQUIRE_FALSE(nanRay.ok());
    CHECK(nanRay.error().code == "E_NAV_FLIGHT_INPUT");
    CHECK(nanRay.error().field == "/to");
    auto farPath = built->path({3.0, 5.0, 2.0e6}, {17.0, 5.0, 15.0});
    REQUIRE_FALSE(farPath.ok());
    CHECK(farPath.error().code == "E_NAV_FLIGHT_INPUT");
    CHECK(farPath.error().field == "/from");
}

TEST_CASE("bad definitions and geometry are refused with the field named")
{
    struct Case
    {
        FlightVolumeDef def;
        std::string code, field;
    };
    std::vector<Case> cases;
    FlightVolumeDef d = smallDef();
    d.voxelSize = 0.0;
    cases.push_back({d, "E_NAV_FLIGHT_CONFIG", "/voxelSize"});
    d = smallDef();
    d.boundsMax.y = -1.0;
    cases.push_back({d, "E_NAV_FLIGHT_CONFIG", "/boundsMax"});
    d = smallDef();
    d.boundsMin.x = std::numeric_limits<double>::infinity();
    cases.push_back({d, "E_NAV_FLIGHT_CONFIG", "/boundsMin"});
    d = smallDef();
    d.flierRadius = 9.0; // 18 voxels
    cases.push_back({d, "E_NAV_FLIGHT_CONFIG", "/flierRadius"});
    d = smallDef();
    d.maxVoxels = 1000; // needs 32,000
    cases.push_back({d, "E_NAV_FLIGHT_LIMIT", "/voxelSize"});
    d = smallDef();
    d.maxVoxels = kMaxFlightVoxels + 1;
    cases.push_back({d, "E_NAV_FLIGHT_CONFIG", "/maxVoxels"});
    d = smallDef();
    d.boundsMin = {-1.0e6, -1.0e6, -1.0e6};
    d.boundsMax = {1.0e6, 1.0e6, 1.0e6};
    d.voxelSize = 0.01;
    d.flierRadius = 0.05;
    // Astronomically many voxels: refused before allocating.
    cases.push_back({d, "E_NAV_FLIGHT_LIMIT", "/voxelSize"});
    for (const Case& c : cases)
    {
        CAPTURE(c.field);
        auto built = buildFlightVolume(c.def, {});
        REQUIRE_FALSE(built.ok());
        CHECK(built.error().code == c.code);
        CHECK(built.error().field == c.field);
    }

    const std::vector<glm::dvec3> vertices{{1.0, 1.0, 1.0}, {2.0, 1.0, 1.0}, {1.0, 2.0, 1.0}};
    const std::vector<uint32_t> badIndex{0, 1, 3};
    const std::vector<uint32_t> notTriangles{0, 1};
    const std::vector<glm::dvec3> nanVertex{{1.0, 1.0, 1.0}, {std::nan(""), 1.0, 1.0}};
    const std::vector<FlightBox> inverted{{{1.0, 1.0, 1.0}, {2.0, 0.5, 2.0}}};
    FlightGeometry g1{vertices, badIndex, {}};
    FlightGeometry g2{vertices, notTriangles, {}};
    FlightGeometry g3{nanVertex, {}, {}};
    FlightGeometry g4{{}, {}, inverted};
    const std::vector<std::pair<FlightGeometry, std::string>> geometryCases{
        {g1, "/indices/2"}, {g2, "/indices"}, {g3, "/vertices/1"}, {g4, "/boxes/0/max"}};
    for (const auto& [geometry, caseField] : geometryCases)
    {
        const std::string& field = caseField; // CAPTURE takes a plain reference (clang 14 cannot capture bindings)
        CAPTURE(field);
        auto built = buildFlightVolume(smallDef(), geometry);
        REQUIRE_FALSE(built.ok());
        CHECK(built.error().code == "E_NAV_FLIGHT_INPUT");
        CHECK(built.error().field == field);
    }
}

TEST_CASE("the same volume and query give the same path bit for bit, fresh or reused")
{
    const auto boxes = wallWithWindow();
    FlightGeometry geometry;
    geometry.boxes = boxes;
    auto a = buildFlightVolume(smallDef(), geometry);
    auto b = buildFlightVolume(smallDef(), geometry);
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    auto warm = a->path({3.0, 8.0, 3.0}, {17.0, 2.0, 18.0});
    REQUIRE(warm.ok());
    auto pa = a->path({3.0, 5.0, 15.0}, {17.0, 5.0, 15.0});
    auto pb = b->path({3.0, 5.0, 15.0}, {17.0, 5.0, 15.0});
    REQUIRE(pa.ok());
    REQUIRE(pb.ok());
    REQUIRE(pa->points.size() == pb->points.size());
    CHECK(std::memcmp(pa->points.data(), pb->points.data(), pa->points.size() * sizeof(glm::dvec3)) == 0);
}
