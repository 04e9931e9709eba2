/* A C program using the installed package through pkg-config (spark-nav):
 * the same rooms, crate and path as main.cpp, through spark/nav_c.h. Prints
 * the same line as main.cpp, so tests/package/run.sh can compare them. */
#include "spark/nav_c.h"

#include <stdio.h>

int main(void)
{
    const float rects[3][4] = {{0, 0, 5, 5}, {5, 2, 7, 3}, {7, 0, 12, 5}};
    float vertices[12 * 3];
    uint32_t indices[12], starts[4] = {0, 4, 8, 12};
    const float crateSize[2] = {0.3f, 0.0f}, cratePos[3] = {3.5f, 0.0f, 2.5f};
    const float from[3] = {1, 0, 2.5f}, to[3] = {11, 0, 2.5f}, ext[3] = {0.5f, 0.5f, 0.5f};
    float points[3 * 32], length = 0.0f;
    size_t count = 0, r;
    int complete = 0, c;
    uint64_t meshId = 0, crate = 0, hash = 0;
    spark_nav_mesh *mesh = NULL, *carved = NULL;
    spark_nav_world* world = NULL;
    for (r = 0; r < 3; ++r)
    {
        const float xs[4] = {rects[r][0], rects[r][2], rects[r][2], rects[r][0]};
        const float zs[4] = {rects[r][1], rects[r][1], rects[r][3], rects[r][3]};
        for (c = 0; c < 4; ++c)
        {
            vertices[3 * (4 * r + c)] = xs[c];
            vertices[3 * (4 * r + c) + 1] = 0.0f;
            vertices[3 * (4 * r + c) + 2] = zs[c];
            indices[4 * r + c] = (uint32_t)(4 * r + c);
        }
    }
    if (spark_nav_mesh_build(vertices, 12, indices, starts, 3, NULL, 1, 0.2f, &mesh) != SPARK_NAV_OK ||
        spark_nav_world_create(&world) != SPARK_NAV_OK ||
        spark_nav_world_put_mesh(world, "rooms", mesh, &meshId) != SPARK_NAV_OK ||
        spark_nav_obstacle_add(world, meshId, SPARK_NAV_CIRCLE, crateSize, 0.0f, cratePos, &crate) != SPARK_NAV_OK ||
        spark_nav_world_mesh(world, meshId, &carved) != SPARK_NAV_OK ||
        spark_nav_path(carved, from, to, ext, points, 32, &count, &length, &complete) != SPARK_NAV_OK || !complete ||
        spark_nav_mesh_hash(carved, &hash) != SPARK_NAV_OK)
        return 1;
    printf("nav %s ai %s length %.6f hash %016llx\n", spark_nav_version(), spark_nav_version(), length,
           (unsigned long long)hash);
    spark_nav_mesh_destroy(carved);
    spark_nav_mesh_destroy(mesh);
    spark_nav_world_destroy(world);
    return 0;
}
