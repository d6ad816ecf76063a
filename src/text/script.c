/*
** script.c: script runs of UTF-8 text by the Unicode Script property (ICU), for shaping each
** run with its own script.  Common and Inherited characters join a neighbouring run, and a
** closing bracket takes the script of its opening bracket (UAX #24).  Text stage: knows
** fonts, never paint trees or pages.
*/
#include <stdlib.h>
#include <string.h>

#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/utf8.h>

#include "text.h"

/* A script of its own: not Common, Inherited or Unknown (unassigned and private-use code
   points, which have no script to shape with either). */
static int real_script(UScriptCode s) {
  return s != USCRIPT_COMMON && s != USCRIPT_INHERITED && s != USCRIPT_UNKNOWN && s != USCRIPT_INVALID_CODE;
}

/* U+2329 and U+232A are canonically equivalent to U+3008 and U+3009 (UAX #9, BD16). */
static UChar32 canonical_bracket(UChar32 c) {
  return c == 0x2329 ? 0x3008 : c == 0x232A ? 0x3009 : c;
}

typedef struct {
  UChar32     close;    /* the bracket that closes it */
  UScriptCode script;   /* the script of the run it opened in (neutral until known) */
} open_bracket_t;

static ct_status_t add_run(ct_script_run_t **runs, unsigned *n, unsigned *cap, size_t start,
                           size_t end, UScriptCode script, ct_error_t *err) {
  const char *name = real_script(script) ? uscript_getShortName(script) : NULL;
  ct_script_run_t *r;
  if (*n == *cap) {
    unsigned ncap = *cap ? *cap * 2 : 8;
    ct_script_run_t *p = realloc(*runs, ncap * sizeof *p);
    if (!p) return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
    *runs = p;
    *cap = ncap;
  }
  r = &(*runs)[(*n)++];
  r->start = start;
  r->end = end;
  if (!name || strlen(name) != 4) name = "Zyyy";
  memcpy(r->script, name, 5);
  return CT_OK;
}

ct_status_t ct_script_runs(const char *utf8, size_t len, ct_script_run_t **out, unsigned *count,
                           ct_error_t *err) {
  open_bracket_t stack[CT_MAX_BRACKET_DEPTH];
  unsigned depth = 0, n = 0, cap = 0, j;
  ct_script_run_t *runs = NULL;
  UScriptCode cur = USCRIPT_COMMON;   /* the current run's script; neutral until one is seen */
  int32_t i = 0, start = 0, total;
  ct_status_t st;

  *out = NULL;
  *count = 0;
  if (len > CT_MAX_TEXT_BYTES || len > INT32_MAX)
    return ct_set_error(err, CT_ERR_LIMIT, "text of %zu bytes exceeds the limit of %u bytes", len, CT_MAX_TEXT_BYTES);
  total = (int32_t)len;
  while (i < total) {
    int32_t at = i;
    UChar32 c;
    UErrorCode ue = U_ZERO_ERROR;
    UScriptCode sc;
    int type, matched = -1;

    U8_NEXT((const uint8_t *)utf8, i, total, c);
    if (c < 0) {
      free(runs);
      return ct_set_error(err, CT_ERR_INVALID_ARG, "invalid UTF-8 at byte %d", (int)at + 1);
    }
    sc = uscript_getScript(c, &ue);
    if (U_FAILURE(ue)) sc = USCRIPT_COMMON;
    type = u_getIntPropertyValue(c, UCHAR_BIDI_PAIRED_BRACKET_TYPE);
    if (type == U_BPT_CLOSE) {   /* the innermost open bracket it closes, if any */
      UChar32 k = canonical_bracket(c);
      for (j = depth; j > 0; j--)
        if (stack[j - 1].close == k) { matched = (int)j - 1; break; }
      if (matched >= 0 && real_script(stack[matched].script)) sc = stack[matched].script;
    }
    if (real_script(sc) && real_script(cur) && sc != cur) {   /* a new run starts here */
      if ((st = add_run(&runs, &n, &cap, (size_t)start, (size_t)at, cur, err)) != CT_OK) goto fail;
      start = at;
      cur = sc;
    } else if (real_script(sc) && !real_script(cur)) {
      /* the first script of the text: brackets opened before it belong to it */
      cur = sc;
      for (j = 0; j < depth; j++)
        if (!real_script(stack[j].script)) stack[j].script = sc;
    }
    if (matched >= 0) {
      depth = (unsigned)matched;   /* closes it, and any left open inside it */
    } else if (type == U_BPT_OPEN) {
      if (depth == CT_MAX_BRACKET_DEPTH) {   /* too deep: forget the outermost */
        memmove(stack, stack + 1, (depth - 1) * sizeof *stack);
        depth--;
      }
      stack[depth].close = canonical_bracket(u_getBidiPairedBracket(c));
      stack[depth].script = cur;
      depth++;
    }
  }
  if (total > 0 && (st = add_run(&runs, &n, &cap, (size_t)start, len, cur, err)) != CT_OK) goto fail;
  *out = runs;
  *count = n;
  return CT_OK;
fail:
  free(runs);
  return st;
}
