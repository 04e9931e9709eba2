// The dispatcher: validation, transactions and the single error boundary.
//
// Commands change the session state in place: handlers (and the world
// operations they call) validate everything before they write anything, so a
// failed command changes nothing without copying the state. A command made of
// several commands (a scenario) is `Mutates::Composite`: it runs on a snapshot
// it restores on failure. With `checkResults` (tests), a failing mutating
// command is also checked to have left the state hash unchanged.

#include "surface/dispatcher.h"

#include "surface/schemas.h"
#include "surface/suggest.h"

#include <cmath>
#include <exception>

namespace spark::cli
{

json errorEnvelope(const std::string& code, const std::string& message, json data, const std::string& hint)
{
    json error = {{"code", code}, {"message", message}, {"data", data.is_null() ? json::object() : data}};
    if (!hint.empty())
        error["hint"] = hint;
    return {{"ok", false}, {"error", std::move(error)}};
}

namespace
{
// JSON numbers that overflow a double parse to infinity in some parsers; refuse any
// non-finite number anywhere in a document.
bool findNonFinite(const json& j, std::string& outPath, const std::string& at)
{
    if (j.is_number_float() && !std::isfinite(j.get<double>()))
    {
        outPath = at;
        return true;
    }
    if (j.is_object())
    {
        for (auto it = j.begin(); it != j.end(); ++it)
            if (findNonFinite(it.value(), outPath, at + "/" + it.key()))
                return true;
    }
    else if (j.is_array())
    {
        for (size_t i = 0; i < j.size(); ++i)
            if (findNonFinite(j[i], outPath, at + "/" + std::to_string(i)))
                return true;
    }
    return false;
}
} // namespace

bool parseJsonText(std::string_view text, json& out, std::string& outMessage)
{
    try
    {
        out = json::parse(text.begin(), text.end(), nullptr, true, false);
    }
    catch (const json::exception& e)
    {
        outMessage = e.what();
        return false;
    }
    std::string where;
    if (findNonFinite(out, where, ""))
    {
        outMessage = "a number at " + (where.empty() ? std::string("/") : where) + " is not finite";
        return false;
    }
    return true;
}

Dispatcher::Dispatcher(DispatchOptions options, const Registry& registry)
    : m_options(std::move(options)), m_registry(registry)
{
}

const CommandSchema* Dispatcher::schemaOf(const CommandDef& def)
{
    if (def.inlineSchema.is_null())
        return findCommandSchema(def.id);
    auto it = m_inlineSchemas.find(def.id);
    if (it == m_inlineSchemas.end())
        it = m_inlineSchemas.emplace(def.id, compileCommandSchema(def.id, def.inlineSchema)).first;
    return it->second.get();
}

json Dispatcher::run(scene::SessionState& io, std::string_view id, const json& params, bool updateGoldens)
{
    const CommandDef* def = m_registry.find(id);
    if (!def)
    {
        std::vector<std::string> ids;
        for (const auto& [name, unused] : m_registry.all())
            ids.push_back(name);
        auto near = nearestNames(id, ids);
        std::string hint = near.empty() ? "list the commands with `spark commands`" : "did you mean " + near[0];
        for (size_t i = 1; i < near.size(); ++i)
            hint += (i + 1 == near.size() ? " or " : ", ") + near[i];
        if (!near.empty())
            hint += "?";
        return errorEnvelope("E_UNKNOWN_COMMAND", "no command named '" + std::string(id) + "'",
                             {{"command", id}, {"suggestions", near}}, hint);
    }
    const CommandSchema* schema = schemaOf(*def);
    if (!schema)
        return errorEnvelope("E_INTERNAL", "the command '" + std::string(id) + "' has no valid schema");
    const json& effective = params.is_null() ? json::object() : params;
    std::string nonFinitePath;
    if (findNonFinite(effective, nonFinitePath, ""))
        return errorEnvelope("E_INVALID_PARAMS", "a number is not finite",
                             {{"problems", json::array({{{"path", nonFinitePath}, {"message", "not a finite number"}}})}});
    auto problems = schema->params->validate(effective);
    if (!problems.empty())
    {
        json list = json::array();
        for (const auto& p : problems)
            list.push_back({{"path", p.path}, {"message", p.message}});
        std::string message = problems.size() == 1 ? "1 problem in the params" :
                                                     std::to_string(problems.size()) + " problems in the params";
        message += ": " + (problems[0].path.empty() ? std::string("/") : problems[0].path) + ": " +
                   problems[0].message;
        return errorEnvelope("E_INVALID_PARAMS", message, {{"problems", list}, {"path", problems[0].path}},
                             "see `spark schema " + std::string(id) + "`");
    }

    Context ctx{io, m_options.projectRoot, this, updateGoldens, m_options.verbose};
    json result;
    if (def->mutates == Mutates::Composite)
    {
        // Several steps, each of which may change the state: keep a snapshot
        // (baked meshes are shared, not copied) and bring it back on failure.
        scene::SessionSnapshot snapshot = io.save();
        try
        {
            result = def->handler(ctx, effective);
        }
        catch (...)
        {
            io.restore(std::move(snapshot));
            throw;
        }
    }
    else if (def->mutates == Mutates::Yes && m_options.checkResults)
    {
        // Tests hold every mutating command to its promise: validate everything,
        // then write, so a failure leaves the state bit for bit as it was.
        const uint64_t before = io.hash();
        try
        {
            result = def->handler(ctx, effective);
        }
        catch (const CommandError&)
        {
            if (io.hash() != before)
                fail("E_INTERNAL", "the failed command " + std::string(id) + " changed the session state");
            throw;
        }
    }
    else
    {
        result = def->handler(ctx, effective);
    }
    if (def->mutates != Mutates::No)
        ++io.commandsRun;
    if (result.is_null())
        result = json::object();
    if (m_options.checkResults)
    {
        auto resultProblems = schema->result->validate(result);
        if (!resultProblems.empty())
        {
            json list = json::array();
            for (const auto& p : resultProblems)
                list.push_back({{"path", p.path}, {"message", p.message}});
            return errorEnvelope("E_INTERNAL", "the result of " + std::string(id) + " does not match its result schema",
                                 {{"problems", list}});
        }
    }
    return {{"ok", true}, {"result", std::move(result)}};
}

json Dispatcher::call(scene::SessionState& io, std::string_view id, const json& params) noexcept
{
    try
    {
        return run(io, id, params, m_options.updateGoldens);
    }
    catch (const CommandError& e)
    {
        return errorEnvelope(e.code, e.message, e.data, e.hint);
    }
    catch (const std::bad_alloc&)
    {
        return errorEnvelope("E_INTERNAL", "out of memory while running " + std::string(id));
    }
    catch (const std::exception& e)
    {
        return errorEnvelope("E_INTERNAL", std::string("internal error in ") + std::string(id) + ": " + e.what());
    }
    catch (...)
    {
        return errorEnvelope("E_INTERNAL", "internal error in " + std::string(id));
    }
}

json Dispatcher::execute(scene::SessionState& io, const json& request) noexcept
{
    try
    {
        if (!request.is_object())
            return errorEnvelope("E_INVALID_PARAMS", "a request must be an object {\"command\", \"params\"}",
                                 {{"path", ""}});
        if (!request.contains("command") || !request["command"].is_string())
            return errorEnvelope("E_INVALID_PARAMS", "the request has no string \"command\"", {{"path", "/command"}});
        for (auto it = request.begin(); it != request.end(); ++it)
            if (it.key() != "command" && it.key() != "params" && it.key() != "id")
                return errorEnvelope("E_INVALID_PARAMS", "unknown request field '" + it.key() + "'",
                                     {{"path", "/" + it.key()}}, "a request has command, params and an optional id");
        json params = request.contains("params") ? request["params"] : json::object();
        if (!params.is_object())
            return errorEnvelope("E_INVALID_PARAMS", "\"params\" must be an object", {{"path", "/params"}});
        return call(io, request["command"].get<std::string>(), params);
    }
    catch (...)
    {
        return errorEnvelope("E_INTERNAL", "internal error while reading the request");
    }
}

json Dispatcher::executeText(scene::SessionState& io, std::string_view text) noexcept
{
    try
    {
        json request;
        std::string message;
        if (!parseJsonText(text, request, message))
            return errorEnvelope("E_INVALID_PARAMS", "the request is not valid JSON: " + message, {{"path", ""}});
        json answer = execute(io, request);
        if (request.is_object() && request.contains("id"))
            answer["id"] = request["id"];
        return answer;
    }
    catch (...)
    {
        return errorEnvelope("E_INTERNAL", "internal error while reading the request");
    }
}

} // namespace spark::cli
