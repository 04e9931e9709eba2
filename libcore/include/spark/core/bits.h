#pragma once
/// \file bits.h
/// `spark::bitCast`: std::bit_cast where the standard library has it, else the
/// compiler built-in it is made of (Emscripten 3.1's libc++ lacks std::bit_cast;
/// GCC and clang both have __builtin_bit_cast). Same bits either way.

#include <bit>
#include <type_traits>

namespace spark
{

template <class To, class From> constexpr To bitCast(const From& from) noexcept
{
    static_assert(sizeof(To) == sizeof(From) && std::is_trivially_copyable_v<To> &&
                  std::is_trivially_copyable_v<From>);
#if defined(__cpp_lib_bit_cast)
    return std::bit_cast<To>(from);
#else
    return __builtin_bit_cast(To, from);
#endif
}

} // namespace spark
