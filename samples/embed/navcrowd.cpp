// navcrowd.cpp — a crowd walking the dungeon, using only the library API
// (docs/embedding.md "Corridor", "Walls", "Steering", "Avoidance"): the host owns the
// agents and runs the crowd loop of the reference itself, without NavWorld.
//
// Set-up: data/meshes/dungeon.obj (RecastDemo's level, data/README.md) is read by a small OBJ reader
// below (the library does no file I/O here) and baked with bakeNavMesh; 40
// agents get seeded random start and goal points that a corridor joins.
// Each step of 1/60 s, for every agent still walking:
//   1. findCorridorCorners gives the next corners; steer the velocity it wants;
//   2. that wanted velocity changes by at most max_accel × dt (the acceleration
//      limit is applied before the avoidance, not after: the avoidance keeps
//      two agents apart only when both move at the velocities it gave them);
//   3. the walls within 12 radii on its floor (findWalls, gathered again after
//      moving a quarter of that; the dungeon has floors over floors) become
//      two-point obstacles moved out by the radius (wallObstacle);
//      Avoidance::avoid gives every agent a velocity clear of the others and
//      of its own walls (one obstacle range per agent);
//   4. moveCorridor moves the agent along the surface.
// An agent within stop distance of its goal has arrived: it stands (the others
// avoid it, taking the whole avoidance). Prints each arrival; exits 0 when all
// arrived within 60 s, 1 otherwise.
#include "spark/core/rng.h"
#include "spark/nav/avoidance.h"
#include "spark/nav/bake.h"
#include "spark/nav/corridor.h"
#include "spark/nav/crowd.h"
#include "spark/nav/query.h"
#include "spark/nav/steer.h"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace spark;
using namespace spark::nav;

namespace
{

/// Reads the vertices and faces of an OBJ file (faces fanned into triangles;
/// `v/vt/vn` and negative indices understood). False when it cannot be read.
bool readObj(const char* path, BakeInput& out)
{
    std::ifstream file(path);
    if (!file)
        return false;
    std::string line;
    std::vector<uint32_t> face;
    while (std::getline(file, line))
    {
        std::istringstream in(line);
        std::string tag;
        in >> tag;
        if (tag == "v")
        {
            glm::vec3 v;
            in >> v.x >> v.y >> v.z;
            out.vertices.push_back(v);
        }
        else if (tag == "f")
        {
            face.clear();
            for (std::string corner; in >> corner;)
            {
                const long index = std::strtol(corner.c_str(), nullptr, 10); // stops at the first '/'
                const long count = static_cast<long>(out.vertices.size());
                const long at = index < 0 ? count + index : index - 1;
                if (at < 0 || at >= count)
                    return false;
                face.push_back(static_cast<uint32_t>(at));
            }
            for (size_t k = 2; k < face.size(); ++k)
                out.indices.insert(out.indices.end(), {face[0], face[k - 1], face[k]});
        }
    }
    return !out.indices.empty();
}

struct Walker
{
    Corridor corridor;
    std::vector<CorridorCorner> corners;
    std::vector<glm::dvec2> walls; ///< Obstacle segments, two points each.
    glm::vec3 wallsAt{0.0f};       ///< Where the walls were gathered.
    bool wallsKnown = false;
    glm::dvec2 wanted{0.0}; ///< Wanted velocity after the acceleration limit. [Units: m/s]
    int arrivedAt = -1;     ///< Step of arrival, or −1.
};

} // namespace

