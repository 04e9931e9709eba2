#pragma once
/// \file handle_pool.h
/// A pool of values reached by typed generational handles (`Id<Tag>`), the
/// storage behind every world object (meshes, agents, obstacles, links, scene
/// objects).
///
/// Each slot carries a generation that starts at 1 and is bumped when the slot's
/// value is removed, so a handle kept past a removal no longer matches and is
/// refused (`get` answers null) instead of reaching whatever reuses the slot.
/// Freed slots are reused lowest index first, so the handles a sequence of
/// operations hands out depend only on that sequence (determinism, docs/determinism.md).
/// A slot whose generation reaches kMaxIdGeneration (id.h) is retired for
/// good, so every handle has a number (`handleNumber`).
///
/// The pool is a plain value: copying it copies the values and keeps every
/// handle valid in the copy (snapshots are copies).

#include "spark/core/id.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <queue>
#include <vector>

#include "spark/core/export.h"
SPARK_CORE_API_BEGIN

namespace spark
{

/// Values of type `T` by `Id<Tag>` handles.
template <class Tag, class T> class HandlePool
{
public:
    using Handle = Id<Tag>;

    /// Stores `value` and returns its handle (never null). Reuses the lowest
    /// free slot, with a newer generation than any handle it gave out before.
    Handle insert(T value)
    {
        uint32_t index;
        if (!m_free.empty())
        {
            index = m_free.top();
            m_free.pop();
        }
        else
        {
            index = static_cast<uint32_t>(m_slots.size());
            m_slots.push_back(Slot{});
        }
        Slot& slot = m_slots[index];
        slot.value.emplace(std::move(value));
        ++m_size;
        return Handle{index, slot.generation};
    }

    /// The value of `handle`, or null when the handle is null, stale or unknown.
    T* get(Handle handle)
    {
        if (!contains(handle))
            return nullptr;
        return &*m_slots[handle.index].value;
    }
    /// The value of `handle`, or null when the handle is null, stale or unknown.
    const T* get(Handle handle) const
    {
        if (!contains(handle))
            return nullptr;
        return &*m_slots[handle.index].value;
    }

    /// True when `handle` refers to a live value.
    bool contains(Handle handle) const
    {
        return handle.generation != 0 && handle.index < m_slots.size() &&
               m_slots[handle.index].generation == handle.generation && m_slots[handle.index].value.has_value();
    }

    /// Removes the value of `handle`; false (and no change) when it is stale.
    bool remove(Handle handle)
    {
        if (!contains(handle))
            return false;
        Slot& slot = m_slots[handle.index];
        slot.value.reset();
        --m_size;
        if (slot.generation == kMaxIdGeneration)
            return true; // retired: never handed out again
        ++slot.generation;
        m_free.push(handle.index);
        return true;
    }

    /// Number of live values.
    size_t size() const { return m_size; }
    /// True when no value is live.
    bool empty() const { return m_size == 0; }

    /// Calls `visit(handle, value)` for every live value in slot order.
    template <class F> void forEach(F&& visit) const
    {
        for (uint32_t i = 0; i < m_slots.size(); ++i)
            if (m_slots[i].value)
                visit(Handle{i, m_slots[i].generation}, *m_slots[i].value);
    }
    /// Calls `visit(handle, value)` for every live value in slot order (mutable).
    template <class F> void forEach(F&& visit)
    {
        for (uint32_t i = 0; i < m_slots.size(); ++i)
            if (m_slots[i].value)
                visit(Handle{i, m_slots[i].generation}, *m_slots[i].value);
    }

private:
    struct Slot
    {
        uint32_t generation = 1;
        std::optional<T> value;
    };
    std::vector<Slot> m_slots;
    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<uint32_t>> m_free;
    size_t m_size = 0;
};

} // namespace spark
SPARK_CORE_API_END
