/*
** fontbuild-subset.c: a written font's last steps, on its bytes (hb-subset to a text, WOFF2,
** the file), and a text's glyph closure.  Font builder, core layer; knows nothing of the
** builder, its glyphs or its tables.
*/
#include <string.h>

#include <hb-subset.h>

#include "fontbuild.h"

#define TAG CT_TAG

/* A set of the subset input that holds everything. */
static void keep_all(hb_subset_input_t *in, hb_subset_sets_t which) {
  hb_set_t *set = hb_subset_input_set(in, which);
  hb_set_clear(set);
  hb_set_invert(set);
}

static ct_status_t subset(ct_buf_t *font, const char *text, ct_error_t *err) {
  hb_blob_t *blob = hb_blob_create((const char *)font->p, (unsigned)font->len, HB_MEMORY_MODE_READONLY, NULL, NULL);
  hb_face_t *face = hb_face_create(blob, 0), *sub = NULL;
  hb_subset_input_t *in = hb_subset_input_create_or_fail();
  hb_blob_t *out = NULL;
  ct_status_t st = CT_OK;
  size_t i = 0, n = strlen(text);
  unsigned flags = HB_SUBSET_FLAGS_GLYPH_NAMES | HB_SUBSET_FLAGS_NAME_LEGACY | HB_SUBSET_FLAGS_NOTDEF_OUTLINE;
  hb_blob_t *svg, *colr;
  int has_svg, var_colr;
  const unsigned char *cb;
  unsigned clen;
  if (!in) {
    st = ct_set_error(err, CT_ERR_NOMEM, "out of memory");
    goto done;
  }
  while (i < n) {
    size_t used = 0;
    uint32_t c = ct_utf8_decode(text + i, n - i, &used);
    if (!used) break;
    hb_set_add(hb_subset_input_unicode_set(in), c);
    i += used;
  }
  /* keep every name, language, layout feature and script (each set emptied, then
     inverted: all); glyph names too */
  keep_all(in, HB_SUBSET_SETS_NAME_ID);
  keep_all(in, HB_SUBSET_SETS_NAME_LANG_ID);
  keep_all(in, HB_SUBSET_SETS_LAYOUT_FEATURE_TAG);
  keep_all(in, HB_SUBSET_SETS_LAYOUT_SCRIPT_TAG);
  svg = hb_face_reference_table(face, TAG('S', 'V', 'G', ' '));
  has_svg = hb_blob_get_length(svg) > 0;
  hb_blob_destroy(svg);
  colr = hb_face_reference_table(face, TAG('C', 'O', 'L', 'R'));
  cb = (const unsigned char *)hb_blob_get_data(colr, &clen);
  var_colr = ct_colr_table_varies(cb, clen);
  hb_blob_destroy(colr);
  if (has_svg || var_colr) {
    /* hb-subset 6.0 drops SVG tables and COLR's variations, and prunes CPAL entries under
       COLR: with an SVG table or a variable COLR, glyph ids stay (dropped glyphs are
       emptied) and SVG, COLR, CPAL, fvar and STAT are kept as they are (the color glyphs
       written are already those of the subset) */
    hb_set_t *keep = hb_subset_input_set(in, HB_SUBSET_SETS_NO_SUBSET_TABLE_TAG);
    hb_set_add(keep, TAG('S', 'V', 'G', ' '));
    hb_set_add(keep, TAG('C', 'O', 'L', 'R'));
    hb_set_add(keep, TAG('C', 'P', 'A', 'L'));
    hb_set_add(keep, TAG('f', 'v', 'a', 'r'));
    hb_set_add(keep, TAG('S', 'T', 'A', 'T'));
    hb_set_del(hb_subset_input_set(in, HB_SUBSET_SETS_DROP_TABLE_TAG), TAG('S', 'V', 'G', ' '));
    flags |= HB_SUBSET_FLAGS_RETAIN_GIDS | HB_SUBSET_FLAGS_PASSTHROUGH_UNRECOGNIZED;
  }
  hb_subset_input_set_flags(in, flags);
  if (!(sub = hb_subset_or_fail(face, in))) {
    st = ct_set_error(err, CT_ERR_BACKEND, "hb-subset could not subset the font");
    goto done;
  }
  out = hb_face_reference_blob(sub);
  {
    unsigned len = 0;
    const char *d = hb_blob_get_data(out, &len);
    ct_buf_t b = { 0 };
    ct_buf_bytes(&b, d, len);
    if (b.failed || len == 0) {
      ct_buf_free(&b);
      st = ct_set_error(err, CT_ERR_NOMEM, "out of memory");
      goto done;
    }
    ct_buf_free(font);
    *font = b;
  }
done:
  hb_blob_destroy(out);
  hb_face_destroy(sub);
  hb_subset_input_destroy(in);
  hb_face_destroy(face);
  hb_blob_destroy(blob);
  return st;
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

/* ---- the glyphs a subset keeps ------------------------------------------------------ */

unsigned ct_font_get_glyph_closure(ct_font_t *font, const char *utf8, unsigned *gids, unsigned max) {
  hb_subset_input_t *in = hb_subset_input_create_or_fail();
  hb_subset_plan_t *plan = NULL;
  unsigned n = 0;
  size_t i = 0, len = strlen(utf8);
  if (!in) return 0;
  while (i < len) {
    size_t used = 0;
    uint32_t c = ct_utf8_decode(utf8 + i, len - i, &used);
    if (!used) break;
    hb_set_add(hb_subset_input_unicode_set(in), c);
    i += used;
  }
  keep_all(in, HB_SUBSET_SETS_LAYOUT_FEATURE_TAG);
  keep_all(in, HB_SUBSET_SETS_LAYOUT_SCRIPT_TAG);
  if ((plan = hb_subset_plan_create_or_fail(font->hb_face, in))) {
    const hb_map_t *old_to_new = hb_subset_plan_old_to_new_glyph_mapping(plan);
    unsigned g;
    for (g = 0; g < font->glyph_count; g++)
      if (hb_map_has(old_to_new, g)) {
        if (n < max) gids[n] = g;
        n++;
      }
    hb_subset_plan_destroy(plan);
  }
  hb_subset_input_destroy(in);
  return n;
}

/* What is written must open again: hb-subset, given a lead whose tables FreeType tolerates,
   may leave out one it needs (a subset without hhea, found by fuzz-fontbuild). */
static ct_status_t opens_again(const ct_buf_t *file, const char *path, ct_error_t *err) {
  ct_error_t why;
  ct_font_t *font = ct_font_create_from_data(file->p, file->len, 0, "the font built", &why);
  if (!font)
    return ct_set_error(err, CT_ERR_INVALID_FONT, "%s: not written: %s", path ? path : "font", why.message);
  ct_font_destroy(font);
  return CT_OK;
}

ct_status_t ct_build_output(ct_buf_t *file, const char *path, const ct_font_write_options_t *o,
                            ct_error_t *err) {
  ct_status_t st;
  if (o->text && (st = subset(file, o->text, err))) return st;
  if ((st = opens_again(file, path, err))) return st;
  if (o->woff2 || (path && ends_with(path, ".woff2"))) {
    size_t len = 0;
    unsigned char *w = ct_woff2_encode(file->p, file->len, &len);
    if (!w) return ct_set_error(err, CT_ERR_BACKEND, "the WOFF2 encoder refused the font");
    ct_buf_free(file);
    file->p = w;
    file->len = file->cap = len;
  }
  return ct_file_write_atomic(path, file->p, file->len, err);
}
