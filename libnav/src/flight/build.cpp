/// \file build.cpp
/// Design note — voxelising a flight volume.
///
/// 1. Solid voxels: a box marks every voxel whose box it overlaps with positive
///    volume; a triangle marks every voxel it touches, by the separating-axis
///    test for a triangle and an axis-aligned box (Akenine-Möller, "Fast 3D
///    triangle-box overlap testing", 2001: the three box normals, the triangle's
///    normal and the nine cross products of edges and box axes), written here
///    from the theorem, over the voxels of the triangle's bounding box.
///    Triangles mark surfaces only: closed meshes are hollow, which is enough
///    for fliers that never start inside them.
/// 2. Erosion by the flier radius r: a voxel is open when its centre is at least
///    r from every solid voxel's box and from the volume's faces. Stamped from
///    the solid voxels that have an open 6-neighbour (the nearest solid voxel of
///    any centre is one of those) with a fixed kernel of offsets whose
///    centre-to-box distance is below r; r is at most kMaxFlightRadiusVoxels
///    voxels, so the kernel stays small.
/// Everything runs in a fixed order over integer voxel coordinates.
#include "flight_internal.h"

#include <glm/geometric.hpp>

#include <algorithm>
#include <array>
#include <string>

namespace spark::nav
{

FlightVolumeDef defaultFlightVolumeDef() { return FlightVolumeDef{}; }

FlightVolume::FlightVolume(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
FlightVolume::FlightVolume(FlightVolume&&) noexcept = default;
FlightVolume& FlightVolume::operator=(FlightVolume&&) noexcept = default;
FlightVolume::~FlightVolume() = default;

const FlightVolumeDef& FlightVolume::def() const { return m_impl->def; }
glm::ivec3 FlightVolume::dims() const { return m_impl->dims; }
int64_t FlightVolume::openVoxelCount() const { return m_impl->openCount; }

bool FlightVolume::isOpen(const glm::dvec3& p) const
{
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
        return false;
    const glm::dvec3 rel = (p - m_impl->def.boundsMin) / m_impl->def.voxelSize;
    if (rel.x < 0.0 || rel.y < 0.0 || rel.z < 0.0 || rel.x >= m_impl->dims.x || rel.y >= m_impl->dims.y ||
        rel.z >= m_impl->dims.z)
        return false;
    const glm::ivec3 v = m_impl->voxelOf(p);
    return m_impl->openAt(v.x, v.y, v.z);
}

Status checkFlightPoint(const glm::dvec3& p, const char* field)
{
    for (int d = 0; d < 3; ++d)
    {
        if (!std::isfinite(p[d]))
            return makeError("E_NAV_FLIGHT_INPUT", "point is not a finite number", field);
        if (std::abs(p[d]) > kMaxFlightCoordinate)
            return makeError("E_NAV_FLIGHT_INPUT", "coordinate is past kMaxFlightCoordinate (1e6 m)", field);
    }
    return Status::success();
}

namespace
{

constexpr const char* kConfig = "E_NAV_FLIGHT_CONFIG";
constexpr const char* kInput = "E_NAV_FLIGHT_INPUT";

bool finite3(const glm::dvec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

/// Does the interval [min, max] of the projections of the triangle (a, b, c)
/// on `axis` miss [−extent, extent], the box's (centred at 0, half size h)?
bool separated(const glm::dvec3& axis, const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c,
               const glm::dvec3& h)
{
    const double pa = glm::dot(axis, a), pb = glm::dot(axis, b), pc = glm::dot(axis, c);
    const double lo = std::min({pa, pb, pc});
    const double hi = std::max({pa, pb, pc});
    const double extent = h.x * std::abs(axis.x) + h.y * std::abs(axis.y) + h.z * std::abs(axis.z);
    return lo > extent || hi < -extent;
}

/// Separating-axis test of a triangle against the box centred at `centre` with half size `h`.
bool triangleTouchesBox(glm::dvec3 a, glm::dvec3 b, glm::dvec3 c, const glm::dvec3& centre, const glm::dvec3& h)
{
    a -= centre;
    b -= centre;
    c -= centre;
    // Box face normals (the bounding boxes).
    for (int d = 0; d < 3; ++d)
    {
        glm::dvec3 axis(0.0);
        axis[d] = 1.0;
        if (separated(axis, a, b, c, h))
            return false;
    }
    const std::array<glm::dvec3, 3> edges{b - a, c - b, a - c};
    // Triangle normal.
    const glm::dvec3 normal = glm::cross(edges[0], edges[1]);
    if (separated(normal, a, b, c, h))
        return false;
    // Edge × box axis.
    for (const glm::dvec3& e : edges)
        for (int d = 0; d < 3; ++d)
        {
            glm::dvec3 boxAxis(0.0);
            boxAxis[d] = 1.0;
            const glm::dvec3 axis = glm::cross(e, boxAxis);
            if (glm::dot(axis, axis) == 0.0)
                continue;
            if (separated(axis, a, b, c, h))
                return false;
        }
    return true;
}

} // namespace

Result<FlightVolume> buildFlightVolume(const FlightVolumeDef& def, const FlightGeometry& geometry)
{
    // Validate the definition.
    if (!finite3(def.boundsMin) || !finite3(def.boundsMax))
        return makeError(kConfig, "bounds are not finite numbers", "/boundsMin");
    for (int d = 0; d < 3; ++d)
    {
        if (std::abs(def.boundsMin[d]) > kMaxFlightCoordinate)
            return makeError(kConfig, "bounds are past kMaxFlightCoordinate (1e6 m)", "/boundsMin");
        if (std::abs(def.boundsMax[d]) > kMaxFlightCoordinate)
            return makeError(kConfig, "bounds are past kMaxFlightCoordinate (1e6 m)", "/boundsMax");
        if (!(def.boundsMax[d] > def.boundsMin[d]))
            return makeError(kConfig, "boundsMax must exceed boundsMin on every axis", "/boundsMax");
    }
    if (!std::isfinite(def.voxelSize) || def.voxelSize < 1.0e-3)
        return makeError(kConfig, "voxelSize must be at least 1e-3 m", "/voxelSize");
    if (!std::isfinite(def.flierRadius) || def.flierRadius < 0.0 ||
        def.flierRadius > kMaxFlightRadiusVoxels * def.voxelSize)
        return makeError(kConfig, "flierRadius must lie in [0, 16 voxels]", "/flierRadius");
    if (def.maxVoxels < 1 || def.maxVoxels > kMaxFlightVoxels)
        return makeError(kConfig, "maxVoxels must lie in [1, 2^27]", "/maxVoxels");
    double total = 1.0;
    glm::ivec3 dims{};
    for (int d = 0; d < 3; ++d)
    {
        const double cells = std::ceil((def.boundsMax[d] - def.boundsMin[d]) / def.voxelSize);
        total *= cells;
        if (total > static_cast<double>(def.maxVoxels))
            return makeError("E_NAV_FLIGHT_LIMIT",
                             "the volume needs more voxels than maxVoxels (" + std::to_string(def.maxVoxels) + ")",
                             "/voxelSize", "use larger voxels, smaller bounds or a larger maxVoxels");
        dims[d] = static_cast<int>(cells);
    }
    // Validate the geometry.
    for (std::size_t i = 0; i < geometry.vertices.size(); ++i)
    {
        const glm::dvec3& v = geometry.vertices[i];
        if (!finite3(v) || std::abs(v.x) > kMaxFlightCoordinate || std::abs(v.y) > kMaxFlightCoordinate ||
            std::abs(v.z) > kMaxFlightCoordinate)
            return makeError(kInput, "vertex is not finite or past kMaxFlightCoordinate",
                             "/vertices/" + std::to_string(i));
    }
    if (geometry.indices.size() % 3 != 0)
        return makeError(kInput, "the index count is not a multiple of 3", "/indices");
    for (std::size_t i = 0; i < geometry.indices.size(); ++i)
        if (geometry.indices[i] >= geometry.vertices.size())
            return makeError(kInput, "index past the vertex count", "/indices/" + std::to_string(i));
    for (std::size_t i = 0; i < geometry.boxes.size(); ++i)
    {
        const FlightBox& b = geometry.boxes[i];
        const std::string at = "/boxes/" + std::to_string(i);
        if (!finite3(b.min) || std::abs(b.min.x) > kMaxFlightCoordinate || std::abs(b.min.y) > kMaxFlightCoordinate ||
            std::abs(b.min.z) > kMaxFlightCoordinate)
            return makeError(kInput, "box corner is not finite or past kMaxFlightCoordinate", at + "/min");
        if (!finite3(b.max) || std::abs(b.max.x) > kMaxFlightCoordinate || std::abs(b.max.y) > kMaxFlightCoordinate ||
            std::abs(b.max.z) > kMaxFlightCoordinate)
            return makeError(kInput, "box corner is not finite or past kMaxFlightCoordinate", at + "/max");
        if (b.max.x < b.min.x || b.max.y < b.min.y || b.max.z < b.min.z)
            return makeError(kInput, "box max is below its min", at + "/max");
    }

    auto impl = std::make_unique<FlightVolume::Impl>();
    FlightVolume::Impl& g = *impl;
    g.def = def;
    g.dims = dims;
    const std::size_t count = static_cast<std::size_t>(dims.x) * dims.y * dims.z;
    std::vector<uint8_t> solid(count, 0);
    const double s = def.voxelSize;
    auto clampRange = [&](double lo, double hi, int axis, int& first, int& last) {
        first = static_cast<int>(std::max(0.0, std::floor((lo - def.boundsMin[axis]) / s)));
        last = static_cast<int>(std::min(dims[axis] - 1.0, std::floor((hi - def.boundsMin[axis]) / s)));
    };

    // 1a. Boxes: voxels overlapping with positive volume.
    for (const FlightBox& b : geometry.boxes)
    {
        glm::ivec3 lo, hi;
        for (int d = 0; d < 3; ++d)
            clampRange(b.min[d], b.max[d], d, lo[d], hi[d]);
        for (int z = lo.z; z <= hi.z; ++z)
            for (int y = lo.y; y <= hi.y; ++y)
                for (int x = lo.x; x <= hi.x; ++x)
                {
                    const glm::dvec3 vmin = def.boundsMin + glm::dvec3(x, y, z) * s;
                    const glm::dvec3 vmax = vmin + s;
                    if (b.min.x < vmax.x && b.max.x > vmin.x && b.min.y < vmax.y && b.max.y > vmin.y &&
                        b.min.z < vmax.z && b.max.z > vmin.z)
                        solid[static_cast<std::size_t>(g.index(x, y, z))] = 1;
                }
    }
    // 1b. Triangles: voxels they touch.
    const glm::dvec3 half(0.5 * s);
    for (std::size_t t = 0; t + 2 < geometry.indices.size(); t += 3)
    {
        const glm::dvec3 a = geometry.vertices[geometry.indices[t]];
        const glm::dvec3 b = geometry.vertices[geometry.indices[t + 1]];
        const glm::dvec3 c = geometry.vertices[geometry.indices[t + 2]];
        glm::ivec3 lo, hi;
        for (int d = 0; d < 3; ++d)
            clampRange(std::min({a[d], b[d], c[d]}), std::max({a[d], b[d], c[d]}), d, lo[d], hi[d]);
        for (int z = lo.z; z <= hi.z; ++z)
            for (int y = lo.y; y <= hi.y; ++y)
                for (int x = lo.x; x <= hi.x; ++x)
                {
                    std::uint8_t& cell = solid[static_cast<std::size_t>(g.index(x, y, z))];
                    if (!cell && triangleTouchesBox(a, b, c, g.centreOf(x, y, z), half))
                        cell = 1;
                }
    }

    // 2. Erosion: start from "not solid", remove what is within r of a face or a solid voxel.
    g.open.assign(count, 1);
    const double r = def.flierRadius;
    for (int z = 0; z < dims.z; ++z)
        for (int y = 0; y < dims.y; ++y)
            for (int x = 0; x < dims.x; ++x)
            {
                const std::size_t i = static_cast<std::size_t>(g.index(x, y, z));
                if (solid[i])
                {
                    g.open[i] = 0;
                    continue;
                }
                const glm::ivec3 v(x, y, z);
                for (int d = 0; d < 3; ++d)
                {
                    const double toLow = (v[d] + 0.5) * s;
                    const double toHigh = (dims[d] - v[d] - 0.5) * s;
                    if (toLow < r || toHigh < r)
                        g.open[i] = 0;
                }
            }
    struct Offset
    {
        int dx, dy, dz;
    };
    std::vector<Offset> kernel;
    const int reach = static_cast<int>(std::ceil(r / s)) + 1;
    for (int dz = -reach; dz <= reach; ++dz)
        for (int dy = -reach; dy <= reach; ++dy)
            for (int dx = -reach; dx <= reach; ++dx)
            {
                auto gap = [&](int k) { return std::max(0.0, (std::abs(k) - 0.5) * s); };
                const double gx = gap(dx), gy = gap(dy), gz = gap(dz);
                if (gx * gx + gy * gy + gz * gz < r * r)
                    kernel.push_back({dx, dy, dz});
            }
    for (int z = 0; z < dims.z; ++z)
        for (int y = 0; y < dims.y; ++y)
            for (int x = 0; x < dims.x; ++x)
            {
                if (!solid[static_cast<std::size_t>(g.index(x, y, z))])
                    continue;
                const bool surface = (x > 0 && !solid[static_cast<std::size_t>(g.index(x - 1, y, z))]) ||
                                     (x + 1 < dims.x && !solid[static_cast<std::size_t>(g.index(x + 1, y, z))]) ||
                                     (y > 0 && !solid[static_cast<std::size_t>(g.index(x, y - 1, z))]) ||
                                     (y + 1 < dims.y && !solid[static_cast<std::size_t>(g.index(x, y + 1, z))]) ||
                                     (z > 0 && !solid[static_cast<std::size_t>(g.index(x, y, z - 1))]) ||
                                     (z + 1 < dims.z && !solid[static_cast<std::size_t>(g.index(x, y, z + 1))]);
                if (!surface)
                    continue;
                for (const Offset& o : kernel)
                {
                    const int nx = x + o.dx, ny = y + o.dy, nz = z + o.dz;
                    if (g.inside(nx, ny, nz))
                        g.open[static_cast<std::size_t>(g.index(nx, ny, nz))] = 0;
                }
            }
    g.openCount = 0;
    for (uint8_t o : g.open)
        g.openCount += o;
    return FlightVolume(std::move(impl));
}

} // namespace spark::nav
