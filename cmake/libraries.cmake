# The libraries as a game or an engine plug-in links them (README "Embedding").
#
# spark_core, spark_nav, spark_ai and spark_scene are static libraries, built
# position-independent (so they link into a plug-in's shared object) with
# hidden visibility: only what the public headers declare between
# SPARK_<LIB>_API_BEGIN and _END (spark/core/export.h) is visible outside. The
# CLI and the tests link them.
#
# spark_<lib>_shared is the same library as a shared object (libspark_<lib>.so,
# VERSION 0.2.0, SOVERSION 0.2: before 1.0 a minor version may break the ABI),
# linked from the static library's own object files: nothing is compiled twice,
# the shared libraries cost four links. Each links the shared libraries it
# depends on; a version script (cmake/spark.map) keeps the template code of the
# standard library that the API's types instantiate out of the exported list.
#
# Both kinds are installed; BUILD_SHARED_LIBS picks which one the CMake package
# hands out by default (cmake/sparkConfig.cmake.in).
set(SPARK_LIBRARIES core nav ai scene)
set(SPARK_SHARED_DEPENDS_core "")
set(SPARK_SHARED_DEPENDS_nav spark_core_shared)
set(SPARK_SHARED_DEPENDS_ai spark_core_shared)
set(SPARK_SHARED_DEPENDS_scene spark_core_shared spark_nav_shared spark_ai_shared)
set(SPARK_EXTERNAL_DEPENDS_core glm::glm)
set(SPARK_EXTERNAL_DEPENDS_nav glm::glm Threads::Threads) # the tiled bake's thread pool
set(SPARK_EXTERNAL_DEPENDS_ai glm::glm nlohmann_json::nlohmann_json)
set(SPARK_EXTERNAL_DEPENDS_scene glm::glm nlohmann_json::nlohmann_json)

foreach(lib IN LISTS SPARK_LIBRARIES)
  set_target_properties(spark_${lib} PROPERTIES POSITION_INDEPENDENT_CODE ON
    C_VISIBILITY_PRESET hidden CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  # The public headers are C++20 (std::span, concepts): a consumer compiles them as C++20.
  target_compile_features(spark_${lib} PUBLIC cxx_std_20)

  add_library(spark_${lib}_shared SHARED $<TARGET_OBJECTS:spark_${lib}>)
  set_target_properties(spark_${lib}_shared PROPERTIES OUTPUT_NAME spark_${lib} EXPORT_NAME ${lib}
    VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}
    # Finds its sibling libraries where it lies (an install, a Python package's copy).
    BUILD_RPATH "$ORIGIN" INSTALL_RPATH "$ORIGIN"
    LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib # build/release/lib/libspark_*.so*
    LINK_DEPENDS ${PROJECT_SOURCE_DIR}/cmake/spark.map)
  target_include_directories(spark_${lib}_shared PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/lib${lib}/include>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/generated/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_compile_features(spark_${lib}_shared PUBLIC cxx_std_20)
  target_link_libraries(spark_${lib}_shared PUBLIC spark_determinism ${SPARK_SHARED_DEPENDS_${lib}}
                        ${SPARK_EXTERNAL_DEPENDS_${lib}} PRIVATE $<BUILD_INTERFACE:spark_flags>)
  # Only the API exported, and every symbol resolved at link time (not under
  # the sanitizers, whose runtime only an executable links).
  target_link_options(spark_${lib}_shared PRIVATE -Wl,--version-script=${PROJECT_SOURCE_DIR}/cmake/spark.map
                      $<$<NOT:$<BOOL:${SPARK_SANITIZE}>>:-Wl,--no-undefined>)
endforeach()
target_link_libraries(spark_core_shared PRIVATE lodepng)
if(NOT SPARK_LIBS_ONLY)
  target_link_libraries(spark_scene_shared PRIVATE ZLIB::ZLIB) # recordings (libscene/CMakeLists.txt)
endif()
add_custom_target(spark_shared_libraries DEPENDS spark_core_shared spark_nav_shared spark_ai_shared spark_scene_shared)
