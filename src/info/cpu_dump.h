/* SPDX-License-Identifier: MIT */
// Reading a description of a CPU for `cpudispatch-info --cpu-dump FILE`:
// the output of `cpuid -r` or an InstLatx64 dump (x86), or of
// `LD_SHOW_AUXV=1 /bin/true` (Linux hwcap arches). docs/info.md lists the
// accepted lines.
#ifndef CPUDISPATCH_INFO_CPU_DUMP_H_
#define CPUDISPATCH_INFO_CPU_DUMP_H_

#include <string>
#include <vector>

#include "cpudispatch/testing.h"  // a described CPU

namespace cpud_info {

struct cpu_dump {
  std::string arch;  // "x86_64", "aarch64", ...; "" when the dump cannot say
  std::vector<cpud_cpuid_leaf> leaves;
  cpud_cpu_report report{};  // points into leaves
};

// Reads `text` (the file's contents, named `path` in messages) for this
// build's arch. False with one line in `error` for a file that describes no
// CPU, or a CPU of another arch.
bool parse_cpu_dump(const std::string &text, const char *path, cpu_dump &out, std::string &error);

}  // namespace cpud_info

#endif
