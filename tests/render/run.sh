#!/bin/sh
# Golden render tests: every case of cases.txt is drawn with build/tests/ctgrid from the
# layout of its reference (ref/NAME.chromium.json or .firefox.json, read by args.py) and
# compared with the reference PNG by build/tests/imgcmp.  Failures leave out/, diff/ and
# index.html in tests/render/.  Fonts under ../shared are skipped, with a note, where absent.
# An argument names another directory with the same layout (cases.txt, ref/), such as
# tests/realfonts; its lines and summary are labelled with the directory's name.
B=${CT_BUILD:-build}
dir=${1:-tests/render}
label=$(basename "$dir")
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
    echo "$label: FAIL $name: no reference in $dir/ref"
    fail=$((fail + 1)); continue
  fi
  args=$(/usr/bin/python3 "$(dirname "$0")/args.py" "$ref.json") || { echo "$label: FAIL $name: bad layout"; fail=$((fail + 1)); continue; }
  font=$(eval "set -- $args; echo \"\$1\"")
  case "$extra" in *--font*) font=$(echo "$extra" | sed 's/.*--font *\([^ ]*\).*/\1/') ;; esac
  if [ ! -f "$font" ]; then
    echo "$label: skip $name: $font not found (../shared absent?)"
    skip=$((skip + 1))
    continue
  fi
  if ! eval "\"$B/tests/ctgrid\" $args $extra -o \"$dir/out/$name.png\"" 2> "$dir/out/$name.log"; then
    echo "$label: FAIL $name: ctgrid failed: $(head -2 "$dir/out/$name.log")"
    fail=$((fail + 1)); failed_names="$failed_names $name"
    continue
  fi
  target="$ref.png"
  name_label=$name
  case "$extra" in *--font*) name_label="$name drawn with $(basename "$font")" ;; esac
  if [ -n "$against" ]; then
    target=$(ls "$dir/ref/$against".*.png 2>/dev/null | head -1)
    name_label="$name against $against"
    [ -n "$target" ] || { echo "$label: FAIL $name_label: no reference $against"; fail=$((fail + 1)); continue; }
  fi
  # shellcheck disable=SC2086
  if res=$("$B/tests/imgcmp" "$dir/out/$name.png" "$target" $limits --diff "$dir/diff/$name.png"); then
    echo "$label: ok   $name_label ($(echo "$res" | tail -1))"
    pass=$((pass + 1))
  else
    echo "$label: FAIL $name_label ($(echo "$res" | tr '\n' ' '); limits $limits)"
    fail=$((fail + 1)); failed_names="$failed_names $name"
  fi
done < "$dir/cases.txt"
if [ "$fail" -gt 0 ]; then
  { echo "<html><body><h1>$label failures</h1><table><tr><th>case</th><th>ours</th><th>reference</th><th>diff</th></tr>"
    for n in $failed_names; do
      r=$(ls "$dir/ref/$n".*.png 2>/dev/null | head -1)
      echo "<tr><td>$n</td><td><img src=out/$n.png></td><td><img src=${r#$dir/}></td><td><img src=diff/$n.png></td></tr>"
    done
    echo "</table></body></html>"; } > "$dir/index.html"
  echo "$label: see $dir/index.html"
elif [ -z "${CT_RENDER_KEEP:-}" ]; then   # CT_RENDER_KEEP=1: out/ kept (tools/same-output.sh)
  rm -rf "$dir/out" "$dir/diff"
fi
echo "$label: $pass passed, $fail failed, $skip skipped"
