#pragma once
/// \file version.h
/// The library version.

namespace spark::ai
{
/// libai's version, "major.minor.patch".
const char* version();
} // namespace spark::ai
