// PNG encode/decode through lodepng: a library of the host only, so builds with
// header-only dependencies (SPARK_LIBS_ONLY: ARM64, WebAssembly) leave this file out.

#include "spark/core/image.h"

#include "spark/core/path.h"

#include <lodepng.h>

namespace spark
{

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

} // namespace spark
