#pragma once
/// \file brain.h
/// Brains and the AI state. A brain is an agent's mind: a tree or a utility
/// document, a period, a blackboard, the state of every node (running nodes,
/// memory), its own seeded RNG. `AiState` holds the loaded trees and utility
/// documents, the brains (by `BrainId`, walked in agent-name order) and the event log. All plain data:
/// copying an `AiState` and ticking both copies gives the same bits.

#include "spark/ai/blackboard.h"
#include "spark/ai/events.h"
#include "spark/ai/tree.h"
#include "spark/ai/utility.h"
#include "spark/ai/value_json.h"
#include "spark/ai/world.h"
#include "spark/core/hash.h"
#include "spark/core/id.h"
#include "spark/core/result.h"
#include "spark/core/rng.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <string>
#include <type_traits>
#include <vector>

#include "spark/core/export.h"
SPARK_AI_API_BEGIN

namespace spark::ai
{

/// How a brain is made.
struct BrainDef
{
    std::string agent;        ///< Agent name (the host's; events and the JSON edge name the brain by it).
    AgentKey agentKey;        ///< The host's key of that agent (see World): every call for the agent takes it.
    std::string tree;         ///< Tree name, or empty when `utility` is used.
    std::string utility;      ///< Utility document name, or empty when `tree` is used.
    uint32_t period = 1;      ///< Think every `period` frames. [Limit: 1..100000]
    Blackboard blackboard;    ///< Initial blackboard.
    uint64_t seed = 0;        ///< Seed of the brain's RNG (chance, weighted_random).
};

/// Default brain def: period 1, empty blackboard, seed 0.
BrainDef defaultBrainDef();

/// What a brain resolved of one blackboard key its tree names: the key's slot
/// in the brain's blackboard. (Whether the slot's value fits a parameter type is
/// kept with the value: Blackboard::markChecked.)
struct ResolvedKey
{
    uint32_t slot = 0; ///< The key's slot in the brain's blackboard.
};

/// What a brain resolved once so that its ticks look nothing up by name: the
/// tree (a pointer into the `AiState` it was resolved in, valid while that state
/// has the same instance and revision; a utility brain's one-node tree is its
/// own `Brain::utilityTree`) and, for every blackboard key the tree names, its
/// slot in the brain's blackboard (valid while the blackboard has the same
/// layout). Derived data: not hashed, not shown, rebuilt when stale.
struct BrainResolution
{
    const CompiledTree* tree = nullptr; ///< The tree the brain runs.
    uint64_t stateInstance = 0;         ///< `AiState::instance` the pointer belongs to (0: none).
    uint64_t stateRevision = 0;         ///< `AiState::revisionCounter` when resolved.
    uint64_t layout = 0;                ///< `Blackboard::layout()` the slots belong to.
    /// Tree key index → its blackboard slot and last type check.
    std::vector<ResolvedKey> keys;
    /// True when `tree` is the brain's own `utilityTree` (the brain had no tree
    /// name when resolved): a brain's tree or utility is set by attachBrain,
    /// which makes a new brain, so this stands for `Brain::tree.empty()`
    /// without reading the name, which is not in the lines a tick reads.
    bool ownTree = false;
    /// True when every key the tree names has the slot of its index in the
    /// tree's keys (attachBrain names them first, in that order): a tick then
    /// reaches a key's slot without reading `keys`.
    bool keysAreSlots = false;
};

/// One brain. (The fields a tick reads come first, side by side, ending with
/// the blackboard, whose own fields a tick reads come first: three cache lines,
/// `tree` and what follows are not read by a tick.)
struct Brain
{
    std::string agent;
    AgentKey agentKey;         ///< The host's key of the agent (BrainDef::agentKey; the host re-binds it).
    uint32_t period = 1;
    bool enabled = true;       ///< False after a failed tick.
    NodeStatus status = NodeStatus::Idle; ///< Root status after the last tick.
    uint64_t nextFrame = 0;    ///< Next frame at which it thinks.
    uint64_t ticks = 0;        ///< Ticks done.
    Rng rng;
    NodeStates nodes;          ///< One per tree node (a utility brain has one), packed.
    BrainResolution resolved;  ///< Names resolved to indices (derived; see BrainResolution).
    Blackboard blackboard;
    std::string tree;          ///< Tree name ("" for a utility brain).
    CompiledTree utilityTree;  ///< The one-node tree of a utility brain (derived, like `resolved`).
    std::string utility;       ///< Utility document name ("" for a tree brain).
    std::map<uint32_t, UtilityMemory> utilityMemory; ///< Per utility node index.
    uint64_t treeRevision = 0; ///< Revision of the tree `nodes` belongs to.
    Error error;               ///< The failure that disabled it.
    /// hashBrain's digest of this brain as brainDigest last took it, valid
    /// while `digestValid` (derived, like `resolved`: copied with the value it
    /// stands for). Cleared by whatever may change the brain: BrainTable's
    /// non-const accessors, tickBrain, haltBrain; so hashAiState re-hashes only
    /// the brains reached for a change since (see BrainTable).
    mutable uint64_t digest = 0;
    mutable bool digestValid = false;
};

/// Tells one `AiState` object from every other in the process: a new id for
/// every state constructed, copied or moved into, so that pointers a brain
/// resolved into one state's trees are never followed in another. Not part of
/// the state's value (not hashed, not compared).
struct AiStateInstance
{
    uint64_t id;
    AiStateInstance();
    AiStateInstance(const AiStateInstance&);
    AiStateInstance& operator=(const AiStateInstance&);
};

/// Tag of brain handles.
struct BrainTag
{
};
/// A brain's handle: given by attachBrain, refused once the brain is detached
/// or replaced (a generational id, see spark/core/id.h).
using BrainId = Id<BrainTag>;

/// The brains: records reached by `BrainId`, in chunks of kChunk that never
/// move (a brain's record stays where it is while others come and go, also
/// during a tick that attaches or detaches other brains), and their ids in
/// agent-name order, the order of a step's walk and of the hash. Freed slots
/// are reused lowest index first with a newer generation (as HandlePool does),
/// so the ids a sequence of operations hands out depend only on that sequence.
/// Names are looked up only at the edges (`find`, attachBrain's replacing).
/// A brain's `agent` is the table's key: it is set by attachBrain and not
/// changed through the table.
///
/// Every non-const accessor (get, find, begin) clears the digest hashAiState
/// keeps of the brains it hands out (`Brain::digestValid`; begin clears every
/// brain's): a `Brain&` taken from one may be changed until the next
/// hashAiState, after which it is taken again for further changes.
class BrainTable
{
  public:
    static constexpr uint32_t kChunk = 64;

