/* dungeon.h — the work of every consumer (tests/package/consumers.sh): read
 * an OBJ file (v and f lines; faces fanned into triangles), bake it with the
 * default settings, find a path between two fixed points, and print one line
 * that the test compares with what the `spark` command answers for the same
 * file. C99 and C++ alike; the C++ consumer bakes through the C++ API instead. */
#ifndef SPARK_CONSUMER_DUNGEON_H
#define SPARK_CONSUMER_DUNGEON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONSUMER_MAX_POINTS 256

/* The path's ends and the search box (the same in tests/package/consumers.sh). */
static const float kConsumerFrom[3] = {26.0f, 10.0f, -3.25f};
static const float kConsumerTo[3] = {26.5f, 15.25f, -77.25f};
static const float kConsumerExtents[3] = {4.0f, 8.0f, 4.0f};

typedef struct ConsumerObj
{
    float* vertices; /* 3 per vertex */
    uint32_t* indices; /* 3 per triangle */
    size_t vertexCount, indexCount;
} ConsumerObj;

static void consumerObjFree(ConsumerObj* obj)
{
    free(obj->vertices);
    free(obj->indices);
}

/* Reads `path`; 0 on failure. Vertices and faces are counted first, then read. */
static int consumerObjRead(const char* path, ConsumerObj* obj)
{
    char line[1024];
    size_t nv = 0, ni = 0, capV = 0, capI = 0;
    FILE* f = fopen(path, "r");
    memset(obj, 0, sizeof *obj);
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f))
    {
        if (line[0] == 'v' && line[1] == ' ')
            ++capV;
        else if (line[0] == 'f' && line[1] == ' ')
        {
            size_t corners = 0;
            const char* p = line + 1;
            while (*p)
            {
                while (*p == ' ' || *p == '\t')
                    ++p;
                if (*p == '\0' || *p == '\n' || *p == '\r')
                    break;
                ++corners;
                while (*p && *p != ' ' && *p != '\t')
                    ++p;
            }
            if (corners >= 3)
                capI += 3 * (corners - 2);
        }
    }
    obj->vertices = (float*)malloc(3 * sizeof(float) * (capV ? capV : 1));
    obj->indices = (uint32_t*)malloc(sizeof(uint32_t) * (capI ? capI : 1));
    if (!obj->vertices || !obj->indices)
    {
        fclose(f);
        return 0;
    }
    rewind(f);
    while (fgets(line, sizeof line, f))
    {
        if (line[0] == 'v' && line[1] == ' ' && nv < capV)
        {
            float* v = obj->vertices + 3 * nv;
            if (sscanf(line + 2, "%f %f %f", &v[0], &v[1], &v[2]) == 3)
                ++nv;
        }
        else if (line[0] == 'f' && line[1] == ' ')
        {
            long face[64];
            size_t n = 0, i;
            char* p = line + 1;
            while (n < 64)
            {
                char* end;
                long k = strtol(p, &end, 10);
                if (end == p)
                    break;
                face[n++] = k < 0 ? (long)nv + k : k - 1;
                p = end;
                while (*p && *p != ' ' && *p != '\t')
                    ++p; /* skip /vt/vn */
            }
            for (i = 1; i + 1 < n && ni + 3 <= capI; ++i)
            {
                obj->indices[ni++] = (uint32_t)face[0];
                obj->indices[ni++] = (uint32_t)face[i];
                obj->indices[ni++] = (uint32_t)face[i + 1];
            }
        }
    }
    fclose(f);
    obj->vertexCount = nv;
    obj->indexCount = ni;
    return nv > 0 && ni > 0;
}

/* The line every consumer prints: the mesh's hash and polygons, then the path. */
static int consumerFormat(char* out, size_t capacity, unsigned long long hash, unsigned polygons, size_t count,
                          const float* points, float length, int complete)
{
    size_t i;
    int used = snprintf(out, capacity, "mesh %016llx polygons %u path %s %u %.3f", hash, polygons,
                        complete ? "complete" : "partial", (unsigned)count, length);
    for (i = 0; i < count && used > 0 && (size_t)used < capacity; ++i)
        used += snprintf(out + used, capacity - (size_t)used, " %.2f,%.2f,%.2f", points[3 * i], points[3 * i + 1],
                         points[3 * i + 2]);
    return used > 0 && (size_t)used < capacity;
}

#endif
