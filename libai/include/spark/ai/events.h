#pragma once
/// \file events.h
/// The AI event log: what brains saw and did (spotted, lost_sight, waypoint,
/// arrived, tree_status, utility, error, emitted, log), in order.

#include "spark/ai/value_json.h"

#include <cstdint>
#include <string>
#include <vector>

#include "spark/core/export.h"
SPARK_AI_API_BEGIN

namespace spark::ai
{

/// Event kinds, as they appear in `AiEvent::kind`.
inline constexpr const char* kEventSpotted = "spotted";
inline constexpr const char* kEventLostSight = "lost_sight";
inline constexpr const char* kEventWaypoint = "waypoint";
inline constexpr const char* kEventArrived = "arrived";
inline constexpr const char* kEventTreeStatus = "tree_status";
inline constexpr const char* kEventUtility = "utility";
inline constexpr const char* kEventError = "error";
inline constexpr const char* kEventEmitted = "emitted";
inline constexpr const char* kEventLog = "log";

/// One event.
struct AiEvent
{
    uint64_t seq = 0;   ///< Position in the log, from 0, never reused.
    uint64_t frame = 0; ///< Simulation frame of the tick that recorded it.
    double time = 0;    ///< Simulation time (frame × dt). [Units: s]
    std::string kind;   ///< One of the kEvent* names.
    std::string agent;  ///< The agent whose brain recorded it.
    json data;          ///< Kind-specific details (an object).
};

/// The log. Keeps the newest `kMaxEvents`; `nextSeq` keeps counting.
struct EventLog
{
    static constexpr size_t kMaxEvents = 65536; ///< Older events are dropped past this.
    std::vector<AiEvent> events;                ///< Oldest first.
    uint64_t nextSeq = 0;                       ///< Sequence number of the next event.
};

/// Appends an event.
void pushEvent(EventLog& io, uint64_t frame, double time, std::string kind, std::string agent, json data);

/// Feeds the log canonically into `io`.
void hashEventLog(Hasher& io, const EventLog& log);

} // namespace spark::ai
SPARK_AI_API_END
