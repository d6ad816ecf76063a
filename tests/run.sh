#!/bin/sh
# Runs every test suite of `make check` from the project root and sums their results.
# Each suite prints lines "NAME: N passed, N failed"; the last line here is the total.
# CT_BUILD names the build directory (default build).
B=${CT_BUILD:-build}
export CT_BUILD=$B
log=$(mktemp)
out=$(mktemp)
trap 'rm -f "$log" "$out"' EXIT
status=0

run() {   # run one suite, echo its output, keep its result lines and its exit status
  "$@" > "$out" 2>&1
  rc=$?
  cat "$out"
  cat "$out" >> "$log"
  if [ "$rc" -ne 0 ]; then
    status=1
    echo "FAIL: $* exited with status $rc"
  fi
}

for t in "$B"/tests/*/test_*; do
  case "$t" in *.d) continue ;; esac
  [ -x "$t" ] && run "$t"
done
run sh tests/render/run.sh
run sh tests/cli/test_cli.sh
run sh tests/cli/test_svg.sh
run sh tests/cli/test_svg_layouts.sh
run sh tests/cli/test_sandbox.sh
run sh tests/cli/test_sandbox_escapes.sh
run sh tests/cli/test_hostile_faults.sh
run sh tests/cli/test_batch.sh
run sh tests/cli/test_print.sh
run sh tests/cli/test_frames.sh
run sh tests/cli/test_pdf_chunks.sh
run sh tests/cli/test_font.sh
run sh tests/cli/test_font_artwork.sh
run sh tests/cli/test_font_axes.sh
run sh tests/cli/test_font_specimen.sh
run sh tests/cli/test_font_randomize.sh
run sh tests/cli/test_artwork_strokes.sh
run sh tests/cli/test_artwork_twemoji.sh
run sh tests/cli/test_realfonts.sh
run sh tests/cli/test_motion.sh
run sh tests/cli/test_anim_gif.sh
run sh tests/cli/test_anim_video.sh
run sh tests/cli/test_doc_animate.sh
run sh tests/cli/test_threads.sh
run sh tests/cli/test_hostile_cost.sh
run "$B"/chromatype tests/lua/run.lua
# the tree keeps its shape: stages, doors, no circle, sizes (docs/ARCHITECTURE.md)
run lua5.4 tools/layers.lua "$B"
# the fuzz targets on their seeds and on every input a fuzzer once crashed on (tests/fuzz)
for t in font svg xml cli fontbuild svgtime image; do
  case $t in
    font) seeds="tests/fonts examples/fonts tests/fuzz/regress/font" ;;
    *) seeds="tests/fuzz/corpus/$t tests/fuzz/regress/$t" ;;
  esac
  # shellcheck disable=SC2086
  [ -x "$B/tests/fuzz-$t" ] && run "$B/tests/fuzz-$t" "fuzz-$t" $seeds
done
# the same Lua tests from a plain lua5.4, through the C module (not under ASan: the
# interpreter itself is not instrumented)
if [ -z "$CT_ASAN" ]; then
  LUA_CPATH="$B/lua/?.so;;" LUA_PATH="lua/?.lua;lua/?/init.lua;;" run lua5.4 tests/lua/run.lua
fi

# memcheck of the C tests, the command line and the Lua tests (skipped under ASan)
if [ -z "$CT_ASAN" ] && command -v valgrind >/dev/null 2>&1; then
  run sh tests/valgrind.sh
fi

passed=$(sed -n 's/.*: \([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
failed=$(sed -n 's/.*: \([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*/\2/p' "$log" | awk '{s+=$1} END {print s+0}')
suites=$(grep -c ': [0-9]* passed, [0-9]* failed' "$log")
[ "$status" -ne 0 ] && [ "$failed" -eq 0 ] && failed=1   # a suite crashed without counting
echo "($suites suites)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
