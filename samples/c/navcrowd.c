/* navcrowd.c — a crowd walking the dungeon, in C99 through spark/nav_c.h.
 *
 * data/meshes/dungeon.obj (data/README.md) is read by a small OBJ reader below (the
 * library does no file I/O here) and baked (one-sided: the OBJ's ceilings are
 * not floors). 40 agents start at seeded random points and are sent to other
 * random points; the world's crowd steps them at 1/60 s (corners, steering,
 * ORCA against each other and the walls, the acceleration limit, the move
 * along the surface). Prints each arrival; exits 0 when every agent that
 * had a path arrived within 60 s. */
#include "spark/nav_c.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum
{
    kAgents = 40,
    kMaxVertices = 1 << 16,
    kMaxIndices = 3 << 16
};

static float vertices[3 * kMaxVertices];
static uint32_t indices[kMaxIndices];

/* Vertices and faces of an OBJ file (faces fanned into triangles; v/vt/vn
 * and negative indices understood). 0 when it cannot be read. */
static int readObj(const char* path, size_t* vertexCount, size_t* indexCount)
{
    char line[1024];
    FILE* f = fopen(path, "r");
    size_t nv = 0, ni = 0;
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f))
    {
        if (line[0] == 'v' && line[1] == ' ' && nv < kMaxVertices)
        {
            float x, y, z;
            if (sscanf(line + 2, "%f %f %f", &x, &y, &z) == 3)
            {
                vertices[3 * nv] = x;
                vertices[3 * nv + 1] = y;
                vertices[3 * nv + 2] = z;
                ++nv;
            }
        }
        else if (line[0] == 'f' && line[1] == ' ')
        {
            long face[32];
            int n = 0, i;
            char* p = line + 2;
            while (n < 32)
            {
                char* end;
                long v = strtol(p, &end, 10);
                if (end == p)
                    break;
                face[n++] = v < 0 ? (long)nv + v : v - 1;
                p = end;
                while (*p && *p != ' ' && *p != '\t')
                    ++p; /* skip /vt/vn */
            }
            for (i = 1; i + 1 < n && ni + 3 <= kMaxIndices; ++i)
            {
                indices[ni++] = (uint32_t)face[0];
                indices[ni++] = (uint32_t)face[i];
                indices[ni++] = (uint32_t)face[i + 1];
            }
        }
    }
    fclose(f);
    *vertexCount = nv;
    *indexCount = ni;
    return nv > 0 && ni > 0;
}

int main(void)
{
    const char* path = "data/meshes/dungeon.obj";
    size_t nv = 0, ni = 0;
    spark_nav_bake_settings bake = spark_nav_bake_settings_default();
    spark_nav_agent_settings settings = spark_nav_agent_settings_default();
    spark_nav_mesh* mesh = NULL;
    spark_nav_world* world = NULL;
    uint64_t meshId = 0, agents[kAgents];
    float points[3 * 2 * kAgents];
    int arrivedAt[kAgents];
    uint32_t polygons = 0;
    int count = 0, arrived = 0, step, i;
    spark_nav_result r;

    if (!readObj(path, &nv, &ni))
    {
        printf("cannot read %s (run from the project root)\n", path);
        return 1;
    }
    r = spark_nav_mesh_bake(vertices, nv, indices, ni, NULL, 1, &bake, &mesh);
    if (r != SPARK_NAV_OK)
    {
        printf("bake: %s\n", spark_nav_result_string(r));
        return 1;
    }
    spark_nav_mesh_polygon_count(mesh, &polygons);
    printf("dungeon: %zu triangles baked into %u polygons\n", ni / 3, (unsigned)polygons);
    if (spark_nav_world_create(&world) != SPARK_NAV_OK ||
        spark_nav_world_put_mesh(world, "dungeon", mesh, &meshId) != SPARK_NAV_OK ||
        spark_nav_random_points(mesh, 7, 2 * kAgents, points) != SPARK_NAV_OK)
        return 1;

    for (i = 0; i < kAgents; ++i)
    {
        spark_nav_agent_state state = SPARK_NAV_IDLE;
        arrivedAt[i] = -1;
        if (spark_nav_agent_add(world, meshId, points + 6 * i, &settings, &agents[count]) != SPARK_NAV_OK)
            continue;
        if (spark_nav_agent_set_target(world, agents[count], points + 6 * i + 3) != SPARK_NAV_OK ||
            spark_nav_agent_get(world, agents[count], NULL, NULL, &state) != SPARK_NAV_OK ||
            state != SPARK_NAV_MOVING)
        {
            spark_nav_agent_remove(world, agents[count]); /* no way there (another floor, an island) */
            continue;
        }
        ++count;
    }
    printf("%d agents\n", count);

    for (step = 0; step < 3600 && arrived < count; ++step)
    {
        if (spark_nav_world_step(world, 1.0 / 60.0) != SPARK_NAV_OK)
            return 1;
        for (i = 0; i < count; ++i)
        {
            spark_nav_agent_state state;
            float at[3];
            if (arrivedAt[i] >= 0 || spark_nav_agent_get(world, agents[i], at, NULL, &state) != SPARK_NAV_OK ||
                state != SPARK_NAV_ARRIVED)
                continue;
            arrivedAt[i] = step + 1;
            ++arrived;
            printf("agent %2d arrived after %5.2f s at (%.2f, %.2f, %.2f)\n", i, (step + 1) / 60.0, at[0], at[1], at[2]);
        }
    }
    printf("%d of %d arrived in %.2f s\n", arrived, count, step / 60.0);
    spark_nav_world_destroy(world);
    spark_nav_mesh_destroy(mesh);
    return arrived == count && count > 0 ? 0 : 1;
}
