/*
** parallel.c: the process's thread count (--threads, ct_set_threads, CHROMATYPE_THREADS,
** else the cores) and a parallel loop over numbered jobs on that many threads.  The jobs of
** a loop are fixed before it starts and each writes only its own result, so threads change
** who does the work, never the output.  Base stage: knows no font, paint or page.
*/
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base.h"

static unsigned threads_set;   /* 0: not set, the default applies */

unsigned ct_parse_threads(const char *s) {
  char *end;
  long v;
  if (!s || !*s) return 0;
  v = strtol(s, &end, 10);
  if (*end != '\0' || v < 1 || v > CT_MAX_THREADS) return 0;
  return (unsigned)v;
}

ct_status_t ct_set_threads(unsigned n, ct_error_t *err) {
  if (n > CT_MAX_THREADS)
    return ct_set_error(err, CT_ERR_INVALID_ARG, "threads: %u is out of range (1..%d, 0 for the default)", n,
                        CT_MAX_THREADS);
  threads_set = n;
  return CT_OK;
}

unsigned ct_get_threads(void) {
  const char *env;
  long n;
  unsigned v;
  if (threads_set) return threads_set;
  if ((env = getenv("CHROMATYPE_THREADS")) && (v = ct_parse_threads(env))) return v;
  n = sysconf(_SC_NPROCESSORS_ONLN);
  if (n < 1) return 1;
  return n > CT_MAX_THREADS ? CT_MAX_THREADS : (unsigned)n;
}

typedef struct {
  pthread_mutex_t lock;
  unsigned        next, count, workers;
  void          (*fn)(void *arg, unsigned job, unsigned worker);
  void           *arg;
} loop_t;

static void run(loop_t *l, unsigned id) {
  for (;;) {
    unsigned job;
    pthread_mutex_lock(&l->lock);
    job = l->next < l->count ? l->next++ : l->count;
    pthread_mutex_unlock(&l->lock);
    if (job >= l->count) return;
    l->fn(l->arg, job, id);
  }
}

static void *worker(void *p) {
  loop_t *l = p;
  unsigned id;
  pthread_mutex_lock(&l->lock);
  id = ++l->workers;   /* 1, 2, ...: the caller is 0 */
  pthread_mutex_unlock(&l->lock);
  run(l, id);
  return NULL;
}

void ct_parallel_for(unsigned count, unsigned threads, void (*fn)(void *arg, unsigned job, unsigned worker),
                     void *arg) {
  pthread_t tids[CT_MAX_THREADS];
  unsigned started = 0, k;
  loop_t l;
  if (threads > count) threads = count;
  if (threads > CT_MAX_THREADS) threads = CT_MAX_THREADS;
  if (threads <= 1) {
    for (k = 0; k < count; k++) fn(arg, k, 0);
    return;
  }
  memset(&l, 0, sizeof l);
  pthread_mutex_init(&l.lock, NULL);
  l.count = count;
  l.fn = fn;
  l.arg = arg;
  /* the calling thread is one of them; a thread that cannot start leaves its share to the rest */
  for (k = 1; k < threads; k++)
    if (pthread_create(&tids[started], NULL, worker, &l) == 0) started++;
  run(&l, 0);
  for (k = 0; k < started; k++) pthread_join(tids[k], NULL);
  pthread_mutex_destroy(&l.lock);
}
