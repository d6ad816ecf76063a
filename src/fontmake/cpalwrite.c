/*
** cpalwrite.c: palettes as a CPAL table (version 0, or 1 with types, names and entry
** labels), and the one rounding of color channels every writer shares.  Fontmake stage.
*/
#include <math.h>

#include "fontmake.h"

unsigned ct_cpal_byte(double v) {
  return (unsigned)lround(fmin(1.0, fmax(0.0, v)) * 255.0);
}

void ct_cpal_encode(ct_buf_t *out, unsigned entries, unsigned count, const ct_rgba_t *colors,
                    const uint32_t *types, const unsigned *name_ids, const unsigned *label_ids) {
  int v1 = types || name_ids || label_ids;
  size_t header = 12 + 2 * (size_t)count + (v1 ? 12 : 0), records = header;
  size_t after = records + 4 * (size_t)entries * count;
  unsigned i;
  ct_buf_u16(out, v1 ? 1 : 0);
  ct_buf_u16(out, entries);
  ct_buf_u16(out, count);
  ct_buf_u16(out, entries * count);
  ct_buf_u32(out, (uint32_t)records);
  for (i = 0; i < count; i++) ct_buf_u16(out, i * entries);
  if (v1) {
    size_t t = types ? after : 0, n = name_ids ? after + (types ? 4 * (size_t)count : 0) : 0;
    size_t l = label_ids ? after + (types ? 4 * (size_t)count : 0) + (name_ids ? 2 * (size_t)count : 0) : 0;
    ct_buf_u32(out, (uint32_t)t);
    ct_buf_u32(out, (uint32_t)n);
    ct_buf_u32(out, (uint32_t)l);
  }
  for (i = 0; i < entries * count; i++) {   /* BGRA */
    ct_buf_u8(out, ct_cpal_byte(colors[i].b));
    ct_buf_u8(out, ct_cpal_byte(colors[i].g));
    ct_buf_u8(out, ct_cpal_byte(colors[i].r));
    ct_buf_u8(out, ct_cpal_byte(colors[i].a));
  }
  if (types)
    for (i = 0; i < count; i++) ct_buf_u32(out, types[i]);
  if (name_ids)
    for (i = 0; i < count; i++) ct_buf_u16(out, name_ids[i]);
  if (label_ids)
    for (i = 0; i < entries; i++) ct_buf_u16(out, label_ids[i]);
}
