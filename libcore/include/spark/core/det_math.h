#pragma once
/// \file det_math.h
/// Deterministic elementary functions for simulation code (docs/determinism.md). libm's
/// sin/cos/atan2 may differ in the last bit between libm versions; these use
/// only + − × ÷ and sqrt (IEEE-exact), fixed range reduction and fixed
/// polynomials, so every machine gets the same bits. Accuracy: about 1e-15
/// relative for the double versions over the documented ranges; good for
/// angles, headings and view cones, not a libm replacement for science.

#include "spark/core/export.h"
SPARK_CORE_API_BEGIN

namespace spark::det
{

inline constexpr double kPi = 3.14159265358979323846;
inline constexpr double kTwoPi = 6.28318530717958647692;
inline constexpr double kHalfPi = 1.57079632679489661923;

/// Sine of `x` radians. [Limit: |x| <= 1e6]
double sin(double x);
/// Cosine of `x` radians. [Limit: |x| <= 1e6]
double cos(double x);
/// Sine and cosine of `x` radians at once.
void sinCos(double x, double& outSin, double& outCos);
/// Arc tangent of y/x in (−π, π]; atan2(0, 0) = 0.
double atan2(double y, double x);
/// Arc tangent of `x` in (−π/2, π/2).
double atan(double x);
/// Arc cosine of `x` clamped to [−1, 1], in [0, π].
double acos(double x);
/// Arc sine of `x` clamped to [−1, 1], in [−π/2, π/2].
double asin(double x);
/// e^x. [Limit: |x| <= 700]
double exp(double x);
/// x^y for x > 0 (exp(y·ln x)); 0 for x == 0 and y > 0; 1 for y == 0.
double pow(double x, double y);
/// Natural logarithm of x > 0.
double log(double x);
/// Degrees to radians.
inline double radians(double deg) { return deg * (kPi / 180.0); }
/// Radians to degrees.
inline double degrees(double rad) { return rad * (180.0 / kPi); }

} // namespace spark::det
SPARK_CORE_API_END
