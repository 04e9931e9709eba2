// The ai_tests executable's global operator new, counting while asked to (a
// file of its own: defined beside inlined std::string code, GCC 12 warns
// falsely with -Wrestrict).
#include "alloc_counter.h"

#include <cstdlib>
#include <new>

namespace spark::ai::test
{
AllocationCounter& allocationCounter()
{
    static AllocationCounter counter;
    return counter;
}
} // namespace spark::ai::test

void* operator new(std::size_t size)
{
    spark::ai::test::AllocationCounter& c = spark::ai::test::allocationCounter();
    if (c.on)
        ++c.count;
    if (void* p = std::malloc(size ? size : 1))
        return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }
// Out of line: inlined, GCC would see free() of what operator new returned (-Wmismatched-new-delete).
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete[](void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
// Over-aligned allocations (a brain starts on a cache line, so do the map
// entries holding brains) are counted too.
void* operator new(std::size_t size, std::align_val_t align)
{
    spark::ai::test::AllocationCounter& c = spark::ai::test::allocationCounter();
    if (c.on)
        ++c.count;
    const std::size_t a = static_cast<std::size_t>(align);
    if (void* p = std::aligned_alloc(a, (size + a - 1) / a * a))
        return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t size, std::align_val_t align)
{
    return operator new(size, align);
}
[[gnu::noinline]] void operator delete(void* p, std::align_val_t) noexcept
{
    std::free(p);
}
[[gnu::noinline]] void operator delete[](void* p, std::align_val_t) noexcept
{
    std::free(p);
}
[[gnu::noinline]] void operator delete(void* p, std::size_t, std::align_val_t) noexcept
{
    std::free(p);
}
[[gnu::noinline]] void operator delete[](void* p, std::size_t, std::align_val_t) noexcept
{
    std::free(p);
}
