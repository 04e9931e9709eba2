// nav.golden.update / nav.golden.check: store and compare debug pictures as
// goldens/nav/<name>.png with the tolerance of docs/debug-draw.md (2/255 per channel on at
// most 0.1 % of the pixels). A mismatch writes <name>.diff.png beside the golden
// and answers equal: false with the count and the worst difference; with the
// update-goldens flag (spark test --update-goldens, update_goldens: true) check
// writes the golden instead.

#include "commands/nav/debug_picture.h"

#include "spark/core/hash.h"

#include <filesystem>

namespace spark::cli
{
/// This file's own namespace: the unity build puts several command files in one
/// translation unit, where their unnamed namespaces would be one.
namespace nav_golden_commands
{
namespace
{

std::string goldenRel(const std::string& name) { return "goldens/nav/" + name + ".png"; }

json writeGolden(Context& ctx, const std::string& name, const DebugPicture& picture)
{
    const std::string rel = goldenRel(name);
    const auto file = ctx.resolvePath(rel, "/name");
    const Status written = writePng(file, picture.image);
    if (!written.ok())
        fail(written.error().code, written.error().message, {{"path", "/name"}, {"file", rel}});
    return {{"name", name},
            {"golden", rel},
            {"mesh", picture.mesh},
            {"width", picture.image.width},
            {"height", picture.image.height},
            {"pixels_hash", hashToHex(hashBytes(picture.image.rgba))}};
}

json navGoldenUpdate(Context& ctx, const json& params)
{
    const std::string name = params.at("name").get<std::string>();
    DebugPicture picture = renderDebugPicture(ctx, params);
    json out = writeGolden(ctx, name, picture);
    out["updated"] = true;
    return out;
}

json navGoldenCheck(Context& ctx, const json& params)
{
    const std::string name = params.at("name").get<std::string>();
    DebugPicture picture = renderDebugPicture(ctx, params);
    if (ctx.updateGoldens)
    {
        json out = writeGolden(ctx, name, picture);
        out["updated"] = true;
        out["equal"] = true;
        return out;
    }
    const std::string rel = goldenRel(name);
    const auto file = ctx.resolvePath(rel, "/name");
    auto golden = readPng(file);
    if (!golden.ok())
        fail(golden.error().code, "Cannot read the golden " + rel + ": " + golden.error().message,
             {{"path", "/name"}, {"file", rel}},
             "Create it with nav.golden.update or spark test --update-goldens.");
    const ImageDiff diff = compareImages(golden.value(), picture.image);
    json out = {{"name", name},
                {"golden", rel},
                {"mesh", picture.mesh},
                {"equal", diff.equal},
                {"updated", false},
                {"size_mismatch", diff.sizeMismatch},
                {"differing", diff.differing},
                {"worst", diff.worst},
                {"width", picture.image.width},
                {"height", picture.image.height},
                {"pixels_hash", hashToHex(hashBytes(picture.image.rgba))}};
    const std::string diffRel = "goldens/nav/" + name + ".diff.png";
    const auto diffFile = ctx.resolvePath(diffRel, "/name");
    if (!diff.equal)
    {
        if (!diff.sizeMismatch)
        {
            const Status written = writePng(diffFile, diff.diff);
            if (!written.ok())
                fail(written.error().code, written.error().message, {{"path", "/name"}, {"file", diffRel}});
            out["diff"] = diffRel;
        }
    }
    else
    {
        // A stale diff from an earlier mismatch would mislead: remove it.
        std::error_code ec;
        std::filesystem::remove(diffFile, ec);
    }
    return out;
}

const Registrar kNavGoldenUpdate{{"nav.golden.update",
                                  navGoldenUpdate,
                                  Mutates::No,
                                  nullptr,
                                  {.destructive = true, .idempotent = true, .writesFiles = true}}};
const Registrar kNavGoldenCheck{
    {"nav.golden.check", navGoldenCheck, Mutates::No, nullptr, {.writesFiles = true}}};

} // namespace
} // namespace nav_golden_commands
} // namespace spark::cli
