// The detection oracle (cpu_oracle.h) on recorded CPUs that are not this
// machine: every x86 record under test/cpus/x86_64 that carries the
// kernel's /proc/cpuinfo flags of its machine (a "# kernel-flags:" line) is
// replayed through the oracle (those flags plus the test's own CPUID reader
// over the record's leaves) and through cpudispatch's detection of the
// described CPU (cpud_detect_cpu). They must agree on every row.
//
// The control: on the AVX10 guest (Linux 6.18 lists no AVX10 flag) and the
// Zen 5 guest (its kernel lists no "abm") the kernel's flags alone, the
// oracle before issue 25, must disagree with detection: that is what made
// the suite fail on the first of them.
//
//   oracle_records_test RECORDS_DIR
#include "cpudispatch/testing.h"
#include <dirent.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cpu_dump.h"
#include "cpu_oracle.h"
#include "cpudispatch/cpudispatch.h"

namespace {

std::string g_dir;

struct record {
  std::string name, text, kernel_flags;
};

std::vector<record> records() {
  std::vector<record> out;
  DIR *d = opendir(g_dir.c_str());
  if (!d) return out;
  while (dirent *e = readdir(d)) {
    std::string n = e->d_name;
    if (n.size() < 5 || n.compare(n.size() - 4, 4, ".txt")) continue;
    std::ifstream f(g_dir + "/" + n);
    std::stringstream s;
    s << f.rdbuf();
    record r{n, s.str(), ""};
    std::istringstream lines(r.text);
    for (std::string l; std::getline(lines, l);)
      if (l.rfind("# kernel-flags:", 0) == 0) r.kernel_flags = l.substr(15);
    if (!r.kernel_flags.empty()) out.push_back(r);
  }
  closedir(d);
  std::sort(out.begin(), out.end(), [](const record &a, const record &b) { return a.name < b.name; });
  return out;
}

// CPUID over a record's leaves: zero where it has none.
void record_cpuid(void *ctx, unsigned leaf, unsigned subleaf, unsigned r[4]) {
  const cpud_cpu_report &rep = *static_cast<const cpud_cpu_report *>(ctx);
  r[0] = r[1] = r[2] = r[3] = 0;
  for (std::size_t i = 0; i < rep.leaf_count; ++i)
    if (rep.leaves[i].leaf == leaf && rep.leaves[i].subleaf == subleaf) {
      r[0] = rep.leaves[i].eax, r[1] = rep.leaves[i].ebx, r[2] = rep.leaves[i].ecx, r[3] = rep.leaves[i].edx;
      return;
    }
}

TEST(OracleOnRecords, AgreesWithDetectionWhereTheKernelsListAloneDoesNot) {
  const std::vector<record> recs = records();
  ASSERT_GE(recs.size(), 2u) << "records with a kernel-flags line in " << g_dir;
  std::map<std::string, std::vector<std::string>> kernel_only_wrong;
  for (const record &rec : recs) {
    cpud_info::cpu_dump dump;
    std::string error;
    ASSERT_TRUE(cpud_info::parse_cpu_dump(rec.text, rec.name.c_str(), dump, error)) << error;
    const cpud_cpu_report &rep = dump.report;
    // The dump grammar's rule for OS state: its XCR0 line, else all that
    // CPUID.(0Dh,0) says the CPU can save.
    unsigned d[4];
    record_cpuid(const_cast<cpud_cpu_report *>(&rep), 0xd, 0, d);
    const unsigned long long xcr0 = rep.has_xcr0 ? rep.xcr0 : (static_cast<unsigned long long>(d[3]) << 32) | d[0];
    char buf[4096];
    oracle_cpuid_flags(record_cpuid, const_cast<cpud_cpu_report *>(&rep), xcr0, !rep.amx_denied, buf, sizeof buf);
    const std::set<std::string> kernel = oracle::flags_of(rec.kernel_flags.c_str());
    std::set<std::string> have = oracle::flags_of(buf);
    have.insert(kernel.begin(), kernel.end());
    const cpud::feature_set det = cpud_detect_cpu(&rep);
    for (const auto &r : oracle::x86_rows()) {
      const int id = cpud_feature_by_name(r.feature);
      ASSERT_NE(id, 0) << r.feature;
      EXPECT_EQ(det.has(id), oracle::has_all(have, r.flags)) << rec.name << ": " << r.feature;
      if (det.has(id) != oracle::has_all(kernel, r.flags)) kernel_only_wrong[rec.name].push_back(r.feature);
    }
  }
  for (const auto &k : kernel_only_wrong) {
    std::string rows;
    for (const auto &f : k.second) rows += " " + f;
    std::printf("%s: the kernel's flags alone would expect wrongly:%s\n", k.first.c_str(), rows.c_str());
  }
  // The controls.
  const auto &avx10 = kernel_only_wrong["intel-avx10-kvm-guest.txt"];
  EXPECT_NE(std::find(avx10.begin(), avx10.end(), std::string("AVX10_1")), avx10.end())
      << "on the AVX10 guest the kernel's flags alone must miss AVX10_1";
  const auto &zen5 = kernel_only_wrong["amd-zen5-kvm-guest.txt"];
  EXPECT_NE(std::find(zen5.begin(), zen5.end(), std::string("LZCNT")), zen5.end())
      << "on the Zen 5 guest the kernel's flags alone must miss LZCNT";
}

}  // namespace

int main(int argc, char **argv) {
  testing::InitGoogleTest(&argc, argv);
  if (argc != 2) {
    std::fprintf(stderr, "usage: oracle_records_test RECORDS_DIR\n");
    return 2;
  }
  g_dir = argv[1];
  return RUN_ALL_TESTS();
}
