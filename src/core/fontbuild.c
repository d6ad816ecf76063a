/*
** fontbuild.c: writes OpenType fonts: a lead font's glyphs and layout (GSUB, GPOS, GDEF
** keep working: the lead's glyph ids do not move), glyphs of other fonts appended as new
** glyphs, color glyphs from paint trees as COLR version 0 and 1 and SVG, palettes as
** CPAL version 1 with types, names and entry labels, a new family name; then a glyph
** subset (hb-subset) and WOFF2 on request.  Core layer.
**
** Two modes.  With no glyph trees and no formats asked, the lead's tables are kept as
** they are (variations, hinting, color tables) and only CPAL and name are written anew:
** new palettes for an existing color font.  Otherwise glyf/loca, hmtx, maxp, post and
** the color tables are built: TrueType glyphs are copied as they are, CFF/CFF2 outlines
** and variable fonts (at their current location) are converted to quadratic glyphs.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fontbuild.h"
#include FT_TRUETYPE_TABLES_H
#include FT_MULTIPLE_MASTERS_H

#define TAG CT_TAG

/* ---- the builder ------------------------------------------------------------ */

char *ct_build_dup(const char *s) {
  char *d;
  if (!s) return NULL;
  if ((d = malloc(strlen(s) + 1))) strcpy(d, s);
  return d;
}

static void free_palettes(ct_font_builder_t *b) {
  unsigned i;
  for (i = 0; i < b->npalettes && b->names; i++) free(b->names[i]);
  for (i = 0; i < b->entries && b->labels; i++) free(b->labels[i]);
  free(b->colors);
  free(b->types);
  free(b->names);
  free(b->labels);
  b->colors = NULL;
  b->types = NULL;
  b->names = b->labels = NULL;
  b->entries = b->npalettes = 0;
}

static int alloc_palettes(ct_font_builder_t *b, unsigned entries, unsigned count) {
  free_palettes(b);
  b->colors = calloc((size_t)entries * count + 1, sizeof *b->colors);
  b->types = calloc(count + 1, sizeof *b->types);
  b->names = calloc(count + 1, sizeof *b->names);
  b->labels = calloc(entries + 1, sizeof *b->labels);
  if (!b->colors || !b->types || !b->names || !b->labels) return 0;
  b->entries = entries;
  b->npalettes = count;
  return 1;
}

ct_font_builder_t *ct_font_builder_create(ct_font_t *lead, ct_error_t *err) {
  ct_font_builder_t *b;
  unsigned p, e, count, entries;
  char buf[512];
  if (!lead) {
    ct_set_error(err, CT_ERR_INVALID_ARG, "no lead font");
    return NULL;
  }
  if (!(b = calloc(1, sizeof *b))) goto nomem;
  b->lead = ct_font_reference(lead);
  b->ntrees = ct_font_get_glyph_count(lead);
  if (!(b->trees = calloc(b->ntrees + 1, sizeof *b->trees))) goto nomem;
  /* the lead's own palettes, with their types, names and labels */
  count = ct_font_get_palette_count(lead);
  entries = ct_font_get_palette_entry_count(lead);
  if (count && entries) {
    if (!alloc_palettes(b, entries, count)) goto nomem;
    for (p = 0; p < count; p++) {
      ct_font_get_palette_colors(lead, p, b->colors + (size_t)p * entries, entries);
      b->types[p] = ct_font_get_palette_type(lead, p);
      if (ct_font_get_palette_name(lead, p, buf, sizeof buf) && !(b->names[p] = ct_build_dup(buf))) goto nomem;
    }
    for (e = 0; e < entries; e++)
      if (ct_font_get_palette_entry_label(lead, e, buf, sizeof buf) && !(b->labels[e] = ct_build_dup(buf))) goto nomem;
  }
  return b;
nomem:
  ct_font_builder_destroy(b);
  ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  return NULL;
}

void ct_font_builder_destroy(ct_font_builder_t *b) {
  unsigned i;
  if (!b) return;
  free_palettes(b);
  for (i = 0; i < b->ntrees && b->trees; i++) ct_paint_destroy(b->trees[i]);
  free(b->trees);
  free(b->family);
  ct_font_destroy(b->lead);
  free(b);
}

