/* The C API (spark/nav_c.h), compiled as C99 with -pedantic -Werror: every
 * function's NULL, stale-id and bad-value answers, a too-small buffer, and a
 * run whose hashes are pinned to the values the C++ API gives for the same
 * input (tests/nav/capi/nav_c_cpp_test.cpp pins the same numbers). */
#include "spark/nav_c.h"

#include "c_check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A hall 12 m x 4 m of 1 m cells, 2D, agent radius 0.25. */
static spark_nav_mesh* hall(void)
{
    float vertices[48 * 4 * 3];
    uint32_t indices[48 * 4];
    uint32_t starts[49];
    size_t v = 0, k = 0, p = 0;
    int x, z;
    spark_nav_mesh* mesh = NULL;
    starts[0] = 0;
    for (z = 0; z < 4; ++z)
        for (x = 0; x < 12; ++x)
        {
            const float cx[4] = {(float)x, (float)(x + 1), (float)(x + 1), (float)x};
            const float cz[4] = {(float)z, (float)z, (float)(z + 1), (float)(z + 1)};
            int c;
            for (c = 0; c < 4; ++c)
            {
                vertices[3 * v] = cx[c];
                vertices[3 * v + 1] = 0.0f;
                vertices[3 * v + 2] = cz[c];
                indices[k++] = (uint32_t)v++;
            }
            starts[++p] = (uint32_t)k;
        }
    CHECK(spark_nav_mesh_build(vertices, v, indices, starts, p, NULL, 1, 0.25f, &mesh) == SPARK_NAV_OK);
    return mesh;
}

