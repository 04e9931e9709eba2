#pragma once
/// \file ai_assert.h
/// Conditions over a session's AI and scene (`ai.assert`, `ai.until`): one
/// JSON object with exactly one of these keys —
///
///     {"blackboard":   {"agent", "key", "equals"? | "op"? + "value"? | "exists"?}}
///     {"events":       {"kind"?, "agent"?, "since"?, "data"?, "at_least"? | "at_most"? | "exactly"?}}
///     {"tree_status":  {"agent", "equals": "idle" | "running" | "success" | "failure"}}
///     {"agent_state":  {"agent", "equals": "idle" | "moving" | "arrived" | "no_path" | "off_mesh"}}
///     {"brain_enabled":{"agent", "equals": true | false}}
///     {"distance":     {"from", "to", "at_most"? , "at_least"?}}   (metres between ground points)
///     {"all": [condition, …]}   {"any": [condition, …]}
///
/// `op` is one of `<`, `<=`, `==`, `!=`, `>=`, `>` against the number `value`;
/// `events` counts events of that kind and agent, from event number `since`,
/// whose data has every field of `data` with that value; without a count it
/// means `at_least: 1`. Names are the world's agent names: an object's name,
/// or the name `ai.brain.attach` gave a crowd agent.

#include "spark/core/result.h"
#include "spark/scene/session_state.h"

#include <nlohmann/json.hpp>

#include <string_view>

#include "spark/core/export.h"
SPARK_SCENE_API_BEGIN

namespace spark::scene
{

/// Most conditions nested in `all` / `any`, counted over the whole condition.
inline constexpr size_t kMaxAssertConditions = 256;

/// What a condition found.
struct AssertOutcome
{
    bool held = false;
    nlohmann::json expected; ///< What the condition asks for.
    nlohmann::json actual;   ///< What the state holds.
};

/// Evaluates `condition` (its JSON pointer is `pointer`, used in errors).
/// Errors: `E_INVALID_PARAMS` (field = the bad part), `E_AI_UNKNOWN` (no brain
/// or agent by that name), `E_SCENE_UNKNOWN_OBJECT` (no object by that name).
Result<AssertOutcome> evaluateCondition(const SessionState& state, const nlohmann::json& condition,
                                        std::string_view pointer);

} // namespace spark::scene
SPARK_SCENE_API_END
