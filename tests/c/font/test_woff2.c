/* test_woff2.c: WOFF2 decoding through Google's reference decoder (src/font/woff2.cc).
   The fonts come from tests/fonts/make_woff2.py.

   ct-overlap.woff2 carries the glyf transform's overlapSimpleBitmap (optionFlags bit 0).
   What the libraries of Debian 12 make of it (checked by hand, see tests/fonts/README.md):
   FreeType 2.12.1's own WOFF2 decoder opens it and keeps the flags (FT_OUTLINE_OVERLAP on
   the glyphs the bitmap names, as from ct-overlap.ttf); libwoff2 1.0.2 decodes it but
   drops them (its ReconstructGlyf predates the bitmap), so woff2.cc puts them back.  The
   checks below hold the decoded font to the TTF: same outlines, same overlap flags. */
#include "font/font.h"

#include FT_OUTLINE_H

#include "ct-test.h"

static unsigned char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  unsigned char *d = NULL;
  long n;
  if (!f) return NULL;
  if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
      (d = malloc((size_t)n)) && fread(d, 1, (size_t)n, f) == (size_t)n) {
    *len = (size_t)n;
  } else {
    free(d);
    d = NULL;
  }
  fclose(f);
  return d;
}

/* The sum of a font's big-endian 32-bit words, padded with zeros: 0xB1B0AFBA for a whole
   font whose head.checkSumAdjustment is right. */
static uint32_t word_sum(const unsigned char *p, size_t n) {
  uint32_t sum = 0;
  size_t i;
  for (i = 0; i < n; i++) sum += (uint32_t)p[i] << (8 * (3 - i % 4));
  return sum;
}

/* Every glyph of two faces: same points, tags and contours, and the same overlap flag. */
static void same_outlines(FT_Face a, FT_Face b) {
  long g;
  CHECK(a->num_glyphs == b->num_glyphs);
  for (g = 0; g < a->num_glyphs && g < b->num_glyphs; g++) {
    FT_Outline *oa, *ob;
    int p, same = 1;
    CHECK(FT_Load_Glyph(a, (FT_UInt)g, FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING) == 0);
    CHECK(FT_Load_Glyph(b, (FT_UInt)g, FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING) == 0);
    oa = &a->glyph->outline;
    ob = &b->glyph->outline;
    CHECK_MSG(oa->n_points == ob->n_points && oa->n_contours == ob->n_contours, "glyph %ld", g);
    if (oa->n_points != ob->n_points || oa->n_contours != ob->n_contours) continue;
    for (p = 0; p < oa->n_points; p++)
      if (oa->points[p].x != ob->points[p].x || oa->points[p].y != ob->points[p].y ||
          (oa->tags[p] & 1) != (ob->tags[p] & 1))
        same = 0;
    CHECK_MSG(same, "glyph %ld: points differ", g);
    CHECK_MSG((oa->flags & FT_OUTLINE_OVERLAP) == (ob->flags & FT_OUTLINE_OVERLAP),
              "glyph %ld: overlap flag %d vs %d", g, !!(oa->flags & FT_OUTLINE_OVERLAP),
              !!(ob->flags & FT_OUTLINE_OVERLAP));
  }
}

