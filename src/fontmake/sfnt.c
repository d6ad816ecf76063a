/*
** sfnt.c: bytes in OpenType's order and the sfnt container: the table directory, the
** checksums and head's checkSumAdjustment.  Fontmake stage: knows fonts and paint trees,
** never pages or outputs.
*/
#include <stdlib.h>
#include <string.h>

#include "fontmake.h"

void ct_buf_free(ct_buf_t *b) {
  free(b->p);
  memset(b, 0, sizeof *b);
}

unsigned char *ct_buf_grow(ct_buf_t *b, size_t n) {
  unsigned char *p;
  if (b->failed) return NULL;
  if (n > CT_MAX_FONT_FILE_SIZE || b->len > CT_MAX_FONT_FILE_SIZE - n) {
    b->failed = 1;
    return NULL;
  }
  if (b->len + n > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n) cap *= 2;
    if (!(p = realloc(b->p, cap))) {
      b->failed = 1;
      return NULL;
    }
    b->p = p;
    b->cap = cap;
  }
  if (!b->p) return NULL;   /* n = 0 on an empty buffer: no bytes to point at (NULL + 0 is undefined) */
  p = b->p + b->len;
  memset(p, 0, n);
  b->len += n;
  return p;
}

void ct_buf_bytes(ct_buf_t *b, const void *data, size_t n) {
  unsigned char *p = ct_buf_grow(b, n);
  if (p && n) memcpy(p, data, n);
}

void ct_buf_u8(ct_buf_t *b, unsigned v) {
  unsigned char *p = ct_buf_grow(b, 1);
  if (p) p[0] = (unsigned char)v;
}

void ct_buf_u16(ct_buf_t *b, unsigned v) {
  unsigned char *p = ct_buf_grow(b, 2);
  if (p) {
    p[0] = (unsigned char)(v >> 8);
    p[1] = (unsigned char)v;
  }
}

void ct_buf_u24(ct_buf_t *b, uint32_t v) {
  unsigned char *p = ct_buf_grow(b, 3);
  if (p) {
    p[0] = (unsigned char)(v >> 16);
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)v;
  }
}

void ct_buf_u32(ct_buf_t *b, uint32_t v) {
  unsigned char *p = ct_buf_grow(b, 4);
  if (p) {
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
  }
}

void ct_buf_pad4(ct_buf_t *b) {
  if (b->len % 4) ct_buf_grow(b, 4 - b->len % 4);
}

void ct_buf_put_u16(ct_buf_t *b, size_t at, unsigned v) {
  if (b->failed || at + 2 > b->len) return;
  b->p[at] = (unsigned char)(v >> 8);
  b->p[at + 1] = (unsigned char)v;
}

void ct_buf_put_u24(ct_buf_t *b, size_t at, uint32_t v) {
  if (b->failed || at + 3 > b->len) return;
  b->p[at] = (unsigned char)(v >> 16);
  b->p[at + 1] = (unsigned char)(v >> 8);
  b->p[at + 2] = (unsigned char)v;
}

void ct_buf_put_u32(ct_buf_t *b, size_t at, uint32_t v) {
  if (b->failed || at + 4 > b->len) return;
  b->p[at] = (unsigned char)(v >> 24);
  b->p[at + 1] = (unsigned char)(v >> 16);
  b->p[at + 2] = (unsigned char)(v >> 8);
  b->p[at + 3] = (unsigned char)v;
}

/* ---- the container ------------------------------------------------------ */

static uint32_t checksum(const unsigned char *p, size_t len) {
  uint32_t sum = 0;
  size_t i;
  for (i = 0; i + 4 <= len; i += 4) sum += ct_rd32(p + i);
  if (i < len) {
    unsigned char last[4] = { 0, 0, 0, 0 };
    memcpy(last, p + i, len - i);
    sum += ct_rd32(last);
  }
  return sum;
}

static int tag_cmp(const void *a, const void *b) {
  const ct_sfnt_table_t *x = a, *y = b;
  return x->tag < y->tag ? -1 : x->tag > y->tag;
}

ct_status_t ct_sfnt_assemble(ct_sfnt_table_t *tables, unsigned count, int cff, ct_buf_t *out,
                             ct_error_t *err) {
  unsigned i, pow2 = 1, log2 = 0;
  size_t dir, head_at = 0;
  int have_head = 0;

  qsort(tables, count, sizeof *tables, tag_cmp);
  while (pow2 * 2 <= count) {
    pow2 *= 2;
    log2++;
  }
  ct_buf_u32(out, cff ? CT_TAG('O', 'T', 'T', 'O') : 0x00010000u);
  ct_buf_u16(out, count);
  ct_buf_u16(out, pow2 * 16);
  ct_buf_u16(out, log2);
  ct_buf_u16(out, count * 16 - pow2 * 16);
  dir = out->len;
  ct_buf_grow(out, (size_t)count * 16);
  for (i = 0; i < count; i++) {
    ct_buf_t *t = &tables[i].data;
    size_t at = out->len;
    if (t->failed) return ct_set_error(err, CT_ERR_NOMEM, "out of memory (or a table over the size limit)");
    if (tables[i].tag == CT_TAG('h', 'e', 'a', 'd')) {
      if (t->len < 54) return ct_set_error(err, CT_ERR_INVALID_ARG, "head table too short");
      ct_buf_put_u32(t, 8, 0);   /* checkSumAdjustment counts as 0 in its own sum */
      head_at = at;
      have_head = 1;
    }
    ct_buf_bytes(out, t->p, t->len);
    ct_buf_pad4(out);
    if (out->failed) break;
    ct_buf_put_u32(out, dir + i * 16, tables[i].tag);
    ct_buf_put_u32(out, dir + i * 16 + 4, checksum(t->p, t->len));
    ct_buf_put_u32(out, dir + i * 16 + 8, (uint32_t)at);
    ct_buf_put_u32(out, dir + i * 16 + 12, (uint32_t)t->len);
  }
  if (out->failed) return ct_set_error(err, CT_ERR_NOMEM, "out of memory (or a font over the size limit)");
  if (!have_head) return ct_set_error(err, CT_ERR_INVALID_ARG, "no head table");
  ct_buf_put_u32(out, head_at + 8, 0xB1B0AFBAu - checksum(out->p, out->len));
  return CT_OK;
}
