// Packed node states (tree.h: NodeStates): what each node type can set besides
// its status, and the byte layout a tree and its brains share. Fields are
// copied in and out with memcpy (no alignment or aliasing assumptions).
#include "spark/ai/tree.h"

#include "packed_bytes.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace spark::ai
{

NodeMemory nodeMemoryOf(NodeType type, LeafId leaf)
{
    switch (type)
    {
    case NodeType::Sequence:
    case NodeType::Selector:
    case NodeType::Repeat:
    case NodeType::Retry: return NodeMemory::Cursor;
    case NodeType::Timeout:
    case NodeType::Wait: return NodeMemory::StartTime;
    case NodeType::Cooldown: return NodeMemory::ReadyAt;
    case NodeType::Condition:
    case NodeType::Action:
        switch (leaf)
        {
        case LeafId::CanSee: return NodeMemory::Flag;
        case LeafId::MoveTo: return NodeMemory::Point;
        case LeafId::Patrol: return NodeMemory::Patrol;
        case LeafId::Count: return NodeMemory::Full;
        default: return NodeMemory::None;
        }
    default: return NodeMemory::None;
    }
}

namespace
{
// Field offsets inside a memory.
constexpr size_t kFullCounter = 4;  // Full: cursor, counter, startTime, readyAt, point, flag.
constexpr size_t kFullStart = 8;
constexpr size_t kFullReady = 16;
constexpr size_t kFullPoint = 24;
constexpr size_t kFullFlag = 48;

} // namespace

size_t NodeStates::memoryBytes(NodeMemory memory)
{
    switch (memory)
    {
    case NodeMemory::None: return 0;
    case NodeMemory::Cursor: return 4;
    case NodeMemory::StartTime:
    case NodeMemory::ReadyAt: return 8;
    case NodeMemory::Flag: return 1;
    case NodeMemory::Point: return 24;
    case NodeMemory::Patrol: return PatrolMemory::kBytes;
    case NodeMemory::Full: return kFullFlag + 1;
    }
    return 0;
}

NodeState NodeStates::read(const unsigned char* bytes, size_t i, NodeMemory memory, size_t offset)
{
    NodeState s;
    s.status = static_cast<NodeStatus>(bytes[i]);
    const unsigned char* m = bytes + offset;
    switch (memory)
    {
    case NodeMemory::None: break;
    case NodeMemory::Cursor: s.cursor = loadAt<int32_t>(m); break;
    case NodeMemory::StartTime: s.startTime = loadAt<double>(m); break;
    case NodeMemory::ReadyAt: s.readyAt = loadAt<double>(m); break;
    case NodeMemory::Flag: s.flag = m[0] != 0; break;
    case NodeMemory::Point: s.point = loadPoint(m); break;
    case NodeMemory::Patrol:
        s.counter = loadAt<int32_t>(m + PatrolMemory::kCounter);
        s.point = loadPoint(m + PatrolMemory::kPoint);
        break;
    case NodeMemory::Full:
        s.cursor = loadAt<int32_t>(m);
        s.counter = loadAt<int32_t>(m + kFullCounter);
        s.startTime = loadAt<double>(m + kFullStart);
        s.readyAt = loadAt<double>(m + kFullReady);
        s.point = loadPoint(m + kFullPoint);
        s.flag = m[kFullFlag] != 0;
        break;
    }
    return s;
}

void NodeStates::write(unsigned char* bytes, size_t i, NodeMemory memory, size_t offset, const NodeState& s)
{
    bytes[i] = static_cast<unsigned char>(s.status);
    unsigned char* m = bytes + offset;
    switch (memory)
    {
    case NodeMemory::None: break;
    case NodeMemory::Cursor: storeAt(m, s.cursor); break;
    case NodeMemory::StartTime: storeAt(m, s.startTime); break;
    case NodeMemory::ReadyAt: storeAt(m, s.readyAt); break;
    case NodeMemory::Flag: m[0] = s.flag ? 1 : 0; break;
    case NodeMemory::Point: storePoint(m, s.point); break;
    case NodeMemory::Patrol:
        storeAt(m + PatrolMemory::kCounter, s.counter);
        storePoint(m + PatrolMemory::kPoint, s.point);
        storeAt(m + PatrolMemory::kRouteStamp, uint64_t{0}); // the derived route data no longer holds
        storeAt(m + PatrolMemory::kRouteCounter, int32_t{0});
        storeAt(m + PatrolMemory::kRouteSize, int32_t{0});
        break;
    case NodeMemory::Full:
        storeAt(m, s.cursor);
        storeAt(m + kFullCounter, s.counter);
        storeAt(m + kFullStart, s.startTime);
        storeAt(m + kFullReady, s.readyAt);
        storePoint(m + kFullPoint, s.point);
        m[kFullFlag] = s.flag ? 1 : 0;
        break;
    }
}

size_t NodeStates::memoryRank(NodeMemory memory)
{
    switch (memory)
    {
    case NodeMemory::Cursor:
        return 0;
    case NodeMemory::Flag:
        return 1;
    case NodeMemory::Patrol:
        return 2;
    case NodeMemory::Full:
        return 3;
    case NodeMemory::StartTime:
        return 4;
    case NodeMemory::ReadyAt:
        return 5;
    case NodeMemory::Point:
        return 6;
    case NodeMemory::None:
        return 7; // no bytes
    }
    return 7;
}

NodeStates::NodeStates(std::span<const NodeMemory> memories) : m_size(static_cast<uint32_t>(memories.size()))
{
    MemoryWalk walk(m_size, [&](size_t i) { return memories[i]; });
    m_bytes = static_cast<uint32_t>(stateBytes(m_size, walk.end() - memoryBegin(m_size)));
    m_data = m_bytes == 0 ? nullptr : new unsigned char[m_bytes]();
    unsigned char* b = bytes();
    const NodeState idle{};
    for (size_t i = 0; i < m_size; ++i)
    {
        b[m_bytes - m_size + i] = static_cast<unsigned char>(memories[i]);
        write(b, i, memories[i], walk.next(memories[i]), idle);
    }
}

NodeStates& NodeStates::operator=(const NodeStates& other)
{
    if (this == &other)
        return *this;
    unsigned char* data = nullptr;
    if (other.m_data)
    {
        data = new unsigned char[other.m_bytes];
        std::copy(other.m_data, other.m_data + other.m_bytes, data);
    }
    delete[] m_data;
    m_data = data;
    m_size = other.m_size;
    m_bytes = other.m_bytes;
    return *this;
}

NodeStates& NodeStates::operator=(NodeStates&& other) noexcept
{
    if (this == &other)
        return *this;
    delete[] m_data;
    m_data = std::exchange(other.m_data, nullptr);
    m_size = other.m_size;
    m_bytes = other.m_bytes;
    other.m_size = 0;
    other.m_bytes = 0;
    return *this;
}

bool operator==(const NodeStates& a, const NodeStates& b)
{
    return a.m_size == b.m_size && a.m_bytes == b.m_bytes &&
           (a.m_bytes == 0 || std::memcmp(a.m_data, b.m_data, a.m_bytes) == 0);
}

size_t NodeStates::memoryOffset(size_t i) const
{
    MemoryWalk walk(m_size, [&](size_t j) { return memory(j); });
    for (size_t j = 0; j < i; ++j)
        (void)walk.next(memory(j));
    return walk.next(memory(i));
}

NodeState NodeStates::at(size_t i) const
{
    return read(i, memoryOffset(i));
}

void NodeStates::set(size_t i, const NodeState& state)
{
    write(bytes(), i, memory(i), memoryOffset(i), state);
}

bool NodeStates::hasMemories(std::span<const NodeMemory> memories) const
{
    if (memories.size() != m_size)
        return false;
    for (size_t i = 0; i < m_size; ++i)
        if (memory(i) != memories[i])
            return false;
    return true;
}

void layoutNodeStates(CompiledTree& io)
{
    io.memories.resize(io.nodes.size());
    for (size_t i = 0; i < io.nodes.size(); ++i)
    {
        Node& n = io.nodes[i];
        n.memory = nodeMemoryOf(n.type, n.call.leaf);
        io.memories[i] = n.memory;
    }
    NodeStates::MemoryWalk walk(io.nodes.size(), [&](size_t i) { return io.memories[i]; });
    for (size_t i = 0; i < io.nodes.size(); ++i)
        io.nodes[i].memoryOffset = static_cast<uint32_t>(walk.next(io.memories[i]));
    io.stateBytes =
        NodeStates::stateBytes(io.nodes.size(), walk.end() - NodeStates::memoryBegin(io.nodes.size()));
}

} // namespace spark::ai
