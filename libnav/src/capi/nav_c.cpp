// The C API of libnav (nav_c.h): opaque handles over NavMesh and NavWorld,
// every pointer checked, every exception caught at the boundary, results as
// an enum. It only translates: the work is the C++ API's, so a C program and
// a C++ one given the same input get the same bits.

#include "spark/nav_c.h"

#include "spark/core/hash.h"
#include "spark/core/rng.h"
#include "spark/nav/bake.h"
#include "spark/nav/bake2d.h"
#include "spark/nav/avoidance.h"
#include "spark/nav/corridor.h"
#include "spark/nav/flight.h"
#include "spark/nav/steer.h"
#include "spark/nav/nav_world.h"
#include "spark/nav/query.h"
#include "spark/nav/version.h"

#include <atomic>
#include <cmath>
#include <cstring>
#include <memory>
#include <new>
#include <span>
#include <string_view>
#include <type_traits>

struct spark_nav_mesh
{
    spark::nav::NavMesh mesh;
};

struct spark_nav_world
{
    spark::nav::NavWorld world;
    /// The world field of this world's handle numbers (1..2047, from a
    /// process-wide count of worlds made), so a number from another world is refused.
    uint32_t tag = 0;
};

struct spark_nav_avoidance
{
    spark::nav::Avoidance avoidance;
    std::vector<spark::nav::AvoidanceAgent> agents;
    std::vector<spark::nav::AvoidanceObstacle> obstacles;
    std::vector<glm::dvec2> points;
    std::vector<glm::dvec2> velocities;
    std::vector<spark::nav::AvoidanceAgent3D> agents3;
    std::vector<spark::nav::AvoidanceSphere> spheres;
    std::vector<glm::dvec3> velocities3;
};

struct spark_nav_flight
{
    spark::nav::FlightVolume volume;
};

struct spark_nav_corridor
{
    spark::nav::Corridor corridor;
    spark::nav::QueryScratch scratch;
    std::vector<spark::nav::CorridorCorner> corners;
    /// The world field of the link ids of a corridor planned in a world (its hops'
    /// link keys become that world's numbers); 0 for a corridor on a plain mesh.
    uint32_t worldTag = 0;
    /// Planned on a 2D mesh: its agents cross links on the plane (no arc).
    bool flat = false;
};

namespace
{

using namespace spark;
using namespace spark::nav;

spark_nav_result resultOf(const Error& e)
{
    const std::string_view c = e.code;
    if (c == "E_NAV_OFF_MESH")
        return SPARK_NAV_OFF_MESH;
    if (c == "E_NAV_NO_GEOMETRY")
        return SPARK_NAV_NO_GEOMETRY;
    if (c == "E_NAV_LIMIT")
        return SPARK_NAV_LIMIT;
    if (c == "E_NAV_FORMAT")
        return SPARK_NAV_FORMAT;
    if (c == "E_NAV_CONFIG")
        return SPARK_NAV_CONFIG;
    if (c == "E_NAV_NO_MESH" || c == "E_NAV_UNKNOWN_AGENT" || c == "E_NAV_UNKNOWN_OBSTACLE" ||
        c == "E_NAV_UNKNOWN_LINK")
        return SPARK_NAV_UNKNOWN_ID;
    if (c == "E_INVALID_PARAMS" || c == "E_NAV_AVOIDANCE_INPUT")
        return SPARK_NAV_INVALID_ARGUMENT;
    if (c == "E_NAV_AVOIDANCE_LIMIT" || c == "E_NAV_FLIGHT_LIMIT")
        return SPARK_NAV_LIMIT;
    if (c == "E_NAV_AVOIDANCE_CONFIG" || c == "E_NAV_FLIGHT_CONFIG")
        return SPARK_NAV_CONFIG;
    if (c == "E_NAV_FLIGHT_INPUT")
        return SPARK_NAV_INVALID_ARGUMENT;
    if (c == "E_NAV_FLIGHT_BLOCKED")
        return SPARK_NAV_OFF_MESH;
    return SPARK_NAV_INTERNAL;
}

/// SPARK_NAV_OK for a success, else the failure's result.
spark_nav_result resultOf(const Status& st)
{
    return st.ok() ? SPARK_NAV_OK : resultOf(st.error());
}

/// Returns the result of a failed Status from the enclosing function.
#define SPARK_NAV_TRY(expr)                                                                                            \
    do                                                                                                                 \
    {                                                                                                                  \
        const ::spark::Status st_ = (expr);                                                                            \
        if (!st_.ok())                                                                                                 \
            return resultOf(st_.error());                                                                              \
    } while (0)

/// Runs `body` (returning a spark_nav_result) with nothing escaping the boundary.
template <class F> spark_nav_result guarded(F&& body)
{
    try
    {
        return body();
    }
    catch (const std::bad_alloc&)
    {
        return SPARK_NAV_INTERNAL;
    }
    catch (...)
    {
        return SPARK_NAV_INTERNAL;
    }
}

/// A world's handle as the C API's number: its kind and world are in it (id.h).
template <class Tag> uint64_t idNumber(const spark_nav_world* world, Id<Tag> id)
{
    return handleNumber(id, world->tag);
}

/// The handle a number names in `world`: null for another kind's or world's number.
template <class Tag> Id<Tag> idOf(const spark_nav_world* world, uint64_t n)
{
    return handleFromNumber<Tag>(n, world->tag);
}

glm::vec3 vec(const float p[3])
{
    return glm::vec3(p[0], p[1], p[2]);
}

void put(float out[3], const glm::vec3& v)
{
    out[0] = v.x;
    out[1] = v.y;
    out[2] = v.z;
}

/// The corridor's polygons are walkable polygons of `mesh` (a corridor from
/// another mesh, or one the mesh changed under, is refused, not followed).
bool corridorFits(const NavMesh& mesh, const Corridor& c)
{
    for (uint32_t p : c.polygons)
        if (p >= mesh.polygonCount() || mesh.disabled(p))
            return false;
    return !c.polygons.empty();
}

/// A world mesh's current polygons and its resolved links (for paths and
/// corridors over them); null for a number that names no mesh of `world`.
const NavMesh* meshWithLinks(const spark_nav_world* world, uint64_t meshNumber, std::vector<PathLink>& links)
{
    const MeshId mesh = idOf<MeshTag>(world, meshNumber);
    const NavMesh* current = world->world.mesh(mesh);
    if (current)
        world->world.pathLinksOf(mesh, links);
    return current;
}

/// Changes an agent's settings by `edit` (it stays where it is): unknown id,
/// settings out of their limits (nothing changes) or done.
template <class F> spark_nav_result editAgentDef(spark_nav_world* world, uint64_t agentNumber, F&& edit)
{
    return guarded([&] {
        const AgentId id = idOf<AgentTag>(world, agentNumber);
        const CrowdAgent* a = world->world.agent(id);
        if (!a)
            return SPARK_NAV_UNKNOWN_ID;
        CrowdAgentDef def = a->def;
        edit(def);
        return resultOf(world->world.setAgentDef(id, def));
    });
}

/// A path's points, length and completeness into the caller's outputs.
spark_nav_result writePath(const PathResult& path, float* out_points, size_t capacity, size_t* out_count,
                           float* out_length, int* out_complete)
{
    *out_count = path.points.size();
    if (path.points.size() > capacity)
        return SPARK_NAV_BUFFER_TOO_SMALL;
    for (size_t i = 0; i < path.points.size(); ++i)
        put(out_points + 3 * i, path.points[i]);
    if (out_length)
        *out_length = path.length;
    if (out_complete)
        *out_complete = path.complete ? 1 : 0;
    return SPARK_NAV_OK;
}

/// An enum argument's value as the caller passed it. A C caller may pass any
/// int (a negative one too), and reading an enum outside its range (0 ..
/// 0x7FFFFFFF here) as the enum type is undefined behaviour in C++, so the bits
/// are copied into an integer and only that integer is compared.
template <class E> int32_t enumValue(const E& e)
{
    static_assert(std::is_enum_v<E> && sizeof(E) == sizeof(int32_t), "the C API's enums are as wide as an int");
    int32_t v;
    std::memcpy(&v, &e, sizeof v);
    return v;
}

/// Most elements of one input array the C API copies (vertices, triangles,
/// boxes, random points): checked before anything is read, so a count that
/// wraps or passes the arrays' real size is refused with SPARK_NAV_LIMIT.
constexpr size_t kMaxInputItems = size_t{1} << 24;
static_assert(kMaxInputItems >= kMaxVertices && kMaxInputItems >= kMaxPolygons);

bool finite3(const float p[3])
{
    return std::isfinite(p[0]) && std::isfinite(p[1]) && std::isfinite(p[2]);
}

static_assert(int(AgentState::Idle) == SPARK_NAV_IDLE && int(AgentState::Moving) == SPARK_NAV_MOVING &&
              int(AgentState::Arrived) == SPARK_NAV_ARRIVED && int(AgentState::NoPath) == SPARK_NAV_NO_PATH &&
              int(AgentState::OffMesh) == SPARK_NAV_AGENT_OFF_MESH);

/// The fields a 2D and a 3D avoidance agent share, from the C struct (N
/// doubles per vector: 2 on the plane, 3 for fliers).
template <class In, class Out>
void copyAvoidAgent(const In& in, Out& out)
{
    using V = decltype(out.position);
    auto vector = [](const double* c) {
        V v;
        for (int k = 0; k < V::length(); ++k)
            v[k] = c[k];
        return v;
    };
    out.position = vector(in.position);
    out.velocity = vector(in.velocity);
    out.preferred = vector(in.preferred);
    out.radius = in.radius;
    out.maxSpeed = in.max_speed;
    out.priority = in.priority;
    out.id = in.id;
    out.layers = in.layers;
    out.ignores = in.ignores;
}

/// The new velocities as N doubles each.
template <class V>
void writeVelocities(std::span<const V> velocities, double* out)
{
    for (size_t i = 0; i < velocities.size(); ++i)
        for (int k = 0; k < V::length(); ++k)
            out[V::length() * i + k] = velocities[i][k];
}

} // namespace

