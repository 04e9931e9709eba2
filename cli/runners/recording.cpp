// Recording runs from the command line (recording.h).

#include "runners/recording.h"

#include "commands/nav/nav_json.h"
#include "spark/core/path.h"

namespace spark::cli
{

std::unique_ptr<scene::RecordingWriter> makeRecordingWriter(std::string source)
{
    return std::make_unique<scene::RecordingWriter>([](const nav::NavMesh& mesh) { return navjson::meshToDocument(mesh); },
                                                    std::move(source));
}

Status writeRecordingFile(const scene::RecordingWriter& writer, const std::filesystem::path& path)
{
    const std::string bytes = writer.bytes();
    return writeBinaryFile(path, bytes.data(), bytes.size());
}

std::string recordingResourceUri(const std::string& relative)
{
    return "spark://project/" + relative;
}

RecordingScope::RecordingScope(scene::SessionState& state, scene::RecordingWriter& writer)
    : m_state(state), m_previous(state.frameObserver)
{
    state.observeFrames(&writer);
}

RecordingScope::~RecordingScope()
{
    m_state.observeFrames(m_previous);
}

} // namespace spark::cli
