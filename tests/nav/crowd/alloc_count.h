#pragma once
// Allocation counting for the crowd tests: alloc_count.cpp replaces the global
// operator new of the test program, so a test can say that a stretch of calls
// made no allocation.

#include <cstdint>

namespace spark::nav::test
{

/// Allocations made by the program so far (every thread).
uint64_t allocationCount();

} // namespace spark::nav::test
