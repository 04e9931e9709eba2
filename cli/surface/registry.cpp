// The command table and the failure helpers handlers use.

#include "surface/registry.h"

#include "spark/core/path.h"

#include <cassert>

namespace spark::cli
{

void fail(std::string code, std::string message, json data, std::string hint)
{
    throw CommandError{std::move(code), std::move(message), std::move(data), std::move(hint)};
}

void failWith(const spark::Error& error, std::string_view fieldPrefix)
{
    json data = json::object();
    if (!error.field.empty() || !fieldPrefix.empty())
        data["path"] = std::string(fieldPrefix) + error.field;
    fail(error.code, error.message, std::move(data), error.hint);
}

std::filesystem::path Context::resolvePath(std::string_view relative, std::string_view field) const
{
    auto resolved = spark::resolveInProject(projectRoot, relative);
    if (!resolved.ok())
        fail(resolved.error().code, resolved.error().message, {{"path", std::string(field)}},
             resolved.error().hint);
    return resolved.value();
}

const ai::LeafRegistry& Context::leaves() const
{
    return leafRegistry ? *leafRegistry : ai::builtinLeafRegistry();
}

Registry& Registry::global()
{
    static Registry registry;
    return registry;
}

void Registry::add(CommandDef def)
{
    assert(!def.id.empty() && def.handler);
    const bool inserted = m_commands.emplace(def.id, def).second;
    assert(inserted && "a command id is registered twice");
    (void)inserted;
}

const CommandDef* Registry::find(std::string_view id) const
{
    auto it = m_commands.find(id);
    return it == m_commands.end() ? nullptr : &it->second;
}

} // namespace spark::cli
