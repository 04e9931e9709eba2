// Snapshots: their memory is bounded, they can be dropped, and they go with
// the scene (issue 42, "snapshots": 64 snapshots of a 100,000-object scene took
// 109 MB each until E_INTERNAL at #56). Scaled down: a 10,000-object scene
// under a lowered budget.

#include "surface/dispatcher.h"

#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

using namespace spark::cli;

namespace
{

/// A project folder holding `boxes.space3d.json`: `count` fixed boxes on a grid.
std::filesystem::path writeBoxesProject(int count)
{
    const auto dir = std::filesystem::temp_directory_path() / ("spark_snapshots_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    json objects = json::array();
    for (int i = 0; i < count; ++i)
        objects.push_back({{"name", "b" + std::to_string(i)},
                           {"components",
                            {{"Transform3D", {{"position", {i % 100, 0, i / 100}}}},
                             {"Body", {{"shape", {{"type", "box"}, {"half_extents", {0.4, 0.4, 0.4}}}}}}}}});
    std::ofstream(dir / "boxes.space3d.json") << json{{"version", 1}, {"objects", objects}}.dump();
    return dir;
}

} // namespace

TEST_CASE("snapshots stop at the memory budget with E_SCENE_LIMIT, drop frees one, new and load drop them all")
{
    const auto dir = writeBoxesProject(10000);
    DispatchOptions options;
    options.projectRoot = dir;
    options.checkResults = true; // results against their schemas; a failed command changes nothing
    Dispatcher d(options);
    spark::scene::SessionState state;
    REQUIRE(d.call(state, "space3d.load", {{"path", "boxes.space3d.json"}})["ok"] == true);

    json first = d.call(state, "space3d.snapshot.take", {{"name", "s0"}});
    REQUIRE(first["ok"] == true);
    const size_t bytes = first["result"]["bytes"].get<size_t>();
    // About a kilobyte an object (the document, its indexes and the document as loaded).
    CHECK(bytes > 10000u * 500u);
    CHECK(bytes < 10000u * 4000u);
    CHECK(first["result"]["kept_bytes"] == bytes);

    // Room for three: the fourth is refused with the figures, and nothing changes.
    d.options().snapshotByteBudget = 3 * bytes + bytes / 2;
    CHECK(d.call(state, "space3d.snapshot.take", {{"name", "s1"}})["ok"] == true);
    CHECK(d.call(state, "space3d.snapshot.take", {{"name", "s2"}})["result"]["kept_bytes"] == 3 * bytes);
    const uint64_t before = state.hash();
    json refused = d.call(state, "space3d.snapshot.take", {{"name", "s3"}});
    REQUIRE(refused["ok"] == false);
    CHECK(refused["error"]["code"] == "E_SCENE_LIMIT");
    CHECK(refused["error"]["data"]["path"] == "/name");
    CHECK(refused["error"]["data"]["kept_bytes"] == 3 * bytes);
    CHECK(refused["error"]["data"]["limit_bytes"] == 3 * bytes + bytes / 2);
    CHECK(refused["error"]["hint"].get<std::string>().find("space3d.snapshot.drop") != std::string::npos);
    CHECK(state.hash() == before);
    CHECK(state.snapshots.size() == 3);
    // Replacing a kept one fits (its old copy is not counted twice).
    CHECK(d.call(state, "space3d.snapshot.take", {{"name", "s2"}})["ok"] == true);

    // Dropping one makes room; a dropped snapshot is gone.
    json dropped = d.call(state, "space3d.snapshot.drop", {{"name", "s0"}});
    REQUIRE(dropped["ok"] == true);
    CHECK(dropped["result"]["snapshots"] == 2);
    CHECK(dropped["result"]["kept_bytes"] == 2 * bytes);
    CHECK(d.call(state, "space3d.snapshot.restore", {{"name", "s0"}})["error"]["code"] == "E_SCENE_UNKNOWN");
    json unknown = d.call(state, "space3d.snapshot.drop", {{"name", "s0"}});
    CHECK(unknown["error"]["code"] == "E_SCENE_UNKNOWN");
    CHECK(unknown["error"]["data"]["snapshots"] == json::array({"s1", "s2"}));
    CHECK(d.call(state, "space3d.snapshot.take", {{"name", "s3"}})["ok"] == true);
    CHECK(d.call(state, "space3d.snapshot.restore", {{"name", "s1"}})["ok"] == true);

    // A new scene, or a loaded one, starts without snapshots.
    REQUIRE(d.call(state, "space3d.new", json::object())["ok"] == true);
    CHECK(state.snapshots.empty());
    CHECK(d.call(state, "space3d.snapshot.restore", {{"name", "s1"}})["error"]["code"] == "E_SCENE_UNKNOWN");
    CHECK(d.call(state, "space3d.snapshot.take", {{"name", "empty"}})["ok"] == true);
    REQUIRE(d.call(state, "space3d.load", {{"path", "boxes.space3d.json"}})["ok"] == true);
    CHECK(state.snapshots.empty());
    std::filesystem::remove_all(dir);
}
