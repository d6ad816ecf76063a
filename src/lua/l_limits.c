/*
** l_limits.c: limits on Lua memory, instructions and time (see l_limits.h).
**
** Memory: every allocation of the state goes through a counting allocator that refuses to
** grow past the limit, counted with what canvases, fonts, pictures and paint trees hold in C
** (base/memory.c, whose refusals stop the run the same way); Lua then raises "not enough
** memory" where it stands, and the command line reports which limit that was.  Instructions: a count hook every 10,000
** instructions.  Time: SIGALRM sets a hook that raises at the next instruction; if the
** process is still in C code (rendering) five seconds later, it prints the message and
** exits with status 124, as timeout(1) does.  A limit once hit raises again at every
** instruction of every thread (a script cannot catch it and go on), and where Lua runs no
** hooks (__gc metamethods, the message handler of a hook's error) a watchdog ends the
** process five seconds later.  One set of limits per process: the command line's state,
** and the fresh states a batch worker makes for its records (lct_newstate_more), which
** count against the same limits.
*/
#include "l_limits.h"

#include "base/base.h"

#include <lauxlib.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#define HOOK_STEP 10000
#define GRACE_SECONDS 5

static struct {
  lct_limits_t       lim;
  size_t             paced;                /* the memory count at the last collection of lct_mem_pace */
  unsigned long long count;
  lua_State         *L;
  volatile sig_atomic_t expired;
  volatile sig_atomic_t hit;              /* which limit raised: 1 memory, 2 instructions, 3 time */
  char               msg[160];
  char               late[200];            /* what the watchdog prints: formatted before */
} st;

/* Once a limit is hit, every later instruction of every thread raises again: a script
   that catches the error (pcall, xpcall, a coroutine, __gc) cannot go on past it. */
static void hook(lua_State *L, lua_Debug *ar);

static void stick(lua_State *L) {
  lua_sethook(L, hook, LUA_MASKCOUNT, 1);
  if (st.L && st.L != L) lua_sethook(st.L, hook, LUA_MASKCOUNT, 1);
}

/* Lua runs no hook inside a hook's own error handler (xpcall's message handler of the
   error a hook raised) nor in __gc metamethods: a script looping there outlives every
   hook.  So a limit hit arms a watchdog: if the run has not ended GRACE_SECONDS later,
   the process prints the limit and exits.  Async-signal-safe (the allocator calls it). */
static void arm_watchdog(void) {
  size_t n = strlen(st.msg);
  static const char head[] = "chromatype: ", tail[] = "; stopped\n";
  if (sizeof head + n + sizeof tail > sizeof st.late) n = sizeof st.late - sizeof head - sizeof tail;
  memcpy(st.late, head, sizeof head - 1);
  memcpy(st.late + sizeof head - 1, st.msg, n);
  memcpy(st.late + sizeof head - 1 + n, tail, sizeof tail);
  alarm(GRACE_SECONDS);
}

/* The memory limit hit, by Lua (what: NULL) or by a C object (ct_mem_charge: "a canvas's
   page", "a font", ...).  Async-signal-safe but for the message. */
static void memory_hit(const char *what) {
  if (st.hit) return;
  st.hit = 1;
  if (what) snprintf(st.msg, sizeof st.msg, "memory limit of %zu MiB reached (--max-memory) making %s",
                     st.lim.max_memory >> 20, what);
  else snprintf(st.msg, sizeof st.msg, "memory limit of %zu MiB reached (--max-memory)", st.lim.max_memory >> 20);
  if (st.L) lua_sethook(st.L, hook, LUA_MASKCOUNT, 1);   /* async-safe, as in a signal handler */
  arm_watchdog();
}

/* Lua's heap is charged to the count of base/memory.c, with the C objects'. */
static void *limited_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  size_t old = ptr ? osize : 0;
  void *p;
  (void)ud;
  if (nsize == 0) {
    free(ptr);
    ct_mem_release(old);
    return NULL;
  }
  if (nsize <= old) {              /* Lua assumes a shrink never fails */
    p = realloc(ptr, nsize);
    if (p) ct_mem_release(old - nsize);
    return p ? p : ptr;
  }
  if (!ct_mem_try(nsize - old)) {
    memory_hit(NULL);
    return NULL;
  }
  if (!(p = realloc(ptr, nsize))) ct_mem_release(nsize - old);
  return p;
}

void lct_mem_pace(lua_State *L) {
  size_t now = ct_mem_used();
  if (!st.lim.max_memory) return;
  if (now > st.paced + st.lim.max_memory / 16) {
    lua_gc(L, LUA_GCCOLLECT);
    st.paced = ct_mem_used();
  } else if (now < st.paced) {
    st.paced = now;
  }
}

