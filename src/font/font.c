/*
** font.c: opening fonts (sfnt, collections, WOFF, WOFF2) into FreeType and HarfBuzz,
** and what a font says about itself: names, metrics, color formats, axes.  Font stage:
** the caches of the stages above are slots it clears and destroys, never reads.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <hb-ft.h>
#include <cairo-ft.h>
#include <hb-ot.h>

#include "font.h"
#include "woff2.h"
#include FT_MULTIPLE_MASTERS_H
#include FT_TRUETYPE_TABLES_H
#include FT_TRUETYPE_TAGS_H

#define TAG(a, b, c, d) (((uint32_t)(a) << 24) | ((uint32_t)(b) << 16) | ((uint32_t)(c) << 8) | (uint32_t)(d))

static uint32_t be32(const unsigned char *p) {
  return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

/* HarfBuzz reads WOFF tables through FreeType, which has already inflated them. */
static hb_blob_t *reference_table_ft(hb_face_t *face, hb_tag_t tag, void *user) {
  FT_Face ft = user;
  FT_ULong len = 0;
  unsigned char *buf;
  (void)face;
  if (FT_Load_Sfnt_Table(ft, tag, 0, NULL, &len) || len == 0) return NULL;
  buf = malloc(len);
  if (!buf) return NULL;
  if (FT_Load_Sfnt_Table(ft, tag, 0, buf, &len)) { free(buf); return NULL; }
  return hb_blob_create((const char *)buf, (unsigned)len, HB_MEMORY_MODE_WRITABLE, buf, free);
}

static int has_table(ct_font_t *font, uint32_t tag) {
  FT_ULong len = 0;
  return FT_Load_Sfnt_Table(font->ft_face, tag, 0, NULL, &len) == 0 && len > 0;
}

/* COLR version 0 with base glyph records, or version 1 with a base glyph list. */
static unsigned colr_formats(ct_font_t *font) {
  hb_blob_t *blob = hb_face_reference_table(font->hb_face, HB_TAG('C', 'O', 'L', 'R'));
  unsigned len = 0, formats = 0;
  const unsigned char *p = (const unsigned char *)hb_blob_get_data(blob, &len);
  if (len >= 14) {
    unsigned version = (unsigned)(p[0] << 8 | p[1]);
    unsigned num_base = (unsigned)(p[2] << 8 | p[3]);
    if (num_base > 0) formats |= CT_COLOR_COLR0;
    if (version >= 1 && len >= 34 && be32(p + 14) != 0) formats |= CT_COLOR_COLR1;
  }
  hb_blob_destroy(blob);
  return formats;
}

/* FreeType opens a truncated font and fails later, glyph by glyph: check up front that
   the table directory of the face and every table it lists lie inside the file. */
static ct_status_t check_sfnt(const unsigned char *d, size_t size, unsigned index, const char *name,
                              ct_error_t *err) {
  size_t dir = 0;
  unsigned n, i;
  if (be32(d) == TAG('t', 't', 'c', 'f')) {
    unsigned nfonts = size >= 12 ? be32(d + 8) : 0;
    if (nfonts == 0 || (size - 12) / 4 < nfonts)
      return ct_set_error(err, CT_ERR_INVALID_FONT, "%s: truncated collection header", name);
    if (index >= nfonts)
      return ct_set_error(err, CT_ERR_INVALID_ARG, "%s: face index %u out of range (the file has %u face%s)",
                          name, index, nfonts, nfonts == 1 ? "" : "s");
    dir = be32(d + 12 + 4 * (size_t)index);
  } else if (index > 0) {
    return ct_set_error(err, CT_ERR_INVALID_ARG, "%s: face index %u out of range (the file has 1 face)",
                        name, index);
  }
  if (dir > size || size - dir < 12)
    return ct_set_error(err, CT_ERR_INVALID_FONT, "%s: truncated: no table directory", name);
  n = (unsigned)(d[dir + 4] << 8 | d[dir + 5]);
  if ((size - dir - 12) / 16 < n)
    return ct_set_error(err, CT_ERR_INVALID_FONT, "%s: truncated: table directory of %u tables "
                        "does not fit in %zu bytes", name, n, size);
  for (i = 0; i < n; i++) {
    const unsigned char *rec = d + dir + 12 + 16 * (size_t)i;
    uint32_t off = be32(rec + 8), len = be32(rec + 12);
    if (off > size || size - off < len)
      return ct_set_error(err, CT_ERR_INVALID_FONT, "%s: truncated: table '%c%c%c%c' (offset %u, "
                          "length %u) extends past the end of the file (%zu bytes)", name,
                          rec[0], rec[1], rec[2], rec[3], off, len, size);
  }
  return CT_OK;
}

