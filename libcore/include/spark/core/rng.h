#pragma once
/// \file rng.h
/// The seeded random generator. Its state is plain data (two 64-bit words), so
/// it is hashed, copied and snapshotted with the rest of the simulation state.
/// Algorithm: PCG-XSH-RR 32 (O'Neill, 2014) on a 64-bit LCG; integer-only, so
/// every platform produces the same sequence.

#include <cstdint>

#include "spark/core/export.h"
SPARK_CORE_API_BEGIN

namespace spark
{

/// PCG32 state. Plain data: copy it to fork a stream, hash it to pin it.
struct Rng
{
    uint64_t state = 0x853c49e6748fea9bULL; ///< LCG state.
    uint64_t inc = 0xda3e39cb94b95bdbULL;   ///< Stream selector (always odd).
};

/// A generator seeded with `seed` on stream `stream`.
Rng rngFromSeed(uint64_t seed, uint64_t stream = 0);
/// Next uniform 32-bit value.
uint32_t rngNextU32(Rng& io);
/// Uniform integer in [0, bound) without modulo bias. `bound` > 0.
uint32_t rngNextBelow(Rng& io, uint32_t bound);
/// Uniform double in [0, 1) with 53 random bits.
double rngNextDouble(Rng& io);
/// Uniform float in [0, 1) with 24 random bits.
float rngNextFloat(Rng& io);
/// Uniform double in [lo, hi).
double rngNextRange(Rng& io, double lo, double hi);

} // namespace spark
SPARK_CORE_API_END
