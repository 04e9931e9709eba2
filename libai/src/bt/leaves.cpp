// The built-in leaf manifest: names, kinds and declared parameters (in the
// spirit of BehaviorTree.CPP's statically declared ports), plus the checks of
// literal parameter values and the compilation of a leaf call into slots. The
// manifest is a table of constants so that each leaf's parameter enum can be
// checked against it by static_assert: reordering, adding or renaming a
// parameter without its enum does not compile.
#include "spark/ai/leaf_registry.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace spark::ai
{
namespace
{

using T = ParamType;

/// The default of a parameter in the constexpr manifest (the built-ins have
/// none, a number or a boolean).
struct DefaultSpec
{
    enum class Kind : uint8_t
    {
        None,
        Number,
        Bool,
    };
    Kind kind = Kind::None;
    double number = 0;
    bool flag = false;
};
constexpr DefaultSpec kNoDefault{};
constexpr DefaultSpec number(double v)
{
    return {DefaultSpec::Kind::Number, v, false};
}
constexpr DefaultSpec flag(bool v)
{
    return {DefaultSpec::Kind::Bool, 0, v};
}

/// One declared parameter, as a constant (a `ParamDef` is built from it).
struct ParamSpec
{
    std::string_view name;
    ParamType type = T::Number;
    bool required = false;
    DefaultSpec def;
    std::string_view description;
    double min = -1e300;
    double max = 1e300;
};

/// One built-in leaf, as a constant.
struct LeafSpec
{
    LeafId id;
    std::string_view name;
    LeafKind kind;
    std::string_view description;
    std::span<const ParamSpec> params;
};

constexpr bool kRequired = true;
constexpr bool kOptional = false;

// The manifest. Each leaf's parameters are read by its enum (leaves.h); the
// static_asserts below refuse a manifest whose parameters are not those of the
// enum, in its order.
constexpr std::array kMoveTo = {
    ParamSpec{"target", T::Target, kRequired, kNoDefault, "Object/agent name or [x, y, z]."},
    ParamSpec{"stop_distance", T::Number, kOptional, number(0.5), "Arrival distance. [m]", 0, 1e6},
    ParamSpec{"repath_distance", T::Number, kOptional, number(0.5),
              "Re-request the move when a named target moved this far. [m]", 0, 1e6},
};
constexpr std::array kPatrol = {
    ParamSpec{"points", T::Points, kRequired, kNoDefault, "Waypoints [[x, y, z], ...]."},
    ParamSpec{"loop", T::Bool, kOptional, flag(true), "Start again after the last point (never succeeds)."},
    ParamSpec{"stop_distance", T::Number, kOptional, number(0.3),
              "Waypoint reached within this distance. [m]", 0, 1e6},
};
constexpr std::array<ParamSpec, 0> kStop{};
constexpr std::array kFace = {
    ParamSpec{"target", T::Target, kRequired, kNoDefault, "Object/agent name or [x, y, z]."},
};
constexpr std::array kSetSpeed = {
    ParamSpec{"speed", T::Number, kRequired, kNoDefault, "Maximum speed. [m/s]", 0, 1e6},
};
constexpr std::array kLog = {
    ParamSpec{"message", T::String, kRequired, kNoDefault, "The message."},
};
constexpr std::array kEmit = {
    ParamSpec{"event", T::String, kRequired, kNoDefault, "Event name."},
    ParamSpec{"data", T::Any, kOptional, kNoDefault, "Any JSON value carried by the event."},
};
constexpr std::array kCanSee = {
    ParamSpec{"target", T::Target, kRequired, kNoDefault, "Object/agent name or [x, y, z]."},
    ParamSpec{"range", T::Number, kOptional, number(15.0), "Sight distance. [m]", 0, 1e6},
    ParamSpec{"fov_deg", T::Number, kOptional, number(120.0), "Full view cone angle. [deg]", 0, 360},
    ParamSpec{"eye_height", T::Number, kOptional, number(1.6),
              "Height of the eyes above the agent's position. [m]", -1e3, 1e3},
};
constexpr std::array kWithin = {
    ParamSpec{"target", T::Target, kRequired, kNoDefault, "Object/agent name or [x, y, z]."},
    ParamSpec{"distance", T::Number, kRequired, kNoDefault, "Distance. [m]", 0, 1e9},
};
constexpr std::array<ParamSpec, 0> kArrived{};
constexpr std::array kHasPath = {
    ParamSpec{"target", T::Target, kRequired, kNoDefault, "Object/agent name or [x, y, z]."},
};
constexpr std::array kChance = {
    ParamSpec{"probability", T::Number, kRequired, kNoDefault, "Probability of success.", 0, 1},
};

constexpr std::array<LeafSpec, static_cast<size_t>(LeafId::Count)> kLeaves = {{
    {LeafId::MoveTo, "move_to", LeafKind::Action,
     "Moves the agent to a target (object name or point); succeeds on arrival, fails when there is no path.",
     kMoveTo},
    {LeafId::Patrol, "patrol", LeafKind::Action,
     "Walks the points in order, recording a waypoint event at each; loops forever or succeeds after the "
     "last.",
     kPatrol},
    {LeafId::Stop, "stop", LeafKind::Action, "Stops the agent; succeeds at once.", kStop},
    {LeafId::Face, "face", LeafKind::Action, "Turns the agent towards a target; succeeds at once.", kFace},
    {LeafId::SetSpeed, "set_speed", LeafKind::Action, "Sets the agent's maximum speed; succeeds at once.",
     kSetSpeed},
    {LeafId::Log, "log", LeafKind::Action, "Records a log event with a message; succeeds at once.", kLog},
    {LeafId::Emit, "emit", LeafKind::Action,
     "Records an 'emitted' event with a name and data; succeeds at once.", kEmit},
    {LeafId::CanSee, "can_see", LeafKind::Condition,
     "True when the target is within range, inside the view cone and in line of sight; records "
     "spotted/lost_sight.",
     kCanSee},
    {LeafId::Within, "within", LeafKind::Condition, "True when the target is within a distance.", kWithin},
    {LeafId::Arrived, "arrived", LeafKind::Condition, "True when the agent's last move has arrived.",
     kArrived},
    {LeafId::HasPath, "has_path", LeafKind::Condition, "True when the agent can reach the target.", kHasPath},
    {LeafId::Chance, "chance", LeafKind::Condition, "True with a probability (the brain's seeded RNG).",
     kChance},
}};

/// Every entry of kLeaves sits at the index of its LeafId.
constexpr bool leavesInIdOrder()
{
    for (size_t i = 0; i < kLeaves.size(); ++i)
        if (kLeaves[i].id != static_cast<LeafId>(i))
            return false;
    return true;
}
static_assert(leavesInIdOrder(), "kLeaves must list the built-in leaves in LeafId order");

/// The parameters of E's leaf in kLeaves are exactly E's names, in E's order.
template <class E> constexpr bool enumMatchesManifest()
{
    constexpr auto& names = ParamEnumNames<E>::names;
    const std::span<const ParamSpec> params = kLeaves[static_cast<size_t>(ParamEnumNames<E>::leaf)].params;
    if (names.size() != static_cast<size_t>(E::Count) || params.size() != names.size())
        return false;
    for (size_t i = 0; i < names.size(); ++i)
        if (names[i].empty() || params[i].name != names[i])
            return false;
    return true;
}
static_assert(enumMatchesManifest<MoveToParam>(),
              "MoveToParam must list move_to's parameters in manifest order");
static_assert(enumMatchesManifest<PatrolParam>(),
              "PatrolParam must list patrol's parameters in manifest order");
static_assert(enumMatchesManifest<StopParam>(), "StopParam must list stop's parameters in manifest order");
static_assert(enumMatchesManifest<FaceParam>(), "FaceParam must list face's parameters in manifest order");
static_assert(enumMatchesManifest<SetSpeedParam>(),
              "SetSpeedParam must list set_speed's parameters in manifest order");
static_assert(enumMatchesManifest<LogParam>(), "LogParam must list log's parameters in manifest order");
static_assert(enumMatchesManifest<EmitParam>(), "EmitParam must list emit's parameters in manifest order");
static_assert(enumMatchesManifest<CanSeeParam>(),
              "CanSeeParam must list can_see's parameters in manifest order");
static_assert(enumMatchesManifest<WithinParam>(),
              "WithinParam must list within's parameters in manifest order");
static_assert(enumMatchesManifest<ArrivedParam>(),
              "ArrivedParam must list arrived's parameters in manifest order");
static_assert(enumMatchesManifest<HasPathParam>(),
              "HasPathParam must list has_path's parameters in manifest order");
static_assert(enumMatchesManifest<ChanceParam>(),
              "ChanceParam must list chance's parameters in manifest order");

ParamDef paramDefOf(const ParamSpec& spec)
{
    ParamDef p;
    p.name = std::string(spec.name);
    p.type = spec.type;
    p.required = spec.required;
    if (spec.def.kind == DefaultSpec::Kind::Number)
        p.defaultValue = spec.def.number;
    else if (spec.def.kind == DefaultSpec::Kind::Bool)
        p.defaultValue = spec.def.flag;
    p.min = spec.min;
    p.max = spec.max;
    p.description = std::string(spec.description);
    return p;
}

std::vector<LeafDef> buildManifest()
{
    std::vector<LeafDef> m;
    for (const LeafSpec& spec : kLeaves)
    {
        LeafDef d{spec.id, std::string(spec.name), spec.kind, std::string(spec.description), {}};
        for (const ParamSpec& p : spec.params)
            d.params.push_back(paramDefOf(p));
        m.push_back(std::move(d));
    }
    return m;
}

const std::vector<LeafDef>& manifest()
{
    static const std::vector<LeafDef> kManifest = buildManifest();
    return kManifest;
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

const LeafDef& leafDef(LeafId id)
{
    assert(id < LeafId::Count);
    return manifest()[static_cast<size_t>(id)];
}

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

bool paramValueFits(const ParamDef& def, const Value& value)
{
    auto inRange = [&](double v) { return !(v < def.min || v > def.max); };
    switch (def.type)
    {
    case ParamType::Number:
    {
        double d = 0;
        return value.numberOf(d) && std::isfinite(d) && inRange(d);
    }
    case ParamType::Integer:
        // As JSON reads an integer as a signed one (an unsigned one past its range wraps).
        return value.isInteger() &&
               inRange(static_cast<double>(value.kind() == Value::Kind::Int ? value.int64()
                                                                              : static_cast<int64_t>(value.uint64())));
    case ParamType::Bool: return value.isBool();
    case ParamType::String: return value.isString();
    case ParamType::Point: return value.isFinitePoint();
    case ParamType::Target: return value.isString() ? !value.string().empty() : value.isFinitePoint();
    case ParamType::Points:
    {
        if (!value.isList() || value.items().empty() || value.items().size() > 1024)
            return false;
        for (const Value& p : value.items())
            if (!p.isFinitePoint())
                return false;
        return true;
    }
    case ParamType::Any: return true;
    }
    return false;
}

bool paramValueMatches(const ParamDef& def, const Value& value, std::string& outExpected)
{
    outExpected = paramTypeName(def.type);
    if (paramValueFits(def, value))
        return true;
    // The type fits, the range does not.
    const bool typeFits = (def.type == ParamType::Number && value.isNumber() && std::isfinite(value.number())) ||
                          (def.type == ParamType::Integer && value.isInteger());
    if (typeFits)
        outExpected += " in [" + json(def.min).dump() + ", " + json(def.max).dump() + "]";
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
    if (!def.defaultValue.isNull())
        s["default"] = valueToJson(def.defaultValue);
    const json bbRef = {{"type", "object"},
                        {"properties", {{"bb", {{"type", "string"}, {"minLength", 1}}}}},
                        {"required", {"bb"}},
                        {"additionalProperties", false}};
    if (def.type == ParamType::Any)
        return s;
    return {{"anyOf", json::array({s, bbRef})}, {"description", def.description}};
}

namespace
{
json leafJson(const LeafDef& d)
{
    json params = json::object();
    json required = json::array();
    for (const ParamDef& p : d.params)
    {
        params[p.name] = {{"type", paramTypeName(p.type)},
                          {"required", p.required},
                          {"description", p.description},
                          {"schema", paramSchema(p)}};
        if (!p.defaultValue.isNull())
            params[p.name]["default"] = valueToJson(p.defaultValue);
        if (p.required)
            required.push_back(p.name);
    }
    return {{"name", d.name},
            {"kind", d.kind == LeafKind::Action ? "action" : "condition"},
            {"description", d.description},
            {"params", params},
            {"required", required}};
}
} // namespace

json leafManifestJson()
{
    json out = json::array();
    for (const LeafDef& d : manifest())
        out.push_back(leafJson(d));
    return out;
}

json leafManifestJson(const LeafRegistry& leaves)
{
    json out = json::array();
    for (size_t i = 0; i < leaves.size(); ++i)
        out.push_back(leafJson(leaves.leaf(i)));
    return out;
}

Status checkParamNames(const LeafDef& def, std::span<const std::string_view> names)
{
    const size_t n = std::min(names.size(), def.params.size());
    for (size_t i = 0; i < n; ++i)
        if (def.params[i].name != names[i])
            return makeError(kCodeParams,
                             "parameter " + std::to_string(i) + " of '" + def.name + "' is '" +
                                 def.params[i].name + "' in the manifest but '" + std::string(names[i]) +
                                 "' in its enum",
                             "/params/" + std::to_string(i), "list the enum in the manifest's order");
    if (names.size() != def.params.size())
        return makeError(kCodeParams,
                         "'" + def.name + "' declares " + std::to_string(def.params.size()) +
                             " parameters but its enum names " + std::to_string(names.size()),
                         "/params/" + std::to_string(n), "give the enum one entry per declared parameter");
    return Status::success();
}

Status checkBuiltinParamEnums()
{
    for (size_t i = 0; i < manifest().size(); ++i)
        if (manifest()[i].id != static_cast<LeafId>(i))
            return makeError(kCodeParams,
                             "the built-in manifest is not in LeafId order at '" + manifest()[i].name + "'",
                             "/" + std::to_string(i));
    SPARK_TRY(checkParamEnum<MoveToParam>(leafDef(LeafId::MoveTo)));
    SPARK_TRY(checkParamEnum<PatrolParam>(leafDef(LeafId::Patrol)));
    SPARK_TRY(checkParamEnum<StopParam>(leafDef(LeafId::Stop)));
    SPARK_TRY(checkParamEnum<FaceParam>(leafDef(LeafId::Face)));
    SPARK_TRY(checkParamEnum<SetSpeedParam>(leafDef(LeafId::SetSpeed)));
    SPARK_TRY(checkParamEnum<LogParam>(leafDef(LeafId::Log)));
    SPARK_TRY(checkParamEnum<EmitParam>(leafDef(LeafId::Emit)));
    SPARK_TRY(checkParamEnum<CanSeeParam>(leafDef(LeafId::CanSee)));
    SPARK_TRY(checkParamEnum<WithinParam>(leafDef(LeafId::Within)));
    SPARK_TRY(checkParamEnum<ArrivedParam>(leafDef(LeafId::Arrived)));
    SPARK_TRY(checkParamEnum<HasPathParam>(leafDef(LeafId::HasPath)));
    SPARK_TRY(checkParamEnum<ChanceParam>(leafDef(LeafId::Chance)));
    return Status::success();
}

LeafCall makeLeafCall(const LeafDef& def, const json& params)
{
    LeafCall call;
    call.leaf = def.id;
    call.index = def.id == LeafId::Count ? 0 : static_cast<uint32_t>(def.id);
    call.name = def.name;
    call.params.resize(def.params.size());
    for (size_t i = 0; i < def.params.size(); ++i)
    {
        ParamSlot& slot = call.params[i];
        const ParamDef& p = def.params[i];
        slot.type = p.type;
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
            slot.literal = valueFromJson(*given);
        }
        else if (!p.defaultValue.isNull())
        {
            slot.present = true;
            slot.literal = p.defaultValue;
        }
        preparseSlot(slot);
    }
    return call;
}

void preparseSlot(ParamSlot& io)
{
    io.literalNumber = false;
    io.literalPoint = false;
    if (!io.present || io.fromBb)
        return;
    io.literalNumber = io.literal.numberOf(io.number);
    if (io.literal.isFinitePoint())
    {
        const Value::List& a = io.literal.items();
        io.point = {a[0].number(), a[1].number(), a[2].number()};
        io.literalPoint = true;
    }
}

} // namespace spark::ai
