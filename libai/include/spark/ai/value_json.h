#pragma once
/// \file value_json.h
/// The JSON edge of blackboard values: a value from and to its JSON form (the
/// kinds map one to one: null, boolean, integer, unsigned integer, double,
/// string, array, object), a blackboard from and to a JSON object, and the
/// canonical hash bytes of a JSON value (the ones hashValue feeds for the
/// value it stands for).

#include "spark/ai/blackboard.h"
#include "spark/ai/value.h"

#include <nlohmann/json.hpp>

#include "spark/core/export.h"
SPARK_AI_API_BEGIN

namespace spark::ai
{

using json = nlohmann::json;

/// The value of a JSON value (a binary or discarded JSON value, which no
/// document parses to, gives null).
Value valueFromJson(const json& j);
/// The JSON of a value.
json valueToJson(const Value& value);
/// nlohmann's ADL hooks: `json j = value;`, `Value v = j.get<Value>();`.
void to_json(json& out, const Value& value);
void from_json(const json& j, Value& out);

/// The blackboard of a JSON object, its keys taking slots in key order
/// (anything but an object gives an empty blackboard).
Blackboard blackboardFromJson(const json& object);
/// The blackboard as a JSON object.
json blackboardToJson(const Blackboard& bb);
/// nlohmann's ADL hook: `json j = bb;`, `{"blackboard", bb}`.
void to_json(json& out, const Blackboard& bb);

/// True when `value` is a blackboard reference `{"bb": "key"}`.
bool isBlackboardRef(const json& value);

/// Feeds a JSON value canonically into `io` (type tag, then value; object keys in
/// order; integers as 64-bit, other numbers by their double bit pattern): the
/// bytes hashValue feeds for the value of `value`.
void hashJson(Hasher& io, const json& value);

} // namespace spark::ai
SPARK_AI_API_END