/* ---- WOFF and WOFF2: inflated once --------------------------------------------------

   A WOFF or WOFF2 file is inflated into a plain sfnt when it is opened: WOFF2 by Google's
   reference decoder (woff2.cc, the code the browsers follow; FreeType 2.12's own decoder
   refuses valid files, such as a glyf transform with the overlapSimple bitmap), within
   CT_MAX_WOFF2_SFNT_SIZE; WOFF 1 by FreeType.  chromatype keeps that sfnt: the face,
   HarfBuzz and cairo's text-layer face then read plain tables, and a process-wide cache
   keyed by the compressed file's bytes lets the next open of the same file (the next
   document of a batch) skip the inflating.  Single-threaded, as the core is. */

#ifndef WOFF_CACHE_ENTRIES
#define WOFF_CACHE_ENTRIES 32
#endif
#ifndef WOFF_CACHE_BYTES
#define WOFF_CACHE_BYTES   (96u << 20)
#endif

typedef struct {
  uint64_t       hash;       /* of the compressed bytes; 0: empty */
  size_t         in_size, out_size;
  unsigned char *sfnt;
  unsigned long  used;       /* for least-recently-used eviction */
} woff_entry_t;

static woff_entry_t woff_cache[WOFF_CACHE_ENTRIES];
static unsigned long woff_clock;

static uint64_t fnv64(const unsigned char *d, size_t n) {
  uint64_t h = 1469598103934665603u;
  size_t i;
  for (i = 0; i < n; i++) h = (h ^ d[i]) * 1099511628211u;
  return h | 1;
}

static size_t woff_cache_bytes(void) {
  size_t t = 0;
  unsigned i;
  for (i = 0; i < WOFF_CACHE_ENTRIES; i++) if (woff_cache[i].hash) t += woff_cache[i].out_size;
  return t;
}

static void woff_cache_put(uint64_t hash, size_t in_size, const unsigned char *sfnt, size_t out_size) {
  unsigned i, empty, oldest;
  unsigned char *copy;
  if (out_size > WOFF_CACHE_BYTES / 4 || !(copy = malloc(out_size))) return;
  memcpy(copy, sfnt, out_size);
  for (;;) {   /* evict least recently used entries until there is a slot and room */
    unsigned long t = (unsigned long)-1;
    empty = oldest = WOFF_CACHE_ENTRIES;
    for (i = 0; i < WOFF_CACHE_ENTRIES; i++) {
      if (!woff_cache[i].hash) { if (empty == WOFF_CACHE_ENTRIES) empty = i; }
      else if (woff_cache[i].used < t) { t = woff_cache[i].used; oldest = i; }
    }
    if (empty < WOFF_CACHE_ENTRIES && woff_cache_bytes() + out_size <= WOFF_CACHE_BYTES) break;
    if (oldest == WOFF_CACHE_ENTRIES) { free(copy); return; }   /* (cannot happen: out_size fits) */
    free(woff_cache[oldest].sfnt);
    memset(&woff_cache[oldest], 0, sizeof woff_cache[oldest]);
  }
  woff_cache[empty].hash = hash;
  woff_cache[empty].in_size = in_size;
  woff_cache[empty].sfnt = copy;
  woff_cache[empty].out_size = out_size;
  woff_cache[empty].used = ++woff_clock;
}

/* WOFF 1 through FreeType, which inflates it into memory when it opens it: a malloc'ed copy
   of that sfnt, or NULL (the caller then opens the file as it is, and FreeType reports
   what is wrong with it). */
static unsigned char *woff1_inflate(FT_Library lib, const unsigned char *data, size_t size, size_t *out_size) {
  FT_Face face = NULL;
  unsigned char *copy = NULL;
  if (FT_New_Memory_Face(lib, data, (FT_Long)size, 0, &face)) return NULL;
  if (face->num_faces == 1 && face->stream && face->stream->base && face->stream->size >= 12) {
    uint32_t magic = be32(face->stream->base);
    if ((magic == 0x00010000u || magic == TAG('O', 'T', 'T', 'O') || magic == TAG('t', 'r', 'u', 'e')) &&
        (copy = malloc(face->stream->size))) {
      memcpy(copy, face->stream->base, face->stream->size);
      *out_size = face->stream->size;
    }
  }
  FT_Done_Face(face);
  return copy;
}

