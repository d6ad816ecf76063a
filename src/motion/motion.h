/*
** motion.h: the header of the motion stage (src/motion/), private to it: the animation
** writers anim.c hands frames to besides its own APNG, WebP and PNG frames: GIF (gif.c,
** giflib) and video (video.c, the ffmpeg program).  Each takes frames in order as straight
** RGBA of the animation's size, writes to a temporary file and renames it into place when
** finished; destroyed unfinished, it leaves nothing on disk.
** Motion stage: stands on write/ (pages drawn as images, PNG); its API is ct.h's
** "animations" part.
*/
#ifndef CT_MOTION_H
#define CT_MOTION_H

#include "write/write.h"

/* GIF: one palette for the whole animation (made from the samples, or from the first frame
   when none came), frames as the rectangles that changed, delays in hundredths of a second
   as near the frame rate as GIF allows. */
typedef struct ct_gif ct_gif_t;
ct_gif_t   *ct_gif_open(const char *path, int width, int height, const ct_anim_options_t *opts, ct_error_t *err);
ct_status_t ct_gif_sample(ct_gif_t *gif, const unsigned char *rgba, ct_error_t *err);
ct_status_t ct_gif_add(ct_gif_t *gif, const unsigned char *rgba, ct_error_t *err);
ct_status_t ct_gif_finish(ct_gif_t *gif, ct_error_t *err);
void        ct_gif_destroy(ct_gif_t *gif);

/* Video (.mp4, .webm, .mov) through the ffmpeg program, frames piped in raw: an error at
   ct_video_open when the program is missing; the process starts with the first frame (so
   that the frame workers, forked before, do not hold its pipe). */
typedef struct ct_video ct_video_t;
ct_video_t *ct_video_open(const char *path, int width, int height, const ct_anim_options_t *opts, ct_error_t *err);
ct_status_t ct_video_add(ct_video_t *video, const unsigned char *rgba, ct_error_t *err);
ct_status_t ct_video_finish(ct_video_t *video, ct_error_t *err);
void        ct_video_destroy(ct_video_t *video);

#endif /* CT_MOTION_H */
