#pragma once
/// \file crowd.h
/// Crowd agents: the data a `NavWorld` keeps per agent, and the defs and
/// limits of the crowd the world steps (`NavWorld::addAgent`, `stepCrowds`).
///
/// Each step, per mesh in name order and per agent in handle order: the plan
/// queue is served (new targets and re-plans, first come first served,
/// within `NavWorld::setPlanNodesPerStep` search nodes a step; the rest wait,
/// standing, reason `waiting_for_plan`); a corridor
/// that a mesh change broke is re-planned (through the queue); an agent whose corridor runs into
/// a jam (polygons holding slow or standing agents) or that makes no headway
/// looks, on its turn, for a detour that charges jammed polygons more (a
/// bounded number of searches per step); the next corners give the steering
/// velocity (follow, arrive, stop); three traffic rules adjust it — an agent
/// walking into an arrived agent that shares its target has arrived too; of
/// two agents closing in on each other, the later in handle order (a stuck
/// agent comes before every agent that is not; unless its priority is the
/// higher) gives way, stepping back and to its right; an agent
/// meeting another that walks toward it keeps to its right. The walls near the
/// agent on its floor (found again after it moved a quarter of the range,
/// pushed out by its radius and cut back at outside corners) and up to
/// `maxNeighbors` neighbours go to ORCA (`Avoidance`); the change of velocity
/// is limited by `maxAccel` unless the limited velocity would bring two agents
/// closer than the avoidance allows within the step (then both take the
/// avoidance's velocity: separation before smoothness); the corridor moves
/// along the surface. The design note in src/crowd/crowd_phases.cpp (the
/// step as a list of phases) says why.
/// Agents that are arrived or idle stand still and are avoided by the others
/// (who take the whole avoidance).

#include "spark/core/id.h"
#include "spark/nav/corridor.h"
#include "spark/nav/query.h"

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "spark/core/export.h"
SPARK_NAV_API_BEGIN

