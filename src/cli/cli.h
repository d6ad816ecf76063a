/*
** cli.h: what the files of the command line (src/cli/) share: one error path (die), one
** option parser, the options every Lua run takes, and the commands' entry points.  The
** command line sits on the core (ct.h) and the Lua bindings; nothing outside src/cli/ uses it.
*/
#ifndef CT_CLI_H
#define CT_CLI_H

#include <lua.h>

#include "ct.h"

#define EXIT_USAGE 2

extern const char progname[];   /* "chromatype", the start of every message */

/* ---- the error path (options.c) ------------------------------------------- */

/* Prints "chromatype: MESSAGE" to stderr and exits with `code` (under CT_FUZZ_CLI, jumps
   back to the fuzzer instead). */
void die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

/* A canvas's warning callback: "chromatype: warning: MSG" to stderr. */
void warn_stderr(void *data, const char *msg);

/* tests/fuzz/fuzz_cli.c links these files compiled with CT_FUZZ_CLI: die() returns to the
   fuzzer instead of exiting, and the commands stop when their options are parsed. */
#ifdef CT_FUZZ_CLI
#include <setjmp.h>
#include <stdint.h>
extern jmp_buf cli_jmp;       /* where die() jumps */
extern int cli_parse_only;    /* the commands return once their options are parsed */
/* Notes that the parsers' allocation `old` is now `p` (NULL: freed), or that `p` is new. */
void cli_track(uintptr_t old, void *p);
/* Frees what the parsers allocated (the program frees it by exiting). */
void cli_free_tracked(void);
#define PARSE_ONLY cli_parse_only
#define TRACK(old, p) cli_track((uintptr_t)(old), (p))
#else
#define PARSE_ONLY 0
#define TRACK(old, p) ((void)(old), (void)(p))
#endif

/* ---- the option parser (options.c); every parser dies on a bad value -------- */

typedef struct {
  int          argc, i;
  char       **argv;
  const char  *usage;
  const char  *value;     /* the current option's value */
} opts_t;

int opt_is(opts_t *o, const char *arg, const char *name, int has_value);
long parse_long(const char *opt, const char *s, long min, long max);
double parse_double(const char *opt, const char *s, double min, double max);
ct_rgba_t parse_color(const char *opt, const char *s);
ct_palette_override_t *parse_custom_palette(const char *s, unsigned *count);
char *parse_unicodes(const char *s);
void parse_margin(const char *s, double m[4]);
ct_font_t *open_font(const char *path, unsigned index);
unsigned resolve_palette(ct_font_t *font, const char *s);
unsigned add_ink(ct_ink_t inks[], unsigned *n, const char *spec);

/* ---- the options every run takes: filters, the seed, --watch, the sandbox (run.c) ---- */

#define MAX_FILTERS 64

typedef struct {
  const char *filters[MAX_FILTERS];
  int nfilters;
  const char *seed;
  int watch;
  int sandbox;
  const char *max_memory, *max_instructions, *timeout;
  const char *output;         /* -o of a document: writable in the sandbox */
  const char *plates;         /* --plates of a document: writable in the sandbox */
} run_opts_t;

extern run_opts_t cli_run_opts;

int take_run_option(int argc, char **argv, int *i);
/* A new Lua state for the run; NULL in the parent of a sandboxed run, which has finished
   (its exit status in *status): the command returns it. */
lua_State *new_state(int *status);
/* A fresh state beside the run's, under its limits (lct_newstate_more), with the same
   libraries; NULL without memory.  Closed by lct_close_more(L, *previous). */
lua_State *new_record_state(lua_State **previous);
void set_home(const char *input);
const char *cli_run_home(void);
void cli_filter_path(char *buf, size_t size);
int setup_run(lua_State *L);
void setup_run_as(lua_State *L, int seed, int filters);
int load_run(lua_State *L, const char *code, size_t size, const char *name);
void report_error(lua_State *L, const char *what);

/* ---- animations on the command line (animate.c) ---------------------------------- */

#define MAX_ANIMATE 64

typedef struct {
  const char *specs[MAX_ANIMATE];   /* --animate NAME=FROM:TO,... */
  unsigned    nspecs;
  double      duration, fps;        /* 0: unset */
  long        frames, loop, quality, effort, poster, jobs;   /* -1: unset */
  const char *ease;
  int         dither;
  const char *matte;
} anim_opts_t;

void anim_opts_init(anim_opts_t *a);
/* Takes one of the animation options at argv[o->i] (with its value); 0 if it is not one. */
int  take_anim_option(opts_t *o, const char *arg, anim_opts_t *a);
/* Sets the fields of the table on top of the stack: animate (a list), duration, fps, ... */
void push_anim_opts(lua_State *L, const anim_opts_t *a);
/* The options' help, for the usage texts. */
extern const char anim_usage[];

/* `view --animate`: the line drawn frame by frame with the animated values (viewanim.lua). */
typedef struct {
  const char *font, *text, *palette, *custom, *foreground, *background, *features, *variations;
  const char *script, *language, *direction, *format, *output;
  unsigned    index;
  double      size, dpi, margin[4];
} view_req_t;

int view_animation(const view_req_t *v, const anim_opts_t *a);

/* ---- --sandbox (sandbox.c) ---------------------------------------------------- */

/* Forks the confined child of a sandboxed run: returns 0 in the child, which has entered
   the sandbox (dies if it cannot), and 1 in the parent once the child has ended, its
   outputs taken back and its exit status in *status. */
int cli_sandbox_fork(int *status);
/* Whether this process is the confined child. */
int cli_sandbox_child(void);
/* In the child: a file the run read, for the parent's --watch. */
void cli_sandbox_send_input(const char *path);

/* ---- --watch (watch.c) ------------------------------------------------------ */

void collect_inputs(lua_State *L);
void inputs_add(const char *path);
int watch(int (*cmd)(int, char **), int argc, char **argv, const char *main_input);

/* ---- the commands (main.c's table names the first four): argv[0] is the command, the
   script or the document; each prints its own --help and returns the exit status ---- */

int cmd_view(int argc, char **argv);       /* view.c */
int cmd_info(int argc, char **argv);       /* info.c */
int cmd_paint(int argc, char **argv);      /* paint.c */
int cmd_batch(int argc, char **argv);      /* batch.c */
int cmd_document(int argc, char **argv);   /* document.c */
int cmd_script(int argc, char **argv);     /* script.c */
int cmd_font(int argc, char **argv);       /* font.c */

/* The whole command line (main.c); main() calls it, and so does the fuzzer. */
int cli_main(int argc, char **argv);

#endif /* CT_CLI_H */
