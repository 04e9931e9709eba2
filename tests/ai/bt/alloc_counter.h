#pragma once
// Counts the allocations of the ai_tests executable (its global operator new,
// in alloc_counter.cpp) while `on`.

namespace spark::ai::test
{

struct AllocationCounter
{
    bool on = false; ///< Count while true.
    long count = 0;  ///< Allocations counted.
};

/// The executable's counter.
AllocationCounter& allocationCounter();

} // namespace spark::ai::test
