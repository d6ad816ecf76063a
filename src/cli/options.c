/*
** options.c: the command line's one error path (die) and the helpers of its one option
** parser, shared by every command; under CT_FUZZ_CLI, what lets the fuzzer survive die().
*/
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char progname[] = "chromatype";

#ifdef CT_FUZZ_CLI
jmp_buf cli_jmp;
int cli_parse_only;
/* what the option parsers allocate (the program frees it by exiting), freed by the fuzzer
   after each input: die() may leave through longjmp at any point */
#define CLI_TRACK_MAX 256
static void *cli_tracked[CLI_TRACK_MAX];
static int cli_ntracked;
void cli_track(uintptr_t old, void *p) {
  int i;
  for (i = 0; old && i < cli_ntracked; i++) {
    if ((uintptr_t)cli_tracked[i] == old) { cli_tracked[i] = p; return; }
  }
  if (p && cli_ntracked < CLI_TRACK_MAX) cli_tracked[cli_ntracked++] = p;
}
void cli_free_tracked(void) {
  while (cli_ntracked > 0) free(cli_tracked[--cli_ntracked]);
}
#endif

void die(int code, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "%s: ", progname);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
#ifdef CT_FUZZ_CLI
  longjmp(cli_jmp, code ? code : 1);
#endif
  exit(code);
}

void warn_stderr(void *data, const char *msg) {
  (void)data;
  fprintf(stderr, "%s: warning: %s\n", progname, msg);
}
/* ---- option parsing --------------------------------------------------- */

/* Matches `name` (with or without "=value"); takes the value from the next argument
   when `has_value` and it was not attached. */
int opt_is(opts_t *o, const char *arg, const char *name, int has_value) {
  size_t n = strlen(name);
  if (strncmp(arg, name, n) != 0) return 0;
  if (arg[n] == '=') {
    if (!has_value) die(EXIT_USAGE, "option '%s' takes no value", name);
    o->value = arg + n + 1;
    return 1;
  }
  if (arg[n] != '\0') return 0;
  if (has_value) {
    if (o->i + 1 >= o->argc) die(EXIT_USAGE, "option '%s' needs a value", name);
    o->value = o->argv[++o->i];
  }
  return 1;
}

long parse_long(const char *opt, const char *s, long min, long max) {
  char *end;
  long v;
  errno = 0;
  v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < min || v > max)
    die(EXIT_USAGE, "bad value '%s' for %s (want an integer from %ld to %ld)", s, opt, min, max);
  return v;
}

double parse_double(const char *opt, const char *s, double min, double max) {
  char *end;
  double v;
  errno = 0;
  v = strtod(s, &end);
  if (errno || end == s || *end || !isfinite(v) || v < min || v > max)
    die(EXIT_USAGE, "bad value '%s' for %s (want a number from %g to %g)", s, opt, min, max);
  return v;
}

ct_rgba_t parse_color(const char *opt, const char *s) {
  ct_rgba_t c;
  if (ct_rgba_parse(s, &c) != 0)
    die(EXIT_USAGE, "bad color '%s' for %s (want RRGGBB or RRGGBBAA)", s, opt);
  return c;
}

/* "0=FF0000FF,3=00FF0080" */
ct_palette_override_t *parse_custom_palette(const char *s, unsigned *count) {
  ct_palette_override_t *ov = NULL;
  unsigned n = 0;
  const char *p = s;
  while (p && *p) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    char item[64], *eq, *stop;
    unsigned long idx;
    if (len == 0 || len >= sizeof item)
      die(EXIT_USAGE, "bad --custom-palette entry '%.*s' (want IDX=RRGGBBAA)", (int)len, p);
    memcpy(item, p, len);
    item[len] = '\0';
    eq = strchr(item, '=');
    if (!eq) die(EXIT_USAGE, "bad --custom-palette entry '%s' (want IDX=RRGGBBAA)", item);
    *eq = '\0';
    errno = 0;
    idx = strtoul(item, &stop, 10);
    if (errno || stop == item || *stop || idx > 65534)
      die(EXIT_USAGE, "bad palette index '%s' in --custom-palette (want 0..65534)", item);
    {
      uintptr_t was = (uintptr_t)ov;    /* (its value only, for the fuzzer's bookkeeping) */
      ct_palette_override_t *grown = realloc(ov, (n + 1) * sizeof *ov);
      if (!grown) die(1, "out of memory");
      TRACK(was, grown);
      ov = grown;
    }
    ov[n].index = (unsigned)idx;
    ov[n].color = parse_color("--custom-palette", eq + 1);
    n++;
    p = end ? end + 1 : NULL;
  }
  *count = n;
  return ov;
}

