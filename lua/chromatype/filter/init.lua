--- chromatype.filter: Lua filters over a typeset document, in the manner of pandoc's.
-- A filter is a table of functions keyed by element type: `Document`, `Page`, `Frame`,
-- `Paragraph`, `Run`, `Glyph`, `Layer`.  After layout and before drawing, each filter in
-- turn walks the document top down (a document, its pages, their frames, paragraphs, runs,
-- glyphs, layers) and calls its function for each element with a context `ctx`.  The
-- function returns nil to keep the element (changes made to it stay), a table to replace
-- it, `false` to remove it, or a list of elements to put in its place.
--
-- Runs are shaped pieces of text on one line (one font, one style, one direction); a run
-- whose text, font, size, features, script, language or direction a filter changes is
-- shaped again at its position (the line is not broken again).  Glyphs and layers only
-- repaint.  Every context has a random stream `ctx.rng` keyed by the filter, the page,
-- frame and paragraph, and the word (its text and occurrence), so the same seed gives the
-- same result and editing one word reshuffles only that word.
-- The reference is docs/filters.md.
-- This file holds the public table, loading and running; the rest is in the modules beside
-- it: options.lua (option readers), tree.lua (the element tree), walk.lua (one filter's
-- walk), draw.lua (drawing filtered frames), bake.lua (glyphs baked into fonts).
-- @module chromatype.filter

local ct = require "chromatype"
local readers = require "chromatype.filter.options"
local elements = require "chromatype.filter.tree"
local walk = require "chromatype.filter.walk"
local draw = require "chromatype.filter.draw"
local bake = require "chromatype.filter.bake"

local upem = elements.upem
local run_filter = walk.run_filter

local M = {}

local KINDS = { "Document", "Page", "Frame", "Paragraph", "Run", "Glyph", "Layer" }
local KIND_SET = {}
for _, k in ipairs(KINDS) do KIND_SET[k] = true end

--- Filters used when none are given (the command line's -f sets these for scripts too).
M.defaults = {}

--- The seed used when none is given.
M.default_seed = 0

-- ---- loading ---------------------------------------------------------------------------

local function argerr(fname, n, msg)
  error(("bad argument #%d to '%s' (%s)"):format(n, fname, msg), 3)
end

-- "a=1,b=#333" -> {a = "1", b = "#333"} (numbers stay strings; filters convert)
local function parse_options(s)
  local o = {}
  for part in s:gmatch("[^,]+") do
    local k, v = part:match("^%s*([%w_%-]+)%s*=%s*(.-)%s*$")
    if not k then error(("bad filter option '%s' (want key=value)"):format(part), 0) end
    o[k] = v
  end
  return o
end

local function check_filter(t, name)
  if type(t) ~= "table" then
    error(("%s: a filter must return a table of functions (Glyph = function(g, ctx) ... end), got %s")
      :format(name, type(t)), 0)
  end
  for k, v in pairs(t) do
    if KIND_SET[k] then
      if type(v) ~= "function" then error(("%s: field '%s' must be a function"):format(name, k), 0) end
    elseif k == "whole_document" then
      if type(v) ~= "boolean" then error(("%s: field 'whole_document' must be true or false"):format(name), 0) end
    elseif k ~= "name" and k ~= "options" then
      error(("%s: unknown field '%s' (expected %s)"):format(name, tostring(k), table.concat(KINDS, ", ")), 0)
    end
  end
end

-- The runner's own option `boil` (every filter has it: how many animation frames ctx.rng
-- holds, 0 = every frame alike), taken out of an options table and checked; returns it.
local function take_boil(opts, name)
  local v = opts.boil
  if v == nil then return nil end
  opts.boil = nil
  local n = math.tointeger(tonumber(v))
  if not n or n < 0 or n > 100000 then
    error(("%s: boil: expected an integer from 0 to 100000 (frames a random draw holds), got '%s'")
      :format(name, tostring(v)), 0)
  end
  return n > 0 and n or nil
end

--- A filter from a table of functions, with options and a name (used in random keys and
--- messages).  The option `boil` belongs to the runner (see `run`), not to the functions.
-- @treturn table the filter `{name =, funcs =, options =, boil =}`
function M.new(funcs, options, name)
  if type(funcs) ~= "table" then argerr("filter", 1, "table of functions expected, got " .. type(funcs)) end
  name = name or funcs.name or "filter"
  check_filter(funcs, name)
  local o = {}
  for k, v in pairs(funcs.options or {}) do o[k] = v end
  for k, v in pairs(options or {}) do o[k] = v end
  local boil = take_boil(o, name)
  return { name = name, funcs = funcs, options = o, boil = boil }
end

--- Whether a filter needs the whole document at once: it has a `Document` function or says
--- `whole_document = true` (it looks across pages, through ctx.document).  Other filters
--- run on each page as it is typeset, so a long PDF is written page by page; their
--- ctx.document then holds that page alone.
function M.needs_document(f)
  if f.ranged then
    error(("filter '%s': a range (LO..HI@TAG) is an effect axis of a font (chromatype font --axis), not drawn"):format(f.spec), 0)
  end
  return f.funcs.Document ~= nil or f.funcs.whole_document == true
end

