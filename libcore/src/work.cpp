// Progress and cancellation of long work (see work.h).

#include "spark/core/work.h"

#include <algorithm>
#include <string>
#include <thread>

namespace spark
{
namespace
{
thread_local WorkControl* t_current = nullptr;
} // namespace

bool WorkControl::checkpoint(std::string_view stage, uint64_t done, uint64_t total)
{
    if (m_stopped != WorkStop::None)
        return false;
    if (m_cancel.load(std::memory_order_relaxed))
        m_stopped = WorkStop::Cancel;
    else if (m_hasDeadline && std::chrono::steady_clock::now() >= m_deadline)
        m_stopped = WorkStop::Deadline; // a clock, but it only decides whether to go on, never a result
    if (m_stopped != WorkStop::None)
        return false;
    if (m_progress)
        m_progress(stage, done, total); // only work that goes on reports
    return true;
}

WorkScope::WorkScope(WorkControl* control) noexcept : m_previous(t_current)
{
    t_current = control;
}

WorkScope::~WorkScope()
{
    t_current = m_previous;
}

WorkControl* currentWork() noexcept
{
    return t_current;
}

bool workCheckpoint(std::string_view stage, uint64_t done, uint64_t total)
{
    WorkControl* control = t_current;
    return control == nullptr || control->checkpoint(stage, done, total);
}

Error cancelledError(std::string_view stage)
{
    WorkControl* control = t_current;
    const bool deadline = control && control->stopped() == WorkStop::Deadline;
    return makeError("E_CANCELLED",
                     std::string(deadline ? "stopped at its time limit" : "cancelled") + " before " +
                         std::string(stage) + "; nothing was changed",
                     {}, deadline ? "raise max_ms, or split the work (fewer frames per call)" : "");
}

unsigned workerThreads(int setting) noexcept
{
    return setting > 0 ? static_cast<unsigned>(setting) : std::max(1u, std::thread::hardware_concurrency());
}

} // namespace spark
