/* The plug-in's host (tests/package/consumers.sh): loads the MODULE library
 * given as its first argument with dlopen, calls its plugin_run on the OBJ
 * given as the second, prints its line. Links nothing of Spark. */
#include <dlfcn.h>
#include <stdio.h>

typedef int (*PluginRun)(const char*, char*, size_t);

int main(int argc, char** argv)
{
    char line[8192];
    void* plugin;
    PluginRun run;
    int r;
    if (argc != 3)
    {
        fprintf(stderr, "usage: host PLUGIN.so FILE.obj\n");
        return 2;
    }
    plugin = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!plugin)
    {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return 1;
    }
    *(void**)&run = dlsym(plugin, "plugin_run");
    if (!run)
    {
        fprintf(stderr, "dlsym: %s\n", dlerror());
        return 1;
    }
    r = run(argv[2], line, sizeof line);
    puts(line);
    dlclose(plugin);
    return r;
}
