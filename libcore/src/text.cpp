// Text safety: UTF-8 and nesting checks before parsing, escaping for messages.
//
// UTF-8 is checked by the table of well-formed byte sequences of the Unicode
// standard (§3.9, table 3-7): the first byte fixes the length and the range of
// the second byte, which excludes overlong forms, surrogates and values past
// U+10FFFF.

#include "spark/core/text.h"

namespace spark
{
namespace
{

/// Length of the well-formed UTF-8 sequence starting at `i`, or 0.
size_t utf8SequenceAt(std::string_view s, size_t i)
{
    const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = b(i);
    if (c < 0x80)
        return 1;
    size_t len = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2;
    else if (c == 0xE0)
        len = 3, lo = 0xA0;
    else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF)
        len = 3;
    else if (c == 0xED)
        len = 3, hi = 0x9F;
    else if (c == 0xF0)
        len = 4, lo = 0x90;
    else if (c >= 0xF1 && c <= 0xF3)
        len = 4;
    else if (c == 0xF4)
        len = 4, hi = 0x8F;
    else
        return 0;
    if (i + len > s.size())
        return 0;
    if (b(i + 1) < lo || b(i + 1) > hi)
        return 0;
    for (size_t k = 2; k < len; ++k)
        if (b(i + k) < 0x80 || b(i + k) > 0xBF)
            return 0;
    return len;
}

} // namespace

JsonTextLimits defaultJsonTextLimits()
{
    return JsonTextLimits{};
}

bool isValidUtf8(std::string_view text)
{
    for (size_t i = 0; i < text.size();)
    {
        const size_t n = utf8SequenceAt(text, i);
        if (n == 0)
            return false;
        i += n;
    }
    return true;
}

Status checkJsonText(std::string_view text, const JsonTextLimits& limits)
{
    if (text.size() > limits.maxBytes)
        return makeError("E_FORMAT", "the text is larger than the limit of " + std::to_string(limits.maxBytes) + " bytes");
    uint32_t depth = 0;
    bool inString = false;
    for (size_t i = 0; i < text.size();)
    {
        const char c = text[i];
        if (static_cast<unsigned char>(c) >= 0x80)
        {
            const size_t n = utf8SequenceAt(text, i);
            if (n == 0)
                return makeError("E_FORMAT", "the text is not valid UTF-8 (byte " + std::to_string(i) + ")", {},
                                 "save the text as UTF-8");
            i += n;
            continue;
        }
        if (inString)
        {
            if (c == '\\')
                i += 2; // skip the escaped character (an escape never hides a quote otherwise)
            else
            {
                if (c == '"')
                    inString = false;
                ++i;
            }
            continue;
        }
        if (c == '"')
            inString = true;
        else if (c == '[' || c == '{')
        {
            if (++depth > limits.maxDepth)
                return makeError("E_FORMAT",
                                 "the text nests deeper than " + std::to_string(limits.maxDepth) + " levels (byte " +
                                     std::to_string(i) + ")",
                                 {}, "flatten the document");
        }
        else if ((c == ']' || c == '}') && depth > 0)
            --depth;
        ++i;
    }
    return Status::success();
}

std::string escapeText(std::string_view text, size_t maxBytes)
{
    static const char* const kHex = "0123456789ABCDEF";
    std::string out;
    out.reserve(text.size() < maxBytes ? text.size() : maxBytes);
    for (size_t i = 0; i < text.size();)
    {
        if (out.size() >= maxBytes)
        {
            out += "…";
            break;
        }
        const unsigned char c = static_cast<unsigned char>(text[i]);
        const size_t n = utf8SequenceAt(text, i);
        if (n == 0 || (c < 0x20 && c != '\t') || c == 0x7F)
        {
            out += "\\x";
            out += kHex[c >> 4];
            out += kHex[c & 15];
            ++i;
            continue;
        }
        out.append(text.substr(i, n));
        i += n;
    }
    return out;
}

} // namespace spark
