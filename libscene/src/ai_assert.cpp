// Conditions of ai.assert / ai.until, evaluated against the session state.
// Each kind validates its own fields (errors name the JSON pointer) before it
// reads anything; `all` and `any` evaluate every part (no short cut, so a bad
// part is reported even when an earlier one decides).

#include "spark/scene/ai_assert.h"

#include "spark/nav/crowd.h"

#include <cmath>

namespace spark::scene
{
namespace
{

using json = nlohmann::json;

struct Evaluator
{
    const SessionState& state;
    size_t count = 0;

    Error bad(const std::string& field, const std::string& message) const
    {
        return Error{"E_INVALID_PARAMS", message, field, "the condition kinds are listed in `spark schema ai.assert`"};
    }

    Result<std::string> text(const json& obj, const char* key, const std::string& at) const
    {
        auto it = obj.find(key);
        if (it == obj.end() || !it->is_string() || it->get_ref<const std::string&>().empty())
            return bad(at + "/" + key, std::string("\"") + key + "\" must be a non-empty string");
        return it->get<std::string>();
    }

    Result<std::optional<double>> number(const json& obj, const char* key, const std::string& at) const
    {
        auto it = obj.find(key);
        if (it == obj.end())
            return std::optional<double>{};
        if (!it->is_number() || !std::isfinite(it->get<double>()))
            return bad(at + "/" + key, std::string("\"") + key + "\" must be a finite number");
        return std::optional<double>{it->get<double>()};
    }

    Status onlyKeys(const json& obj, std::initializer_list<const char*> keys, const std::string& at) const
    {
        for (const auto& [k, v] : obj.items())
        {
            bool known = false;
            for (const char* key : keys)
                known = known || k == key;
            if (!known)
                return bad(at + "/" + k, "unknown field \"" + k + "\"");
        }
        return Status::success();
    }

    Result<const ai::Brain*> brain(const json& obj, const std::string& at) const
    {
        auto name = text(obj, "agent", at);
        if (!name.ok())
            return name.error();
        const ai::Brain* brain = state.world.ai().brains.findBrain(name.value());
        if (!brain)
            return Error{"E_AI_UNKNOWN", "no brain for agent \"" + name.value() + "\"", at + "/agent",
                         "ai.brain.attach gives an agent a brain; AiAgent components get one when their mesh and tree exist"};
        return brain;
    }

    Result<glm::dvec3> position(const std::string& name, const std::string& field) const
    {
        glm::dvec3 p;
        if (state.world.groundPosition(name, p))
            return p;
        auto it = state.world.agents().find(name);
        if (const nav::CrowdAgent* a = it == state.world.agents().end() ? nullptr : state.world.nav().agent(it->second.agent))
            return glm::dvec3(a->position);
        if (state.world.hasScene())
            return Error{"E_SCENE_UNKNOWN_OBJECT", "there is no object named \"" + name + "\"", field,
                         "space3d.list shows the objects"};
        return Error{"E_AI_UNKNOWN", "there is no agent named \"" + name + "\"", field, "ai.brain.attach names agents"};
    }

