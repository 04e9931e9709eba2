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

const nav::CrowdAgent* AiHost::crowdAgent(std::string_view agent) const
{
    auto it = m_agents.find(agent);
    return it == m_agents.end() ? nullptr : m_nav.agent(it->second.agent);
}

HostAgent* AiHost::host(std::string_view agent)
{
    auto it = m_agents.find(agent);
    return it == m_agents.end() || !m_nav.agent(it->second.agent) ? nullptr : &it->second;
}

HostAgent* AiHost::host(const ai::AgentRef& agent) const
{
    // id is the address of the record findAgent found this tick (its crowd agent exists).
    return reinterpret_cast<HostAgent*>(static_cast<uintptr_t>(agent.id));
}

bool AiHost::findAgent(std::string_view agent, ai::AgentRef& io) const
{
    // Always by name (one look-up per brain tick): the agents may have changed since the last tick.
    io.name = agent;
    io.tag = 0;
    auto it = m_agents.find(agent);
    io.id = it == m_agents.end() || !m_nav.agent(it->second.agent)
                ? 0
                : static_cast<uint64_t>(reinterpret_cast<uintptr_t>(&it->second));
    return io.id != 0;
}

bool AiHost::agentExists(std::string_view agent) const { return crowdAgent(agent) != nullptr; }

bool AiHost::findPosition(std::string_view name, ai::Vec3& out) const
{
    if (m_scene && m_scene->groundPosition(name, out))
        return true;
    if (const nav::CrowdAgent* a = crowdAgent(name))
    {
        out = ai::Vec3(a->position);
        return true;
    }
    return false;
}

bool AiHost::findPosition(const ai::AgentRef& agent, ai::Vec3& out) const
{
    if (!agent.id)
        return findPosition(agent.name, out);
    if (m_scene && m_scene->groundPosition(agent.name, out))
        return true;
    out = ai::Vec3(m_nav.agent(host(agent)->agent)->position);
    return true;
}

ai::Vec3 AiHost::agentVelocity(std::string_view agent) const
{
    const nav::CrowdAgent* a = crowdAgent(agent);
    return a ? ai::Vec3(a->velocity) : ai::Vec3(0.0);
}

ai::Vec3 AiHost::agentVelocity(const ai::AgentRef& agent) const
{
    if (!agent.id)
        return agentVelocity(agent.name);
    return ai::Vec3(m_nav.agent(host(agent)->agent)->velocity);
}

ai::Vec3 AiHost::agentForward(std::string_view agent) const
{
    auto it = m_agents.find(agent);
    return it == m_agents.end() ? ai::Vec3(0, 0, 1) : it->second.heading;
}

ai::Vec3 AiHost::agentForward(const ai::AgentRef& agent) const
{
    return agent.id ? host(agent)->heading : agentForward(agent.name);
}

ai::MoveState AiHost::moveState(std::string_view agent) const
{
    auto it = m_agents.find(agent);
    const nav::CrowdAgent* a = crowdAgent(agent);
    if (!a)
        return ai::MoveState::NoPath;
    if (it->second.noPath)
        return ai::MoveState::NoPath;
    return moveStateOf(a->state);
}

ai::MoveState AiHost::moveState(const ai::AgentRef& agent) const
{
    if (!agent.id)
        return moveState(agent.name);
    const HostAgent* h = host(agent);
    return h->noPath ? ai::MoveState::NoPath : moveStateOf(m_nav.agent(h->agent)->state);
}

void AiHost::requestMove(std::string_view agent, const ai::Vec3& target, double stopDistance)
{
    requestMoveOf(host(agent), target, stopDistance);
}

void AiHost::requestMove(const ai::AgentRef& agent, const ai::Vec3& target, double stopDistance)
{
    requestMoveOf(agent.id ? host(agent) : host(agent.name), target, stopDistance);
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

void AiHost::stop(std::string_view agent) { stopOf(host(agent)); }

void AiHost::stop(const ai::AgentRef& agent) { stopOf(agent.id ? host(agent) : host(agent.name)); }

void AiHost::stopOf(HostAgent* h)
{
    if (h)
    {
        h->noPath = false;
        (void)m_nav.stopAgent(h->agent);
    }
}

void AiHost::face(std::string_view agent, const ai::Vec3& direction) { faceOf(host(agent), direction); }

void AiHost::face(const ai::AgentRef& agent, const ai::Vec3& direction)
{
    faceOf(agent.id ? host(agent) : host(agent.name), direction);
}

void AiHost::faceOf(HostAgent* h, const ai::Vec3& direction)
{
    const double len = std::sqrt(direction.x * direction.x + direction.z * direction.z);
    if (h && std::isfinite(len) && len > 1e-9)
        h->heading = ai::Vec3(direction.x / len, 0.0, direction.z / len);
}

void AiHost::setSpeed(std::string_view agent, double speed) { setSpeedOf(host(agent), speed); }

void AiHost::setSpeed(const ai::AgentRef& agent, double speed)
{
    setSpeedOf(agent.id ? host(agent) : host(agent.name), speed);
}

void AiHost::setSpeedOf(HostAgent* h, double speed)
{
    if (!h || !std::isfinite(speed) || speed < 0.0 || speed > 100.0)
        return;
    nav::CrowdAgentDef def = m_nav.agent(h->agent)->def;
    def.maxSpeed = static_cast<float>(speed);
    (void)m_nav.setAgentDef(h->agent, def);
}

bool AiHost::lineOfSight(std::string_view agent, const ai::Vec3& from, const ai::Vec3& to) const
{
    if (!finite3(from) || !finite3(to))
        return false;
    if (m_scene)
        return m_scene->lineOfSight(agent, from, to);
    return navLineOfSight(crowdAgent(agent), from, to);
}

bool AiHost::lineOfSight(const ai::AgentRef& agent, const ai::Vec3& from, const ai::Vec3& to) const
{
    if (!agent.id || m_scene)
        return lineOfSight(agent.name, from, to);
    if (!finite3(from) || !finite3(to))
        return false;
    return navLineOfSight(m_nav.agent(host(agent)->agent), from, to);
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

bool AiHost::hasPath(std::string_view agent, const ai::Vec3& to) const { return hasPathOf(crowdAgent(agent), to); }

bool AiHost::hasPath(const ai::AgentRef& agent, const ai::Vec3& to) const
{
    return hasPathOf(agent.id ? m_nav.agent(host(agent)->agent) : crowdAgent(agent.name), to);
}

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
