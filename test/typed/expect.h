// The typed suite's check macro: prints the line and a message, counts the
// failure, goes on (main returns non-zero when `failures` is not 0).
#pragma once
#include <cstdio>

inline int failures = 0;
#define EXPECT(cond, ...)                      \
  do {                                         \
    if (!(cond)) {                             \
      std::printf("FAIL line %d: ", __LINE__); \
      std::printf(__VA_ARGS__);                \
      std::printf("\n");                       \
      ++failures;                              \
    }                                          \
  } while (0)
