#pragma once
/// \file flight.h
/// Flight volumes: the open space of a box-shaped region as voxels, for fliers.
/// Built from triangles and boxes (the static colliders): a voxel is solid where
/// geometry touches it; open space is what stays free after eroding by the
/// flier radius (a voxel is open when its centre is at least the radius away
/// from every solid voxel and from the volume's faces), so a flier's centre may
/// be anywhere in open space. `raycast` finds the first blocked point along a
/// segment; `path` runs A* over open voxels (26-connected, no corner cutting)
/// and smooths the result by raycasts. A host keeps each step in open space
/// with `raycast`, sliding along the axes when a step is blocked
/// (samples/embed/flight.cpp).
///
/// Units: metres, +Y up. Voxel (x, y, z) is the box
/// boundsMin + [x, x+1)·voxelSize × [y, y+1)·voxelSize × [z, z+1)·voxelSize.

#include "spark/core/result.h"

#include <glm/vec3.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "spark/core/export.h"
SPARK_NAV_API_BEGIN

namespace spark::nav
{

/// Hard upper bound for `FlightVolumeDef::maxVoxels`.
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
inline constexpr int64_t kMaxFlightVoxels = int64_t{1} << 22; // fuzz builds: one input stays fast
#else
inline constexpr int64_t kMaxFlightVoxels = int64_t{1} << 27;
#endif
/// Largest accepted |coordinate| of bounds, geometry and queries. [Units: m]
inline constexpr double kMaxFlightCoordinate = 1.0e6;
/// Largest flier radius in voxels (the erosion kernel's reach).
inline constexpr int kMaxFlightRadiusVoxels = 16;

/// How a flight volume is built.
struct FlightVolumeDef
{
    /// Low corner of the volume. [Limit: |coordinate| <= kMaxFlightCoordinate] [Units: m]
    glm::dvec3 boundsMin{-50.0, 0.0, -50.0};
    /// High corner of the volume. [Limit: > boundsMin on every axis] [Units: m]
    glm::dvec3 boundsMax{50.0, 20.0, 50.0};
    /// Edge of a voxel. [Limit: > 0, >= 1e-3] [Units: m]
    double voxelSize = 0.5;
    /// Radius the open space is eroded by. [Limit: 0..kMaxFlightRadiusVoxels · voxelSize] [Units: m]
    double flierRadius = 0.5;
    /// Most voxels the volume may have; more is refused. [Limit: 1..kMaxFlightVoxels]
    int64_t maxVoxels = int64_t{1} << 24;
};

/// The defaults above.
FlightVolumeDef defaultFlightVolumeDef();

/// An axis-aligned solid box.
struct FlightBox
{
    glm::dvec3 min{0.0, 0.0, 0.0}; ///< [Units: m]
    glm::dvec3 max{0.0, 0.0, 0.0}; ///< [Limit: >= min on every axis] [Units: m]
};

/// The static geometry, caller-owned: triangles (3 indices each into
/// `vertices`) and boxes.
struct FlightGeometry
{
    std::span<const glm::dvec3> vertices; ///< [Units: m]
    std::span<const uint32_t> indices;    ///< [Limit: size a multiple of 3, each < vertices.size()]
    std::span<const FlightBox> boxes;     ///< Solid boxes.
};

/// The answer of `FlightVolume::raycast`.
struct FlightRaycastHit
{
    bool blocked = false;             ///< True when the segment leaves open space.
    double t = 1.0;                   ///< Fraction of the segment before the first blocked point (1 when clear).
    glm::dvec3 point{0.0, 0.0, 0.0}; ///< The first blocked point, or the segment's end when clear. [Units: m]
};

/// The answer of `FlightVolume::path`.
struct FlightPath
{
    std::vector<glm::dvec3> points; ///< From the start to the goal (or the reached voxel nearest it). [Units: m]
    bool partial = false;           ///< True when the goal is not reachable: the path ends nearest to it.
    int expandedVoxels = 0;         ///< Voxels the A* search closed.
};

/// A voxelised flight volume. Owns its voxels and the search buffers that
/// `path` reuses (so `path` is not const; one object per thread).
class FlightVolume
{
public:
    FlightVolume(FlightVolume&&) noexcept;
    FlightVolume& operator=(FlightVolume&&) noexcept;
    ~FlightVolume();

    /// The definition it was built from.
    const FlightVolumeDef& def() const;
    /// Voxels along x, y, z.
    glm::ivec3 dims() const;
    /// Number of open voxels.
    int64_t openVoxelCount() const;
    /// True when `p` lies in an open voxel (false outside the volume or for NaN).
    bool isOpen(const glm::dvec3& p) const;

    /// The first blocked point along the segment `from` → `to` (voxel DDA,
    /// Amanatides & Woo). A start outside open space is blocked at t = 0.
    /// Errors: `E_NAV_FLIGHT_INPUT` (NaN or past kMaxFlightCoordinate; field `/from` or `/to`).
    Result<FlightRaycastHit> raycast(const glm::dvec3& from, const glm::dvec3& to) const;

    /// A path through open space: A* over open voxels (26-connected; a diagonal
    /// step needs every voxel it sweeps open), then smoothed by raycasts. The
    /// first point is `from`, the last `to` (or, partial, the centre of the
    /// reached voxel nearest to it). Errors: `E_NAV_FLIGHT_INPUT` (NaN, past the
    /// limits), `E_NAV_FLIGHT_BLOCKED` (`from` or `to` not in open space; the field names which).
    Result<FlightPath> path(const glm::dvec3& from, const glm::dvec3& to);

    struct Impl;

private:
    explicit FlightVolume(std::unique_ptr<Impl> impl);
    friend Result<FlightVolume> buildFlightVolume(const FlightVolumeDef& def, const FlightGeometry& geometry);
    std::unique_ptr<Impl> m_impl;
};

/// Voxelises `geometry` into a flight volume. Errors: `E_NAV_FLIGHT_CONFIG` (a
/// def field past its limit), `E_NAV_FLIGHT_LIMIT` (more voxels than
/// `maxVoxels`), `E_NAV_FLIGHT_INPUT` (NaN or far geometry, bad indices, an
/// inverted box; the field path names it, e.g. `/boxes/2/max`).
Result<FlightVolume> buildFlightVolume(const FlightVolumeDef& def, const FlightGeometry& geometry);

} // namespace spark::nav
SPARK_NAV_API_END
