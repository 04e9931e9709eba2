#pragma once
/// \file world.h
/// The host interface: the only way libai's leaves reach the world. libai has no
/// physics, no navmesh and no scene; a host (libscene, a game engine, a test's
/// fake world) implements `World`. Coordinates are metres, +Y up; the ground
/// plane is XZ.

#include "spark/ai/symbol.h"

#include <glm/vec3.hpp>

#include <cstdint>
#include <string_view>

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

/// An agent as its host resolved it (`World::findAgent`), so that the calls of a
/// brain tick reach the host's record of the agent without a name look-up.
/// libai keeps it for the host and never looks inside `id` and `tag`.
struct AgentRef
{
    std::string_view name; ///< The agent's name (always set; valid for the tick).
    uint64_t id = 0;       ///< The host's: e.g. an index + 1 or a record's address; 0 = not resolved.
    uint64_t tag = 0;      ///< The host's: e.g. a generation, to tell a stale `id` on the next tick.
};

/// The world as libai's leaves see it. Agents and objects are named; an agent is
/// also an object (its name resolves with `findPosition`). Queries are `const`;
/// requests (`requestMove`, `stop`, `face`, `setSpeed`) take effect in the host's
/// own time, except that `moveState` must report `Moving` or `NoPath` right after
/// `requestMove` and `Idle` right after `stop`.
class World
{
public:
    virtual ~World() = default;

    /// True when an agent by that name exists.
    virtual bool agentExists(std::string_view agent) const = 0;
    /// Position of an agent or object by name; false when there is none.
    virtual bool findPosition(std::string_view name, Vec3& out) const = 0;
    /// Velocity of an agent. [Units: m/s]
    virtual Vec3 agentVelocity(std::string_view agent) const = 0;
    /// Unit forward direction of an agent in the ground plane (y = 0).
    virtual Vec3 agentForward(std::string_view agent) const = 0;
    /// The agent's movement state.
    virtual MoveState moveState(std::string_view agent) const = 0;

    /// Asks the agent to move to `target`, stopping within `stopDistance` metres.
    virtual void requestMove(std::string_view agent, const Vec3& target, double stopDistance) = 0;
    /// Stops the agent's movement.
    virtual void stop(std::string_view agent) = 0;
    /// Turns the agent to face `direction` (ground plane, not necessarily unit).
    virtual void face(std::string_view agent, const Vec3& direction) = 0;
    /// Sets the agent's maximum speed. [Units: m/s] [Limit: >= 0]
    virtual void setSpeed(std::string_view agent, double speed) = 0;

    /// True when nothing blocks the straight segment `from` → `to` (the agent's
    /// own body is ignored).
    virtual bool lineOfSight(std::string_view agent, const Vec3& from, const Vec3& to) const = 0;
    /// True when the agent could reach `to`.
    virtual bool hasPath(std::string_view agent, const Vec3& to) const = 0;

    /// Resolves an agent's name, once at the start of every brain tick (and of a
    /// halt); the tick's other calls for that agent take the ref. On entry `io`
    /// has `name` set and otherwise holds what it resolved to at the brain's
    /// previous tick (id 0 the first time), which the host may check and keep
    /// instead of looking the name up (it must check: agents may have changed
    /// since, and a brain may have been copied into another host's state). True
    /// when the agent exists; false leaves `io.id` 0, and a call given such a ref
    /// acts as for an unknown name. A ref is valid until the host's agents change
    /// (in practice: for the tick). The default looks nothing up and keeps names.
    virtual bool findAgent(std::string_view agent, AgentRef& io) const
    {
        io.name = agent;
        io.id = agentExists(agent) ? 1 : 0;
        io.tag = 0;
        return io.id != 0;
    }
    /// Position of a named target (a leaf's `target` parameter: an agent or
    /// an object), exactly as `findPosition(name.name(), out)` answers it.
    /// The name comes interned (symbol.h): a host may keep what it resolved a
    /// name to by `name.id()` instead of looking the text up (it must check
    /// that it still holds: agents and objects come and go). The default
    /// looks the text up.
    virtual bool findTarget(Symbol name, Vec3& out) const { return findPosition(name.name(), out); }
    /// `findPosition` of a resolved agent.
    virtual bool findPosition(const AgentRef& agent, Vec3& out) const { return findPosition(agent.name, out); }
    /// `agentVelocity` of a resolved agent.
    virtual Vec3 agentVelocity(const AgentRef& agent) const { return agentVelocity(agent.name); }
    /// `agentForward` of a resolved agent.
    virtual Vec3 agentForward(const AgentRef& agent) const { return agentForward(agent.name); }
    /// `moveState` of a resolved agent.
    virtual MoveState moveState(const AgentRef& agent) const { return moveState(agent.name); }
    /// `requestMove` of a resolved agent.
    virtual void requestMove(const AgentRef& agent, const Vec3& target, double stopDistance)
    {
        requestMove(agent.name, target, stopDistance);
    }
    /// `stop` of a resolved agent.
    virtual void stop(const AgentRef& agent) { stop(agent.name); }
    /// `face` of a resolved agent.
    virtual void face(const AgentRef& agent, const Vec3& direction) { face(agent.name, direction); }
    /// `setSpeed` of a resolved agent.
    virtual void setSpeed(const AgentRef& agent, double speed) { setSpeed(agent.name, speed); }
    /// `lineOfSight` of a resolved agent.
    virtual bool lineOfSight(const AgentRef& agent, const Vec3& from, const Vec3& to) const
    {
        return lineOfSight(agent.name, from, to);
    }
    /// `hasPath` of a resolved agent.
    virtual bool hasPath(const AgentRef& agent, const Vec3& to) const { return hasPath(agent.name, to); }
};

} // namespace spark::ai
SPARK_AI_API_END
