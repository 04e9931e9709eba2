// Utility AI: curves, scoring, selection, and a utility brain in the fake world.
#include "../rig.h"
#include "spark/core/det_math.h"

#include <cmath>
#include <fstream>
#include <sstream>

using namespace spark;
using namespace spark::ai;
using namespace spark::ai::test;

namespace
{
/// Sensors given as numbers.
class FixedSensors final : public SensorReader
{
public:
    std::map<Sensor, double> values;
    Result<double> read(Sensor s) const override
    {
        auto it = values.find(s);
        if (it == values.end())
            return makeError("E_AI_PARAMS", "no sensor value");
        return it->second;
    }
};

json loadJson(const char* path)
{
    std::ifstream in(path);
    REQUIRE(in.good());
    return json::parse(in);
}

UtilityDoc compile(const std::string& text)
{
    std::vector<Problem> problems;
    auto doc = compileUtility(json::parse(text), &problems);
    for (const Problem& p : problems)
        MESSAGE(p.code << " " << p.path << " " << p.message);
    REQUIRE(doc.ok());
    return doc.value();
}

Curve curve(CurveType type)
{
    Curve c;
    c.type = type;
    return c;
}
} // namespace

TEST_CASE("curves map 0..1 to 0..1 with their parameters")
{
    Curve lin = curve(CurveType::Linear);
    lin.slope = 2;
    lin.intercept = -0.5;
    CHECK(evaluateCurve(lin, 0.5) == 0.5);
    CHECK(evaluateCurve(lin, 0.1) == 0.0); // clamped
    CHECK(evaluateCurve(lin, 2.0) == 1.0); // x clamped, then y clamped
    Curve pw = curve(CurveType::Power);
    pw.exponent = 2;
    CHECK(evaluateCurve(pw, 0.5) == doctest::Approx(0.25));
    CHECK(evaluateCurve(pw, 0.0) == 0.0);
    Curve lg = curve(CurveType::Logistic);
    CHECK(evaluateCurve(lg, 0.5) == doctest::Approx(0.5));
    CHECK(evaluateCurve(lg, 1.0) > 0.99);
    CHECK(evaluateCurve(lg, 0.0) < 0.01);
    Curve st = curve(CurveType::Step);
    st.threshold = 0.3;
    CHECK(evaluateCurve(st, 0.29) == 0.0);
    CHECK(evaluateCurve(st, 0.3) == 1.0);
    Curve sm = curve(CurveType::Smoothstep);
    CHECK(evaluateCurve(sm, 0.5) == 0.5);
    CHECK(evaluateCurve(sm, 0.25) == doctest::Approx(0.15625));
    CHECK(evaluateCurve(curve(CurveType::Inverse), 0.2) == doctest::Approx(0.8));
    Curve k = curve(CurveType::Constant);
    k.value = 0.7;
    CHECK(evaluateCurve(k, 0.0) == 0.7);
}

TEST_CASE("an action's score is the compensated product of its considerations times its weight")
{
    const UtilityDoc doc = compile(R"({"version": 1, "name": "u", "actions": [
        {"name": "a", "weight": 2, "run": {"name": "stop"}, "considerations": [
          {"name": "x", "input": {"bb": "x"}, "range": [0, 10]},
          {"name": "y", "input": {"bb": "y"}, "range": [0, 10]}]}]})");
    FixedSensors sensors;
    Rng rng = rngFromSeed(1);
    auto eval = evaluateUtility(doc, {{"x", 5}, {"y", 8}}, sensors, UtilityMemory{}, 0, rng);
    REQUIRE(eval.ok());
    const ActionEvidence& a = eval->actions[0];
    REQUIRE(a.considerations.size() == 2);
    CHECK(a.considerations[0].input == 5);
    CHECK(a.considerations[0].normalized == 0.5);
    // Compensation for n = 2: s + (1 - s)(1 - 1/2)s.
    CHECK(a.considerations[0].compensated == doctest::Approx(0.5 + 0.5 * 0.5 * 0.5));
    CHECK(a.considerations[1].compensated == doctest::Approx(0.8 + 0.2 * 0.5 * 0.8));
    CHECK(a.score == doctest::Approx(0.625 * 0.88 * 2));
    CHECK(eval->choice == 0);
}

