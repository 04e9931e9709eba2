#pragma once
/// \file validate.h
/// Exhaustive validation of behaviour-tree and utility documents: every problem
/// is reported, each with a code (docs/ai.md), a message, the JSON pointer of the
/// offending field and a hint (the nearest known name, the expected type).

#include "spark/ai/value_json.h"

#include <string>
#include <string_view>
#include <vector>

#include "spark/core/export.h"
SPARK_AI_API_BEGIN

namespace spark::ai
{

/// Validation codes (docs/ai.md).
inline constexpr const char* kCodeSchema = "E_AI_SCHEMA";
inline constexpr const char* kCodeUnknownNode = "E_AI_UNKNOWN_NODE";
inline constexpr const char* kCodeUnknownSubtree = "E_AI_UNKNOWN_SUBTREE";
inline constexpr const char* kCodeCycle = "E_AI_CYCLE";
inline constexpr const char* kCodeUnknownLeaf = "E_AI_UNKNOWN_LEAF";
inline constexpr const char* kCodeParams = "E_AI_PARAMS";
inline constexpr const char* kCodeBadCurve = "E_AI_BAD_CURVE";
inline constexpr const char* kCodeLimit = "E_AI_LIMIT";
inline constexpr const char* kCodeUnknown = "E_AI_UNKNOWN";

/// Limits of a behaviour tree after subtree inlining.
inline constexpr size_t kMaxTreeNodes = 2048; ///< Nodes after inlining.
inline constexpr size_t kMaxTreeDepth = 48;   ///< Levels (the root is level 1).

/// One problem found in a document.
struct Problem
{
    std::string code;    ///< E_AI_* code.
    std::string message; ///< One sentence.
    std::string path;    ///< JSON pointer into the document ("" = the whole document).
    std::string hint;    ///< Suggested fix, or empty.
};

class LeafRegistry;

/// Every problem of a behaviour-tree document (empty when it is valid); leaves
/// are the built-in ones.
std::vector<Problem> validateTreeDoc(const json& doc);
/// Every problem of a behaviour-tree document whose leaves may be any of `leaves`.
std::vector<Problem> validateTreeDoc(const json& doc, const LeafRegistry& leaves);
/// Every problem of a utility document (empty when it is valid); leaves are the built-in ones.
std::vector<Problem> validateUtilityDoc(const json& doc);
/// Every problem of a utility document whose leaves may be any of `leaves`.
std::vector<Problem> validateUtilityDoc(const json& doc, const LeafRegistry& leaves);
/// Every problem of the `{name, params}` of a built-in leaf at `path` (appended
/// to `io`). `wantKind` restricts the leaf kind: "action", "condition" or "" for either.
void validateLeafCall(const json& name, const json* params, std::string_view path, std::string_view wantKind,
                      std::vector<Problem>& io);
/// As above, for a leaf of `leaves` (built-in or registered).
void validateLeafCall(const json& name, const json* params, std::string_view path, std::string_view wantKind,
                      const LeafRegistry& leaves, std::vector<Problem>& io);

/// Levenshtein distance between two names.
size_t editDistance(std::string_view a, std::string_view b);
/// The candidate nearest to `name` by edit distance (ties: first), or "" when
/// no candidate is within max(2, |name|/2) edits.
std::string nearestName(std::string_view name, const std::vector<std::string>& candidates);
/// Appends one segment to a JSON pointer, escaping `~` and `/`.
std::string pointerJoin(std::string_view base, std::string_view segment);

} // namespace spark::ai
SPARK_AI_API_END