int main()
{
    const char* path = "data/meshes/dungeon.obj";
    BakeInput input;
    if (!readObj(path, input))
    {
        std::printf("cannot read %s (run from the project root)\n", path);
        return 1;
    }
    const BakeDef bakeDef = defaultBakeDef(); // agent radius 0.4, height 1.8
    auto baked = bakeNavMesh(input, bakeDef);
    if (!baked.ok())
    {
        std::printf("bake: %s (%s)\n", baked.error().message.c_str(), baked.error().code.c_str());
        return 1;
    }
    const NavMesh& mesh = baked->mesh;
    std::printf("dungeon: %zu triangles baked into %u polygons\n", input.indices.size() / 3,
                mesh.polygonCount());

    // The agents: seeded random start and goal points a complete corridor joins.
    const float radius = bakeDef.agentRadius, height = bakeDef.agentHeight, maxSpeed = 3.5f, maxAccel = 8.0f;
    SteerDef steerDef = defaultSteerDef();
    steerDef.maxSpeed = maxSpeed;
    steerDef.slowRadius = 1.5f;
    steerDef.stopDistance = 0.2f;
    const glm::vec3 extents = defaultQueryExtents(mesh);
    const QueryFilter filter = defaultQueryFilter();
    QueryScratch scratch;
    Rng rng = rngFromSeed(7);
    std::vector<Walker> walkers;
    std::vector<AvoidanceAgent> agents;
    for (int tries = 0; walkers.size() < 40 && tries < 10000; ++tries)
    {
        auto from = randomPoint(mesh, rng);
        auto to = randomPoint(mesh, rng);
        if (!from.ok() || !to.ok())
            return 1;
        // Starts apart from the others; goals three diameters apart, so that a
        // walker fits between any two agents standing at their goals (an arrived
        // agent stands and the others go round it: goals closer than that can
        // close a passage for good).
        bool clear = true;
        for (size_t i = 0; i < walkers.size(); ++i)
        {
            const glm::dvec2 p(from->point.x, from->point.z), g(to->point.x, to->point.z);
            const glm::dvec2 q(walkers[i].corridor.target.x, walkers[i].corridor.target.z);
            clear = clear &&
                    glm::dot(p - agents[i].position, p - agents[i].position) > 4.0 * radius * radius * 1.5 &&
                    glm::dot(g - q, g - q) > 36.0 * radius * radius;
        }
        Walker w;
        if (!clear ||
            !planCorridor(mesh, scratch, from->point, to->point, filter, extents, w.corridor).ok() ||
            !w.corridor.complete)
            continue;
        AvoidanceAgent a;
        a.position = glm::dvec2(w.corridor.position.x, w.corridor.position.z);
        a.radius = radius;
        a.maxSpeed = maxSpeed;
        a.id = static_cast<uint32_t>(walkers.size());
        agents.push_back(a);
        walkers.push_back(std::move(w));
    }
    std::printf("%zu agents\n", walkers.size());

    AvoidanceDef avoidanceDef = defaultAvoidanceDef();
    avoidanceDef.timeHorizon = 1.5;
    avoidanceDef.timeHorizonObstacles = 0.5;
    avoidanceDef.maxObstacles = 1 << 16;
    avoidanceDef.maxObstaclePoints = 1 << 17;
    auto made = createAvoidance(avoidanceDef);
    if (!made.ok())
        return 1;
    Avoidance& avoidance = *made;

    const double dt = 1.0 / 60.0;
    const float wallRange = 12.0f * radius;
    std::vector<WallHit> hits;
    std::vector<AvoidanceObstacle> obstacles;
    std::vector<ObstacleRange> ranges(walkers.size());
    std::vector<glm::dvec2> velocities(walkers.size());
    size_t arrived = 0;
    double closest = 1e300;
    int step = 0;
    for (; step < 3600 && arrived < walkers.size(); ++step)
    {
        obstacles.clear();
        for (size_t i = 0; i < walkers.size(); ++i)
        {
            Walker& w = walkers[i];
            AvoidanceAgent& a = agents[i];
            ranges[i] = ObstacleRange{static_cast<uint32_t>(obstacles.size()), 0};
            if (w.arrivedAt >= 0)
                continue; // stands: preferred, velocity and max speed are zero
            // 1. Corners and steering.
            glm::dvec2 want(0.0);
            if (findCorridorCorners(mesh, scratch, w.corridor, 4, w.corners).ok())
            {
                auto s = steer(w.corridor.position, w.corners, steerDef);
                if (s.ok() && s->arrived)
                {
                    w.arrivedAt = step + 1;
                    ++arrived;
                    a.velocity = a.preferred = glm::dvec2(0.0);
                    a.maxSpeed = 0.0;
                    a.priority = 1.0e6; // the others take the whole avoidance of it
                    std::printf("agent %2zu arrived at step %4d (%.2f s)\n", i, step + 1, (step + 1) * dt);
                    continue;
                }
                if (s.ok())
                    want = glm::dvec2(s->velocity.x, s->velocity.z);
            }
            // 2. The acceleration limit, on the wanted velocity.
            const glm::dvec2 change = want - a.velocity;
            const double length = std::sqrt(glm::dot(change, change));
            const double most = maxAccel * dt;
            a.preferred = length > most ? a.velocity + change * (most / length) : want;
            // 3. Its walls, gathered again after moving a quarter of the range.
            const glm::vec3 at = w.corridor.position;
            const float dx = at.x - w.wallsAt.x, dz = at.z - w.wallsAt.z;
            if (!w.wallsKnown || dx * dx + dz * dz > 0.0625f * wallRange * wallRange)
            {
                w.walls.clear();
                if (findWalls(mesh, scratch, at, wallRange, hits).ok())
                {
                    // Walls a floor above or below are not in the way.
                    std::erase_if(hits,
                                  [&](const WallHit& h) { return std::fabs(h.closest.y - at.y) >= height; });
                    for (size_t k = 0; k < hits.size(); ++k)
                    {
                        glm::dvec2 p0, p1;
                        if (wallObstacle(hits, k, radius, p0, p1))
                            w.walls.insert(w.walls.end(), {p0, p1});
                    }
                }
                w.wallsAt = at;
                w.wallsKnown = true;
            }
            for (size_t k = 0; k + 1 < w.walls.size(); k += 2)
            {
                AvoidanceObstacle o;
                o.shape = ObstacleShape::Segment;
                o.points = std::span<const glm::dvec2>(w.walls.data() + k, 2);
                obstacles.push_back(o);
            }
            ranges[i].count = static_cast<uint32_t>(obstacles.size()) - ranges[i].first;
        }
        // 3. Avoidance: one call for all, each agent with its own walls.
        const Status avoided = avoidance.avoid(agents, obstacles, ranges, dt, velocities);
        if (!avoided.ok())
        {
            std::printf("avoidance: %s (%s)\n", avoided.error().message.c_str(),
                        avoided.error().field.c_str());
            return 1;
        }
        // 4. The move along the surface; the velocity is what the move did.
        for (size_t i = 0; i < walkers.size(); ++i)
        {
            Walker& w = walkers[i];
            AvoidanceAgent& a = agents[i];
            if (w.arrivedAt >= 0)
                continue;
            const glm::vec3 before = w.corridor.position;
            const glm::vec3 wanted(before.x + static_cast<float>(velocities[i].x * dt), before.y,
                                   before.z + static_cast<float>(velocities[i].y * dt));
            if (!moveCorridor(mesh, scratch, w.corridor, wanted, filter).ok())
                return 1;
            const glm::dvec2 now(w.corridor.position.x, w.corridor.position.z);
            a.velocity = (now - a.position) / dt;
            a.position = now;
        }
        for (size_t i = 0; i < agents.size(); ++i)
            for (size_t k = 0; k < i; ++k)
            {
                const glm::dvec2 d = agents[i].position - agents[k].position;
                closest = std::min(closest, std::sqrt(glm::dot(d, d)));
            }
    }
    std::printf("%zu of %zu agents arrived in %d steps (%.1f s); closest approach of two agents %.3f m (2r = "
                "%.1f m)\n",
                arrived, walkers.size(), step, step * dt, closest, 2.0 * radius);
    return arrived == walkers.size() ? 0 : 1;
}
