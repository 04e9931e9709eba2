#include "spark/ai/version.h"

namespace spark::ai
{
const char* version() { return SPARK_VERSION_STRING; } // project(VERSION) in the top CMakeLists.txt
} // namespace spark::ai
