/*
** video.c: video (.mp4 and .mov as H.264, .webm as VP9) through the ffmpeg program, run as a
** child with no shell: frames go down a socket as raw RGB, composited over the matte (video
** has no alpha) and padded to even sizes (yuv420p); ffmpeg writes a hidden temporary file
** beside the target, renamed when it exits 0.  Motion stage: stands on the writers; knows
** no font making.
*/
#define _GNU_SOURCE   /* close_range, mkostemp */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "motion.h"

typedef enum { KIND_MP4, KIND_MOV, KIND_WEBM } kind_t;

struct ct_video {
  char              *path, *tmp, *prog;
  kind_t             kind;
  int                width, height;   /* the frames' size */
  int                ow, oh;          /* the size sent: even, padded with the matte */
  ct_anim_options_t  o;
  unsigned char      matte[3];
  unsigned char     *rgb;             /* one frame as sent, ow x oh RGB */
  pid_t              pid;             /* ffmpeg while it runs; 0 before and after */
  int                fd;              /* our end of its stdin; -1 */
  int                errfd;           /* its stderr (an unlinked temporary file); -1 */
  int                failed;          /* an error was returned: nothing more is sent */
};

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

/* The program: $CHROMATYPE_FFMPEG if set, else ffmpeg in $PATH; NULL if none runs. */
static char *find_ffmpeg(void) {
  const char *env = getenv("CHROMATYPE_FFMPEG"), *path = getenv("PATH"), *p;
  if (env && *env) return access(env, X_OK) == 0 ? strdup(env) : NULL;
  if (!path || !*path) path = "/usr/local/bin:/usr/bin:/bin";
  for (p = path;; p++) {
    const char *end = strchr(p, ':');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    char *cand = malloc(n + 8);
    struct stat sb;
    if (!cand) return NULL;
    /* an empty entry is the current directory, as in execvp */
    snprintf(cand, n + 8, "%.*s%sffmpeg", (int)n, n ? p : ".", "/");
    if (access(cand, X_OK) == 0 && stat(cand, &sb) == 0 && S_ISREG(sb.st_mode)) return cand;
    free(cand);
    if (!end) return NULL;
    p = end;
  }
}

/* The temporary name of `path`: ".NAME.tmp-XXXXXX.EXT" in its directory (ffmpeg is also
   told the muxer; the extension is for whoever looks). */
static char *temp_name(const char *path, const char *ext, int *fd) {
  const char *slash = strrchr(path, '/');
  size_t dir = slash ? (size_t)(slash - path) + 1 : 0, n = strlen(path) + strlen(ext) + 16;
  char *tmp = malloc(n);
  if (!tmp) return NULL;
  snprintf(tmp, n, "%.*s.%s.tmp-XXXXXX%s", (int)dir, path, path + dir, ext);
  if ((*fd = mkstemps(tmp, (int)strlen(ext))) < 0) {
    int e = errno;
    free(tmp);
    errno = e;
    return NULL;
  }
  return tmp;
}

ct_video_t *ct_video_open(const char *path, int width, int height, const ct_anim_options_t *opts, ct_error_t *err) {
  ct_video_t *v = NULL;
  kind_t kind;
  const char *ext;
  int fd = -1, k;
  size_t row;
  if (ends_with(path, ".mp4")) kind = KIND_MP4, ext = ".mp4";
  else if (ends_with(path, ".mov")) kind = KIND_MOV, ext = ".mov";
  else if (ends_with(path, ".webm")) kind = KIND_WEBM, ext = ".webm";
  else {
    ct_set_error(err, CT_ERR_INVALID_ARG, "%s: video is written as .mp4, .mov (H.264) or .webm (VP9)", path);
    return NULL;
  }
  if (ct_fs_restricted()) {
    ct_set_error(err, CT_ERR_DENIED, "sandbox: %s: video is encoded by ffmpeg, a program a sandboxed run does not start "
                 "(write .webp, .gif, .apng or PNG frames instead)", path);
    return NULL;
  }
  if (!(v = calloc(1, sizeof *v))) goto nomem;
  v->fd = v->errfd = -1;
  v->kind = kind;
  v->o = *opts;
  v->width = width;
  v->height = height;
  v->ow = width + (width & 1);
  v->oh = height + (height & 1);
  if (!(v->path = strdup(path))) goto nomem;
  errno = 0;
  if (!(v->prog = find_ffmpeg())) {
    const char *env = getenv("CHROMATYPE_FFMPEG");
    if (errno == ENOMEM) goto nomem;
    ct_set_error(err, CT_ERR_IO, "%s: video needs the ffmpeg program (Debian package ffmpeg), not found%s%s%s",
                 path, env && *env ? " (CHROMATYPE_FFMPEG=" : "", env && *env ? env : "", env && *env ? ")" : "");
    ct_video_destroy(v);
    return NULL;
  }
  /* the matte is opaque: its alpha, if any, is ignored */
  v->matte[0] = (unsigned char)lround(fmin(fmax(opts->matte.r, 0), 1) * 255);
  v->matte[1] = (unsigned char)lround(fmin(fmax(opts->matte.g, 0), 1) * 255);
  v->matte[2] = (unsigned char)lround(fmin(fmax(opts->matte.b, 0), 1) * 255);
  row = (size_t)v->ow * 3;
  if (!(v->rgb = malloc(row * (size_t)v->oh))) goto nomem;
  /* the padding (a column, a row) is the matte once and for all */
  for (k = 0; k < v->ow; k++) memcpy(v->rgb + (size_t)k * 3, v->matte, 3);
  for (k = 1; k < v->oh; k++) memcpy(v->rgb + row * (size_t)k, v->rgb, row);
  /* the temporary file now, so that an unwritable place fails before any frame is drawn */
  if (!(v->tmp = temp_name(path, ext, &fd))) {
    int e = errno;
    if (e == ENOMEM) goto nomem;
    ct_set_error(err, CT_ERR_IO, "%s: cannot write: %s", path, strerror(e));
    ct_video_destroy(v);
    return NULL;
  }
  { mode_t mask = umask(022); umask(mask); fchmod(fd, 0666 & ~mask); }
  close(fd);
  return v;
nomem:
  ct_video_destroy(v);
  ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  return NULL;
}

