// Deterministic elementary functions.
//
// Design note: each function reduces its argument into a small interval with
// exactly-representable constants (Cody–Waite splitting of π/2 and ln 2), then
// evaluates a fixed-length Taylor or arctanh series with Horner's rule. Only
// + − × ÷, sqrt, ldexp and frexp are used: all are exact or correctly rounded in
// IEEE-754, and -ffp-contract=off keeps the compiler from fusing them, so the
// results are bit-identical on every conforming machine.

#include "spark/core/det_math.h"

#include <cmath>
#include <limits>

namespace spark::det
{
namespace
{

// π/2 split into three parts whose products with small integers are exact.
constexpr double kPio2Hi = 1.57079632673412561417e+00;
constexpr double kPio2Mid = 6.07710050650619224932e-11;
constexpr double kPio2Lo = 2.02226624879595063154e-21;
constexpr double kLn2Hi = 6.93147180369123816490e-01;
constexpr double kLn2Lo = 1.90821492927058770002e-10;

// sin(r) for |r| <= π/4 (Taylor to r^19).
double sinKernel(double r)
{
    const double r2 = r * r;
    double p = -1.0 / 121645100408832000.0; // -1/19!
    p = p * r2 + 1.0 / 355687428096000.0;   // 1/17!
    p = p * r2 - 1.0 / 1307674368000.0;     // -1/15!
    p = p * r2 + 1.0 / 6227020800.0;        // 1/13!
    p = p * r2 - 1.0 / 39916800.0;          // -1/11!
    p = p * r2 + 1.0 / 362880.0;            // 1/9!
    p = p * r2 - 1.0 / 5040.0;              // -1/7!
    p = p * r2 + 1.0 / 120.0;               // 1/5!
    p = p * r2 - 1.0 / 6.0;                 // -1/3!
    return r + r * r2 * p;
}

// cos(r) for |r| <= π/4 (Taylor to r^20).
double cosKernel(double r)
{
    const double r2 = r * r;
    double p = 1.0 / 2432902008176640000.0; // 1/20!
    p = p * r2 - 1.0 / 6402373705728000.0;  // -1/18!
    p = p * r2 + 1.0 / 20922789888000.0;    // 1/16!
    p = p * r2 - 1.0 / 87178291200.0;       // -1/14!
    p = p * r2 + 1.0 / 479001600.0;         // 1/12!
    p = p * r2 - 1.0 / 3628800.0;           // -1/10!
    p = p * r2 + 1.0 / 40320.0;             // 1/8!
    p = p * r2 - 1.0 / 720.0;               // -1/6!
    p = p * r2 + 1.0 / 24.0;                // 1/4!
    p = p * r2 - 0.5;
    return 1.0 + r2 * p;
}

// Reduces x to r in [-π/4, π/4] and the quadrant k (mod 4).
void reduceQuarter(double x, double& outR, int& outQuadrant)
{
    const double k = std::nearbyint(x * (2.0 / kPi));
    outR = ((x - k * kPio2Hi) - k * kPio2Mid) - k * kPio2Lo;
    long long q = static_cast<long long>(k);
    outQuadrant = static_cast<int>(((q % 4) + 4) % 4);
}

// atan(t) for |t| <= 0.42 via one argument halving and a fixed odd series.
double atanKernel(double t)
{
    // atan(t) = 2 atan(t / (1 + sqrt(1 + t^2))); the new argument is <= 0.21.
    const double u = t / (1.0 + std::sqrt(1.0 + t * t));
    const double u2 = u * u;
    double p = 0.0;
    for (int n = 24; n >= 0; --n)
    {
        const double term = ((n % 2) ? -1.0 : 1.0) / static_cast<double>(2 * n + 1);
        p = p * u2 + term;
    }
    return 2.0 * (u * p);
}

} // namespace

void sinCos(double x, double& outSin, double& outCos)
{
    if (!std::isfinite(x))
    {
        outSin = outCos = std::numeric_limits<double>::quiet_NaN();
        return;
    }
    double r;
    int q;
    reduceQuarter(x, r, q);
    const double s = sinKernel(r);
    const double c = cosKernel(r);
    switch (q)
    {
    case 0: outSin = s; outCos = c; break;
    case 1: outSin = c; outCos = -s; break;
    case 2: outSin = -s; outCos = -c; break;
    default: outSin = -c; outCos = s; break;
    }
}

double sin(double x)
{
    double s, c;
    sinCos(x, s, c);
    return s;
}

double cos(double x)
{
    double s, c;
    sinCos(x, s, c);
    return c;
}

double atan(double x)
{
    if (std::isnan(x))
        return x;
    const bool negative = x < 0.0;
    double a = negative ? -x : x;
    double offset = 0.0;
    bool invert = false;
    if (a > 1.0)
    {
        a = 1.0 / a;
        invert = true;
    }
    // tan(π/8) = sqrt(2) - 1: above it shift by π/4.
    if (a > 0.41421356237309503)
    {
        a = (a - 1.0) / (a + 1.0);
        offset = kPi / 4.0;
    }
    double r = offset + atanKernel(a);
    if (invert)
        r = kHalfPi - r;
    return negative ? -r : r;
}

double atan2(double y, double x)
{
    if (std::isnan(x) || std::isnan(y))
        return std::numeric_limits<double>::quiet_NaN();
    if (x == 0.0 && y == 0.0)
        return 0.0;
    if (x == 0.0)
        return y > 0.0 ? kHalfPi : -kHalfPi;
    if (std::fabs(y) <= std::fabs(x))
    {
        const double a = atan(y / x);
        if (x > 0.0)
            return a;
        return y >= 0.0 ? a + kPi : a - kPi;
    }
    const double a = atan(x / y);
    return y > 0.0 ? kHalfPi - a : -kHalfPi - a;
}

double asin(double x)
{
    if (std::isnan(x))
        return x;
    x = x < -1.0 ? -1.0 : (x > 1.0 ? 1.0 : x);
    return atan2(x, std::sqrt((1.0 - x) * (1.0 + x)));
}

double acos(double x)
{
    if (std::isnan(x))
        return x;
    x = x < -1.0 ? -1.0 : (x > 1.0 ? 1.0 : x);
    return atan2(std::sqrt((1.0 - x) * (1.0 + x)), x);
}

double exp(double x)
{
    if (std::isnan(x))
        return x;
    if (x > 709.0)
        return std::numeric_limits<double>::infinity();
    if (x < -745.0)
        return 0.0;
    const double k = std::nearbyint(x / (kLn2Hi + kLn2Lo));
    const double r = (x - k * kLn2Hi) - k * kLn2Lo; // |r| <= 0.35
    // Factorials up to 13! are exact in double, so 1/n! is correctly rounded.
    constexpr double kFactorials[14] = {1.0,      1.0,       2.0,        6.0,         24.0,
                                        120.0,    720.0,     5040.0,     40320.0,     362880.0,
                                        3628800.0, 39916800.0, 479001600.0, 6227020800.0};
    double p = 1.0 / kFactorials[13];
    for (int n = 12; n >= 1; --n)
        p = p * r + 1.0 / kFactorials[n];
    p = p * r + 1.0;
    return std::ldexp(p, static_cast<int>(k));
}

double log(double x)
{
    if (std::isnan(x) || x < 0.0)
        return std::numeric_limits<double>::quiet_NaN();
    if (x == 0.0)
        return -std::numeric_limits<double>::infinity();
    if (std::isinf(x))
        return x;
    int e = 0;
    double m = std::frexp(x, &e); // m in [0.5, 1)
    if (m < 0.70710678118654752)
    {
        m *= 2.0;
        e -= 1;
    }
    const double s = (m - 1.0) / (m + 1.0); // |s| <= 0.1716
    const double s2 = s * s;
    double p = 0.0;
    for (int n = 14; n >= 0; --n)
        p = p * s2 + 1.0 / static_cast<double>(2 * n + 1);
    const double lm = 2.0 * s * p;
    const double de = static_cast<double>(e);
    return de * kLn2Hi + (de * kLn2Lo + lm);
}

double pow(double x, double y)
{
    if (y == 0.0)
        return 1.0;
    if (x == 0.0)
        return y > 0.0 ? 0.0 : std::numeric_limits<double>::infinity();
    if (x < 0.0 || std::isnan(x) || std::isnan(y))
        return std::numeric_limits<double>::quiet_NaN();
    if (x == 1.0)
        return 1.0;
    return exp(y * log(x));
}

} // namespace spark::det
