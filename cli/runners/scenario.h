#pragma once
/// \file scenario.h
/// Scenarios: tests written as data. A scenario is
/// `{"version": 1, "name", "steps": [{"do": ID, ...params, "expect"?, "expect_error"?, "tolerance"?, "note"?}]}`.
/// Each step runs one command on the session. A step fails on an unexpected
/// error, a missing expected error, a result that does not contain the `expect`
/// subset (numbers within `tolerance`, default 1e-9), or a result that says
/// `equal: false` / `passed: false` (unless `expect` names that field). With
/// `expect_error`, `expect` is a subset of the error's `data`. The run stops at
/// the first failing step.
///
/// `ai.scenario.run` is a command like any other: a scenario that does not pass
/// fails it with `E_SCENARIO_FAILED` (the report in `data`) and the session is
/// rolled back to before the run. Scenario files that run each other get
/// `E_SCENARIO_CYCLE` with the chain of files; nesting is limited to
/// `kMaxScenarioDepth` runs, and the steps of the scenarios one outermost run
/// runs (at any depth) to `DispatchOptions::scenarioStepBudget` in all
/// (`E_SCENARIO_LIMIT` naming the step where it ran out, for every enclosing run).

#include "surface/dispatcher.h"

#include <string>

namespace spark::cli
{

/// Largest scenario file read. [Units: bytes]
inline constexpr size_t kMaxScenarioFileBytes = 64u * 1024u * 1024u;
/// Deepest nesting of `ai.scenario.run` inside scenarios.
inline constexpr size_t kMaxScenarioDepth = 16;

/// Step keys that are not params.
inline constexpr const char* kStepReservedKeys[] = {"do", "expect", "expect_error", "tolerance", "note"};

/// Checks that `actual` contains `expected` (objects: every expected key present
/// and matching; arrays: same length, element-wise; numbers within `tolerance`).
/// On mismatch returns false and sets `outWhy` with the JSON pointer of the first difference.
bool containsSubset(const json& actual, const json& expected, double tolerance, std::string& outWhy,
                    const std::string& at = "");

/// Validates the shape of a scenario document; fails with E_FORMAT and the path.
void checkScenarioDocument(const json& doc, const std::string& pathPrefix);

/// Runs the steps of a scenario document on `io`; returns
/// `{name, passed, steps: [{index, do, ok, result | error}], failed?: {index, do, why}}`.
json runScenario(Dispatcher& dispatcher, scene::SessionState& io, const json& doc, bool updateGoldens);

/// Marks the scenario file `canonicalPath` as running for as long as it lives
/// (the chain `ai.scenario.run` checks for cycles). Fails with
/// `E_SCENARIO_CYCLE` (data: `chain`) when the file is already running and with
/// `E_SCENARIO_LIMIT` past `kMaxScenarioDepth` nested runs. An empty path marks
/// an inline document (counted for depth only).
class ScenarioFrame
{
public:
    ScenarioFrame(Dispatcher& dispatcher, std::string canonicalPath, const std::string& field);
    ~ScenarioFrame();
    ScenarioFrame(const ScenarioFrame&) = delete;
    ScenarioFrame& operator=(const ScenarioFrame&) = delete;

private:
    Dispatcher& m_dispatcher;
};

} // namespace spark::cli
