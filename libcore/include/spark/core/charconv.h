#pragma once
/// \file charconv.h
/// Locale-independent exact number text for floating-point values: std::from_chars
/// and std::to_chars where the standard library has them for floating point
/// (libstdc++ 11+), else the C library's correctly rounded strtof/strtod and
/// "%.*g" in the "C" locale (Emscripten 3.1's libc++ with musl). Same values either way.

#include <string_view>
#include "spark/core/export.h"

SPARK_CORE_API_BEGIN
namespace spark
{

/// Reads a whole token as a decimal float (as std::from_chars, chars_format::general:
/// no leading '+', whitespace or hex). False when the token is not exactly one number.
bool parseFloat(std::string_view token, float& out);
/// As parseFloat, for a double.
bool parseDouble(std::string_view token, double& out);
/// The double whose value is the shortest decimal that reads back to `f`
/// (what a JSON writer prints for a float).
double shortestDecimalAsDouble(float f);

} // namespace spark
SPARK_CORE_API_END
