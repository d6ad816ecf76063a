/*
** shape.c: HarfBuzz shaping with features, script, language and direction;
** clusters are kept as byte offsets for text extraction.  Text stage: knows fonts, never
** paint trees or pages.
*/
#include <stdlib.h>
#include <string.h>

#include "text.h"

#define MAX_FEATURES 256

/* Parses "+liga,-kern,ss01=1" into HarfBuzz features; returns the count or -1. */
static int parse_features(const char *spec, hb_feature_t *out, int max, const char **bad,
                          int *badlen) {
  int n = 0;
  const char *p = spec;
  while (p && *p) {
    const char *end = strchr(p, ',');
    int len = end ? (int)(end - p) : (int)strlen(p);
    while (len > 0 && *p == ' ') { p++; len--; }
    if (len > 0) {
      if (n == max || !hb_feature_from_string(p, len, &out[n])) {
        *bad = p;
        *badlen = len;
        return -1;
      }
      n++;
    }
    p = end ? end + 1 : NULL;
  }
  return n;
}

static hb_direction_t to_hb_dir(ct_direction_t d) {
  switch (d) {
  case CT_DIR_LTR: return HB_DIRECTION_LTR;
  case CT_DIR_RTL: return HB_DIRECTION_RTL;
  case CT_DIR_TTB: return HB_DIRECTION_TTB;
  case CT_DIR_BTT: return HB_DIRECTION_BTT;
  case CT_DIR_AUTO: break;
  }
  return HB_DIRECTION_INVALID;
}

static ct_direction_t from_hb_dir(hb_direction_t d) {
  switch (d) {
  case HB_DIRECTION_RTL: return CT_DIR_RTL;
  case HB_DIRECTION_TTB: return CT_DIR_TTB;
  case HB_DIRECTION_BTT: return CT_DIR_BTT;
  default: return CT_DIR_LTR;
  }
}

ct_status_t ct_shape(ct_font_t *font, const char *utf8, size_t len,
                     const ct_shape_options_t *opts, ct_shaped_t *out, ct_error_t *err) {
  hb_feature_t features[MAX_FEATURES];
  int nfeat = 0;
  hb_buffer_t *buf = NULL;
  hb_glyph_info_t *info;
  hb_glyph_position_t *pos;
  unsigned n, i;

  memset(out, 0, sizeof *out);
  if (len > CT_MAX_TEXT_BYTES)
    return ct_set_error(err, CT_ERR_LIMIT, "text of %zu bytes exceeds the limit of %u bytes", len,
                        CT_MAX_TEXT_BYTES);
  if (opts && opts->features) {
    const char *bad = NULL;
    int badlen = 0;
    nfeat = parse_features(opts->features, features, MAX_FEATURES, &bad, &badlen);
    if (nfeat < 0)
      return ct_set_error(err, CT_ERR_INVALID_ARG, "bad feature '%.*s' (want e.g. +liga, -kern, ss01=1)",
                          badlen, bad);
  }
  buf = hb_buffer_create();
  if (!hb_buffer_allocation_successful(buf)) goto nomem;
  hb_buffer_set_cluster_level(buf, HB_BUFFER_CLUSTER_LEVEL_MONOTONE_CHARACTERS);
  hb_buffer_add_utf8(buf, utf8, (int)len, 0, (int)len);
  if (opts) {
    if (opts->script) {
      hb_script_t s = hb_script_from_string(opts->script, -1);
      const char *c = opts->script;
      int letters = 0;
      while (letters < 5 && ((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z'))) { c++; letters++; }
      if (letters != 4 || *c || s == HB_SCRIPT_INVALID) {
        hb_buffer_destroy(buf);
        return ct_set_error(err, CT_ERR_INVALID_ARG, "bad script '%s' (want an ISO 15924 code, e.g. Latn)",
                            opts->script);
      }
      hb_buffer_set_script(buf, s);
    }
    if (opts->language) hb_buffer_set_language(buf, hb_language_from_string(opts->language, -1));
    if (opts->direction != CT_DIR_AUTO) hb_buffer_set_direction(buf, to_hb_dir(opts->direction));
  }
  hb_buffer_guess_segment_properties(buf);
  hb_shape(font->hb_font, buf, features, (unsigned)nfeat);
  if (!hb_buffer_allocation_successful(buf)) goto nomem;

  info = hb_buffer_get_glyph_infos(buf, &n);
  pos = hb_buffer_get_glyph_positions(buf, &n);
  out->direction = from_hb_dir(hb_buffer_get_direction(buf));
  if (n) {
    out->glyphs = malloc(n * sizeof *out->glyphs);
    if (!out->glyphs) goto nomem;
  }
  for (i = 0; i < n; i++) {
    out->glyphs[i].gid = info[i].codepoint;
    out->glyphs[i].cluster = info[i].cluster;
    out->glyphs[i].x_advance = pos[i].x_advance;
    out->glyphs[i].y_advance = pos[i].y_advance;
    out->glyphs[i].x_offset = pos[i].x_offset;
    out->glyphs[i].y_offset = pos[i].y_offset;
  }
  out->count = n;
  hb_buffer_destroy(buf);
  return CT_OK;

nomem:
  hb_buffer_destroy(buf);
  return ct_set_error(err, CT_ERR_NOMEM, "out of memory while shaping");
}

void ct_shaped_fini(ct_shaped_t *shaped) {
  free(shaped->glyphs);
  shaped->glyphs = NULL;
  shaped->count = 0;
}
