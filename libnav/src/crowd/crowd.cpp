// The crowd of a NavWorld: agents by handle, targets, and the step
// (corners → steer → ORCA with neighbours and walls → acceleration limit →
// move along the surface), after the loop of the reference's navcrowd sample
// and Detour's dtCrowd::update, written here.
//
// Determinism: meshes in name order, agents in handle order, one avoidance
// call per mesh; nothing depends on the address or timing of anything.

#include "spark/nav/nav_world.h"
#include "spark/nav/steer.h"

#include <algorithm>
#include <cmath>

namespace spark::nav
{
namespace
{

/// Walls within this many radii of an agent are avoided.
constexpr float kWallRangeRadii = 12.0f;
/// ORCA settings of crowds.
constexpr double kNeighborDistanceRadii = 12.0;
constexpr double kTimeHorizon = 2.5;
constexpr double kTimeHorizonWalls = 1.0;
/// Priority that makes the others take the whole avoidance of a standing agent.
constexpr double kStandingPriority = 1.0e6;

bool finite3(const glm::vec3& v)
{
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

float distXZ(const glm::vec3& a, const glm::vec3& b)
{
    const float dx = a.x - b.x, dz = a.z - b.z;
    return std::sqrt(dx * dx + dz * dz);
}

glm::vec3 agentExtents(const CrowdAgentDef& def)
{
    return glm::vec3(def.radius * 2.0f + 0.5f, def.height, def.radius * 2.0f + 0.5f);
}

} // namespace

std::string_view agentStateName(AgentState state)
{
    switch (state)
    {
    case AgentState::Idle: return "idle";
    case AgentState::Moving: return "moving";
    case AgentState::Arrived: return "arrived";
    case AgentState::NoPath: return "no_path";
    case AgentState::OffMesh: return "off_mesh";
    }
    return "idle";
}

CrowdAgentDef defaultCrowdAgentDef()
{
    return CrowdAgentDef{};
}

Status NavWorld::validateAgentDef(const CrowdAgentDef& d)
{
    auto range = [](float v, float lo, float hi, bool openLo, const char* field, const char* text) -> Status {
        if (!std::isfinite(v) || v > hi || (openLo ? v <= lo : v < lo))
            return makeError("E_INVALID_PARAMS", text, field);
        return Status::success();
    };
    if (!finite3(d.position))
        return makeError("E_INVALID_PARAMS", "the position must be finite", "/position");
    SPARK_TRY(range(d.radius, 0.0f, 100.0f, true, "/radius", "radius is in (0, 100] m"));
    SPARK_TRY(range(d.height, 0.0f, 100.0f, true, "/height", "height is in (0, 100] m"));
    SPARK_TRY(range(d.maxSpeed, 0.0f, 100.0f, false, "/max_speed", "max_speed is 0..100 m/s"));
    SPARK_TRY(range(d.maxAccel, 0.0f, 1000.0f, true, "/max_accel", "max_accel is in (0, 1000] m/s²"));
    SPARK_TRY(range(d.stopDistance, 0.0f, 100.0f, false, "/stop_distance", "stop_distance is 0..100 m"));
    SPARK_TRY(range(d.slowRadius, 0.0f, 1000.0f, false, "/slow_radius", "slow_radius is 0..1000 m"));
    SPARK_TRY(range(d.priority, 0.0f, 1.0e6f, true, "/priority", "priority is in (0, 1e6]"));
    SPARK_TRY(range(d.repathDistance, 0.0f, 1.0e6f, false, "/repath_distance", "repath_distance is 0..1e6 m"));
    if (d.maxNeighbors < 1 || d.maxNeighbors > kMaxAgentNeighbors)
        return makeError("E_INVALID_PARAMS", "max_neighbors is 1..32", "/max_neighbors");
    return Status::success();
}

Result<AgentId> NavWorld::addAgent(MeshId mesh, const CrowdAgentDef& def)
{
    const WorldMesh* record = m_state.meshes.get(mesh);
    if (!record)
        return makeError("E_NAV_NO_MESH", "no such mesh (the handle is stale)", "/mesh");
    SPARK_TRY(validateAgentDef(def));
    if (m_state.agents.size() >= kMaxCrowdAgents)
        return makeError("E_NAV_LIMIT", "the world has 4096 agents already", "", "remove agents first");
    const NavMesh& navmesh = *record->baked;
    auto at = findNearest(navmesh, def.position, agentExtents(def));
    if (!at.ok())
        return makeError("E_NAV_OFF_MESH", "the position is not on the mesh (nothing within the agent's reach)",
                         "/position", "place the agent on the mesh: nav.nearest finds the closest point");
    CrowdAgent a;
    a.mesh = mesh;
    a.def = def;
    a.position = at->point;
    a.corridor.position = at->point;
    a.corridor.target = at->point;
    a.corridor.polygons.assign(1, at->polygon);
    a.corridor.complete = true;
    a.corridorGeneration = record->polyGeneration;
    a.target = a.plannedTarget = at->point;
    return m_state.agents.insert(std::move(a));
}

Status NavWorld::removeAgent(AgentId agent)
{
    if (!m_state.agents.remove(agent))
        return makeError("E_NAV_UNKNOWN_AGENT", "no such agent (the handle is stale)", "/agent");
    return Status::success();
}

std::vector<AgentId> NavWorld::agentsInOrder() const
{
    std::vector<AgentId> out;
    out.reserve(m_state.agents.size());
    m_state.agents.forEach([&](AgentId id, const CrowdAgent&) { out.push_back(id); });
    return out;
}

Status NavWorld::setAgentTarget(AgentId agent, const glm::vec3& target)
{
    CrowdAgent* a = m_state.agents.get(agent);
    if (!a)
        return makeError("E_NAV_UNKNOWN_AGENT", "no such agent (the handle is stale)", "/agent");
    if (!finite3(target))
        return makeError("E_INVALID_PARAMS", "the target must be finite", "/target");
    const WorldMesh* record = m_state.meshes.get(a->mesh);
    const NavMesh& navmesh = *record->baked;
    // A small move of the target keeps the corridor (re-planned past repath_distance).
    if (a->hasTarget && !a->manualVelocity && a->state == AgentState::Moving &&
        a->corridorGeneration == record->polyGeneration && distXZ(target, a->plannedTarget) <= a->def.repathDistance &&
        std::fabs(target.y - a->plannedTarget.y) <= a->def.height)
    {
        auto at = findNearest(navmesh, target, agentExtents(a->def));
        if (!at.ok())
            return makeError("E_NAV_OFF_MESH", "the target is not on the mesh", "/target");
        if (at->polygon == a->corridor.polygons.back())
        {
            a->target = target;
            a->corridor.target = at->point;
            return Status::success();
        }
    }
    Corridor planned;
    const Status st = planCorridor(navmesh, m_scratch, a->position, target, defaultQueryFilter(),
                                   agentExtents(a->def), planned);
    if (!st.ok())
    {
        if (st.error().field == "/to")
            return makeError("E_NAV_OFF_MESH", "the target is not on the mesh", "/target",
                             "nav.nearest finds the closest point of the mesh");
        return makeError("E_NAV_OFF_MESH", "the agent is not on the mesh", "/agent");
    }
    // Commit.
    a->hasTarget = true;
    a->manualVelocity = false;
    a->target = target;
    a->plannedTarget = target;
    a->corridorGeneration = record->polyGeneration;
    if (planned.complete)
    {
        a->corridor = std::move(planned);
        a->state = AgentState::Moving;
    }
    else
    {
        // Unreachable: stand where it is and say so.
        a->corridor.position = a->position;
        a->corridor.target = a->position;
        a->corridor.polygons.assign(1, planned.polygons.front());
        a->corridor.complete = false;
        a->state = AgentState::NoPath;
    }
    a->corners.clear();
    return Status::success();
}

Status NavWorld::setAgentVelocity(AgentId agent, const glm::vec3& velocity)
{
    CrowdAgent* a = m_state.agents.get(agent);
    if (!a)
        return makeError("E_NAV_UNKNOWN_AGENT", "no such agent (the handle is stale)", "/agent");
    if (!finite3(velocity) || std::sqrt(velocity.x * velocity.x + velocity.z * velocity.z) > a->def.maxSpeed * 1.0001f)
        return makeError("E_INVALID_PARAMS", "the velocity must be finite and no faster than max_speed", "/velocity");
    a->manualVelocity = true;
    a->manual = glm::vec3(velocity.x, 0.0f, velocity.z);
    a->hasTarget = false;
    a->state = AgentState::Moving;
    a->corridor.polygons.resize(1);
    a->corridor.target = a->corridor.position;
    a->corners.clear();
    return Status::success();
}

Status NavWorld::stopAgent(AgentId agent)
{
    CrowdAgent* a = m_state.agents.get(agent);
    if (!a)
        return makeError("E_NAV_UNKNOWN_AGENT", "no such agent (the handle is stale)", "/agent");
    a->manualVelocity = false;
    a->hasTarget = false;
    a->state = AgentState::Idle;
    a->velocity = a->desired = glm::vec3(0.0f);
    a->corridor.polygons.resize(1);
    a->corridor.target = a->corridor.position;
    a->corners.clear();
    return Status::success();
}

Status NavWorld::setAgentDef(AgentId agent, const CrowdAgentDef& def)
{
    CrowdAgent* a = m_state.agents.get(agent);
    if (!a)
        return makeError("E_NAV_UNKNOWN_AGENT", "no such agent (the handle is stale)", "/agent");
    CrowdAgentDef d = def;
    d.position = a->def.position;
    SPARK_TRY(validateAgentDef(d));
    const bool radiusChanged = d.radius != a->def.radius;
    a->def = d;
    if (radiusChanged)
        a->wallGeneration = 0; // gather the walls again, pushed out by the new radius
    return Status::success();
}

CrowdCounts NavWorld::crowdCounts() const
{
    CrowdCounts c;
    m_state.agents.forEach([&](AgentId, const CrowdAgent& a) {
        switch (a.state)
        {
        case AgentState::Idle: ++c.idle; break;
        case AgentState::Moving: ++c.moving; break;
        case AgentState::Arrived: ++c.arrived; break;
        case AgentState::NoPath: ++c.noPath; break;
        case AgentState::OffMesh: ++c.offMesh; break;
        }
    });
    return c;
}

Status NavWorld::stepCrowds(double dt)
{
    if (!std::isfinite(dt) || dt <= 0.0 || dt > 1.0)
        return makeError("E_INVALID_PARAMS", "the step must be a finite time in (0, 1] seconds", "/dt");
    if (!m_avoidance)
    {
        AvoidanceDef def = defaultAvoidanceDef();
        def.maxAgents = static_cast<int>(kMaxCrowdAgents);
        def.maxObstacles = 1 << 18;
        def.maxObstaclePoints = 1 << 19;
        def.maxNeighbors = kMaxAgentNeighbors;
        def.timeHorizon = kTimeHorizon;
        def.timeHorizonObstacles = kTimeHorizonWalls;
        auto made = createAvoidance(def);
        if (!made.ok())
            return made.error();
        m_avoidance.emplace(std::move(made.value()));
    }
    for (const auto& [name, id] : m_state.byName)
    {
        const WorldMesh& record = *m_state.meshes.get(id);
        stepMeshCrowd(id, *record.baked, record.polyGeneration, dt);
    }
    ++m_state.crowdSteps;
    return Status::success();
}

void NavWorld::stepMeshCrowd(MeshId mesh, const NavMesh& navmesh, uint32_t generation, double dt)
{
    m_stepAgents.clear();
    m_state.agents.forEach([&](AgentId id, const CrowdAgent& a) {
        if (a.mesh == mesh)
            m_stepAgents.push_back(id);
    });
    if (m_stepAgents.empty())
        return;
    const QueryFilter filter = defaultQueryFilter();
    m_avoidAgents.clear();
    m_avoidObstacles.clear();
    m_avoidRanges.clear();
    double maxRadius = 0.0;
    for (AgentId id : m_stepAgents)
    {
        CrowdAgent& a = *m_state.agents.get(id);
        maxRadius = std::max(maxRadius, static_cast<double>(a.def.radius));
        // 1. A mesh change: check the corridor, find the agent again, re-plan.
        if (a.corridorGeneration != generation || !checkCorridor(navmesh, a.corridor, filter))
        {
            auto at = findNearest(navmesh, a.position, agentExtents(a.def));
            if (!at.ok())
            {
                a.state = AgentState::OffMesh;
                a.corridor.polygons.clear();
            }
            else
            {
                a.position = at->point;
                a.corridor.position = at->point;
                a.corridor.polygons.assign(1, at->polygon);
                a.corridor.target = at->point;
                if (a.state == AgentState::OffMesh)
                    a.state = a.hasTarget ? AgentState::Moving : AgentState::Idle;
                if (a.hasTarget && (a.state == AgentState::Moving || a.state == AgentState::NoPath ||
                                    a.state == AgentState::Arrived))
                {
                    Corridor planned;
                    if (planCorridor(navmesh, m_scratch, a.position, a.target, filter, agentExtents(a.def), planned).ok() &&
                        planned.complete)
                    {
                        a.corridor = std::move(planned);
                        a.state = a.state == AgentState::Arrived ? AgentState::Arrived : AgentState::Moving;
                    }
                    else
                        a.state = AgentState::NoPath;
                }
            }
            a.corridorGeneration = generation;
            a.wallGeneration = 0;
        }
        // 2. Corners and steering.
        a.desired = glm::vec3(0.0f);
        a.corners.clear();
        bool standing = a.state != AgentState::Moving;
        if (a.state == AgentState::Moving && a.manualVelocity)
            a.desired = a.manual;
        else if (a.state == AgentState::Moving)
        {
            if (findCorridorCorners(navmesh, m_scratch, a.corridor, kAgentCorners, a.corners).ok())
            {
                SteerDef sd;
                sd.maxSpeed = a.def.maxSpeed;
                sd.slowRadius = a.def.slowRadius;
                sd.stopDistance = a.def.stopDistance;
                auto st = steer(a.position, a.corners, sd);
                if (st.ok() && st->arrived)
                {
                    a.state = AgentState::Arrived;
                    a.velocity = glm::vec3(0.0f);
                    standing = true;
                }
                else if (st.ok())
                    a.desired = st->velocity;
            }
        }
        // 3. Walls near the agent, gathered again after a quarter of the range.
        const float range = a.def.radius * kWallRangeRadii;
        if (a.state != AgentState::OffMesh &&
            (a.wallGeneration != generation || distXZ(a.position, a.wallCenter) > range * 0.25f))
        {
            a.walls.clear();
            if (findWalls(navmesh, m_scratch, a.position, range, m_wallHits).ok())
                for (const WallHit& h : m_wallHits)
                {
                    const float nx = h.wall.normal.x, nz = h.wall.normal.z;
                    if (nx == 0.0f && nz == 0.0f)
                        continue; // no length
                    const glm::dvec2 push(static_cast<double>(nx) * a.def.radius, static_cast<double>(nz) * a.def.radius);
                    const glm::dvec2 p0(h.wall.a.x, h.wall.a.z), p1(h.wall.b.x, h.wall.b.z);
                    if (p0 == p1)
                        continue;
                    a.walls.push_back(p0 + push);
                    a.walls.push_back(p1 + push);
                }
            a.wallCenter = a.position;
            a.wallGeneration = generation;
        }
        // 4. The avoidance input.
        ObstacleRange r;
        r.first = static_cast<uint32_t>(m_avoidObstacles.size());
        if (!standing)
            for (size_t k = 0; k + 1 < a.walls.size(); k += 2)
            {
                AvoidanceObstacle o;
                o.shape = ObstacleShape::Segment;
                o.points = std::span<const glm::dvec2>(a.walls.data() + k, 2);
                m_avoidObstacles.push_back(o);
            }
        r.count = static_cast<uint32_t>(m_avoidObstacles.size()) - r.first;
        m_avoidRanges.push_back(r);
        AvoidanceAgent av;
        av.position = glm::dvec2(a.position.x, a.position.z);
        av.velocity = standing ? glm::dvec2(0.0) : glm::dvec2(a.velocity.x, a.velocity.z);
        av.preferred = glm::dvec2(a.desired.x, a.desired.z);
        av.radius = a.def.radius;
        av.maxSpeed = standing ? 0.0 : a.def.maxSpeed;
        av.priority = standing ? kStandingPriority : a.def.priority;
        av.id = id.index;
        av.layers = a.def.layers;
        av.ignores = a.def.ignores;
        av.maxNeighbors = a.def.maxNeighbors;
        // Speeds past the avoidance limits cannot happen: max_speed <= 100.
        m_avoidAgents.push_back(av);
    }
    // 5. ORCA for the whole mesh, each agent with its own walls.
    m_avoidVelocities.assign(m_avoidAgents.size(), glm::dvec2(0.0));
    const Status avoided = m_avoidance->avoid(m_avoidAgents, m_avoidObstacles, m_avoidRanges, dt, m_avoidVelocities);
    // 6. Acceleration limit and the move along the surface.
    for (size_t i = 0; i < m_stepAgents.size(); ++i)
    {
        CrowdAgent& a = *m_state.agents.get(m_stepAgents[i]);
        if (a.state != AgentState::Moving)
        {
            a.velocity = glm::vec3(0.0f);
            continue;
        }
        glm::dvec2 v = avoided.ok() ? m_avoidVelocities[i] : glm::dvec2(a.desired.x, a.desired.z);
        const glm::dvec2 old(a.velocity.x, a.velocity.z);
        glm::dvec2 dv = v - old;
        const double maxDv = static_cast<double>(a.def.maxAccel) * dt;
        const double dvLen = std::sqrt(dv.x * dv.x + dv.y * dv.y);
        if (dvLen > maxDv)
            v = old + dv * (maxDv / dvLen);
        const glm::vec3 wanted(a.position.x + static_cast<float>(v.x * dt), a.position.y,
                               a.position.z + static_cast<float>(v.y * dt));
        const glm::vec3 before = a.position;
        if (moveCorridor(navmesh, m_scratch, a.corridor, wanted, filter).ok())
            a.position = a.corridor.position;
        const float invDt = static_cast<float>(1.0 / dt);
        a.velocity = glm::vec3((a.position.x - before.x) * invDt, 0.0f, (a.position.z - before.z) * invDt);
    }
}

void NavWorld::hashCrowd(Hasher& h, MeshId mesh) const
{
    auto addV = [&](const glm::vec3& v) {
        h.addF32(v.x);
        h.addF32(v.y);
        h.addF32(v.z);
    };
    m_state.agents.forEach([&](AgentId id, const CrowdAgent& a) {
        if (a.mesh != mesh)
            return;
        h.addU32(id.index);
        h.addU32(id.generation);
        const CrowdAgentDef& d = a.def;
        for (float f : {d.radius, d.height, d.maxSpeed, d.maxAccel, d.stopDistance, d.slowRadius, d.priority,
                        d.repathDistance})
            h.addF32(f);
        h.addU32(static_cast<uint32_t>(d.maxNeighbors));
        h.addU32(d.layers);
        h.addU32(d.ignores);
        addV(a.position);
        addV(a.velocity);
        h.addU8(static_cast<uint8_t>(a.state));
        h.addBool(a.hasTarget);
        addV(a.target);
        addV(a.plannedTarget);
        h.addBool(a.manualVelocity);
        addV(a.manual);
        addV(a.corridor.target);
        h.addU64(a.corridor.polygons.size());
        for (uint32_t p : a.corridor.polygons)
            h.addU32(p);
        h.addU32(a.corridorGeneration);
    });
}

} // namespace spark::nav
