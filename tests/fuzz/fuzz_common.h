#pragma once
/// \file fuzz_common.h
/// Shared by the libFuzzer targets in tests/fuzz: a scratch project directory
/// (so no command can write into the repository), a dispatcher on it, and the
/// oracle that turns an `E_INTERNAL` answer ("a bug; never on purpose",
/// docs/surface.md) into a crash libFuzzer records.

#include "surface/dispatcher.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace spark::fuzz
{

/// The bytes libFuzzer hands a target, as text.
inline std::string_view asText(const uint8_t* data, size_t size)
{
    return {reinterpret_cast<const char*>(data), size};
}

/// A scratch project directory made once per process under the temporary
/// directory, holding copies of the small sample files (samples/ai, scene2d,
/// space3d, scenarios; tests/scenarios; goldens) at their repository paths, so
/// requests naming them reach the loaders. Removed at exit.
class ScratchProject
{
public:
    /// The process's scratch project (made on first use).
    static ScratchProject& get();

    const std::filesystem::path& root() const { return m_root; }

    /// Brings the directory back to its first contents when an input changed
    /// it (a command wrote, overwrote or a file appeared: inotify tells), so
    /// every input runs against the same files and findings reproduce alone.
    void restore();

    /// Takes the directory as it is now as unchanged (after a target wrote its
    /// own input file into it).
    void ignoreChanges() { drainEvents(); }

    ~ScratchProject();

private:
    ScratchProject();
    void populate();
    /// Reads every pending inotify event; true when there was any.
    bool drainEvents();

    std::filesystem::path m_root;
    int m_inotify = -1; ///< Watches every directory of the project for changes.
};

/// A dispatcher on the scratch project that checks results against their
/// schemas and that failed mutating commands leave the state hash unchanged
/// (`DispatchOptions::checkResults`, as `spark test` runs).
cli::Dispatcher& dispatcher();

/// Aborts (a libFuzzer finding) when `envelope` is an `E_INTERNAL` error, or
/// holds one in a scenario report (steps[].error, nested E_SCENARIO_FAILED data).
void checkEnvelope(const cli::json& envelope, std::string_view what);

/// Prints `why` and the answer, then aborts.
[[noreturn]] void finding(std::string_view why, std::string_view detail);

} // namespace spark::fuzz
