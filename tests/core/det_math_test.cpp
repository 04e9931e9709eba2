#include "spark/core/det_math.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace spark;

TEST_CASE("det::sin and det::cos agree with libm to 1e-14 over many turns")
{
    for (int i = -20000; i <= 20000; ++i)
    {
        const double x = i * 0.0031;
        CHECK(std::fabs(det::sin(x) - std::sin(x)) < 1e-14);
        CHECK(std::fabs(det::cos(x) - std::cos(x)) < 1e-14);
    }
}

TEST_CASE("det::atan2 covers every quadrant and the axes")
{
    for (int i = -200; i <= 200; ++i)
        for (int j = -200; j <= 200; j += 7)
        {
            const double y = i * 0.37, x = j * 0.41;
            if (x == 0.0 && y == 0.0)
                continue;
            CHECK(std::fabs(det::atan2(y, x) - std::atan2(y, x)) < 1e-14);
        }
    CHECK(det::atan2(0.0, 0.0) == 0.0);
    CHECK(det::atan2(1.0, 0.0) == doctest::Approx(det::kHalfPi));
    CHECK(det::atan2(0.0, -1.0) == doctest::Approx(det::kPi));
}

TEST_CASE("det::acos, asin, exp, log and pow match libm closely")
{
    for (int i = -100; i <= 100; ++i)
    {
        const double x = i / 100.0;
        CHECK(std::fabs(det::acos(x) - std::acos(x)) < 1e-13);
        CHECK(std::fabs(det::asin(x) - std::asin(x)) < 1e-13);
    }
    for (int i = -300; i <= 300; ++i)
    {
        const double x = i * 0.1;
        CHECK(std::fabs(det::exp(x) - std::exp(x)) <= 1e-14 * std::exp(x));
    }
    for (int i = 1; i <= 1000; ++i)
    {
        const double x = i * 0.173;
        CHECK(std::fabs(det::log(x) - std::log(x)) < 1e-13);
        CHECK(std::fabs(det::pow(x, 1.7) - std::pow(x, 1.7)) <= 1e-12 * std::pow(x, 1.7));
    }
    CHECK(det::pow(0.0, 2.0) == 0.0);
    CHECK(det::pow(5.0, 0.0) == 1.0);
    CHECK(std::isnan(det::log(-1.0)));
}
