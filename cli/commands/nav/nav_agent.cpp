// nav.agent.add, nav.agent.set, nav.agent.get, nav.agent.remove,
// nav.agent.list, nav.step: the crowds of the session's navigation world
// (docs/embedding.md). Agents are named at the surface by an opaque integer made from
// their handle (generation × 2^20 + index), so a removed agent's number is
// refused even when its slot is reused.

#include "commands/nav/nav_json.h"

#include "spark/core/hash.h"
#include "spark/nav/crowd.h"
#include "spark/nav/nav_world.h"

#include <cmath>

namespace spark::cli
{
/// This file's own namespace: the unity build puts several command files in one
/// translation unit, where their unnamed namespaces would be one.
namespace nav_agent_commands
{
namespace
{

using namespace navjson;

uint64_t agentNumber(nav::AgentId id)
{
    return handleNumber(id);
}

/// The agent a command names; `E_NAV_UNKNOWN_AGENT` at /agent when there is none.
nav::AgentId requireAgent(const nav::NavWorld& world, const json& params)
{
    const uint64_t n = params.at("agent").get<uint64_t>();
    const nav::AgentId id = handleFromNumber<nav::AgentTag>(n);
    if (!world.agent(id))
        fail("E_NAV_UNKNOWN_AGENT", "there is no agent " + std::to_string(n) + " (never made, or removed)",
             {{"path", "/agent"}},
             otherKindHint(n, kHandleKind<nav::AgentTag>, "nav.agent.list shows the agents"));
    return id;
}

/// The settings fields of the params over `def`.
nav::CrowdAgentDef defFromParams(nav::CrowdAgentDef def, const json& params)
{
    def.radius = params.value("radius", def.radius);
    def.height = params.value("height", def.height);
    def.maxSpeed = params.value("max_speed", def.maxSpeed);
    def.maxAccel = params.value("max_accel", def.maxAccel);
    def.stopDistance = params.value("stop_distance", def.stopDistance);
    def.slowRadius = params.value("slow_radius", def.slowRadius);
    def.maxNeighbors = params.value("max_neighbors", def.maxNeighbors);
    def.priority = params.value("priority", def.priority);
    def.layers = params.value("layers", def.layers);
    def.ignores = params.value("ignores", def.ignores);
    def.repathDistance = params.value("repath_distance", def.repathDistance);
    return def;
}

json settingsJson(const nav::CrowdAgentDef& d)
{
    return {{"radius", floatJson(d.radius)},
            {"height", floatJson(d.height)},
            {"max_speed", floatJson(d.maxSpeed)},
            {"max_accel", floatJson(d.maxAccel)},
            {"stop_distance", floatJson(d.stopDistance)},
            {"slow_radius", floatJson(d.slowRadius)},
            {"max_neighbors", d.maxNeighbors},
            {"priority", floatJson(d.priority)},
            {"layers", d.layers},
            {"ignores", d.ignores},
            {"repath_distance", floatJson(d.repathDistance)}};
}

const std::string& meshNameOf(const nav::NavWorld& world, nav::MeshId mesh)
{
    return world.meshRecord(mesh)->name;
}

json summaryJson(const nav::NavWorld& world, nav::AgentId id)
{
    const nav::CrowdAgent& a = *world.agent(id);
    const bool is2d = world.mesh(a.mesh)->is2d();
    return {{"agent", agentNumber(id)},
            {"mesh", meshNameOf(world, a.mesh)},
            {"position", pointToJson(a.position, is2d)},
            {"state", std::string(nav::agentStateName(a.state))}};
}

/// A velocity from the params: [vx, vz] on a 2D mesh, [vx, vy, vz] on a 3D one.
glm::vec3 velocityFromJson(const json& j, bool is2d)
{
    return pointFromJson(j, is2d, "/velocity");
}

json navAgentAdd(Context& ctx, const json& params)
{
    const MeshRef mesh = requireMesh(ctx, params);
    nav::NavWorld& world = ctx.state.world.nav();
    const nav::NavMeshSettings& s = mesh.mesh.settings();
    nav::CrowdAgentDef def = nav::defaultCrowdAgentDef();
    if (s.agentRadius > 0.0f)
        def.radius = s.agentRadius;
    def.height = s.agentHeight;
    def = defFromParams(def, params);
    // At a position, or bound to an object of the 3D scene (as an AiAgent component).
    const bool hasEntity = params.contains("entity");
    if (hasEntity == params.contains("position"))
        fail("E_INVALID_PARAMS", "give position or entity (one of them)", {{"path", hasEntity ? "/entity" : "/position"}},
             "entity binds the agent to an object of the 3D scene; position puts it at a point");
    std::string entity;
    if (hasEntity)
    {
        entity = params.at("entity").get<std::string>();
        scene::World& space = ctx.state.world;
        if (!space.hasScene())
            fail("E_SCENE_NONE", "There is no 3D scene in this session.", {{"path", "/entity"}},
                 "entity names an object of the 3D scene: make or load one first");
        glm::dvec3 ground;
        if (!space.findObject(entity).valid() || !space.groundPosition(entity, ground))
            fail("E_SCENE_UNKNOWN_OBJECT", "there is no object named \"" + entity + "\"", {{"path", "/entity"}},
                 "space3d.list shows the objects");
        if (space.agents().count(entity))
            fail("E_INVALID_PARAMS", "the object \"" + entity + "\" has an agent already", {{"path", "/entity"}},
                 "nav.agent.list shows the agents");
        def.position = glm::vec3(ground);
    }
    else
        def.position = pointFromJson(params.at("position"), mesh.is2d, "/position");
    glm::vec3 target{0.0f};
    if (params.contains("target"))
    {
        // Checked before the agent exists, so a bad target adds nothing.
        target = pointFromJson(params.at("target"), mesh.is2d, "/target");
        if (!nav::findNearest(mesh.mesh, target, nav::agentSearchExtents(def)).ok())
            fail("E_NAV_OFF_MESH", "the target is not on the mesh", {{"path", "/target"}},
                 "nav.nearest finds the closest point of the mesh");
    }
    auto added = world.addAgent(mesh.id, def);
    if (!added.ok())
        failWith(added.error());
    if (hasEntity)
    {
        // Checked above (a scene, the object, no agent yet): cannot fail.
        const Status bound = ctx.state.world.bindAgent(entity, added.value());
        if (!bound.ok())
        {
            (void)world.removeAgent(added.value());
            failWith(bound.error());
        }
    }
    if (params.contains("target"))
        (void)world.setAgentTarget(added.value(), target); // on the mesh (checked), from a point on it
    json out = summaryJson(world, added.value());
    if (hasEntity)
        out["entity"] = entity;
    return out;
}

json navAgentSet(Context& ctx, const json& params)
{
    nav::NavWorld& world = ctx.state.world.nav();
    const nav::AgentId id = requireAgent(world, params);
    const nav::CrowdAgent& a = *world.agent(id);
    const bool is2d = world.mesh(a.mesh)->is2d();
    const int actions = params.contains("target") + params.contains("velocity") + params.contains("stop");
    if (actions > 1)
        fail("E_INVALID_PARAMS", "give at most one of target, velocity and stop",
             {{"path", params.contains("stop") ? "/stop" : "/velocity"}});
    // Validate everything before writing anything.
    nav::CrowdAgentDef def = defFromParams(a.def, params);
    const Status valid = nav::NavWorld::validateAgentDef(def);
    if (!valid.ok())
        failWith(valid.error());
    if (params.contains("target"))
    {
        const Status st = world.setAgentTarget(id, pointFromJson(params.at("target"), is2d, "/target"));
        if (!st.ok())
            failWith(st.error());
    }
    else if (params.contains("velocity"))
    {
        glm::vec3 v = velocityFromJson(params.at("velocity"), is2d);
        if (std::sqrt(v.x * v.x + v.z * v.z) > def.maxSpeed * 1.0001f)
            fail("E_INVALID_PARAMS", "the velocity is faster than max_speed", {{"path", "/velocity"}});
        // The def first, so the velocity is checked against the new max speed.
        (void)world.setAgentDef(id, def);
        const Status st = world.setAgentVelocity(id, v);
        if (!st.ok())
            failWith(st.error());
    }
    else if (params.contains("stop"))
        (void)world.stopAgent(id);
    (void)world.setAgentDef(id, def); // validated above: cannot fail
    return summaryJson(world, id);
}

json navAgentGet(Context& ctx, const json& params)
{
    const nav::NavWorld& world = ctx.state.world.nav();
    const nav::AgentId id = requireAgent(world, params);
    const nav::CrowdAgent& a = *world.agent(id);
    const bool is2d = world.mesh(a.mesh)->is2d();
    json corners = json::array();
    for (const nav::CorridorCorner& c : a.corners)
        corners.push_back(pointToJson(c.point, is2d));
    json out = summaryJson(world, id);
    out["reason"] = std::string(nav::agentReasonName(a.reason));
    out["blocked_for"] = floatJson(a.blockedFor);
    out["velocity"] = pointToJson(a.velocity, is2d);
    out["heading"] = pointToJson(glm::vec3(a.heading.x, 0.0f, a.heading.y), is2d);
    if (a.hasTarget)
        out["target"] = pointToJson(a.target, is2d);
    out["corners"] = std::move(corners);
    out["corridor"] = a.corridor.polygons.size();
    out["settings"] = settingsJson(a.def);
    if (a.leap.active)
        out["link"] = handleNumber(nav::NavWorld::linkOfKey(a.leap.hop.link));
    return out;
}

json navAgentRemove(Context& ctx, const json& params)
{
    nav::NavWorld& world = ctx.state.world.nav();
    const nav::AgentId id = requireAgent(world, params);
    const Status st = world.removeAgent(id);
    if (!st.ok())
        failWith(st.error());
    return {{"removed", agentNumber(id)}, {"agents", world.agentCount()}};
}

json navAgentList(Context& ctx, const json& params)
{
    const nav::NavWorld& world = ctx.state.world.nav();
    nav::MeshId only;
    if (params.contains("mesh"))
        only = requireMesh(ctx, params).id;
    json agents = json::array();
    for (nav::AgentId id : world.agentsInOrder())
        if (!only.valid() || world.agent(id)->mesh == only)
            agents.push_back(summaryJson(world, id));
    return {{"agents", std::move(agents)}};
}

json navStep(Context& ctx, const json& params)
{
    const int frames = params.value("frames", 1);
    const double dt = params.value("dt", 1.0 / 60.0);
    if (!std::isfinite(dt) || dt <= 0.0 || dt > 1.0)
        fail("E_INVALID_PARAMS", "dt must be a finite time in (0, 1] seconds", {{"path", "/dt"}});
    // The world's one step (brains, crowds, objects and physics), by `dt`.
    const Status st = ctx.state.world.stepFrames(static_cast<uint32_t>(frames), dt);
    if (!st.ok())
        failWith(st.error());
    const nav::NavWorld& world = ctx.state.world.nav();
    const nav::CrowdCounts c = world.crowdCounts();
    return {{"frames", frames},
            {"counts",
             {{"idle", c.idle}, {"moving", c.moving}, {"arrived", c.arrived}, {"no_path", c.noPath}, {"off_mesh", c.offMesh}}},
            {"hash", hashHex(world.hashState())}};
}

const Registrar kAdd{{"nav.agent.add", navAgentAdd, Mutates::Yes}};
const Registrar kSet{{"nav.agent.set", navAgentSet, Mutates::Yes, nullptr, {.idempotent = true}}};
const Registrar kGet{{"nav.agent.get", navAgentGet, Mutates::No}};
const Registrar kRemove{
    {"nav.agent.remove", navAgentRemove, Mutates::Yes, nullptr, {.destructive = true, .idempotent = true}}};
const Registrar kList{{"nav.agent.list", navAgentList, Mutates::No}};
const Registrar kStep{{"nav.step", navStep, Mutates::Yes}};

} // namespace
} // namespace nav_agent_commands
} // namespace spark::cli
