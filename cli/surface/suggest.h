#pragma once
/// \file suggest.h
/// "Did you mean": the nearest names by edit distance.

#include <string>
#include <string_view>
#include <vector>

namespace spark::cli
{

/// Levenshtein distance between two strings.
size_t editDistance(std::string_view a, std::string_view b);

/// Up to `count` candidates nearest to `name` (distance, then name), keeping only
/// plausible ones (distance at most a third of the name's length, at least 2),
/// candidates that start with `name`, and siblings in the same dotted namespace.
std::vector<std::string> nearestNames(std::string_view name, const std::vector<std::string>& candidates,
                                      size_t count = 3);

} // namespace spark::cli
