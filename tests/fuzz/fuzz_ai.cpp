// Fuzz target: AI documents. An input is a behaviour-tree or utility document
// as `ai.tree.load` / `ai.utility.load` read it (parseJsonText, then the
// validators and compilers of libai with the built-in leaves). A document that
// compiles is given to a brain and ticked for a few frames in a small world of
// points, so the runtime meets every tree shape the validator lets through.

#include "fuzz_common.h"

#include "spark/ai/brain.h"
#include "spark/ai/tree.h"
#include "spark/ai/utility.h"
#include "spark/ai/validate.h"
#include "spark/ai/world.h"

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace
{
using namespace spark;
using ai::Vec3;

/// Agents walk straight to their targets; nothing blocks sight; nothing past 1000 m is reachable.
class PointWorld final : public ai::World
{
public:
    struct Agent
    {
        Vec3 position{0, 0, 0}, velocity{0, 0, 0}, forward{0, 0, 1}, target{0, 0, 0};
        double speed = 3.0, stopDistance = 0.1;
        ai::MoveState state = ai::MoveState::Idle;
    };
    std::map<std::string, Agent, std::less<>> agents;
    std::map<std::string, Vec3, std::less<>> objects;

    std::vector<std::string> keyNames; ///< Key k is the agent named keyNames[k - 1] (by name, as the fake world's).

    ai::AgentKey keyOf(const std::string& name)
    {
        keyNames.push_back(name);
        return ai::AgentKey{keyNames.size()};
    }
    bool agentExists(ai::AgentKey a) const override { return at(a) != nullptr; }
    bool agentPosition(ai::AgentKey a, Vec3& out) const override
    {
        if (const Agent* g = at(a))
            return out = g->position, true;
        return false;
    }
    bool findTarget(ai::Symbol name, Vec3& out) const override
    {
        if (auto a = agents.find(name.name()); a != agents.end())
            return out = a->second.position, true;
        if (auto o = objects.find(name.name()); o != objects.end())
            return out = o->second, true;
        return false;
    }
    Vec3 agentVelocity(ai::AgentKey a) const override { return at(a) ? at(a)->velocity : Vec3(0); }
    Vec3 agentForward(ai::AgentKey a) const override { return at(a) ? at(a)->forward : Vec3(0, 0, 1); }
    ai::MoveState moveState(ai::AgentKey a) const override { return at(a) ? at(a)->state : ai::MoveState::NoPath; }
    void requestMove(ai::AgentKey a, const Vec3& target, double stopDistance) override
    {
        Agent* g = at(a);
        if (!g)
            return;
        g->target = target;
        g->stopDistance = stopDistance;
        g->state = reachable(target) ? ai::MoveState::Moving : ai::MoveState::NoPath;
    }
    void stop(ai::AgentKey a) override
    {
        if (Agent* g = at(a))
        {
            g->state = ai::MoveState::Idle;
            g->velocity = Vec3(0);
        }
    }
    void face(ai::AgentKey a, const Vec3& d) override
    {
        const double len = std::sqrt(d.x * d.x + d.z * d.z);
        if (Agent* g = at(a); g && len > 1e-12 && std::isfinite(len))
            g->forward = Vec3(d.x / len, 0, d.z / len);
    }
    void setSpeed(ai::AgentKey a, double speed) override
    {
        if (Agent* g = at(a))
            g->speed = speed;
    }
    bool lineOfSight(ai::AgentKey, const Vec3&, const Vec3&) const override { return true; }
    bool hasPath(ai::AgentKey, const Vec3& to) const override { return reachable(to); }

    void step(double dt)
    {
        for (auto& [name, g] : agents)
        {
            if (g.state != ai::MoveState::Moving)
                continue;
            Vec3 d = g.target - g.position;
            d.y = 0;
            const double dist = std::sqrt(d.x * d.x + d.z * d.z);
            if (!(dist > g.stopDistance))
            {
                g.state = ai::MoveState::Arrived;
                g.velocity = Vec3(0);
                continue;
            }
            const Vec3 dir = d / dist;
            const double len = std::min(dist, g.speed * dt);
            g.position += dir * len;
            g.velocity = dir * (len / dt);
            g.forward = dir;
        }
    }

private:
    const Agent* at(ai::AgentKey k) const
    {
        if (k.value == 0 || k.value > keyNames.size())
            return nullptr;
        const auto it = agents.find(keyNames[k.value - 1]);
        return it == agents.end() ? nullptr : &it->second;
    }
    Agent* at(ai::AgentKey k) { return const_cast<Agent*>(std::as_const(*this).at(k)); }
    static bool reachable(const Vec3& p)
    {
        return std::isfinite(p.x) && std::isfinite(p.z) && std::abs(p.x) <= 1000 && std::abs(p.z) <= 1000;
    }
};

/// The sample utility document, loaded beside every tree (trees may name it).
const ai::UtilityDoc* sampleUtility()
{
    static const std::optional<ai::UtilityDoc> doc = []() -> std::optional<ai::UtilityDoc> {
        std::ifstream in(std::string(SPARK_SOURCE_DIR) + "/samples/ai/rest-patrol-flee.utility.json");
        std::ostringstream text;
        text << in.rdbuf();
        cli::json j;
        std::string why;
        if (!cli::parseJsonText(text.str(), j, why))
            return std::nullopt;
        auto compiled = ai::compileUtility(j);
        return compiled.ok() ? std::optional<ai::UtilityDoc>(*compiled) : std::nullopt;
    }();
    return doc ? &*doc : nullptr;
}

void checkProblems(const std::vector<ai::Problem>& problems, std::string_view what)
{
    for (const ai::Problem& p : problems)
        if (p.code.empty() || p.message.empty())
            fuzz::finding(std::string(what) + ": a problem without a code or message", p.path);
}

/// Ticks a brain on `state` for a few frames in a world with the agent "guard".
void tick(ai::AiState& state, ai::BrainDef def)
{
    PointWorld world;
    world.agents["guard"] = {};
    world.agents["player"].position = Vec3(4, 0, 3);
    world.objects["post"] = Vec3(-5, 0, 2);
    def.agent = "guard";
    def.agentKey = world.keyOf("guard");
    def.seed = 7;
    def.blackboard = {{"target", "player"}, {"fatigue", 60}, {"health", 30}, {"safe_spot", ai::Value::list({5, 0, -5})},
                      {"count", 2}, {"flag", true}};
    if (!ai::attachBrain(state, def, 0).ok())
        return;
    const ai::TickClock base;
    for (uint64_t frame = 0; frame < 24; ++frame)
    {
        ai::TickClock clock = base;
        clock.frame = frame;
        ai::stepBrains(state, world, clock);
        world.step(clock.dt);
        if (frame == 12)
            if (ai::Brain* guard = state.brains.findBrain("guard"))
                ai::haltBrain(state, *guard, world, clock);
    }
    if (const ai::Brain* guard = state.brains.findBrain("guard"))
        (void)cli::dumpJson(ai::brainToJson(state, *guard));
    (void)ai::hashAiState(state);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string_view text = fuzz::asText(data, size);
    cli::json doc;
    std::string why;
    if (!cli::parseJsonText(text, doc, why))
        return 0;
    checkProblems(ai::validateTreeDoc(doc), "validateTreeDoc");
    checkProblems(ai::validateUtilityDoc(doc), "validateUtilityDoc");

    std::vector<ai::Problem> problems;
    auto tree = ai::compileTree(doc, &problems);
    if (tree.ok())
    {
        ai::AiState state;
        if (const ai::UtilityDoc* u = sampleUtility())
            ai::putUtility(state, *u);
        ai::BrainDef def = ai::defaultBrainDef();
        def.tree = tree->name;
        ai::putTree(state, std::move(tree).value());
        tick(state, def);
    }
    else if (tree.error().code.empty())
        fuzz::finding("compileTree: an error without a code", tree.error().message);

    problems.clear();
    auto utility = ai::compileUtility(doc, &problems);
    if (utility.ok())
    {
        ai::AiState state;
        ai::BrainDef def = ai::defaultBrainDef();
        def.utility = utility->name;
        ai::putUtility(state, std::move(utility).value());
        tick(state, def);
    }
    else if (utility.error().code.empty())
        fuzz::finding("compileUtility: an error without a code", utility.error().message);
    return 0;
}
