// Recordings: the writer diffs each frame against what the frames before it
// described, the reader applies the frames back (docs/recording.md).
//
// Agent motion is stored as residuals: a position against the constant-velocity
// prediction (last position + last displacement), velocity and heading against
// their last values. An agent walking straight at a steady speed costs nothing
// in a frame; one that turns costs a few small integers, which gzip packs.

#include "spark/scene/recording.h"

#include "spark/scene/world.h"

#include <zlib.h>

#include <array>
#include <cmath>

namespace spark::scene
{

namespace
{

/// Millimetres (or thousandths) of a value; values past ±1e12 are clamped.
int64_t milli(double v)
{
    const double m = v * 1000.0;
    if (!(m > -1.0e15))
        return -1'000'000'000'000'000;
    if (m > 1.0e15)
        return 1'000'000'000'000'000;
    return static_cast<int64_t>(std::llround(m));
}

/// Centimetres (per second) of a value, clamped like `milli`.
int64_t centi(double v)
{
    return milli(v / 10.0);
}

std::string compact(const json& j)
{
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

char statusChar(ai::NodeStatus s)
{
    switch (s)
    {
    case ai::NodeStatus::Running: return 'R';
    case ai::NodeStatus::Success: return 'S';
    case ai::NodeStatus::Failure: return 'F';
    default: return 'I';
    }
}

json treeJson(const ai::CompiledTree& tree)
{
    json nodes = json::array();
    for (const ai::Node& n : tree.nodes)
    {
        json node = {{"label", n.label}, {"type", ai::nodeTypeName(n.type)}, {"path", n.path}};
        node["parent"] = n.parent == UINT32_MAX ? json(nullptr) : json(n.parent);
        if (n.type == ai::NodeType::Condition || n.type == ai::NodeType::Action)
            node["leaf"] = n.call.name;
        nodes.push_back(std::move(node));
    }
    return {{"name", tree.name}, {"nodes", std::move(nodes)}};
}

/// The name an agent number has among the brains' agents ("" without one).
std::map<uint64_t, std::pair<std::string, const HostAgent*>> namesByAgent(const HostAgents& agents)
{
    std::map<uint64_t, std::pair<std::string, const HostAgent*>> out;
    for (const auto& [name, h] : agents)
        out[handleNumber(h.agent)] = {name, &h};
    return out;
}

} // namespace

RecordingWriter::RecordingWriter(MeshDocumentFn meshDocument, std::string source)
    : m_meshDocument(std::move(meshDocument)), m_source(std::move(source))
{
}

void RecordingWriter::frameStepped(const FrameView& view)
{
    if (m_lines.size() >= kMaxRecordingFrames)
        return;
    m_dt = view.dt;
    Tracked& t = m_tracked;
    json f = {{"f", m_lines.size()}, {"frame", view.frame}};

    // Meshes: a document when a mesh is new or changed (re-bake, carving).
    json meshes = json::array();
    std::map<std::string, std::string, std::less<>> meshKeys;
    for (nav::MeshId id : view.nav.meshesInNameOrder())
    {
        const nav::WorldMesh* rec = view.nav.meshRecord(id);
        const nav::NavMesh* mesh = view.nav.mesh(id);
        if (!rec || !mesh)
            continue;
        const std::string key = std::to_string(rec->baseHash) + "/" + std::to_string(rec->polyGeneration) + "/" +
                                std::to_string(rec->meshGeneration) + "/" + std::to_string(mesh->polygonCount());
        meshKeys[rec->name] = key;
        auto it = t.meshKeys.find(rec->name);
        if (it == t.meshKeys.end() || it->second != key)
            meshes.push_back({{"name", rec->name}, {"doc", m_meshDocument ? m_meshDocument(*mesh) : json(nullptr)}});
    }
    json meshesGone = json::array();
    for (const auto& [name, key] : t.meshKeys)
        if (!meshKeys.count(name))
            meshesGone.push_back(name);
    t.meshKeys = std::move(meshKeys);
    if (!meshes.empty())
        f["m"] = std::move(meshes);
    if (!meshesGone.empty())
        f["mgone"] = std::move(meshesGone);
    auto meshName = [&](nav::MeshId id) {
        const nav::WorldMesh* rec = view.nav.meshRecord(id);
        return rec ? rec->name : std::string();
    };

    // Obstacles and links: the whole list when it changed.
    json obstacles = json::array();
    for (nav::ObstacleId id : view.nav.obstaclesInOrder())
    {
        const nav::WorldObstacle* o = view.nav.obstacle(id);
        json outline = json::array();
        for (const glm::dvec2& p : o->cut.polygon)
        {
            outline.push_back(milli(p.x));
            outline.push_back(milli(p.y));
        }
        obstacles.push_back({{"id", handleNumber(id)}, {"mesh", meshName(o->mesh)}, {"outline", std::move(outline)},
                             {"y", milli(o->def.position.y)}, {"height", milli(o->def.height)}});
    }
    if (std::string text = compact(obstacles); text != t.obstacles)
    {
        f["obst"] = std::move(obstacles);
        t.obstacles = std::move(text);
    }
    json links = json::array();
    for (nav::LinkId id : view.nav.offMeshLinksInOrder())
    {
        const nav::WorldLink* l = view.nav.offMeshLink(id);
        const glm::vec3 &a = l->def.start, &b = l->def.end;
        links.push_back({{"id", handleNumber(id)},
                         {"mesh", meshName(l->mesh)},
                         {"start", {milli(a.x), milli(a.y), milli(a.z)}},
                         {"end", {milli(b.x), milli(b.y), milli(b.z)}},
                         {"kind", l->def.kind == nav::OffMeshKind::Drop ? "drop" : "jump"},
                         {"bidirectional", l->def.bidirectional}});
    }
    if (std::string text = compact(links); text != t.links)
    {
        f["links"] = std::move(links);
        t.links = std::move(text);
    }

    // Agents: new, gone, motion residuals, state, reason, corners, corridor.
    const auto names = namesByAgent(view.agents);
    json added = json::array(), motion = json::array(), states = json::array(), reasons = json::array(),
         corners = json::array(),
         corridors = json::array(), gone = json::array();
    std::map<uint64_t, AgentTrack> agents;
    std::map<uint64_t, std::array<int64_t, 8>> residuals;
    for (nav::AgentId id : view.nav.agentsInOrder())
    {
        const nav::CrowdAgent* a = view.nav.agent(id);
        const uint64_t num = handleNumber(id);
        auto nameIt = names.find(num);
        const HostAgent* host = nameIt == names.end() ? nullptr : nameIt->second.second;
        auto old = t.agents.find(num);
        AgentTrack track = old == t.agents.end() ? AgentTrack{} : old->second;
        if (old == t.agents.end())
        {
            added.push_back({{"id", num},
                             {"name", host ? nameIt->second.first : std::string()},
                             {"mesh", meshName(a->mesh)},
                             {"radius", milli(a->def.radius)},
                             {"height", milli(a->def.height)}});
        }
        const glm::dvec3 heading = host ? host->heading : glm::dvec3(0.0);
        const int64_t p[3] = {milli(a->position.x), milli(a->position.y), milli(a->position.z)};
        const int64_t v[3] = {centi(a->velocity.x), centi(a->velocity.y), centi(a->velocity.z)};
        const int64_t h[2] = {milli(heading.x), milli(heading.z)};
        int64_t r[8];
        bool moved = false;
        for (int k = 0; k < 3; ++k)
        {
            r[k] = p[k] - (track.p[k] + track.d[k]);
            r[3 + k] = v[k] - track.v[k];
            track.d[k] = p[k] - track.p[k];
            track.p[k] = p[k];
            track.v[k] = v[k];
        }
        for (int k = 0; k < 2; ++k)
        {
            r[6 + k] = h[k] - track.h[k];
            track.h[k] = h[k];
        }
        for (int64_t x : r)
            moved = moved || x != 0;
        if (moved)
            residuals.emplace(num, std::array<int64_t, 8>{r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]});
        const std::string state(nav::agentStateName(host && host->noPath ? nav::AgentState::NoPath : a->state));
        if (state != track.state)
        {
            states.push_back(num);
            states.push_back(state);
            track.state = state;
        }
        const std::string reason(nav::agentReasonName(a->reason));
        if (reason != track.reason)
        {
            reasons.push_back(num);
            reasons.push_back(reason);
            track.reason = reason;
        }
        std::vector<int64_t> cs;
        for (const nav::CorridorCorner& c : a->corners)
            for (float x : {c.point.x, c.point.y, c.point.z})
                cs.push_back(milli(x));
        if (cs != track.corners)
        {
            corners.push_back({num, cs});
            track.corners = std::move(cs);
        }
        if (a->corridor.polygons != track.corridor)
        {
            corridors.push_back({num, a->corridor.polygons});
            track.corridor = a->corridor.polygons;
        }
        agents.emplace(num, std::move(track));
    }
    for (const auto& [num, track] : t.agents)
        if (!agents.count(num))
            gone.push_back(num);
    // Motion groups name their agent by its rank among the agents in number
    // order, as the gap from the group before (mostly 1: small numbers pack well).
    {
        int64_t rank = 0, last = -1;
        auto next = residuals.begin();
        for (const auto& [num, track] : agents)
        {
            if (next != residuals.end() && next->first == num)
            {
                motion.push_back(rank - last);
                for (int64_t x : next->second)
                    motion.push_back(x);
                last = rank;
                ++next;
            }
            ++rank;
        }
    }
    t.agents = std::move(agents);
    if (!added.empty())
        f["new"] = std::move(added);
    if (!gone.empty())
        f["gone"] = std::move(gone);
    if (!motion.empty())
        f["a"] = std::move(motion);
    if (!states.empty())
        f["s"] = std::move(states);
    if (!reasons.empty())
        f["why"] = std::move(reasons);
    if (!corners.empty())
        f["c"] = std::move(corners);
    if (!corridors.empty())
        f["r"] = std::move(corridors);

