// Brains: ticking a tree (or a utility document) for one agent, the AI state
// that owns trees, utility documents, brains and the event log, and their
// canonical hashing. Everything is plain data in ordered containers, so a copy
// of the state ticks on to the same bits as the original.
#include "runtime.h"
#include "spark/core/hash.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <iterator>

namespace spark::ai
{
using detail::TickCtx;

BrainDef defaultBrainDef() { return BrainDef{}; }

namespace
{
uint64_t nextInstance()
{
    static std::atomic<uint64_t> counter{0};
    return counter.fetch_add(1, std::memory_order_relaxed) + 1;
}
} // namespace

AiStateInstance::AiStateInstance() : id(nextInstance()) {}

AiStateInstance::AiStateInstance(const AiStateInstance&) : id(nextInstance()) {}
AiStateInstance& AiStateInstance::operator=(const AiStateInstance&)
{
    id = nextInstance();
    return *this;
}

BrainTable& BrainTable::operator=(const BrainTable& other)
{
    if (this == &other)
        return *this;
    m_chunks.clear();
    for (const auto& chunk : other.m_chunks)
    {
        m_chunks.push_back(std::make_unique<Slot[]>(kChunk));
        std::copy(chunk.get(), chunk.get() + kChunk, m_chunks.back().get());
    }
    m_slotCount = other.m_slotCount;
    m_free = other.m_free;
    m_order = other.m_order;
    m_records.clear();
    for (BrainId id : m_order)
        m_records.push_back(&*slot(id.index).brain);
    ++m_revision;
    return *this;
}

std::vector<BrainId>::const_iterator BrainTable::lowerBound(std::string_view agent) const
{
    return std::lower_bound(m_order.begin(), m_order.end(), agent,
                            [&](BrainId id, std::string_view a) { return get(id)->agent < a; });
}

BrainId BrainTable::find(std::string_view agent) const
{
    const auto it = lowerBound(agent);
    return it != m_order.end() && get(*it)->agent == agent ? *it : BrainId{};
}

BrainId BrainTable::insert(Brain brain)
{
    (void)erase(find(brain.agent));
    uint32_t index;
    if (!m_free.empty())
    {
        std::pop_heap(m_free.begin(), m_free.end(), std::greater<>());
        index = m_free.back();
        m_free.pop_back();
    }
    else
    {
        index = m_slotCount++;
        if (index / kChunk == m_chunks.size())
            m_chunks.push_back(std::make_unique<Slot[]>(kChunk));
    }
    Slot& s = slot(index);
    const auto at = lowerBound(brain.agent);
    const auto position = at - m_order.begin();
    s.brain.emplace(std::move(brain));
    const BrainId id{index, s.generation};
    m_order.insert(at, id);
    m_records.insert(m_records.begin() + position, &*s.brain);
    ++m_revision;
    return id;
}

bool BrainTable::erase(BrainId id)
{
    if (!std::as_const(*this).get(id))
        return false;
    const auto position = std::find(m_order.begin(), m_order.end(), id) - m_order.begin();
    m_order.erase(m_order.begin() + position);
    m_records.erase(m_records.begin() + position);
    Slot& s = slot(id.index);
    s.brain.reset();
    ++m_revision;
    if (s.generation == kMaxIdGeneration)
        return true; // retired: never handed out again
    ++s.generation;
    m_free.push_back(id.index);
    std::push_heap(m_free.begin(), m_free.end(), std::greater<>());
    return true;
}

void BrainTable::clear()
{
    for (BrainId id : std::vector<BrainId>(m_order))
        (void)erase(id);
}

BrainTable::iterator BrainTable::begin()
{
    for (BrainId id : m_order)
        slot(id.index).brain->digestValid = false;
    return iterator(this, 0);
}

void putTree(AiState& io, CompiledTree tree)
{
    layoutNodeStates(tree);
    const std::string name = tree.name;
    io.trees[name] = std::move(tree);
    io.treeRevisions[name] = ++io.revisionCounter;
    io.documentsHash.reset();
}

void putUtility(AiState& io, UtilityDoc doc)
{
    const std::string name = doc.name;
    io.utilities[name] = std::move(doc);
    io.documentsHash.reset();
}

Result<BrainId> attachBrain(AiState& io, const BrainDef& def, uint64_t frame)
{
    if (def.agent.empty())
        return makeError(kCodeParams, "a brain needs an agent name", "/agent");
    if (def.tree.empty() == def.utility.empty())
        return makeError(kCodeParams, "a brain needs exactly one of tree or utility", "/tree",
                         "give \"tree\": name or \"utility\": name");
    if (!def.tree.empty() && !io.trees.count(def.tree))
        return makeError(kCodeUnknown, "no tree named '" + def.tree + "'", "/tree", "load it with ai.tree.load");
    if (!def.utility.empty() && !io.utilities.count(def.utility))
        return makeError(kCodeUnknown, "no utility document named '" + def.utility + "'", "/utility",
                         "load it with ai.utility.load");
    if (def.period < 1 || def.period > 100000)
        return makeError(kCodeParams, "period must be within 1..100000 frames", "/period");
    Brain b;
    // The keys the tree names get the first slots, in the tree's order, so
    // that a tick finds key i in slot i (BrainResolution::keysAreSlots); the
    // values are those of the def all the same.
    if (!def.tree.empty())
        for (const std::string& key : io.trees.at(def.tree).keys)
            (void)b.blackboard.slotOf(key);
    b.agent = def.agent;
    b.agentKey = def.agentKey;
    b.tree = def.tree;
    b.utility = def.utility;
    b.period = def.period;
    b.nextFrame = frame;
    b.blackboard.assign(def.blackboard);
    b.rng = rngFromSeed(def.seed, 0x5eed);
    return io.brains.insert(std::move(b));
}

namespace
{

/// The one-node tree a utility brain runs.
CompiledTree utilityTree(const std::string& utility)
{
    CompiledTree t;
    t.name = utility;
    Node n;
    n.type = NodeType::Utility;
    n.utility = utility;
    n.label = "utility:" + utility;
    n.path = "";
    t.nodes.push_back(std::move(n));
    t.depth = 1;
    layoutNodeStates(t);
    return t;
}

/// Looks the brain's tree up by name and brings its node states in line with it.
Status resolveTree(AiState& state, Brain& brain)
{
    BrainResolution& r = brain.resolved;
    r.tree = nullptr;
    uint64_t revision = 0;
    if (!brain.tree.empty())
    {
        const auto it = state.trees.find(brain.tree);
        if (it == state.trees.end())
            return makeError(kCodeUnknown, "no tree named '" + brain.tree + "'", "/tree", "load it with ai.tree.load");
        r.tree = &it->second;
        revision = state.treeRevisions[brain.tree];
    }
    else
    {
        if (brain.utilityTree.nodes.size() != 1 || brain.utilityTree.nodes[0].utility != brain.utility)
            brain.utilityTree = utilityTree(brain.utility);
        r.tree = &brain.utilityTree;
    }
    r.ownTree = brain.tree.empty();
    r.stateInstance = state.instance.id;
    r.stateRevision = state.revisionCounter;
    r.keys.clear();
    r.keysAreSlots = false;
    r.layout = 0;
    if (brain.nodes.size() != r.tree->nodes.size() || brain.treeRevision != revision)
    {
        brain.nodes = NodeStates(r.tree->memories);
        brain.utilityMemory.clear();
        brain.treeRevision = revision;
    }
    else if (!brain.nodes.hasMemories(r.tree->memories))
    {
        // As many nodes of another kind (a brain from a state whose tree of
        // that name and revision differs): each keeps what its new kind keeps.
        NodeStates packed(r.tree->memories);
        brain.nodes.forEach([&](size_t i, const NodeState& s) { packed.set(i, s); });
        brain.nodes = std::move(packed);
    }
    return Status::success();
}

/// True when what the brain resolved still holds: its tree pointer and node
/// states (same state object, no tree loaded since), its key slots (same
/// blackboard layout). Then a tick looks nothing up.
inline bool resolutionHolds(const AiState& state, const Brain& brain)
{
    const BrainResolution& r = brain.resolved;
    // The tree pointer is checked before it is followed: a copied utility
    // brain's points at the original's tree, which may be gone.
    return r.tree && r.stateInstance == state.instance.id && r.stateRevision == state.revisionCounter &&
           (r.ownTree ? r.tree == &brain.utilityTree : r.tree != &brain.utilityTree) &&
           brain.nodes.size() == r.tree->nodes.size() && brain.nodes.byteSize() == r.tree->stateBytes &&
           r.layout != 0 && r.layout == brain.blackboard.layout() && r.keys.size() == r.tree->keys.size();
}

/// The tree the brain runs, after bringing its node states in line with it and
/// its blackboard slots with the tree's keys. Names are looked up only when
/// something changed since the last tick (a tree was loaded, the state was
/// copied, the blackboard got a new key).
[[gnu::noinline]] Result<const CompiledTree*> resolveBrain(AiState& state, Brain& brain)
{
    BrainResolution& r = brain.resolved;
    const bool treeValid =
        r.tree && r.stateInstance == state.instance.id && r.stateRevision == state.revisionCounter &&
        r.ownTree == brain.tree.empty() && (r.ownTree ? r.tree == &brain.utilityTree : r.tree != &brain.utilityTree) &&
        brain.nodes.size() == r.tree->nodes.size() && brain.nodes.byteSize() == r.tree->stateBytes;
    if (!treeValid)
        SPARK_TRY(resolveTree(state, brain));
    const CompiledTree& tree = *r.tree;
    if (r.layout != brain.blackboard.layout() || r.keys.size() != tree.keys.size() || r.layout == 0)
    {
        // Every key the tree names gets a slot (empty until written), so no
        // tick looks a key up by name; no value is known to fit yet.
        r.keys.assign(tree.keys.size(), ResolvedKey{});
        r.keysAreSlots = true;
        for (size_t i = 0; i < tree.keys.size(); ++i)
        {
            r.keys[i].slot = brain.blackboard.slotOf(tree.keys[i]);
            r.keysAreSlots = r.keysAreSlots && r.keys[i].slot == i;
        }
        r.layout = brain.blackboard.layout();
    }
    return r.tree;
}

/// resolveBrain, with the check that nothing changed inline (every tick).
inline Result<const CompiledTree*> brainTree(AiState& state, Brain& brain)
{
    if (resolutionHolds(state, brain))
        return brain.resolved.tree;
    return resolveBrain(state, brain);
}

void disable(AiState& state, Brain& brain, const Error& error, uint64_t frame, double time)
{
    brain.enabled = false;
    brain.error = error;
    pushEvent(state.events, frame, time, kEventError, brain.agent,
              {{"code", error.code}, {"message", error.message}, {"path", error.field}, {"hint", error.hint}});
}

/// The context of one tick of `brain` (or of its halt) on `tree`.
TickCtx tickContext(AiState& io, Brain& brain, World& world, const CompiledTree& tree, const LeafRegistry& leaves,
                    const TickClock& clock, double time)
{
    BrainResolution& r = brain.resolved;
    return TickCtx{io,
                   brain,
                   world,
                   tree,
                   leaves,
                   clock.frame,
                   time,
                   clock,
                   std::span<ResolvedKey>(r.keys.data(), r.keys.size()),
                   brain.agentKey,
                   brain.nodes.bytes(),
                   r.keysAreSlots};
}

} // namespace

Status tickBrain(AiState& io, Brain& brain, World& world, const TickClock& clock, const LeafRegistry& leaves)
{
    if (!brain.enabled)
        return brain.error;
    brain.digestValid = false;
    const double time = static_cast<double>(clock.frame) * clock.dt;
    if (!world.agentExists(brain.agentKey))
    {
        const Error e = makeError(kCodeUnknown, "no agent named '" + brain.agent + "'", "/agent");
        disable(io, brain, e, clock.frame, time);
        return e;
    }
    const CompiledTree* tree = brain.resolved.tree;
    if (!resolutionHolds(io, brain))
    {
        auto resolved = resolveBrain(io, brain);
        if (!resolved.ok())
        {
            disable(io, brain, resolved.error(), clock.frame, time);
            return resolved.error();
        }
        tree = *resolved;
    }
    TickCtx ctx = tickContext(io, brain, world, *tree, leaves, clock, time);
    const NodeStatus r = detail::tickTree(ctx);
    if (r == detail::kFailed)
    {
        const Error e = std::move(*ctx.error);
        detail::haltNode(ctx, 0);
        brain.status = NodeStatus::Failure;
        disable(io, brain, e, clock.frame, time);
        return e;
    }
    ++brain.ticks;
    if (r != brain.status)
        pushEvent(io.events, clock.frame, time, kEventTreeStatus, brain.agent,
                  {{"status", nodeStatusName(r)}, {"previous", nodeStatusName(brain.status)}});
    brain.status = r;
    return Status::success();
}

namespace
{

/// Ticks the brain when it is enabled and its period is due.
inline void tickIfDue(AiState& io, Brain& brain, World& world, const TickClock& clock, const LeafRegistry& leaves)
{
    if (!brain.enabled || clock.frame < brain.nextFrame)
        return;
    brain.digestValid = false;
    brain.nextFrame = clock.frame + brain.period;
    (void)tickBrain(io, brain, world, clock, leaves);
}

} // namespace

void stepBrains(AiState& io, World& world, const TickClock& clock, const LeafRegistry& leaves)
{
    // The brains are walked in agent-name order (BrainTable::order).
    BrainTable& brains = io.brains;
    const uint64_t revision = brains.revision();
    const std::vector<Brain*>& order = brains.records();
    const size_t n = order.size();
    for (size_t at = 0; at < n; ++at)
    {
        Brain& brain = *order[at];
        tickIfDue(io, brain, world, clock, leaves);
        if (brains.revision() != revision)
        {
            // The tick attached or detached other brains (a host's or a
            // leaf's doing; records never move): the rest of the walk is the
            // brains after this one in agent-name order, as they are now.
            std::string last = brain.agent;
            for (;;)
            {
                const std::vector<BrainId>& now = brains.order();
                const auto next = std::upper_bound(now.begin(), now.end(), last, [&](const std::string& a, BrainId id) {
                    return a < std::as_const(brains).get(id)->agent;
                });
                if (next == now.end())
                    break;
                Brain& b = *brains.get(*next);
                last = b.agent;
                tickIfDue(io, b, world, clock, leaves);
            }
            return;
        }
    }
}

void haltBrain(AiState& io, Brain& brain, World& world, const TickClock& clock, const LeafRegistry& leaves)
{
    brain.digestValid = false;
    auto tree = brainTree(io, brain);
    if (!tree.ok() || brain.nodes.empty())
        return;
    const double time = static_cast<double>(clock.frame) * clock.dt;
    TickCtx ctx = tickContext(io, brain, world, **tree, leaves, clock, time);
    detail::haltNode(ctx, 0);
    brain.status = NodeStatus::Idle;
}

std::vector<uint32_t> runningNodes(const AiState&, const Brain& brain)
{
    std::vector<uint32_t> out;
    for (uint32_t i = 0; i < brain.nodes.size(); ++i)
        if (brain.nodes.status(i) == NodeStatus::Running)
            out.push_back(i);
    return out;
}

namespace
{
void hashNodeState(Hasher& io, const NodeState& s)
{
    io.addU8(static_cast<uint8_t>(s.status));
    io.addI32(s.cursor);
    io.addI32(s.counter);
    io.addF64(s.startTime);
    io.addF64(s.readyAt);
    io.addBool(s.flag);
    io.addF64(s.point.x);
    io.addF64(s.point.y);
    io.addF64(s.point.z);
}
} // namespace

void hashBrain(Hasher& io, const Brain& b)
{
    io.addString(b.agent);
    io.addString(b.tree);
    io.addString(b.utility);
    io.addU32(b.period);
    io.addU64(b.nextFrame);
    hashBlackboard(io, b.blackboard);
    io.addU64(b.nodes.size());
    b.nodes.forEach([&](size_t, const NodeState& s) { hashNodeState(io, s); });
    io.addU64(b.utilityMemory.size());
    for (const auto& [index, m] : b.utilityMemory)
    {
        io.addU32(index);
        io.addI32(m.last);
        io.addI32(m.running);
        io.addU64(m.readyAt.size());
        for (double r : m.readyAt)
            io.addF64(r);
        hashNodeState(io, m.leaf);
    }
    io.addU64(b.treeRevision);
    io.addU64(b.rng.state);
    io.addU64(b.rng.inc);
    io.addU8(static_cast<uint8_t>(b.status));
    io.addU64(b.ticks);
    io.addBool(b.enabled);
    io.addString(b.error.code);
    io.addString(b.error.message);
    io.addString(b.error.field);
}

uint64_t brainDigest(const Brain& brain)
{
    if (!brain.digestValid)
    {
        Hasher h;
        hashBrain(h, brain);
        brain.digest = h.digest();
        brain.digestValid = true;
    }
    return brain.digest;
}

uint64_t hashAiState(const AiState& state)
{
    // The documents are hashed as JSON, most of a state hash when nothing else
    // changed (every mutating command's check): their prefix is kept until
    // they change.
    if (!state.documentsHash)
    {
        auto docs = std::make_shared<Hasher>();
        docs->addString("spark.ai.v1");
        docs->addU64(state.trees.size());
        for (const auto& [name, tree] : state.trees)
            hashTree(*docs, tree);
        docs->addU64(state.treeRevisions.size());
        for (const auto& [name, rev] : state.treeRevisions)
        {
            docs->addString(name);
            docs->addU64(rev);
        }
        docs->addU64(state.utilities.size());
        for (const auto& [name, doc] : state.utilities)
            hashUtility(*docs, doc);
        state.documentsHash = std::move(docs);
    }
    Hasher h(*state.documentsHash);
    h.addU64(state.brains.size());
    for (const Brain& brain : state.brains)
        h.addU64(brainDigest(brain));
    hashEventLog(h, state.events);
    h.addU64(state.rng.state);
    h.addU64(state.rng.inc);
    h.addU64(state.revisionCounter);
    return h.digest();
}

json brainToJson(const AiState& state, const Brain& brain)
{
    json out = {{"agent", brain.agent},
                {"period", brain.period},
                {"status", nodeStatusName(brain.status)},
                {"enabled", brain.enabled},
                {"ticks", brain.ticks},
                {"blackboard", blackboardToJson(brain.blackboard)}};
    if (!brain.tree.empty())
        out["tree"] = brain.tree;
    else
        out["utility"] = brain.utility;
    if (!brain.enabled)
        out["error"] = {{"code", brain.error.code}, {"message", brain.error.message}, {"path", brain.error.field}};
    json running = json::array();
    json memory = json::array();
    const auto treeIt = brain.tree.empty() ? state.trees.end() : state.trees.find(brain.tree);
    const bool haveTree = treeIt != state.trees.end() && treeIt->second.nodes.size() == brain.nodes.size();
    brain.nodes.forEach([&](size_t i, const NodeState& s) {
        const std::string label = haveTree ? treeIt->second.nodes[i].label : "utility:" + brain.utility;
        const std::string path = haveTree ? treeIt->second.nodes[i].path : "";
        if (s.status == NodeStatus::Running)
            running.push_back({{"id", i}, {"label", label}, {"path", path}});
        if (s.counter != 0 || s.readyAt != 0 || s.flag)
            memory.push_back({{"id", i}, {"label", label}, {"waypoint", s.counter}, {"ready_at", s.readyAt},
                              {"seen", s.flag}});
    });
    for (const auto& [index, m] : brain.utilityMemory)
        memory.push_back({{"id", index}, {"last_choice", m.last}, {"running_choice", m.running}, {"ready_at", m.readyAt}});
    out["running"] = running;
    out["memory"] = memory;
    return out;
}

} // namespace spark::ai
