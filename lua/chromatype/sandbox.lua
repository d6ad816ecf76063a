--- chromatype.sandbox: running scripts and filters from untrusted sources.
-- `--sandbox` runs the script (or the document's filters) in an environment of pure Lua and
-- the chromatype API: no `io`, `os` (but `os.clock`, `os.time`, `os.date`), `debug`,
-- `package`, `dofile`, `loadfile`, `string.dump`, binary chunks, or `require` of anything but
-- chromatype's own modules.  Files are read and written only through the chromatype API and
-- only by relative paths below the working directory (or, to read, below the script's own
-- directory), and fonts by fontconfig name: `../x`, `/etc/passwd` and `~/.ssh` are refused.
-- The command line adds limits on Lua memory, instructions and time (docs/cli.md).
-- @module chromatype.sandbox

local ct = require "chromatype"

local M = {}

--- Modules a sandboxed `require` gives.
M.modules = { "chromatype", "chromatype.document", "chromatype.layout", "chromatype.palette",
  "chromatype.random", "chromatype.stack", "chromatype.paper", "chromatype.filter" }

--- Directories (absolute, without a trailing '/') a sandboxed read may come from besides
--- the working directory.
M.read_dirs = {}

M.enabled = false

local function copy(t)
  local c = {}
  for k, v in pairs(t) do c[k] = v end
  return c
end

-- "a/b.png" and "./a/b.png" pass; "../a", "/x", "a/../../b", "~" do not.
local function relative_below(path)
  if type(path) ~= "string" or path == "" or path:sub(1, 1) == "/" or path:sub(1, 1) == "~" then return false end
  local depth = 0
  for part in path:gmatch("[^/]+") do
    if part == ".." then depth = depth - 1 elseif part ~= "." then depth = depth + 1 end
    if depth < 0 then return false end
  end
  return true
end

local function under(path, dir)
  if not relative_below(path:sub(#dir + 2)) then return false end
  return path:sub(1, #dir + 1) == dir .. "/"
end

--- Whether a sandboxed script may read `path` (a file; a fontconfig name has no '/').
function M.may_read(path)
  if type(path) ~= "string" then return false end
  if not path:find("/") and not path:find("^%.%.?$") and path:sub(1, 1) ~= "~" then return true end
  if relative_below(path) then return true end
  for _, d in ipairs(M.read_dirs) do if under(path, d) then return true end end
  return false
end

--- Whether `path` is one of the ready filters (the directories of `filter.path`).
function M.is_ready_filter(path)
  for dir in (require("chromatype.filter").path or ""):gmatch("[^;]+") do
    local name = path:sub(#dir + 2)
    if path:sub(1, #dir + 1) == dir .. "/" and not name:find("/") then return true end
  end
  return false
end

--- Outputs the command line named (-o), which may be written wherever they are.
M.outputs = {}

--- Whether a sandboxed script may write `path` ("-" is standard output).
function M.may_write(path)
  return path == "-" or relative_below(path) or M.outputs[path] == true
end

local function refuse(what, path)
  error(("sandbox: %s '%s' refused (only relative paths below the working directory)"):format(what, tostring(path)), 0)
end

--- Turns the sandbox on for the rest of the process: the chromatype API checks paths, and
--- `M.env()` gives the environment scripts and filters run in.
function M.enable(script_dir, output)
  if output then M.outputs[output] = true end
  if M.enabled then return end
  M.enabled = true
  if script_dir and script_dir ~= "" then
    M.read_dirs[#M.read_dirs + 1] = (script_dir:gsub("/+$", ""))
  end
  -- every file the chromatype API opens passes this guard (set once: it cannot be undone)
  ct.set_file_guard(function(mode, path)
    if mode == "write" then
      if not M.may_write(path) then refuse("writing", path) end
    elseif not M.may_read(path) then
      refuse("reading", path)
    end
  end)
  -- filters load in the sandbox too
  require("chromatype.filter").env = M.env()
end

local env_cache
--- The environment of sandboxed code (a new table each process; shared by its scripts and
--- filters).
function M.env()
  if env_cache then return env_cache end
  local e = {}
  for _, k in ipairs { "assert", "error", "ipairs", "next", "pairs", "pcall", "rawequal", "rawget", "rawlen",
    "rawset", "select", "setmetatable", "tonumber", "tostring", "type", "xpcall", "_VERSION", "print",
    "collectgarbage" } do
    e[k] = _G[k]
  end
  for _, lib in ipairs { "string", "table", "math", "utf8", "coroutine" } do e[lib] = copy(_G[lib]) end
  e.string.dump = nil
  e.os = { clock = os.clock, time = os.time, date = os.date }
  -- metatables of strings are the real string library: not handed out
  e.getmetatable = function(v)
    if type(v) == "string" then return nil end
    return getmetatable(v)
  end
  e.load = function(chunk, name, _, env)
    return load(chunk, name, "t", env or e)
  end
  local allowed = {}
  for _, m in ipairs(M.modules) do allowed[m] = true end
  e.require = function(name)
    if not allowed[name] then
      error(("sandbox: require '%s' refused (only %s)"):format(tostring(name), table.concat(M.modules, ", ")), 2)
    end
    return require(name)
  end
  e.arg = _G.arg
  e._G = e
  env_cache = e
  return e
end

return M
