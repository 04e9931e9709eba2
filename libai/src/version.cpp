#include "spark/ai/version.h"

namespace spark::ai
{
const char* version() { return "0.1.0"; }
} // namespace spark::ai
