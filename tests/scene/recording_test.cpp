// scene::RecordingWriter and RecordingReader (recording.cpp): a crowd
// on a square is recorded frame by frame through SessionState's frame hook; the
// reader replays it back to the agents' quantized state at every frame; frames
// store only changes; a rollback drops the undone frames; the text is pinned;
// damaged input is refused with a coded error.

#include "spark/scene/recording.h"

#include "spark/core/hash.h"
#include "spark/scene/session_state.h"

#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace spark;
using namespace spark::scene;

namespace
{

// A 20 m square, one polygon.
std::shared_ptr<const nav::NavMesh> squareMesh()
{
    nav::PolySoup soup;
    soup.vertices = {{0.0f, 0.0f, 0.0f}, {20.0f, 0.0f, 0.0f}, {20.0f, 0.0f, 20.0f}, {0.0f, 0.0f, 20.0f}};
    soup.indices = {0, 1, 2, 3};
    soup.polyStarts = {0, 4};
    soup.areas = {0};
    Result<nav::NavMesh> mesh = nav::buildNavMesh(soup, nav::defaultNavMeshDef());
    REQUIRE(mesh.ok());
    return std::make_shared<const nav::NavMesh>(std::move(mesh).value());
}

// The mesh's document as the recording stores it (the CLI gives nav.export's; a test needs only its size).
json meshSummary(const nav::NavMesh& mesh)
{
    return {{"polygons", mesh.polygonCount()}};
}

struct Run
{
    SessionState state;
    std::vector<nav::AgentId> agents;
};

// Three agents crossing the square towards each other's corners.
void setUp(Run& run)
{
    nav::MeshDef def = nav::defaultMeshDef();
    def.name = "square";
    def.mesh = squareMesh();
    Result<nav::MeshId> mesh = run.state.world.nav().putMesh(std::move(def));
    REQUIRE(mesh.ok());
    const glm::vec3 starts[] = {{2, 0, 2}, {18, 0, 2}, {10, 0, 18}};
    const glm::vec3 goals[] = {{18, 0, 18}, {2, 0, 18}, {10, 0, 2}};
    for (int i = 0; i < 3; ++i)
    {
        nav::CrowdAgentDef a = nav::defaultCrowdAgentDef();
        a.position = starts[i];
        Result<nav::AgentId> id = run.state.world.nav().addAgent(mesh.value(), a);
        REQUIRE(id.ok());
        REQUIRE(run.state.world.nav().setAgentTarget(id.value(), goals[i]).ok());
        run.agents.push_back(id.value());
    }
}

// Steps the world `frames` times by 1/60 s.
void step(Run& run, uint32_t frames)
{
    (void)run.state.world.stepFrames(frames, 1.0 / 60.0);
}

// The text of the first `frames` frames of the crossing, recorded.
std::string recorded(uint32_t frames)
{
    Run run;
    setUp(run);
    RecordingWriter writer(meshSummary, "test");
    run.state.observeFrames(&writer);
    step(run, frames);
    run.state.observeFrames(nullptr);
    return writer.text();
}

int64_t milli(float v)
{
    return static_cast<int64_t>(std::llround(static_cast<double>(v) * 1000.0));
}

int64_t centi(float v)
{
    return static_cast<int64_t>(std::llround(static_cast<double>(v) / 10.0 * 1000.0));
}

} // namespace

TEST_CASE("a recorded crowd replays to every frame's positions, velocities and states")
{
    Run run;
    setUp(run);
    RecordingWriter writer(meshSummary, "test");
    run.state.observeFrames(&writer);
    std::vector<std::map<uint64_t, std::array<int64_t, 6>>> expected;
    for (int f = 0; f < 600; ++f)
    {
        step(run, 1);
        std::map<uint64_t, std::array<int64_t, 6>> now;
        for (nav::AgentId id : run.agents)
        {
            const nav::CrowdAgent* a = run.state.world.nav().agent(id);
            now[handleNumber(id)] = {milli(a->position.x), milli(a->position.y), milli(a->position.z),
                                     centi(a->velocity.x), centi(a->velocity.y), centi(a->velocity.z)};
        }
        expected.push_back(now);
    }
    run.state.observeFrames(nullptr);
    REQUIRE(writer.frameCount() == 600);

    Result<RecordingReader> reader = RecordingReader::read(writer.bytes());
    REQUIRE(reader.ok());
    CHECK(reader->header()["format"] == "spark-recording");
    CHECK(reader->header()["version"] == 1);
    REQUIRE(reader->frameCount() == 600);
    CHECK(reader->frame(0)["m"][0]["name"] == "square");
    // Forwards, then back again (seek replays from the start).
    for (size_t f : {size_t{0}, size_t{1}, size_t{57}, size_t{200}, size_t{599}, size_t{3}})
    {
        CAPTURE(f);
        reader->seek(f);
        REQUIRE(reader->agents().size() == 3);
        for (const auto& [num, want] : expected[f])
        {
            const ReplayAgent& got = reader->agents().at(num);
            CHECK(got.p[0] == want[0]);
            CHECK(got.p[1] == want[1]);
            CHECK(got.p[2] == want[2]);
            CHECK(got.v[0] == want[3]);
            CHECK(got.v[2] == want[5]);
        }
    }
    reader->seek(599);
    for (const auto& [num, agent] : reader->agents())
        CHECK(agent.state == "arrived");
}

