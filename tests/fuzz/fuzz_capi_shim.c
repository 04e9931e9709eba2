/* The C API's enum arguments as a C caller passes them: any int (a negative
 * one too) converted to the enum in C, where that is defined. fuzz_capi.cpp
 * calls these, since making such a value in C++ is itself undefined. */
#include "spark/nav_c.h"

const char* fuzz_capi_result_string(int result)
{
    return spark_nav_result_string((spark_nav_result)result);
}

spark_nav_result fuzz_capi_obstacle_add(spark_nav_world* world, uint64_t mesh_id, int shape, const float size[2],
                                        float angle_deg, const float position[3], uint64_t* out_id)
{
    return spark_nav_obstacle_add(world, mesh_id, (spark_nav_shape)shape, size, angle_deg, position, out_id);
}

spark_nav_result fuzz_capi_link_add(spark_nav_world* world, uint64_t mesh_id, const float start[3],
                                    const float end[3], int kind, float radius, int bidirectional, float cost,
                                    float speed, float arc_height, uint64_t* out_id, int* out_resolved)
{
    return spark_nav_link_add(world, mesh_id, start, end, (spark_nav_link_kind)kind, radius, bidirectional, cost,
                              speed, arc_height, out_id, out_resolved);
}
