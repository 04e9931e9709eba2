#pragma once
/// \file flight_internal.h
/// The voxel grid behind a FlightVolume, shared by build.cpp, raycast.cpp and path.cpp.

#include "spark/nav/flight.h"

#include <cmath>
#include <cstdint>
#include <vector>

namespace spark::nav
{

struct FlightVolume::Impl
{
    FlightVolumeDef def;
    glm::ivec3 dims{0, 0, 0};
    /// 1 = open (eroded free space), 0 = blocked; x fastest, then y, then z.
    std::vector<uint8_t> open;
    int64_t openCount = 0;

    // A* scratch, sized on the first search and reused.
    std::vector<float> cost;
    std::vector<uint32_t> parent;
    std::vector<uint32_t> stamp; ///< 2·generation: seen this search; 2·generation + 1: closed.
    uint32_t generation = 0;
    struct HeapEntry
    {
        float f;
        uint32_t index;
    };
    std::vector<HeapEntry> heap;
    std::vector<glm::dvec3> rawPath;

    int64_t index(int x, int y, int z) const
    {
        return (static_cast<int64_t>(z) * dims.y + y) * dims.x + x;
    }
    bool inside(int x, int y, int z) const
    {
        return x >= 0 && y >= 0 && z >= 0 && x < dims.x && y < dims.y && z < dims.z;
    }
    bool openAt(int x, int y, int z) const { return inside(x, y, z) && open[static_cast<std::size_t>(index(x, y, z))]; }
    /// Voxel coordinate of p along each axis (may be outside the grid).
    glm::ivec3 voxelOf(const glm::dvec3& p) const
    {
        const glm::dvec3 rel = (p - def.boundsMin) / def.voxelSize;
        return {static_cast<int>(std::floor(rel.x)), static_cast<int>(std::floor(rel.y)),
                static_cast<int>(std::floor(rel.z))};
    }
    glm::dvec3 centreOf(int x, int y, int z) const
    {
        return def.boundsMin + (glm::dvec3(x, y, z) + 0.5) * def.voxelSize;
    }
};

/// Validates a query point: finite and within kMaxFlightCoordinate.
Status checkFlightPoint(const glm::dvec3& p, const char* field);

/// Raycast on the grid (no validation): see FlightVolume::raycast.
FlightRaycastHit raycastGrid(const FlightVolume::Impl& grid, const glm::dvec3& from, const glm::dvec3& to);

} // namespace spark::nav
