#include "spark/nav/version.h"

namespace spark::nav
{
const char* version() { return "0.1.0"; }
} // namespace spark::nav