/* WOFF2 through the reference decoder: the sfnt (malloc'ed) in *sfnt, or the reason in err. */
static ct_status_t woff2_inflate(const unsigned char *data, size_t size, unsigned char **sfnt,
                                 size_t *out_size, const char *name, ct_error_t *err) {
  uint64_t detail = 0;
  switch (ct_woff2_decode(data, size, CT_MAX_WOFF2_SFNT_SIZE, sfnt, out_size, &detail)) {
  case CT_WOFF2_OK:
    return CT_OK;
  case CT_WOFF2_TRUNCATED:
    return ct_set_error(err, CT_ERR_INVALID_FONT, "%s: truncated WOFF2 file: %zu bytes, its header "
                        "says %llu", name, size, (unsigned long long)detail);
  case CT_WOFF2_TOO_BIG:
    if (detail)
      return ct_set_error(err, CT_ERR_LIMIT, "%s: WOFF2 file declares %llu bytes of font data, over "
                          "the limit of %u bytes (CT_MAX_WOFF2_SFNT_SIZE)", name,
                          (unsigned long long)detail, CT_MAX_WOFF2_SFNT_SIZE);
    return ct_set_error(err, CT_ERR_LIMIT, "%s: WOFF2 file decodes to more than the limit of %u "
                        "bytes (CT_MAX_WOFF2_SFNT_SIZE)", name, CT_MAX_WOFF2_SFNT_SIZE);
  case CT_WOFF2_NOMEM:
    return ct_set_error(err, CT_ERR_NOMEM, "%s: out of memory decoding WOFF2", name);
  case CT_WOFF2_INVALID:
  default:
    return ct_set_error(err, CT_ERR_INVALID_FONT, "%s: invalid WOFF2 file: the decoder rejects its "
                        "table directory, compressed data or table transforms", name);
  }
}

/* The plain sfnt of a WOFF or WOFF2 file (a malloc'ed copy), from the cache or inflated.
   Returns CT_OK with *sfnt NULL when a WOFF 1 file is to be opened as it is; an error for
   a WOFF2 file that cannot be decoded. */
static ct_status_t woff_inflate(ct_font_t *font, const unsigned char *data, size_t size,
                                unsigned char **sfnt, size_t *out_size, ct_error_t *err) {
  uint64_t hash = fnv64(data, size);
  unsigned i;
  *sfnt = NULL;
  for (i = 0; i < WOFF_CACHE_ENTRIES; i++) {
    woff_entry_t *e = &woff_cache[i];
    if (e->hash == hash && e->in_size == size) {
      if (!(*sfnt = malloc(e->out_size)))
        return ct_set_error(err, CT_ERR_NOMEM, "%s: out of memory", font->name);
      memcpy(*sfnt, e->sfnt, e->out_size);
      e->used = ++woff_clock;
      *out_size = e->out_size;
      return CT_OK;
    }
  }
  if (be32(data) == TAG('w', 'O', 'F', '2')) {
    ct_status_t st = woff2_inflate(data, size, sfnt, out_size, font->name, err);
    if (st != CT_OK) return st;
  } else if (font->index > 0 || !(*sfnt = woff1_inflate(font->ft_lib, data, size, out_size))) {
    return CT_OK;
  }
  woff_cache_put(hash, size, *sfnt, *out_size);
  return CT_OK;
}

/* What a font holds beside its bytes, charged to --max-memory: a FreeType library and face
   and a HarfBuzz face are about 9 KB (measured); caches of glyphs and trees grow past it. */
#define FONT_OVERHEAD (16u << 10)

