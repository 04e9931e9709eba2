# SPARK_LIBS_ONLY builds (ARM64, WebAssembly): the libraries' dependencies are
# header-only (glm, nlohmann_json, xxhash with XXH_INLINE_ALL), so no library of
# the target architecture is needed. Their headers come from the host's Debian
# packages through a folder of links: adding the host's /usr/include itself to a
# cross compiler's search path would put the host's libc headers first.
set(SPARK_HOST_INCLUDE_DIR "/usr/include" CACHE PATH "Where the host's glm, nlohmann and xxhash.h headers are")
set(_deps "${CMAKE_BINARY_DIR}/header_only_deps")
file(MAKE_DIRECTORY "${_deps}")
foreach(entry glm nlohmann xxhash.h)
  if(NOT EXISTS "${SPARK_HOST_INCLUDE_DIR}/${entry}")
    message(FATAL_ERROR "${SPARK_HOST_INCLUDE_DIR}/${entry} not found: scripts/setup installs libglm-dev, nlohmann-json3-dev and libxxhash-dev")
  endif()
  file(CREATE_LINK "${SPARK_HOST_INCLUDE_DIR}/${entry}" "${_deps}/${entry}" SYMBOLIC)
endforeach()
add_library(glm::glm INTERFACE IMPORTED)
set_target_properties(glm::glm PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${_deps}")
add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
set_target_properties(nlohmann_json::nlohmann_json PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${_deps}")
set(XXHASH_INCLUDE_DIR "${_deps}")
