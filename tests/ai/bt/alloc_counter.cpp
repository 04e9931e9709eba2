// The ai_tests executable's global operator new, counting while asked to (a
// file of its own: defined beside inlined std::string code, GCC 12 warns
// falsely with -Wrestrict).
#include "alloc_counter.h"
#include "counting_new.h"

namespace spark::ai::test
{
AllocationCounter& allocationCounter()
{
    static AllocationCounter counter;
    return counter;
}

void onAllocation()
{
    AllocationCounter& c = allocationCounter();
    if (c.on)
        ++c.count;
}
} // namespace spark::ai::test
