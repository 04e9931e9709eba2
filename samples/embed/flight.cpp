// flight.cpp — fliers crossing a flight volume full of pillars, using only the
// library API (docs/embedding.md "Avoidance", "Flight volume").
//
// Each step, for every flier still flying:
//   1. path following: a path from FlightVolume::path, the next waypoint skipped
//      as soon as the one after it is in line of sight (raycast);
//   2. 3D avoidance: Avoidance::avoid3D gives each flier a velocity clear of the
//      others (and of a moving sphere, a "balloon" drifting through);
//   3. the host's move: the step is checked with FlightVolume::raycast; when it
//      is blocked, the flier slides along the axes (x, then y, then z), taking
//      each axis' part of the step that stays in open space.
// Prints each flier's arrival step; exits 0 when all arrived.
#include "spark/nav/avoidance.h"
#include "spark/nav/flight.h"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace spark;
using namespace spark::nav;

namespace
{

struct Flier
{
    glm::dvec3 goal{0.0};
    std::vector<glm::dvec3> path;
    std::size_t next = 1; ///< Index of the waypoint flown to.
    int arrivedAt = -1;
};

/// Moves from `at` by `step`, staying in open space: the whole step when the
/// raycast is clear, else each axis' part that is clear, in the order x, y, z.
glm::dvec3 moveInOpenSpace(const FlightVolume& volume, glm::dvec3 at, glm::dvec3 step)
{
    auto whole = volume.raycast(at, at + step);
    if (whole.ok() && !whole->blocked)
        return at + step;
    for (int axis = 0; axis < 3; ++axis)
    {
        glm::dvec3 part(0.0);
        part[axis] = step[axis];
        if (part[axis] == 0.0)
            continue;
        auto hit = volume.raycast(at, at + part);
        if (hit.ok() && !hit->blocked)
            at += part;
    }
    return at;
}

} // namespace

