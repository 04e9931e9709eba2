/* flight.c — fliers crossing a flight volume full of pillars, in C99 through
 * spark/nav_c.h (the C twin of samples/embed/flight.cpp: same volume, same
 * fliers, same loop).
 *
 * Each step, for every flier still flying:
 *   1. path following: the next waypoint is skipped as soon as the one after
 *      it is in line of sight (spark_nav_flight_raycast); a flier pushed out of
 *      sight of its waypoint plans again;
 *   2. 3D avoidance (spark_nav_avoid_3d) against the others and a drifting balloon;
 *   3. the move, kept in open space: the whole step when its raycast is clear,
 *      else each axis' part that is (x, then y, then z).
 * Prints each arrival; exits 0 when all 16 arrived. */
#include "spark/nav_c.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum
{
    kFliers = 16,
    kMaxPath = 512
};

typedef struct Flier
{
    double goal[3];
    double path[3 * kMaxPath];
    size_t count, next;
    int arrivedAt;
} Flier;

static Flier fliers[kFliers];

static int clear(const spark_nav_flight* volume, const double a[3], const double b[3])
{
    int blocked = 1;
    return spark_nav_flight_raycast(volume, a, b, &blocked, NULL, NULL) == SPARK_NAV_OK && !blocked;
}

static void moveInOpenSpace(const spark_nav_flight* volume, double at[3], const double step[3])
{
    double to[3];
    int axis;
    to[0] = at[0] + step[0];
    to[1] = at[1] + step[1];
    to[2] = at[2] + step[2];
    if (clear(volume, at, to))
    {
        memcpy(at, to, sizeof to);
        return;
    }
    for (axis = 0; axis < 3; ++axis)
    {
        double part[3];
        memcpy(part, at, sizeof part);
        if (step[axis] == 0.0)
            continue;
        part[axis] += step[axis];
        if (clear(volume, at, part))
            at[axis] = part[axis];
    }
}

static double dist(const double a[3], const double b[3])
{
    const double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return sqrt(dx * dx + dy * dy + dz * dz);
}

