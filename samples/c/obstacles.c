/* obstacles.c — carving obstacles into a mesh and keeping corridors valid,
 * in C99 through spark/nav_c.h (the C twin of samples/embed/obstacles.cpp).
 *
 * A hall 24 m x 8 m of 1 m cells; a corridor from the west end to the east
 * end, and a short one in the west part. A crate is carved across the way:
 * the east corridor breaks and is planned again round it, the west one is
 * untouched. A door shuts the hall (the re-plan is incomplete), then slides
 * open. With every obstacle removed the mesh is the one built, bit for bit.
 * Prints each stage; exits 0 when every expectation held. */
#include "spark/nav_c.h"

#include <stdio.h>

static int failures = 0;

static void expect(int ok, const char* what)
{
    printf("  %s %s\n", ok ? "ok  " : "FAIL", what);
    failures += ok ? 0 : 1;
}

static spark_nav_mesh* hall(void)
{
    static float vertices[24 * 8 * 4 * 3];
    static uint32_t indices[24 * 8 * 4];
    static uint32_t starts[24 * 8 + 1];
    size_t v = 0, p = 0;
    int x, z, c;
    spark_nav_mesh* mesh = NULL;
    starts[0] = 0;
    for (z = 0; z < 8; ++z)
        for (x = 0; x < 24; ++x)
        {
            const float xs[4] = {(float)x, (float)(x + 1), (float)(x + 1), (float)x};
            const float zs[4] = {(float)z, (float)z, (float)(z + 1), (float)(z + 1)};
            for (c = 0; c < 4; ++c)
            {
                vertices[3 * v] = xs[c];
                vertices[3 * v + 1] = 0.0f;
                vertices[3 * v + 2] = zs[c];
                indices[v] = (uint32_t)v;
                ++v;
            }
            starts[++p] = (uint32_t)v;
        }
    if (spark_nav_mesh_build(vertices, v, indices, starts, p, NULL, 1, 0.4f, &mesh) != SPARK_NAV_OK)
        return NULL;
    return mesh;
}

/* Checks a corridor on the world's current mesh and plans it again when it broke. */
static void keepValid(const spark_nav_world* world, uint64_t meshId, spark_nav_corridor* corridor, const char* name)
{
    const float ext[3] = {1.0f, 1.0f, 1.0f};
    spark_nav_mesh* current = NULL;
    int valid = 0, complete = 0;
    size_t polygons = 0;
    if (spark_nav_world_mesh(world, meshId, &current) != SPARK_NAV_OK)
    {
        ++failures;
        return;
    }
    spark_nav_corridor_check(current, corridor, &valid);
    if (!valid)
        spark_nav_corridor_replan(current, corridor, ext);
    spark_nav_corridor_info(corridor, NULL, &polygons, &complete);
    printf("  %s: %s, %zu polygons, %s\n", name, valid ? "still valid" : "broken, re-planned", polygons,
           complete ? "complete" : "incomplete");
    spark_nav_mesh_destroy(current);
}

static int valid(const spark_nav_world* world, uint64_t meshId, const spark_nav_corridor* corridor)
{
    spark_nav_mesh* current = NULL;
    int ok = 0;
    if (spark_nav_world_mesh(world, meshId, &current) == SPARK_NAV_OK)
        spark_nav_corridor_check(current, corridor, &ok);
    spark_nav_mesh_destroy(current);
    return ok;
}

static int complete(const spark_nav_corridor* corridor)
{
    int c = 0;
    spark_nav_corridor_info(corridor, NULL, NULL, &c);
    return c;
}

int main(void)
{
    const float ext[3] = {1.0f, 1.0f, 1.0f};
    const float west0[3] = {1, 0, 4}, east[3] = {23, 0, 4}, westA[3] = {1, 0, 1}, westB[3] = {4, 0, 1};
    const float crateSize[2] = {1.0f, 1.0f}, crateAt[3] = {12, 0, 4};
    const float doorSize[2] = {0.2f, 4.5f}, doorAt[3] = {18, 0, 4}, doorOpen[3] = {18, 0, 10.5f};
    spark_nav_mesh* mesh = hall();
    spark_nav_world* world = NULL;
    spark_nav_corridor *walk = NULL, *west = NULL;
    spark_nav_mesh* current = NULL;
    uint64_t meshId = 0, crate = 0, door = 0, baseHash = 0, hash = 0;
    if (!mesh || spark_nav_world_create(&world) != SPARK_NAV_OK ||
        spark_nav_world_put_mesh(world, "hall", mesh, &meshId) != SPARK_NAV_OK ||
        spark_nav_mesh_hash(mesh, &baseHash) != SPARK_NAV_OK ||
        spark_nav_corridor_plan(mesh, west0, east, ext, &walk) != SPARK_NAV_OK ||
        spark_nav_corridor_plan(mesh, westA, westB, ext, &west) != SPARK_NAV_OK)
    {
        printf("set-up failed\n");
        return 1;
    }

    printf("1. a crate across the way\n");
    expect(spark_nav_obstacle_add(world, meshId, SPARK_NAV_BOX, crateSize, 0.0f, crateAt, &crate) == SPARK_NAV_OK,
           "carved");
    expect(!valid(world, meshId, walk), "the east corridor broke");
    keepValid(world, meshId, walk, "east");
    expect(complete(walk), "round the crate");
    keepValid(world, meshId, west, "west");
    expect(valid(world, meshId, west), "the west corridor was never touched");

    printf("2. a door shuts the hall\n");
    expect(spark_nav_obstacle_add(world, meshId, SPARK_NAV_BOX, doorSize, 0.0f, doorAt, &door) == SPARK_NAV_OK,
           "carved");
    keepValid(world, meshId, walk, "east");
    expect(!complete(walk), "no way through the shut door");

    printf("3. the door slides open\n");
    expect(spark_nav_obstacle_move(world, door, doorOpen, 0.0f) == SPARK_NAV_OK, "moved");
    spark_nav_world_mesh(world, meshId, &current);
    expect(spark_nav_corridor_replan(current, walk, ext) == SPARK_NAV_OK && complete(walk), "the way is open again");
    spark_nav_mesh_destroy(current);
    keepValid(world, meshId, west, "west");

    printf("4. everything removed\n");
    expect(spark_nav_obstacle_remove(world, crate) == SPARK_NAV_OK &&
               spark_nav_obstacle_remove(world, door) == SPARK_NAV_OK,
           "removed");
    spark_nav_world_mesh(world, meshId, &current);
    expect(spark_nav_mesh_hash(current, &hash) == SPARK_NAV_OK && hash == baseHash,
           "the mesh is the one built, bit for bit");
    spark_nav_mesh_destroy(current);

    spark_nav_corridor_destroy(walk);
    spark_nav_corridor_destroy(west);
    spark_nav_world_destroy(world);
    spark_nav_mesh_destroy(mesh);
    printf("%s\n", failures == 0 ? "all held" : "some failed");
    return failures == 0 ? 0 : 1;
}
