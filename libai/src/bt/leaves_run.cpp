// The leaves at run time: the built-ins, and the leaves a game registered (run
// through their callbacks). Leaves reach the world only through the host's
// `World`; parameters are read from their slots by the leaf's parameter enum
// (blackboard references resolved now, and type-checked, since the blackboard
// can hold anything).
// Distances for arrival are measured in the ground plane (XZ), so an agent
// whose position is its body centre still arrives at a point on the floor.
// The view cone compares the cosine of the angle to the target with
// det::cos(fov/2) (no libm trigonometry, docs/determinism.md).
#include "packed_bytes.h"
#include "runtime.h"
#include "spark/core/det_math.h"

#include <array>
#include <cmath>

namespace spark::ai::detail
{
namespace
{

double groundDistance(const Vec3& a, const Vec3& b)
{
    const double dx = a.x - b.x, dz = a.z - b.z;
    return std::sqrt(dx * dx + dz * dz);
}

double distance3(const Vec3& a, const Vec3& b)
{
    const Vec3 d = a - b;
    return std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
}

/// A validated point [x, y, z] (anything else, which validation keeps out, reads as the origin).
Vec3 toPoint(const Value& p)
{
    if (!p.isList() || p.items().size() != 3)
        return Vec3(0, 0, 0);
    const Value::List& a = p.items();
    return Vec3(a[0].number(), a[1].number(), a[2].number());
}

/// Reads a parameter slot of `leaf` declared by `def` into `out`: the literal,
/// or the blackboard value checked against the declared type; nullptr when
/// absent and not required. False on error (kept in `ctx.error`).
bool readSlot(TickCtx& ctx, const LeafDef& leaf, const ParamDef& def, const ParamSlot& slot, std::string_view path,
              const Value*& out)
{
    // Built only on the error paths: reading a parameter allocates nothing.
    auto field = [&] { return pointerJoin(pointerJoin(path, "params"), def.name); };
    if (!slot.present)
    {
        if (def.required)
        {
            ctx.error = makeError(kCodeParams, "parameter '" + def.name + "' is missing", field());
            return false;
        }
        out = nullptr;
        return true;
    }
    if (!slot.fromBb)
    {
        out = &slot.literal;
        return true;
    }
    const Value* v = blackboardValue(ctx, slot.bbIndex, slot.bbKey);
    if (!v)
    {
        ctx.error = makeError(kCodeParams,
                              "blackboard key '" + slot.bbKey + "' (parameter '" + def.name + "') is missing",
                              field(), "set the key on the blackboard before the leaf runs");
        return false;
    }
    // A value is checked against a type without a range (a target, a route)
    // once per write of its slot, not every tick; a number against its range
    // every time (the range is the parameter's).
    // The check is kept with the value (Blackboard::markChecked: one bit per
    // type, cleared by a write).
    const bool checkable =
        def.type != ParamType::Number && def.type != ParamType::Integer && slot.bbIndex < ctx.keys.size();
    const uint32_t bbSlot = checkable ? keySlot(ctx, slot.bbIndex) : 0;
    if (checkable && (ctx.brain.blackboard.checksOf(bbSlot) & typeCheckBit(def.type)) != 0)
    {
        out = v;
        return true;
    }
    if (!paramValueFits(def, *v))
    {
        std::string expected;
        (void)paramValueMatches(def, *v, expected);
        ctx.error = makeError(kCodeParams,
                              "blackboard key '" + slot.bbKey + "' does not fit parameter '" + def.name + "' of '" +
                                  leaf.name + "'",
                              field(), "expected " + expected);
        return false;
    }
    if (checkable)
        ctx.brain.blackboard.markChecked(bbSlot, typeCheckBit(def.type));
    out = v;
    return true;
}

/// A Result of readSlot (for the registered leaves' callbacks).
Result<const Value*> readSlotResult(TickCtx& ctx, const LeafDef& leaf, const ParamDef& def, const ParamSlot& slot,
                                   std::string_view path)
{
    const Value* v = nullptr;
    if (!readSlot(ctx, leaf, def, slot, path, v))
        return std::move(*ctx.error);
    return v;
}

/// The built-in leaves' manifest entries, by LeafId (a static table: never moves).
const std::span<const LeafDef> kBuiltins = leafManifest();

/// Reads parameter `p` of a built-in leaf's call (see readSlot); `stamp`, when
/// given, is set to the write stamp of the blackboard slot read when the value
/// was found to fit from an earlier check (else left as it is).
template <class E>
[[gnu::always_inline]] inline bool param(TickCtx& ctx, const LeafCall& call, E p, std::string_view path, const Value*& out,
                                         uint64_t* stamp = nullptr)
{
    const ParamSlot& given = slot(call, p);
    if (given.present && !given.fromBb)
    {
        out = &given.literal; // a literal: checked when the tree was compiled
        return true;
    }
    // A blackboard value already found to fit (readSlot's check, unchanged since).
    if (given.fromBb && given.bbIndex < ctx.keys.size() && given.type != ParamType::Number &&
        given.type != ParamType::Integer)
    {
        uint64_t slotStamp = 0;
        uint8_t checks = 0;
        const Value* v = ctx.brain.blackboard.at(keySlot(ctx, given.bbIndex), slotStamp, checks);
        if (v && (checks & typeCheckBit(given.type)) != 0)
        {
            out = v;
            if (stamp)
                *stamp = slotStamp;
            return true;
        }
    }
    const LeafDef& leaf = kBuiltins[static_cast<size_t>(call.leaf)];
    return readSlot(ctx, leaf, paramDef(leaf, p), given, path, out);
}

/// Reads number parameter `p` (0 when absent); false on error.
template <class E> [[gnu::always_inline]] inline bool numberParam(TickCtx& ctx, const LeafCall& call, E p, std::string_view path, double& out)
{
    if (const ParamSlot& given = slot(call, p); given.literalNumber)
    {
        out = given.number;
        return true;
    }
    const Value* v = nullptr;
    if (!param(ctx, call, p, path, v))
        return false;
    out = v ? v->number() : 0.0;
    return true;
}

/// A target's position into `out`, `found` false when a named target does not
/// exist; false on error. A named target is asked of the host by its symbol
/// (World::findTarget).
template <class E>
[[gnu::always_inline]] inline bool targetParam(TickCtx& ctx, const LeafCall& call, E p, std::string_view path, Vec3& out, bool& found)
{
    const ParamSlot& given = slot(call, p);
    if (given.literalPoint)
    {
        out = Vec3(given.point[0], given.point[1], given.point[2]);
        found = true;
        return true;
    }
    const Value* v = nullptr;
    if (!param(ctx, call, p, path, v))
        return false;
    if (v->isString())
    {
        found = ctx.world.findTarget(v->symbol(), out);
        return true;
    }
    out = toPoint(*v);
    found = true;
    return true;
}

Vec3 agentPosition(TickCtx& ctx)
{
    Vec3 p(0, 0, 0);
    ctx.world.agentPosition(ctx.agent, p);
    return p;
}

json pointJson(const Vec3& p) { return json::array({p.x, p.y, p.z}); }

/// move_to: `status` its status before the tick, `point` its memory (the target last requested).
NodeStatus moveTo(TickCtx& ctx, const LeafCall& call, NodeStatus status, Vec3& point, std::string_view path)
{
    Vec3 target;
    bool found = false;
    double stopDistance = 0, repath = 0;
    if (!targetParam(ctx, call, MoveToParam::Target, path, target, found) ||
        !numberParam(ctx, call, MoveToParam::StopDistance, path, stopDistance) ||
        !numberParam(ctx, call, MoveToParam::RepathDistance, path, repath))
        return kFailed;
    if (!found)
    {
        if (status == NodeStatus::Running)
            ctx.world.stop(ctx.agent);
        return NodeStatus::Failure;
    }
    const Vec3 pos = agentPosition(ctx);
    const bool fresh = status != NodeStatus::Running;
    const MoveState ms = fresh ? MoveState::Idle : ctx.world.moveState(ctx.agent);
    if (groundDistance(pos, target) <= stopDistance || (!fresh && ms == MoveState::Arrived))
    {
        // Already there when it starts: no move ran, so there is no arrival to
        // report (a tree that runs move_to again after it succeeded would
        // otherwise report one every frame).
        if (fresh)
            return NodeStatus::Success;
        ctx.world.stop(ctx.agent);
        json data = {{"target", pointJson(target)}};
        // A named target (an object, or one a blackboard key names) is named too.
        const Value* named = nullptr;
        (void)param(ctx, call, MoveToParam::Target, path, named);
        if (named->isString())
            data["name"] = named->string();
        emitEvent(ctx, kEventArrived, std::move(data));
        return NodeStatus::Success;
    }
    if (!fresh && ms == MoveState::NoPath)
        return NodeStatus::Failure;
    if (fresh || ms == MoveState::Idle || distance3(target, point) > repath)
    {
        ctx.world.requestMove(ctx.agent, target, stopDistance);
        point = target;
        if (ctx.world.moveState(ctx.agent) == MoveState::NoPath)
            return NodeStatus::Failure;
    }
    return NodeStatus::Running;
}

/// What patrolNode derived from a patrol's route (see PatrolMemory): while the
/// route's slot has write stamp `stamp` (0: nothing derived) and the counter is
/// `counter`, the route has `size` points and that counter's waypoint is the
/// patrol's `point`.
struct RouteMemo
{
    uint64_t stamp = 0;
    int32_t counter = 0;
    int32_t size = 0;
};

/// patrol: `status` its status before the tick, `counter` and `point` its memory
/// (the next waypoint, the point last requested); `memo` what was derived from
/// the route (nullptr: nothing kept), read and updated.
NodeStatus patrol(TickCtx& ctx, const LeafCall& call, NodeStatus status, int32_t& counter, Vec3& point,
                  std::string_view path, RouteMemo* memo = nullptr)
{
    const Value* pointsV = nullptr;
    const Value* loopV = nullptr;
    double stopDistance = 0;
    // The route's stamp when it comes from a blackboard slot already found to fit: what memo is keyed by.
    uint64_t stamp = 0;
    if (!param(ctx, call, PatrolParam::Points, path, pointsV, &stamp) ||
        !param(ctx, call, PatrolParam::Loop, path, loopV) ||
        !numberParam(ctx, call, PatrolParam::StopDistance, path, stopDistance))
        return kFailed;
    // The route unchanged since `point` was set to this counter's waypoint: no JSON read.
    const bool known = memo && stamp != 0 && memo->stamp == stamp && memo->counter == counter;
    const Value::List* route = pointsV->isList() ? &pointsV->items() : nullptr;
    auto badRoute = [&] {
        return fail(ctx, makeError(kCodeParams, "patrol points must be a non-empty array of points",
                                   pointerJoin(pointerJoin(path, "params"), "points")));
    };
    if (!route || (!known && route->empty())) // kept out by the type check (a value changed behind its stamp)
        return badRoute();
    const bool loop = loopV ? loopV->boolean() : true;
    const int32_t n = known ? memo->size : static_cast<int32_t>(route->size());
    const bool fresh = status != NodeStatus::Running;
    if (counter < 0 || counter >= n)
        counter = 0;
    Vec3 waypoint = known ? point : toPoint((*route)[static_cast<size_t>(counter)]);
    const Vec3 pos = agentPosition(ctx);
    const MoveState ms = fresh ? MoveState::Idle : ctx.world.moveState(ctx.agent);
    bool request = fresh || ms == MoveState::Idle;
    if (groundDistance(pos, waypoint) <= stopDistance || (!fresh && ms == MoveState::Arrived && point == waypoint))
    {
        emitEvent(ctx, kEventWaypoint, {{"index", counter}, {"point", pointJson(waypoint)}});
        counter += 1;
        if (counter >= n)
        {
            counter = 0;
            if (!loop)
            {
                ctx.world.stop(ctx.agent);
                return NodeStatus::Success;
            }
        }
        if (static_cast<size_t>(counter) >= route->size()) // only a value changed behind its stamp
            return badRoute();
        waypoint = toPoint((*route)[static_cast<size_t>(counter)]);
        request = true;
    }
    else if (!fresh && ms == MoveState::NoPath)
        return NodeStatus::Failure;
    if (request)
    {
        ctx.world.requestMove(ctx.agent, waypoint, stopDistance);
        point = waypoint;
        if (memo && stamp != 0)
            *memo = RouteMemo{stamp, counter, n};
        if (ctx.world.moveState(ctx.agent) == MoveState::NoPath)
            return NodeStatus::Failure;
    }
    return NodeStatus::Running;
}

/// can_see: `flag` its memory (the last answer, for spotted/lost_sight).
NodeStatus canSee(TickCtx& ctx, const LeafCall& call, bool& flag, std::string_view path)
{
    Vec3 target;
    bool found = false;
    double range = 0, fov = 0, eye = 0;
    if (!targetParam(ctx, call, CanSeeParam::Target, path, target, found) ||
        !numberParam(ctx, call, CanSeeParam::Range, path, range) ||
        !numberParam(ctx, call, CanSeeParam::FovDeg, path, fov) ||
        !numberParam(ctx, call, CanSeeParam::EyeHeight, path, eye))
        return kFailed;
    bool visible = false;
    if (found)
    {
        const Vec3 pos = agentPosition(ctx);
        visible = distance3(pos, target) <= range;
        if (visible && fov < 360.0)
        {
            Vec3 dir = target - pos;
            dir.y = 0;
            const double len = std::sqrt(dir.x * dir.x + dir.z * dir.z);
            if (len > 1e-9)
            {
                const Vec3 fwd = ctx.world.agentForward(ctx.agent);
                const double cosAngle = (dir.x * fwd.x + dir.z * fwd.z) / len;
                visible = cosAngle >= det::cos(det::radians(fov * 0.5));
            }
        }
        if (visible)
            visible = ctx.world.lineOfSight(ctx.agent, pos + Vec3(0, eye, 0), target);
    }
    if (visible != flag)
    {
        const Value* t = nullptr;
        (void)param(ctx, call, CanSeeParam::Target, path, t);
        // Where both were, for a reader of the log (rounded to the millimetre).
        auto at = [](const Vec3& p) {
            auto mm = [](double v) { return std::nearbyint(v * 1000.0) / 1000.0; };
            return json::array({mm(p.x), mm(p.y), mm(p.z)});
        };
        json data = {{"target", valueToJson(*t)}, {"at", at(agentPosition(ctx))}};
        if (found)
            data["target_at"] = at(target);
        emitEvent(ctx, visible ? kEventSpotted : kEventLostSight, std::move(data));
        flag = visible;
    }
    return visible ? NodeStatus::Success : NodeStatus::Failure;
}

/// What a registered leaf's callbacks see.
LeafContext leafContext(TickCtx& ctx, const LeafParams& params, NodeState& s, std::string_view path)
{
    return LeafContext{.params = params,
                       .agent = ctx.brain.agent,
                       .agentKey = ctx.agent,
                       .world = ctx.world,
                       .blackboard = ctx.brain.blackboard,
                       .clock = ctx.clock,
                       .time = ctx.time,
                       .memory = s,
                       .rng = ctx.brain.rng,
                       .events = ctx.state.events,
                       .path = path};
}

/// The registry index of a registered leaf's call: the compiled index while it
/// still names the leaf, else the leaf found by name (another registry).
Result<size_t> registeredIndex(const TickCtx& ctx, const LeafCall& call, std::string_view path)
{
    const LeafRegistry& leaves = ctx.leaves;
    size_t index = call.index;
    if (!leaves.game(index) || leaves.leaf(index).name != call.name)
        index = leaves.indexOf(call.name);
    if (index == LeafRegistry::kNotFound || !leaves.game(index))
        return makeError(kCodeUnknownLeaf, "no leaf named '" + call.name + "' is registered",
                         pointerJoin(path, "name"),
                         "register the leaf in the LeafRegistry the brains tick with");
    if (leaves.leaf(index).params.size() != call.params.size())
        return makeError(kCodeParams,
                         "leaf '" + call.name + "' declares " +
                             std::to_string(leaves.leaf(index).params.size()) +
                             " parameters, the tree was compiled with " + std::to_string(call.params.size()),
                         pointerJoin(path, "params"), "compile the tree against the registry it ticks with");
    return index;
}

/// Ticks a registered leaf: resolves its parameters, runs its callback and
/// checks that the answer fits its kind.
Result<NodeStatus> tickRegistered(TickCtx& ctx, const LeafCall& call, NodeState& s, std::string_view path)
{
    auto index = registeredIndex(ctx, call, path);
    if (!index.ok())
        return index.error();
    const LeafDef& def = ctx.leaves.leaf(*index);
    std::array<const Value*, kMaxLeafParams> values{};
    for (size_t i = 0; i < def.params.size(); ++i)
    {
        auto v = readSlotResult(ctx, def, def.params[i], call.params[i], path);
        if (!v.ok())
            return v.error();
        values[i] = *v;
    }
    const LeafParams params{&def, std::span<const Value* const>(values.data(), def.params.size())};
    LeafContext leafCtx = leafContext(ctx, params, s, path);
    auto r = ctx.leaves.game(*index)->run(leafCtx);
    if (!r.ok())
        return r;
    if (*r == NodeStatus::Idle || (*r == NodeStatus::Running && def.kind == LeafKind::Condition))
        return makeError(kCodeLeafResult,
                         std::string(def.kind == LeafKind::Condition ? "condition '" : "action '") +
                             def.name + "' answered " + nodeStatusName(*r),
                         std::string(path),
                         def.kind == LeafKind::Condition ? "a condition answers success or failure at once"
                                                         : "an action answers running, success or failure");
    return r;
}

/// Tells a registered action it is halted: its halt callback, with the
/// parameters that can still be resolved (the others nullptr).
void haltRegistered(TickCtx& ctx, const LeafCall& call, NodeState& s, std::string_view path)
{
    auto index = registeredIndex(ctx, call, path);
    if (!index.ok() || !ctx.leaves.game(*index)->halt)
        return;
    const LeafDef& def = ctx.leaves.leaf(*index);
    std::array<const Value*, kMaxLeafParams> values{};
    for (size_t i = 0; i < def.params.size(); ++i)
    {
        auto v = readSlotResult(ctx, def, def.params[i], call.params[i], path);
        values[i] = v.ok() ? *v : nullptr;
    }
    const LeafParams params{&def, std::span<const Value* const>(values.data(), def.params.size())};
    LeafContext leafCtx = leafContext(ctx, params, s, path);
    ctx.leaves.game(*index)->halt(leafCtx);
}

// The built-ins without memory (they set nothing but the status they answer).

NodeStatus leafStop(TickCtx& ctx, const LeafCall&, std::string_view)
{
    ctx.world.stop(ctx.agent);
    return NodeStatus::Success;
}

NodeStatus leafFace(TickCtx& ctx, const LeafCall& call, std::string_view path)
{
    Vec3 target;
    bool found = false;
    if (!targetParam(ctx, call, FaceParam::Target, path, target, found))
        return kFailed;
    if (!found)
        return NodeStatus::Failure;
    Vec3 dir = target - agentPosition(ctx);
    dir.y = 0;
    if (dir.x * dir.x + dir.z * dir.z > 1e-18)
        ctx.world.face(ctx.agent, dir);
    return NodeStatus::Success;
}

NodeStatus leafSetSpeed(TickCtx& ctx, const LeafCall& call, std::string_view path)
{
    double speed = 0;
    if (!numberParam(ctx, call, SetSpeedParam::Speed, path, speed))
        return kFailed;
    ctx.world.setSpeed(ctx.agent, speed);
    return NodeStatus::Success;
}

NodeStatus leafLog(TickCtx& ctx, const LeafCall& call, std::string_view path)
{
    const Value* message = nullptr;
    if (!param(ctx, call, LogParam::Message, path, message))
        return kFailed;
    emitEvent(ctx, kEventLog, {{"message", valueToJson(*message)}});
    return NodeStatus::Success;
}

NodeStatus leafEmit(TickCtx& ctx, const LeafCall& call, std::string_view path)
{
    const Value* name = nullptr;
    const Value* data = nullptr;
    if (!param(ctx, call, EmitParam::Event, path, name) || !param(ctx, call, EmitParam::Data, path, data))
        return kFailed;
    emitEvent(ctx, kEventEmitted, {{"name", valueToJson(*name)}, {"data", data ? valueToJson(*data) : json()}});
    return NodeStatus::Success;
}

NodeStatus leafWithin(TickCtx& ctx, const LeafCall& call, std::string_view path)
{
    Vec3 target;
    bool found = false;
    double d = 0;
    if (!targetParam(ctx, call, WithinParam::Target, path, target, found) ||
        !numberParam(ctx, call, WithinParam::Distance, path, d))
        return kFailed;
    return found && distance3(agentPosition(ctx), target) <= d ? NodeStatus::Success : NodeStatus::Failure;
}

NodeStatus leafArrived(TickCtx& ctx, const LeafCall&, std::string_view)
{
    return ctx.world.moveState(ctx.agent) == MoveState::Arrived ? NodeStatus::Success : NodeStatus::Failure;
}

NodeStatus leafHasPath(TickCtx& ctx, const LeafCall& call, std::string_view path)
{
    Vec3 target;
    bool found = false;
    if (!targetParam(ctx, call, HasPathParam::Target, path, target, found))
        return kFailed;
    return found && ctx.world.hasPath(ctx.agent, target) ? NodeStatus::Success : NodeStatus::Failure;
}

NodeStatus leafChance(TickCtx& ctx, const LeafCall& call, std::string_view path)
{
    double p = 0;
    if (!numberParam(ctx, call, ChanceParam::Probability, path, p))
        return kFailed;
    return rngNextDouble(ctx.brain.rng) < p ? NodeStatus::Success : NodeStatus::Failure;
}

// Tree nodes calling a built-in, ticked on the brain's packed node states
// (tree.h: NodeStates) without unpacking a whole NodeState: the status byte,
// and the leaf's own memory read before and written back after. The status is
// written when the tick did not fail (as tickLeaf in tick.cpp does).


NodeStatus finishNode(TickCtx& ctx, uint32_t index, NodeStatus r)
{
    if (r != kFailed)
        ctx.states[index] = static_cast<unsigned char>(r);
    return r;
}

/// A built-in without memory.
template <NodeStatus (*Leaf)(TickCtx&, const LeafCall&, std::string_view)>
[[gnu::noinline]] NodeStatus statelessNode(TickCtx& ctx, uint32_t index, const Node& n)
{
    return finishNode(ctx, index, Leaf(ctx, n.call, n.path));
}

/// move_to (memory Point: the point).
[[gnu::noinline]] NodeStatus moveToNode(TickCtx& ctx, uint32_t index, const Node& n)
{
    unsigned char* m = ctx.states + n.memoryOffset;
    Vec3 point = loadPoint(m);
    const NodeStatus r = moveTo(ctx, n.call, static_cast<NodeStatus>(ctx.states[index]), point, n.path);
    storePoint(m, point);
    return finishNode(ctx, index, r);
}

/// patrol (memory Patrol: the counter, the point, what was derived from the route; see PatrolMemory).
[[gnu::noinline]] NodeStatus patrolNode(TickCtx& ctx, uint32_t index, const Node& n)
{
    unsigned char* m = ctx.states + n.memoryOffset;
    int32_t counter = loadAt<int32_t>(m + PatrolMemory::kCounter);
    Vec3 point = loadPoint(m + PatrolMemory::kPoint);
    RouteMemo memo{loadAt<uint64_t>(m + PatrolMemory::kRouteStamp), loadAt<int32_t>(m + PatrolMemory::kRouteCounter),
                   loadAt<int32_t>(m + PatrolMemory::kRouteSize)};
    const NodeStatus r =
        patrol(ctx, n.call, static_cast<NodeStatus>(ctx.states[index]), counter, point, n.path, &memo);
    storeAt(m + PatrolMemory::kCounter, counter);
    storePoint(m + PatrolMemory::kPoint, point);
    storeAt(m + PatrolMemory::kRouteStamp, memo.stamp);
    storeAt(m + PatrolMemory::kRouteCounter, memo.counter);
    storeAt(m + PatrolMemory::kRouteSize, memo.size);
    return finishNode(ctx, index, r);
}

/// can_see (memory Flag: one byte).
[[gnu::noinline]] NodeStatus canSeeNode(TickCtx& ctx, uint32_t index, const Node& n)
{
    unsigned char* m = ctx.states + n.memoryOffset;
    bool flag = m[0] != 0;
    const NodeStatus r = canSee(ctx, n.call, flag, n.path);
    m[0] = flag ? 1 : 0;
    return finishNode(ctx, index, r);
}

/// Any leaf (a registered one, or a memory the fast paths do not know): the
/// whole NodeState unpacked, ticked by tickLeafStatus and packed again.
[[gnu::noinline]] NodeStatus genericLeafNode(TickCtx& ctx, uint32_t index, const Node& n)
{
    NodeState leaf = NodeStates::read(ctx.states, index, n.memory, n.memoryOffset);
    const NodeStatus r = tickLeafStatus(ctx, n.call, leaf, n.path);
    if (r != kFailed)
        leaf.status = r;
    NodeStates::write(ctx.states, index, n.memory, n.memoryOffset, leaf);
    return r;
}

} // namespace

NodeStatus tickLeafNode(TickCtx& ctx, uint32_t index, const Node& n)
{
    // The memory is what layoutNodeStates gives the leaf; any other goes the generic way.
    const bool none = n.memory == NodeMemory::None;
    switch (n.call.leaf)
    {
    case LeafId::MoveTo:
        if (n.memory == NodeMemory::Point)
            return moveToNode(ctx, index, n);
        break;
    case LeafId::Patrol:
        if (n.memory == NodeMemory::Patrol)
            return patrolNode(ctx, index, n);
        break;
    case LeafId::CanSee:
        if (n.memory == NodeMemory::Flag)
            return canSeeNode(ctx, index, n);
        break;
    case LeafId::Stop: if (none) return statelessNode<leafStop>(ctx, index, n); break;
    case LeafId::Face: if (none) return statelessNode<leafFace>(ctx, index, n); break;
    case LeafId::SetSpeed: if (none) return statelessNode<leafSetSpeed>(ctx, index, n); break;
    case LeafId::Log: if (none) return statelessNode<leafLog>(ctx, index, n); break;
    case LeafId::Emit: if (none) return statelessNode<leafEmit>(ctx, index, n); break;
    case LeafId::Within: if (none) return statelessNode<leafWithin>(ctx, index, n); break;
    case LeafId::Arrived: if (none) return statelessNode<leafArrived>(ctx, index, n); break;
    case LeafId::HasPath: if (none) return statelessNode<leafHasPath>(ctx, index, n); break;
    case LeafId::Chance: if (none) return statelessNode<leafChance>(ctx, index, n); break;
    case LeafId::Count: break;
    }
    return genericLeafNode(ctx, index, n);
}

NodeStatus tickLeafStatus(TickCtx& ctx, const LeafCall& call, NodeState& s, std::string_view path)
{
    switch (call.leaf)
    {
    case LeafId::MoveTo: return moveTo(ctx, call, s.status, s.point, path);
    case LeafId::Patrol: return patrol(ctx, call, s.status, s.counter, s.point, path);
    case LeafId::Stop: return leafStop(ctx, call, path);
    case LeafId::Face: return leafFace(ctx, call, path);
    case LeafId::SetSpeed: return leafSetSpeed(ctx, call, path);
    case LeafId::Log: return leafLog(ctx, call, path);
    case LeafId::Emit: return leafEmit(ctx, call, path);
    case LeafId::CanSee: return canSee(ctx, call, s.flag, path);
    case LeafId::Within: return leafWithin(ctx, call, path);
    case LeafId::Arrived: return leafArrived(ctx, call, path);
    case LeafId::HasPath: return leafHasPath(ctx, call, path);
    case LeafId::Chance: return leafChance(ctx, call, path);
    case LeafId::Count: // A leaf a game registered.
    {
        auto r = tickRegistered(ctx, call, s, path);
        if (!r.ok())
            return fail(ctx, std::move(r.error()));
        return *r;
    }
    }
    return fail(ctx, makeError("E_INTERNAL", "unknown leaf id", std::string(path)));
}

Result<NodeStatus> tickLeaf(TickCtx& ctx, const LeafCall& call, NodeState& s, std::string_view path)
{
    const NodeStatus r = tickLeafStatus(ctx, call, s, path);
    if (r == kFailed)
        return std::move(*ctx.error);
    return r;
}

void haltLeaf(TickCtx& ctx, const LeafCall& call, NodeState& s, std::string_view path)
{
    if (s.status == NodeStatus::Running && (call.leaf == LeafId::MoveTo || call.leaf == LeafId::Patrol))
        ctx.world.stop(ctx.agent);
    if (s.status == NodeStatus::Running && call.leaf == LeafId::Count)
        haltRegistered(ctx, call, s, path);
    s.status = NodeStatus::Idle;
}

} // namespace spark::ai::detail
