#pragma once
// Shared set-up of the crowd tests: 2D meshes baked from shapes (agent radius
// 0.4, cells of 0.1 m), scenes of agents on a NavWorld, and the invariant
// checker run after every step of a scenario.

#include "spark/core/rng.h"
#include "spark/nav/bake.h"
#include "spark/nav/bake2d.h"
#include "spark/nav/nav_world.h"

#include <doctest/doctest.h>

#include <glm/vec3.hpp>

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace spark::nav::test
{

/// Agent radius of the scenes (and the erosion of their bakes). [Units: m]
inline constexpr float kAgentRadius = 0.4f;
/// The step of the scenes (nav.step's default). [Units: s]
inline constexpr double kDt = 1.0 / 60.0;

/// A 2D mesh baked from shapes: rasterised at 0.1 m, eroded by `radius`.
inline std::shared_ptr<const NavMesh> bakeShapes(const Shapes2D& shapes, float radius = kAgentRadius)
{
    Result<Grid2D> grid = rasterizeShapes2D(shapes);
    REQUIRE(grid.ok());
    Result<PolySoup> soup = bakeGrid2D(grid.value(), radius);
    REQUIRE(soup.ok());
    BakeDef def = defaultBakeDef();
    def.agentRadius = radius;
    def.cellSize = shapes.cellSize;
    Result<NavMesh> mesh = buildNavMesh(soup.value(), navMeshDefFromBake(def, true));
    REQUIRE(mesh.ok());
    return std::make_shared<const NavMesh>(std::move(mesh.value()));
}

/// A box of walkable ground [x0, x1] × [z0, z1] with solid rectangles in it.
inline Shapes2D box(float x0, float z0, float x1, float z1, std::vector<Rect2D> solids = {})
{
    Shapes2D s;
    s.hasBounds = true;
    s.bounds.min = glm::vec2(x0, z0);
    s.bounds.max = glm::vec2(x1, z1);
    s.cellSize = 0.1f;
    s.solidRects = std::move(solids);
    return s;
}

/// Two 10 × 10 m rooms, x 0..10 and 11..21, z 0..10, joined through a wall
/// (x 10..11) by a 2 m door at z 4..6.
inline Shapes2D doorwayShapes()
{
    return box(0, 0, 21, 10, {Rect2D{{10, 0}, {11, 4}}, Rect2D{{10, 6}, {11, 10}}});
}

/// A world with one mesh ("ground") and its agents.
struct Scene
{
    NavWorld world;
    MeshId mesh;
    std::vector<AgentId> agents;
    std::vector<glm::vec3> targets;
};

inline CrowdAgentDef agentAt(float x, float z)
{
    CrowdAgentDef d = defaultCrowdAgentDef();
    d.position = glm::vec3(x, 0.0f, z);
    d.radius = kAgentRadius;
    return d;
}

/// Puts `mesh` into the scene's world as "ground".
inline void putGround(Scene& s, std::shared_ptr<const NavMesh> mesh)
{
    MeshDef def = defaultMeshDef();
    def.name = "ground";
    def.source = "test";
    def.mesh = std::move(mesh);
    Result<MeshId> id = s.world.putMesh(std::move(def));
    REQUIRE(id.ok());
    s.mesh = id.value();
}

/// Adds an agent at (x, z) sent to (tx, tz).
inline AgentId addWalker(Scene& s, float x, float z, float tx, float tz)
{
    Result<AgentId> id = s.world.addAgent(s.mesh, agentAt(x, z));
    REQUIRE(id.ok());
    const glm::vec3 target(tx, 0.0f, tz);
    REQUIRE(s.world.setAgentTarget(id.value(), target).ok());
    REQUIRE(s.world.agent(id.value())->state == AgentState::Moving);
    s.agents.push_back(id.value());
    s.targets.push_back(target);
    return id.value();
}

/// Two 10 × 10 m rooms (x 0..10 and 11..21) joined through a 1 m thick wall
/// by a door `width` wide at z = 5 (walkable for centres: width − 2 × 0.4).
inline Shapes2D doorShapes(float width)
{
    const float z0 = 5.0f - width * 0.5f, z1 = 5.0f + width * 0.5f;
    return box(0, 0, 21, 10, {Rect2D{{10, 0}, {11, z0}}, Rect2D{{10, z1}, {11, 10}}});
}

/// The doorway scene's 2 × 10 agents (see buildDoorway) through a door `width` wide.
inline void buildDoorOf(Scene& s, float width)
{
    putGround(s, bakeShapes(doorShapes(width)));
    for (int side = 0; side < 2; ++side)
        for (int col = 0; col < 2; ++col)
            for (int row = 0; row < 5; ++row)
            {
                const float x = 3.5f + 2.5f * static_cast<float>(col);
                const float z = 1.2f + 1.9f * static_cast<float>(row);
                if (side == 0)
                    addWalker(s, x, z, x + 11.5f, z);
                else
                    addWalker(s, x + 11.5f, z, x, z);
            }
}

/// `k` agents evenly on a circle of radius 8 m round the middle of a 24 × 24 m
/// room, each sent to the opposite point: a symmetric k-way crossing.
inline void buildCircleCrossing(Scene& s, int k)
{
    putGround(s, bakeShapes(box(0, 0, 24, 24)));
    for (int i = 0; i < k; ++i)
    {
        const double a = 2.0 * 3.14159265358979323846 * i / k;
        const float x = static_cast<float>(12.0 + 8.0 * std::cos(a)), z = static_cast<float>(12.0 + 8.0 * std::sin(a));
        addWalker(s, x, z, 24.0f - x, 24.0f - z);
    }
}

/// The doorway scene: 2 × 10 agents swap rooms, each group a block of two
/// columns (x 3.5 and 6 in the west room, 15 and 17.5 in the east one) by five
/// rows (z 1.2 .. 8.8, 1.9 m apart) that walks to the other group's places,
/// keeping its formation (the front column to the far column). The places
/// leave room to pass between them.
inline void buildDoorway(Scene& s)
{
    buildDoorOf(s, 2.0f);
}

/// The crossroads: two 6 m wide corridors crossing at the centre of a 24 × 24 m square.
inline Shapes2D crossingShapes()
{
    return box(0, 0, 24, 24,
               {Rect2D{{0, 0}, {9, 9}}, Rect2D{{15, 0}, {24, 9}}, Rect2D{{0, 15}, {9, 24}},
                Rect2D{{15, 15}, {24, 24}}});
}

/// The crossing scene: from each arm a block of 2 lanes (at 11 and 13 across
/// the arm) × 3 (at 2, 4 and 6 m from the arm's end) walks to the opposite
/// arm's places, keeping its formation (the front row to the far row). The
/// places leave room to pass between and beside them.
inline void buildCrossing(Scene& s)
{
    putGround(s, bakeShapes(crossingShapes()));
    for (int k = 0; k < 3; ++k)
        for (int lane = 0; lane < 2; ++lane)
        {
            const float along = 2.0f + 2.0f * static_cast<float>(k);
            const float across = 11.0f + 2.0f * static_cast<float>(lane);
            addWalker(s, along, across, 16.0f + along, across);        // west → east
            addWalker(s, 24.0f - along, across, 8.0f - along, across); // east → west
            addWalker(s, across, along, across, 16.0f + along);        // south → north
            addWalker(s, across, 24.0f - along, across, 8.0f - along); // north → south
        }
}

/// The head-on corridor: 3 agents each way in single file down the middle of
/// a 30 × 3 m corridor, each to the place of the agent it faces.
inline void buildHeadOn(Scene& s)
{
    putGround(s, bakeShapes(box(0, 0, 30, 3)));
    for (int k = 0; k < 3; ++k)
    {
        const float x = 2.0f + 2.0f * static_cast<float>(k);
        addWalker(s, x, 1.5f, 30.0f - x, 1.5f);
        addWalker(s, 30.0f - x, 1.5f, x, 1.5f);
    }
}

/// Two groups head-on: a 40 × 3 m corridor, each group 10 agents in 2 lanes
/// (z 1 and 2) × 5 rows 1.2 m apart (x 2 .. 6.8 and 33.2 .. 38), each agent
/// sent to the place mirrored across the middle (the other group's places).
inline void buildHeadOnGroups(Scene& s)
{
    putGround(s, bakeShapes(box(0, 0, 40, 3)));
    for (int row = 0; row < 5; ++row)
        for (int lane = 0; lane < 2; ++lane)
        {
            const float x = 2.0f + 1.2f * static_cast<float>(row), z = 1.0f + static_cast<float>(lane);
            addWalker(s, x, z, 40.0f - x, z);
            addWalker(s, 40.0f - x, z, x, z);
        }
}

/// Leaving a room: a 20 × 20 m room (x 0..20) with one 2 m door (z 9..11) in
/// a 1 m wall to a 30 × 20 m yard (x 21..51). 200 agents stand in the room in
/// 10 columns 1.5 m apart (x 1.5 .. 15) × 20 rows 0.95 m apart (z 0.975 ..
/// 19.025); each goes to the yard's place of its row, the column nearest the
/// door to the farthest column (x 22.5 + 1.5 × (column)), so the first out
/// walk furthest.
inline void buildRoomExit(Scene& s)
{
    putGround(s, bakeShapes(box(0, 0, 51, 20, {Rect2D{{20, 0}, {21, 9}}, Rect2D{{20, 11}, {21, 20}}})));
    for (int col = 0; col < 10; ++col)
        for (int row = 0; row < 20; ++row)
        {
            const float z = 0.975f + 0.95f * static_cast<float>(row);
            addWalker(s, 1.5f + 1.5f * static_cast<float>(col), z, 26.0f + 1.5f * static_cast<float>(col), z);
        }
}

/// The shared goal: 50 agents at seeded random places of a 20 × 20 m room
/// (at least 1.2 m apart and 4 m from the centre), all sent to the centre.
inline void buildSharedGoal(Scene& s)
{
    putGround(s, bakeShapes(box(0, 0, 20, 20)));
    Rng rng = rngFromSeed(11);
    std::vector<glm::vec3> at;
    while (at.size() < 50)
    {
        const glm::vec3 p(static_cast<float>(rngNextRange(rng, 1.0, 19.0)), 0.0f,
                          static_cast<float>(rngNextRange(rng, 1.0, 19.0)));
        bool free = (p.x - 10.0f) * (p.x - 10.0f) + (p.z - 10.0f) * (p.z - 10.0f) >= 16.0f;
        for (const glm::vec3& q : at)
            free = free && (p.x - q.x) * (p.x - q.x) + (p.z - q.z) * (p.z - q.z) >= 1.44f;
        if (free)
            at.push_back(p);
    }
    for (const glm::vec3& p : at)
        addWalker(s, p.x, p.z, 10.0f, 10.0f);
}

/// What a run saw, step by step.
struct Watch
{
    double minRatio = std::numeric_limits<double>::infinity(); ///< Smallest centre distance / (ri + rj).
    int minRatioStep = -1;
    int offMesh = 0;                   ///< Agent-steps found off the mesh.
    int moved = 0;                     ///< Agent-steps where an arrived agent moved or had a velocity.
    int maxSpeedSeen = 0;              ///< Agent-steps faster than the agent's max speed.
    int madeWay = 0;                   ///< Times an arrived agent stepped aside (making_way) for another.
    std::vector<int> arrivedAt;        ///< Step each agent first arrived, or −1.
    std::vector<glm::vec3> arrivedPos; ///< Where it arrived.
    int steps = 0;                     ///< Steps taken.
};

/// Checks the invariants after a step: every agent on the mesh (a polygon of
/// the mesh within 1 mm, and its corridor's first polygon holding it), the
/// smallest centre distance, no agent faster than its max speed, and an arrived
/// agent exactly where it arrived with a zero velocity until it makes way for
/// another (moving, making_way: it walks back and arrives again). Reports the first few
/// failures with the step.
inline void checkStep(const Scene& s, Watch& w)
{
    const NavMesh& mesh = *s.world.mesh(s.mesh);
    const size_t n = s.agents.size();
    if (w.arrivedAt.size() != n)
    {
        w.arrivedAt.assign(n, -1);
        w.arrivedPos.assign(n, glm::vec3(0.0f));
    }
    for (size_t i = 0; i < n; ++i)
    {
        const CrowdAgent& a = *s.world.agent(s.agents[i]);
        const glm::vec3 tiny(1.0e-3f, 0.05f, 1.0e-3f);
        Result<MeshPoint> near = findNearest(mesh, a.position, tiny);
        const bool onMesh = near.ok() && near->distance <= 1.0e-3f && !a.corridor.polygons.empty() &&
                            mesh.containsXZ(a.corridor.polygons.front(), a.position.x, a.position.z, 1.0e-3f);
        if (!onMesh && ++w.offMesh <= 3)
            FAIL_CHECK("agent " << i << " is off the mesh at step " << w.steps << " at (" << a.position.x
                                << ", " << a.position.z << ")");
        const float speed = std::sqrt(a.velocity.x * a.velocity.x + a.velocity.z * a.velocity.z);
        if (speed > a.def.maxSpeed * 1.0001f && ++w.maxSpeedSeen <= 3)
            FAIL_CHECK("agent " << i << " moves at " << speed << " m/s at step " << w.steps);
        if (w.arrivedAt[i] >= 0 && a.state == AgentState::Moving && a.reason == AgentReason::MakingWay)
        {
            // It steps aside for a passing agent: it walks back and arrives again.
            w.arrivedAt[i] = -1;
            ++w.madeWay;
        }
        else if (w.arrivedAt[i] >= 0)
        {
            if ((a.state != AgentState::Arrived || a.position != w.arrivedPos[i] ||
                 a.velocity != glm::vec3(0.0f)) &&
                ++w.moved <= 3)
                FAIL_CHECK("agent " << i << ", arrived at step " << w.arrivedAt[i] << ", moved at step "
                                    << w.steps);
        }
        else if (a.state == AgentState::Arrived)
        {
            w.arrivedAt[i] = w.steps;
            w.arrivedPos[i] = a.position;
            if (a.velocity != glm::vec3(0.0f) && ++w.moved <= 3)
                FAIL_CHECK("agent " << i << " arrived with a velocity at step " << w.steps);
        }
        for (size_t j = i + 1; j < n; ++j)
        {
            const CrowdAgent& b = *s.world.agent(s.agents[j]);
            const double dx = double(a.position.x) - b.position.x, dz = double(a.position.z) - b.position.z;
            const double ratio = std::sqrt(dx * dx + dz * dz) / (double(a.def.radius) + b.def.radius);
            if (ratio < w.minRatio)
            {
                w.minRatio = ratio;
                w.minRatioStep = w.steps;
            }
        }
    }
}

/// Steps the scene until `done` (checked after each step) or `maxSteps`,
/// checking the invariants every step. Returns the steps taken when done, −1
/// when it never was.
template <class Done> int runScene(Scene& s, Watch& w, int maxSteps, Done&& done)
{
    checkStep(s, w);
    for (int k = 0; k < maxSteps; ++k)
    {
        REQUIRE(s.world.stepCrowds(kDt).ok());
        ++w.steps;
        checkStep(s, w);
        if (done())
            return w.steps;
    }
    return -1;
}

/// True when every agent of the scene has arrived.
inline bool allArrived(const Scene& s)
{
    for (AgentId id : s.agents)
        if (s.world.agent(id)->state != AgentState::Arrived)
            return false;
    return true;
}

/// The largest speed of the scene's agents. [Units: m/s]
inline float largestSpeed(const Scene& s)
{
    float v = 0.0f;
    for (AgentId id : s.agents)
    {
        const glm::vec3& u = s.world.agent(id)->velocity;
        v = std::max(v, std::sqrt(u.x * u.x + u.z * u.z));
    }
    return v;
}

/// Checks the invariants a scenario must keep over the whole run.
inline void checkWatch(const Watch& w)
{
    CHECK(w.offMesh == 0);
    CHECK(w.moved == 0);
    CHECK(w.maxSpeedSeen == 0);
    CHECK(w.minRatio >= 0.95); // the avoidance's guard (1 − overlapTolerance), kept by the move
}

} // namespace spark::nav::test
