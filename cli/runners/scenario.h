#pragma once
/// \file scenario.h
/// Scenarios: tests written as data. A scenario is
/// `{"version": 1, "name", "steps": [{"do": ID, ...params, "expect"?, "expect_error"?, "tolerance"?, "note"?}]}`.
/// Each step runs one command on the session. A step fails on an unexpected
/// error, a missing expected error, a result that does not contain the `expect`
/// subset (numbers within `tolerance`, default 1e-9), or a result that says
/// `equal: false` / `passed: false` (unless `expect` names that field). The run
/// stops at the first failing step.

#include "surface/dispatcher.h"

#include <string>

namespace spark::cli
{

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

} // namespace spark::cli
