#pragma once
// A global operator new family that reports every allocation, plain and
// over-aligned, to `spark::ai::test::onAllocation()`, which the program defines.
// Include it in exactly one file of a program: the ai_tests executable
// (alloc_counter.cpp) and bench/ai_bench.cpp count allocations with it.

#include <cstddef>
#include <cstdlib>
#include <new>

namespace spark::ai::test
{
/// Called once per allocation, before the memory is taken.
void onAllocation();
} // namespace spark::ai::test

void* operator new(std::size_t size)
{
    spark::ai::test::onAllocation();
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
void* operator new(std::size_t size, std::align_val_t align)
{
    spark::ai::test::onAllocation();
    const std::size_t a = static_cast<std::size_t>(align);
    if (void* p = std::aligned_alloc(a, (size + a - 1) / a * a))
        return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t size, std::align_val_t align) { return operator new(size, align); }
[[gnu::noinline]] void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