static ct_font_t *font_open(unsigned char *data, size_t size, unsigned index, const char *name,
                            ct_error_t *err) {
  ct_font_t *font = NULL;
  FT_Error fe;
  uint32_t magic = size >= 4 ? be32(data) : 0;

  /* what a font holds, near enough: its bytes (and cairo's copy of them), its FreeType
     library and face, HarfBuzz's face */
  size_t charge = sizeof *font + 2 * size + FONT_OVERHEAD;
  if (ct_mem_charge(charge, "a font", err) != CT_OK) {
    free(data);
    return NULL;
  }
  font = calloc(1, sizeof *font);
  if (!font || !(font->name = strdup(name))) {
    free(font);
    free(data);
    ct_mem_release(charge);
    ct_set_error(err, CT_ERR_NOMEM, "%s: out of memory", name);
    return NULL;
  }
  font->charged = charge;
  font->ref = 1;
  font->data = data;
  font->size = size;
  font->index = index;

  switch (magic) {
  case TAG('w', 'O', 'F', 'F'): font->container = "WOFF"; break;
  case TAG('w', 'O', 'F', '2'): font->container = "WOFF2"; break;
  case TAG('t', 't', 'c', 'f'): font->container = "collection"; break;
  case TAG('O', 'T', 'T', 'O'): font->container = "CFF"; break;
  case 0x00010000u: case TAG('t', 'r', 'u', 'e'): font->container = "TrueType"; break;
  default:
    ct_set_error(err, CT_ERR_INVALID_FONT, "%s: not a font file (unknown signature)", name);
    goto fail;
  }

  if ((fe = FT_Init_FreeType(&font->ft_lib))) {
    ct_set_error(err, CT_ERR_NOMEM, "%s: cannot start FreeType: %s", name, ct_ft_error_string(fe));
    goto fail;
  }
  if (font->container[0] == 'W') {
    size_t sfnt_size = 0;
    unsigned char *sfnt = NULL;
    if (woff_inflate(font, data, size, &sfnt, &sfnt_size, err) != CT_OK) goto fail;
    if (sfnt) {        /* from here on the font is its plain sfnt */
      free(font->data);
      font->data = data = sfnt;
      font->size = size = sfnt_size;
      font->inflated = 1;
    }
  }
  if ((font->container[0] != 'W' || font->inflated) && check_sfnt(data, size, index, name, err) != CT_OK)
    goto fail;

  fe = FT_New_Memory_Face(font->ft_lib, data, (FT_Long)size, (FT_Long)index, &font->ft_face);
  if (fe) {
    FT_Face probe = NULL;
    /* Tell a bad face index from a bad font. */
    if (index > 0 && !FT_New_Memory_Face(font->ft_lib, data, (FT_Long)size, -1, &probe)) {
      long n = probe->num_faces;
      FT_Done_Face(probe);
      if ((long)index >= n) {
        ct_set_error(err, CT_ERR_INVALID_ARG, "%s: face index %u out of range (the file has %ld face%s)",
                     name, index, n, n == 1 ? "" : "s");
        goto fail;
      }
    }
    ct_set_error(err, ct_from_ft_error(fe), "%s: cannot open font: %s", name, ct_ft_error_string(fe));
    goto fail;
  }
  if (!FT_IS_SFNT(font->ft_face)) {
    ct_set_error(err, CT_ERR_INVALID_FONT, "%s: not an OpenType font", name);
    goto fail;
  }

  if (font->container[0] == 'W' && !font->inflated) {
    font->hb_face = hb_face_create_for_tables(reference_table_ft, font->ft_face, NULL);
  } else {
    font->blob = hb_blob_create_or_fail((const char *)data, (unsigned)size, HB_MEMORY_MODE_READONLY,
                                        NULL, NULL);
    if (!font->blob) {
      ct_set_error(err, CT_ERR_NOMEM, "%s: out of memory", name);
      goto fail;
    }
    font->hb_face = hb_face_create(font->blob, index);
  }
  hb_face_set_index(font->hb_face, index);
  hb_face_set_glyph_count(font->hb_face, (unsigned)font->ft_face->num_glyphs);
  font->hb_font = hb_font_create(font->hb_face);
  if (hb_font_get_empty() == font->hb_font) {
    ct_set_error(err, CT_ERR_NOMEM, "%s: out of memory", name);
    goto fail;
  }
  /* from the head table: FreeType reports 0 for bitmap-only faces (CBDT) */
  font->upem = hb_face_get_upem(font->hb_face);
  if (font->upem < 16 || font->upem > 16384) {
    ct_set_error(err, CT_ERR_INVALID_FONT, "%s: units per em %u out of range (16..16384)", name,
                 font->upem);
    goto fail;
  }
  hb_font_set_scale(font->hb_font, (int)font->upem, (int)font->upem);
  hb_ot_font_set_funcs(font->hb_font);
  font->glyph_count = (unsigned)font->ft_face->num_glyphs;
  if (font->glyph_count == 0) {
    ct_set_error(err, CT_ERR_INVALID_FONT, "%s: the font has no glyphs", name);
    goto fail;
  }

  /* Outlines at ppem = upem: 26.6 coordinates are font units times 64, and
     variations apply (FT_LOAD_NO_SCALE would skip them for CFF2). */
  font->ft_scaled = FT_IS_SCALABLE(font->ft_face) &&
                    FT_Set_Char_Size(font->ft_face, 0, (FT_F26Dot6)font->upem * 64, 72, 72) == 0;

  font->color_formats = colr_formats(font);
  if (has_table(font, TAG('S', 'V', 'G', ' '))) font->color_formats |= CT_COLOR_SVG;
  if (has_table(font, TAG('C', 'B', 'D', 'T'))) font->color_formats |= CT_COLOR_CBDT;
  if (has_table(font, TAG('s', 'b', 'i', 'x'))) font->color_formats |= CT_COLOR_SBIX;
  return font;

fail:
  ct_font_destroy(font);
  return NULL;
}