    // Moving scene objects that are not agents (characters, dynamic bodies): position residuals.
    if (view.world)
    {
        json newObjects = json::array(), objectMotion = json::array();
        for (const Object3D& o : view.world->document().objects)
        {
            const bool moving = o.characterController || (o.body && o.body->kind == BodyKind::Dynamic);
            if (!moving || view.agents.count(o.name))
                continue;
            auto it = t.objects.find(o.name);
            if (it == t.objects.end())
            {
                const double radius = o.characterController ? o.characterController->radius : 0.3;
                const double height = o.characterController ? o.characterController->height : 0.0;
                newObjects.push_back({{"name", o.name}, {"radius", milli(radius)}, {"height", milli(height)}});
                it = t.objects.emplace(o.name, ObjectTrack{}).first;
            }
            const glm::vec3 pos = o.transform ? o.transform->position : glm::vec3(0.0f);
            const int64_t p[3] = {milli(pos.x), milli(pos.y), milli(pos.z)};
            int64_t r[3];
            for (int k = 0; k < 3; ++k)
            {
                r[k] = p[k] - (it->second.p[k] + it->second.d[k]);
                it->second.d[k] = p[k] - it->second.p[k];
                it->second.p[k] = p[k];
            }
            if (r[0] != 0 || r[1] != 0 || r[2] != 0)
                objectMotion.push_back({o.name, r[0], r[1], r[2]});
        }
        if (!newObjects.empty())
            f["onew"] = std::move(newObjects);
        if (!objectMotion.empty())
            f["o"] = std::move(objectMotion);
    }

