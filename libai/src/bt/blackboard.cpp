// Blackboard slots, look-ups and hashing.
#include "spark/ai/blackboard.h"
#include "spark/core/hash.h"

#include <algorithm>
#include <atomic>
#include <utility>

namespace spark::ai
{

namespace
{
/// Layout ids: unique in the process (not part of any result or hash).
uint64_t nextLayout()
{
    static std::atomic<uint64_t> counter{0};
    return counter.fetch_add(1, std::memory_order_relaxed) + 1;
}

/// Write stamps: unique in the process (not part of any result or hash).
uint64_t nextStamp()
{
    static std::atomic<uint64_t> counter{0};
    return counter.fetch_add(1, std::memory_order_relaxed) + 1;
}
} // namespace

Blackboard::SlotStore& Blackboard::SlotStore::operator=(const SlotStore& other)
{
    if (this == &other)
        return *this;
    auto copyChunk = [](const std::unique_ptr<Slot[]>& chunk) {
        auto out = std::make_unique<Slot[]>(kChunk);
        std::copy(chunk.get(), chunk.get() + kChunk, out.get());
        return out;
    };
    m_first = other.m_first ? copyChunk(other.m_first) : nullptr;
    m_more.clear();
    for (const auto& chunk : other.m_more)
        m_more.push_back(copyChunk(chunk));
    m_size = other.m_size;
    return *this;
}

Blackboard::SlotStore& Blackboard::SlotStore::operator=(SlotStore&& other) noexcept
{
    if (this == &other)
        return *this;
    m_first = std::move(other.m_first);
    m_more = std::move(other.m_more);
    m_size = std::exchange(other.m_size, 0);
    other.m_more.clear();
    return *this;
}

void Blackboard::SlotStore::push_back(Slot slot)
{
    if (!m_first)
        m_first = std::make_unique<Slot[]>(kChunk);
    else if (m_size >= kChunk && (m_size - kChunk) % kChunk == 0 && (m_size - kChunk) / kChunk == m_more.size())
        m_more.push_back(std::make_unique<Slot[]>(kChunk));
    (*this)[m_size] = std::move(slot);
    ++m_size;
}

Blackboard::Blackboard(std::initializer_list<std::pair<std::string_view, Value>> init)
{
    for (const auto& [key, value] : init)
        set(slotOf(key)) = value;
}

void Blackboard::assign(const Blackboard& values)
{
    if (this == &values)
        return;
    clear();
    values.forEach([&](const std::string& key, const Value& value) { set(slotOf(key)) = value; });
}

uint32_t Blackboard::findSlot(std::string_view key) const
{
    const auto it = std::lower_bound(m_order.begin(), m_order.end(), key,
                                     [&](uint32_t slot, std::string_view k) { return m_keys[slot] < k; });
    return it != m_order.end() && m_keys[*it] == key ? *it : kNoSlot;
}

uint32_t Blackboard::slotOf(std::string_view key)
{
    const auto it = std::lower_bound(m_order.begin(), m_order.end(), key,
                                     [&](uint32_t slot, std::string_view k) { return m_keys[slot] < k; });
    if (it != m_order.end() && m_keys[*it] == key)
        return *it;
    const uint32_t slot = static_cast<uint32_t>(m_slots.size());
    Slot empty;
    empty.stamp = nextStamp();
    m_slots.push_back(std::move(empty));
    m_keys.emplace_back(key);
    m_order.insert(it, slot);
    m_layout = nextLayout();
    return slot;
}

const Value* Blackboard::find(std::string_view key) const
{
    const uint32_t slot = findSlot(key);
    return slot == kNoSlot ? nullptr : at(slot);
}

Value& Blackboard::set(uint32_t slot)
{
    Slot& s = m_slots[slot];
    s.stamp = nextStamp();
    s.checks = 0;
    if (!s.present)
    {
        s.present = 1;
        s.value = Value();
        ++m_count;
    }
    return s.value;
}

Value& Blackboard::operator[](std::string_view key) { return set(slotOf(key)); }

size_t Blackboard::erase(std::string_view key)
{
    const uint32_t slot = findSlot(key);
    if (slot == kNoSlot || !m_slots[slot].present)
        return 0;
    m_slots[slot].present = 0;
    m_slots[slot].value = Value();
    m_slots[slot].stamp = nextStamp();
    m_slots[slot].checks = 0;
    --m_count;
    return 1;
}

void Blackboard::clear()
{
    for (uint32_t i = 0; i < m_slots.size(); ++i)
    {
        Slot& s = m_slots[i];
        s.present = 0;
        s.value = Value();
        s.stamp = nextStamp();
        s.checks = 0;
    }
    m_count = 0;
}

bool operator==(const Blackboard& a, const Blackboard& b)
{
    if (a.size() != b.size())
        return false;
    bool equal = true;
    a.forEach([&](const std::string& key, const Value& value) {
        const Value* other = b.find(key);
        equal = equal && other && *other == value;
    });
    return equal;
}

const Value* blackboardFind(const Blackboard& bb, std::string_view key) { return bb.find(key); }

void hashBlackboard(Hasher& io, const Blackboard& bb)
{
    // As hashValue of the object: tag 6, the size, then key and value in key order.
    io.addU8(6);
    io.addU64(bb.size());
    bb.forEach([&](const std::string& key, const Value& value) {
        io.addString(key);
        hashValue(io, value);
    });
}

} // namespace spark::ai
