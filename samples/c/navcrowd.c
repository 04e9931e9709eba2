/* navcrowd.c — a host's own crowd over a gap, in C99 through spark/nav_c.h:
 * the crowd loop of docs/embedding.md (corridor -> steer -> avoid -> move
 * along the surface) with off-mesh links crossed by the host.
 *
 * The level: two floors of 2 m cells, west [0,12] x [0,8] at y 0 and east
 * [15,27] x [0,8] a 1 m ledge higher, a 3 m gap between them; a hexagonal
 * pillar (a polygon obstacle) carved into each. Only two links join the
 * floors: a one-way jump up from west to east at z 6.5, a one-way drop down
 * from east to west at z 1.5. Four agents start on each floor with goals on the
 * other, so every one must cross a link.
 *
 * Each step of 1/60 s, for every agent walking:
 *   1. its corridor's corners and steering (spark_nav_corridor_steering):
 *      the velocity it wants, slowing down toward the link's take-off or the
 *      goal; `at_link` at the take-off starts the crossing, `arrived` at the goal
 *      makes it stand;
 *   2. the wanted velocity changes by at most 8 m/s^2 x the step (before the
 *      avoidance, as samples/embed/navcrowd.cpp does: the avoidance keeps two
 *      agents apart only when both move at the velocities it gave them);
 *   3. the walls within 3 m (spark_nav_walls, gathered again after moving a
 *      quarter of that), moved out along their normals by the radius, become
 *      two-point obstacles, each passed once; spark_nav_avoid gives every
 *      walking or standing agent a velocity clear of the others and the walls;
 *   4. spark_nav_corridor_move moves it along the surface; its velocity is what
 *      the move did.
 * An agent crossing a link is out of the avoidance: spark_nav_corridor_cross
 * gives its point on the jump's parabola (or down the drop's line) each step;
 * once landed, spark_nav_corridor_land moves the corridor on from the landing.
 *
 * Prints each take-off, landing (with the top of a jump's arc) and arrival,
 * then a summary with a hash of every agent's position at every step (FNV-1a
 * over the float bits; the library and this program are deterministic, so
 * the hash is the same on every run and machine). Exits 0 when every agent
 * crossed a link and arrived within 60 s. */
#include "spark/nav_c.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum
{
    kAgents = 8,
    kCellsX = 6,
    kCellsZ = 4,
    kPolys = 2 * kCellsX * kCellsZ,
    kMaxWalls = 64,               /* per agent, from one gathering */
    kMaxObstacles = kAgents * kMaxWalls,
    kSteps = 3600
};

enum walk_state
{
    WALKING,
    CROSSING,
    ARRIVED
};

typedef struct walker
{
    spark_nav_corridor* corridor;
    enum walk_state state;
    float crossTime; /* seconds since take-off */
    float top;       /* highest point of the crossing */
    int crossings, jumps;
    int arrivedAt;
    float wallsAt[3];
    int wallsKnown;
    size_t wallCount;
    double walls[kMaxWalls][4]; /* moved walls: x0, z0, x1, z1 */
} walker;

static walker walkers[kAgents];
static spark_nav_avoid_agent agents[kAgents];
static double velocities[2 * kAgents];
static int avoidIndex[kAgents];
static spark_nav_avoid_obstacle obstacles[kMaxObstacles];
static float wallHits[9 * kMaxWalls];

/* The two floors as 2 m cells, each cell its own four vertices (cells link
 * where their edges meet). */
static spark_nav_mesh* floors(void)
{
    static float vertices[kPolys * 4 * 3];
    static uint32_t indices[kPolys * 4], starts[kPolys + 1];
    spark_nav_mesh* mesh = NULL;
    size_t v = 0, p = 0;
    int side, x, z, c;
    starts[0] = 0;
    for (side = 0; side < 2; ++side)
        for (z = 0; z < kCellsZ; ++z)
            for (x = 0; x < kCellsX; ++x)
            {
                const float x0 = (float)(side * 15 + 2 * x), z0 = (float)(2 * z), y = (float)side;
                const float xs[4] = {x0, x0 + 2.0f, x0 + 2.0f, x0}, zs[4] = {z0, z0, z0 + 2.0f, z0 + 2.0f};
                for (c = 0; c < 4; ++c)
                {
                    vertices[3 * v] = xs[c];
                    vertices[3 * v + 1] = y;
                    vertices[3 * v + 2] = zs[c];
                    indices[v] = (uint32_t)v;
                    ++v;
                }
                starts[++p] = (uint32_t)v;
            }
    if (spark_nav_mesh_build(vertices, v, indices, starts, p, NULL, 0, 0.4f, &mesh) != SPARK_NAV_OK)
        return NULL;
    return mesh;
}