    BrainTable() = default;
    BrainTable(const BrainTable& other) { *this = other; }
    BrainTable(BrainTable&&) noexcept = default;
    BrainTable& operator=(const BrainTable& other);
    BrainTable& operator=(BrainTable&&) noexcept = default;

    /// Stores `brain`, replacing the brain of the same agent (whose id goes
    /// stale); its id (never null).
    BrainId insert(Brain brain);
    /// The brain of `id`, or nullptr when the id is null, stale or unknown.
    Brain* get(BrainId id)
    {
        Brain* b = const_cast<Brain*>(std::as_const(*this).get(id));
        if (b)
            b->digestValid = false;
        return b;
    }
    const Brain* get(BrainId id) const
    {
        if (id.index >= m_slotCount)
            return nullptr;
        const Slot& s = slot(id.index);
        return s.generation == id.generation && s.brain ? &*s.brain : nullptr;
    }
    /// The id of `agent`'s brain (null when it has none): the edge's look-up.
    BrainId find(std::string_view agent) const;
    /// The brain of `agent`, or nullptr.
    Brain* findBrain(std::string_view agent) { return get(find(agent)); }
    const Brain* findBrain(std::string_view agent) const { return get(find(agent)); }
    /// True when `agent` has a brain.
    bool contains(std::string_view agent) const { return find(agent).valid(); }
    /// Removes the brain of `id`; false (and no change) when the id is stale.
    bool erase(BrainId id);
    /// Removes the brain of `agent`; 1 when there was one, else 0.
    size_t erase(std::string_view agent) { return erase(find(agent)) ? 1 : 0; }
    /// Removes every brain.
    void clear();
    size_t size() const { return m_order.size(); }
    bool empty() const { return m_order.empty(); }
    /// The ids in agent-name order.
    const std::vector<BrainId>& order() const { return m_order; }
    /// The records in agent-name order (`records()[i]` is `get(order()[i])`):
    /// what a step walks, with no handle check per brain. Valid until a brain
    /// is inserted or removed.
    const std::vector<Brain*>& records() const { return m_records; }
    /// Changes with every brain inserted or removed (stepBrains' check that
    /// its walk order still holds after a tick). Not part of the value.
    uint64_t revision() const { return m_revision; }

    /// Iterates the brains in agent-name order.
    template <class Table, class B> class Iterator
    {
      public:
        Iterator(Table* table, size_t at) : m_table(table), m_at(at) {}
        B& operator*() const { return *std::as_const(*m_table).get(m_table->m_order[m_at]); }
        B* operator->() const { return &**this; }
        Iterator& operator++()
        {
            ++m_at;
            return *this;
        }
        bool operator==(const Iterator& other) const { return m_at == other.m_at; }

      private:
        Table* m_table;
        size_t m_at;
    };
    using iterator = Iterator<BrainTable, Brain>;
    using const_iterator = Iterator<const BrainTable, const Brain>;
    /// The first brain; every brain's digest is cleared (they may be changed through the iterator).
    iterator begin();
    iterator end() { return iterator(this, m_order.size()); }
    const_iterator begin() const { return const_iterator(this, 0); }
    const_iterator end() const { return const_iterator(this, m_order.size()); }

