-- run.lua: the Lua test harness.  Runs every tests/lua/test_*.lua (or the files named
-- on the command line) in a fresh environment and prints one line per failure, then
-- "lua: N passed, N failed"; exits non-zero on any failure.
--
--   LUA_CPATH='build/lua/?.so;;' LUA_PATH='lua/?.lua;lua/?/init.lua;;' lua5.4 tests/lua/run.lua
--   build/chromatype tests/lua/run.lua
--
-- A test file returns a list of cases and/or registers them with case(...):
--   { "name", function() ... end }                        -- passes if it does not raise
--   { "name", f, {args...}, true,  {expected results...} } -- f(args) returns exactly these
--   { "name", f, {args...}, false, "error pattern" }        -- f(args) raises matching this
-- Helpers in the environment: case, checkerr, eq, same, tmpname, FONTS, font_path, ROOT.

local here = (arg and arg[0] or ""):match("^(.*)[/\\][^/\\]*$") or "."
local root = here .. "/../.."

-- Plain lua5.4 without LUA_PATH/LUA_CPATH: find the library from the tree.
if not pcall(require, "chromatype") then
  package.path = root .. "/lua/?.lua;" .. root .. "/lua/?/init.lua;" .. package.path
  package.cpath = root .. "/build/lua/?.so;" .. package.cpath
end
local ct = require "chromatype"

-- ---- helpers ---------------------------------------------------------------------

local function show(v)
  if type(v) == "string" then return string.format("%q", v) end
  return tostring(v)
end

--- Deep equality of plain values and tables (userdata and functions by identity).
local function same(a, b, path, seen)
  path = path or "value"
  if type(a) ~= type(b) then
    return false, ("%s: %s ~= %s"):format(path, show(a), show(b))
  end
  if type(a) ~= "table" then
    if a == b or (a ~= a and b ~= b) then return true end
    if math.type(a) == "float" and math.type(b) == "float" and math.abs(a - b) < 1e-9 then return true end
    return false, ("%s: %s ~= %s"):format(path, show(a), show(b))
  end
  seen = seen or {}
  if seen[a] == b then return true end
  seen[a] = b
  for k, v in pairs(a) do
    local ok, why = same(v, b[k], path .. "[" .. show(k) .. "]", seen)
    if not ok then return false, why end
  end
  for k in pairs(b) do
    if a[k] == nil then return false, ("%s[%s]: missing in the first value"):format(path, show(k)) end
  end
  return true
end

--- Raises (at the caller) unless a and b are deeply equal.
local function eq(a, b, what)
  local ok, why = same(a, b)
  if not ok then error((what and what .. ": " or "") .. why, 2) end
end

--- Calls f(...) and checks that it raises an error whose message matches `pattern`
--- (a Lua pattern); returns the message.
local function checkerr(pattern, f, ...)
  local ok, msg = pcall(f, ...)
  if ok then error(("expected an error matching '%s', got success"):format(pattern), 2) end
  msg = tostring(msg)
  if not msg:find(pattern) then
    error(("error '%s' does not match '%s'"):format(msg, pattern), 2)
  end
  return msg
end

-- ---- running one file -----------------------------------------------------------------

local passed, failed = 0, 0

-- One line per failure; CT_TEST_VERBOSE=1 adds the traceback.
local verbose = os.getenv("CT_TEST_VERBOSE")
local function report(file, name, msg)
  failed = failed + 1
  msg = tostring(msg)
  if not verbose then msg = msg:match("^[^\n]*") end
  print(("FAIL %s: %s: %s"):format(file, name, (msg:gsub("\n", "\n    "))))
end

local function run_case(file, c)
  local name = c.name or c[1]
  local f = c.f or c[2]
  local args, ok, expected = c.args or c[3], c.ok, c.expected
  if ok == nil then ok = c[4] end
  if expected == nil then expected = c[5] end
  if type(name) ~= "string" or type(f) ~= "function" then
    report(file, tostring(name), "malformed case (want {name, function, ...})")
    return
  end
  local res = table.pack(xpcall(f, debug.traceback, table.unpack(args or {})))
  local status = res[1]
  if ok == nil then                        -- plain case: must not raise
    if status then passed = passed + 1 else report(file, name, res[2]) end
  elseif ok then                           -- must return `expected`
    if not status then return report(file, name, res[2]) end
    local got = table.pack(table.unpack(res, 2, res.n))
    got.n = nil
    local same_ok, why = same(got, expected or {}, "results")
    if same_ok then passed = passed + 1 else report(file, name, why) end
  else                                      -- must raise matching `expected`
    if status then return report(file, name, "expected an error, got success") end
    local msg = tostring(res[2]):match("^[^\n]*")
    if msg:find(expected) then passed = passed + 1
    else report(file, name, ("error '%s' does not match '%s'"):format(msg, expected)) end
  end
end

local function run_file(path, file)
  local cases, temps = {}, {}
  local env = setmetatable({}, { __index = _G })
  env.ROOT = root
  env.FONTS = root .. "/tests/fonts"
  env.font_path = function(name) return env.FONTS .. "/" .. name end
  env.checkerr, env.eq, env.same = checkerr, eq, same
  env.case = function(name, f, ...)
    local n = select("#", ...)
    cases[#cases + 1] = n == 0 and { name, f } or { name, f, ... }
  end
  --- A fresh temporary file name ending in `ext` (removed after the file's cases,
  --- with its page variants name-1.ext, name-2.ext, ...).
  env.tmpname = function(ext)
    local base = os.tmpname()
    os.remove(base)
    local name = base .. (ext or "")
    temps[#temps + 1] = name
    for i = 1, 9 do temps[#temps + 1] = base .. "-" .. i .. (ext or "") end
    return name
  end
  env._G = env

  local chunk, err = loadfile(path, "t", env)
  if not chunk then return report(file, "(load)", err) end
  local ok, ret = xpcall(chunk, debug.traceback)
  if not ok then
    report(file, "(top level)", ret)
  else
    if type(ret) == "table" then
      for i = 1, #ret do table.insert(cases, i, ret[i]) end
    end
    if #cases == 0 then report(file, "(cases)", "the file has no test cases") end
    for _, c in ipairs(cases) do run_case(file, c) end
  end
  ct.on_warning(nil)   -- a test may have installed a handler
  for _, t in ipairs(temps) do os.remove(t) end
  collectgarbage()
  collectgarbage()
end

-- ---- the files ----------------------------------------------------------------------------

local files = {}
for i = 1, #arg do files[#files + 1] = arg[i]:match("[^/\\]+$") end
if #files == 0 then
  local p = io.popen('ls -1 "' .. here .. '" 2>/dev/null')
  if p then
    for name in p:lines() do
      if name:match("^test_.*%.lua$") then files[#files + 1] = name end
    end
    p:close()
  end
  table.sort(files)
end
if #files == 0 then report("run.lua", "(files)", "no tests/lua/test_*.lua found in " .. here) end

for _, file in ipairs(files) do run_file(here .. "/" .. file, file) end

print(("lua: %d passed, %d failed"):format(passed, failed))
os.exit(failed == 0 and 0 or 1, true)   -- true: close the state, running finalizers
