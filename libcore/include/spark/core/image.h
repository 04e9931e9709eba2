#pragma once
/// \file image.h
/// RGBA8 images, PNG encode/decode (lodepng) and the golden comparison of docs/debug-draw.md:
/// a pixel differs when any channel differs by more than 2/255; two images are
/// equal when they have the same size and at most 0.1 % of the pixels differ.

#include "spark/core/result.h"

#include <cstdint>
#include <filesystem>
#include <vector>

#include "spark/core/export.h"
SPARK_CORE_API_BEGIN

namespace spark
{

/// Largest PNG file `readPng` reads. [Units: bytes]
inline constexpr size_t kMaxPngFileBytes = 64u * 1024u * 1024u;
/// Largest picture `decodePng` decodes (16384 × 16384). [Units: px]
inline constexpr uint64_t kMaxPngPixels = 16384ull * 16384ull;

/// An RGBA8 image, rows top to bottom.
struct Image
{
    int width = 0;             ///< [Limit: >= 0] [Units: px]
    int height = 0;            ///< [Limit: >= 0] [Units: px]
    std::vector<uint8_t> rgba; ///< width * height * 4 bytes.
};

/// A blank image filled with one colour.
Image makeImage(int width, int height, uint32_t rgba = 0x000000ffu);

/// Encodes as PNG in memory.
Result<std::vector<uint8_t>> encodePng(const Image& image);
/// Decodes PNG bytes (`E_FORMAT` when they are not a PNG).
Result<Image> decodePng(const std::vector<uint8_t>& bytes);
/// Writes a PNG file (`E_IO` when it cannot be written).
Status writePng(const std::filesystem::path& path, const Image& image);
/// Reads a PNG file (`E_IO` when missing or not a regular file, `E_FORMAT` when
/// not a PNG or larger than `kMaxPngFileBytes` / `kMaxPngPixels`).
Result<Image> readPng(const std::filesystem::path& path);

/// Golden comparison settings (the defaults of docs/debug-draw.md "Goldens").
struct ImageCompareDef
{
    int channelTolerance = 2;        ///< Largest per-channel difference that still counts as equal. [Units: /255]
    double maxDifferingFraction = 0.001; ///< Fraction of pixels allowed to differ. [Limit: 0..1]
};

/// The outcome of comparing two images.
struct ImageDiff
{
    bool equal = false;      ///< Within tolerance (and same size).
    bool sizeMismatch = false;
    uint64_t differing = 0;  ///< Pixels with a channel difference above the tolerance.
    int worst = 0;           ///< Largest channel difference seen. [Units: /255]
    Image diff;              ///< Red where pixels differ, dimmed grey of `expected` elsewhere.
};

/// Compares `actual` against `expected`.
ImageDiff compareImages(const Image& expected, const Image& actual, const ImageCompareDef& def = {});

} // namespace spark
SPARK_CORE_API_END
