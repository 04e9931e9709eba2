#pragma once
/// \file recast_solo.h
/// Recast's solo-mesh bake as RecastDemo's Sample_SoloMesh runs it by
/// default (watershed regions, detail mesh), shared by the benchmarks that
/// give Detour its own bake (path_bench, crowd_bench); with `monotone`, the
/// sample's SAMPLE_PARTITION_MONOTONE instead (no distance field,
/// rcBuildRegionsMonotone), the partition Spark's bake uses. Exits on a failure.

#include <recastnavigation/Recast.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

struct RecastSoloMesh
{
    rcPolyMesh* pmesh = nullptr;        ///< Owned by the caller (rcFreePolyMesh).
    rcPolyMeshDetail* dmesh = nullptr;  ///< Owned by the caller (rcFreePolyMeshDetail).
};

/// Bakes triangles with `cfg` (bounds and grid size already set); walkable
/// polygons get area 0 (SAMPLE_POLYAREA_GROUND) and flags `flags`.
inline RecastSoloMesh bakeRecastSoloMesh(rcContext& ctx, const rcConfig& cfg, const float* verts, int nverts,
                                         const int* tris, int ntris, unsigned short flags, bool monotone = false)
{
    auto fail = [](const char* stage) {
        std::fprintf(stderr, "Recast bake failed at %s\n", stage);
        std::exit(1);
    };
    rcHeightfield* solid = rcAllocHeightfield();
    if (!rcCreateHeightfield(&ctx, *solid, cfg.width, cfg.height, cfg.bmin, cfg.bmax, cfg.cs, cfg.ch))
        fail("rcCreateHeightfield");
    std::vector<unsigned char> triAreas(static_cast<size_t>(ntris), 0);
    rcMarkWalkableTriangles(&ctx, cfg.walkableSlopeAngle, verts, nverts, tris, ntris, triAreas.data());
    if (!rcRasterizeTriangles(&ctx, verts, nverts, tris, triAreas.data(), ntris, *solid, cfg.walkableClimb))
        fail("rcRasterizeTriangles");
    rcFilterLowHangingWalkableObstacles(&ctx, cfg.walkableClimb, *solid);
    rcFilterLedgeSpans(&ctx, cfg.walkableHeight, cfg.walkableClimb, *solid);
    rcFilterWalkableLowHeightSpans(&ctx, cfg.walkableHeight, *solid);
    rcCompactHeightfield* chf = rcAllocCompactHeightfield();
    if (!rcBuildCompactHeightfield(&ctx, cfg.walkableHeight, cfg.walkableClimb, *solid, *chf))
        fail("rcBuildCompactHeightfield");
    rcFreeHeightField(solid);
    if (!rcErodeWalkableArea(&ctx, cfg.walkableRadius, *chf))
        fail("rcErodeWalkableArea");
    if (monotone)
    {
        if (!rcBuildRegionsMonotone(&ctx, *chf, 0, cfg.minRegionArea, cfg.mergeRegionArea))
            fail("rcBuildRegionsMonotone");
    }
    else
    {
        // SAMPLE_PARTITION_WATERSHED, the sample's default.
        if (!rcBuildDistanceField(&ctx, *chf))
            fail("rcBuildDistanceField");
        if (!rcBuildRegions(&ctx, *chf, 0, cfg.minRegionArea, cfg.mergeRegionArea))
            fail("rcBuildRegions");
    }
    rcContourSet* cset = rcAllocContourSet();
    if (!rcBuildContours(&ctx, *chf, cfg.maxSimplificationError, cfg.maxEdgeLen, *cset))
        fail("rcBuildContours");
    RecastSoloMesh out;
    out.pmesh = rcAllocPolyMesh();
    if (!rcBuildPolyMesh(&ctx, *cset, cfg.maxVertsPerPoly, *out.pmesh))
        fail("rcBuildPolyMesh");
    out.dmesh = rcAllocPolyMeshDetail();
    if (!rcBuildPolyMeshDetail(&ctx, *out.pmesh, *chf, cfg.detailSampleDist, cfg.detailSampleMaxError, *out.dmesh))
        fail("rcBuildPolyMeshDetail");
    rcFreeCompactHeightfield(chf);
    rcFreeContourSet(cset);
    for (int i = 0; i < out.pmesh->npolys; ++i)
    {
        if (out.pmesh->areas[i] == RC_WALKABLE_AREA)
            out.pmesh->areas[i] = 0;
        out.pmesh->flags[i] = flags;
    }
    return out;
}
