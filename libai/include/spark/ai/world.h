#pragma once
/// \file world.h
/// The host interface: the only way libai's leaves reach the world. libai has no
/// physics, no navmesh and no scene; a host (libscene, a game engine, a test's
/// fake world) implements `World`. Coordinates are metres, +Y up; the ground
/// plane is XZ.

#include "spark/ai/symbol.h"

#include <glm/vec3.hpp>

#include <cstdint>

#include "spark/core/export.h"
SPARK_AI_API_BEGIN

namespace spark::ai
{

/// A point or direction in metres, +Y up.
using Vec3 = glm::dvec3;

/// What an agent's movement is doing, as the host sees it.
enum class MoveState : uint8_t
{
    Idle,    ///< No move requested (or stopped).
    Moving,  ///< Following a requested move.
    Arrived, ///< Reached the last requested target.
    NoPath,  ///< The last requested target cannot be reached.
};

/// The host's handle of an agent: given to libai when a brain is attached
/// (`BrainDef::agentKey`), kept in the brain and passed back with every call
/// the brain makes for its agent. What the number means is the host's (an
/// index and a generation, a handle number); libai never looks inside. A key
/// whose agent is gone must answer as an unknown agent does (`agentExists`
/// false); when an agent of the brain's name comes back, the host gives the
/// brain the new agent's key (`Brain::agentKey`). 0 is no agent.
struct AgentKey
{
    uint64_t value = 0;

    friend bool operator==(AgentKey a, AgentKey b) { return a.value == b.value; }
};

/// The world as libai's leaves see it. A brain's own agent is reached by the
/// key its host gave at attach; a leaf's target (an agent or an object, by
/// name) by its interned name (`findTarget`). Queries are `const`; requests
/// (`requestMove`, `stop`, `face`, `setSpeed`) take effect in the host's own
/// time, except that `moveState` must report `Moving` or `NoPath` right after
/// `requestMove` and `Idle` right after `stop`. Calls with the key of no agent
/// answer false, zero or `NoPath` and change nothing (a brain checks
/// `agentExists` at the start of its tick and fails when it is false).
class World
{
public:
    virtual ~World() = default;

    /// True when the key names an agent.
    virtual bool agentExists(AgentKey agent) const = 0;
    /// Position of the agent; false when there is none.
    virtual bool agentPosition(AgentKey agent, Vec3& out) const = 0;
    /// Velocity of the agent. [Units: m/s]
    virtual Vec3 agentVelocity(AgentKey agent) const = 0;
    /// Unit forward direction of the agent in the ground plane (y = 0).
    virtual Vec3 agentForward(AgentKey agent) const = 0;
    /// The agent's movement state.
    virtual MoveState moveState(AgentKey agent) const = 0;

    /// Asks the agent to move to `target`, stopping within `stopDistance` metres.
    virtual void requestMove(AgentKey agent, const Vec3& target, double stopDistance) = 0;
    /// Stops the agent's movement.
    virtual void stop(AgentKey agent) = 0;
    /// Turns the agent to face `direction` (ground plane, not necessarily unit).
    virtual void face(AgentKey agent, const Vec3& direction) = 0;
    /// Sets the agent's maximum speed. [Units: m/s] [Limit: >= 0]
    virtual void setSpeed(AgentKey agent, double speed) = 0;

    /// True when nothing blocks the straight segment `from` → `to` (the agent's
    /// own body is ignored).
    virtual bool lineOfSight(AgentKey agent, const Vec3& from, const Vec3& to) const = 0;
    /// True when the agent could reach `to`.
    virtual bool hasPath(AgentKey agent, const Vec3& to) const = 0;

    /// Position of a named target (a leaf's `target` parameter or the
    /// blackboard's: an agent or an object); false when nothing has that name.
    /// The name comes interned (symbol.h): a host may keep what it resolved a
    /// name to by `name.id()` instead of looking the text up (it must check
    /// that it still holds: agents and objects come and go).
    virtual bool findTarget(Symbol name, Vec3& out) const = 0;
};

} // namespace spark::ai
SPARK_AI_API_END
