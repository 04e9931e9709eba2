// Several agent radii end to end through the real `spark` binary: nav.bake
// agent_radii names one mesh per radius, each the same as a bake of that
// radius alone; queries and agents pick one with mesh or mesh_radius; unknown
// radii and bad lists are coded errors with their JSON pointer and a hint;
// `spark bake --agent-radii` writes one document per radius.

#include "e2e_util.h"

#include <doctest/doctest.h>

#include <unistd.h>

namespace
{

std::string line(const std::string& command, const json& params)
{
    return json{{"command", command}, {"params", params}}.dump() + "\n";
}

const json kArena = {{"path", "samples/space3d/arena.space3d.json"}};

} // namespace

TEST_CASE("nav.bake agent_radii: one mesh per radius, each as baked alone; mesh_radius picks one")
{
    const json radii = {{"name", "lvl"}, {"agent_radii", {0.3, 0.6, 1.2}}};
    Run r = spark({"run", "-"},
                  line("space3d.load", kArena) + line("nav.bake", radii) +
                      line("nav.bake", {{"name", "solo"}, {"agent_radius", 0.6}}) +
                      line("nav.path", {{"mesh", "lvl"}, {"mesh_radius", 0.6}, {"from", {-8, 0.1, -8}}, {"to", {8, 0.1, 8}}}) +
                      line("nav.path", {{"mesh_radius", 1.2}, {"from", {-8, 0.1, -8}}, {"to", {8, 0.1, 8}}}) +
                      line("nav.path", {{"mesh_radius", 0.6}, {"from", {-8, 0.1, -8}}, {"to", {8, 0.1, 8}}}) +
                      line("nav.info", {{"mesh", "lvl"}, {"mesh_radius", 0.9}}) +
                      line("nav.agent.add", {{"mesh", "lvl@0.6"}, {"mesh_radius", 1.2}, {"position", {-8, 0.1, -8}}}) +
                      line("nav.bake", {{"name", "x"}, {"agent_radius", 0.3}, {"agent_radii", {0.3}}}) +
                      line("nav.bake", {{"name", "x"}, {"agent_radii", {0.3, 0.3}}}) +
                      line("nav.bake", {{"name", "x"}, {"agent_radii", {0.3, 30.0}}}) +
                      line("nav.list", json::object()) +
                      line("nav.bake", {{"name", "tiled"}, {"agent_radii", {0.3, 0.6}}, {"tile_size", 32}, {"threads", 2}}) +
                      line("nav.bake", {{"name", "tiled06"}, {"agent_radius", 0.6}, {"tile_size", 32}}));
    auto answers = answerLines(r.out);
    REQUIRE(answers.size() == 14);
    for (size_t i : {0, 1, 2, 3, 4, 7, 12, 13})
        REQUIRE_MESSAGE(answers[i]["ok"] == true, answers[i].dump());

    const json& baked = answers[1]["result"];
    REQUIRE(baked["meshes"].size() == 3);
    CHECK(baked["name"] == "lvl");
    CHECK(baked["meshes"][0]["name"] == "lvl");
    CHECK(baked["meshes"][1]["name"] == "lvl@0.6");
    CHECK(baked["meshes"][2]["name"] == "lvl@1.2");
    CHECK(baked["meshes"][2]["agent_radius"] == 1.2);
    CHECK(baked["meshes"][0]["hash"] == baked["hash"]);
    CHECK(baked["meshes"][1]["hash"] == answers[2]["result"]["hash"]); // as baked alone
    CHECK(baked["meshes"][0]["hash"] != baked["meshes"][1]["hash"]);

    CHECK(answers[3]["result"]["mesh"] == "lvl@0.6");
    CHECK(answers[4]["result"]["mesh"] == "lvl@1.2"); // the only mesh of that radius

    const json& several = answers[5]["error"]; // lvl@0.6 and solo both have 0.6
    CHECK(several["code"] == "E_NAV_NO_MESH");
    CHECK(several["data"]["path"] == "/mesh");

    const json& unknown = answers[6]["error"];
    CHECK(unknown["code"] == "E_NAV_NO_MESH");
    CHECK(unknown["data"]["path"] == "/mesh_radius");
    CHECK(unknown["data"]["radii"].size() == 3);
    CHECK(!unknown["hint"].get<std::string>().empty());

    CHECK(answers[7]["result"]["mesh"] == "lvl@1.2"); // "lvl@0.6" names the bake of lvl

    CHECK(answers[8]["error"]["code"] == "E_NAV_CONFIG");
    CHECK(answers[8]["error"]["data"]["path"] == "/agent_radii");
    CHECK(answers[9]["error"]["code"] == "E_NAV_CONFIG");
    CHECK(answers[9]["error"]["data"]["path"] == "/agent_radii/1");
    CHECK(!answers[9]["error"]["hint"].get<std::string>().empty());
    CHECK(answers[10]["error"]["code"] == "E_NAV_NO_GEOMETRY");
    CHECK(answers[10]["error"]["data"]["path"] == "/agent_radii/1");
    // The refused bakes made no mesh: lvl, lvl@0.6, lvl@1.2, solo.
    CHECK(answers[11]["result"]["meshes"].size() == 4);

    const json& tiled = answers[12]["result"];
    REQUIRE(tiled["meshes"].size() == 2);
    CHECK(tiled["meshes"][1]["name"] == "tiled@0.6");
    CHECK(tiled["meshes"][1]["hash"] == answers[13]["result"]["hash"]);
}

TEST_CASE("spark bake --agent-radii writes one document per radius, each as a bake of that radius alone")
{
    fs::create_directories("build/test-output/e2e");
    const std::string stem = "build/test-output/e2e/radii_" + std::to_string(::getpid());
    Run three = spark({"bake", "samples/space3d/arena.space3d.json", "-o", stem + ".navmesh.json", "--agent-radii",
                       "0.3,0.6,1.2"});
    REQUIRE_MESSAGE(three.exit == 0, three.err);
    Run alone = spark({"bake", "samples/space3d/arena.space3d.json", "-o", stem + "_alone.navmesh.json",
                       "--agent-radius", "1.2"});
    REQUIRE_MESSAGE(alone.exit == 0, alone.err);
    for (const char* tag : {"", "@0.6", "@1.2"})
        CHECK(fs::exists(stem + tag + ".navmesh.json"));
    const json big = parsed(slurp(stem + "@1.2.navmesh.json"));
    CHECK(big["hash"] == parsed(slurp(stem + "_alone.navmesh.json"))["hash"]);
    CHECK(big["settings"]["agent_radius"] == 1.2);
    CHECK(three.out.find(stem + "@0.6.navmesh.json: ") != std::string::npos);
    Run twice = spark({"bake", "samples/space3d/arena.space3d.json", "-o", stem + "_x.json", "--agent-radii", "0.3,0.3"});
    CHECK(twice.exit == 1);
    for (const char* tag : {"", "@0.6", "@1.2", "_alone"})
        fs::remove(stem + tag + ".navmesh.json");
}
