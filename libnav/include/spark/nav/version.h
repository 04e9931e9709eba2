#pragma once
/// \file version.h
/// The library version.

#include "spark/core/export.h"
SPARK_NAV_API_BEGIN

namespace spark::nav
{
/// libnav's version, "major.minor.patch".
const char* version();
} // namespace spark::nav
SPARK_NAV_API_END
