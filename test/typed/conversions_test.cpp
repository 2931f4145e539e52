// The built-in conversion matrix (cpudispatch/dtype.hpp) against the table
// Numba's rules give (numba_conversions.txt, committed data), cell by cell,
// plus what the rules promise in words, checked by the compiler; with
// --numpy, NumPy's rule set against the table NumPy wrote
// (numpy_conversions.txt).
//   conversions_test TABLE [--numpy]   (exit 0 pass, 1 fail)
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "cpudispatch/dtype.hpp"
#include "typed_doc_conversions.h"  // docs/typed.md's example, as written

using cpud::conversion;
using cpud::dtype;

// Usable in constant expressions: kernels' tables can be built from it.
static_assert(cpud::can_convert(dtype::int32, dtype::int32) == conversion::exact);
static_assert(cpud::can_convert(dtype::int8, dtype::int32) == conversion::promote);   // chained promotions
static_assert(cpud::can_convert(dtype::int32, dtype::complex128) == conversion::safe);  // via float64
static_assert(cpud::can_convert(dtype::int32, dtype::complex64) == conversion::unsafe);
static_assert(cpud::can_convert(dtype::complex128, dtype::float64) == conversion::none);
static_assert(cpud::dtype_v<double> == dtype::float64 && cpud::dtype_v<std::complex<float>> == dtype::complex64);
static_assert(cpud::dtype_v<std::uint8_t> == dtype::uint8 && cpud::dtype_v<bool> == dtype::bool_);
#if defined(CPUD_HAVE_FLOAT16)
static_assert(cpud::dtype_v<_Float16> == dtype::float16);
#endif

