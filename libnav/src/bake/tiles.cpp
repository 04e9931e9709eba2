/// \file tiles.cpp
/// The tiled 3D bake (docs/tiles.md): the world's cell lattice cut into square
/// tiles, each baked on its own by the stages of bake.cpp, on a thread pool.
///
/// Design note (after Recast's tiled bake, Sample_TileMesh.cpp: a tile is
/// rasterised with a border of walkableRadius + 3 cells so erosion and the
/// ledge filter see the geometry past its edge, and the border's spans are
/// kept out of the regions). Here:
///
///  - The lattice is anchored at the world origin: tile (x, z) owns the cells
///    [x·T, (x+1)·T) × [z·T, (z+1)·T) (T = tile_size), and its grid covers
///    those plus `tileBorderCells` cells on every side. Heights are anchored
///    too: the grid's floor is the highest whole layer of cell_height at or
///    below the tile's lowest triangle. So a tile's polygons depend only on the
///    triangles meeting its bordered box (in input order) and the settings:
///    never on other tiles, the order tiles bake in, or the thread count.
///  - Vertices are placed from world cells (cells × size in double, rounded
///    once), so the two tiles of a seam put its points at the same bits; the
///    seam itself is a straight line of cells both sides reach, and the
///    mesh's edge-overlap linking joins the polygons across it (whatever their
///    vertices: T-junctions link).
///  - Jobs: triangles are bucketed by the tiles their bounds meet, each tile
///    with triangles is one job; workers take the next job from a counter and
///    write only their job's slot; the slots are joined in tile order (z, then
///    x), tiles without polygons left out. Nothing a worker does depends on
///    another, so the output is the same bit for bit for any thread count.
///  - Memory: one tile's fields at a time per worker, plus the buckets (each
///    job's freed once its tile is voxelised) and the polygons made: it
///    follows the walkable geometry, not the bounding box.
///
/// Differences from Recast: no layers (a tile is one grid of spans, as the
/// single-grid bake); the tile's seam is a wall of its regions, so a region
/// never crosses a seam and a polygon never does either.

#include "bake_stages.h"

#include "spark/core/work.h"

#include <glm/common.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <optional>
#include <string>
#include <thread>
#include <tuple>

