// The scenario runner and the ai.scenario.run command.

#include "runners/scenario.h"

#include "runners/recording.h"

#include "spark/core/path.h"
#include "spark/core/work.h"

#include <cmath>
#include <optional>
#include <string_view>

namespace spark::cli
{

bool containsSubset(const json& actual, const json& expected, double tolerance, std::string& outWhy,
                    const std::string& at)
{
    const std::string where = at.empty() ? "/" : at;
    if (expected.is_object())
    {
        if (!actual.is_object())
        {
            outWhy = where + ": expected an object, got " + actual.dump();
            return false;
        }
        for (auto it = expected.begin(); it != expected.end(); ++it)
        {
            if (!actual.contains(it.key()))
            {
                outWhy = at + "/" + it.key() + ": missing in the result";
                return false;
            }
            if (!containsSubset(actual[it.key()], it.value(), tolerance, outWhy, at + "/" + it.key()))
                return false;
        }
        return true;
    }
    if (expected.is_array())
    {
        if (!actual.is_array() || actual.size() != expected.size())
        {
            outWhy = where + ": expected " + std::to_string(expected.size()) + " items, got " +
                     (actual.is_array() ? std::to_string(actual.size()) : actual.dump());
            return false;
        }
        for (size_t i = 0; i < expected.size(); ++i)
            if (!containsSubset(actual[i], expected[i], tolerance, outWhy, at + "/" + std::to_string(i)))
                return false;
        return true;
    }
    if (expected.is_number())
    {
        if (!actual.is_number())
        {
            outWhy = where + ": expected " + expected.dump() + ", got " + actual.dump();
            return false;
        }
        const double e = expected.get<double>(), a = actual.get<double>();
        if (!(std::fabs(a - e) <= tolerance))
        {
            outWhy = where + ": expected " + expected.dump() + ", got " + actual.dump() +
                     " (tolerance " + json(tolerance).dump() + ")";
            return false;
        }
        return true;
    }
    if (actual != expected)
    {
        outWhy = where + ": expected " + expected.dump() + ", got " + actual.dump();
        return false;
    }
    return true;
}

void checkScenarioDocument(const json& doc, const std::string& p)
{
    if (!doc.is_object())
        fail("E_FORMAT", "a scenario must be a JSON object", {{"path", p.empty() ? "" : p}});
    if (doc.contains("version") && doc["version"] != 1)
        fail("E_FORMAT", "unsupported scenario version (expected 1)", {{"path", p + "/version"}});
    if (doc.contains("name") && !doc["name"].is_string())
        fail("E_FORMAT", "the scenario name must be a string", {{"path", p + "/name"}});
    if (!doc.contains("steps") || !doc["steps"].is_array())
        fail("E_FORMAT", "a scenario needs a \"steps\" array", {{"path", p + "/steps"}});
    for (auto it = doc.begin(); it != doc.end(); ++it)
        if (it.key() != "version" && it.key() != "name" && it.key() != "steps" && it.key() != "description")
            fail("E_FORMAT", "unknown scenario field '" + it.key() + "'", {{"path", p + "/" + it.key()}},
                 "a scenario has version, name, description and steps");
    const auto& steps = doc["steps"];
    if (steps.size() > 100000)
        fail("E_FORMAT", "a scenario has at most 100000 steps", {{"path", p + "/steps"}});
    for (size_t i = 0; i < steps.size(); ++i)
    {
        const std::string sp = p + "/steps/" + std::to_string(i);
        const auto& step = steps[i];
        if (!step.is_object())
            fail("E_FORMAT", "a step must be an object", {{"path", sp}});
        if (!step.contains("do") || !step["do"].is_string())
            fail("E_FORMAT", "a step needs \"do\": a command id", {{"path", sp + "/do"}});
        if (step.contains("expect_error") && !step["expect_error"].is_string())
            fail("E_FORMAT", "\"expect_error\" must be an error code", {{"path", sp + "/expect_error"}});
        if (step.contains("tolerance") && (!step["tolerance"].is_number() || step["tolerance"].get<double>() < 0))
            fail("E_FORMAT", "\"tolerance\" must be a number >= 0", {{"path", sp + "/tolerance"}});
    }
}

namespace
{

std::string fileNameOf(const std::string& canonical)
{
    return canonical.substr(canonical.find_last_of('/') + 1);
}

// The running files, outermost first ("" for an inline document).
json chainJson(const std::vector<std::string>& chain)
{
    json files = json::array();
    for (const std::string& c : chain)
        files.push_back(fileNameOf(c));
    return files;
}

// Counts a nested step (one of a scenario run by a scenario) against the
// outermost run's budget; past it, fails with E_SCENARIO_LIMIT naming the step
// (file and index) where the budget ran out.
void takeStepFromBudget(Dispatcher& dispatcher, size_t index, const std::string& id)
{
    const std::vector<std::string>& chain = dispatcher.scenarioChain();
    if (chain.size() < 2)
        return; // the outermost scenario's own steps: at most a file's 100,000
    ScenarioBudget& budget = dispatcher.scenarioBudget();
    const size_t limit = dispatcher.options().scenarioStepBudget;
    if (budget.used < limit)
    {
        ++budget.used;
        return;
    }
    budget.exhausted = true;
    fail("E_SCENARIO_LIMIT",
         "the scenarios this scenario runs take more than " + std::to_string(limit) + " steps in all",
         {{"path", budget.field},
          {"limit", limit},
          {"step", {{"file", chain.empty() ? std::string() : fileNameOf(chain.back())}, {"index", index}, {"do", id}}},
          {"chain", chainJson(chain)}},
         "scenarios that run scenarios multiply their steps: run the inner scenarios one after the other, "
         "or with fewer steps");
}

} // namespace

json runScenario(Dispatcher& dispatcher, scene::SessionState& io, const json& doc, bool updateGoldens)
{
    // Called on its own (not through ai.scenario.run or `spark test`), the run
    // is the outermost one and starts the step budget.
    std::optional<ScenarioFrame> outermost;
    if (dispatcher.scenarioChain().empty())
        outermost.emplace(dispatcher, std::string(), std::string());
    json results = json::array();
    json out = {{"name", doc.value("name", std::string())}, {"passed", true}};
    // Goldens are updated for this run and the runs inside it, then as before.
    struct GoldensGuard
    {
        DispatchOptions& options;
        bool saved;
        ~GoldensGuard() { options.updateGoldens = saved; }
    } goldens{dispatcher.options(), dispatcher.options().updateGoldens};
    dispatcher.options().updateGoldens = updateGoldens || goldens.saved;
    const auto& steps = doc["steps"];
    for (size_t i = 0; i < steps.size(); ++i)
    {
        const auto& step = steps[i];
        const std::string id = step["do"].get<std::string>();
        takeStepFromBudget(dispatcher, i, id);
        json params = json::object();
        for (auto it = step.begin(); it != step.end(); ++it)
        {
            bool reserved = false;
            for (const char* k : kStepReservedKeys)
                reserved |= it.key() == k;
            if (!reserved)
                params[it.key()] = it.value();
        }
        // A safe point between steps (spark/core/work.h); a stopped step (its own safe
        // points) stops the run too. The composite command's snapshot undoes the steps done.
        const bool stopped = !workCheckpoint("scenario step", i, steps.size());
        json answer = stopped ? json() : dispatcher.call(io, id, params);
        if (stopped || (answer.contains("error") && answer["error"]["code"] == "E_CANCELLED"))
        {
            failWith(cancelledError("step " + std::to_string(i) + " (" + id + ") of the scenario"));
        }
        json entry = {{"index", i}, {"do", id}, {"ok", answer["ok"]}};
        std::string why;
        if (answer["ok"].get<bool>())
        {
            entry["result"] = answer["result"];
            const json& result = answer["result"];
            const json expect = step.value("expect", json::object());
            if (step.contains("expect_error"))
                why = "expected the error " + step["expect_error"].get<std::string>() + " but the command succeeded";
            else if (!containsSubset(result, expect, step.value("tolerance", 1e-9), why))
                why = "result mismatch at " + why;
            else if (result.is_object() && result.contains("equal") && result["equal"] == false &&
                     !expect.contains("equal"))
                why = "the result says equal: false";
            else if (result.is_object() && result.contains("passed") && result["passed"] == false &&
                     !expect.contains("passed"))
                why = "the result says passed: false";
        }
        else
        {
            const std::string code = answer["error"].value("code", std::string());
            // A spent budget stops every enclosing scenario with the same error,
            // expected or not: a run that goes on would only spend more.
            if (code == "E_SCENARIO_LIMIT" && dispatcher.scenarioBudget().exhausted)
            {
                const json& e = answer["error"];
                throw CommandError{code, e.value("message", std::string()), e.value("data", json::object()),
                                   e.value("hint", std::string())};
            }
            entry["error"] = answer["error"];
            if (!step.contains("expect_error"))
                why = "unexpected error " + code + ": " + answer["error"].value("message", std::string());
            else if (step["expect_error"].get<std::string>() != code)
                why = "expected the error " + step["expect_error"].get<std::string>() + ", got " + code + ": " +
                      answer["error"].value("message", std::string());
            else if (step.contains("expect") &&
                     !containsSubset(answer["error"].value("data", json::object()), step["expect"],
                                     step.value("tolerance", 1e-9), why))
                why = "error data mismatch at " + why;
        }
        results.push_back(std::move(entry));
        if (!why.empty())
        {
            out["passed"] = false;
            out["failed"] = {{"index", i}, {"do", id}, {"why", why}};
            break;
        }
    }
    out["steps"] = std::move(results);
    return out;
}

ScenarioFrame::ScenarioFrame(Dispatcher& dispatcher, std::string canonicalPath, const std::string& field)
    : m_dispatcher(dispatcher)
{
    std::vector<std::string>& chain = dispatcher.scenarioChain();
    if (chain.empty())
        dispatcher.scenarioBudget() = ScenarioBudget{0, false, field};
    if (!canonicalPath.empty())
        for (const std::string& running : chain)
            if (running == canonicalPath)
            {
                json files = json::array();
                for (const std::string& c : chain)
                    if (!c.empty())
                        files.push_back(fileNameOf(c));
                files.push_back(fileNameOf(canonicalPath));
                fail("E_SCENARIO_CYCLE", "the scenario runs itself through the chain " + files.dump(),
                     {{"path", field}, {"chain", files}}, "break the cycle: a scenario may not run one that runs it");
            }
    if (chain.size() >= kMaxScenarioDepth)
        fail("E_SCENARIO_LIMIT", "scenarios nest deeper than " + std::to_string(kMaxScenarioDepth) + " runs",
             {{"path", field}}, "run the inner scenarios one after the other instead");
    chain.push_back(std::move(canonicalPath));
}

ScenarioFrame::~ScenarioFrame()
{
    m_dispatcher.scenarioChain().pop_back();
}

namespace
{

json aiScenarioRun(Context& ctx, const json& params)
{
    // Exactly one of path and doc: checked here, not by a top-level oneOf in the schema,
    // which MCP clients backed by some model APIs refuse.
    if (params.contains("doc") == params.contains("path"))
    {
        const std::string field = params.contains("doc") ? "/doc" : "";
        const std::string message = params.contains("doc") ? "give path or doc, not both"
                                                           : "give a scenario: path (a file) or doc (inline)";
        fail("E_INVALID_PARAMS", "1 problem in the params: " + (field.empty() ? std::string("/") : field) + ": " + message,
             {{"problems", json::array({{{"path", field}, {"message", message}}})}, {"path", field}},
             "see `spark schema ai.scenario.run`");
    }
    json doc;
    std::string prefix;
    std::string canonical;
    if (params.contains("doc"))
    {
        doc = params["doc"];
        prefix = "/doc";
    }
    else
    {
        const auto path = ctx.resolvePath(params["path"].get<std::string>(), "/path");
        canonical = path.string();
        FileReadDef def = defaultFileReadDef();
        def.maxBytes = kMaxScenarioFileBytes;
        def.limitCode = "E_FORMAT";
        auto text = spark::readTextFile(path, def);
        if (!text.ok())
            fail(text.error().code, text.error().message, {{"path", "/path"}});
        std::string message;
        if (!parseJsonText(text.value(), doc, message))
            fail("E_FORMAT", "the scenario file is not valid JSON: " + message, {{"path", "/path"}});
    }
    checkScenarioDocument(doc, prefix);
    ScenarioFrame frame(*ctx.dispatcher, canonical, params.contains("doc") ? "/doc" : "/path");
    // record: the frames of this run (a recording of an enclosing run pauses meanwhile).
    std::unique_ptr<scene::RecordingWriter> recorder;
    std::optional<RecordingScope> recording;
    std::filesystem::path recordPath;
    if (params.contains("record"))
    {
        recordPath = ctx.resolvePath(params["record"].get<std::string>(), "/record");
        recorder = makeRecordingWriter(params.contains("path") ? params["path"].get<std::string>() : doc.value("name", "scenario"));
        recording.emplace(ctx.state, *recorder);
    }
    json report = runScenario(*ctx.dispatcher, ctx.state, doc, params.value("update_goldens", false) || ctx.updateGoldens);
    recording.reset();
    if (!report["passed"].get<bool>())
    {
        const json& f = report["failed"];
        fail("E_SCENARIO_FAILED",
             "the scenario" + (report.value("name", std::string()).empty() ? std::string() : " '" + report["name"].get<std::string>() + "'") +
                 " failed at step " + std::to_string(f["index"].get<size_t>()) + " (" + f["do"].get<std::string>() +
                 "): " + f["why"].get<std::string>(),
             report, "data.failed names the step and why; the session is as it was before the run");
    }
    if (recorder)
    {
        const std::string rel = params["record"].get<std::string>();
        if (const Status st = writeRecordingFile(*recorder, recordPath); !st.ok())
            fail(st.error().code, st.error().message, {{"path", "/record"}, {"file", rel}}, "give a writable file inside the project");
        report["recording"] = {{"path", rel},
                               {"frames", recorder->frameCount()},
                               {"bytes", std::filesystem::file_size(recordPath)},
                               {"view", "spark view " + rel},
                               {"resource", recordingResourceUri(rel)}};
    }
    return report;
}

const Registrar kScenarioRun{{"ai.scenario.run",
                              aiScenarioRun,
                              Mutates::Composite,
                              nullptr,
                              {.destructive = true, .writesFiles = true}}};

} // namespace
} // namespace spark::cli
