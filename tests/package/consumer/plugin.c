/* An engine plug-in's shape (tests/package/consumers.sh): a MODULE library,
 * position-independent code linking Spark's static libraries, exporting one
 * function its host finds with dlsym. Built with -Wl,--exclude-libs,ALL so it
 * exports that function alone, not the spark_nav_* it carries (two plug-ins
 * that each carry a Spark then never bind to each other's). */
#define CONSUMER_NO_MAIN
#include "consumer.c"

__attribute__((visibility("default"))) int plugin_run(const char* objPath, char* out, size_t capacity)
{
    return consumerRun(objPath, out, capacity);
}