namespace spark::nav::bake
{

namespace
{

/// Most (tile, triangle) pairs a bake buckets. [Limit]
constexpr size_t kMaxBucketEntries = size_t(1) << 27;
/// Largest world cell coordinate a tiled bake accepts (|coordinate| / cell size). [Units: cells]
constexpr double kMaxLatticeCell = 1 << 30;

/// One tile to bake: its coordinates and the triangles whose bounds meet its bordered box.
struct TileJob
{
    int32_t x = 0, z = 0;
    std::vector<uint32_t> triangles; ///< Triangle indices, increasing (input order).
};

/// The level's closed solids (BakeInput::solids) by first triangle. When they
/// do not overlap, a tile fills those with a triangle in it; else every one.
struct TileSolids
{
    std::vector<SolidRange> runs;
    bool disjoint = true;
};

TileSolids tileSolidsOf(const BakeInput& input)
{
    TileSolids out{input.solids, true};
    std::sort(out.runs.begin(), out.runs.end(),
              [](const SolidRange& a, const SolidRange& b) { return a.firstTriangle < b.firstTriangle; });
    for (size_t i = 1; i < out.runs.size(); ++i)
        if (out.runs[i].firstTriangle - out.runs[i - 1].firstTriangle < out.runs[i - 1].triangleCount)
            out.disjoint = false;
    return out;
}

/// What a worker made of a job: per radius, the tile's polygons and counters.
struct TileResult
{
    Status status = Status::success();
    std::vector<BakeOutput> radii;
};

/// A triangle's entry in a tile's bucket (sorted by tile z, x, then triangle).
struct BucketEntry
{
    int32_t z, x;
    uint32_t triangle;
    friend bool operator<(const BucketEntry& a, const BucketEntry& b)
    {
        return std::tie(a.z, a.x, a.triangle) < std::tie(b.z, b.x, b.triangle);
    }
};

/// The first tile (along one axis, tiles of `tile` cells) whose box widened
/// by `reach` cells reaches cell coordinate `lo`, and the last one reaching `hi`.
int32_t firstTileReached(double lo, double tile, double reach)
{
    return static_cast<int32_t>(std::ceil((lo - reach) / tile - 1.0));
}
int32_t lastTileReached(double hi, double tile, double reach)
{
    return static_cast<int32_t>(std::floor((hi + reach) / tile));
}

/// nav::tilesMeetingBounds with the tile border given (bucketing calls it per
/// triangle: the border from the settings cost 5 % of a terrain's bake).
NavTileBox tilesMeetingBounds(const BakeDef& def, int border, const Bounds3& bounds)
{
    // Tile x's bordered box is [x·T − border, (x+1)·T + border] in cells,
    // reached one cell further (the rest left to the voxeliser's own test);
    // only the tiles of the range are baked (a subset bake).
    const double cs = def.cellSize, tile = def.tileSize, reach = border + 1;
    NavTileBox box{firstTileReached(bounds.min.x / cs, tile, reach), lastTileReached(bounds.max.x / cs, tile, reach),
                   firstTileReached(bounds.min.z / cs, tile, reach), lastTileReached(bounds.max.z / cs, tile, reach)};
    const TileRange& r = def.tileRange;
    box.x0 = std::max(box.x0, r.x0);
    box.x1 = std::min(box.x1, r.x1);
    box.z0 = std::max(box.z0, r.z0);
    box.z1 = std::min(box.z1, r.z1);
    return box;
}

/// The jobs: every tile whose box with `border` cells (widened by one cell,
/// the rest left to the voxeliser's own test) meets a triangle's bounds, in
/// tile order, each with its triangles in input order.
Result<std::vector<TileJob>> bucketTriangles(const BakeInput& input, const BakeDef& def, int border)
{
    const size_t triangles = input.indices.size() / 3;
    // Memory: the tile boxes are kept (16 bytes a triangle), the entries
    // counted first and every vector allocated at its final size (growing by
    // doubling held up to 3x the entries at once: most of the peak of a 4 km
    // terrain's bake).
    std::vector<NavTileBox> boxes(triangles);
    NavTileBox all{INT32_MAX, INT32_MIN, INT32_MAX, INT32_MIN};
    double count = 0.0;
    for (size_t t = 0; t < triangles; ++t)
    {
        const glm::vec3& a = input.vertices[input.indices[3 * t]];
        const glm::vec3& b = input.vertices[input.indices[3 * t + 1]];
        const glm::vec3& c = input.vertices[input.indices[3 * t + 2]];
        const NavTileBox box =
            tilesMeetingBounds(def, border, Bounds3{glm::min(glm::min(a, b), c), glm::max(glm::max(a, b), c)});
        boxes[t] = box;
        if (box.x0 > box.x1 || box.z0 > box.z1)
            continue;
        count += (double(box.x1) - box.x0 + 1) * (double(box.z1) - box.z0 + 1);
        if (count > double(kMaxBucketEntries))
            return makeError("E_NAV_LIMIT", "the triangles meet more than 2^27 tiles in all", "/tile_size",
                             "use larger tiles or cells");
        all.x0 = std::min(all.x0, box.x0);
        all.x1 = std::max(all.x1, box.x1);
        all.z0 = std::min(all.z0, box.z0);
        all.z1 = std::max(all.z1, box.z1);
    }
    std::vector<TileJob> jobs;
    if (count == 0.0)
        return jobs;

    // A counting sort over the tiles of the boxes' union: counts, a job per
    // tile met (in tile order), then the triangles scattered in input order.
    // (std::sort of (tile, triangle) pairs was 10 % of a tiled dungeon bake.)
    const double width = double(all.x1) - all.x0 + 1, span = width * (double(all.z1) - all.z0 + 1);
    if (span <= 2.0 * count + 65536.0)
    {
        const size_t w = static_cast<size_t>(width);
        std::vector<uint32_t> slot(static_cast<size_t>(span), 0); // entries, then the job's index + 1
        for (const NavTileBox& box : boxes)
            for (int32_t z = box.z0; z <= box.z1; ++z)
                for (int32_t x = box.x0; x <= box.x1; ++x)
                    ++slot[size_t(z - all.z0) * w + size_t(x - all.x0)];
        size_t jobCount = 0;
        for (uint32_t n : slot)
            jobCount += n > 0 ? 1 : 0;
        jobs.reserve(jobCount);
        for (size_t i = 0; i < slot.size(); ++i)
        {
            if (slot[i] == 0)
                continue;
            jobs.push_back(TileJob{all.x0 + static_cast<int32_t>(i % w), all.z0 + static_cast<int32_t>(i / w), {}});
            jobs.back().triangles.reserve(slot[i]);
            slot[i] = static_cast<uint32_t>(jobs.size());
        }
        for (size_t t = 0; t < triangles; ++t)
            for (int32_t z = boxes[t].z0; z <= boxes[t].z1; ++z)
                for (int32_t x = boxes[t].x0; x <= boxes[t].x1; ++x)
                    jobs[slot[size_t(z - all.z0) * w + size_t(x - all.x0)] - 1].triangles.push_back(
                        static_cast<uint32_t>(t));
        return jobs;
    }

    // Tiles met far apart (a union box of more than twice the entries):
    // the (tile, triangle) pairs sorted.
    std::vector<BucketEntry> entries;
    entries.reserve(static_cast<size_t>(count));
    for (size_t t = 0; t < triangles; ++t)
        for (int32_t z = boxes[t].z0; z <= boxes[t].z1; ++z)
            for (int32_t x = boxes[t].x0; x <= boxes[t].x1; ++x)
                entries.push_back({z, x, static_cast<uint32_t>(t)});
    boxes = std::vector<NavTileBox>(); // (`= {}` would keep the capacity: initializer_list)
    std::sort(entries.begin(), entries.end());
    size_t jobCount = 0;
    for (size_t i = 0; i < entries.size(); ++i)
        jobCount += i == 0 || entries[i].x != entries[i - 1].x || entries[i].z != entries[i - 1].z ? 1 : 0;
    jobs.reserve(jobCount);
    for (size_t i = 0, end = 0; i < entries.size(); i = end)
    {
        for (end = i + 1; end < entries.size() && entries[end].x == entries[i].x && entries[end].z == entries[i].z;)
            ++end;
        jobs.push_back(TileJob{entries[i].x, entries[i].z, {}});
        jobs.back().triangles.reserve(end - i);
        for (size_t k = i; k < end; ++k)
            jobs.back().triangles.push_back(entries[k].triangle);
    }
    return jobs;
}

/// Bakes one tile: its triangles voxelised on its bordered grid and
/// filtered once, then the stages of every radius with the border kept out
/// of the regions.
void bakeTile(const BakeInput& input, const TileSolids& solids, const BakeDef& def,
              const std::vector<CellSettings>& radii, int border, TileJob& job, TileResult& out)
{
    const int size = def.tileSize + 2 * border;
    SolidField solid;
    Grid& g = solid.grid;
    g.width = size;
    g.depth = size;
    g.cellSize = def.cellSize;
    g.cellHeight = def.cellHeight;
    g.onLattice = true;
    g.latticeX = job.x * def.tileSize - border;
    g.latticeZ = job.z * def.tileSize - border;
    g.origin.x = static_cast<float>(static_cast<double>(g.latticeX) * def.cellSize);
    g.origin.z = static_cast<float>(static_cast<double>(g.latticeZ) * def.cellSize);

    // The triangles that meet the grid (the voxeliser's own test), kept in
    // the job's list in input order (not copied: the voxeliser reads them in
    // place); their heights set the grid's floor.
    const float extentX = static_cast<float>(g.width) * g.cellSize;
    const float extentZ = static_cast<float>(g.depth) * g.cellSize;
    float lowY = 0.0f, highY = 0.0f;
    std::vector<SolidRange> fill; // the solids with a triangle here (the one-grid bake fills them too)
    size_t kept = 0;
    for (uint32_t t : job.triangles)
    {
        const glm::vec3& a = input.vertices[input.indices[3 * size_t(t)]];
        const glm::vec3& b = input.vertices[input.indices[3 * size_t(t) + 1]];
        const glm::vec3& c = input.vertices[input.indices[3 * size_t(t) + 2]];
        if (std::max({a.x, b.x, c.x}) < g.origin.x || std::min({a.x, b.x, c.x}) > g.origin.x + extentX ||
            std::max({a.z, b.z, c.z}) < g.origin.z || std::min({a.z, b.z, c.z}) > g.origin.z + extentZ)
            continue;
        const float lo = std::min({a.y, b.y, c.y}), hi = std::max({a.y, b.y, c.y});
        lowY = kept == 0 ? lo : std::min(lowY, lo);
        highY = kept == 0 ? hi : std::max(highY, hi);
        job.triangles[kept++] = t;
        const auto run = std::upper_bound(solids.runs.begin(), solids.runs.end(), t,
                                          [](uint32_t v, const SolidRange& r) { return v < r.firstTriangle; });
        if (solids.disjoint && run != solids.runs.begin() && t - (run - 1)->firstTriangle < (run - 1)->triangleCount &&
            (fill.empty() || fill.back().firstTriangle != (run - 1)->firstTriangle))
            fill.push_back(*(run - 1));
    }
    job.triangles.resize(kept);
    if (kept == 0)
    {
        job.triangles = std::vector<uint32_t>();
        return;
    }
    if (!solids.disjoint)
        fill = solids.runs;
    const double floorLayer = std::floor(static_cast<double>(lowY) / def.cellHeight);
    g.latticeY = static_cast<int32_t>(floorLayer);
    g.origin.y = static_cast<float>(floorLayer * def.cellHeight);
    if (std::ceil((static_cast<double>(highY) - g.origin.y) / def.cellHeight) >= static_cast<double>(kMaxSpanHeight))
    {
        out.status = makeError("E_NAV_LIMIT",
                               "tile (" + std::to_string(job.x) + ", " + std::to_string(job.z) +
                                   ") is more than 65534 cells tall",
                               "/cell_height", "raise cell_height");
        return;
    }
    out.radii.assign(radii.size(), BakeOutput{});
    for (BakeOutput& r : out.radii)
        r.stats.cells = static_cast<uint64_t>(def.tileSize) * static_cast<uint64_t>(def.tileSize);
    voxelizeTriangles(input, radii.front(), solid, InputPart{&job.triangles, fill}); // (it reads no radius)
    job.triangles = std::vector<uint32_t>(); // freed for the tiles after it (`= {}` would keep the capacity)
    const KeepBox keep{border, border, border + def.tileSize, border + def.tileSize};
    out.status = bakeSolid(solid, radii, &keep, out.radii);
    for (const BakeOutput& r : out.radii)
        if (out.status.ok() && r.mesh.polygonCount() > kMaxTilePolygons)
            out.status = makeError("E_NAV_LIMIT",
                                   "tile (" + std::to_string(job.x) + ", " + std::to_string(job.z) +
                                       ") has more than " + std::to_string(kMaxTilePolygons) + " polygons",
                                   "/tile_size", "use smaller tiles");
}

/// Runs `bakeTile` for every job on `threads` workers; each writes its own slot.
/// The calling thread works too and, after each of its jobs and once at the
/// end, is the safe point of the work control (progress: tiles finished of
/// all; a stop makes every worker leave before its next job). Answers false
/// when stopped.
bool runJobs(const BakeInput& input, const TileSolids& solids, const BakeDef& def,
             const std::vector<CellSettings>& radii, int border, std::vector<TileJob>& jobs,
             std::vector<TileResult>& results, unsigned threads)
{
    std::atomic<size_t> next{0};
    std::atomic<size_t> finished{0};
    std::atomic<bool> stop{false};
    auto bakeOne = [&](size_t i) {
        try
        {
            bakeTile(input, solids, def, radii, border, jobs[i], results[i]);
        }
        catch (const std::exception&) // out of memory: a coded error, not a crash
        {
            results[i] = TileResult{};
            results[i].status = makeError("E_NAV_LIMIT", "out of memory baking a tile", "/tile_size",
                                          "use smaller tiles or fewer threads");
        }
        finished.fetch_add(1);
    };
    auto work = [&] {
        while (!stop.load())
        {
            const size_t i = next.fetch_add(1);
            if (i >= jobs.size())
                return;
            bakeOne(i);
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t)
        pool.emplace_back(work);
    while (!stop.load())
    {
        const size_t i = next.fetch_add(1);
        if (i >= jobs.size())
            break;
        bakeOne(i);
        if (!workCheckpoint("bake: tiles", finished.load(), jobs.size()))
            stop.store(true);
    }
    for (std::thread& t : pool)
        t.join();
    // A last safe point once every tile is in: it reports done == all, and it
    // is the only one when the workers took every job before this thread took
    // one (a loaded machine), so a cancel is never missed.
    if (!stop.load() && !workCheckpoint("bake: tiles", finished.load(), jobs.size()))
        stop.store(true);
    return !stop.load();
}

} // namespace

Result<std::vector<BakeOutput>> bakeTiles(const BakeInput& input, const BakeDef& def)
{
    // One voxelisation per tile serves every radius: its border is the largest radius's.
    std::vector<CellSettings> radii;
    int border = 0;
    for (float r : bakeRadii(def))
    {
        const BakeDef one = bakeDefForRadius(def, r);
        radii.push_back(cellSettingsOf(one));
        border = std::max(border, tileBorderCells(one));
    }

    // Bounds of the referenced vertices; the lattice must hold them.
    glm::vec3 lo = input.vertices[input.indices[0]];
    glm::vec3 hi = lo;
    for (uint32_t idx : input.indices)
    {
        lo = glm::min(lo, input.vertices[idx]);
        hi = glm::max(hi, input.vertices[idx]);
    }
    for (float v : {lo.x, lo.z, hi.x, hi.z})
        if (std::abs(static_cast<double>(v) / def.cellSize) > kMaxLatticeCell)
            return makeError("E_NAV_LIMIT", "the scene reaches more than 2^30 cells from the origin", "/cell_size",
                             "raise cell_size");

    auto bucketed = bucketTriangles(input, def, border);
    if (!bucketed.ok())
        return bucketed.error();
    std::vector<TileJob>& jobs = bucketed.value(); // each job's triangles are freed once its tile has them
    std::vector<TileResult> results(jobs.size());
    const unsigned threads =
        std::min(workerThreads(def.threads), static_cast<unsigned>(std::max<size_t>(jobs.size(), 1)));
    if (!runJobs(input, tileSolidsOf(input), def, radii, border, jobs, results, threads))
        return cancelledError("bake: tiles");
    for (const TileResult& r : results)
        if (!r.status.ok())
            return r.status.error();

    // Join in tile order, radius by radius.
    std::vector<BakeOutput> outs(radii.size());
    for (size_t k = 0; k < radii.size(); ++k)
    {
        BakeOutput& out = outs[k];
        out.boundsMin = lo;
        out.boundsMax = hi;
        out.mesh.polyStarts.push_back(0);
        for (size_t i = 0; i < jobs.size(); ++i)
        {
            if (results[i].radii.empty())
                continue; // no triangle met the tile's grid
            BakeOutput& r = results[i].radii[k];
            out.stats.cells += r.stats.cells;
            out.stats.spans += r.stats.spans;
            out.stats.regions += r.stats.regions;
            out.stats.fallbackRegions += r.stats.fallbackRegions;
            if (r.mesh.polygonCount() == 0)
                continue;
            NavTile tile;
            tile.x = jobs[i].x;
            tile.z = jobs[i].z;
            tile.firstPolygon = static_cast<uint32_t>(out.mesh.polygonCount());
            tile.polygonCount = static_cast<uint32_t>(r.mesh.polygonCount());
            tile.firstVertex = static_cast<uint32_t>(out.mesh.vertices.size());
            tile.vertexCount = static_cast<uint32_t>(r.mesh.vertices.size());
            if (size_t(tile.firstPolygon) + tile.polygonCount > kMaxPolygons ||
                size_t(tile.firstVertex) + tile.vertexCount > kMaxVertices)
                return makeError("E_NAV_LIMIT", "the tiled mesh has more than " + std::to_string(kMaxPolygons) +
                                                    " polygons or " + std::to_string(kMaxVertices) + " vertices",
                                 "/tile_size", "bake a smaller part of the scene");
            out.mesh.vertices.insert(out.mesh.vertices.end(), r.mesh.vertices.begin(), r.mesh.vertices.end());
            const uint32_t base = static_cast<uint32_t>(out.mesh.indices.size());
            for (uint32_t idx : r.mesh.indices)
                out.mesh.indices.push_back(idx + tile.firstVertex);
            for (size_t p = 1; p < r.mesh.polyStarts.size(); ++p)
                out.mesh.polyStarts.push_back(base + r.mesh.polyStarts[p]);
            out.mesh.areas.insert(out.mesh.areas.end(), r.mesh.areas.begin(), r.mesh.areas.end());
            out.tiles.push_back(tile);
            r = BakeOutput{}; // free the tile's copy
        }
        out.stats.tiles = static_cast<uint32_t>(out.tiles.size());
    }
    return outs;
}

} // namespace spark::nav::bake

namespace spark::nav
{

NavTileBox tilesMeetingBounds(const BakeDef& def, const Bounds3& bounds)
{
    return bake::tilesMeetingBounds(def, tileBorderCells(def), bounds);
}

Result<TileRebake> rebakeNavMeshTiles(const NavMesh& mesh, const BakeInput& input, const BakeDef& def,
                                      const Bounds3& bounds)
{
    SPARK_TRY(bake::validateBakeDef(def));
    if (def.tileSize <= 0 || !mesh.tiled() || static_cast<uint32_t>(def.tileSize) != mesh.tileSize())
        return makeError("E_NAV_CONFIG", "only a tiled mesh re-bakes per tile, with its own tile size", "/tile_size",
                         "bake the mesh with tile_size first");
    const NavMeshDef meshDef = navMeshDefFromBake(def, false);
    const NavMeshSettings& a = meshDef.settings;
    const NavMeshSettings& b = mesh.settings();
    if (mesh.is2d() || a.agentRadius != b.agentRadius || a.agentHeight != b.agentHeight ||
        a.stepHeight != b.stepHeight || a.cellSize != b.cellSize || a.cellHeight != b.cellHeight ||
        a.maxSlopeDeg != b.maxSlopeDeg)
        return makeError("E_NAV_CONFIG", "the bake settings are not the ones the mesh was baked with", "/mesh");
    for (int c = 0; c < 3; ++c)
        if (!std::isfinite(bounds.min[c]) || !std::isfinite(bounds.max[c]) || bounds.min[c] > bounds.max[c] ||
            std::abs(bounds.min[c]) > kMaxCoordinate || std::abs(bounds.max[c]) > kMaxCoordinate)
            return makeError("E_INVALID_PARAMS", "the bounds are finite, within ±1e6 m, min <= max", "/bounds");
    TileRebake out;
    out.tiles = tilesMeetingBounds(def, bounds);
    if (out.tiles.x0 > out.tiles.x1 || out.tiles.z0 > out.tiles.z1)
    {
        out.mesh = mesh; // no tile of the bake's range meets the bounds
        return out;
    }
    BakeDef subset = def;
    subset.tileRange = TileRange{out.tiles.x0, out.tiles.x1, out.tiles.z0, out.tiles.z1};
    std::optional<NavMesh> fresh;
    auto baked = bakeNavMesh(input, subset);
    if (baked.ok())
    {
        out.stats = baked.value().stats;
        fresh = std::move(baked.value().mesh);
    }
    else if (baked.error().code != "E_NAV_NO_GEOMETRY") // nothing walkable is left there: the tiles go
        return baked.error();
    auto replaced = replaceNavMeshTiles(mesh, out.tiles, fresh ? &*fresh : nullptr);
    if (!replaced.ok())
        return replaced.error();
    out.mesh = std::move(replaced.value());
    return out;
}

} // namespace spark::nav