--- Loads a filter file: "path.lua" or "path.lua:key=value,key=value".  The file is run with
--- the options table as its argument (`local opts = ...`) and returns the table of
--- functions (its `options` field gives defaults).  A file without a '/' that does not exist
--- is looked for in the ready filters (filters/ of the installation).
-- @treturn table|nil the filter, or nil and a message
-- Compiled as text, in this Lua state's globals: under --sandbox those of the confined
-- run, whose files are read by the sandbox's rules (docs/cli.md).
local function load_filter_file(path)
  return ct.load_file(path)
end

function M.load(spec, options)
  if type(spec) ~= "string" then argerr("load", 1, "string expected, got " .. type(spec)) end
  local path, opts = spec, {}
  local p, o = spec:match("^(.-%.lua):(.*)$")
  if not p then p, o = spec:match("^([^/:]+):(.*)$") end     -- a ready filter by name
  if p then
    path = p
    local ok, parsed = pcall(parse_options, o)
    if not ok then return nil, ("%s: %s"):format(path, parsed) end
    opts = parsed
  end
  for k, v in pairs(options or {}) do opts[k] = v end
  local okb, boil = pcall(take_boil, opts, path:match("([^/]*)$"):gsub("%.lua$", ""))
  if not okb then return nil, boil end
  local chunk, err = load_filter_file(path)
  if not chunk and not path:find("/") then
    for dir in (M.path or ""):gmatch("[^;]+") do
      local cand = dir .. "/" .. path
      local c2 = load_filter_file(cand)
      if c2 then chunk, err, path = c2, nil, cand; break end
    end
    if not chunk and not path:find("%.lua$") then
      for dir in (M.path or ""):gmatch("[^;]+") do
        local cand = dir .. "/" .. path .. ".lua"
        local c2 = load_filter_file(cand)
        if c2 then chunk, err, path = c2, nil, cand; break end
      end
    end
  end
  if not chunk then
    if err and err:find("No such file") then err = path .. ": cannot open: No such file or directory" end
    return nil, err
  end
  local ok, t = pcall(chunk, opts)
  if not ok then return nil, tostring(t) end
  local okc, e2 = pcall(check_filter, t, path)
  if not okc then return nil, e2 end
  local f = M.new(t, opts, (path:match("([^/]*)$"):gsub("%.lua$", "")))
  f.path = path
  f.boil = f.boil or boil
  ct.note_input(path)
  return f
end

M.options = readers.options

M.is_stack, M.build, M.copy = elements.is_stack, elements.build, elements.copy
M.glyphs_of, M.layers_of = elements.glyphs_of, elements.layers_of
M.unit_keys = walk.unit_keys

-- The time of a still: the first frame.
local STILL = { t = 0, frame_number = 0, duration = 0, progress = 0 }

--- Runs filters in order over a tree; returns the tree (a Document filter may replace it).
-- @tparam table tree from `build`
-- @tparam table filters a list of filters (from `load` or `new`)
-- @tparam[opt] integer seed (default `M.default_seed`)
-- @tparam[opt] table time the animation frame being drawn: `{t = seconds, frame_number = from 0,
--   fps =, duration =, progress = 0..1}` (a still: t = 0, frame 0); every context has them
--   (`ctx.t`, `ctx.frame_number`, ...)
function M.run(tree, filters, seed, time)
  seed = seed or M.default_seed
  time = time or STILL
  if type(time) ~= "table" or type(time.t) ~= "number" or math.type(time.frame_number) ~= "integer"
    or time.frame_number < 0 then
    argerr("run", 4, "a time {t = seconds, frame_number = integer from 0} expected")
  end
  for _, f in ipairs(filters) do
    if f.ranged then
      error(("filter '%s': a range (LO..HI@TAG) is an effect axis of a font (chromatype font --axis), not drawn"):format(f.spec), 0)
    end
    tree = run_filter(tree, f, seed, time)
  end
  return tree
end

--- The built-in filter that applies OpenType `rand` from the seed (HarfBuzz 6.0 cannot seed
--- its own): each glyph of a run whose font has `rand` (and whose features do not mention
--- it) becomes one of its `rand` alternates, picked by `ctx.rng`; the glyphs after it in the
--- run move by the difference in advance.
M.rand = M.new({
  Glyph = function(g, ctx)
    local run = ctx.run
    if not run.rand then return end
    local alts = g.font:alternates(g.gid, "rand")
    if #alts == 0 then return end
    local pick = alts[ctx.rng:random(#alts)]
    local scale = g.size / upem(g.font)
    local delta = (g.font:advance(pick.gid) - g.font:advance(g.gid)) * scale
    g.gid = pick.gid
    g.layers = nil
    if delta ~= 0 then
      g.advance = g.advance + delta
      local after = false
      for _, other in ipairs(run.glyphs) do
        if after then other.x = other.x + delta end
        if other == g then after = true end
      end
    end
  end,
}, {}, "rand")

--- Whether typeset sheets hold runs that need the seeded rand.
function M.needs_rand(sheets)
  for _, sh in ipairs(sheets) do
    for _, fr in ipairs(sh.frames) do
      for _, line in ipairs(fr.lines) do
        for _, it in ipairs(line.items) do if it.rand then return true end end
      end
    end
  end
  return false
end

M.recolor, M.turned, M.inside, M.draw_frame = draw.recolor, draw.turned, draw.inside, draw.draw_frame
M.bake = bake.bake

return M
