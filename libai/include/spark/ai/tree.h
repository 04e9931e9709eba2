#pragma once
/// \file tree.h
/// Behaviour trees compiled into a flat array of nodes (pre-order, no pointers):
/// children are index ranges into `CompiledTree::children`, subtrees are
/// inlined, leaf parameters are slots. The runtime state of a tree is one plain
/// `NodeState` per node, owned by the brain, so copying a brain copies its mind.

#include "spark/ai/leaves.h"
#include "spark/ai/validate.h"
#include "spark/ai/world.h"
#include "spark/core/result.h"

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "spark/core/export.h"
SPARK_AI_API_BEGIN

namespace spark::ai
{

/// Node types (docs/ai.md "Behaviour trees").
enum class NodeType : uint8_t
{
    Sequence,
    Selector,
    Parallel,
    Inverter,
    Succeeder,
    Failer,
    Repeat,
    Retry,
    Timeout,
    Cooldown,
    Wait,
    Check,
    Set,
    Condition,
    Action,
    Utility,
    Count
};

/// The document name of a node type ("sequence", ...). `subtree` is not a
/// runtime type: it is inlined.
const char* nodeTypeName(NodeType type);
/// All node type names a document may use, including "subtree".
const std::vector<std::string>& nodeTypeNames();

/// Result of ticking a node. `Idle` = not started (or halted).
enum class NodeStatus : uint8_t
{
    Idle,
    Running,
    Success,
    Failure,
};

/// "idle", "running", "success", "failure".
const char* nodeStatusName(NodeStatus status);

/// How many children decide a parallel node.
enum class ParallelPolicy : uint8_t
{
    One,
    All,
};

/// Comparison of a `check` node.
enum class CheckOp : uint8_t
{
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Exists,
    Missing,
};

/// Which fields of its `NodeState` a node can ever set besides `status` (the
/// others stay at their defaults), by node type and leaf. `NodeStates` keeps
/// only those.
enum class NodeMemory : uint8_t
{
    None,      ///< Status only.
    Cursor,    ///< sequence/selector/repeat/retry: `cursor`.
    StartTime, ///< timeout/wait: `startTime`.
    ReadyAt,   ///< cooldown: `readyAt`.
    Flag,      ///< can_see: `flag`.
    Point,     ///< move_to: `point`.
    Patrol,    ///< patrol: `counter` and `point`.
    Full,      ///< A registered leaf: every field.
};

/// The memory of a node of `type` (`leaf`: the leaf of a condition or action).
NodeMemory nodeMemoryOf(NodeType type, LeafId leaf);

/// One compiled node.
struct Node
{
    NodeType type = NodeType::Sequence;
    uint32_t parent = UINT32_MAX;  ///< Index of the parent, UINT32_MAX for the root.
    uint32_t childBegin = 0;       ///< First entry in `CompiledTree::children`.
    uint32_t childCount = 0;       ///< Number of children.
    uint32_t depth = 1;            ///< Level; the root is 1.
    bool reactive = false;         ///< sequence/selector: re-check from the first child every tick.
    ParallelPolicy successPolicy = ParallelPolicy::All; ///< parallel: children that must succeed.
    ParallelPolicy failurePolicy = ParallelPolicy::One; ///< parallel: children that must fail.
    int32_t count = 1;             ///< repeat/retry: runs (-1 = forever). [Limit: >= 1 or -1]
    double seconds = 0;            ///< timeout/cooldown. [Units: s] [Limit: > 0]
    LeafCall call;                 ///< condition/action: the leaf and its parameters.
    ParamSlot waitSeconds;         ///< wait: seconds (literal or blackboard).
    std::string key;               ///< check/set: blackboard key.
    uint32_t keyIndex = UINT32_MAX; ///< check/set: `key` in `CompiledTree::keys`.
    CheckOp op = CheckOp::Eq;      ///< check: comparison.
    ParamSlot value;               ///< check/set: the operand (literal or blackboard).
    std::string utility;           ///< utility: name of the utility document.
    std::string label;             ///< The node's `label` (or a generated one).
    std::string path;              ///< JSON pointer of the node in the document (subtrees: in `/subtrees`).
    NodeMemory memory = NodeMemory::None; ///< What its state keeps besides the status (see NodeStates).
    uint32_t memoryOffset = 0;     ///< Byte offset of its memory in a brain's `NodeStates::bytes()`.
};

/// A compiled behaviour tree.
struct CompiledTree
{
    std::string name;              ///< Document name.
    std::vector<Node> nodes;       ///< Pre-order; nodes[0] is the root.
    std::vector<uint32_t> children;///< Child index lists, ranges per node.
    uint32_t depth = 0;            ///< Levels after inlining.
    std::vector<std::string> keys; ///< Every blackboard key the nodes name (check/set keys, `{"bb"}` slots), once each.
    std::vector<NodeMemory> memories; ///< Node index → its memory (see layoutNodeStates).
    size_t stateBytes = 0;         ///< `NodeStates::byteSize()` of a brain's states for this tree.
    json doc;                      ///< The source document (for ai.tree.get).
};

/// Validates and compiles a tree document against the built-in leaves. On
/// failure the error is the first problem (code, message, path as field, hint)
/// and `outProblems` (when given) receives all of them.
Result<CompiledTree> compileTree(const json& doc, std::vector<Problem>* outProblems = nullptr);
/// Validates and compiles a tree document whose leaves may be any of `leaves`
/// (built-in or registered); errors as above.
Result<CompiledTree> compileTree(const json& doc, const LeafRegistry& leaves,
                                 std::vector<Problem>* outProblems = nullptr);

/// Sets every node's `memory` and `memoryOffset` and the tree's `memories`
/// (compileTree and putTree do; needed again only after changing `nodes`).
void layoutNodeStates(CompiledTree& io);

/// Feeds a compiled tree canonically into `io` (its source document and name).
void hashTree(Hasher& io, const CompiledTree& tree);

/// Runtime state of one node. Plain data. Fields marked "kept" survive a halt.
struct NodeState
{
    NodeStatus status = NodeStatus::Idle; ///< Result of the last tick (Idle after a halt).
    int32_t cursor = 0;      ///< Running child (sequence/selector) or runs so far (repeat/retry).
    int32_t counter = 0;     ///< Kept: patrol's next waypoint.
    double startTime = 0;    ///< When the node started running (wait/timeout). [Units: s]
    double readyAt = 0;      ///< Kept: cooldown ends (cooldown decorator). [Units: s]
    bool flag = false;       ///< Kept: can_see's last answer (for spotted/lost_sight).
    Vec3 point{0, 0, 0};     ///< move_to/patrol: the target last requested.
};

/// The runtime state of every node of a brain's tree, packed for the tick: one
/// status byte per node side by side, then per node only the fields its
/// `NodeMemory` says it can set (a sequence's cursor, a move's point), so a
/// tick touches a few cache lines instead of one per node. It stands for one
/// `NodeState` per node (`at`), the fields not kept being at their defaults.
/// Plain data: copying a brain copies it. (The memory kinds come last: a tick
/// reads the kinds from its tree, so the statuses and the memories it reads
/// are side by side; the object itself is two words, for a small brain record.)
class NodeStates
{
  public:
    /// No nodes.
    NodeStates() = default;
    /// Idle, default states for nodes of the given memories (in node order).
    explicit NodeStates(std::span<const NodeMemory> memories);
    NodeStates(const NodeStates& other) { *this = other; }
    NodeStates(NodeStates&& other) noexcept { *this = std::move(other); }
    ~NodeStates() { delete[] m_data; }
    NodeStates& operator=(const NodeStates& other);
    /// Takes the states (the moved-from states are left with no nodes).
    NodeStates& operator=(NodeStates&& other) noexcept;

