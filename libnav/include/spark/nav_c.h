/* nav_c.h — the C API of libnav (C99; usable from C, C#, Rust, Zig, Godot
 * and Unity native plug-ins through any C FFI).
 *
 * Conventions:
 * - Objects are opaque handles made by `spark_nav_*_create`/`_build`/`_bake`
 *   and released by the matching `_destroy` (destroying NULL does nothing).
 * - Every function returns a `spark_nav_result`; outputs go through pointer
 *   arguments, which are checked (NULL → SPARK_NAV_INVALID_ARGUMENT) and left
 *   untouched on failure. Nothing throws across the boundary; a failed call
 *   changes nothing.
 * - Points are float[3] (x, y, z) in metres, +Y up; a 2D mesh's point (x, y)
 *   is (x, 0, y).
 * - Arrays written by the library come with a capacity; the count written is
 *   returned, and SPARK_NAV_BUFFER_TOO_SMALL says the capacity was short (the
 *   count needed is returned then, and nothing else is written).
 * - Counts passed in are checked against their limits before any array is
 *   read (SPARK_NAV_LIMIT): vertices <= 2^24, polygons <= 2^22 (with <= 2^27
 *   indices), triangles, boxes and random points <= 2^24 each, a 2D grid's
 *   sides <= 4096, avoidance agents, obstacles and obstacle points <= 2^20,
 *   a polygon obstacle's points <= 32.
 * - Determinism: compile with -ffp-contract=off (the pkg-config Cflags carry it).
 * - Every enum has a `…_MAX_ENUM` of 0x7FFFFFFF (as Vulkan does), so it is as
 *   wide as an int in C and C++ alike, and a value out of range passed in is
 *   answered (SPARK_NAV_INVALID_ARGUMENT), not undefined behaviour.
 */
#ifndef SPARK_NAV_C_H
#define SPARK_NAV_C_H

#include <stddef.h>
#include <stdint.h>

#include "spark/core/export.h"
SPARK_NAV_API_BEGIN

