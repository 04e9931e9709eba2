#pragma once
/// \file ai_host.h
/// libai's `World` interface implemented with libnav (and, in a 3D scene, the
/// physics): how brains see and move their agents. Agents are named; each
/// name maps to a crowd agent of a `NavWorld`. In a 3D scene the names are the
/// objects' (positions are the objects' ground points, line of sight is the
/// physics ray cast); without one (the detached state) they are whatever the
/// host chose (the CLI uses the agents' numbers) and line of sight is a ray
/// along the navigation mesh (walls block).

#include "spark/ai/events.h"
#include "spark/ai/world.h"
#include "spark/core/hash.h"
#include "spark/nav/nav_world.h"

#include <glm/vec3.hpp>

#include <map>
#include <string>
#include <string_view>

#include "spark/core/export.h"
SPARK_SCENE_API_BEGIN

namespace spark::scene
{

class World;

/// What the host keeps for one named agent (part of the state: hashed, saved).
struct HostAgent
{
    nav::AgentId agent;                ///< Its crowd agent.
    glm::dvec3 heading{0.0, 0.0, 1.0}; ///< Unit forward in the ground plane (movement or `face`).
    bool noPath = false;               ///< The last move request could not be planned.
    bool leaping = false;              ///< It was on an off-mesh link when its object was last driven.
    bool fromComponent = false;        ///< Made from an AiAgent component (removed with it).
    bool bound = false;                ///< Bound to its object by `nav.agent.add` with `entity` (drives it, goes with it).
    /// How far its object's centre stood above the agent's point on the mesh
    /// when the agent was made: an object that drives its transform keeps its
    /// centre this far above the agent (a cart on the ground keeps its half
    /// height). 0 for characters, which drive their controller. [Units: m]
    double lift = 0.0;
};

/// Named agents, in name order.
using HostAgents = std::map<std::string, HostAgent, std::less<>>;

/// Feeds the agents canonically into `io` (name, handle, heading, flags).
void hashHostAgents(Hasher& io, const HostAgents& agents);

/// Updates each agent's heading from its velocity (faster than 0.1 m/s).
/// Called after a crowd step.
void updateHeadings(const nav::NavWorld& nav, HostAgents& io);

/// Moves the crowd's events (stuck, unstuck, relocated: `NavWorld::crowdEvents`)
/// into the AI event log, named by the host agent's name (else the agent's
/// number), and empties the crowd's outbox. Called after a crowd step.
void recordCrowdEvents(nav::NavWorld& nav, const HostAgents& agents, ai::EventLog& log, uint64_t frame, double dt);

/// libai's world over a `NavWorld` and, optionally, a 3D scene's physics.
class AiHost final : public ai::World
{
public:
    /// `scene` may be null (the detached state). The references must outlive the host.
    AiHost(nav::NavWorld& nav, HostAgents& agents, const scene::World* scene) : m_nav(nav), m_agents(agents), m_scene(scene) {}

    bool agentExists(std::string_view agent) const override;
    bool findPosition(std::string_view name, ai::Vec3& out) const override;
    ai::Vec3 agentVelocity(std::string_view agent) const override;
    ai::Vec3 agentForward(std::string_view agent) const override;
    ai::MoveState moveState(std::string_view agent) const override;
    void requestMove(std::string_view agent, const ai::Vec3& target, double stopDistance) override;
    void stop(std::string_view agent) override;
    void face(std::string_view agent, const ai::Vec3& direction) override;
    void setSpeed(std::string_view agent, double speed) override;
    bool lineOfSight(std::string_view agent, const ai::Vec3& from, const ai::Vec3& to) const override;
    bool hasPath(std::string_view agent, const ai::Vec3& to) const override;

    /// One name look-up per brain tick: the ref holds the agent's record.
    bool findAgent(std::string_view agent, ai::AgentRef& io) const override;
    bool findPosition(const ai::AgentRef& agent, ai::Vec3& out) const override;
    ai::Vec3 agentVelocity(const ai::AgentRef& agent) const override;
    ai::Vec3 agentForward(const ai::AgentRef& agent) const override;
    ai::MoveState moveState(const ai::AgentRef& agent) const override;
    void requestMove(const ai::AgentRef& agent, const ai::Vec3& target, double stopDistance) override;
    void stop(const ai::AgentRef& agent) override;
    void face(const ai::AgentRef& agent, const ai::Vec3& direction) override;
    void setSpeed(const ai::AgentRef& agent, double speed) override;
    bool lineOfSight(const ai::AgentRef& agent, const ai::Vec3& from, const ai::Vec3& to) const override;
    bool hasPath(const ai::AgentRef& agent, const ai::Vec3& to) const override;

private:
    const nav::CrowdAgent* crowdAgent(std::string_view agent) const;
    HostAgent* host(std::string_view agent);
    /// The record of a resolved ref. [Limit: agent.id != 0]
    HostAgent* host(const ai::AgentRef& agent) const;
    void requestMoveOf(HostAgent* h, const ai::Vec3& target, double stopDistance);
    void stopOf(HostAgent* h);
    void faceOf(HostAgent* h, const ai::Vec3& direction);
    void setSpeedOf(HostAgent* h, double speed);
    bool navLineOfSight(const nav::CrowdAgent* a, const ai::Vec3& from, const ai::Vec3& to) const;
    bool hasPathOf(const nav::CrowdAgent* a, const ai::Vec3& to) const;

    nav::NavWorld& m_nav;
    HostAgents& m_agents;
    const scene::World* m_scene;
};

} // namespace spark::scene
SPARK_SCENE_API_END
