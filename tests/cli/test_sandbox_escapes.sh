#!/bin/sh
# Escapes from --sandbox, tried as an attacker would (the hostile inputs of the command
# line, beside tests/c/glyph/test_hostile.c and tests/c/base/test_fs.c): library modules and
# metatables changed for the host, package and debug, filters that load filters, bytecode,
# coroutines and error handlers that would dodge the limits, symbolic links to files and
# folders, '..', absolute paths, NUL bytes, hard links, fontconfig names that lead out,
# ffmpeg and Ghostscript, and the kernel's own layers.  Each must fail with a clear message
# and leave nothing outside the working directory ($T/outside is compared before and after).
B=${CT_BUILD:-build}
CT="$(cd "$(dirname "$B/chromatype")" && pwd)/chromatype"
ROOT=$(pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
SUITE=sandbox_escapes
. "$(dirname "$0")/lib.sh"

W=$T/work
O=$T/outside
mkdir -p "$W/sub" "$W/fonts" "$O/dir"
cp "$ROOT/tests/fonts/ct-colr0.ttf" "$W/sub/"
cp "$ROOT/tests/fonts/ct-colr0.ttf" "$O/font.ttf"
printf 'secret\n' > "$O/secret.txt"
printf 'victim\n' > "$O/victim.png"
cd "$W" || exit 1

snapshot() { (cd "$O" && find . -print | sort && find . -type f -exec md5sum {} + | sort) 2>/dev/null; }
BEFORE=$(snapshot)
untouched() {   # untouched WHAT: nothing outside changed
  now=$(snapshot)
  if [ "$now" = "$BEFORE" ]; then ok; else bad "$1 changed what is outside: $(printf '%s\n' "$now" | diff - /dev/stdin <<EOF
$BEFORE
EOF
)"; fi
}
DOC='<document size="40mm x 20mm" margin="2mm"><style name="default" font="sub/ct-colr0.ttf" size="20pt"/><page><frame><p>AB</p></frame></page></document>'
printf '%s\n' "$DOC" > doc.xml

# ---- the two escapes of the issue ---------------------------------------------------------
cat > evil.lua <<EOF
if os.execute then os.execute("id > $O/pwned.txt") return {} end
local F = require "chromatype.filter"; F.env = nil; F.load("evil.lua")
EOF
"$CT" --sandbox evil.lua >/dev/null 2>&1
[ -e "$O/pwned.txt" ] && bad "F.env = nil; F.load ran a command" || ok
ln -s "$O/dir" out
printf 'local ct = require "chromatype"\nassert(ct.canvas{width=5,height=5}:write("out/x.png"))\n' > link.lua
expect 1 "sandbox: writing 'out/x.png' refused (it leads outside the working directory" "$CT" --sandbox link.lua
expect 1 "sandbox: writing 'out/doc.pdf' refused" "$CT" --sandbox doc.xml -o out/doc.pdf
untouched "a link to a folder outside"

# ---- nothing of the host is reachable -----------------------------------------------------
# every table, metatable and module a script can reach, walked: no function of io, os
# (but the clock), debug or package, no loader, no file guard to replace
cat > reach.lua <<'EOF'
local ct = require "chromatype"
local bad = { execute = 1, popen = 1, getenv = 1, exit = 1, tmpname = 1, tmpfile = 1, setlocale = 1,
  dofile = 1, loadfile = 1, loadlib = 1,
  searchpath = 1, dump = 1, sethook = 1, gethook = 1, getupvalue = 1, setupvalue = 1, upvaluejoin = 1,
  getregistry = 1, getlocal = 1, setlocal = 1, getinfo = 1, set_file_guard = 1, setcstacklimit = 1 }