/* "U+1F600,U+1F601,263A" -> UTF-8 */
char *parse_unicodes(const char *s) {
  size_t cap = strlen(s) * 4 + 8, len = 0;
  char *out = malloc(cap);
  const char *p = s;
  if (!out) die(1, "out of memory");
  TRACK(NULL, out);
  while (*p) {
    char *end;
    unsigned long cp;
    while (*p == ',' || *p == ' ') p++;
    if (!*p) break;
    if ((p[0] == 'U' || p[0] == 'u') && p[1] == '+') p += 2;
    else if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) p += 2;
    errno = 0;
    cp = strtoul(p, &end, 16);
    if (errno || end == p || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) ||
        (*end && *end != ',' && *end != ' '))
      die(EXIT_USAGE, "bad code point '%.*s' in --unicodes (want U+XXXX,...)",
          (int)strcspn(p, ", "), p);
    if (cp < 0x80) out[len++] = (char)cp;
    else if (cp < 0x800) {
      out[len++] = (char)(0xC0 | (cp >> 6));
      out[len++] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out[len++] = (char)(0xE0 | (cp >> 12));
      out[len++] = (char)(0x80 | ((cp >> 6) & 0x3F));
      out[len++] = (char)(0x80 | (cp & 0x3F));
    } else {
      out[len++] = (char)(0xF0 | (cp >> 18));
      out[len++] = (char)(0x80 | ((cp >> 12) & 0x3F));
      out[len++] = (char)(0x80 | ((cp >> 6) & 0x3F));
      out[len++] = (char)(0x80 | (cp & 0x3F));
    }
    p = end;
  }
  out[len] = '\0';
  return out;
}

void parse_margin(const char *s, double m[4]) {
  double v[4];
  int n = 0;
  const char *p = s;
  while (*p && n < 4) {
    char *end;
    v[n] = strtod(p, &end);
    if (end == p || !isfinite(v[n]) || v[n] < 0 || v[n] > 10000 || (*end && *end != ',' && *end != ' '))
      die(EXIT_USAGE, "bad value '%s' for --margin (want 1 to 4 numbers, e.g. 16 or 8,16)", s);
    n++;
    p = *end ? end + 1 : end;
  }
  if (n == 0 || *p) die(EXIT_USAGE, "bad value '%s' for --margin (want 1 to 4 numbers)", s);
  /* CSS order: top, right, bottom, left */
  m[0] = v[0];
  m[1] = n > 1 ? v[1] : v[0];
  m[2] = n > 2 ? v[2] : v[0];
  m[3] = n > 3 ? v[3] : m[1];
}

ct_font_t *open_font(const char *path, unsigned index) {
  ct_error_t err;
  ct_font_t *font = ct_font_create(path, index, &err);   /* a path, or a name for fontconfig */
  if (!font) die(1, "%s", err.message);
  return font;
}

/* A palette by index, type ("light", "dark") or name. */
unsigned resolve_palette(ct_font_t *font, const char *s) {
  unsigned n = ct_font_get_palette_count(font), i;
  char *end;
  unsigned long v;
  char name[256];
  int found;
  errno = 0;
  v = strtoul(s, &end, 10);
  if (end != s && !*end && !errno) {
    if (v >= (n ? n : 1))
      die(1, "%s: palette %lu out of range (the font has %u palette%s%s)", ct_font_get_path(font), v,
          n, n == 1 ? "" : "s", n ? "" : ": it has no CPAL table");
    return (unsigned)v;
  }
  if (strcmp(s, "light") == 0 || strcmp(s, "dark") == 0) {
    found = ct_font_find_palette(font, s[0] == 'l' ? CT_PALETTE_TYPE_LIGHT : CT_PALETTE_TYPE_DARK);
    if (found < 0) die(1, "%s: no palette of type '%s'", ct_font_get_path(font), s);
    return (unsigned)found;
  }
  for (i = 0; i < n; i++)
    if (ct_font_get_palette_name(font, i, name, sizeof name) && strcmp(name, s) == 0) return i;
  die(1, "%s: no palette named '%s'", ct_font_get_path(font), s);
}

/* --ink SPEC (view and documents): checked at once, a bad spec is a usage error; an ink of
   a name given before replaces it.  Returns its index in inks[] (at most CT_MAX_INKS). */
unsigned add_ink(ct_ink_t inks[], unsigned *n, const char *spec) {
  char why[256];
  ct_ink_t ink;
  unsigned i;
  if (ct_ink_parse(spec, &ink, why, sizeof why) != 0) die(EXIT_USAGE, "--ink: %s", why);
  for (i = 0; i < *n && strcmp(inks[i].name, ink.name) != 0; i++) {}
  if (i == CT_MAX_INKS) die(EXIT_USAGE, "--ink: more than %d inks", CT_MAX_INKS);
  inks[i] = ink;
  if (i == *n) (*n)++;
  return i;
}

