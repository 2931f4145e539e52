// Many threads race the first calls of several dispatched functions; every
// result must be right. Built normally and under ThreadSanitizer.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <thread>
#include <vector>

#include "kernels.h"

int main() {
  constexpr int k_threads = 16, k_rounds = 200;
  std::vector<float> ones(1000, 1.0f), twos(1000, 2.0f);
  std::vector<std::uint8_t> bytes(1000, 7);
  std::atomic<int> ready{0}, wrong{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < k_threads; ++t)
    pool.emplace_back([&] {
      ready.fetch_add(1);
      // Every thread starts its first calls together; the others give way
      // while they wait, so that the threads still to start get to run (a
      // bare spin on 2 cores under ThreadSanitizer took from 5 to 43 s).
      while (ready.load() < k_threads) std::this_thread::yield();
      for (int r = 0; r < k_rounds; ++r) {
        if (cpud_demo_sum_f32(ones.data(), ones.size()) != 1000.0f) wrong.fetch_add(1);
        if (cpud_demo_dot_f32(ones.data(), twos.data(), ones.size()) != 2000.0f) wrong.fetch_add(1);
        if (cpud_demo_count_u8(bytes.data(), bytes.size(), 7) != 1000u) wrong.fetch_add(1);
        if (cpud_demo_count_u8.get() == nullptr) wrong.fetch_add(1);
      }
    });
  for (auto &t : pool) t.join();
  std::printf("%d threads x %d rounds: %d wrong results; selected %s\n", k_threads, k_rounds, wrong.load(),
              cpud_demo_sum_f32.selected_name());
  return wrong.load() == 0 ? 0 : 1;
}
