// The built-in leaf manifest: names, kinds and declared parameters (in the
// spirit of BehaviorTree.CPP's statically declared ports), plus the checks of
// literal parameter values and the compilation of a leaf call into slots.
#include "spark/ai/leaves.h"

#include <cmath>

namespace spark::ai
{
namespace
{

ParamDef param(std::string name, ParamType type, bool required, json def, std::string description,
               double min = -1e300, double max = 1e300)
{
    ParamDef p;
    p.name = std::move(name);
    p.type = type;
    p.required = required;
    p.defaultValue = std::move(def);
    p.min = min;
    p.max = max;
    p.description = std::move(description);
    return p;
}

std::vector<LeafDef> buildManifest()
{
    std::vector<LeafDef> m;
    auto leaf = [&](LeafId id, const char* name, LeafKind kind, const char* description, std::vector<ParamDef> params) {
        m.push_back(LeafDef{id, name, kind, description, std::move(params)});
    };
    using T = ParamType;
    const json none;
    leaf(LeafId::MoveTo, "move_to", LeafKind::Action,
         "Moves the agent to a target (object name or point); succeeds on arrival, fails when there is no path.",
         {param("target", T::Target, true, none, "Object/agent name or [x, y, z]."),
          param("stop_distance", T::Number, false, 0.5, "Arrival distance. [m]", 0, 1e6),
          param("repath_distance", T::Number, false, 0.5, "Re-request the move when a named target moved this far. [m]",
                0, 1e6)});
    leaf(LeafId::Patrol, "patrol", LeafKind::Action,
         "Walks the points in order, recording a waypoint event at each; loops forever or succeeds after the last.",
         {param("points", T::Points, true, none, "Waypoints [[x, y, z], ...]."),
          param("loop", T::Bool, false, true, "Start again after the last point (never succeeds)."),
          param("stop_distance", T::Number, false, 0.3, "Waypoint reached within this distance. [m]", 0, 1e6)});
    leaf(LeafId::Stop, "stop", LeafKind::Action, "Stops the agent; succeeds at once.", {});
    leaf(LeafId::Face, "face", LeafKind::Action, "Turns the agent towards a target; succeeds at once.",
         {param("target", T::Target, true, none, "Object/agent name or [x, y, z].")});
    leaf(LeafId::SetSpeed, "set_speed", LeafKind::Action, "Sets the agent's maximum speed; succeeds at once.",
         {param("speed", T::Number, true, none, "Maximum speed. [m/s]", 0, 1e6)});
    leaf(LeafId::Log, "log", LeafKind::Action, "Records a log event with a message; succeeds at once.",
         {param("message", T::String, true, none, "The message.")});
    leaf(LeafId::Emit, "emit", LeafKind::Action, "Records an 'emitted' event with a name and data; succeeds at once.",
         {param("event", T::String, true, none, "Event name."),
          param("data", T::Any, false, none, "Any JSON value carried by the event.")});
    leaf(LeafId::CanSee, "can_see", LeafKind::Condition,
         "True when the target is within range, inside the view cone and in line of sight; records spotted/lost_sight.",
         {param("target", T::Target, true, none, "Object/agent name or [x, y, z]."),
          param("range", T::Number, false, 15.0, "Sight distance. [m]", 0, 1e6),
          param("fov_deg", T::Number, false, 120.0, "Full view cone angle. [deg]", 0, 360),
          param("eye_height", T::Number, false, 1.6, "Height of the eyes above the agent's position. [m]", -1e3, 1e3)});
    leaf(LeafId::Within, "within", LeafKind::Condition, "True when the target is within a distance.",
         {param("target", T::Target, true, none, "Object/agent name or [x, y, z]."),
          param("distance", T::Number, true, none, "Distance. [m]", 0, 1e9)});
    leaf(LeafId::Arrived, "arrived", LeafKind::Condition, "True when the agent's last move has arrived.", {});
    leaf(LeafId::HasPath, "has_path", LeafKind::Condition, "True when the agent can reach the target.",
         {param("target", T::Target, true, none, "Object/agent name or [x, y, z].")});
    leaf(LeafId::Chance, "chance", LeafKind::Condition, "True with a probability (the brain's seeded RNG).",
         {param("probability", T::Number, true, none, "Probability of success.", 0, 1)});
    return m;
}

const std::vector<LeafDef>& manifest()
{
    static const std::vector<LeafDef> kManifest = buildManifest();
    return kManifest;
}

bool isPoint(const json& v)
{
    if (!v.is_array() || v.size() != 3)
        return false;
    for (const json& c : v)
        if (!c.is_number() || !std::isfinite(c.get<double>()))
            return false;
    return true;
}

} // namespace

std::span<const LeafDef> leafManifest() { return manifest(); }

const LeafDef* findLeaf(std::string_view name)
{
    for (const LeafDef& d : manifest())
        if (d.name == name)
            return &d;
    return nullptr;
}

const LeafDef& leafDef(LeafId id) { return manifest()[static_cast<size_t>(id)]; }

const char* paramTypeName(ParamType type)
{
    switch (type)
    {
    case ParamType::Number: return "number";
    case ParamType::Integer: return "integer";
    case ParamType::Bool: return "boolean";
    case ParamType::String: return "string";
    case ParamType::Point: return "point [x, y, z]";
    case ParamType::Target: return "target (name or [x, y, z])";
    case ParamType::Points: return "non-empty array of points [[x, y, z], ...]";
    case ParamType::Any: return "any";
    }
    return "?";
}

bool isBlackboardRef(const json& value)
{
    return value.is_object() && value.size() == 1 && value.contains("bb") && value["bb"].is_string() &&
           !value["bb"].get_ref<const std::string&>().empty();
}

bool paramValueMatches(const ParamDef& def, const json& value, std::string& outExpected)
{
    outExpected = paramTypeName(def.type);
    auto inRange = [&](double v) {
        if (v < def.min || v > def.max)
        {
            outExpected += " in [" + json(def.min).dump() + ", " + json(def.max).dump() + "]";
            return false;
        }
        return true;
    };
    switch (def.type)
    {
    case ParamType::Number:
        return value.is_number() && std::isfinite(value.get<double>()) && inRange(value.get<double>());
    case ParamType::Integer:
        return value.is_number_integer() && inRange(static_cast<double>(value.get<int64_t>()));
    case ParamType::Bool: return value.is_boolean();
    case ParamType::String: return value.is_string();
    case ParamType::Point: return isPoint(value);
    case ParamType::Target: return (value.is_string() && !value.get_ref<const std::string&>().empty()) || isPoint(value);
    case ParamType::Points:
        if (!value.is_array() || value.empty() || value.size() > 1024)
            return false;
        for (const json& p : value)
            if (!isPoint(p))
                return false;
        return true;
    case ParamType::Any: return true;
    }
    return false;
}

json paramSchema(const ParamDef& def)
{
    const json point = {{"type", "array"}, {"items", {{"type", "number"}}}, {"minItems", 3}, {"maxItems", 3}};
    json s;
    switch (def.type)
    {
    case ParamType::Number:
        s = {{"type", "number"}};
        if (def.min > -1e299)
            s["minimum"] = def.min;
        if (def.max < 1e299)
            s["maximum"] = def.max;
        break;
    case ParamType::Integer: s = {{"type", "integer"}}; break;
    case ParamType::Bool: s = {{"type", "boolean"}}; break;
    case ParamType::String: s = {{"type", "string"}}; break;
    case ParamType::Point: s = point; break;
    case ParamType::Target: s = {{"oneOf", json::array({{{"type", "string"}, {"minLength", 1}}, point})}}; break;
    case ParamType::Points:
        s = {{"type", "array"}, {"items", point}, {"minItems", 1}, {"maxItems", 1024}};
        break;
    case ParamType::Any: s = json::object(); break;
    }
    s["description"] = def.description;
    if (!def.defaultValue.is_null())
        s["default"] = def.defaultValue;
    const json bbRef = {{"type", "object"},
                        {"properties", {{"bb", {{"type", "string"}, {"minLength", 1}}}}},
                        {"required", {"bb"}},
                        {"additionalProperties", false}};
    if (def.type == ParamType::Any)
        return s;
    return {{"anyOf", json::array({s, bbRef})}, {"description", def.description}};
}

json leafManifestJson()
{
    json out = json::array();
    for (const LeafDef& d : manifest())
    {
        json params = json::object();
        json required = json::array();
        for (const ParamDef& p : d.params)
        {
            params[p.name] = {{"type", paramTypeName(p.type)}, {"required", p.required}, {"description", p.description},
                              {"schema", paramSchema(p)}};
            if (!p.defaultValue.is_null())
                params[p.name]["default"] = p.defaultValue;
            if (p.required)
                required.push_back(p.name);
        }
        out.push_back({{"name", d.name},
                       {"kind", d.kind == LeafKind::Action ? "action" : "condition"},
                       {"description", d.description},
                       {"params", params},
                       {"required", required}});
    }
    return out;
}

LeafCall makeLeafCall(const LeafDef& def, const json& params)
{
    LeafCall call;
    call.leaf = def.id;
    call.params.resize(def.params.size());
    for (size_t i = 0; i < def.params.size(); ++i)
    {
        ParamSlot& slot = call.params[i];
        const ParamDef& p = def.params[i];
        const json* given = params.is_object() && params.contains(p.name) ? &params[p.name] : nullptr;
        if (given && isBlackboardRef(*given))
        {
            slot.present = true;
            slot.fromBb = true;
            slot.bbKey = (*given)["bb"].get<std::string>();
        }
        else if (given)
        {
            slot.present = true;
            slot.literal = *given;
        }
        else if (!p.defaultValue.is_null())
        {
            slot.present = true;
            slot.literal = p.defaultValue;
        }
    }
    return call;
}

} // namespace spark::ai
