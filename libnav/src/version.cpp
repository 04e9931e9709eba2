#include "spark/nav/version.h"

namespace spark::nav
{
const char* version() { return SPARK_VERSION_STRING; } // project(VERSION) in the top CMakeLists.txt
} // namespace spark::nav