int main(void)
{
    const float from[3] = {1.0f, 0.0f, 2.5f}, to[3] = {11.0f, 0.0f, 2.5f}, ext[3] = {0.5f, 0.5f, 0.5f};
    const float crateSize[2] = {0.5f, 0.5f}, cratePos[3] = {6.0f, 0.0f, 2.5f};
    const float nanPos[3] = {NAN, 0.0f, 0.0f};
    float points[3 * 16], at[3], vel[3];
    size_t count = 0;
    float length = 0.0f;
    int complete = 0;
    uint32_t polys = 0;
    size_t size0 = 0;
    uint64_t hash = 0, meshId = 0, crate = 0, agent = 0, worldHash = 0;
    spark_nav_mesh* mesh = hall();
    spark_nav_mesh* carved = NULL;
    spark_nav_world* world = NULL;
    spark_nav_agent_settings settings = spark_nav_agent_settings_default();
    spark_nav_agent_state state = SPARK_NAV_IDLE;
    spark_nav_bake_settings bake = spark_nav_bake_settings_default();
    int i;

    CHECK(strcmp(spark_nav_result_string(SPARK_NAV_OK), "ok") == 0);
    CHECK(strcmp(spark_nav_result_string((spark_nav_result)77), "unknown result") == 0);
    CHECK(spark_nav_version() != NULL && spark_nav_version()[0] != '\0');
    CHECK(bake.agent_radius > 0.0f && bake.max_verts_per_poly == 6);

    /* Meshes and queries. */
    CHECK(mesh != NULL);
    CHECK(spark_nav_mesh_polygon_count(mesh, &polys) == SPARK_NAV_OK && polys == 48);
    CHECK(spark_nav_mesh_polygon_count(NULL, &polys) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_mesh_polygon_count(mesh, NULL) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_mesh_hash(NULL, &hash) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_mesh_hash(mesh, &hash) == SPARK_NAV_OK);
    CHECK(hash == 0x1b4faaec5b3e5610ull);
    CHECK(spark_nav_nearest(mesh, from, ext, at) == SPARK_NAV_OK && at[0] == 1.0f && at[2] == 2.5f);
    CHECK(spark_nav_nearest(mesh, nanPos, ext, at) == SPARK_NAV_INVALID_ARGUMENT);
    {
        const float far[3] = {50.0f, 0.0f, 50.0f};
        CHECK(spark_nav_nearest(mesh, far, ext, at) == SPARK_NAV_OFF_MESH);
    }
    CHECK(spark_nav_nearest(mesh, NULL, ext, at) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_path(mesh, from, to, ext, points, 16, &count, &length, &complete) == SPARK_NAV_OK);
    CHECK(count == 2 && complete == 1 && length == 10.0f);
    CHECK(spark_nav_path(mesh, from, to, ext, points, 1, &count, &length, &complete) == SPARK_NAV_BUFFER_TOO_SMALL);
    CHECK(count == 2);
    CHECK(spark_nav_path(mesh, from, to, ext, NULL, 4, &count, NULL, NULL) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_path(mesh, from, to, ext, points, 16, NULL, NULL, NULL) == SPARK_NAV_INVALID_ARGUMENT);
    {
        const uint32_t badStarts[2] = {0, 2}; /* a polygon of two vertices */
        const uint32_t idx[2] = {0, 1};
        const float verts[6] = {0, 0, 0, 1, 0, 0};
        spark_nav_mesh* none = NULL;
        CHECK(spark_nav_mesh_build(verts, 2, idx, badStarts, 1, NULL, 1, 0.0f, &none) == SPARK_NAV_FORMAT && !none);
        CHECK(spark_nav_mesh_build(verts, 2, idx, badStarts, 1, NULL, 1, -1.0f, &none) == SPARK_NAV_INVALID_ARGUMENT);
        CHECK(spark_nav_mesh_bake(verts, 2, idx, 2, NULL, 0, &bake, &none) == SPARK_NAV_INVALID_ARGUMENT);
        CHECK(spark_nav_mesh_bake(NULL, 2, idx, 3, NULL, 0, &bake, &none) == SPARK_NAV_INVALID_ARGUMENT);
    }

    /* A tiled bake: the same mesh on 1 and 2 threads, through save and load too. */
    {
        const float floorVerts[12] = {0, 0, 0, 20, 0, 0, 20, 0, 20, 0, 0, 20};
        const uint32_t floorIdx[6] = {0, 2, 1, 0, 3, 2};
        spark_nav_bake_settings tiled = spark_nav_bake_settings_default();
        spark_nav_mesh *one = NULL, *two = NULL, *loaded = NULL;
        uint64_t h1 = 0, h2 = 0, h3 = 0;
        uint8_t bytes[16384];
        size_t used = 0;
        CHECK(bake.tile_size == 0 && bake.threads == 0);
        tiled.tile_size = 32;
        tiled.threads = 1;
        CHECK(spark_nav_mesh_bake(floorVerts, 4, floorIdx, 6, NULL, 0, &tiled, &one) == SPARK_NAV_OK);
        tiled.threads = 2;
        CHECK(spark_nav_mesh_bake(floorVerts, 4, floorIdx, 6, NULL, 0, &tiled, &two) == SPARK_NAV_OK);
        CHECK(spark_nav_mesh_hash(one, &h1) == SPARK_NAV_OK && spark_nav_mesh_hash(two, &h2) == SPARK_NAV_OK);
        CHECK(h1 == h2);
        CHECK(spark_nav_mesh_save(one, bytes, sizeof bytes, &used) == SPARK_NAV_OK);
        CHECK(spark_nav_mesh_load(bytes, used, &loaded) == SPARK_NAV_OK);
        CHECK(spark_nav_mesh_hash(loaded, &h3) == SPARK_NAV_OK && h3 == h1);
        CHECK(spark_nav_mesh_polygon_count(one, &polys) == SPARK_NAV_OK && polys >= 16); /* 4 x 4 tiles of 6.4 m */
        tiled.tile_size = 3;
        CHECK(spark_nav_mesh_bake(floorVerts, 4, floorIdx, 6, NULL, 0, &tiled, &loaded) == SPARK_NAV_CONFIG);
        spark_nav_mesh_destroy(one);
        spark_nav_mesh_destroy(two);
        spark_nav_mesh_destroy(loaded);
    }

    /* Issue 42, "navmesh inside a solid box": a 12 x 12 floor and a closed 2 x 2 x 2 box at (0, 1, 0) given as
     * triangles (no solids in the C API): the box is filled, so the nearest point to its centre is outside it. */
    {
        const float verts[12 * 3] = {-6, 0, -6, 6, 0, -6, 6, 0, 6, -6, 0, 6, /* the floor, then the box's corners */
                                     -1, 0, -1, 1, 0, -1, -1, 2, -1, 1, 2, -1, -1, 0, 1, 1, 0, 1, -1, 2, 1, 1, 2, 1};
        const uint32_t quads[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
        uint32_t idx[6 + 36] = {0, 2, 1, 0, 3, 2};
        const float centre[3] = {0, 0, 0}, ext[3] = {3, 3, 3};
        float at[3] = {0, 0, 0};
        spark_nav_bake_settings def = spark_nav_bake_settings_default();
        spark_nav_mesh* mesh = NULL;
        int q;
        for (q = 0; q < 6; ++q)
        {
            const uint32_t tri[6] = {quads[q][0], quads[q][1], quads[q][2], quads[q][0], quads[q][2], quads[q][3]};
            int k;
            for (k = 0; k < 6; ++k)
                idx[6 + q * 6 + k] = 4 + tri[k];
        }
        def.agent_height = 1.0f;
        CHECK(spark_nav_mesh_bake(verts, 12, idx, 42, NULL, 1, &def, &mesh) == SPARK_NAV_OK);
        CHECK(spark_nav_nearest(mesh, centre, ext, at) == SPARK_NAV_OK);
        CHECK(at[1] > 1.9f || fabsf(at[0]) > 0.95f || fabsf(at[2]) > 0.95f);
        spark_nav_mesh_destroy(mesh);
    }

    /* Raycasts, walls, the binary form, the grid bake. */
    {
        const float east[3] = {30.0f, 0.0f, 2.5f};
        float fraction = -1.0f, stop[3], normal[3], walls[9 * 64];
        size_t nWalls = 0, size = 0;
        int hit = -1;
        uint8_t bytes[1 << 14];
        spark_nav_mesh* again = NULL;
        uint64_t h1 = 0, h2 = 0;
        const uint8_t grid[4 * 3] = {0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0};
        spark_nav_mesh* baked = NULL;
        CHECK(spark_nav_raycast(mesh, from, east, ext, &hit, &fraction, stop, normal) == SPARK_NAV_OK);
        CHECK(hit == 1 && stop[0] == 12.0f && normal[0] == 1.0f && fraction > 0.3f && fraction < 0.4f);
        CHECK(spark_nav_raycast(mesh, from, to, ext, &hit, NULL, NULL, NULL) == SPARK_NAV_OK && hit == 0);
        CHECK(spark_nav_raycast(mesh, nanPos, to, ext, &hit, NULL, NULL, NULL) == SPARK_NAV_INVALID_ARGUMENT);
        /* The west wall's three cell edges within 1.2 m (x = 0, z 1..4), the one beside first, facing -x. */
        CHECK(spark_nav_walls(mesh, from, 1.2f, walls, 64, &nWalls) == SPARK_NAV_OK && nWalls == 3);
        CHECK(walls[0] == 0.0f && walls[2] == 3.0f && walls[5] == 2.0f && walls[6] == -1.0f);
        CHECK(spark_nav_walls(mesh, from, -1.0f, walls, 64, &nWalls) == SPARK_NAV_INVALID_ARGUMENT);
        CHECK(spark_nav_walls(mesh, from, 100.0f, walls, 1, &nWalls) == SPARK_NAV_BUFFER_TOO_SMALL && nWalls > 1);
        CHECK(spark_nav_mesh_save(mesh, NULL, 0, &size) == SPARK_NAV_OK && size > 0 && size <= sizeof bytes);
        CHECK(spark_nav_mesh_save(mesh, bytes, 8, &size) == SPARK_NAV_BUFFER_TOO_SMALL);
        CHECK(spark_nav_mesh_save(mesh, bytes, sizeof bytes, &size) == SPARK_NAV_OK);
        CHECK(spark_nav_mesh_load(bytes, size, &again) == SPARK_NAV_OK);
        CHECK(spark_nav_mesh_hash(mesh, &h1) == SPARK_NAV_OK && spark_nav_mesh_hash(again, &h2) == SPARK_NAV_OK);
        CHECK(h1 == h2);
        spark_nav_mesh_destroy(again);
        bytes[0] = 'X';
        CHECK(spark_nav_mesh_load(bytes, size, &again) == SPARK_NAV_FORMAT);
        CHECK(spark_nav_mesh_load(bytes, 0, &again) == SPARK_NAV_INVALID_ARGUMENT);
        CHECK(spark_nav_mesh_bake_grid(grid, NULL, 4, 3, 1.0f, 0.0f, 0.0f, 0.0f, &baked) == SPARK_NAV_OK);
        CHECK(spark_nav_mesh_polygon_count(baked, &polys) == SPARK_NAV_OK && polys >= 2);
        CHECK(spark_nav_mesh_bake_grid(grid, NULL, 0, 3, 1.0f, 0.0f, 0.0f, 0.0f, &again) == SPARK_NAV_INVALID_ARGUMENT);
        CHECK(spark_nav_mesh_bake_grid(grid, NULL, 4, 3, 0.0f, 0.0f, 0.0f, 0.0f, &again) != SPARK_NAV_OK);
        spark_nav_mesh_destroy(baked);
    }

    /* Random points: seeded, reproducible, on the mesh. */
    {
        float a[6], b[6];
        CHECK(spark_nav_random_points(mesh, 3, 2, a) == SPARK_NAV_OK);
        CHECK(spark_nav_random_points(mesh, 3, 2, b) == SPARK_NAV_OK);
        CHECK(memcmp(a, b, sizeof a) == 0);
        CHECK(a[0] >= 0.0f && a[0] <= 12.0f && a[2] >= 0.0f && a[2] <= 4.0f);
        CHECK(spark_nav_random_points(mesh, 3, 2, NULL) == SPARK_NAV_INVALID_ARGUMENT);
        CHECK(spark_nav_random_points(NULL, 3, 2, a) == SPARK_NAV_INVALID_ARGUMENT);
    }

    /* Corridors. */
    {
        spark_nav_corridor* corridor = NULL;
        float corners[3 * 16], pos[3];
        size_t n = 0, polygons = 0;
        int end = 0, ok = 0, done = 0;
        CHECK(spark_nav_corridor_plan(NULL, from, to, ext, &corridor) == SPARK_NAV_INVALID_ARGUMENT);
        CHECK(spark_nav_corridor_plan(mesh, nanPos, to, ext, &corridor) == SPARK_NAV_INVALID_ARGUMENT && !corridor);
        CHECK(spark_nav_corridor_plan(mesh, from, to, ext, &corridor) == SPARK_NAV_OK);
        CHECK(spark_nav_corridor_info(corridor, pos, &polygons, &done) == SPARK_NAV_OK && done == 1 && polygons == 11);
        CHECK(spark_nav_corridor_info(NULL, pos, NULL, NULL) == SPARK_NAV_INVALID_ARGUMENT);
        CHECK(spark_nav_corridor_corners(mesh, corridor, corners, 0, &n, &end) == SPARK_NAV_INVALID_ARGUMENT);
        CHECK(spark_nav_corridor_corners(mesh, corridor, corners, 17, &n, &end) == SPARK_NAV_INVALID_ARGUMENT);
        CHECK(spark_nav_corridor_corners(mesh, corridor, corners, 4, &n, &end) == SPARK_NAV_OK);
        CHECK(n == 1 && end == 1 && corners[0] == 11.0f && corners[2] == 2.5f);
        {
            const float wanted[3] = {1.5f, 0.0f, 2.5f};
            CHECK(spark_nav_corridor_move(mesh, corridor, wanted, pos) == SPARK_NAV_OK && pos[0] == 1.5f);
            CHECK(spark_nav_corridor_move(mesh, corridor, nanPos, pos) == SPARK_NAV_INVALID_ARGUMENT);
            CHECK(spark_nav_corridor_move(mesh, NULL, wanted, pos) == SPARK_NAV_INVALID_ARGUMENT);
        }
        CHECK(spark_nav_corridor_check(mesh, corridor, &ok) == SPARK_NAV_OK && ok == 1);
        CHECK(spark_nav_corridor_check(mesh, corridor, NULL) == SPARK_NAV_INVALID_ARGUMENT);
        CHECK(spark_nav_corridor_replan(mesh, corridor, ext) == SPARK_NAV_OK);
        CHECK(spark_nav_corridor_replan(mesh, corridor, NULL) == SPARK_NAV_INVALID_ARGUMENT);
        {
            float v[3];
            int arrivedFlag = -1;
            CHECK(spark_nav_corridor_steer(mesh, corridor, 3.5f, 1.5f, 0.2f, v, &arrivedFlag) == SPARK_NAV_OK);
            CHECK(v[0] > 3.49f && v[0] <= 3.5f && v[1] == 0.0f && fabsf(v[2]) < 1e-6f && arrivedFlag == 0);
            CHECK(spark_nav_corridor_steer(mesh, corridor, -1.0f, 1.5f, 0.2f, v, NULL) == SPARK_NAV_INVALID_ARGUMENT);
            CHECK(spark_nav_corridor_steer(mesh, corridor, 3.5f, 1.5f, 0.2f, NULL, NULL) == SPARK_NAV_INVALID_ARGUMENT);
        }
        spark_nav_corridor_destroy(corridor);
        spark_nav_corridor_destroy(NULL);
    }

    /* Avoidance, on the plane and in space: two agents head on pass without touching. */
    {
        spark_nav_avoidance_def def = spark_nav_avoidance_def_default();
        spark_nav_avoidance* avoidance = NULL;
        spark_nav_avoid_agent two[2];
        spark_nav_avoid_agent_3d fliers[2];
        spark_nav_avoid_obstacle wall;
        spark_nav_avoid_sphere ball;
        const double wallPoints[4] = {-1.0, 1.0, 1.0, 1.0};
        double v2[4], v3[6];
        int k;
        def.max_neighbors = 0;
        CHECK(spark_nav_avoidance_create(&def, &avoidance) == SPARK_NAV_CONFIG && !avoidance);
        def = spark_nav_avoidance_def_default();
        CHECK(spark_nav_avoidance_create(NULL, &avoidance) == SPARK_NAV_INVALID_ARGUMENT);
        CHECK(spark_nav_avoidance_create(&def, &avoidance) == SPARK_NAV_OK);
        memset(two, 0, sizeof two);
        memset(fliers, 0, sizeof fliers);
        memset(&wall, 0, sizeof wall);
        memset(&ball, 0, sizeof ball);
        for (k = 0; k < 2; ++k)
        {
            two[k].position[0] = k ? 2.0 : -2.0;
            two[k].preferred[0] = k ? -1.0 : 1.0;
            two[k].radius = 0.5;
            two[k].max_speed = 1.0;
            two[k].priority = 1.0;
            two[k].id = (uint32_t)k;
            fliers[k].position[1] = k ? 3.0 : -3.0;
            fliers[k].preferred[1] = k ? -1.0 : 1.0;
            fliers[k].radius = 0.5;
            fliers[k].max_speed = 1.0;
            fliers[k].priority = 1.0;
            fliers[k].id = (uint32_t)k;
        }
        wall.shape = SPARK_NAV_AVOID_SEGMENT;
        wall.points = wallPoints;
        wall.point_count = 2;
        CHECK(spark_nav_avoid(avoidance, two, 2, &wall, 1, 0.1, v2) == SPARK_NAV_OK);
        CHECK(v2[0] * v2[0] + v2[1] * v2[1] <= 1.0 + 1e-9 && v2[2] * v2[2] + v2[3] * v2[3] <= 1.0 + 1e-9);
        CHECK(v2[0] > 0.0 && v2[2] < 0.0);
        CHECK(spark_nav_avoid(avoidance, two, 0, NULL, 0, 0.1, NULL) == SPARK_NAV_OK);
        wall.points = NULL;
        CHECK(spark_nav_avoid(avoidance, two, 2, &wall, 1, 0.1, v2) == SPARK_NAV_INVALID_ARGUMENT);
        wall.points = wallPoints;
        wall.shape = (spark_nav_avoid_shape)7;
        CHECK(spark_nav_avoid(avoidance, two, 2, &wall, 1, 0.1, v2) == SPARK_NAV_INVALID_ARGUMENT);
        two[1].radius = NAN;
        CHECK(spark_nav_avoid(avoidance, two, 2, NULL, 0, 0.1, v2) == SPARK_NAV_INVALID_ARGUMENT);
        CHECK(spark_nav_avoid(avoidance, two, 2, NULL, 0, 0.1, NULL) == SPARK_NAV_INVALID_ARGUMENT);
        ball.center[0] = 5.0;
        ball.radius = 1.0;
        CHECK(spark_nav_avoid_3d(avoidance, fliers, 2, &ball, 1, 0.1, v3) == SPARK_NAV_OK);
        CHECK(v3[0] * v3[0] + v3[1] * v3[1] + v3[2] * v3[2] <= 1.0 + 1e-9);
        CHECK(v3[1] > 0.0 && v3[4] < 0.0);
        ball.radius = -1.0;
        CHECK(spark_nav_avoid_3d(avoidance, fliers, 2, &ball, 1, 0.1, v3) == SPARK_NAV_INVALID_ARGUMENT);
        CHECK(spark_nav_avoid_3d(NULL, fliers, 2, NULL, 0, 0.1, v3) == SPARK_NAV_INVALID_ARGUMENT);
        spark_nav_avoidance_destroy(avoidance);
        spark_nav_avoidance_destroy(NULL);
    }

    /* Flight volumes: a wall with a gap. */
    {
        spark_nav_flight_def fdef = spark_nav_flight_def_default();
        spark_nav_flight* volume = NULL;
        const double box[6] = {-1, 0, -50, 1, 20, 40}; /* a wall across z, open past z = 40 */
        const double a[3] = {-10, 5, 0}, b[3] = {10, 5, 0}, inside[3] = {0, 5, 0}, nan3[3] = {NAN, 0, 0};
        double pts[3 * 64], t = -1.0, hit[3];
        size_t n = 0;
        int dims[3], blocked = -1, partial = -1;
        int64_t openCount = 0;
        fdef.voxel_size = 0.0;
        CHECK(spark_nav_flight_build(&fdef, NULL, 0, NULL, 0, box, 1, &volume) == SPARK_NAV_CONFIG && !volume);
        fdef = spark_nav_flight_def_default();
        CHECK(spark_nav_flight_build(NULL, NULL, 0, NULL, 0, box, 1, &volume) == SPARK_NAV_INVALID_ARGUMENT);
        CHECK(spark_nav_flight_build(&fdef, NULL, 3, NULL, 0, box, 1, &volume) == SPARK_NAV_INVALID_ARGUMENT);
        CHECK(spark_nav_flight_build(&fdef, NULL, 0, NULL, 0, box, 1, &volume) == SPARK_NAV_OK);
        CHECK(spark_nav_flight_info(volume, dims, &openCount) == SPARK_NAV_OK && dims[0] == 200 && openCount > 0);
        CHECK(spark_nav_flight_raycast(volume, a, b, &blocked, &t, hit) == SPARK_NAV_OK && blocked == 1 && t < 0.5);
        CHECK(spark_nav_flight_raycast(volume, nan3, b, &blocked, &t, hit) == SPARK_NAV_INVALID_ARGUMENT);
        CHECK(spark_nav_flight_path(volume, a, b, pts, 64, &n, &partial) == SPARK_NAV_OK && partial == 0 && n > 2);
        CHECK(spark_nav_flight_path(volume, a, b, pts, 1, &n, &partial) == SPARK_NAV_BUFFER_TOO_SMALL);
        CHECK(spark_nav_flight_path(volume, inside, b, pts, 64, &n, &partial) == SPARK_NAV_OFF_MESH);
        CHECK(spark_nav_flight_path(volume, a, b, NULL, 64, &n, &partial) == SPARK_NAV_INVALID_ARGUMENT);
        CHECK(spark_nav_flight_info(NULL, dims, &openCount) == SPARK_NAV_INVALID_ARGUMENT);
        CHECK(spark_nav_flight_info(volume, NULL, NULL) == SPARK_NAV_OK);
        spark_nav_flight_destroy(volume);
        spark_nav_flight_destroy(NULL);
    }

    /* A world: carve a crate across the way, walk an agent round it. */
    CHECK(spark_nav_world_create(NULL) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_world_create(&world) == SPARK_NAV_OK);
    CHECK(spark_nav_world_put_mesh(world, "", mesh, &meshId) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_world_put_mesh(world, "hall", NULL, &meshId) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_world_put_mesh(world, "hall", mesh, &meshId) == SPARK_NAV_OK);
    CHECK(spark_nav_obstacle_add(world, meshId + 99, SPARK_NAV_BOX, crateSize, 0.0f, cratePos, &crate) ==
          SPARK_NAV_UNKNOWN_ID);
    CHECK(spark_nav_obstacle_add(world, meshId, (spark_nav_shape)5, crateSize, 0.0f, cratePos, &crate) ==
          SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_obstacle_add(world, meshId, SPARK_NAV_BOX, crateSize, 0.0f, nanPos, &crate) ==
          SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_obstacle_add(world, meshId, SPARK_NAV_BOX, crateSize, 30.0f, cratePos, &crate) == SPARK_NAV_OK);
    CHECK(spark_nav_obstacle_move(world, crate + 1, cratePos, 0.0f) == SPARK_NAV_UNKNOWN_ID);
    CHECK(spark_nav_obstacle_move(world, crate, nanPos, 0.0f) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_world_mesh(world, meshId + 1, &carved) == SPARK_NAV_UNKNOWN_ID && !carved);
    CHECK(spark_nav_world_mesh(NULL, meshId, &carved) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_world_mesh(world, meshId, NULL) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_world_hash(NULL, &worldHash) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_world_hash(world, NULL) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_world_mesh(world, meshId, &carved) == SPARK_NAV_OK);
    CHECK(spark_nav_mesh_save(carved, NULL, 0, &size0) == SPARK_NAV_INVALID_ARGUMENT); /* carved: not saved */
    CHECK(spark_nav_mesh_hash(carved, &hash) == SPARK_NAV_OK);
    CHECK(hash == 0x7e25e624f5d03228ull);
    CHECK(spark_nav_path(carved, from, to, ext, points, 16, &count, &length, &complete) == SPARK_NAV_OK);
    CHECK(complete == 1 && count > 2 && length > 10.0f);
    spark_nav_mesh_destroy(carved);

    CHECK(spark_nav_agent_add(world, meshId, nanPos, &settings, &agent) == SPARK_NAV_INVALID_ARGUMENT);
    settings.radius = 0.25f;
    CHECK(spark_nav_agent_add(world, meshId, from, &settings, &agent) == SPARK_NAV_OK);
    CHECK(spark_nav_agent_set_target(world, agent, NULL) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_agent_set_target(world, agent + 7, to) == SPARK_NAV_UNKNOWN_ID);
    CHECK(spark_nav_agent_set_target(world, agent, to) == SPARK_NAV_OK);
    {
        spark_nav_agent_settings bad = settings;
        bad.max_neighbors = 99;
        CHECK(spark_nav_agent_set_settings(world, agent, &bad) == SPARK_NAV_INVALID_ARGUMENT);
        CHECK(spark_nav_agent_set_settings(world, agent + 3, &settings) == SPARK_NAV_UNKNOWN_ID);
        CHECK(spark_nav_agent_set_settings(world, agent, &settings) == SPARK_NAV_OK); /* the same: no change */
    }
    CHECK(spark_nav_world_step(world, 0.0) == SPARK_NAV_INVALID_ARGUMENT);
    CHECK(spark_nav_world_step(NULL, 0.1) == SPARK_NAV_INVALID_ARGUMENT);
    for (i = 0; i < 200 && state != SPARK_NAV_ARRIVED; ++i)
    {
        CHECK(spark_nav_world_step(world, 0.05) == SPARK_NAV_OK);
        CHECK(spark_nav_agent_get(world, agent, at, vel, &state) == SPARK_NAV_OK);
    }
    if (state != SPARK_NAV_ARRIVED)
        fprintf(stderr, "agent at %g %g %g state %d\n", at[0], at[1], at[2], (int)state);
    CHECK(state == SPARK_NAV_ARRIVED);
    CHECK(spark_nav_agent_get(world, agent, NULL, NULL, NULL) == SPARK_NAV_OK);
    CHECK(spark_nav_world_hash(world, &worldHash) == SPARK_NAV_OK);
    CHECK(worldHash == 0x57dbf74598ac600dull);

    /* Off-mesh links: a jump over the crate joins both sides straight. */
    {
        const float a[3] = {5.0f, 0.0f, 2.5f}, b[3] = {7.0f, 0.0f, 2.5f}, far[3] = {30.0f, 0.0f, 2.5f};
        uint64_t link = 0, stale = 0;
        int resolved = -1;
        CHECK(spark_nav_link_add(world, meshId, a, a, SPARK_NAV_JUMP, 0.5f, 1, 1.0f, 4.0f, 1.0f, &link, &resolved) ==
              SPARK_NAV_INVALID_ARGUMENT);
        CHECK(spark_nav_link_add(world, meshId, a, b, (spark_nav_link_kind)9, 0.5f, 1, 1.0f, 4.0f, 1.0f, &link,
                                 &resolved) == SPARK_NAV_INVALID_ARGUMENT);
        CHECK(spark_nav_link_add(world, meshId, a, b, SPARK_NAV_JUMP, 0.0f, 1, 1.0f, 4.0f, 1.0f, &link, &resolved) ==
              SPARK_NAV_INVALID_ARGUMENT);
        CHECK(spark_nav_link_add(world, meshId + 5, a, b, SPARK_NAV_JUMP, 0.5f, 1, 1.0f, 4.0f, 1.0f, &link,
                                 &resolved) == SPARK_NAV_UNKNOWN_ID);
        CHECK(spark_nav_link_add(world, meshId, a, far, SPARK_NAV_JUMP, 0.5f, 1, 1.0f, 4.0f, 1.0f, &stale,
                                 &resolved) == SPARK_NAV_OK && resolved == 0);
        CHECK(spark_nav_link_add(world, meshId, a, b, SPARK_NAV_JUMP, 0.5f, 1, 1.0f, 4.0f, 1.0f, &link, &resolved) ==
              SPARK_NAV_OK && resolved == 1);
        CHECK(spark_nav_world_path(world, meshId, from, to, ext, points, 16, &count, &length, &complete) ==
              SPARK_NAV_OK);
        CHECK(complete == 1 && count == 4 && length == 10.0f && points[3] == 5.0f && points[6] == 7.0f);
        CHECK(spark_nav_world_path(world, meshId + 5, from, to, ext, points, 16, &count, &length, &complete) ==
              SPARK_NAV_UNKNOWN_ID);
        CHECK(spark_nav_link_remove(world, link) == SPARK_NAV_OK);
        CHECK(spark_nav_link_remove(world, link) == SPARK_NAV_UNKNOWN_ID);
        CHECK(spark_nav_link_remove(world, stale) == SPARK_NAV_OK);
        CHECK(spark_nav_link_remove(NULL, stale) == SPARK_NAV_INVALID_ARGUMENT);
    }

    CHECK(spark_nav_obstacle_remove(world, crate) == SPARK_NAV_OK);
    CHECK(spark_nav_obstacle_remove(world, crate) == SPARK_NAV_UNKNOWN_ID);
    CHECK(spark_nav_agent_remove(world, agent) == SPARK_NAV_OK);
    CHECK(spark_nav_agent_remove(world, agent) == SPARK_NAV_UNKNOWN_ID);
    CHECK(spark_nav_agent_get(world, agent, at, vel, &state) == SPARK_NAV_UNKNOWN_ID);
    CHECK(spark_nav_world_mesh(world, meshId, &carved) == SPARK_NAV_OK);
    {
        uint64_t base = 0, again = 0;
        CHECK(spark_nav_mesh_hash(mesh, &base) == SPARK_NAV_OK && spark_nav_mesh_hash(carved, &again) == SPARK_NAV_OK);
        CHECK(base == again); /* the last obstacle gone: the mesh as built */
    }
    spark_nav_mesh_destroy(carved);
    spark_nav_world_destroy(world);
    spark_nav_mesh_destroy(mesh);
    spark_nav_mesh_destroy(NULL);
    spark_nav_world_destroy(NULL);
    printf("%s (%d failed)\n", failures == 0 ? "nav_c_test: all passed" : "nav_c_test: FAILURES", failures);
    return failures == 0 ? 0 : 1;
}
