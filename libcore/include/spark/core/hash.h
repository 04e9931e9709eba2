#pragma once
/// \file hash.h
/// State hashing: XXH3-64 over a canonical little-endian byte stream. Every
/// value is fed with an explicit width; floats by their IEEE bit pattern (with
/// -0 folded into +0 so equal values hash equally). Printed as 16 hex digits.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "spark/core/export.h"
SPARK_CORE_API_BEGIN

namespace spark
{

/// Streaming XXH3-64 hasher with typed, canonical feeders.
class Hasher
{
public:
    Hasher();
    ~Hasher();
    /// A copy goes on from the same bytes (a hash of a fixed prefix can be kept
    /// and resumed).
    Hasher(const Hasher& other);
    Hasher& operator=(const Hasher& other);

    void addBytes(const void* data, size_t size);
    void addU8(uint8_t v);
    void addU32(uint32_t v);
    void addU64(uint64_t v);
    void addI32(int32_t v) { addU32(static_cast<uint32_t>(v)); }
    void addI64(int64_t v) { addU64(static_cast<uint64_t>(v)); }
    void addBool(bool v) { addU8(v ? 1 : 0); }
    /// Adds a float by its bit pattern (-0 folded into +0).
    void addF32(float v);
    /// Adds a double by its bit pattern (-0 folded into +0).
    void addF64(double v);
    /// Adds a length-prefixed string.
    void addString(std::string_view s);

    /// The XXH3-64 digest of everything added so far.
    uint64_t digest() const;

private:
    void* m_state; // XXH3_state_t, kept opaque to keep xxhash.h out of our headers
};

/// XXH3-64 of a byte buffer.
uint64_t hashBytes(std::span<const uint8_t> bytes);

/// A hash as 16 lower-case hex digits.
std::string hashToHex(uint64_t hash);

} // namespace spark
SPARK_CORE_API_END
