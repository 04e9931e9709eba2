#pragma once
/// \file version.h
/// The library version.

namespace spark::scene
{
/// libscene's version, "major.minor.patch".
const char* version();
} // namespace spark::scene