ct_font_t *ct_font_create_from_data(const void *data, size_t size, unsigned index,
                                    const char *name, ct_error_t *err) {
  unsigned char *copy;
  if (!name) name = "<memory>";
  if (size > CT_MAX_FONT_FILE_SIZE) {
    ct_set_error(err, CT_ERR_LIMIT, "%s: font of %zu bytes exceeds the limit of %u bytes", name,
                 size, CT_MAX_FONT_FILE_SIZE);
    return NULL;
  }
  if (size < 12) {
    ct_set_error(err, CT_ERR_INVALID_FONT, "%s: not a font file (%zu bytes)", name, size);
    return NULL;
  }
  if (!(copy = malloc(size))) {
    ct_set_error(err, CT_ERR_NOMEM, "%s: out of memory", name);
    return NULL;
  }
  memcpy(copy, data, size);
  return font_open(copy, size, index, name, err);
}

ct_font_t *ct_font_create_from_file(const char *path, unsigned index, ct_error_t *err) {
  FILE *f = NULL;
  unsigned char *data = NULL;
  struct stat st;
  long len;
  size_t got;

  if (!(f = ct_fs_fopen_read(path, err))) return NULL;
  if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
    ct_set_error(err, CT_ERR_IO, "%s: cannot read: not a regular file", path);
    goto fail;
  }
  if (fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
    ct_set_error(err, CT_ERR_IO, "%s: cannot read: %s", path, strerror(errno));
    goto fail;
  }
  if ((unsigned long)len > CT_MAX_FONT_FILE_SIZE) {
    ct_set_error(err, CT_ERR_LIMIT, "%s: font of %ld bytes exceeds the limit of %u bytes", path,
                 len, CT_MAX_FONT_FILE_SIZE);
    goto fail;
  }
  if (len < 12) {
    ct_set_error(err, CT_ERR_INVALID_FONT, "%s: not a font file (%ld bytes)", path, len);
    goto fail;
  }
  if (!(data = malloc((size_t)len))) {
    ct_set_error(err, CT_ERR_NOMEM, "%s: out of memory", path);
    goto fail;
  }
  got = fread(data, 1, (size_t)len, f);
  if (got != (size_t)len) {
    ct_set_error(err, CT_ERR_IO, "%s: read error", path);
    goto fail;
  }
  fclose(f);
  return font_open(data, (size_t)len, index, path, err);

fail:
  free(data);
  fclose(f);
  return NULL;
}

ct_font_t *ct_font_reference(ct_font_t *font) {
  if (font) font->ref++;
  return font;
}

void ct_font_add_warning(ct_font_t *font, const char *message) {
  char *m;
  if (font->nwarnings == sizeof font->warnings / sizeof font->warnings[0]) return;   /* enough said */
  if ((m = strdup(message))) font->warnings[font->nwarnings++] = m;
}

char *ct_font_take_warning(ct_font_t *font) {
  char *m;
  if (font->nwarnings == 0) return NULL;
  m = font->warnings[0];
  memmove(font->warnings, font->warnings + 1, --font->nwarnings * sizeof font->warnings[0]);
  return m;
}