ct_status_t ct_font_builder_set_palettes(ct_font_builder_t *b, unsigned entries, unsigned count,
                                         const ct_rgba_t *colors, ct_error_t *err) {
  if (entries == 0 || count == 0 || entries > 0xFFFF || count > 0xFFFF || (size_t)entries * count > 0xFFFF)
    return ct_set_error(err, CT_ERR_INVALID_ARG,
                        "palettes: %u palettes of %u entries (CPAL holds at most 65535 colors)", count, entries);
  if (!alloc_palettes(b, entries, count)) return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  memcpy(b->colors, colors, (size_t)entries * count * sizeof *colors);
  return CT_OK;
}

ct_status_t ct_font_builder_set_palette_info(ct_font_builder_t *b, unsigned palette, unsigned type,
                                             const char *name, ct_error_t *err) {
  char *n = NULL;
  if (palette >= b->npalettes)
    return ct_set_error(err, CT_ERR_INVALID_ARG, "palette %u: the font has %u palettes", palette, b->npalettes);
  if (name && *name && !(n = ct_build_dup(name))) return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  free(b->names[palette]);
  b->names[palette] = n;
  b->types[palette] = type & 3;
  return CT_OK;
}

ct_status_t ct_font_builder_set_entry_label(ct_font_builder_t *b, unsigned entry, const char *label,
                                            ct_error_t *err) {
  char *l = NULL;
  if (entry >= b->entries)
    return ct_set_error(err, CT_ERR_INVALID_ARG, "palette entry %u: the palettes have %u entries", entry, b->entries);
  if (label && *label && !(l = ct_build_dup(label))) return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  free(b->labels[entry]);
  b->labels[entry] = l;
  return CT_OK;
}

ct_status_t ct_font_builder_set_glyph(ct_font_builder_t *b, unsigned gid, ct_paint_t *tree, ct_error_t *err) {
  if (gid >= b->ntrees)
    return ct_set_error(err, CT_ERR_INVALID_ARG, "glyph %u: the lead font has %u glyphs", gid, b->ntrees);
  ct_paint_destroy(b->trees[gid]);
  b->trees[gid] = ct_paint_reference(tree);
  return CT_OK;
}

ct_status_t ct_font_builder_set_family(ct_font_builder_t *b, const char *family, ct_error_t *err) {
  char *f = NULL;
  if (family) {
    size_t n = strlen(family);
    if (n == 0 || n > 200) return ct_set_error(err, CT_ERR_INVALID_ARG, "family name: 1 to 200 bytes expected");
    if (!(f = ct_build_dup(family))) return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  }
  free(b->family);
  b->family = f;
  return CT_OK;
}

void ct_font_write_options_init(ct_font_write_options_t *o) {
  memset(o, 0, sizeof *o);
}

static const char *glyph_label(ct_font_t *font, unsigned gid, char *buf, size_t size) {
  char name[128];
  if (ct_font_get_glyph_name(font, gid, name, sizeof name)) snprintf(buf, size, "glyph %u ('%s')", gid, name);
  else snprintf(buf, size, "glyph %u", gid);
  return buf;
}

