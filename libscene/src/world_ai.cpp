// The AI stages of the runtime world's step (docs/architecture.md "A step"), in their fixed order:
//   1. AiAgent components become crowd agents with brains (the first step at
//      which their mesh and their tree or utility document exist; keyed by the
//      object's name) and agents whose object or component is gone are removed;
//   2. obstacles that follow an object move to it;
//   3. agents learn where their objects really are (a character's feet, moved
//      by the physics, pull the crowd agent along the mesh);
//   4. brains tick, in agent-name order, every `period` steps;
//   5. crowds steer, in mesh-name order (headings follow the movement);
//   6. characters get the crowd's velocity (and one jump press when a jump
//      link starts); other objects get the agent's position as their transform.
// The physics stage follows (world_physics.cpp).

#include "spark/scene/world.h"

#include <cmath>

namespace spark::scene
{
namespace
{

bool drivesCharacter(const Object3D& o)
{
    const AgentDrive drive = o.aiAgent ? o.aiAgent->drive : AgentDrive::Auto;
    return o.characterController.has_value() && drive != AgentDrive::Transform;
}

uint64_t seedOf(std::string_view name)
{
    Hasher h;
    h.addString("brain-seed/1");
    h.addString(name);
    return h.digest();
}

} // namespace

bool World::groundPosition(std::string_view name, glm::dvec3& out) const
{
    const Object3D* o = object(findObject(name));
    if (!o)
        return false;
    out = o->transform ? glm::dvec3(o->transform->position) : glm::dvec3(0.0);
    if (o->characterController)
        out.y -= 0.5 * static_cast<double>(o->characterController->height);
    return true;
}

bool World::lineOfSight(std::string_view self, const glm::dvec3& from, const glm::dvec3& to) const
{
    const ObjectId selfId[1] = {findObject(self)};
    auto hit = raycast(glm::vec3(from), glm::vec3(to), std::span<const ObjectId>(selfId, selfId[0].valid() ? 1 : 0));
    if (!hit.ok())
        return false;
    if (!hit.value().hit)
        return true;
    // The body at `to` (the target's own) does not hide it.
    const uint32_t* index = m_objects.positions.get(hit.value().object);
    const uint32_t slot = index ? m_movingOf[*index] : UINT32_MAX;
    if (slot == UINT32_MAX)
        return false;
    physics::Shape probe;
    probe.kind = physics::CoreKind::Point;
    probe.center = to;
    return physics::shapeGap(probe, m_collision.movingColliders()[slot].shape).gap <= 0.05;
}

AiHost World::aiHost()
{
    // Without objects there is no physics to look through: the mesh's walls block the view.
    return AiHost(m_nav, m_agents, m_objects.order.empty() ? nullptr : this);
}

StepAiFigures World::takeStepAiFigures()
{
    const StepAiFigures out = m_figures;
    m_figures = {};
    return out;
}

void World::pushSceneEvent(std::string kind, std::string object, std::string message)
{
    if (m_events.size() >= kMaxSceneEvents)
        m_events.erase(m_events.begin());
    m_events.push_back({m_nextEventSeq++, m_frame, std::move(kind), std::move(object), std::move(message)});
}

void World::createAgentsFromComponents()
{
    // Removed: the object, its component or its crowd agent is gone.
    for (auto it = m_agents.begin(); it != m_agents.end();)
    {
        const Object3D* o = object(findObject(it->first));
        const bool crowdGone = m_nav.agent(it->second.agent) == nullptr;
        if (crowdGone || (it->second.fromComponent && (!o || !o->aiAgent)) || (it->second.bound && !o))
        {
            (void)m_nav.removeAgent(it->second.agent);
            m_ai.brains.erase(it->first);
            pushSceneEvent("agent_removed", it->first,
                           crowdGone ? "its crowd agent is gone (the mesh was removed)" : "its object or AiAgent is gone");
            it = m_agents.erase(it);
            continue;
        }
        ++it;
    }
    // Created, in document order, once their mesh and document exist.
    const auto& objects = m_objects.document.objects;
    for (size_t i = 0; i < objects.size(); ++i)
    {
        const Object3D& o = objects[i];
        if (!o.aiAgent || m_agents.count(o.name))
            continue;
        const AiAgent& c = *o.aiAgent;
        const nav::MeshId mesh = m_nav.findMesh(c.mesh);
        if (!mesh.valid())
            continue;
        if ((c.tree && !m_ai.trees.count(*c.tree)) || (c.utility && !m_ai.utilities.count(*c.utility)))
            continue;
        const nav::NavMeshSettings& settings = m_nav.mesh(mesh)->settings();
        nav::CrowdAgentDef def = nav::defaultCrowdAgentDef();
        if (settings.agentRadius > 0.0f)
            def.radius = settings.agentRadius;
        def.height = settings.agentHeight;
        if (o.characterController)
        {
            def.radius = o.characterController->radius;
            def.height = o.characterController->height;
        }
        def.radius = c.radius.value_or(def.radius);
        def.height = c.height.value_or(def.height);
        def.maxSpeed = c.maxSpeed.value_or(def.maxSpeed);
        def.maxAccel = c.maxAccel.value_or(def.maxAccel);
        def.stopDistance = c.stopDistance.value_or(def.stopDistance);
        glm::dvec3 ground;
        (void)groundPosition(o.name, ground);
        def.position = glm::vec3(ground);
        auto added = m_nav.addAgent(mesh, def);
        if (!added.ok())
            continue; // not on the mesh (yet): tried again next step
        if (c.tree || c.utility)
        {
            ai::BrainDef brain = ai::defaultBrainDef();
            brain.agent = o.name;
            brain.agentKey = agentKey(added.value());
            brain.tree = c.tree.value_or("");
            brain.utility = c.utility.value_or("");
            brain.period = c.period;
            brain.blackboard = ai::blackboardFromJson(c.blackboard);
            brain.seed = seedOf(o.name);
            if (!ai::attachBrain(m_ai, brain, m_frame).ok())
            {
                (void)m_nav.removeAgent(added.value());
                continue;
            }
        }
        HostAgent h;
        h.agent = added.value();
        h.fromComponent = true;
        if (!drivesCharacter(o))
        {
            const double centreY = o.transform ? static_cast<double>(o.transform->position.y) : 0.0;
            h.lift = centreY - static_cast<double>(m_nav.agent(h.agent)->position.y);
        }
        adoptAgent(o.name, h);
        pushSceneEvent("agent_created", o.name, "on mesh " + c.mesh);
    }
}

void World::adoptAgent(std::string_view name, const HostAgent& agent)
{
    m_agents.emplace(std::string(name), agent);
    // A brain of that name follows the agent that now has it (brains are named by their agent).
    if (ai::Brain* brain = m_ai.brains.findBrain(name))
        brain->agentKey = agentKey(agent.agent);
}

Status World::bindAgent(std::string_view name, nav::AgentId agent)
{
    const Object3D* o = object(findObject(name));
    if (!o)
        return makeError("E_SCENE_UNKNOWN_OBJECT", "there is no object named \"" + std::string(name) + "\"", "/entity");
    if (m_agents.count(name))
        return makeError("E_INVALID_PARAMS", "the object has an agent already", "/entity",
                         "nav.agent.list shows the agents; remove its agent first");
    const nav::CrowdAgent* a = m_nav.agent(agent);
    if (!a)
        return makeError("E_NAV_UNKNOWN_AGENT", "no such agent (the handle is stale)", "/agent");
    HostAgent h;
    h.agent = agent;
    h.bound = true;
    if (!drivesCharacter(*o))
    {
        const double centreY = o->transform ? static_cast<double>(o->transform->position.y) : 0.0;
        h.lift = centreY - static_cast<double>(a->position.y);
    }
    adoptAgent(name, h);
    pushSceneEvent("agent_created", std::string(name), "by nav.agent.add");
    return Status::success();
}

void World::moveFollowingObstacles()
{
    for (nav::ObstacleId id : m_nav.obstaclesInOrder())
    {
        const nav::WorldObstacle* obstacle = m_nav.obstacle(id);
        if (obstacle->def.follow.empty())
            continue;
        glm::dvec3 at;
        if (!groundPosition(obstacle->def.follow, at))
            continue;
        const glm::vec3 p(at);
        if (p != obstacle->def.position)
            (void)m_nav.moveObstacle(id, p);
    }
}

void World::readAgentPositions()
{
    for (const auto& [name, h] : m_agents)
    {
        const Object3D* o = object(findObject(name));
        if (!o || !drivesCharacter(*o))
            continue;
        glm::dvec3 feet;
        (void)groundPosition(name, feet);
        (void)m_nav.placeAgent(h.agent, glm::vec3(feet));
    }
}

void World::tickBrains(double dt)
{
    if (m_ai.brains.empty())
        return;
    // Brains are only ever disabled by a tick, never removed by one: compare in walk order.
    uint64_t ticksBefore = 0;
    m_enabledBefore.clear();
    for (const ai::Brain& brain : std::as_const(m_ai.brains))
    {
        ticksBefore += brain.ticks;
        m_enabledBefore.push_back(brain.enabled ? 1 : 0);
    }
    const uint64_t eventsBefore = m_ai.events.nextSeq;
    AiHost host = aiHost();
    ai::stepBrains(m_ai, host, ai::TickClock{m_frame, dt}, m_leaves ? *m_leaves : ai::builtinLeafRegistry());
    uint64_t ticksAfter = 0;
    size_t i = 0;
    for (const ai::Brain& brain : std::as_const(m_ai.brains))
    {
        ticksAfter += brain.ticks;
        if (m_enabledBefore[i++] && !brain.enabled)
            pushSceneEvent("ai_error", brain.agent, brain.error.code + ": " + brain.error.message);
    }
    m_figures.brainsTicked += ticksAfter - ticksBefore;
    m_figures.events += m_ai.events.nextSeq - eventsBefore;
}

void World::steerCrowds(double dt)
{
    if (m_nav.agentCount() == 0)
        return;
    (void)m_nav.stepCrowds(dt);
    updateHeadings(m_nav, m_agents);
    recordCrowdEvents(m_nav, m_agents, m_ai.events, m_frame, dt);
}

void World::driveObjects(double)
{
    for (auto& [name, h] : m_agents)
    {
        if (!h.fromComponent && !h.bound)
            continue;
        const ObjectId id = findObject(name);
        const uint32_t* index = m_objects.positions.get(id);
        const nav::CrowdAgent* a = m_nav.agent(h.agent);
        if (!index || !a)
            continue;
        Object3D& o = m_objects.document.objects[*index];
        const bool startsLeap = a->leap.active && !h.leaping;
        h.leaping = a->leap.active;
        if (drivesCharacter(o))
        {
            physics::CharacterMotion& m = m_objects.motion[*index].character;
            m.wanted = glm::dvec3(a->velocity.x, 0.0, a->velocity.z);
            if (startsLeap && a->leap.hop.kind == nav::OffMeshKind::Jump)
                m.jump = true;
            continue;
        }
        // The agent walks on the mesh; the object's centre keeps its height above it.
        Transform3D t = o.transform.value_or(Transform3D{});
        const glm::vec3 centre(a->position.x, static_cast<float>(a->position.y + h.lift), a->position.z);
        if (t.position == centre)
            continue;
        t.position = centre;
        o.transform = t;
        m_objects.stale[*index] = 1;
        if (o.body && o.body->kind == BodyKind::Fixed && !o.body->sensor)
            m_staticDirty = true;
        m_movingDirty = true;
    }
}

} // namespace spark::scene
