#pragma once
/// \file value_json.h
/// The JSON edge of blackboard values: a value from and to its JSON form (the
/// kinds map one to one: null, boolean, integer, unsigned integer, double,
/// string, array, object).

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

} // namespace spark::ai
SPARK_AI_API_END
