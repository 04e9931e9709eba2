#pragma once
/// \file leaves.h
/// The built-in leaves (actions and conditions) and their declared parameters.
/// The manifest is what `ai.leaves` lists and what validation checks leaf
/// parameters against. Every parameter may also be given as `{"bb": "key"}`,
/// read from the blackboard when the leaf runs.
///
/// Leaf code reads a parameter by its named index, never by position: each
/// built-in leaf has an enum of its parameters (`MoveToParam::Target`), tied to
/// the manifest by `ParamEnumNames` and checked at compile time (leaves.cpp) and
/// by `checkBuiltinParamEnums()`. Games add their own leaves beside these with a
/// `LeafRegistry` (leaf_registry.h).

#include "spark/ai/blackboard.h"
#include "spark/ai/value.h"
#include "spark/ai/value_json.h"
#include "spark/core/result.h"

#include <array>
#include <cassert>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "spark/core/export.h"
SPARK_AI_API_BEGIN

namespace spark::ai
{

/// Whether a leaf acts (may run over several ticks) or tests (answers at once).
enum class LeafKind : uint8_t
{
    Action,
    Condition,
};

/// The built-in leaves. `Count` marks a leaf registered by a game (`LeafCall::leaf`).
enum class LeafId : uint8_t
{
    MoveTo,
    Patrol,
    Stop,
    Face,
    SetSpeed,
    Log,
    Emit,
    CanSee,
    Within,
    Arrived,
    HasPath,
    Chance,
    Count
};

/// The JSON type a parameter takes.
enum class ParamType : uint8_t
{
    Number,  ///< Any finite number within [min, max].
    Integer, ///< A whole number within [min, max].
    Bool,
    String,
    Point,   ///< [x, y, z] (a 2-element [x, z] is not accepted).
    Target,  ///< An agent/object name, or a point [x, y, z].
    Points,  ///< A non-empty array of points.
    Any,     ///< Any JSON value.
};

/// One declared parameter of a leaf.
struct ParamDef
{
    std::string name;        ///< Parameter name in `params`.
    ParamType type = ParamType::Number;
    bool required = false;   ///< Must be given (else `defaultValue` applies).
    Value defaultValue;      ///< Used when not given; null when none.
    double min = -1e300;     ///< Lower bound for numbers. [inclusive]
    double max = 1e300;      ///< Upper bound for numbers. [inclusive]
    std::string description; ///< One line.
};

/// One leaf of the manifest: a built-in, or one a game registered.
struct LeafDef
{
    LeafId id = LeafId::Stop;  ///< The built-in leaf; `LeafId::Count` for a registered one.
    std::string name;          ///< e.g. "move_to".
    LeafKind kind = LeafKind::Action;
    std::string description;   ///< One line.
    std::vector<ParamDef> params;
};

/// Every built-in leaf, in a fixed order (by LeafId).
std::span<const LeafDef> leafManifest();
/// The built-in leaf named `name`, or nullptr.
const LeafDef* findLeaf(std::string_view name);
/// The built-in leaf with id `id`. [Limit: id < LeafId::Count]
const LeafDef& leafDef(LeafId id);
/// The name of a parameter type ("number", "point", ...).
const char* paramTypeName(ParamType type);
/// A JSON Schema (draft-07) for one parameter (including the `{"bb"}` form).
json paramSchema(const ParamDef& def);
/// The built-in manifest as JSON: [{name, kind, description, params: {name: {...}}, required}].
json leafManifestJson();

/// The built-in leaves plus a game's own (leaf_registry.h).
class LeafRegistry;
/// The manifest of a registry as JSON (built-ins first, then the registered
/// leaves in registration order), each entry shaped as in `leafManifestJson()`.
json leafManifestJson(const LeafRegistry& leaves);
/// The registry of the built-in leaves only: what every function taking a
/// registry uses when none is given.
const LeafRegistry& builtinLeafRegistry();

/// Checks a literal value against a parameter's declared type; on failure
/// returns false and sets `outExpected` to what was expected.
bool paramValueMatches(const ParamDef& def, const Value& value, std::string& outExpected);
/// True when a value fits a parameter's declared type (paramValueMatches without
/// the message: allocates nothing, for the tick).
bool paramValueFits(const ParamDef& def, const Value& value);

/// One parameter slot of a compiled leaf call: a literal or a blackboard key.
struct ParamSlot
{
    bool present = false; ///< Given or defaulted.
    bool fromBb = false;  ///< Read `bbKey` when the leaf runs.
    std::string bbKey;    ///< Blackboard key when `fromBb`.
    uint32_t bbIndex = UINT32_MAX; ///< `bbKey` in the compiled tree's `keys` (UINT32_MAX: not resolved).
    Value literal;        ///< The literal value when `!fromBb`.
    bool literalNumber = false;     ///< `literal` is a number, pre-read into `number`.
    double number = 0;              ///< The literal number (when `literalNumber`).
    bool literalPoint = false;      ///< `literal` is a point [x, y, z], pre-read into `point`.
    std::array<double, 3> point{};  ///< The literal point (when `literalPoint`).
    ParamType type = ParamType::Any; ///< The declared type of the parameter (set by makeLeafCall).
};

/// Pre-reads a slot's literal number or point (`literalNumber`, `literalPoint`),
/// so that a tick reads it without looking at the value's kind.
void preparseSlot(ParamSlot& io);

/// A compiled call of a leaf: the leaf and one slot per declared parameter.
/// Plain data: a registered leaf is referred to by name and registry index,
/// its callbacks stay in the `LeafRegistry` passed in when ticking.
struct LeafCall
{
    LeafId leaf = LeafId::Stop;    ///< The built-in leaf; `LeafId::Count` for a registered one.
    uint32_t index = 0;            ///< Position in the registry compiled against (a built-in: its LeafId).
    std::string name;              ///< The leaf's name (finds a registered leaf when `index` is stale).
    std::vector<ParamSlot> params; ///< In `ParamDef` order; read with `slot(call, MoveToParam::Target)`.
};

/// Builds a call from a (validated) `params` object; unknown keys are ignored.
/// `index` is set to the built-in's LeafId (registries set their own).
LeafCall makeLeafCall(const LeafDef& def, const json& params);

// ---------------------------------------------------------------------------
// Parameters by named index.

/// Parameters of `move_to`, in manifest order.
enum class MoveToParam : uint8_t
{
    Target,
    StopDistance,
    RepathDistance,
    Count
};
/// Parameters of `patrol`, in manifest order.
enum class PatrolParam : uint8_t
{
    Points,
    Loop,
    StopDistance,
    Count
};
/// Parameters of `stop` (none).
enum class StopParam : uint8_t
{
    Count
};
/// Parameters of `face`, in manifest order.
enum class FaceParam : uint8_t
{
    Target,
    Count
};
/// Parameters of `set_speed`, in manifest order.
enum class SetSpeedParam : uint8_t
{
    Speed,
    Count
};
/// Parameters of `log`, in manifest order.
enum class LogParam : uint8_t
{
    Message,
    Count
};
/// Parameters of `emit`, in manifest order.
enum class EmitParam : uint8_t
{
    Event,
    Data,
    Count
};
/// Parameters of `can_see`, in manifest order.
enum class CanSeeParam : uint8_t
{
    Target,
    Range,
    FovDeg,
    EyeHeight,
    Count
};
/// Parameters of `within`, in manifest order.
enum class WithinParam : uint8_t
{
    Target,
    Distance,
    Count
};
/// Parameters of `arrived` (none).
enum class ArrivedParam : uint8_t
{
    Count
};
/// Parameters of `has_path`, in manifest order.
enum class HasPathParam : uint8_t
{
    Target,
    Count
};
/// Parameters of `chance`, in manifest order.
enum class ChanceParam : uint8_t
{
    Probability,
    Count
};

/// Ties a parameter enum to its leaf: `leaf` is the built-in leaf (`LeafId::Count`
/// for a game's leaf) and `names[i]` the manifest name of enumerator `i` (exactly
/// `E::Count` entries). Specialised for every built-in leaf below; a game may
/// specialise it for the enum of its own leaf and check it with `checkParamEnum`.
template <class E> struct ParamEnumNames;

/// `leaf` and manifest `names` of `MoveToParam`.
template <> struct ParamEnumNames<MoveToParam>
{
    static constexpr LeafId leaf = LeafId::MoveTo;
    static constexpr std::array<std::string_view, 3> names = {"target", "stop_distance", "repath_distance"};
};
/// `leaf` and manifest `names` of `PatrolParam`.
template <> struct ParamEnumNames<PatrolParam>
{
    static constexpr LeafId leaf = LeafId::Patrol;
    static constexpr std::array<std::string_view, 3> names = {"points", "loop", "stop_distance"};
};
/// `leaf` and manifest `names` of `StopParam`.
template <> struct ParamEnumNames<StopParam>
{
    static constexpr LeafId leaf = LeafId::Stop;
    static constexpr std::array<std::string_view, 0> names{};
};
/// `leaf` and manifest `names` of `FaceParam`.
template <> struct ParamEnumNames<FaceParam>
{
    static constexpr LeafId leaf = LeafId::Face;
    static constexpr std::array<std::string_view, 1> names = {"target"};
};
/// `leaf` and manifest `names` of `SetSpeedParam`.
template <> struct ParamEnumNames<SetSpeedParam>
{
    static constexpr LeafId leaf = LeafId::SetSpeed;
    static constexpr std::array<std::string_view, 1> names = {"speed"};
};
/// `leaf` and manifest `names` of `LogParam`.
template <> struct ParamEnumNames<LogParam>
{
    static constexpr LeafId leaf = LeafId::Log;
    static constexpr std::array<std::string_view, 1> names = {"message"};
};
/// `leaf` and manifest `names` of `EmitParam`.
template <> struct ParamEnumNames<EmitParam>
{
    static constexpr LeafId leaf = LeafId::Emit;
    static constexpr std::array<std::string_view, 2> names = {"event", "data"};
};
/// `leaf` and manifest `names` of `CanSeeParam`.
template <> struct ParamEnumNames<CanSeeParam>
{
    static constexpr LeafId leaf = LeafId::CanSee;
    static constexpr std::array<std::string_view, 4> names = {"target", "range", "fov_deg", "eye_height"};
};
/// `leaf` and manifest `names` of `WithinParam`.
template <> struct ParamEnumNames<WithinParam>
{
    static constexpr LeafId leaf = LeafId::Within;
    static constexpr std::array<std::string_view, 2> names = {"target", "distance"};
};
/// `leaf` and manifest `names` of `ArrivedParam`.
template <> struct ParamEnumNames<ArrivedParam>
{
    static constexpr LeafId leaf = LeafId::Arrived;
    static constexpr std::array<std::string_view, 0> names{};
};
/// `leaf` and manifest `names` of `HasPathParam`.
template <> struct ParamEnumNames<HasPathParam>
{
    static constexpr LeafId leaf = LeafId::HasPath;
    static constexpr std::array<std::string_view, 1> names = {"target"};
};
/// `leaf` and manifest `names` of `ChanceParam`.
template <> struct ParamEnumNames<ChanceParam>
{
    static constexpr LeafId leaf = LeafId::Chance;
    static constexpr std::array<std::string_view, 1> names = {"probability"};
};

/// The slot of parameter `p` in a call of `p`'s leaf.
template <class E> [[gnu::always_inline]] inline const ParamSlot& slot(const LeafCall& call, E p)
{
    static_assert(std::is_enum_v<E>, "parameters are read by their enum");
    if constexpr (ParamEnumNames<E>::leaf != LeafId::Count)
        assert(call.leaf == ParamEnumNames<E>::leaf);
    assert(static_cast<size_t>(p) < call.params.size());
    return call.params[static_cast<size_t>(p)];
}

/// The declaration of parameter `p` of `def` (`p`'s leaf).
template <class E> [[gnu::always_inline]] inline const ParamDef& paramDef(const LeafDef& def, E p)
{
    static_assert(std::is_enum_v<E>, "parameters are read by their enum");
    assert(static_cast<size_t>(p) < def.params.size());
    return def.params[static_cast<size_t>(p)];
}

/// Checks that `names` are exactly the names of `def`'s parameters, in order.
/// Error E_AI_PARAMS naming the first difference (field `/params/<i>`).
Status checkParamNames(const LeafDef& def, std::span<const std::string_view> names);

/// Checks a parameter enum against a leaf's manifest entry (names and count, in order).
template <class E> Status checkParamEnum(const LeafDef& def)
{
    static_assert(ParamEnumNames<E>::names.size() == static_cast<size_t>(E::Count),
                  "ParamEnumNames<E>::names must name every enumerator");
    return checkParamNames(def, ParamEnumNames<E>::names);
}

/// Checks every built-in leaf's parameter enum against the built manifest (a
/// start-up check behind the compile-time one; run by the unit tests).
Status checkBuiltinParamEnums();

} // namespace spark::ai
SPARK_AI_API_END
