#!/bin/sh
# --sandbox and the Lua limits: untrusted scripts and filters get pure Lua and the chromatype
# API, files only below the working directory (or the script's own), and limits on Lua
# memory, instructions and time, each reported in one line naming the limit.
B=${CT_BUILD:-build}
CT="$(cd "$(dirname "$B/chromatype")" && pwd)/chromatype"
ROOT=$(pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
SUITE=sandbox
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/work/sub"
cp "$ROOT/tests/fonts/ct-colr0.ttf" "$T/work/sub/"
cd "$T/work" || exit 1
cat > good.lua <<'LUA'
local ct = require "chromatype"
local f = ct.open_font("sub/ct-colr0.ttf")
local c = ct.canvas { width = 60, height = 40 }
c:text { "AB", font = f, size = 20, x = 5, y = 30 }
assert(c:write("sub/out.png"))
assert(type(io) == "nil" and type(debug) == "nil" and type(package) == "nil" and type(loadfile) == "nil")
assert(type(os.clock) == "function" and os.execute == nil and string.dump == nil)
LUA
expect 0 "" "$CT" --sandbox good.lua
[ -s sub/out.png ] && ok || bad "the sandboxed script wrote nothing"
# the same script outside the sandbox has io
printf 'assert(io and os.execute)\n' > free.lua
expect 0 "" "$CT" free.lua

# refused: the standard libraries that reach the system, files elsewhere, C modules, bytecode
printf 'io.open("x")\n' > io.lua
expect 1 "attempt to index a nil value (global 'io')" "$CT" --sandbox io.lua
printf 'os.execute("true")\n' > os.lua
expect 1 "attempt to call a nil value (field 'execute')" "$CT" --sandbox os.lua
printf 'local ct = require "chromatype"\nct.canvas{width=5,height=5}:write("%s/escaped.png")\n' "$T" > wr.lua
expect 1 "sandbox: writing '$T/escaped.png' refused" "$CT" --sandbox wr.lua
[ -e "$T/escaped.png" ] && bad "a sandboxed script wrote outside" || ok
printf 'local ct = require "chromatype"\nct.canvas{width=5,height=5}:write("../up.png")\n' > up.lua
expect 1 "sandbox: writing '../up.png' refused" "$CT" --sandbox up.lua
printf 'require("chromatype").open_font("/etc/passwd")\n' > rd.lua
expect 1 "sandbox: reading '/etc/passwd' refused" "$CT" --sandbox rd.lua
printf 'require("chromatype").read_png_pixel("/etc/hostname", 0, 0)\n' > rd2.lua
expect 1 "sandbox: reading '/etc/hostname' refused" "$CT" --sandbox rd2.lua
printf 'local c = require("chromatype").canvas{width=5,height=5}\nc:image{"/etc/hostname"}\n' > img.lua
expect 1 "sandbox: reading '/etc/hostname' refused" "$CT" --sandbox img.lua
printf 'require "debug"\n' > req.lua
expect 1 "module 'debug' not found" "$CT" --sandbox req.lua
printf 'assert(load(string.char(27) .. "Lua"))\n' > bin.lua
expect 1 "attempt to load a binary chunk" "$CT" --sandbox bin.lua

# filters: run in the sandbox; a filter file outside is refused; ready filters by name work
cat > doc.xml <<EOF2
<document size="60mm x 20mm" margin="2mm"><style name="default" font="sub/ct-colr0.ttf" size="20pt"/>
<page><frame><p>ABAB</p></frame></page></document>
EOF2
printf 'return { Glyph = function(g) io.write("x") end }\n' > evil.lua
expect 1 "filter evil: Glyph: evil.lua:1: attempt to index a nil value (global 'io')" \
  "$CT" --sandbox doc.xml -o out.pdf -f evil.lua
cp evil.lua "$T/evil-outside.lua"
expect 1 "sandbox: reading '$T/evil-outside.lua' refused" "$CT" --sandbox doc.xml -o out.pdf -f "$T/evil-outside.lua"
expect 0 "" "$CT" --sandbox doc.xml -o "$T/doc-out.pdf" -f shadow:offset=1pt
[ -s "$T/doc-out.pdf" ] && ok || bad "the document's own -o was not written"

# plates are drawn by Ghostscript, which a sandboxed run does not start: refused, nothing written
expect 1 "sandbox: --plates: plates are drawn by Ghostscript" "$CT" --sandbox doc.xml -o "$T/doc-ink.pdf" --ink Teal=#008080 --plates "$T/plates"
[ -e "$T/plates" ] || [ -e "$T/doc-ink.pdf" ] && bad "a refused --plates wrote something" || ok
printf 'local c = require("chromatype").canvas{width=5,height=5}:ink("Teal=#008080")\nassert(c:write("p.pdf", { plates = "sub/plates" }))\n' > plates-in.lua
expect 1 "sandbox: sub/plates: plates are drawn by Ghostscript" "$CT" --sandbox plates-in.lua
[ -e sub/plates ] || [ -e p.pdf ] && bad "a refused plates directory was made" || ok

# a batch's Lua template runs in the sandbox too
printf 'local h = io.open("/etc/hostname")\n' > tmpl.lua
printf 'id\n1\n' > one.csv
expect 3 "record 1 (one.csv:2): tmpl.lua:1: attempt to index a nil value (global 'io')" \
  "$CT" batch tmpl.lua --data one.csv -o 'b/{id}.png' --sandbox -q

# limits: each named in one line; no output left behind
printf 'local t = {}\nfor i = 1, 1e9 do t[i] = ("x"):rep(64) .. i end\n' > mem.lua
expect 1 "mem.lua: memory limit of 16 MiB reached (--max-memory)" "$CT" --max-memory 16M mem.lua
printf 'while true do end\n' > loop.lua
expect 1 "loop.lua: instruction limit of 1000000 reached (--max-instructions)" "$CT" --max-instructions 1000000 loop.lua
expect 1 "loop.lua: time limit of 0.5 s reached (--timeout)" "$CT" --timeout 0.5 loop.lua
out=$("$CT" --sandbox --max-memory=64M mem.lua 2>&1)
printf '%s' "$out" | grep -q "memory limit of 64 MiB reached" && ok || bad "--sandbox with --max-memory: $out"
expect 2 "--max-memory: expected a size such as 512M" "$CT" --max-memory 5 loop.lua
expect 2 "--max-instructions: expected a whole number" "$CT" --max-instructions lots loop.lua
expect 2 "--timeout: expected seconds" "$CT" --timeout -1 loop.lua

finish