/* The frame rate as ffmpeg reads it: an integer, a NTSC-style N*1000/1001, or thousandths. */
static void rate_string(double fps, char *buf, size_t len) {
  double ntsc = fps * 1.001;
  if (fps == floor(fps)) snprintf(buf, len, "%.0f", fps);
  else if (fabs(ntsc - floor(ntsc + 0.5)) < 0.0005) snprintf(buf, len, "%.0f/1001", floor(ntsc + 0.5) * 1000);
  else snprintf(buf, len, "%.0f/1000", floor(fps * 1000 + 0.5));
}

/* The last line ffmpeg wrote to its stderr, into `buf` ("" if none). */
static void last_line(const ct_video_t *v, char *buf, size_t len) {
  char tail[1024];
  off_t end;
  ssize_t n;
  char *p, *q;
  buf[0] = 0;
  if (v->errfd < 0 || (end = lseek(v->errfd, 0, SEEK_END)) <= 0) return;
  n = pread(v->errfd, tail, sizeof tail - 1, end > (off_t)sizeof tail - 1 ? end - (off_t)(sizeof tail - 1) : 0);
  if (n <= 0) return;
  tail[n] = 0;
  for (p = tail; *p; p++)
    if ((unsigned char)*p < 0x20 && *p != '\n') *p = ' ';   /* NULs, CRs, escapes: one clean line */
  while (n > 0 && (tail[n - 1] == '\n' || tail[n - 1] == ' ')) tail[--n] = 0;
  q = strrchr(tail, '\n');
  p = q ? q + 1 : tail;
  while (*p == ' ') p++;
  n = (ssize_t)strlen(p);
  if ((size_t)n >= len) n = (ssize_t)len - 1;
  memcpy(buf, p, (size_t)n);
  buf[n] = 0;
}