static void overlap_font(void) {
  size_t wlen = 0, tlen = 0, slen = 0;
  unsigned char *w = slurp("tests/fonts/ct-overlap.woff2", &wlen);
  unsigned char *t = slurp("tests/fonts/ct-overlap.ttf", &tlen);
  unsigned char *sfnt = NULL;
  uint64_t detail = 1;
  FT_Library lib = NULL;
  FT_Face fw = NULL, ft = NULL;
  long g, overlapping = 0;
  CHECK(w && t);
  if (!w || !t) goto done;
  CHECK(ct_woff2_decode(w, wlen, CT_MAX_WOFF2_SFNT_SIZE, &sfnt, &slen, &detail) == CT_WOFF2_OK);
  CHECK(sfnt && slen > 12 && detail == 0);
  if (!sfnt) goto done;
  /* the flags put back keep the checksums right (glyf's entry and head's adjustment) */
  CHECK_MSG(word_sum(sfnt, slen) == 0xB1B0AFBAu, "font checksum %08x", word_sum(sfnt, slen));
  {
    unsigned i, n = (unsigned)(sfnt[4] << 8 | sfnt[5]);
    for (i = 0; i < n; i++) {
      const unsigned char *r = sfnt + 12 + 16 * i;
      uint32_t off = (uint32_t)r[8] << 24 | (uint32_t)r[9] << 16 | (uint32_t)r[10] << 8 | r[11];
      uint32_t len = (uint32_t)r[12] << 24 | (uint32_t)r[13] << 16 | (uint32_t)r[14] << 8 | r[15];
      uint32_t sum = (uint32_t)r[4] << 24 | (uint32_t)r[5] << 16 | (uint32_t)r[6] << 8 | r[7];
      if (memcmp(r, "glyf", 4) == 0) CHECK(off <= slen && len <= slen - off && word_sum(sfnt + off, len) == sum);
    }
  }
  CHECK(FT_Init_FreeType(&lib) == 0);
  CHECK(FT_New_Memory_Face(lib, sfnt, (FT_Long)slen, 0, &fw) == 0);
  CHECK(FT_New_Memory_Face(lib, t, (FT_Long)tlen, 0, &ft) == 0);
  if (!fw || !ft) goto done;
  same_outlines(fw, ft);
  for (g = 0; g < ft->num_glyphs; g++)
    if (FT_Load_Glyph(fw, (FT_UInt)g, FT_LOAD_NO_SCALE) == 0 && (fw->glyph->outline.flags & FT_OUTLINE_OVERLAP))
      overlapping++;
  CHECK_MSG(overlapping == 4, "%ld glyphs with OVERLAP_SIMPLE, expected 4 (.notdef, plus, O, C)", overlapping);

  /* a limit below the font's size: refused from the header's totalSfntSize ... */
  free(sfnt);
  sfnt = NULL;
  CHECK(ct_woff2_decode(w, wlen, 1000, &sfnt, &slen, &detail) == CT_WOFF2_TOO_BIG);
  CHECK(sfnt == NULL && detail == tlen);
  /* ... and, when the header understates it, by the output that would not fit: the
     directory's tables fit in the limit, the tables plus the sfnt's own directory do not */
  {
    unsigned char *lie = malloc(wlen);
    size_t tables = 0;
    CHECK(lie != NULL);
    if (lie) {
      memcpy(lie, w, wlen);
      lie[16] = lie[17] = lie[18] = 0;
      lie[19] = 100;                                  /* totalSfntSize = 100 */
      /* sum of the sfnt's padded table lengths: its size less its own directory */
      tables = tlen - 12 - 16 * (size_t)(t[4] << 8 | t[5]);
      CHECK(ct_woff2_decode(lie, wlen, tables, &sfnt, &slen, &detail) == CT_WOFF2_TOO_BIG);
      CHECK(sfnt == NULL && detail == 0);
      free(lie);
    }
  }
done:
  if (fw) FT_Done_Face(fw);
  if (ft) FT_Done_Face(ft);
  if (lib) FT_Done_FreeType(lib);
  free(sfnt);
  free(w);
  free(t);
}

/* Opening the files: the path names the file, the status says why. */
static void refused(const char *path, ct_status_t status, const char *words) {
  ct_error_t err;
  ct_font_t *f = ct_font_create_from_file(path, 0, &err);
  CHECK_MSG(f == NULL, "%s opened", path);
  ct_font_destroy(f);
  if (f) return;
  CHECK_MSG(err.status == status, "%s: status %d", path, (int)err.status);
  CHECK_MSG(strstr(err.message, path) != NULL && strstr(err.message, words) != NULL && !strchr(err.message, '\n'),
            "%s: message '%s'", path, err.message);
}

