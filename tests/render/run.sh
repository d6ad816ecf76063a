#!/bin/sh
# Golden render tests: draws each case of cases.txt with build/tests/ctgrid and compares
# it with the committed Chromium reference.  Failures leave out/, diff/ and index.html in
# tests/render/ for a look.  Fonts under ../shared are skipped, with a note, where absent.
B=${CT_BUILD:-build}
dir=tests/render
pass=0 fail=0 skip=0
rm -rf "$dir/out" "$dir/diff" "$dir/index.html"
mkdir -p "$dir/out" "$dir/diff"
failed_names=
while IFS='|' read -r name font args limits; do
  name=$(echo "$name" | tr -d ' ')
  case "$name" in ''|'#'*) continue ;; esac
  font=$(echo "$font" | tr -d ' ')
  if [ ! -f "$font" ]; then
    echo "render: skip $name: $font not found (../shared absent?)"
    skip=$((skip + 1))
    continue
  fi
  # shellcheck disable=SC2086
  if ! "$B/tests/ctgrid" "$font" "$dir/out/$name.png" $args; then
    echo "render: FAIL $name: ctgrid failed"
    fail=$((fail + 1)); failed_names="$failed_names $name"
    continue
  fi
  # shellcheck disable=SC2086
  if res=$("$B/tests/imgcmp" "$dir/out/$name.png" "$dir/ref/$name.chromium.png" $limits --diff "$dir/diff/$name.png"); then
    echo "render: ok   $name ($res)"
    pass=$((pass + 1))
  else
    echo "render: FAIL $name ($res; limits $limits)"
    fail=$((fail + 1)); failed_names="$failed_names $name"
  fi
done < "$dir/cases.txt"
if [ "$fail" -gt 0 ]; then
  { echo "<html><body><h1>render failures</h1><table><tr><th>case</th><th>ours</th><th>Chromium</th><th>diff</th></tr>"
    for n in $failed_names; do
      echo "<tr><td>$n</td><td><img src=out/$n.png></td><td><img src=ref/$n.chromium.png></td><td><img src=diff/$n.png></td></tr>"
    done
    echo "</table></body></html>"; } > "$dir/index.html"
  echo "render: see $dir/index.html"
else
  rm -rf "$dir/out" "$dir/diff"
fi
echo "render: $pass passed, $fail failed, $skip skipped"