    // Brains: the tree (once per revision), node statuses and blackboard keys that changed.
    json trees = json::array(), brains = json::array(), brainsGone = json::array();
    std::map<std::string, BrainTrack, std::less<>> brainTracks;
    for (const ai::Brain& brain : view.ai.brains)
    {
        const std::string& name = brain.agent;
        auto old = t.brains.find(name);
        BrainTrack track = old == t.brains.end() ? BrainTrack{} : old->second;
        json b = {{"agent", name}};
        const std::string treeName = brain.tree.empty() ? "utility:" + brain.utility : brain.tree;
        if (!brain.tree.empty())
        {
            const auto treeIt = view.ai.trees.find(brain.tree);
            const auto revIt = view.ai.treeRevisions.find(brain.tree);
            const uint64_t revision = revIt == view.ai.treeRevisions.end() ? 0 : revIt->second;
            auto written = t.trees.find(brain.tree);
            if (treeIt != view.ai.trees.end() && (written == t.trees.end() || written->second != revision))
            {
                trees.push_back(treeJson(treeIt->second));
                t.trees[brain.tree] = revision;
            }
        }
        if (treeName != track.tree)
        {
            b["tree"] = treeName;
            track.tree = treeName;
        }
        std::string statuses(brain.nodes.size(), 'I');
        for (size_t i = 0; i < brain.nodes.size(); ++i)
            statuses[i] = statusChar(brain.nodes.status(i));
        if (statuses != track.statuses)
        {
            b["n"] = statuses;
            track.statuses = std::move(statuses);
        }
        const json board = ai::blackboardToJson(brain.blackboard);
        json changed = json::object(), removed = json::array();
        std::map<std::string, std::string, std::less<>> values;
        for (const auto& [key, value] : board.items())
        {
            std::string text = compact(value);
            auto it = track.blackboard.find(key);
            if (it == track.blackboard.end() || it->second != text)
                changed[key] = value;
            values.emplace(key, std::move(text));
        }
        for (const auto& [key, text] : track.blackboard)
            if (!values.count(key))
                removed.push_back(key);
        track.blackboard = std::move(values);
        if (!changed.empty())
            b["bb"] = std::move(changed);
        if (!removed.empty())
            b["bbdel"] = std::move(removed);
        if (b.size() > 1)
            brains.push_back(std::move(b));
        brainTracks.emplace(name, std::move(track));
    }
    for (const auto& [name, track] : t.brains)
        if (!brainTracks.count(name))
            brainsGone.push_back(name);
    t.brains = std::move(brainTracks);
    if (!trees.empty())
        f["trees"] = std::move(trees);
    if (!brains.empty())
        f["b"] = std::move(brains);
    if (!brainsGone.empty())
        f["bgone"] = std::move(brainsGone);

