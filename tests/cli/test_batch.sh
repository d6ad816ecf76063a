#!/bin/sh
# chromatype batch: 1,000 records in parallel workers, bad records that fail alone (named by
# number and data line) while the rest are written, --resume, plain progress lines when
# standard error is no terminal, usage errors, the temporary files of a killed run that
# --resume removes, and the same batch split into shards by GNU parallel giving
# byte-identical files (tests/slurm/run.sh does it with a real Slurm).
B=${CT_BUILD:-build}
CT="$(cd "$(dirname "$B/chromatype")" && pwd)/chromatype"
FONT="$(pwd)/tests/fonts/ct-wdth.ttf"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
SUITE=batch
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1

cat > t.xml <<EOF2
<document size="40mm x 12mm" margin="1mm" title="{name}">
<style name="default" font="$FONT" size="10pt" color="{color}"/>
<page><frame><p>{greeting} {name}</p></frame></page></document>
EOF2
# 1,000 records; 17 and 500 have a bad color, 1,001 is a short row
{
  echo "id,name,greeting,color"
  i=1
  while [ $i -le 1000 ]; do
    c="#1d3557"; [ $i -eq 17 ] || [ $i -eq 500 ] && c=notacolor
    echo "$i,Name $i,hello,$c"
    i=$((i + 1))
  done
  echo "1001,short"
} > r.csv

expect 3 "batch: 998 done, 3 failed, 0 skipped of 1001" "$CT" batch t.xml --data r.csv -o 'out/{id}.pdf' --jobs 2
n=$(ls out | wc -l)
[ "$n" -eq 998 ] && ok || bad "998 files expected, got $n"
[ -e out/17.pdf ] || [ -e out/500.pdf ] && bad "a failed record left a file" || ok
ls out | grep -q tmp && bad "temporary files left in out/" || ok
out=$("$CT" batch t.xml --data r.csv -o 'out/{id}.pdf' --jobs 2 --resume 2>&1)
printf '%s' "$out" | grep -q "record 17 (r.csv:18): t.xml:2: <style>: color: bad color 'notacolor'" && ok || bad "record 17 not named: $out"
printf '%s' "$out" | grep -q "record 1001: r.csv:1002: 2 fields, the header has 4" && ok || bad "the short row: $out"
printf '%s' "$out" | grep -q "0 done, 3 failed, 998 skipped of 1001" && ok || bad "--resume did not skip: $out"
# what a killed run leaves beside a record's output (its temporary files) goes with --resume;
# a file of the same form that no record of this run owns stays
grep -v -e notacolor -e '^1001,' r.csv > s2.csv
rm -f out/2.pdf
: > out/2.pdf.tmp-Kil1ed; : > out/2.pdf.tmp-pass-Kil1ed; : > out/2000.pdf.tmp-Ot4er1
out=$("$CT" batch t.xml --data s2.csv -o 'out/{id}.pdf' --jobs 2 --resume -q 2>&1) && ok || bad "--resume after a kill: $out"
printf '%s' "$out" | grep -q "batch: removed 2 temporary files that a killed run left" && ok || bad "no word of the removed files: $out"
printf '%s' "$out" | grep -q "batch: 1 done, 0 failed, 997 skipped of 998" && ok || bad "--resume after a kill: $out"
[ -e out/2.pdf.tmp-Kil1ed ] || [ -e out/2.pdf.tmp-pass-Kil1ed ] && bad "--resume left a killed run's temporary files" || ok
[ -e out/2000.pdf.tmp-Ot4er1 ] && ok || bad "--resume removed a file no record owns"
rm -f out/2000.pdf.tmp-Ot4er1
# not a terminal: plain lines, no carriage returns
printf '%s' "$out" | grep -q "$(printf '\r')" && bad "carriage returns on a pipe" || ok
"$CT" batch t.xml --data r.csv -o 'png/{id}.png' --jobs 3 --dpi 36 2>progress.txt
grep -q "^batch: [0-9]*/1001 ([0-9]*%), [0-9.]* records/s$" progress.txt && ok || bad "no progress lines: $(head -3 progress.txt)"
[ "$(ls png | wc -l)" -eq 998 ] && ok || bad "PNG batch: $(ls png | wc -l) files"
# a Lua template gets `record` and writes `output`
cat > t.lua <<EOF2
local ct = require "chromatype"
local c = ct.canvas { width = 60, height = 20 }
c:text { record.name, font = ct.open_font("$FONT"), size = 10, x = 2, y = 14 }
assert(c:write(output))
EOF2
printf '{"id": "a", "name": "Ann"}\n{"id": "b", "name": "Bob"}\nnot json\n' > r.jsonl
expect 3 "record 3: r.jsonl:3: unexpected" "$CT" batch t.lua --data r.jsonl -o 'lua/{id}.png' -q
[ -s lua/a.png ] && [ -s lua/b.png ] && ok || bad "the Lua template wrote nothing"

