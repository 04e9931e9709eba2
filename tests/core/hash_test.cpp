#include "spark/core/hash.h"

#include <doctest/doctest.h>

using namespace spark;

TEST_CASE("hashToHex prints 16 lower-case hex digits")
{
    CHECK(hashToHex(0) == "0000000000000000");
    CHECK(hashToHex(0x0123456789abcdefULL) == "0123456789abcdef");
}

TEST_CASE("Hasher is XXH3-64 of the canonical little-endian stream")
{
    Hasher h;
    h.addU32(0x04030201u);
    const uint8_t bytes[4] = {1, 2, 3, 4};
    CHECK(h.digest() == hashBytes(bytes));
    // Known XXH3-64 of the empty input.
    Hasher empty;
    CHECK(hashToHex(empty.digest()) == "2d06800538d394c2");
}

TEST_CASE("Hasher folds -0 into +0 and separates strings by length")
{
    Hasher a, b;
    a.addF32(0.0f);
    b.addF32(-0.0f);
    CHECK(a.digest() == b.digest());
    Hasher c, d;
    c.addString("ab");
    c.addString("c");
    d.addString("a");
    d.addString("bc");
    CHECK(c.digest() != d.digest());
}
