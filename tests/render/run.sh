#!/bin/sh
# Golden render tests: every case of cases.txt is drawn with build/tests/ctgrid from the
# layout of its reference (ref/NAME.chromium.json or .firefox.json, read by args.py) and
# compared with the reference PNG by build/tests/imgcmp.  Failures leave out/, diff/ and
# index.html in tests/render/.  Fonts under ../shared are skipped, with a note, where absent.
B=${CT_BUILD:-build}
dir=tests/render
pass=0 fail=0 skip=0
rm -rf "$dir/out" "$dir/diff" "$dir/index.html"
mkdir -p "$dir/out" "$dir/diff"
failed_names=
while IFS='|' read -r name extra limits against; do
  name=$(echo "$name" | tr -d ' ')
  against=$(echo "$against" | tr -d ' ')
  case "$name" in ''|'#'*) continue ;; esac
  ref=
  for b in chromium firefox; do
    [ -f "$dir/ref/$name.$b.json" ] && { ref="$dir/ref/$name.$b"; break; }
  done
  if [ -z "$ref" ]; then
    echo "render: FAIL $name: no reference in $dir/ref"
    fail=$((fail + 1)); continue
  fi
  args=$(/usr/bin/python3 "$dir/args.py" "$ref.json") || { echo "render: FAIL $name: bad layout"; fail=$((fail + 1)); continue; }
  font=$(eval "set -- $args; echo \"\$1\"")
  case "$extra" in *--font*) font=$(echo "$extra" | sed 's/.*--font *\([^ ]*\).*/\1/') ;; esac
  if [ ! -f "$font" ]; then
    echo "render: skip $name: $font not found (../shared absent?)"
    skip=$((skip + 1))
    continue
  fi
  if ! eval "\"$B/tests/ctgrid\" $args $extra -o \"$dir/out/$name.png\"" 2> "$dir/out/$name.log"; then
    echo "render: FAIL $name: ctgrid failed: $(head -2 "$dir/out/$name.log")"
    fail=$((fail + 1)); failed_names="$failed_names $name"
    continue
  fi
  target="$ref.png"
  label=$name
  case "$extra" in *--font*) label="$name drawn with $(basename "$font")" ;; esac
  if [ -n "$against" ]; then
    target=$(ls "$dir/ref/$against".*.png 2>/dev/null | head -1)
    label="$name against $against"
    [ -n "$target" ] || { echo "render: FAIL $label: no reference $against"; fail=$((fail + 1)); continue; }
  fi
  # shellcheck disable=SC2086
  if res=$("$B/tests/imgcmp" "$dir/out/$name.png" "$target" $limits --diff "$dir/diff/$name.png"); then
    echo "render: ok   $label ($(echo "$res" | tail -1))"
    pass=$((pass + 1))
  else
    echo "render: FAIL $label ($(echo "$res" | tr '\n' ' '); limits $limits)"
    fail=$((fail + 1)); failed_names="$failed_names $name"
  fi
done < "$dir/cases.txt"
if [ "$fail" -gt 0 ]; then
  { echo "<html><body><h1>render failures</h1><table><tr><th>case</th><th>ours</th><th>reference</th><th>diff</th></tr>"
    for n in $failed_names; do
      r=$(ls "$dir/ref/$n".*.png 2>/dev/null | head -1)
      echo "<tr><td>$n</td><td><img src=out/$n.png></td><td><img src=${r#$dir/}></td><td><img src=diff/$n.png></td></tr>"
    done
    echo "</table></body></html>"; } > "$dir/index.html"
  echo "render: see $dir/index.html"
else
  rm -rf "$dir/out" "$dir/diff"
fi
echo "render: $pass passed, $fail failed, $skip skipped"
