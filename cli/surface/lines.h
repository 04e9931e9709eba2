#pragma once
/// \file lines.h
/// Bounded reading of request text from streams (`spark run`, `spark mcp`,
/// `spark call ID -`): no line, and no whole input, can grow past its limit,
/// however long the input (a pipe from /dev/zero included).

#include <cstddef>
#include <istream>
#include <string>

namespace spark::cli
{

/// Longest request line. [Units: bytes]
inline constexpr size_t kMaxLineBytes = 64u * 1024u * 1024u;

/// What `readBoundedLine` found.
enum class LineRead
{
    Line,    ///< A line (without its '\n') is in `out`.
    TooLong, ///< The line was longer than the limit; it was consumed to its end and `out` is empty.
    End,     ///< The input has ended.
};

/// Reads one line of at most `maxBytes` bytes.
LineRead readBoundedLine(std::istream& in, std::string& out, size_t maxBytes = kMaxLineBytes);

/// Reads the whole input into `out`; false (and `out` empty) when it is longer than `maxBytes`.
bool readAllBounded(std::istream& in, std::string& out, size_t maxBytes = kMaxLineBytes);

} // namespace spark::cli
