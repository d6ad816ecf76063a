-- layers.lua: checks that the tree keeps the shape docs/ARCHITECTURE.md draws.  The
-- sources sit in one folder per pipeline stage, bottom up; a file includes headers of its
-- own folder, ct.h, and the door of a folder below its own, never anything above; with
-- object files (BUILD/src/...), the symbols a folder takes from another come from below
-- too (`nm`), so there is no import circle between folders.  And no folder holds more
-- than 16 files, no C file is over 1,000 lines, no Lua file over 900, and no C function
-- is over 150 lines.
--
-- usage: lua5.4 tools/layers.lua [BUILD]   (from the project root; BUILD: objects to read)
-- Prints "layers: N passed, N failed" (and each failure above it); exits 1 on a failure.

-- Bottom up.  Each folder's doors: the headers other folders may include.
local STAGES = {
  { "base",      { "base.h", "ct-limits.h" } },
  { "font",      { "font.h" } },
  { "text",      { "text.h" } },
  { "paint",     { "paint.h" } },
  { "glyph/svg", { "svg.h" } },
  { "glyph/artwork", { "artwork.h" } },
  { "glyph",     { "glyph.h" } },
  { "page",      { "page.h" } },
  { "write/png", { "png.h" } },
  { "write/pdf", { "pdf.h" } },
  { "write",     { "write.h" } },
  { "motion",    { "motion.h" } },
  { "fontmake",  { "fontmake.h" } },
  { "fontmake/artwork", { "artfont.h" } },                          -- fonts from artwork
  { "lua",       { "l_core.h", "l_limits.h", "l_sandbox.h" } },   -- the bindings
  { "cli/embed", { "preload.h" } },                                 -- the executable's Lua library
  { "cli",       { "cli.h" } },                                    -- the executable
}
local MAX_FILES, MAX_C_LINES, MAX_LUA_LINES, MAX_FUNCTION = 16, 1000, 900, 150

local build = arg[1]
local pass, fail = 0, 0
local function check(ok, msg)
  if ok then pass = pass + 1 else fail = fail + 1; print("layers: FAIL: " .. msg) end
end

local rank, doors = {}, {}
for i, s in ipairs(STAGES) do
  rank[s[1]] = i
  doors[s[1]] = {}
  for _, h in ipairs(s[2]) do doors[s[1]][h] = true end
end

local function lines(cmd)   -- what a command prints, a line each
  local p = assert(io.popen(cmd))
  local text = p:read("a")
  p:close()
  local out = {}
  for l in text:gmatch("[^\n]+") do out[#out + 1] = l end
  return out
end

local function exists(path) local f = io.open(path, "r"); return f ~= nil and f:close() end

local function folder_of(path)   -- "src/glyph/svg/svg.c" -> "glyph/svg"; "src/ct.h" -> ""
  return path:match("^src/(.+)/[^/]+$") or ""
end

-- every source folder: known, and not too full
local files = lines("find src -type f \\( -name '*.c' -o -name '*.cc' -o -name '*.h' \\) | sort")
local count = {}
for _, f in ipairs(files) do
  local d = folder_of(f)
  count[d] = (count[d] or 0) + 1
  check(d == "" or rank[d], f .. ": in a folder that is not a stage (tools/layers.lua STAGES)")
end
for d, n in pairs(count) do
  check(n <= MAX_FILES, string.format("src/%s holds %d files (at most %d)", d, n, MAX_FILES))
end

-- includes: own folder, ct.h, or a lower folder's door
for _, f in ipairs(files) do
  local d, n = folder_of(f), 0
  for l in io.lines(f) do
    n = n + 1
    local inc = l:match('^%s*#%s*include%s+"([^"]+)"')
    if inc then
      local target
      if exists(f:match("^(.*/)") .. inc) then target = f:match("^(.*/)") .. inc
      elseif exists("src/" .. inc) then target = "src/" .. inc end
      if not target then
        check(false, string.format("%s:%d: includes \"%s\", which is in no folder of src/", f, n, inc))
      elseif target ~= "src/ct.h" then
        local td, name = folder_of(target), target:match("[^/]+$")
        if td ~= d then
          check(rank[td] and rank[d] and rank[td] < rank[d],
                string.format("%s:%d: src/%s includes src/%s, which is not below it", f, n, d, td))
          check(doors[td] and doors[td][name],
                string.format("%s:%d: includes %s, which is not a door of src/%s", f, n, name, td))
        end
      end
    end
  end
end

-- sizes: files and C functions
local function count_lines(f)
  local n = 0
  for _ in io.lines(f) do n = n + 1 end
  return n
end
for _, f in ipairs(files) do
  if f:match("%.cc?$") then
    local n = count_lines(f)
    check(n <= MAX_C_LINES, string.format("%s: %d lines (at most %d)", f, n, MAX_C_LINES))
    local start, name, i = nil, nil, 0
    for l in io.lines(f) do   -- this tree's style: a definition opens at column 0 with ") {"
      i = i + 1
      if not start and l:match("^[%a_].*%)%s*[%w_]*%s*{%s*$") and not l:match("^%s*}") then
        start, name = i, l:match("([%w_]+)%s*%(") or l
      elseif start and l:match("^}") then
        check(i - start <= MAX_FUNCTION,
              string.format("%s:%d: %s is %d lines (at most %d)", f, start, name, i - start, MAX_FUNCTION))
        start = nil
      end
    end
  end
end
local luacount = {}
for _, f in ipairs(lines("find lua filters -name '*.lua' | sort")) do
  local d = f:match("^(.*)/[^/]+$")
  luacount[d] = (luacount[d] or 0) + 1
  local n = count_lines(f)
  check(n <= MAX_LUA_LINES, string.format("%s: %d lines (at most %d)", f, n, MAX_LUA_LINES))
end

for d, n in pairs(luacount) do
  check(n <= MAX_FILES, string.format("%s holds %d files (at most %d)", d, n, MAX_FILES))
end

-- symbols: what each folder's objects take from another folder's comes from below
if build then
  local owner, wants = {}, {}
  for _, o in ipairs(lines("find " .. build .. "/src -name '*.o' | sort")) do
    local d = o:sub(#build + 2):match("^src/(.+)/[^/]+$")
    if d and rank[d] then
      for _, l in ipairs(lines("nm " .. o)) do
        local kind, sym = l:match("^%x*%s+(%a)%s+(%S+)$")
        if kind and kind:match("[TDBR]") then owner[sym] = d
        elseif kind == "U" then wants[#wants + 1] = { o, d, sym } end
      end
    end
  end
  local seen = {}
  for _, w in ipairs(wants) do
    local o, d, sym = w[1], w[2], w[3]
    local od = owner[sym]
    if od and od ~= d and not seen[o .. sym] then
      seen[o .. sym] = true
      check(rank[od] < rank[d], string.format("%s takes %s from src/%s, which is not below src/%s", o, sym, od, d))
    end
  end
end

print(string.format("layers: %d passed, %d failed", pass, fail))
os.exit(fail == 0 and 0 or 1)
