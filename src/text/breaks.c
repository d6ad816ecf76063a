/*
** breaks.c: line-break opportunities by Unicode's rules (UAX #14, ICU's line break
** iterator: ICU 72 knows current emoji sequences) and grapheme cluster boundaries (UAX #29,
** ICU's character iterator), as byte offsets into UTF-8.  Text stage: knows fonts, never
** paint trees or pages.
*/
#include <stdlib.h>
#include <string.h>

#include <unicode/ubrk.h>
#include <unicode/ustring.h>
#include <unicode/utext.h>

#include "text.h"

/* The boundaries of ICU break iterator `type` over the text; see ct_line_breaks. */
static ct_status_t boundaries(UBreakIteratorType type, const char *what, const char *utf8, size_t len,
                              const char *language, size_t **out, unsigned char **mandatory,
                              unsigned *count, ct_error_t *err) {
  UErrorCode ue = U_ZERO_ERROR;
  UText *ut = NULL;
  UBreakIterator *bi = NULL;
  size_t *pos = NULL;
  unsigned char *hard = NULL;
  unsigned n = 0, cap = 0;
  int32_t b;
  ct_status_t st = CT_OK;

  *out = NULL;
  *count = 0;
  if (mandatory) *mandatory = NULL;
  if (len > CT_MAX_TEXT_BYTES || len > INT32_MAX)
    return ct_set_error(err, CT_ERR_LIMIT, "text of %zu bytes exceeds the limit of %u bytes", len, CT_MAX_TEXT_BYTES);
  ut = utext_openUTF8(NULL, utf8, (int64_t)len, &ue);
  bi = ubrk_open(type, language && *language ? language : "", NULL, 0, &ue);
  if (U_FAILURE(ue)) {
    st = ct_set_error(err, CT_ERR_BACKEND, "ICU %s breaker: %s", what, u_errorName(ue));
    goto done;
  }
  ubrk_setUText(bi, ut, &ue);
  if (U_FAILURE(ue)) {
    st = ct_set_error(err, CT_ERR_BACKEND, "ICU %s breaker: %s", what, u_errorName(ue));
    goto done;
  }
  /* with UText over UTF-8, break positions are UTF-8 byte offsets */
  for (b = ubrk_first(bi); (b = ubrk_next(bi)) != UBRK_DONE;) {
    if (n == cap) {
      unsigned ncap = cap ? cap * 2 : 64;
      size_t *p = realloc(pos, ncap * sizeof *p);
      unsigned char *h = realloc(hard, ncap);
      if (p) pos = p;
      if (h) hard = h;
      if (!p || !h) { st = ct_set_error(err, CT_ERR_NOMEM, "out of memory"); goto done; }
      cap = ncap;
    }
    pos[n] = (size_t)b;
    hard[n] = type == UBRK_LINE && ubrk_getRuleStatus(bi) >= UBRK_LINE_HARD;
    n++;
  }
  *out = pos;
  *count = n;
  if (mandatory) *mandatory = hard;
  else free(hard);
  pos = NULL;
  hard = NULL;
done:
  free(pos);
  free(hard);
  if (bi) ubrk_close(bi);
  if (ut) utext_close(ut);
  return st;
}

ct_status_t ct_line_breaks(const char *utf8, size_t len, const char *language, size_t **out,
                           unsigned char **mandatory, unsigned *count, ct_error_t *err) {
  return boundaries(UBRK_LINE, "line", utf8, len, language, out, mandatory, count, err);
}

ct_status_t ct_grapheme_breaks(const char *utf8, size_t len, size_t **out, unsigned *count,
                               ct_error_t *err) {
  return boundaries(UBRK_CHARACTER, "grapheme", utf8, len, NULL, out, NULL, count, err);
}
