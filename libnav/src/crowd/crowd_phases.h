#pragma once
/// \file crowd_phases.h
/// The crowd of one mesh (private to libnav): its step as a list of named
/// phases (crowd_phases.cpp has the design note), and the working memory
/// they share. `NavWorld` keeps one `Crowd` per mesh it steps (in its
/// `CrowdStepScratch`) and calls `step` for the meshes in name order.
///
/// Threads: the per-agent phases (plan's searches, steer, walls, make way,
/// keep right, the move along the surface) run on up to `threads` workers
/// (the avoidance's `WorkerPool`); each agent's work reads the step's inputs
/// and that agent and writes only that agent (and its entries of
/// `CrowdStepData`), so the result is the same bits for every thread count.
/// The phases whose agents read what others wrote in the same phase (arrival
/// against the arrived, give way, the detour budget, the acceleration limit's
/// checks, hold back, headway events) run on one thread in handle order.

#include "../avoidance/worker_pool.h"
#include "crowd_step_scratch.h"
#include "spark/nav/nav_world.h"

#include <cmath>
#include <memory>
#include <optional>
#include <vector>

namespace spark::nav
{

/// What one crowd step reads besides its agents: fixed for the step.
struct CrowdStepInputs
{
    NavWorld* world = nullptr;     ///< The world stepped (its agents, events, corridor checks).
    const NavMesh* mesh = nullptr; ///< The current mesh.
    uint32_t generation = 0;       ///< The mesh's polygon generation.
    uint32_t linkGeneration = 0;   ///< The mesh's link generation.
    uint64_t step = 0;             ///< The world's crowd step count (detour turns).
    double dt = 0.0;               ///< The step. [Units: s]
    QueryFilter filter;            ///< The agents' query filter.
    uint32_t planBudget = kDefaultPlanNodesPerStep; ///< Search nodes the plan queue may spend (`NavWorld::setPlanNodesPerStep`).
};

/// What one worker of a per-agent phase uses (its own: workers share only the step's inputs).
struct CrowdWorker
{
    QueryScratch scratch;          ///< Searches, corners, walls, moves.
    std::vector<WallHit> wallHits; ///< `findWalls`' answer.
};

/// Starts an agent's headway clock again (a new order, an arrival, a stop).
void resetHeadway(CrowdAgent& a);

/// Horizontal distance (x, z). [Units: m]
inline float distXZ(const glm::vec3& a, const glm::vec3& b)
{
    const float dx = a.x - b.x, dz = a.z - b.z;
    return std::sqrt(dx * dx + dz * dz);
}

/// The crowd of one mesh.
class Crowd
{
public:
    explicit Crowd(MeshId mesh) : m_mesh(mesh) {}
    Crowd(const Crowd&) = delete;
    Crowd& operator=(const Crowd&) = delete;

    /// The mesh whose agents it steps.
    MeshId mesh() const { return m_mesh; }
    /// Threads its per-agent phases and its avoidance run on (0: every
    /// hardware thread). The result does not depend on it.
    void setThreads(int threads);
    /// Makes what the steps use on first need (the avoidance). Errors: those of `createAvoidance`.
    [[nodiscard]] Status prepare();
    /// One step of the mesh's agents (after `prepare`): the phases below, in this order.
    void step(const CrowdStepInputs& in);

    // -- The phases, in step order ------------------------------------------