  private:
    struct Slot
    {
        uint32_t generation = 1;
        std::optional<Brain> brain;
    };
    Slot& slot(uint32_t index) { return m_chunks[index / kChunk][index % kChunk]; }
    const Slot& slot(uint32_t index) const { return m_chunks[index / kChunk][index % kChunk]; }
    /// Where `agent` is or would go in m_order.
    std::vector<BrainId>::const_iterator lowerBound(std::string_view agent) const;

    std::vector<std::unique_ptr<Slot[]>> m_chunks; ///< Slot i: m_chunks[i / kChunk][i % kChunk].
    uint32_t m_slotCount = 0;                      ///< Slots handed out (live or free).
    std::vector<uint32_t> m_free;                  ///< Free slot indices, a min-heap.
    std::vector<BrainId> m_order;                  ///< Live ids in agent-name order.
    std::vector<Brain*> m_records;                 ///< Their records (records never move).
    uint64_t m_revision = 0;
};

/// The AI state of a world.
struct AiState
{
    std::map<std::string, CompiledTree> trees;   ///< By name.
    std::map<std::string, uint64_t> treeRevisions; ///< Bumped when a tree is (re)loaded.
    std::map<std::string, UtilityDoc> utilities; ///< By name.
    BrainTable brains;                           ///< By BrainId (walked in agent-name order).
    EventLog events;
    Rng rng;                                     ///< Seeds brains that give no seed.
    uint64_t revisionCounter = 0;                ///< Bumped by every putTree (trees change only through it).
    AiStateInstance instance;                    ///< This object's id (see AiStateInstance).
    /// hashAiState's hasher after the documents (trees, their revisions, utility
    /// documents), taken by the first hash after putTree or putUtility (which
    /// drop it; the documents change only through them) and shared by copies.
    /// Derived data: not part of the state's value (not hashed, not compared).
    mutable std::shared_ptr<const Hasher> documentsHash;
};

/// Adds (or replaces) a tree.
void putTree(AiState& io, CompiledTree tree);
/// Adds (or replaces) a utility document.
void putUtility(AiState& io, UtilityDoc doc);

/// Creates (or replaces) the brain of `def.agent`: its id (a replaced brain's
/// id goes stale). Errors: E_AI_UNKNOWN (no such tree or utility), E_AI_PARAMS
/// (both or neither of tree/utility, bad period).
Result<BrainId> attachBrain(AiState& io, const BrainDef& def, uint64_t frame);

/// The simulation clock of a tick: time = frame × dt.
struct TickClock
{
    uint64_t frame = 0; ///< Frame number.
    double dt = 1.0 / 60.0; ///< Fixed step. [Units: s] [Limit: > 0]
};

/// Ticks one brain now (ignores its period). A failure disables the brain and
/// records an error event; the returned status is that failure. `leaves` must
/// hold every leaf its tree (or utility document) calls (see leaf_registry.h).
Status tickBrain(AiState& io, Brain& brain, World& world, const TickClock& clock,
                 const LeafRegistry& leaves = builtinLeafRegistry());

/// Ticks every enabled brain whose period is due, in agent-name order. A tick
/// (a leaf, the host) may attach and detach other brains, not its own: the
/// rest of the walk is then that of the brains in agent-name order after it.
void stepBrains(AiState& io, World& world, const TickClock& clock,
                const LeafRegistry& leaves = builtinLeafRegistry());

/// Halts whatever the brain is running (its actions are told) and resets its nodes.
void haltBrain(AiState& io, Brain& brain, World& world, const TickClock& clock,
               const LeafRegistry& leaves = builtinLeafRegistry());

/// Running nodes of a brain's tree (index order): the deepest running ones and their ancestors.
std::vector<uint32_t> runningNodes(const AiState& state, const Brain& brain);

/// Feeds a brain canonically into `io`.
void hashBrain(Hasher& io, const Brain& brain);
/// The digest of hashBrain alone, kept in the brain until it is reached for a
/// change (see BrainTable), so that it costs a brain's hashing only once per change.
uint64_t brainDigest(const Brain& brain);
/// Hash of the whole AI state (trees, utility documents, brains with
/// blackboards and running nodes, the event log, the RNG). Each brain enters
/// by its brainDigest, so after a change of one brain the hash costs that
/// brain's hashing and a pass over the others' kept digests; the documents
/// enter by the hasher kept in `AiState::documentsHash`.
uint64_t hashAiState(const AiState& state);

/// Canonical JSON of a brain (status, blackboard, running nodes, memory, error).
json brainToJson(const AiState& state, const Brain& brain);

} // namespace spark::ai
SPARK_AI_API_END
