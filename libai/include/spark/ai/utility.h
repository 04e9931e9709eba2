#pragma once
/// \file utility.h
/// Utility AI: actions scored by considerations. A consideration reads an input
/// (a blackboard number or a sensor), maps it from its range to 0..1, passes it
/// through a response curve and a weight; an action's score is the product of
/// its considerations with the compensation factor, times the action's weight.
/// A zero vetoes the action. Selection is `best` or seeded `weighted_random`,
/// with inertia towards the last choice and per-action cooldowns.

#include "spark/ai/leaves.h"
#include "spark/ai/tree.h"
#include "spark/ai/validate.h"
#include "spark/core/result.h"
#include "spark/core/rng.h"

#include <cstdint>
#include <string>
#include <vector>

#include "spark/core/export.h"
SPARK_AI_API_BEGIN

namespace spark::ai
{

/// Response curve types.
enum class CurveType : uint8_t
{
    Linear,     ///< y = slope·x + intercept.
    Power,      ///< y = x^exponent. [exponent > 0]
    Logistic,   ///< y = 1 / (1 + e^(−steepness·(x − midpoint))). [steepness ≠ 0]
    Step,       ///< y = x >= threshold ? 1 : 0. [threshold in 0..1]
    Smoothstep, ///< t = (x − edge0)/(edge1 − edge0) clamped, y = t²(3 − 2t). [edge0 < edge1]
    Inverse,    ///< y = 1 − x.
    Constant,   ///< y = value. [value in 0..1]
    Count
};

/// "linear", "power", ...
const char* curveTypeName(CurveType type);
/// Every curve name.
const std::vector<std::string>& curveTypeNames();

/// A response curve with its parameters (unused ones keep their defaults).
struct Curve
{
    CurveType type = CurveType::Linear;
    double slope = 1;      ///< linear.
    double intercept = 0;  ///< linear.
    double exponent = 2;   ///< power. [Limit: > 0]
    double steepness = 10; ///< logistic. [Limit: != 0]
    double midpoint = 0.5; ///< logistic.
    double threshold = 0.5;///< step. [Limit: 0..1]
    double edge0 = 0;      ///< smoothstep. [Limit: < edge1]
    double edge1 = 1;      ///< smoothstep.
    double value = 1;      ///< constant. [Limit: 0..1]
};

/// The curve at `x` (x in 0..1), clamped to 0..1.
double evaluateCurve(const Curve& curve, double x);

/// Sensors a consideration may read.
enum class Sensor : uint8_t
{
    None, ///< Not a sensor: a blackboard number.
    Speed,
    PosX,
    PosY,
    PosZ,
    Time,
    DistanceToTarget,
    Count
};

/// "speed", "pos_x", ...
const char* sensorName(Sensor sensor);
/// Every sensor name.
const std::vector<std::string>& sensorNames();

/// One consideration.
struct Consideration
{
    std::string name;         ///< Label in the evidence.
    Sensor sensor = Sensor::None;
    std::string bbKey;        ///< Blackboard key when `sensor == None`.
    double rangeMin = 0;      ///< Input mapped to 0 here.
    double rangeMax = 1;      ///< Input mapped to 1 here (may be < rangeMin: reversed).
    Curve curve;
    double weight = 1;        ///< Exponent on the curve output. [Limit: >= 0]
};

/// One utility action.
struct UtilityAction
{
    std::string name;
    double weight = 1;        ///< Multiplies the score. [Limit: >= 0]
    double cooldown = 0;      ///< Seconds the action is blocked after it ends. [Units: s] [Limit: >= 0]
    std::vector<Consideration> considerations;
    LeafCall run;             ///< The leaf run while the action is chosen.
};

/// How the choice is made among scored actions.
enum class Selection : uint8_t
{
    Best,           ///< Highest score; ties go to the first action.
    WeightedRandom, ///< Probability proportional to the score (seeded).
};

/// A compiled utility document.
struct UtilityDoc
{
    std::string name;
    Selection selection = Selection::Best;
    double inertia = 0;       ///< The last choice's score is multiplied by (1 + inertia). [Limit: >= 0]
    bool compensation = true; ///< Apply the compensation factor for the number of considerations.
    std::vector<UtilityAction> actions;
    json doc;                 ///< The source document.
};

/// Validates and compiles a utility document (errors as in `compileTree`).
Result<UtilityDoc> compileUtility(const json& doc, std::vector<Problem>* outProblems = nullptr);
/// Validates and compiles a utility document whose actions may run any leaf of `leaves`.
Result<UtilityDoc> compileUtility(const json& doc, const LeafRegistry& leaves,
                                  std::vector<Problem>* outProblems = nullptr);
/// Feeds a utility document canonically into `io`.
void hashUtility(Hasher& io, const UtilityDoc& doc);

/// Where sensor readings come from (the brain's world, or given numbers).
class SensorReader
{
public:
    virtual ~SensorReader() = default;
    /// The sensor's current value; an error when it cannot be read.
    virtual Result<double> read(Sensor sensor) const = 0;
};

/// What one consideration contributed.
struct ConsiderationEvidence
{
    std::string name;
    double input = 0;       ///< Raw input value.
    double normalized = 0;  ///< Input mapped from the range to 0..1 (clamped).
    double curve = 0;       ///< Curve output.
    double weighted = 0;    ///< After the weight.
    double compensated = 0; ///< After the compensation factor (the factor in the product).
};

/// What one action scored.
struct ActionEvidence
{
    std::string name;
    double score = 0;       ///< Final score (after weight and inertia; 0 when vetoed or blocked).
    bool vetoed = false;    ///< A consideration (or the weight) was 0.
    bool blocked = false;   ///< In cooldown.
    bool inertia = false;   ///< Boosted as the last choice.
    std::vector<ConsiderationEvidence> considerations;
};

/// A whole evaluation.
struct UtilityEvaluation
{
    int32_t choice = -1;    ///< Chosen action index, -1 when every action is vetoed or blocked.
    std::vector<ActionEvidence> actions;
};

/// The per-user memory of a utility document (one per brain and utility node).
struct UtilityMemory
{
    int32_t last = -1;            ///< Last chosen action (inertia).
    int32_t running = -1;         ///< Action whose leaf is running, -1 none.
    std::vector<double> readyAt;  ///< Per action: end of its cooldown. [Units: s]
    NodeState leaf;               ///< State of the running action's leaf.
};

/// Scores every action and chooses one. `rng` is used by weighted_random only.
/// `time` is the simulation time (cooldowns). Errors: a blackboard input that is
/// missing or not a number (E_AI_PARAMS), a sensor that cannot be read.
Result<UtilityEvaluation> evaluateUtility(const UtilityDoc& doc, const Blackboard& bb, const SensorReader& sensors,
                                          const UtilityMemory& memory, double time, Rng& rng);

} // namespace spark::ai
SPARK_AI_API_END