extern "C" {

const char* spark_nav_result_string(spark_nav_result result)
{
    switch (enumValue(result))
    {
    case SPARK_NAV_OK:
        return "ok";
    case SPARK_NAV_INVALID_ARGUMENT:
        return "invalid argument";
    case SPARK_NAV_BUFFER_TOO_SMALL:
        return "buffer too small";
    case SPARK_NAV_OFF_MESH:
        return "off the mesh";
    case SPARK_NAV_NO_GEOMETRY:
        return "no geometry";
    case SPARK_NAV_LIMIT:
        return "limit exceeded";
    case SPARK_NAV_FORMAT:
        return "bad mesh format";
    case SPARK_NAV_CONFIG:
        return "bad settings";
    case SPARK_NAV_UNKNOWN_ID:
        return "unknown id";
    case SPARK_NAV_INTERNAL:
        return "internal error";
    default:
        break;
    }
    return "unknown result";
}

const char* spark_nav_version(void)
{
    return spark::nav::version();
}

spark_nav_bake_settings spark_nav_bake_settings_default(void)
{
    const BakeDef d = defaultBakeDef();
    return spark_nav_bake_settings{d.cellSize,     d.cellHeight,  d.agentRadius,
                                   d.agentHeight,  d.stepHeight,  d.maxSlopeDeg,
                                   d.maxSimplificationError, d.maxEdgeLen, d.maxVertsPerPoly,
                                   d.minRegionArea, d.mergeRegionArea, d.tileSize, d.threads};
}

spark_nav_result spark_nav_mesh_bake(const float* vertices, size_t vertex_count, const uint32_t* indices,
                                     size_t index_count, const uint8_t* areas, int one_sided,
                                     const spark_nav_bake_settings* settings, spark_nav_mesh** out)
{
    if (!vertices || !indices || !settings || !out || vertex_count == 0 || index_count == 0 || index_count % 3 != 0)
        return SPARK_NAV_INVALID_ARGUMENT;
    if (vertex_count > kMaxVertices || index_count / 3 > kMaxInputItems)
        return SPARK_NAV_LIMIT;
    return guarded([&] {
        BakeInput in;
        in.vertices.resize(vertex_count);
        for (size_t i = 0; i < vertex_count; ++i)
            in.vertices[i] = vec(vertices + 3 * i);
        in.indices.assign(indices, indices + index_count);
        if (areas)
            in.areas.assign(areas, areas + index_count / 3);
        in.oneSided = one_sided != 0;
        in.solids = connectedTriangleRuns(in); // closed pieces are filled (nav.bake's colliders are)
        BakeDef def;
        def.cellSize = settings->cell_size;
        def.cellHeight = settings->cell_height;
        def.agentRadius = settings->agent_radius;
        def.agentHeight = settings->agent_height;
        def.stepHeight = settings->step_height;
        def.maxSlopeDeg = settings->max_slope_deg;
        def.maxSimplificationError = settings->max_simplification_error;
        def.maxEdgeLen = settings->max_edge_len;
        def.maxVertsPerPoly = settings->max_verts_per_poly;
        def.minRegionArea = settings->min_region_area;
        def.mergeRegionArea = settings->merge_region_area;
        def.tileSize = settings->tile_size;
        def.threads = settings->threads;
        auto baked = bakeNavMesh(in, def);
        if (!baked.ok())
            return resultOf(baked.error());
        *out = new spark_nav_mesh{std::move(baked.value().mesh)};
        return SPARK_NAV_OK;
    });
}

spark_nav_result spark_nav_mesh_build(const float* vertices, size_t vertex_count, const uint32_t* indices,
                                      const uint32_t* poly_starts, size_t poly_count, const uint8_t* areas,
                                      int is_2d, float agent_radius, spark_nav_mesh** out)
{
    if (!vertices || !indices || !poly_starts || !out || vertex_count == 0 || poly_count == 0 ||
        !std::isfinite(agent_radius) || agent_radius < 0.0f)
        return SPARK_NAV_INVALID_ARGUMENT;
    if (vertex_count > kMaxVertices || poly_count > kMaxPolygons)
        return SPARK_NAV_LIMIT;
    // The offsets are checked before `indices` is read through them.
    if (poly_starts[0] != 0)
        return SPARK_NAV_INVALID_ARGUMENT;
    for (size_t i = 0; i < poly_count; ++i)
        if (poly_starts[i + 1] < poly_starts[i])
            return SPARK_NAV_INVALID_ARGUMENT;
    if (poly_starts[poly_count] > size_t{kMaxPolygons} * kMaxPolyVerts)
        return SPARK_NAV_LIMIT;
    return guarded([&] {
        PolySoup soup;
        soup.vertices.resize(vertex_count);
        for (size_t i = 0; i < vertex_count; ++i)
            soup.vertices[i] = vec(vertices + 3 * i);
        soup.polyStarts.assign(poly_starts, poly_starts + poly_count + 1);
        soup.indices.assign(indices, indices + soup.polyStarts.back());
        soup.areas.assign(poly_count, 0);
        if (areas)
            soup.areas.assign(areas, areas + poly_count);
        NavMeshDef def = defaultNavMeshDef();
        def.is2d = is_2d != 0;
        def.settings.agentRadius = agent_radius;
        auto built = buildNavMesh(soup, def);
        if (!built.ok())
            return resultOf(built.error());
        *out = new spark_nav_mesh{std::move(built.value())};
        return SPARK_NAV_OK;
    });
}

spark_nav_result spark_nav_mesh_bake_grid(const uint8_t* blocked, const uint8_t* areas, int width, int height,
                                          float cell_size, float origin_x, float origin_y, float agent_radius,
                                          spark_nav_mesh** out)
{
    if (!blocked || !out || width < 1 || height < 1 || !std::isfinite(agent_radius) || agent_radius < 0.0f)
        return SPARK_NAV_INVALID_ARGUMENT;
    if (width > kMaxGrid2DCells || height > kMaxGrid2DCells)
        return SPARK_NAV_LIMIT;
    return guarded([&] {
        Grid2D grid;
        grid.width = width;
        grid.height = height;
        grid.cellSize = cell_size;
        grid.origin = glm::vec2(origin_x, origin_y);
        const size_t cells = size_t(width) * size_t(height);
        grid.blocked.assign(blocked, blocked + cells);
        if (areas)
            grid.areas.assign(areas, areas + cells);
        auto baked = bakeGrid2DWithStats(grid, agent_radius);
        if (!baked.ok())
            return resultOf(baked.error());
        BakeDef def = defaultBakeDef();
        def.agentRadius = agent_radius;
        def.cellSize = cell_size;
        auto built = buildNavMesh(baked.value().mesh, navMeshDefFromBake(def, true));
        if (!built.ok())
            return resultOf(built.error());
        *out = new spark_nav_mesh{std::move(built.value())};
        return SPARK_NAV_OK;
    });
}

spark_nav_result spark_nav_mesh_save(const spark_nav_mesh* mesh, uint8_t* out_bytes, size_t capacity,
                                     size_t* out_size)
{
    if (!mesh || !out_size || (!out_bytes && capacity != 0) || mesh->mesh.disabledCount() != 0)
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        const std::vector<uint8_t> bytes = serializeNavMesh(mesh->mesh);
        *out_size = bytes.size();
        if (!out_bytes)
            return SPARK_NAV_OK;
        if (bytes.size() > capacity)
            return SPARK_NAV_BUFFER_TOO_SMALL;
        std::memcpy(out_bytes, bytes.data(), bytes.size());
        return SPARK_NAV_OK;
    });
}

