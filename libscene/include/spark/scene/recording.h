#pragma once
/// \file recording.h
/// Recordings of a run: what the meshes, obstacles, links, crowd agents, moving
/// scene objects and brains did, frame by frame, for `spark view` to replay.
///
/// The format (docs/recording.md has the full description) is a gzip stream of
/// JSON lines: a header line `{"format": "spark-recording", "version": 1, ...}`
/// then one line per recorded frame. A frame stores only what changed since the
/// frame before it: new and gone agents, the agents whose position, velocity or
/// heading moved off their prediction, state changes, corners and corridors that
/// changed, mesh documents when a mesh changed, the obstacle and link lists when
/// they changed, brains' node statuses and blackboard keys that changed, and the
/// AI events recorded in the frame. Numbers are integers (millimetres, cm/s,
/// thousandths of a unit heading) so the text is the same on every machine; the
/// mesh documents are `nav.export` documents, exact.
///
/// A `RecordingWriter` is a `FrameObserver`: a step loop calls `frameStepped`
/// once per frame. The command boundary marks the writer before a command and
/// rolls it back when the command fails (its frames were undone with it).

#include "spark/ai/brain.h"
#include "spark/core/result.h"
#include "spark/nav/nav_world.h"
#include "spark/scene/ai_host.h"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "spark/core/export.h"
SPARK_SCENE_API_BEGIN

namespace spark::scene
{

class World;
using json = nlohmann::json;

/// Name of the format in a recording's header line.
inline constexpr const char* kRecordingFormat = "spark-recording";
/// Version this library writes and reads.
inline constexpr int kRecordingVersion = 1;
/// Most frames one recording holds (then the writer stops adding and says so). [Limit]
inline constexpr size_t kMaxRecordingFrames = 1'000'000;
/// Largest recording read (compressed and inflated each). [Units: bytes]
inline constexpr size_t kMaxRecordingBytes = size_t{2} << 30;

/// One frame as the step loop ends it.
struct FrameView
{
    const nav::NavWorld& nav;  ///< The navigation world stepped.
    const ai::AiState& ai;     ///< Its brains.
    const HostAgents& agents;  ///< The named agents brains drive.
    const World* world;        ///< The 3D world when it is one (its moving objects), else null.
    uint64_t frame;            ///< The frame number after the step.
    double dt;                 ///< The step. [Units: s]
};

/// Told about every frame a step loop ends.
class FrameObserver
{
public:
    virtual ~FrameObserver() = default;
    /// Called once after each frame, with the state as it ends.
    virtual void frameStepped(const FrameView& view) = 0;
};

/// Turns a mesh into the document a recording stores (`nav.export`'s); given by
/// the host, which owns the JSON form of meshes.
using MeshDocumentFn = std::function<json(const nav::NavMesh& mesh)>;

/// Writes a recording (see the file comment).
class RecordingWriter final : public FrameObserver
{
public:
    /// A writer whose meshes are written by `meshDocument`; `source` names the
    /// run in the header (a file, a test).
    RecordingWriter(MeshDocumentFn meshDocument, std::string source);

    void frameStepped(const FrameView& view) override;

    /// A point to roll back to (the frames so far and what they describe).
    struct Mark
    {
        size_t frames = 0; ///< Frames recorded at the mark.
    };
    /// Marks the writer before a command.
    Mark mark();
    /// Drops the frames after `m` (a failed command undid them).
    void rollback(const Mark& m);

