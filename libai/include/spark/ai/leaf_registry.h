#pragma once
/// \file leaf_registry.h
/// Leaves a game registers beside the built-in ones. A `LeafRegistry` holds the
/// built-in leaves plus the registered ones, each with the same manifest entry
/// (`LeafDef`: name, kind, description, `ParamDef`s) and, for registered leaves,
/// a run callback and (actions only) a halt callback.
///
/// The registry is passed in where leaves are looked up: validation
/// (`validateTreeDoc`, `validateUtilityDoc`), compilation (`compileTree`,
/// `compileUtility`), ticking (`tickBrain`, `stepBrains`, `haltBrain`) and the
/// manifest (`leafManifestJson`). Every one of those defaults to
/// `builtinLeafRegistry()`. The AI state stays plain data: a compiled call
/// names its leaf (`LeafCall::name`, `LeafCall::index`) and the registry,
/// which holds `std::function`s, never enters `AiState`. Tick with a registry
/// holding every leaf the loaded trees use; a call of a leaf the registry does
/// not hold fails with E_AI_UNKNOWN_LEAF (and disables its brain).
///
/// ```
/// ai::LeafRegistry leaves;                          // the built-ins
/// ai::GameLeafDef def = ai::defaultGameLeafDef();
/// def.name = "open_door";
/// def.params = {doorParam};                          // ParamDefs, as the built-ins declare them
/// def.run = [](ai::LeafContext& c) -> Result<ai::NodeStatus> { ... };
/// Status s = leaves.registerLeaf(std::move(def));
/// auto tree = ai::compileTree(doc, leaves, &problems);
/// ai::stepBrains(state, world, clock, leaves);
/// ```

#include "spark/ai/brain.h"
#include "spark/ai/leaves.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "spark/core/export.h"
SPARK_AI_API_BEGIN

namespace spark::ai
{

/// Registration codes: the def is invalid (field names the culprit) / the name is taken.
inline constexpr const char* kCodeLeafDef = "E_AI_LEAF_DEF";
inline constexpr const char* kCodeLeafExists = "E_AI_LEAF_EXISTS";
/// A registered leaf answered what its kind may not (a condition `running`, any leaf `idle`).
inline constexpr const char* kCodeLeafResult = "E_AI_LEAF_RESULT";

/// Most parameters a registered leaf may declare.
inline constexpr size_t kMaxLeafParams = 32;
/// Longest leaf or parameter name. [Units: characters]
inline constexpr size_t kMaxLeafNameLength = 64;

/// The resolved parameters of one call, in `ParamDef` order: each is the
/// literal, the blackboard value (already checked against the declared type)
/// or the default, and nullptr when an optional parameter without default is
/// not given. A view: valid during the callback only.
struct LeafParams
{
    const LeafDef* def = nullptr;        ///< The leaf's manifest entry.
    std::span<const Value* const> values; ///< One per `def->params`.

