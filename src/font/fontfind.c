/*
** fontfind.c: fonts by name through fontconfig ("Noto Color Emoji",
** "Bungee:style=Regular"), refusing fontconfig's silent substitutes.  Font stage: knows no
** paint tree, color table or page.
*/
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <fontconfig/fontconfig.h>

#include "font.h"

/* 1 when `want` (a family name) is one of the pattern's families. */
static int has_family(FcPattern *p, const char *want) {
  FcChar8 *fam;
  int i;
  for (i = 0; FcPatternGetString(p, FC_FAMILY, i, &fam) == FcResultMatch; i++)
    if (strcasecmp((const char *)fam, want) == 0) return 1;
  return 0;
}

ct_status_t ct_font_find(const char *name, char *path, size_t size, unsigned *index, ct_error_t *err) {
  FcPattern *pat = NULL, *match = NULL;
  FcResult res;
  FcChar8 *file = NULL, *family = NULL, *want = NULL;
  int idx = 0;
  ct_status_t st = CT_OK;

  if (!FcInit()) return ct_set_error(err, CT_ERR_BACKEND, "fontconfig: cannot start");
  pat = FcNameParse((const FcChar8 *)name);
  if (!pat || FcPatternGetString(pat, FC_FAMILY, 0, &want) != FcResultMatch)
    return FcPatternDestroy(pat), ct_set_error(err, CT_ERR_INVALID_ARG, "bad font name '%s' (want e.g. \"Noto Color Emoji\" or \"Bungee:style=Regular\")", name);
  FcConfigSubstitute(NULL, pat, FcMatchPattern);
  FcDefaultSubstitute(pat);
  match = FcFontMatch(NULL, pat, &res);
  if (!match || res != FcResultMatch || FcPatternGetString(match, FC_FILE, 0, &file) != FcResultMatch) {
    st = ct_set_error(err, CT_ERR_NOT_FOUND, "no font named '%s' (fontconfig found nothing)", name);
  } else if (!has_family(match, (const char *)want)) {   /* fontconfig always answers: check */
    FcPatternGetString(match, FC_FAMILY, 0, &family);
    st = ct_set_error(err, CT_ERR_NOT_FOUND, "no font named '%s' (fontconfig's nearest is '%s'; "
                      "'fc-list : family' lists the installed families)", (const char *)want,
                      family ? (const char *)family : "?");
  } else {
    FcPatternGetInteger(match, FC_INDEX, 0, &idx);
    if ((size_t)snprintf(path, size, "%s", (const char *)file) >= size)
      st = ct_set_error(err, CT_ERR_LIMIT, "font path too long: %s", (const char *)file);
    *index = idx > 0 ? (unsigned)idx : 0;
  }
  if (match) FcPatternDestroy(match);
  FcPatternDestroy(pat);
  return st;
}

/* A path: it has a slash, a font file's extension, or names an existing file. */
static int looks_like_path(const char *s) {
  static const char *const ext[] = { ".ttf", ".otf", ".ttc", ".otc", ".woff", ".woff2", NULL };
  const char *dot = strrchr(s, '.');
  int i;
  if (strchr(s, '/') || access(s, F_OK) == 0) return 1;
  for (i = 0; dot && ext[i]; i++)
    if (strcasecmp(dot, ext[i]) == 0) return 1;
  return 0;
}

ct_font_t *ct_font_create(const char *path_or_name, unsigned index, ct_error_t *err) {
  char path[4096];
  unsigned found_index = 0;
  if (looks_like_path(path_or_name)) return ct_font_create_from_file(path_or_name, index, err);
  if (ct_font_find(path_or_name, path, sizeof path, &found_index, err) != CT_OK) return NULL;
  return ct_font_create_from_file(path, index ? index : found_index, err);
}
