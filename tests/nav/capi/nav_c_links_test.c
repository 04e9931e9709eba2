/* The C API's off-mesh links on corridors (corner flags, the at-link signal
 * of steering, world corridors, crossing and landing), agent layers and
 * polygon obstacles, compiled as C99 with -pedantic -Werror: each call's
 * answers to NULL, bad counts, values out of range and stale ids (a failed
 * call writes no output and leaves the world's hash as it was), then what it
 * does on a scene built for it. */
#include "spark/nav_c.h"

#include "c_check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const float kExt[3] = {0.5f, 2.0f, 0.5f};

/* Rectangles [x0, x1] x [z0, z1] at height y (5 floats each) as a mesh, each
 * with its own vertices (neighbours link where their edges overlap). */
static spark_nav_mesh* rects(const float* r, size_t count, int is2d)
{
    float vertices[8 * 4 * 3];
    uint32_t indices[8 * 4], starts[9];
    size_t i, v = 0;
    int c;
    spark_nav_mesh* mesh = NULL;
    starts[0] = 0;
    for (i = 0; i < count; ++i)
    {
        const float* q = r + 5 * i;
        const float xs[4] = {q[0], q[2], q[2], q[0]}, zs[4] = {q[1], q[1], q[3], q[3]};
        for (c = 0; c < 4; ++c)
        {
            vertices[3 * v] = xs[c];
            vertices[3 * v + 1] = q[4];
            vertices[3 * v + 2] = zs[c];
            indices[v] = (uint32_t)v;
            ++v;
        }
        starts[i + 1] = (uint32_t)v;
    }
    CHECK(spark_nav_mesh_build(vertices, v, indices, starts, count, NULL, is2d, 0.0f, &mesh) == SPARK_NAV_OK);
    return mesh;
}

/* Two floors with a 2 m gap: west [0,4]x[0,4] at y 0, east [6,10]x[0,4] at y 1. */
static spark_nav_mesh* gapFloors(int is2d)
{
    const float r[10] = {0, 0, 4, 4, 0, 6, 0, 10, 4, 1};
    float flat[10];
    memcpy(flat, r, sizeof flat);
    flat[9] = 0.0f;
    return rects(is2d ? flat : r, 2, is2d);
}

static int near(float a, float b)
{
    return fabsf(a - b) <= 1e-4f;
}

/* A world corridor over a jump: corner flags, steering to the take-off,
 * at_link, the crossing on its arc, the landing, then on to the goal. */
