#pragma once
/// \file blackboard.h
/// A brain's blackboard: a JSON object of named values. nlohmann's object is an
/// ordered map, so iteration (serialisation, hashing) is in key order.

#include <nlohmann/json.hpp>

#include <string_view>

namespace spark
{
class Hasher;
}

namespace spark::ai
{

using json = nlohmann::json;

/// Named values; always a JSON object.
using Blackboard = json;

/// An empty blackboard.
inline Blackboard makeBlackboard() { return json::object(); }

/// The value under `key`, or nullptr.
const json* blackboardFind(const Blackboard& bb, std::string_view key);

/// True when `value` is a blackboard reference `{"bb": "key"}`.
bool isBlackboardRef(const json& value);

/// Feeds a JSON value canonically into `io` (type tag, then value; object keys in
/// order; integers as 64-bit, other numbers by their double bit pattern).
void hashJson(Hasher& io, const json& value);

} // namespace spark::ai
