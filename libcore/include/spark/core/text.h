#pragma once
/// \file text.h
/// Text safety: the checks every JSON text passes before it is parsed (size,
/// UTF-8, nesting depth — one linear pass, no recursion), and the escaping of
/// any input quoted in a message, so no answer can fail to serialise.

#include "spark/core/result.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "spark/core/export.h"
SPARK_CORE_API_BEGIN

namespace spark
{

/// Deepest nesting of arrays and objects accepted in a JSON text.
inline constexpr uint32_t kMaxJsonDepth = 256;

/// Limits of `checkJsonText`.
struct JsonTextLimits
{
    size_t maxBytes = 256u * 1024u * 1024u; ///< Largest text. [Units: bytes]
    uint32_t maxDepth = kMaxJsonDepth;      ///< Deepest nesting of `[` / `{`.
};

/// The defaults: 256 MiB, depth 256.
JsonTextLimits defaultJsonTextLimits();

/// Checks, in one pass without recursion, that `text` is valid UTF-8 (no
/// overlong forms, surrogates or code points past U+10FFFF), no longer than
/// `limits.maxBytes`, and nests `[`/`{` (outside strings) no deeper than
/// `limits.maxDepth`. It does not check the JSON grammar: the parser does that
/// afterwards, safely, on a bounded text. Errors: `E_FORMAT` with the byte
/// offset in the message (`field` empty; callers set theirs).
Status checkJsonText(std::string_view text, const JsonTextLimits& limits = defaultJsonTextLimits());

/// True when `text` is valid UTF-8.
bool isValidUtf8(std::string_view text);

/// `text` with every byte that is not part of valid UTF-8 written as `\xHH`
/// and control characters other than tab as `\xHH`, cut to `maxBytes` (then
/// "…"): safe to quote in any message.
std::string escapeText(std::string_view text, size_t maxBytes = 200);

} // namespace spark
SPARK_CORE_API_END
