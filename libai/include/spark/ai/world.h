#pragma once
/// \file world.h
/// The host interface: the only way libai's leaves reach the world. libai has no
/// physics, no navmesh and no scene; a host (libscene, a game engine, a test's
/// fake world) implements `World`. Coordinates are metres, +Y up; the ground
/// plane is XZ.

#include <glm/vec3.hpp>

#include <string_view>

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
};

} // namespace spark::ai
