/*
** batch.c: `chromatype batch TEMPLATE --data RECORDS -o PATTERN`: one document per record,
** rendered by worker processes whose events the parent reads, shows and sums.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <lauxlib.h>

#include "cli.h"

#include "lua/l_limits.h"

static const char usage_batch[] =
  "usage: chromatype batch TEMPLATE --data RECORDS -o PATTERN [OPTIONS]\n"
  "Renders TEMPLATE (an XML document with {field}s, or a Lua script that gets `record`) once\n"
  "per record of RECORDS (.csv with a header line, or .jsonl), to the file PATTERN names\n"
  "('out/{id}.pdf': fields of the record, {index} its number).  A failing record is reported\n"
  "and the batch goes on.  See docs/batch.md.\n"
  "\n"
  "  -d, --data FILE        the records (.csv, .jsonl or .ndjson; - reads CSV from stdin)\n"
  "  -o, --output PATTERN   the output file of each record (.pdf, .png or .svg)\n"
  "  -j, --jobs N           worker processes (default: the number of CPUs, at most 256)\n"
  "      --shard K/N        only the records whose number i has (i - 1) % N == K - 1, for\n"
  "                         array jobs across machines (GNU parallel, Slurm, Kubernetes)\n"
  "      --resume           skip records whose output exists; first remove the temporary\n"
  "                         files that a killed run left beside this run's outputs\n"
  "      --max-records N    refuse more records than N (default 1000000)\n"
  "      --dpi N            PNG resolution\n"
  "      --ink NAME=#RRGGBB[,overprint][,cmyk=C/M/Y/K], --inks-only, --overprint\n"
  "                         spot inks of XML templates, as for documents (no --plates)\n"
  "      --quiet            no progress display (failures and the summary still print)\n"
  "  -f FILTER, --seed N, --sandbox, --max-memory, --max-instructions, --timeout\n"
  "                         as for documents (chromatype --help)\n"
  "  -h, --help             this help\n"
  "\n"
  "Exit status: 0 every record done or skipped, 3 some records failed, 1 the batch could not\n"
  "run (template or records unreadable), 2 a usage error.\n";

#define EXIT_SOME_FAILED 3
#define MAX_JOBS 256

static const char batch_lua[] =
  "local template, data, output, k, n, w, j, resume, limit, dpi, inks, inks_only, overprint = ...\n"
  "local opts = { template = template, data = data, output = output, shard = { k, n },\n"
  "  worker = { w, j }, resume = resume, limit = limit, dpi = dpi,\n"
  "  inks = #inks > 0 and inks or nil, inks_only = inks_only or nil, overprint = overprint or nil,\n"
  "  seed = require('chromatype.filter').cli_seed, isolate = select(14, ...) }\n"
  "return require('chromatype.batch').worker(opts)\n";

/* What a record's own state runs: the record, apart from every other and from the worker. */
static const char record_lua[] =
  "return require('chromatype.batch').render_isolated(...)\n";

typedef struct {
  const char *tmpl, *data, *output;
  long k, n, jobs, limit;
  double dpi;
  int resume, quiet;
  const char *ink_specs[CT_MAX_INKS];   /* --ink, as given (checked by add_ink) */
  ct_ink_t inks[CT_MAX_INKS];
  unsigned ninks;
  int inks_only, overprint;
} batch_opts_t;

/* Copies the plain value at `from`[i] (nil, booleans, numbers, strings and tables of them,
   without metatables) onto `to`'s stack; other values, and tables nested deeper than 64,
   become nil.  Raises in `to` only (memory).  [-0, +1] in `to` */
static void copy_value(lua_State *to, lua_State *from, int i, int depth) {
  size_t n;
  const char *str;
  switch (lua_type(from, i)) {
  case LUA_TBOOLEAN: lua_pushboolean(to, lua_toboolean(from, i)); break;
  case LUA_TNUMBER:
    if (lua_isinteger(from, i)) lua_pushinteger(to, lua_tointeger(from, i));
    else lua_pushnumber(to, lua_tonumber(from, i));
    break;
  case LUA_TSTRING:
    str = lua_tolstring(from, i, &n);
    lua_pushlstring(to, str, n);
    break;
  case LUA_TTABLE:
    if (depth >= 64 || !lua_checkstack(from, 3)) { lua_pushnil(to); break; }
    luaL_checkstack(to, 4, "record nested too deeply");
    i = lua_absindex(from, i);
    lua_newtable(to);
    lua_pushnil(from);
    while (lua_next(from, i)) {
      copy_value(to, from, -2, depth + 1);
      copy_value(to, from, -1, depth + 1);
      if (lua_isnil(to, -2)) lua_pop(to, 2);
      else lua_rawset(to, -3);
      lua_pop(from, 1);
    }
    break;
  default: lua_pushnil(to); break;
  }
}

