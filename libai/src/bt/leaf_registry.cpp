// The leaf registry: the built-in leaves plus the leaves a game registers
// (BehaviorTree.CPP's BehaviorTreeFactory::registerNodeType is the model: a
// node declares its ports, the factory checks them and exports the manifest).
// Registering validates the def before anything is stored, so a refused leaf
// leaves the registry unchanged.
#include "spark/ai/leaf_registry.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace spark::ai
{
namespace
{

bool isNameChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '-';
}

/// Checks a leaf or parameter name; `what` names it in the message.
Status checkName(const std::string& name, const std::string& what, const std::string& field)
{
    const char* rule = "a letter, then letters, digits, '_', '.' or '-'";
    if (name.empty())
        return makeError(kCodeLeafDef, what + " has no name", field, std::string("give it a name: ") + rule);
    if (name.size() > kMaxLeafNameLength)
        return makeError(kCodeLeafDef,
                         what + " name '" + name + "' is longer than " + std::to_string(kMaxLeafNameLength) +
                             " characters",
                         field, "use a shorter name");
    const bool letterFirst = (name[0] >= 'a' && name[0] <= 'z') || (name[0] >= 'A' && name[0] <= 'Z');
    if (!letterFirst || !std::all_of(name.begin(), name.end(), isNameChar))
        return makeError(kCodeLeafDef, what + " name '" + name + "' is not a valid name", field,
                         std::string("expected ") + rule);
    return Status::success();
}

Status checkParamDef(const ParamDef& p, const std::string& leafName, const std::string& base)
{
    const std::string what = "a parameter of '" + leafName + "'";
    SPARK_TRY(checkName(p.name, what, base + "/name"));
    if (p.type > ParamType::Any)
        return makeError(kCodeLeafDef, "parameter '" + p.name + "' of '" + leafName + "' has an unknown type",
                         base + "/type", "use a ParamType");
    if (std::isnan(p.min) || std::isnan(p.max) || p.min > p.max)
        return makeError(kCodeLeafDef, "parameter '" + p.name + "' of '" + leafName + "' needs min <= max",
                         base + "/min", "give numbers with min <= max (or keep the defaults)");
    if (p.required && !p.defaultValue.isNull())
        return makeError(kCodeLeafDef,
                         "parameter '" + p.name + "' of '" + leafName + "' is required and has a default",
                         base + "/default", "drop the default or make the parameter optional");
    std::string expected;
    if (!p.defaultValue.isNull() && !paramValueMatches(p, p.defaultValue, expected))
        return makeError(kCodeLeafDef,
                         "the default of parameter '" + p.name + "' of '" + leafName +
                             "' does not fit its type",
                         base + "/default", "expected " + expected);
    return Status::success();
}

LeafDef manifestEntry(const GameLeafDef& g)
{
    return LeafDef{LeafId::Count, g.name, g.kind, g.description, g.params};
}

} // namespace

const Value* LeafParams::find(std::string_view name) const
{
    if (!def)
        return nullptr;
    for (size_t i = 0; i < def->params.size(); ++i)
        if (def->params[i].name == name)
            return get(i);
    return nullptr;
}

GameLeafDef defaultGameLeafDef()
{
    return GameLeafDef{};
}

LeafRegistry::LeafRegistry() = default;

const LeafRegistry& builtinLeafRegistry()
{
    static const LeafRegistry kBuiltins;
    return kBuiltins;
}

Status LeafRegistry::registerLeaf(GameLeafDef def)
{
    SPARK_TRY(checkName(def.name, "the leaf", "/name"));
    if (find(def.name))
        return makeError(kCodeLeafExists,
                         "a " + std::string(indexOf(def.name) < kBuiltinCount ? "built-in" : "registered") +
                             " leaf is already named '" + def.name + "'",
                         "/name", "give the leaf another name");
    const auto& nodeTypes = nodeTypeNames();
    if (std::find(nodeTypes.begin(), nodeTypes.end(), def.name) != nodeTypes.end())
        return makeError(kCodeLeafExists, "'" + def.name + "' is the name of a node type", "/name",
                         "give the leaf another name");
    if (def.kind != LeafKind::Action && def.kind != LeafKind::Condition)
        return makeError(kCodeLeafDef, "leaf '" + def.name + "' has an unknown kind", "/kind",
                         "use LeafKind::Action or LeafKind::Condition");
    if (!def.run)
        return makeError(kCodeLeafDef, "leaf '" + def.name + "' has no run callback", "/run",
                         "set run to a function of LeafContext& returning the node status");
    if (def.halt && def.kind == LeafKind::Condition)
        return makeError(kCodeLeafDef, "condition '" + def.name + "' has a halt callback", "/halt",
                         "conditions answer at once and are never halted; drop halt or make it an action");
    if (def.params.size() > kMaxLeafParams)
        return makeError(kCodeLeafDef,
                         "leaf '" + def.name + "' declares " + std::to_string(def.params.size()) +
                             " parameters (limit " + std::to_string(kMaxLeafParams) + ")",
                         "/params",
                         "declare fewer parameters (an object parameter of type Any can group them)");
    for (size_t i = 0; i < def.params.size(); ++i)
    {
        const std::string base = "/params/" + std::to_string(i);
        SPARK_TRY(checkParamDef(def.params[i], def.name, base));
        for (size_t j = 0; j < i; ++j)
            if (def.params[j].name == def.params[i].name)
                return makeError(kCodeLeafDef,
                                 "leaf '" + def.name + "' declares the parameter '" + def.params[i].name +
                                     "' twice",
                                 base + "/name", "give every parameter its own name");
    }
    LeafDef entry = manifestEntry(def);
    m_leaves.push_back(Entry{std::move(entry), std::move(def)});
    return Status::success();
}

const LeafDef& LeafRegistry::leaf(size_t index) const
{
    assert(index < size());
    if (index < kBuiltinCount)
        return leafDef(static_cast<LeafId>(index));
    return m_leaves[index - kBuiltinCount].def;
}

size_t LeafRegistry::indexOf(std::string_view name) const
{
    if (const LeafDef* d = findLeaf(name))
        return static_cast<size_t>(d->id);
    for (size_t i = 0; i < m_leaves.size(); ++i)
        if (m_leaves[i].def.name == name)
            return kBuiltinCount + i;
    return kNotFound;
}

const LeafDef* LeafRegistry::find(std::string_view name) const
{
    const size_t i = indexOf(name);
    return i == kNotFound ? nullptr : &leaf(i);
}

const GameLeafDef* LeafRegistry::game(size_t index) const
{
    if (index < kBuiltinCount || index >= size())
        return nullptr;
    return &m_leaves[index - kBuiltinCount].game;
}

LeafCall makeLeafCall(const LeafRegistry& leaves, size_t index, const json& params)
{
    LeafCall call = makeLeafCall(leaves.leaf(index), params);
    call.index = static_cast<uint32_t>(index);
    return call;
}

} // namespace spark::ai
