// Floating-point text through <charconv> or, where the standard library lacks
// it for floating point, through the C library (see charconv.h).

#include "spark/core/charconv.h"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace spark
{
namespace
{
#if defined(__cpp_lib_to_chars)
template <class T> bool parseWhole(std::string_view token, T& out)
{
    const char* end = token.data() + token.size();
    const auto [ptr, ec] = std::from_chars(token.data(), end, out);
    return ec == std::errc() && ptr == end;
}
#else
// strtod reads what from_chars does not (leading blanks or '+', hex): refused first.
// Out-of-range values are refused, as from_chars refuses them (errno ERANGE).
template <class T> bool parseWhole(std::string_view token, T& out)
{
    if (token.empty() || token.front() == '+' || token.find_first_of(" \t\n\v\f\rxX") != std::string_view::npos)
        return false;
    const std::string text(token);
    char* end = nullptr;
    errno = 0;
    T value;
    if constexpr (sizeof(T) == sizeof(float))
        value = std::strtof(text.c_str(), &end);
    else
        value = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || errno == ERANGE)
        return false;
    out = value;
    return true;
}
#endif
} // namespace

bool parseFloat(std::string_view token, float& out) { return parseWhole(token, out); }
bool parseDouble(std::string_view token, double& out) { return parseWhole(token, out); }

double shortestDecimalAsDouble(float f)
{
    char buf[48];
#if defined(__cpp_lib_to_chars)
    const auto res = std::to_chars(buf, buf + sizeof(buf), f);
    double d = 0.0;
    std::from_chars(buf, res.ptr, d);
    return d;
#else
    // The fewest significant digits that read back to f, correctly rounded: the
    // decimal std::to_chars picks (the closest one of the shortest length).
    for (int digits = 1; digits <= 9; ++digits)
    {
        std::snprintf(buf, sizeof(buf), "%.*g", digits, static_cast<double>(f));
        if (std::strtof(buf, nullptr) == f || digits == 9)
            break;
    }
    return std::strtod(buf, nullptr);
#endif
}

} // namespace spark
