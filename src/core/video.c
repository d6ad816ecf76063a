/*
** video.c: video through the ffmpeg program.  Not written yet: a placeholder that refuses.  Core layer.
*/
#include <stdlib.h>

#include "animwriters.h"

ct_video_t *ct_video_open(const char *path, int width, int height, const ct_anim_options_t *opts, ct_error_t *err) {
  (void)width;
  (void)height;
  (void)opts;
  ct_set_error(err, CT_ERR_INVALID_ARG, "%s: video output is not written yet (APNG, WebP or PNG frames)", path);
  return NULL;
}

ct_status_t ct_video_add(ct_video_t *video, const unsigned char *rgba, ct_error_t *err) {
  (void)video;
  (void)rgba;
  return ct_set_error(err, CT_ERR_INVALID_ARG, "video output is not written yet");
}

ct_status_t ct_video_finish(ct_video_t *video, ct_error_t *err) {
  (void)video;
  return ct_set_error(err, CT_ERR_INVALID_ARG, "video output is not written yet");
}

void ct_video_destroy(ct_video_t *video) {
  (void)video;
}
