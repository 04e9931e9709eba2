#pragma once
/// \file id.h
/// Typed generational handles: `Id<Tag>{index, generation}`. Generation zero is
/// the null handle, so a default-constructed id refers to nothing. A slot that is
/// reused bumps its generation, so a stale handle is detected, never dangling.

#include <cassert>
#include <compare>
#include <cstdint>

#include "spark/core/export.h"
SPARK_CORE_API_BEGIN

namespace spark
{

/// Largest generation a pool hands out: a slot that reaches it is retired
/// (handle_pool.h), so a generation fits the 30 bits of a handle number.
inline constexpr uint32_t kMaxIdGeneration = (1u << 30) - 1;

/// A typed handle into a pool. Zero generation = null.
template <class Tag> struct Id
{
    uint32_t index = 0;      ///< Slot index in the owning pool.
    uint32_t generation = 0; ///< Slot generation; 0 means null.

    /// True when this handle refers to something (it may still be stale).
    bool valid() const { return generation != 0; }
    friend auto operator<=>(const Id&, const Id&) = default;
};

/// The kind of thing a `Tag`'s handles name, as their numbers carry it
/// (0..7). Each tag whose handles cross an API as numbers specialises this
/// with a kind of its own, so one kind's number is never taken for another's.
template <class Tag> inline constexpr uint32_t kHandleKind = 0;

/// Bits of a handle number: the index (20), the generation (30), the kind
/// (3) and the world (11, 0 where there is one world, as on the JSON surface,
/// whose numbers so stay below 2^53 and exact in every JSON reader).
inline constexpr int kHandleIndexBits = 20;
inline constexpr int kHandleGenerationBits = 30;
inline constexpr int kHandleKindBits = 3;
inline constexpr int kHandleWorldBits = 11;

/// The number that names `id` (not null; index below 2^20) of world `world`
/// (below 2^11): index | generation << 20 | kind << 50 | world << 53.
template <class Tag> uint64_t handleNumber(Id<Tag> id, uint32_t world = 0)
{
    assert(id.index < (1u << kHandleIndexBits) && id.generation <= kMaxIdGeneration);
    assert(world < (1u << kHandleWorldBits));
    constexpr int kindShift = kHandleIndexBits + kHandleGenerationBits;
    return uint64_t{id.index} | uint64_t{id.generation} << kHandleIndexBits |
           uint64_t{kHandleKind<Tag>} << kindShift | uint64_t{world} << (kindShift + kHandleKindBits);
}

/// The kind a handle number carries.
inline uint32_t handleNumberKind(uint64_t n)
{
    const uint64_t kindAndWorld = n >> (kHandleIndexBits + kHandleGenerationBits);
    return static_cast<uint32_t>(kindAndWorld) & ((1u << kHandleKindBits) - 1);
}

/// The handle that number `n` names in world `world`: the null handle when
/// `n` carries another kind or another world.
template <class Tag> Id<Tag> handleFromNumber(uint64_t n, uint32_t world = 0)
{
    constexpr int worldShift = kHandleIndexBits + kHandleGenerationBits + kHandleKindBits;
    if (handleNumberKind(n) != kHandleKind<Tag> || n >> worldShift != world)
        return Id<Tag>{};
    return Id<Tag>{static_cast<uint32_t>(n & ((1u << kHandleIndexBits) - 1)),
                   static_cast<uint32_t>(n >> kHandleIndexBits) & kMaxIdGeneration};
}

} // namespace spark
SPARK_CORE_API_END