/* Waits for ffmpeg; 0 when it exited 0, else an error naming its last line or status. */
static ct_status_t reap(ct_video_t *v, ct_error_t *err) {
  int status = 0;
  pid_t r;
  char line[256];
  if (v->fd >= 0) close(v->fd);
  v->fd = -1;
  if (v->pid <= 0) return CT_OK;
  while ((r = waitpid(v->pid, &status, 0)) < 0 && errno == EINTR) {}
  v->pid = 0;
  if (r < 0) return ct_set_error(err, CT_ERR_IO, "%s: ffmpeg: %s", v->path, strerror(errno));
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return CT_OK;
  last_line(v, line, sizeof line);
  if (line[0]) return ct_set_error(err, CT_ERR_BACKEND, "%s: ffmpeg failed: %s", v->path, line);
  return ct_set_error(err, CT_ERR_BACKEND, "%s: ffmpeg failed (%s %d)", v->path,
                      WIFSIGNALED(status) ? "signal" : "exit status",
                      WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
}

/* In the child, between fork and exec: stdin the socket, stdout /dev/null, stderr the file;
   nothing else open (the frame workers' pipes, the caller's files) and signals as new. */
static void child(const ct_video_t *v, int sock, char **argv) {
  int null = open("/dev/null", O_WRONLY);
  sigset_t none;
  if (sock != 0 && dup2(sock, 0) < 0) _exit(127);
  if (null < 0 || dup2(null, 1) < 0) _exit(127);
  if (dup2(v->errfd, 2) < 0) _exit(127);
  fcntl(0, F_SETFD, 0);   /* when dup2 had nothing to do, the socket's close-on-exec stays */
  fcntl(2, F_SETFD, 0);
  if (close_range(3, ~0u, 0) != 0) {
    long k, max = sysconf(_SC_OPEN_MAX);
    for (k = 3; k < (max > 0 && max < 65536 ? max : 65536); k++) close((int)k);
  }
  signal(SIGPIPE, SIG_DFL);
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  execv(v->prog, argv);
  dprintf(2, "cannot run %s: %s\n", v->prog, strerror(errno));
  _exit(127);
}

/* Starts ffmpeg (at the first frame: frame workers forked before do not hold its stdin). */
static ct_status_t start(ct_video_t *v, ct_error_t *err) {
  char size[48], rate[48], crf[16], errname[] = "/tmp/chromatype-ffmpeg-XXXXXX";
  const char *dir = getenv("TMPDIR");
  char *errpath = NULL;
  const char *argv[48];
  int n = 0, sv[2], q = v->o.quality;
  snprintf(size, sizeof size, "%dx%d", v->ow, v->oh);
  rate_string(v->o.fps, rate, sizeof rate);
  /* stderr into an unlinked file: read back for the error message, never a pipe to drain */
  if (dir && *dir) {
    size_t len = strlen(dir) + 32;
    if (!(errpath = malloc(len))) return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
    snprintf(errpath, len, "%s/chromatype-ffmpeg-XXXXXX", dir);
    v->errfd = mkostemp(errpath, O_CLOEXEC);
  }
  if (v->errfd < 0) v->errfd = mkostemp(errname, O_CLOEXEC), dir = NULL;
  if (v->errfd < 0) {
    free(errpath);
    return ct_set_error(err, CT_ERR_IO, "%s: cannot start ffmpeg: a temporary file: %s", v->path, strerror(errno));
  }
  unlink(dir ? errpath : errname);
  free(errpath);
  argv[n++] = "ffmpeg";
  argv[n++] = "-hide_banner";
  argv[n++] = "-nostats";
  argv[n++] = "-loglevel";
  argv[n++] = "error";
  argv[n++] = "-f";
  argv[n++] = "rawvideo";
  argv[n++] = "-pix_fmt";
  argv[n++] = "rgb24";
  argv[n++] = "-s";
  argv[n++] = size;
  argv[n++] = "-framerate";
  argv[n++] = rate;
  argv[n++] = "-i";
  argv[n++] = "pipe:0";
  argv[n++] = "-an";
  /* BT.709, said in the stream: players guess otherwise, some 601 and some 709 */
  argv[n++] = "-vf";
  argv[n++] = "scale=out_color_matrix=bt709:out_range=tv";
  argv[n++] = "-colorspace";
  argv[n++] = "bt709";
  argv[n++] = "-color_primaries";
  argv[n++] = "bt709";
  argv[n++] = "-color_trc";
  argv[n++] = "bt709";
  argv[n++] = "-pix_fmt";
  argv[n++] = "yuv420p";
  if (v->kind == KIND_WEBM) {
    /* VP9 constant quality: crf 0..63 (31 by default), no bitrate cap */
    snprintf(crf, sizeof crf, "%ld", q < 0 ? 31L : lround(63 - q * 0.63));
    argv[n++] = "-c:v";
    argv[n++] = "libvpx-vp9";
    argv[n++] = "-crf";
    argv[n++] = crf;
    argv[n++] = "-b:v";
    argv[n++] = "0";
    argv[n++] = "-deadline";
    argv[n++] = "good";
    argv[n++] = "-cpu-used";
    argv[n++] = "4";
    argv[n++] = "-row-mt";
    argv[n++] = "1";
    argv[n++] = "-f";
    argv[n++] = "webm";
  } else {
    /* x264: crf 51..1 (18 by default); not 0, which is lossless in the High 4:4:4 profile
       that browsers do not play */
    snprintf(crf, sizeof crf, "%ld", q < 0 ? 18L : lround(51 - q * 0.5));
    argv[n++] = "-c:v";
    argv[n++] = "libx264";
    argv[n++] = "-preset";
    argv[n++] = "veryfast";
    argv[n++] = "-crf";
    argv[n++] = crf;
    argv[n++] = "-movflags";
    argv[n++] = "+faststart";
    argv[n++] = "-f";
    argv[n++] = v->kind == KIND_MOV ? "mov" : "mp4";
  }
  argv[n++] = "-y";
  argv[n++] = v->tmp;
  argv[n] = NULL;
  /* a socket rather than a pipe: send(MSG_NOSIGNAL) to a dead ffmpeg is EPIPE, not SIGPIPE */
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    return ct_set_error(err, CT_ERR_IO, "%s: cannot start ffmpeg: %s", v->path, strerror(errno));
  fflush(NULL);   /* nothing buffered is written twice */
  v->pid = fork();
  if (v->pid < 0) {
    int e = errno;
    v->pid = 0;
    close(sv[0]);
    close(sv[1]);
    return ct_set_error(err, CT_ERR_IO, "%s: cannot start ffmpeg: %s", v->path, strerror(e));
  }
  if (v->pid == 0) {
    /* execv takes char *const[]: the strings are not written to */
    char *args[48];
    memcpy(args, argv, sizeof args);
    close(sv[0]);
    child(v, sv[1], args);
  }
  close(sv[1]);
  v->fd = sv[0];
  shutdown(v->fd, SHUT_RD);
  return CT_OK;
}

static int send_all(int fd, const unsigned char *p, size_t n) {
  while (n) {
    ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

/* Straight RGBA over the opaque matte, 8-bit: c a + m (255 - a), divided by 255 rounded. */
static void composite(ct_video_t *v, const unsigned char *rgba) {
  const unsigned mr = v->matte[0], mg = v->matte[1], mb = v->matte[2];
  int x, y;
  for (y = 0; y < v->height; y++) {
    const unsigned char *s = rgba + (size_t)y * (size_t)v->width * 4;
    unsigned char *d = v->rgb + (size_t)y * (size_t)v->ow * 3;
    for (x = 0; x < v->width; x++, s += 4, d += 3) {
      unsigned a = s[3], na = 255 - a, t;
      if (a == 255) {
        d[0] = s[0], d[1] = s[1], d[2] = s[2];
        continue;
      }
      t = s[0] * a + mr * na + 128;
      d[0] = (unsigned char)((t + (t >> 8)) >> 8);
      t = s[1] * a + mg * na + 128;
      d[1] = (unsigned char)((t + (t >> 8)) >> 8);
      t = s[2] * a + mb * na + 128;
      d[2] = (unsigned char)((t + (t >> 8)) >> 8);
    }
  }
}

ct_status_t ct_video_add(ct_video_t *v, const unsigned char *rgba, ct_error_t *err) {
  ct_status_t st;
  if (v->failed) return ct_set_error(err, CT_ERR_IO, "%s: the video failed before", v->path);
  if (!v->pid && (st = start(v, err)) != CT_OK) {
    v->failed = 1;
    return st;
  }
  composite(v, rgba);
  if (send_all(v->fd, v->rgb, (size_t)v->ow * (size_t)v->oh * 3) != 0) {
    int e = errno;
    v->failed = 1;
    /* ffmpeg stopped reading: it exited (its message says why) or closed its input */
    if ((st = reap(v, err)) == CT_OK)
      st = ct_set_error(err, CT_ERR_BACKEND, "%s: ffmpeg stopped reading frames: %s", v->path, strerror(e));
    unlink(v->tmp);
    free(v->tmp);
    v->tmp = NULL;
    return st;
  }
  return CT_OK;
}

ct_status_t ct_video_finish(ct_video_t *v, ct_error_t *err) {
  ct_status_t st;
  if (v->failed) return ct_set_error(err, CT_ERR_IO, "%s: the video failed before", v->path);
  if (!v->pid) return ct_set_error(err, CT_ERR_INVALID_ARG, "%s: a video needs at least one frame", v->path);
  v->failed = 1;   /* finished, one way or the other */
  if ((st = reap(v, err)) == CT_OK) st = ct_fs_rename(v->tmp, v->path, err);
  if (st != CT_OK) unlink(v->tmp);
  free(v->tmp);
  v->tmp = NULL;
  return st;
}

void ct_video_destroy(ct_video_t *v) {
  if (!v) return;
  if (v->fd >= 0) close(v->fd);
  v->fd = -1;
  if (v->pid > 0) {
    int status;
    kill(v->pid, SIGTERM);
    while (waitpid(v->pid, &status, 0) < 0 && errno == EINTR) {}
  }
  if (v->tmp) unlink(v->tmp);
  if (v->errfd >= 0) close(v->errfd);
  free(v->tmp);
  free(v->prog);
  free(v->rgb);
  free(v->path);
  free(v);
}
