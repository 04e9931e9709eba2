// libai's World over libnav's crowds and, in a 3D scene, the physics.
//
// Positions: in a scene, a name resolves to the object's ground point (a
// character's feet, any other object's transform position), so distances
// between a guard on the mesh and a player's body are measured foot to foot;
// an agent without an object (detached) is where its crowd agent is.
// Headings follow movement (velocity above 0.1 m/s) unless `face` turned the
// agent since. A move request that cannot be planned leaves the agent standing
// and reports `NoPath` until the next request.

#include "spark/scene/ai_host.h"

#include "spark/nav/query.h"
#include "spark/scene/world.h"

#include <cmath>
#include <cstdint>
#include <map>
#include <string>

namespace spark::scene
{
namespace
{

ai::MoveState moveStateOf(nav::AgentState s)
{
    switch (s)
    {
    case nav::AgentState::Idle: return ai::MoveState::Idle;
    case nav::AgentState::Moving: return ai::MoveState::Moving;
    case nav::AgentState::Arrived: return ai::MoveState::Arrived;
    case nav::AgentState::NoPath:
    case nav::AgentState::OffMesh: return ai::MoveState::NoPath;
    }
    return ai::MoveState::Idle;
}

bool finite3(const ai::Vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

} // namespace

void hashHostAgents(Hasher& io, const HostAgents& agents)
{
    io.addString("host-agents/1");
    io.addU64(agents.size());
    for (const auto& [name, a] : agents)
    {
        io.addString(name);
        io.addU32(a.agent.index);
        io.addU32(a.agent.generation);
        io.addF64(a.heading.x);
        io.addF64(a.heading.y);
        io.addF64(a.heading.z);
        io.addBool(a.noPath);
        io.addBool(a.leaping);
        io.addBool(a.fromComponent);
        // Only when set: the hashes of worlds without lifted objects stay as they were.
        if (a.lift != 0.0)
            io.addF64(a.lift);
        if (a.bound)
            io.addString("bound");
    }
}

void updateHeadings(const nav::NavWorld& nav, HostAgents& io)
{
    for (auto& [name, h] : io)
    {
        const nav::CrowdAgent* a = nav.agent(h.agent);
        if (!a)
            continue;
        const double vx = a->velocity.x, vz = a->velocity.z;
        const double speed = std::sqrt(vx * vx + vz * vz);
        if (speed > 0.1)
            h.heading = glm::dvec3(vx / speed, 0.0, vz / speed);
    }
}

void recordCrowdEvents(nav::NavWorld& nav, const HostAgents& agents, ai::EventLog& log, uint64_t frame, double dt)
{
    if (nav.crowdEvents().empty())
        return;
    std::map<uint64_t, std::string_view> names; // handle number -> host name
    for (const auto& [name, h] : agents)
        names.emplace(handleNumber(h.agent), name);
    for (const nav::CrowdEvent& e : nav.crowdEvents())
    {
        const uint64_t number = handleNumber(e.agent);
        auto it = names.find(number);
        ai::json data = ai::json::object();
        if (const nav::CrowdAgent* a = nav.agent(e.agent))
        {
            if (e.kind == nav::CrowdEventKind::Stuck)
                data = {{"reason", std::string(nav::agentReasonName(a->reason))},
                        {"blocked_for", static_cast<double>(a->blockedFor)}};
            else if (e.kind == nav::CrowdEventKind::Relocated)
                data = {{"position", {a->position.x, a->position.y, a->position.z}}};
        }
        ai::pushEvent(log, frame, static_cast<double>(frame) * dt, std::string(nav::crowdEventName(e.kind)),
                      it != names.end() ? std::string(it->second) : std::to_string(number), std::move(data));
    }
    nav.clearCrowdEvents();
}

AiHost::AiHost(nav::NavWorld& nav, HostAgents& agents, const scene::World* scene)
    : m_nav(nav), m_agents(agents), m_scene(scene)
{
    for (auto& entry : m_agents)
    {
        const nav::AgentId id = entry.second.agent;
        if (!m_nav.agent(id))
            continue; // its crowd agent is gone: its key names no agent
        if (id.index >= m_byCrowdIndex.size())
            m_byCrowdIndex.resize(id.index + 1, nullptr);
        m_byCrowdIndex[id.index] = &entry;
    }
}

AiHost::Found AiHost::find(ai::AgentKey agent) const
{
    const nav::AgentId id = handleFromNumber<nav::AgentTag>(agent.value);
    if (id.index >= m_byCrowdIndex.size())
        return {};
    HostAgents::value_type* entry = m_byCrowdIndex[id.index];
    if (!entry || entry->second.agent != id)
        return {};
    return {&entry->first, &entry->second, m_nav.agent(id)};
}

const nav::CrowdAgent* AiHost::crowdAgent(std::string_view agent) const
{
    auto it = m_agents.find(agent);
    return it == m_agents.end() ? nullptr : m_nav.agent(it->second.agent);
}

bool AiHost::agentExists(ai::AgentKey agent) const { return find(agent).crowd != nullptr; }

bool AiHost::findTarget(ai::Symbol name, ai::Vec3& out) const
{
    if (m_scene && m_scene->groundPosition(name.name(), out))
        return true;
    if (const nav::CrowdAgent* a = crowdAgent(name.name()))
    {
        out = ai::Vec3(a->position);
        return true;
    }
    return false;
}

bool AiHost::agentPosition(ai::AgentKey agent, ai::Vec3& out) const
{
    const Found f = find(agent);
    if (!f.crowd)
        return false;
    if (m_scene && m_scene->groundPosition(*f.name, out))
        return true;
    out = ai::Vec3(f.crowd->position);
    return true;
}

ai::Vec3 AiHost::agentVelocity(ai::AgentKey agent) const
{
    const Found f = find(agent);
    return f.crowd ? ai::Vec3(f.crowd->velocity) : ai::Vec3(0.0);
}

ai::Vec3 AiHost::agentForward(ai::AgentKey agent) const
{
    const Found f = find(agent);
    return f.crowd ? f.host->heading : ai::Vec3(0, 0, 1);
}

ai::MoveState AiHost::moveState(ai::AgentKey agent) const
{
    const Found f = find(agent);
    if (!f.crowd || f.host->noPath)
        return ai::MoveState::NoPath;
    return moveStateOf(f.crowd->state);
}

void AiHost::requestMove(ai::AgentKey agent, const ai::Vec3& target, double stopDistance)
{
    const Found f = find(agent);
    requestMoveOf(f.crowd ? f.host : nullptr, target, stopDistance);
}

void AiHost::requestMoveOf(HostAgent* h, const ai::Vec3& target, double stopDistance)
{
    if (!h)
        return;
    const nav::CrowdAgent* a = m_nav.agent(h->agent);
    if (finite3(target) && std::isfinite(stopDistance) && stopDistance >= 0.0 && stopDistance <= 100.0 &&
        a->def.stopDistance != static_cast<float>(stopDistance))
    {
        nav::CrowdAgentDef def = a->def;
        def.stopDistance = static_cast<float>(stopDistance);
        (void)m_nav.setAgentDef(h->agent, def);
    }
    h->noPath = !m_nav.setAgentTarget(h->agent, glm::vec3(target)).ok();
    if (h->noPath)
        (void)m_nav.stopAgent(h->agent);
}

void AiHost::stop(ai::AgentKey agent)
{
    const Found f = find(agent);
    stopOf(f.crowd ? f.host : nullptr);
}

void AiHost::stopOf(HostAgent* h)
{
    if (h)
    {
        h->noPath = false;
        (void)m_nav.stopAgent(h->agent);
    }
}

void AiHost::face(ai::AgentKey agent, const ai::Vec3& direction)
{
    const Found f = find(agent);
    faceOf(f.crowd ? f.host : nullptr, direction);
}

void AiHost::faceOf(HostAgent* h, const ai::Vec3& direction)
{
    const double len = std::sqrt(direction.x * direction.x + direction.z * direction.z);
    if (h && std::isfinite(len) && len > 1e-9)
        h->heading = ai::Vec3(direction.x / len, 0.0, direction.z / len);
}

void AiHost::setSpeed(ai::AgentKey agent, double speed)
{
    const Found f = find(agent);
    setSpeedOf(f.crowd ? f.host : nullptr, speed);
}

void AiHost::setSpeedOf(HostAgent* h, double speed)
{
    if (!h || !std::isfinite(speed) || speed < 0.0 || speed > 100.0)
        return;
    nav::CrowdAgentDef def = m_nav.agent(h->agent)->def;
    def.maxSpeed = static_cast<float>(speed);
    (void)m_nav.setAgentDef(h->agent, def);
}

bool AiHost::lineOfSight(ai::AgentKey agent, const ai::Vec3& from, const ai::Vec3& to) const
{
    const Found f = find(agent);
    if (!f.crowd || !finite3(from) || !finite3(to))
        return false;
    if (m_scene)
        return m_scene->lineOfSight(*f.name, from, to);
    return navLineOfSight(f.crowd, from, to);
}

bool AiHost::navLineOfSight(const nav::CrowdAgent* a, const ai::Vec3& from, const ai::Vec3& to) const
{
    // Detached: walls of the agent's mesh block.
    if (!a)
        return false;
    const nav::NavMesh* mesh = m_nav.mesh(a->mesh);
    auto hit = nav::raycast(*mesh, m_nav.queryScratch(), glm::vec3(from.x, a->position.y, from.z),
                            glm::vec3(to), nav::defaultQueryFilter(), nav::agentSearchExtents(a->def));
    return hit.ok() && !hit->hit;
}

bool AiHost::hasPath(ai::AgentKey agent, const ai::Vec3& to) const { return hasPathOf(find(agent).crowd, to); }

bool AiHost::hasPathOf(const nav::CrowdAgent* a, const ai::Vec3& to) const
{
    if (!a || !finite3(to))
        return false;
    const nav::NavMesh* mesh = m_nav.mesh(a->mesh);
    nav::PathResult path;
    std::vector<nav::PathLink> links;
    m_nav.pathLinksOf(a->mesh, links);
    const Status st = nav::findPath(*mesh, m_nav.queryScratch(), a->position, glm::vec3(to), nav::defaultQueryFilter(),
                                    nav::agentSearchExtents(a->def), links, path);
    return st.ok() && path.complete;
}

} // namespace spark::scene
