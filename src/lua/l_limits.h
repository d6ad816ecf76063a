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
  size_t             max_memory;        /* bytes of Lua memory; 0: no limit */
  unsigned long long max_instructions;  /* Lua VM instructions; 0: no limit */
  double             max_seconds;       /* wall-clock seconds; 0: no limit */
} lct_limits_t;

/* A new Lua state under `limits` (the time limit starts now), or NULL without memory. */
lua_State *lct_newstate(const lct_limits_t *limits);

/* The message for an error raised when a limit was hit (with the option that sets it), or
   NULL if no limit was hit. */
const char *lct_limit_message(void);

/* Parses "512M", "2G", "65536" (bytes; K, M, G are powers of 1024); returns 0 if bad. */
int lct_parse_size(const char *s, size_t *out);

#endif /* LCT_LIMITS_H */
