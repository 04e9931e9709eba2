#pragma once
/// \file embedded.h
/// The files of `schemas/` embedded into the binary at build time, so `spark`
/// works from any folder. Names are paths relative to `schemas/`, e.g.
/// `commands/nav.path.schema.json` or `ai/behavior-tree.schema.json`.

#include <cstddef>
#include <string_view>

namespace spark::cli
{

struct EmbeddedFile
{
    const char* name;
    const char* text;
};

extern const EmbeddedFile kEmbeddedFiles[];
extern const size_t kEmbeddedFileCount;

/// The text of an embedded file, or an empty view when there is none.
std::string_view findEmbeddedFile(std::string_view name);

} // namespace spark::cli
