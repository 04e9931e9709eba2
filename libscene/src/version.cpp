#include "spark/scene/version.h"

namespace spark::scene
{
const char* version() { return SPARK_VERSION_STRING; } // project(VERSION) in the top CMakeLists.txt
} // namespace spark::scene
