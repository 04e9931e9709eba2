/* The WebAssembly module is the C API (spark/nav_c.h) alone: its functions are
 * kept by the link's EXPORTED_FUNCTIONS list (js/CMakeLists.txt). */
#include "spark/nav_c.h"