spark_nav_result spark_nav_mesh_load(const uint8_t* bytes, size_t size, spark_nav_mesh** out)
{
    if (!bytes || !out || size == 0)
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        auto mesh = deserializeNavMesh(std::span<const uint8_t>(bytes, size));
        if (!mesh.ok())
            return resultOf(mesh.error());
        *out = new spark_nav_mesh{std::move(mesh.value())};
        return SPARK_NAV_OK;
    });
}

void spark_nav_mesh_destroy(spark_nav_mesh* mesh)
{
    delete mesh;
}

spark_nav_result spark_nav_mesh_polygon_count(const spark_nav_mesh* mesh, uint32_t* out)
{
    if (!mesh || !out)
        return SPARK_NAV_INVALID_ARGUMENT;
    *out = mesh->mesh.activePolygonCount();
    return SPARK_NAV_OK;
}

spark_nav_result spark_nav_mesh_hash(const spark_nav_mesh* mesh, uint64_t* out)
{
    if (!mesh || !out)
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        *out = hashNavMesh(mesh->mesh);
        return SPARK_NAV_OK;
    });
}

spark_nav_result spark_nav_nearest(const spark_nav_mesh* mesh, const float point[3], const float half_extents[3],
                                   float out_point[3])
{
    if (!mesh || !point || !half_extents || !out_point)
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        auto at = findNearest(mesh->mesh, vec(point), vec(half_extents));
        if (!at.ok())
            return resultOf(at.error());
        put(out_point, at->point);
        return SPARK_NAV_OK;
    });
}

spark_nav_result spark_nav_path(const spark_nav_mesh* mesh, const float from[3], const float to[3],
                                const float half_extents[3], float* out_points, size_t capacity, size_t* out_count,
                                float* out_length, int* out_complete)
{
    if (!mesh || !from || !to || !half_extents || !out_count || (!out_points && capacity != 0))
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        QueryScratch scratch;
        PathResult path;
        const Status st =
            findPath(mesh->mesh, scratch, vec(from), vec(to), defaultQueryFilter(), vec(half_extents), path);
        if (!st.ok())
            return resultOf(st.error());
        return writePath(path, out_points, capacity, out_count, out_length, out_complete);
    });
}

spark_nav_result spark_nav_raycast(const spark_nav_mesh* mesh, const float from[3], const float to[3],
                                   const float half_extents[3], int* out_hit, float* out_fraction, float out_point[3],
                                   float out_normal[3])
{
    if (!mesh || !from || !to || !half_extents)
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        QueryScratch scratch;
        auto r = raycast(mesh->mesh, scratch, vec(from), vec(to), defaultQueryFilter(), vec(half_extents));
        if (!r.ok())
            return resultOf(r.error());
        if (out_hit)
            *out_hit = r->hit ? 1 : 0;
        if (out_fraction)
            *out_fraction = r->fraction;
        if (out_point)
            put(out_point, r->point);
        if (out_normal)
            put(out_normal, r->normal);
        return SPARK_NAV_OK;
    });
}

