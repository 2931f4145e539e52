// What cpudispatch-run adds to a test run: `--each-target -- /bin/true`
// against /bin/true started as many times as that runs it (one per target
// this CPU can run, plus the baseline), and `--target baseline -- /bin/true`
// against one /bin/true. The difference of the two means is the wrapper's
// cost per test (docs/testing-your-code.md has the last measurement).
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cstdio>
#include <string>
#include <vector>

#include "cpudispatch/cpudispatch.h"

extern char **environ;

namespace {

// Runs argv with stdout and stderr to /dev/null; returns the exit status.
int spawn(const std::vector<const char *> &args) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  std::vector<char *> argv;
  for (const char *a : args) argv.push_back(const_cast<char *>(a));
  argv.push_back(nullptr);
  pid_t pid;
  int st = -1;
  if (posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ) == 0) waitpid(pid, &st, 0);
  posix_spawn_file_actions_destroy(&fa);
  return st;
}

// How many runs --each-target makes here: the compiled targets
// (--list-targets) this CPU has, and the baseline.
int runs_per_each_target() {
  std::string cmd = std::string(CPUD_BENCH_RUN_EXE) + " --list-targets";
  std::FILE *p = popen(cmd.c_str(), "r");
  if (!p) return 0;
  char word[64];
  int n = 0;
  while (std::fscanf(p, "%63s", word) == 1) {
    int id = cpud_feature_by_name(word);
    if (std::string(word) == "baseline" || (id && cpud_mask_has(cpud_detected_mask(), id))) ++n;
  }
  pclose(p);
  return n;
}

const int k_runs = runs_per_each_target();

void BM_EachTarget(benchmark::State &state) {
  for (auto _ : state)
    if (spawn({CPUD_BENCH_RUN_EXE, "--each-target", "--", "/bin/true"}) != 0) state.SkipWithError("failed");
  state.counters["runs"] = k_runs;
}
BENCHMARK(BM_EachTarget)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_TrueSameNumberOfTimes(benchmark::State &state) {
  for (auto _ : state)
    for (int i = 0; i < k_runs; ++i)
      if (spawn({"/bin/true"}) != 0) state.SkipWithError("failed");
  state.counters["runs"] = k_runs;
}
BENCHMARK(BM_TrueSameNumberOfTimes)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_TargetBaseline(benchmark::State &state) {
  for (auto _ : state)
    if (spawn({CPUD_BENCH_RUN_EXE, "--target", "baseline", "--", "/bin/true"}) != 0) state.SkipWithError("failed");
}
BENCHMARK(BM_TargetBaseline)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_TrueOnce(benchmark::State &state) {
  for (auto _ : state)
    if (spawn({"/bin/true"}) != 0) state.SkipWithError("failed");
}
BENCHMARK(BM_TrueOnce)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
