// The `spark` executable: a thin CLI11 front over the dispatcher.
// Exit codes: 0 success, 1 command error (or failed tests), 2 usage error.

#include "runners/bake.h"
#include "runners/mcp.h"
#include "runners/recording.h"
#include "runners/session_log.h"
#include "runners/test_runner.h"
#include "surface/dispatcher.h"
#include "surface/lines.h"
#include "surface/output.h"
#include "view/view.h"

#include "spark/core/path.h"
#include "spark/core/work.h"

#include <CLI/CLI.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>

using namespace spark::cli;

namespace
{

/// Resolves a path option (`--session`, `--junit`) inside the project; prints the error and returns false when it leaves it.
bool resolveOption(const std::string& project, const std::string& value, const char* option, std::string& out,
                   bool asJson)
{
    auto resolved = spark::resolveInProject(project, value);
    if (!resolved.ok())
    {
        json answer = errorEnvelope("E_PATH", std::string(option) + ": " + resolved.error().message,
                                    {{"path", option}}, "give a path inside the project folder, relative to it");
        if (asJson)
            std::cout << dumpJson(answer, 2) << "\n";
        else
            std::cerr << renderHumanError(answer);
        return false;
    }
    out = resolved.value().string();
    return true;
}

// Prints an answer envelope; returns the exit code.
int printAnswer(const json& answer, bool asJson, std::string_view command = {})
{
    const bool ok = answer["ok"].get<bool>();
    if (asJson)
        std::cout << dumpJson(answer, 2) << "\n";
    else if (ok && command == "ai.scenario.run")
        std::cout << renderScenarioStory(answer["result"]);
    else if (ok)
        std::cout << renderHuman(answer["result"]);
    else
        std::cerr << renderHumanError(answer);
    return ok ? 0 : 1;
}

int runCall(const std::string& id, const std::string& paramsText, const std::string& project, bool asJson,
            const std::string& sessionFile)
{
    DispatchOptions options;
    options.projectRoot = project;
    Dispatcher dispatcher(options);
    spark::scene::SessionState state;

    std::string text = paramsText.empty() ? "{}" : paramsText;
    if (text == "-" && !readAllBounded(std::cin, text))
        return printAnswer(errorEnvelope("E_INVALID_PARAMS", "the params on stdin are larger than 64 MiB", {{"path", ""}}),
                           asJson);
    json params;
    std::string message;
    if (!parseJsonText(text, params, message))
        return printAnswer(errorEnvelope("E_INVALID_PARAMS", "the params are not valid JSON: " + message, {{"path", ""}},
                                         "pass a JSON object, e.g. '{\"from\": [0, 0]}'"),
                           asJson);
    if (!params.is_object())
        return printAnswer(errorEnvelope("E_INVALID_PARAMS", "the params must be a JSON object", {{"path", ""}}), asJson);

    std::string sessionPath;
    if (!sessionFile.empty() && !resolveOption(project, sessionFile, "--session", sessionPath, asJson))
        return 1;
    if (!sessionPath.empty())
    {
        json replayError = replaySessionLog(dispatcher, state, sessionPath);
        if (!replayError.is_null())
            return printAnswer(replayError, asJson);
    }
    const uint64_t before = state.commandsRun;
    json answer = dispatcher.call(state, id, params);
    if (!sessionPath.empty() && answer["ok"].get<bool>() && state.commandsRun != before)
    {
        json logError = appendSessionLog(sessionPath, id, params);
        if (!logError.is_null())
            return printAnswer(logError, asJson);
    }
    return printAnswer(answer, asJson, id);
}

/// The control of the command `spark run` is running, for Ctrl-C (null between commands).
std::atomic<spark::WorkControl*> g_runningCommand{nullptr};

/// Ctrl-C: stops the running command at its next safe point (it answers E_CANCELLED and
/// the session goes on); between commands, or pressed again before the command reached a
/// safe point, it ends the session as usual.
extern "C" void onInterrupt(int)
{
    spark::WorkControl* control = g_runningCommand.load();
    if (control && !control->cancelRequested())
        control->requestCancel();
    else
    {
        std::signal(SIGINT, SIG_DFL);
        std::raise(SIGINT);
    }
}

int runLines(const std::string& file, const std::string& project, const std::string& recordFile)
{
    DispatchOptions options;
    options.projectRoot = project;
    Dispatcher dispatcher(options);
    spark::scene::SessionState state;
    // --record: every frame the session steps, written when the input ends.
    std::unique_ptr<spark::scene::RecordingWriter> recorder;
    std::optional<RecordingScope> recording;
    if (!recordFile.empty())
    {
        recorder = makeRecordingWriter(file.empty() || file == "-" ? "stdin" : file);
        recording.emplace(state, *recorder);
    }
    std::ifstream fileIn;
    std::istream* in = &std::cin;
    if (!file.empty() && file != "-")
    {
        // Regular files only: a directory or a device is refused before reading.
        struct stat st{};
        if (::stat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
        {
            json answer = errorEnvelope("E_IO",
                                        ::stat(file.c_str(), &st) != 0 ? "no such file: '" + file + "'"
                                        : S_ISDIR(st.st_mode)          ? "'" + file + "' is a directory, not a file of JSON lines"
                                                                       : "'" + file + "' is not a regular file",
                                        {{"path", "FILE"}}, "give a file of JSON lines, or - for stdin");
            std::cout << dumpJson(answer) << "\n";
            return 1;
        }
        fileIn.open(file, std::ios::binary);
        if (!fileIn)
        {
            std::cout << dumpJson(errorEnvelope("E_IO", "cannot read '" + file + "'", {{"path", "FILE"}})) << "\n";
            return 1;
        }
        in = &fileIn;
    }
    static_assert(std::atomic<spark::WorkControl*>::is_always_lock_free, "read in a signal handler");
    std::signal(SIGINT, onInterrupt);
    bool allOk = true;
    std::string line;
    for (;;)
    {
        const LineRead read = readBoundedLine(*in, line);
        if (read == LineRead::End)
            break;
        json answer;
        if (read == LineRead::TooLong)
            answer = errorEnvelope("E_INVALID_PARAMS", "the request line is longer than 64 MiB", {{"path", ""}},
                                   "send one request per line, each at most 64 MiB");
        else if (line.find_first_not_of(" \t\r") == std::string::npos)
            continue;
        else
        {
            spark::WorkControl control;
            spark::WorkScope scope(&control);
            g_runningCommand.store(&control);
            answer = dispatcher.executeText(state, line);
            g_runningCommand.store(nullptr);
        }
        allOk = allOk && answer["ok"].get<bool>();
        std::cout << dumpJson(answer) << "\n";
        std::cout.flush();
    }
    if (recorder)
    {
        const spark::Status st = writeRecordingFile(*recorder, recordFile);
        if (!st.ok())
        {
            std::cerr << "error " << st.error().code << ": --record " << recordFile << ": " << st.error().message << "\n";
            return 1;
        }
        std::cerr << "recorded " << recorder->frameCount() << " frames to " << recordFile << "\n";
    }
    return allOk ? 0 : 1;
}

// `spark mcp`: checks the options before serving (exit 2 on a usage error, 1 when the session cannot be replayed).
int runMcp(const std::string& project, const std::string& tools, const std::string& sessionFile)
{
    std::error_code ec;
    if (!std::filesystem::is_directory(project, ec))
    {
        std::cerr << renderHumanError(errorEnvelope("E_IO", "--project: no folder '" + project + "'",
                                                    {{"path", "--project"}}, "give an existing project folder"));
        return 2;
    }
    DispatchOptions options;
    options.projectRoot = project;
    Dispatcher dispatcher(options);
    McpSession session;
    for (size_t start = 0; start <= tools.size() && !tools.empty();)
    {
        const size_t comma = std::min(tools.find(',', start), tools.size());
        const std::string prefix = tools.substr(start, comma - start);
        start = comma + 1;
        if (prefix.empty())
            continue;
        bool any = false;
        for (const auto& [id, def] : dispatcher.registry().all())
            any = any || mcpServesCommand({prefix}, id);
        if (!any)
        {
            std::cerr << renderHumanError(errorEnvelope("E_INVALID_PARAMS", "--tools: no command starts with '" + prefix + "'",
                                                        {{"path", "--tools"}},
                                                        "`spark commands` lists the ids; give prefixes such as nav.,ai."));
            return 2;
        }
        session.toolPrefixes.push_back(prefix);
    }
    if (!sessionFile.empty())
    {
        std::string sessionPath;
        if (!resolveOption(project, sessionFile, "--session", sessionPath, false))
            return 2;
        const json replayError = replaySessionLog(dispatcher, session.state, sessionPath);
        if (!replayError.is_null())
        {
            std::cerr << renderHumanError(replayError);
            return 1;
        }
        session.sessionLog = sessionPath;
    }
    return runMcpServer(dispatcher, session, std::cin, std::cout);
}

int runCommands(const std::string& prefix, bool asJson)
{
    Dispatcher dispatcher(DispatchOptions{});
    spark::scene::SessionState state;
    json answer = dispatcher.call(state, "system.commands", {{"prefix", prefix}});
    if (asJson || !answer["ok"].get<bool>())
        return printAnswer(answer, true);
    size_t width = 0;
    for (const auto& c : answer["result"]["commands"])
        width = std::max(width, c["id"].get<std::string>().size());
    for (const auto& c : answer["result"]["commands"])
    {
        const std::string id = c["id"].get<std::string>();
        std::cout << id << std::string(width + 2 - id.size(), ' ') << c.value("summary", std::string()) << "\n";
    }
    return 0;
}

int runSchema(const std::string& id)
{
    Dispatcher dispatcher(DispatchOptions{});
    spark::scene::SessionState state;
    json answer = dispatcher.call(state, "system.schema", {{"command", id}});
    if (!answer["ok"].get<bool>())
        return printAnswer(answer, false);
    std::cout << dumpJson(answer["result"], 2) << "\n";
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    try
    {
        CLI::App app{"spark: navigation and game AI through one JSON command surface"};
        app.require_subcommand(1);
        app.set_version_flag("--version", SPARK_VERSION);

        std::string project = ".";
        bool asJson = false;

        auto* call = app.add_subcommand("call", "Run one command and print its result");
        std::string callId, callParams, sessionFile;
        call->add_option("id", callId, "Command id, e.g. nav.path")->required();
        call->add_option("params", callParams, "Params as a JSON object, or - to read stdin");
        call->add_option("--project", project, "Project folder every path is relative to");
        call->add_flag("--json", asJson, "Print the answer envelope as JSON");
        call->add_option("--session", sessionFile, "Replay the commands logged in FILE first, then append this one");

        auto* run = app.add_subcommand("run", "JSON lines in, JSON lines out, one session");
        std::string runFile;
        run->add_option("file", runFile, "Request lines file, or - for stdin (default)");
        run->add_option("--project", project, "Project folder every path is relative to");
        std::string recordFile;
        run->add_option("--record", recordFile, "Write a recording of every frame stepped to FILE (spark view FILE)");

        auto* commands = app.add_subcommand("commands", "List the commands");
        std::string prefix;
        commands->add_option("--prefix", prefix, "Only ids starting with this");
        commands->add_flag("--json", asJson, "Print the commands with their schemas as JSON");

        auto* schema = app.add_subcommand("schema", "Print one command's schema");
        std::string schemaId;
        schema->add_option("id", schemaId, "Command id")->required();

        auto* test = app.add_subcommand("test", "Run .test.json files (or every one under a folder)");
        TestRunOptions testOptions;
        test->add_option("paths", testOptions.paths, "Test files or folders")->required();
        test->add_option("--project", project, "Project folder every path is relative to");
        test->add_flag("--update-goldens", testOptions.updateGoldens, "Write goldens instead of comparing them");
        test->add_option("--junit", testOptions.junitPath, "Write a JUnit XML report");
        test->add_option("--record", testOptions.recordDir,
                         "Write one recording per test into DIR (relative to the project; spark view DIR)");
        test->add_option("--shard", testOptions.shard,
                         "Run only shard I of N (I/N, 0-based): tests split by a hash of their id, stable when tests "
                         "are added");
        test->add_flag("--list", testOptions.list, "Print the ids (FILE :: NAME) of the tests that would run");

        auto* bake = app.add_subcommand("bake", "Bake an .obj, .space3d.json or .scene2d.json into a navmesh document");
        BakeCliOptions bakeOptions;
        bake->add_option("input", bakeOptions.input, "Input file (.obj, .space3d.json, .scene2d.json)");
        bake->add_option("-o,--output", bakeOptions.output, "Navmesh document to write (relative to the project)");
        bake->add_option("--project", project, "Project folder every path is relative to");
        // The bake settings, shared by bake, bake plan and bake job.
        auto addBakeSettings = [&](CLI::App* cmd, BakeCliOptions& o)
        {
            cmd->add_option("--name", o.meshName, "Mesh name in the document")->capture_default_str();
            cmd->add_flag("-v,--verbose", o.verbose, "Also print the bake's counters and wall time");
            cmd->add_option("--cell-size", o.def.cellSize, "Horizontal voxel size [m]")->capture_default_str();
            cmd->add_option("--cell-height", o.def.cellHeight, "Vertical voxel size [m]")->capture_default_str();
            cmd->add_option("--agent-radius", o.def.agentRadius, "Agent radius: erosion from borders [m]")->capture_default_str();
            cmd->add_option("--agent-height", o.def.agentHeight, "Head room an agent needs [m]")->capture_default_str();
            cmd->add_option("--step-height,--climb", o.def.stepHeight, "Largest step an agent climbs [m]")->capture_default_str();
            cmd->add_option("--max-slope", o.def.maxSlopeDeg, "Steepest walkable slope [degrees]")->capture_default_str();
            cmd->add_option("--max-simplification-error", o.def.maxSimplificationError,
                             "Contour simplification tolerance [cells]")->capture_default_str();
            cmd->add_option("--max-edge-len", o.def.maxEdgeLen, "Longest contour edge, 0 = no limit [m]")->capture_default_str();
            cmd->add_option("--max-verts-per-poly", o.def.maxVertsPerPoly, "Vertices per polygon (3..6)")->capture_default_str();
            cmd->add_option("--min-region-area", o.def.minRegionArea, "Regions smaller than this are dropped [m²]")->capture_default_str();
            cmd->add_option("--merge-region-area", o.def.mergeRegionArea,
                             "Regions smaller than this join a neighbour, 0 = no merging [m²]")->capture_default_str();
            cmd->add_option("--tile-size", o.def.tileSize,
                             "Bake in square tiles of this many cells, 0 = one grid (3D only) [cells]")->capture_default_str();
            cmd->add_option("--threads", o.def.threads, "Threads baking tiles, 0 = the hardware's")->capture_default_str();
            cmd->add_option("--tiles", o.tiles,
                             "Bake only tiles X0..X1 by Z0..Z1 (both included), as X0:X1,Z0:Z1 (tiled bakes)");
        };
        addBakeSettings(bake, bakeOptions);
        bake->add_option("--agent-radii", bakeOptions.def.agentRadii,
                         "Several agent radii, comma-separated, instead of --agent-radius: one document per radius, "
                         "OUT for the first, OUT with @<radius> before its extension for the others [m]")
            ->delimiter(',');
        BakeMergeOptions mergeOptions;
        auto* merge = bake->add_subcommand("merge", "Join tiled navmesh documents (subset bakes) into one document");
        merge->add_option("inputs", mergeOptions.inputs, "Tiled navmesh documents (relative to the project)");
        merge->add_option("-o,--output", mergeOptions.output, "Merged document to write (relative to the project)")->required();
        merge->add_option("--project", project, "Project folder every path is relative to");
        merge->add_option("--plan", mergeOptions.plan, "spark bake plan's file: check every tile and key, then merge");
        merge->add_option("--manifest", mergeOptions.manifests, "spark bake job manifests (with --plan)");
        BakeJobOptions planOptions, jobOptions;
        planOptions.plan = true;
        auto* plan = bake->add_subcommand("plan", "List a tiled bake's tiles and their input keys (one JSON line each)");
        auto* job = bake->add_subcommand("job", "Bake tiles into a cache folder of tile documents, with a manifest");
        for (auto [cmd, o] : {std::pair{plan, &planOptions}, std::pair{job, &jobOptions}})
        {
            cmd->add_option("input", o->bake.input, "Level: .obj or .space3d.json")->required();
            cmd->add_option("--project", project, "Project folder every path is relative to");
            addBakeSettings(cmd, o->bake);
            cmd->add_option("--share", o->share, "Only the I-th of N equal runs of the tiles in tile order, as I/N");
        }
        plan->add_option("-o,--output", planOptions.bake.output, "Plan file to write (relative to the project)")->required();
        job->add_option("--cache", jobOptions.cache, "Folder of tile documents named by key (relative to the project)")
            ->required();
        job->add_option("--manifest", jobOptions.manifest, "Manifest file to write (default: stdout)");

        auto* view = app.add_subcommand("view", "Replay recordings in a browser: serve the viewer on 127.0.0.1, or write one page");
        ViewOptions viewOptions;
        view->add_option("input", viewOptions.input, "A recording (.rec.gz) or a folder of them")->required();
        view->add_option("--port", viewOptions.port, "Port on 127.0.0.1 (0: any free port)")->capture_default_str();
        view->add_option("--html", viewOptions.htmlOut, "Write a self-contained page (the recording inlined) to this file");

        auto* mcp = app.add_subcommand("mcp", "Serve every command as an MCP tool over stdio (JSON-RPC 2.0)");
        mcp->add_option("--project", project, "Project folder every path is relative to (must exist)");
        std::string mcpTools, mcpSession;
        mcp->add_option("--tools", mcpTools,
                        "Serve only the commands whose id or tool name starts with one of these comma-separated "
                        "prefixes, e.g. nav.,ai.");
        mcp->add_option("--session", mcpSession,
                        "Replay the commands logged in FILE first, then log every state-changing call (as spark call "
                        "--session)");

        try
        {
            app.parse(argc, argv);
        }
        catch (const CLI::ParseError& e)
        {
            const int code = app.exit(e);
            return code == 0 ? 0 : 2;
        }

        if (*call)
            return runCall(callId, callParams, project, asJson, sessionFile);
        if (*run)
            return runLines(runFile, project, recordFile);
        if (*commands)
            return runCommands(prefix, asJson);
        if (*schema)
            return runSchema(schemaId);
        if (*merge)
        {
            mergeOptions.projectRoot = project;
            if (mergeOptions.plan.empty() != mergeOptions.manifests.empty() ||
                (!mergeOptions.plan.empty() && !mergeOptions.inputs.empty()))
            {
                std::cerr << "spark bake merge: give tile documents, or --plan PLAN with --manifest FILE...\n";
                return 2;
            }
            return mergeOptions.plan.empty() ? runBakeMerge(mergeOptions) : runBakeMergeManifests(mergeOptions);
        }
        for (BakeJobOptions* o : {&planOptions, &jobOptions})
            if (*(o->plan ? plan : job))
            {
                o->bake.projectRoot = project;
                return runBakePlanOrJob(*o);
            }
        if (*bake)
        {
            if (bakeOptions.input.empty() || bakeOptions.output.empty())
            {
                std::cerr << "spark bake: give INPUT and -o OUT (or: spark bake merge IN... -o OUT)\n";
                return 2;
            }
            bakeOptions.projectRoot = project;
            return runBake(bakeOptions);
        }
        if (*view)
            return runView(viewOptions, std::cout, std::cerr);
        if (*mcp)
            return runMcp(project, mcpTools, mcpSession);
        if (*test)
        {
            testOptions.projectRoot = project;
            return runTests(testOptions, std::cout, std::cerr);
        }
        return 2;
    }
    catch (const std::exception& e)
    {
        std::cerr << "error E_INTERNAL: " << e.what() << "\n";
        return 1;
    }
    catch (...)
    {
        std::cerr << "error E_INTERNAL: unknown failure\n";
        return 1;
    }
}
