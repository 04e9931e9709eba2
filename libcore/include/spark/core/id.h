#pragma once
/// \file id.h
/// Typed generational handles: `Id<Tag>{index, generation}`. Generation zero is
/// the null handle, so a default-constructed id refers to nothing. A slot that is
/// reused bumps its generation, so a stale handle is detected, never dangling.

#include <compare>
#include <cstdint>

#include "spark/core/export.h"
SPARK_CORE_API_BEGIN

namespace spark
{

/// A typed handle into a pool. Zero generation = null.
template <class Tag> struct Id
{
    uint32_t index = 0;      ///< Slot index in the owning pool.
    uint32_t generation = 0; ///< Slot generation; 0 means null.

    /// True when this handle refers to something (it may still be stale).
    bool valid() const { return generation != 0; }
    friend auto operator<=>(const Id&, const Id&) = default;
};

} // namespace spark
SPARK_CORE_API_END