    Result<AssertOutcome> eval(const json& c, const std::string& at)
    {
        if (++count > kMaxAssertConditions)
            return Error{"E_INVALID_PARAMS", "too many conditions (at most 256)", at, ""};
        if (!c.is_object() || c.size() != 1)
            return bad(at, "a condition is an object with exactly one kind: blackboard, events, tree_status, "
                           "agent_state, brain_enabled, distance, all or any");
        const std::string kind = c.begin().key();
        const json& body = c.begin().value();
        const std::string here = at + "/" + kind;
        if (kind == "all" || kind == "any")
        {
            if (!body.is_array() || body.empty())
                return bad(here, "\"" + kind + "\" takes a non-empty array of conditions");
            AssertOutcome out;
            out.held = kind == "all";
            out.expected = json::array();
            out.actual = json::array();
            for (size_t i = 0; i < body.size(); ++i)
            {
                auto part = eval(body[i], here + "/" + std::to_string(i));
                if (!part.ok())
                    return part.error();
                out.held = kind == "all" ? (out.held && part->held) : (out.held || part->held);
                out.expected.push_back(part->expected);
                out.actual.push_back(part->actual);
            }
            return out;
        }
        if (!body.is_object())
            return bad(here, "\"" + kind + "\" takes an object");
        if (kind == "blackboard")
            return blackboard(body, here);
        if (kind == "events")
            return events(body, here);
        if (kind == "tree_status" || kind == "brain_enabled")
        {
            SPARK_TRY(onlyKeys(body, {"agent", "equals"}, here));
            auto b = brain(body, here);
            if (!b.ok())
                return b.error();
            auto eq = body.find("equals");
            AssertOutcome out;
            if (kind == "tree_status")
            {
                static const char* kStatuses[] = {"idle", "running", "success", "failure"};
                bool known = false;
                if (eq != body.end() && eq->is_string())
                    for (const char* s : kStatuses)
                        known = known || eq->get_ref<const std::string&>() == s;
                if (!known)
                    return bad(here + "/equals", "\"equals\" must be idle, running, success or failure");
                out.actual = ai::nodeStatusName(b.value()->status);
            }
            else
            {
                if (eq == body.end() || !eq->is_boolean())
                    return bad(here + "/equals", "\"equals\" must be true or false");
                out.actual = b.value()->enabled;
            }
            out.expected = *eq;
            out.held = out.actual == out.expected;
            return out;
        }
        if (kind == "agent_state")
        {
            SPARK_TRY(onlyKeys(body, {"agent", "equals"}, here));
            auto name = text(body, "agent", here);
            if (!name.ok())
                return name.error();
            static const char* kStates[] = {"idle", "moving", "arrived", "no_path", "off_mesh"};
            auto eq = body.find("equals");
            bool known = false;
            if (eq != body.end() && eq->is_string())
                for (const char* s : kStates)
                    known = known || eq->get_ref<const std::string&>() == s;
            if (!known)
                return bad(here + "/equals", "\"equals\" must be idle, moving, arrived, no_path or off_mesh");
            const HostAgents& agents = state.world.agents();
            const nav::NavWorld& nav = state.world.nav();
            auto it = agents.find(name.value());
            const nav::CrowdAgent* a = it == agents.end() ? nullptr : nav.agent(it->second.agent);
            if (!a)
                return Error{"E_AI_UNKNOWN", "there is no agent named \"" + name.value() + "\"", here + "/agent",
                             "AiAgent components become agents once their mesh and tree exist"};
            AssertOutcome out;
            out.expected = *eq;
            out.actual = std::string(nav::agentStateName(it->second.noPath ? nav::AgentState::NoPath : a->state));
            out.held = out.actual == out.expected;
            return out;
        }
        if (kind == "distance")
        {
            SPARK_TRY(onlyKeys(body, {"from", "to", "at_most", "at_least"}, here));
            auto from = text(body, "from", here);
            if (!from.ok())
                return from.error();
            auto to = text(body, "to", here);
            if (!to.ok())
                return to.error();
            auto atMost = number(body, "at_most", here);
            if (!atMost.ok())
                return atMost.error();
            auto atLeast = number(body, "at_least", here);
            if (!atLeast.ok())
                return atLeast.error();
            if (!atMost.value() && !atLeast.value())
                return bad(here, "give at_most, at_least or both");
            auto a = position(from.value(), here + "/from");
            if (!a.ok())
                return a.error();
            auto b = position(to.value(), here + "/to");
            if (!b.ok())
                return b.error();
            const glm::dvec3 d = a.value() - b.value();
            const double dist = std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
            AssertOutcome out;
            out.expected = json::object();
            if (atMost.value())
                out.expected["at_most"] = *atMost.value();
            if (atLeast.value())
                out.expected["at_least"] = *atLeast.value();
            out.actual = dist;
            out.held = (!atMost.value() || dist <= *atMost.value()) && (!atLeast.value() || dist >= *atLeast.value());
            return out;
        }
        return bad(here, "unknown condition \"" + kind + "\"");
    }

