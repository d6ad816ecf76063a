/*
** info.c: `chromatype info FONT`: names, metrics, color formats, palettes and axes of a
** font, as text or JSON.
*/
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage_info[] =
  "usage: chromatype info FONT [--face-index=N] [--json]\n"
  "Reports names, metrics, glyph count, color formats, palettes (index, type, name, entries\n"
  "as hex with their labels) and variation axes.\n"
  "\n"
  "      --face-index=N   face of a collection (default: 0)\n"
  "      --json           machine-readable output\n"
  "  -h, --help           this help\n";

static void json_string(const char *s) {
  putchar('"');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') printf("\\%c", c);
    else if (c < 0x20) printf("\\u%04x", c);
    else putchar(c);
  }
  putchar('"');
}

static void hex_color(char *buf, ct_rgba_t c) {
  snprintf(buf, 10, "%02X%02X%02X%02X", (unsigned)lround(c.r * 255), (unsigned)lround(c.g * 255),
           (unsigned)lround(c.b * 255), (unsigned)lround(c.a * 255));
}

static const char *palette_type_name(unsigned t) {
  switch (t) {
  case CT_PALETTE_TYPE_LIGHT: return "light";
  case CT_PALETTE_TYPE_DARK: return "dark";
  case CT_PALETTE_TYPE_LIGHT | CT_PALETTE_TYPE_DARK: return "light,dark";
  default: return NULL;
  }
}

static const struct { unsigned bit; const char *name; } format_names[] = {
  { CT_COLOR_COLR0, "COLRv0" }, { CT_COLOR_COLR1, "COLRv1" }, { CT_COLOR_SVG, "SVG" },
  { CT_COLOR_CBDT, "CBDT" }, { CT_COLOR_SBIX, "sbix" }
};