TEST_CASE("a zero consideration vetoes the action and nothing is chosen when all are vetoed")
{
    const UtilityDoc doc = compile(R"({"version": 1, "name": "u", "actions": [
        {"name": "a", "run": {"name": "stop"}, "considerations": [
          {"input": {"bb": "x"}, "range": [0, 10], "curve": {"type": "step", "threshold": 0.5}},
          {"input": {"bb": "y"}, "range": [0, 10]}]}]})");
    FixedSensors sensors;
    Rng rng;
    auto eval = evaluateUtility(doc, {{"x", 1}, {"y", 10}}, sensors, UtilityMemory{}, 0, rng);
    REQUIRE(eval.ok());
    CHECK(eval->actions[0].vetoed);
    CHECK(eval->actions[0].score == 0);
    CHECK(eval->choice == -1);
}

TEST_CASE("consideration weight is an exponent and a reversed range counts down")
{
    const UtilityDoc doc = compile(R"({"version": 1, "name": "u", "compensation": false, "actions": [
        {"name": "a", "run": {"name": "stop"}, "considerations": [
          {"input": {"bb": "x"}, "range": [10, 0], "weight": 2}]}]})");
    FixedSensors sensors;
    Rng rng;
    auto eval = evaluateUtility(doc, {{"x", 2}}, sensors, UtilityMemory{}, 0, rng);
    REQUIRE(eval.ok());
    CHECK(eval->actions[0].considerations[0].normalized == doctest::Approx(0.8));
    CHECK(eval->actions[0].score == doctest::Approx(0.64));
}

TEST_CASE("a range as wide as [-1e308, 1e308] normalises without overflow, either way round")
{
    for (const char* range : {"[-1e308, 1e308]", "[1e308, -1e308]"})
    {
        CAPTURE(range);
        const bool reversed = range[1] == '1';
        const UtilityDoc doc = compile(std::string(R"({"version": 1, "name": "u", "actions": [
            {"name": "a", "run": {"name": "stop"}, "considerations": [{"input": {"bb": "x"}, "range": )") +
                                       range + "}]}]}");
        FixedSensors sensors;
        Rng rng;
        const std::pair<double, double> cases[] = {{0, 0.5}, {1e308, 1}, {-1e308, 0}, {-1.7e308, 0}, {5e307, 0.75}};
        for (const auto& c : cases)
        {
            // Plain names, not a structured binding: clang 14 cannot capture one in CAPTURE's lambda.
            const double x = c.first, expected = c.second;
            CAPTURE(x);
            auto eval = evaluateUtility(doc, {{"x", x}}, sensors, UtilityMemory{}, 0, rng);
            REQUIRE(eval.ok());
            const double normalized = eval->actions[0].considerations[0].normalized;
            CHECK(std::isfinite(eval->actions[0].score));
            CHECK(normalized == doctest::Approx(reversed ? 1.0 - expected : expected));
        }
    }
}

TEST_CASE("inertia favours the last choice and cooldown blocks an action")
{
    const UtilityDoc doc = compile(R"({"version": 1, "name": "u", "inertia": 0.25, "actions": [
        {"name": "a", "cooldown": 1, "run": {"name": "stop"}, "considerations": [{"input": {"bb": "a"}}]},
        {"name": "b", "run": {"name": "stop"}, "considerations": [{"input": {"bb": "b"}}]}]})");
    FixedSensors sensors;
    Rng rng;
    const Blackboard bb = {{"a", 0.5}, {"b", 0.6}};
    UtilityMemory mem;
    auto plain = evaluateUtility(doc, bb, sensors, mem, 0, rng);
    REQUIRE(plain.ok());
    CHECK(plain->choice == 1);
    mem.last = 0;
    auto sticky = evaluateUtility(doc, bb, sensors, mem, 0, rng);
    CHECK(sticky->choice == 0); // 0.5 * 1.25 > 0.6
    CHECK(sticky->actions[0].inertia);
    mem.readyAt = {2.0, 0.0};
    auto blocked = evaluateUtility(doc, bb, sensors, mem, 1.5, rng);
    CHECK(blocked->actions[0].blocked);
    CHECK(blocked->choice == 1);
    auto ready = evaluateUtility(doc, bb, sensors, mem, 2.0, rng);
    CHECK(ready->choice == 0);
}

TEST_CASE("weighted_random picks in proportion to the scores, the same way for the same seed")
{
    const UtilityDoc doc = compile(R"({"version": 1, "name": "u", "selection": "weighted_random", "actions": [
        {"name": "a", "weight": 1, "run": {"name": "stop"}},
        {"name": "b", "weight": 3, "run": {"name": "stop"}},
        {"name": "c", "weight": 0, "run": {"name": "stop"}}]})");
    FixedSensors sensors;
    auto draw = [&](uint64_t seed) {
        Rng rng = rngFromSeed(seed);
        std::vector<int> counts(3, 0), order;
        for (int i = 0; i < 4000; ++i)
        {
            auto e = evaluateUtility(doc, Blackboard(), sensors, UtilityMemory{}, 0, rng);
            REQUIRE(e.ok());
            counts[static_cast<size_t>(e->choice)] += 1;
            order.push_back(e->choice);
        }
        return std::make_pair(counts, order);
    };
    const auto [counts, order] = draw(5);
    CHECK(counts[2] == 0);
    CHECK(counts[1] > 2 * counts[0]);
    CHECK(counts[1] < 4 * counts[0]);
    CHECK(draw(5).second == order);
    CHECK(draw(6).second != order);
}

