// RGBA8 images, PNG through lodepng, and the golden comparison (SPEC §6).

#include "spark/core/image.h"

#include "spark/core/path.h"

#include <lodepng.h>

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

Result<std::vector<uint8_t>> encodePng(const Image& image)
{
    if (image.width <= 0 || image.height <= 0 ||
        image.rgba.size() != static_cast<size_t>(image.width) * static_cast<size_t>(image.height) * 4u)
        return makeError("E_INTERNAL", "image has no pixels or a wrong buffer size");
    std::vector<unsigned char> out;
    const unsigned err = lodepng::encode(out, image.rgba, static_cast<unsigned>(image.width),
                                         static_cast<unsigned>(image.height));
    if (err != 0)
        return makeError("E_INTERNAL", std::string("PNG encoding failed: ") + lodepng_error_text(err));
    return out;
}

Result<Image> decodePng(const std::vector<uint8_t>& bytes)
{
    std::vector<unsigned char> pixels;
    unsigned w = 0, h = 0;
    // Read the header first: a small file can claim a huge picture.
    {
        lodepng::State state;
        if (lodepng_inspect(&w, &h, &state, bytes.data(), bytes.size()) != 0)
            return makeError("E_FORMAT", "not a readable PNG");
        if (static_cast<uint64_t>(w) * h > kMaxPngPixels)
            return makeError("E_FORMAT", "the PNG is larger than " + std::to_string(kMaxPngPixels) + " pixels");
    }
    const unsigned err = lodepng::decode(pixels, w, h, bytes);
    if (err != 0)
        return makeError("E_FORMAT", std::string("not a readable PNG: ") + lodepng_error_text(err));
    Image image;
    image.width = static_cast<int>(w);
    image.height = static_cast<int>(h);
    image.rgba = std::move(pixels);
    return image;
}

Status writePng(const std::filesystem::path& path, const Image& image)
{
    auto bytes = encodePng(image);
    if (!bytes.ok())
        return bytes.error();
    return writeBinaryFile(path, bytes.value().data(), bytes.value().size());
}

Result<Image> readPng(const std::filesystem::path& path)
{
    FileReadDef def = defaultFileReadDef();
    def.maxBytes = kMaxPngFileBytes;
    def.limitCode = "E_FORMAT";
    auto bytes = readBinaryFile(path, def);
    if (!bytes.ok())
        return bytes.error();
    return decodePng(bytes.value());
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
