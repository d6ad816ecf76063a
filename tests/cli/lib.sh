# lib.sh: helpers of the shell test suites (sourced; SUITE names the suite in messages).
#   ok                         count a pass
#   bad MESSAGE                count a failure and print it
#   expect STATUS PATTERN CMD  run CMD: its exit status must be STATUS and its output
#                              (stdout and stderr) must contain PATTERN (grep; "" for any)
#   same_sums REF DIR WHAT REMAKE   the files of DIR are those REF/SHA256SUMS lists (the
#                              committed references were made from them), else a failure
#                              naming WHAT and the script REMAKE that makes the references again
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
same_sums() {
  sums_out=$( (sums=$(pwd)/$1/SHA256SUMS && cd "$2" && sha256sum --quiet -c "$sums") 2>&1 ) && { ok; return; }
  bad "the $3 differ from those $1 was made from (run $4): $(printf '%s\n' "$sums_out" | head -3)"
}
finish() {
  echo "$SUITE: $pass passed, $fail failed"
  [ "$fail" -eq 0 ]
  exit $?
}
