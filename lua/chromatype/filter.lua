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
-- @module chromatype.filter

local ct = require "chromatype"
local random = require "chromatype.random"

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

-- ---- reading options ------------------------------------------------------------------------

--- Readers of filter options, which come as strings from the command line and as numbers,
--- strings or tables from Lua: `filter.options(opts, "shadow")` gives an object whose methods
--- return the converted value or raise "shadow: KEY: expected ..., got 'VALUE'".
local Options = {}
Options.__index = Options

function M.options(opts, name)
  local self = setmetatable({ o = opts or {}, name = name or "filter", known = {} }, Options)
  -- every reader notes its key, for check()
  return self
end

--- Raises for options no reader asked for (a typo): "shadow: unknown option 'colr'
--- (options: offset, color, ...)".  `...` names further keys the filter reads itself.
function Options:check(...)
  for _, k in ipairs({ ... }) do self.known[k] = true end
  local names = {}
  for k in pairs(self.known) do names[#names + 1] = k end
  table.sort(names)
  local bad = {}
  for k in pairs(self.o) do if not self.known[k] then bad[#bad + 1] = tostring(k) end end
  table.sort(bad)
  if #bad > 0 then
    error(("%s: unknown option '%s' (options: %s)"):format(self.name, bad[1], table.concat(names, ", ")), 0)
  end
end

function Options:fail(key, want, v)
  error(("%s: %s: expected %s, got '%s'"):format(self.name, key, want, tostring(v)), 0)
end

--- A number (lo..hi).
function Options:number(key, default, lo, hi)
  self.known[key] = true
  local v = self.o[key]
  if v == nil then return default end
  local n = tonumber(v)
  if not n or n ~= n or (lo and n < lo) or (hi and n > hi) then
    self:fail(key, ("a number%s"):format(lo and hi and (" from %g to %g"):format(lo, hi)
      or lo and (" of at least %g"):format(lo) or ""), v)
  end
  return n
end

--- An integer (lo..hi).
function Options:integer(key, default, lo, hi)
  local n = self:number(key, default, lo, hi)
  if n and math.type(n) ~= "integer" and n ~= math.floor(n) then self:fail(key, "an integer", self.o[key]) end
  return n and math.tointeger(n)
end

--- One of a list of words.
function Options:choice(key, default, choices)
  self.known[key] = true
  local v = self.o[key]
  if v == nil then return default end
  for _, c in ipairs(choices) do if v == c then return v end end
  self:fail(key, table.concat(choices, ", "), v)
end

--- yes/no, true/false, 1/0.
function Options:bool(key, default)
  self.known[key] = true
  local v = self.o[key]
  if v == nil then return default end
  if v == true or v == "yes" or v == "true" or v == "1" or v == 1 then return true end
  if v == false or v == "no" or v == "false" or v == "0" or v == 0 then return false end
  self:fail(key, "yes or no", v)
end

-- "2pt" -> 2, false; "0.05em" -> 0.05, true
local function em_length(v)
  if type(v) == "string" then
    local n = v:match("^%s*([-+]?[%d.]+)%s*em%s*$")
    if n and tonumber(n) then return tonumber(n), true end
  end
  local paper = require "chromatype.paper"
  local pt = paper.parse_length(v)
  return pt, false
end

--- A length: points, or a string with pt, mm, cm, in, px or em.  Returns the number and
--- whether it is in em (of the glyph's size).
function Options:length(key, default)
  self.known[key] = true
  local v = self.o[key]
  if v == nil then v = default end
  if v == nil then return nil end
  local n, em = em_length(v)
  if not n then self:fail(key, "a length such as 2pt, 1.5mm or 0.05em", v) end
  return n, em
end

--- Two lengths "DX DY" (or "DX;DY", or a table {dx, dy}): returns {dx, dy, em = {bool, bool}}.
function Options:offset(key, default)
  self.known[key] = true
  local v = self.o[key]
  if v == nil then v = default end
  local parts = {}
  if type(v) == "table" then parts = { v[1], v[2] }
  elseif type(v) == "number" then parts = { v, v }
  else for p in tostring(v):gmatch("[^%s;]+") do parts[#parts + 1] = p end end
  if #parts == 1 then parts[2] = parts[1] end
  if #parts ~= 2 then self:fail(key, "two lengths such as '2pt 3pt'", v) end
  local dx, ex = em_length(parts[1])
  local dy, ey = em_length(parts[2])
  if not dx or not dy then self:fail(key, "two lengths such as '2pt 3pt' or '0.04em 0.04em'", v) end
  return { dx, dy, em = { ex, ey } }
end

--- A color (CSS forms): "#rrggbbaa".
function Options:color(key, default)
  self.known[key] = true
  local v = self.o[key]
  if v == nil then v = default end
  if v == nil then return nil end
  local c = require("chromatype.palette").color(v)
  if not c then self:fail(key, "a color (#rgb, #rrggbb[aa], rgb(), hsl() or a CSS name)", v) end
  return c
end

--- A list of colors: a table, or a string separated by ';', '|' or spaces.
function Options:colors(key, default)
  self.known[key] = true
  local v = self.o[key]
  if v == nil then v = default end
  if v == nil then return nil end
  local items = {}
  if type(v) == "table" then items = v
  else for p in tostring(v):gmatch("[^;|%s]+") do items[#items + 1] = p end end
  local out = {}
  local pal = require "chromatype.palette"
  for i, c in ipairs(items) do
    out[i] = pal.color(c) or self:fail(key, "colors separated by ';' (#rgb, #rrggbb, CSS names)", c)
  end
  if #out == 0 then self:fail(key, "at least one color", v) end
  return out
end

--- Which layers an effect takes: "all", "top" (each glyph's top layer: a stack's face), or
--- indices separated by ';'.  Returns a function(layer, ctx) -> boolean for Layer calls.
function Options:layers(key, default)
  local v = self.o[key]
  if v == nil then v = default or "all" end
  self.known[key] = true
  if v == "all" then return function() return true end end
  if v == "top" then
    return function(layer, ctx) return ctx.glyph.layers[ctx.layer_count] == layer end
  end
  local set = {}
  for _, i in ipairs(self:integers(key, v) or {}) do set[i] = true end
  return function(layer) return set[layer.index] == true end
end

--- A list of integers: a table or a string separated by ';', '|' or spaces; "all" gives nil.
function Options:integers(key, default)
  self.known[key] = true
  local v = self.o[key]
  if v == nil then v = default end
  if v == nil or v == "all" then return nil end
  local items = {}
  if type(v) == "table" then items = v
  elseif type(v) == "number" then items = { v }
  else for p in tostring(v):gmatch("[^;|%s]+") do items[#items + 1] = p end end
  local out = {}
  for i, x in ipairs(items) do
    out[i] = math.tointeger(tonumber(x)) or self:fail(key, "integers separated by ';', or all", x)
  end
  return out
end

-- ---- the element tree -------------------------------------------------------------------

local function is_stack(v)
  local mt = getmetatable(v)
  return type(v) == "table" and type(mt) == "table" and mt.__name == "chromatype.Stack"
end

--- Whether a font value is a layered font stack (chromatype.stack).
M.is_stack = is_stack

local upem_of = setmetatable({}, { __mode = "k" })
local function upem(font)
  local u = upem_of[font]
  if not u then u = font:info().units_per_em; upem_of[font] = u end
  return u
end

local RUN_COPY = { "palette", "overrides", "color", "format", "features", "language", "tracking", "size" }

-- The shaping key of a run: when it changes, the glyphs are made again.
local function shape_key(run)
  return table.concat({ tostring(run.text), tostring(run.font), tostring(run.size), run.features or "",
    run.script or "", run.language or "", run.direction or "", tostring(run.tracking or 0) }, "\0")
end

--- Builds the element tree of typeset sheets (see chromatype.document): a Document with
--- Pages, Frames, Paragraphs and Runs (glyphs and layers come when a filter asks for them).
--- `first` is the number of the first sheet (for a document typeset page by page).
function M.build(doc, sheets, first)
  local d = { kind = "Document", pages = {}, meta = doc and doc.meta or {}, model = doc }
  first = first or 1
  for si, sh in ipairs(sheets) do
    local page = { kind = "Page", index = first + si - 1, width = sh.width, height = sh.height, frames = {},
      sheet = sh }
    for fi, fr in ipairs(sh.frames) do
      local frame = { kind = "Frame", index = fi, x = fr.x, y = fr.y, width = fr.width, height = fr.height,
        paragraphs = {}, model = fr.frame }
      local by_para, order = {}, {}
      for li, line in ipairs(fr.lines) do
        local pi = line.paragraph or 1
        local para = by_para[pi]
        if not para then
          para = { kind = "Paragraph", index = #order + 1, lines = {}, runs = {} }
          by_para[pi] = para
          order[#order + 1] = para
        end
        local l = { index = #para.lines + 1, frame_line = li, x = line.x, y = line.y, width = line.width,
          text = line.text, rtl = line.rtl, runs = {} }
        para.lines[#para.lines + 1] = l
        for _, it in ipairs(line.items) do
          local r = it.run
          local run = { kind = "Run", text = it.text, font = it.font, x = it.x, y = line.y, width = it.width,
            script = it.script, direction = it.direction, word = it.word, start = it.start, line = l, style = r,
            rand = it.rand }
          for _, k in ipairs(RUN_COPY) do run[k] = r[k] end
          if it.features then run.features = it.features end
          run.size = run.size or 12
          -- the glyphs layout shaped with the paragraph, while nothing that shapes changes
          if it.glyphs then run.layout_glyphs, run.layout_key = it.glyphs, shape_key(run) end
          l.runs[#l.runs + 1] = run
          para.runs[#para.runs + 1] = run
        end
      end
      frame.paragraphs = order
      page.frames[#page.frames + 1] = frame
    end
    d.pages[#d.pages + 1] = page
  end
  return d
end

local tree_copy
tree_copy = function(t, seen)
  if type(t) ~= "table" then return t end
  seen = seen or {}
  if seen[t] then return seen[t] end
  local c = {}
  seen[t] = c
  for k, v in pairs(t) do c[k] = tree_copy(v, seen) end
  return c
end
M.copy = tree_copy

--- The glyphs of a run: `{kind = "Glyph", gid =, cluster =, text =, x =, y =, advance =, font =,
--- size =, color =, palette =, overrides =}`, x and y on the page (points, y down).
function M.glyphs_of(run)
  local font = run.font
  local so = { features = run.features, script = run.script, language = run.language, direction = run.direction }
  local shaped
  local tracking = run.tracking or 0
  local scale = run.size / upem(font)
  if run.layout_glyphs and run.layout_key == shape_key(run) then
    shaped = run.layout_glyphs
  else
    shaped = font:shape(run.text, so)
  end
  local starts = {}
  for _, g in ipairs(shaped) do starts[g.cluster] = true end
  local sorted = {}
  for c in pairs(starts) do sorted[#sorted + 1] = c end
  table.sort(sorted)
  local ends = {}
  for i, c in ipairs(sorted) do ends[c] = sorted[i + 1] or #run.text + 1 end
  local out, x = {}, run.x
  for i, g in ipairs(shaped) do
    out[i] = { kind = "Glyph", gid = g.gid, cluster = g.cluster, text = run.text:sub(g.cluster, ends[g.cluster] - 1),
      x = x + g.x_offset * scale, y = run.y - g.y_offset * scale, advance = g.x_advance * scale,
      font = font, size = run.size, color = run.color, palette = run.palette, overrides = run.overrides,
      format = run.format, run = run }
    x = x + g.x_advance * scale + tracking
  end
  run.shaped_as = shape_key(run)
  return out
end

--- The layers of a glyph: `{kind = "Layer", index =, paint = tree, font =, color =, offset =,
--- hidden =}`.  A color glyph's top-level layers (COLRv0 layers, a COLRv1 PaintColrLayers,
--- SVG element layers) are its layers; other glyphs have one; a stack glyph has one per
--- stack layer.
function M.layers_of(g)
  local out = {}
  if is_stack(g.font) then
    local s = g.font
    local cp = utf8.codepoint(g.text ~= "" and g.text or " ")
    for i, layer in ipairs(s.layers) do
      local lg = s:layer_glyph(layer, g.gid, cp)
      if lg then
        out[#out + 1] = { kind = "Layer", index = i, font = layer.font, gid = lg,
          paint = layer.font:paint(lg, { format = layer.format or "auto" }), color = layer.color,
          palette = layer.palette, overrides = layer.overrides, hidden = layer.hidden, name = layer.label or layer.name,
          offset = { layer.dx * g.size, layer.dy * g.size }, stacked = true }
      else
        s:note(layer, "missing", g.gid)
      end
    end
    s:report()
    return out
  end
  local tree = g.font:paint(g.gid, { format = g.format or "auto" })
  if tree.kind == "layers" then
    for i, child in ipairs(tree.children) do
      out[i] = { kind = "Layer", index = i, font = g.font, paint = child }
    end
  else
    out[1] = { kind = "Layer", index = 1, font = g.font, paint = tree }
  end
  return out
end

-- ---- contexts ---------------------------------------------------------------------------------

-- ctx.rng is made on first use: a stream keyed by the filter and the element's path (and,
-- with `boil`, the animation frame over boil); ctx.boil_rng the same keyed by the frame.
local ctx_mt = {
  __index = function(ctx, k)
    if k == "rng" or k == "boil_rng" then
      local r = k == "rng" and ctx._root or ctx._boil_root
      for _, key in ipairs(ctx._keys) do r = r:fork(key) end
      rawset(ctx, k, r)
      return r
    elseif k == "boil_stream" then
      return function(self, ...)
        if select("#", ...) == 0 then return self._boil_root end
        return self._boil_root:fork(...)
      end
    elseif k == "stream" then
      return function(self, ...)
        if select("#", ...) == 0 then return self._root end
        return self._root:fork(...)
      end
    end
    return nil
  end,
}

local function new_ctx(base, keys, extra)
  local ctx = setmetatable({ _root = base._root, _keys = keys }, ctx_mt)
  for k, v in pairs(base) do if k ~= "_keys" and k ~= "rng" and k ~= "boil_rng" then ctx[k] = v end end
  for k, v in pairs(extra or {}) do ctx[k] = v end
  ctx._keys = keys
  return ctx
end

local function extend(keys, ...)
  local t = {}
  for i, k in ipairs(keys) do t[i] = k end
  for i = 1, select("#", ...) do t[#t + 1] = select(i, ...) end
  return t
end

-- Calls fn(element, ctx) and applies the return convention to `list[i]`; returns the
-- number of elements now in its place.
local function apply(fn, list, i, ctx, fname, kind)
  local el = list[i]
  local ok, res = pcall(fn, el, ctx)
  if not ok then
    local msg = tostring(res):match("^[^\n]*") or tostring(res)
    error(("filter %s: %s: %s"):format(fname, kind, msg), 0)
  end
  if res == nil or res == true then return 1 end
  if res == false then table.remove(list, i); return 0 end
  if type(res) ~= "table" then
    error(("filter %s: %s returned a %s (expected nil, false, a %s or a list)"):format(fname, kind, type(res), kind), 0)
  end
  if res.kind == nil and res[1] ~= nil then            -- a list: splice
    table.remove(list, i)
    for j, e in ipairs(res) do
      if type(e) ~= "table" then error(("filter %s: %s: item %d of the list is not a table"):format(fname, kind, j), 0) end
      e.kind = e.kind or kind
      table.insert(list, i + j - 1, e)
    end
    return #res
  end
  res.kind = res.kind or kind
  list[i] = res
  return 1
end

-- Word contexts of a paragraph's glyphs (logical order): index in word, word text and its
-- occurrence, index in line.
local function word_info(para)
  local info = {}
  local occ = {}
  local words = {}
  for _, run in ipairs(para.runs) do
    local w = words[run.word or run]
    if not w then w = { text = {}, runs = {} }; words[run.word or run] = w; words[#words + 1] = w end
    w.runs[#w.runs + 1] = run
  end
  for _, w in ipairs(words) do
    table.sort(w.runs, function(a, b) return (a.start or 0) < (b.start or 0) end)
    local t = {}
    for _, r in ipairs(w.runs) do t[#t + 1] = r.text end
    w.word = table.concat(t)
    occ[w.word] = (occ[w.word] or 0) + 1
    w.occurrence = occ[w.word]
    for _, r in ipairs(w.runs) do info[r] = w end
  end
  return info
end

-- Runs one filter over the tree at the time `time` (see M.run).
local function run_filter(tree, f, seed, time)
  local fn = f.funcs
  local root = random.new(seed):fork(f.name)
  local n = time.frame_number
  -- a boiling filter draws again every `boil` frames; boil_rng every frame
  local boil_root = root:fork("boil", n)
  if f.boil then root = root:fork("boil", n // f.boil) end
  local base = { _root = root, _boil_root = boil_root, options = f.options, seed = seed, document = tree,
    t = time.t, frame_number = n, fps = time.fps, duration = time.duration, progress = time.progress }
  local need_glyphs = fn.Glyph or fn.Layer
  local dctx = new_ctx(base, {}, {})
  if fn.Document then
    local list = { tree }
    local n = apply(fn.Document, list, 1, dctx, f.name, "Document")
    if n == 0 then tree.pages = {}; return tree end
    tree = list[1]
  end
  local pi = 1
  while pi <= #tree.pages do
    local page = tree.pages[pi]
    local pctx = new_ctx(base, { "page", page.index }, { page = page })
    local n = fn.Page and apply(fn.Page, tree.pages, pi, pctx, f.name, "Page") or 1
    for k = pi, pi + n - 1 do
      page = tree.pages[k]
      local fi = 1
      while fi <= #page.frames do
        local frame = page.frames[fi]
        local fctx = new_ctx(base, { "page", page.index, "frame", frame.index }, { page = page, frame = frame })
        local nf = fn.Frame and apply(fn.Frame, page.frames, fi, fctx, f.name, "Frame") or 1
        for kf = fi, fi + nf - 1 do
          frame = page.frames[kf]
          local qi = 1
          while qi <= #frame.paragraphs do
            local para = frame.paragraphs[qi]
            local keys = { "page", page.index, "frame", frame.index, "paragraph", para.index }
            local qctx = new_ctx(base, keys, { page = page, frame = frame, paragraph = para })
            local nq = fn.Paragraph and apply(fn.Paragraph, frame.paragraphs, qi, qctx, f.name, "Paragraph") or 1
            for kq = qi, qi + nq - 1 do
              para = frame.paragraphs[kq]
              local winfo = word_info(para)
              local ri = 1
              local runs = para.runs
              while ri <= #runs do
                local run = runs[ri]
                local w = winfo[run] or { word = run.text, occurrence = 1 }
                local rkeys = extend(keys, "word", w.word, w.occurrence, "run", run.start or ri)
                local rctx = new_ctx(base, rkeys, { page = page, frame = frame, paragraph = para, run = run,
                  line = run.line, style = run.style, word = w.word, occurrence = w.occurrence, x = run.x, y = run.y })
                local nr = fn.Run and apply(fn.Run, runs, ri, rctx, f.name, "Run") or 1
                for kr = ri, ri + nr - 1 do
                  run = runs[kr]
                  if run.glyphs and run.shaped_as ~= shape_key(run) then run.glyphs = nil end
                  if need_glyphs and not run.glyphs then run.glyphs = M.glyphs_of(run) end
                end
                ri = ri + nr
              end
              if need_glyphs then
                -- glyph contexts: the paragraph's glyphs in order, grouped by word and line
                local all, line_pos, word_pos = {}, {}, {}
                for _, run in ipairs(runs) do
                  for _, g in ipairs(run.glyphs or {}) do all[#all + 1] = g end
                end
                local line_count, word_count = {}, {}
                for _, g in ipairs(all) do
                  local l = g.run.line
                  line_count[l] = (line_count[l] or 0) + 1
                  line_pos[g] = line_count[l]
                  local w = winfo[g.run] or g.run
                  word_count[w] = (word_count[w] or 0) + 1
                  word_pos[g] = word_count[w]
                end
                for gi, g in ipairs(all) do
                  local run = g.run
                  local w = winfo[run] or { word = run.text, occurrence = 1 }
                  local gkeys = extend(keys, "word", w.word, w.occurrence, "glyph", word_pos[g])
                  local gctx = new_ctx(base, gkeys, { page = page, frame = frame, paragraph = para, run = run,
                    line = run.line, style = run.style, word = w.word, occurrence = w.occurrence, index = gi,
                    index_in_word = word_pos[g], word_length = word_count[winfo[run] or run],
                    index_in_line = line_pos[g], line_length = line_count[run.line],
                    prev = all[gi - 1], next = all[gi + 1], cluster = g.text, x = g.x, y = g.y })
                  local list = run.glyphs
                  local at
                  for j, x in ipairs(list) do if x == g then at = j; break end end
                  local ng = at and fn.Glyph and apply(fn.Glyph, list, at, gctx, f.name, "Glyph") or 1
                  if fn.Layer and at then
                    for kg = at, at + ng - 1 do
                      local gg = list[kg]
                      if gg then
                        gg.kind = "Glyph"
                        gg.run = gg.run or run
                        gg.font = gg.font or run.font
                        gg.size = gg.size or run.size
                        if not gg.layers then gg.layers = M.layers_of(gg) end
                        local li = 1
                        while li <= #gg.layers do
                          local layer = gg.layers[li]
                          local lctx = new_ctx(base, extend(gkeys, "layer", layer.index or li), {
                            page = page, frame = frame, paragraph = para, run = run, line = run.line,
                            style = run.style, word = w.word, occurrence = w.occurrence, glyph = gg,
                            layer_count = #gg.layers, index = gi,
                            index_in_word = word_pos[g], index_in_line = line_pos[g], cluster = gg.text,
                            prev = all[gi - 1], next = all[gi + 1], x = gg.x, y = gg.y })
                          li = li + apply(fn.Layer, gg.layers, li, lctx, f.name, "Layer")
                        end
                      end
                    end
                  end
                end
              end
            end
            qi = qi + nq
          end
        end
        fi = fi + nf
      end
    end
    pi = pi + n
  end
  return tree
end

--- The keys of the unit `per` ("document", "page", "frame", "paragraph", "line", "word" or
--- "glyph") that holds the context's element: `ctx:stream(table.unpack(keys))` is then one
--- stream for the whole unit (a line's glyphs all draw the same numbers), stable when other
--- words change.  Words are keyed by their text and occurrence, glyphs by their index in it.
function M.unit_keys(ctx, per)
  if per == "document" then return {} end
  local k = { "page", ctx.page and ctx.page.index or 0 }
  if per == "page" then return k end
  k[#k + 1] = "frame"; k[#k + 1] = ctx.frame and ctx.frame.index or 0
  if per == "frame" then return k end
  k[#k + 1] = "paragraph"; k[#k + 1] = ctx.paragraph and ctx.paragraph.index or 0
  if per == "paragraph" then return k end
  if per == "line" then
    k[#k + 1] = "line"; k[#k + 1] = ctx.line and ctx.line.index or 0
    return k
  end
  k[#k + 1] = "word"; k[#k + 1] = ctx.word or ""; k[#k + 1] = ctx.occurrence or 1
  if per == "word" then return k end
  k[#k + 1] = "glyph"; k[#k + 1] = ctx.index_in_word or 0
  return k
end

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
  for _, f in ipairs(filters) do tree = run_filter(tree, f, seed, time) end
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

-- ---- drawing -------------------------------------------------------------------------------

-- Every solid color and gradient stop of a tree set to `color` (alpha multiplied).
local function recolor(t, color)
  if type(t) ~= "table" then return end
  if t.kind == "solid" then
    t.color = { rgba = color, alpha = type(t.color) == "table" and t.color.alpha or nil }
  elseif t.stops then
    for _, s in ipairs(t.stops) do s.color = { rgba = color, alpha = type(s.color) == "table" and s.color.alpha or nil } end
  end
  for _, k in ipairs({ "child", "source", "backdrop" }) do recolor(t[k], color) end
  if t.children then for _, c in ipairs(t.children) do recolor(c, color) end end
end

-- A color set by a filter: CSS forms (names, rgb(), hsl()) become "#rrggbbaa".
local function css(c, what)
  if type(c) ~= "string" or c:sub(1, 1) == "#" then return c end
  local v, err = require("chromatype.palette").color(c)
  if not v then error(("%s: %s"):format(what, err), 0) end
  return v
end

--- Sets every solid color and gradient stop of a paint tree to `color` (CSS forms; alpha
--- kept).
function M.recolor(t, color) return recolor(t, css(color, "recolor")) end

-- A layer's paint, with its color and offset applied (font units of the layer's font).
local function layer_paint(layer, size)
  local p = layer.paint
  if layer.color then
    p = tree_copy(p)
    recolor(p, css(layer.color, "layer color"))
  end
  local off = layer.offset
  if off and (off[1] ~= 0 or off[2] ~= 0) then
    local u = upem(layer.font) / size
    p = { kind = "transform", matrix = { 1, 0, 0, 1, off[1] * u, -off[2] * u }, child = p }
  end
  return p
end

--- A paint turned by `degrees` (clockwise on the page) and scaled by `scale` about the
--- centre of a glyph `advance` points wide at `size` points, in `font`'s units.
function M.turned(p, font, advance, size, degrees, scale)
  local u = upem(font)
  local cx, cy = (advance or 0) / size * u / 2, u * 0.35
  local a = math.rad(degrees or 0)
  local s = scale or 1
  local ca, sa = math.cos(a) * s, math.sin(a) * s
  -- translate(c) * rotate/scale * translate(-c); y up in font units: a clockwise rotation on
  -- the page is negative here
  local m = { ca, -sa, sa, ca, cx - (ca * cx + sa * cy), cy - (-sa * cx + ca * cy) }
  return { kind = "transform", matrix = m, child = p }
end

--- `source` painted inside the shape of `p` (its alpha): how a color, a gradient or a blend
--- reaches SVG and bitmap glyphs, whose colors are not in the tree.
function M.inside(p, source)
  return { kind = "composite", mode = "src_in", source = source, backdrop = p }
end

-- A glyph's transform (rotate, scale) around its center, as a paint wrapper.
local function glyph_transform(g, p, font)
  if not g.rotate and not g.scale then return p end
  return M.turned(p, font, g.advance, g.size, g.rotate, g.scale)
end

local function draw_glyph_layers(canvas, g, layers, stacked_pass, z)
  local groups = {}
  z = z or 0
  for _, layer in ipairs(layers) do
    if not layer.hidden and (layer.z or 0) == z and (z ~= 0 or not stacked_pass or layer.index == stacked_pass) then
      local font = layer.font or g.font
      local last = groups[#groups]
      if last and last.font == font and not layer.stacked and not last.layer.stacked then
        last.children[#last.children + 1] = layer_paint(layer, g.size)
      else
        groups[#groups + 1] = { font = font, children = { layer_paint(layer, g.size) }, layer = layer }
      end
    end
  end
  for _, grp in ipairs(groups) do
    local tree = #grp.children == 1 and grp.children[1] or { kind = "layers", children = grp.children }
    tree = glyph_transform(g, tree, grp.font)
    local l = grp.layer
    canvas:paint(tree, { font = grp.font, size = g.size, x = g.x, y = g.y,
      color = css((l.stacked and l.color) or g.color, "glyph color"),
      palette = (l.stacked and l.palette) or (grp.font == g.font and g.palette) or nil,
      overrides = (l.stacked and l.overrides) or (grp.font == g.font and g.overrides) or nil })
  end
end

local function draw_run(canvas, run, layout)
  if run.glyphs and run.shaped_as ~= shape_key(run) then run.glyphs = nil end
  if not run.glyphs then
    -- untouched by glyph filters: draw the run as layout does
    local line = { y = run.y, items = { { text = run.text, run = run, font = run.font, script = run.script,
      direction = run.direction, x = run.x,
      glyphs = run.layout_key == shape_key(run) and run.layout_glyphs or nil } } }
    layout.draw_lines(canvas, { line })
    return
  end
  local any = false
  -- stacks print layer by layer across the run; other glyphs one after the other
  local max_stack = 0
  for _, g in ipairs(run.glyphs) do
    if not g.layers then g.layers = M.layers_of(g) end
    for _, l in ipairs(g.layers) do
      if l.stacked then max_stack = math.max(max_stack, l.index) end
    end
    any = true
  end
  if max_stack > 0 then
    for pass = 1, max_stack do
      for _, g in ipairs(run.glyphs) do draw_glyph_layers(canvas, g, g.layers, pass) end
    end
    for _, g in ipairs(run.glyphs) do
      local rest = {}
      for _, l in ipairs(g.layers) do if not l.stacked then rest[#rest + 1] = l end end
      if #rest > 0 then draw_glyph_layers(canvas, g, rest) end
    end
  else
    for _, g in ipairs(run.glyphs) do draw_glyph_layers(canvas, g, g.layers) end
  end
  if any and run.text ~= "" then
    -- the run's text once, invisible, for copying
    local font = is_stack(run.font) and run.font.lead or run.font
    canvas:text { run.text, font = font, size = run.size, x = run.x, y = run.y, format = "mono",
      color = "#00000000", features = run.features, script = run.script, language = run.language,
      direction = run.direction }
  end
end

--- Draws a filtered frame element on a canvas.  Layers with a negative `z` (shadows,
--- extrusions) are drawn first, under all the frame's text, deepest first; layers with a
--- positive `z` last, over it; the rest run by run.
function M.draw_frame(canvas, frame)
  local layout = require "chromatype.layout"
  local zs, seen = {}, {}
  for _, para in ipairs(frame.paragraphs) do
    for _, run in ipairs(para.runs) do
      if run.glyphs and run.shaped_as ~= shape_key(run) then run.glyphs = nil end
      for _, g in ipairs(run.glyphs or {}) do
        for _, l in ipairs(g.layers or {}) do
          local z = l.z
          if type(z) == "number" and z ~= 0 and not seen[z] then seen[z] = true; zs[#zs + 1] = z end
        end
      end
    end
  end
  table.sort(zs)
  local function zpass(z)
    for _, para in ipairs(frame.paragraphs) do
      for _, run in ipairs(para.runs) do
        for _, g in ipairs(run.glyphs or {}) do
          if g.layers then draw_glyph_layers(canvas, g, g.layers, nil, z) end
        end
      end
    end
  end
  for _, z in ipairs(zs) do if z < 0 then zpass(z) end end
  for _, para in ipairs(frame.paragraphs) do
    for _, run in ipairs(para.runs) do draw_run(canvas, run, layout) end
  end
  for _, z in ipairs(zs) do if z > 0 then zpass(z) end end
end

-- ---- baking: one glyph alone through filters, as a paint tree (chromatype.fontmake) --------

-- What a glyph baked into a font cannot depend on: the context keys that tell where it
-- stands or draw random numbers.
local NOT_GLYPH_LOCAL = {
  x = "its position", y = "its position", prev = "its neighbours", next = "its neighbours",
  index = "its place in the text", index_in_word = "its place in the word", word = "its word",
  word_length = "its word", index_in_line = "its place in the line", line_length = "its line",
  line = "its line", occurrence = "its word", page = "its page", frame = "its frame",
  paragraph = "its paragraph", run = "its run", document = "the document", style = "the document's style",
  rng = "a random stream", stream = "a random stream", boil_rng = "a random stream",
  boil_stream = "a random stream", t = "the time", frame_number = "the time", fps = "the time",
  duration = "the time", progress = "the time",
}

local function refuse_key(what, k)
  error(("cannot be baked into a font: it reads %s.%s (%s); a font's glyph can only depend on the glyph itself")
    :format(what, k, NOT_GLYPH_LOCAL[k]), 0)
end

local function baking_ctx(f, seed, extra)
  local ctx = { options = f.options, seed = seed }
  for k, v in pairs(extra) do ctx[k] = v end
  return setmetatable(ctx, { __index = function(_, k)
    if NOT_GLYPH_LOCAL[k] then refuse_key("ctx", k) end
    return nil
  end })
end

-- A glyph element whose position reads are refused (the fields filters set are kept).
local GLYPH_GUARD = { __index = function(_, k)
  if k == "x" or k == "y" or k == "run" then refuse_key("glyph", k) end
  return nil
end }

-- A copy of a tree whose glyph and bitmap nodes without a font name `font`.
local function font_named(t, font)
  local c = tree_copy(t)
  local function walk(n)
    if type(n) ~= "table" then return end
    if (n.kind == "glyph" or n.kind == "bitmap") and n.font == nil then n.font = font end
    for _, k in ipairs({ "child", "source", "backdrop" }) do walk(n[k]) end
    if n.children then for _, ch in ipairs(n.children) do walk(ch) end end
  end
  walk(c)
  return c
end

--- The paint tree (font units) that `filters` draw for glyph `gid` of `font` standing alone
--- (`text` is its character, for ctx.cluster).  Raises
--- "filter NAME: Glyph: cannot be baked ..." for filters that read anything but the glyph.
function M.bake(filters, font, gid, text, seed)
  local size = upem(font)   -- points = font units
  local g = setmetatable({ kind = "Glyph", gid = gid, cluster = 1, text = text,
    advance = font:advance(gid), font = font, size = size }, GLYPH_GUARD)
  local list = { g }
  for _, f in ipairs(filters) do
    local fn = f.funcs
    local i = 1
    while i <= #list do
      local el = list[i]
      local n = 1
      if fn.Glyph then
        n = apply(fn.Glyph, list, i, baking_ctx(f, seed, { cluster = text, glyph = el }), f.name, "Glyph")
      end
      for k = i, i + n - 1 do
        local gg = list[k]
        if fn.Layer and gg then
          gg.font = rawget(gg, "font") or font
          gg.size = rawget(gg, "size") or size
          if not rawget(gg, "layers") then gg.layers = M.layers_of(gg) end
          local li = 1
          while li <= #gg.layers do
            li = li + apply(fn.Layer, gg.layers, li, baking_ctx(f, seed, { cluster = text, glyph = gg,
              layer_count = #gg.layers }), f.name, "Layer")
          end
        end
      end
      i = i + n
    end
  end
  -- the glyphs' layers, deepest z first, as one tree
  local items = {}
  for _, gg in ipairs(list) do
    gg.font = rawget(gg, "font") or font
    gg.size = rawget(gg, "size") or size
    for li, layer in ipairs(rawget(gg, "layers") or M.layers_of(gg)) do
      if not layer.hidden then items[#items + 1] = { g = gg, layer = layer, z = layer.z or 0, order = #items + li / 1e6 } end
    end
  end
  table.sort(items, function(a, b) if a.z ~= b.z then return a.z < b.z end return a.order < b.order end)
  local children = {}
  for _, it in ipairs(items) do
    local gg, layer = it.g, it.layer
    local lfont = layer.font or gg.font
    local p = layer_paint(layer, gg.size)
    p = glyph_transform(gg, p, lfont)
    local gc = rawget(gg, "color")
    if gc and not layer.color then
      p = tree_copy(p)
      local c = css(gc, "glyph color")
      local function fg(t)
        if type(t) ~= "table" then return end
        if t.kind == "solid" and type(t.color) == "table" and t.color.foreground then
          t.color = { rgba = c, alpha = t.color.alpha }
        elseif t.stops then
          for _, st in ipairs(t.stops) do
            if type(st.color) == "table" and st.color.foreground then st.color = { rgba = c, alpha = st.color.alpha } end
          end
        end
        for _, k in ipairs({ "child", "source", "backdrop" }) do fg(t[k]) end
        if t.children then for _, ch in ipairs(t.children) do fg(ch) end end
      end
      fg(p)
    end
    local dx, dy = rawget(gg, "x") or 0, rawget(gg, "y") or 0
    if dx ~= 0 or dy ~= 0 then p = { kind = "transform", matrix = { 1, 0, 0, 1, dx, -dy }, child = p } end
    if lfont ~= font then p = font_named(p, lfont) end
    children[#children + 1] = p
  end
  if #children == 1 then return children[1] end
  return { kind = "layers", children = children }
end

return M
