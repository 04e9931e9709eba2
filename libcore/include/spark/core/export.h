/* export.h — what the shared libraries export (C and C++; Linux and other ELF
 * platforms with GCC or Clang, README "Supported platforms").
 *
 * The libraries are compiled with -fvisibility=hidden and
 * -fvisibility-inlines-hidden: nothing leaves a shared library unless it is
 * marked here. The API is the C API (spark/nav_c.h) and the public C++
 * headers: each public header opens its declarations (after its #includes)
 * with SPARK_<LIB>_API_BEGIN and closes them with SPARK_<LIB>_API_END, so what
 * it declares is exported and nothing else is. SPARK_<LIB>_API marks a single
 * declaration; SPARK_INTERNAL keeps a library's own class that a public
 * header names (a friend) out. The same objects make the static libraries, where the marks
 * change nothing. tests/package/symbols.sh checks the exported list.
 */
#ifndef SPARK_CORE_EXPORT_H
#define SPARK_CORE_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define SPARK_VISIBLE_ __attribute__((visibility("default")))
#define SPARK_INTERNAL __attribute__((visibility("hidden")))
#define SPARK_VISIBLE_BEGIN_ _Pragma("GCC visibility push(default)")
#define SPARK_VISIBLE_END_ _Pragma("GCC visibility pop")
#else
#define SPARK_VISIBLE_
#define SPARK_INTERNAL
#define SPARK_VISIBLE_BEGIN_
#define SPARK_VISIBLE_END_
#endif

/* One set per library (on ELF they mean the same; a DLL port would tell
 * exporting from importing per library here). */
#define SPARK_CORE_API SPARK_VISIBLE_
#define SPARK_CORE_API_BEGIN SPARK_VISIBLE_BEGIN_
#define SPARK_CORE_API_END SPARK_VISIBLE_END_
#define SPARK_NAV_API SPARK_VISIBLE_
#define SPARK_NAV_API_BEGIN SPARK_VISIBLE_BEGIN_
#define SPARK_NAV_API_END SPARK_VISIBLE_END_
#define SPARK_AI_API SPARK_VISIBLE_
#define SPARK_AI_API_BEGIN SPARK_VISIBLE_BEGIN_
#define SPARK_AI_API_END SPARK_VISIBLE_END_
#define SPARK_SCENE_API SPARK_VISIBLE_
#define SPARK_SCENE_API_BEGIN SPARK_VISIBLE_BEGIN_
#define SPARK_SCENE_API_END SPARK_VISIBLE_END_

#endif
