#pragma once
/// \file blackboard.h
/// A brain's blackboard: named values (value.h) in a slot array. A key gets a
/// slot the first time it is named and keeps it (erasing a key empties its
/// slot), so a tree resolves the keys it reads and writes to slot indices once
/// and its ticks reach values by index, with no string look-up. Iteration
/// (listing, hashing) is in key order, so a blackboard hashes as the object
/// value of its keys and values would. Its JSON form is value_json.h's.

#include "spark/ai/value.h"

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "spark/core/export.h"
SPARK_AI_API_BEGIN

namespace spark
{
class Hasher;
}

namespace spark::ai
{

/// Named values, reached by key at the edges and by slot in a tick.
class Blackboard
{
  public:
    /// What `slotOf` and `findSlot` return for a key without a slot.
    static constexpr uint32_t kNoSlot = UINT32_MAX;

    /// An empty blackboard.
    Blackboard() = default;
    /// The blackboard of braced keys and values: `{{"target", "Player"}, {"health", 100}}`
    /// (the keys take slots in the order given; a repeated key keeps its last value).
    Blackboard(std::initializer_list<std::pair<std::string_view, Value>> init); // NOLINT(google-explicit-constructor)
    /// Replaces every value by those of `values` (this blackboard's slots are
    /// kept and new keys get new ones; keys not in `values` are erased).
    void assign(const Blackboard& values);

    /// Number of keys with a value.
    size_t size() const { return m_count; }
    /// True when no key has a value.
    bool empty() const { return m_count == 0; }
    /// True when `key` has a value.
    bool contains(std::string_view key) const { return find(key) != nullptr; }
    /// The value under `key`, or nullptr.
    const Value* find(std::string_view key) const;
    /// The value under `key`, created as null when absent; counts as a write.
    Value& operator[](std::string_view key);
    /// Removes `key`'s value; returns 1 when there was one, else 0.
    size_t erase(std::string_view key);
    /// Removes every value (the slots stay).
    void clear();

    /// The slot of `key`, created (empty) when it has none. Slot indices never
    /// change for the life of the blackboard and its copies.
    uint32_t slotOf(std::string_view key);
    /// The slot of `key`, or kNoSlot.
    uint32_t findSlot(std::string_view key) const;
    /// The value in `slot`, or nullptr when it is empty. [Limit: slot < slotCount()]
    const Value* at(uint32_t slot) const
    {
        const Slot& s = m_slots[slot];
        return s.present != 0 ? &s.value : nullptr;
    }
    /// The value in `slot` (nullptr when it is empty) and, in `stamp`, its write
    /// stamp (see stampOf). [Limit: slot < slotCount()]
    const Value* at(uint32_t slot, uint64_t& stamp) const
    {
        const Slot& s = m_slots[slot];
        stamp = s.stamp;
        return s.present != 0 ? &s.value : nullptr;
    }
    /// The value in `slot` (nullptr when it is empty), its write stamp (see
    /// stampOf) and the checks it passed (see markChecked). [Limit: slot < slotCount()]
    /// Always inlined: every blackboard parameter a leaf reads in a tick comes
    /// through here, and out of line its call cost more than its body.
    [[gnu::always_inline]] const Value* at(uint32_t slot, uint64_t& stamp, uint8_t& checks) const
    {
        const Slot& s = m_slots[slot];
        stamp = s.stamp;
        checks = static_cast<uint8_t>(s.checks);
        return s.present != 0 ? &s.value : nullptr;
    }
    /// Notes that the value in `slot` passed the checks `bits` stands for (what
    /// a bit means is the caller's: libai's leaves keep one bit per parameter
    /// type the value was found to fit). Kept with the value and copied with
    /// it; every write of the slot (set, erase, clear, assignment) clears them.
    /// Not part of the value. [Limit: slot < slotCount()]
    void markChecked(uint32_t slot, uint8_t bits)
    {
        Slot& s = m_slots[slot];
        s.checks = static_cast<uint8_t>(s.checks | bits);
    }
    /// The checks the value in `slot` passed since it was written (see
    /// markChecked). [Limit: slot < slotCount()]
    uint8_t checksOf(uint32_t slot) const { return static_cast<uint8_t>(m_slots[slot].checks); }
    /// The value in `slot`, set to null first when it is empty; counts as a write
    /// (a new stamp) made now. [Limit: slot < slotCount()]
    Value& set(uint32_t slot);
    /// The write stamp of `slot`: unique in the process to the last write of its
    /// value (set, erase, clear, assignment) and copied with the value, so a check
    /// of a slot's value made at one stamp holds while the slot has that stamp
    /// (in this blackboard and its copies). Not part of the value. [Limit: slot < slotCount()]
    uint64_t stampOf(uint32_t slot) const { return m_slots[slot].stamp; }
    /// The key of `slot`. [Limit: slot < slotCount()]
    const std::string& keyOf(uint32_t slot) const { return m_keys[slot]; }
    /// Number of slots (keys ever named, with or without a value).
    uint32_t slotCount() const { return static_cast<uint32_t>(m_slots.size()); }
    /// Identifies the slot layout: changes whenever a slot is added, is copied
    /// with the blackboard; two blackboards with the same layout id have the
    /// same keys in the same slots, so slot indices resolved against one hold in
    /// the other.
    uint64_t layout() const { return m_layout; }