void ct_font_destroy(ct_font_t *font) {
  unsigned i, f;
  if (!font || --font->ref > 0) return;
  for (i = 0; i < font->nwarnings; i++) free(font->warnings[i]);
  ct_font_clear_outlines(font);
  free(font->outlines);
  for (f = 0; f < CT_FONT_CACHE_COUNT; f++)
    if (font->caches[f].data) font->caches[f].ops->destroy(font->caches[f].data);
  hb_blob_destroy(font->colr_blob);
  if (font->cairo_face) cairo_font_face_destroy(font->cairo_face);
  if (font->hb_font) hb_font_destroy(font->hb_font);
  if (font->hb_face) hb_face_destroy(font->hb_face);
  if (font->blob) hb_blob_destroy(font->blob);
  if (font->ft_face) FT_Done_Face(font->ft_face);
  if (font->ft_lib) FT_Done_FreeType(font->ft_lib);
  free(font->data);
  free(font->name);
  ct_mem_release(font->charged);
  free(font);
}

/* The cairo face has its own FreeType library, face and copy of the bytes: cairo may keep
   the face in its caches after the font is gone, and frees them with it. */
typedef struct {
  FT_Library     lib;
  FT_Face        face;
  unsigned char *data;
} cairo_ft_owner_t;

static void cairo_ft_owner_free(void *p) {
  cairo_ft_owner_t *o = p;
  if (!o) return;
  if (o->face) FT_Done_Face(o->face);
  if (o->lib) FT_Done_FreeType(o->lib);
  free(o->data);
  free(o);
}

static const cairo_user_data_key_t cairo_ft_owner_key;

cairo_font_face_t *ct_font_get_cairo_face(ct_font_t *font) {
  cairo_ft_owner_t *o;
  cairo_font_face_t *face;
  if (font->cairo_face) return font->cairo_face;
  if (!FT_IS_SCALABLE(font->ft_face)) return NULL;
  if (!(o = calloc(1, sizeof *o)) || !(o->data = malloc(font->size))) {
    free(o);
    return NULL;
  }
  memcpy(o->data, font->data, font->size);
  if (FT_Init_FreeType(&o->lib) ||
      FT_New_Memory_Face(o->lib, o->data, (FT_Long)font->size, (FT_Long)font->index, &o->face)) {
    cairo_ft_owner_free(o);
    return NULL;
  }
  /* the text layer wants plain outlines: cairo 1.16 loads color glyphs of a face with
     FT_FACE_FLAG_COLOR as images, which are neither text nor invisible */
  o->face->face_flags &= ~FT_FACE_FLAG_COLOR;
  face = cairo_ft_font_face_create_for_ft_face(o->face, FT_LOAD_NO_HINTING);
  if (cairo_font_face_status(face) != CAIRO_STATUS_SUCCESS ||
      cairo_font_face_set_user_data(face, &cairo_ft_owner_key, o, cairo_ft_owner_free) != CAIRO_STATUS_SUCCESS) {
    cairo_font_face_destroy(face);
    cairo_ft_owner_free(o);
    return NULL;
  }
  font->cairo_face = face;
  return face;
}

void *ct_font_get_cache(const ct_font_t *font, ct_font_cache_id_t id) { return font->caches[id].data; }

void ct_font_set_cache(ct_font_t *font, ct_font_cache_id_t id, void *cache, const ct_font_cache_ops_t *ops) {
  font->caches[id].data = cache;
  font->caches[id].ops = ops;
}

/* The location changed: outlines and what the caches keep of it go. */
static void clear_location(ct_font_t *font) {
  unsigned f;
  ct_font_clear_outlines(font);
  for (f = 0; f < CT_FONT_CACHE_COUNT; f++)   /* COLRv1 trees depend on the location */
    if (font->caches[f].data && font->caches[f].ops->clear)
      font->caches[f].data = font->caches[f].ops->clear(font->caches[f].data);
}

const char *ct_font_get_path(const ct_font_t *font) { return font->name; }

static void get_name(ct_font_t *font, hb_ot_name_id_t id, hb_ot_name_id_t fallback, char *buf,
                     size_t size) {
  unsigned len = (unsigned)size;
  buf[0] = '\0';
  if (hb_ot_name_get_utf8(font->hb_face, id, HB_LANGUAGE_INVALID, &len, buf) == 0 &&
      fallback != HB_OT_NAME_ID_INVALID) {
    len = (unsigned)size;
    hb_ot_name_get_utf8(font->hb_face, fallback, HB_LANGUAGE_INVALID, &len, buf);
  }
}

