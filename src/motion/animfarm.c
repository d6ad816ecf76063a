/*
** animfarm.c: the frames of an animation drawn on every core.  Worker processes (fork: the
** fonts, caches and a scripting state are theirs, nothing is shared or locked) each draw
** every W-th frame and send it up a pipe; this process takes the frames in order and hands
** them to the encoder (anim.c), so a worker waits when it is more than a pipe ahead and
** memory holds one frame per process whatever the frame count.  Warnings travel up the same
** pipes and are delivered once per animation.  With one worker, frames are drawn here.
** Motion stage: stands on the writers; knows no font making.
*/
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "motion.h"

/* A record on a worker's pipe: kind, then the length of what follows. */
enum { REC_FRAME = 'F', REC_WARNING = 'W', REC_ERROR = 'E' };

typedef struct {
  uint32_t kind;
  uint32_t len;
  uint32_t status;   /* REC_ERROR: the ct_status_t */
  uint32_t frame;
} rec_t;

/* The running farm: in a worker, the pipe to write to; in this process, the warnings seen. */
static struct {
  int                    active;
  int                    fd;       /* a worker's pipe; -1 in this process */
  const ct_anim_farm_t  *farm;
  char                 **seen;
  unsigned               nseen;
} run;

static int write_all(int fd, const void *p, size_t n) {
  const char *c = p;
  while (n) {
    ssize_t w = write(fd, c, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    c += w;
    n -= (size_t)w;
  }
  return 0;
}

/* 1: read; 0: end of file before anything; -1: an error or a short record. */
static int read_all(int fd, void *p, size_t n) {
  char *c = p;
  size_t got = 0;
  while (got < n) {
    ssize_t r = read(fd, c + got, n - got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return -1;
    if (r == 0) return got ? -1 : 0;
    got += (size_t)r;
  }
  return 1;
}

static int send_rec(int fd, uint32_t kind, uint32_t status, uint32_t frame, const void *data, size_t len) {
  rec_t r;
  r.kind = kind;
  r.len = (uint32_t)len;
  r.status = status;
  r.frame = frame;
  return write_all(fd, &r, sizeof r) == 0 && (!len || write_all(fd, data, len) == 0) ? 0 : -1;
}

/* In this process: a warning delivered unless it was already. */
static void deliver_warning(const char *msg) {
  unsigned i;
  char **s;
  for (i = 0; i < run.nseen; i++)
    if (strcmp(run.seen[i], msg) == 0) return;
  if (run.nseen < CT_MAX_ANIM_WARNINGS && (s = realloc(run.seen, (run.nseen + 1) * sizeof *s)) != NULL) {
    run.seen = s;
    if ((s[run.nseen] = strdup(msg)) != NULL) run.nseen++;
  }
  if (run.farm && run.farm->warning) run.farm->warning(run.farm->user, msg);
}

int ct_anim_farm_warning(const char *msg) {
  if (!run.active) return 0;
  if (run.fd >= 0) send_rec(run.fd, REC_WARNING, 0, 0, msg, strlen(msg) + 1);
  else deliver_warning(msg);
  return 1;
}

static void forget_warnings(void) {
  unsigned i;
  for (i = 0; i < run.nseen; i++) free(run.seen[i]);
  free(run.seen);
  run.seen = NULL;
  run.nseen = 0;
}

unsigned ct_anim_farm_default_workers(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > CT_MAX_ANIM_WORKERS ? CT_MAX_ANIM_WORKERS : (unsigned)n;
}

/* The frames this process draws, in order: a poster first, then 0..count-1. */
typedef struct {
  unsigned count;
  int      poster;    /* -1: none */
} plan_t;

static unsigned plan_size(const plan_t *p) { return p->count + (p->poster >= 0); }
static unsigned plan_frame(const plan_t *p, unsigned j) {
  if (p->poster >= 0) return j == 0 ? (unsigned)p->poster : j - 1;
  return j;
}
static int plan_is_poster(const plan_t *p, unsigned j) { return p->poster >= 0 && j == 0; }

/* Draws here, one frame after the other. */
static ct_status_t render_here(ct_anim_t *a, const plan_t *p, const ct_anim_farm_t *farm, unsigned char *rgba,
                               ct_error_t *err) {
  unsigned j;
  ct_status_t st;
  for (j = 0; j < plan_size(p); j++) {
    if ((st = farm->draw(farm->user, plan_frame(p, j), rgba, err)) != CT_OK) return st;
    if ((st = ct_anim_add_rgba(a, rgba, plan_is_poster(p, j), err)) != CT_OK) return st;
  }
  return CT_OK;
}

/* A worker: draws items k, k + w, k + 2w, ... of the plan and sends them up `fd`. */
static void worker(const ct_anim_t *a, const plan_t *p, const ct_anim_farm_t *farm, unsigned k, unsigned w, int fd,
                   unsigned char *rgba, size_t frame_bytes) {
  unsigned j;
  ct_error_t err;
  unsigned char *z = NULL;
  size_t zcap = 0;
  run.fd = fd;
  for (j = k; j < plan_size(p); j += w) {
    unsigned f = plan_frame(p, j);
    ct_status_t st;
    err.message[0] = 0;
    if ((st = farm->draw(farm->user, f, rgba, &err)) != CT_OK) {
      send_rec(fd, REC_ERROR, (uint32_t)st, f, err.message, strlen(err.message) + 1);
      fflush(NULL);
      _exit(1);
    }
    if (ct_anim_encodes_frames(a)) {
      size_t len;
      if ((st = ct_anim_encode_frame(a, rgba, &z, &zcap, &len, &err)) != CT_OK) {
        send_rec(fd, REC_ERROR, (uint32_t)st, f, err.message, strlen(err.message) + 1);
        fflush(NULL);
        _exit(1);
      }
      if (send_rec(fd, REC_FRAME, 0, f, z, len) != 0) _exit(1);   /* the parent gave up */
    } else if (send_rec(fd, REC_FRAME, 0, f, rgba, frame_bytes) != 0) {
      _exit(1);
    }
  }
  fflush(NULL);   /* what the drawing printed */
  _exit(0);
}

ct_status_t ct_anim_render(ct_anim_t *a, unsigned count, int poster, const ct_anim_farm_t *farm, ct_error_t *err) {
  plan_t p;
  unsigned w, k, j, started = 0;
  size_t frame_bytes, bound;
  unsigned char *rgba;
  int encoded;
  pid_t *pids = NULL;
  int *fds = NULL;
  ct_status_t st = CT_OK;
  int width, height;
  void (*old_pipe)(int);

  if (!farm || !farm->draw) return ct_set_error(err, CT_ERR_INVALID_ARG, "an animation needs a drawing function");
  if (run.active) return ct_set_error(err, CT_ERR_INVALID_ARG, "an animation is already being rendered");
  if (count == 0 || count > CT_MAX_ANIM_FRAMES)
    return ct_set_error(err, CT_ERR_LIMIT, "%u frames (from 1 to %u)", count, CT_MAX_ANIM_FRAMES);
  if (poster >= (int)count) return ct_set_error(err, CT_ERR_INVALID_ARG, "poster frame %d of %u", poster, count);
  ct_anim_get_size(a, &width, &height);
  frame_bytes = (size_t)width * height * 4;
  encoded = ct_anim_encodes_frames(a);
  /* an encoded frame's largest: deflate's worst case (a 256th more) or WebP's (lossless noise
     a little over the raw size, lossy its headers), with room to spare */
  bound = frame_bytes + frame_bytes / 10 + 65536;
  if (!(rgba = malloc(bound))) return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  p.count = count;
  p.poster = poster < 0 ? -1 : poster;
  w = farm->workers ? farm->workers : ct_anim_farm_default_workers();
  /* frames encoded here (WebP, GIF, video) keep this process busy: by default it takes a
     core of its own, so two cores draw here, between encodings, rather than race a worker */
  if (!farm->workers && !encoded && w > 1) w--;
  if (w > CT_MAX_ANIM_WORKERS) w = CT_MAX_ANIM_WORKERS;
  if (w > plan_size(&p)) w = plan_size(&p);

  memset(&run, 0, sizeof run);
  run.active = 1;
  run.fd = -1;
  run.farm = farm;
  {
    /* a GIF's palette: a few frames drawn here first, shown to the writer */
    unsigned samples[CT_MAX_ANIM_SAMPLES], ns = ct_anim_get_sample_frames(a, count, samples, CT_MAX_ANIM_SAMPLES);
    for (j = 0; st == CT_OK && j < ns; j++)
      if ((st = farm->draw(farm->user, samples[j], rgba, err)) == CT_OK) st = ct_anim_add_sample(a, rgba, err);
    if (st != CT_OK) goto done;
  }
  if (w <= 1) {
    st = render_here(a, &p, farm, rgba, err);
    goto done;
  }

  if (!(pids = calloc(w, sizeof *pids)) || !(fds = malloc(w * sizeof *fds))) {
    st = ct_set_error(err, CT_ERR_NOMEM, "out of memory");
    goto done;
  }
  for (k = 0; k < w; k++) fds[k] = -1;
  old_pipe = signal(SIGPIPE, SIG_IGN);   /* a worker that died is seen as such, not as a signal */
  fflush(NULL);                          /* nothing buffered is written twice */
  for (k = 0; k < w; k++) {
    int pfd[2];
    if (pipe(pfd) != 0) {
      st = ct_set_error(err, CT_ERR_IO, "cannot start the frame workers: %s", strerror(errno));
      break;
    }
    pids[k] = fork();
    if (pids[k] < 0) {
      st = ct_set_error(err, CT_ERR_IO, "cannot start the frame workers: %s", strerror(errno));
      close(pfd[0]);
      close(pfd[1]);
      break;
    }
    if (pids[k] == 0) {
      unsigned m;
      close(pfd[0]);
      for (m = 0; m < k; m++) close(fds[m]);
      signal(SIGPIPE, SIG_DFL);
      worker(a, &p, farm, k, w, pfd[1], rgba, frame_bytes);
    }
    close(pfd[1]);
    fds[k] = pfd[0];
    started++;
  }

  /* The frames in order: item j comes from worker j % w. */
  for (j = 0; st == CT_OK && j < plan_size(&p); j++) {
    int fd = fds[j % w];
    for (;;) {
      rec_t r;
      int got = read_all(fd, &r, sizeof r);
      if (got <= 0) {
        st = ct_set_error(err, CT_ERR_BACKEND, "frame %u: its worker process stopped", plan_frame(&p, j));
        break;
      }
      if (r.kind == REC_FRAME && r.frame == plan_frame(&p, j) &&
          (encoded ? r.len > 0 && r.len <= bound : r.len == frame_bytes)) {
        /* an encoded frame is at most the size of a raw one plus the compressor's overhead */
        if (read_all(fd, rgba, r.len) != 1) {
          st = ct_set_error(err, CT_ERR_BACKEND, "frame %u: its worker process stopped", r.frame);
          break;
        }
        st = encoded ? ct_anim_add_encoded(a, rgba, r.len, plan_is_poster(&p, j), err)
                     : ct_anim_add_rgba(a, rgba, plan_is_poster(&p, j), err);
        break;
      }
      if ((r.kind == REC_WARNING || r.kind == REC_ERROR) && r.len > 0 && r.len <= 65536) {
        char *msg = malloc(r.len);
        if (!msg || read_all(fd, msg, r.len) != 1) {
          free(msg);
          st = ct_set_error(err, msg ? CT_ERR_BACKEND : CT_ERR_NOMEM, "frame %u: its worker process stopped",
                            plan_frame(&p, j));
          break;
        }
        msg[r.len - 1] = 0;
        if (r.kind == REC_WARNING) {
          deliver_warning(msg);
          free(msg);
          continue;
        }
        st = ct_set_error(err, r.status ? (ct_status_t)r.status : CT_ERR_BACKEND, "%s", msg);
        free(msg);
        break;
      }
      st = ct_set_error(err, CT_ERR_BACKEND, "frame %u: a worker process sent garbage", plan_frame(&p, j));
      break;
    }
  }

  /* Workers still drawing when this stopped are stopped; all are waited for. */
  for (k = 0; k < started; k++) {
    int status;
    if (st != CT_OK) kill(pids[k], SIGTERM);
    close(fds[k]);
    while (waitpid(pids[k], &status, 0) < 0 && errno == EINTR) {}
    if (st == CT_OK && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
      st = ct_set_error(err, CT_ERR_BACKEND, "a frame worker process failed (%s %d)",
                        WIFSIGNALED(status) ? "signal" : "exit status",
                        WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
  }
  signal(SIGPIPE, old_pipe);

done:
  forget_warnings();
  memset(&run, 0, sizeof run);
  free(pids);
  free(fds);
  free(rgba);
  return st;
}