int main()
{
    // The volume: 60 × 20 × 60 m with a 4 × 4 grid of pillars and a ramp.
    FlightVolumeDef def = defaultFlightVolumeDef();
    def.boundsMin = {-30.0, 0.0, -30.0};
    def.boundsMax = {30.0, 20.0, 30.0};
    def.voxelSize = 0.5;
    def.flierRadius = 0.6;
    std::vector<FlightBox> pillars;
    for (int i = 0; i < 4; ++i)
        for (int k = 0; k < 4; ++k)
        {
            const double x = -12.0 + 8.0 * i, z = -12.0 + 8.0 * k;
            pillars.push_back({{x - 1.0, 0.0, z - 1.0}, {x + 1.0, 16.0 + 1.0 * ((i + k) % 3), z + 1.0}});
        }
    const std::vector<glm::dvec3> rampVertices{{-6.0, 0.0, -30.0}, {6.0, 0.0, -30.0}, {6.0, 8.0, -20.0},
                                               {-6.0, 8.0, -20.0}};
    const std::vector<uint32_t> rampIndices{0, 1, 2, 0, 2, 3};
    FlightGeometry geometry;
    geometry.boxes = pillars;
    geometry.vertices = rampVertices;
    geometry.indices = rampIndices;
    auto built = buildFlightVolume(def, geometry);
    if (!built.ok())
    {
        std::printf("flight volume: %s (%s)\n", built.error().message.c_str(), built.error().code.c_str());
        return 1;
    }
    FlightVolume& volume = *built;
    std::printf("flight volume %d x %d x %d voxels, %lld open\n", volume.dims().x, volume.dims().y, volume.dims().z,
                static_cast<long long>(volume.openVoxelCount()));

    // 16 fliers: eight cross west → east, eight east → west, at crossing heights.
    AvoidanceDef avoidanceDef = defaultAvoidanceDef();
    avoidanceDef.timeHorizon = 3.0;
    avoidanceDef.timeHorizonObstacles = 3.0;
    auto madeAvoidance = createAvoidance(avoidanceDef);
    if (!madeAvoidance.ok())
        return 1;
    Avoidance& avoidance = *madeAvoidance;
    std::vector<Flier> fliers;
    std::vector<AvoidanceAgent3D> agents;
    for (int i = 0; i < 16; ++i)
    {
        const bool east = i % 2 == 0;
        const double z = -14.0 + 4.0 * (i / 2);
        const double y = 4.0 + 1.5 * ((i / 2) % 4); // each east/west pair meets head on
        AvoidanceAgent3D a;
        a.position = {east ? -27.0 : 27.0, y, z};
        a.radius = 0.6;
        a.maxSpeed = 3.0;
        a.id = static_cast<uint32_t>(i);
        agents.push_back(a);
        Flier f;
        f.goal = {east ? 27.0 : -27.0, 12.0 - y, z};
        auto path = volume.path(a.position, f.goal);
        if (!path.ok() || path->partial)
        {
            std::printf("flier %d: no path\n", i);
            return 1;
        }
        f.path = path->points;
        fliers.push_back(f);
    }

    const double dt = 0.1;
    std::vector<AvoidanceAgent3D> flying;
    std::vector<std::size_t> flyingIndex;
    std::vector<glm::dvec3> velocities;
    std::vector<AvoidanceSphere> balloon(1);
    balloon[0].center = {0.0, 10.0, -28.0};
    balloon[0].radius = 1.5;
    balloon[0].velocity = {0.0, 0.0, 0.8};
    int arrived = 0;
    int step = 0;
    double closest = 1e300;
    for (; step < 4000 && arrived < static_cast<int>(fliers.size()); ++step)
    {
        // 1. Path following.
        flying.clear();
        flyingIndex.clear();
        for (std::size_t i = 0; i < fliers.size(); ++i)
        {
            Flier& f = fliers[i];
            if (f.arrivedAt >= 0)
                continue;
            AvoidanceAgent3D& a = agents[i];
            while (f.next + 1 < f.path.size())
            {
                auto sight = volume.raycast(a.position, f.path[f.next + 1]);
                if (!sight.ok() || sight->blocked)
                    break;
                ++f.next;
            }
            auto ahead = volume.raycast(a.position, f.path[f.next]);
            if (ahead.ok() && ahead->blocked)
            {
                // Pushed out of line of sight by the others: plan again from here.
                auto again = volume.path(a.position, f.goal);
                if (again.ok())
                {
                    f.path = again->points;
                    f.next = 1;
                }
            }
            const glm::dvec3 toward = f.path[f.next] - a.position;
            const double distance = glm::length(toward);
            const double speed = f.next + 1 == f.path.size() ? std::min(a.maxSpeed, distance) : a.maxSpeed;
            a.preferred = distance > 1e-9 ? toward * (speed / distance) : glm::dvec3(0.0);
            flying.push_back(a);
            flyingIndex.push_back(i);
        }
        // 2. Avoidance.
        velocities.resize(flying.size());
        const Status avoided = avoidance.avoid3D(flying, balloon, dt, velocities);
        if (!avoided.ok())
        {
            std::printf("avoidance: %s\n", avoided.error().message.c_str());
            return 1;
        }
        balloon[0].center += balloon[0].velocity * dt;
        // 3. The host's move, kept in open space.
        for (std::size_t k = 0; k < flying.size(); ++k)
        {
            const std::size_t i = flyingIndex[k];
            AvoidanceAgent3D& a = agents[i];
            const glm::dvec3 moved = moveInOpenSpace(volume, a.position, velocities[k] * dt);
            a.velocity = (moved - a.position) / dt;
            a.position = moved;
            if (glm::length(fliers[i].goal - a.position) < a.radius)
            {
                fliers[i].arrivedAt = step + 1;
                ++arrived;
                std::printf("flier %2zu arrived at step %d\n", i, step + 1);
            }
        }
        for (std::size_t k = 0; k < flying.size(); ++k)
            for (std::size_t m = 0; m < k; ++m)
                closest = std::min(closest,
                                   glm::length(agents[flyingIndex[m]].position - agents[flyingIndex[k]].position));
    }
    std::printf("%d of %zu fliers arrived in %d steps; closest approach of two fliers %.3f m (2r = 1.2 m)\n",
                arrived, fliers.size(), step, closest);
    return arrived == static_cast<int>(fliers.size()) ? 0 : 1;
}
