#pragma once
/// \file work.h
/// Progress and cancellation of long library work: bakes (between stages),
/// multi-frame steps (between frames), scenarios (between steps).
///
/// Whoever starts the work (the MCP server, `spark run`) installs a
/// `WorkControl` on its thread with a `WorkScope`; the libraries call
/// `workCheckpoint` at their safe points, where stopping leaves nothing half
/// done. A checkpoint reports progress to the control and answers false once a
/// cancel was requested (from any thread) or the deadline passed; the work then
/// undoes what it changed (a bake installs nothing, steps restore the state they
/// saved) and returns `cancelledError()`. With no control installed a checkpoint
/// is one thread-local load and always answers true, so results never depend on
/// it: work either completes exactly as without a control or changes nothing.
///
/// Progress goes to the caller's callback on the working thread; the callback
/// must not throw and must not call back into the work.

#include "spark/core/export.h"
#include "spark/core/result.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string_view>

SPARK_CORE_API_BEGIN
namespace spark
{

/// Why a piece of work stopped early.
enum class WorkStop : uint8_t
{
    None,     ///< Not stopped.
    Cancel,   ///< `requestCancel` (a client's cancellation, Ctrl-C).
    Deadline, ///< The deadline passed (`spark run`'s `max_ms`).
};

/// The channel between long work and whoever started it.
class WorkControl
{
public:
    /// `stage` names what runs ("bake: regions", "frames"); `done` of `total` units of it are finished.
    using ProgressFn = std::function<void(std::string_view stage, uint64_t done, uint64_t total)>;

    WorkControl() = default;
    WorkControl(const WorkControl&) = delete;
    WorkControl& operator=(const WorkControl&) = delete;

    /// Asks the work to stop at its next safe point. Thread- and signal-safe (one lock-free store).
    void requestCancel() noexcept { m_cancel.store(true, std::memory_order_relaxed); }
    /// Whether a cancel was requested (the work may not have reached a safe point yet).
    bool cancelRequested() const noexcept { return m_cancel.load(std::memory_order_relaxed); }
    /// Stops the work at the first safe point after `deadline`.
    void setDeadline(std::chrono::steady_clock::time_point deadline) noexcept
    {
        m_deadline = deadline;
        m_hasDeadline = true;
    }
    /// Receives a report at every safe point (on the working thread).
    void setProgress(ProgressFn progress) { m_progress = std::move(progress); }

    /// A safe point: answers false when the work must stop, else reports progress and answers true.
    bool checkpoint(std::string_view stage, uint64_t done, uint64_t total);
    /// Why the work stopped (`None` while it may go on).
    WorkStop stopped() const noexcept { return m_stopped; }

private:
    std::atomic<bool> m_cancel{false};
    static_assert(std::atomic<bool>::is_always_lock_free, "requestCancel is called from signal handlers");
    bool m_hasDeadline = false;
    std::chrono::steady_clock::time_point m_deadline{};
    ProgressFn m_progress;
    WorkStop m_stopped = WorkStop::None;
};

/// Installs `control` as the current work control of this thread for the scope's life
/// (the previous one comes back after; null installs none).
class WorkScope
{
public:
    explicit WorkScope(WorkControl* control) noexcept;
    ~WorkScope();
    WorkScope(const WorkScope&) = delete;
    WorkScope& operator=(const WorkScope&) = delete;

private:
    WorkControl* m_previous;
};

/// The current work control of this thread, or null.
WorkControl* currentWork() noexcept;

/// True when the current work can be stopped (a control is installed): work that would
/// have to undo finished units (frames) saves its state only then.
inline bool workCancellable() noexcept
{
    return currentWork() != nullptr;
}

/// A safe point of the current work (see `WorkControl::checkpoint`); true with no control.
bool workCheckpoint(std::string_view stage, uint64_t done, uint64_t total);

/// The error cancelled work returns: `E_CANCELLED`, naming the stage it stopped before.
Error cancelledError(std::string_view stage);

/// The threads a `threads` setting asks for (the bake's, the crowd's, the
/// avoidance's): the setting itself when positive, else (0: "all") the
/// hardware's thread count, at least 1. Callers clamp it to their jobs.
unsigned workerThreads(int setting) noexcept;

} // namespace spark
SPARK_CORE_API_END
