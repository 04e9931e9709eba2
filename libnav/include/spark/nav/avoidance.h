#pragma once
/// \file avoidance.h
/// Local collision avoidance by optimal reciprocal collision avoidance (ORCA,
/// van den Berg, Guy, Lin, Manocha, "Reciprocal n-body collision avoidance",
/// 2011), on the ground plane (`avoid`) and in space for fliers (`avoid3D`).
///
/// Each step the host passes positions, current velocities and preferred
/// velocities; the object returns, per agent, the velocity closest to the
/// preferred one that keeps it clear of its neighbours and of the obstacles
/// for the time horizons of the definition. It needs no navmesh.
///
/// Units: metres, seconds; +Y is up in 3D. The 2D plane is any plane the host
/// chooses (a crowd on a navmesh passes (x, z) as (x, y)).
///
/// Numbers are `double`: positions reach `kMaxAvoidanceCoordinate` while
/// radii go down to `kMinAvoidanceRadius`, and the linear programs compare
/// differences of nearly equal quantities (a velocity on the boundary of a
/// half-plane); double keeps those tests meaningful with a wide margin, and
/// costs little next to the neighbour search.
///
/// Determinism: no clocks or hash-map iteration; neighbours are ordered by
/// distance, then id, then index; the same input gives the same bits, on any
/// number of threads (`AvoidanceDef::threads`): each agent's solve reads only
/// the call's inputs and writes only that agent's output.

#include "spark/core/result.h"

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include <cstdint>
#include <memory>
#include <span>

#include "spark/core/export.h"
SPARK_NAV_API_BEGIN

namespace spark::nav
{

/// Largest accepted |coordinate| of a position or obstacle point. [Units: m]
inline constexpr double kMaxAvoidanceCoordinate = 1.0e6;
/// Largest accepted speed (agent max speed, |velocity|, |preferred|, obstacle speed). [Units: m/s]
inline constexpr double kMaxAvoidanceSpeed = 1.0e3;
/// Largest accepted agent radius. [Units: m]
inline constexpr double kMaxAvoidanceRadius = 1.0e3;
/// Smallest accepted agent radius. [Units: m]
inline constexpr double kMinAvoidanceRadius = 1.0e-3;
/// Smallest accepted time step. [Units: s]
inline constexpr double kMinAvoidanceTime = 1.0e-4;
/// Largest accepted time step. [Units: s]
inline constexpr double kMaxAvoidanceTime = 60.0;
/// Largest accepted priority. Priorities are > 0.
inline constexpr double kMaxAvoidancePriority = 1.0e6;
/// Hard upper bound for the capacities of a definition.
inline constexpr int kMaxAvoidanceCapacity = 1 << 20;
/// Most threads a definition may ask for.
inline constexpr int kMaxAvoidanceThreads = 256;

/// How an avoidance object is set up.
struct AvoidanceDef
{
    /// Most agents per call (2D or 3D). [Limit: 1..kMaxAvoidanceCapacity]
    int maxAgents = 1024;
    /// Most obstacles (2D shapes or 3D spheres) per call. [Limit: 0..kMaxAvoidanceCapacity]
    int maxObstacles = 256;
    /// Most obstacle points per call (sum over segments and polygons; a sphere or circle counts 1). [Limit: 0..kMaxAvoidanceCapacity]
    int maxObstaclePoints = 4096;
    /// Agents whose centres are nearer than this are neighbours. [Limit: > 0, <= 1e4] [Units: m]
    double neighborDistance = 15.0;
    /// Most neighbours an agent avoids (the nearest ones). [Limit: 1..64]
    int maxNeighbors = 10;
    /// How far ahead agents avoid each other. [Limit: > 0, <= 1e3] [Units: s]
    double timeHorizon = 10.0;
    /// How far ahead agents avoid obstacles. [Limit: > 0, <= 1e3] [Units: s]
    double timeHorizonObstacles = 10.0;
    /// How far two agents may overlap, as a fraction of the sum of their radii,
    /// when a crowd is too dense to keep every full-horizon constraint: each step
    /// keeps centres at least (1 − this)·(rA + rB) apart whenever both agents keep
    /// their share. Zero forbids any overlap but lets a perfectly symmetric jam
    /// stall. [Limit: 0..0.5]
    double overlapTolerance = 0.05;
    /// Threads a call solves agents on: 0 = every hardware thread, 1 = the
    /// calling thread only. The answer is the same bits for every count; a
    /// call uses one thread per 128 agents at most (fewer agents cost more to
    /// hand out than to solve). The object keeps its threads asleep between
    /// calls. [Limit: 0..kMaxAvoidanceThreads]
    int threads = 0;
};

/// The defaults above.
AvoidanceDef defaultAvoidanceDef();

/// An agent on the plane.
struct AvoidanceAgent
{
    glm::dvec2 position{0.0, 0.0};  ///< Centre. [Limit: |x|,|y| <= kMaxAvoidanceCoordinate] [Units: m]
    glm::dvec2 velocity{0.0, 0.0};  ///< Velocity it had. [Limit: |v| <= kMaxAvoidanceSpeed] [Units: m/s]
    glm::dvec2 preferred{0.0, 0.0}; ///< Velocity it wants. [Limit: |v| <= kMaxAvoidanceSpeed] [Units: m/s]
    double radius = 0.5;            ///< [Limit: kMinAvoidanceRadius..kMaxAvoidanceRadius] [Units: m]
    double maxSpeed = 2.0;          ///< No output is faster. [Limit: 0..kMaxAvoidanceSpeed] [Units: m/s]
    double priority = 1.0;          ///< Each of a pair takes other / (sum) of the avoidance. [Limit: > 0, <= kMaxAvoidancePriority]
    uint32_t id = 0;                ///< Tie-break in neighbour order (then the index).
    uint32_t layers = 0;            ///< Bits this agent is on.
    uint32_t ignores = 0;           ///< An agent ignores another when `ignores & other.layers` != 0.
    int maxNeighbors = 0;           ///< Most neighbours this agent avoids; 0 = the definition's. [Limit: 0..def.maxNeighbors]
};

/// The obstacles one agent avoids: `obstacles[first .. first + count)` of the call.
struct ObstacleRange
{
    uint32_t first = 0; ///< Index of the first obstacle.
    uint32_t count = 0; ///< Number of obstacles.
};

/// Shape of a 2D obstacle.
enum class ObstacleShape : uint8_t
{
    Circle,  ///< `center`, `radius`.
    Segment, ///< `points` holds exactly 2 distinct points; both sides block.
    Polygon, ///< `points` holds >= 3 points, counter-clockwise (positive area).
};

/// A 2D obstacle, still or moving; agents take the whole avoidance of it.
/// `points` is caller-owned and read during `avoid` only.
struct AvoidanceObstacle
{
    ObstacleShape shape = ObstacleShape::Circle; ///< Which fields are used.
    glm::dvec2 center{0.0, 0.0};                 ///< Circle centre. [Units: m]
    double radius = 0.0;                         ///< Circle radius. [Limit: > 0, <= kMaxAvoidanceCoordinate] [Units: m]
    std::span<const glm::dvec2> points;          ///< Segment or polygon points. [Units: m]
    glm::dvec2 velocity{0.0, 0.0};               ///< Its velocity. [Limit: |v| <= kMaxAvoidanceSpeed] [Units: m/s]
};

/// A flier (3D agent); fields as `AvoidanceAgent`.
struct AvoidanceAgent3D
{
    glm::dvec3 position{0.0, 0.0, 0.0};  ///< Centre. [Units: m]
    glm::dvec3 velocity{0.0, 0.0, 0.0};  ///< Velocity it had. [Units: m/s]
    glm::dvec3 preferred{0.0, 0.0, 0.0}; ///< Velocity it wants. [Units: m/s]
    double radius = 0.5;                 ///< [Limit: kMinAvoidanceRadius..kMaxAvoidanceRadius] [Units: m]
    double maxSpeed = 2.0;               ///< [Limit: 0..kMaxAvoidanceSpeed] [Units: m/s]
    double priority = 1.0;               ///< [Limit: > 0, <= kMaxAvoidancePriority]
    uint32_t id = 0;                     ///< Tie-break in neighbour order.
    uint32_t layers = 0;                 ///< Bits this agent is on.
    uint32_t ignores = 0;                ///< Ignores agents whose layers share a bit.
};

/// A sphere obstacle for fliers, still or moving.
struct AvoidanceSphere
{
    glm::dvec3 center{0.0, 0.0, 0.0};   ///< [Units: m]
    double radius = 1.0;                ///< [Limit: > 0, <= kMaxAvoidanceCoordinate] [Units: m]
    glm::dvec3 velocity{0.0, 0.0, 0.0}; ///< [Limit: |v| <= kMaxAvoidanceSpeed] [Units: m/s]
};

/// Owns the scratch buffers (neighbour grid, constraint lists) and the threads
/// reused by every call, so a call allocates nothing once the capacities are
/// reached. Not thread-safe: one caller at a time (the object runs its own threads).
class Avoidance
{
public:
    Avoidance(Avoidance&&) noexcept;
    Avoidance& operator=(Avoidance&&) noexcept;
    ~Avoidance();

