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

#include <cstdint>
#include <string>
#include <vector>

namespace spark::ai
{

/// Node types of SPEC §4.
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
};

/// A compiled behaviour tree.
struct CompiledTree
{
    std::string name;              ///< Document name.
    std::vector<Node> nodes;       ///< Pre-order; nodes[0] is the root.
    std::vector<uint32_t> children;///< Child index lists, ranges per node.
    uint32_t depth = 0;            ///< Levels after inlining.
    std::vector<std::string> keys; ///< Every blackboard key the nodes name (check/set keys, `{"bb"}` slots), once each.
    uint32_t targetSites = 0;      ///< Number of `target` parameters of built-in leaf calls (each brain keeps a TargetRef per site).
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

} // namespace spark::ai
