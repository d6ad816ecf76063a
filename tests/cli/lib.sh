# lib.sh: helpers of the shell test suites (sourced; SUITE names the suite in messages).
#   ok                         count a pass
#   bad MESSAGE                count a failure and print it
#   expect STATUS PATTERN CMD  run CMD: its exit status must be STATUS and its output
#                              (stdout and stderr) must contain PATTERN (grep; "" for any)
#   finish                     print "SUITE: N passed, N failed" and exit accordingly
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "$SUITE: FAIL: $*"; }
expect() {
  want=$1 pat=$2; shift 2
  out=$("$@" 2>&1); got=$?
  if [ "$got" -ne "$want" ]; then bad "$* -> exit $got, want $want: $out"; return; fi
  if [ -n "$pat" ] && ! printf '%s' "$out" | grep -q -- "$pat"; then bad "$* -> output lacks '$pat': $out"; return; fi
  ok
}
finish() {
  echo "$SUITE: $pass passed, $fail failed"
  [ "$fail" -eq 0 ]
  exit $?
}
