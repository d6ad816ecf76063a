/*
** bidi.c: the Unicode bidirectional algorithm (FriBidi) for one line: level runs in
** visual order, as byte ranges of the UTF-8 text, each to be shaped in its own direction
** (HarfBuzz then orders the glyphs inside a run).  Text stage: knows fonts, never paint
** trees or pages.
*/
#include <stdlib.h>
#include <string.h>

#include <fribidi.h>

#include "text.h"

ct_status_t ct_bidi_runs(const char *utf8, size_t len, ct_direction_t base, ct_bidi_run_t **out,
                         unsigned *count, ct_direction_t *resolved, ct_error_t *err) {
  FriBidiChar *cps = NULL;
  FriBidiCharType *types = NULL;
  FriBidiBracketType *brackets = NULL;
  FriBidiLevel *levels = NULL;
  FriBidiParType pdir;
  size_t *offs = NULL, i, n = 0;
  ct_bidi_run_t *runs = NULL;
  unsigned nruns = 0, r;
  int maxlev = 0, lev;
  ct_status_t st = CT_OK;

  *out = NULL;
  *count = 0;
  if (len > CT_MAX_TEXT_BYTES)
    return ct_set_error(err, CT_ERR_LIMIT, "text of %zu bytes exceeds the limit of %u bytes", len, CT_MAX_TEXT_BYTES);
  cps = malloc((len + 1) * sizeof *cps);
  offs = malloc((len + 1) * sizeof *offs);
  if (!cps || !offs) goto nomem;
  for (i = 0; i < len;) {   /* code points and the byte offset of each */
    size_t used;
    cps[n] = ct_utf8_decode(utf8 + i, len - i, &used);
    offs[n++] = i;
    i += used ? used : 1;
  }
  offs[n] = len;
  types = malloc((n + 1) * sizeof *types);
  brackets = malloc((n + 1) * sizeof *brackets);
  levels = malloc((n + 1) * sizeof *levels);
  runs = malloc((n + 1) * sizeof *runs);
  if (!types || !brackets || !levels || !runs) goto nomem;
  pdir = base == CT_DIR_RTL ? FRIBIDI_PAR_RTL : base == CT_DIR_LTR ? FRIBIDI_PAR_LTR : FRIBIDI_PAR_ON;
  fribidi_get_bidi_types(cps, (FriBidiStrIndex)n, types);
  fribidi_get_bracket_types(cps, (FriBidiStrIndex)n, types, brackets);
  if (n && !fribidi_get_par_embedding_levels_ex(types, brackets, (FriBidiStrIndex)n, &pdir, levels)) {
    st = ct_set_error(err, CT_ERR_BACKEND, "bidi: FriBidi failed");
    goto done;
  }
  if (resolved) *resolved = FRIBIDI_IS_RTL(pdir) ? CT_DIR_RTL : CT_DIR_LTR;
  /* level runs in logical order */
  for (i = 0; i < n; i++) {
    if (nruns == 0 || runs[nruns - 1].level != levels[i]) {
      runs[nruns].start = offs[i];
      runs[nruns].level = levels[i];
      nruns++;
    }
    runs[nruns - 1].end = offs[i + 1];
    if (levels[i] > maxlev) maxlev = levels[i];
  }
  /* rule L2: from the highest level down to the lowest odd one, reverse every sequence of
     runs at that level or higher */
  for (lev = maxlev; lev >= 1; lev--) {
    for (r = 0; r < nruns;) {
      unsigned s = r, e;
      if (runs[r].level < lev) { r++; continue; }
      while (r < nruns && runs[r].level >= lev) r++;
      for (e = r - 1; s < e; s++, e--) {
        ct_bidi_run_t t = runs[s];
        runs[s] = runs[e];
        runs[e] = t;
      }
    }
  }
  *out = runs;
  *count = nruns;
  runs = NULL;
  goto done;
nomem:
  st = ct_set_error(err, CT_ERR_NOMEM, "out of memory");
done:
  free(cps);
  free(offs);
  free(types);
  free(brackets);
  free(levels);
  free(runs);
  return st;
}