namespace spark::nav
{

struct MeshTag;
struct AgentTag;

/// Most agents of one world. [Limit]
inline constexpr uint32_t kMaxCrowdAgents = 65536;
/// Most neighbours an agent avoids. [Limit]
inline constexpr int kMaxAgentNeighbors = 32;
/// Corners an agent looks ahead.
inline constexpr uint32_t kAgentCorners = 4;
/// Most threads a crowd step may run on (`NavWorld::setCrowdThreads`). [Limit]
inline constexpr int kMaxCrowdThreads = 256;
/// Search nodes each mesh's crowd may spend on corridor searches per step
/// (`NavWorld::setPlanNodesPerStep`) unless set: 2^24, far more than any
/// test scene or benchmark spends in one step (the determinism suite's
/// 1,000 agents given targets at once on the terrain spend 41,756), so
/// every request is served in the step it was made for; one search may make
/// up to 2^22 (the any-angle search's own bound).
inline constexpr uint32_t kDefaultPlanNodesPerStep = uint32_t(1) << 24;
/// Largest node budget per step (`NavWorld::setPlanNodesPerStep`). [Limit]
inline constexpr uint32_t kMaxPlanNodesPerStep = uint32_t(1) << 30;

/// What an agent is doing.
enum class AgentState : uint8_t
{
    Idle,    ///< No target.
    Moving,  ///< Following its corridor (or a velocity set by hand).
    Arrived, ///< Within `stopDistance` of its target, or stopped against an arrived agent sharing its target.
    NoPath,  ///< Its target cannot be reached from where it stands.
    OffMesh, ///< It stands where no polygon is (the mesh changed under it).
};

/// Text of a state, as the commands write it: idle, moving, arrived, no_path, off_mesh.
std::string_view agentStateName(AgentState state);

/// Why an agent is in its state.
enum class AgentReason : uint8_t
{
    None,            ///< Nothing to say (idle, arrived, or walking freely).
    Unreachable,     ///< no_path: no route from where it stands to its target.
    OffMesh,         ///< off_mesh: no polygon within its reach (the mesh changed under it).
    ZeroSpeed,       ///< no_path: it has a target but a max speed of 0.
    LinkTooSlow,     ///< no_path: its route takes an off-mesh link it would cross for longer than `kMaxLeapSeconds`.
    OnLink,          ///< moving: crossing an off-mesh link.
    BlockedByAgents, ///< moving: no headway for `kStuckSeconds` or longer (`CrowdAgent::blockedFor`), agents touching it.
    NoHeadway,       ///< moving: no headway for `kStuckSeconds` or longer with no agent touching it (walls, its own settings).
    MakingWay,       ///< moving: it had arrived and steps aside for a passing agent; it walks back to its target after.
    WaitingForPlan,  ///< moving: its corridor search waits in the plan queue (a new target, or a re-plan past the step's node budget); it stands meanwhile.
};

/// Text of a reason, as the commands write it: none, unreachable,
/// off_mesh, zero_speed, link_too_slow, on_link, blocked_by_agents, no_headway,
/// making_way, waiting_for_plan.
std::string_view agentReasonName(AgentReason reason);

/// Longest crossing of an off-mesh link an agent starts (a slower link is
/// refused: the agent stops in no_path / link_too_slow). [Units: s]
inline constexpr float kMaxLeapSeconds = 600.0f;
/// An agent that has not got `kStuckReach` × its radius away from where it
/// stood this long is stuck (reason blocked_by_agents, a `stuck` event). [Units: s]
inline constexpr float kStuckSeconds = 2.0f;
/// How far (in its radii) an agent must get to count as headway.
inline constexpr float kStuckReach = 1.0f;

/// What happened to an agent in a step (`NavWorld::crowdEvents`).
enum class CrowdEventKind : uint8_t
{
    Stuck,     ///< It became stuck (made no headway for `kStuckSeconds`).
    Unstuck,   ///< It made headway again after being stuck.
    Relocated, ///< Its body was found away from it (a failed jump, a fall): it was placed there and planned again.
};

/// Text of an event kind: stuck, unstuck, relocated.
std::string_view crowdEventName(CrowdEventKind kind);

/// How an agent is made (and changed).
struct CrowdAgentDef
{
    glm::vec3 position{0.0f};   ///< Where it starts (snapped onto the mesh). [Units: m]
    float radius = 0.4f;        ///< [Limit: > 0, <= 100] [Units: m]
    float height = 1.8f;        ///< [Limit: > 0, <= 100] [Units: m]
    float maxSpeed = 3.5f;      ///< [Limit: 0..100] [Units: m/s]
    float maxAccel = 8.0f;      ///< Largest change of velocity per second. [Limit: > 0, <= 1000] [Units: m/s²]
    float stopDistance = 0.2f;  ///< Within this of the target it has arrived. [Limit: 0..100] [Units: m]
    float slowRadius = 1.5f;    ///< It slows down linearly within this of the target. [Limit: 0..1000] [Units: m]
    int maxNeighbors = 10;      ///< Most neighbours it avoids. [Limit: 1..kMaxAgentNeighbors]
    float priority = 1.0f;      ///< Share of avoidance: each of a pair takes other / (sum). [Limit: > 0, <= 1e6]
    uint32_t layers = 0;        ///< Bits it is on.
    uint32_t ignores = 0;       ///< It ignores agents whose layers share a bit.
    float repathDistance = 0.5f; ///< A target moved further than this is planned again. [Limit: 0..1e6] [Units: m]
};

/// The defaults above.
CrowdAgentDef defaultCrowdAgentDef();

/// The box within which an agent's position and targets are found on the mesh:
/// radius × 2 + 0.5 m horizontally, its height vertically. [Units: m]
glm::vec3 agentSearchExtents(const CrowdAgentDef& def);

/// One agent of a world.
struct CrowdAgent
{
    Id<MeshTag> mesh;                       ///< The mesh it walks.
    CrowdAgentDef def;                      ///< Its settings (`position` is where it was added).
    glm::vec3 position{0.0f};               ///< Where it is. [Units: m]
    glm::vec3 velocity{0.0f};               ///< Its velocity after the last step. [Units: m/s]
    glm::vec3 desired{0.0f};                ///< The velocity steering wanted in the last step. [Units: m/s]
    AgentState state = AgentState::Idle;    ///< What it is doing.
    bool hasTarget = false;                 ///< A target was set.
    glm::vec3 target{0.0f};                 ///< The target asked for. [Units: m]
    glm::vec3 plannedTarget{0.0f};          ///< The target the corridor was planned to.
    bool manualVelocity = false;            ///< Moving at `manual` instead of following a corridor.
    glm::vec3 manual{0.0f};                 ///< The velocity set by hand. [Units: m/s]
    Corridor corridor;                      ///< From `position` to the target (one polygon when idle).
    uint32_t corridorGeneration = 0;        ///< Polygon generation of the mesh the corridor was made on.
    std::vector<CorridorCorner> corners;    ///< The corners of the last step.
    glm::vec3 wallCenter{0.0f};             ///< Where the walls were last gathered.
    uint32_t wallGeneration = 0;            ///< Polygon generation they were gathered on (0: never).
    std::vector<glm::dvec2> walls;          ///< Wall segments (pairs of points), pushed out by the radius.
    /// An off-mesh link being crossed: the agent follows it (a jump's arc
    /// over the line, a drop down it) at the link's speed, unseen by the
    /// avoidance, then lands, finds its polygon and plans again.
    struct Leap
    {
        bool active = false;     ///< Crossing now.
        CorridorHop hop;         ///< The link: take-off, landing, speed, kind.
        float time = 0.0f;       ///< Time on the link so far. [Units: s]
        float duration = 0.0f;   ///< Time the crossing takes. [Units: s]
    } leap;
    uint32_t linkGeneration = 0;            ///< The mesh's link generation the corridor was planned with.
    AgentReason reason = AgentReason::None; ///< Why it is in its state.
    /// Unit direction it faces (x, z): that of its last velocity faster than
    /// 0.1 m/s, +z until it moved. Derived: nothing in the step reads it.
    glm::vec2 heading{0.0f, 1.0f};
    glm::vec3 anchor{0.0f};                 ///< Where it stood when it last made headway. [Units: m]
    float blockedFor = 0.0f;                ///< Time since it last made headway while moving. [Units: s]
    bool stuck = false;                     ///< `blockedFor` >= `kStuckSeconds`.
    bool replan = false;                    ///< Plan its corridor again at the next step (relocated, given speed).
    /// Its place in the plan queue: 0 = no request; else the world's request
    /// count when it asked (`NavWorldState::planRequests`): smaller is served first.
    uint64_t planTicket = 0;
    /// The request waiting is a new order (`setAgentTarget`: the state and
    /// headway start again when served), not a re-plan of the same one.
    bool planFresh = false;
};

/// An agent within this of a link's take-off (x–z) starts the leap. [Units: m]
inline constexpr float kLinkTakeoffReach = 0.3f;

/// Wall `k` of `walls` (as `findWalls` gives them) as a two-point obstacle for
/// an agent of radius `radius`: moved out along its normal by the radius and,
/// at an end where the boundary turns round an outside corner (another of
/// `walls` shares the end and runs off to this wall's outer side), cut back to
/// where the two moved walls meet, so the obstacles keep the agent's centre on
/// the walls' side of the mesh without blocking the corner. False for a wall
/// of no length or one the cuts use up (skip it). [Units: m]
bool wallObstacle(std::span<const WallHit> walls, size_t k, double radius, glm::dvec2& out0,
                  glm::dvec2& out1);

/// Working memory of the crowd steps (not state: `NavWorld` keeps one and
/// reuses it, so a step allocates nothing once it has grown to the crowd): the
/// crowd of each mesh stepped, with its per-agent arrays. What it holds is
/// libnav's own (`libnav/src/crowd/crowd_phases.h`); a copy starts empty.
class CrowdStepScratch
{
public:
    struct Data; ///< The crowds of the meshes (internal to libnav).

    CrowdStepScratch();
    ~CrowdStepScratch();
    CrowdStepScratch(const CrowdStepScratch&);
    CrowdStepScratch& operator=(const CrowdStepScratch&);

    /// The arrays (for libnav's crowd step).
    Data& data() { return *m_data; }

private:
    std::unique_ptr<Data> m_data;
};

} // namespace spark::nav
SPARK_NAV_API_END
