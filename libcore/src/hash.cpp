// XXH3-64 state hashing over a canonical little-endian stream.

#include "spark/core/hash.h"
#include "spark/core/bits.h"

// Header-only (inlined): no xxhash library of the target is needed.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <bit>
#include <cstring>

namespace spark
{
namespace
{
static_assert(std::endian::native == std::endian::little, "canonical hashing assumes a little-endian host");
}

Hasher::Hasher() : m_state(XXH3_createState())
{
    XXH3_64bits_reset(static_cast<XXH3_state_t*>(m_state));
}

Hasher::Hasher(const Hasher& other) : m_state(XXH3_createState())
{
    XXH3_copyState(static_cast<XXH3_state_t*>(m_state), static_cast<const XXH3_state_t*>(other.m_state));
}

Hasher& Hasher::operator=(const Hasher& other)
{
    if (this != &other)
        XXH3_copyState(static_cast<XXH3_state_t*>(m_state), static_cast<const XXH3_state_t*>(other.m_state));
    return *this;
}

Hasher::~Hasher() { XXH3_freeState(static_cast<XXH3_state_t*>(m_state)); }

void Hasher::addBytes(const void* data, size_t size)
{
    if (size > 0)
        XXH3_64bits_update(static_cast<XXH3_state_t*>(m_state), data, size);
}

void Hasher::addU8(uint8_t v) { addBytes(&v, 1); }
void Hasher::addU32(uint32_t v) { addBytes(&v, 4); }
void Hasher::addU64(uint64_t v) { addBytes(&v, 8); }

void Hasher::addF32(float v)
{
    if (v == 0.0f)
        v = 0.0f;
    addU32(spark::bitCast<uint32_t>(v));
}

void Hasher::addF64(double v)
{
    if (v == 0.0)
        v = 0.0;
    addU64(spark::bitCast<uint64_t>(v));
}

void Hasher::addString(std::string_view s)
{
    addU64(s.size());
    addBytes(s.data(), s.size());
}

uint64_t Hasher::digest() const { return XXH3_64bits_digest(static_cast<XXH3_state_t*>(m_state)); }

uint64_t hashBytes(std::span<const uint8_t> bytes) { return XXH3_64bits(bytes.data(), bytes.size()); }

std::string hashToHex(uint64_t hash)
{
    static const char* kDigits = "0123456789abcdef";
    std::string out(16, '0');
    for (int i = 15; i >= 0; --i)
    {
        out[static_cast<size_t>(i)] = kDigits[hash & 0xfu];
        hash >>= 4;
    }
    return out;
}

} // namespace spark
