#pragma once
/// \file output.h
/// Human-readable rendering of answers (the default of `spark call`); `--json`
/// prints the envelope instead.

#include <nlohmann/json.hpp>

#include <string>

namespace spark::cli
{

/// A result as indented `key: value` lines (nested objects indented, short
/// arrays of scalars on one line).
std::string renderHuman(const nlohmann::json& result);

/// A scenario's answer (`ai.scenario.run`) as a story: the name and whether it
/// passed, then, from its last `ai.events` step, one line per event (frame,
/// time, who, what happened and where), then the pictures its steps wrote or
/// compared. Falls back to `renderHuman` for a scenario without events.
std::string renderScenarioStory(const nlohmann::json& result);

/// An error envelope as `error E_CODE: message` plus problems and hint lines.
std::string renderHumanError(const nlohmann::json& envelope);

} // namespace spark::cli
