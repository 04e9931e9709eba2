// End-to-end: recordings through the real `spark` binary. `spark run --record`
// records every frame and drops those of a failed command; `ai.scenario.run
// {record}` names its recording, refuses a path outside the project and writes
// nothing when it fails; `spark test --record DIR` writes one file per test;
// `spark view` refuses what it cannot show, writes a page with the recording
// inlined, and serves on 127.0.0.1 only (the browser test, tests/viewer, drives
// the page).

#include "e2e_util.h"

#include "spark/scene/recording.h"

#include <unistd.h>

#include <string>

using namespace e2e;

namespace
{

// A recording file read back by the library.
spark::scene::RecordingReader readBack(const fs::path& file)
{
    const std::string bytes = slurp(file);
    auto reader = spark::scene::RecordingReader::read(bytes);
    REQUIRE(reader.ok());
    return std::move(reader).value();
}

std::string lines(std::initializer_list<json> requests)
{
    std::string out;
    for (const json& r : requests)
        out += r.dump() + "\n";
    return out;
}

const json kGuardSetUp[] = {
    {{"command", "space3d.load"}, {"params", {{"path", "samples/space3d/ragdoll-wall.space3d.json"}}}},
    {{"command", "nav.bake"}, {"params", {{"name", "arena"}, {"agent_radius", 0.4}, {"agent_height", 1.8}}}},
    {{"command", "ai.tree.load"}, {"params", {{"path", "samples/ai/guard.bt.json"}}}},
    {{"command", "space3d.spawn"},
     {"params",
      {{"name", "Guard"},
       {"components",
        {{"Transform3D", {{"position", {-12, 0.95, 6}}}},
         {"CharacterController", {{"height", 1.8}, {"radius", 0.4}}},
         {"AiAgent", {{"mesh", "arena"}, {"tree", "guard"}, {"blackboard", {{"target", "Player"}}}}}}}}}}};

} // namespace

TEST_CASE("spark run --record writes every frame stepped and drops those of a failed command")
{
    const fs::path file = fs::path(SPARK_SOURCE_DIR) / ("out/e2e-record-" + std::to_string(::getpid()) + ".rec.gz");
    std::string input;
    for (const json& r : kGuardSetUp)
        input += r.dump() + "\n";
    input += lines({{{"command", "ai.step"}, {"params", {{"frames", 10}}}},
                    // Fails after stepping 20 frames: they are undone, in the session and in the recording.
                    {{"command", "ai.until"},
                     {"params", {{"that", {{"distance", {{"from", "Guard"}, {"to", "Player"}, {"at_most", 0.01}}}}}, {"max_frames", 20}}}},
                    {{"command", "ai.step"}, {"params", {{"frames", 5}}}}});
    const Run r = e2e::spark({"run", "-", "--record", file.string()}, input);
    CHECK(r.exit == 1); // the failed ai.until
    CHECK(r.err.find("recorded 15 frames") != std::string::npos);
    spark::scene::RecordingReader reader = readBack(file);
    REQUIRE(reader.frameCount() == 15);
    CHECK(reader.frame(9)["frame"] == 10);
    CHECK(reader.frame(10)["frame"] == 11); // frame 11 again: the undone frames are gone
    CHECK(reader.frame(14)["frame"] == 15);
    CHECK(reader.frame(0)["m"][0]["name"] == "arena");
    CHECK(reader.frame(0)["m"][0]["doc"]["format"] == "spark.navmesh");
    reader.seek(14);
    REQUIRE(reader.agents().size() == 1);
    CHECK(reader.agents().begin()->second.name == "Guard");
    fs::remove(file);

    const Run bad = e2e::spark({"run", "-", "--record", "/proc/no/such/dir/x.rec.gz"}, lines({{{"command", "system.version"}}}));
    CHECK(bad.exit == 1);
    CHECK(bad.err.find("--record") != std::string::npos);
}

