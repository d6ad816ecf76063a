/*
** fuzz_cli.c: the command line's option parser.  The files of src/cli/ are linked in,
** compiled with CT_FUZZ_CLI: die() jumps back here instead of exiting, and every command
** returns once its options are parsed, so nothing is opened or written.  The input is split
** at NUL bytes into arguments (at most 32).
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

#ifndef CT_FUZZ_CLI
#error "compile with -DCT_FUZZ_CLI, as the files of src/cli/ it is linked with"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *copy, *argv[34];
  int argc = 0;
  size_t i, start = 0;
  if (size > 4096) return 0;
  if (!(copy = malloc(size + 1))) return 0;
  memcpy(copy, data, size);
  copy[size] = '\0';
  argv[argc++] = (char *)"chromatype";
  for (i = 0; i <= size && argc < 33; i++) {
    if (i == size || copy[i] == '\0') {
      argv[argc++] = copy + start;
      start = i + 1;
    }
  }
  argv[argc] = NULL;
  memset(&cli_run_opts, 0, sizeof cli_run_opts);
  cli_parse_only = 1;
  if (setjmp(cli_jmp) == 0) (void)cli_main(argc, argv);
  cli_free_tracked();
  fflush(stdout);
  free(copy);
  return 0;
}