/* FNV-1a, 64 bits, over a float's bits. */
static uint64_t hashFloat(uint64_t h, float f)
{
    uint32_t bits;
    int k;
    memcpy(&bits, &f, sizeof bits);
    for (k = 0; k < 4; ++k)
    {
        h ^= (bits >> (8 * k)) & 0xffu;
        h *= 0x100000001b3ull;
    }
    return h;
}

/* The walls near a walker, moved out along their normals by `radius`, gathered
 * again once it has moved a quarter of `range` from where they were. */
static int gatherWalls(const spark_nav_mesh* mesh, walker* w, const float at[3], float range, double radius)
{
    const float dx = at[0] - w->wallsAt[0], dz = at[2] - w->wallsAt[2];
    size_t count = 0, k;
    if (w->wallsKnown && dx * dx + dz * dz <= 0.0625f * range * range)
        return 1;
    if (spark_nav_walls(mesh, at, range, wallHits, kMaxWalls, &count) != SPARK_NAV_OK)
        return 0;
    w->wallCount = 0;
    for (k = 0; k < count; ++k)
    {
        const float* h = wallHits + 9 * k;
        if (h[6] == 0.0f && h[8] == 0.0f)
            continue; /* a wall of no length */
        w->walls[w->wallCount][0] = h[0] + h[6] * radius;
        w->walls[w->wallCount][1] = h[2] + h[8] * radius;
        w->walls[w->wallCount][2] = h[3] + h[6] * radius;
        w->walls[w->wallCount][3] = h[5] + h[8] * radius;
        ++w->wallCount;
    }
    memcpy(w->wallsAt, at, sizeof w->wallsAt);
    w->wallsKnown = 1;
    return 1;
}

/* Every walker's walls as avoidance segments, each wall once. */
static size_t wallObstacles(void)
{
    size_t n = 0, i, k, j;
    for (i = 0; i < kAgents; ++i)
    {
        if (walkers[i].state == CROSSING)
            continue;
        for (k = 0; k < walkers[i].wallCount; ++k)
        {
            const double* p = walkers[i].walls[k];
            int seen = 0;
            for (j = 0; j < n && !seen; ++j)
                seen = memcmp(obstacles[j].points, p, 4 * sizeof(double)) == 0;
            if (seen)
                continue;
            memset(&obstacles[n], 0, sizeof obstacles[n]);
            obstacles[n].shape = SPARK_NAV_AVOID_SEGMENT;
            obstacles[n].points = p;
            obstacles[n].point_count = 2;
            ++n;
        }
    }
    return n;
}

