// End-to-end: the "unbounded work and memory" reproducers of issue 42, through
// the real binary, each answering in bounded time (a timeout kills it: exit
// 124) and memory (the peak resident size of the children).

#include "e2e_util.h"

using namespace e2e;

namespace
{

/// Bound on the resident size of any spark run here (ASan builds included). [Units: MiB]
constexpr long kBoundsPeakMiB = 1500;

const fs::path kBoundsScratch = fs::path("build/test-output/bounds");

/// Writes a file under the scratch folder; returns its project-relative path.
std::string boundsFile(const std::string& name, const std::string& content)
{
    fs::create_directories(fs::path(SPARK_SOURCE_DIR) / kBoundsScratch);
    std::ofstream(fs::path(SPARK_SOURCE_DIR) / kBoundsScratch / name, std::ios::binary) << content;
    return (kBoundsScratch / name).string();
}

/// The fan-out: 16 scenario files of 8 steps, each step running the next
/// file (no cycle): 8^15 runs without a budget. Returns the first file.
std::string writeFanOutFiles()
{
    for (int level = 0; level < 16; ++level)
    {
        json steps = json::array();
        for (int i = 0; i < 8; ++i)
            steps.push_back(level < 15 ? json{{"do", "ai.scenario.run"},
                                              {"path", (kBoundsScratch / ("fan" + std::to_string(level + 1) + ".scenario.json")).string()}}
                                       : json{{"do", "system.version"}});
        boundsFile("fan" + std::to_string(level) + ".scenario.json", json{{"version", 1}, {"steps", steps}}.dump());
    }
    return (kBoundsScratch / "fan0.scenario.json").string();
}

} // namespace

TEST_CASE("a fan-out of scenarios is E_SCENARIO_LIMIT through spark call, spark test and MCP")
{
    const std::string fan0 = writeFanOutFiles();
    const json params = {{"path", fan0}};

    Run call = spark({"call", "ai.scenario.run", params.dump(), "--json"}, "", 120);
    REQUIRE(call.exit == 1);
    const json e = parsed(call.out)["error"];
    CHECK(e["code"] == "E_SCENARIO_LIMIT");
    CHECK(e["data"]["path"] == "/path");
    CHECK(e["data"]["limit"] == 10000);
    CHECK(e["data"]["chain"].size() == 16);
    CHECK_FALSE(e["hint"].get<std::string>().empty());

    const std::string tests = boundsFile("fan.test.json", json{{"version", 1},
                                                              {"name", "fan"},
                                                              {"tests", {{{"name", "fan-out"}, {"scenario", fan0}}}}}
                                                            .dump());
    Run test = spark({"test", tests}, "", 120);
    CHECK(test.exit == 1);
    CHECK(test.out.find("E_SCENARIO_LIMIT") != std::string::npos);
    CHECK(test.out.find("0 passed, 1 failed") != std::string::npos);

    const json rpc = {{"jsonrpc", "2.0"},
                      {"id", 1},
                      {"method", "tools/call"},
                      {"params", {{"name", "ai_scenario_run"}, {"arguments", params}}}};
    Run mcp = spark({"mcp"}, rpc.dump() + "\n" + R"({"jsonrpc": "2.0", "id": 2, "method": "ping"})" + "\n", 120);
    auto answers = answerLines(mcp.out);
    REQUIRE(answers.size() == 2);
    CHECK(answers[0]["result"]["isError"] == true);
    CHECK(parsed(answers[0]["result"]["content"][0]["text"].get<std::string>())["error"]["code"] == "E_SCENARIO_LIMIT");
    CHECK(answers[1]["result"] == json::object());
    CHECK(peakChildMiB() < kBoundsPeakMiB);
}
