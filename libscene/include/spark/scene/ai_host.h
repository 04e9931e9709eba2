#pragma once
/// \file ai_host.h
/// libai's `World` interface implemented with libnav (and, in a 3D scene, the
/// physics): how brains see and move their agents. Agents are named; each
/// name maps to a crowd agent of a `NavWorld`, and a brain's agent key is that
/// crowd agent's handle (`agentKey`), given when the brain is attached. In a 3D scene the names are the
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
#include <vector>

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

/// The key libai keeps for a brain whose agent is crowd agent `agent`: the
/// handle's number (`spark/core/id.h`) (a removed agent's key names no agent; a
/// saved and restored world keeps its handles, so its brains' keys hold).
inline ai::AgentKey agentKey(nav::AgentId agent)
{
    return ai::AgentKey{handleNumber(agent)}; // never 0 for a live agent (generations start at 1)
}

/// libai's world over a `NavWorld` and, optionally, a 3D scene's physics. A
/// host lives for one step (or one command): it indexes the named agents by
/// their crowd agent when made, and the agents do not change while it lives.
class AiHost final : public ai::World
{
public:
    /// `scene` may be null (the detached state). The references must outlive the host.
    AiHost(nav::NavWorld& nav, HostAgents& agents, const scene::World* scene);

    bool agentExists(ai::AgentKey agent) const override;
    bool agentPosition(ai::AgentKey agent, ai::Vec3& out) const override;
    ai::Vec3 agentVelocity(ai::AgentKey agent) const override;
    ai::Vec3 agentForward(ai::AgentKey agent) const override;
    ai::MoveState moveState(ai::AgentKey agent) const override;
    void requestMove(ai::AgentKey agent, const ai::Vec3& target, double stopDistance) override;
    void stop(ai::AgentKey agent) override;
    void face(ai::AgentKey agent, const ai::Vec3& direction) override;
    void setSpeed(ai::AgentKey agent, double speed) override;
    bool lineOfSight(ai::AgentKey agent, const ai::Vec3& from, const ai::Vec3& to) const override;
    bool hasPath(ai::AgentKey agent, const ai::Vec3& to) const override;
    /// An object's ground point (in a scene), else a named agent's position.
    bool findTarget(ai::Symbol name, ai::Vec3& out) const override;

private:
    /// A named agent whose crowd agent exists.
    struct Found
    {
        const std::string* name = nullptr; ///< Its name (null: the key names no agent).
        HostAgent* host = nullptr;
        const nav::CrowdAgent* crowd = nullptr;
    };
    Found find(ai::AgentKey agent) const;
    const nav::CrowdAgent* crowdAgent(std::string_view agent) const;
    void requestMoveOf(HostAgent* h, const ai::Vec3& target, double stopDistance);
    void stopOf(HostAgent* h);
    void faceOf(HostAgent* h, const ai::Vec3& direction);
    void setSpeedOf(HostAgent* h, double speed);
    bool navLineOfSight(const nav::CrowdAgent* a, const ai::Vec3& from, const ai::Vec3& to) const;
    bool hasPathOf(const nav::CrowdAgent* a, const ai::Vec3& to) const;

    nav::NavWorld& m_nav;
    HostAgents& m_agents;
    const scene::World* m_scene;
    /// Crowd agent index → the named agent on it (null: none with a live crowd agent).
    std::vector<HostAgents::value_type*> m_byCrowdIndex;
};

} // namespace spark::scene
SPARK_SCENE_API_END
