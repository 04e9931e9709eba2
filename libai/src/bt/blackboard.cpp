// Blackboard look-ups and the canonical hashing of JSON values.
#include "spark/ai/blackboard.h"
#include "spark/core/hash.h"

#include <algorithm>
#include <atomic>

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
    Slot* first = placed::copyOf(other.m_first, kChunk);
    placed::drop(m_first, kChunk, m_placed);
    m_first = first;
    m_placed = false;
    m_keep.reset();
    m_more.clear();
    for (const auto& chunk : other.m_more)
    {
        m_more.push_back(std::make_unique<Slot[]>(kChunk));
        std::copy(chunk.get(), chunk.get() + kChunk, m_more.back().get());
    }
    m_size = other.m_size;
    return *this;
}

Blackboard::SlotStore& Blackboard::SlotStore::operator=(SlotStore&& other) noexcept
{
    if (this == &other)
        return *this;
    if (other.m_placed)
        return *this = other; // a placed chunk is not handed on
    placed::drop(m_first, kChunk, m_placed);
    m_first = other.m_first;
    m_placed = false;
    m_keep.reset();
    m_more = std::move(other.m_more);
    m_size = other.m_size;
    other.m_first = nullptr;
    other.m_more.clear();
    other.m_size = 0;
    return *this;
}

void Blackboard::SlotStore::placeFirst(void* where, std::shared_ptr<const void> keep)
{
    if (!m_first)
        return;
    m_first = placed::moveTo(m_first, kChunk, m_placed, where);
    m_placed = true;
    m_keep = std::move(keep); // after the move: the old arena may go now
}

void Blackboard::SlotStore::push_back(Slot slot)
{
    if (m_size == 0 && !m_first)
        m_first = placed::allocate<Slot>(kChunk);
    else if (m_size >= kChunk && (m_size - kChunk) % kChunk == 0 && (m_size - kChunk) / kChunk == m_more.size())
        m_more.push_back(std::make_unique<Slot[]>(kChunk));
    (*this)[m_size] = std::move(slot);
    ++m_size;
}

Blackboard::Blackboard(const json& object) { *this = object; }

Blackboard& Blackboard::operator=(const json& object)
{
    clear();
    if (object.is_object())
        for (auto it = object.begin(); it != object.end(); ++it)
            set(slotOf(it.key())) = it.value();
    return *this;
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

const json* Blackboard::find(std::string_view key) const
{
    const uint32_t slot = findSlot(key);
    return slot == kNoSlot ? nullptr : at(slot);
}

json& Blackboard::set(uint32_t slot)
{
    Slot& s = m_slots[slot];
    s.stamp = nextStamp();
    s.checks = 0;
    if (!s.present)
    {
        s.present = 1;
        s.value = json();
        ++m_count;
    }
    return s.value;
}

json& Blackboard::operator[](std::string_view key) { return set(slotOf(key)); }

size_t Blackboard::erase(std::string_view key)
{
    const uint32_t slot = findSlot(key);
    if (slot == kNoSlot || !m_slots[slot].present)
        return 0;
    m_slots[slot].present = 0;
    m_slots[slot].value = json();
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
        s.value = json();
        s.stamp = nextStamp();
        s.checks = 0;
    }
    m_count = 0;
}

void Blackboard::prefetchSlots(uint32_t count) const
{
#if defined(__GNUC__)
    // The first slots sit side by side in the first chunk.
    // The first chunk holds all its slots (a hint: slots past the count are empty ones).
    const uint32_t n = m_slots.first() ? std::min<uint32_t>(count, SlotStore::kChunk) : 0;
    if (n == 0)
        return;
    // Every cache line the first n slots touch.
    const char* first = reinterpret_cast<const char*>(m_slots.first());
    for (uint32_t at = 0; at < n * sizeof(Slot); at += 64)
        __builtin_prefetch(first + at);
    __builtin_prefetch(first + n * sizeof(Slot) - 1);
#else
    (void)count;
#endif
}

void Blackboard::prefetchValues(uint32_t count) const
{
#if defined(__GNUC__)
    // Bounded by the first chunk, not by the slot count: the chunk holds all its
    // slots (those not in use are empty), and the count is not on a line a tick reads.
    const Slot* first = m_slots.first();
    if (!first)
        return;
    const uint32_t n = std::min<uint32_t>(count, SlotStore::kChunk);
    for (uint32_t i = 0; i < n; ++i)
    {
        const Slot& s = first[i];
        if (!s.present)
            continue;
        // A string's object, which holds a short one's characters too.
        if (s.value.is_string())
            __builtin_prefetch(s.value.get_ptr<const json::string_t*>());
    }
#else
    (void)count;
#endif
}

json Blackboard::toJson() const
{
    json out = json::object();
    forEach([&](const std::string& key, const json& value) { out[key] = value; });
    return out;
}

bool operator==(const Blackboard& a, const Blackboard& b)
{
    if (a.size() != b.size())
        return false;
    bool equal = true;
    a.forEach([&](const std::string& key, const json& value) {
        const json* other = b.find(key);
        equal = equal && other && *other == value;
    });
    return equal;
}

void to_json(json& out, const Blackboard& bb) { out = bb.toJson(); }

const json* blackboardFind(const Blackboard& bb, std::string_view key) { return bb.find(key); }

const json* blackboardFind(const json& bb, std::string_view key)
{
    if (!bb.is_object())
        return nullptr;
    const auto it = bb.find(key);
    return it == bb.end() ? nullptr : &*it;
}

void hashBlackboard(Hasher& io, const Blackboard& bb)
{
    // As hashJson of the object: tag 6, the size, then key and value in key order.
    io.addU8(6);
    io.addU64(bb.size());
    bb.forEach([&](const std::string& key, const json& value) {
        io.addString(key);
        hashJson(io, value);
    });
}

void hashJson(Hasher& io, const json& value)
{
    switch (value.type())
    {
    case json::value_t::null: io.addU8(0); break;
    case json::value_t::boolean:
        io.addU8(1);
        io.addBool(value.get<bool>());
        break;
    case json::value_t::number_integer:
        io.addU8(2);
        io.addI64(value.get<int64_t>());
        break;
    case json::value_t::number_unsigned:
        io.addU8(2);
        io.addU64(value.get<uint64_t>());
        break;
    case json::value_t::number_float:
        io.addU8(3);
        io.addF64(value.get<double>());
        break;
    case json::value_t::string:
        io.addU8(4);
        io.addString(value.get_ref<const std::string&>());
        break;
    case json::value_t::array:
        io.addU8(5);
        io.addU64(value.size());
        for (const json& v : value)
            hashJson(io, v);
        break;
    case json::value_t::object:
        io.addU8(6);
        io.addU64(value.size());
        for (auto it = value.begin(); it != value.end(); ++it)
        {
            io.addString(it.key());
            hashJson(io, it.value());
        }
        break;
    default: io.addU8(7); break;
    }
}

} // namespace spark::ai
