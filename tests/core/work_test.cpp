#include "spark/core/work.h"

#include <doctest/doctest.h>

#include <string>
#include <thread>
#include <vector>

using namespace spark;

TEST_CASE("work: with no control a checkpoint always goes on")
{
    CHECK(currentWork() == nullptr);
    CHECK_FALSE(workCancellable());
    CHECK(workCheckpoint("frames", 0, 10));
}

TEST_CASE("work: progress reaches the control; a cancel from another thread stops at the next checkpoint")
{
    WorkControl control;
    std::vector<std::string> seen;
    control.setProgress([&](std::string_view stage, uint64_t done, uint64_t total)
                        { seen.push_back(std::string(stage) + " " + std::to_string(done) + "/" + std::to_string(total)); });
    {
        WorkScope scope(&control);
        CHECK(currentWork() == &control);
        CHECK(workCancellable());
        CHECK(workCheckpoint("bake: voxelize", 0, 6));
        std::thread([&] { control.requestCancel(); }).join();
        CHECK(control.cancelRequested());
        CHECK_FALSE(workCheckpoint("bake: filter", 1, 6));
        CHECK(control.stopped() == WorkStop::Cancel);
        CHECK_FALSE(workCheckpoint("bake: erode", 2, 6)); // stays stopped
        const Error e = cancelledError("bake: filter");
        CHECK(e.code == "E_CANCELLED");
        CHECK(e.message == "cancelled before bake: filter; nothing was changed");
    }
    CHECK(currentWork() == nullptr);
    CHECK(seen == std::vector<std::string>{"bake: voxelize 0/6"}); // stopped work reports nothing
}

TEST_CASE("work: a passed deadline stops the work; scopes nest")
{
    WorkControl outer, inner;
    WorkScope a(&outer);
    {
        WorkScope b(&inner);
        inner.setDeadline(std::chrono::steady_clock::now() - std::chrono::milliseconds(1));
        CHECK_FALSE(workCheckpoint("frames", 3, 10));
        CHECK(inner.stopped() == WorkStop::Deadline);
        CHECK(cancelledError("frame 4 of 10").message == "stopped at its time limit before frame 4 of 10; nothing was changed");
    }
    CHECK(currentWork() == &outer);
    CHECK(workCheckpoint("frames", 0, 1));
    outer.setDeadline(std::chrono::steady_clock::now() + std::chrono::hours(1));
    CHECK(workCheckpoint("frames", 0, 1));
    CHECK(outer.stopped() == WorkStop::None);
}

TEST_CASE("work: a threads setting gives its own count, 0 the hardware's (at least one)")
{
    CHECK(workerThreads(1) == 1);
    CHECK(workerThreads(7) == 7);
    const unsigned hardware = std::thread::hardware_concurrency();
    CHECK(workerThreads(0) == (hardware == 0 ? 1u : hardware));
    CHECK(workerThreads(-3) == workerThreads(0)); // callers validate; a negative one is "all" here too
}
