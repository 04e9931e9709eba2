#include "spark/core/hash.h"

#include <doctest/doctest.h>

#include <vector>

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

TEST_CASE("a copied Hasher goes on from the same bytes as the whole stream would")
{
    // Past XXH3's 240-byte short-input path and its 256-byte internal buffer.
    std::vector<uint8_t> bytes(1000);
    for (size_t i = 0; i < bytes.size(); ++i)
        bytes[i] = static_cast<uint8_t>(i * 7 + 3);
    for (size_t cut : {size_t{0}, size_t{5}, size_t{300}, size_t{999}})
    {
        Hasher prefix;
        prefix.addBytes(bytes.data(), cut);
        Hasher resumed(prefix);
        resumed.addBytes(bytes.data() + cut, bytes.size() - cut);
        CHECK(resumed.digest() == hashBytes(bytes));
        // The original is untouched by the copy's additions; assignment copies too.
        Hasher assigned;
        assigned.addU64(42);
        assigned = prefix;
        CHECK(assigned.digest() == prefix.digest());
        CHECK(prefix.digest() == hashBytes(std::span<const uint8_t>(bytes.data(), cut)));
    }
}
