// Utility AI: compiling documents and scoring actions. The score of an action
// is the product of its considerations, each compensated for their number with
// Dave Mark's make-up factor (s + (1 − s)(1 − 1/n)s, "Building a Better
// Centaur", GDC 2015) so that actions with many considerations are not
// punished for it, times the action's weight. A zero anywhere vetoes.
#include "spark/ai/leaf_registry.h"
#include "spark/core/det_math.h"
#include "spark/core/hash.h"

#include <algorithm>
#include <cmath>

namespace spark::ai
{

const char* sensorName(Sensor sensor)
{
    switch (sensor)
    {
    case Sensor::None: return "none";
    case Sensor::Speed: return "speed";
    case Sensor::PosX: return "pos_x";
    case Sensor::PosY: return "pos_y";
    case Sensor::PosZ: return "pos_z";
    case Sensor::Time: return "time";
    case Sensor::DistanceToTarget: return "distance_to_target";
    case Sensor::Count: break;
    }
    return "?";
}

const std::vector<std::string>& sensorNames()
{
    static const std::vector<std::string> kNames = {"speed", "pos_x", "pos_y", "pos_z", "time", "distance_to_target"};
    return kNames;
}

namespace
{

/// Where `x` lies in the range from `lo` to `hi` (lo != hi, either order), as
/// a fraction clamped to [0, 1]. Any finite numbers: a range as wide as
/// [-1e308, 1e308] has no finite length, so its ends are halved first (exact
/// for such large numbers); a reading outside the range never subtracts.
double normalizeInRange(double x, double lo, double hi)
{
    if (lo < hi ? x <= lo : x >= lo)
        return 0.0;
    if (lo < hi ? x >= hi : x <= hi)
        return 1.0;
    const double length = hi - lo;
    const double t = std::isfinite(length) ? (x - lo) / length : (x * 0.5 - lo * 0.5) / (hi * 0.5 - lo * 0.5);
    return t > 0.0 ? std::min(t, 1.0) : 0.0; // and 0 for a NaN reading
}

Curve compileCurve(const json& c)
{
    Curve curve;
    if (!c.is_object())
        return curve;
    const std::string type = c.value("type", std::string("linear"));
    for (int i = 0; i < static_cast<int>(CurveType::Count); ++i)
        if (type == curveTypeName(static_cast<CurveType>(i)))
            curve.type = static_cast<CurveType>(i);
    curve.slope = c.value("slope", curve.slope);
    curve.intercept = c.value("intercept", curve.intercept);
    curve.exponent = c.value("exponent", curve.exponent);
    curve.steepness = c.value("steepness", curve.steepness);
    curve.midpoint = c.value("midpoint", curve.midpoint);
    curve.threshold = c.value("threshold", curve.threshold);
    curve.edge0 = c.value("edge0", curve.edge0);
    curve.edge1 = c.value("edge1", curve.edge1);
    curve.value = c.value("value", curve.value);
    return curve;
}

} // namespace

Result<UtilityDoc> compileUtility(const json& doc, std::vector<Problem>* outProblems)
{
    return compileUtility(doc, builtinLeafRegistry(), outProblems);
}

Result<UtilityDoc> compileUtility(const json& doc, const LeafRegistry& leaves,
                                  std::vector<Problem>* outProblems)
{
    std::vector<Problem> problems = validateUtilityDoc(doc, leaves);
    if (!problems.empty())
    {
        const Problem first = problems.front();
        if (outProblems)
            *outProblems = std::move(problems);
        return makeError(first.code, first.message, first.path, first.hint);
    }
    UtilityDoc out;
    out.name = doc["name"].get<std::string>();
    out.selection = doc.value("selection", std::string("best")) == "weighted_random" ? Selection::WeightedRandom
                                                                                     : Selection::Best;
    out.inertia = doc.value("inertia", 0.0);
    out.compensation = doc.value("compensation", true);
    for (const json& a : doc["actions"])
    {
        UtilityAction action;
        action.name = a["name"].get<std::string>();
        action.weight = a.value("weight", 1.0);
        action.cooldown = a.value("cooldown", 0.0);
        const json& run = a["run"];
        action.run = makeLeafCall(leaves, leaves.indexOf(run["name"].get<std::string>()),
                                  run.contains("params") ? run["params"] : json::object());
        if (a.contains("considerations"))
            for (size_t j = 0; j < a["considerations"].size(); ++j)
            {
                const json& c = a["considerations"][j];
                Consideration con;
                con.name = c.value("name", "consideration " + std::to_string(j));
                const json& in = c["input"];
                if (in.contains("bb"))
                    con.bbKey = in["bb"].get<std::string>();
                else
                {
                    const std::string s = in["sensor"].get<std::string>();
                    for (int k = 1; k < static_cast<int>(Sensor::Count); ++k)
                        if (s == sensorName(static_cast<Sensor>(k)))
                            con.sensor = static_cast<Sensor>(k);
                }
                if (c.contains("range"))
                {
                    con.rangeMin = c["range"][0].get<double>();
                    con.rangeMax = c["range"][1].get<double>();
                }
                if (c.contains("curve"))
                    con.curve = compileCurve(c["curve"]);
                con.weight = c.value("weight", 1.0);
                action.considerations.push_back(std::move(con));
            }
        out.actions.push_back(std::move(action));
    }
    out.doc = doc;
    return out;
}

void hashUtility(Hasher& io, const UtilityDoc& doc)
{
    io.addString(doc.name);
    hashJson(io, doc.doc);
}

Result<UtilityEvaluation> evaluateUtility(const UtilityDoc& doc, const Blackboard& bb, const SensorReader& sensors,
                                          const UtilityMemory& memory, double time, Rng& rng)
{
    UtilityEvaluation out;
    out.actions.resize(doc.actions.size());
    for (size_t i = 0; i < doc.actions.size(); ++i)
    {
        const UtilityAction& action = doc.actions[i];
        ActionEvidence& ev = out.actions[i];
        ev.name = action.name;
        ev.considerations.resize(action.considerations.size());
        const double n = static_cast<double>(action.considerations.size());
        const double makeUp = n > 1 && doc.compensation ? 1.0 - 1.0 / n : 0.0;
        double product = 1.0;
        bool vetoed = action.weight <= 0;
        for (size_t j = 0; j < action.considerations.size(); ++j)
        {
            const Consideration& c = action.considerations[j];
            ConsiderationEvidence& ce = ev.considerations[j];
            ce.name = c.name;
            if (c.sensor == Sensor::None)
            {
                const Value* v = blackboardFind(bb, c.bbKey);
                auto field = [&] {
                    return "/actions/" + std::to_string(i) + "/considerations/" + std::to_string(j) + "/input/bb";
                };
                if (!v)
                    return makeError(kCodeParams, "blackboard key '" + c.bbKey + "' is missing", field(),
                                     "set it on the blackboard before the brain thinks");
                if (v->isBool())
                    ce.input = v->boolean() ? 1.0 : 0.0;
                else if (v->isNumber() && std::isfinite(v->number()))
                    ce.input = v->number();
                else
                    return makeError(kCodeParams, "blackboard key '" + c.bbKey + "' is not a number", field(),
                                     "expected a number (or a boolean)");
            }
            else
            {
                const Result<double> r = sensors.read(c.sensor);
                if (!r.ok())
                    return r.error();
                ce.input = *r;
            }
            ce.normalized = normalizeInRange(ce.input, c.rangeMin, c.rangeMax);
            ce.curve = evaluateCurve(c.curve, ce.normalized);
            ce.weighted = c.weight == 1.0 ? ce.curve : det::pow(ce.curve, c.weight);
            ce.compensated = ce.weighted + (1.0 - ce.weighted) * makeUp * ce.weighted;
            if (ce.compensated <= 0)
                vetoed = true;
            product *= ce.compensated;
        }
        ev.vetoed = vetoed;
        ev.blocked = i < memory.readyAt.size() && time < memory.readyAt[i];
        ev.score = vetoed || ev.blocked ? 0.0 : product * action.weight;
        if (ev.score > 0 && static_cast<int32_t>(i) == memory.last && doc.inertia > 0)
        {
            ev.score *= 1.0 + doc.inertia;
            ev.inertia = true;
        }
    }
    if (doc.selection == Selection::Best)
    {
        double best = 0;
        for (size_t i = 0; i < out.actions.size(); ++i)
            if (out.actions[i].score > best)
            {
                best = out.actions[i].score;
                out.choice = static_cast<int32_t>(i);
            }
    }
    else
    {
        double total = 0;
        for (const ActionEvidence& a : out.actions)
            total += a.score;
        if (total > 0)
        {
            const double r = rngNextDouble(rng) * total;
            double acc = 0;
            for (size_t i = 0; i < out.actions.size(); ++i)
            {
                if (out.actions[i].score <= 0)
                    continue;
                acc += out.actions[i].score;
                out.choice = static_cast<int32_t>(i);
                if (r < acc)
                    break;
            }
        }
    }
    return out;
}

} // namespace spark::ai
