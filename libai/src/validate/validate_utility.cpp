// Exhaustive validation of utility documents (see validate_tree.cpp for the
// approach): every action, consideration, input, range, curve and leaf call is
// checked and every problem reported.
#include "checks.h"
#include "spark/ai/leaf_registry.h"

#include <algorithm>
#include <set>

namespace spark::ai
{
namespace
{
using namespace detail;

std::vector<std::string> curveParams(const std::string& type)
{
    if (type == "linear")
        return {"type", "slope", "intercept"};
    if (type == "power")
        return {"type", "exponent"};
    if (type == "logistic")
        return {"type", "steepness", "midpoint"};
    if (type == "step")
        return {"type", "threshold"};
    if (type == "smoothstep")
        return {"type", "edge0", "edge1"};
    if (type == "constant")
        return {"type", "value"};
    return {"type"};
}

void checkCurve(const json& c, const std::string& path, std::vector<Problem>& io)
{
    if (!c.is_object())
    {
        addProblem(io, kCodeBadCurve, std::string("a curve must be an object, not ") + jsonTypeName(c), path,
                   "expected {\"type\": \"linear\", ...}");
        return;
    }
    if (!c.contains("type") || !c["type"].is_string())
    {
        addProblem(io, kCodeBadCurve, "the curve has no 'type' string", path,
                   "add \"type\": one of linear, power, logistic, step, smoothstep, inverse, constant");
        return;
    }
    const std::string type = c["type"].get<std::string>();
    const auto& names = curveTypeNames();
    if (std::find(names.begin(), names.end(), type) == names.end())
    {
        addProblem(io, kCodeBadCurve, "unknown curve type '" + type + "'", pointerJoin(path, "type"),
                   suggestName(type, names));
        return;
    }
    checkKeys(c, path, curveParams(type), kCodeBadCurve, ("a " + type + " curve").c_str(), io);
    for (auto it = c.begin(); it != c.end(); ++it)
        if (it.key() != "type" && !isFiniteNumber(it.value()))
            addProblem(io, kCodeBadCurve, "curve parameter '" + it.key() + "' must be a finite number",
                       pointerJoin(path, it.key()), "expected a number");
    auto num = [&](const char* key, double fallback) {
        return c.contains(key) && isFiniteNumber(c[key]) ? c[key].get<double>() : fallback;
    };
    if (type == "power" && num("exponent", 2) <= 0)
        addProblem(io, kCodeBadCurve, "a power curve needs an exponent > 0", pointerJoin(path, "exponent"),
                   "expected a number > 0, e.g. 2");
    if (type == "logistic" && num("steepness", 10) == 0)
        addProblem(io, kCodeBadCurve, "a logistic curve needs a steepness other than 0", pointerJoin(path, "steepness"),
                   "expected a non-zero number, e.g. 10 (negative falls)");
    if (type == "logistic" && std::abs(num("steepness", 10)) > 1000)
        addProblem(io, kCodeBadCurve, "a logistic steepness must be within [-1000, 1000]", pointerJoin(path, "steepness"),
                   "expected a number such as 10");
    if (type == "step" && (num("threshold", 0.5) < 0 || num("threshold", 0.5) > 1))
        addProblem(io, kCodeBadCurve, "a step threshold must be in [0, 1]", pointerJoin(path, "threshold"),
                   "expected a number in [0, 1]");
    if (type == "smoothstep" && !(num("edge0", 0) < num("edge1", 1)))
        addProblem(io, kCodeBadCurve, "a smoothstep needs edge0 < edge1", pointerJoin(path, "edge1"),
                   "expected edge1 greater than edge0");
    if (type == "constant" && (num("value", 1) < 0 || num("value", 1) > 1))
        addProblem(io, kCodeBadCurve, "a constant curve's value must be in [0, 1]", pointerJoin(path, "value"),
                   "expected a number in [0, 1]");
}

void checkConsideration(const json& c, const std::string& path, std::vector<Problem>& io)
{
    if (!c.is_object())
    {
        addProblem(io, kCodeSchema, std::string("a consideration must be an object, not ") + jsonTypeName(c), path,
                   "expected {\"name\", \"input\", \"range\", \"curve\", \"weight\"}");
        return;
    }
    checkKeys(c, path, {"name", "input", "range", "curve", "weight"}, kCodeSchema, "a consideration", io);
    if (c.contains("name") && !c["name"].is_string())
        addProblem(io, kCodeSchema, "'name' must be a string", pointerJoin(path, "name"), "expected a string");
    if (!c.contains("input"))
        addProblem(io, kCodeSchema, "the consideration has no 'input'", path,
                   "add \"input\": {\"bb\": \"key\"} or {\"sensor\": \"speed\"}");
    else
    {
        const json& in = c["input"];
        const std::string at = pointerJoin(path, "input");
        if (!in.is_object() || in.size() != 1 || !(in.contains("bb") || in.contains("sensor")))
            addProblem(io, kCodeSchema, "'input' must be {\"bb\": key} or {\"sensor\": name}", at,
                       "sensors: speed, pos_x, pos_y, pos_z, time, distance_to_target");
        else if (in.contains("bb") && (!in["bb"].is_string() || in["bb"].get_ref<const std::string&>().empty()))
            addProblem(io, kCodeSchema, "'bb' must be a non-empty string", pointerJoin(at, "bb"), "expected a key");
        else if (in.contains("sensor"))
        {
            const auto& names = sensorNames();
            if (!in["sensor"].is_string())
                addProblem(io, kCodeSchema, "'sensor' must be a string", pointerJoin(at, "sensor"),
                           "expected a sensor name");
            else if (std::find(names.begin(), names.end(), in["sensor"].get<std::string>()) == names.end())
                addProblem(io, kCodeSchema, "unknown sensor '" + in["sensor"].get<std::string>() + "'",
                           pointerJoin(at, "sensor"), suggestName(in["sensor"].get<std::string>(), names));
        }
    }
    if (c.contains("range"))
    {
        const json& r = c["range"];
        const std::string at = pointerJoin(path, "range");
        if (!r.is_array() || r.size() != 2 || !isFiniteNumber(r[0]) || !isFiniteNumber(r[1]))
            addProblem(io, kCodeSchema, "'range' must be [min, max] with two finite numbers", at,
                       "expected e.g. [0, 10]");
        else if (r[0].get<double>() == r[1].get<double>())
            addProblem(io, kCodeSchema, "'range' must not be empty (min == max)", at,
                       "give two different numbers");
    }
    if (c.contains("curve"))
        checkCurve(c["curve"], pointerJoin(path, "curve"), io);
    if (c.contains("weight") && (!isFiniteNumber(c["weight"]) || c["weight"].get<double>() < 0 ||
                                 c["weight"].get<double>() > 100))
        addProblem(io, kCodeSchema, "'weight' must be a number in [0, 100]", pointerJoin(path, "weight"),
                   "expected a number such as 1");
}

} // namespace

std::vector<Problem> validateUtilityDoc(const json& doc)
{
    return validateUtilityDoc(doc, builtinLeafRegistry());
}

std::vector<Problem> validateUtilityDoc(const json& doc, const LeafRegistry& leaves)
{
    std::vector<Problem> problems;
    if (!doc.is_object())
    {
        addProblem(problems, kCodeSchema, std::string("a utility document must be an object, not ") + jsonTypeName(doc),
                   "", "expected {\"version\": 1, \"name\": \"...\", \"actions\": [...]}");
        return problems;
    }
    checkKeys(doc, "", {"version", "name", "description", "selection", "inertia", "compensation", "actions"},
              kCodeSchema, "the document", problems);
    checkDocumentHeader(doc, problems);
    if (doc.contains("selection") && !(doc["selection"] == "best" || doc["selection"] == "weighted_random"))
        addProblem(problems, kCodeSchema, "'selection' must be \"best\" or \"weighted_random\"", "/selection",
                   doc["selection"].is_string()
                       ? suggestName(doc["selection"].get<std::string>(), {"best", "weighted_random"})
                       : "expected \"best\" or \"weighted_random\"");
    if (doc.contains("inertia") &&
        (!isFiniteNumber(doc["inertia"]) || doc["inertia"].get<double>() < 0 || doc["inertia"].get<double>() > 100))
        addProblem(problems, kCodeSchema, "'inertia' must be a number in [0, 100]", "/inertia",
                   "expected e.g. 0.1 (10 % bonus for the last choice)");
    if (doc.contains("compensation") && !doc["compensation"].is_boolean())
        addProblem(problems, kCodeSchema, "'compensation' must be a boolean", "/compensation", "expected true or false");
    if (!doc.contains("actions"))
    {
        addProblem(problems, kCodeSchema, "the document has no 'actions'", "", "add \"actions\": [{...}, ...]");
        return problems;
    }
    const json& actions = doc["actions"];
    if (!actions.is_array() || actions.empty() || actions.size() > 256)
    {
        addProblem(problems, kCodeSchema, "'actions' must be an array of 1 to 256 actions", "/actions",
                   "expected [{\"name\", \"considerations\", \"run\"}, ...]");
        if (!actions.is_array())
            return problems;
    }
    std::set<std::string> seen;
    for (size_t i = 0; i < actions.size(); ++i)
    {
        const json& a = actions[i];
        const std::string path = pointerJoin("/actions", std::to_string(i));
        if (!a.is_object())
        {
            addProblem(problems, kCodeSchema, std::string("an action must be an object, not ") + jsonTypeName(a), path,
                       "expected {\"name\", \"considerations\", \"run\"}");
            continue;
        }
        checkKeys(a, path, {"name", "weight", "cooldown", "considerations", "run"}, kCodeSchema, "an action", problems);
        if (!a.contains("name"))
            addProblem(problems, kCodeSchema, "an action needs a 'name'", path, "add \"name\": \"rest\"");
        else if (!a["name"].is_string() || a["name"].get_ref<const std::string&>().empty())
            addProblem(problems, kCodeSchema, "an action's 'name' must be a non-empty string", pointerJoin(path, "name"),
                       "expected a string such as \"rest\"");
        else if (!seen.insert(a["name"].get<std::string>()).second)
            addProblem(problems, kCodeSchema, "two actions are named '" + a["name"].get<std::string>() + "'",
                       pointerJoin(path, "name"), "give every action its own name");
        if (a.contains("weight") &&
            (!isFiniteNumber(a["weight"]) || a["weight"].get<double>() < 0 || a["weight"].get<double>() > 1e6))
            addProblem(problems, kCodeSchema, "'weight' must be a number >= 0", pointerJoin(path, "weight"),
                       "expected e.g. 1");
        if (a.contains("cooldown") &&
            (!isFiniteNumber(a["cooldown"]) || a["cooldown"].get<double>() < 0 || a["cooldown"].get<double>() > 1e9))
            addProblem(problems, kCodeSchema, "'cooldown' must be a number of seconds >= 0",
                       pointerJoin(path, "cooldown"), "expected e.g. 2.5");
        if (a.contains("considerations"))
        {
            const json& cs = a["considerations"];
            const std::string at = pointerJoin(path, "considerations");
            if (!cs.is_array() || cs.size() > 64)
                addProblem(problems, kCodeSchema, "'considerations' must be an array of at most 64", at,
                           "expected [{\"input\", \"range\", \"curve\"}, ...]");
            else
                for (size_t j = 0; j < cs.size(); ++j)
                    checkConsideration(cs[j], pointerJoin(at, std::to_string(j)), problems);
        }
        if (!a.contains("run"))
            addProblem(problems, kCodeSchema, "the action has no 'run'", path,
                       "add \"run\": {\"name\": \"<leaf>\", \"params\": {...}}");
        else
        {
            const json& run = a["run"];
            const std::string at = pointerJoin(path, "run");
            if (!run.is_object())
                addProblem(problems, kCodeSchema, "'run' must be an object", at,
                           "expected {\"name\": \"<leaf>\", \"params\": {...}}");
            else
            {
                checkKeys(run, at, {"name", "params"}, kCodeSchema, "'run'", problems);
                if (!run.contains("name"))
                    addProblem(problems, kCodeSchema, "'run' needs a 'name'", at, "add \"name\": a leaf (see ai.leaves)");
                else
                    validateLeafCall(run["name"], run.contains("params") ? &run["params"] : nullptr, at, "",
                                     leaves, problems);
            }
        }
    }
    return problems;
}

} // namespace spark::ai
