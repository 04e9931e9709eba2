// The AI event log: append-only with a bounded window of the newest events.
#include "spark/ai/events.h"
#include "spark/core/hash.h"

namespace spark::ai
{

void pushEvent(EventLog& io, uint64_t frame, double time, std::string kind, std::string agent, json data)
{
    if (io.events.size() >= EventLog::kMaxEvents)
        io.events.erase(io.events.begin(), io.events.begin() + static_cast<std::ptrdiff_t>(EventLog::kMaxEvents / 4));
    io.events.push_back(AiEvent{io.nextSeq++, frame, time, std::move(kind), std::move(agent),
                                data.is_null() ? json::object() : std::move(data)});
}

void hashEventLog(Hasher& io, const EventLog& log)
{
    io.addU64(log.nextSeq);
    io.addU64(log.events.size());
    for (const AiEvent& e : log.events)
    {
        io.addU64(e.seq);
        io.addU64(e.frame);
        io.addF64(e.time);
        io.addString(e.kind);
        io.addString(e.agent);
        hashJson(io, e.data);
    }
}

} // namespace spark::ai