spark_nav_result spark_nav_walls(const spark_nav_mesh* mesh, const float point[3], float range, float* out_walls,
                                 size_t capacity, size_t* out_count)
{
    if (!mesh || !point || !out_count || (!out_walls && capacity != 0))
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        QueryScratch scratch;
        std::vector<WallHit> hits;
        SPARK_NAV_TRY(findWalls(mesh->mesh, scratch, vec(point), range, hits));
        *out_count = hits.size();
        if (hits.size() > capacity)
            return SPARK_NAV_BUFFER_TOO_SMALL;
        for (size_t i = 0; i < hits.size(); ++i)
        {
            put(out_walls + 9 * i, hits[i].wall.a);
            put(out_walls + 9 * i + 3, hits[i].wall.b);
            put(out_walls + 9 * i + 6, hits[i].wall.normal);
        }
        return SPARK_NAV_OK;
    });
}

spark_nav_result spark_nav_random_points(const spark_nav_mesh* mesh, uint64_t seed, size_t count, float* out_points)
{
    if (!mesh || (!out_points && count != 0))
        return SPARK_NAV_INVALID_ARGUMENT;
    if (count > kMaxInputItems)
        return SPARK_NAV_LIMIT;
    return guarded([&] {
        Rng rng = rngFromSeed(seed);
        for (size_t i = 0; i < count; ++i)
        {
            auto p = randomPoint(mesh->mesh, rng);
            if (!p.ok())
                return resultOf(p.error());
            put(out_points + 3 * i, p->point);
        }
        return SPARK_NAV_OK;
    });
}

spark_nav_result spark_nav_corridor_plan(const spark_nav_mesh* mesh, const float start[3], const float goal[3],
                                         const float half_extents[3], spark_nav_corridor** out)
{
    if (!mesh || !start || !goal || !half_extents || !out)
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        auto c = std::make_unique<spark_nav_corridor>();
        const Status st = planCorridor(mesh->mesh, c->scratch, vec(start), vec(goal), defaultQueryFilter(),
                                       vec(half_extents), c->corridor);
        if (!st.ok())
            return resultOf(st.error());
        c->flat = mesh->mesh.is2d();
        *out = c.release();
        return SPARK_NAV_OK;
    });
}

void spark_nav_corridor_destroy(spark_nav_corridor* corridor)
{
    delete corridor;
}

spark_nav_result spark_nav_corridor_info(const spark_nav_corridor* corridor, float out_position[3],
                                         size_t* out_polygons, int* out_complete)
{
    if (!corridor)
        return SPARK_NAV_INVALID_ARGUMENT;
    if (out_position)
        put(out_position, corridor->corridor.position);
    if (out_polygons)
        *out_polygons = corridor->corridor.polygons.size();
    if (out_complete)
        *out_complete = corridor->corridor.complete ? 1 : 0;
    return SPARK_NAV_OK;
}

spark_nav_result spark_nav_corridor_corners(const spark_nav_mesh* mesh, spark_nav_corridor* corridor,
                                            float* out_points, size_t capacity, size_t* out_count,
                                            int* out_reaches_end)
{
    if (!mesh || !corridor || !out_points || !out_count || capacity < 1 || capacity > kMaxCorridorCorners)
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        if (!corridorFits(mesh->mesh, corridor->corridor))
            return SPARK_NAV_INVALID_ARGUMENT; // check and replan it first
        const Status st = findCorridorCorners(mesh->mesh, corridor->scratch, corridor->corridor,
                                              static_cast<uint32_t>(capacity), corridor->corners);
        if (!st.ok())
            return resultOf(st.error());
        for (size_t i = 0; i < corridor->corners.size(); ++i)
            put(out_points + 3 * i, corridor->corners[i].point);
        *out_count = corridor->corners.size();
        if (out_reaches_end)
            *out_reaches_end =
                !corridor->corners.empty() && (corridor->corners.back().flags & kCornerEnd) != 0 ? 1 : 0;
        return SPARK_NAV_OK;
    });
}

static_assert(int(SPARK_NAV_CORNER_END) == int(kCornerEnd) &&
              int(SPARK_NAV_CORNER_LINK_START) == int(kCornerOffMeshStart));

spark_nav_result spark_nav_corridor_corners_flagged(const spark_nav_mesh* mesh, spark_nav_corridor* corridor,
                                                    float* out_points, uint32_t* out_flags, size_t capacity,
                                                    size_t* out_count)
{
    if (!out_flags || !out_count)
        return SPARK_NAV_INVALID_ARGUMENT;
    size_t count = 0;
    const spark_nav_result r = spark_nav_corridor_corners(mesh, corridor, out_points, capacity, &count, nullptr);
    if (r != SPARK_NAV_OK)
        return r;
    for (size_t i = 0; i < count; ++i)
        out_flags[i] = corridor->corners[i].flags;
    *out_count = count;
    return SPARK_NAV_OK;
}

spark_nav_result spark_nav_corridor_move(const spark_nav_mesh* mesh, spark_nav_corridor* corridor,
                                         const float wanted[3], float out_position[3])
{
    if (!mesh || !corridor || !wanted || !out_position)
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        if (!corridorFits(mesh->mesh, corridor->corridor))
            return SPARK_NAV_INVALID_ARGUMENT; // check and replan it first
        const Status st = moveCorridor(mesh->mesh, corridor->scratch, corridor->corridor, vec(wanted),
                                       defaultQueryFilter());
        if (!st.ok())
            return resultOf(st.error());
        put(out_position, corridor->corridor.position);
        return SPARK_NAV_OK;
    });
}

spark_nav_result spark_nav_corridor_check(const spark_nav_mesh* mesh, const spark_nav_corridor* corridor,
                                          int* out_valid)
{
    if (!mesh || !corridor || !out_valid)
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        *out_valid = checkCorridor(mesh->mesh, corridor->corridor, defaultQueryFilter()) ? 1 : 0;
        return SPARK_NAV_OK;
    });
}

spark_nav_result spark_nav_corridor_replan(const spark_nav_mesh* mesh, spark_nav_corridor* corridor,
                                           const float half_extents[3])
{
    if (!mesh || !corridor || !half_extents)
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        return resultOf(
            replanCorridor(mesh->mesh, corridor->scratch, corridor->corridor, defaultQueryFilter(), vec(half_extents)));
    });
}

spark_nav_result spark_nav_corridor_steering(const spark_nav_mesh* mesh, spark_nav_corridor* corridor,
                                             float max_speed, float slow_radius, float stop_distance,
                                             spark_nav_steering* out)
{
    if (!mesh || !corridor || !out)
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        if (!corridorFits(mesh->mesh, corridor->corridor))
            return SPARK_NAV_INVALID_ARGUMENT; // check and replan it first
        SPARK_NAV_TRY(findCorridorCorners(mesh->mesh, corridor->scratch, corridor->corridor, kAgentCorners,
                                          corridor->corners));
        SteerDef def = defaultSteerDef();
        def.maxSpeed = max_speed;
        def.slowRadius = slow_radius;
        def.stopDistance = stop_distance;
        auto s = steer(corridor->corridor.position, corridor->corners, def);
        if (!s.ok())
            return resultOf(s.error());
        put(out->velocity, s->velocity);
        out->distance_to_end = s->distanceToEnd;
        out->arrived = s->arrived ? 1 : 0;
        out->at_link = s->atLink ? 1 : 0;
        return SPARK_NAV_OK;
    });
}