    /// Frames recorded.
    size_t frameCount() const { return m_lines.size(); }
    /// The recording's text (header and frame lines), uncompressed.
    std::string text() const;
    /// The recording as written to a file: `text()` gzip-compressed.
    std::string bytes() const;

private:
    struct AgentTrack
    {
        int64_t p[3]{}, v[3]{}, h[2]{}; // last written, quantized
        int64_t d[3]{};                  // last displacement (position prediction)
        std::string state;
        std::string reason = "none";
        std::vector<int64_t> corners;
        std::vector<uint32_t> corridor;
    };
    struct ObjectTrack
    {
        int64_t p[3]{}, d[3]{};
    };
    struct BrainTrack
    {
        std::string tree;
        std::string statuses;
        std::map<std::string, std::string, std::less<>> blackboard; // key -> compact JSON
    };
    /// What the frames written so far describe (diffed against).
    struct Tracked
    {
        std::map<uint64_t, AgentTrack> agents;          // by agent number
        std::map<std::string, ObjectTrack, std::less<>> objects;
        std::map<std::string, std::string, std::less<>> meshKeys; // name -> identity
        std::string obstacles, links;
        std::map<std::string, uint64_t, std::less<>> trees; // tree name -> revision written
        std::map<std::string, BrainTrack, std::less<>> brains;
        uint64_t nextEventSeq = 0;
        int64_t frame = -1;
    };

    MeshDocumentFn m_meshDocument;
    std::string m_source;
    double m_dt = 1.0 / 60.0;
    std::vector<std::string> m_lines;
    Tracked m_tracked;
    std::vector<std::pair<size_t, Tracked>> m_marks; // frames at a mark -> what they described
};

/// Gzip of `data` (zlib, level 6, no name, time 0: the same bytes for the same input).
std::string gzipBytes(std::string_view data);
/// The data of a gzip stream; `E_RECORDING_FORMAT` when it is not one, or
/// inflates past `maxBytes`.
[[nodiscard]] Result<std::string> gunzipBytes(std::string_view data, size_t maxBytes = kMaxRecordingBytes);

/// One agent as a replayed frame has it (integers as stored: mm, cm/s, heading / 1000).
struct ReplayAgent
{
    std::string name;                ///< Its brain's agent name ("" for a crowd agent without one).
    double radius = 0.0;             ///< [Units: m]
    int64_t p[3]{}, v[3]{}, h[2]{};  ///< Position (mm), velocity (cm/s), heading x, z (/ 1000).
    std::string state;               ///< idle, moving, arrived, no_path, off_mesh.
    std::string reason = "none";     ///< Why it is in its state (`nav::agentReasonName`).
};

/// A recording read back: its header, and a cursor that replays it frame by frame.
class RecordingReader
{
public:
    /// Reads a recording file's bytes (gzip) or its text. Errors:
    /// `E_RECORDING_FORMAT` (field: the line's JSON pointer `/lines/N`) for text
    /// that is not a recording, `E_RECORDING_VERSION` for a newer version.
    [[nodiscard]] static Result<RecordingReader> read(std::string_view bytes);

    /// The header line.
    const json& header() const { return m_header; }
    /// Frames in the recording.
    size_t frameCount() const { return m_frames.size(); }
    /// Frame `i` as stored (only what changed).
    const json& frame(size_t i) const { return m_frames[i]; }
    /// The recording's text, one header then one line per frame.
    const std::string& text() const { return m_text; }

    /// Applies frames until `frame(i)` is applied (from the start when `i` is
    /// before the cursor).
    void seek(size_t i);
    /// Agents after the frame the cursor stands on, by agent number.
    const std::map<uint64_t, ReplayAgent>& agents() const { return m_agents; }
    /// The newest mesh documents at the cursor, by mesh name.
    const std::map<std::string, json>& meshes() const { return m_meshes; }
    /// The AI events of every frame up to the cursor, in order.
    const std::vector<json>& events() const { return m_events; }

private:
    void apply(const json& frame);

    json m_header;
    std::vector<json> m_frames;
    std::string m_text;
    int64_t m_cursor = -1;
    std::map<uint64_t, ReplayAgent> m_agents;
    std::map<uint64_t, std::array<int64_t, 3>> m_displacement;
    std::map<std::string, json> m_meshes;
    std::vector<json> m_events;
};

} // namespace spark::scene
SPARK_SCENE_API_END
