// RGBA8 images and the golden comparison (docs/debug-draw.md); PNG files are image_png.cpp's.

#include "spark/core/image.h"

#include <algorithm>
#include <cstdlib>

namespace spark
{

Image makeImage(int width, int height, uint32_t rgba)
{
    Image image;
    image.width = std::max(0, width);
    image.height = std::max(0, height);
    image.rgba.resize(static_cast<size_t>(image.width) * static_cast<size_t>(image.height) * 4u);
    for (size_t i = 0; i < image.rgba.size(); i += 4)
    {
        image.rgba[i + 0] = static_cast<uint8_t>(rgba >> 24u);
        image.rgba[i + 1] = static_cast<uint8_t>(rgba >> 16u);
        image.rgba[i + 2] = static_cast<uint8_t>(rgba >> 8u);
        image.rgba[i + 3] = static_cast<uint8_t>(rgba);
    }
    return image;
}

ImageDiff compareImages(const Image& expected, const Image& actual, const ImageCompareDef& def)
{
    ImageDiff out;
    if (expected.width != actual.width || expected.height != actual.height)
    {
        out.sizeMismatch = true;
        out.differing = static_cast<uint64_t>(std::max(expected.width, actual.width)) *
                        static_cast<uint64_t>(std::max(expected.height, actual.height));
        out.worst = 255;
        out.diff = actual.width > 0 ? actual : expected;
        return out;
    }
    out.diff = makeImage(expected.width, expected.height);
    const size_t pixels = static_cast<size_t>(expected.width) * static_cast<size_t>(expected.height);
    for (size_t p = 0; p < pixels; ++p)
    {
        int worstHere = 0;
        for (int c = 0; c < 4; ++c)
        {
            const int d = std::abs(int(expected.rgba[p * 4 + c]) - int(actual.rgba[p * 4 + c]));
            worstHere = std::max(worstHere, d);
        }
        out.worst = std::max(out.worst, worstHere);
        uint8_t* px = &out.diff.rgba[p * 4];
        if (worstHere > def.channelTolerance)
        {
            ++out.differing;
            px[0] = 255;
            px[1] = 0;
            px[2] = 0;
        }
        else
        {
            const uint8_t* e = &expected.rgba[p * 4];
            const uint8_t grey = static_cast<uint8_t>((int(e[0]) + int(e[1]) + int(e[2])) / 12);
            px[0] = px[1] = px[2] = grey;
        }
        px[3] = 255;
    }
    const double allowed = def.maxDifferingFraction * static_cast<double>(pixels);
    out.equal = static_cast<double>(out.differing) <= allowed;
    return out;
}

} // namespace spark