spark_nav_result spark_nav_corridor_steer(const spark_nav_mesh* mesh, spark_nav_corridor* corridor, float max_speed,
                                          float slow_radius, float stop_distance, float out_velocity[3],
                                          int* out_arrived)
{
    if (!out_velocity)
        return SPARK_NAV_INVALID_ARGUMENT;
    spark_nav_steering s;
    const spark_nav_result r = spark_nav_corridor_steering(mesh, corridor, max_speed, slow_radius, stop_distance, &s);
    if (r != SPARK_NAV_OK)
        return r;
    std::memcpy(out_velocity, s.velocity, sizeof s.velocity);
    if (out_arrived)
        *out_arrived = s.arrived;
    return SPARK_NAV_OK;
}

spark_nav_result spark_nav_corridor_links(const spark_nav_corridor* corridor, spark_nav_corridor_link* out_links,
                                          size_t capacity, size_t* out_count)
{
    if (!corridor || !out_count || (!out_links && capacity != 0))
        return SPARK_NAV_INVALID_ARGUMENT;
    const std::vector<CorridorHop>& hops = corridor->corridor.hops;
    *out_count = hops.size();
    if (hops.size() > capacity)
        return SPARK_NAV_BUFFER_TOO_SMALL;
    for (size_t i = 0; i < hops.size(); ++i)
    {
        spark_nav_corridor_link& l = out_links[i];
        l.link_id = handleNumber(NavWorld::linkOfKey(hops[i].link), corridor->worldTag);
        l.kind = hops[i].kind == OffMeshKind::Jump ? SPARK_NAV_JUMP : SPARK_NAV_DROP;
        put(l.start, hops[i].start);
        put(l.end, hops[i].end);
        l.speed = hops[i].speed;
        l.arc_height = hops[i].arcHeight;
    }
    return SPARK_NAV_OK;
}

spark_nav_result spark_nav_corridor_cross(const spark_nav_corridor* corridor, float time, float out_point[3],
                                          float* out_duration, int* out_landed)
{
    if (!corridor || !out_point)
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        auto at = crossHop(corridor->corridor, time, !corridor->flat);
        if (!at.ok())
            return resultOf(at.error());
        put(out_point, at->point);
        if (out_duration)
            *out_duration = at->duration;
        if (out_landed)
            *out_landed = at->landed ? 1 : 0;
        return SPARK_NAV_OK;
    });
}

spark_nav_result spark_nav_corridor_land(spark_nav_corridor* corridor)
{
    if (!corridor)
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        return resultOf(landCorridor(corridor->corridor));
    });
}

spark_nav_avoidance_def spark_nav_avoidance_def_default(void)
{
    const AvoidanceDef d = defaultAvoidanceDef();
    return spark_nav_avoidance_def{d.maxAgents,    d.maxObstacles, d.maxObstaclePoints,     d.neighborDistance,
                                   d.maxNeighbors, d.timeHorizon,  d.timeHorizonObstacles, d.overlapTolerance};
}

spark_nav_result spark_nav_avoidance_create(const spark_nav_avoidance_def* def, spark_nav_avoidance** out)
{
    if (!def || !out)
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        AvoidanceDef d;
        d.maxAgents = def->max_agents;
        d.maxObstacles = def->max_obstacles;
        d.maxObstaclePoints = def->max_obstacle_points;
        d.neighborDistance = def->neighbor_distance;
        d.maxNeighbors = def->max_neighbors;
        d.timeHorizon = def->time_horizon;
        d.timeHorizonObstacles = def->time_horizon_obstacles;
        d.overlapTolerance = def->overlap_tolerance;
        auto made = createAvoidance(d);
        if (!made.ok())
            return resultOf(made.error());
        *out = new spark_nav_avoidance{std::move(made.value()), {}, {}, {}, {}, {}, {}, {}};
        return SPARK_NAV_OK;
    });
}

void spark_nav_avoidance_destroy(spark_nav_avoidance* avoidance)
{
    delete avoidance;
}

spark_nav_result spark_nav_avoid(spark_nav_avoidance* avoidance, const spark_nav_avoid_agent* agents,
                                 size_t agent_count, const spark_nav_avoid_obstacle* obstacles, size_t obstacle_count,
                                 double dt, double* out_velocities)
{
    if (!avoidance || (!agents && agent_count != 0) || (!obstacles && obstacle_count != 0) ||
        (!out_velocities && agent_count != 0))
        return SPARK_NAV_INVALID_ARGUMENT;
    if (agent_count > size_t(kMaxAvoidanceCapacity) || obstacle_count > size_t(kMaxAvoidanceCapacity))
        return SPARK_NAV_LIMIT;
    // Shapes and point counts are checked before anything is copied.
    size_t total = 0;
    for (size_t i = 0; i < obstacle_count; ++i)
    {
        const int32_t shape = enumValue(obstacles[i].shape);
        if (shape != SPARK_NAV_AVOID_CIRCLE && shape != SPARK_NAV_AVOID_SEGMENT && shape != SPARK_NAV_AVOID_POLYGON)
            return SPARK_NAV_INVALID_ARGUMENT;
        if (shape == SPARK_NAV_AVOID_CIRCLE)
            continue;
        if (!obstacles[i].points)
            return SPARK_NAV_INVALID_ARGUMENT;
        if (obstacles[i].point_count > size_t(kMaxAvoidanceCapacity) - total)
            return SPARK_NAV_LIMIT;
        total += obstacles[i].point_count;
    }
    return guarded([&] {
        spark_nav_avoidance& a = *avoidance;
        a.agents.resize(agent_count);
        for (size_t i = 0; i < agent_count; ++i)
        {
            copyAvoidAgent(agents[i], a.agents[i]);
            a.agents[i].maxNeighbors = agents[i].max_neighbors;
        }
        // Points of every segment and polygon, copied so the spans stay put.
        a.points.resize(total);
        a.obstacles.resize(obstacle_count);
        size_t at = 0;
        for (size_t i = 0; i < obstacle_count; ++i)
        {
            const spark_nav_avoid_obstacle& in = obstacles[i];
            AvoidanceObstacle& o = a.obstacles[i];
            const int32_t shape = enumValue(in.shape);
            o.shape = shape == SPARK_NAV_AVOID_CIRCLE    ? ObstacleShape::Circle
                      : shape == SPARK_NAV_AVOID_SEGMENT ? ObstacleShape::Segment
                                                         : ObstacleShape::Polygon;
            o.center = glm::dvec2(in.center[0], in.center[1]);
            o.radius = in.radius;
            o.velocity = glm::dvec2(in.velocity[0], in.velocity[1]);
            o.points = {};
            if (shape != SPARK_NAV_AVOID_CIRCLE)
            {
                for (size_t k = 0; k < in.point_count; ++k)
                    a.points[at + k] = glm::dvec2(in.points[2 * k], in.points[2 * k + 1]);
                o.points = std::span<const glm::dvec2>(a.points.data() + at, in.point_count);
                at += in.point_count;
            }
        }
        a.velocities.resize(agent_count);
        const Status st = a.avoidance.avoid(a.agents, a.obstacles, dt, a.velocities);
        if (!st.ok())
            return resultOf(st.error());
        writeVelocities(std::span<const glm::dvec2>(a.velocities), out_velocities);
        return SPARK_NAV_OK;
    });
}

