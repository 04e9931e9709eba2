#pragma once
/// \file view.h
/// `spark view`: the recording viewer (docs/recording.md, README "Seeing a run").
///
///     spark view FILE|DIR [--port N]    serves the page on 127.0.0.1 and prints its URL
///     spark view --html OUT.html FILE   writes one self-contained page, the recording inlined
///
/// The page (cli/view/page/) is built into the binary like the schemas and
/// loads nothing from the network: Canvas 2D drawn by hand, the recording
/// inflated by the browser's own gzip (DecompressionStream). The server
/// answers the page's path queries with the real library: it imports the mesh
/// document the recording holds at the frame asked for into a fresh session
/// and runs `nav.path` on it, so the page shows exactly what `nav.path`
/// answers. A `--html` page has no server: its query tool says so.

#include <filesystem>
#include <iosfwd>
#include <string>

namespace spark::cli
{

struct ViewOptions
{
    std::string input;                       ///< A recording file or a folder of them (`*.rec.gz`).
    std::string htmlOut;                     ///< Write a self-contained page here instead of serving.
    int port = 0;                            ///< Port on 127.0.0.1; 0 = any free port.
    std::filesystem::path projectRoot = "."; ///< Unused by the viewer's paths (given on the command line), kept for symmetry.
};

/// The page with the recording `name` (gzip bytes) inlined, or, with empty
/// bytes, the page that loads the recordings from its server.
std::string viewerPage(const std::string& name, const std::string& gzipBytes);

/// Runs `spark view`; returns the exit code (0 served until stopped / page
/// written, 1 unreadable recording or port in use, 2 usage).
int runView(const ViewOptions& options, std::ostream& out, std::ostream& err);

} // namespace spark::cli
