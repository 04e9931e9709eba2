#pragma once
/// \file version.h
/// The library version.

#include "spark/core/export.h"
SPARK_AI_API_BEGIN

namespace spark::ai
{
/// libai's version, "major.minor.patch".
const char* version();
} // namespace spark::ai
SPARK_AI_API_END