    Result<AssertOutcome> blackboard(const json& body, const std::string& here)
    {
        SPARK_TRY(onlyKeys(body, {"agent", "key", "equals", "op", "value", "exists"}, here));
        auto b = brain(body, here);
        if (!b.ok())
            return b.error();
        auto key = text(body, "key", here);
        if (!key.ok())
            return key.error();
        const ai::Value* found = ai::blackboardFind(b.value()->blackboard, key.value());
        const json foundJson = found ? ai::valueToJson(*found) : json();
        const json* v = found ? &foundJson : nullptr;
        AssertOutcome out;
        out.actual = v ? *v : json(nullptr);
        const int forms = int(body.contains("equals")) + int(body.contains("op")) + int(body.contains("exists"));
        if (forms != 1)
            return bad(here, "give exactly one of equals, op (with value) or exists");
        if (body.contains("equals"))
        {
            out.expected = body["equals"];
            out.held = v && *v == out.expected;
            return out;
        }
        if (body.contains("exists"))
        {
            if (!body["exists"].is_boolean())
                return bad(here + "/exists", "\"exists\" must be true or false");
            out.expected = {{"exists", body["exists"]}};
            out.held = (v != nullptr) == body["exists"].get<bool>();
            return out;
        }
        const json& op = body["op"];
        static const char* kOps[] = {"<", "<=", "==", "!=", ">=", ">"};
        bool known = false;
        for (const char* o : kOps)
            known = known || (op.is_string() && op.get_ref<const std::string&>() == o);
        if (!known)
            return bad(here + "/op", "\"op\" must be one of < <= == != >= >");
        auto value = number(body, "value", here);
        if (!value.ok())
            return value.error();
        if (!value.value())
            return bad(here + "/value", "\"op\" needs a number \"value\"");
        out.expected = {{"op", op}, {"value", *value.value()}};
        if (!v || !v->is_number())
            return out; // a missing or non-number value never compares
        const double x = v->get<double>(), y = *value.value();
        const std::string& o = op.get_ref<const std::string&>();
        out.held = o == "<" ? x < y : o == "<=" ? x <= y : o == "==" ? x == y : o == "!=" ? x != y : o == ">=" ? x >= y : x > y;
        return out;
    }

    Result<AssertOutcome> events(const json& body, const std::string& here)
    {
        SPARK_TRY(onlyKeys(body, {"kind", "agent", "since", "data", "at_least", "at_most", "exactly"}, here));
        const json noData = json::object();
        const json& data = body.contains("data") ? body["data"] : noData;
        if (!data.is_object())
            return bad(here + "/data", "\"data\" must be an object: fields the event's data must have, with those values");
        std::string kind, agent;
        if (body.contains("kind"))
        {
            auto k = text(body, "kind", here);
            if (!k.ok())
                return k.error();
            kind = k.value();
        }
        if (body.contains("agent"))
        {
            auto a = text(body, "agent", here);
            if (!a.ok())
                return a.error();
            agent = a.value();
        }
        uint64_t since = 0;
        if (body.contains("since"))
        {
            if (!body["since"].is_number_unsigned())
                return bad(here + "/since", "\"since\" must be an event number >= 0");
            since = body["since"].get<uint64_t>();
        }
        AssertOutcome out;
        out.expected = json::object();
        for (const char* k : {"at_least", "at_most", "exactly"})
            if (body.contains(k))
            {
                if (!body[k].is_number_unsigned())
                    return bad(here + "/" + k, std::string("\"") + k + "\" must be a count >= 0");
                out.expected[k] = body[k];
            }
        if (out.expected.empty())
            out.expected["at_least"] = 1;
        uint64_t n = 0;
        for (const ai::AiEvent& e : state.world.ai().events.events)
            if (e.seq >= since && (kind.empty() || e.kind == kind) && (agent.empty() || e.agent == agent))
            {
                bool matches = true;
                for (const auto& [k, v] : data.items())
                    matches = matches && e.data.is_object() && e.data.contains(k) && e.data[k] == v;
                n += matches ? 1 : 0;
            }
        out.actual = n;
        out.held = (!out.expected.contains("at_least") || n >= out.expected["at_least"].get<uint64_t>()) &&
                   (!out.expected.contains("at_most") || n <= out.expected["at_most"].get<uint64_t>()) &&
                   (!out.expected.contains("exactly") || n == out.expected["exactly"].get<uint64_t>());
        return out;
    }
};

} // namespace

Result<AssertOutcome> evaluateCondition(const SessionState& state, const nlohmann::json& condition,
                                        std::string_view pointer)
{
    Evaluator e{state};
    return e.eval(condition, std::string(pointer));
}

} // namespace spark::scene
