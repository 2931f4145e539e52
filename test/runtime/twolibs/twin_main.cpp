// Two shared libraries, each with its own copy of the runtime and a
// dispatched function of the same name: each must call its own targets and
// keep its own masks; a build that hands on (CPUD_BELOW) reaches the build
// below it in its own library, never the other's.
#include <cstdio>
#include <cstring>
#include <string>

extern "C" const char *twin_call_a();
extern "C" const char *twin_call_b();
extern "C" void twin_mask_baseline_only_a();
extern "C" void twin_chain_a(char *);
extern "C" void twin_chain_b(char *);

namespace {
// A chain of one library: every build named "LIB:", none twice, ending with
// its baseline build, and none of the other library's own targets (a has
// SSE42, X86_V3, AVX512_SKX; b has SSE41).
bool own_chain(const std::string &c, const char *lib, const char *const *foreign) {
  const std::string prefix = std::string(lib) + ":";
  std::size_t n = 0;
  for (std::size_t at = 0; at < c.size();) {
    const std::size_t end = c.find(' ', at);
    const std::string build = c.substr(at, end - at);
    if (build.compare(0, prefix.size(), prefix) != 0) return false;
    for (const char *const *f = foreign; *f; ++f)
      if (build == prefix + *f) return false;
    if (c.find(build + " ", end) != std::string::npos) return false;  // twice
    at = end + 1;
    ++n;
  }
  return n > 0 && c.size() >= prefix.size() + 9 && c.compare(c.size() - prefix.size() - 9, std::string::npos, prefix + "baseline ") == 0;
}
}  // namespace

int main() {
  const char *a = twin_call_a(), *b = twin_call_b();
  std::printf("a -> %s\nb -> %s\n", a, b);
  bool ok = !std::strncmp(a, "a:", 2) && !std::strncmp(b, "b:", 2);
  char ca[256], cb[256];
  twin_chain_a(ca);
  twin_chain_b(cb);
  std::printf("chains: a -> %s| b -> %s\n", ca, cb);
  static const char *const not_a[] = {"SSE41", "ASIMDHP", nullptr};
  static const char *const not_b[] = {"SSE42", "X86_V3", "AVX512_SKX", "ASIMDDP", nullptr};
  ok = ok && own_chain(ca, "a", not_a) && own_chain(cb, "b", not_b);
  // Each chain starts with the build the plain call selects.
  ok = ok && std::string(ca).compare(0, std::strlen(a) + 1, std::string(a) + " ") == 0 &&
       std::string(cb).compare(0, std::strlen(b) + 1, std::string(b) + " ") == 0;
  twin_mask_baseline_only_a();
  const char *a2 = twin_call_a(), *b2 = twin_call_b();
  std::printf("after masking a: a -> %s, b -> %s\n", a2, b2);
  ok = ok && !std::strcmp(a2, "a:baseline") && !std::strcmp(b2, b);
  char ca2[256], cb2[256];
  twin_chain_a(ca2);
  twin_chain_b(cb2);
  std::printf("after masking a: chains a -> %s| b -> %s\n", ca2, cb2);
  ok = ok && !std::strcmp(ca2, "a:baseline ") && !std::strcmp(cb2, cb);
  return ok ? 0 : 1;
}
