/*
** hyphen.c: hyphenation points from libhyphen with the TeX-pattern dictionaries of
** Debian's hyphen-* packages (/usr/share/hyphen/hyph_<lang>.dic).  Text stage: knows
** fonts, never paint trees or pages.
*/
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hyphen.h>

#include "text.h"

#ifndef CT_HYPHEN_DIR
#define CT_HYPHEN_DIR "/usr/share/hyphen"
#endif

/* Loaded dictionaries, by language, for the life of the process. */
static struct { char lang[32]; HyphenDict *dict; } dicts[16];
static unsigned ndicts;

static HyphenDict *dict_for(const char *lang) {
  char tag[32], path[256];
  unsigned i;
  size_t k;
  HyphenDict *d = NULL;
  snprintf(tag, sizeof tag, "%s", lang && *lang ? lang : "en_US");
  for (k = 0; tag[k]; k++) {
    if (tag[k] == '-') tag[k] = '_';
    /* a language tag names a dictionary file: letters, digits and '_' only */
    if (!((tag[k] >= 'a' && tag[k] <= 'z') || (tag[k] >= 'A' && tag[k] <= 'Z') ||
          (tag[k] >= '0' && tag[k] <= '9') || tag[k] == '_'))
      return NULL;
  }
  for (i = 0; i < ndicts; i++)
    if (strcmp(dicts[i].lang, tag) == 0) return dicts[i].dict;
  snprintf(path, sizeof path, "%s/hyph_%s.dic", CT_HYPHEN_DIR, tag);
  d = hnj_hyphen_load(path);
  if (!d && strchr(tag, '_')) {   /* "de_CH" -> "de" */
    snprintf(path, sizeof path, "%s/hyph_%.*s.dic", CT_HYPHEN_DIR, (int)strcspn(tag, "_"), tag);
    d = hnj_hyphen_load(path);
  }
  if (ndicts < sizeof dicts / sizeof dicts[0]) {   /* remember misses too */
    snprintf(dicts[ndicts].lang, sizeof dicts[ndicts].lang, "%s", tag);
    dicts[ndicts++].dict = d;
  }
  return d;
}

ct_status_t ct_hyphenate(const char *word, size_t len, const char *language, size_t **out,
                         unsigned *count, ct_error_t *err) {
  HyphenDict *d;
  char *lower = NULL, *hy = NULL, **rep = NULL;
  int *pos = NULL, *cut = NULL;
  size_t i, *points = NULL;
  unsigned n = 0;
  *out = NULL;
  *count = 0;
  if (len == 0) return CT_OK;
  if (len > 1024) return ct_set_error(err, CT_ERR_LIMIT, "word of %zu bytes is too long to hyphenate", len);
  if (!(d = dict_for(language)))
    return ct_set_error(err, CT_ERR_NOT_FOUND, "no hyphenation dictionary for '%s' in %s (Debian packages hyphen-*)",
                        language && *language ? language : "en-US", CT_HYPHEN_DIR);
  lower = malloc(len + 1);
  hy = malloc(len + 5);
  points = malloc(len * sizeof *points);
  if (!lower || !hy || !points) {
    free(lower); free(hy); free(points);
    return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  }
  for (i = 0; i < len; i++) lower[i] = (char)tolower((unsigned char)word[i]);   /* ASCII case */
  lower[len] = '\0';
  if (hnj_hyphen_hyphenate2(d, lower, (int)len, hy, NULL, &rep, &pos, &cut) == 0) {
    /* an odd digit after byte i: a hyphen may follow it; keep two letters on each side */
    for (i = 1; i + 2 < len; i++)
      if ((hy[i] & 1) && (((unsigned char)word[i + 1] & 0xC0) != 0x80)) points[n++] = i + 1;
  }
  if (rep) {
    for (i = 0; i < len; i++) free(rep[i]);
    free(rep);
  }
  free(pos);
  free(cut);
  free(lower);
  free(hy);
  *out = points;
  *count = n;
  return CT_OK;
}
