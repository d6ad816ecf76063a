/*
** main.c: the chromatype command line's entry: --help and --version, the run options that
** come first, then a command of the table, else a document (DOC.xml, -) or a Lua script.
** Each command is a file of src/cli/; cli.h is what they share.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "cli.h"

static const char usage_main[] =
  "usage: chromatype SCRIPT.lua [ARGS...]      run a Lua script with the chromatype library\n"
  "       chromatype DOC.xml [-o OUT] [--dpi N] [--format F] [--no-text-layer] [--cmyk]\n"
  "                  [--ink NAME=#RRGGBB[,overprint][,cmyk=C/M/Y/K]]... [--inks-only]\n"
  "                  [--overprint] [--plates DIR] [--at S] [--fps N] [--duration S] [--loop N]\n"
  "                                            render an XML document to PDF, PNG or SVG;\n"
  "                                            --ink: a spot ink, printed from its own plate;\n"
  "                                            -o OUT.apng|.webp|.gif|.mp4|.webm|%04d.png:\n"
  "                                            a document that moves (<animate>) as an\n"
  "                                            animation (docs/motion.md)\n"
  "       chromatype [-f FILTER]... [--seed N|random] [--watch] [--threads N]\n"
  "                  SCRIPT.lua|DOC.xml ...    the same through Lua filters (FILE.lua or\n"
  "                                            FILE.lua:key=value,...; ready ones by name),\n"
  "                                            with a random seed; --watch renders again\n"
  "                                            when an input changes; --threads: PNG pages\n"
  "                                            drawn and compressed on N threads (default:\n"
  "                                            CHROMATYPE_THREADS, else every core)\n"
  "       chromatype --sandbox [--max-memory SIZE] [--max-instructions N] [--timeout S]\n"
  "                  SCRIPT.lua|DOC.xml ...    scripts and filters from untrusted sources:\n"
  "                                            pure Lua and the chromatype API, files only\n"
  "                                            below the working directory, limits on Lua\n"
  "                                            memory (1G), instructions (5e9), time (300 s)\n"
  "       chromatype batch TEMPLATE --data RECORDS -o 'out/{id}.pdf' [--jobs N] [--shard K/N]\n"
  "                                            one document per record, in parallel\n"
  "       chromatype view FONT TEXT [OPTIONS]  render one line of text (hb-view's options)\n"
  "       chromatype info FONT [--json]        formats, palettes, names, axes of a font\n"
  "       chromatype paint FONT TEXT [OPTIONS] the paint tree of each glyph, as text\n"
  "       chromatype font SOURCE -o OUT.ttf [OPTIONS]\n"
  "                                            write a color font (COLR/CPAL, OT-SVG) from a\n"
  "                                            stack, new palettes, baked filters\n"
  "       chromatype --help | --version\n"
  "\n"
  "'chromatype COMMAND --help' lists the options of view, info, paint and font.\n";

/* The named commands: a new one is a line here, its cmd_NAME in cli.h, and its file. */
static const struct {
  const char *name;                    /* chromatype NAME ... */
  int (*run)(int argc, char **argv);   /* gets argv from NAME on; returns the exit status */
} commands[] = {
  { "view", cmd_view },
  { "info", cmd_info },
  { "paint", cmd_paint },
  { "batch", cmd_batch },
  { "font", cmd_font },
};

static int is_document(const char *a) {
  size_t n = strlen(a);
  return strcmp(a, "-") == 0 || (n > 4 && strcmp(a + n - 4, ".xml") == 0);
}

int cli_main(int argc, char **argv) {
  size_t c;
  if (argc < 2) {
    fputs(usage_main, stderr);
    return EXIT_USAGE;
  }
  if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
    fputs(usage_main, stdout);
    return 0;
  }
  if (strcmp(argv[1], "--version") == 0) {
    printf("chromatype %s\n", CT_VERSION_STRING);
    return 0;
  }
  {
    /* -f, --seed, --watch, --threads ... before a script or document */
    int i = 1;
    while (i < argc && take_run_option(argc, argv, &i)) i++;
    if (i > 1) {
      if (i >= argc) die(EXIT_USAGE, "a script or document must follow the options (see 'chromatype --help')");
      argv += i - 1;
      argc -= i - 1;
    }
  }
  for (c = 0; c < sizeof commands / sizeof commands[0]; c++)
    if (strcmp(argv[1], commands[c].name) == 0) return commands[c].run(argc - 1, argv + 1);
  if (is_document(argv[1])) {
    /* run options may also follow the document: take them out of its own options */
    int i, j = 2;
    for (i = 2; i < argc; i++) {
      int k = i;
      if (take_run_option(argc, argv, &k)) { i = k; continue; }
      argv[j++] = argv[i];
    }
    argc = j;
    argv[argc] = NULL;
    if (!cli_run_opts.watch) return cmd_document(argc - 1, argv + 1);
    if (strcmp(argv[1], "-") == 0) die(EXIT_USAGE, "--watch needs a document file, not standard input");
    return watch(cmd_document, argc - 1, argv + 1, argv[1]);
  }
  if (argv[1][0] == '-') die(EXIT_USAGE, "unknown option '%s' (see 'chromatype --help')", argv[1]);
  if (!cli_run_opts.watch) return cmd_script(argc - 1, argv + 1);
  return watch(cmd_script, argc - 1, argv + 1, argv[1]);
}

#ifndef CT_FUZZ_CLI
/* Large transient blocks (a PDF chunk read whole for its pass, page images, content
   streams) go to the system and back.  glibc raises its mmap threshold to the largest such
   block freed, up to 32 MiB; from then on they come from the heap, which they leave in
   pieces, and a long streamed document's peak grows with its chunks (10,000 filtered pages:
   51 MiB against 41 for 100).  Setting the threshold ends the raising.  At 4 MiB a PNG
   sheet's band and sprite buffers stay on the heap (at 1 MiB each would fault its pages in
   again: 8 % more faults).  Left alone when the user tunes malloc. */
static void malloc_policy(void) {
#ifdef __GLIBC__
  const char *t = getenv("GLIBC_TUNABLES");
  if (getenv("MALLOC_MMAP_THRESHOLD_") || (t && strstr(t, "mmap_threshold"))) return;
  mallopt(M_MMAP_THRESHOLD, 4 << 20);
#endif
}

int main(int argc, char **argv) {
  malloc_policy();
  return cli_main(argc, argv);
}
#endif
