/* The C99 consumer (tests/package/consumers.sh): built with pkg-config
 * (spark-nav-static) against an installed copy; bakes the OBJ given as its
 * argument through spark/nav_c.h and prints the line of dungeon.h. plugin.c
 * compiles the same work into an engine-style plug-in. */
#include "spark/nav_c.h"
#include "spark/version.h"

#include "dungeon.h"

/* Bakes and finds the path; 0 and the line in `out` on success. */
static int consumerRun(const char* objPath, char* out, size_t capacity)
{
    ConsumerObj obj;
    spark_nav_bake_settings settings = spark_nav_bake_settings_default();
    spark_nav_mesh* mesh = NULL;
    float points[3 * CONSUMER_MAX_POINTS], length = 0.0f;
    size_t count = 0;
    int complete = 0, ok;
    uint32_t polygons = 0;
    uint64_t hash = 0;
    if (!consumerObjRead(objPath, &obj))
    {
        consumerObjFree(&obj);
        snprintf(out, capacity, "cannot read %s", objPath);
        return 1;
    }
    ok = spark_nav_mesh_bake(obj.vertices, obj.vertexCount, obj.indices, obj.indexCount, NULL, 1, &settings, &mesh) ==
             SPARK_NAV_OK &&
         spark_nav_mesh_hash(mesh, &hash) == SPARK_NAV_OK && spark_nav_mesh_polygon_count(mesh, &polygons) == SPARK_NAV_OK &&
         spark_nav_path(mesh, kConsumerFrom, kConsumerTo, kConsumerExtents, points, CONSUMER_MAX_POINTS, &count, &length,
                        &complete) == SPARK_NAV_OK &&
         consumerFormat(out, capacity, (unsigned long long)hash, polygons, count, points, length, complete);
    spark_nav_mesh_destroy(mesh);
    consumerObjFree(&obj);
    return ok ? 0 : 1;
}

#ifndef CONSUMER_NO_MAIN
int main(int argc, char** argv)
{
    char line[8192];
    int r;
    if (argc != 2)
    {
        fprintf(stderr, "usage: consumer FILE.obj\n");
        return 2;
    }
    /* The headers compiled against and the library linked are one version. */
    if (strcmp(spark_nav_version(), SPARK_VERSION) != 0)
        return 1;
    r = consumerRun(argv[1], line, sizeof line);
    puts(line);
    return r;
}
#endif