TEST_CASE("an agent's reason is recorded when it changes and replayed")
{
    Run run;
    setUp(run);
    // A fourth agent with a target and no speed: no_path for the reason zero_speed.
    nav::CrowdAgentDef still = nav::defaultCrowdAgentDef();
    still.position = {10, 0, 10};
    still.maxSpeed = 0.0f;
    const nav::MeshId mesh = run.state.world.nav().findMesh("square");
    Result<nav::AgentId> id = run.state.world.nav().addAgent(mesh, still);
    REQUIRE(id.ok());
    REQUIRE(run.state.world.nav().setAgentTarget(id.value(), {12, 0, 12}).ok());
    RecordingWriter writer(meshSummary, "test");
    run.state.observeFrames(&writer);
    step(run, 3);
    run.state.observeFrames(nullptr);
    REQUIRE(run.state.world.nav().agent(id.value())->reason == nav::AgentReason::ZeroSpeed);

    Result<RecordingReader> reader = RecordingReader::read(writer.bytes());
    REQUIRE(reader.ok());
    reader->seek(2);
    const ReplayAgent& got = reader->agents().at(handleNumber(id.value()));
    CHECK(got.state == "no_path");
    CHECK(got.reason == "zero_speed");
    // Written once, on the frame it first held: the walkers' reason stays none and is never written.
    size_t written = 0;
    for (size_t f = 0; f < reader->frameCount(); ++f)
        written += reader->frame(f).contains("why") ? reader->frame(f)["why"].size() / 2 : 0;
    CHECK(written == 1);
    for (nav::AgentId walker : run.agents)
        CHECK(reader->agents().at(handleNumber(walker)).reason == "none");
}

TEST_CASE("frames store changes: agents at rest and steady walkers cost nothing")
{
    Result<RecordingReader> reader = RecordingReader::read(recorded(600));
    REQUIRE(reader.ok());
    // The mesh is written once; the last frames (everyone arrived) hold nothing but their numbers.
    size_t meshFrames = 0;
    for (size_t f = 0; f < reader->frameCount(); ++f)
        meshFrames += reader->frame(f).contains("m") ? 1 : 0;
    CHECK(meshFrames == 1);
    CHECK(reader->frame(599).dump() == R"({"f":599,"frame":600})");
    // At full speed across open ground most frames store no motion at all.
    size_t groups = 0;
    for (size_t f = 0; f < reader->frameCount(); ++f)
        groups += reader->frame(f).contains("a") ? reader->frame(f)["a"].size() / 9 : 0;
    MESSAGE("agent motion groups: ", groups, " of ", 3 * 600, " agent-frames");
    CHECK(groups < 1100); // first differences would store every moving agent-frame (about 1,260)
}

TEST_CASE("a rollback drops the frames of a failed command and the recording goes on from the mark")
{
    Run run;
    setUp(run);
    RecordingWriter writer(meshSummary, "test");
    run.state.observeFrames(&writer);
    step(run, 10);
    const SessionSnapshot saved = run.state.save();
    const RecordingWriter::Mark mark = writer.mark();
    step(run, 50);
    CHECK(writer.frameCount() == 60);
    run.state.restore(saved);
    writer.rollback(mark);
    CHECK(writer.frameCount() == 10);
    step(run, 5);
    run.state.observeFrames(nullptr);

    // The same run without the undone frames writes the same text.
    CHECK(writer.text() == recorded(15));
}

TEST_CASE("a recording's text is pinned and its gzip bytes are the same every run")
{
    const std::string text = recorded(300);
    const uint64_t hash = hashBytes(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
    CHECK(hash == 0x23cdcbfa659f76e3ull);
    CHECK(gzipBytes(text) == gzipBytes(text));
    Result<std::string> back = gunzipBytes(gzipBytes(text));
    REQUIRE(back.ok());
    CHECK(back.value() == text);
}

TEST_CASE("the reader refuses what is not a recording, a newer version and damaged gzip")
{
    auto code = [](std::string_view bytes) {
        Result<RecordingReader> r = RecordingReader::read(bytes);
        return r.ok() ? std::string("ok") : r.error().code + " " + r.error().field;
    };
    CHECK(code("") == "E_RECORDING_FORMAT /lines/0");
    CHECK(code("not json\n") == "E_RECORDING_FORMAT /lines/0");
    CHECK(code(R"({"format":"other","version":1})") == "E_RECORDING_FORMAT /lines/0/format");
    CHECK(code(R"({"format":"spark-recording"})") == "E_RECORDING_FORMAT /lines/0/version");
    CHECK(code(R"({"format":"spark-recording","version":2})") == "E_RECORDING_VERSION /lines/0/version");
    CHECK(code("{\"format\":\"spark-recording\",\"version\":1}\n{\"f\":1}\n") == "E_RECORDING_FORMAT /lines/1/f");
    CHECK(code("{\"format\":\"spark-recording\",\"version\":1}\n{\"f\":0,\"a\":[1,2]}\n") == "E_RECORDING_FORMAT /lines/1/a");
    CHECK(code("{\"format\":\"spark-recording\",\"version\":1}\n{\"f\":0,\"a\":{}}\n") == "E_RECORDING_FORMAT /lines/1/a");
    CHECK(code("{\"format\":\"spark-recording\",\"version\":1}\n{\"f\":0}\n") == "ok");
    const std::string zipped = gzipBytes("{\"format\":\"spark-recording\",\"version\":1}\n");
    CHECK(code(zipped) == "ok");
    CHECK(code(zipped.substr(0, zipped.size() / 2)).rfind("E_RECORDING_FORMAT", 0) == 0);
    std::string flipped = zipped;
    flipped[12] = static_cast<char>(flipped[12] ^ 0x55);
    CHECK(code(flipped).rfind("E_RECORDING_FORMAT", 0) == 0);
    Result<std::string> big = gunzipBytes(gzipBytes(std::string(100000, 'x')), 1000);
    REQUIRE_FALSE(big.ok());
    CHECK(big.error().code == "E_RECORDING_FORMAT");
}
