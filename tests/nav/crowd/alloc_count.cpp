// The replaceable global operator new, counting (see alloc_count.h).
#include "alloc_count.h"

#include <atomic>
#include <cstdlib>
#include <new>

namespace
{
std::atomic<uint64_t> g_allocations{0};
} // namespace

// All three out of line: inlined, GCC would see free() of what malloc gave
// through operator new and warn (-Wmismatched-new-delete), though they pair.
[[gnu::noinline]] void* operator new(std::size_t size)
{
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(size == 0 ? 1 : size))
        return p;
    throw std::bad_alloc();
}

[[gnu::noinline]] void operator delete(void* p) noexcept
{
    std::free(p);
}
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept
{
    std::free(p);
}

uint64_t spark::nav::test::allocationCount()
{
    return g_allocations.load(std::memory_order_relaxed);
}
