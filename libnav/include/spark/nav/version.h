#pragma once
/// \file version.h
/// The library version.

namespace spark::nav
{
/// libnav's version, "major.minor.patch".
const char* version();
} // namespace spark::nav
