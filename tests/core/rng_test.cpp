#include "spark/core/rng.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <vector>

using namespace spark;

TEST_CASE("rngFromSeed gives the same sequence for the same seed and another for another seed")
{
    Rng a = rngFromSeed(42), b = rngFromSeed(42), c = rngFromSeed(43);
    bool differs = false;
    for (int i = 0; i < 100; ++i)
    {
        const uint32_t va = rngNextU32(a);
        CHECK(va == rngNextU32(b));
        differs |= va != rngNextU32(c);
    }
    CHECK(differs);
}

TEST_CASE("a copied Rng continues bit for bit")
{
    Rng a = rngFromSeed(7);
    for (int i = 0; i < 10; ++i)
        (void)rngNextU32(a);
    Rng copy = a;
    for (int i = 0; i < 50; ++i)
        CHECK(rngNextDouble(a) == rngNextDouble(copy));
}

TEST_CASE("rngNextBelow is in range and roughly uniform")
{
    Rng r = rngFromSeed(1);
    std::vector<int> counts(10, 0);
    for (int i = 0; i < 100000; ++i)
    {
        const uint32_t v = rngNextBelow(r, 10);
        REQUIRE(v < 10);
        ++counts[v];
    }
    for (int c : counts)
        CHECK(std::abs(c - 10000) < 500);
    CHECK(rngNextBelow(r, 0) == 0);
    CHECK(rngNextBelow(r, 1) == 0);
}

TEST_CASE("rngNextDouble and rngNextFloat stay in [0, 1)")
{
    Rng r = rngFromSeed(9);
    double sum = 0;
    for (int i = 0; i < 10000; ++i)
    {
        const double d = rngNextDouble(r);
        const float f = rngNextFloat(r);
        REQUIRE(d >= 0.0);
        REQUIRE(d < 1.0);
        REQUIRE(f >= 0.0f);
        REQUIRE(f < 1.0f);
        sum += d;
    }
    CHECK(sum / 10000 == doctest::Approx(0.5).epsilon(0.02));
    const double v = rngNextRange(r, -3.0, -1.0);
    CHECK(v >= -3.0);
    CHECK(v < -1.0);
}