TEST_CASE("ai.scenario.run {record} names its recording; a path outside the project or a failed run writes nothing")
{
    const std::string rel = "out/e2e-scenario-" + std::to_string(::getpid()) + ".rec.gz";
    const Run r = e2e::spark({"call", "ai.scenario.run",
                         json{{"path", "samples/navigation/scenarios/guard-patrol-chase.ai-scenario.json"}, {"record", rel}}.dump(),
                         "--json"});
    REQUIRE(r.exit == 0);
    const json answer = parsed(r.out);
    const json recording = answer["result"]["recording"];
    CHECK(recording["path"] == rel);
    CHECK(recording["frames"] == 710);
    CHECK(recording["view"] == "spark view " + rel);
    CHECK(recording["resource"] == "spark://project/" + rel);
    const fs::path file = fs::path(SPARK_SOURCE_DIR) / rel;
    CHECK(recording["bytes"] == fs::file_size(file));
    spark::scene::RecordingReader reader = readBack(file);
    CHECK(reader.frameCount() == 710);
    size_t spotted = 0;
    reader.seek(709);
    for (const json& e : reader.events())
        spotted += e["kind"] == "spotted" ? 1 : 0;
    CHECK(spotted == 1);
    fs::remove(file);

    const Run outside = e2e::spark({"call", "ai.scenario.run",
                               json{{"path", "samples/navigation/scenarios/guard-patrol-chase.ai-scenario.json"},
                                    {"record", "../outside.rec.gz"}}.dump(),
                               "--json"});
    CHECK(outside.exit != 0);
    CHECK(parsed(outside.out)["error"]["code"] == "E_PATH");
    CHECK(parsed(outside.out)["error"]["data"]["path"] == "/record");

    const std::string failing = "out/e2e-failing-" + std::to_string(::getpid()) + ".rec.gz";
    const Run failed = e2e::spark({"call", "ai.scenario.run",
                              json{{"doc", {{"version", 1}, {"name", "fails"}, {"steps", json::array({
                                       {{"do", "space3d.load"}, {"path", "samples/space3d/ragdoll-wall.space3d.json"}},
                                       {{"do", "space3d.step"}, {"frames", 3}},
                                       {{"do", "system.version"}, {"expect", {{"version", "0.0.0-no"}}}}})}}},
                                   {"record", failing}}.dump(),
                              "--json"});
    CHECK(parsed(failed.out)["error"]["code"] == "E_SCENARIO_FAILED");
    CHECK_FALSE(fs::exists(fs::path(SPARK_SOURCE_DIR) / failing));
}

TEST_CASE("spark test --record DIR writes one recording per test; spark view shows them or says why not")
{
    const std::string dir = "out/e2e-test-record-" + std::to_string(::getpid());
    const Run r = e2e::spark({"test", "samples/navigation/guard.test.json", "--record", dir});
    REQUIRE(r.exit == 0);
    const fs::path root = fs::path(SPARK_SOURCE_DIR) / dir;
    CHECK(readBack(root / "guard-1.rec.gz").frameCount() == 710);
    CHECK(readBack(root / "guard-2.rec.gz").frameCount() > 0);
    CHECK(e2e::spark({"test", "samples/navigation/guard.test.json", "--record", "../elsewhere"}).exit == 2);

    // --html: one page, the recording inlined (base64), nothing fetched.
    const fs::path html = root / "guard.html";
    const Run page = e2e::spark({"view", "--html", html.string(), (root / "guard-1.rec.gz").string()});
    REQUIRE(page.exit == 0);
    CHECK(page.out.find("710 frames") != std::string::npos);
    const std::string text = slurp(html);
    CHECK(text.find("window.SPARK_RECORDING = {\"gzip_base64\":\"H4sI") != std::string::npos);
    CHECK(text.find("DecompressionStream") != std::string::npos);
    CHECK(text.find("http://") == std::string::npos);
    CHECK(text.find("https://") == std::string::npos);

    // What it cannot show.
    const Run missing = e2e::spark({"view", (root / "none.rec.gz").string()});
    CHECK(missing.exit == 1);
    CHECK(missing.err.find("E_IO") != std::string::npos);
    const Run notOne = e2e::spark({"view", "README.md"});
    CHECK(notOne.exit == 1);
    CHECK(notOne.err.find("E_RECORDING_FORMAT") != std::string::npos);
    const Run folderPage = e2e::spark({"view", "--html", html.string(), root.string()});
    CHECK(folderPage.exit == 2);
    const Run empty = e2e::spark({"view", "samples/ai"});
    CHECK(empty.exit == 1);
    CHECK(empty.err.find("no recordings") != std::string::npos);
    CHECK(e2e::spark({"view", (root / "guard-1.rec.gz").string(), "--port", "70000"}).exit == 2);
    fs::remove_all(root);
}
