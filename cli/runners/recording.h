#pragma once
/// \file recording.h
/// Recording runs from the command line (`spark run --record FILE`, `spark test
/// --record DIR`, `ai.scenario.run {record}`): a `scene::RecordingWriter` whose
/// meshes are `nav.export` documents, installed on a session for as long as a
/// `RecordingScope` lives.

#include "spark/core/result.h"
#include "spark/scene/recording.h"
#include "spark/scene/session_state.h"

#include <filesystem>
#include <memory>
#include <string>

namespace spark::cli
{

/// A writer whose meshes are written as `nav.export` documents.
std::unique_ptr<scene::RecordingWriter> makeRecordingWriter(std::string source);

/// Writes `writer`'s recording (gzip) to `path`.
[[nodiscard]] Status writeRecordingFile(const scene::RecordingWriter& writer, const std::filesystem::path& path);

/// Suffix of recording files (`spark test --record`, `spark view DIR`, MCP resources).
inline constexpr const char* kRecordingSuffix = ".rec.gz";
/// Folders (besides the MCP resource folders) whose recordings `spark mcp` lists as resources.
inline constexpr const char* kRecordingFolders[] = {"recordings", "out"};
/// The MCP resource URI of a recording at `relative` (inside the project).
std::string recordingResourceUri(const std::string& relative);

/// Records the frames `state` steps while it lives, then gives the session back
/// the observer it had.
class RecordingScope
{
public:
    RecordingScope(scene::SessionState& state, scene::RecordingWriter& writer);
    ~RecordingScope();
    RecordingScope(const RecordingScope&) = delete;
    RecordingScope& operator=(const RecordingScope&) = delete;

private:
    scene::SessionState& m_state;
    scene::FrameObserver* m_previous;
};

} // namespace spark::cli