    /// The definition it was created from.
    const AvoidanceDef& def() const;

    /// One step on the plane: writes a new velocity per agent to `outVelocities`
    /// (same size as `agents`). Errors (nothing written): `E_NAV_AVOIDANCE_INPUT`
    /// (a value past its limit, NaN, an empty, degenerate or clockwise polygon, a
    /// wrong output size; the field path names it, e.g. `/agents/3/radius`),
    /// `E_NAV_AVOIDANCE_LIMIT` (more agents, obstacles or points than the capacities).
    Status avoid(std::span<const AvoidanceAgent> agents, std::span<const AvoidanceObstacle> obstacles, double dt,
                 std::span<glm::dvec2> outVelocities);

    /// As `avoid`, but agent i avoids only the obstacles of `perAgent[i]` (one
    /// range per agent): walls near each agent, pushed out by its own radius,
    /// as a crowd gathers them. Extra error: `E_NAV_AVOIDANCE_INPUT` for a range
    /// past the obstacles or a wrong number of ranges (`/perAgent/i`).
    Status avoid(std::span<const AvoidanceAgent> agents, std::span<const AvoidanceObstacle> obstacles,
                 std::span<const ObstacleRange> perAgent, double dt, std::span<glm::dvec2> outVelocities);

    /// One step in space for fliers: as `avoid`, with spheres as obstacles. A flier
    /// held back head-on sidesteps to its right (+Y up); one rising or falling
    /// straight at another sidesteps toward +X (rising) or −X (falling).
    Status avoid3D(std::span<const AvoidanceAgent3D> agents, std::span<const AvoidanceSphere> spheres, double dt,
                   std::span<glm::dvec3> outVelocities);

    struct Impl;

private:
    explicit Avoidance(std::unique_ptr<Impl> impl);
    friend Result<Avoidance> createAvoidance(const AvoidanceDef& def);
    std::unique_ptr<Impl> m_impl;
};

/// Validates `def` and creates the object. Errors: `E_NAV_AVOIDANCE_CONFIG`
/// (a field past its limit; the field path names it, e.g. `/maxNeighbors`).
Result<Avoidance> createAvoidance(const AvoidanceDef& def);

} // namespace spark::nav
SPARK_NAV_API_END