    // The AI events recorded since the last frame (a restored state may have fewer).
    json events = json::array();
    for (const ai::AiEvent& e : view.ai.events.events)
        if (e.seq >= t.nextEventSeq)
            events.push_back({{"seq", e.seq}, {"kind", e.kind}, {"agent", e.agent}, {"data", e.data}});
    t.nextEventSeq = view.ai.events.nextSeq;
    if (!events.empty())
        f["e"] = std::move(events);

    t.frame = static_cast<int64_t>(view.frame);
    m_lines.push_back(compact(f));
}

RecordingWriter::Mark RecordingWriter::mark()
{
    // Marks stay ordered by frame count: a mark at the same count replaces the newer ones.
    while (!m_marks.empty() && m_marks.back().first >= m_lines.size())
        m_marks.pop_back();
    m_marks.emplace_back(m_lines.size(), m_tracked);
    return Mark{m_lines.size()};
}

void RecordingWriter::rollback(const Mark& m)
{
    if (m.frames >= m_lines.size())
        return;
    while (!m_marks.empty() && m_marks.back().first > m.frames)
        m_marks.pop_back();
    if (m_marks.empty() || m_marks.back().first != m.frames)
        return; // not a mark of this writer
    m_lines.resize(m.frames);
    m_tracked = m_marks.back().second;
}

std::string RecordingWriter::text() const
{
    json header = {{"format", kRecordingFormat},
                   {"version", kRecordingVersion},
                   {"source", m_source},
                   {"dt", m_dt},
                   {"frames", m_lines.size()},
                   {"units", {{"position", "mm"}, {"velocity", "cm/s"}, {"heading", "1/1000"}, {"radius", "mm"}}}};
    std::string out = compact(header) + "\n";
    for (const std::string& line : m_lines)
    {
        out += line;
        out += '\n';
    }
    return out;
}

std::string RecordingWriter::bytes() const
{
    return gzipBytes(text());
}

std::string gzipBytes(std::string_view data)
{
    z_stream z{};
    // windowBits 15 + 16: a gzip wrapper with no name and time 0.
    if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return {};
    std::string out(deflateBound(&z, static_cast<uLong>(data.size())), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z.avail_in = static_cast<uInt>(data.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    (void)deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

Result<std::string> gunzipBytes(std::string_view data, size_t maxBytes)
{
    z_stream z{};
    if (inflateInit2(&z, 15 + 16) != Z_OK)
        return makeError("E_RECORDING_FORMAT", "the inflater could not start");
    std::string out;
    char buffer[1 << 16];
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z.avail_in = static_cast<uInt>(data.size());
    int rc = Z_OK;
    while (rc != Z_STREAM_END)
    {
        z.next_out = reinterpret_cast<Bytef*>(buffer);
        z.avail_out = sizeof(buffer);
        rc = inflate(&z, Z_NO_FLUSH);
        if (rc != Z_OK && rc != Z_STREAM_END)
        {
            inflateEnd(&z);
            return makeError("E_RECORDING_FORMAT", "the gzip stream is damaged or cut short");
        }
        out.append(buffer, sizeof(buffer) - z.avail_out);
        if (out.size() > maxBytes)
        {
            inflateEnd(&z);
            return makeError("E_RECORDING_FORMAT", "the recording inflates past " + std::to_string(maxBytes) + " bytes");
        }
        if (rc == Z_OK && z.avail_in == 0 && z.avail_out != 0)
        {
            inflateEnd(&z);
            return makeError("E_RECORDING_FORMAT", "the gzip stream is cut short");
        }
    }
    inflateEnd(&z);
    return out;
}

Result<RecordingReader> RecordingReader::read(std::string_view bytes)
{
    RecordingReader r;
    if (bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f && static_cast<unsigned char>(bytes[1]) == 0x8b)
    {
        auto text = gunzipBytes(bytes);
        if (!text.ok())
            return text.error();
        r.m_text = std::move(text).value();
    }
    else
        r.m_text = std::string(bytes);
    size_t start = 0, line = 0;
    while (start < r.m_text.size())
    {
        size_t end = r.m_text.find('\n', start);
        if (end == std::string::npos)
            end = r.m_text.size();
        const std::string_view text(r.m_text.data() + start, end - start);
        json j = json::parse(text, nullptr, false);
        const std::string at = "/lines/" + std::to_string(line);
        if (j.is_discarded() || !j.is_object())
            return makeError("E_RECORDING_FORMAT", "line " + std::to_string(line + 1) + " is not a JSON object", at);
        if (line == 0)
        {
            if (j.value("format", "") != kRecordingFormat)
                return makeError("E_RECORDING_FORMAT", "not a Spark recording (the header's format is not \"" +
                                                           std::string(kRecordingFormat) + "\")", at + "/format");
            if (!j.contains("version") || !j["version"].is_number_integer() || j["version"].get<int64_t>() < 1)
                return makeError("E_RECORDING_FORMAT", "the header has no version", at + "/version");
            if (j["version"].get<int64_t>() > kRecordingVersion)
                return makeError("E_RECORDING_VERSION",
                                 "recording version " + std::to_string(j["version"].get<int64_t>()) +
                                     " is newer than this reader's " + std::to_string(kRecordingVersion),
                                 at + "/version");
            r.m_header = std::move(j);
        }
        else
        {
            if (!j.contains("f") || !j["f"].is_number_unsigned() || j["f"].get<uint64_t>() != line - 1)
                return makeError("E_RECORDING_FORMAT", "frame line " + std::to_string(line + 1) + " is not frame " +
                                                           std::to_string(line - 1), at + "/f");
            for (const char* key : {"a", "s", "new", "gone", "c", "r", "m", "e", "b", "o"})
                if (j.contains(key) && !j[key].is_array())
                    return makeError("E_RECORDING_FORMAT", std::string("\"") + key + "\" is not an array", at + "/" + key);
            if (j.contains("a") && j["a"].size() % 9 != 0)
                return makeError("E_RECORDING_FORMAT", "agent motion comes in groups of 9 numbers", at + "/a");
            r.m_frames.push_back(std::move(j));
        }
        ++line;
        start = end + 1;
    }
    if (line == 0)
        return makeError("E_RECORDING_FORMAT", "the recording is empty", "/lines/0");
    return r;
}

void RecordingReader::seek(size_t i)
{
    if (m_frames.empty())
        return;
    if (i >= m_frames.size())
        i = m_frames.size() - 1;
    if (static_cast<int64_t>(i) < m_cursor)
    {
        m_cursor = -1;
        m_agents.clear();
        m_displacement.clear();
        m_meshes.clear();
        m_events.clear();
    }
    while (m_cursor < static_cast<int64_t>(i))
        apply(m_frames[static_cast<size_t>(++m_cursor)]);
}

void RecordingReader::apply(const json& f)
{
    // Reads what `read` checked the shape of; a value of the wrong kind reads as 0.
    auto num = [](const json& v) { return v.is_number() ? v.get<int64_t>() : int64_t{0}; };
    if (const auto it = f.find("m"); it != f.end())
        for (const json& m : *it)
            if (m.is_object() && m.contains("name") && m["name"].is_string())
                m_meshes[m["name"].get<std::string>()] = m.value("doc", json(nullptr));
    if (const auto it = f.find("mgone"); it != f.end() && it->is_array())
        for (const json& name : *it)
            if (name.is_string())
                m_meshes.erase(name.get<std::string>());
    if (const auto it = f.find("new"); it != f.end())
        for (const json& a : *it)
        {
            if (!a.is_object())
                continue;
            const uint64_t id = static_cast<uint64_t>(num(a.value("id", json(0))));
            ReplayAgent agent;
            agent.name = a.value("name", "");
            agent.radius = static_cast<double>(num(a.value("radius", json(0)))) / 1000.0;
            m_agents[id] = agent;
            m_displacement[id] = {0, 0, 0};
        }
    if (const auto it = f.find("gone"); it != f.end())
        for (const json& id : *it)
        {
            m_agents.erase(static_cast<uint64_t>(num(id)));
            m_displacement.erase(static_cast<uint64_t>(num(id)));
        }
    // Every agent moves on by its last displacement (the prediction); those in
    // "a" add their residuals.
    for (auto& [id, agent] : m_agents)
        for (size_t c = 0; c < 3; ++c)
            agent.p[c] += m_displacement[id][c];
    if (const auto it = f.find("a"); it != f.end())
    {
        // Groups name agents by the gap in rank (number order) from the group before.
        auto agent = m_agents.begin();
        int64_t at = 0, rank = -1; // the rank `agent` stands on, the rank of the group
        for (size_t k = 0; k + 9 <= it->size(); k += 9)
        {
            const auto& a = *it;
            const int64_t gap = num(a[k]);
            if (gap < 1)
                break;
            rank += gap;
            while (at < rank && agent != m_agents.end())
            {
                ++agent;
                ++at;
            }
            if (agent == m_agents.end())
                break;
            auto& d = m_displacement[agent->first];
            for (size_t c = 0; c < 3; ++c)
            {
                agent->second.p[c] += num(a[k + 1 + c]);
                d[c] += num(a[k + 1 + c]);
                agent->second.v[c] += num(a[k + 4 + c]);
            }
            agent->second.h[0] += num(a[k + 7]);
            agent->second.h[1] += num(a[k + 8]);
        }
    }
    if (const auto it = f.find("s"); it != f.end())
        for (size_t k = 0; k + 2 <= it->size(); k += 2)
            if (auto agent = m_agents.find(static_cast<uint64_t>(num((*it)[k]))); agent != m_agents.end())
                agent->second.state = (*it)[k + 1].is_string() ? (*it)[k + 1].get<std::string>() : "";
    if (const auto it = f.find("why"); it != f.end())
        for (size_t k = 0; k + 2 <= it->size(); k += 2)
            if (auto agent = m_agents.find(static_cast<uint64_t>(num((*it)[k]))); agent != m_agents.end())
                agent->second.reason = (*it)[k + 1].is_string() ? (*it)[k + 1].get<std::string>() : "none";
    if (const auto it = f.find("e"); it != f.end())
        for (const json& e : *it)
            m_events.push_back(e);
}

} // namespace spark::scene
