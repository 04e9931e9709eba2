/* CHECK for the C API's C tests: counts a failed condition and says where.
 * Each test program includes it once and reports `failures` at the end. */
#ifndef SPARK_TESTS_NAV_C_CHECK_H
#define SPARK_TESTS_NAV_C_CHECK_H

#include <stdio.h>

static int failures = 0;
#define CHECK(cond)                                                                                                    \
    do                                                                                                                 \
    {                                                                                                                  \
        if (!(cond))                                                                                                   \
        {                                                                                                              \
            fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond);                                   \
            ++failures;                                                                                                \
        }                                                                                                              \
    } while (0)

#endif