spark_nav_result spark_nav_avoid_3d(spark_nav_avoidance* avoidance, const spark_nav_avoid_agent_3d* agents,
                                    size_t agent_count, const spark_nav_avoid_sphere* spheres, size_t sphere_count,
                                    double dt, double* out_velocities)
{
    if (!avoidance || (!agents && agent_count != 0) || (!spheres && sphere_count != 0) ||
        (!out_velocities && agent_count != 0))
        return SPARK_NAV_INVALID_ARGUMENT;
    if (agent_count > size_t(kMaxAvoidanceCapacity) || sphere_count > size_t(kMaxAvoidanceCapacity))
        return SPARK_NAV_LIMIT;
    return guarded([&] {
        spark_nav_avoidance& a = *avoidance;
        a.agents3.resize(agent_count);
        for (size_t i = 0; i < agent_count; ++i)
            copyAvoidAgent(agents[i], a.agents3[i]);
        a.spheres.resize(sphere_count);
        for (size_t i = 0; i < sphere_count; ++i)
        {
            const spark_nav_avoid_sphere& in = spheres[i];
            a.spheres[i].center = glm::dvec3(in.center[0], in.center[1], in.center[2]);
            a.spheres[i].radius = in.radius;
            a.spheres[i].velocity = glm::dvec3(in.velocity[0], in.velocity[1], in.velocity[2]);
        }
        a.velocities3.resize(agent_count);
        const Status st = a.avoidance.avoid3D(a.agents3, a.spheres, dt, a.velocities3);
        if (!st.ok())
            return resultOf(st.error());
        writeVelocities(std::span<const glm::dvec3>(a.velocities3), out_velocities);
        return SPARK_NAV_OK;
    });
}

spark_nav_flight_def spark_nav_flight_def_default(void)
{
    const FlightVolumeDef d = defaultFlightVolumeDef();
    return spark_nav_flight_def{{d.boundsMin.x, d.boundsMin.y, d.boundsMin.z},
                                {d.boundsMax.x, d.boundsMax.y, d.boundsMax.z},
                                d.voxelSize,
                                d.flierRadius,
                                d.maxVoxels};
}

spark_nav_result spark_nav_flight_build(const spark_nav_flight_def* def, const double* vertices, size_t vertex_count,
                                        const uint32_t* indices, size_t index_count, const double* boxes,
                                        size_t box_count, spark_nav_flight** out)
{
    if (!def || !out || (!vertices && vertex_count != 0) || (!indices && index_count != 0) ||
        (!boxes && box_count != 0) || index_count % 3 != 0)
        return SPARK_NAV_INVALID_ARGUMENT;
    if (vertex_count > kMaxVertices || index_count / 3 > kMaxInputItems || box_count > kMaxInputItems)
        return SPARK_NAV_LIMIT;
    return guarded([&] {
        FlightVolumeDef d;
        d.boundsMin = glm::dvec3(def->bounds_min[0], def->bounds_min[1], def->bounds_min[2]);
        d.boundsMax = glm::dvec3(def->bounds_max[0], def->bounds_max[1], def->bounds_max[2]);
        d.voxelSize = def->voxel_size;
        d.flierRadius = def->flier_radius;
        d.maxVoxels = def->max_voxels;
        std::vector<glm::dvec3> verts(vertex_count);
        for (size_t i = 0; i < vertex_count; ++i)
            verts[i] = glm::dvec3(vertices[3 * i], vertices[3 * i + 1], vertices[3 * i + 2]);
        std::vector<FlightBox> solid(box_count);
        for (size_t i = 0; i < box_count; ++i)
            solid[i] = FlightBox{glm::dvec3(boxes[6 * i], boxes[6 * i + 1], boxes[6 * i + 2]),
                                 glm::dvec3(boxes[6 * i + 3], boxes[6 * i + 4], boxes[6 * i + 5])};
        FlightGeometry geometry;
        geometry.vertices = verts;
        geometry.indices = std::span<const uint32_t>(indices, index_count);
        geometry.boxes = solid;
        auto built = buildFlightVolume(d, geometry);
        if (!built.ok())
            return resultOf(built.error());
        *out = new spark_nav_flight{std::move(built.value())};
        return SPARK_NAV_OK;
    });
}

void spark_nav_flight_destroy(spark_nav_flight* flight)
{
    delete flight;
}

spark_nav_result spark_nav_flight_info(const spark_nav_flight* flight, int out_dims[3], int64_t* out_open)
{
    if (!flight)
        return SPARK_NAV_INVALID_ARGUMENT;
    if (out_dims)
    {
        const glm::ivec3 d = flight->volume.dims();
        out_dims[0] = d.x;
        out_dims[1] = d.y;
        out_dims[2] = d.z;
    }
    if (out_open)
        *out_open = flight->volume.openVoxelCount();
    return SPARK_NAV_OK;
}

spark_nav_result spark_nav_flight_raycast(const spark_nav_flight* flight, const double from[3], const double to[3],
                                          int* out_blocked, double* out_t, double out_point[3])
{
    if (!flight || !from || !to)
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        auto hit = flight->volume.raycast(glm::dvec3(from[0], from[1], from[2]), glm::dvec3(to[0], to[1], to[2]));
        if (!hit.ok())
            return resultOf(hit.error());
        if (out_blocked)
            *out_blocked = hit->blocked ? 1 : 0;
        if (out_t)
            *out_t = hit->t;
        if (out_point)
            for (int c = 0; c < 3; ++c)
                out_point[c] = hit->point[c];
        return SPARK_NAV_OK;
    });
}

spark_nav_result spark_nav_flight_path(spark_nav_flight* flight, const double from[3], const double to[3],
                                       double* out_points, size_t capacity, size_t* out_count, int* out_partial)
{
    if (!flight || !from || !to || !out_count || (!out_points && capacity != 0))
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        auto path = flight->volume.path(glm::dvec3(from[0], from[1], from[2]), glm::dvec3(to[0], to[1], to[2]));
        if (!path.ok())
            return resultOf(path.error());
        *out_count = path->points.size();
        if (path->points.size() > capacity)
            return SPARK_NAV_BUFFER_TOO_SMALL;
        for (size_t i = 0; i < path->points.size(); ++i)
            for (int c = 0; c < 3; ++c)
                out_points[3 * i + c] = path->points[i][c];
        if (out_partial)
            *out_partial = path->partial ? 1 : 0;
        return SPARK_NAV_OK;
    });
}

spark_nav_result spark_nav_world_create(spark_nav_world** out)
{
    if (!out)
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        static std::atomic<uint32_t> worldsMade{0};
        *out = new spark_nav_world{};
        (*out)->tag = worldsMade.fetch_add(1) % ((1u << kHandleWorldBits) - 1) + 1;
        return SPARK_NAV_OK;
    });
}