local roots = { _G, getmetatable(""), ct.canvas { width = 4, height = 4 }, ct.open_font("sub/ct-colr0.ttf") }
for _, m in ipairs { "chromatype", "chromatype.core", "chromatype.document", "chromatype.layout",
  "chromatype.filter", "chromatype.batch", "chromatype.fontmake", "chromatype.animate", "chromatype.motion",
  "chromatype.frames", "chromatype.palette", "chromatype.paper", "chromatype.random", "chromatype.stack",
  "chromatype.variable", "chromatype.viewanim", "chromatype.linebreak" } do
  roots[#roots + 1] = require(m)
end
local seen, found, queue = {}, {}, {}
for _, r in ipairs(roots) do queue[#queue + 1] = { r, "root" } end
while #queue > 0 do
  local v, where = table.unpack(table.remove(queue))
  if (type(v) == "table" or type(v) == "userdata") and not seen[v] then
    seen[v] = true
    local mt = getmetatable(v)
    if mt ~= nil then queue[#queue + 1] = { mt, where .. ".<mt>" } end
    if type(v) == "table" then
      for k, x in next, v do
        if type(k) == "string" and type(x) == "function" and bad[k] then found[#found + 1] = where .. "." .. k end
        queue[#queue + 1] = { x, where .. "." .. tostring(k) }
        queue[#queue + 1] = { k, where .. ".<key>" }
      end
    end
  end
end
assert(io == nil and debug == nil and package == nil and loadfile == nil and dofile == nil)
for k in pairs(os) do assert(({ clock = 1, time = 1, date = 1, difftime = 1 })[k], "os." .. k) end
assert(not pcall(require, "io") and not pcall(require, "os.execute") and not pcall(require, "package"))
if #found > 0 then error("reachable: " .. table.concat(found, ", "), 0) end
print("clean", #roots)
EOF
expect 0 "clean" "$CT" --sandbox reach.lua

# ---- monkeypatching the library, the string metatable, the canvas and font types ----------
# the same world: what a script changes, it changes for itself alone, and it stays confined
cat > patch.lua <<EOF
local ct = require "chromatype"
local function patch(obj, name, f)
  local mt = getmetatable(obj)
  local idx = mt.__index
  local old = type(idx) == "function" and idx(obj, name) or idx[name]
  mt.__index = function(self, k)
    if k == name then return function(s, ...) return f(old, s, ...) end end
    if type(idx) == "function" then return idx(self, k) end
    return idx[k]
  end
end
patch(ct.canvas { width = 1, height = 1 }, "write", function(old, self, path, ...) return old(self, "$O/patched.png", ...) end)
local F = require "chromatype.filter"
F.env = nil; F.path = "$O"
local okf, e = pcall(F.load, "shadow")   -- the ready filters' folder moved outside: refused
assert(not okf and e:find("sandbox: reading '$O/shadow' refused", 1, true), e)
local doc = require("chromatype.document").from_xml([[$DOC]], "doc.xml")
assert(doc:write("mine.png"))
EOF
expect 1 "sandbox: writing '$O/patched.png' refused" "$CT" --sandbox patch.lua
cat > patch2.lua <<EOF
getmetatable("").__index = setmetatable({ format = function() return "$O/s.png" end }, { __index = string })
string.rep = nil; table.concat = nil; _G.require = function() return {} end
local fmt = getmetatable(require("chromatype").open_font("sub/ct-colr0.ttf"))
fmt.__index = function() return function() return { path = "$O/secret.txt" } end end
require("chromatype").canvas{width=4,height=4}:write(("%s"):format("x.png"))
EOF
"$CT" --sandbox patch2.lua >/dev/null 2>&1
[ -e "$O/s.png" ] && bad "a patched string library wrote outside" || ok
untouched "monkeypatched modules and metatables"
printf 'package.loaded["chromatype.filter"] = {}\n' > pkg.lua
expect 1 "attempt to index a nil value (global 'package')" "$CT" --sandbox pkg.lua
printf 'table.insert(package.searchers, function() end)\n' > pkg2.lua
expect 1 "global 'package'" "$CT" --sandbox pkg2.lua
printf 'debug.sethook()\n' > dbg.lua
expect 1 "attempt to index a nil value (global 'debug')" "$CT" --sandbox dbg.lua
printf 'require "debug"\n' > dbg2.lua
expect 1 "module 'debug' not found" "$CT" --sandbox dbg2.lua
printf 'require "../outside/x"\n' > req.lua
expect 1 "a module is named NAME or NAME.PART" "$CT" --sandbox req.lua
printf 'return { ok = true }\n' > mymod.lua
printf 'assert(require("mymod").ok)\nprint("local module")\n' > req2.lua
expect 0 "local module" "$CT" --sandbox req2.lua

# ---- filters that load filters ----------------------------------------------------------
printf 'if os.execute then os.execute("touch %s/filter-ran") end\nreturn {}\n' "$O" > "$O/evil-filter.lua"
BEFORE=$(snapshot)
printf 'local F = require "chromatype.filter"\nassert(F.load("%s/evil-filter.lua"))\nreturn {}\n' "$O" > loader.lua
expect 1 "sandbox: reading '$O/evil-filter.lua' refused" "$CT" --sandbox doc.xml -o a.pdf -f loader.lua
printf 'return { Glyph = function(g) g.offset = 1 end }\n' > inner.lua
printf 'local F = require "chromatype.filter"\nlocal f = assert(F.load("inner.lua"))\nreturn { Glyph = f.funcs.Glyph }\n' > outer.lua
expect 0 "" "$CT" --sandbox doc.xml -o b.pdf -f outer.lua
[ -s b.pdf ] && ok || bad "a filter loading a local filter wrote nothing"
printf 'return { Glyph = function(g) if os.execute then os.execute("touch %s/g") end end }\n' "$O" > glyph.lua
expect 0 "" "$CT" --sandbox doc.xml -o c.pdf -f glyph.lua
untouched "filters that load filters"
# the font command's stack script, once run outside the sandbox
printf 'os.execute("touch %s/font-ran")\n' "$O" > stack.lua
expect 1 "attempt to call a nil value (field 'execute')" "$CT" font stack.lua --sandbox -o f.ttf
untouched "chromatype font with a stack script"

# ---- bytecode ---------------------------------------------------------------------------
printf 'os.execute("touch %s/bytecode")\n' "$O" > bc-src.lua
luac5.4 -o bc.lua bc-src.lua
expect 1 "attempt to load a binary chunk" "$CT" --sandbox bc.lua
cp bc.lua bcmod.lua
printf 'require "bcmod"\n' > bcreq.lua
expect 1 "attempt to load a binary chunk" "$CT" --sandbox bcreq.lua
expect 1 "attempt to load a binary chunk" "$CT" --sandbox doc.xml -o d.pdf -f bc.lua
printf 'local f = io and io.open("bc.lua") \nassert(load(string.char(27) .. "Lua", "x", "b"))\n' > bcload.lua
expect 1 "attempt to load a binary chunk" "$CT" --sandbox bcload.lua
untouched "bytecode"

# ---- limits that a script would dodge with pcall, coroutines, handlers, finalizers ---------
L="--max-instructions 2000000"
printf 'while true do pcall(function() while true do end end) end\n' > d1.lua
expect 1 "instruction limit of 2000000 reached" timeout 30 "$CT" --sandbox $L d1.lua
printf 'while true do coroutine.resume(coroutine.create(function() while true do end end)) end\n' > d2.lua
expect 1 "instruction limit of 2000000 reached" timeout 30 "$CT" --sandbox $L d2.lua
printf 'local co = coroutine.create(function() while true do pcall(function() while true do end end) end end)\nwhile true do coroutine.resume(co) end\n' > d3.lua
expect 1 "instruction limit" timeout 30 "$CT" --sandbox $L d3.lua
printf 'while true do xpcall(function() error("x") end, function() while true do end end) end\n' > d4.lua
expect 1 "instruction limit" timeout 30 "$CT" --sandbox $L d4.lua
# Lua runs no hook in __gc: the time limit's watchdog ends it
printf 'setmetatable({}, { __gc = function() while true do end end })\nwhile true do pcall(collectgarbage) end\n' > d5.lua
expect 124 "time limit of 2 s reached (--timeout); stopped" timeout 30 "$CT" --sandbox $L --timeout 2 d5.lua
printf 'error(setmetatable({}, { __tostring = function() while true do end end }))\n' > d6.lua
expect 1 "" timeout 30 "$CT" --sandbox $L d6.lua
printf 'while true do pcall(function() local t = {} for i = 1, 1e9 do t[i] = ("x"):rep(100) .. i end end) end\n' > d7.lua
expect 1 "memory limit of 32 MiB reached" timeout 60 "$CT" --sandbox --max-memory 32M d7.lua
printf 'while true do pcall(function() while true do end end) end\n' > d8.lua
expect 1 "time limit of 1 s reached (--timeout)" timeout 30 "$CT" --sandbox --timeout 1 --max-instructions 1e15 d8.lua

# ---- issue 33, items 1-5 and 7: each case exactly as the issue tries it ---------------------
# (these held on the main of the issue's day already; kept so that they stay refused)
printf '<document/>\n' > "$O/secret.xml"
BEFORE=$(snapshot)
# issue 33, item 1: the XML reader and render_file with absolute paths outside
printf 'print(require("chromatype").xml_file_reader("/etc/shadow"))\n' > i1a.lua
expect 1 "sandbox: reading '/etc/shadow' refused (outside the working directory" "$CT" --sandbox i1a.lua
printf 'print(require("chromatype.document").render_file("%s/secret.xml", "r1.png"))\n' "$O" > i1b.lua
expect 1 "sandbox: reading '$O/secret.xml' refused (outside the working directory" "$CT" --sandbox i1b.lua
# issue 33, item 2: the font command's stack script has no os.execute (also above)
printf 'os.execute("touch %s/stack-ran")\n' "$O" > i2.lua
expect 1 "attempt to call a nil value (field 'execute')" "$CT" font --sandbox i2.lua -o i2.ttf
# issue 33, item 3: F.path, a field the script writes, is no pass
printf 'F = require "chromatype.filter"; F.path = "%s"; assert(F.load("%s/evil-filter.lua"))\n' "$O" "$O" > i3.lua
expect 1 "sandbox: reading '$O/evil-filter.lua' refused" "$CT" --sandbox i3.lua
# issue 33, item 4: links inside the working directory that lead out, for reads and writes
ln -s /etc lnk
ln -s "$O/dir" odir
printf 'assert(require("chromatype").canvas{width=4,height=4}:write("%s/dir/real.png"))\n' "$O" > mkreal.lua
"$CT" mkreal.lua && ok || bad "could not write $O/dir/real.png outside the sandbox"
ln -s "$O/dir/real.png" rlink.png
ln -s "$O/victim.png" vlink.png
BEFORE=$(snapshot)
LEAD="refused (it leads outside the working directory through '..' or a symbolic link)"
for c in 'open_font("lnk/passwd")|reading '\''lnk/passwd'\''' \
         'read_file("lnk/shadow")|reading '\''lnk/shadow'\''' \
         'read_png("lnk/passwd")|reading '\''lnk/passwd'\''' \
         'read_png("rlink.png")|reading '\''rlink.png'\''' \
         'read_png("odir/real.png")|reading '\''odir/real.png'\''' \
         'read_png_pixel("rlink.png", 0, 0)|reading '\''rlink.png'\''' \
         'canvas{width=4,height=4}:image{"rlink.png"}|reading '\''rlink.png'\''' \
         'canvas{width=4,height=4}:image{"odir/real.png"}|reading '\''odir/real.png'\''' \
         'canvas{width=4,height=4}:write("odir/w.png")|writing '\''odir/w.png'\''' \
         'canvas{width=4,height=4}:write("lnk/w.png")|writing '\''lnk/w.png'\'''; do
  printf 'assert(require("chromatype").%s)\n' "${c%%|*}" > i4.lua
  expect 1 "sandbox: ${c#*|} $LEAD" "$CT" --sandbox i4.lua
done
# a link at an output's own name is replaced, never written through
printf 'assert(require("chromatype").canvas{width=4,height=4}:write("vlink.png"))\n' > i4w.lua
expect 0 "" "$CT" --sandbox i4w.lua
[ "$(cat "$O/victim.png")" = victim ] && [ ! -L vlink.png ] && ok || bad "a write to vlink.png went through the link"
untouched "issue 33, items 1-4"
# issue 33, item 5: the script's own loop in pcall: the limit ends the run, said as it is
printf 'pcall(function() while true do end end)\nprint("carried on")\n' > i5.lua
for lim in "--max-instructions 1000000|instruction limit of 1000000 reached (--max-instructions)" \
           "--timeout 2 --max-instructions 1e15|time limit of 2 s reached (--timeout)"; do
  for sb in --sandbox ""; do
    out=$(timeout 60 "$CT" $sb ${lim%%|*} i5.lua 2>&1); st=$?
    case "$st:$out" in   # (a sanitizer build may add its report after the line)
      *"carried on"* | *"during rendering"*) bad "pcall(loop) $sb ${lim%%|*}: $out" ;;
      "1:chromatype: i5.lua: ${lim#*|}"*) ok ;;
      *) bad "pcall(loop) $sb ${lim%%|*}: status $st, said: $out" ;;
    esac
  done
done
# issue 33, item 7: no string.dump by the string metatable; temp_files lists no folder outside
printf 'assert(("").dump == nil and string.dump == nil and getmetatable("").__index.dump == nil)\nprint("no dump")\n' > i7a.lua
expect 0 "no dump" "$CT" --sandbox i7a.lua
printf 'print(require("chromatype").temp_files("/etc"))\n' > i7b.lua
expect 1 "sandbox: reading '/etc' refused" "$CT" --sandbox i7b.lua
printf 'print(require("chromatype").temp_files("%s/dir"))\n' "$O" > i7b2.lua
expect 1 "sandbox: reading '$O/dir' refused" "$CT" --sandbox i7b2.lua

# issue 33, item 6: --max-memory counts what canvases (their recorded pages), fonts, pictures
# and paint trees hold in C, not Lua's heap alone: each loop below grows without end in C
# while Lua's heap stays small, and must stop with the limit's error in bounded memory
# (peak RSS under twice the limit and a base for the executable and its libraries)
if [ -x /usr/bin/time ]; then
  printf 'local c = require("chromatype").canvas{width=800,height=800}\nc:rect{x=0,y=0,w=800,h=800,color="#f00"}\nassert(c:write("big.png"))\n' > mkbig.lua
  "$CT" mkbig.lua && ok || bad "could not write big.png"
  PRE='local ct = require "chromatype"\nlocal t, f = {}, ct.open_font("sub/ct-colr0.ttf")\n'
  for c in 'canvases|while true do t[#t + 1] = ct.canvas { width = 3000, height = 3000 } end|making a canvas' \
           'fonts|while true do t[#t + 1] = ct.open_font("sub/ct-colr0.ttf") end|making a font' \
           'pictures|while true do local c = ct.canvas { width = 9, height = 9 }; c:image { "big.png" }; t[#t + 1] = c end|making a picture' \
           'pages|local c = ct.canvas { width = 300, height = 300 }\nwhile true do c:text { "AB", font = f, size = 9, x = 1, y = 9 } end|' \
           'trees|local c, s = ct.canvas { width = 300, height = 300 }, { kind = "solid", color = { rgba = "#f00" } }\nwhile true do c:paint({ kind = "layers", children = { s, s, s, s, s, s, s, s } }, { font = f }) end|'; do
    name=${c%%|*}; rest=${c#*|}; loop=${rest%%|*}; what=${rest#*|}
    printf "$PRE$loop\n" > "mem-$name.lua"   # (no % in the loops)
    for sb in --sandbox ""; do
      # address space capped too (not under ASan, which reserves terabytes): a build that
      # does not count would otherwise take the machine's memory before its timeout
      out=$( ( [ -n "$CT_ASAN" ] || ulimit -v 3000000; /usr/bin/time -f 'peak %M' timeout 60 "$CT" $sb --max-memory 64M "mem-$name.lua" ) 2>&1 | grep -v ': warning: ')
      peak=$(printf '%s\n' "$out" | sed -n 's/^peak //p')
      case "$out" in
        *"memory limit of 64 MiB reached (--max-memory)${what:+ $what}"*) ok ;;
        *) bad "a loop of $name $sb under --max-memory 64M: $out" ;;
      esac
      cap=$((2 * 64 * 1024 + 96 * 1024))          # KB
      [ -n "$CT_ASAN" ] && cap=$((cap + 1024 * 1024))   # its shadow memory and quarantine
      [ -n "$peak" ] && [ "$peak" -lt $cap ] && ok || bad "a loop of $name $sb: peak RSS ${peak:-?} KB"
    done
  done
  # what Lua no longer holds is collected, not counted: the same loops on garbage finish
  printf "$PRE%s\nprint('collected')\n" 'for i = 1, 20000 do local c = ct.canvas { width = 3000, height = 3000 }; c:text { "AB", font = ct.open_font("sub/ct-colr0.ttf"), size = 9, x = 1, y = 9 }; c:image { "big.png" } end' > mem-garbage.lua
  expect 0 "collected" "$CT" --max-memory 64M mem-garbage.lua
else
  echo "$SUITE: /usr/bin/time not installed: the C memory limit test skipped"
fi

# ---- paths: links, '..', absolute, NUL, hard links --------------------------------------------
ln -s "$O/font.ttf" sub/linked.ttf
ln -s ct-colr0.ttf sub/inside.ttf
printf 'local ct = require "chromatype"\nassert(ct.open_font("sub/inside.ttf"))\nprint("inside link")\n' > in.lua
expect 0 "inside link" "$CT" --sandbox in.lua
printf 'require("chromatype").open_font("sub/linked.ttf")\n' > s1.lua
expect 1 "sandbox: reading 'sub/linked.ttf' refused (it leads outside" "$CT" --sandbox s1.lua
printf 'require("chromatype").read_file("out/../../outside/secret.txt")\n' > s2.lua
expect 1 "refused" "$CT" --sandbox s2.lua
printf 'require("chromatype").read_file("../outside/secret.txt")\n' > s3.lua
expect 1 "sandbox: reading '../outside/secret.txt' refused" "$CT" --sandbox s3.lua
printf 'require("chromatype").read_file("%s/secret.txt")\n' "$O" > s4.lua
expect 1 "sandbox: reading '$O/secret.txt' refused (outside the working directory" "$CT" --sandbox s4.lua
printf 'require("chromatype").read_file("/etc/passwd")\n' > s5.lua
expect 1 "sandbox: reading '/etc/passwd' refused" "$CT" --sandbox s5.lua
printf 'local c = require("chromatype").canvas{width=4,height=4}\nc:image{"../outside/victim.png"}\n' > s6.lua
expect 1 "refused" "$CT" --sandbox s6.lua
printf 'local ct = require("chromatype")\nassert(ct.canvas{width=4,height=4}:write("%s/sub/abs.png"))\nprint("absolute inside")\n' "$W" > s7.lua
expect 0 "absolute inside" "$CT" --sandbox s7.lua
printf 'require("chromatype").open_font("sub/ct-colr0.ttf\\0/../../outside/font.ttf")\n' > n1.lua
expect 1 "a file name with a NUL byte" "$CT" --sandbox n1.lua
printf 'require("chromatype").canvas{width=4,height=4}:write("x.png\\0/../../outside/n.png")\n' > n2.lua
expect 1 "a file name with a NUL byte" "$CT" --sandbox n2.lua
printf 'local c = require("chromatype").canvas{width=4,height=4}\nc:image{"x.png\\0/../../outside/victim.png"}\n' > n3.lua
expect 1 "a file name with a NUL byte" "$CT" --sandbox n3.lua
ln "$O/secret.txt" hard.txt
ln "$O/victim.png" hardw.png
printf 'print(require("chromatype").read_file("hard.txt"))\n' > h1.lua
expect 1 "sandbox: reading 'hard.txt' refused (the file has other names: hard links)" "$CT" --sandbox h1.lua
printf 'assert(require("chromatype").canvas{width=4,height=4}:write("hardw.png"))\n' > h2.lua
expect 0 "" "$CT" --sandbox h2.lua
[ "$(cat "$O/victim.png")" = victim ] && ok || bad "a write through a hard link changed the file outside"
untouched "links, '..', absolute paths, NUL bytes, hard links"

# ---- fontconfig names that lead out -----------------------------------------------------------
mkdir -p "$T/fcfonts" "$T/fccache"
ln -s "$O/font.ttf" "$T/fcfonts/evil.ttf"
cat > "$T/fonts.conf" <<EOF
<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><dir>$T/fcfonts</dir><cachedir>$T/fccache</cachedir></fontconfig>
EOF
FAMILY=$(FONTCONFIG_FILE="$T/fonts.conf" fc-list : family 2>/dev/null | head -1)
if [ -n "$FAMILY" ]; then
  printf 'local f, e = require("chromatype").open_font("%s")\nassert(f, e)\n' "$FAMILY" > fc.lua
  expect 1 "sandbox: reading '$T/fcfonts/evil.ttf' refused" env FONTCONFIG_FILE="$T/fonts.conf" "$CT" --sandbox fc.lua
  # the same name outside the sandbox finds the font: the refusal is the sandbox's
  expect 0 "" env FONTCONFIG_FILE="$T/fonts.conf" "$CT" fc.lua
else
  bad "fontconfig found no font in $T/fcfonts (fc-list)"
fi
printf 'local f = require("chromatype").open_font("DejaVu Sans")\nassert(f:info().path:find("^/usr/share/fonts/"))\nprint("system font")\n' > sysfont.lua
expect 0 "system font" "$CT" --sandbox sysfont.lua
untouched "fontconfig"

# ---- programs: ffmpeg and Ghostscript are not started ---------------------------------------------
cat > video.lua <<'EOF'
local ct = require "chromatype"
local ok, err = ct.animate { width = 16, height = 16, fps = 2, frames = 2, output = "v.mp4",
  draw = function(c) c:rect { 0, 0, 16, 16, fill = "#f00" } end }
assert(ok, err)
EOF
expect 1 "sandbox: v.mp4: video is encoded by ffmpeg, a program a sandboxed run does not start" "$CT" --sandbox video.lua
[ -e v.mp4 ] && bad "a refused video left v.mp4" || ok
printf 'local c = require("chromatype").canvas{width=5,height=5}:ink("Teal=#008080")\nassert(c:write("p.pdf", { plates = "plates" }))\n' > gs.lua
expect 1 "plates are drawn by Ghostscript, a program a sandboxed run does not start" "$CT" --sandbox gs.lua
expect 1 "sandbox: --plates" "$CT" --sandbox doc.xml -o g.pdf --ink Teal=#008080 --plates "$O/plates"
untouched "ffmpeg and Ghostscript"

# ---- an output outside: handed back, and only it ------------------------------------------------
printf 'local ct = require "chromatype"\nct.canvas{width=4,height=4}:write("%s/extra.png")\nreturn {}\n' "$O" > extra.lua
expect 0 "" "$CT" --sandbox doc.xml -o "$O/doc.pdf" -f extra.lua
[ -s "$O/doc.pdf" ] && ok || bad "the document's own -o outside was not written"
[ -e "$O/extra.png" ] && bad "a filter wrote beside the handed output" || ok
ls -a "$O" | grep -q chromatype-sandbox && bad "a scratch folder was left in $O" || ok
rm -f "$O/doc.pdf"
printf 'return { Glyph = function() error("no") end }\n' > fails.lua
expect 1 "no" "$CT" --sandbox doc.xml -o "$O/doc.pdf" -f fails.lua
[ -e "$O/doc.pdf" ] && bad "a failed run left its output" || ok
ls -a "$O" | grep -q chromatype-sandbox && bad "a failed run left its scratch folder" || ok
untouched "outputs handed back"

# ---- the kernel's layers: the run is a confined child -----------------------------------------------
printf 'local ct = require "chromatype"\nlocal t = os.clock()\nwhile not ct.file_exists("stop") and os.clock() - t < 20 do end\n' > wait.lua
rm -f stop
"$CT" --sandbox --max-instructions 1e15 wait.lua &
pid=$!
child= i=0
while [ -z "$child" ] && [ $i -lt 50 ]; do child=$(pgrep -P $pid | head -1); i=$((i + 1)); sleep 0.1; done
if [ -n "$child" ]; then
  st=$(cat /proc/"$child"/status)
  printf '%s' "$st" | grep -q "^NoNewPrivs:[[:space:]]*1" && ok || bad "the confined child has no no_new_privs"
  printf '%s' "$st" | grep -q "^Seccomp:[[:space:]]*2" && ok || bad "the confined child has no seccomp filter"
  printf '%s' "$st" | grep -q "^CapEff:[[:space:]]*0000000000000000" && ok || bad "the confined child keeps capabilities"
else
  bad "no confined child found under $pid"
fi
touch stop
wait $pid && ok || bad "the waiting script failed"

# ---- each layer alone: as on a kernel without Landlock, and without openat2 -------------------------
NL="env CHROMATYPE_SANDBOX_LANDLOCK=0"
expect 0 "this kernel has no Landlock" $NL "$CT" --sandbox in.lua
[ "$($NL "$CT" --sandbox in.lua 2>&1 | grep -c 'no Landlock')" = 1 ] && ok || bad "the Landlock warning is not said once"
$NL "$CT" --sandbox evil.lua >/dev/null 2>&1
[ -e "$O/pwned.txt" ] && bad "without Landlock, F.env = nil; F.load ran a command" || ok
expect 1 "sandbox: writing 'out/x.png' refused" $NL "$CT" --sandbox link.lua
expect 1 "sandbox: reading '$O/secret.txt' refused" $NL "$CT" --sandbox s4.lua
expect 1 "refused (the file has other names" $NL "$CT" --sandbox h1.lua
NO2="env CHROMATYPE_FS_OPENAT2=0"
printf 'local ct = require "chromatype"\nassert(ct.open_font("sub/ct-colr0.ttf"))\nassert(ct.canvas{width=4,height=4}:write("sub/w.png"))\nprint("plain paths")\n' > plain.lua
expect 0 "plain paths" $NO2 "$CT" --sandbox plain.lua
expect 1 "sandbox: writing 'out/x.png' refused" $NO2 "$CT" --sandbox link.lua
expect 1 "sandbox: reading 'sub/linked.ttf' refused" $NO2 "$CT" --sandbox s1.lua
expect 1 "sandbox: reading '../outside/secret.txt' refused" $NO2 "$CT" --sandbox s3.lua
expect 0 "inside link" $NO2 "$CT" --sandbox in.lua   # the walk follows links that stay inside
printf 'local ct = require "chromatype"\nassert(ct.canvas{width=5,height=5}:write("sub/../out/x.png"))\n' > dotlink.lua
expect 1 "sandbox: writing 'sub/../out/x.png' refused" $NO2 "$CT" --sandbox dotlink.lua
ln -s ../../outside sub/upout
printf 'local ct = require "chromatype"\nprint(ct.read_file("sub/upout/secret.txt"))\n' > upout.lua
expect 1 "sandbox: reading 'sub/upout/secret.txt' refused" $NO2 "$CT" --sandbox upout.lua
expect 1 "sandbox: reading 'sub/upout/secret.txt' refused" "$CT" --sandbox upout.lua
untouched "each layer alone"

# ---- --watch: the files the confined run read come back ----------------------------------------------
out=$(CHROMATYPE_WATCH_RUNS=1 "$CT" --sandbox --watch doc.xml -o w.pdf 2>&1)
printf '%s' "$out" | grep -q "watching [2-9] files" && ok || bad "--watch --sandbox did not learn the inputs: $out"

# ---- a batch's records in the sandbox --------------------------------------------------------------
printf 'id\n1\n' > one.csv
printf '%s\n' "$DOC" > t.xml
expect 3 "refused" "$CT" batch t.xml --data one.csv -o "$O/b/{id}.pdf" --sandbox -q
untouched "a batch"
# issue 33, item 7: a batch's records each get their own world.  Record 1 replaces library
# functions, the string library, the string and canvas metatables and globals; records 2
# and 3 see none of it, and neither does the worker's own code (its events use
# string.format and table.concat), in and out of the sandbox.
cat > iso.lua <<'EOF'
local ct = require "chromatype"
if index == 1 then
  local function trap() ct.canvas{width=1,height=1}:write("trapped.png"); error("REPLACED") end
  ct.open_font = trap; ct.canvas_patched = true
  string.upper, string.format, table.concat, table.pack = trap, trap, trap, trap
  local out = ct.canvas{width=4,height=4}
  local mt, write = getmetatable(out), out.write
  getmetatable("").__index = { format = trap, upper = trap, gsub = trap }
  mt.__index = function() return trap end
  rawset(_G, "pcall", trap); rawset(_G, "ipairs", trap); rawset(_G, "tostring", trap)
  require("chromatype.batch").render_record = trap
  write(out, output)
  return
end
assert(string.upper("x") == "X", "string.upper replaced")
assert(("%d"):format(7) == "7", "the string metatable replaced")
assert(ct.canvas_patched == nil, "chromatype's table kept a field")
assert(ct.open_font("sub/ct-colr0.ttf"), "open_font replaced")
assert(rawget(_G, "pcall") == pcall and pcall(print) and ipairs({}), "a global replaced")
ct.canvas{width=4,height=4}:write(output)
EOF
printf 'id\n1\n2\n3\n' > iso.csv
for sb in --sandbox ""; do
  rm -rf iso trapped.png
  expect 0 "batch: 3 done, 0 failed" "$CT" batch iso.lua --data iso.csv -o 'iso/{id}.png' -j 1 -q $sb
  [ -s iso/2.png ] && [ -s iso/3.png ] && ok || bad "batch $sb: records 2 and 3 wrote no output"
  [ -e trapped.png ] && bad "batch $sb: the worker or a later record called record 1's replacement" || ok
done
# the -f filters and a template's document run in each record's world too: what a filter
# changes in one record's chromatype module, the next record's does not have
printf 'local ct = require "chromatype"\nreturn { Document = function(doc) assert(not ct.seen_by_a_filter, "a record saw an earlier one") ct.seen_by_a_filter = true return doc end }\n' > seen.lua
for sb in --sandbox ""; do
  rm -rf isx
  expect 0 "batch: 3 done, 0 failed" "$CT" batch t.xml --data iso.csv -o 'isx/{id}.png' -j 1 -q -f seen.lua $sb
done
expect 1 "seen-not-there.lua: cannot open" "$CT" batch t.xml --data iso.csv -o 'isx/{id}.png' -j 1 -q -f seen-not-there.lua --sandbox
untouched "isolated records"
[ -e "$O/b" ] && bad "a batch made a folder outside" || ok

finish
