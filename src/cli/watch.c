/*
** watch.c: --watch: the files a run read (chromatype.inputs), and running again when one
** of them changes.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <lauxlib.h>

#include "cli.h"

#define MAX_INPUTS 4096

static struct {
  char *path[MAX_INPUTS];
  struct stat st[MAX_INPUTS];
  int ok[MAX_INPUTS];
  unsigned n;
} inputs;

void inputs_add(const char *p) {
  unsigned i;
  for (i = 0; i < inputs.n; i++)
    if (strcmp(inputs.path[i], p) == 0) return;
  if (inputs.n == MAX_INPUTS || !(inputs.path[inputs.n] = strdup(p))) return;
  inputs.ok[inputs.n] = stat(p, &inputs.st[inputs.n]) == 0;
  inputs.n++;
}

/* Notes the files the finished run read: chromatype.inputs (fonts, filters, images).  [-0, +0] */
void collect_inputs(lua_State *L) {
  int top = lua_gettop(L);
  /* the registry's loaded table: a sandboxed run has no `package` */
  lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  if (lua_istable(L, -1)) {
    lua_getfield(L, -1, "chromatype");
    if (lua_istable(L, -1)) {
      lua_getfield(L, -1, "inputs");
      if (lua_istable(L, -1)) {
        lua_Integer i, n = (lua_Integer)lua_rawlen(L, -1);
        for (i = 1; i <= n; i++) {
          if (lua_rawgeti(L, -1, i) == LUA_TSTRING) {
            if (cli_sandbox_child()) cli_sandbox_send_input(lua_tostring(L, -1));
            else inputs_add(lua_tostring(L, -1));
          }
          lua_pop(L, 1);
        }
      }
    }
  }
  lua_settop(L, top);
}

/* Whether an input changed since it was noted (and notes it again). */
static const char *inputs_changed(void) {
  unsigned i;
  for (i = 0; i < inputs.n; i++) {
    struct stat st;
    int ok = stat(inputs.path[i], &st) == 0;
    if (ok != inputs.ok[i] || (ok && (st.st_mtim.tv_sec != inputs.st[i].st_mtim.tv_sec ||
                                      st.st_mtim.tv_nsec != inputs.st[i].st_mtim.tv_nsec ||
                                      st.st_size != inputs.st[i].st_size)))
      return inputs.path[i];
  }
  return NULL;
}

static void inputs_clear(void) {
  unsigned i;
  for (i = 0; i < inputs.n; i++) free(inputs.path[i]);
  inputs.n = 0;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Runs cmd, then again each time one of the files it read changes; Ctrl-C stops (or, for
   tests, CHROMATYPE_WATCH_RUNS=N after N runs, returning the last status). */
int watch(int (*cmd)(int, char **), int argc, char **argv, const char *main_input) {
  const char *limit;
  if (PARSE_ONLY) return cmd(argc, argv);
  limit = getenv("CHROMATYPE_WATCH_RUNS");
  long runs = 0, max_runs = limit ? strtol(limit, NULL, 10) : 0;
  for (;;) {
    const char *changed;
    double t0 = now_ms();
    int status;
    inputs_clear();
    if (main_input) inputs_add(main_input);
    status = cmd(argc, argv);
    if (cli_sandbox_child()) exit(status);   /* the confined run ends here; its parent watches */
    fprintf(stderr, "%s: %s in %.0f ms; watching %u file%s (Ctrl-C stops)\n", progname,
            status == 0 ? "rendered" : "failed", now_ms() - t0, inputs.n, inputs.n == 1 ? "" : "s");
    fflush(stderr);
    if (max_runs > 0 && ++runs >= max_runs) return status;
    while (!(changed = inputs_changed())) {
      struct timespec ts = { 0, 200 * 1000 * 1000 };
      nanosleep(&ts, NULL);
    }
    fprintf(stderr, "%s: %s changed\n", progname, changed);
    {
      struct timespec settle = { 0, 100 * 1000 * 1000 };   /* let an editor finish writing */
      nanosleep(&settle, NULL);
    }
  }
}