#ifdef __cplusplus
extern "C" {
#endif

/** What a call did. */
typedef enum spark_nav_result
{
    SPARK_NAV_OK = 0,
    SPARK_NAV_INVALID_ARGUMENT = 1, /**< A NULL pointer, a bad count or a value out of its limits. */
    SPARK_NAV_BUFFER_TOO_SMALL = 2, /**< An output array's capacity is short. */
    SPARK_NAV_OFF_MESH = 3,         /**< A point has no mesh within the search extents. */
    SPARK_NAV_NO_GEOMETRY = 4,      /**< Nothing walkable (a bake) or no polygons. */
    SPARK_NAV_LIMIT = 5,            /**< A documented size limit was passed. */
    SPARK_NAV_FORMAT = 6,           /**< Polygons that do not form a valid mesh. */
    SPARK_NAV_CONFIG = 7,           /**< Settings out of their limits. */
    SPARK_NAV_UNKNOWN_ID = 8,       /**< A mesh, agent or obstacle id that is not (or no longer) alive. */
    SPARK_NAV_INTERNAL = 9,         /**< Out of memory or a bug: please report. */
    SPARK_NAV_RESULT_MAX_ENUM = 0x7FFFFFFF
} spark_nav_result;

/** A short English description of a result ("ok", "invalid argument", ...). Never NULL. */
const char* spark_nav_result_string(spark_nav_result result);

/** The library version, "major.minor.patch". */
const char* spark_nav_version(void);

/* -- Meshes ------------------------------------------------------------------ */

typedef struct spark_nav_mesh spark_nav_mesh;

/** Bake settings (see spark/nav/bake.h; lengths in metres). */
typedef struct spark_nav_bake_settings
{
    float cell_size, cell_height;
    float agent_radius, agent_height, step_height;
    float max_slope_deg;
    float max_simplification_error; /**< cells */
    float max_edge_len;
    int max_verts_per_poly;          /**< 3..6 */
    float min_region_area;           /**< m² */
    float merge_region_area;         /**< m²; 0 = no region merging */
    int tile_size;                   /**< cells; 0 = one grid, else square tiles of this many cells (8..) */
    int threads;                     /**< threads baking tiles; 0 = the hardware's (the mesh is the same for any count) */
} spark_nav_bake_settings;

/** The default settings of a bake (radius 0.4, height 1.8, step 0.4, cells 0.2 × 0.1, slope 45; one grid). */
spark_nav_bake_settings spark_nav_bake_settings_default(void);

/** Bakes triangles (vertices: 3 floats each; indices: 3 per triangle; areas:
 *  one per triangle or NULL for 0) into a mesh. `one_sided` != 0: only
 *  triangles whose counter-clockwise side faces up can be walkable (OBJ meshes). */
spark_nav_result spark_nav_mesh_bake(const float* vertices, size_t vertex_count, const uint32_t* indices,
                                     size_t index_count, const uint8_t* areas, int one_sided,
                                     const spark_nav_bake_settings* settings, spark_nav_mesh** out);

/** Builds a mesh from convex counter-clockwise polygons: `poly_starts` has
 *  poly_count + 1 offsets into `indices`; `areas` one per polygon or NULL.
 *  `is_2d` != 0: every vertex has y = 0. `agent_radius` is the radius the
 *  polygons were eroded by (obstacles are grown by it). */
spark_nav_result spark_nav_mesh_build(const float* vertices, size_t vertex_count, const uint32_t* indices,
                                      const uint32_t* poly_starts, size_t poly_count, const uint8_t* areas,
                                      int is_2d, float agent_radius, spark_nav_mesh** out);

/** Bakes a 2D grid: `blocked` has width × height cells, row-major (y ·
 *  width + x), non-zero = blocked; `areas` the same size or NULL; cell (0, 0)
 *  has its low corner at (origin_x, origin_y). Walkable cells are eroded by
 *  `agent_radius` and covered by rectangles. */
spark_nav_result spark_nav_mesh_bake_grid(const uint8_t* blocked, const uint8_t* areas, int width, int height,
                                          float cell_size, float origin_x, float origin_y, float agent_radius,
                                          spark_nav_mesh** out);

/** The mesh's canonical bytes (what its hash hashes): call with NULL to learn
 *  the size (`out_size`), then with a buffer of that capacity. A carved mesh
 *  (spark_nav_world_mesh with obstacles) is not saved: SPARK_NAV_INVALID_ARGUMENT. */
spark_nav_result spark_nav_mesh_save(const spark_nav_mesh* mesh, uint8_t* out_bytes, size_t capacity,
                                     size_t* out_size);

/** A mesh from bytes `spark_nav_mesh_save` wrote (validated again: SPARK_NAV_FORMAT when they are not). */
spark_nav_result spark_nav_mesh_load(const uint8_t* bytes, size_t size, spark_nav_mesh** out);

void spark_nav_mesh_destroy(spark_nav_mesh* mesh);

/** Walkable polygons of the mesh. */
spark_nav_result spark_nav_mesh_polygon_count(const spark_nav_mesh* mesh, uint32_t* out);

/** The mesh's hash (XXH3-64 of its canonical bytes; equal meshes, equal hashes). */
spark_nav_result spark_nav_mesh_hash(const spark_nav_mesh* mesh, uint64_t* out);

/* -- Queries ----------------------------------------------------------------- */

/** The nearest point of the mesh within `point ± half_extents`. */
spark_nav_result spark_nav_nearest(const spark_nav_mesh* mesh, const float point[3], const float half_extents[3],
                                   float out_point[3]);

/** A path (A* then string pulling): corner points into `out_points` (3
 *  floats each, at most `capacity` points); `out_count` = points written (or
 *  needed); `out_length` its length; `out_complete` 0 when the goal was not
 *  reachable (the path ends at the closest reachable point). */
spark_nav_result spark_nav_path(const spark_nav_mesh* mesh, const float from[3], const float to[3],
                                const float half_extents[3], float* out_points, size_t capacity, size_t* out_count,
                                float* out_length, int* out_complete);

/** Walks the segment from → to across the mesh and stops at the first wall:
 *  `out_hit`, the fraction travelled, where it stopped and the wall's outward
 *  normal (zero without a hit). Outputs may be NULL. */
spark_nav_result spark_nav_raycast(const spark_nav_mesh* mesh, const float from[3], const float to[3],
                                   const float half_extents[3], int* out_hit, float* out_fraction, float out_point[3],
                                   float out_normal[3]);

/** The walls within `range` of `point`, nearest first: per wall 9 floats
 *  (start x, y, z, end x, y, z, outward normal x, y, z) into `out_walls`. */
spark_nav_result spark_nav_walls(const spark_nav_mesh* mesh, const float point[3], float range, float* out_walls,
                                 size_t capacity, size_t* out_count);

/** `count` points uniform by area over the mesh, from a generator seeded
 *  with `seed` (the same seed, the same points; 3 floats each). */
spark_nav_result spark_nav_random_points(const spark_nav_mesh* mesh, uint64_t seed, size_t count, float* out_points);

/* -- Corridors (a host's own agents: plan, corners, move, check, replan) ------- */

typedef struct spark_nav_corridor spark_nav_corridor;

/** Plans a corridor from `start` to `goal` (both located within
 *  half_extents); a goal that cannot be reached gives the corridor to the
 *  closest reachable point (see spark_nav_corridor_info's out_complete). */
spark_nav_result spark_nav_corridor_plan(const spark_nav_mesh* mesh, const float start[3], const float goal[3],
                                         const float half_extents[3], spark_nav_corridor** out);
void spark_nav_corridor_destroy(spark_nav_corridor* corridor);

/** Where the corridor stands, how many polygons it holds, whether it reaches the goal. Outputs may be NULL. */
spark_nav_result spark_nav_corridor_info(const spark_nav_corridor* corridor, float out_position[3],
                                         size_t* out_polygons, int* out_complete);

/** The next corners (1 <= capacity <= 16; 3 floats each); `out_reaches_end`
 *  says the last one is the corridor's end. */
spark_nav_result spark_nav_corridor_corners(const spark_nav_mesh* mesh, spark_nav_corridor* corridor,
                                            float* out_points, size_t capacity, size_t* out_count,
                                            int* out_reaches_end);

/** Moves the position toward `wanted` along the surface (sliding along walls); the new position out.
 *  A corridor whose polygons `mesh` no longer has (carving) is refused: check and replan it first. */
spark_nav_result spark_nav_corridor_move(const spark_nav_mesh* mesh, spark_nav_corridor* corridor,
                                         const float wanted[3], float out_position[3]);

/** Is the corridor still valid on `mesh` (after the mesh changed: carving)? */
spark_nav_result spark_nav_corridor_check(const spark_nav_mesh* mesh, const spark_nav_corridor* corridor,
                                          int* out_valid);

/** Plans again from the position to the corridor's target on `mesh`. */
spark_nav_result spark_nav_corridor_replan(const spark_nav_mesh* mesh, spark_nav_corridor* corridor,
                                           const float half_extents[3]);

/** Steering along the corridor: its next corners, then the velocity that
 *  follows them (slowing linearly within `slow_radius` of the end, zero within
 *  `stop_distance`: `out_arrived`). Velocity x, 0, z. */
spark_nav_result spark_nav_corridor_steer(const spark_nav_mesh* mesh, spark_nav_corridor* corridor, float max_speed,
                                          float slow_radius, float stop_distance, float out_velocity[3],
                                          int* out_arrived);

/* -- Corridors over off-mesh links (jumps and drops of a world) ------------------
 *
 * A corridor planned with a world's links (spark_nav_world_corridor_plan,
 * with the worlds below) ends, for its corners, at the
 * take-off of the first link it takes (a corner flagged
 * SPARK_NAV_CORNER_LINK_START). Steering slows the agent down toward it as
 * toward a target and says `at_link` when it is there; the host then plays
 * the crossing (spark_nav_corridor_cross each step, the agent out of the
 * avoidance meanwhile) and, once landed, calls spark_nav_corridor_land: the
 * corridor goes on from the landing. A world corridor is used with the mesh
 * spark_nav_world_mesh gives for that world mesh (the same polygons). */

/** Bits of a corner's flags. */
typedef enum spark_nav_corner_flag
{
    SPARK_NAV_CORNER_END = 1,        /**< The corner is the corridor's end: its target. */
    SPARK_NAV_CORNER_LINK_START = 2, /**< An off-mesh link's take-off; no corner comes after it. */
    SPARK_NAV_CORNER_FLAG_MAX_ENUM = 0x7FFFFFFF
} spark_nav_corner_flag;

/** As spark_nav_corridor_corners, with each corner's flags (spark_nav_corner_flag
 *  bits) into `out_flags`, one per corner (both arrays hold `capacity`). */
spark_nav_result spark_nav_corridor_corners_flagged(const spark_nav_mesh* mesh, spark_nav_corridor* corridor,
                                                    float* out_points, uint32_t* out_flags, size_t capacity,
                                                    size_t* out_count);

/** What steering along a corridor says. */
typedef struct spark_nav_steering
{
    float velocity[3];     /**< The wanted velocity (x, 0, z). m/s */
    float distance_to_end; /**< Along the corners to the end; -1 when the end is not among them. m */
    int arrived;           /**< Within stop_distance of the end: the velocity is zero. */
    int at_link;           /**< The next corner is a link's take-off, within stop_distance: cross it. */
} spark_nav_steering;

/** Steering as spark_nav_corridor_steer does it (the same velocity), and also
 *  the distance to the end and the at-link signal. */
spark_nav_result spark_nav_corridor_steering(const spark_nav_mesh* mesh, spark_nav_corridor* corridor,
                                             float max_speed, float slow_radius, float stop_distance,
                                             spark_nav_steering* out);

/* -- Avoidance (ORCA): a host's own agents on the plane or in space ----------- */

typedef struct spark_nav_avoidance spark_nav_avoidance;

/** Capacities and horizons (see spark/nav/avoidance.h). */
typedef struct spark_nav_avoidance_def
{
    int max_agents, max_obstacles, max_obstacle_points;
    double neighbor_distance; /**< m */
    int max_neighbors;
    double time_horizon, time_horizon_obstacles; /**< s */
    double overlap_tolerance;                    /**< 0..0.5 */
} spark_nav_avoidance_def;

/** The defaults (1024 agents, 10 neighbours within 15 m, horizons 10 s, ...). */
spark_nav_avoidance_def spark_nav_avoidance_def_default(void);
spark_nav_result spark_nav_avoidance_create(const spark_nav_avoidance_def* def, spark_nav_avoidance** out);
void spark_nav_avoidance_destroy(spark_nav_avoidance* avoidance);

/** An agent on the plane (x, z as [0], [1]). */
typedef struct spark_nav_avoid_agent
{
    double position[2], velocity[2], preferred[2];
    double radius, max_speed, priority;
    uint32_t id, layers, ignores;
    int max_neighbors; /**< 0 = the definition's */
} spark_nav_avoid_agent;

/** Obstacle shapes on the plane. */
typedef enum spark_nav_avoid_shape
{
    SPARK_NAV_AVOID_CIRCLE = 0,  /**< center, radius */
    SPARK_NAV_AVOID_SEGMENT = 1, /**< 2 points */
    SPARK_NAV_AVOID_POLYGON = 2, /**< >= 3 points, counter-clockwise */
    SPARK_NAV_AVOID_SHAPE_MAX_ENUM = 0x7FFFFFFF
} spark_nav_avoid_shape;

/** An obstacle on the plane; `points` (2 doubles each) is read during the call only. */
typedef struct spark_nav_avoid_obstacle
{
    spark_nav_avoid_shape shape;
    double center[2];
    double radius;
    const double* points;
    size_t point_count;
    double velocity[2];
} spark_nav_avoid_obstacle;

/** One step: a new velocity per agent (2 doubles each) into `out_velocities`. */
spark_nav_result spark_nav_avoid(spark_nav_avoidance* avoidance, const spark_nav_avoid_agent* agents,
                                 size_t agent_count, const spark_nav_avoid_obstacle* obstacles, size_t obstacle_count,
                                 double dt, double* out_velocities);

/** A flier (x, y, z). */
typedef struct spark_nav_avoid_agent_3d
{
    double position[3], velocity[3], preferred[3];
    double radius, max_speed, priority;
    uint32_t id, layers, ignores;
} spark_nav_avoid_agent_3d;

/** A sphere for fliers, still or moving. */
typedef struct spark_nav_avoid_sphere
{
    double center[3];
    double radius;
    double velocity[3];
} spark_nav_avoid_sphere;

/** One step in space: a new velocity per flier (3 doubles each). */
spark_nav_result spark_nav_avoid_3d(spark_nav_avoidance* avoidance, const spark_nav_avoid_agent_3d* agents,
                                    size_t agent_count, const spark_nav_avoid_sphere* spheres, size_t sphere_count,
                                    double dt, double* out_velocities);

/* -- Flight volumes: open space for fliers --------------------------------------- */

typedef struct spark_nav_flight spark_nav_flight;

/** The volume's box, voxel size and flier radius (see spark/nav/flight.h). */
typedef struct spark_nav_flight_def
{
    double bounds_min[3], bounds_max[3];
    double voxel_size, flier_radius;
    int64_t max_voxels;
} spark_nav_flight_def;

/** The defaults (100 × 20 × 100 m from (-50, 0, -50), voxels 0.5 m, radius 0.5). */
spark_nav_flight_def spark_nav_flight_def_default(void);

/** Voxelises the solid triangles (vertices: 3 doubles each, indices: 3 per
 *  triangle) and boxes (6 doubles each: min x, y, z, max x, y, z), erodes the
 *  open space by the flier radius. Any array may be NULL with a zero count. */
spark_nav_result spark_nav_flight_build(const spark_nav_flight_def* def, const double* vertices, size_t vertex_count,
                                        const uint32_t* indices, size_t index_count, const double* boxes,
                                        size_t box_count, spark_nav_flight** out);
void spark_nav_flight_destroy(spark_nav_flight* flight);

/** Voxels per axis and the number of open ones. Outputs may be NULL. */
spark_nav_result spark_nav_flight_info(const spark_nav_flight* flight, int out_dims[3], int64_t* out_open);

/** The first blocked point along a segment: `out_blocked`, the fraction
 *  `out_t` before it (1 when clear) and the point. Outputs may be NULL. */
spark_nav_result spark_nav_flight_raycast(const spark_nav_flight* flight, const double from[3], const double to[3],
                                          int* out_blocked, double* out_t, double out_point[3]);

/** A path through open space (A* over voxels, smoothed by raycasts), 3
 *  doubles per point; `out_partial` when the goal cannot be reached (the path
 *  ends nearest it). A start or goal in blocked space: SPARK_NAV_OFF_MESH. */
spark_nav_result spark_nav_flight_path(spark_nav_flight* flight, const double from[3], const double to[3],
                                       double* out_points, size_t capacity, size_t* out_count, int* out_partial);

/* -- Worlds: meshes with obstacles and crowds ------------------------------------- */

typedef struct spark_nav_world spark_nav_world;

/* The ids a world hands out (meshes, obstacles, links, agents) are opaque
 * numbers that carry their kind and their world: an agent's id passed as an
 * obstacle's, or an id of another world, names nothing (as a removed one). */
spark_nav_result spark_nav_world_create(spark_nav_world** out);
void spark_nav_world_destroy(spark_nav_world* world);

/** Puts a copy of `mesh` into the world under `name` (replacing a mesh of
 *  that name, which keeps its obstacles and agents); its id in `out_id`. */
spark_nav_result spark_nav_world_put_mesh(spark_nav_world* world, const char* name, const spark_nav_mesh* mesh,
                                          uint64_t* out_id);

/** The current mesh (baked minus obstacles) as a new mesh the caller destroys. */
spark_nav_result spark_nav_world_mesh(const spark_nav_world* world, uint64_t mesh_id, spark_nav_mesh** out);

/** The world's state hash (meshes, obstacles, agents). */
spark_nav_result spark_nav_world_hash(const spark_nav_world* world, uint64_t* out);

/** Obstacle shapes. */
typedef enum spark_nav_shape
{
    SPARK_NAV_CIRCLE = 0, /**< size[0] = radius */
    SPARK_NAV_BOX = 1,    /**< size[0], size[1] = half extents (x, z), turned by angle_deg */
    SPARK_NAV_SHAPE_MAX_ENUM = 0x7FFFFFFF
} spark_nav_shape;

/** Carves an obstacle (footprint grown by the mesh's agent radius) into a
 *  mesh of the world at `position` (its base); its id in `out_id`. */
spark_nav_result spark_nav_obstacle_add(spark_nav_world* world, uint64_t mesh_id, spark_nav_shape shape,
                                        const float size[2], float angle_deg, const float position[3],
                                        uint64_t* out_id);
/** Carves an obstacle whose footprint is a convex polygon: `point_count`
 *  (3..32) points, x and z each, relative to `position`, turned by
 *  `angle_deg` (from +x toward +z); they run counter-clockwise in the x–z
 *  plane (positive area with x right and z up the page, as mesh polygons do),
 *  with no point repeated and no corner bent inward. Too many points:
 *  SPARK_NAV_LIMIT (before any is read); too few, a clockwise or non-convex
 *  polygon, a point that is not finite: SPARK_NAV_INVALID_ARGUMENT. */
spark_nav_result spark_nav_obstacle_add_polygon(spark_nav_world* world, uint64_t mesh_id, const float* points,
                                                size_t point_count, float angle_deg, const float position[3],
                                                uint64_t* out_id);
/** Moves (and turns: boxes and polygons) an obstacle; only the polygons under
 *  its old and new footprints are cut again. */
spark_nav_result spark_nav_obstacle_move(spark_nav_world* world, uint64_t obstacle_id, const float position[3],
                                         float angle_deg);
spark_nav_result spark_nav_obstacle_remove(spark_nav_world* world, uint64_t obstacle_id);

/** Off-mesh link kinds. */
typedef enum spark_nav_link_kind
{
    SPARK_NAV_JUMP = 0, /**< an arc of arc_height at speed */
    SPARK_NAV_DROP = 1, /**< down along the line */
    SPARK_NAV_LINK_KIND_MAX_ENUM = 0x7FFFFFFF
} spark_nav_link_kind;

/** Adds an off-mesh link between `start` and `end` (each snapped to a polygon
 *  within `radius`; `out_resolved` says whether both were). Paths and the
 *  crowd use it while it resolves (again after every carving). */
spark_nav_result spark_nav_link_add(spark_nav_world* world, uint64_t mesh_id, const float start[3], const float end[3],
                                    spark_nav_link_kind kind, float radius, int bidirectional, float cost, float speed,
                                    float arc_height, uint64_t* out_id, int* out_resolved);
spark_nav_result spark_nav_link_remove(spark_nav_world* world, uint64_t link_id);

/** A path on a world's current mesh that takes its resolved off-mesh links
 *  (take-off and landing are consecutive points); otherwise as spark_nav_path. */
spark_nav_result spark_nav_world_path(const spark_nav_world* world, uint64_t mesh_id, const float from[3],
                                      const float to[3], const float half_extents[3], float* out_points,
                                      size_t capacity, size_t* out_count, float* out_length, int* out_complete);

/** Plans a corridor on a world mesh (its current polygons: baked minus
 *  obstacles) that may take the mesh's resolved off-mesh links; otherwise as
 *  spark_nav_corridor_plan. A mesh id that names nothing: SPARK_NAV_UNKNOWN_ID. */
spark_nav_result spark_nav_world_corridor_plan(const spark_nav_world* world, uint64_t mesh_id, const float start[3],
                                               const float goal[3], const float half_extents[3],
                                               spark_nav_corridor** out);

/** Plans again from the position to the corridor's target on a world mesh,
 *  over its links (after carving, or a link added or removed).
 *  spark_nav_corridor_replan, which knows no links, drops them. */
spark_nav_result spark_nav_world_corridor_replan(const spark_nav_world* world, uint64_t mesh_id,
                                                 spark_nav_corridor* corridor, const float half_extents[3]);

/** An off-mesh link on a corridor's way, in the direction the corridor crosses it. */
typedef struct spark_nav_corridor_link
{
    uint64_t link_id;         /**< The world's id of the link (it may have been removed since). */
    spark_nav_link_kind kind; /**< Jump or drop. */
    float start[3];           /**< Take-off (on the mesh). m */
    float end[3];             /**< Landing (on the mesh). m */
    float speed;              /**< m/s */
    float arc_height;         /**< A jump's arc over the straight line. m */
} spark_nav_corridor_link;

/** The links the corridor takes, in order (`capacity` 0 with NULL counts them). */
spark_nav_result spark_nav_corridor_links(const spark_nav_corridor* corridor, spark_nav_corridor_link* out_links,
                                          size_t capacity, size_t* out_count);

/** Where an agent crossing the corridor's next link is, `time` seconds
 *  (finite, >= 0) after taking off from the corridor's position: along the
 *  straight line to the landing at the link's speed, a jump lifted on a
 *  parabola arc_height high at the middle (not on 2D meshes). `out_duration`:
 *  the whole crossing's time; `out_landed`: done, the point is the landing
 *  (then call spark_nav_corridor_land). Outputs other than the point may be
 *  NULL. A corridor without a link: SPARK_NAV_INVALID_ARGUMENT. */
spark_nav_result spark_nav_corridor_cross(const spark_nav_corridor* corridor, float time, float out_point[3],
                                          float* out_duration, int* out_landed);

/** After crossing the next link: the position becomes its landing and the
 *  polygons before it are dropped. A corridor without a link: SPARK_NAV_INVALID_ARGUMENT. */
spark_nav_result spark_nav_corridor_land(spark_nav_corridor* corridor);

/** Agent settings (see spark/nav/crowd.h). */
typedef struct spark_nav_agent_settings
{
    float radius, height, max_speed, max_accel, stop_distance, slow_radius, priority;
    int max_neighbors;
} spark_nav_agent_settings;

/** The defaults of a crowd agent (radius 0.4, height 1.8, speed 3.5, accel 8, ...). */
spark_nav_agent_settings spark_nav_agent_settings_default(void);

/** Agent states. */
typedef enum spark_nav_agent_state
{
    SPARK_NAV_IDLE = 0,
    SPARK_NAV_MOVING = 1,
    SPARK_NAV_ARRIVED = 2,
    SPARK_NAV_NO_PATH = 3,
    SPARK_NAV_AGENT_OFF_MESH = 4,
    SPARK_NAV_AGENT_STATE_MAX_ENUM = 0x7FFFFFFF
} spark_nav_agent_state;

spark_nav_result spark_nav_agent_add(spark_nav_world* world, uint64_t mesh_id, const float position[3],
                                     const spark_nav_agent_settings* settings, uint64_t* out_id);
spark_nav_result spark_nav_agent_set_target(spark_nav_world* world, uint64_t agent_id, const float target[3]);
/** Changes an agent's settings (it stays where it is). */
spark_nav_result spark_nav_agent_set_settings(spark_nav_world* world, uint64_t agent_id,
                                              const spark_nav_agent_settings* settings);
spark_nav_result spark_nav_agent_remove(spark_nav_world* world, uint64_t agent_id);
/** An agent's avoidance layers: the bits it is on, and the bits of the agents
 *  it ignores (it ignores another when `ignores` shares a bit with the other's
 *  layers). New agents have 0 and 0: they avoid everyone. One that avoids an
 *  agent ignoring it takes the whole avoidance, so the two still never touch. */
spark_nav_result spark_nav_agent_set_layers(spark_nav_world* world, uint64_t agent_id, uint32_t layers,
                                            uint32_t ignores);
/** An agent's layers and ignores. Either output may be NULL. */
spark_nav_result spark_nav_agent_get_layers(const spark_nav_world* world, uint64_t agent_id, uint32_t* out_layers,
                                            uint32_t* out_ignores);
/** Where an agent is, how fast it goes, and its state. Any output may be NULL. */
spark_nav_result spark_nav_agent_get(const spark_nav_world* world, uint64_t agent_id, float out_position[3],
                                     float out_velocity[3], spark_nav_agent_state* out_state);
/** The crowd's plan budget: search nodes each mesh's crowd spends per step
 *  on corridor searches (new targets and re-plans, first come first served;
 *  a search once started finishes, the requests past the budget wait for
 *  the next step and their agents stand). 1 .. 2^30, default 2^24 (every
 *  request of the test scenes served in its step); out of range:
 *  SPARK_NAV_INVALID_ARGUMENT and nothing changes. NavWorld::setPlanNodesPerStep. */
spark_nav_result spark_nav_world_set_plan_budget(spark_nav_world* world, uint32_t nodes_per_step);
/** The crowd's plan budget (spark_nav_world_set_plan_budget). */
spark_nav_result spark_nav_world_get_plan_budget(const spark_nav_world* world, uint32_t* out_nodes_per_step);
/** Advances every crowd of the world by `dt` seconds (0 < dt <= 1). */
spark_nav_result spark_nav_world_step(spark_nav_world* world, double dt);
/** The hash of the crowd on a mesh: its agents in id order (settings, position,
 *  velocity, state, target, corridor), as `nav.info` / `nav.hash` answer
 *  `crowd_hash` (the world's hash also covers the meshes' names and sources). */
spark_nav_result spark_nav_world_crowd_hash(const spark_nav_world* world, uint64_t mesh_id, uint64_t* out);

#ifdef __cplusplus
}
#endif

SPARK_NAV_API_END

#endif /* SPARK_NAV_C_H */
