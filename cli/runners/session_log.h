#pragma once
/// \file session_log.h
/// `spark call --session FILE`: the state of a session is the replay of the
/// successful mutating commands logged in FILE (JSON lines of requests), so
/// one-off calls chain across processes.

#include "surface/dispatcher.h"

#include <filesystem>

namespace spark::cli
{

/// Largest session log replayed. [Units: bytes]
inline constexpr size_t kMaxSessionLogBytes = 256u * 1024u * 1024u;

/// Replays the log into `io` (a regular file, at most `kMaxSessionLogBytes`; none yet is a new session). Returns an error envelope when a line cannot be
/// replayed (the file is edited or a referenced file changed), else null.
json replaySessionLog(Dispatcher& dispatcher, scene::SessionState& io, const std::filesystem::path& log);

/// Appends one request line to the log (`E_IO` envelope on failure, else null).
json appendSessionLog(const std::filesystem::path& log, const std::string& id, const json& params);

} // namespace spark::cli