# spot inks of XML templates: --ink, --inks-only, --overprint reach every record's PDF
printf 'id,name,greeting,color\n1,Ann,hi,#1d3557\n2,Bob,hi,#1d3557\n' > ink.csv
expect 0 "2 done, 0 failed" "$CT" batch t.xml --data ink.csv -o 'ink/{id}.pdf' --ink 'Navy=#1d3557,overprint' --inks-only --overprint -q
[ -s ink/1.pdf ] && [ -s ink/2.pdf ] && ok || bad "the ink batch wrote nothing"
expect 3 "record 1 (ink.csv:2): ink2/1.pdf: 1 color no ink prints, left in process: #1d3557 (--inks-only)" "$CT" batch t.xml --data ink.csv -o 'ink2/{id}.pdf' --ink=Teal=#008080 --inks-only -q
expect 2 "chromatype: --ink: ink 'Black'" "$CT" batch t.xml --data ink.csv -o 'ink3/{id}.pdf' --ink Black=#000000
expect 2 "batch: --ink needs a value" "$CT" batch t.xml --data ink.csv -o 'ink3/{id}.pdf' --ink
[ -e ink2 ] && [ "$(ls ink2)" != "" ] && bad "failed ink records left files" || ok

# usage and fatal errors
expect 2 "batch: --data RECORDS is needed" "$CT" batch t.xml -o 'x/{id}.pdf'
expect 2 "names no field" "$CT" batch t.xml --data r.csv -o x.pdf
expect 2 "batch: --shard: K must be from 1 to N" "$CT" batch t.xml --data r.csv -o 'x/{id}.pdf' --shard 4/3
expect 2 "bad value '0' for --jobs" "$CT" batch t.xml --data r.csv -o 'x/{id}.pdf' --jobs 0
expect 1 "nope.csv: cannot open" "$CT" batch t.xml --data nope.csv -o 'x/{id}.pdf'
printf 'a,a\n1,2\n' > dup.csv
expect 1 "dup.csv:1: column 'a' appears twice" "$CT" batch t.xml --data dup.csv -o 'x/{a}.pdf'
printf 'id\n1\n1\n' > same.csv
expect 3 "output x/1.pdf is also record 1's" "$CT" batch t.xml --data same.csv -o 'x/{id}.pdf'
expect 0 "usage: chromatype batch" "$CT" batch --help

# shards with GNU parallel: the same files, byte for byte, as one run
if command -v parallel >/dev/null 2>&1; then
  head -301 r.csv | grep -v notacolor > s.csv
  "$CT" batch t.xml --data s.csv -o 'one/{id}.pdf' -q --jobs 1 2>/dev/null
  parallel --will-cite -j 3 "$CT" batch t.xml --data s.csv -o "'par/{id}.pdf'" -q --jobs 1 --shard {}/3 ::: 1 2 3 2>/dev/null
  a=$(ls one | wc -l); b=$(ls par | wc -l)
  [ "$a" -gt 250 ] && [ "$a" -eq "$b" ] && ok || bad "shards: $a files in one run, $b in three shards"
  same=1
  for f in one/*.pdf; do cmp -s "$f" "par/${f#one/}" || { same=0; bad "shards: $f differs"; break; }; done
  [ $same -eq 1 ] && ok
else
  echo "batch: GNU parallel not installed (scripts/install-deps.sh test): shard test skipped"
fi

finish