void ct_font_get_info(ct_font_t *font, ct_font_info_t *info) {
  FT_Face ft = font->ft_face;
  memset(info, 0, sizeof *info);
  get_name(font, HB_OT_NAME_ID_TYPOGRAPHIC_FAMILY, HB_OT_NAME_ID_FONT_FAMILY, info->family,
           sizeof info->family);
  get_name(font, HB_OT_NAME_ID_TYPOGRAPHIC_SUBFAMILY, HB_OT_NAME_ID_FONT_SUBFAMILY, info->style,
           sizeof info->style);
  get_name(font, HB_OT_NAME_ID_FULL_NAME, HB_OT_NAME_ID_INVALID, info->full_name,
           sizeof info->full_name);
  get_name(font, HB_OT_NAME_ID_POSTSCRIPT_NAME, HB_OT_NAME_ID_INVALID, info->postscript_name,
           sizeof info->postscript_name);
  get_name(font, HB_OT_NAME_ID_VERSION_STRING, HB_OT_NAME_ID_INVALID, info->version,
           sizeof info->version);
  info->units_per_em = font->upem;
  {
    /* HarfBuzz's choice: OS/2 typographic metrics when USE_TYPO_METRICS is set, else
       hhea (FreeType reports 0 for bitmap-only faces) */
    hb_font_extents_t ext;
    hb_font_get_h_extents(font->hb_font, &ext);
    info->ascender = ext.ascender;
    info->descender = ext.descender;
    info->line_gap = ext.line_gap;
  }
  info->glyph_count = font->glyph_count;
  info->face_index = font->index;
  info->face_count = (unsigned)ft->num_faces;
  info->color_formats = font->color_formats;
  info->container = font->container;
  info->is_variable = hb_ot_var_has_data(font->hb_face);
}

unsigned ct_font_get_axis_count(ct_font_t *font) {
  return hb_ot_var_get_axis_count(font->hb_face);
}

int ct_font_get_axis(ct_font_t *font, unsigned i, ct_axis_t *axis) {
  hb_ot_var_axis_info_t a;
  unsigned n = 1, len = sizeof axis->name;
  if (hb_ot_var_get_axis_infos(font->hb_face, i, &n, &a) == 0 || n != 1) return -1;
  memset(axis, 0, sizeof *axis);
  axis->tag = a.tag;
  hb_tag_to_string(a.tag, axis->tag_str);
  axis->tag_str[4] = '\0';
  axis->min = a.min_value;
  axis->def = a.default_value;
  axis->max = a.max_value;
  axis->value = font->var_set && i < 64 ? font->axis_value[i] : a.default_value;
  axis->hidden = (a.flags & HB_OT_VAR_AXIS_FLAG_HIDDEN) != 0;
  hb_ot_name_get_utf8(font->hb_face, a.name_id, HB_LANGUAGE_INVALID, &len, axis->name);
  return 0;
}

ct_status_t ct_font_set_variations(ct_font_t *font, const char *spec, ct_error_t *err) {
  hb_variation_t vars[128];   /* an instance's location (up to 64 axes) and the changes to it */
  unsigned n = 0, naxes, i, j;
  FT_Fixed coords[64];
  const char *p = spec;
  FT_Error fe;

  naxes = ct_font_get_axis_count(font);
  if (naxes == 0) {
    if (!spec || !*spec) return CT_OK;
    return ct_set_error(err, CT_ERR_INVALID_ARG, "%s: --variations given but the font has no axes",
                        font->name);
  }
  if (naxes > 64) return ct_set_error(err, CT_ERR_LIMIT, "%s: more than 64 axes", font->name);
  while (p && *p) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len > 0) {
      if (n == 128) return ct_set_error(err, CT_ERR_LIMIT, "%s: too many variations", font->name);
      if (!hb_variation_from_string(p, (int)len, &vars[n]))
        return ct_set_error(err, CT_ERR_INVALID_ARG, "%s: bad variation '%.*s' (want tag=value)",
                            font->name, (int)len, p);
      n++;
    }
    p = end ? end + 1 : NULL;
  }
  for (i = 0; i < naxes; i++) {
    ct_axis_t axis;
    ct_font_get_axis(font, i, &axis);
    coords[i] = (FT_Fixed)(axis.def * 65536.0);
  }
  for (j = 0; j < n; j++) {
    int found = 0;
    for (i = 0; i < naxes; i++) {
      ct_axis_t axis;
      ct_font_get_axis(font, i, &axis);
      if (axis.tag == vars[j].tag) {
        double v = vars[j].value;
        if (v < axis.min) v = axis.min;
        if (v > axis.max) v = axis.max;
        coords[i] = (FT_Fixed)(v * 65536.0);
        found = 1;
      }
    }
    if (!found) {
      char tag[5];
      hb_tag_to_string(vars[j].tag, tag);
      tag[4] = '\0';
      return ct_set_error(err, CT_ERR_INVALID_ARG, "%s: the font has no axis '%s'", font->name, tag);
    }
  }
  hb_font_set_variations(font->hb_font, vars, n);
  /* FreeType varies the outlines; it refuses a font whose only variable table is COLR
     (no gvar, no CFF2), whose outlines do not vary anyway */
  fe = FT_Set_Var_Design_Coordinates(font->ft_face, naxes, coords);
  if (fe && (has_table(font, TAG('g', 'v', 'a', 'r')) || has_table(font, TAG('C', 'F', 'F', '2'))))
    return ct_set_error(err, ct_from_ft_error(fe), "%s: cannot set variations: %s", font->name,
                        ct_ft_error_string(fe));
  for (i = 0; i < naxes && i < 64; i++) font->axis_value[i] = coords[i] / 65536.0;
  font->var_set = 1;
  clear_location(font);
  return CT_OK;
}

