// End-to-end: answers that must say the right thing (the hardening issue's
// messages and exit codes), through the real binary.

#include "e2e_util.h"

using namespace e2e;

namespace
{

const fs::path kAnswersScratch = fs::path("build/test-output/answers");

/// Writes a file under the scratch folder (relative to the project) and returns its project-relative path.
std::string answersFile(const std::string& name, const std::string& content)
{
    fs::create_directories(fs::path(SPARK_SOURCE_DIR) / kAnswersScratch);
    std::ofstream(fs::path(SPARK_SOURCE_DIR) / kAnswersScratch / name, std::ios::binary) << content;
    return (kAnswersScratch / name).string();
}

std::string requestLine(const std::string& command, const json& params)
{
    return json{{"command", command}, {"params", params}}.dump() + "\n";
}

} // namespace

TEST_CASE("an OBJ with a vertex at 1e38 bakes to E_NAV_LIMIT with a message in metres, not a wrapped cell count")
{
    const std::string obj = answersFile("far.obj", "v 0 0 0\nv 10 0 0\nv 10 0 10\nv 0 0 10\nv 1e38 0 0\n"
                                                   "f 1 3 2\nf 1 4 3\nf 1 2 5\n");
    Run r = spark({"bake", obj, "-o", (kAnswersScratch / "far.navmesh.json").string(), "--project", SPARK_SOURCE_DIR});
    CHECK(r.exit == 1);
    CHECK(r.err.find("E_NAV_LIMIT") != std::string::npos);
    CHECK(r.err.find("1e+38 m from the origin") != std::string::npos);
    CHECK(r.err.find("-9223372036854775808") == std::string::npos);
    CHECK_FALSE(fs::exists(fs::path(SPARK_SOURCE_DIR) / kAnswersScratch / "far.navmesh.json"));
}

TEST_CASE("a missing model: the bake error gives the cause alone; allowed, the approximation says it became a box")
{
    const json pillar = {{"name", "Pillar"},
                         {"components",
                          {{"Transform3D", {{"position", {2, 0, 2}}}},
                           {"Model", {{"path", "samples/space3d/models/none.obj"}}},
                           {"Body", {{"kind", "fixed"}, {"shape", {{"type", "trimesh"}}}}}}}};
    const json floor = {{"name", "Floor"},
                        {"components",
                         {{"Transform3D", {{"position", {0, -0.5, 0}}}},
                          {"Body", {{"kind", "fixed"}, {"shape", {{"type", "box"}, {"half_extents", {6, 0.5, 6}}}}}}}}};
    Run r = spark({"run", "-"}, requestLine("space3d.new", json::object()) + requestLine("space3d.spawn", floor) +
                                    requestLine("space3d.spawn", pillar) + requestLine("nav.bake", json::object()) +
                                    requestLine("nav.bake", {{"allow_approximations", true}}));
    auto answers = answerLines(r.out);
    REQUIRE(answers.size() == 5);
    const json& refused = answers[3]["error"];
    const std::string message = refused.value("message", "");
    CHECK(message.find("cannot be baked: model \"samples/space3d/models/none.obj\" could not be loaded") !=
          std::string::npos);
    CHECK(message.find("unit box") == std::string::npos); // it was not baked
    CHECK(refused["hint"].get<std::string>().find("allow_approximations") != std::string::npos);
    REQUIRE(answers[4]["ok"] == true);
    const json& approximations = answers[4]["result"]["stats"]["approximations"];
    REQUIRE(approximations.size() == 1);
    CHECK(approximations[0]["message"].get<std::string>().ends_with("; baked as a unit box"));
}

TEST_CASE("E_NAV_FORMAT's hint names where the error carries the bad field (data.field in a file, data.path inline)")
{
    const json doc = {{"format", "spark-navmesh"}, {"version", 1}, {"vertices", "no"}};
    const std::string file = answersFile("bad.navmesh.json", doc.dump());
    Run r = spark({"run", "-"}, requestLine("nav.import", {{"name", "bad"}, {"path", file}}) +
                                    requestLine("nav.import", {{"name", "bad"}, {"document", doc}}));
    auto answers = answerLines(r.out);
    REQUIRE(answers.size() == 2);
    const json& fromFile = answers[0]["error"];
    CHECK(fromFile["code"] == "E_NAV_FORMAT");
    CHECK(fromFile["data"]["field"] == "/dimensions");
    CHECK(fromFile["data"]["file"] == file);
    const std::string hint = fromFile["hint"].get<std::string>();
    CHECK(hint.starts_with("data.field points at the bad field of the navmesh file data.file"));
    const json& inline_ = answers[1]["error"];
    CHECK(inline_["code"] == "E_NAV_FORMAT");
    CHECK(inline_["data"]["path"] == "/document/dimensions");
    CHECK(inline_["hint"].get<std::string>().find("inline, data.path points at it") != std::string::npos);
}

TEST_CASE("spark test --junit refuses a link out of the project with a non-zero exit and writes nothing")
{
    const fs::path project = fs::path(SPARK_SOURCE_DIR);
    fs::create_directories(project / kAnswersScratch);
    const fs::path outside = fs::temp_directory_path() / ("spark_e2e_junit_" + std::to_string(::getpid()) + ".xml");
    const fs::path link = project / kAnswersScratch / "d.xml";
    fs::remove(outside);
    fs::remove(link);
    fs::create_symlink(outside, link);
    Run r = spark({"test", "tests/cli/data/passing", "--junit", (kAnswersScratch / "d.xml").string(), "--project",
                   SPARK_SOURCE_DIR});
    CHECK(r.exit == 2);
    CHECK(r.err.find("E_PATH") != std::string::npos);
    CHECK_FALSE(fs::exists(outside));
    // A plain report path still works, and passing tests exit 0.
    fs::remove(link);
    Run ok = spark({"test", "tests/cli/data/passing", "--junit", (kAnswersScratch / "report.xml").string(), "--project",
                    SPARK_SOURCE_DIR});
    CHECK(ok.exit == 0);
    const std::string xml = slurp(project / kAnswersScratch / "report.xml");
    CHECK(xml.find("errors=\"0\"") != std::string::npos);
}
