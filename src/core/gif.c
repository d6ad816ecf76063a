/*
** gif.c: animated GIF (giflib).  Not written yet: a placeholder that refuses.  Core layer.
*/
#include <stdlib.h>

#include "animwriters.h"

ct_gif_t *ct_gif_open(const char *path, int width, int height, const ct_anim_options_t *opts, ct_error_t *err) {
  (void)width;
  (void)height;
  (void)opts;
  ct_set_error(err, CT_ERR_INVALID_ARG, "%s: GIF output is not written yet (APNG, WebP or PNG frames)", path);
  return NULL;
}

ct_status_t ct_gif_sample(ct_gif_t *gif, const unsigned char *rgba, ct_error_t *err) {
  (void)gif;
  (void)rgba;
  return ct_set_error(err, CT_ERR_INVALID_ARG, "GIF output is not written yet");
}

ct_status_t ct_gif_add(ct_gif_t *gif, const unsigned char *rgba, ct_error_t *err) {
  return ct_gif_sample(gif, rgba, err);
}

ct_status_t ct_gif_finish(ct_gif_t *gif, ct_error_t *err) {
  return ct_gif_sample(gif, NULL, err);
}

void ct_gif_destroy(ct_gif_t *gif) {
  (void)gif;
}