ct_font_t *ct_font_create_instance(ct_font_t *font, const char *spec, ct_error_t *err) {
  char loc[64 * 24 + 1];   /* "wght=-32768.5," per axis */
  size_t used = 0;
  unsigned naxes = ct_font_get_axis_count(font), i;
  ct_font_t *inst = ct_font_create_from_data(font->data, font->size, font->index, font->name, err);
  if (!inst) return NULL;
  inst->container = font->container;
  if (naxes > 64) naxes = 64;
  loc[0] = '\0';
  for (i = 0; i < naxes && font->var_set; i++) {   /* the source's location, axis by axis */
    ct_axis_t a;
    if (ct_font_get_axis(font, i, &a) != 0) continue;
    used += (size_t)snprintf(loc + used, sizeof loc - used, "%s%s=%.6f", used ? "," : "",
                             a.tag_str, a.value);
    if (used >= sizeof loc) break;
  }
  if (spec && *spec) {                                  /* then the changes: later tags win */
    size_t need = used + 1 + strlen(spec) + 1;
    char *all = malloc(need);
    ct_status_t st;
    if (!all) {
      ct_font_destroy(inst);
      ct_set_error(err, CT_ERR_NOMEM, "%s: out of memory", font->name);
      return NULL;
    }
    snprintf(all, need, "%s%s%s", loc, used ? "," : "", spec);
    st = ct_font_set_variations(inst, all, err);
    free(all);
    if (st != CT_OK) {
      ct_font_destroy(inst);
      return NULL;
    }
  } else if (used && ct_font_set_variations(inst, loc, err) != CT_OK) {
    ct_font_destroy(inst);
    return NULL;
  }
  return inst;
}

unsigned ct_font_get_codepoints(ct_font_t *font, uint32_t *out, unsigned max) {
  hb_set_t *set = hb_set_create();
  hb_codepoint_t cp = HB_SET_VALUE_INVALID;
  unsigned n = 0;
  hb_face_collect_unicodes(font->hb_face, set);
  while (hb_set_next(set, &cp)) {
    if (out && n < max) out[n] = cp;
    n++;
  }
  hb_set_destroy(set);
  return n;
}

unsigned ct_font_get_glyph_count(const ct_font_t *font) { return font->glyph_count; }

int ct_font_get_nominal_glyph(ct_font_t *font, uint32_t codepoint, unsigned *gid) {
  hb_codepoint_t g = 0;
  int ok = hb_font_get_nominal_glyph(font->hb_font, codepoint, &g);
  *gid = ok ? g : 0;
  return ok;
}

int ct_font_get_glyph_name(ct_font_t *font, unsigned gid, char *buf, size_t size) {
  buf[0] = '\0';
  return hb_font_get_glyph_name(font->hb_font, gid, buf, (unsigned)size);
}

double ct_font_get_glyph_advance(ct_font_t *font, unsigned gid) {
  return hb_font_get_glyph_h_advance(font->hb_font, gid);
}
