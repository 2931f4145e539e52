// Two shared libraries, each with its own copy of the runtime and a
// dispatched function of the same name: each must call its own targets and
// keep its own masks.
#include <cstdio>
#include <cstring>

extern "C" const char *twin_call_a();
extern "C" const char *twin_call_b();
extern "C" void twin_mask_baseline_only_a();

int main() {
  const char *a = twin_call_a(), *b = twin_call_b();
  std::printf("a -> %s\nb -> %s\n", a, b);
  bool ok = !std::strncmp(a, "a:", 2) && !std::strncmp(b, "b:", 2);
  twin_mask_baseline_only_a();
  const char *a2 = twin_call_a(), *b2 = twin_call_b();
  std::printf("after masking a: a -> %s, b -> %s\n", a2, b2);
  ok = ok && !std::strcmp(a2, "a:baseline") && !std::strcmp(b2, b);
  return ok ? 0 : 1;
}