namespace {

int failures = 0;

void fail(const std::string &what) {
  std::printf("FAIL: %s\n", what.c_str());
  ++failures;
}

dtype code(int i) { return static_cast<dtype>(i); }

bool parse_kind(const std::string &s, conversion *out) {
  for (int k = 0; k <= static_cast<int>(conversion::none); ++k)
    if (s == cpud::conversion_name(static_cast<conversion>(k))) {
      *out = static_cast<conversion>(k);
      return true;
    }
  return false;
}

std::vector<std::string> split(const char *line) {
  std::istringstream in(line);
  std::vector<std::string> w;
  for (std::string x; in >> x;) w.push_back(x);
  return w;
}

// The committed table, cell by cell: every built-in type a row and a column,
// in the file's own order (matched by name, not by position).
using kind_fn = conversion (*)(dtype, dtype);

void check_table(const char *path, kind_fn kind, const char *rules) {
  std::FILE *f = std::fopen(path, "r");
  if (!f) return fail(std::string("cannot read ") + path);
  char line[1024];
  std::vector<int> columns;
  int cells = 0, rows = 0;
  auto find = [](const std::string &name) {
    for (int i = 0; i < cpud::k_builtin_dtypes; ++i)
      if (name == cpud::dtype_name(code(i))) return i;
    return -1;
  };
  while (std::fgets(line, sizeof line, f)) {
    if (line[0] == '#') continue;
    std::vector<std::string> w = split(line);
    if (w.empty()) continue;
    if (w[0] == "from\\to") {
      for (std::size_t i = 1; i < w.size(); ++i) {
        columns.push_back(find(w[i]));
        if (columns.back() < 0) fail("unknown type in the header: " + w[i]);
      }
      continue;
    }
    const int from = find(w[0]);
    if (from < 0 || w.size() != columns.size() + 1) {
      fail("malformed row: " + std::string(line));
      continue;
    }
    ++rows;
    for (std::size_t c = 0; c < columns.size(); ++c) {
      conversion want;
      if (!parse_kind(w[c + 1], &want)) {
        fail("unknown kind " + w[c + 1]);
        continue;
      }
      const conversion got = kind(code(from), code(columns[c]));
      ++cells;
      if (got != want)
        fail(std::string(cpud::dtype_name(code(from))) + " -> " + cpud::dtype_name(code(columns[c])) + ": " +
             cpud::conversion_name(got) + ", " + rules + " give " + cpud::conversion_name(want));
    }
  }
  std::fclose(f);
  if (rows != cpud::k_builtin_dtypes || static_cast<int>(columns.size()) != cpud::k_builtin_dtypes)
    fail("the table should have " + std::to_string(cpud::k_builtin_dtypes) + " rows and columns, has " +
         std::to_string(rows) + " x " + std::to_string(columns.size()));
  std::printf("%d cells compared\n", cells);
}

// The rules in words (issue 11, Numba's rules.py), over every pair they cover.
void check_properties() {
  auto k = [](dtype a, dtype b) { return cpud::can_convert(a, b); };
  const dtype sint[] = {dtype::int8, dtype::int16, dtype::int32, dtype::int64};
  const dtype uint[] = {dtype::uint8, dtype::uint16, dtype::uint32, dtype::uint64};
  for (int i = 1; i < cpud::k_builtin_dtypes; ++i)
    if (k(dtype::bool_, code(i)) != conversion::safe) fail(std::string("bool -> ") + cpud::dtype_name(code(i)));
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) {
      if (a < b && (k(sint[a], sint[b]) != conversion::promote || k(uint[a], uint[b]) != conversion::promote))
        fail(std::string("wider int of the same signedness should be a promotion: ") + cpud::dtype_name(sint[a]));
      if (k(sint[a], uint[b]) != conversion::unsafe)
        fail(std::string(cpud::dtype_name(sint[a])) + " -> " + cpud::dtype_name(uint[b]) + " should be unsafe");
      if (b > a && k(uint[a], sint[b]) != conversion::safe)
        fail(std::string(cpud::dtype_name(uint[a])) + " -> " + cpud::dtype_name(sint[b]) + " should be safe");
    }
  const struct {
    dtype a, b;
    conversion want;
  } facts[] = {
      {dtype::int8, dtype::float16, conversion::safe},       {dtype::int16, dtype::float32, conversion::safe},
      {dtype::int32, dtype::float64, conversion::safe},      {dtype::int64, dtype::float64, conversion::safe},
      {dtype::int32, dtype::float32, conversion::unsafe},    {dtype::float32, dtype::complex64, conversion::safe},
      {dtype::float64, dtype::complex64, conversion::unsafe}, {dtype::float64, dtype::int64, conversion::unsafe},
      {dtype::float32, dtype::int8, conversion::unsafe},
  };
  for (const auto &f : facts)
    if (k(f.a, f.b) != f.want)
      fail(std::string(cpud::dtype_name(f.a)) + " -> " + cpud::dtype_name(f.b) + " should be " +
           cpud::conversion_name(f.want));
  for (dtype c : {dtype::complex64, dtype::complex128})
    for (int r = 0; r < cpud::k_builtin_dtypes; ++r)
      if (code(r) != dtype::complex64 && code(r) != dtype::complex128 && k(c, code(r)) != conversion::none)
        fail(std::string(cpud::dtype_name(c)) + " -> " + cpud::dtype_name(code(r)) + " should be none");
}

// NumPy's rules in words: never none; complex -> real unsafe; the unsigned
// integers reach the float of twice their width safely.
void check_numpy_properties() {
  for (int a = 0; a < cpud::k_builtin_dtypes; ++a)
    for (int b = 0; b < cpud::k_builtin_dtypes; ++b)
      if (cpud::can_cast_numpy(code(a), code(b)) == conversion::none)
        fail(std::string("NumPy casts anything: ") + cpud::dtype_name(code(a)) + " -> " + cpud::dtype_name(code(b)));
  static_assert(cpud::can_cast_numpy(dtype::complex64, dtype::float32) == conversion::unsafe);
  static_assert(cpud::can_cast_numpy(dtype::uint8, dtype::float16) == conversion::safe);
  static_assert(cpud::can_convert(dtype::uint8, dtype::float16) == conversion::unsafe);  // Numba differs
  static_assert(cpud::can_cast_numpy(dtype::int64, dtype::float64) == conversion::safe);
}

}  // namespace

int main(int argc, char **argv) {
  const bool numpy = argc == 3 && std::strcmp(argv[2], "--numpy") == 0;
  if (argc != 2 && !numpy) {
    std::fprintf(stderr, "usage: conversions_test TABLE [--numpy]\n");
    return 2;
  }
  if (numpy) {
    check_table(argv[1], cpud::can_cast_numpy, "NumPy's rules");
    check_numpy_properties();
  } else {
    check_table(argv[1], cpud::can_convert, "Numba's rules");
    check_properties();
  }
  if (failures) return 1;
  std::printf("PASS\n");
  return 0;
}
