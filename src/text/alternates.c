/*
** alternates.c: a glyph's alternate forms from GSUB (rand, aalt, salt, swsh, jalt, ssXX,
** cvXX...), and the font's feature tags, through HarfBuzz's layout API.  Text stage: knows
** fonts, never paint trees or pages.
*/
#include <string.h>

#include <hb-ot.h>

#include "text.h"

/* Features whose lookups offer alternates of a glyph, when the caller names none. */
static int interesting(hb_tag_t t) {
  char s[5];
  hb_tag_to_string(t, s);
  if (t == HB_TAG('r', 'a', 'n', 'd') || t == HB_TAG('a', 'a', 'l', 't') || t == HB_TAG('s', 'a', 'l', 't') ||
      t == HB_TAG('s', 'w', 's', 'h') || t == HB_TAG('j', 'a', 'l', 't') || t == HB_TAG('c', 's', 'w', 'h') ||
      t == HB_TAG('t', 'i', 't', 'l') || t == HB_TAG('o', 'r', 'n', 'm'))
    return 1;
  if (s[0] == 's' && s[1] == 's' && s[2] >= '0' && s[2] <= '9' && s[3] >= '0' && s[3] <= '9') return 1;
  if (s[0] == 'c' && s[1] == 'v' && s[2] >= '0' && s[2] <= '9' && s[3] >= '0' && s[3] <= '9') return 1;
  return 0;
}

unsigned ct_font_get_feature_tags(ct_font_t *font, int gpos, char (*tags)[5], unsigned max) {
  hb_tag_t table = gpos ? HB_OT_TAG_GPOS : HB_OT_TAG_GSUB;
  hb_tag_t buf[64];
  unsigned start = 0, n = 0, got, i, j;
  do {
    got = 64;
    hb_ot_layout_table_get_feature_tags(font->hb_face, table, start, &got, buf);
    for (i = 0; i < got; i++) {
      char s[5];
      int seen = 0;
      hb_tag_to_string(buf[i], s);
      s[4] = '\0';
      /* the list has a tag once per script and language system: keep the first */
      for (j = 0; tags && j < n && j < max; j++)
        if (memcmp(tags[j], s, 5) == 0) { seen = 1; break; }
      if (seen) continue;
      if (tags && n < max) memcpy(tags[n], s, 5);
      n++;
    }
    start += got;
  } while (got == 64 && start < 100000);
  return n;
}

/* Adds the alternates of `gid` in the lookups of feature `tag` to out[*n...]. */
static void collect(ct_font_t *font, hb_tag_t tag, unsigned gid, ct_alternate_t *out, unsigned max,
                    unsigned *n) {
  hb_tag_t features[2] = { tag, HB_TAG_NONE };
  hb_set_t *lookups = hb_set_create();
  hb_codepoint_t li = HB_SET_VALUE_INVALID;
  hb_ot_layout_collect_lookups(font->hb_face, HB_OT_TAG_GSUB, NULL, NULL, features, lookups);
  while (hb_set_next(lookups, &li)) {
    hb_codepoint_t alts[32];
    unsigned start = 0, count, k;
    do {
      count = 32;
      hb_ot_layout_lookup_get_glyph_alternates(font->hb_face, li, gid, start, &count, alts);
      for (k = 0; k < count; k++) {
        unsigned m, dup = 0;
        if (alts[k] == gid) continue;
        for (m = 0; out && m < *n && m < max; m++)
          if (out[m].gid == alts[k]) { dup = 1; break; }
        if (dup) continue;
        if (out && *n < max) {
          out[*n].gid = alts[k];
          hb_tag_to_string(tag, out[*n].feature);
          out[*n].feature[4] = '\0';
        }
        (*n)++;
      }
      start += count;
    } while (count == 32 && start < 4096);
    /* single substitutions: HarfBuzz 6.0 lists alternates of alternate substitutions only,
       so also take what the lookup's closure adds to the glyph */
    {
      hb_set_t *closure = hb_set_create();
      hb_codepoint_t g = HB_SET_VALUE_INVALID;
      hb_set_add(closure, gid);
      hb_ot_layout_lookup_substitute_closure(font->hb_face, li, closure);
      while (hb_set_next(closure, &g)) {
        unsigned m, dup = 0;
        if (g == gid) continue;
        for (m = 0; out && m < *n && m < max; m++)
          if (out[m].gid == g) { dup = 1; break; }
        if (dup) continue;
        if (out && *n < max) {
          out[*n].gid = g;
          hb_tag_to_string(tag, out[*n].feature);
          out[*n].feature[4] = '\0';
        }
        (*n)++;
      }
      hb_set_destroy(closure);
    }
  }
  hb_set_destroy(lookups);
}

unsigned ct_font_get_alternates(ct_font_t *font, unsigned gid, const char *const *features,
                                ct_alternate_t *out, unsigned max) {
  unsigned n = 0;
  if (features) {
    for (; *features; features++) {
      if (strlen(*features) > 4) continue;
      collect(font, hb_tag_from_string(*features, -1), gid, out, max, &n);
    }
  } else {
    hb_tag_t buf[64];
    unsigned start = 0, got, i;
    do {
      got = 64;
      hb_ot_layout_table_get_feature_tags(font->hb_face, HB_OT_TAG_GSUB, start, &got, buf);
      for (i = 0; i < got; i++) {
        unsigned j, seen = 0;
        if (!interesting(buf[i])) continue;
        for (j = 0; j < i; j++)
          if (buf[j] == buf[i]) { seen = 1; break; }
        if (!seen) collect(font, buf[i], gid, out, max, &n);
      }
      start += got;
    } while (got == 64 && start < 100000);
  }
  return n;
}