TEST_CASE("a missing or non-numeric blackboard input and an unreadable sensor are coded errors")
{
    const UtilityDoc doc = compile(R"({"version": 1, "name": "u", "actions": [
        {"name": "a", "run": {"name": "stop"}, "considerations": [{"input": {"bb": "x"}}, {"input": {"sensor": "speed"}}]}]})");
    FixedSensors sensors;
    Rng rng;
    auto missing = evaluateUtility(doc, Blackboard(), sensors, UtilityMemory{}, 0, rng);
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().code == "E_AI_PARAMS");
    CHECK(missing.error().field == "/actions/0/considerations/0/input/bb");
    auto text = evaluateUtility(doc, {{"x", "high"}}, sensors, UtilityMemory{}, 0, rng);
    CHECK(text.error().code == "E_AI_PARAMS");
    auto noSensor = evaluateUtility(doc, {{"x", 1}}, sensors, UtilityMemory{}, 0, rng);
    CHECK_FALSE(noSensor.ok());
    sensors.values[Sensor::Speed] = 1;
    CHECK(evaluateUtility(doc, {{"x", true}}, sensors, UtilityMemory{}, 0, rng).ok());
}

TEST_CASE("the rest-patrol-flee sample rests when tired and safe, flees when hurt and threatened, else patrols")
{
    auto doc = compileUtility(loadJson("samples/ai/rest-patrol-flee.utility.json"));
    REQUIRE(doc.ok());
    FixedSensors sensors;
    Rng rng;
    auto choose = [&](double fatigue, double health, double distance) {
        sensors.values[Sensor::DistanceToTarget] = distance;
        auto e = evaluateUtility(*doc, {{"fatigue", fatigue}, {"health", health}}, sensors, UtilityMemory{}, 0, rng);
        REQUIRE(e.ok());
        REQUIRE(e->choice >= 0);
        return doc->actions[static_cast<size_t>(e->choice)].name;
    };
    CHECK(choose(10, 100, 20) == "patrol");
    CHECK(choose(90, 100, 20) == "rest");
    CHECK(choose(30, 20, 1.5) == "flee");
    CHECK(choose(90, 20, 1.0) == "flee");
}

