/* A host process that knows nothing of cpudispatch: it loads each library
 * named on its command line with dlopen() and calls its NAME_compute() and
 * NAME_target() (NAME from the file name, libNAME.so), as a desktop
 * program loads a plugin or a pixel library. The libraries here have no
 * init function. It must outlive every library: it ends with "host: alive".
 *
 *   host LIB...     prints, per library, "host: NAME: RESULT TARGET" or
 *                   "host: NAME: not loaded: DLERROR" */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  for (int a = 1; a < argc; ++a) {
    const char *base = strrchr(argv[a], '/') ? strrchr(argv[a], '/') + 1 : argv[a];
    char name[256], sym[300];
    if (strncmp(base, "lib", 3) == 0) base += 3;
    snprintf(name, sizeof name, "%.*s", (int)strcspn(base, "."), base);
    void *h = dlopen(argv[a], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      printf("host: %s: not loaded: %s\n", name, dlerror());
      fflush(stdout);
      continue;
    }
    snprintf(sym, sizeof sym, "%s_compute", name);
    int (*compute)(int) = (int (*)(int))dlsym(h, sym);
    snprintf(sym, sizeof sym, "%s_target", name);
    const char *(*target)(void) = (const char *(*)(void))dlsym(h, sym);
    if (!compute || !target) {
      printf("host: %s: no %s_compute/%s_target\n", name, name, name);
      continue;
    }
    printf("host: %s: calling\n", name);
    fflush(stdout);
    const int r = compute(1000);
    printf("host: %s: %d %s\n", name, r, target());
    fflush(stdout);
  }
  printf("host: alive\n");
  return 0;
}
