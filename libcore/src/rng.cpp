// PCG32 (PCG-XSH-RR, M. E. O'Neill, "PCG: A Family of Simple Fast
// Space-Efficient Statistically Good Algorithms for Random Number Generation",
// 2014). Integer arithmetic only: the sequence is the same on every machine.

#include "spark/core/rng.h"

namespace spark
{

Rng rngFromSeed(uint64_t seed, uint64_t stream)
{
    Rng rng;
    rng.state = 0;
    rng.inc = (stream << 1u) | 1u;
    rngNextU32(rng);
    rng.state += seed;
    rngNextU32(rng);
    return rng;
}

uint32_t rngNextU32(Rng& io)
{
    const uint64_t old = io.state;
    io.state = old * 6364136223846793005ULL + io.inc;
    const uint32_t xorshifted = static_cast<uint32_t>(((old >> 18u) ^ old) >> 27u);
    const uint32_t rot = static_cast<uint32_t>(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
}

uint32_t rngNextBelow(Rng& io, uint32_t bound)
{
    if (bound <= 1)
        return 0;
    // Lemire's rejection on the low threshold keeps it unbiased.
    const uint32_t threshold = (0u - bound) % bound;
    for (;;)
    {
        const uint32_t r = rngNextU32(io);
        if (r >= threshold)
            return r % bound;
    }
}

double rngNextDouble(Rng& io)
{
    const uint64_t hi = rngNextU32(io);
    const uint64_t lo = rngNextU32(io);
    const uint64_t bits = ((hi << 32u) | lo) >> 11u; // 53 bits
    return static_cast<double>(bits) * (1.0 / 9007199254740992.0);
}

float rngNextFloat(Rng& io) { return static_cast<float>(rngNextU32(io) >> 8u) * (1.0f / 16777216.0f); }

double rngNextRange(Rng& io, double lo, double hi) { return lo + (hi - lo) * rngNextDouble(io); }

} // namespace spark
