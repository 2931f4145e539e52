// docs/porting-from-numpy.md's NumPy 2.5.2 table (block numpy25-table): its
// cpudispatch column is what the runtime's mask rules give, on a CPU with
// every level and group of the row's build (baseline X86_V2; targets X86_V3
// X86_V4 AVX512_ICL AVX512_SPR: NumPy 2.5's defaults).
//   numpy25_table_test DOCS/porting-from-numpy.md
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "env_masks.h"

namespace {
const char *g_doc = nullptr;
const char *const k_targets[] = {"X86_V3", "X86_V4", "AVX512_ICL", "AVX512_SPR"};

std::vector<std::string> cells(const std::string &row) {
  std::vector<std::string> out;
  std::stringstream in(row);
  std::string c;
  std::getline(in, c, '|');  // before the first bar
  while (std::getline(in, c, '|')) out.push_back(std::regex_replace(c, std::regex("^ +| +$"), ""));
  return out;
}

struct row {
  std::string line, kind;
  std::vector<std::string> names;  // the variable's value, then each "(or ...)" alternative
  std::string want;                // the cpudispatch cell up to ';'
};

std::vector<row> read_rows() {
  std::ifstream f(g_doc);
  std::string l;
  bool in = false;
  std::vector<row> rows;
  while (std::getline(f, l)) {
    if (l.find("<!-- numpy25-table:start -->") != std::string::npos) in = true;
    if (l.find("<!-- numpy25-table:end -->") != std::string::npos) break;
    if (!in || l.rfind("| `", 0) != 0) continue;
    const auto c = cells(l);
    std::smatch m;
    row r;
    r.line = l;
    if (c.size() < 3 || !std::regex_search(c[0], m, std::regex("^`(DISABLE|ENABLE)=([A-Za-z0-9_]+)`"))) continue;
    r.kind = m[1];
    r.names.push_back(m[2]);
    const std::string rest = m.suffix();
    static const std::regex quoted("`([A-Za-z0-9_]+)`");
    for (std::sregex_iterator it(rest.begin(), rest.end(), quoted), end; it != end; ++it)
      r.names.push_back((*it)[1]);
    r.want = c[2].substr(0, c[2].find(';'));
    rows.push_back(r);
  }
  return rows;
}

cpud_mask with_implied_of(std::initializer_list<int> ids) {
  cpud_mask m = cpud_mask_none();
  for (int id : ids) m = cpud_mask_with(m, id);
  return cpud_with_implied(m);
}

// What the cpudispatch column says for `value`: "status 78..." or the usable
// targets ("none", "all four", or names).
std::string outcome(const std::string &kind, const std::string &value) {
  cpud::internal::env_inputs in{};
  const std::string v = value;
  in.disable = kind == "DISABLE" ? v.c_str() : nullptr;
  in.enable = kind == "ENABLE" ? v.c_str() : nullptr;
  const cpud_mask targets = with_implied_of({CPUD_FEATURE_X86_V3, CPUD_FEATURE_X86_V4, CPUD_FEATURE_AVX512_ICL,
                                             CPUD_FEATURE_AVX512_SPR});
  in.baseline = with_implied_of({CPUD_FEATURE_X86_V2});
  in.usable = cpud_mask_or(targets, in.baseline);  // the CPU has all of them
  in.dispatched = cpud_mask_andnot(targets, in.baseline);
  in.targets = cpud_mask_none();
  for (const char *t : k_targets) in.targets = cpud_mask_with(in.targets, cpud_feature_by_name(t));
  in.compiled = 1;
  const auto o = cpud::internal::apply_env_masks(in);
  if (!o.ok) return "status 78";
  std::string s;
  int n = 0;
  for (const char *t : k_targets)
    if (cpud_mask_has(o.usable, cpud_feature_by_name(t))) s += (n++ ? " " : "") + std::string(t);
  return n == 0 ? "none" : n == 4 ? "all four" : s;
}

TEST(Numpy25Table, CpudispatchColumnIsTheRuntimesRule) {
  const auto rows = read_rows();
  ASSERT_GE(rows.size(), 10u) << g_doc << ": the numpy25-table block is missing or lost rows";
  for (const auto &r : rows)
    for (const auto &name : r.names) {
      std::string want = r.want;
      if (want.rfind("status 78", 0) == 0) want = "status 78";
      EXPECT_EQ(outcome(r.kind, name), want) << r.kind << "=" << name << " in row: " << r.line;
    }
}

// The control: the rule the test reads is what decides (a row's column
// changed to NumPy's answer must not pass).
TEST(Numpy25Table, NumpysAnswerIsNotOurs) {
  EXPECT_NE(outcome("DISABLE", "X86_V3"), "X86_V4 AVX512_ICL AVX512_SPR");
  EXPECT_NE(outcome("ENABLE", "AVX512_SPR"), "AVX512_SPR");
}
}  // namespace

int main(int argc, char **argv) {
  testing::InitGoogleTest(&argc, argv);
  if (argc != 2) {
    std::fprintf(stderr, "usage: numpy25_table_test DOCS/porting-from-numpy.md\n");
    return 2;
  }
  g_doc = argv[1];
  return RUN_ALL_TESTS();
}
