/*
** animate.c: the animation options of the command line (--animate, --duration, --fps, ...)
** and `view --animate`, which hands the line and its animated values to
** chromatype.viewanim (lua/chromatype/viewanim.lua): the frames are drawn there, on every core.
*/
#include <stdio.h>
#include <string.h>

#include <lauxlib.h>

#include "cli.h"

const char anim_usage[] =
  "Animation (the output's extension picks the format: .webp, .apng or .png, .gif, .mp4, .webm, .mov,\n"
  "or a pattern such as frames/%04d.png):\n"
  "      --animate=NAME=V0:V1[:V2...],...\n"
  "                             values spread over the animation (repeatable): an axis tag\n"
  "                             (EDPT=0:200), size (points), tracking (ems), palette (indices or\n"
  "                             names, blended in OKLab: palette=0:1), color, background\n"
  "      --duration=SECONDS     length (default: 3)\n"
  "      --fps=N                frames per second (default: 30)\n"
  "      --frames=N             the number of frames, instead of --duration\n"
  "      --ease=E               linear, in, out, in-out or steps(N) (default: linear)\n"
  "      --loop=N               times to play, 0 = forever (default: 0)\n"
  "      --poster=N             APNG: frame N is also the still image of readers without animation\n"
  "      --quality=Q            WebP: lossy at quality 0..100 (default: lossless); video: 0..100\n"
  "      --effort=N             WebP: 0 (fastest, default) to 6 (smallest)\n"
  "      --dither               GIF: error-diffusion dithering to the shared palette\n"
  "      --matte=COLOR          video: what transparent pixels show (default: white)\n"
  "      --jobs=N               processes drawing frames (default: one per core)\n";

void anim_opts_init(anim_opts_t *a) {
  memset(a, 0, sizeof *a);
  a->frames = a->loop = a->quality = a->effort = a->poster = a->jobs = -1;
}

int take_anim_option(opts_t *o, const char *arg, anim_opts_t *a) {
  if (opt_is(o, arg, "--animate", 1)) {
    if (a->nspecs >= MAX_ANIMATE) die(EXIT_USAGE, "too many --animate options (at most %d)", MAX_ANIMATE);
    if (!o->value[0] || !strchr(o->value, '='))
      die(EXIT_USAGE, "--animate: NAME=FROM:TO expected (e.g. --animate wght=100:900), got '%s'", o->value);
    a->specs[a->nspecs++] = o->value;
  } else if (opt_is(o, arg, "--duration", 1)) {
    a->duration = parse_double("--duration", o->value, 0.001, 3600);
  } else if (opt_is(o, arg, "--fps", 1)) {
    a->fps = parse_double("--fps", o->value, 0.01, 240);
  } else if (opt_is(o, arg, "--frames", 1)) {
    a->frames = parse_long("--frames", o->value, 1, 100000);
  } else if (opt_is(o, arg, "--ease", 1)) {
    a->ease = o->value;
  } else if (opt_is(o, arg, "--loop", 1)) {
    a->loop = parse_long("--loop", o->value, 0, 65535);
  } else if (opt_is(o, arg, "--poster", 1)) {
    a->poster = parse_long("--poster", o->value, 0, 99999);
  } else if (opt_is(o, arg, "--quality", 1)) {
    a->quality = parse_long("--quality", o->value, 0, 100);
  } else if (opt_is(o, arg, "--effort", 1)) {
    a->effort = parse_long("--effort", o->value, 0, 6);
  } else if (opt_is(o, arg, "--dither", 0)) {
    a->dither = 1;
  } else if (opt_is(o, arg, "--matte", 1)) {
    a->matte = o->value;
  } else if (opt_is(o, arg, "--jobs", 1) || opt_is(o, arg, "-j", 1)) {
    a->jobs = parse_long("--jobs", o->value, 1, 64);
  } else {
    return 0;
  }
  return 1;
}

static void set_num(lua_State *L, const char *field, double v) {
  lua_pushnumber(L, v);
  lua_setfield(L, -2, field);
}

static void set_int(lua_State *L, const char *field, long v) {
  if (v < 0) return;
  lua_pushinteger(L, v);
  lua_setfield(L, -2, field);
}

static void set_str(lua_State *L, const char *field, const char *v) {
  if (!v) return;
  lua_pushstring(L, v);
  lua_setfield(L, -2, field);
}

void push_anim_opts(lua_State *L, const anim_opts_t *a) {
  unsigned k;
  lua_createtable(L, (int)a->nspecs, 0);
  for (k = 0; k < a->nspecs; k++) {
    lua_pushstring(L, a->specs[k]);
    lua_rawseti(L, -2, (lua_Integer)k + 1);
  }
  lua_setfield(L, -2, "animate");
  if (a->duration > 0) set_num(L, "duration", a->duration);
  if (a->fps > 0) set_num(L, "fps", a->fps);
  set_int(L, "frames", a->frames);
  set_int(L, "loop", a->loop);
  set_int(L, "quality", a->quality);
  set_int(L, "effort", a->effort);
  set_int(L, "poster", a->poster);
  set_int(L, "workers", a->jobs);
  set_str(L, "ease", a->ease);
  set_str(L, "matte", a->matte);
  if (a->dither) {
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "dither");
  }
}

static const char view_lua[] =
  "local t = ...\n"
  "return require('chromatype.viewanim').view(t)\n";

int view_animation(const view_req_t *v, const anim_opts_t *a) {
  lua_State *L;
  int status, k;
  if (a->duration > 0 && a->frames >= 0) die(EXIT_USAGE, "view: give --duration or --frames, not both");
  if (strcmp(v->output, "-") == 0) die(EXIT_USAGE, "view: an animation is written to a file (-o out.webp)");
  set_home(v->font);
  cli_run_opts.output = v->output;
  if (!(L = new_state(&status))) return status;
  status = load_run(L, view_lua, sizeof view_lua - 1, "=view");
  if (status == LUA_OK) {
    lua_createtable(L, 0, 32);
    set_str(L, "font", v->font);
    set_int(L, "index", (long)v->index);
    set_str(L, "text", v->text);
    set_num(L, "size", v->size);
    set_str(L, "palette", v->palette);
    set_str(L, "custom", v->custom);
    set_str(L, "foreground", v->foreground);
    set_str(L, "background", v->background);
    set_str(L, "features", v->features);
    set_str(L, "variations", v->variations);
    set_str(L, "script", v->script);
    set_str(L, "language", v->language);
    set_str(L, "direction", v->direction);
    set_str(L, "format", v->format);
    set_str(L, "output", v->output);
    set_num(L, "dpi", v->dpi);
    lua_createtable(L, 4, 0);
    for (k = 0; k < 4; k++) {
      lua_pushnumber(L, v->margin[k]);
      lua_rawseti(L, -2, k + 1);
    }
    lua_setfield(L, -2, "margin");
    push_anim_opts(L, a);
    status = lua_pcall(L, 1, 0, 0);
  }
  if (status != LUA_OK) {
    report_error(L, "view");
    lua_close(L);
    return 1;
  }
  lua_close(L);
  return 0;
}
