// SPDX-License-Identifier: MIT
// Parses the dumps cpudispatch-info --cpu-dump accepts. Lines it does not
// know are skipped (dumps carry much else: cache and topology text, other
// auxv entries); a line that starts like a known one but does not parse is
// an error, naming the line.
#include "cpu_dump.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace cpud_info {
namespace {

// glibc prints ppc64le's and s390x's hwcap words as names (LD_SHOW_AUXV):
// its names, bit 0 first (sysdeps/powerpc/dl-procinfo.c,
// sysdeps/s390/dl-procinfo.c; bits as in the kernels' uapi headers).
const char *const k_ppc_hwcap[32] = {
    "ppcle",  "true_le", "",       "",       "",     "",          "archpmu",   "vsx",
    "arch_2_06", "power6x", "dfp",  "pa6t",   "arch_2_05", "ic_snoop", "smt",  "booke",
    "cellbe", "power5+", "power5", "power4", "notb", "efpdouble", "efpsingle", "spe",
    "ucache", "4xxmac",  "mmu",    "fpu",    "altivec", "ppc601", "ppc64",    "ppc32"};
const char *const k_ppc_hwcap2[32] = {
    "",     "",    "",     "",       "",         "",        "",       "",
    "",     "",    "",     "",       "",         "",        "",       "",
    "",     "mma", "arch_3_1", "htm-no-suspend", "scv", "darn", "ieee128", "arch_3_00",
    "htm-nosc", "vcrypto", "tar", "isel", "ebb", "dscr",  "htm",    "arch_2_07"};
// 32-bit arm (sysdeps/unix/sysv/linux/arm/dl-procinfo.c): AT_HWCAP's first
// 22 bits by name; AT_HWCAP2's bits 0-4 are the table's entries 22-26. glibc
// 2.36 prints no name for AT_HWCAP bits 22 and up (Linux 6.2's fphp asimdhp
// asimddp asimdfhm ...): such a dump loses them, a hex word keeps them.
const char *const k_arm_hwcap[32] = {
    "swp",  "half", "thumb", "26bit", "fastmult", "fpa", "vfp",   "edsp",   "java", "iwmmxt", "crunch",
    "thumbee", "neon", "vfpv3", "vfpv3d16", "tls", "vfpv4", "idiva", "idivt", "vfpd32", "lpae", "evtstrm",
    "",     "",     "",      "",      "",         "",    "",      "",       "",     ""};
const char *const k_arm_hwcap2[32] = {"aes", "pmull", "sha1", "sha2", "crc32", "", "", "", "", "", "", "", "", "", "",
                                      "",    "",      "",     "",     "",      "", "", "", "", "", "", "", "", "", "",
                                      "",    ""};
const char *const k_s390_hwcap[32] = {
    "esan3", "zarch", "stfle", "msa", "ldisp", "eimm", "dfp", "edat", "etf3eh", "highgprs", "te",
    "vx",    "vxd",   "vxe",   "gs",  "vxe2",  "vxp",  "sort", "dflt", "vxp2", "nnpa",     "pcimio",
    "sie",   "",      "",      "",    "",      "",     "",     "",     "",     ""};

std::string trim(const std::string &s) {
  std::size_t b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

bool starts_with(const std::string &s, const char *p) { return s.compare(0, std::strlen(p), p) == 0; }

// A whole token of hex digits, with or without 0x.
bool parse_hex(const std::string &tok, std::uint64_t &v) {
  std::string t = tok;
  if (starts_with(t, "0x") || starts_with(t, "0X")) t = t.substr(2);
  if (t.empty() || t.size() > 16 || t.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) return false;
  v = std::strtoull(t.c_str(), nullptr, 16);
  return true;
}

bool parse_dec(const std::string &tok, long &v) {
  if (tok.empty() || tok.size() > 9 || tok.find_first_not_of("0123456789") != std::string::npos) return false;
  v = std::strtol(tok.c_str(), nullptr, 10);
  return true;
}

// Bits of `names` (space-separated) in one of the name tables above; the
// arch the names belong to in `arch`. False naming the first unknown name.
bool parse_names(const std::string &names, bool second_word, std::uint64_t &v, std::string &arch,
                 std::string &unknown) {
  v = 0;
  std::size_t i = 0;
  while (i < names.size()) {
    std::size_t j = names.find(' ', i);
    if (j == std::string::npos) j = names.size();
    std::string n = names.substr(i, j - i);
    i = j + 1;
    if (n.empty()) continue;
    bool found = false;
    struct table {
      const char *const *names;
      const char *arch;
      bool second;
    } tables[] = {{k_ppc_hwcap, "ppc64le", false}, {k_ppc_hwcap2, "ppc64le", true}, {k_s390_hwcap, "s390x", false},
                  {k_arm_hwcap, "arm", false},       {k_arm_hwcap2, "arm", true}};
    for (const table &t : tables) {
      if (t.second != second_word) continue;
      for (int b = 0; b < 32 && !found; ++b) {
        if (t.names[b][0] && n == t.names[b]) {
          if (!arch.empty() && arch != t.arch) return unknown = n, false;
          arch = t.arch;
          v |= std::uint64_t{1} << b;
          found = true;
        }
      }
    }
    if (!found) return unknown = n, false;
  }
  return true;
}

// AT_PLATFORM's value -> arch ("" when unknown).
std::string platform_arch(const std::string &p) {
  if (p == "x86_64" || p == "i686" || p == "i586" || p == "i386") return "x86_64";
  if (p == "aarch64" || starts_with(p, "aarch64")) return "aarch64";
  if (starts_with(p, "power") || starts_with(p, "ppc")) return "ppc64le";
  if (p.size() >= 2 && p[0] == 'z' && (p[1] >= '0' && p[1] <= '9')) return "s390x";
  if (starts_with(p, "zEC") || starts_with(p, "zBC")) return "s390x";
  if (starts_with(p, "riscv")) return "riscv64";
  // 32-bit arm: "v" + the architecture version + the endianness ("v7l";
  // "v8l" from an aarch64 kernel running a 32-bit program).
  if (p.size() == 3 && p[0] == 'v' && p[1] >= '4' && p[1] <= '8' && (p[2] == 'l' || p[2] == 'b')) return "arm";
  return "";
}

}  // namespace

bool parse_cpu_dump(const std::string &text, const char *path, cpu_dump &out, std::string &error) {
  out = cpu_dump{};
  bool x86 = false, auxv = false, have_hwcap = false, have_hwcap2 = false;
  bool first_cpu_done = false;  // a second CPU's block began
  std::string cpu_header;       // the first block's header ("CPU 0:", "CPU#000")
  std::string aux_arch;         // arch the auxv lines say
  std::vector<std::string> aux_keys;  // AT_ keys of the current vector
  const char *aux_why = "";
  std::size_t pos = 0;
  int lineno = 0;
  auto fail = [&](const std::string &why) {
    error = std::string(path) + ":" + std::to_string(lineno) + ": " + why;
    return false;
  };
  auto add_leaf = [&](std::uint64_t leaf, std::uint64_t sub, const std::uint64_t r[4]) {
    for (const cpud_cpuid_leaf &l : out.leaves)
      if (l.leaf == leaf && l.subleaf == sub) return;  // the first copy counts
    out.leaves.push_back(cpud_cpuid_leaf{static_cast<std::uint32_t>(leaf), static_cast<std::uint32_t>(sub),
                                         static_cast<std::uint32_t>(r[0]), static_cast<std::uint32_t>(r[1]),
                                         static_cast<std::uint32_t>(r[2]), static_cast<std::uint32_t>(r[3])});
  };
  auto note_arch = [&](const std::string &a, const char *why) {
    if (a.empty()) return true;
    if (!aux_arch.empty() && aux_arch != a) return false;
    aux_arch = a;
    aux_why = why;
    return true;
  };
  while (pos <= text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    const std::string line = trim(text.substr(pos, nl - pos));
    pos = nl + 1;
    ++lineno;
    if (line.empty() || line[0] == '#') continue;
    // Several CPUs in one dump (cpuid -r: "CPU 3:", InstLatx64: "CPU#003"):
    // the first one's leaves count.
    if ((starts_with(line, "CPU ") || starts_with(line, "CPU#") || line == "CPU:") &&
        line.find(':') != std::string::npos && !starts_with(line, "CPUID")) {
      std::string h = line.substr(0, line.find_first_of(" :", 4));
      if (cpu_header.empty())
        cpu_header = h;
      else if (h != cpu_header && !out.leaves.empty())
        first_cpu_done = true;
      continue;
    }
    if (starts_with(line, "CPUID ")) {  // InstLatx64
      unsigned leaf, r[4];
      int n = 0;
      if (std::sscanf(line.c_str(), "CPUID %8x: %8x-%8x-%8x-%8x%n", &leaf, &r[0], &r[1], &r[2], &r[3], &n) != 5)
        return fail("not an InstLatx64 CPUID line (\"CPUID 00000007: EAX-EBX-ECX-EDX [SL 00]\")");
      unsigned sub = 0;
      std::size_t sl = line.find("[SL ", static_cast<std::size_t>(n));
      if (sl != std::string::npos && std::sscanf(line.c_str() + sl, "[SL %2x]", &sub) != 1)
        return fail("bad subleaf (\"[SL xx]\", hex)");
      x86 = true;
      const std::uint64_t v[4] = {r[0], r[1], r[2], r[3]};
      if (!first_cpu_done) add_leaf(leaf, sub, v);
      continue;
    }
    if (starts_with(line, "0x") && line.find("eax=") != std::string::npos) {  // cpuid -r
      unsigned leaf, sub, r[4];
      if (std::sscanf(line.c_str(), "0x%x 0x%x: eax=0x%x ebx=0x%x ecx=0x%x edx=0x%x", &leaf, &sub, &r[0], &r[1],
                      &r[2], &r[3]) != 6)
        return fail("not a cpuid -r line (\"0x00000007 0x00: eax=0x... ebx=0x... ecx=0x... edx=0x...\")");
      x86 = true;
      const std::uint64_t v[4] = {r[0], r[1], r[2], r[3]};
      if (!first_cpu_done) add_leaf(leaf, sub, v);
      continue;
    }
    std::size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = trim(line.substr(0, colon)), val = trim(line.substr(colon + 1));
    std::uint64_t v = 0;
    if (starts_with(key, "AT_")) {
      // A key seen before starts another vector (under qemu-user,
      // LD_SHOW_AUXV prints qemu's own vector, then the emulated
      // program's): the last one counts.
      bool again = false;
      for (const std::string &k : aux_keys) again = again || k == key;
      if (again) {
        out.report.hwcap = out.report.hwcap2 = 0;
        have_hwcap = have_hwcap2 = false;
        aux_arch.clear();
        aux_keys.clear();
      }
      aux_keys.push_back(key);
    }
    if (key == "XCR0") {
      if (!parse_hex(val, v)) return fail("XCR0 needs a hex value");
      out.report.has_xcr0 = 1;
      out.report.xcr0 = v;
      x86 = true;
    } else if (key == "AT_HWCAP" || key == "AT_HWCAP2") {
      const bool second = key == "AT_HWCAP2";
      if (!parse_hex(val, v)) {
        std::string arch, unknown;
        if (!parse_names(val, second, v, arch, unknown))
          return fail("\"" + unknown + "\" is neither a hex word nor a hwcap name glibc prints (ppc64le, s390x, arm)");
        if (!note_arch(arch, "its hwcap names")) return fail("hwcap names of " + arch + " next to a dump of " + aux_arch);
      }
      (second ? out.report.hwcap2 : out.report.hwcap) = static_cast<unsigned long>(v);
      (second ? have_hwcap2 : have_hwcap) = true;
      auxv = true;
    } else if (key == "AT_PLATFORM") {
      if (!note_arch(platform_arch(val), "AT_PLATFORM"))
        return fail("AT_PLATFORM " + val + " next to a dump of " + aux_arch);
    } else if (starts_with(key, "HWPROBE ")) {
      long k = 0;
      if (!parse_dec(trim(key.substr(8)), k) || !parse_hex(val, v))
        return fail("not a hwprobe line (\"HWPROBE 4: 0x...\": decimal key, hex value)");
      if (k == 4) {
        out.report.has_hwprobe = 1;
        out.report.hwprobe_ima_ext_0 = v;
      }
      if (!note_arch("riscv64", "its HWPROBE lines")) return fail("HWPROBE next to a dump of " + aux_arch);
    } else if (key == "SVE_VL" || key == "VLENB") {
      long b = 0;
      if (!parse_dec(val, b)) return fail(key + " needs a decimal number of bytes");
      out.report.vector_bytes = static_cast<int>(b);
      if (!note_arch(key == "SVE_VL" ? "aarch64" : "riscv64", key == "SVE_VL" ? "SVE_VL" : "VLENB"))
        return fail(key + " next to a dump of " + aux_arch);
    }
  }
  lineno = 0;
  const std::string p(path);
  if (x86 && auxv) return error = p + ": has both CPUID leaves and AT_HWCAP lines: one CPU per file", false;
  if (!x86 && !auxv)
    return error = p + ": describes no CPU: no CPUID leaf (cpuid -r, InstLatx64) and no AT_HWCAP line "
                       "(LD_SHOW_AUXV=1 /bin/true)",
           false;
  if (x86 && out.leaves.empty()) return error = p + ": an XCR0 line but no CPUID leaf", false;
  const std::string build = CPUD_ARCH;
  // A 32-bit program reads the same CPUID as a 64-bit one: both x86 builds
  // take a CPUID dump as a CPU of their own arch.
  const bool x86_build = build == "x86_64" || build == "x86";
  out.arch = x86 ? (x86_build ? build : "x86_64") : aux_arch;
  if (x86 && !x86_build)
    return error = p + ": describes an x86 CPU (CPUID leaves); this build of cpudispatch is for " + build, false;
  if (auxv && x86_build)
    return error = p + ": is an auxiliary-vector dump" + (aux_arch.empty() ? "" : " of " + aux_arch) + "; on " +
                   build + " detection reads CPUID: give `cpuid -r` output or an InstLatx64 dump",
           false;
  if (auxv && !aux_arch.empty() && aux_arch != build)
    return error = p + ": describes a " + aux_arch + " CPU (" + aux_why + "); this build of cpudispatch is for " +
                   build,
           false;
  if (auxv && !have_hwcap) return error = p + ": AT_HWCAP2 but no AT_HWCAP line", false;
  if (out.arch.empty()) out.arch = build;
  out.report.leaves = out.leaves.data();
  out.report.leaf_count = out.leaves.size();
  return true;
}

}  // namespace cpud_info