int cmd_info(int argc, char **argv) {
  opts_t o = { argc, 1, argv, usage_info, NULL };
  const char *path = NULL;
  unsigned face_index = 0, i, j, npal, nent, naxes;
  int json = 0, first;
  ct_font_t *font;
  ct_font_info_t info;
  ct_rgba_t *colors;
  char buf[256], hex[10];

  for (; o.i < argc; o.i++) {
    const char *a = argv[o.i];
    if (a[0] != '-') {
      if (path) die(EXIT_USAGE, "info: unexpected argument '%s'", a);
      path = a;
    } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      fputs(usage_info, stdout);
      return 0;
    } else if (strcmp(a, "--version") == 0) {
      printf("chromatype %s\n", CT_VERSION_STRING);
      return 0;
    } else if (opt_is(&o, a, "--json", 0)) {
      json = 1;
    } else if (opt_is(&o, a, "--face-index", 1) || opt_is(&o, a, "-y", 1)) {
      face_index = (unsigned)parse_long("--face-index", o.value, 0, 65535);
    } else {
      die(EXIT_USAGE, "info: unknown option '%s' (see 'chromatype info --help')", a);
    }
  }
  if (!path) die(EXIT_USAGE, "info: no font given (see 'chromatype info --help')");
  if (PARSE_ONLY) return 0;
  font = open_font(path, face_index);
  ct_font_get_info(font, &info);
  npal = ct_font_get_palette_count(font);
  nent = ct_font_get_palette_entry_count(font);
  naxes = ct_font_get_axis_count(font);
  colors = calloc(nent ? nent : 1, sizeof *colors);
  if (!colors) die(1, "out of memory");

  if (json) {
    printf("{\n  \"file\": "); json_string(path);
    printf(",\n  \"face_index\": %u, \"face_count\": %u,\n  \"container\": ", info.face_index, info.face_count);
    json_string(info.container);
    printf(",\n  \"family\": "); json_string(info.family);
    printf(", \"style\": "); json_string(info.style);
    printf(",\n  \"full_name\": "); json_string(info.full_name);
    printf(", \"postscript_name\": "); json_string(info.postscript_name);
    printf(", \"version\": "); json_string(info.version);
    printf(",\n  \"units_per_em\": %u, \"ascender\": %d, \"descender\": %d, \"line_gap\": %d, \"glyph_count\": %u,\n",
           info.units_per_em, info.ascender, info.descender, info.line_gap, info.glyph_count);
    printf("  \"color_formats\": [");
    for (i = 0, first = 1; i < sizeof format_names / sizeof format_names[0]; i++)
      if (info.color_formats & format_names[i].bit) {
        printf("%s\"%s\"", first ? "" : ", ", format_names[i].name);
        first = 0;
      }
    printf("],\n  \"palette_entry_labels\": [");
    for (j = 0; j < nent; j++) {
      printf("%s", j ? ", " : "");
      if (ct_font_get_palette_entry_label(font, j, buf, sizeof buf)) json_string(buf);
      else printf("null");
    }
    printf("],\n  \"palettes\": [");
    for (i = 0; i < npal; i++) {
      const char *t = palette_type_name(ct_font_get_palette_type(font, i));
      printf("%s\n    {\"index\": %u, \"type\": ", i ? "," : "", i);
      if (t) json_string(t); else printf("null");
      printf(", \"name\": ");
      if (ct_font_get_palette_name(font, i, buf, sizeof buf)) json_string(buf); else printf("null");
      printf(", \"colors\": [");
      ct_font_get_palette_colors(font, i, colors, nent);
      for (j = 0; j < nent; j++) {
        hex_color(hex, colors[j]);
        printf("%s\"%s\"", j ? ", " : "", hex);
      }
      printf("]}");
    }
    printf("%s],\n  \"axes\": [", npal ? "\n  " : "");
    for (i = 0; i < naxes; i++) {
      ct_axis_t ax;
      ct_font_get_axis(font, i, &ax);
      printf("%s\n    {\"tag\": \"%s\", \"name\": ", i ? "," : "", ax.tag_str);
      json_string(ax.name);
      printf(", \"min\": %g, \"default\": %g, \"max\": %g, \"hidden\": %s}", ax.min, ax.def, ax.max,
             ax.hidden ? "true" : "false");
    }
    printf("%s]\n}\n", naxes ? "\n  " : "");
  } else {
    printf("File:          %s", path);
    if (info.face_count > 1) printf(" (face %u of %u)", info.face_index, info.face_count);
    printf("\nContainer:     %s\n", info.container);
    printf("Family:        %s\nStyle:         %s\n", info.family, info.style);
    printf("Full name:     %s\nPostScript:    %s\nVersion:       %s\n", info.full_name,
           info.postscript_name, info.version);
    printf("Units per em:  %u\nAscender:      %d\nDescender:     %d\nLine gap:      %d\n",
           info.units_per_em, info.ascender, info.descender, info.line_gap);
    printf("Glyphs:        %u\nColor formats:", info.glyph_count);
    for (i = 0, first = 1; i < sizeof format_names / sizeof format_names[0]; i++)
      if (info.color_formats & format_names[i].bit) {
        printf("%s%s", first ? " " : ", ", format_names[i].name);
        first = 0;
      }
    printf("%s\n", first ? " none (monochrome)" : "");
    printf("Palettes:      %u (%u entr%s each)\n", npal, nent, nent == 1 ? "y" : "ies");
    for (i = 0; i < npal; i++) {
      const char *t = palette_type_name(ct_font_get_palette_type(font, i));
      int named = ct_font_get_palette_name(font, i, buf, sizeof buf);
      printf("  palette %u", i);
      if (named) printf(" \"%s\"", buf);
      if (t) printf(" [%s background]", t);
      printf("\n");
      ct_font_get_palette_colors(font, i, colors, nent);
      for (j = 0; j < nent; j++) {
        hex_color(hex, colors[j]);
        printf("    %3u  #%s", j, hex);
        if (ct_font_get_palette_entry_label(font, j, buf, sizeof buf)) printf("  %s", buf);
        printf("\n");
      }
    }
    printf("Axes:          %u\n", naxes);
    for (i = 0; i < naxes; i++) {
      ct_axis_t ax;
      ct_font_get_axis(font, i, &ax);
      printf("  %s  %g..%g, default %g  %s%s\n", ax.tag_str, ax.min, ax.max, ax.def, ax.name,
             ax.hidden ? " (hidden)" : "");
    }
  }
  free(colors);
  ct_font_destroy(font);
  if (fflush(stdout) != 0) die(1, "cannot write to standard output: %s", strerror(errno));
  return 0;
}