static void opening(void) {
  ct_error_t err;
  ct_font_t *a = ct_font_create_from_file("tests/fonts/ct-overlap.woff2", 0, &err);
  size_t len = 0;
  unsigned char *bytes = slurp("tests/fonts/ct-overlap.woff2", &len);
  ct_font_t *b = bytes ? ct_font_create_from_data(bytes, len, 0, "overlap.woff2", &err) : NULL;
  ct_font_info_t info;
  CHECK(a && b);
  if (a) {
    ct_font_get_info(a, &info);
    CHECK_STR(info.container, "WOFF2");
    CHECK(info.glyph_count == 5);
    CHECK(info.color_formats & CT_COLOR_COLR0);
  }
  if (a && b) CHECK(a->size == b->size && memcmp(a->data, b->data, a->size) == 0);
  ct_font_destroy(a);
  ct_font_destroy(b);
  free(bytes);
  /* a face index past a single WOFF2 font */
  a = ct_font_create_from_file("tests/fonts/ct-overlap.woff2", 1, &err);
  CHECK(a == NULL && err.status == CT_ERR_INVALID_ARG);
  ct_font_destroy(a);

  refused("tests/fonts/hostile-woff2-size.woff2", CT_ERR_LIMIT, "declares 4294967295 bytes");
  refused("tests/fonts/hostile-woff2-directory.woff2", CT_ERR_LIMIT, "declares 4294967280 bytes");
  refused("tests/fonts/hostile-woff2-truncated.woff2", CT_ERR_INVALID_FONT, "truncated WOFF2");
  refused("tests/fonts/hostile-woff2-corrupt.woff2", CT_ERR_INVALID_FONT, "invalid WOFF2");
}

/* Honk (npm @fontsource-variable/honk 5.3.0): FreeType 2.12.1's own decoder refuses every
   Honk WOFF2 of fontsource with FT_Err_Invalid_Table ("broken table"), as it refused one
   Noto Color Emoji subset of 335 fontsource files tried (docs/realfonts.md); the reference
   decoder reads them.  The FreeType half is checked on the 2.12 series only: it is why the
   decoder changed, not a property of chromatype. */
static void honk(void) {
  const char *path = "tests/fonts/fontsource/honk-latin-full-normal.woff2";
  ct_error_t err;
  ct_font_t *f = ct_font_create_from_file(path, 0, &err);
  CHECK_MSG(f != NULL, "%s", err.message);
  if (f) {
    ct_font_info_t info;
    ct_font_get_info(f, &info);
    CHECK(info.color_formats & CT_COLOR_COLR1);
  }
  ct_font_destroy(f);
#if FREETYPE_MAJOR == 2 && FREETYPE_MINOR == 12
  {
    FT_Library lib;
    FT_Face face = NULL;
    if (FT_Init_FreeType(&lib) == 0) {
      FT_Error e = FT_New_Face(lib, path, 0, &face);
      CHECK_MSG(e == FT_Err_Invalid_Table, "FreeType 2.12 alone: error %d", e);
      if (face) FT_Done_Face(face);
      FT_Done_FreeType(lib);
    }
  }
#endif
}

/* A WOFF2 collection (Google's encoder makes one from ct-collection.ttc): it goes to the
   decoder as it is, and both faces open, each with its own names and palettes. */
static void collection(void) {
  size_t tlen = 0, wlen = 0;
  unsigned char *ttc = slurp("tests/fonts/ct-collection.ttc", &tlen);
  unsigned char *w = ttc ? ct_woff2_encode(ttc, tlen, &wlen) : NULL;
  unsigned i;
  CHECK(w != NULL && wlen > 48 && memcmp(w + 4, "ttcf", 4) == 0);
  for (i = 0; w && i < 2; i++) {
    ct_error_t err;
    ct_font_t *f = ct_font_create_from_data(w, wlen, i, "collection.woff2", &err);
    ct_font_info_t info;
    CHECK_MSG(f != NULL, "face %u: %s", i, err.message);
    if (!f) continue;
    ct_font_get_info(f, &info);
    CHECK_STR(info.container, "WOFF2");
    CHECK_STR(info.family, i == 0 ? "Chromatype Test" : "Chromatype Test Two");
    CHECK(info.face_count == 2 && info.glyph_count == 10);
    ct_font_destroy(f);
  }
  if (w) {
    ct_error_t err;
    ct_font_t *f = ct_font_create_from_data(w, wlen, 2, "collection.woff2", &err);
    CHECK(f == NULL && err.status == CT_ERR_INVALID_ARG && strstr(err.message, "out of range"));
    ct_font_destroy(f);
  }
  free(w);
  free(ttc);
}

int main(void) {
  overlap_font();
  collection();
  honk();
  opening();
  return ct_test_report("test_woff2");
}