int main(void)
{
    spark_nav_flight_def def = spark_nav_flight_def_default();
    spark_nav_avoidance_def adef = spark_nav_avoidance_def_default();
    spark_nav_flight* volume = NULL;
    spark_nav_avoidance* avoidance = NULL;
    spark_nav_avoid_agent_3d agents[kFliers], flying[kFliers];
    spark_nav_avoid_sphere balloon;
    double pillars[16 * 6], velocities[3 * kFliers], closest = 1e300;
    const double ramp[12] = {-6, 0, -30, 6, 0, -30, 6, 8, -20, -6, 8, -20};
    const uint32_t rampIndices[6] = {0, 1, 2, 0, 2, 3};
    size_t flyingIndex[kFliers];
    int dims[3], arrived = 0, step, i, k;
    int64_t open = 0;
    const double dt = 0.1;

    def.bounds_min[0] = -30.0;
    def.bounds_min[1] = 0.0;
    def.bounds_min[2] = -30.0;
    def.bounds_max[0] = 30.0;
    def.bounds_max[1] = 20.0;
    def.bounds_max[2] = 30.0;
    def.voxel_size = 0.5;
    def.flier_radius = 0.6;
    for (i = 0; i < 4; ++i)
        for (k = 0; k < 4; ++k)
        {
            double* b = pillars + 6 * (4 * i + k);
            const double x = -12.0 + 8.0 * i, z = -12.0 + 8.0 * k;
            b[0] = x - 1.0;
            b[1] = 0.0;
            b[2] = z - 1.0;
            b[3] = x + 1.0;
            b[4] = 16.0 + 1.0 * ((i + k) % 3);
            b[5] = z + 1.0;
        }
    if (spark_nav_flight_build(&def, ramp, 4, rampIndices, 6, pillars, 16, &volume) != SPARK_NAV_OK)
    {
        printf("flight volume: could not build\n");
        return 1;
    }
    spark_nav_flight_info(volume, dims, &open);
    printf("flight volume %d x %d x %d voxels, %lld open\n", dims[0], dims[1], dims[2], (long long)open);

    adef.time_horizon = 3.0;
    adef.time_horizon_obstacles = 3.0;
    if (spark_nav_avoidance_create(&adef, &avoidance) != SPARK_NAV_OK)
        return 1;
    memset(agents, 0, sizeof agents);
    for (i = 0; i < kFliers; ++i)
    {
        const int east = i % 2 == 0;
        const double z = -14.0 + 4.0 * (i / 2);
        const double y = 4.0 + 1.5 * ((i / 2) % 4); /* each east/west pair meets head on */
        int partial = 1;
        agents[i].position[0] = east ? -27.0 : 27.0;
        agents[i].position[1] = y;
        agents[i].position[2] = z;
        agents[i].radius = 0.6;
        agents[i].max_speed = 3.0;
        agents[i].priority = 1.0;
        agents[i].id = (uint32_t)i;
        fliers[i].goal[0] = east ? 27.0 : -27.0;
        fliers[i].goal[1] = 12.0 - y;
        fliers[i].goal[2] = z;
        fliers[i].next = 1;
        fliers[i].arrivedAt = -1;
        if (spark_nav_flight_path(volume, agents[i].position, fliers[i].goal, fliers[i].path, kMaxPath,
                                  &fliers[i].count, &partial) != SPARK_NAV_OK ||
            partial)
        {
            printf("flier %d: no path\n", i);
            return 1;
        }
    }
    memset(&balloon, 0, sizeof balloon);
    balloon.center[1] = 10.0;
    balloon.center[2] = -28.0;
    balloon.radius = 1.5;
    balloon.velocity[2] = 0.8;

    for (step = 0; step < 4000 && arrived < kFliers; ++step)
    {
        size_t n = 0, m;
        /* 1. Path following. */
        for (i = 0; i < kFliers; ++i)
        {
            Flier* f = &fliers[i];
            spark_nav_avoid_agent_3d* a = &agents[i];
            double toward[3], distance, speed;
            if (f->arrivedAt >= 0)
                continue;
            while (f->next + 1 < f->count && clear(volume, a->position, f->path + 3 * (f->next + 1)))
                ++f->next;
            if (!clear(volume, a->position, f->path + 3 * f->next))
            {
                int partial = 0;
                size_t count = 0;
                if (spark_nav_flight_path(volume, a->position, f->goal, f->path, kMaxPath, &count, &partial) ==
                    SPARK_NAV_OK)
                {
                    f->count = count;
                    f->next = 1;
                }
            }
            for (k = 0; k < 3; ++k)
                toward[k] = f->path[3 * f->next + k] - a->position[k];
            distance = sqrt(toward[0] * toward[0] + toward[1] * toward[1] + toward[2] * toward[2]);
            speed = f->next + 1 == f->count ? (distance < a->max_speed ? distance : a->max_speed) : a->max_speed;
            for (k = 0; k < 3; ++k)
                a->preferred[k] = distance > 1e-9 ? toward[k] * (speed / distance) : 0.0;
            flying[n] = *a;
            flyingIndex[n++] = (size_t)i;
        }
        /* 2. Avoidance. */
        if (spark_nav_avoid_3d(avoidance, flying, n, &balloon, 1, dt, velocities) != SPARK_NAV_OK)
        {
            printf("avoidance failed\n");
            return 1;
        }
        for (k = 0; k < 3; ++k)
            balloon.center[k] += balloon.velocity[k] * dt;
        /* 3. The move, kept in open space. */
        for (m = 0; m < n; ++m)
        {
            const size_t idx = flyingIndex[m];
            spark_nav_avoid_agent_3d* a = &agents[idx];
            double moved[3], stepv[3];
            memcpy(moved, a->position, sizeof moved);
            for (k = 0; k < 3; ++k)
                stepv[k] = velocities[3 * m + k] * dt;
            moveInOpenSpace(volume, moved, stepv);
            for (k = 0; k < 3; ++k)
            {
                a->velocity[k] = (moved[k] - a->position[k]) / dt;
                a->position[k] = moved[k];
            }
            if (dist(fliers[idx].goal, a->position) < a->radius)
            {
                fliers[idx].arrivedAt = step + 1;
                ++arrived;
                printf("flier %2zu arrived at step %d\n", idx, step + 1);
            }
        }
        for (m = 0; m < n; ++m)
        {
            size_t q;
            for (q = 0; q < m; ++q)
            {
                const double d = dist(agents[flyingIndex[m]].position, agents[flyingIndex[q]].position);
                if (d < closest)
                    closest = d;
            }
        }
    }
    printf("%d of %d fliers arrived in %d steps; closest approach of two fliers %.3f m (2r = 1.2 m)\n", arrived,
           kFliers, step, closest);
    spark_nav_avoidance_destroy(avoidance);
    spark_nav_flight_destroy(volume);
    return arrived == kFliers ? 0 : 1;
}