static void corridorOverJump(void)
{
    const float takeoff[3] = {3.5f, 0.0f, 2.0f}, landing[3] = {6.5f, 1.0f, 2.0f};
    const float start[3] = {1.0f, 0.0f, 1.0f}, goal[3] = {9.0f, 1.0f, 3.0f}, off[3] = {20.0f, 0.0f, 2.0f};
    spark_nav_mesh* mesh = gapFloors(0);
    spark_nav_mesh* current = NULL;
    spark_nav_world* world = NULL;
    spark_nav_world* other = NULL;
    spark_nav_corridor* corridor = NULL;
    spark_nav_corridor* sentinel = (spark_nav_corridor*)&failures;
    spark_nav_corridor* plain = NULL;
    spark_nav_corridor_link links[2];
    spark_nav_steering steering;
    uint64_t meshId = 0, otherMesh = 0, link = 0, hash = 0, again = 0;
    float points[3 * 16], at[3] = {7.0f, 7.0f, 7.0f}, duration = -1.0f;
    uint32_t flags[16];
    size_t count = 99, polygons = 0, i;
    int resolved = 0, landed = -1, complete = -1, valid = -1, step;

    CHECK(spark_nav_world_create(&world) == SPARK_NAV_OK && spark_nav_world_create(&other) == SPARK_NAV_OK);
    CHECK(spark_nav_world_put_mesh(world, "gap", mesh, &meshId) == SPARK_NAV_OK);
    CHECK(spark_nav_world_put_mesh(other, "gap", mesh, &otherMesh) == SPARK_NAV_OK);
    CHECK(spark_nav_link_add(world, meshId, takeoff, landing, SPARK_NAV_JUMP, 0.5f, 0, 1.0f, 2.0f, 1.5f, &link,
                             &resolved) == SPARK_NAV_OK &&
          resolved == 1);
    CHECK(spark_nav_world_mesh(world, meshId, &current) == SPARK_NAV_OK);
    CHECK(spark_nav_world_hash(world, &hash) == SPARK_NAV_OK);

    /* Planning: bad arguments and ids answer, writing nothing. */
    corridor = sentinel;
    CHECK(spark_nav_world_corridor_plan(NULL, meshId, start, goal, kExt, &corridor) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_world_corridor_plan(world, meshId, NULL, goal, kExt, &corridor) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_world_corridor_plan(world, meshId, start, NULL, kExt, &corridor) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_world_corridor_plan(world, meshId, start, goal, NULL, &corridor) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_world_corridor_plan(world, meshId, start, goal, kExt, NULL) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_world_corridor_plan(world, meshId + 5, start, goal, kExt, &corridor) == SPARK_NAV_UNKNOWN_ID);
    /* another world's mesh names nothing here */
    CHECK(spark_nav_world_corridor_plan(world, otherMesh, start, goal, kExt, &corridor) == SPARK_NAV_UNKNOWN_ID);
    CHECK(spark_nav_world_corridor_plan(world, link, start, goal, kExt, &corridor) == SPARK_NAV_UNKNOWN_ID);
    CHECK(spark_nav_world_corridor_plan(world, meshId, off, goal, kExt, &corridor) == SPARK_NAV_OFF_MESH);
    CHECK(corridor == sentinel);

    CHECK(spark_nav_world_corridor_plan(world, meshId, start, goal, kExt, &corridor) == SPARK_NAV_OK);
    CHECK(spark_nav_corridor_info(corridor, NULL, &polygons, &complete) == SPARK_NAV_OK && complete == 1 &&
          polygons == 2);
    CHECK(spark_nav_corridor_check(current, corridor, &valid) == SPARK_NAV_OK && valid == 1);

    /* The links on the way. */
    CHECK(spark_nav_corridor_links(NULL, links, 2, &count) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_corridor_links(corridor, links, 2, NULL) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_corridor_links(corridor, NULL, 2, &count) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_corridor_links(corridor, NULL, 0, &count) == SPARK_NAV_BUFFER_TOO_SMALL && count == 1);
    CHECK(spark_nav_corridor_links(corridor, links, 2, &count) == SPARK_NAV_OK && count == 1);
    CHECK(links[0].link_id == link && links[0].kind == SPARK_NAV_JUMP && links[0].speed == 2.0f &&
          links[0].arc_height == 1.5f);
    CHECK(links[0].start[0] == 3.5f && links[0].start[2] == 2.0f && links[0].end[0] == 6.5f &&
          links[0].end[1] == 1.0f);

    /* Corners end at the take-off, flagged. */
    CHECK(spark_nav_corridor_corners_flagged(NULL, corridor, points, flags, 4, &count) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_corridor_corners_flagged(current, NULL, points, flags, 4, &count) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_corridor_corners_flagged(current, corridor, NULL, flags, 4, &count) ==
          SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_corridor_corners_flagged(current, corridor, points, NULL, 4, &count) ==
          SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_corridor_corners_flagged(current, corridor, points, flags, 4, NULL) ==
          SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_corridor_corners_flagged(current, corridor, points, flags, 0, &count) ==
          SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_corridor_corners_flagged(current, corridor, points, flags, 17, &count) ==
          SPARK_NAV_INVALID_ARGUMENT);
    CHECK(count == 1); /* untouched by the failed calls */
    CHECK(spark_nav_corridor_corners_flagged(current, corridor, points, flags, 4, &count) == SPARK_NAV_OK);
    CHECK(count == 1 && points[0] == 3.5f && points[2] == 2.0f && flags[0] == SPARK_NAV_CORNER_LINK_START);

    /* Steering: bad arguments, then walk to the take-off until at_link. */
    memset(&steering, 0, sizeof steering);
    steering.distance_to_end = 123.0f;
    CHECK(spark_nav_corridor_steering(NULL, corridor, 2.0f, 1.0f, 0.1f, &steering) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_corridor_steering(current, NULL, 2.0f, 1.0f, 0.1f, &steering) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_corridor_steering(current, corridor, 2.0f, 1.0f, 0.1f, NULL) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_corridor_steering(current, corridor, -1.0f, 1.0f, 0.1f, &steering) ==
          SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_corridor_steering(current, corridor, 2.0f, NAN, 0.1f, &steering) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_corridor_steering(current, corridor, 2.0f, 1.0f, -0.1f, &steering) ==
          SPARK_NAV_INVALID_ARGUMENT);
    CHECK(steering.distance_to_end == 123.0f);
    for (step = 0; step < 400; ++step)
    {
        float wanted[3], pos[3];
        CHECK(spark_nav_corridor_steering(current, corridor, 2.0f, 1.0f, 0.1f, &steering) == SPARK_NAV_OK);
        CHECK(steering.arrived == 0);
        CHECK(steering.distance_to_end == -1.0f); /* the end lies beyond the link */
        if (steering.at_link)
            break;
        CHECK(spark_nav_corridor_info(corridor, pos, NULL, NULL) == SPARK_NAV_OK);
        wanted[0] = pos[0] + steering.velocity[0] * 0.05f;
        wanted[1] = pos[1];
        wanted[2] = pos[2] + steering.velocity[2] * 0.05f;
        CHECK(spark_nav_corridor_move(current, corridor, wanted, pos) == SPARK_NAV_OK);
    }
    CHECK(steering.at_link == 1 && steering.velocity[0] == 0.0f && steering.velocity[2] == 0.0f);
    CHECK(spark_nav_corridor_info(corridor, at, NULL, NULL) == SPARK_NAV_OK);
    CHECK(fabsf(at[0] - 3.5f) <= 0.1f && fabsf(at[2] - 2.0f) <= 0.1f);
    {
        /* The velocity is the one spark_nav_corridor_steer gives. */
        float v[3];
        int arrived = -1;
        CHECK(spark_nav_corridor_steer(current, corridor, 2.0f, 1.0f, 0.1f, v, &arrived) == SPARK_NAV_OK);
        CHECK(v[0] == steering.velocity[0] && v[2] == steering.velocity[2] && arrived == 0);
    }

    /* Crossing: bad arguments, then the arc, then the landing. */
    at[0] = at[1] = at[2] = 7.0f;
    CHECK(spark_nav_corridor_cross(NULL, 0.0f, at, &duration, &landed) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_corridor_cross(corridor, 0.0f, NULL, &duration, &landed) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_corridor_cross(corridor, -1.0f, at, &duration, &landed) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_corridor_cross(corridor, NAN, at, &duration, &landed) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_corridor_cross(corridor, INFINITY, at, &duration, &landed) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(at[0] == 7.0f && duration == -1.0f && landed == -1);
    CHECK(spark_nav_corridor_cross(corridor, 0.0f, at, NULL, NULL) == SPARK_NAV_OK);
    CHECK(spark_nav_corridor_cross(corridor, 0.0f, at, &duration, &landed) == SPARK_NAV_OK && landed == 0);
    CHECK(duration > 1.5f && duration < 1.7f); /* about sqrt(3^2 + 1^2) m at 2 m/s */
    {
        float from[3], mid[3];
        CHECK(spark_nav_corridor_info(corridor, from, NULL, NULL) == SPARK_NAV_OK);
        CHECK(spark_nav_corridor_cross(corridor, duration * 0.5f, mid, NULL, &landed) == SPARK_NAV_OK && landed == 0);
        /* halfway along the line, 1.5 m over its middle */
        CHECK(near(mid[0], (from[0] + 6.5f) * 0.5f) && near(mid[1], (from[1] + 1.0f) * 0.5f + 1.5f));
    }
    CHECK(spark_nav_corridor_cross(corridor, duration, at, NULL, &landed) == SPARK_NAV_OK && landed == 1);
    CHECK(at[0] == 6.5f && at[1] == 1.0f && at[2] == 2.0f);

    CHECK(spark_nav_corridor_land(NULL) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_corridor_land(corridor) == SPARK_NAV_OK);
    CHECK(spark_nav_corridor_info(corridor, at, &polygons, NULL) == SPARK_NAV_OK);
    CHECK(at[0] == 6.5f && at[1] == 1.0f && polygons == 1);
    CHECK(spark_nav_corridor_land(corridor) == SPARK_NAV_INVALID_ARGUMENT); /* no link left */
    CHECK(spark_nav_corridor_cross(corridor, 0.0f, at, NULL, NULL) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_corridor_links(corridor, links, 2, &count) == SPARK_NAV_OK && count == 0);
    CHECK(spark_nav_corridor_corners_flagged(current, corridor, points, flags, 4, &count) == SPARK_NAV_OK);
    CHECK(count == 1 && points[0] == 9.0f && points[2] == 3.0f && flags[0] == SPARK_NAV_CORNER_END);
    for (step = 0; step < 400; ++step)
    {
        float wanted[3], pos[3];
        CHECK(spark_nav_corridor_steering(current, corridor, 2.0f, 1.0f, 0.1f, &steering) == SPARK_NAV_OK);
        CHECK(steering.at_link == 0);
        if (steering.arrived)
            break;
        CHECK(spark_nav_corridor_info(corridor, pos, NULL, NULL) == SPARK_NAV_OK);
        for (i = 0; i < 3; ++i)
            wanted[i] = pos[i] + steering.velocity[i] * 0.05f;
        CHECK(spark_nav_corridor_move(current, corridor, wanted, pos) == SPARK_NAV_OK);
    }
    CHECK(steering.arrived == 1 && steering.distance_to_end <= 0.1f && steering.distance_to_end >= 0.0f);

    /* Replanning: with the link removed, the goal beyond the gap cannot be
     * reached; a plain replan (no world) drops the links. */
    spark_nav_corridor_destroy(corridor);
    CHECK(spark_nav_world_corridor_plan(world, meshId, start, goal, kExt, &corridor) == SPARK_NAV_OK);
    CHECK(spark_nav_world_corridor_replan(NULL, meshId, corridor, kExt) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_world_corridor_replan(world, meshId, NULL, kExt) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_world_corridor_replan(world, meshId, corridor, NULL) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_world_corridor_replan(world, meshId + 5, corridor, kExt) == SPARK_NAV_UNKNOWN_ID);
    CHECK(spark_nav_world_corridor_replan(world, link, corridor, kExt) == SPARK_NAV_UNKNOWN_ID);
    CHECK(spark_nav_corridor_links(corridor, links, 2, &count) == SPARK_NAV_OK && count == 1);
    CHECK(spark_nav_world_corridor_replan(world, meshId, corridor, kExt) == SPARK_NAV_OK);
    CHECK(spark_nav_corridor_links(corridor, links, 2, &count) == SPARK_NAV_OK && count == 1);
    CHECK(spark_nav_world_hash(world, &again) == SPARK_NAV_OK && again == hash); /* corridors are the host's */
    CHECK(spark_nav_link_remove(world, link) == SPARK_NAV_OK);
    CHECK(spark_nav_world_corridor_replan(world, meshId, corridor, kExt) == SPARK_NAV_OK);
    CHECK(spark_nav_corridor_info(corridor, NULL, &polygons, &complete) == SPARK_NAV_OK && complete == 0 &&
          polygons == 1);
    CHECK(spark_nav_corridor_links(corridor, links, 2, &count) == SPARK_NAV_OK && count == 0);
    spark_nav_corridor_destroy(corridor);
    corridor = NULL;

    CHECK(spark_nav_link_add(world, meshId, takeoff, landing, SPARK_NAV_JUMP, 0.5f, 0, 1.0f, 2.0f, 1.5f, &link,
                             &resolved) == SPARK_NAV_OK);
    CHECK(spark_nav_world_corridor_plan(world, meshId, start, goal, kExt, &corridor) == SPARK_NAV_OK);
    CHECK(spark_nav_corridor_replan(current, corridor, kExt) == SPARK_NAV_OK);
    CHECK(spark_nav_corridor_links(corridor, links, 2, &count) == SPARK_NAV_OK && count == 0);
    CHECK(spark_nav_corridor_info(corridor, NULL, NULL, &complete) == SPARK_NAV_OK && complete == 0);
    spark_nav_corridor_destroy(corridor);

    /* A corridor on a plain mesh takes no link. */
    CHECK(spark_nav_corridor_plan(mesh, start, goal, kExt, &plain) == SPARK_NAV_OK);
    CHECK(spark_nav_corridor_links(plain, links, 2, &count) == SPARK_NAV_OK && count == 0);
    CHECK(spark_nav_corridor_land(plain) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_corridor_corners_flagged(mesh, plain, points, flags, 4, &count) == SPARK_NAV_OK);
    CHECK(count >= 1 && (flags[count - 1] & SPARK_NAV_CORNER_LINK_START) == 0);
    spark_nav_corridor_destroy(plain);

    spark_nav_mesh_destroy(current);
    spark_nav_world_destroy(world);
    spark_nav_world_destroy(other);
    spark_nav_mesh_destroy(mesh);
}

/* On a 2D mesh a jump crosses on the plane. */
static void flatJump(void)
{
    const float takeoff[3] = {3.5f, 0.0f, 2.0f}, landing[3] = {6.5f, 0.0f, 2.0f};
    const float start[3] = {3.5f, 0.0f, 2.0f}, goal[3] = {9.0f, 0.0f, 3.0f};
    spark_nav_mesh* mesh = gapFloors(1);
    spark_nav_world* world = NULL;
    spark_nav_corridor* corridor = NULL;
    uint64_t meshId = 0, link = 0;
    float at[3], duration = 0.0f;
    int landed = -1;
    CHECK(spark_nav_world_create(&world) == SPARK_NAV_OK);
    CHECK(spark_nav_world_put_mesh(world, "flat", mesh, &meshId) == SPARK_NAV_OK);
    CHECK(spark_nav_link_add(world, meshId, takeoff, landing, SPARK_NAV_JUMP, 0.5f, 1, 1.0f, 3.0f, 1.0f, &link,
                             NULL) == SPARK_NAV_OK);
    CHECK(spark_nav_world_corridor_plan(world, meshId, start, goal, kExt, &corridor) == SPARK_NAV_OK);
    CHECK(spark_nav_corridor_cross(corridor, 0.5f, at, &duration, &landed) == SPARK_NAV_OK);
    CHECK(duration == 1.0f && landed == 0 && near(at[0], 5.0f) && at[1] == 0.0f);
    spark_nav_corridor_destroy(corridor);
    spark_nav_world_destroy(world);
    spark_nav_mesh_destroy(mesh);
}

/* Layers: set and read back; an agent that ignores another walks straight
 * through the meeting while the other steps aside for both. */
static void layers(void)
{
    const float hall[5] = {0, 0, 12, 4, 0};
    const float west[3] = {1.0f, 0.0f, 2.0f}, east[3] = {11.0f, 0.0f, 2.0f};
    spark_nav_mesh* mesh = rects(hall, 1, 1);
    spark_nav_world* world = NULL;
    spark_nav_agent_settings settings = spark_nav_agent_settings_default();
    uint64_t meshId = 0, a = 0, b = 0, before = 0, after = 0;
    uint32_t l = 77, ig = 77;
    float maxA = 0.0f, maxB = 0.0f;
    int step;
    CHECK(spark_nav_world_create(&world) == SPARK_NAV_OK);
    CHECK(spark_nav_world_put_mesh(world, "hall", mesh, &meshId) == SPARK_NAV_OK);
    CHECK(spark_nav_agent_add(world, meshId, west, &settings, &a) == SPARK_NAV_OK);
    CHECK(spark_nav_agent_add(world, meshId, east, &settings, &b) == SPARK_NAV_OK);
    CHECK(spark_nav_agent_get_layers(world, a, &l, &ig) == SPARK_NAV_OK && l == 0 && ig == 0);
    CHECK(spark_nav_world_hash(world, &before) == SPARK_NAV_OK);
    CHECK(spark_nav_agent_set_layers(NULL, a, 1, 2) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_agent_set_layers(world, a + 1000, 1, 2) == SPARK_NAV_UNKNOWN_ID);
    CHECK(spark_nav_agent_set_layers(world, meshId, 1, 2) == SPARK_NAV_UNKNOWN_ID);
    CHECK(spark_nav_world_hash(world, &after) == SPARK_NAV_OK && after == before);
    l = ig = 77;
    CHECK(spark_nav_agent_get_layers(NULL, a, &l, &ig) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_agent_get_layers(world, meshId, &l, &ig) == SPARK_NAV_UNKNOWN_ID);
    CHECK(l == 77 && ig == 77);
    CHECK(spark_nav_agent_set_layers(world, a, 1u, 2u) == SPARK_NAV_OK);
    CHECK(spark_nav_agent_set_layers(world, b, 2u, 0u) == SPARK_NAV_OK);
    CHECK(spark_nav_world_hash(world, &after) == SPARK_NAV_OK && after != before);
    CHECK(spark_nav_agent_get_layers(world, a, &l, NULL) == SPARK_NAV_OK && l == 1u);
    CHECK(spark_nav_agent_get_layers(world, a, NULL, &ig) == SPARK_NAV_OK && ig == 2u);
    CHECK(spark_nav_agent_get_layers(world, b, &l, &ig) == SPARK_NAV_OK && l == 2u && ig == 0u);
    /* Settings changed later keep the layers. */
    settings.max_speed = 2.0f;
    CHECK(spark_nav_agent_set_settings(world, a, &settings) == SPARK_NAV_OK);
    CHECK(spark_nav_agent_set_settings(world, b, &settings) == SPARK_NAV_OK);
    CHECK(spark_nav_agent_get_layers(world, a, &l, &ig) == SPARK_NAV_OK && l == 1u && ig == 2u);

    CHECK(spark_nav_agent_set_target(world, a, east) == SPARK_NAV_OK);
    CHECK(spark_nav_agent_set_target(world, b, west) == SPARK_NAV_OK);
    for (step = 0; step < 200; ++step)
    {
        float pa[3], pb[3];
        CHECK(spark_nav_world_step(world, 0.05) == SPARK_NAV_OK);
        CHECK(spark_nav_agent_get(world, a, pa, NULL, NULL) == SPARK_NAV_OK);
        CHECK(spark_nav_agent_get(world, b, pb, NULL, NULL) == SPARK_NAV_OK);
        maxA = fabsf(pa[2] - 2.0f) > maxA ? fabsf(pa[2] - 2.0f) : maxA;
        maxB = fabsf(pb[2] - 2.0f) > maxB ? fabsf(pb[2] - 2.0f) : maxB;
        CHECK((pa[0] - pb[0]) * (pa[0] - pb[0]) + (pa[2] - pb[2]) * (pa[2] - pb[2]) >= 0.95f * 0.95f * 0.8f * 0.8f);
    }
    if (!(maxA * 4.0f < maxB && maxB > 0.4f))
        fprintf(stderr, "layers: a left its line by %g, b by %g\n", (double)maxA, (double)maxB);
    CHECK(maxA * 4.0f < maxB); /* a ignores b: b takes the whole avoidance */
    CHECK(maxB > 0.4f);
    spark_nav_world_destroy(world);
    spark_nav_mesh_destroy(mesh);
}

/* Polygon obstacles: validation, carving, turning, removal. */
static void polygonObstacles(void)
{
    const float hall[5] = {0, 0, 12, 4, 0};
    /* A thin wall 0.2 x 4.2 m across the 4 m hall (counter-clockwise in x-z). */
    const float wall[8] = {-0.1f, -2.1f, 0.1f, -2.1f, 0.1f, 2.1f, -0.1f, 2.1f};
    const float clockwise[8] = {-0.1f, -2.1f, -0.1f, 2.1f, 0.1f, 2.1f, 0.1f, -2.1f};
    const float dented[10] = {-1.0f, -1.0f, 1.0f, -1.0f, 0.0f, -0.5f, 1.0f, 1.0f, -1.0f, 1.0f};
    const float repeated[8] = {-1.0f, -1.0f, 1.0f, -1.0f, 1.0f, -1.0f, 0.0f, 1.0f};
    float nan[6] = {0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 1.0f};
    float many[2 * 33], round32[2 * 32];
    const float center[3] = {6.0f, 0.0f, 2.0f}, from[3] = {1.0f, 0.0f, 2.0f}, to[3] = {11.0f, 0.0f, 2.0f};
    const float ext[3] = {0.5f, 0.5f, 0.5f};
    spark_nav_mesh* mesh = rects(hall, 1, 1);
    spark_nav_mesh* carved = NULL;
    spark_nav_world* world = NULL;
    uint64_t meshId = 0, id = 77, agent = 0, before = 0, after = 0, meshHash = 0, carvedHash = 0;
    float points[3 * 16], length = 0.0f, open = 0.0f;
    size_t count = 0, k;
    int complete = -1;
    spark_nav_agent_settings settings = spark_nav_agent_settings_default();

    nan[3] = NAN;
    for (k = 0; k < 33; ++k)
    {
        /* 33 points round a circle, counter-clockwise: valid but for the count */
        many[2 * k] = cosf(6.2831853f * (float)k / 33.0f);
        many[2 * k + 1] = sinf(6.2831853f * (float)k / 33.0f);
        if (k < 32)
        {
            round32[2 * k] = cosf(6.2831853f * (float)k / 32.0f);
            round32[2 * k + 1] = sinf(6.2831853f * (float)k / 32.0f);
        }
    }
    CHECK(spark_nav_world_create(&world) == SPARK_NAV_OK);
    CHECK(spark_nav_world_put_mesh(world, "hall", mesh, &meshId) == SPARK_NAV_OK);
    CHECK(spark_nav_agent_add(world, meshId, from, &settings, &agent) == SPARK_NAV_OK);
    CHECK(spark_nav_world_path(world, meshId, from, to, ext, points, 16, &count, &open, &complete) == SPARK_NAV_OK);
    CHECK(spark_nav_world_hash(world, &before) == SPARK_NAV_OK);

    CHECK(spark_nav_obstacle_add_polygon(NULL, meshId, wall, 4, 0.0f, center, &id) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_obstacle_add_polygon(world, meshId, NULL, 4, 0.0f, center, &id) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_obstacle_add_polygon(world, meshId, wall, 4, 0.0f, NULL, &id) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_obstacle_add_polygon(world, meshId, wall, 4, 0.0f, center, NULL) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_obstacle_add_polygon(world, meshId, wall, 2, 0.0f, center, &id) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_obstacle_add_polygon(world, meshId, wall, 0, 0.0f, center, &id) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_obstacle_add_polygon(world, meshId, many, 33, 0.0f, center, &id) == SPARK_NAV_LIMIT);
    CHECK(spark_nav_obstacle_add_polygon(world, meshId, wall, (size_t)-1, 0.0f, center, &id) == SPARK_NAV_LIMIT);
    CHECK(spark_nav_obstacle_add_polygon(world, meshId, clockwise, 4, 0.0f, center, &id) ==
          SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_obstacle_add_polygon(world, meshId, dented, 5, 0.0f, center, &id) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_obstacle_add_polygon(world, meshId, repeated, 4, 0.0f, center, &id) ==
          SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_obstacle_add_polygon(world, meshId, nan, 3, 0.0f, center, &id) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_obstacle_add_polygon(world, meshId, wall, 4, NAN, center, &id) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_obstacle_add_polygon(world, meshId + 5, wall, 4, 0.0f, center, &id) == SPARK_NAV_UNKNOWN_ID);
    CHECK(spark_nav_obstacle_add_polygon(world, agent, wall, 4, 0.0f, center, &id) == SPARK_NAV_UNKNOWN_ID);
    CHECK(id == 77);
    CHECK(spark_nav_world_hash(world, &after) == SPARK_NAV_OK && after == before);

    /* 32 points are allowed. */
    CHECK(spark_nav_obstacle_add_polygon(world, meshId, round32, 32, 0.0f, center, &id) == SPARK_NAV_OK);
    CHECK(spark_nav_obstacle_remove(world, id) == SPARK_NAV_OK);

    /* The wall across the hall: no way through. */
    CHECK(spark_nav_obstacle_add_polygon(world, meshId, wall, 4, 0.0f, center, &id) == SPARK_NAV_OK);
    CHECK(spark_nav_world_path(world, meshId, from, to, ext, points, 16, &count, &length, &complete) ==
          SPARK_NAV_OK);
    CHECK(complete == 0);
    /* Turned a quarter along the hall, it leaves a way round it: longer than the open hall. */
    CHECK(spark_nav_obstacle_move(world, id, center, 90.0f) == SPARK_NAV_OK);
    CHECK(spark_nav_world_path(world, meshId, from, to, ext, points, 16, &count, &length, &complete) ==
          SPARK_NAV_OK);
    CHECK(complete == 1 && open == 10.0f && length > open + 1e-3f); /* round its 0.2 m side */
    CHECK(count >= 4);
    CHECK(spark_nav_world_mesh(world, meshId, &carved) == SPARK_NAV_OK);
    CHECK(spark_nav_mesh_hash(carved, &carvedHash) == SPARK_NAV_OK);
    spark_nav_mesh_destroy(carved);
    CHECK(spark_nav_obstacle_move(world, id, center, 0.0f) == SPARK_NAV_OK);
    CHECK(spark_nav_world_path(world, meshId, from, to, ext, points, 16, &count, &length, &complete) ==
          SPARK_NAV_OK);
    CHECK(complete == 0);
    CHECK(spark_nav_obstacle_remove(world, id) == SPARK_NAV_OK);
    CHECK(spark_nav_obstacle_remove(world, id) == SPARK_NAV_UNKNOWN_ID);
    CHECK(spark_nav_obstacle_move(world, id, center, 0.0f) == SPARK_NAV_UNKNOWN_ID);
    CHECK(spark_nav_world_mesh(world, meshId, &carved) == SPARK_NAV_OK);
    CHECK(spark_nav_mesh_hash(mesh, &meshHash) == SPARK_NAV_OK);
    CHECK(spark_nav_mesh_hash(carved, &carvedHash) == SPARK_NAV_OK);
    CHECK(meshHash == carvedHash); /* the last obstacle gone: the mesh as built */
    spark_nav_mesh_destroy(carved);
    spark_nav_world_destroy(world);
    spark_nav_mesh_destroy(mesh);
}

int main(void)
{
    corridorOverJump();
    flatJump();
    layers();
    polygonObstacles();
    printf("%s (%d failed)\n", failures == 0 ? "nav_c_links_test: all passed" : "nav_c_links_test: FAILURES", failures);
    return failures == 0 ? 0 : 1;
}