namespace
{
/// Agent A with a brain running samples/ai/rest-patrol-flee (rested, healthy,
/// its enemy far away), attached at frame 0; `outDef` is the brain's def.
void attachRestPatrolFlee(AiState& state, FakeWorld& world, BrainDef& outDef)
{
    auto doc = compileUtility(loadJson("samples/ai/rest-patrol-flee.utility.json"));
    REQUIRE(doc.ok());
    putUtility(state, doc.value());
    world.agents["A"] = FakeAgent{};
    world.objects["Enemy"] = Vec3(30, 0, 30);
    outDef = defaultBrainDef();
    outDef.agent = "A";
    outDef.agentKey = world.keyOf("A");
    outDef.utility = "rest-patrol-flee";
    outDef.blackboard = {{"fatigue", 10}, {"health", 100}, {"target", "Enemy"}, {"safe_spot", Value::list({-20, 0, 0})}};
    REQUIRE(attachBrain(state, outDef, 0).ok());
}
} // namespace

TEST_CASE("a utility brain runs the chosen action's leaf and switches, halting the old one")
{
    AiState state;
    FakeWorld world;
    BrainDef def;
    attachRestPatrolFlee(state, world, def);
    Brain& brain = *state.brains.findBrain("A");
    for (uint64_t f = 0; f < 5; ++f)
    {
        REQUIRE(tickBrain(state, brain, world, TickClock{f, 0.1}).ok());
        world.step(0.1);
    }
    CHECK(brain.status == NodeStatus::Running);
    CHECK(world.agent("A").state == MoveState::Moving); // patrolling
    const int stops = world.agent("A").stops;
    world.objects["Enemy"] = world.agent("A").position + Vec3(1, 0, 0);
    brain.blackboard["health"] = 10;
    REQUIRE(tickBrain(state, brain, world, TickClock{5, 0.1}).ok());
    CHECK(world.agent("A").stops == stops + 1); // patrol halted
    CHECK(world.agent("A").target == Vec3(-20, 0, 0)); // fleeing to the safe spot
    int utilityEvents = 0;
    for (const AiEvent& e : state.events.events)
        utilityEvents += e.kind == "utility";
    CHECK(utilityEvents == 2);
    CHECK(state.events.events.back().kind != "error");
    // A tree can run the same document through a utility node.
    auto tree = compileTree(json::parse(R"({"version": 1, "name": "t", "root": {"type": "utility", "utility": "rest-patrol-flee"}})"));
    REQUIRE(tree.ok());
    putTree(state, tree.value());
    def.agent = "A";
    def.utility.clear();
    def.tree = "t";
    REQUIRE(attachBrain(state, def, 6).ok());
    REQUIRE(tickBrain(state, *state.brains.findBrain("A"), world, TickClock{6, 0.1}).ok());
    CHECK(state.brains.findBrain("A")->status == NodeStatus::Running);
}

TEST_CASE("a copied utility brain runs its own one-node tree, not the original's")
{
    AiState state;
    FakeWorld world;
    BrainDef def;
    attachRestPatrolFlee(state, world, def);
    Brain& brain = *state.brains.findBrain("A");
    REQUIRE(tickBrain(state, brain, world, TickClock{0, 0.1}).ok());
    CHECK(brain.resolved.tree == &brain.utilityTree);
    // The copy's resolution points at the original's tree until its first
    // tick, which must take its own (the original may be gone by then).
    auto copy = std::make_unique<Brain>(brain);
    state.brains.erase("A");
    REQUIRE(tickBrain(state, *copy, world, TickClock{1, 0.1}).ok());
    CHECK(copy->resolved.tree == &copy->utilityTree);
    CHECK(copy->status == NodeStatus::Running);
}
