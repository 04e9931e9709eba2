// Behaviour-tree node semantics, one tick at a time (the classic model of
// Champandard, "Understanding Behavior Trees", AiGameDev 2007, and the
// reactive control nodes of BehaviorTree.CPP):
// - sequence/selector keep the running child and resume there; `reactive`
//   ones start from the first child every tick and halt the previously running
//   child when an earlier child decides (fails for a sequence, succeeds or runs
//   for a selector), or when another child now runs.
// - parallel ticks every child still undecided; `success`/`failure` say whether
//   one or all children decide. Success is checked first; when every child has
//   finished without meeting either policy, the parallel fails. On deciding, it
//   halts the children still running.
// - repeat/retry complete one child run per tick (a run that finishes returns
//   running until `count` runs are done), so a loop never spins inside a tick.
// - timeout/cooldown/wait measure simulation time (frame × dt).
// A node is started afresh whenever its last status is not `running`.
#include "runtime.h"

#include <algorithm>
#include <cstring>

namespace spark::ai::detail
{
namespace
{

/// A node's state in its brain's packed NodeStates (tree.h): the status byte
/// and the fields of its memory. Only the accessors of the node's own memory
/// are called (a sequence's cursor, a timeout's start time).
class Packed
{
public:
    Packed(TickCtx& ctx, uint32_t index, const Node& n)
        : m_status(ctx.states + index), m_memory(ctx.states + n.memoryOffset)
    {
    }
    NodeStatus status() const { return static_cast<NodeStatus>(*m_status); }
    void setStatus(NodeStatus s) { *m_status = static_cast<unsigned char>(s); }
    /// Cursor and Full memories: the cursor.
    int32_t cursor() const
    {
        int32_t v;
        std::memcpy(&v, m_memory, sizeof v);
        return v;
    }
    void setCursor(int32_t v) { std::memcpy(m_memory, &v, sizeof v); }
    /// StartTime and ReadyAt memories: the time.
    double time() const
    {
        double v;
        std::memcpy(&v, m_memory, sizeof v);
        return v;
    }
    void setTime(double v) { std::memcpy(m_memory, &v, sizeof v); }

private:
    unsigned char* m_status;
    unsigned char* m_memory;
};

NodeStatus setStatus(Packed& s, NodeStatus status)
{
    s.setStatus(status);
    return status;
}

uint32_t childAt(const TickCtx& ctx, const Node& n, uint32_t i) { return ctx.tree.children[n.childBegin + i]; }

/// The value of a node's slot; `key` names the field for the error path (built only on error).
const Value* slotValue(TickCtx& ctx, const ParamSlot& slot, const Node& node, const char* key)
{
    if (!slot.fromBb)
        return &slot.literal;
    const Value* v = blackboardValue(ctx, slot.bbIndex, slot.bbKey);
    if (!v)
        ctx.error = makeError(kCodeParams, "blackboard key '" + slot.bbKey + "' is missing", pointerJoin(node.path, key),
                              "set the key on the blackboard before the node runs");
    return v;
}

bool compare(const Value& a, CheckOp op, const Value& b)
{
    switch (op)
    {
    case CheckOp::Eq: return a == b;
    case CheckOp::Ne: return a != b;
    default: break;
    }
    double x = 0, y = 0;
    if (a.numberOf(x) && b.numberOf(y))
    {
        switch (op)
        {
        case CheckOp::Lt: return x < y;
        case CheckOp::Le: return x <= y;
        case CheckOp::Gt: return x > y;
        case CheckOp::Ge: return x >= y;
        default: return false;
        }
    }
    if (a.isString() && b.isString())
    {
        const std::string& x = a.string();
        const std::string& y = b.string();
        switch (op)
        {
        case CheckOp::Lt: return x < y;
        case CheckOp::Le: return x <= y;
        case CheckOp::Gt: return x > y;
        case CheckOp::Ge: return x >= y;
        default: return false;
        }
    }
    return false;
}

/// Sensors of a brain's agent, read from the world.
class WorldSensors final : public SensorReader
{
public:
    explicit WorldSensors(TickCtx& ctx) : m_ctx(ctx) {}
    Result<double> read(Sensor sensor) const override
    {
        Vec3 pos(0, 0, 0);
        m_ctx.world.agentPosition(m_ctx.agent, pos);
        switch (sensor)
        {
        case Sensor::Speed:
        {
            const Vec3 v = m_ctx.world.agentVelocity(m_ctx.agent);
            return std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
        }
        case Sensor::PosX: return pos.x;
        case Sensor::PosY: return pos.y;
        case Sensor::PosZ: return pos.z;
        case Sensor::Time: return m_ctx.time;
        case Sensor::DistanceToTarget:
        {
            const Value* t = blackboardFind(m_ctx.brain.blackboard, "target");
            Vec3 target;
            if (t && t->isString())
            {
                if (!m_ctx.world.findTarget(t->symbol(), target))
                    return makeError(kCodeUnknown, "the blackboard target '" + t->string() + "' does not exist",
                                     "/blackboard/target");
            }
            else if (t && t->isList() && t->size() == 3 && t->items()[0].isNumber() && t->items()[1].isNumber() &&
                     t->items()[2].isNumber())
                target = Vec3(t->items()[0].number(), t->items()[1].number(), t->items()[2].number());
            else
                return makeError(kCodeParams, "distance_to_target needs blackboard.target (a name or [x, y, z])",
                                 "/blackboard/target", "set \"target\" on the blackboard");
            const Vec3 d = target - pos;
            return std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
        }
        default: break;
        }
        return makeError(kCodeParams, "unknown sensor");
    }

private:
    TickCtx& m_ctx;
};

Result<NodeStatus> tickUtility(TickCtx& ctx, uint32_t index)
{
    const Node& n = ctx.tree.nodes[index];
    Packed s(ctx, index, n);
    const auto docIt = ctx.state.utilities.find(n.utility);
    if (docIt == ctx.state.utilities.end())
        return makeError(kCodeUnknown, "no utility document named '" + n.utility + "'", pointerJoin(n.path, "utility"),
                         "load it with ai.utility.load");
    const UtilityDoc& doc = docIt->second;
    UtilityMemory& mem = ctx.brain.utilityMemory[index];
    mem.readyAt.resize(doc.actions.size(), 0.0);
    if (mem.running >= static_cast<int32_t>(doc.actions.size()))
        mem.running = -1;
    if (s.status() != NodeStatus::Running)
        mem.running = -1;
    const WorldSensors sensors(ctx);
    auto eval = evaluateUtility(doc, ctx.brain.blackboard, sensors, mem, ctx.time, ctx.brain.rng);
    if (!eval.ok())
        return eval.error();
    const int32_t choice = eval->choice;
    if (choice != mem.running && mem.running >= 0)
    {
        haltLeaf(ctx, doc.actions[static_cast<size_t>(mem.running)].run, mem.leaf,
                 "/actions/" + std::to_string(mem.running) + "/run");
        mem.readyAt[static_cast<size_t>(mem.running)] = ctx.time + doc.actions[static_cast<size_t>(mem.running)].cooldown;
    }
    if (choice < 0)
    {
        mem.running = -1;
        return setStatus(s, NodeStatus::Failure);
    }
    if (choice != mem.running)
    {
        emitEvent(ctx, kEventUtility,
                  {{"utility", doc.name},
                   {"choice", doc.actions[static_cast<size_t>(choice)].name},
                   {"score", eval->actions[static_cast<size_t>(choice)].score},
                   {"previous", mem.last >= 0 ? json(doc.actions[static_cast<size_t>(mem.last)].name) : json()}});
        mem.leaf = NodeState{};
        mem.running = choice;
    }
    mem.last = choice;
    const std::string path = "/actions/" + std::to_string(choice) + "/run";
    auto r = tickLeaf(ctx, doc.actions[static_cast<size_t>(choice)].run, mem.leaf, path);
    if (!r.ok())
        return makeError(r.error().code, r.error().message + " (utility '" + doc.name + "')", r.error().field,
                         r.error().hint);
    mem.leaf.status = *r;
    if (*r != NodeStatus::Running)
    {
        mem.readyAt[static_cast<size_t>(choice)] = ctx.time + doc.actions[static_cast<size_t>(choice)].cooldown;
        mem.running = -1;
    }
    return setStatus(s, *r);
}

} // namespace

void emitEvent(TickCtx& ctx, const char* kind, json data)
{
    pushEvent(ctx.state.events, ctx.frame, ctx.time, kind, ctx.brain.agent, std::move(data));
}

void haltNode(TickCtx& ctx, uint32_t index)
{
    const Node& n = ctx.tree.nodes[index];
    Packed s(ctx, index, n);
    if (s.status() != NodeStatus::Running)
    {
        s.setStatus(NodeStatus::Idle);
        return;
    }
    for (uint32_t i = 0; i < n.childCount; ++i)
        haltNode(ctx, childAt(ctx, n, i));
    if ((n.type == NodeType::Action || n.type == NodeType::Condition) && n.call.leaf != LeafId::Count)
    {
        // A running built-in is told as haltLeaf tells it: move_to and patrol stop the agent.
        if (n.call.leaf == LeafId::MoveTo || n.call.leaf == LeafId::Patrol)
            ctx.world.stop(ctx.agent);
    }
    else if (n.type == NodeType::Action || n.type == NodeType::Condition)
    {
        NodeState leaf = NodeStates::read(ctx.states, index, n.memory, n.memoryOffset);
        haltLeaf(ctx, n.call, leaf, n.path);
        NodeStates::write(ctx.states, index, n.memory, n.memoryOffset, leaf);
    }
    if (n.type == NodeType::Utility)
    {
        auto memIt = ctx.brain.utilityMemory.find(index);
        const auto docIt = ctx.state.utilities.find(n.utility);
        if (memIt != ctx.brain.utilityMemory.end() && docIt != ctx.state.utilities.end() && memIt->second.running >= 0 &&
            memIt->second.running < static_cast<int32_t>(docIt->second.actions.size()))
            haltLeaf(ctx, docIt->second.actions[static_cast<size_t>(memIt->second.running)].run,
                     memIt->second.leaf, "/actions/" + std::to_string(memIt->second.running) + "/run");
        if (memIt != ctx.brain.utilityMemory.end())
            memIt->second.running = -1;
    }
    s.setStatus(NodeStatus::Idle);
    if (n.memory == NodeMemory::Cursor || n.memory == NodeMemory::Full)
        s.setCursor(0); // the other memories have no cursor (it stays 0)
}

namespace
{

NodeStatus tickNodeStatus(TickCtx& ctx, uint32_t index);

/// Ticks a sequence/selector node (`n` is node `index`).
[[gnu::noinline]] NodeStatus tickComposite(TickCtx& ctx, uint32_t index, const Node& n)
{
    Packed s(ctx, index, n);
    const bool fresh = s.status() != NodeStatus::Running;
    const bool isSequence = n.type == NodeType::Sequence;
    // The child that stops a sequence (failure) / selector (success).
    const NodeStatus decisive = isSequence ? NodeStatus::Failure : NodeStatus::Success;
    const int32_t previous = fresh ? -1 : s.cursor();
    const uint32_t start = n.reactive || fresh ? 0 : static_cast<uint32_t>(s.cursor());
    for (uint32_t i = start; i < n.childCount; ++i)
    {
        const NodeStatus r = tickNodeStatus(ctx, childAt(ctx, n, i));
        if (r == kFailed)
            return kFailed;
        if (r == NodeStatus::Running || r == decisive)
        {
            if (previous >= 0 && previous != static_cast<int32_t>(i))
                haltNode(ctx, childAt(ctx, n, static_cast<uint32_t>(previous)));
            if (r == NodeStatus::Running)
            {
                s.setCursor(static_cast<int32_t>(i));
                return setStatus(s, NodeStatus::Running);
            }
            s.setCursor(0);
            return setStatus(s, decisive);
        }
    }
    s.setCursor(0);
    return setStatus(s, isSequence ? NodeStatus::Success : NodeStatus::Failure);
}

/// Ticks a parallel node (`n` is node `index`).
[[gnu::noinline]] NodeStatus tickParallel(TickCtx& ctx, uint32_t index, const Node& n)
{
    Packed s(ctx, index, n);
    const bool fresh = s.status() != NodeStatus::Running;
    uint32_t successes = 0, failures = 0, running = 0;
    for (uint32_t i = 0; i < n.childCount; ++i)
    {
        const uint32_t c = childAt(ctx, n, i);
        NodeStatus r = static_cast<NodeStatus>(ctx.states[c]);
        if (fresh || r == NodeStatus::Running || r == NodeStatus::Idle)
        {
            r = tickNodeStatus(ctx, c);
            if (r == kFailed)
                return kFailed;
        }
        successes += r == NodeStatus::Success;
        failures += r == NodeStatus::Failure;
        running += r == NodeStatus::Running;
    }
    const bool succeeded = n.successPolicy == ParallelPolicy::One ? successes >= 1 : successes == n.childCount;
    const bool failed = n.failurePolicy == ParallelPolicy::One ? failures >= 1 : failures == n.childCount;
    if (succeeded || failed || running == 0)
    {
        if (running > 0)
            for (uint32_t i = 0; i < n.childCount; ++i)
                haltNode(ctx, childAt(ctx, n, i));
        return setStatus(s, succeeded ? NodeStatus::Success : NodeStatus::Failure);
    }
    return setStatus(s, NodeStatus::Running);
}

/// Ticks a inverter/succeeder/failer node (`n` is node `index`).
[[gnu::noinline]] NodeStatus tickDecorator(TickCtx& ctx, uint32_t index, const Node& n)
{
    Packed s(ctx, index, n);
    const NodeStatus r = tickNodeStatus(ctx, childAt(ctx, n, 0));
    if (r == kFailed)
        return kFailed;
    if (r == NodeStatus::Running)
        return setStatus(s, NodeStatus::Running);
    if (n.type == NodeType::Succeeder)
        return setStatus(s, NodeStatus::Success);
    if (n.type == NodeType::Failer)
        return setStatus(s, NodeStatus::Failure);
    return setStatus(s, r == NodeStatus::Success ? NodeStatus::Failure : NodeStatus::Success);
}

/// Ticks a repeat/retry node (`n` is node `index`).
[[gnu::noinline]] NodeStatus tickRepeat(TickCtx& ctx, uint32_t index, const Node& n)
{
    Packed s(ctx, index, n);
    const bool fresh = s.status() != NodeStatus::Running;
    if (fresh)
        s.setCursor(0);
    const NodeStatus r = tickNodeStatus(ctx, childAt(ctx, n, 0));
    if (r == kFailed)
        return kFailed;
    if (r == NodeStatus::Running)
        return setStatus(s, NodeStatus::Running);
    // repeat goes on after a success, retry after a failure.
    const NodeStatus again = n.type == NodeType::Repeat ? NodeStatus::Success : NodeStatus::Failure;
    if (r != again)
    {
        s.setCursor(0);
        return setStatus(s, r);
    }
    s.setCursor(s.cursor() + 1);
    if (n.count != -1 && s.cursor() >= n.count)
    {
        s.setCursor(0);
        return setStatus(s, again);
    }
    return setStatus(s, NodeStatus::Running);
}

/// Ticks a timeout node (`n` is node `index`).
[[gnu::noinline]] NodeStatus tickTimeout(TickCtx& ctx, uint32_t index, const Node& n)
{
    Packed s(ctx, index, n);
    const bool fresh = s.status() != NodeStatus::Running;
    if (fresh)
        s.setTime(ctx.time);
    if (ctx.time - s.time() >= n.seconds - kTimeEps)
    {
        haltNode(ctx, childAt(ctx, n, 0));
        return setStatus(s, NodeStatus::Failure);
    }
    const NodeStatus r = tickNodeStatus(ctx, childAt(ctx, n, 0));
    if (r == kFailed)
        return kFailed;
    return setStatus(s, r);
}

/// Ticks a cooldown node (`n` is node `index`).
[[gnu::noinline]] NodeStatus tickCooldown(TickCtx& ctx, uint32_t index, const Node& n)
{
    Packed s(ctx, index, n);
    const bool fresh = s.status() != NodeStatus::Running;
    if (fresh && ctx.time < s.time() - kTimeEps)
        return setStatus(s, NodeStatus::Failure);
    const NodeStatus r = tickNodeStatus(ctx, childAt(ctx, n, 0));
    if (r == kFailed)
        return kFailed;
    if (r != NodeStatus::Running)
        s.setTime(ctx.time + n.seconds);
    return setStatus(s, r);
}

/// Ticks a wait node (`n` is node `index`).
[[gnu::noinline]] NodeStatus tickWait(TickCtx& ctx, uint32_t index, const Node& n)
{
    Packed s(ctx, index, n);
    const bool fresh = s.status() != NodeStatus::Running;
    const Value* v = slotValue(ctx, n.waitSeconds, n, "seconds");
    if (!v)
        return kFailed;
    double seconds = 0;
    if (!v->numberOf(seconds) || !std::isfinite(seconds) || seconds < 0)
        return fail(ctx, makeError(kCodeParams, "wait seconds must be a number >= 0",
                                   pointerJoin(n.path, "seconds"), "expected a number of seconds"));
    if (fresh)
        s.setTime(ctx.time);
    return setStatus(s, ctx.time - s.time() >= seconds - kTimeEps ? NodeStatus::Success
                                                                               : NodeStatus::Running);
}

/// Ticks a check node (`n` is node `index`).
[[gnu::noinline]] NodeStatus tickCheck(TickCtx& ctx, uint32_t index, const Node& n)
{
    Packed s(ctx, index, n);
    const Value* have = blackboardValue(ctx, n.keyIndex, n.key);
    if (n.op == CheckOp::Exists || n.op == CheckOp::Missing)
        return setStatus(s, (have != nullptr) == (n.op == CheckOp::Exists) ? NodeStatus::Success
                                                                           : NodeStatus::Failure);
    // Literal operands compared without the generic compare (the same answers):
    // a number with <, <=, >, >= (a value that is no number compares false), a
    // boolean with == and != (a value of another type is unequal).
    const ParamSlot& operand = n.value;
    if (!operand.fromBb && have)
    {
        if (operand.literalNumber && n.op >= CheckOp::Lt && n.op <= CheckOp::Ge)
        {
            double x = 0;
            if (!have->numberOf(x))
                return setStatus(s, NodeStatus::Failure);
            const double y = operand.number;
            const bool r = n.op == CheckOp::Lt   ? x < y
                           : n.op == CheckOp::Le ? x <= y
                           : n.op == CheckOp::Gt ? x > y
                                                 : x >= y;
            return setStatus(s, r ? NodeStatus::Success : NodeStatus::Failure);
        }
        if (operand.literal.isBool() && (n.op == CheckOp::Eq || n.op == CheckOp::Ne))
        {
            const bool equal = have->isBool() && have->boolean() == operand.literal.boolean();
            return setStatus(s, equal == (n.op == CheckOp::Eq) ? NodeStatus::Success : NodeStatus::Failure);
        }
    }
    const Value* v = slotValue(ctx, n.value, n, "value");
    if (!v)
        return kFailed;
    return setStatus(s, have && compare(*have, n.op, *v) ? NodeStatus::Success : NodeStatus::Failure);
}

/// Ticks a set node (`n` is node `index`).
[[gnu::noinline]] NodeStatus tickSet(TickCtx& ctx, uint32_t index, const Node& n)
{
    Packed s(ctx, index, n);
    // The slot first: naming a new key may add a slot, never move a value.
    const uint32_t slotIndex =
        n.keyIndex < ctx.keys.size() ? keySlot(ctx, n.keyIndex) : ctx.brain.blackboard.slotOf(n.key);
    const Value* v = slotValue(ctx, n.value, n, "value");
    if (!v)
        return kFailed;
    // Written (a new stamp) only when the value changes.
    const Value* have = ctx.brain.blackboard.at(slotIndex);
    if (!have || *have != *v)
        ctx.brain.blackboard.set(slotIndex) = Value(*v);
    return setStatus(s, NodeStatus::Success);
}

/// Ticks a utility node (`n` is node `index`).
[[gnu::noinline]] NodeStatus tickUtilityNode(TickCtx& ctx, uint32_t index, const Node& n)
{
    Packed s(ctx, index, n);
    auto r = tickUtility(ctx, index);
    if (!r.ok())
        return fail(ctx, r.error());
    return *r;
}

/// The failure of a node of no known type (out of line: the dispatch stays small).
[[gnu::cold, gnu::noinline]] NodeStatus unknownNodeType(TickCtx& ctx, const Node& n)
{
    return fail(ctx, makeError("E_INTERNAL", "unknown node type", n.path));
}

/// tickNode without a Result per node: a failure is kept in `ctx.error` and
/// answered as kFailed up to tickNode. A dispatch: each kind of node ticks in
/// its own function (a small frame each).
NodeStatus tickNodeStatus(TickCtx& ctx, uint32_t index)
{
    const Node& n = ctx.tree.nodes[index];
    switch (n.type)
    {
    case NodeType::Sequence:
    case NodeType::Selector:
        return tickComposite(ctx, index, n);
    case NodeType::Parallel:
        return tickParallel(ctx, index, n);
    case NodeType::Inverter:
    case NodeType::Succeeder:
    case NodeType::Failer:
        return tickDecorator(ctx, index, n);
    case NodeType::Repeat:
    case NodeType::Retry:
        return tickRepeat(ctx, index, n);
    case NodeType::Timeout:
        return tickTimeout(ctx, index, n);
    case NodeType::Cooldown:
        return tickCooldown(ctx, index, n);
    case NodeType::Wait:
        return tickWait(ctx, index, n);
    case NodeType::Check:
        return tickCheck(ctx, index, n);
    case NodeType::Set:
        return tickSet(ctx, index, n);
    case NodeType::Condition:
    case NodeType::Action:
        return tickLeafNode(ctx, index, n);
    case NodeType::Utility:
        return tickUtilityNode(ctx, index, n);
    case NodeType::Count: break;
    }
    return unknownNodeType(ctx, n);
}

} // namespace

NodeStatus tickTree(TickCtx& ctx) { return tickNodeStatus(ctx, 0); }

Result<NodeStatus> tickNode(TickCtx& ctx, uint32_t index)
{
    const NodeStatus r = tickNodeStatus(ctx, index);
    if (r == kFailed)
        return std::move(*ctx.error);
    return r;
}

} // namespace spark::ai::detail
