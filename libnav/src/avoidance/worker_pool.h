#pragma once
/// \file worker_pool.h
/// Threads an avoidance object keeps for its calls: a call hands one job to
/// `count` workers (worker 0 is the calling thread) and returns when every one
/// has returned. The threads are made on first need and sleep on a futex
/// (std::atomic::wait) between calls, so a step pays a wake-up, not a thread
/// start (about 20 µs, a third of a 250-agent step).
///
/// What a worker does must not depend on which worker does it for a result
/// to be deterministic; the avoidance's jobs are agents whose solves read only
/// the call's inputs and write only their own output.

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace spark::nav::detail
{

class WorkerPool
{
public:
    WorkerPool() = default;
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;
    ~WorkerPool()
    {
        if (m_threads.empty())
            return;
        m_stop = true;
        m_generation.fetch_add(1, std::memory_order_release);
        m_generation.notify_all();
        for (std::thread& t : m_threads)
            t.join();
    }

    /// Calls job(w) for every w in [0, count) at once, w = 0 on this thread;
    /// returns when all have returned. `job` must not throw.
    template <class Job> void run(unsigned count, Job& job)
    {
        if (count <= 1)
        {
            job(0u);
            return;
        }
        while (m_threads.size() < count - 1)
        {
            const unsigned index = static_cast<unsigned>(m_threads.size()) + 1;
            const uint32_t seen = m_generation.load(std::memory_order_relaxed);
            m_threads.emplace_back([this, index, seen] { loop(index, seen); });
        }
        m_call = [](void* j, unsigned w) { (*static_cast<Job*>(j))(w); };
        m_job = &job;
        m_count = count;
        m_pending.store(static_cast<uint32_t>(m_threads.size()), std::memory_order_relaxed);
        m_generation.fetch_add(1, std::memory_order_release); // publishes the fields above
        m_generation.notify_all();
        job(0u);
        for (uint32_t left = m_pending.load(std::memory_order_acquire); left != 0;
             left = m_pending.load(std::memory_order_acquire))
            m_pending.wait(left, std::memory_order_acquire);
    }

private:
    void loop(unsigned index, uint32_t seen)
    {
        for (;;)
        {
            m_generation.wait(seen, std::memory_order_acquire);
            seen = m_generation.load(std::memory_order_acquire);
            if (m_stop)
                return;
            if (index < m_count)
                m_call(m_job, index);
            if (m_pending.fetch_sub(1, std::memory_order_acq_rel) == 1)
                m_pending.notify_one();
        }
    }

    std::vector<std::thread> m_threads;
    std::atomic<uint32_t> m_generation{0}; ///< Raised once per call (and to stop).
    std::atomic<uint32_t> m_pending{0};    ///< Threads not yet done with the current call.
    void (*m_call)(void*, unsigned) = nullptr;
    void* m_job = nullptr;
    unsigned m_count = 0; ///< Workers of the current call (threads past it only check in).
    bool m_stop = false;
};

} // namespace spark::nav::detail