void spark_nav_world_destroy(spark_nav_world* world)
{
    delete world;
}

spark_nav_result spark_nav_world_put_mesh(spark_nav_world* world, const char* name, const spark_nav_mesh* mesh,
                                          uint64_t* out_id)
{
    if (!world || !name || !mesh || !out_id)
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        MeshDef def = defaultMeshDef();
        const size_t n = strnlen(name, kMaxMeshName + 1);
        def.name.reserve(n);
        for (size_t i = 0; i < n; ++i)
            def.name.push_back(name[i]);
        def.source.push_back('c'); // (GCC 12 warns falsely on assigning a literal here: -Wrestrict)
        def.mesh = std::make_shared<const NavMesh>(mesh->mesh);
        auto id = world->world.putMesh(std::move(def));
        if (!id.ok())
            return id.error().code == "E_NAV_CONFIG" ? SPARK_NAV_INVALID_ARGUMENT : resultOf(id.error());
        *out_id = idNumber(world, id.value());
        return SPARK_NAV_OK;
    });
}

spark_nav_result spark_nav_world_mesh(const spark_nav_world* world, uint64_t mesh_id, spark_nav_mesh** out)
{
    if (!world || !out)
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        const NavMesh* m = world->world.mesh(idOf<MeshTag>(world, mesh_id));
        if (!m)
            return SPARK_NAV_UNKNOWN_ID;
        *out = new spark_nav_mesh{*m};
        return SPARK_NAV_OK;
    });
}

spark_nav_result spark_nav_world_hash(const spark_nav_world* world, uint64_t* out)
{
    if (!world || !out)
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        *out = world->world.hashState();
        return SPARK_NAV_OK;
    });
}

spark_nav_result spark_nav_obstacle_add(spark_nav_world* world, uint64_t mesh_id, spark_nav_shape shape,
                                        const float size[2], float angle_deg, const float position[3],
                                        uint64_t* out_id)
{
    const int32_t kind = enumValue(shape);
    if (!world || !size || !position || !out_id || (kind != SPARK_NAV_CIRCLE && kind != SPARK_NAV_BOX))
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        ObstacleDef def = defaultObstacleDef();
        def.shape.shape = kind == SPARK_NAV_CIRCLE ? FootprintShape::Circle : FootprintShape::Box;
        def.shape.radius = size[0];
        def.shape.halfExtents = glm::vec2(size[0], size[1]);
        def.shape.angleDeg = kind == SPARK_NAV_BOX ? angle_deg : 0.0f;
        def.position = vec(position);
        auto id = world->world.addObstacle(idOf<MeshTag>(world, mesh_id), def);
        if (!id.ok())
            return resultOf(id.error());
        *out_id = idNumber(world, id.value());
        return SPARK_NAV_OK;
    });
}

spark_nav_result spark_nav_obstacle_add_polygon(spark_nav_world* world, uint64_t mesh_id, const float* points,
                                                size_t point_count, float angle_deg, const float position[3],
                                                uint64_t* out_id)
{
    if (!world || !points || !position || !out_id || point_count < 3)
        return SPARK_NAV_INVALID_ARGUMENT;
    if (point_count > kMaxFootprintPoints)
        return SPARK_NAV_LIMIT;
    return guarded([&] {
        ObstacleDef def = defaultObstacleDef();
        def.shape.shape = FootprintShape::Polygon;
        def.shape.angleDeg = angle_deg;
        def.shape.points.resize(point_count);
        for (size_t i = 0; i < point_count; ++i)
            def.shape.points[i] = glm::vec2(points[2 * i], points[2 * i + 1]);
        def.position = vec(position);
        auto id = world->world.addObstacle(idOf<MeshTag>(world, mesh_id), def);
        if (!id.ok())
            return resultOf(id.error());
        *out_id = idNumber(world, id.value());
        return SPARK_NAV_OK;
    });
}

spark_nav_result spark_nav_obstacle_move(spark_nav_world* world, uint64_t obstacle_id, const float position[3],
                                         float angle_deg)
{
    if (!world || !position)
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        const ObstacleId id = idOf<ObstacleTag>(world, obstacle_id);
        const WorldObstacle* o = world->world.obstacle(id);
        if (!o)
            return SPARK_NAV_UNKNOWN_ID;
        std::optional<float> angle;
        if (o->def.shape.shape != FootprintShape::Circle)
            angle = angle_deg;
        return resultOf(world->world.moveObstacle(id, vec(position), angle));
    });
}

spark_nav_result spark_nav_obstacle_remove(spark_nav_world* world, uint64_t obstacle_id)
{
    if (!world)
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        return resultOf(world->world.removeObstacle(idOf<ObstacleTag>(world, obstacle_id)));
    });
}

spark_nav_result spark_nav_link_add(spark_nav_world* world, uint64_t mesh_id, const float start[3], const float end[3],
                                    spark_nav_link_kind kind, float radius, int bidirectional, float cost, float speed,
                                    float arc_height, uint64_t* out_id, int* out_resolved)
{
    const int32_t how = enumValue(kind);
    if (!world || !start || !end || !out_id || (how != SPARK_NAV_JUMP && how != SPARK_NAV_DROP))
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        OffMeshLinkDef def = defaultOffMeshLinkDef();
        def.start = vec(start);
        def.end = vec(end);
        def.kind = how == SPARK_NAV_JUMP ? OffMeshKind::Jump : OffMeshKind::Drop;
        def.radius = radius;
        def.bidirectional = bidirectional != 0;
        def.cost = cost;
        def.speed = speed;
        def.arcHeight = arc_height;
        auto id = world->world.addOffMeshLink(idOf<MeshTag>(world, mesh_id), def);
        if (!id.ok())
            return resultOf(id.error());
        *out_id = idNumber(world, id.value());
        if (out_resolved)
            *out_resolved = world->world.offMeshLink(id.value())->resolved.resolved ? 1 : 0;
        return SPARK_NAV_OK;
    });
}

spark_nav_result spark_nav_link_remove(spark_nav_world* world, uint64_t link_id)
{
    if (!world)
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        return resultOf(world->world.removeOffMeshLink(idOf<LinkTag>(world, link_id)));
    });
}

spark_nav_result spark_nav_world_path(const spark_nav_world* world, uint64_t mesh_id, const float from[3],
                                      const float to[3], const float half_extents[3], float* out_points,
                                      size_t capacity, size_t* out_count, float* out_length, int* out_complete)
{
    if (!world || !from || !to || !half_extents || !out_count || (!out_points && capacity != 0))
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        std::vector<PathLink> links;
        const NavMesh* current = meshWithLinks(world, mesh_id, links);
        if (!current)
            return SPARK_NAV_UNKNOWN_ID;
        PathResult path;
        const Status st = findPath(*current, world->world.queryScratch(), vec(from), vec(to), defaultQueryFilter(),
                                   vec(half_extents), links, path);
        if (!st.ok())
            return resultOf(st.error());
        return writePath(path, out_points, capacity, out_count, out_length, out_complete);
    });
}