    /// Number of nodes.
    size_t size() const { return m_size; }
    /// True when there are no nodes.
    bool empty() const { return m_size == 0; }
    /// Bytes of the packed states (statuses, memories, memory kinds).
    size_t byteSize() const { return m_bytes; }
    /// Node `i`'s memory kind. [Limit: i < size()]
    NodeMemory memory(size_t i) const { return static_cast<NodeMemory>(bytes()[m_bytes - m_size + i]); }
    /// Node `i`'s status. [Limit: i < size()]
    NodeStatus status(size_t i) const { return static_cast<NodeStatus>(bytes()[i]); }
    /// Node `i`'s whole state (a copy). [Limit: i < size()]
    NodeState at(size_t i) const;
    /// Sets node `i`'s state (fields its memory does not keep are dropped). [Limit: i < size()]
    void set(size_t i, const NodeState& state);
    /// True when the nodes have exactly these memories, in order.
    bool hasMemories(std::span<const NodeMemory> memories) const;
    /// Calls `fn(i, state)` for every node in order (`state`: as `at(i)`).
    template <class Fn> void forEach(Fn&& fn) const
    {
        MemoryWalk walk(m_size, [&](size_t i) { return memory(i); });
        for (size_t i = 0; i < m_size; ++i)
            fn(i, read(i, walk.next(memory(i))));
    }