int main(void)
{
    const float radius = 0.4f, maxSpeed = 3.5f, maxAccel = 8.0f, slowRadius = 1.5f, stopDistance = 0.2f;
    const float wallRange = 3.0f;
    const float ext[3] = {1.0f, 0.5f, 1.0f};
    /* A hexagon of radius 1 m, counter-clockwise in x-z (x right, z up the page). */
    const float hexagon[12] = {1.0f, 0.0f, 0.5f, 0.866f, -0.5f, 0.866f, -1.0f, 0.0f, -0.5f, -0.866f, 0.5f, -0.866f};
    const float pillarWest[3] = {6.0f, 0.0f, 4.0f}, pillarEast[3] = {21.0f, 1.0f, 4.0f};
    const float jumpFrom[3] = {11.8f, 0.0f, 6.5f}, jumpTo[3] = {15.2f, 1.0f, 6.5f};
    const float dropFrom[3] = {15.2f, 1.0f, 1.5f}, dropTo[3] = {11.8f, 0.0f, 1.5f};
    const double dt = 1.0 / 60.0;
    spark_nav_mesh* built = floors();
    spark_nav_mesh* mesh = NULL;
    spark_nav_world* world = NULL;
    spark_nav_avoidance* avoidance = NULL;
    spark_nav_avoidance_def def = spark_nav_avoidance_def_default();
    uint64_t meshId = 0, pillar = 0, jump = 0, drop = 0, hash = 0xcbf29ce484222325ull;
    uint32_t polygons = 0, carved = 0;
    int jumpResolved = 0, dropResolved = 0, arrived = 0, crossed = 0, jumps = 0, step, i;
    double closest = 1e300;

    if (!built || spark_nav_world_create(&world) != SPARK_NAV_OK ||
        spark_nav_world_put_mesh(world, "gap", built, &meshId) != SPARK_NAV_OK ||
        spark_nav_obstacle_add_polygon(world, meshId, hexagon, 6, 0.0f, pillarWest, &pillar) != SPARK_NAV_OK ||
        spark_nav_obstacle_add_polygon(world, meshId, hexagon, 6, 30.0f, pillarEast, &pillar) != SPARK_NAV_OK ||
        spark_nav_link_add(world, meshId, jumpFrom, jumpTo, SPARK_NAV_JUMP, 0.5f, 0, 1.0f, 4.0f, 1.0f, &jump,
                           &jumpResolved) != SPARK_NAV_OK ||
        spark_nav_link_add(world, meshId, dropFrom, dropTo, SPARK_NAV_DROP, 0.5f, 0, 1.0f, 5.0f, 0.0f, &drop,
                           &dropResolved) != SPARK_NAV_OK ||
        spark_nav_world_mesh(world, meshId, &mesh) != SPARK_NAV_OK)
    {
        printf("cannot build the level\n");
        return 1;
    }
    spark_nav_mesh_polygon_count(built, &polygons);
    spark_nav_mesh_polygon_count(mesh, &carved);
    printf("two floors of %u polygons, %u once two pillars are carved; jump %s, drop %s\n", (unsigned)polygons,
           (unsigned)carved, jumpResolved ? "resolved" : "NOT resolved", dropResolved ? "resolved" : "NOT resolved");

    /* The agents: four on each floor, each with its goal on the other. */
    for (i = 0; i < kAgents; ++i)
    {
        const int west = i < kAgents / 2, row = i % (kAgents / 2);
        const float start[3] = {west ? 1.0f : 26.0f, west ? 0.0f : 1.0f, 1.0f + 2.0f * (float)row};
        const float goal[3] = {west ? 24.0f : 3.0f, west ? 1.0f : 0.0f, 7.0f - 2.0f * (float)row};
        walker* w = &walkers[i];
        spark_nav_corridor_link link;
        size_t links = 0, polys = 0;
        int complete = 0;
        float at[3];
        if (spark_nav_world_corridor_plan(world, meshId, start, goal, ext, &w->corridor) != SPARK_NAV_OK ||
            spark_nav_corridor_info(w->corridor, at, &polys, &complete) != SPARK_NAV_OK || !complete ||
            spark_nav_corridor_links(w->corridor, &link, 1, &links) != SPARK_NAV_OK)
        {
            printf("agent %d: no corridor to its goal\n", i);
            return 1;
        }
        printf("agent %d: %s floor to %s, a corridor of %zu polygons over the %s\n", i, west ? "west" : "east",
               west ? "east" : "west", polys, link.link_id == jump ? "jump" : "drop");
        w->arrivedAt = -1;
        memset(&agents[i], 0, sizeof agents[i]);
        agents[i].position[0] = at[0];
        agents[i].position[1] = at[2];
        agents[i].radius = radius;
        agents[i].max_speed = maxSpeed;
        agents[i].priority = 1.0;
        agents[i].id = (uint32_t)i;
    }

    def.time_horizon = 1.5;
    def.time_horizon_obstacles = 0.5;
    def.max_obstacles = kMaxObstacles;
    def.max_obstacle_points = 2 * kMaxObstacles;
    if (spark_nav_avoidance_create(&def, &avoidance) != SPARK_NAV_OK)
        return 1;

    for (step = 0; step < kSteps && arrived < kAgents; ++step)
    {
        spark_nav_avoid_agent avoiding[kAgents];
        size_t count = 0, obstacleCount, k;
        /* 1, 2, 3: steering, the acceleration limit, the walls. */
        for (i = 0; i < kAgents; ++i)
        {
            walker* w = &walkers[i];
            spark_nav_avoid_agent* a = &agents[i];
            spark_nav_steering s;
            float at[3];
            double want[2] = {0.0, 0.0}, change[2], length;
            avoidIndex[i] = -1;
            if (w->state == CROSSING)
                continue;
            avoidIndex[i] = (int)count;
            if (w->state == ARRIVED)
            {
                avoiding[count++] = *a; /* stands: the others go round it */
                continue;
            }
            if (spark_nav_corridor_info(w->corridor, at, NULL, NULL) != SPARK_NAV_OK)
                return 1;
            {
                if (spark_nav_corridor_steering(mesh, w->corridor, maxSpeed, slowRadius, stopDistance, &s) !=
                    SPARK_NAV_OK)
                    return 1;
                if (s.at_link)
                {
                    w->state = CROSSING;
                    w->crossTime = 0.0f;
                    w->top = at[1];
                    a->velocity[0] = a->velocity[1] = 0.0;
                    printf("agent %d takes off at %5.2f s from (%.2f, %.2f, %.2f)\n", i, (step + 1) * dt, at[0],
                           at[1], at[2]);
                    continue;
                }
                if (s.arrived)
                {
                    w->state = ARRIVED;
                    w->arrivedAt = step + 1;
                    ++arrived;
                    printf("agent %d arrived at %5.2f s at (%.2f, %.2f, %.2f)\n", i, (step + 1) * dt, at[0], at[1],
                           at[2]);
                    a->velocity[0] = a->velocity[1] = a->preferred[0] = a->preferred[1] = 0.0;
                    a->max_speed = 0.0;
                    a->priority = 1.0e6; /* the others take the whole avoidance of it */
                    avoiding[count++] = *a;
                    continue;
                }
                want[0] = s.velocity[0];
                want[1] = s.velocity[2];
            }
            change[0] = want[0] - a->velocity[0];
            change[1] = want[1] - a->velocity[1];
            length = sqrt(change[0] * change[0] + change[1] * change[1]);
            if (length > maxAccel * dt)
            {
                a->preferred[0] = a->velocity[0] + change[0] * (maxAccel * dt / length);
                a->preferred[1] = a->velocity[1] + change[1] * (maxAccel * dt / length);
            }
            else
            {
                a->preferred[0] = want[0];
                a->preferred[1] = want[1];
            }
            if (!gatherWalls(mesh, w, at, wallRange, radius))
                return 1;
            avoiding[count++] = *a;
        }
        /* 3. Avoidance: one call for every agent on the ground. */
        obstacleCount = wallObstacles();
        if (count > 0 && spark_nav_avoid(avoidance, avoiding, count, obstacles, obstacleCount, dt, velocities) !=
                             SPARK_NAV_OK)
            return 1;
        /* 4. The move along the surface, or the crossing. */
        for (i = 0; i < kAgents; ++i)
        {
            walker* w = &walkers[i];
            spark_nav_avoid_agent* a = &agents[i];
            float at[3], wanted[3];
            if (w->state == CROSSING)
            {
                int landed = 0;
                w->crossTime += (float)dt;
                if (spark_nav_corridor_cross(w->corridor, w->crossTime, at, NULL, &landed) != SPARK_NAV_OK)
                    return 1;
                w->top = at[1] > w->top ? at[1] : w->top;
                a->position[0] = at[0];
                a->position[1] = at[2];
                if (landed)
                {
                    spark_nav_corridor_link link;
                    size_t links = 0;
                    if (spark_nav_corridor_links(w->corridor, &link, 1, &links) != SPARK_NAV_OK ||
                        spark_nav_corridor_land(w->corridor) != SPARK_NAV_OK)
                        return 1;
                    w->state = WALKING;
                    ++w->crossings;
                    w->jumps += link.kind == SPARK_NAV_JUMP;
                    printf("agent %d lands at %5.2f s on (%.2f, %.2f, %.2f) after a %s, top %.2f m\n", i,
                           (step + 1) * dt, at[0], at[1], at[2], link.kind == SPARK_NAV_JUMP ? "jump" : "drop",
                           w->top);
                }
            }
            else if (w->state == ARRIVED)
            {
                if (spark_nav_corridor_info(w->corridor, at, NULL, NULL) != SPARK_NAV_OK)
                    return 1;
            }
            else
            {
                const double* v = velocities + 2 * avoidIndex[i];
                if (spark_nav_corridor_info(w->corridor, at, NULL, NULL) != SPARK_NAV_OK)
                    return 1;
                wanted[0] = at[0] + (float)(v[0] * dt);
                wanted[1] = at[1];
                wanted[2] = at[2] + (float)(v[1] * dt);
                if (spark_nav_corridor_move(mesh, w->corridor, wanted, at) != SPARK_NAV_OK)
                    return 1;
                a->velocity[0] = (at[0] - a->position[0]) / dt;
                a->velocity[1] = (at[2] - a->position[1]) / dt;
                a->position[0] = at[0];
                a->position[1] = at[2];
            }
            for (k = 0; k < 3; ++k)
                hash = hashFloat(hash, at[k]);
        }
        /* The closest approach of two agents on the ground. */
        for (i = 0; i < kAgents; ++i)
        {
            int j;
            for (j = 0; j < i; ++j)
            {
                double dx, dz, d;
                if (walkers[i].state == CROSSING || walkers[j].state == CROSSING)
                    continue;
                dx = agents[i].position[0] - agents[j].position[0];
                dz = agents[i].position[1] - agents[j].position[1];
                d = sqrt(dx * dx + dz * dz);
                closest = d < closest ? d : closest;
            }
        }
    }
    for (i = 0; i < kAgents; ++i)
    {
        crossed += walkers[i].crossings > 0;
        jumps += walkers[i].jumps;
        spark_nav_corridor_destroy(walkers[i].corridor);
    }
    printf("summary: %d of %d agents arrived, %d crossed a link (%d jumps, %d drops) in %.2f s; closest "
           "approach %.3f m (2r = %.1f m); run hash %016llx\n",
           arrived, kAgents, crossed, jumps, crossed - jumps, step * dt, closest, 2.0 * radius,
           (unsigned long long)hash);
    spark_nav_avoidance_destroy(avoidance);
    spark_nav_mesh_destroy(mesh);
    spark_nav_mesh_destroy(built);
    spark_nav_world_destroy(world);
    return arrived == kAgents && crossed == kAgents ? 0 : 1;
}
