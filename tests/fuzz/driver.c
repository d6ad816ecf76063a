/*
** driver.c: replays files through a fuzz target without libFuzzer (make check builds it
** with gcc): each argument is a file or a directory of files, given whole to
** LLVMFuzzerTestOneInput.  Prints "fuzz-NAME: N inputs" and exits 0 unless an input crashed
** (which ends the process, as it would under the fuzzer).  With CT_FUZZ_BUDGET=SECONDS in
** the environment (make fuzz-regress FUZZ_BUDGET=1), an input that takes longer fails the
** run, as libFuzzer's -timeout would (not in make check, whose machines vary).
*/
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned count;
static double budget;   /* seconds an input, 0: none */

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  unsigned char *buf;
  long n;
  double t0;
  if (!f) { fprintf(stderr, "driver: %s: cannot open\n", path); exit(1); }
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  buf = malloc(n > 0 ? (size_t)n : 1);
  if (!buf || (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)) { fprintf(stderr, "driver: %s: cannot read\n", path); exit(1); }
  fclose(f);
  t0 = now();
  LLVMFuzzerTestOneInput(buf, (size_t)n);
  if (budget > 0 && now() - t0 > budget) {
    fprintf(stderr, "driver: %s: %.2f s, over the budget of %g s an input\n", path, now() - t0, budget);
    exit(1);
  }
  free(buf);
  count++;
}

static void run_path(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0) return;
  if (S_ISDIR(st.st_mode)) {
    struct dirent **list;
    int n = scandir(path, &list, NULL, alphasort), i;
    for (i = 0; i < n; i++) {
      if (list[i]->d_name[0] != '.') {
        char full[4096];
        snprintf(full, sizeof full, "%s/%s", path, list[i]->d_name);
        run_path(full);
      }
      free(list[i]);
    }
    free(list);
  } else {
    run_file(path);
  }
}

int main(int argc, char **argv) {
  int i;
  if (getenv("CT_FUZZ_BUDGET")) budget = atof(getenv("CT_FUZZ_BUDGET"));
  for (i = 2; i < argc; i++) run_path(argv[i]);
  printf("%s: %u passed, 0 failed\n", argc > 1 ? argv[1] : "fuzz", count);
  return 0;
}
