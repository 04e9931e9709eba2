#include "spark/scene/version.h"

namespace spark::scene
{
const char* version() { return "0.1.0"; }
} // namespace spark::scene
