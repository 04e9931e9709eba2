/* The C API against a hostile caller (C99, -pedantic -Werror; run under ASan
 * and UBSan in the sanitize build): counts past the limits or wrapping
 * (SIZE_MAX, 2^25, 2^40) are answered SPARK_NAV_LIMIT before an array is
 * read (the arrays given are tiny, so a read would be out of bounds), enum
 * values out of range (negative too) are SPARK_NAV_INVALID_ARGUMENT, not
 * undefined behaviour, and outputs stay untouched on failure. */
#include "spark/nav_c.h"

#include "c_check.h"

#include <stdio.h>
#include <string.h>

/* 2^40 where size_t holds it, else SIZE_MAX. */
static size_t huge(void)
{
    const size_t big = ((size_t)1 << 20);
    return ((size_t)-1) / big >= big ? big * big : (size_t)-1;
}

/* A 4 m x 4 m square, 2D, one polygon. */
static const float kSquare[12] = {0, 0, 0, 4, 0, 0, 4, 0, 4, 0, 0, 4};
static const uint32_t kSquareIdx[4] = {0, 1, 2, 3};
static const uint32_t kSquareStarts[2] = {0, 4};

static void meshCounts(void)
{
    spark_nav_mesh* mesh = NULL;
    spark_nav_mesh* const sentinel = (spark_nav_mesh*)&failures; /* never dereferenced */
    spark_nav_bake_settings settings = spark_nav_bake_settings_default();
    const uint32_t tri[3] = {0, 1, 2};
    const uint32_t badStart[2] = {1, 4}, falling[3] = {0, 4, 2}, tooMany[2] = {0, 0xffffffffu};
    float points[6];

    /* poly_count = SIZE_MAX: poly_count + 1 wrapped to 0 (SIGSEGV) */
    mesh = sentinel;
    CHECK(spark_nav_mesh_build(kSquare, 4, kSquareIdx, kSquareStarts, (size_t)-1, NULL, 1, 0.0f, &mesh) ==
          SPARK_NAV_LIMIT);
    CHECK(mesh == sentinel);
    /* vertex_count past 2^24: was read in full before the check */
    CHECK(spark_nav_mesh_build(kSquare, (size_t)1 << 25, kSquareIdx, kSquareStarts, 1, NULL, 1, 0.0f, &mesh) ==
          SPARK_NAV_LIMIT);
    CHECK(spark_nav_mesh_build(kSquare, huge(), kSquareIdx, kSquareStarts, 1, NULL, 1, 0.0f, &mesh) ==
          SPARK_NAV_LIMIT);
    CHECK(spark_nav_mesh_build(kSquare, 4, kSquareIdx, kSquareStarts, huge(), NULL, 1, 0.0f, &mesh) ==
          SPARK_NAV_LIMIT);
    /* offsets are checked before the indices are read through them */
    CHECK(spark_nav_mesh_build(kSquare, 4, kSquareIdx, badStart, 1, NULL, 1, 0.0f, &mesh) ==
          SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_mesh_build(kSquare, 4, kSquareIdx, falling, 2, NULL, 1, 0.0f, &mesh) ==
          SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_mesh_build(kSquare, 4, kSquareIdx, tooMany, 1, NULL, 1, 0.0f, &mesh) == SPARK_NAV_LIMIT);
    CHECK(mesh == sentinel);

    CHECK(spark_nav_mesh_bake(kSquare, (size_t)1 << 25, tri, 3, NULL, 0, &settings, &mesh) == SPARK_NAV_LIMIT);
    CHECK(spark_nav_mesh_bake(kSquare, huge(), tri, 3, NULL, 0, &settings, &mesh) == SPARK_NAV_LIMIT);
    CHECK(spark_nav_mesh_bake(kSquare, 4, tri, huge() * 3, NULL, 0, &settings, &mesh) ==
          SPARK_NAV_LIMIT);
    CHECK(spark_nav_mesh_bake(kSquare, 4, tri, (size_t)-1, NULL, 0, &settings, &mesh) == SPARK_NAV_LIMIT);
    {
        const uint8_t cells[4] = {0, 0, 0, 0};
        CHECK(spark_nav_mesh_bake_grid(cells, NULL, 1 << 20, 1, 1.0f, 0.0f, 0.0f, 0.0f, &mesh) == SPARK_NAV_LIMIT);
        CHECK(spark_nav_mesh_bake_grid(cells, NULL, 2, -5, 1.0f, 0.0f, 0.0f, 0.0f, &mesh) ==
              SPARK_NAV_INVALID_ARGUMENT);
    }
    CHECK(mesh == sentinel);

    mesh = NULL;
    CHECK(spark_nav_mesh_build(kSquare, 4, kSquareIdx, kSquareStarts, 1, NULL, 1, 0.0f, &mesh) == SPARK_NAV_OK);
    CHECK(spark_nav_random_points(mesh, 1, huge(), points) == SPARK_NAV_LIMIT);
    CHECK(spark_nav_random_points(mesh, 1, (size_t)-1, points) == SPARK_NAV_LIMIT);
    CHECK(spark_nav_random_points(mesh, 1, 2, points) == SPARK_NAV_OK);
    spark_nav_mesh_destroy(mesh);
}

