#pragma once
/// \file version.h
/// The library version.

#include "spark/core/export.h"
SPARK_SCENE_API_BEGIN

namespace spark::scene
{
/// libscene's version, "major.minor.patch".
const char* version();
} // namespace spark::scene
SPARK_SCENE_API_END