    /// Agents on an off-mesh link follow it, and on landing plan on.
    void followLinks(const CrowdStepInputs& in);
    /// The step's agents (handle order, not on a link), looked up once, and the congestion.
    void gatherAgents(const CrowdStepInputs& in);
    /// A corridor a mesh change broke (or a relocated or stuck agent's) joins
    /// the plan queue (found again per agent, queued in handle order);
    /// `servePlans`; then, in handle order within the step's budget, detours round jams.
    void plan(const CrowdStepInputs& in);
    /// The plan queue of the mesh's agents (new targets, re-plans, landings),
    /// first come first served (`CrowdAgent::planTicket`) within what is
    /// left of the step's node budget (`CrowdStepInputs::planBudget`); the
    /// rest wait for the next step. `step` calls it first (the targets set
    /// since the last step, before the agents are gathered and the jams
    /// measured, as when `setAgentTarget` planned at once) and again in
    /// `plan` (the re-plans found there, and landings).
    void servePlans(const CrowdStepInputs& in);
    /// Corners → the steering velocity; arrival, link take-off, zero speed (per agent).
    void steerAgents(const CrowdStepInputs& in);
    /// The walls near each agent, gathered again after it moved (per agent).
    void gatherWalls(const CrowdStepInputs& in);
    /// The neighbour grids and each agent's near list.
    void findNeighbours(const CrowdStepInputs& in);
    /// Arrival against the arrived, make way, give way, keep right: the preferred velocities.
    void applyTrafficRules(const CrowdStepInputs& in);
    /// ORCA for the whole mesh, each agent with its own walls.
    void avoid(const CrowdStepInputs& in);
    /// The acceleration limit, unless it would bring a pair too near.
    void limitAcceleration(const CrowdStepInputs& in);
    /// The move along the surface, and separation before motion.
    void moveAlongSurface(const CrowdStepInputs& in);
    /// Heading, and headway: stuck and unstuck.
    void trackHeadway(const CrowdStepInputs& in);

    /// Plan requests the last `servePlans` left waiting (for the step's stats).
    uint32_t planLeft() const { return m_planLeft; }

    /// The per-agent arrays (tests read them between phases).
    const CrowdStepData& data() const { return m_data; }

private:
    /// Calls job(worker, i) for every agent i in [0, n), on the workers
    /// `threads` allows, chunks of agents handed out in turn: a per-agent
    /// phase. Which worker does an agent changes only the work.
    template <class Job> void forEachAgent(size_t n, const Job& job);
    /// The threads `threads` asks for: the setting, or the hardware's (at least 1).
    unsigned threadsWanted() const;
    /// The worker of the one-thread phases.
    CrowdWorker& mainWorker() { return *m_workers.front(); }
    CrowdAgent& agentAt(size_t i) { return *m_data.agents[i]; }

    MeshId m_mesh;
    int m_threads = 0;
    CrowdStepData m_data;
    std::vector<AgentId> m_stepAgents;
    std::vector<PathLink> m_links; ///< The mesh's links, for the searches.
    std::optional<Avoidance> m_avoidance;
    std::vector<AvoidanceAgent> m_avoidAgents;
    std::vector<AvoidanceObstacle> m_avoidObstacles;
    std::vector<ObstacleRange> m_avoidRanges;
    std::vector<glm::dvec2> m_avoidVelocities;
    std::vector<std::unique_ptr<CrowdWorker>> m_workers;
    detail::WorkerPool m_pool;
    double m_maxRadius = 0.0, m_maxSpeed = 0.0; ///< Of the step's agents.
    double m_guardRatio = 1.0;                  ///< 1 − the avoidance's overlap tolerance.
    // The plan queue of a step: the agents waiting (ticket order), and one
    // search's answer per request of the batch being searched.
    std::vector<CrowdAgent*> m_planQueue;
    std::vector<Corridor> m_planned;
    std::vector<uint32_t> m_planNodes;
    std::vector<uint8_t> m_planOutcome;
    uint64_t m_planSpent = 0; ///< Nodes the step's plan queue has spent.
    uint32_t m_planLeft = 0;  ///< Requests the last `servePlans` left waiting.
};

/// What a `CrowdStepScratch` holds: the crowd of each mesh stepped.
struct CrowdStepScratch::Data
{
    std::vector<std::unique_ptr<Crowd>> crowds; ///< One per mesh, in the order they were first stepped.
    std::vector<Crowd*> stepped;                ///< Those of a step, in the meshes' name order.
};

} // namespace spark::nav
