#pragma once
/// \file placed_array.h
/// Arrays a brain keeps either on the heap (its own block) or placed in a
/// block of memory owned elsewhere: stepBrains puts the arrays every tick
/// reads (node states, the first blackboard slots, target memos) of all brains
/// one after another, in walk order, in one block (a brain-state arena, see
/// BrainWalkHints), so that a walk over 10,000s of brains reads memory in one
/// forward stream instead of wherever the allocator put each array.
///
/// The rules that keep placed memory safe, followed by every holder:
/// - a placed array is never handed on: copying or moving its holder gives an
///   array of the new holder's own (moving a placed array copies its items);
/// - dropping a placed array destroys its items and frees nothing;
/// - the arena outlives the items placed in it (items that need destroying,
///   blackboard values, keep it alive themselves; see Blackboard).

#include <algorithm>
#include <cstddef>
#include <memory>

#include "spark/core/export.h"
SPARK_AI_API_BEGIN

namespace spark::ai::placed
{

/// `count` default items in a heap block of their own (nullptr when `count` is 0).
template <class T> T* allocate(size_t count)
{
    return count == 0 ? nullptr : new T[count]();
}

/// Ends an array: frees its block when it is its own, else only destroys its items.
template <class T> void drop(T* items, size_t count, bool isPlaced) noexcept
{
    if (!items)
        return;
    if (isPlaced)
        std::destroy_n(items, count);
    else
        delete[] items;
}

/// A heap array of the holder's own with copies of `count` items of `from`
/// (nullptr when `from` is).
template <class T> T* copyOf(const T* from, size_t count)
{
    if (!from || count == 0)
        return nullptr;
    T* to = new T[count];
    std::copy(from, from + count, to);
    return to;
}

/// Moves the `count` items of `from` (its own block when `isPlaced` is false)
/// into uninitialised memory `where`, aligned for T, and ends `from`: the
/// array's new address.
template <class T> T* moveTo(T* from, size_t count, bool isPlaced, void* where)
{
    T* to = static_cast<T*>(where);
    std::uninitialized_move_n(from, count, to);
    drop(from, count, isPlaced);
    return to;
}

} // namespace spark::ai::placed
SPARK_AI_API_END