static void flightCounts(void)
{
    const spark_nav_flight_def def = spark_nav_flight_def_default();
    const double verts[9] = {0, 0, 0, 1, 0, 0, 0, 0, 1};
    const uint32_t tri[3] = {0, 1, 2};
    const double box[6] = {0, 0, 0, 1, 1, 1};
    spark_nav_flight* const sentinel = (spark_nav_flight*)&failures;
    spark_nav_flight* flight = sentinel;
    CHECK(spark_nav_flight_build(&def, verts, huge(), tri, 3, NULL, 0, &flight) == SPARK_NAV_LIMIT);
    CHECK(spark_nav_flight_build(&def, verts, 3, tri, huge() * 3, NULL, 0, &flight) == SPARK_NAV_LIMIT);
    CHECK(spark_nav_flight_build(&def, verts, 3, tri, (size_t)-1, NULL, 0, &flight) == SPARK_NAV_LIMIT);
    CHECK(spark_nav_flight_build(&def, verts, 3, tri, 2, NULL, 0, &flight) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_flight_build(&def, NULL, 0, NULL, 0, box, huge(), &flight) == SPARK_NAV_LIMIT);
    CHECK(flight == sentinel);
}

static void avoidanceCounts(void)
{
    const spark_nav_avoidance_def def = spark_nav_avoidance_def_default();
    spark_nav_avoidance* avoidance = NULL;
    spark_nav_avoid_agent agent;
    spark_nav_avoid_agent_3d flier;
    spark_nav_avoid_obstacle wall, other;
    spark_nav_avoid_sphere ball;
    const double wallPoints[4] = {2.0, -1.0, 2.0, 1.0};
    double v[3] = {7.0, 7.0, 7.0};
    int32_t bits = -1;

    memset(&agent, 0, sizeof agent);
    memset(&flier, 0, sizeof flier);
    memset(&wall, 0, sizeof wall);
    memset(&ball, 0, sizeof ball);
    agent.radius = flier.radius = 0.5;
    agent.max_speed = flier.max_speed = 1.0;
    agent.priority = flier.priority = 1.0;
    agent.preferred[0] = flier.preferred[0] = 1.0;
    ball.radius = 1.0;
    ball.center[0] = 5.0;
    wall.shape = SPARK_NAV_AVOID_SEGMENT;
    wall.points = wallPoints;
    wall.point_count = 2;

    CHECK(spark_nav_avoidance_create(&def, &avoidance) == SPARK_NAV_OK);
    CHECK(spark_nav_avoid(avoidance, &agent, huge(), NULL, 0, 0.1, v) == SPARK_NAV_LIMIT);
    CHECK(spark_nav_avoid(avoidance, &agent, (size_t)-1, NULL, 0, 0.1, v) == SPARK_NAV_LIMIT);
    CHECK(spark_nav_avoid(avoidance, &agent, 1, &wall, huge(), 0.1, v) == SPARK_NAV_LIMIT);
    wall.point_count = huge();
    CHECK(spark_nav_avoid(avoidance, &agent, 1, &wall, 1, 0.1, v) == SPARK_NAV_LIMIT);
    /* two obstacles whose point counts only pass the limit together (2^20) */
    wall.point_count = ((size_t)1 << 19) + 1;
    other = wall;
    other.point_count = (size_t)1 << 19;
    {
        spark_nav_avoid_obstacle both[2];
        both[0] = wall;
        both[1] = other;
        CHECK(spark_nav_avoid(avoidance, &agent, 1, both, 2, 0.1, v) == SPARK_NAV_LIMIT);
    }
    wall.point_count = 2;
    /* a negative shape: out of the enum's range */
    memcpy(&wall.shape, &bits, sizeof bits);
    CHECK(spark_nav_avoid(avoidance, &agent, 1, &wall, 1, 0.1, v) == SPARK_NAV_INVALID_ARGUMENT);
    wall.shape = SPARK_NAV_AVOID_SHAPE_MAX_ENUM;
    CHECK(spark_nav_avoid(avoidance, &agent, 1, &wall, 1, 0.1, v) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(v[0] == 7.0 && v[1] == 7.0); /* untouched */
    wall.shape = SPARK_NAV_AVOID_SEGMENT;
    CHECK(spark_nav_avoid(avoidance, &agent, 1, &wall, 1, 0.1, v) == SPARK_NAV_OK);
    CHECK(v[0] > 0.0);

    CHECK(spark_nav_avoid_3d(avoidance, &flier, huge(), NULL, 0, 0.1, v) == SPARK_NAV_LIMIT);
    CHECK(spark_nav_avoid_3d(avoidance, &flier, 1, &ball, (size_t)-1, 0.1, v) == SPARK_NAV_LIMIT);
    CHECK(spark_nav_avoid_3d(avoidance, &flier, 1, &ball, 1, 0.1, v) == SPARK_NAV_OK);
    spark_nav_avoidance_destroy(avoidance);
}

static void worldEnums(void)
{
    spark_nav_mesh* mesh = NULL;
    spark_nav_world* world = NULL;
    uint64_t meshId = 0, id = 77, before = 0, after = 0;
    int resolved = -3;
    const float size[2] = {0.5f, 0.5f}, at[3] = {2.0f, 0.0f, 2.0f}, a[3] = {1.0f, 0.0f, 1.0f},
                b[3] = {3.0f, 0.0f, 3.0f};
    const int values[4] = {-1, -2147483647 - 1, 2, 0x7FFFFFFF};
    size_t i;

    CHECK(spark_nav_mesh_build(kSquare, 4, kSquareIdx, kSquareStarts, 1, NULL, 1, 0.0f, &mesh) == SPARK_NAV_OK);
    CHECK(spark_nav_world_create(&world) == SPARK_NAV_OK);
    CHECK(spark_nav_world_put_mesh(world, "square", mesh, &meshId) == SPARK_NAV_OK);
    CHECK(spark_nav_world_hash(world, &before) == SPARK_NAV_OK);
    for (i = 0; i < 4; ++i)
    {
        spark_nav_shape shape;
        spark_nav_link_kind kind;
        memcpy(&shape, &values[i], sizeof shape);
        memcpy(&kind, &values[i], sizeof kind);
        CHECK(spark_nav_obstacle_add(world, meshId, shape, size, 0.0f, at, &id) == SPARK_NAV_INVALID_ARGUMENT);
        CHECK(spark_nav_link_add(world, meshId, a, b, kind, 0.5f, 1, 1.0f, 4.0f, 1.0f, &id, &resolved) ==
              SPARK_NAV_INVALID_ARGUMENT);
    }
    CHECK(id == 77 && resolved == -3);
    CHECK(spark_nav_world_hash(world, &after) == SPARK_NAV_OK && after == before);
    CHECK(spark_nav_obstacle_add(world, meshId, SPARK_NAV_CIRCLE, size, 0.0f, at, &id) == SPARK_NAV_OK);
    spark_nav_world_destroy(world);
    spark_nav_mesh_destroy(mesh);
}

static void resultStrings(void)
{
    const int values[4] = {-1, -2147483647 - 1, 10, 0x7FFFFFFF};
    size_t i;
    for (i = 0; i < 4; ++i)
    {
        spark_nav_result r;
        memcpy(&r, &values[i], sizeof r);
        CHECK(strcmp(spark_nav_result_string(r), "unknown result") == 0);
    }
    CHECK(strcmp(spark_nav_result_string(SPARK_NAV_LIMIT), "limit exceeded") == 0);
}

int main(void)
{
    meshCounts();
    flightCounts();
    avoidanceCounts();
    worldEnums();
    resultStrings();
    printf("%s (%d failed)\n", failures == 0 ? "nav_c_hostile_test: all passed" : "nav_c_hostile_test: FAILURES",
           failures);
    return failures == 0 ? 0 : 1;
}