typedef struct {
  lua_State *host;    /* the worker's state: arguments 1..5 are the record's */
  int in_setup;       /* the -f filters were being loaded when it failed */
} record_call_t;

/* require's loader of chromatype.filter in a record's state without -f filters: the module
   with the ready filters' path and the batch's seed (upvalues 2 and 3), as setup_run would
   give them, loaded only if the record needs it.  [-n, +1] */
static int lazy_filter(lua_State *R) {
  lua_pushvalue(R, lua_upvalueindex(1));   /* the embedded module's loader */
  lua_insert(R, 1);
  lua_call(R, lua_gettop(R) - 1, 1);
  if (lua_istable(R, -1)) {
    lua_pushvalue(R, lua_upvalueindex(2));
    lua_setfield(R, -2, "path");
    lua_pushvalue(R, lua_upvalueindex(3));
    lua_setfield(R, -2, "cli_seed");
  }
  return 1;
}

/* In the record's state: the -f filters and the seed, then render_isolated with copies of
   the arguments. */
static int record_main(lua_State *R) {
  record_call_t *c = lua_touserdata(R, 1);
  int i;
  lua_getfield(c->host, 5, "seed");
  copy_value(R, c->host, -1, 0);            /* the seed the worker chose */
  lua_pop(c->host, 1);
  if (cli_run_opts.nfilters == 0) {
    static char path[8192];
    if (!path[0]) cli_filter_path(path, sizeof path);   /* the same for every record */
    luaL_getsubtable(R, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    lua_getfield(R, -1, "chromatype.filter");
    lua_pushstring(R, path);
    lua_pushvalue(R, -4);
    lua_pushcclosure(R, lazy_filter, 3);
    lua_setfield(R, -2, "chromatype.filter");
    lua_pop(R, 2);
  } else {
    c->in_setup = 1;
    setup_run_as(R, 0, 1);
    c->in_setup = 0;
    luaL_getsubtable(R, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    if (lua_getfield(R, -1, "chromatype.filter") == LUA_TTABLE) {   /* setup_run_as loaded it */
      lua_pushvalue(R, -3);
      lua_setfield(R, -2, "cli_seed");
    }
    lua_pop(R, 3);
  }
  if (luaL_loadbuffer(R, record_lua, sizeof record_lua - 1, "=record") != LUA_OK) return lua_error(R);
  for (i = 1; i <= 5; i++) copy_value(R, c->host, i, 0);
  lua_call(R, 5, 0);
  return 0;
}

/* isolate(template, record, index, output, options) -> true | false, message: renders one
   record in a Lua state of its own, made for it and closed after it, so that nothing a
   record changes (a module's function, a metatable, a global) reaches the worker or the
   records after it.  false: the -f filters could not be loaded (the batch cannot run);
   raises the record's error. */
static int l_isolate(lua_State *L) {
  static char msg[4096];
  lua_State *R, *prev;
  record_call_t c;
  int status;
  lua_settop(L, 5);
  if (!(R = new_record_state(&prev))) return luaL_error(L, "cannot create a Lua state: out of memory");
  c.host = L;
  c.in_setup = 0;
  lua_pushcfunction(R, record_main);
  lua_pushlightuserdata(R, &c);
  status = lua_pcall(R, 1, 0, 0);
  if (status != LUA_OK) {
    const char *m = lua_tostring(R, -1);
    snprintf(msg, sizeof msg, "%s", m ? m : "(error object is not a string)");
  }
  lct_close_more(R, prev);
  if (status == LUA_OK) {
    lua_pushboolean(L, 1);
    return 1;
  }
  if (c.in_setup) {
    lua_pushboolean(L, 0);
    lua_pushstring(L, msg);
    return 2;
  }
  lua_pushstring(L, msg);                  /* the record's message as it was, no position added */
  return lua_error(L);
}

/* The seed (not the filters) into chromatype.filter.  [-0, +0] */
static int setup_worker(lua_State *L) {
  setup_run_as(L, 1, 0);
  return 0;
}

/* The worker's chunk on the stack, or an error; the status. */
static int load_worker(lua_State *L) {
  int status;
  lua_pushcfunction(L, setup_worker);
  status = lua_pcall(L, 0, 0, 0);
  if (status == LUA_OK) status = luaL_loadbuffer(L, batch_lua, sizeof batch_lua - 1, "=batch");
  return status;
}

/* Whether a template is a Lua script (as chromatype.batch's load_template tells them). */
static int lua_template(const char *path) {
  size_t n = strlen(path);
  return n >= 4 && strcmp(path + n - 4, ".lua") == 0;
}

/* A worker: its records to standard output (a pipe to the parent), as events. */
static int batch_worker(const batch_opts_t *bo, long w) {
  lua_State *L;
  int status;
  unsigned i;
  set_home(bo->tmpl);
  if (!(L = new_state(&status))) return status;
  /* the worker's own state runs no code of the batch's: the -f filters are loaded, and a Lua
     template run, in each record's state (l_isolate).  An XML template without -f filters
     runs no code of anyone's: its records share the worker's state (and its fonts), as
     isolating them would cost 2 ms a record for nothing */
  status = load_worker(L);
  if (status == LUA_OK) {
    lua_pushstring(L, bo->tmpl);
    lua_pushstring(L, bo->data);
    lua_pushstring(L, bo->output);
    lua_pushinteger(L, bo->k);
    lua_pushinteger(L, bo->n);
    lua_pushinteger(L, w);
    lua_pushinteger(L, bo->jobs);
    lua_pushboolean(L, bo->resume);
    lua_pushinteger(L, bo->limit);
    if (bo->dpi > 0) lua_pushnumber(L, bo->dpi); else lua_pushnil(L);
    lua_createtable(L, (int)bo->ninks, 0);
    for (i = 0; i < bo->ninks; i++) {
      lua_pushstring(L, bo->ink_specs[i]);
      lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_pushboolean(L, bo->inks_only);
    lua_pushboolean(L, bo->overprint);
    if (cli_run_opts.nfilters > 0 || lua_template(bo->tmpl)) lua_pushcfunction(L, l_isolate);
    else lua_pushnil(L);
    status = lua_pcall(L, 14, 1, 0);
  }
  if (status != LUA_OK) {
    const char *limit = lct_limit_message();
    const char *msg = limit ? limit : lua_tostring(L, -1);
    printf("fatal\t%s\n", msg ? msg : "(error object is not a string)");
    fflush(stdout);
    lua_close(L);
    return 1;
  }
  status = lua_toboolean(L, -1) ? 0 : 1;   /* false: it reported a fatal event */
  lua_close(L);
  return status;
}

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct {
  long total, done, failed, skipped, totals, jobs;
  long cleared;             /* temporary files of a killed run that --resume removed */
  int fatal;                /* a worker could not run the batch at all */
  int tty, quiet;
  double t0, last_draw;
  long next_plain;          /* the count at which a plain progress line is due */
  char seen_warn[64][160];  /* warnings already shown (each once) */
  unsigned nwarn;
  long warn_more;
} batch_state_t;

static void batch_clear_line(batch_state_t *s) {
  if (s->tty && !s->quiet) fputs("\r\033[K", stderr);
}

static void batch_progress(batch_state_t *s, int force) {
  long n = s->done + s->failed + s->skipped;
  double t = now_seconds(), el = t - s->t0, rate = el > 0 ? (double)n / el : 0;
  if (s->quiet || (s->totals < s->jobs && !force)) return;
  if (s->tty) {
    char bar[31];
    int i, fill;
    if (!force && t - s->last_draw < 0.1) return;
    s->last_draw = t;
    fill = s->total > 0 ? (int)(30.0 * (double)n / (double)s->total) : 0;
    for (i = 0; i < 30; i++) bar[i] = i < fill ? '#' : '.';
    bar[30] = '\0';
    fprintf(stderr, "\r\033[K[%s] %ld/%ld %3.0f%% %.1f/s", bar, n, s->total,
            s->total > 0 ? 100.0 * (double)n / (double)s->total : 0.0, rate);
    if (rate > 0 && n < s->total) fprintf(stderr, " ETA %.0fs", (double)(s->total - n) / rate);
    if (s->failed) fprintf(stderr, " (%ld failed)", s->failed);
  } else if (n >= s->next_plain && s->total > 0) {
    fprintf(stderr, "batch: %ld/%ld (%.0f%%), %.1f records/s\n", n, s->total, 100.0 * (double)n / (double)s->total, rate);
    s->next_plain = n + (s->total >= 10 ? s->total / 10 : 1);
  }
  fflush(stderr);
}

/* One event line from a worker. */
static void batch_event(batch_state_t *s, char *line, const batch_opts_t *bo) {
  char *f[4] = { NULL, NULL, NULL, NULL };
  int nf = 0;
  char *p = line;
  while (nf < 4) {
    f[nf++] = p;
    if (nf == 4) break;
    p = strchr(p, '\t');
    if (!p) break;
    *p++ = '\0';
  }
  if (strcmp(f[0], "total") == 0 && f[1]) {
    s->total += atol(f[1]);
    s->totals++;
  } else if (strcmp(f[0], "done") == 0) {
    s->done++;
  } else if (strcmp(f[0], "skipped") == 0) {
    s->skipped++;
  } else if (strcmp(f[0], "cleared") == 0 && f[1]) {
    s->cleared += atol(f[1]);
  } else if (strcmp(f[0], "failed") == 0 && f[1]) {
    s->failed++;
    batch_clear_line(s);
    if (f[2] && strcmp(f[2], "-") != 0 && !(f[3] && strncmp(f[3], bo->data, strlen(bo->data)) == 0))
      fprintf(stderr, "%s: record %s (%s:%s): %s\n", progname, f[1], bo->data, f[2], f[3] ? f[3] : "");
    else
      fprintf(stderr, "%s: record %s: %s\n", progname, f[1], f[3] ? f[3] : "");
  } else if (strcmp(f[0], "warn") == 0 && f[2]) {
    unsigned i;
    char key[160];
    snprintf(key, sizeof key, "%s", f[2]);
    for (i = 0; i < s->nwarn && strcmp(s->seen_warn[i], key) != 0; i++) {}
    if (i < s->nwarn) return;
    if (s->nwarn < 64) {
      memcpy(s->seen_warn[s->nwarn++], key, sizeof key);
      batch_clear_line(s);
      fprintf(stderr, "%s: warning: record %s: %s\n", progname, f[1], f[2]);
    } else {
      s->warn_more++;
    }
  } else if (strcmp(f[0], "fatal") == 0 && f[1]) {
    batch_clear_line(s);
    fprintf(stderr, "%s: %s\n", progname, f[1]);
    s->fatal = 1;
    return;
  }
  batch_progress(s, 0);
}

/* The command line into *bo; dies on a usage error.  1: --help was printed (the command
   is done). */
static int batch_parse_options(int argc, char **argv, batch_opts_t *bo) {
  int i;
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

  memset(bo, 0, sizeof *bo);
  bo->k = bo->n = 1;
  bo->jobs = ncpu > 0 ? (ncpu > MAX_JOBS ? MAX_JOBS : ncpu) : 1;
  bo->limit = 1000000;
  for (i = 1; i < argc; i++) {
    const char *a = argv[i];
    int k = i;
    if (take_run_option(argc, argv, &k)) { i = k; continue; }
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) { fputs(usage_batch, stdout); return 1; }
    if ((strcmp(a, "-d") == 0 || strcmp(a, "--data") == 0 || strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0 ||
         strcmp(a, "-j") == 0 || strcmp(a, "--jobs") == 0 || strcmp(a, "--shard") == 0 ||
         strcmp(a, "--max-records") == 0 || strcmp(a, "--dpi") == 0)) {
      const char *v;
      if (i + 1 >= argc) die(EXIT_USAGE, "batch: %s needs a value", a);
      v = argv[++i];
      if (a[1] == 'd' || strcmp(a, "--data") == 0) bo->data = v;
      else if (a[1] == 'o' || strcmp(a, "--output") == 0) bo->output = v;
      else if (a[1] == 'j' || strcmp(a, "--jobs") == 0) bo->jobs = parse_long("--jobs", v, 1, MAX_JOBS);
      else if (strcmp(a, "--max-records") == 0) bo->limit = parse_long("--max-records", v, 1, 100000000);
      else if (strcmp(a, "--dpi") == 0) {
        char *end;
        bo->dpi = strtod(v, &end);
        if (*end != '\0' || !(bo->dpi > 0) || bo->dpi > 9600) die(EXIT_USAGE, "batch: --dpi: expected 0 < dpi <= 9600, got '%s'", v);
      } else {
        char *slash = strchr(v, '/');
        if (!slash) die(EXIT_USAGE, "batch: --shard: expected K/N (1 <= K <= N), got '%s'", v);
        *slash = '\0';
        bo->k = parse_long("--shard K", v, 1, 1000000);
        bo->n = parse_long("--shard N", slash + 1, 1, 1000000);
        *slash = '/';
        if (bo->k > bo->n) die(EXIT_USAGE, "batch: --shard: K must be from 1 to N, got '%s'", v);
      }
    } else if (strcmp(a, "--ink") == 0 || strncmp(a, "--ink=", 6) == 0) {
      const char *v = a[5] == '=' ? a + 6 : NULL;
      if (!v) {
        if (i + 1 >= argc) die(EXIT_USAGE, "batch: --ink needs a value");
        v = argv[++i];
      }
      bo->ink_specs[add_ink(bo->inks, &bo->ninks, v)] = v;
    } else if (strcmp(a, "--inks-only") == 0) {
      bo->inks_only = 1;
    } else if (strcmp(a, "--overprint") == 0) {
      bo->overprint = 1;
    } else if (strcmp(a, "--resume") == 0) {
      bo->resume = 1;
    } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
      bo->quiet = 1;
    } else if (a[0] == '-' && a[1] != '\0') {
      die(EXIT_USAGE, "batch: unknown option '%s' (see 'chromatype batch --help')", a);
    } else if (!bo->tmpl) {
      bo->tmpl = a;
    } else {
      die(EXIT_USAGE, "batch: unexpected argument '%s' (one template)", a);
    }
  }
  if (!bo->tmpl) die(EXIT_USAGE, "batch: a template is needed (chromatype batch TEMPLATE --data RECORDS -o PATTERN)");
  if (!bo->data) die(EXIT_USAGE, "batch: --data RECORDS is needed (.csv or .jsonl)");
  if (!bo->output) die(EXIT_USAGE, "batch: -o PATTERN is needed (e.g. 'out/{id}.pdf')");
  if (!strchr(bo->output, '{')) die(EXIT_USAGE, "batch: -o '%s' names no field: every record would write the same file (e.g. 'out/{index}.pdf')", bo->output);
  if (strcmp(bo->data, "-") == 0 && bo->jobs > 1) bo->jobs = 1;   /* standard input is read once */
  return 0;
}

/* A worker's line buffer: what it wrote past its last complete line. */
typedef struct { char data[16384]; size_t len; } linebuf_t;

/* Forks the workers, each writing its events to a pipe whose read end goes in fds[w]. */
static void batch_start_workers(const batch_opts_t *bo, pid_t pids[], int fds[], linebuf_t bufs[]) {
  long w;
  for (w = 0; w < bo->jobs; w++) {
    int pfd[2];
    if (pipe(pfd) != 0) die(1, "batch: cannot make a pipe: %s", strerror(errno));
    pids[w] = fork();
    if (pids[w] < 0) die(1, "batch: cannot start a worker: %s", strerror(errno));
    if (pids[w] == 0) {
      long v;
      close(pfd[0]);
      for (v = 0; v < w; v++) close(fds[v]);
      if (dup2(pfd[1], 1) < 0) _exit(1);
      close(pfd[1]);
      _exit(batch_worker(bo, w + 1));
    }
    close(pfd[1]);
    fds[w] = pfd[0];
    bufs[w].len = 0;
  }
}

/* Hands each complete line of the workers' pipes to batch_event(), until every pipe is
   closed. */
static void batch_read_events(batch_state_t *s, const batch_opts_t *bo, int fds[], linebuf_t bufs[]) {
  long w, open_count = bo->jobs;
  while (open_count > 0) {
    fd_set rd;
    int maxfd = -1;
    FD_ZERO(&rd);
    for (w = 0; w < bo->jobs; w++) {
      if (fds[w] >= 0) { FD_SET(fds[w], &rd); if (fds[w] > maxfd) maxfd = fds[w]; }
    }
    if (select(maxfd + 1, &rd, NULL, NULL, NULL) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (w = 0; w < bo->jobs; w++) {
      ssize_t got;
      char *nl, *start;
      if (fds[w] < 0 || !FD_ISSET(fds[w], &rd)) continue;
      if (bufs[w].len == sizeof bufs[w].data - 1) bufs[w].len = 0;   /* an absurd line: dropped */
      got = read(fds[w], bufs[w].data + bufs[w].len, sizeof bufs[w].data - 1 - bufs[w].len);
      if (got <= 0) {
        if (got < 0 && errno == EINTR) continue;
        close(fds[w]);
        fds[w] = -1;
        open_count--;
        continue;
      }
      bufs[w].len += (size_t)got;
      bufs[w].data[bufs[w].len] = '\0';
      start = bufs[w].data;
      while ((nl = strchr(start, '\n'))) {
        *nl = '\0';
        batch_event(s, start, bo);
        start = nl + 1;
      }
      bufs[w].len -= (size_t)(start - bufs[w].data);
      memmove(bufs[w].data, start, bufs[w].len);
    }
  }
}

/* The lines after the progress display: warnings not shown, leftovers removed, the totals. */
static void batch_summary(const batch_state_t *s, const batch_opts_t *bo, int crashed) {
  double el = now_seconds() - s->t0;
  long n = s->done + s->failed + s->skipped;
  if (s->warn_more) fprintf(stderr, "%s: %ld more different warnings not shown\n", progname, s->warn_more);
  if (s->cleared)
    fprintf(stderr, "%s: batch: removed %ld temporary file%s that a killed run left\n", progname, s->cleared,
            s->cleared == 1 ? "" : "s");
  if (!s->fatal)
    fprintf(stderr, "%s: batch: %ld done, %ld failed, %ld skipped of %ld in %.1f s (%.1f records/s, %ld worker%s%s)\n",
            progname, s->done, s->failed, s->skipped, s->total, el, el > 0 ? (double)n / el : 0.0, bo->jobs,
            bo->jobs == 1 ? "" : "s", bo->n > 1 ? ", one shard" : "");
  if (crashed && !s->fatal) fprintf(stderr, "%s: batch: a worker stopped unexpectedly\n", progname);
}

int cmd_batch(int argc, char **argv) {
  batch_opts_t bo;
  batch_state_t *s;
  int i, crashed = 0;
  pid_t pids[MAX_JOBS];
  int fds[MAX_JOBS];
  static linebuf_t bufs[MAX_JOBS];
  long w;

  if (batch_parse_options(argc, argv, &bo)) return 0;
  if (PARSE_ONLY) return 0;
  if (access(bo.tmpl, R_OK) != 0) die(1, "%s: cannot open: %s", bo.tmpl, strerror(errno));
  if (strcmp(bo.data, "-") != 0 && access(bo.data, R_OK) != 0) die(1, "%s: cannot open: %s", bo.data, strerror(errno));

  if (!(s = calloc(1, sizeof *s))) die(1, "out of memory");
  s->tty = isatty(2);
  s->quiet = bo.quiet;
  s->jobs = bo.jobs;
  s->next_plain = 1;
  s->t0 = now_seconds();
  fflush(stdout);
  fflush(stderr);
  batch_start_workers(&bo, pids, fds, bufs);
  /* read the workers' events as they come, a line buffer per worker */
  batch_read_events(s, &bo, fds, bufs);
  for (w = 0; w < bo.jobs; w++) {
    int st = 0;
    if (waitpid(pids[w], &st, 0) > 0 && (!WIFEXITED(st) || (WEXITSTATUS(st) != 0 && !s->fatal))) crashed = 1;
  }
  batch_progress(s, 1);
  batch_clear_line(s);
  batch_summary(s, &bo, crashed);
  i = s->fatal ? 1 : (s->failed > 0 || crashed || s->done + s->skipped + s->failed < s->total) ? EXIT_SOME_FAILED : 0;
  free(s);
  return i;
}
