// ai.brain.attach/detach/get, ai.blackboard.set/get, ai.events, ai.assert,
// ai.step, ai.until: brains on agents and the AI as part of the stepping
// world (docs/ai.md "Brains", "Stepping, hashes and scenarios"). libai runs the brains, libscene hosts
// them (scene::World's AI stages) and evaluates conditions (ai_assert.h);
// these handlers translate.
//
// Agents are named: by the object's name (AiAgent components become agents by
// themselves); any crowd agent can also be named by the number nav.agent.add
// answered, which ai.brain.attach adopts.

#include "commands/nav/nav_json.h"
#include "surface/registry.h"

#include "spark/ai/brain.h"
#include "spark/core/hash.h"
#include "spark/core/work.h"
#include "spark/nav/crowd.h"
#include "spark/scene/ai_assert.h"
#include "spark/scene/ai_host.h"
#include "spark/scene/world.h"

#include <string>

namespace spark::cli
{
/// This file's own namespace: the unity build puts several command files in one
/// translation unit, where their unnamed namespaces would be one.
namespace ai_brain_commands
{
namespace
{

using scene::HostAgents;

std::string agentName(const json& v) { return v.is_string() ? v.get<std::string>() : std::to_string(v.get<uint64_t>()); }

uint64_t clockFrame(const Context& ctx) { return ctx.state.world.frame(); }

[[noreturn]] void unknownAgent(const std::string& name, const char* what)
{
    fail("E_AI_UNKNOWN", std::string("no ") + what + " named \"" + name + "\"", {{"path", "/agent"}},
         "objects with an AiAgent component become agents once their mesh and tree exist; nav.agent.add answers "
         "an agent number; ai.brain.attach gives an agent a brain");
}

/// The crowd agent a name refers to: a named agent, else a crowd agent's number (null-generation when none).
nav::AgentId resolveAgent(Context& ctx, const std::string& name)
{
    const HostAgents& agents = ctx.state.world.agentsForBrains();
    if (auto it = agents.find(name); it != agents.end() && ctx.state.world.nav().agent(it->second.agent))
        return it->second.agent;
    // A crowd agent's number, written as nav.agent.add answered it (no leading zeros).
    if (name.empty() || name.size() > 16 || name.find_first_not_of("0123456789") != std::string::npos ||
        (name.size() > 1 && name[0] == '0'))
        return {};
    const nav::AgentId id = handleFromNumber<nav::AgentTag>(std::stoull(name));
    if (!ctx.state.world.nav().agent(id))
        return {};
    // One crowd agent has one name: one already named is reached by that name only.
    for (const auto& [other, h] : agents)
        if (h.agent == id)
            fail("E_AI_UNKNOWN", "crowd agent " + name + " is the agent \"" + other + "\"", {{"path", "/agent"}},
                 "attach the brain to \"" + other + "\": one crowd agent has one brain");
    return id;
}

ai::Brain& requireBrain(Context& ctx, const std::string& name)
{
    ai::Brain* brain = ctx.state.world.ai().brains.findBrain(name);
    if (!brain)
        unknownAgent(name, "brain for an agent");
    return *brain;
}

json aiBrainAttach(Context& ctx, const json& params)
{
    const std::string name = agentName(params.at("agent"));
    const nav::AgentId agent = resolveAgent(ctx, name);
    if (!agent.valid())
        unknownAgent(name, "agent");
    ai::BrainDef def = ai::defaultBrainDef();
    def.agent = name;
    def.agentKey = scene::agentKey(agent);
    def.tree = params.value("tree", "");
    def.utility = params.value("utility", "");
    def.period = params.value("period", 1u);
    if (params.contains("blackboard"))
        def.blackboard = ai::blackboardFromJson(params["blackboard"]);
    def.seed = params.value("seed", uint64_t{0});
    // attachBrain validates everything before it writes; the agent is adopted only after.
    const Result<ai::BrainId> id = ai::attachBrain(ctx.state.world.ai(), def, clockFrame(ctx));
    if (!id.ok())
        failWith(id.error());
    HostAgents& agents = ctx.state.world.agentsForBrains();
    if (!agents.count(name))
    {
        scene::HostAgent h;
        h.agent = agent;
        agents.emplace(name, h);
    }
    const ai::Brain& brain = *std::as_const(ctx.state.world.ai().brains).get(*id);
    return {{"agent", name},
            {"tree", brain.tree.empty() ? json(nullptr) : json(brain.tree)},
            {"utility", brain.utility.empty() ? json(nullptr) : json(brain.utility)},
            {"period", brain.period},
            {"ai_hash", navjson::hashHex(ai::hashAiState(ctx.state.world.ai()))}};
}

json aiBrainDetach(Context& ctx, const json& params)
{
    const std::string name = agentName(params.at("agent"));
    ai::Brain& brain = requireBrain(ctx, name);
    {
        // Halt what it runs (its moves stop), then forget it.
        scene::AiHost host = ctx.state.world.aiHost();
        ai::haltBrain(ctx.state.world.ai(), brain, host, ai::TickClock{clockFrame(ctx), scene::kFixedStep}, ctx.leaves());
    }
    ctx.state.world.ai().brains.erase(name);
    return {{"agent", name}, {"ai_hash", navjson::hashHex(ai::hashAiState(ctx.state.world.ai()))}};
}

json aiBrainGet(Context& ctx, const json& params)
{
    const std::string name = agentName(params.at("agent"));
    const ai::Brain& brain = requireBrain(ctx, name);
    json out = ai::brainToJson(ctx.state.world.ai(), brain);
    const HostAgents& agents = ctx.state.world.agentsForBrains();
    if (auto it = agents.find(name); it != agents.end())
        if (const nav::CrowdAgent* a = ctx.state.world.nav().agent(it->second.agent))
        {
            out["agent_state"] = std::string(nav::agentStateName(it->second.noPath ? nav::AgentState::NoPath : a->state));
            out["position"] = json::array({a->position.x, a->position.y, a->position.z});
            out["heading"] = json::array({it->second.heading.x, it->second.heading.y, it->second.heading.z});
        }
    return out;
}

json aiBlackboardSet(Context& ctx, const json& params)
{
    const std::string name = agentName(params.at("agent"));
    ai::Brain& brain = requireBrain(ctx, name);
    const std::string key = params.at("key").get<std::string>();
    const bool replaced = brain.blackboard.contains(key);
    brain.blackboard[key] = ai::valueFromJson(params.at("value"));
    return {{"agent", name}, {"key", key}, {"replaced", replaced}, {"ai_hash", navjson::hashHex(ai::hashAiState(ctx.state.world.ai()))}};
}

json aiBlackboardGet(Context& ctx, const json& params)
{
    const std::string name = agentName(params.at("agent"));
    const ai::Brain& brain = requireBrain(ctx, name);
    if (!params.contains("key"))
        return {{"agent", name}, {"blackboard", ai::blackboardToJson(brain.blackboard)}};
    const std::string key = params["key"].get<std::string>();
    const ai::Value* v = ai::blackboardFind(brain.blackboard, key);
    if (!v)
        fail("E_AI_UNKNOWN", "agent \"" + name + "\" has no blackboard key \"" + key + "\"", {{"path", "/key"}},
             "ai.blackboard.get without key lists the blackboard");
    return {{"agent", name}, {"key", key}, {"value", ai::valueToJson(*v)}};
}

json aiEvents(Context& ctx, const json& params)
{
    const ai::EventLog& log = ctx.state.world.ai().events;
    const uint64_t since = params.value("since", uint64_t{0});
    const std::string kind = params.value("kind", "");
    const std::string agent = params.contains("agent") ? agentName(params["agent"]) : "";
    const size_t limit = params.value("limit", size_t{1000});
    json events = json::array();
    bool truncated = false;
    for (const ai::AiEvent& e : log.events)
    {
        if (e.seq < since || (!kind.empty() && e.kind != kind) || (!agent.empty() && e.agent != agent))
            continue;
        if (events.size() == limit)
        {
            truncated = true;
            break;
        }
        events.push_back({{"seq", e.seq}, {"frame", e.frame}, {"time", e.time}, {"kind", e.kind}, {"agent", e.agent}, {"data", e.data}});
    }
    return {{"events", std::move(events)}, {"next", log.nextSeq}, {"truncated", truncated}};
}

scene::AssertOutcome evaluate(Context& ctx, const json& that)
{
    auto outcome = scene::evaluateCondition(ctx.state, that, "/that");
    if (!outcome.ok())
        failWith(outcome.error());
    return std::move(outcome.value());
}

json aiAssert(Context& ctx, const json& params)
{
    const scene::AssertOutcome o = evaluate(ctx, params.at("that"));
    if (!o.held)
        fail("E_ASSERT_FAILED", "the condition does not hold", {{"path", "/that"}, {"expected", o.expected}, {"actual", o.actual}});
    return {{"held", true}, {"expected", o.expected}, {"actual", o.actual}};
}

json stepAnswer(scene::World& world, uint32_t frames)
{
    const scene::StepAiFigures f = world.takeStepAiFigures();
    return {{"frames", frames},
            {"frame", world.frame()},
            {"time", static_cast<double>(world.frame()) * scene::kFixedStep},
            {"hash", navjson::hashHex(world.hashState())},
            {"ai_hash", navjson::hashHex(ai::hashAiState(world.ai()))},
            {"brains_ticked", f.brainsTicked},
            {"events", f.events},
            {"agents", world.agents().size()}};
}

json aiStep(Context& ctx, const json& params)
{
    scene::World& world = ctx.state.world;
    const uint32_t frames = params.value("frames", 1u);
    (void)world.takeStepAiFigures();
    const Status st = world.stepFrames(frames);
    if (!st.ok())
        failWith(st.error());
    return stepAnswer(world, frames);
}

json aiUntil(Context& ctx, const json& params)
{
    scene::World& world = ctx.state.world;
    const json& that = params.at("that");
    const uint32_t maxFrames = params.at("max_frames").get<uint32_t>();
    scene::AssertOutcome o = evaluate(ctx, that); // a bad condition fails before anything steps
    const scene::WorldState start = world.saveState();
    (void)world.takeStepAiFigures();
    uint32_t frames = 0;
    while (!o.held && frames < maxFrames)
    {
        // A safe point (spark/core/work.h): a stopped run brings back the start.
        if (!workCheckpoint("frames", frames, maxFrames))
        {
            world.restoreState(start);
            failWith(cancelledError("frame " + std::to_string(frames + 1) + " (of at most " +
                                    std::to_string(maxFrames) + ")"));
        }
        (void)world.step(scene::kFixedStep);
        ++frames;
        o = evaluate(ctx, that);
    }
    if (!o.held)
    {
        world.restoreState(start); // a failed command changes nothing
        fail("E_ASSERT_FAILED", "the condition did not hold within " + std::to_string(maxFrames) + " frames",
             {{"path", "/that"}, {"expected", o.expected}, {"actual", o.actual}, {"frames", maxFrames}});
    }
    json out = stepAnswer(world, frames);
    out["expected"] = o.expected;
    out["actual"] = o.actual;
    return out;
}

const Registrar kAttach{{"ai.brain.attach", aiBrainAttach, Mutates::Yes, nullptr, {.destructive = true, .idempotent = true}}};
const Registrar kDetach{{"ai.brain.detach", aiBrainDetach, Mutates::Yes, nullptr, {.destructive = true}}};
const Registrar kGet{{"ai.brain.get", aiBrainGet, Mutates::No}};
const Registrar kBbSet{{"ai.blackboard.set", aiBlackboardSet, Mutates::Yes, nullptr, {.idempotent = true}}};
const Registrar kBbGet{{"ai.blackboard.get", aiBlackboardGet, Mutates::No}};
const Registrar kEvents{{"ai.events", aiEvents, Mutates::No}};
const Registrar kAssert{{"ai.assert", aiAssert, Mutates::No}};
const Registrar kStep{{"ai.step", aiStep, Mutates::Yes}};
const Registrar kUntil{{"ai.until", aiUntil, Mutates::Yes}};

} // namespace
} // namespace ai_brain_commands
} // namespace spark::cli
