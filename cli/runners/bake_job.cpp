// `spark bake plan` / `spark bake job` / `spark bake merge --plan`: tile jobs
// as pure functions with content keys (see runners/bake.h and docs/distributed-bake.md).
//
// A tile's bytes depend only on the triangles meeting its bordered box (in
// input order) and the settings (docs/tiles.md). So a tile's input key is a
// hash of exactly those triangles — clipped here with the bake's own bucket
// test, whole solid runs kept — the settings and the builder version, and a
// tile is baked from its clipped triangles alone, which gives the bytes of
// the whole bake. Keys name the cache entries, so a job skips every tile whose
// entry is already there.

#include "runners/bake.h"

#include "surface/dispatcher.h"
#include "surface/output.h"

#include "spark/core/hash.h"
#include "spark/nav/bake.h"
#include "spark/nav/navmesh.h"
#include "spark/scene/model_obj.h"
#include "spark/scene/scene_colliders.h"
#include "spark/scene/session_state.h"

#include <glm/common.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <unistd.h>

namespace spark::cli
{
namespace
{

/// Bumped whenever a change to the tiled bake may change a tile's bytes for the
/// same input (part of every key, with SPARK_VERSION).
constexpr uint32_t kTileBuilderVersion = 1;

using TileId = std::pair<int32_t, int32_t>; // (z, x): tile order

json jobError(const std::string& code, const std::string& message, const std::string& hint, json data = json::object())
{
    return errorEnvelope(code, message, std::move(data), hint);
}

json jobErrorOf(const Error& e)
{
    json data = json::object();
    if (!e.field.empty())
        data["path"] = e.field;
    return errorEnvelope(e.code, e.message, data, e.hint);
}

int reportJobError(const json& envelope)
{
    std::cerr << renderHumanError(envelope);
    return 1;
}

std::string tileName(const TileId& t)
{
    return "(" + std::to_string(t.second) + ", " + std::to_string(t.first) + ")";
}

bool hasSuffix(std::string_view s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// The level's triangles: an OBJ one-sided (as `spark bake`), a space3d scene's
/// colliders (as `nav.bake`, models that fail to load refused).
json loadLevel(const BakeCliOptions& o, nav::BakeInput& input)
{
    if (hasSuffix(o.input, ".obj") || hasSuffix(o.input, ".OBJ"))
    {
        auto model = scene::loadObj(o.input);
        if (!model.ok())
            return jobErrorOf(model.error());
        input.vertices = std::move(model.value().vertices);
        input.indices = std::move(model.value().indices);
        input.oneSided = true;
        input.solids = nav::connectedTriangleRuns(input); // as `spark bake`
        return nullptr;
    }
    if (!hasSuffix(o.input, ".space3d.json"))
        return jobError("E_INVALID_PARAMS", "the level must be an .obj or a .space3d.json file", "bake 2D scenes whole",
                        {{"path", "/input"}});
    DispatchOptions options;
    options.projectRoot = o.projectRoot;
    Dispatcher dispatcher(options);
    scene::SessionState state;
    json loaded = dispatcher.call(state, "space3d.load", {{"path", o.input}});
    if (!loaded["ok"].get<bool>())
        return loaded;
    scene::ColliderTriangles tris = scene::collectColliderTriangles(
        state.world.document(), scene::defaultColliderDef(), scene::makeObjModelLoader(o.projectRoot));
    for (const scene::ColliderApproximation& a : tris.approximations)
        if (a.code != "E_SCENE_APPROXIMATED")
            return jobError(a.code, "the model of object \"" + a.object + "\" cannot be baked: " + a.cause,
                            "fix the model", {{"path", "/objects/" + a.object}});
    input = std::move(tris.input);
    return nullptr;
}

/// The triangles meeting each tile's bordered box, as the tiled bake buckets
/// them (`nav::tilesMeetingBounds`), for the tiles accepted by `keep`.
template <class Keep>
std::map<TileId, std::vector<uint32_t>> clipTriangles(const nav::BakeInput& input, const nav::BakeDef& def, Keep keep)
{
    std::map<TileId, std::vector<uint32_t>> tiles;
    const size_t triangles = input.indices.size() / 3;
    for (size_t t = 0; t < triangles; ++t)
    {
        const glm::vec3& a = input.vertices[input.indices[3 * t]];
        const glm::vec3& b = input.vertices[input.indices[3 * t + 1]];
        const glm::vec3& c = input.vertices[input.indices[3 * t + 2]];
        const nav::NavTileBox box =
            nav::tilesMeetingBounds(def, nav::Bounds3{glm::min(glm::min(a, b), c), glm::max(glm::max(a, b), c)});
        for (int32_t z = box.z0; z <= box.z1; ++z)
            for (int32_t x = box.x0; x <= box.x1; ++x)
                if (keep(TileId{z, x}))
                    tiles[TileId{z, x}].push_back(static_cast<uint32_t>(t));
    }
    return tiles;
}

/// A tile's own input: its triangles plus every whole solid run one of them is
/// in (a run is filled only when it closes up), vertices renumbered in order of
/// first use so shared corners stay shared.
nav::BakeInput tileInput(const nav::BakeInput& input, std::vector<uint32_t> triangles)
{
    std::vector<uint32_t> all = triangles;
    for (const nav::SolidRange& s : input.solids)
    {
        auto it = std::lower_bound(triangles.begin(), triangles.end(), s.firstTriangle);
        if (it != triangles.end() && *it < s.firstTriangle + s.triangleCount)
            for (uint32_t t = s.firstTriangle; t < s.firstTriangle + s.triangleCount; ++t)
                all.push_back(t);
    }
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());

    nav::BakeInput out;
    out.oneSided = input.oneSided;
    std::map<uint32_t, uint32_t> renumber;
    for (uint32_t t : all)
    {
        for (int k = 0; k < 3; ++k)
        {
            const uint32_t v = input.indices[3 * t + k];
            auto [it, added] = renumber.emplace(v, static_cast<uint32_t>(out.vertices.size()));
            if (added)
                out.vertices.push_back(input.vertices[v]);
            out.indices.push_back(it->second);
        }
        if (!input.areas.empty())
            out.areas.push_back(input.areas[t]);
    }
    for (const nav::SolidRange& s : input.solids)
    {
        auto it = std::lower_bound(all.begin(), all.end(), s.firstTriangle);
        if (it != all.end() && *it == s.firstTriangle)
            out.solids.push_back({static_cast<uint32_t>(it - all.begin()), s.triangleCount});
    }
    return out;
}

/// The input key: the builder, the settings (not threads or range: they never
/// change a tile's bytes), the tile and its own input.
uint64_t tileKey(const nav::BakeDef& d, const TileId& t, const nav::BakeInput& in)
{
    Hasher h;
    h.addString("SPJK");
    h.addString(SPARK_VERSION);
    h.addU32(kTileBuilderVersion);
    for (float v : {d.cellSize, d.cellHeight, d.agentRadius, d.agentHeight, d.stepHeight, d.maxSlopeDeg,
                    d.maxSimplificationError, d.maxEdgeLen, d.minRegionArea, d.mergeRegionArea})
        h.addF32(v);
    h.addI32(d.maxVertsPerPoly);
    h.addI32(d.tileSize);
    h.addI32(t.second);
    h.addI32(t.first);
    h.addBool(in.oneSided);
    h.addU64(in.vertices.size());
    for (const glm::vec3& v : in.vertices)
        h.addF32(v.x), h.addF32(v.y), h.addF32(v.z);
    h.addU64(in.indices.size());
    for (uint32_t i : in.indices)
        h.addU32(i);
    h.addU64(in.areas.size());
    for (uint8_t a : in.areas)
        h.addU8(a);
    h.addU64(in.solids.size());
    for (const nav::SolidRange& s : in.solids)
        h.addU32(s.firstTriangle), h.addU32(s.triangleCount);
    return h.digest();
}

/// The level's tiles with triangles, those `keep` accepts, with their inputs
/// and keys, in tile order.
struct PlannedTile
{
    TileId id;
    uint64_t key = 0;
    nav::BakeInput input;
};

/// What the clipping needs before any bake checks the rest (each tile's bake
/// validates every setting, with its code).
json checkTileSettings(const nav::BakeDef& def)
{
    if (def.tileSize < 8 || def.tileSize > nav::kMaxBakeColumns)
        return jobError("E_NAV_CONFIG", "tile jobs need a tiled bake: tile_size 8..4096", "give --tile-size N (e.g. 64)",
                        {{"path", "/tile_size"}});
    if (!(def.cellSize >= 0.01f && def.cellSize <= 1000.0f) || !(def.agentRadius >= 0.0f && def.agentRadius <= 1000.0f))
        return jobError("E_NAV_CONFIG", "cell_size must be 0.01..1000 and agent_radius 0..1000",
                        "fix --cell-size / --agent-radius", {{"path", "/cell_size"}});
    return nullptr;
}

bool parseShare(const std::string& text, uint32_t& index, uint32_t& count)
{
    unsigned long long i = 0, n = 0;
    int used = 0;
    if (std::sscanf(text.c_str(), "%llu/%llu%n", &i, &n, &used) != 2 || used != static_cast<int>(text.size()) ||
        n == 0 || n > 1000000 || i >= n)
        return false;
    index = static_cast<uint32_t>(i), count = static_cast<uint32_t>(n);
    return true;
}

std::filesystem::path inProject(const BakeCliOptions& o, const std::string& path)
{
    return o.projectRoot / path;
}

/// Writes `text` to `path` through a temporary file and a rename, so a reader
/// (or a killed writer) never sees half a file.
bool writeAtomically(const std::filesystem::path& path, const std::string& text)
{
    const std::filesystem::path part = path.string() + ".part" + std::to_string(getpid());
    {
        std::ofstream f(part, std::ios::binary | std::ios::trunc);
        if (!(f << text) || !f.flush())
            return false;
    }
    std::error_code ec;
    std::filesystem::rename(part, path, ec);
    return !ec;
}

/// Reads the one-tile document of a cache entry; its tile's hash, or 0 when
/// the file is missing, unreadable or not that single tile.
uint64_t readTileEntry(Dispatcher& dispatcher, scene::SessionState& state, const std::string& path,
                       const TileId& t, std::shared_ptr<const nav::NavMesh>* mesh = nullptr)
{
    const std::string name = "tile" + std::to_string(t.second) + "_" + std::to_string(t.first);
    json imported = dispatcher.call(state, "nav.import", {{"name", name}, {"path", path}});
    if (!imported["ok"].get<bool>())
        return 0;
    auto record = state.world.nav().meshRecord(state.world.nav().findMesh(name));
    const auto& tiles = record->baked->tiles();
    if (tiles.size() != 1 || tiles[0].x != t.second || tiles[0].z != t.first)
        return 0;
    if (mesh)
        *mesh = record->baked;
    return tiles[0].hash;
}

std::string entryPath(const std::string& cache, uint64_t key, bool empty)
{
    return cache + "/" + hashToHex(key) + (empty ? ".empty" : ".navtile.json");
}

} // namespace

int runBakePlanOrJob(const BakeJobOptions& o)
{
    const BakeCliOptions& b = o.bake;
    const bool plan = o.plan;
    const char* what = plan ? "spark bake plan" : "spark bake job";
    if (b.input.empty() || (plan && b.output.empty()) || (!plan && o.cache.empty()))
    {
        std::cerr << what << (plan ? ": give INPUT and -o PLAN\n" : ": give INPUT and --cache DIR\n");
        return 2;
    }
    int32_t range[4] = {INT32_MIN, INT32_MAX, INT32_MIN, INT32_MAX};
    if (!b.tiles.empty() && !parseTileRange(b.tiles, range[0], range[1], range[2], range[3]))
    {
        std::cerr << what << ": --tiles takes X0:X1,Z0:Z1 (tile numbers, both ends included)\n";
        return 2;
    }
    uint32_t shareIndex = 0, shareCount = 1;
    if (!o.share.empty() && !parseShare(o.share, shareIndex, shareCount))
    {
        std::cerr << what << ": --share takes I/N with 0 <= I < N <= 1000000\n";
        return 2;
    }
    nav::BakeDef def = bakeDefFromOptions(b);
    def.tileRange = {};
    if (json bad = checkTileSettings(def); !bad.is_null())
        return reportJobError(bad);

    nav::BakeInput level;
    if (json bad = loadLevel(b, level); !bad.is_null())
        return reportJobError(bad);

    // The tiles of the range; a share is the I-th of N runs of them in tile
    // order (row bands: neighbours share their triangles' pages).
    auto inRange = [&](const TileId& t)
    { return t.second >= range[0] && t.second <= range[1] && t.first >= range[2] && t.first <= range[3]; };
    std::set<TileId> chosen;
    if (shareCount > 1)
    {
        std::set<TileId> all;
        for (const auto& [id, tris] : clipTriangles(level, def, [&](const TileId& t) { return inRange(t); }))
            all.insert(id);
        const size_t n = all.size(), lo = n * shareIndex / shareCount, hi = n * (shareIndex + 1) / shareCount;
        size_t i = 0;
        for (const TileId& t : all)
            if (i++ >= lo && i <= hi)
                chosen.insert(t);
    }
    auto keep = [&](const TileId& t) { return shareCount > 1 ? chosen.count(t) != 0 : inRange(t); };
    auto clipped = clipTriangles(level, def, keep);

    std::ostringstream lines;
    DispatchOptions options;
    options.projectRoot = b.projectRoot;
    Dispatcher dispatcher(options);
    size_t baked = 0, skipped = 0;
    if (!plan)
        std::filesystem::create_directories(inProject(b, o.cache));
    for (auto& [id, tris] : clipped)
    {
        nav::BakeInput input = tileInput(level, std::move(tris));
        const uint64_t key = tileKey(def, id, input);
        json line = {{"tile", {id.second, id.first}}, {"key", hashToHex(key)}};
        if (plan)
        {
            lines << line.dump() << "\n";
            continue;
        }
        scene::SessionState state;
        const std::string full = entryPath(o.cache, key, false), empty = entryPath(o.cache, key, true);
        uint64_t hash = std::filesystem::exists(inProject(b, empty)) ? 0 : readTileEntry(dispatcher, state, full, id);
        const bool cached = hash != 0 || std::filesystem::exists(inProject(b, empty));
        if (!cached)
        {
            nav::BakeDef one = def;
            one.threads = 1;
            one.tileRange = {id.second, id.second, id.first, id.first};
            auto result = nav::bakeNavMesh(input, one);
            if (!result.ok() && result.error().code != "E_NAV_NO_GEOMETRY")
            {
                json e = jobErrorOf(result.error());
                e["error"]["data"]["tile"] = {id.second, id.first};
                return reportJobError(e);
            }
            if (!result.ok())
            {
                if (!writeAtomically(inProject(b, empty), ""))
                    return reportJobError(jobError("E_IO", "cannot write " + empty, "check the cache folder"));
            }
            else
            {
                nav::MeshDef md = nav::defaultMeshDef();
                md.name = "tile";
                md.source = "obj";
                md.mesh = std::make_shared<const nav::NavMesh>(std::move(result.value().mesh));
                hash = md.mesh->tiles()[0].hash;
                if (auto put = state.world.nav().putMesh(std::move(md)); !put.ok())
                    return reportJobError(jobErrorOf(put.error()));
                const std::string part = full + ".part" + std::to_string(getpid());
                json exported = dispatcher.call(state, "nav.export", {{"mesh", "tile"}, {"path", part}});
                if (!exported["ok"].get<bool>())
                    return reportJobError(exported);
                std::error_code ec;
                std::filesystem::rename(inProject(b, part), inProject(b, full), ec);
                if (ec)
                    return reportJobError(jobError("E_IO", "cannot write " + full, "check the cache folder"));
            }
            ++baked;
        }
        else
            ++skipped;
        line["hash"] = hash != 0 ? json(hashToHex(hash)) : json(nullptr);
        line["file"] = hash != 0 ? full : empty;
        line["baked"] = !cached;
        lines << line.dump() << "\n";
    }

    const std::string out = plan ? b.output : o.manifest;
    if (out.empty())
        std::cout << lines.str();
    else
    {
        if (inProject(b, out).has_parent_path())
            std::filesystem::create_directories(inProject(b, out).parent_path());
        if (!writeAtomically(inProject(b, out), lines.str()))
            return reportJobError(jobError("E_IO", "cannot write " + out, "check the folder"));
    }
    if (plan)
        std::cerr << b.output << ": " << clipped.size() << " tiles\n";
    else
        std::cerr << "job: " << clipped.size() << " tiles, " << baked << " baked, " << skipped
                  << " from the cache\n";
    return 0;
}

int runBakeMergeManifests(const BakeMergeOptions& o)
{
    DispatchOptions options;
    options.projectRoot = o.projectRoot;
    Dispatcher dispatcher(options);
    auto readLines = [&](const std::string& path, std::vector<json>& out) -> json
    {
        std::ifstream f(o.projectRoot / path);
        if (!f)
            return jobError("E_IO", "cannot read " + path, "check the path", {{"path", path}});
        std::string text;
        for (size_t n = 1; std::getline(f, text); ++n)
        {
            if (text.empty())
                continue;
            json line = json::parse(text, nullptr, false);
            if (!line.is_object() || !line.contains("tile") || !line["tile"].is_array() || line["tile"].size() != 2 ||
                !line["tile"][0].is_number_integer() || !line["tile"][1].is_number_integer() ||
                !line.value("key", json()).is_string())
                return jobError("E_FORMAT", path + ":" + std::to_string(n) + ": not a tile line",
                                "lines are {\"tile\": [x, z], \"key\": ...} as spark bake plan/job write them",
                                {{"path", path}, {"line", n}});
            out.push_back(std::move(line));
        }
        return nullptr;
    };
    std::vector<json> planned, done;
    if (json bad = readLines(o.plan, planned); !bad.is_null())
        return reportJobError(bad);
    for (const std::string& m : o.manifests)
        if (json bad = readLines(m, done); !bad.is_null())
            return reportJobError(bad);

    auto idOf = [](const json& line) { return TileId{line["tile"][1].get<int32_t>(), line["tile"][0].get<int32_t>()}; };
    std::map<TileId, json> byTile;
    for (const json& line : done)
    {
        auto [it, added] = byTile.emplace(idOf(line), line);
        if (!added && it->second != line) // a retried job writes the same line again
            return reportJobError(jobError("E_NAV_TILE_MISMATCH",
                                           "tile " + tileName(idOf(line)) + " is in two manifests with different keys",
                                           "re-run the jobs of one bake only", {{"tile", line["tile"]}}));
    }
    std::set<TileId> inPlan;
    std::vector<std::shared_ptr<const nav::NavMesh>> parts;
    for (const json& p : planned)
    {
        const TileId id = idOf(p);
        inPlan.insert(id);
        auto it = byTile.find(id);
        if (it == byTile.end())
            return reportJobError(jobError("E_NAV_TILE_MISSING", "tile " + tileName(id) + " is in no manifest",
                                           "run the job that bakes it (or re-run the failed jobs)",
                                           {{"tile", p["tile"]}}));
        const json& m = it->second;
        if (m["key"] != p["key"])
            return reportJobError(jobError("E_NAV_TILE_MISMATCH",
                                           "tile " + tileName(id) + ": the manifest's key " + m["key"].get<std::string>() +
                                               " is not the plan's " + p["key"].get<std::string>(),
                                           "the level or the settings changed: re-run its job",
                                           {{"tile", p["tile"]}}));
        const std::string file = m.value("file", std::string());
        if (m.value("hash", json()).is_null())
        {
            if (!std::filesystem::exists(o.projectRoot / file))
                return reportJobError(jobError("E_NAV_TILE_MISSING", "tile " + tileName(id) + ": " + file + " is missing",
                                               "re-run its job", {{"tile", p["tile"]}}));
            continue; // nothing walkable in it
        }
        std::shared_ptr<const nav::NavMesh> mesh;
        scene::SessionState state; // one per tile: a session holds a bounded number of meshes
        const uint64_t hash = readTileEntry(dispatcher, state, file, id, &mesh);
        if (hash == 0)
            return reportJobError(jobError("E_NAV_TILE_MISSING",
                                           "tile " + tileName(id) + ": " + file + " is missing or not that tile",
                                           "re-run its job", {{"tile", p["tile"]}}));
        if (!m["hash"].is_string() || hashToHex(hash) != m["hash"].get<std::string>())
            return reportJobError(jobError("E_NAV_TILE_MISMATCH",
                                           "tile " + tileName(id) + ": " + file + " hashes " + hashToHex(hash) +
                                               ", the manifest says " + m["hash"].dump(),
                                           "re-run its job", {{"tile", p["tile"]}}));
        parts.push_back(mesh);
    }
    for (const auto& [id, line] : byTile)
        if (!inPlan.count(id))
            return reportJobError(jobError("E_NAV_TILE_MISMATCH", "tile " + tileName(id) + " is in no plan",
                                           "merge the manifests of one level and settings", {{"tile", line["tile"]}}));
    if (parts.empty())
        return reportJobError(jobError("E_NAV_NO_GEOMETRY", "no tile has anything walkable", "check the settings"));

    return mergeAndWrite(dispatcher, parts, o.output, " (" + std::to_string(planned.size()) + " tiles checked)");
}

} // namespace spark::cli
