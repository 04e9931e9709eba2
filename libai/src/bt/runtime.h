#pragma once
// The tick context shared by the node semantics, the leaves and the brains (internal).
#include "spark/ai/brain.h"
#include "spark/ai/leaf_registry.h"

#include <optional>
#include <span>

namespace spark::ai::detail
{

/// Everything a tick reaches. Lives for one brain tick.
struct TickCtx
{
    AiState& state;
    Brain& brain;
    World& world;
    const CompiledTree& tree;
    const LeafRegistry& leaves; ///< Every leaf the tree may call.
    uint64_t frame = 0;
    double time = 0; ///< frame × dt. [Units: s]
    TickClock clock; ///< The tick's clock (frame and dt).
    std::span<ResolvedKey>
        keys; ///< The tree's key index → the brain's blackboard slot and the last type check of its value.
    AgentKey agent{}; ///< The host's key of the brain's agent (Brain::agentKey).
    unsigned char* states = nullptr; ///< The brain's packed node states (`brain.nodes.bytes()`, laid out as the tree says).
    bool keysAreSlots = false; ///< Tree key index i is blackboard slot i (see BrainResolution::keysAreSlots).
    std::optional<Error> error{}; ///< Why the tick failed (kept here on the way up; empty until then).
};

/// The blackboard slot of tree key `keyIndex`. [Limit: keyIndex < ctx.keys.size()]
inline uint32_t keySlot(const TickCtx& ctx, uint32_t keyIndex)
{
    return ctx.keysAreSlots ? keyIndex : ctx.keys[keyIndex].slot;
}

/// The bit of a parameter type in a blackboard slot's checks (Blackboard::markChecked).
inline uint8_t typeCheckBit(ParamType type)
{
    return static_cast<uint8_t>(1u << static_cast<unsigned>(type));
}

/// The blackboard value a node or parameter names: by its resolved slot when the
/// tree interned the key (`keyIndex` < the tree's keys), else by name (the
/// calls of a utility document). nullptr when the key has no value.
inline const Value* blackboardValue(const TickCtx& ctx, uint32_t keyIndex, const std::string& key)
{
    if (keyIndex < ctx.keys.size())
        return ctx.brain.blackboard.at(keySlot(ctx, keyIndex));
    return ctx.brain.blackboard.find(key);
}

/// Tolerance of time comparisons (times are frame × dt sums). [Units: s]
inline constexpr double kTimeEps = 1e-9;

/// What the tick functions answering a bare NodeStatus answer when the tick
/// failed; the error is then in `TickCtx::error`.
inline constexpr NodeStatus kFailed = static_cast<NodeStatus>(0xff);

/// Keeps a failure in `ctx.error` and answers kFailed.
inline NodeStatus fail(TickCtx& ctx, Error error)
{
    ctx.error = std::move(error);
    return kFailed;
}

/// Ticks a leaf call; kFailed on error (see kFailed). `path` is the JSON
/// pointer of the call (for errors).
NodeStatus tickLeafStatus(TickCtx& ctx, const LeafCall& call, NodeState& io, std::string_view path);
/// Ticks tree node `index` (`n`: a condition or action) on the context's packed
/// node states; kFailed on error.
NodeStatus tickLeafNode(TickCtx& ctx, uint32_t index, const Node& n);
/// tickLeafStatus as a Result.
Result<NodeStatus> tickLeaf(TickCtx& ctx, const LeafCall& call, NodeState& io, std::string_view path);
/// Tells a running leaf it is halted (move_to/patrol stop the agent, a
/// registered action's halt callback runs).
void haltLeaf(TickCtx& ctx, const LeafCall& call, NodeState& io, std::string_view path);

/// Ticks node `index` of the context's tree.
Result<NodeStatus> tickNode(TickCtx& ctx, uint32_t index);
/// Ticks the context's tree from its root: its status, or kFailed (see kFailed).
NodeStatus tickTree(TickCtx& ctx);
/// Halts node `index` and its running descendants.
void haltNode(TickCtx& ctx, uint32_t index);

/// Records an event for the context's brain.
void emitEvent(TickCtx& ctx, const char* kind, json data);

} // namespace spark::ai::detail
