#pragma once
/// \file leaves.h
/// The built-in leaves (actions and conditions) and their declared parameters.
/// The manifest is what `ai.leaves` lists and what validation checks leaf
/// parameters against. Every parameter may also be given as `{"bb": "key"}`,
/// read from the blackboard when the leaf runs.

#include "spark/ai/blackboard.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace spark::ai
{

/// Whether a leaf acts (may run over several ticks) or tests (answers at once).
enum class LeafKind : uint8_t
{
    Action,
    Condition,
};

/// The built-in leaves.
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
    json defaultValue;       ///< Used when not given; null when none.
    double min = -1e300;     ///< Lower bound for numbers. [inclusive]
    double max = 1e300;      ///< Upper bound for numbers. [inclusive]
    std::string description; ///< One line.
};

/// One built-in leaf.
struct LeafDef
{
    LeafId id = LeafId::Stop;
    std::string name;          ///< e.g. "move_to".
    LeafKind kind = LeafKind::Action;
    std::string description;   ///< One line.
    std::vector<ParamDef> params;
};

/// Every built-in leaf, in a fixed order (by LeafId).
std::span<const LeafDef> leafManifest();
/// The leaf named `name`, or nullptr.
const LeafDef* findLeaf(std::string_view name);
/// The leaf with id `id`.
const LeafDef& leafDef(LeafId id);
/// The name of a parameter type ("number", "point", ...).
const char* paramTypeName(ParamType type);
/// A JSON Schema (draft-07) for one parameter (including the `{"bb"}` form).
json paramSchema(const ParamDef& def);
/// The manifest as JSON: [{name, kind, description, params: {name: {...}}}].
json leafManifestJson();

/// Checks a literal value against a parameter's declared type; on failure
/// returns false and sets `outExpected` to what was expected.
bool paramValueMatches(const ParamDef& def, const json& value, std::string& outExpected);

/// One parameter slot of a compiled leaf call: a literal or a blackboard key.
struct ParamSlot
{
    bool present = false; ///< Given or defaulted.
    bool fromBb = false;  ///< Read `bbKey` when the leaf runs.
    std::string bbKey;    ///< Blackboard key when `fromBb`.
    json literal;         ///< The literal value when `!fromBb`.
};

/// A compiled call of a leaf: the leaf and one slot per declared parameter.
struct LeafCall
{
    LeafId leaf = LeafId::Stop;
    std::vector<ParamSlot> params; ///< Same order as the leaf's `ParamDef`s.
};

/// Builds a call from a (validated) `params` object; unknown keys are ignored.
LeafCall makeLeafCall(const LeafDef& def, const json& params);

} // namespace spark::ai
