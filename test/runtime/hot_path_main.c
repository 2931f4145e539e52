/* Calls hot_path_api(): the first call selects, the second runs the
 * cached target; both must give 2 + 3 + 1. */
#include <stdio.h>

int hot_path_api(int a, int b);

int main(void) {
  const int first = hot_path_api(2, 3), second = hot_path_api(2, 3);
  printf("hot_path_api: %d %d\n", first, second);
  return first == 6 && second == 6 ? 0 : 1;
}