static void hook(lua_State *L, lua_Debug *ar) {
  (void)ar;
  if (st.expired && !st.hit) {
    st.hit = 3;
    snprintf(st.msg, sizeof st.msg, "time limit of %g s reached (--timeout)", st.lim.max_seconds);
  }
  if (!st.hit && st.lim.max_instructions) {
    st.count += HOOK_STEP;
    if (st.count > st.lim.max_instructions) {
      st.hit = 2;
      snprintf(st.msg, sizeof st.msg, "instruction limit of %llu reached (--max-instructions)",
               st.lim.max_instructions);
      arm_watchdog();
    }
  }
  if (st.hit) {
    stick(L);
    luaL_error(L, "%s", st.msg);
  }
}

static void on_alarm(int sig) {
  (void)sig;
  if (st.hit == 1 || st.hit == 2) {   /* a limit hit GRACE_SECONDS ago: the run has not ended */
    ssize_t w = write(2, st.late, strlen(st.late));
    (void)w;
    _exit(1);
  }
  if (st.expired) {                 /* the grace period is over: C code or an unhooked loop */
    ssize_t w = write(2, st.late, strlen(st.late));
    (void)w;
    _exit(124);
  }
  st.expired = 1;
  if (st.L) lua_sethook(st.L, hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKLINE | LUA_MASKCOUNT, 1);
  alarm(GRACE_SECONDS);
}

lua_State *lct_newstate(const lct_limits_t *limits) {
  lua_State *L;
  memset(&st, 0, sizeof st);
  if (limits) st.lim = *limits;
  ct_mem_set_limit(st.lim.max_memory, st.lim.max_memory ? memory_hit : NULL);
  L = lua_newstate(limited_alloc, NULL);
  if (!L) return NULL;
  st.L = L;
  /* with any limit, every thread counts (coroutines inherit the hook of their creator), so
     that each one sees a limit hit elsewhere */
  if (st.lim.max_instructions || st.lim.max_memory || st.lim.max_seconds > 0)
    lua_sethook(L, hook, LUA_MASKCOUNT, HOOK_STEP);
  if (st.lim.max_instructions || st.lim.max_memory || st.lim.max_seconds > 0) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
  }
  snprintf(st.late, sizeof st.late, "chromatype: time limit of %g s reached (--timeout); stopped\n", st.lim.max_seconds);
  if (st.lim.max_seconds > 0) {
    struct itimerval it;
    memset(&it, 0, sizeof it);
    it.it_value.tv_sec = (time_t)st.lim.max_seconds;
    it.it_value.tv_usec = (suseconds_t)((st.lim.max_seconds - (double)it.it_value.tv_sec) * 1e6);
    if (it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0) it.it_value.tv_usec = 1;
    setitimer(ITIMER_REAL, &it, NULL);
  }
  return L;
}

lua_State *lct_newstate_more(lua_State **previous) {
  lua_State *L = lua_newstate(limited_alloc, NULL);
  *previous = st.L;
  if (!L) return NULL;
  if (st.lim.max_instructions || st.lim.max_memory || st.lim.max_seconds > 0)
    lua_sethook(L, hook, LUA_MASKCOUNT, st.hit || st.expired ? 1 : HOOK_STEP);
  st.L = L;                       /* the alarm stops this one, the one running */
  return L;
}

void lct_close_more(lua_State *L, lua_State *previous) {
  st.L = previous;                /* before the close: the alarm must not hook a closed state */
  lua_close(L);
  if (previous && st.hit) stick(previous);
  else if (previous && st.expired)
    lua_sethook(previous, hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKLINE | LUA_MASKCOUNT, 1);
}

const char *lct_limit_message(void) { return st.hit ? st.msg : NULL; }

int lct_parse_size(const char *s, size_t *out) {
  char *end;
  double v;
  if (!s || !*s) return 0;
  v = strtod(s, &end);
  if (end == s || !(v > 0)) return 0;
  if (*end == 'K' || *end == 'k') { v *= 1024; end++; }
  else if (*end == 'M' || *end == 'm') { v *= 1024.0 * 1024; end++; }
  else if (*end == 'G' || *end == 'g') { v *= 1024.0 * 1024 * 1024; end++; }
  if (*end == 'B' || *end == 'i') end++;
  if (*end != '\0' || v < 1024 * 1024 || v > 1e15) return 0;
  *out = (size_t)v;
  return 1;
}
