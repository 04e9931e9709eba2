// The dispatcher: validation, transactions and the single error boundary.
//
// Commands change the session state in place: handlers (and the world
// operations they call) validate everything before they write anything, so a
// failed command changes nothing without copying the state. A command made of
// several commands (a scenario) is `Mutates::Composite`: it runs on a snapshot
// it restores on failure. With `checkResults` (tests), a failing mutating
// command is also checked to have left the state hash unchanged.

#include "surface/dispatcher.h"

#include "spark/scene/recording.h"

#include "surface/schemas.h"
#include "surface/suggest.h"

#include "spark/core/text.h"
#include "spark/core/work.h"

#include <charconv>
#include <cmath>
#include <chrono>
#include <exception>
#include <optional>

namespace spark::cli
{

namespace
{

/// The hint an error gets when its handler gave none: what to do about the code.
struct CodeHint
{
    const char* code;
    const char* hint;
};
constexpr CodeHint kDefaultHints[] = {
    {"E_INVALID_PARAMS", "`spark schema <command>` shows the params"},
    {"E_IO", "check that the file exists, is a regular file and is readable (paths are relative to the project)"},
    {"E_PATH", "give a path inside the project folder, relative to it"},
    {"E_FORMAT", "check the file's syntax; the message says where"},
    {"E_INTERNAL", "this is a bug in spark: please report it with the command that caused it"},
    {"E_UNKNOWN_COMMAND", "list the commands with `spark commands`"},
    {"E_ASSERT_FAILED", "compare data.expected with data.actual"},
    {"E_NAV_CONFIG", "the limits of each setting are in `spark schema nav.bake`"},
    {"E_NAV_LIMIT", "reduce the size (fewer cells, polygons or items) or split the work"},
    {"E_NAV_FORMAT", "data.field points at the bad field of the navmesh file data.file; for a document given "
                     "inline, data.path points at it in the params"},
    {"E_NAV_NO_MESH", "nav.list shows the meshes; bake one with nav.bake or load one with nav.import"},
    {"E_NAV_NO_GEOMETRY", "add walkable geometry (colliders, tiles or shapes) before baking"},
    {"E_NAV_OFF_MESH", "move the point closer to the mesh or give larger extents"},
    {"E_NAV_STALE_POLY", "find the polygon again (nav.nearest) or re-plan"},
    {"E_SCENE_NONE", "create a scene with space3d.new / scene2d.new or load one"},
    {"E_SCENE_FORMAT", "data.field (or data.path) points at the bad value"},
    {"E_SCENE_RANGE", "the value's limits are in the schema of the command (`spark schema <command>`)"},
    {"E_SCENE_LIMIT", "the scene's limits are documented in the README; split the scene"},
    {"E_SCENE_UNKNOWN", "list what exists with the scene's list command"},
    {"E_SCENE_UNKNOWN_OBJECT", "space3d.list shows the objects"},
    {"E_SCENE_DUPLICATE", "pick another name"},
    {"E_SCENE_NO_CONTROLLER", "give the object a CharacterController (space3d.get shows its components)"},
    {"E_SCENE_DIVERGED", "data.step names the first command whose replay differs"},
    {"E_SCENARIO_FAILED", "data.failed names the step and why; data.steps has every step's answer"},
    {"E_SCENARIO_CYCLE", "data.chain shows the files that include each other; break the cycle"},
    {"E_CANCELLED", "the command stopped at a safe point and changed nothing; run it again, or in smaller parts"},
};

std::string defaultHint(const std::string& code)
{
    for (const CodeHint& h : kDefaultHints)
        if (code == h.code)
            return h.hint;
    if (code.rfind("E_AI_", 0) == 0)
        return "ai.validate lists every problem of a document with its path and hint";
    if (code.rfind("E_NAV_", 0) == 0)
        return "`spark schema <command>` documents the params and their limits";
    return "`spark schema <command>` documents the params and the errors";
}

/// An error message may quote input: escape what is not valid UTF-8 (and control
/// characters) so the answer always serialises.
std::string safeMessage(const std::string& text)
{
    bool plain = isValidUtf8(text);
    for (char c : text)
        plain = plain && (static_cast<unsigned char>(c) >= 0x20 || c == '\t' || c == '\n');
    return plain ? text : escapeText(text, 4096);
}

} // namespace

json errorEnvelope(const std::string& code, const std::string& message, json data, const std::string& hint)
{
    json error = {{"code", code},
                  {"message", safeMessage(message)},
                  {"data", data.is_null() ? json::object() : std::move(data)},
                  {"hint", safeMessage(hint.empty() ? defaultHint(code) : hint)}};
    return {{"ok", false}, {"error", std::move(error)}};
}

std::string dumpJson(const json& j, int indent) noexcept
{
    try
    {
        return j.dump(indent, ' ', false, json::error_handler_t::replace);
    }
    catch (...)
    {
        return R"({"ok":false,"error":{"code":"E_INTERNAL","message":"the answer could not be written","data":{},"hint":"this is a bug in spark: please report it"}})";
    }
}

namespace
{
// JSON numbers that overflow a double parse to infinity in some parsers; refuse any
// non-finite number anywhere in a document. Iterative, so no depth can overflow
// the stack; the first pass keeps only pointers, and the path of the bad number
// is worked out only when there is one.
bool findNonFinite(const json& root, std::string& outPath)
{
    auto bad = [](const json& j) { return j.is_number_float() && !std::isfinite(j.get<double>()); };
    if (bad(root))
    {
        outPath = "";
        return true;
    }
    std::vector<const json*> stack{&root};
    bool found = false;
    while (!stack.empty() && !found)
    {
        const json* j = stack.back();
        stack.pop_back();
        if (!j->is_structured())
            continue;
        for (const json& child : *j)
        {
            if (bad(child))
                found = true;
            else if (child.is_structured())
                stack.push_back(&child);
        }
    }
    if (!found)
        return false;
    // Slow path, taken once: the pointer of the first non-finite number.
    std::vector<std::pair<const json*, std::string>> paths{{&root, ""}};
    while (!paths.empty())
    {
        auto [j, at] = std::move(paths.back());
        paths.pop_back();
        if (bad(*j))
        {
            outPath = at;
            return true;
        }
        if (j->is_object())
        {
            for (auto it = j->begin(); it != j->end(); ++it)
                if (it.value().is_structured() || bad(it.value()))
                    paths.push_back({&it.value(), at + "/" + it.key()});
        }
        else if (j->is_array())
        {
            for (size_t i = 0; i < j->size(); ++i)
                if ((*j)[i].is_structured() || bad((*j)[i]))
                    paths.push_back({&(*j)[i], at + "/" + std::to_string(i)});
        }
    }
    return false;
}
} // namespace

size_t compactJsonBytes(const json& root, size_t stopAfter)
{
    // Iterative (no depth can overflow the stack); scalars are counted as the
    // serialiser writes them: escaped strings, shortest round-trip doubles (a
    // double's exponent form may differ by a byte or two: a limit, not a layout).
    auto stringBytes = [](const std::string& s) {
        size_t n = 2;
        for (char c : s)
        {
            const auto u = static_cast<unsigned char>(c);
            n += (c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t') ? 2
                 : u < 0x20                                                                         ? 6
                                                                                                    : 1;
        }
        return n;
    };
    size_t total = 0;
    std::vector<const json*> stack{&root};
    while (!stack.empty() && total <= stopAfter)
    {
        const json* j = stack.back();
        stack.pop_back();
        switch (j->type())
        {
        case json::value_t::object:
            total += 2 + (j->empty() ? 0 : j->size() - 1); // braces and commas
            for (auto it = j->begin(); it != j->end(); ++it)
            {
                total += stringBytes(it.key()) + 1; // key and colon
                stack.push_back(&it.value());
            }
            break;
        case json::value_t::array:
            total += 2 + (j->empty() ? 0 : j->size() - 1);
            for (const json& item : *j)
                stack.push_back(&item);
            break;
        case json::value_t::string: total += stringBytes(j->get_ref<const std::string&>()); break;
        case json::value_t::boolean: total += j->get<bool>() ? 4 : 5; break;
        case json::value_t::null: total += 4; break;
        case json::value_t::number_integer:
        case json::value_t::number_unsigned:
        case json::value_t::number_float:
        {
            char buffer[64];
            const auto written = j->is_number_float() ? std::to_chars(buffer, buffer + sizeof buffer, j->get<double>())
                                 : j->is_number_unsigned()
                                     ? std::to_chars(buffer, buffer + sizeof buffer, j->get<uint64_t>())
                                     : std::to_chars(buffer, buffer + sizeof buffer, j->get<int64_t>());
            const std::string_view text(buffer, static_cast<size_t>(written.ptr - buffer));
            // The serialiser writes a whole double as "2.0".
            const bool addsPointZero = j->is_number_float() && text.find_first_of(".e") == std::string_view::npos;
            total += text.size() + (addsPointZero ? 2 : 0);
            break;
        }
        default: break;
        }
    }
    return total;
}

bool parseJsonText(std::string_view text, json& out, std::string& outMessage)
{
    const Status checked = checkJsonText(text);
    if (!checked.ok())
    {
        outMessage = checked.error().message;
        return false;
    }
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
    if (findNonFinite(out, where))
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

namespace
{

// Commands whose changes to the 3D scene's world the journal keeps: the nav.*,
// ai.* and space3d.* commands, except those that start a new journal (new,
// load, snapshot restore and load) or only keep snapshots.
bool changesScene(std::string_view id)
{
    auto starts = [&](std::string_view p) { return id.substr(0, p.size()) == p; };
    if (!(starts("nav.") || starts("ai.") || starts("space3d.")))
        return false;
    return !(id == "space3d.new" || id == "space3d.load" || starts("space3d.snapshot."));
}

} // namespace

namespace
{

/// Marks a recording before a command and rolls it back when the command
/// leaves by an exception (a failure: its frames were undone).
struct RecordingGuard
{
    scene::RecordingWriter* writer;
    scene::RecordingWriter::Mark mark;
    int exceptions = std::uncaught_exceptions();

    explicit RecordingGuard(scene::RecordingWriter* w) : writer(w), mark(w ? w->mark() : scene::RecordingWriter::Mark{}) {}
    ~RecordingGuard()
    {
        if (writer && std::uncaught_exceptions() > exceptions)
            writer->rollback(mark);
    }
    RecordingGuard(const RecordingGuard&) = delete;
    RecordingGuard& operator=(const RecordingGuard&) = delete;
};

} // namespace

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
    static const json kEmptyParams = json::object();
    const json& effective = params.is_null() ? kEmptyParams : params; // a reference: params are never copied
    std::string nonFinitePath;
    if (findNonFinite(effective, nonFinitePath))
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

    Context ctx{io, m_options.projectRoot, this, updateGoldens, m_options.verbose, m_options.leafRegistry};
    io.world.setLeafRegistry(m_options.leafRegistry); // the host's leaves, for every step of the world
    // A command that fails undoes its frames: so does the recording of the run.
    RecordingGuard recording(def->mutates == Mutates::No ? nullptr : dynamic_cast<scene::RecordingWriter*>(io.frameObserver));
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
    if (def->mutates == Mutates::Yes && !def->hints.writesFiles && io.world.hasScene() && changesScene(id))
    {
        // The scene's journal: snapshot.save writes it, snapshot.load replays it.
        io.world.appendJournal({std::string(id), effective.dump(-1, ' ', false, json::error_handler_t::replace),
                                io.world.hashState()});
    }
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
        json data = e.data.is_null() ? json::object() : e.data;
        if (e.code == "E_CANCELLED" && data.is_object() && currentWork())
            data["reason"] = currentWork()->stopped() == WorkStop::Deadline ? "max_ms" : "cancelled";
        return errorEnvelope(e.code, e.message, std::move(data), e.hint);
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
            if (it.key() != "command" && it.key() != "params" && it.key() != "id" && it.key() != "max_ms")
                return errorEnvelope("E_INVALID_PARAMS", "unknown request field '" + it.key() + "'",
                                     {{"path", "/" + it.key()}},
                                     "a request has command, params, an optional id and an optional max_ms");
        static const json kNoParams = json::object();
        const json& params = request.contains("params") ? request["params"] : kNoParams;
        if (!params.is_object())
            return errorEnvelope("E_INVALID_PARAMS", "\"params\" must be an object", {{"path", "/params"}});
        if (!request.contains("max_ms"))
            return call(io, request["command"].get<std::string>(), params);
        // A time limit: long commands stop at their first safe point after it (spark/core/work.h).
        const json& maxMs = request["max_ms"];
        if (!maxMs.is_number_integer() || maxMs.get<int64_t>() < 1 || maxMs.get<int64_t>() > kMaxRequestMs)
            return errorEnvelope("E_INVALID_PARAMS", "\"max_ms\" must be an integer in 1..86400000", {{"path", "/max_ms"}},
                                 "give the most milliseconds the command may run");
        std::optional<WorkControl> own;
        std::optional<WorkScope> scope;
        WorkControl* control = currentWork();
        if (!control)
        {
            control = &own.emplace();
            scope.emplace(control);
        }
        control->setDeadline(std::chrono::steady_clock::now() + std::chrono::milliseconds(maxMs.get<int64_t>()));
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
