// The crowds of a NavWorld: agents by handle, their orders (targets,
// velocities, stops, placements), the step of every mesh's crowd (one
// `Crowd` per mesh, crowd_phases.cpp has the phases) and the crowd's hash.
//
// Determinism: meshes in name order, agents in handle order; nothing depends
// on the address or timing of anything.

#include "crowd_phases.h"
#include "spark/nav/nav_world.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace spark::nav
{
namespace
{

bool finite3(const glm::vec3& v)
{
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
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

std::string_view agentReasonName(AgentReason reason)
{
    switch (reason)
    {
    case AgentReason::None: return "none";
    case AgentReason::Unreachable: return "unreachable";
    case AgentReason::OffMesh: return "off_mesh";
    case AgentReason::ZeroSpeed: return "zero_speed";
    case AgentReason::LinkTooSlow: return "link_too_slow";
    case AgentReason::OnLink: return "on_link";
    case AgentReason::BlockedByAgents: return "blocked_by_agents";
    case AgentReason::NoHeadway: return "no_headway";
    case AgentReason::MakingWay: return "making_way";
    case AgentReason::WaitingForPlan: return "waiting_for_plan";
    }
    return "";
}

std::string_view crowdEventName(CrowdEventKind kind)
{
    switch (kind)
    {
    case CrowdEventKind::Stuck: return "stuck";
    case CrowdEventKind::Unstuck: return "unstuck";
    case CrowdEventKind::Relocated: return "relocated";
    }
    return "";
}

void NavWorld::pushCrowdEvent(AgentId agent, CrowdEventKind kind)
{
    if (m_crowdEvents.size() >= kMaxCrowdEvents)
        m_crowdEvents.erase(m_crowdEvents.begin());
    m_crowdEvents.push_back({agent, kind, m_state.crowdSteps});
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
        return makeError("E_NAV_LIMIT", "the world has " + std::to_string(kMaxCrowdAgents) + " agents already", "",
                         "remove agents first");
    const NavMesh& navmesh = currentMesh(*record);
    auto at = findNearest(navmesh, def.position, agentSearchExtents(def));
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
    a.corridorGeneration = record->meshGeneration;
    a.target = a.plannedTarget = at->point;
    a.anchor = at->point;
    a.corners.reserve(kAgentCorners); // its steps then fill it without allocating
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
    const NavMesh& navmesh = currentMesh(*record);
    const glm::vec3 extents = agentSearchExtents(a->def);
    auto at = findNearest(navmesh, target, extents);
    if (!at.ok())
        return makeError("E_NAV_OFF_MESH", "the target is not on the mesh", "/target",
                         "nav.nearest finds the closest point of the mesh");
    // Waiting in the plan queue already: the new target, the same place.
    if (a->planTicket != 0 && a->hasTarget && !a->manualVelocity)
    {
        a->target = target;
        a->planFresh = true;
        return Status::success();
    }
    // A small move of the target keeps the corridor (re-planned past repath_distance).
    if (a->hasTarget && !a->manualVelocity && a->state == AgentState::Moving &&
        a->corridorGeneration == record->meshGeneration && distXZ(target, a->plannedTarget) <= a->def.repathDistance &&
        std::fabs(target.y - a->plannedTarget.y) <= a->def.height && at->polygon == a->corridor.polygons.back())
    {
        a->target = target;
        a->corridor.target = at->point;
        return Status::success();
    }
    if (!a->leap.active && !findNearest(navmesh, a->position, extents).ok())
        return makeError("E_NAV_OFF_MESH", "the agent is not on the mesh", "/agent");
    // Into the plan queue: the step's plan phase plans the corridor (the old
    // one stays until then; the agent stands).
    a->hasTarget = true;
    a->manualVelocity = false;
    a->target = target;
    a->planTicket = ++m_state.planRequests;
    a->planFresh = true;
    resetHeadway(*a); // now, as when it planned at once: the step's jam measure skips it
    if (!a->leap.active)
    {
        a->state = AgentState::Moving;
        a->reason = AgentReason::WaitingForPlan;
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
    a->planTicket = 0; // a request waiting is dropped
    a->state = AgentState::Moving;
    a->reason = AgentReason::None;
    resetHeadway(*a);
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
    a->planTicket = 0; // a request waiting is dropped
    a->state = AgentState::Idle;
    a->reason = AgentReason::None;
    resetHeadway(*a);
    a->velocity = a->desired = glm::vec3(0.0f);
    a->corridor.polygons.resize(1);
    a->corridor.target = a->corridor.position;
    a->corners.clear();
    return Status::success();
}

Status NavWorld::placeAgent(AgentId agent, const glm::vec3& position)
{
    CrowdAgent* a = m_state.agents.get(agent);
    if (!a)
        return makeError("E_NAV_UNKNOWN_AGENT", "no such agent (the handle is stale)", "/agent");
    if (!finite3(position))
        return makeError("E_INVALID_PARAMS", "the position must be finite", "/position");
    const WorldMesh* record = m_state.meshes.get(a->mesh);
    if (a->leap.active || a->corridorGeneration != record->meshGeneration || a->corridor.polygons.empty())
        return Status::success();
    const NavMesh& navmesh = currentMesh(*record);
    if (moveCorridor(navmesh, m_scratch, a->corridor, position, defaultQueryFilter()).ok())
        a->position = a->corridor.position;
    // The body is not where the surface led (a failed jump left it below the
    // ledge, a fall, a push through a gap): the agent is placed where the body
    // is and plans on from there.
    const bool away = std::fabs(a->position.y - position.y) > 0.5f * a->def.height ||
                      distXZ(a->position, position) > 2.0f * a->def.radius;
    if (!away)
        return Status::success();
    auto at = findNearest(navmesh, position, agentSearchExtents(a->def));
    if (!at.ok())
        return Status::success(); // off the mesh: the agent waits where it is
    a->position = at->point;
    a->corridor.position = at->point;
    a->corridor.polygons.assign(1, at->polygon);
    a->corridor.hops.clear();
    a->corridor.target = at->point;
    a->corridor.complete = true;
    a->corners.clear();
    a->wallGeneration = 0;
    a->replan = a->hasTarget && !a->manualVelocity; // planned again from here in the next step
    pushCrowdEvent(agent, CrowdEventKind::Relocated);
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
    // Stopped for want of speed: given one, it plans and walks on next step.
    if (a->reason == AgentReason::ZeroSpeed && d.maxSpeed > 0.0f)
        a->replan = true;
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
    // One crowd per mesh: those of removed meshes go, new meshes get one, and
    // every crowd is ready before any steps (nothing changes on an error).
    std::vector<std::unique_ptr<Crowd>>& crowds = m_crowdScratch.data().crowds;
    std::vector<Crowd*>& stepped = m_crowdScratch.data().stepped;
    std::erase_if(crowds, [&](const std::unique_ptr<Crowd>& c) { return m_state.meshes.get(c->mesh()) == nullptr; });
    stepped.clear();
    for (const auto& entry : m_state.byName)
    {
        const MeshId id = entry.second; // (not a structured binding: emscripten's clang cannot capture one)
        auto it = std::find_if(crowds.begin(), crowds.end(), [&](const std::unique_ptr<Crowd>& c) { return c->mesh() == id; });
        if (it == crowds.end())
            it = crowds.insert(crowds.end(), std::make_unique<Crowd>(id));
        (*it)->setThreads(m_crowdThreads);
        SPARK_TRY((*it)->prepare());
        stepped.push_back(it->get());
    }
    m_planStats = CrowdPlanStats{};
    size_t k = 0;
    for (const auto& [name, id] : m_state.byName)
    {
        const WorldMesh& record = *m_state.meshes.get(id);
        CrowdStepInputs in;
        in.world = this;
        in.mesh = &currentMesh(record);
        in.generation = record.meshGeneration;
        in.linkGeneration = record.linkGeneration;
        in.step = m_state.crowdSteps;
        in.dt = dt;
        in.filter = defaultQueryFilter();
        in.planBudget = m_state.planNodesPerStep;
        stepped[k]->step(in);
        m_planStats.waiting += stepped[k++]->planLeft();
    }
    ++m_state.crowdSteps;
    return Status::success();
}

Status NavWorld::setCrowdThreads(int threads)
{
    if (threads < 0 || threads > kMaxCrowdThreads)
        return makeError("E_INVALID_PARAMS", "threads is 0..256 (0: every hardware thread)", "/threads");
    m_crowdThreads = threads;
    return Status::success();
}

Status NavWorld::setPlanNodesPerStep(uint32_t nodes)
{
    if (nodes < 1 || nodes > kMaxPlanNodesPerStep)
        return makeError("E_INVALID_PARAMS", "plan_nodes_per_step is 1..2^30 search nodes", "/plan_nodes_per_step");
    m_state.planNodesPerStep = nodes;
    return Status::success();
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
        // Off-mesh links (only when used: the hashes of crowds without links stay).
        if (!a.corridor.hops.empty() || a.leap.active || a.linkGeneration != 0)
        {
            h.addU64(a.corridor.hops.size());
            for (const CorridorHop& hop : a.corridor.hops)
            {
                h.addU32(hop.index);
                h.addU64(hop.link);
            }
            h.addBool(a.leap.active);
            if (a.leap.active)
            {
                h.addU64(a.leap.hop.link);
                addV(a.leap.hop.start);
                addV(a.leap.hop.end);
                h.addF32(a.leap.time);
                h.addF32(a.leap.duration);
            }
            h.addU32(a.linkGeneration);
        }
        // Reasons the state does not imply, and the headway clock while stuck
        // (only when so: the hashes of crowds that flow stay).
        if (a.reason == AgentReason::ZeroSpeed || a.reason == AgentReason::LinkTooSlow ||
            a.reason == AgentReason::MakingWay || a.reason == AgentReason::WaitingForPlan || a.stuck || a.replan)
        {
            h.addU8(static_cast<uint8_t>(a.reason));
            h.addBool(a.stuck);
            h.addBool(a.replan);
            addV(a.anchor);
            h.addF32(a.blockedFor);
        }
        // A plan request waiting (only then: the hashes of crowds served at once stay).
        if (a.planTicket != 0)
        {
            h.addU64(a.planTicket);
            h.addBool(a.planFresh);
        }
    });
}

} // namespace spark::nav