spark_nav_result spark_nav_world_corridor_plan(const spark_nav_world* world, uint64_t mesh_id, const float start[3],
                                               const float goal[3], const float half_extents[3],
                                               spark_nav_corridor** out)
{
    if (!world || !start || !goal || !half_extents || !out)
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        std::vector<PathLink> links;
        const NavMesh* current = meshWithLinks(world, mesh_id, links);
        if (!current)
            return SPARK_NAV_UNKNOWN_ID;
        auto c = std::make_unique<spark_nav_corridor>();
        SPARK_NAV_TRY(planCorridor(*current, c->scratch, vec(start), vec(goal), defaultQueryFilter(),
                                   vec(half_extents), links, c->corridor));
        c->worldTag = world->tag;
        c->flat = current->is2d();
        *out = c.release();
        return SPARK_NAV_OK;
    });
}

spark_nav_result spark_nav_world_corridor_replan(const spark_nav_world* world, uint64_t mesh_id,
                                                 spark_nav_corridor* corridor, const float half_extents[3])
{
    if (!world || !corridor || !half_extents)
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        std::vector<PathLink> links;
        const NavMesh* current = meshWithLinks(world, mesh_id, links);
        if (!current)
            return SPARK_NAV_UNKNOWN_ID;
        SPARK_NAV_TRY(replanCorridor(*current, corridor->scratch, corridor->corridor, defaultQueryFilter(),
                                     vec(half_extents), links));
        corridor->worldTag = world->tag;
        corridor->flat = current->is2d();
        return SPARK_NAV_OK;
    });
}

spark_nav_agent_settings spark_nav_agent_settings_default(void)
{
    const CrowdAgentDef d = defaultCrowdAgentDef();
    return spark_nav_agent_settings{d.radius,       d.height,     d.maxSpeed, d.maxAccel,
                                    d.stopDistance, d.slowRadius, d.priority, d.maxNeighbors};
}

spark_nav_result spark_nav_agent_add(spark_nav_world* world, uint64_t mesh_id, const float position[3],
                                     const spark_nav_agent_settings* settings, uint64_t* out_id)
{
    if (!world || !position || !settings || !out_id || !finite3(position))
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        CrowdAgentDef def = defaultCrowdAgentDef();
        def.position = vec(position);
        def.radius = settings->radius;
        def.height = settings->height;
        def.maxSpeed = settings->max_speed;
        def.maxAccel = settings->max_accel;
        def.stopDistance = settings->stop_distance;
        def.slowRadius = settings->slow_radius;
        def.priority = settings->priority;
        def.maxNeighbors = settings->max_neighbors;
        auto id = world->world.addAgent(idOf<MeshTag>(world, mesh_id), def);
        if (!id.ok())
            return resultOf(id.error());
        *out_id = idNumber(world, id.value());
        return SPARK_NAV_OK;
    });
}

spark_nav_result spark_nav_agent_set_target(spark_nav_world* world, uint64_t agent_id, const float target[3])
{
    if (!world || !target)
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        return resultOf(world->world.setAgentTarget(idOf<AgentTag>(world, agent_id), vec(target)));
    });
}

spark_nav_result spark_nav_agent_set_settings(spark_nav_world* world, uint64_t agent_id,
                                              const spark_nav_agent_settings* settings)
{
    if (!world || !settings)
        return SPARK_NAV_INVALID_ARGUMENT;
    return editAgentDef(world, agent_id, [&](CrowdAgentDef& def) {
        def.radius = settings->radius;
        def.height = settings->height;
        def.maxSpeed = settings->max_speed;
        def.maxAccel = settings->max_accel;
        def.stopDistance = settings->stop_distance;
        def.slowRadius = settings->slow_radius;
        def.priority = settings->priority;
        def.maxNeighbors = settings->max_neighbors;
    });
}

spark_nav_result spark_nav_agent_remove(spark_nav_world* world, uint64_t agent_id)
{
    if (!world)
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        return resultOf(world->world.removeAgent(idOf<AgentTag>(world, agent_id)));
    });
}

spark_nav_result spark_nav_agent_set_layers(spark_nav_world* world, uint64_t agent_id, uint32_t layers,
                                            uint32_t ignores)
{
    if (!world)
        return SPARK_NAV_INVALID_ARGUMENT;
    return editAgentDef(world, agent_id, [&](CrowdAgentDef& def) {
        def.layers = layers;
        def.ignores = ignores;
    });
}

spark_nav_result spark_nav_agent_get_layers(const spark_nav_world* world, uint64_t agent_id, uint32_t* out_layers,
                                            uint32_t* out_ignores)
{
    if (!world)
        return SPARK_NAV_INVALID_ARGUMENT;
    const CrowdAgent* a = world->world.agent(idOf<AgentTag>(world, agent_id));
    if (!a)
        return SPARK_NAV_UNKNOWN_ID;
    if (out_layers)
        *out_layers = a->def.layers;
    if (out_ignores)
        *out_ignores = a->def.ignores;
    return SPARK_NAV_OK;
}

spark_nav_result spark_nav_agent_get(const spark_nav_world* world, uint64_t agent_id, float out_position[3],
                                     float out_velocity[3], spark_nav_agent_state* out_state)
{
    if (!world)
        return SPARK_NAV_INVALID_ARGUMENT;
    const CrowdAgent* a = world->world.agent(idOf<AgentTag>(world, agent_id));
    if (!a)
        return SPARK_NAV_UNKNOWN_ID;
    if (out_position)
        put(out_position, a->position);
    if (out_velocity)
        put(out_velocity, a->velocity);
    if (out_state)
        *out_state = static_cast<spark_nav_agent_state>(a->state);
    return SPARK_NAV_OK;
}

spark_nav_result spark_nav_world_set_plan_budget(spark_nav_world* world, uint32_t nodes_per_step)
{
    if (!world)
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        return resultOf(world->world.setPlanNodesPerStep(nodes_per_step));
    });
}

spark_nav_result spark_nav_world_get_plan_budget(const spark_nav_world* world, uint32_t* out_nodes_per_step)
{
    if (!world || !out_nodes_per_step)
        return SPARK_NAV_INVALID_ARGUMENT;
    *out_nodes_per_step = world->world.planNodesPerStep();
    return SPARK_NAV_OK;
}

spark_nav_result spark_nav_world_step(spark_nav_world* world, double dt)
{
    if (!world)
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        return resultOf(world->world.stepCrowds(dt));
    });
}

spark_nav_result spark_nav_world_crowd_hash(const spark_nav_world* world, uint64_t mesh_id, uint64_t* out)
{
    if (!world || !out)
        return SPARK_NAV_INVALID_ARGUMENT;
    return guarded([&] {
        const MeshId mesh = idOf<MeshTag>(world, mesh_id);
        if (!world->world.mesh(mesh))
            return SPARK_NAV_UNKNOWN_ID;
        spark::Hasher h;
        world->world.hashCrowd(h, mesh);
        *out = h.digest();
        return SPARK_NAV_OK;
    });
}

} // extern "C"
