#!/bin/sh
# valgrind memcheck over the C unit tests, the command line and the Lua tests.
# Any invalid read/write, use of uninitialised memory or definite leak fails the run.
# (Lua tests run in the chromatype executable, which closes its Lua state and so frees
# everything; "still reachable" blocks of FreeType/fontconfig/cairo caches are not leaks.)
B=${CT_BUILD:-build}
VG="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite"
pass=0 fail=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
run() {
  if $VG "$@" > "$T/out" 2>&1; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "valgrind: FAIL: $*"; tail -30 "$T/out"; fi
}
for t in "$B"/tests/test_*; do case "$t" in *.d) continue ;; esac; run "$t"; done
run "$B/chromatype" view tests/fonts/twemoji-colr0.woff2 --unicodes=U+1F308,U+263A -o "$T/a.png"
run "$B/chromatype" view tests/fonts/ct-colr0.woff2 ABCD --font-palette=dark -o "$T/a.pdf"
run "$B/chromatype" view tests/fonts/ct-colr0.ttf ABCD --custom-palette=0=00FF00FF -o "$T/a.svg"
run "$B/chromatype" info --json tests/fonts/ct-collection.ttc --face-index 1
run "$B/chromatype" tests/lua/run.lua
echo "valgrind: $pass passed, $fail failed"
