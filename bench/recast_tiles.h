#pragma once
/// \file recast_tiles.h
/// Recast's tiled bake as RecastDemo's Sample_TileMesh::buildTileMesh runs it,
/// and Detour's tiled navmesh over it (buildAllTiles: dtNavMesh::init with
/// tile params, dtCreateNavMeshData + addTile per tile), shared by bake_bench
/// (--tiled) and path_bench (--tiled).
///
/// Per tile (tx, tz) of `tileSize` cells, on the lattice anchored at the
/// input's bounds minimum (as the sample): a heightfield of tileSize + 2 ×
/// border cells a side (border = walkableRadius + 3), rcMarkWalkableTriangles
/// + rcRasterizeTriangles of the triangles whose x–z bounds meet the bordered
/// box (the sample's chunky mesh picks the chunks that do; here the buckets of
/// `RecastTileBuckets`, made once per level as the sample makes its chunky
/// mesh on load), the three filters, compact heightfield, erosion, regions
/// with the border (monotone, or watershed with the distance field),
/// contours, polygon mesh and, when asked, the detail mesh. Exits on a failure.

#include "recast_solo.h"
#include "recastdemo.h"

#include <recastnavigation/DetourNavMesh.h>
#include <recastnavigation/DetourNavMeshBuilder.h>
#include <recastnavigation/Recast.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace spark::bench::tiles
{

/// RecastDemo's settings (recastdemo.h) with cell size `cs` and tiles of
/// `tileSize` cells, as Sample_TileMesh sets its rcConfig up; bounds are set
/// per tile.
inline rcConfig recastTileConfig(float cs, int tileSize)
{
    using namespace spark::bench::demo;
    rcConfig cfg{};
    cfg.cs = cs;
    cfg.ch = kCellHeight;
    cfg.walkableSlopeAngle = kSlopeDeg;
    cfg.walkableHeight = static_cast<int>(std::ceil(kAgentHeight / cfg.ch));
    cfg.walkableClimb = static_cast<int>(std::floor(kAgentClimb / cfg.ch));
    cfg.walkableRadius = static_cast<int>(std::ceil(kAgentRadius / cfg.cs));
    cfg.maxEdgeLen = static_cast<int>(kEdgeMaxLen / cs);
    cfg.maxSimplificationError = kEdgeMaxError;
    cfg.minRegionArea = kRegionMinSize * kRegionMinSize;
    cfg.mergeRegionArea = kRegionMergeSize * kRegionMergeSize;
    cfg.maxVertsPerPoly = kVertsPerPoly;
    cfg.tileSize = tileSize;
    cfg.borderSize = cfg.walkableRadius + 3;
    cfg.width = cfg.tileSize + cfg.borderSize * 2;
    cfg.height = cfg.tileSize + cfg.borderSize * 2;
    cfg.detailSampleDist = kDetailSampleDist < 0.9f ? 0.0f : cs * kDetailSampleDist;
    cfg.detailSampleMaxError = kCellHeight * kDetailSampleMaxError;
    return cfg;
}

/// The tiles of a level and the triangles meeting each one's bordered box.
struct RecastTileBuckets
{
    float bmin[3]{}, bmax[3]{}; ///< The input's bounds.
    int tilesX = 0, tilesZ = 0;
    std::vector<int> tileX, tileZ;        ///< Tiles with triangles, row by row.
    std::vector<std::vector<int>> tris;   ///< Per such tile: three indices per triangle.
};

inline RecastTileBuckets bucketRecastTiles(const float* verts, int nverts, const int* tris, int ntris,
                                           const rcConfig& cfg)
{
    RecastTileBuckets b;
    rcCalcBounds(verts, nverts, b.bmin, b.bmax);
    int gw = 0, gh = 0;
    rcCalcGridSize(b.bmin, b.bmax, cfg.cs, &gw, &gh);
    b.tilesX = (gw + cfg.tileSize - 1) / cfg.tileSize;
    b.tilesZ = (gh + cfg.tileSize - 1) / cfg.tileSize;
    const float tcs = static_cast<float>(cfg.tileSize) * cfg.cs;
    const float pad = static_cast<float>(cfg.borderSize) * cfg.cs;
    std::vector<std::vector<int>> grid(static_cast<size_t>(b.tilesX) * b.tilesZ);
    for (int t = 0; t < ntris; ++t)
    {
        const float* v0 = &verts[3 * tris[3 * t]];
        const float* v1 = &verts[3 * tris[3 * t + 1]];
        const float* v2 = &verts[3 * tris[3 * t + 2]];
        const float x0 = std::min({v0[0], v1[0], v2[0]}) - b.bmin[0] - pad;
        const float x1 = std::max({v0[0], v1[0], v2[0]}) - b.bmin[0] + pad;
        const float z0 = std::min({v0[2], v1[2], v2[2]}) - b.bmin[2] - pad;
        const float z1 = std::max({v0[2], v1[2], v2[2]}) - b.bmin[2] + pad;
        const int tx0 = std::max(0, static_cast<int>(std::floor(x0 / tcs)));
        const int tx1 = std::min(b.tilesX - 1, static_cast<int>(std::floor(x1 / tcs)));
        const int tz0 = std::max(0, static_cast<int>(std::floor(z0 / tcs)));
        const int tz1 = std::min(b.tilesZ - 1, static_cast<int>(std::floor(z1 / tcs)));
        for (int z = tz0; z <= tz1; ++z)
            for (int x = tx0; x <= tx1; ++x)
                grid[static_cast<size_t>(z) * b.tilesX + x].insert(
                    grid[static_cast<size_t>(z) * b.tilesX + x].end(), {tris[3 * t], tris[3 * t + 1], tris[3 * t + 2]});
    }
    for (int z = 0; z < b.tilesZ; ++z)
        for (int x = 0; x < b.tilesX; ++x)
        {
            std::vector<int>& cell = grid[static_cast<size_t>(z) * b.tilesX + x];
            if (cell.empty())
                continue;
            b.tileX.push_back(x);
            b.tileZ.push_back(z);
            b.tris.push_back(std::move(cell));
        }
    return b;
}

/// One baked tile (null meshes: nothing walkable).
struct RecastTile
{
    int x = 0, z = 0;
    rcPolyMesh* pmesh = nullptr;
    rcPolyMeshDetail* dmesh = nullptr;
};

inline void freeRecastTile(RecastTile& t)
{
    rcFreePolyMesh(t.pmesh);
    rcFreePolyMeshDetail(t.dmesh);
    t.pmesh = nullptr;
    t.dmesh = nullptr;
}

/// Sample_TileMesh::buildTileMesh for bucket `i` (without the Detour data).
inline RecastTile bakeRecastTile(rcContext& ctx, const rcConfig& base, const RecastTileBuckets& b, size_t i,
                                 const float* verts, int nverts, bool monotone, bool detail)
{
    auto fail = [](const char* stage) {
        std::fprintf(stderr, "Recast tiled bake failed at %s\n", stage);
        std::exit(1);
    };
    RecastTile out;
    out.x = b.tileX[i];
    out.z = b.tileZ[i];
    rcConfig cfg = base;
    const float tcs = static_cast<float>(cfg.tileSize) * cfg.cs;
    cfg.bmin[0] = b.bmin[0] + static_cast<float>(out.x) * tcs - static_cast<float>(cfg.borderSize) * cfg.cs;
    cfg.bmin[1] = b.bmin[1];
    cfg.bmin[2] = b.bmin[2] + static_cast<float>(out.z) * tcs - static_cast<float>(cfg.borderSize) * cfg.cs;
    cfg.bmax[0] = b.bmin[0] + static_cast<float>(out.x + 1) * tcs + static_cast<float>(cfg.borderSize) * cfg.cs;
    cfg.bmax[1] = b.bmax[1];
    cfg.bmax[2] = b.bmin[2] + static_cast<float>(out.z + 1) * tcs + static_cast<float>(cfg.borderSize) * cfg.cs;

    rcHeightfield* solid = rcAllocHeightfield();
    if (!solid || !rcCreateHeightfield(&ctx, *solid, cfg.width, cfg.height, cfg.bmin, cfg.bmax, cfg.cs, cfg.ch))
        fail("rcCreateHeightfield");
    const std::vector<int>& tris = b.tris[i];
    const int ntris = static_cast<int>(tris.size() / 3);
    std::vector<unsigned char> areas(static_cast<size_t>(ntris), 0);
    rcMarkWalkableTriangles(&ctx, cfg.walkableSlopeAngle, verts, nverts, tris.data(), ntris, areas.data());
    if (!rcRasterizeTriangles(&ctx, verts, nverts, tris.data(), areas.data(), ntris, *solid, cfg.walkableClimb))
        fail("rcRasterizeTriangles");
    rcFilterLowHangingWalkableObstacles(&ctx, cfg.walkableClimb, *solid);
    rcFilterLedgeSpans(&ctx, cfg.walkableHeight, cfg.walkableClimb, *solid);
    rcFilterWalkableLowHeightSpans(&ctx, cfg.walkableHeight, *solid);
    rcCompactHeightfield* chf = rcAllocCompactHeightfield();
    if (!chf || !rcBuildCompactHeightfield(&ctx, cfg.walkableHeight, cfg.walkableClimb, *solid, *chf))
        fail("rcBuildCompactHeightfield");
    rcFreeHeightField(solid);
    if (!rcErodeWalkableArea(&ctx, cfg.walkableRadius, *chf))
        fail("rcErodeWalkableArea");
    if (monotone)
    {
        if (!rcBuildRegionsMonotone(&ctx, *chf, cfg.borderSize, cfg.minRegionArea, cfg.mergeRegionArea))
            fail("rcBuildRegionsMonotone");
    }
    else if (!rcBuildDistanceField(&ctx, *chf) ||
             !rcBuildRegions(&ctx, *chf, cfg.borderSize, cfg.minRegionArea, cfg.mergeRegionArea))
        fail("rcBuildRegions");
    rcContourSet* cset = rcAllocContourSet();
    if (!cset || !rcBuildContours(&ctx, *chf, cfg.maxSimplificationError, cfg.maxEdgeLen, *cset))
        fail("rcBuildContours");
    if (cset->nconts > 0)
    {
        out.pmesh = rcAllocPolyMesh();
        if (!out.pmesh || !rcBuildPolyMesh(&ctx, *cset, cfg.maxVertsPerPoly, *out.pmesh))
            fail("rcBuildPolyMesh");
        if (detail)
        {
            out.dmesh = rcAllocPolyMeshDetail();
            if (!out.dmesh || !rcBuildPolyMeshDetail(&ctx, *out.pmesh, *chf, cfg.detailSampleDist,
                                                     cfg.detailSampleMaxError, *out.dmesh))
                fail("rcBuildPolyMeshDetail");
        }
    }
    rcFreeCompactHeightfield(chf);
    rcFreeContourSet(cset);
    if (out.pmesh && out.pmesh->npolys == 0)
        freeRecastTile(out);
    return out;
}

/// Every tile of `b` on `threads` threads (1: the calling thread alone, as
/// RecastDemo's buildAllTiles; more: a pool taking tiles from a counter, one
/// rcContext each). The tiles come back in bucket order.
inline std::vector<RecastTile> bakeRecastTiles(const rcConfig& cfg, const RecastTileBuckets& b, const float* verts,
                                               int nverts, bool monotone, bool detail, unsigned threads)
{
    std::vector<RecastTile> out(b.tris.size());
    std::atomic<size_t> next{0};
    auto work = [&] {
        rcContext ctx(false);
        for (size_t i = next.fetch_add(1); i < out.size(); i = next.fetch_add(1))
            out[i] = bakeRecastTile(ctx, cfg, b, i, verts, nverts, monotone, detail);
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t)
        pool.emplace_back(work);
    work();
    for (std::thread& t : pool)
        t.join();
    return out;
}

/// Detour's tiled navmesh over baked tiles as Sample_TileMesh builds it: tile
/// and polygon bits from the tile count and the largest tile, polygon area
/// RC_WALKABLE_AREA → 0 and flags 1, a BV tree per tile; without a detail mesh
/// Detour makes one from the polygons. The tiles stay the caller's.
inline dtNavMesh* detourTiledNavMesh(const rcConfig& cfg, const RecastTileBuckets& b, std::vector<RecastTile>& tiles)
{
    using namespace spark::bench::demo;
    auto fail = [](const char* stage) {
        std::fprintf(stderr, "Detour tiled navmesh failed at %s\n", stage);
        std::exit(1);
    };
    int maxPolys = 1;
    for (const RecastTile& t : tiles)
        if (t.pmesh)
            maxPolys = std::max(maxPolys, t.pmesh->npolys);
    auto bitsFor = [](unsigned v) {
        int bits = 0;
        while ((1u << bits) < v)
            ++bits;
        return bits;
    };
    // As the sample: tile bits for the tile count (at most 14), the rest of
    // the 22 that a 32-bit dtPolyRef leaves beside its 10 salt bits for polygons.
    const int tileBits = std::min(bitsFor(static_cast<unsigned>(b.tilesX * b.tilesZ)), 14);
    const int polyBits = 22 - tileBits;
    if (bitsFor(static_cast<unsigned>(maxPolys)) > polyBits || b.tilesX * b.tilesZ > (1 << tileBits))
        fail("the tile and polygon bits (a 32-bit dtPolyRef)");
    dtNavMeshParams params{};
    rcVcopy(params.orig, b.bmin);
    params.tileWidth = static_cast<float>(cfg.tileSize) * cfg.cs;
    params.tileHeight = params.tileWidth;
    params.maxTiles = 1 << tileBits;
    params.maxPolys = 1 << polyBits;
    dtNavMesh* mesh = dtAllocNavMesh();
    if (!mesh || dtStatusFailed(mesh->init(&params)))
        fail("dtNavMesh::init");
    for (RecastTile& t : tiles)
    {
        if (!t.pmesh)
            continue;
        rcPolyMesh& pm = *t.pmesh;
        for (int i = 0; i < pm.npolys; ++i)
        {
            if (pm.areas[i] == RC_WALKABLE_AREA)
                pm.areas[i] = 0;
            pm.flags[i] = 1;
        }
        dtNavMeshCreateParams p = detourCreateParams(pm, t.dmesh, cfg, kAgentHeight, kAgentRadius, kAgentClimb);
        p.tileX = t.x;
        p.tileY = t.z;
        unsigned char* data = nullptr;
        int size = 0;
        if (!dtCreateNavMeshData(&p, &data, &size))
            fail("dtCreateNavMeshData");
        if (dtStatusFailed(mesh->addTile(data, size, DT_TILE_FREE_DATA, 0, nullptr)))
            fail("dtNavMesh::addTile");
    }
    return mesh;
}

} // namespace spark::bench::tiles