    /// Where node memories go (after the statuses): by kind, in the order of
    /// memoryRank, and each kind's nodes in node order. The kinds a tick reads
    /// whenever their node is reached come first, beside the statuses: the
    /// cursors of control nodes (reached whenever any node under them is, and
    /// the most numerous), can_see's flag, a patrol's waypoint memo, a
    /// registered leaf's state; then timers and a move's point, which matter
    /// while a branch of their own runs. (In the benchmark's 30-node tree the
    /// statuses and the first kinds take 103 bytes of 205.)
    static size_t memoryRank(NodeMemory memory);
    /// Number of ranks (memoryRank answers below it).
    static constexpr size_t kMemoryRanks = 8;
    /// The node memories' byte offsets in node order: `next(kind)` of node i
    /// (called for i = 0, 1, ... in turn) is node i's offset.
    class MemoryWalk
    {
      public:
        /// For `count` nodes, node i of kind `kindAt(i)`.
        template <class KindAt> MemoryWalk(size_t count, KindAt&& kindAt)
        {
            std::array<size_t, kMemoryRanks> bytes{};
            for (size_t i = 0; i < count; ++i)
                bytes[memoryRank(kindAt(i))] += memoryBytes(kindAt(i));
            size_t at = memoryBegin(count);
            for (size_t r = 0; r < kMemoryRanks; ++r)
            {
                m_next[r] = at;
                at += bytes[r];
            }
            m_end = at;
        }
        /// The next node's offset (its kind `memory`).
        size_t next(NodeMemory memory)
        {
            size_t& at = m_next[memoryRank(memory)];
            const size_t offset = at;
            at += memoryBytes(memory);
            return offset;
        }
        /// The offset past every memory.
        size_t end() const { return m_end; }

      private:
        std::array<size_t, kMemoryRanks> m_next{};
        size_t m_end = 0;
    };

    /// The byte offset of the first node memory for `count` nodes (after the statuses).
    static size_t memoryBegin(size_t count) { return count; }
    /// Bytes of the packed states of nodes whose memories take `memoryTotal` bytes.
    static size_t stateBytes(size_t count, size_t memoryTotal) { return memoryBegin(count) + memoryTotal + count; }
    /// Bytes a memory kind takes.
    static size_t memoryBytes(NodeMemory memory);
    /// Node `i`'s state from raw bytes (`memory` at byte `offset`): what `at` answers.
    static NodeState read(const unsigned char* bytes, size_t i, NodeMemory memory, size_t offset);
    /// Writes node `i`'s state into raw bytes (`memory` at byte `offset`): what `set` does.
    static void write(unsigned char* bytes, size_t i, NodeMemory memory, size_t offset, const NodeState& state);
    /// The raw bytes (statuses, the packed memories, then the memory kinds): for the tick.
    unsigned char* bytes() { return m_data; }
    /// The raw bytes (read only).
    const unsigned char* bytes() const { return m_data; }

    /// The same states.
    friend bool operator==(const NodeStates& a, const NodeStates& b);

  private:
    NodeState read(size_t i, size_t offset) const { return read(bytes(), i, memory(i), offset); }
    /// Node `i`'s memory offset (see MemoryWalk).
    size_t memoryOffset(size_t i) const;

    /// Statuses (m_size bytes), the memories' fields, memory kinds (m_size bytes).
    unsigned char* m_data = nullptr;
    uint32_t m_size = 0;
    uint32_t m_bytes = 0; ///< See byteSize().
};

} // namespace spark::ai
SPARK_AI_API_END