    /// Calls `fn(key, value)` for every key with a value, in key order.
    template <class Fn> void forEach(Fn&& fn) const
    {
        for (uint32_t i : m_order)
            if (m_slots[i].present != 0)
                fn(m_keys[i], m_slots[i].value);
    }

    /// Equal keys with equal values.
    friend bool operator==(const Blackboard& a, const Blackboard& b);

  private:
    /// What a tick reads of a slot; its key is apart. 24 bytes: the presence
    /// bit and the checks share a word with the stamp (stamps count up from 1
    /// in a process: 2^55 of them would take a year at a billion writes a
    /// second), so a brain's first six slots take three cache lines wherever
    /// the allocator puts them (32-byte slots took four from a 16-byte start).
    struct Slot
    {
        Value value;
        uint64_t stamp : 55 = 0;  ///< See stampOf().
        uint64_t checks : 8 = 0;  ///< See markChecked().
        uint64_t present : 1 = 0; ///< 1 when the slot has a value.
    };
    /// Slots in chunks of kChunk that never move while a tick runs (adding a key
    /// never moves a value): the first chunk reached straight from its pointer
    /// (a tick's keys are there unless a brain names more than kChunk), the
    /// others through a list.
    class SlotStore
    {
      public:
        static constexpr uint32_t kChunk = 16;
        SlotStore() = default;
        SlotStore(const SlotStore& other) { *this = other; }
        SlotStore(SlotStore&& other) noexcept { *this = std::move(other); }
        SlotStore& operator=(const SlotStore& other);
        /// Takes the slots (the moved-from store is left empty).
        SlotStore& operator=(SlotStore&& other) noexcept;
        uint32_t size() const { return m_size; }
        Slot& operator[](uint32_t i)
        {
            return i < kChunk ? m_first[i] : m_more[(i - kChunk) / kChunk][(i - kChunk) % kChunk];
        }
        const Slot& operator[](uint32_t i) const
        {
            return i < kChunk ? m_first[i] : m_more[(i - kChunk) / kChunk][(i - kChunk) % kChunk];
        }
        /// Appends a slot (no slot moves).
        void push_back(Slot slot);

      private:
        std::unique_ptr<Slot[]> m_first; ///< Slots 0..kChunk-1 (read by a tick: first).
        uint32_t m_size = 0;
        std::vector<std::unique_ptr<Slot[]>> m_more; ///< The next chunks.
    };
    // What a tick reads (the layout, the first slots' address) first, the key index after.
    uint64_t m_layout = 0;         ///< See layout().
    SlotStore m_slots;             ///< Append-only; chunks, so that adding a key never moves a value.
    size_t m_count = 0;            ///< Slots with a value.
    std::vector<std::string> m_keys; ///< Slot → key (read at the edges: look-up by name, listing, hashing).
    std::vector<uint32_t> m_order;   ///< Slot indices in key order.
};

/// An empty blackboard.
inline Blackboard makeBlackboard() { return Blackboard(); }

/// The value under `key`, or nullptr.
const Value* blackboardFind(const Blackboard& bb, std::string_view key);

/// Feeds a blackboard into `io` exactly as hashValue feeds the object value of
/// its keys and values (and hashJson the JSON object it stands for).
void hashBlackboard(Hasher& io, const Blackboard& bb);

} // namespace spark::ai
SPARK_AI_API_END