ct_status_t ct_font_builder_write(ct_font_builder_t *b, const char *path, const ct_font_write_options_t *o,
                                  ct_error_t *err) {
  ct_font_t *lead = b->lead;
  ct_font_write_options_t defaults;
  ct_sfnt_table_t *tables = NULL;
  unsigned ntables = 0, i, formats, ntrees = 0;
  ct_buf_t file = { 0 }, buf = { 0 };
  ct_names_t ns;
  ct_build_t s;
  ct_colr_writer_t *colr = NULL;
  ct_build_svg_doc_t *docs = NULL;
  unsigned ndocs = 0;
  ct_table_t head = { 0 }, hhea = { 0 }, maxp = { 0 }, post = { 0 }, name = { 0 }, hmtx = { 0 };
  ct_table_t glyf = { 0 }, loca = { 0 };
  int cff = 0, keep, regenerate, renamed;
  ct_status_t st = CT_OK;
  char label[160];
  unsigned *name_ids = NULL, *label_ids = NULL;
  ct_rgba_t *colors = NULL;

  memset(&ns, 0, sizeof ns);
  memset(&s, 0, sizeof s);
  if (!o) {
    ct_font_write_options_init(&defaults);
    o = &defaults;
  }
  formats = o->formats;
  for (i = 0; i < b->ntrees; i++) ntrees += b->trees[i] != NULL;
  keep = ntrees == 0 && formats == 0;
  renamed = b->family != NULL;

  head = ct_table_load(lead, TAG('h', 'e', 'a', 'd'));
  hhea = ct_table_load(lead, TAG('h', 'h', 'e', 'a'));
  maxp = ct_table_load(lead, TAG('m', 'a', 'x', 'p'));
  post = ct_table_load(lead, TAG('p', 'o', 's', 't'));
  name = ct_table_load(lead, TAG('n', 'a', 'm', 'e'));
  hmtx = ct_table_load(lead, TAG('h', 'm', 't', 'x'));
  if (head.len < 54 || hhea.len < 36 || maxp.len < 6) {
    st = ct_set_error(err, CT_ERR_INVALID_FONT, "%s: no head, hhea or maxp table (not an OpenType font?)",
                      ct_font_get_path(lead));
    goto done;
  }
  cff = ct_table_has(lead, TAG('C', 'F', 'F', ' ')) || ct_table_has(lead, TAG('C', 'F', 'F', '2'));

  /* the tables kept as they are */
  {
    FT_ULong tag, len;
    FT_UInt k;
    /* outlines from FreeType: CFF, variable fonts (at their location), and WOFF2, whose
       glyf and loca FreeType 2.12 rebuilds with loca offsets past the table's end */
    regenerate = !keep && (cff || FT_HAS_MULTIPLE_MASTERS(lead->ft_face) ||
                           (lead->container && strcmp(lead->container, "WOFF2") == 0));
    for (k = 0; FT_Sfnt_Table_Info(lead->ft_face, k, &tag, &len) == 0; k++) {
      uint32_t t = (uint32_t)tag;
      if (!ct_table_copied(t, keep, regenerate)) continue;
      if ((st = ct_tables_copy(&tables, &ntables, lead, t, err))) goto done;
    }
  }

  if (!keep) {
    int long_loca = ct_rds16(head.p + 50) == 1;
    /* the glyphs: the lead's, then those the color glyphs need */
    if (!ct_build_start(&s, b, err)) goto nomem;
    if (!regenerate) {
      glyf = ct_table_load(lead, TAG('g', 'l', 'y', 'f'));
      loca = ct_table_load(lead, TAG('l', 'o', 'c', 'a'));
      if (!glyf.p || !loca.p) {
        st = ct_set_error(err, CT_ERR_INVALID_FONT, "%s: no glyf/loca table", ct_font_get_path(lead));
        goto done;
      }
    }
    if (!ct_build_lead_glyphs(&s, regenerate, &glyf, &loca, &hmtx, ct_rd16(hhea.p + 34) ? ct_rd16(hhea.p + 34) : 1,
                              long_loca)) {
      st = err ? err->status : CT_ERR_NOMEM;
      goto done;
    }

    /* the color glyphs */
    if (!formats) {
      /* COLRv0 where every glyph fits it (every renderer reads it, Safari too), else COLRv1 */
      formats = CT_FONT_COLR0;
      for (i = 0; i < b->ntrees; i++)
        if (b->trees[i] && !ct_colr_fits_v0(b->trees[i], 0)) {
          formats = CT_FONT_COLR1;
          break;
        }
    }
    if (formats & (CT_FONT_COLR0 | CT_FONT_COLR1)) {
      if (!(colr = ct_colr_writer_create())) goto nomem;
      for (i = 0; i < b->ntrees; i++) {
        if (!b->trees[i]) continue;
        if ((formats & CT_FONT_COLR0) && !ct_colr_writer_add_v0(colr, i, b->trees[i], lead, &s.sink) &&
            !(formats & CT_FONT_COLR1)) {
          st = ct_set_error(err, CT_ERR_INVALID_ARG, "%s: COLRv0 cannot hold %s: %s (use --format colr1)",
                            ct_font_get_path(lead), glyph_label(lead, i, label, sizeof label), s.sink.why);
          goto done;
        }
        if ((formats & CT_FONT_COLR1) && !ct_colr_writer_add_v1(colr, i, b->trees[i], lead, &s.sink)) {
          st = ct_set_error(err, CT_ERR_INVALID_ARG, "%s: COLRv1 cannot hold %s: %s",
                            ct_font_get_path(lead), glyph_label(lead, i, label, sizeof label), s.sink.why);
          goto done;
        }
      }
    }
    if (formats & CT_FONT_SVG) {
      ct_svgwrite_t w;
      memset(&w, 0, sizeof w);
      w.palette = b->colors;
      w.palette_count = b->entries;
      if (!(docs = calloc(ntrees + 1, sizeof *docs))) goto nomem;
      for (i = 0; i < b->ntrees; i++) {
        char why[256] = "";
        if (!b->trees[i]) continue;
        w.gid = i;
        docs[ndocs].gid = i;
        if (!(docs[ndocs].doc = ct_svg_write_glyph(lead, b->trees[i], &w, &docs[ndocs].len, why, sizeof why))) {
          st = ct_set_error(err, CT_ERR_INVALID_ARG, "%s: OT-SVG cannot hold %s: %s",
                            ct_font_get_path(lead), glyph_label(lead, i, label, sizeof label), why);
          goto done;
        }
        ndocs++;
      }
    }
    if (s.glyf.failed) goto nomem;

    /* glyf, loca, hmtx, hhea, maxp, post, head */
    {
      ct_buf_t lo = { 0 }, hm = { 0 }, hh = { 0 }, mp = { 0 }, pt = { 0 }, hd = { 0 };
      for (i = 0; i <= s.count; i++) ct_buf_u32(&lo, (uint32_t)s.loca[i]);
      ct_build_write_hmtx(&s, &hhea, &hm, &hh);
      ct_build_write_maxp(&s, &maxp, !regenerate, &mp);
      ct_build_write_post(&s, &post, &pt);
      ct_buf_bytes(&hd, head.p, 54);
      ct_buf_put_u16(&hd, 36, (unsigned)(s.max.xmin & 0xFFFF));
      ct_buf_put_u16(&hd, 38, (unsigned)(s.max.ymin & 0xFFFF));
      ct_buf_put_u16(&hd, 40, (unsigned)(s.max.xmax & 0xFFFF));
      ct_buf_put_u16(&hd, 42, (unsigned)(s.max.ymax & 0xFFFF));
      ct_buf_put_u16(&hd, 50, 1);   /* long loca */
      ct_buf_put_u16(&hd, 52, 0);
      if ((st = ct_tables_add(&tables, &ntables, TAG('g', 'l', 'y', 'f'), &s.glyf, err)) ||
          (st = ct_tables_add(&tables, &ntables, TAG('l', 'o', 'c', 'a'), &lo, err)) ||
          (st = ct_tables_add(&tables, &ntables, TAG('h', 'm', 't', 'x'), &hm, err)) ||
          (st = ct_tables_add(&tables, &ntables, TAG('h', 'h', 'e', 'a'), &hh, err)) ||
          (st = ct_tables_add(&tables, &ntables, TAG('m', 'a', 'x', 'p'), &mp, err)) ||
          (st = ct_tables_add(&tables, &ntables, TAG('p', 'o', 's', 't'), &pt, err)) ||
          (st = ct_tables_add(&tables, &ntables, TAG('h', 'e', 'a', 'd'), &hd, err)))
        goto done;
      cff = 0;
    }
    if (colr) {
      if (!ct_colr_writer_finish(colr, &buf)) goto nomem;
      if ((st = ct_tables_add(&tables, &ntables, TAG('C', 'O', 'L', 'R'), &buf, err))) goto done;
    }
    if (ndocs) {
      ct_build_write_svg(docs, ndocs, &buf);
      if ((st = ct_tables_add(&tables, &ntables, TAG('S', 'V', 'G', ' '), &buf, err))) goto done;
    }
  } else {
    ct_buf_t hd = { 0 };
    ct_buf_bytes(&hd, head.p, head.len);
    if ((st = ct_tables_add(&tables, &ntables, TAG('h', 'e', 'a', 'd'), &hd, err))) goto done;
  }

  /* name, with the palettes' names and labels; CPAL */
  if (!ct_names_read(&ns, &name, renamed)) goto nomem;
  if (renamed) {
    ct_font_info_t info;
    ct_font_get_info(lead, &info);
    if (!ct_names_add_family(&ns, b->family, info.style)) goto nomem;
  }
  if (b->npalettes && b->entries) {
    unsigned p, e, total = b->entries + s.nextra, any_type = 0, any_name = 0, any_label = 0;
    if (!(colors = malloc((size_t)total * b->npalettes * sizeof *colors)) ||
        !(name_ids = malloc((b->npalettes + 1) * sizeof *name_ids)) ||
        !(label_ids = malloc((total + 1) * sizeof *label_ids)))
      goto nomem;
    for (p = 0; p < b->npalettes; p++) {
      memcpy(colors + (size_t)p * total, b->colors + (size_t)p * b->entries, b->entries * sizeof *colors);
      for (e = 0; e < s.nextra; e++) colors[(size_t)p * total + b->entries + e] = s.extra[(size_t)e * b->npalettes + p];
      any_type |= b->types[p];
      name_ids[p] = 0xFFFF;
      if (b->names[p]) {
        if (ns.next_id > 32767 || !ct_names_add(&ns, ns.next_id, b->names[p])) goto nomem;
        name_ids[p] = ns.next_id++;
        any_name = 1;
      }
    }
    for (e = 0; e < total; e++) {
      label_ids[e] = 0xFFFF;
      if (e < b->entries && b->labels[e]) {
        if (ns.next_id > 32767 || !ct_names_add(&ns, ns.next_id, b->labels[e])) goto nomem;
        label_ids[e] = ns.next_id++;
        any_label = 1;
      }
    }
    ct_cpal_encode(&buf, total, b->npalettes, colors, any_type ? b->types : NULL, any_name ? name_ids : NULL,
                   any_label ? label_ids : NULL);
    if ((st = ct_tables_add(&tables, &ntables, TAG('C', 'P', 'A', 'L'), &buf, err))) goto done;
  } else if (s.nextra) {
    /* no palettes of its own: one made of the colors the glyphs use */
    ct_buf_t tmp = { 0 };
    ct_cpal_encode(&tmp, s.nextra, 1, s.extra, NULL, NULL, NULL);
    if ((st = ct_tables_add(&tables, &ntables, TAG('C', 'P', 'A', 'L'), &tmp, err))) goto done;
  }
  if (!ct_names_write(&ns, &buf)) goto nomem;
  if ((st = ct_tables_add(&tables, &ntables, TAG('n', 'a', 'm', 'e'), &buf, err))) goto done;

  if ((st = ct_sfnt_assemble(tables, ntables, cff, &file, err))) goto done;
  st = ct_build_output(&file, path, o, err);
  goto done;

nomem:
  st = ct_set_error(err, CT_ERR_NOMEM, "out of memory (or a table over the size limit)");
done:
  for (i = 0; i < ntables; i++) ct_buf_free(&tables[i].data);
  free(tables);
  for (i = 0; i < ndocs; i++) free(docs[i].doc);
  free(docs);
  ct_colr_writer_destroy(colr);
  ct_build_free(&s);
  ct_names_free(&ns);
  ct_buf_free(&file);
  ct_buf_free(&buf);
  free(colors);
  free(name_ids);
  free(label_ids);
  free(head.p);
  free(hhea.p);
  free(maxp.p);
  free(post.p);
  free(name.p);
  free(hmtx.p);
  free(glyf.p);
  free(loca.p);
  return st;
}
