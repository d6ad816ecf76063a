/*
** run.c: the options every Lua run takes (-f filters, --seed, --watch, --sandbox and its
** limits) and the Lua state a script, a document or a batch worker runs in.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lualib.h>

#include "cli.h"
#include "cli/embed/preload.h"
#include "lua/l_limits.h"
#include "lua/l_sandbox.h"
#include "base/ct-limits.h"

#ifndef CT_FILTER_DIR
#define CT_FILTER_DIR "/usr/local/share/chromatype/filters"
#endif

run_opts_t cli_run_opts;

/* The directory of the script or document the run reads (absolute), for the sandbox. */
static char run_home[4096];

/* Defaults of --sandbox for limits not given. */
#define SANDBOX_MEMORY       "1G"
#define SANDBOX_INSTRUCTIONS "5000000000"
#define SANDBOX_TIMEOUT      "300"

/* Lua's libraries, or the sandbox's, and chromatype's modules. */
static void open_libraries(lua_State *L) {
  if (cli_run_opts.sandbox) lct_open_sandboxed(L, run_home);
  else luaL_openlibs(L);
  ct_preload_library(L);
}

/* A Lua state under the limits of the command line; exits on a bad limit.  Under
   --sandbox the run first moves into a confined child (sandbox.c): in the parent this
   returns NULL once the child has finished, with its exit status in *status; in the child
   the state has the sandbox's libraries (l_sandbox.c) instead of Lua's. */
lua_State *new_state(int *status) {
  lct_limits_t lim;
  const char *mem = cli_run_opts.max_memory, *ins = cli_run_opts.max_instructions;
  const char *tmo = cli_run_opts.timeout;
  lua_State *L;
  memset(&lim, 0, sizeof lim);
  *status = 0;
  if (cli_run_opts.sandbox) {
    if (!mem) mem = SANDBOX_MEMORY;
    if (!ins) ins = SANDBOX_INSTRUCTIONS;
    if (!tmo) tmo = SANDBOX_TIMEOUT;
  }
  if (mem && !lct_parse_size(mem, &lim.max_memory))
    die(EXIT_USAGE, "--max-memory: expected a size such as 512M or 2G (at least 1M), got '%s'", mem);
  if (ins) {
    char *end;
    double v = strtod(ins, &end);     /* 5000000000 or 5e9 */
    if (*end != '\0' || !(v >= 100000) || v > 1e18 || v != floor(v))
      die(EXIT_USAGE, "--max-instructions: expected a whole number of at least 100000, got '%s'", ins);
    lim.max_instructions = (unsigned long long)v;
  }
  if (tmo) {
    char *end;
    lim.max_seconds = strtod(tmo, &end);
    if (*end != '\0' || !(lim.max_seconds > 0) || lim.max_seconds > 1e6)
      die(EXIT_USAGE, "--timeout: expected seconds (0 < s <= 1000000), got '%s'", tmo);
  }
  if (cli_run_opts.sandbox && cli_sandbox_fork(status)) return NULL;
  if (!(L = lct_newstate(&lim))) die(1, "cannot create a Lua state: out of memory");
  open_libraries(L);
  return L;
}

/* A fresh state beside the run's, under the same limits (a batch record's, see batch.c): the
   same libraries, sandboxed or not, and nothing else; NULL without memory.  Close it with
   lct_close_more(L, *previous). */
lua_State *new_record_state(lua_State **previous) {
  lua_State *L = lct_newstate_more(previous);
  if (L) open_libraries(L);
  return L;
}

/* Prints a run's error: the limit that stopped it, if one did, else the message. */
void report_error(lua_State *L, const char *what) {
  const char *limit = lct_limit_message();
  const char *msg = lua_tostring(L, -1);
  if (limit) fprintf(stderr, "%s: %s: %s\n", progname, what, limit);
  else fprintf(stderr, "%s: %s\n", progname, msg ? msg : "(error object is not a string)");
}

/* Takes argv[*i] (and its value) if it is -f/--filter, --seed or --watch; returns 1 if so. */
int take_run_option(int argc, char **argv, int *i) {
  const char *a = argv[*i];
  const char *v = NULL;
  if ((strcmp(a, "-f") == 0 || strcmp(a, "--filter") == 0)) {
    if (*i + 1 >= argc) die(EXIT_USAGE, "%s needs a filter file (FILE.lua or FILE.lua:key=value,...)", a);
    v = argv[++*i];
  } else if (strncmp(a, "--filter=", 9) == 0) {
    v = a + 9;
  } else if (strcmp(a, "--seed") == 0) {
    if (*i + 1 >= argc) die(EXIT_USAGE, "--seed needs an integer or 'random'");
    cli_run_opts.seed = argv[++*i];
    return 1;
  } else if (strncmp(a, "--seed=", 7) == 0) {
    cli_run_opts.seed = a + 7;
    return 1;
  } else if (strcmp(a, "--threads") == 0 || strncmp(a, "--threads=", 10) == 0) {
    const char *n = a[9] == '=' ? a + 10 : *i + 1 < argc ? argv[++*i] : NULL;
    unsigned t;
    if (!n) die(EXIT_USAGE, "--threads needs a number of threads (1..%d)", CT_MAX_THREADS);
    if (!(t = ct_parse_threads(n)))
      die(EXIT_USAGE, "--threads: '%s' is not a number of threads (1..%d)", n, CT_MAX_THREADS);
    ct_set_threads(t, NULL);
    return 1;
  } else if (strcmp(a, "--watch") == 0) {
    cli_run_opts.watch = 1;
    return 1;
  } else if (strcmp(a, "--sandbox") == 0) {
    cli_run_opts.sandbox = 1;
    return 1;
  } else if (strcmp(a, "--max-memory") == 0 || strcmp(a, "--max-instructions") == 0 ||
             strcmp(a, "--timeout") == 0) {
    if (*i + 1 >= argc) die(EXIT_USAGE, "%s needs a value", a);
    if (a[2] == 'm' && a[6] == 'm') cli_run_opts.max_memory = argv[++*i];
    else if (a[2] == 'm') cli_run_opts.max_instructions = argv[++*i];
    else cli_run_opts.timeout = argv[++*i];
    return 1;
  } else if (strncmp(a, "--max-memory=", 13) == 0) {
    cli_run_opts.max_memory = a + 13;
    return 1;
  } else if (strncmp(a, "--max-instructions=", 19) == 0) {
    cli_run_opts.max_instructions = a + 19;
    return 1;
  } else if (strncmp(a, "--timeout=", 10) == 0) {
    cli_run_opts.timeout = a + 10;
    return 1;
  } else {
    return 0;
  }
  if (cli_run_opts.nfilters == MAX_FILTERS) die(EXIT_USAGE, "too many filters (at most %d)", MAX_FILTERS);
  cli_run_opts.filters[cli_run_opts.nfilters++] = v;
  return 1;
}

