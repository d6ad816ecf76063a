/*
** l_limits.h: limits on Lua itself, for scripts and filters from untrusted sources: memory
** (a counting allocator), instructions (a count hook) and wall-clock time (an alarm that
** stops Lua at its next instruction, and the process if C work outlasts it).
*/
#ifndef LCT_LIMITS_H
#define LCT_LIMITS_H

#include <lua.h>
#include <stddef.h>

typedef struct {
  size_t             max_memory;        /* bytes of Lua's heap and C objects; 0: no limit */
  unsigned long long max_instructions;  /* Lua VM instructions; 0: no limit */
  double             max_seconds;       /* wall-clock seconds; 0: no limit */
} lct_limits_t;

/* A new Lua state under `limits` (the time limit starts now), or NULL without memory. */
lua_State *lct_newstate(const lct_limits_t *limits);

/* Another state under the same limits, whose use counts with the first one's (a batch
   worker's record, run apart from the worker's own state): the alarm and the limits now
   stop it.  *previous gets the state they stopped before, for lct_close_more.  NULL
   without memory. */
lua_State *lct_newstate_more(lua_State **previous);

/* Closes a state of lct_newstate_more; `previous` is again the one the limits stop (and
   raises at its next instruction if a limit was hit meanwhile). */
void lct_close_more(lua_State *L, lua_State *previous);

/* Before a binding makes C objects (canvases, fonts, pictures, paint trees): under a memory
   limit, a full collection whenever the memory count grew by a sixteenth of the limit since
   the last, so that objects Lua no longer holds (whose C memory its collector does not see)
   are freed before the limit is reached.  [-0, +0] */
void lct_mem_pace(lua_State *L);

/* The message for an error raised when a limit was hit (with the option that sets it), or
   NULL if no limit was hit. */
const char *lct_limit_message(void);

/* Parses "512M", "2G", "65536" (bytes; K, M, G are powers of 1024); returns 0 if bad. */
int lct_parse_size(const char *s, size_t *out);

#endif /* LCT_LIMITS_H */