    /// Parameter `index`'s value, or nullptr.
    const Value* get(size_t index) const { return index < values.size() ? values[index] : nullptr; }
    /// Parameter `p`'s value, or nullptr (`p`: the leaf's parameter enum).
    template <class E> const Value* get(E p) const
    {
        static_assert(std::is_enum_v<E>, "parameters are read by their enum");
        return get(static_cast<size_t>(p));
    }
    /// The parameter named `name`, or nullptr (absent or not declared).
    const Value* find(std::string_view name) const;
    /// Parameter `p` as a number; `fallback` when absent or not a number.
    template <class E> double number(E p, double fallback = 0) const
    {
        double d = 0;
        const Value* v = get(p);
        return v && v->numberOf(d) ? d : fallback;
    }
    /// Parameter `p` as a boolean; `fallback` when absent or not a boolean.
    template <class E> bool boolean(E p, bool fallback = false) const
    {
        const Value* v = get(p);
        return v && v->isBool() ? v->boolean() : fallback;
    }
    /// Parameter `p` as a string; empty when absent or not a string.
    template <class E> std::string_view text(E p) const
    {
        const Value* v = get(p);
        return v && v->isString() ? std::string_view(v->string()) : std::string_view();
    }
};

/// What a registered leaf's callbacks see for one call. Lives for the call.
struct LeafContext
{
    const LeafParams& params; ///< The resolved parameters.
    std::string_view agent;   ///< The brain's agent (its name, for events).
    AgentKey agentKey;        ///< The host's key of the brain's agent (what `world`'s calls take).
    World& world;             ///< The host.
    Blackboard& blackboard;   ///< The brain's blackboard (the leaf may write it).
    const TickClock& clock;   ///< Frame and dt of this tick.
    double time;              ///< Simulation time, frame × dt. [Units: s]
    /// The leaf node's state. `status` is the last result (`Running` = the
    /// leaf is continuing, else it starts afresh) and is set by the tree; the
    /// other fields (`counter`, `startTime`, `readyAt`, `flag`, `point`) are the
    /// leaf's own memory, plain data hashed and copied with the brain.
    NodeState& memory;
    Rng& rng;              ///< The brain's seeded RNG (deterministic randomness).
    EventLog& events;      ///< The AI event log (`pushEvent(events, clock.frame, time, kind, agent, data)`).
    std::string_view path; ///< JSON pointer of the call in its document (for errors).
};

/// Runs a registered leaf for one tick: `Success` or `Failure` (conditions),
/// or `Running` too (actions). An error disables the brain, as a built-in's does.
using LeafRunFn = std::function<Result<NodeStatus>(LeafContext& ctx)>;
/// Tells a running action it is halted (a reactive node or a timeout moved on).
/// Parameters that cannot be resolved any more (a missing blackboard key) are nullptr.
using LeafHaltFn = std::function<void(LeafContext& ctx)>;

/// A leaf a game registers.
struct GameLeafDef
{
    std::string name; ///< Unique among leaves and node types. [Limit: a letter, then letters, digits, '_',
                      ///< '.', '-'; at most kMaxLeafNameLength]
    LeafKind kind = LeafKind::Action; ///< Action (may run over ticks) or condition (answers at once).
    std::string description;          ///< One line (listed by `ai.leaves`).
    std::vector<ParamDef> params;     ///< Declared parameters, as the built-ins declare them. [Limit: <=
                                      ///< kMaxLeafParams, unique names]
    LeafRunFn run;                    ///< Required.
    LeafHaltFn halt;                  ///< Actions only; optional.
};

/// A def with defaults: an action with no parameters and no callbacks.
GameLeafDef defaultGameLeafDef();

/// The built-in leaves plus the leaves a game registered. Indices: the
/// built-ins first (index = LeafId), then registered leaves in registration
/// order. Copyable; pointers and references into it are invalidated by
/// `registerLeaf`.
class LeafRegistry
{
  public:
    /// A registry holding the built-in leaves.
    LeafRegistry();

    /// Registers a leaf after validating its def. Errors: E_AI_LEAF_EXISTS
    /// (field `/name`) when a built-in, registered leaf or node type has the
    /// name; E_AI_LEAF_DEF for a bad name, kind, parameter def (field
    /// `/params/<i>/<field>`), a missing run callback or a halt on a condition.
    Status registerLeaf(GameLeafDef def);

    /// Number of leaves (built-ins included).
    size_t size() const { return kBuiltinCount + m_leaves.size(); }
    /// The leaf at `index`. [Limit: index < size()]
    const LeafDef& leaf(size_t index) const;
    /// The leaf named `name`, or nullptr.
    const LeafDef* find(std::string_view name) const;
    /// Index of the leaf named `name`, or `kNotFound`.
    size_t indexOf(std::string_view name) const;
    /// The registered leaf at `index` (with its callbacks), or nullptr for a built-in.
    const GameLeafDef* game(size_t index) const;

    /// What `indexOf` returns for an unknown name.
    static constexpr size_t kNotFound = SIZE_MAX;
    /// Number of built-in leaves (the first indices).
    static constexpr size_t kBuiltinCount = static_cast<size_t>(LeafId::Count);

  private:
    struct Entry
    {
        LeafDef def;      ///< Manifest entry (id = LeafId::Count).
        GameLeafDef game; ///< Callbacks (and the def as given).
    };
    std::vector<Entry> m_leaves; ///< Registered leaves, in registration order.
};

/// Builds a call of the leaf at `index` of `leaves` from a (validated) `params`
/// object; unknown keys are ignored.
LeafCall makeLeafCall(const LeafRegistry& leaves, size_t index, const json& params);

} // namespace spark::ai
SPARK_AI_API_END