/* Where the ready filters are: beside the executable (the build tree's filters/) and the
   installed data directory. */
void cli_filter_path(char *buf, size_t size) {
  char exe[4096], cand[3][4200], real[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  size_t used = 0;
  int i, k = 0;
  buf[0] = '\0';
  if (n > 0) {
    char *slash;
    exe[n] = '\0';
    if ((slash = strrchr(exe, '/'))) *slash = '\0';
    snprintf(cand[k++], sizeof cand[0], "%s/../filters", exe);
    snprintf(cand[k++], sizeof cand[0], "%s/filters", exe);
  }
  snprintf(cand[k++], sizeof cand[0], "%s", CT_FILTER_DIR);
  /* real paths, and only folders that exist: the sandbox reads them by their real name */
  for (i = 0; i < k; i++) {
    size_t len;
    if (!realpath(cand[i], real)) continue;
    len = strlen(real);
    if (used + len + 2 > size) break;
    if (used) buf[used++] = ';';
    memcpy(buf + used, real, len + 1);
    used += len;
  }
}

static const char setup_lua[] =
  "local path, seed = ...\n"
  "local filter = require 'chromatype.filter'\n"
  "filter.path = path\n"
  "if seed then\n"
  "  local n\n"
  "  if seed == 'random' then\n"
  "    n = require('chromatype.random').fresh_seed()\n"
  "    require('chromatype.core').write_stderr('chromatype: seed ', n, '\\n')\n"
  "  else\n"
  "    n = math.tointeger(tonumber(seed))\n"
  "    if not n then error(\"--seed: expected an integer or 'random', got '\" .. seed .. \"'\", 0) end\n"
  "  end\n"
  "  filter.cli_seed = n\n"
  "end\n"
  "for i = 3, select('#', ...) do\n"
  "  local spec = select(i, ...)\n"
  "  local f, err\n"
  "  if spec:find('%.%..-@....') then f = { ranged = true, spec = spec }  -- an effect axis's (chromatype font --axis)\n"
  "  else f, err = filter.load(spec) end\n"
  "  if not f then error(err, 0) end\n"
  "  filter.defaults[#filter.defaults + 1] = f\n"
  "end\n";

const char *cli_run_home(void) { return run_home; }

void set_home(const char *input) {
  char buf[4096], *slash;
  run_home[0] = '\0';
  if (!input || strcmp(input, "-") == 0) return;
  if (!realpath(input, buf)) return;
  if ((slash = strrchr(buf, '/'))) *slash = '\0';
  snprintf(run_home, sizeof run_home, "%s", buf);
}

/* Gives chromatype.filter the ready filters' path, the seed (if `seed`) and the -f filters
   (if `filters`); raises on a bad filter or seed. [-0, +0] */
void setup_run_as(lua_State *L, int seed, int filters) {
  char path[8192];
  int i, n = filters ? cli_run_opts.nfilters : 0;
  cli_filter_path(path, sizeof path);
  if (luaL_loadbuffer(L, setup_lua, sizeof setup_lua - 1, "=setup") != LUA_OK) lua_error(L);
  lua_pushstring(L, path);
  if (seed && cli_run_opts.seed) lua_pushstring(L, cli_run_opts.seed); else lua_pushnil(L);
  for (i = 0; i < n; i++) lua_pushstring(L, cli_run_opts.filters[i]);
  lua_call(L, 2 + n, 0);
}

/* Loads the -f filters and the seed into chromatype.filter; raises on a bad filter. [-0, +0] */
int setup_run(lua_State *L) {
  setup_run_as(L, 1, 1);
  return 0;
}

/* Sets the run up (filters, seed, sandbox) and loads `code` as a chunk; returns the status
   (the chunk, or the error, is on the stack). */
int load_run(lua_State *L, const char *code, size_t size, const char *name) {
  int status;
  lua_pushcfunction(L, setup_run);
  status = lua_pcall(L, 0, 0, 0);
  if (status == LUA_OK) status = luaL_loadbuffer(L, code, size, name);
  return status;
}
