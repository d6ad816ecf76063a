--- chromatype.document: documents of pages, frames, paragraphs and runs.
-- One model for two inputs: Lua scripts build it with `ct.document{...}`, `doc:style`,
-- `doc:page`, `page:frame`, `frame:text`; XML documents (`render`, the `chromatype
-- DOC.xml` command) are read into the same model.  Rendering lays the text out with
-- chromatype.layout (frames may flow into other frames and onto new pages), draws page
-- backgrounds, images and print marks, and writes PDF, PNG or SVG.
-- The vocabulary and the API are in docs/documents.md.  XML errors are one line
-- "FILE:LINE: <elem>: message"; Lua misuse raises "bad argument ...".
-- @module chromatype.document

local ct = require "chromatype"
local paper = require "chromatype.paper"
local layout = require "chromatype.layout"
local stack = require "chromatype.stack"
local palette = require "chromatype.palette"
local motion = require "chromatype.motion"
local variable = require "chromatype.variable"
local frames = require "chromatype.frames"

local M = {}

-- Keys of a style (Lua names; XML uses the same with '-' for '_' and lang/dir aliases).
local STYLE_KEYS = { "font", "size", "leading", "color", "palette", "overrides", "align", "tracking",
  "features", "language", "direction", "hyphenate", "indent", "format", "space_before", "space_after",
  "variations", "animate", "weight", "font_width", "slant", "italic", "optical_size" }
local FIT_KEYS = { "fit", "fit_to", "fit_tracking", "fit_width", "fit_features", "fit_size" }
-- Line breaking (chromatype.linebreak): style keys that act on whole paragraphs, like align.
local BREAK_KEYS = { "breaker", "looseness", "tolerance" }
for _, k in ipairs(BREAK_KEYS) do STYLE_KEYS[#STYLE_KEYS + 1] = k end
local MAX_OVERFLOW_PAGES = 1000

local function set_of(...)
  local s = {}
  for _, l in ipairs({ ... }) do for _, k in ipairs(l) do s[k] = true end end
  return s
end

local function sorted_keys(t)
  local names = {}
  for k in pairs(t) do names[#names + 1] = k end
  table.sort(names)
  return table.concat(names, ", ")
end

-- ---- errors ------------------------------------------------------------------------------

-- Raises at an object: "FILE:LINE: <elem>: msg" for XML objects, "chromatype.document:
-- what: msg" otherwise.
local function fail(obj, msg)
  if obj and obj.where then error(obj.where .. msg, 0) end
  error(("chromatype.document: %s%s"):format(obj and obj.what and obj.what .. ": " or "", msg), 0)
end

local function argerr(fname, n, msg)
  error(("bad argument #%d to '%s' (%s)"):format(n, fname, msg), 3)
end

local function check_keys(t, allowed, fname, n)
  for k in pairs(t) do
    if not allowed[k] then
      argerr(fname, n, ("unknown field '%s' (expected %s)"):format(tostring(k), sorted_keys(allowed)))
    end
  end
end

-- ---- values ---------------------------------------------------------------------------------

-- A length (number of points or a string with a unit) or nil, msg.
local function length(v)
  if v == nil then return nil end
  if type(v) == "number" then
    if v ~= v or v == math.huge or v == -math.huge then return nil, "not a finite number" end
    return v
  end
  return paper.parse_length(v)
end

-- A page size from a name, "W x H", or {w, h}: w, h or nil, msg.
local function page_size(size, orient, default_w, default_h)
  if orient ~= nil and orient ~= "portrait" and orient ~= "landscape" then
    return nil, ("orientation: expected portrait, landscape, got '%s'"):format(tostring(orient))
  end
  local w, h
  if size == nil then
    w, h = default_w, default_h
    if orient and (orient == "landscape") == (w < h) then w, h = h, w end
    return w, h
  elseif type(size) == "table" then
    local e1, e2
    w, e1 = length(size[1]); h, e2 = length(size[2])
    if not w or not h then return nil, "size: " .. (e1 or e2 or "expected {width, height}") end
  elseif type(size) == "string" then
    local a, b = size:match("^%s*(%S+)%s*[xX ]%s*(%S+)%s*$")
    if a and b then
      local e1, e2
      w, e1 = paper.parse_length(a); h, e2 = paper.parse_length(b)
      if not w or not h then return nil, "size: " .. (e1 or e2) end
    else
      local ok, pw, ph = pcall(paper.size, size, orient)
      if not ok then
        return nil, "size: " .. tostring(pw):gsub("^bad argument #%d to 'size' %((.*)%)$", "%1")
      end
      return pw, ph
    end
  else
    return nil, "size: expected a paper name, \"W x H\" or {w, h}, got " .. type(size)
  end
  if w <= 0 or h <= 0 then return nil, "size: sides must be positive" end
  if orient and (orient == "landscape") == (w < h) then w, h = h, w end
  return w, h
end

-- ---- the model ------------------------------------------------------------------------------

--- Checks an animation's timing: `fps` (more than 0, at most 240), `duration` (seconds or a
--- time string, more than 0, at most 3600), `loop` (times to play, 0 = forever), each
--- optional; returns them converted, or nil, nil, nil, msg naming the field.
function M.timing(fps, duration, loop)
  local f, d, l
  if fps ~= nil then
    f = tonumber(fps)
    if not f or not (f > 0 and f <= motion.MAX_FPS) then
      return nil, nil, nil, ("fps: more than 0, at most %d expected, got '%s'"):format(motion.MAX_FPS, tostring(fps))
    end
  end
  if duration ~= nil then
    local err
    d, err = motion.time(duration)
    if not d then return nil, nil, nil, "duration: " .. err end
    if not (d > 0 and d <= motion.MAX_SECONDS) then
      return nil, nil, nil, ("duration: more than 0, at most %d seconds expected, got '%s'")
        :format(motion.MAX_SECONDS, tostring(duration))
    end
    local n = math.floor(d * (f or 30) + 0.5)
    if n > motion.MAX_FRAMES then
      return nil, nil, nil, ("duration: %g s at %g fps is %d frames (at most %d)"):format(d, f or 30, n, motion.MAX_FRAMES)
    end
  end
  if loop ~= nil then
    l = math.tointeger(tonumber(loop))
    if not l or l < 0 or l > 65535 then
      return nil, nil, nil, ("loop: times to play from 0 (forever) to 65535 expected, got '%s'"):format(tostring(loop))
    end
  end
  return f, d, l
end

local Document, Page, Frame = {}, {}, {}
Document.__index, Page.__index, Frame.__index = Document, Page, Frame
Document.__name, Page.__name, Frame.__name = "chromatype.Document", "chromatype.Page", "chromatype.Frame"

local DOC_KEYS = set_of({ "size", "orientation", "margin", "bleed", "crop_marks", "slug", "background",
  "title", "author", "subject", "keywords", "base_dir", "seed", "inks", "fps", "duration", "loop" })
local PAGE_KEYS = set_of({ "size", "orientation", "background", "margin" })
local BOX_KEYS = { "columns", "column_gap", "column_fill", "column_rule", "background", "border", "padding" }
local FRAME_KEYS = set_of({ "x", "y", "width", "height", "valign", "style", "follows", "overflow" },
  FIT_KEYS, STYLE_KEYS, BOX_KEYS)
local PAGE_RULE_KEYS = set_of({ "x", "y", "length", "direction", "stroke", "color" })
local FRAME_RULE_KEYS = set_of({ "length", "align", "stroke", "color", "space" })
-- `width` is the font's width in styles and runs (they have no geometry); frames say `font_width`
local STYLE_ALLOWED = set_of(STYLE_KEYS, { "parent", "width" })
local TEXT_KEYS = set_of(STYLE_KEYS, { "style", "width" })
local RUN_KEYS = set_of(STYLE_KEYS, { "style", "text", "width" })

-- An ink (a spec "NAME=#RRGGBB[,overprint][,cmyk=C/M/Y/K]" or a table as canvas:ink takes)
-- checked, as ct.parse_ink gives it; or nil, msg.
local function check_ink(v)
  local ok, ink = pcall(ct.parse_ink, v)
  if ok then return ink end
  return nil, (tostring(ink):gsub("^bad argument #%d+ to '[^']*' %((.*)%)$", "%1"))
end

--- A new document.
-- Options: `size` ("A4"), `orientation`, `margin` ("15mm"), `bleed` (0), `crop_marks`
-- (false), `slug` (room outside the bleed for marks; 8 mm with crop marks), `background`,
-- `title`, `author`, `subject`, `keywords`, `base_dir` (for relative font and image paths),
-- `inks` (spot inks: a list of specs "NAME=#RRGGBB[,overprint][,cmyk=C/M/Y/K]" or tables as
-- canvas:ink takes; every canvas of the document has them).
-- Lengths are points or strings with units ("3mm").
function M.new(opts)
  opts = opts or {}
  if type(opts) ~= "table" then argerr("document", 1, "table expected, got " .. type(opts)) end
  local where = opts._where
  opts = (function() local t = {}; for k, v in pairs(opts) do if k ~= "_where" then t[k] = v end end; return t end)()
  check_keys(opts, DOC_KEYS, "document", 1)
  local self = setmetatable({ styles = {}, pages = {}, fonts = {}, stacks = {}, where = where,
    base_dir = opts.base_dir, meta = {}, inks = {} }, Document)
  local w, h = page_size(opts.size, opts.orientation, paper.size("A4"))
  if not w then argerr("document", 1, h) end
  self.width, self.height = w, h
  for _, k in ipairs({ "margin", "bleed", "slug" }) do
    local v, err = length(opts[k])
    if err then argerr("document", 1, ("field '%s': %s"):format(k, err)) end
    if v and v < 0 then argerr("document", 1, ("field '%s': must be >= 0"):format(k)) end
    self[k] = v
  end
  self.margin = self.margin or paper.parse_length("15mm")
  self.bleed = self.bleed or 0
  self.crop_marks = opts.crop_marks and true or false
  self.slug = self.slug or (self.crop_marks and paper.parse_length("8mm") or 0)
  if opts.background then
    local v, err = palette.color(opts.background)
    if not v then argerr("document", 1, "field 'background': " .. err) end
    self.background = v
  end
  if opts.seed ~= nil then
    local n = math.tointeger(tonumber(opts.seed))
    if not n then argerr("document", 1, ("field 'seed': an integer expected, got '%s'"):format(tostring(opts.seed))) end
    self.seed = n
  end
  for _, k in ipairs({ "title", "author", "subject", "keywords" }) do
    if opts[k] ~= nil and type(opts[k]) ~= "string" then
      argerr("document", 1, ("field '%s': string expected"):format(k))
    end
    self.meta[k] = opts[k]
  end
  local fps, dur, loop, terr = M.timing(opts.fps, opts.duration, opts.loop)
  if terr then argerr("document", 1, terr) end
  self.fps, self.duration, self.loop = fps, dur, loop
  if opts.inks ~= nil then
    if type(opts.inks) ~= "table" then
      argerr("document", 1, "field 'inks': a list of inks expected, got " .. type(opts.inks))
    end
    for k in pairs(opts.inks) do
      if math.type(k) ~= "integer" or k < 1 or k > #opts.inks then
        argerr("document", 1, "field 'inks': a list of inks expected (unexpected key " .. tostring(k) .. ")")
      end
    end
    for i, v in ipairs(opts.inks) do
      local ink, err = check_ink(v)
      if not ink then argerr("document", 1, ("field 'inks': [%d]: %s"):format(i, err)) end
      self.inks[#self.inks + 1] = ink
    end
  end
  return self
end

-- Opens a font by path or fontconfig name (cached); relative paths with a '/' are tried
-- from the document's directory first.
function Document:open_font(obj, spec)
  local f = self.fonts[spec]
  if f then return f end
  local path = spec
  if self.base_dir and not spec:match("^/") and spec:find("/") then
    local cand = self.base_dir .. "/" .. spec
    if ct.file_exists(cand) then path = cand end
  end
  local font, err = ct.shared_font(path)
  if not font then fail(obj, "font: " .. err) end
  self.fonts[spec] = font
  return font
end

-- A style's `font` value as a Font or a fallback chain: a Font, a name or path, "A; B"
-- (a chain), or a list of those.
function Document:font_value(obj, v)
  local function one(x)
    if type(x) == "userdata" or stack.is_stack(x) then return x end
    if type(x) == "string" then
      local t = {}
      for part in x:gmatch("[^;]+") do
        part = part:match("^%s*(.-)%s*$")
        if part ~= "" then t[#t + 1] = self.stacks[part] or self:open_font(obj, part) end
      end
      if #t == 0 then fail(obj, "font: empty font name") end
      return t
    end
    fail(obj, "font: expected a Font, a name or a path, got " .. type(x))
  end
  local list = (type(v) == "table" and not stack.is_stack(v)) and v or { v }
  local chain = {}
  for _, x in ipairs(list) do
    local r = one(x)
    if type(r) == "table" then for _, f in ipairs(r) do chain[#chain + 1] = f end
    else chain[#chain + 1] = r end
  end
  return #chain == 1 and chain[1] or chain
end

-- Checks the line-breaking fields of a style (`breaker`, `looseness`, `tolerance`), converting
-- the numbers of XML strings.
function Document:check_break(obj, s)
  if s.breaker ~= nil and s.breaker ~= "optimal" and s.breaker ~= "first-fit" then
    fail(obj, ("breaker: expected optimal, first-fit, got '%s'"):format(tostring(s.breaker)))
  end
  if s.looseness ~= nil then
    local v = math.tointeger(tonumber(s.looseness))
    if not v or v < -100 or v > 100 then
      fail(obj, ("looseness: expected an integer from -100 to 100, got '%s'"):format(tostring(s.looseness)))
    end
    s.looseness = v
  end
  if s.tolerance ~= nil then
    local v = tonumber(s.tolerance)
    if not v or not (v >= 0 and v <= 10000) then
      fail(obj, ("tolerance: expected a number from 0 to 10000, got '%s'"):format(tostring(s.tolerance)))
    end
    s.tolerance = v
  end
end

-- Checks style fields and converts them (lengths to points, fonts to Fonts).  `obj` is
-- where errors point.
function Document:style_fields(obj, t, allow_position)
  local s = {}
  for k, v in pairs(t) do s[k] = v end
  if s.width ~= nil then
    if s.font_width ~= nil then fail(obj, "width and font-width both given: they are the same") end
    s.font_width, s.width = s.width, nil
  end
  if s.font ~= nil then s.font = self:font_value(obj, s.font) end
  for _, k in ipairs(variable.PROPERTIES) do
    if s[k] ~= nil then
      local v, err = variable.check(k, s[k])
      if v == nil then fail(obj, ("%s: %s"):format(k == "font_width" and "width" or k:gsub("_", "-"), err)) end
      s[k] = v
    end
  end
  for _, k in ipairs({ "size", "tracking", "indent", "space_before", "space_after" }) do
    if s[k] ~= nil then
      local v, err = length(s[k])
      if not v then fail(obj, ("%s: %s"):format(k, err)) end
      if k == "size" and v <= 0 then fail(obj, "size: must be > 0") end
      s[k] = v
    end
  end
  if s.leading ~= nil then
    local pct = type(s.leading) == "string" and s.leading:match("^%s*([%d.]+)%%%s*$")
    if pct then
      s.leading_factor = tonumber(pct) and tonumber(pct) / 100
      if not s.leading_factor then fail(obj, "leading: bad percentage '" .. s.leading .. "'") end
      s.leading = nil
    else
      local v, err = length(s.leading)
      if not v then fail(obj, "leading: " .. err) end
      if v < 0 then fail(obj, "leading: must be >= 0") end
      s.leading = v
    end
  end
  if s.color ~= nil then
    local v, err = palette.color(s.color)
    if not v then fail(obj, "color: " .. err) end
    s.color = v
  end
  if s.overrides ~= nil then
    if type(s.overrides) == "string" then           -- "0=#ff0000, Accent=tomato"
      local t = {}
      for part in s.overrides:gmatch("[^,]+") do
        local k, v = part:match("^%s*([%w_%-]+)%s*=%s*(.-)%s*$")
        if not k then fail(obj, ("overrides: bad entry '%s' (want ENTRY=COLOR)"):format(part)) end
        local c, err = palette.color(v)
        if not c then fail(obj, "overrides: " .. err) end
        t[math.tointeger(tonumber(k)) or k] = c
      end
      s.overrides = t
    elseif type(s.overrides) ~= "table" then
      fail(obj, "overrides: a table or \"ENTRY=COLOR,...\" expected")
    end
  end
  if s.align ~= nil then
    local ok = { left = 1, right = 1, center = 1, justify = 1, start = 1, ["end"] = 1 }
    if not ok[s.align] then
      fail(obj, ("align: expected start, end, left, right, center, justify, got '%s'"):format(tostring(s.align)))
    end
  end
  self:check_break(obj, s)
  if s.direction ~= nil and s.direction ~= "ltr" and s.direction ~= "rtl" and s.direction ~= "auto" then
    fail(obj, ("direction: expected ltr, rtl, auto, got '%s'"):format(tostring(s.direction)))
  end
  if s.hyphenate ~= nil and type(s.hyphenate) ~= "boolean" then
    fail(obj, "hyphenate: expected a boolean")
  end
  if s.variations ~= nil then
    local v, err = motion.variations(s.variations)
    if not v then fail(obj, "variations: " .. err) end
    s.variations, s.variations_obj = v, {}
    for tag in pairs(v) do s.variations_obj[tag] = obj end
  end
  if s.animate ~= nil then
    if type(s.animate) ~= "table" then fail(obj, "animate: a list of animations expected") end
    local list = {}
    for i, a in ipairs(s.animate) do
      local checked, err = motion.check(a, allow_position and motion.FRAME or motion.TEXT)
      if not checked then
        local at = type(a) == "table" and a._where and { where = a._where } or obj
        fail(at, (at == obj and ("animate: [%d]: "):format(i) or "") .. err)
      end
      checked.obj = type(a) == "table" and a._where and { where = a._where } or obj
      list[#list + 1] = checked
    end
    s.animate = #list > 0 and list or nil
    if s.animate then self.animated = true end
  end
  return s
end

--- Sets the time (seconds) at which the document is laid out: animated fields take their
--- values at `t`.  `total` is the animation's length (for animations without `dur`).
function Document:set_time(t, total)
  self.time, self.total = t, total or self.duration or self:animations_end() or 0
  for _, st in pairs(self.styles) do st.resolved = nil end
  for _, pg in ipairs(self.pages) do
    for _, fr in ipairs(pg.frames) do
      fr.x, fr.y = fr.x0, fr.y0
      for _, a in ipairs(fr.moves or {}) do fr[a.attribute] = motion.at(a, self.time, self.total) end
    end
  end
end

-- Fields with their animations applied at the document's time (the fields themselves when
-- nothing moves).
function Document:at(fields)
  local list = fields.animate
  if not list then return fields end
  local r = {}
  for k, v in pairs(fields) do if k ~= "animate" then r[k] = v end end
  for _, a in ipairs(list) do
    local v = motion.at(a, self.time or 0, self.total or self.duration or 0)
    if a.kind == "palette" then
      if type(v) == "table" then r.palette, r.palette_mix = v[1], { v[1], v[2], v[3], anim = a }
      else r.palette, r.palette_mix = v, { v, v, 0, anim = a } end
    elseif a.kind == "variations" then
      local vars = {}
      for k, x in pairs(r.variations or {}) do vars[k] = x end
      local objs = {}
      for k, o in pairs(r.variations_obj or {}) do objs[k] = o end
      for k, x in pairs(v) do vars[k] = x; objs[k] = a.obj end
      r.variations, r.variations_obj = vars, objs
    else
      r[a.attribute] = v
    end
  end
  return r
end

-- The end of the document's last animation that has one (seconds), and the first
-- animation that runs to the document's end (which needs a duration).
function Document:animations_end()
  local last, open = nil, nil
  local function scan(list)
    for _, a in ipairs(list or {}) do
      local e = motion.ends(a)
      if e then last = math.max(last or 0, e) else open = open or a end
    end
  end
  for _, st in pairs(self.styles) do scan(st.fields.animate) end
  for _, pg in ipairs(self.pages) do
    for _, fr in ipairs(pg.frames) do
      scan(fr.fields.animate); scan(fr.moves)
      for _, p in ipairs(fr.paras) do
        scan(p.fields.animate)
        for _, r in ipairs(p.runs) do for _, l in ipairs(r.layers) do scan(l.fields.animate) end end
      end
    end
  end
  return last, open
end

-- Tags of the axes that the style properties move, for the warnings.
local PROPERTY_AXES = { weight = "wght", font_width = "wdth", slant = "slnt", italic = "ital", optical_size = "opsz" }

-- The font `font` (a Font, a chain or a stack) of a run with the resolved style `s`, at
-- `size` points: an instance (chromatype.variable, shared across the document and with
-- chromatype.layout) at the location its `variations` and its properties (weight, width,
-- slant, italic, optical size) give.  Variations reach every run below the element that
-- sets them, whatever its font; an axis that no font they reach has is an error at that
-- element (`s.variations_obj`: tag -> element), raised by check_axes once the document is
-- laid out.  A property whose axis no font of the run has is a warning (once per font):
-- the font's own design stands.
function Document:vary(s, font, size, obj)
  local vars = s.variations or {}
  local ok, inst, took = pcall(variable.instance, font, variable.soft_axes(s, size), vars,
    variable.faces(s))
  if not ok then
    fail(next(vars) and s.variations_obj[next(vars)] or obj, "variations: " .. tostring(inst))
  end
  self.axes_seen = self.axes_seen or {}
  local first = stack.is_stack(font) and font.lead or (type(font) == "table" and font[1]) or font
  if stack.is_stack(first) then first = first.lead end
  for tag in pairs(vars) do
    local o = s.variations_obj[tag]
    local seen = self.axes_seen[o]
    if not seen then seen = { fonts = {} }; self.axes_seen[o] = seen end
    seen[tag] = seen[tag] or took[tag] or false
    seen.fonts[first] = true
  end
  for _, k in ipairs(variable.PROPERTIES) do
    local tag = PROPERTY_AXES[k]
    if s[k] ~= nil and type(s[k]) ~= "string" and not took[tag] and vars[tag] == nil then
      self.axis_warned = self.axis_warned or {}
      local name = first:info().path:match("[^/]*$")
      local key = name .. "\0" .. k
      if not self.axis_warned[key] then
        self.axis_warned[key] = true
        layout.warn(("%s%s: %s has no '%s' axis, nor fontconfig a face of its family for it: its own design is used"):format(obj.where or "",
          k == "font_width" and "width" or k:gsub("_", "-"), name, tag))
      end
    end
  end
  return inst
end

-- Raises at the element whose variations name an axis none of the fonts they reach has.
function Document:check_axes()
  for o, seen in pairs(self.axes_seen or {}) do
    for tag, found in pairs(seen) do
      if tag ~= "fonts" and not found then
        local names = {}
        for f in pairs(seen.fonts) do
          local have = {}
          for _, a in ipairs(f:axes()) do have[#have + 1] = a.tag end
          names[#names + 1] = ("%s (%s)"):format(f:info().path:match("[^/]*$"),
            #have > 0 and "axes " .. table.concat(have, ", ") or "no axes")
        end
        table.sort(names)
        fail(o, ("variations: no font here has the axis '%s': %s"):format(tag, table.concat(names, "; ")))
      end
    end
  end
end

-- The palette and overrides of a run whose palette moves (`mix` = {from, to, fraction,
-- anim =}): two palettes mixed entry by entry in OKLab; the run's own overrides on top.
-- Every palette the animation names must be one of the font's (a font without palettes,
-- inheriting the motion, is left alone).
function Document:blend(font, mix, overrides)
  local f = stack.is_stack(font) and font.lead or (type(font) == "table" and font[1]) or font
  local a = mix.anim
  if f:palette_count() == 0 then return nil, overrides end   -- no colors to move
  for _, v in ipairs(a.values) do
    local ok, idx = pcall(f.find_palette, f, v)
    if not ok or not idx then
      local n = f:palette_count()
      fail(a.obj, ("palette: %s has no palette '%s' (%s)"):format(f:info().path, tostring(v),
        n > 0 and ("it has %d: 0..%d"):format(n, n - 1) or "it has no palettes"))
    end
  end
  if mix[3] <= 0 or mix[1] == mix[2] then return mix[1], overrides end
  local ov = palette.mix(f, mix[1], mix[2], mix[3], "oklab")
  for k, v in pairs(overrides or {}) do ov[k] = v end
  return mix[1], ov
end

local function merge(base, over)
  local r = {}
  for k, v in pairs(base) do r[k] = v end
  for k, v in pairs(over) do r[k] = v end
  if over.size and not over.leading and not over.leading_factor and base.leading_factor == nil then
    r.leading = nil            -- a new size without a leading: 1.2 × the new size
  end
  if over.leading_factor then r.leading = nil end
  if over.leading then r.leading_factor = nil end
  if over.palette ~= nil and over.palette_mix == nil then r.palette_mix = nil end
  if base.variations and over.variations then     -- axis by axis
    local v = {}
    for k, x in pairs(base.variations) do v[k] = x end
    for k, x in pairs(over.variations) do v[k] = x end
    r.variations = v
    local o = {}
    for k, x in pairs(base.variations_obj or {}) do o[k] = x end
    for k, x in pairs(over.variations_obj or {}) do o[k] = x end
    r.variations_obj = o
  end
  return r
end

--- Defines a named layered font stack (see chromatype.stack), usable as a font name in
--- styles (`font = "wood"`, or in a chain `"wood; Noto Color Emoji"`).  `layers` is a Stack
--- or the table ct.stack takes; layer fonts may be paths (relative to `base_dir`) or names.
function Document:stack(name, layers)
  if type(name) ~= "string" or name == "" then argerr("stack", 1, "a stack name expected") end
  if stack.is_stack(layers) then self.stacks[name] = layers; return self end
  if type(layers) ~= "table" then argerr("stack", 2, "a Stack or a table of layers expected") end
  local where = layers._where
  local t = {}
  for k, v in pairs(layers) do if k ~= "_where" then t[k] = v end end
  local obj = { where = where, what = ("stack '%s'"):format(name) }
  for i, l in ipairs(t) do
    if type(l) == "table" and type(l.font) == "string" then
      local nl = {}
      for k, v in pairs(l) do nl[k] = v end
      nl.font = self:open_font(l._where and { where = l._where } or obj, l.font)
      nl._where = nil
      t[i] = nl
    end
  end
  local ok, s = pcall(stack.new, t)
  if not ok then fail(obj, (tostring(s):gsub("^bad argument #%d+ to 'stack' %((.*)%)$", "%1"))) end
  self.stacks[name] = s
  return self
end

--- Defines (or redefines) a named style.  Fields: `parent` (a style name), `font` (a Font,
--- a name or path, "A; B" or a list: a fallback chain), `size`, `leading` (a length or
--- "120%"), `color`, `palette`, `overrides`, `align`, `tracking`, `features`, `language`,
--- `direction`, `hyphenate`, `indent`, `format`.  The style named "default" is the base of
--- every frame.
function Document:style(name, fields)
  if type(name) ~= "string" or name == "" then argerr("style", 1, "a style name expected") end
  fields = fields or {}
  if type(fields) ~= "table" then argerr("style", 2, "table expected, got " .. type(fields)) end
  local where = fields._where
  fields._where = nil
  check_keys(fields, STYLE_ALLOWED, "style", 2)
  local obj = { where = where, what = ("style '%s'"):format(name) }
  local parent = fields.parent
  local f = {}
  for k, v in pairs(fields) do if k ~= "parent" then f[k] = v end end
  self.styles[name] = { obj = obj, parent = parent, fields = self:style_fields(obj, f) }
  return self
end

-- The resolved fields of the style named `name` (parents first).
function Document:resolve(obj, name, seen)
  local st = self.styles[name]
  if not st then
    local names = sorted_keys(self.styles)
    fail(obj, ("unknown style '%s'%s"):format(name,
      names ~= "" and " (defined: " .. names .. ")" or " (no styles defined)"))
  end
  if st.resolved then return st.resolved end
  seen = seen or {}
  if seen[name] then fail(st.obj, ("style '%s' inherits from itself"):format(name)) end
  seen[name] = true
  local base = {}
  if st.parent then base = self:resolve(st.obj, st.parent, seen) end
  st.resolved = merge(base, self:at(st.fields))
  return st.resolved
end

-- A page or frame written to a stream already takes nothing more.
local function check_open(obj, what)
  if obj.written then
    fail(obj, ("%s: this page was written to %s already (a stream writes a page when the next begins)")
      :format(what, obj.written))
  end
end

--- Adds a page.  Options: `size`, `orientation` (the document's by default), `background`,
--- `margin`.
function Document:page(opts)
  opts = opts or {}
  if type(opts) ~= "table" then argerr("page", 1, "table expected, got " .. type(opts)) end
  local where = opts._where
  opts._where = nil
  check_keys(opts, PAGE_KEYS, "page", 1)
  if self.streamed and not self.streaming then
    fail(self, ("was written to %s page by page (doc:finish): no more pages"):format(self.streamed))
  end
  -- a stream writes the page before this one now
  if self.streaming then
    local before = self.pages
    self.pages = {}
    for _, pg in ipairs(before) do self:stream_page(pg) end
  end
  self.page_count = (self.page_count or 0) + 1
  local obj = { where = where, what = ("page %d"):format(self.page_count) }
  local w, h = page_size(opts.size, opts.orientation, self.width, self.height)
  if not w then if where then fail(obj, h) end argerr("page", 1, h) end
  if opts.background then
    local v, err = palette.color(opts.background)
    if not v then fail(obj, "background: " .. err) end
    opts.background = v
  end
  local margin = self.margin
  if opts.margin ~= nil then
    local err
    margin, err = length(opts.margin)
    if not margin then fail(obj, "margin: " .. err) end
  end
  local page = setmetatable({ doc = self, width = w, height = h, background = opts.background,
    margin = margin, frames = {}, images = {}, rules = {}, where = where, what = obj.what }, Page)
  self.pages[#self.pages + 1] = page
  return page
end

-- The box and columns of a frame: `background`, `border`, `padding`, `columns`,
-- `column_gap`, `column_fill`, `column_rule` (chromatype.frames reads the values).
local function frame_box(fr, opts)
  local function get(k, check)
    if opts[k] == nil then return nil end
    local v, err = check(opts[k])
    if v == nil then fail(fr, ("%s: %s"):format(fr.where and k:gsub("_", "-") or k, err)) end
    return v
  end
  fr.box = { background = get("background", frames.color), border = get("border", frames.stroke),
    padding = get("padding", frames.padding) }
  fr.columns = get("columns", frames.columns) or 1
  fr.column_gap = get("column_gap", frames.gap)
  fr.column_fill = get("column_fill", frames.fill) or "auto"
  fr.column_rule = get("column_rule", frames.stroke)
  if not frames.inner(fr.x, fr.y, fr.width, fr.height, fr.box) then
    fail(fr, ("padding, border: no width is left for the text (the frame is %g pt wide)"):format(fr.width))
  end
  if fr.columns > 1 and fr.fit.fit ~= nil then
    fail(fr, "fit: fitting works in one column (this frame has columns)")
  end
end

--- Adds a frame to the page.  Options: `x`, `y` (the margin), `width`, `height` (to the
--- opposite margin), `valign`, `style`, any style field, `follows` (a Frame whose overflow
--- this frame takes), `overflow` ("warn", "hide" or "continue": more pages with this frame
--- until the text is set), and the fitting options `fit`, `fit_to`, `fit_tracking`,
--- `fit_width`, `fit_features`, `fit_size` (see chromatype.layout).
function Page:frame(opts)
  check_open(self, "frame")
  opts = opts or {}
  if type(opts) ~= "table" then argerr("frame", 1, "table expected, got " .. type(opts)) end
  local where = opts._where
  opts._where = nil
  check_keys(opts, FRAME_KEYS, "frame", 1)
  local fr = setmetatable({ page = self, paras = {}, where = where,
    what = ("%s, frame %d"):format(self.what, #self.frames + 1) }, Frame)
  local m = self.margin
  local function len(k, default, min)
    local v, err = length(opts[k])
    if err then fail(fr, k .. ": " .. err) end
    if v and min and v < min then fail(fr, ("%s: must be at least %g pt"):format(k, min)) end
    return v or default
  end
  fr.x = len("x", m)
  fr.y = len("y", m)
  fr.width = len("width", self.width - fr.x - m, 0.01)
  fr.height = len("height", self.height - fr.y - m, 0)
  if fr.width <= 0 then fail(fr, "width: the frame has no room (check x, width and the margin)") end
  if fr.height < 0 then fr.height = 0 end
  if opts.valign ~= nil and opts.valign ~= "top" and opts.valign ~= "middle" and opts.valign ~= "bottom" then
    fail(fr, ("valign: expected top, middle, bottom, got '%s'"):format(tostring(opts.valign)))
  end
  fr.valign = opts.valign
  if opts.overflow ~= nil and opts.overflow ~= "warn" and opts.overflow ~= "hide" and opts.overflow ~= "continue" then
    fail(fr, ("overflow: expected warn, hide, continue, got '%s'"):format(tostring(opts.overflow)))
  end
  fr.overflow_mode = opts.overflow or "warn"
  if opts.follows ~= nil then
    if getmetatable(opts.follows) ~= Frame then fail(fr, "follows: a Frame expected") end
    if opts.follows.followed_by then fail(fr, "follows: that frame is already followed by another") end
    opts.follows.followed_by = fr
    fr.follows = opts.follows
  end
  fr.style_name = opts.style
  local st = {}
  for _, k in ipairs(STYLE_KEYS) do st[k] = opts[k] end
  fr.fields = self.doc:style_fields(fr, st, true)
  fr.x0, fr.y0 = fr.x, fr.y
  if fr.fields.animate then        -- x and y move the frame; the rest is its style's
    local rest = {}
    for _, a in ipairs(fr.fields.animate) do
      if a.attribute == "x" or a.attribute == "y" then
        fr.moves = fr.moves or {}
        fr.moves[#fr.moves + 1] = a
      else
        rest[#rest + 1] = a
      end
    end
    fr.fields.animate = #rest > 0 and rest or nil
  end
  fr.fit = {}
  for _, k in ipairs(FIT_KEYS) do fr.fit[k] = opts[k] end
  frame_box(fr, opts)
  fr.order = #self.frames + #self.rules + 1        -- the place among frames and rules
  self.frames[#self.frames + 1] = fr
  return fr
end

--- Adds a rule to the page: a horizontal (or vertical) line from (`x`, `y`) (the margin),
--- `length` long (to the opposite margin), `stroke` wide (0.5 pt, centered on the line),
--- in `color` (black; "registration" prints on every plate).
function Page:rule(opts)
  check_open(self, "rule")
  opts = opts or {}
  if type(opts) ~= "table" then argerr("rule", 1, "table expected, got " .. type(opts)) end
  local where = opts._where
  opts._where = nil
  check_keys(opts, PAGE_RULE_KEYS, "rule", 1)
  local r = { where = where, what = ("%s, rule %d"):format(self.what, #self.rules + 1) }
  local dir = opts.direction or "horizontal"
  if dir ~= "horizontal" and dir ~= "vertical" then
    fail(r, ("direction: expected horizontal, vertical, got '%s'"):format(tostring(dir)))
  end
  local function len(k, default)
    local v, err = length(opts[k])
    if err then fail(r, k .. ": " .. err) end
    return v or default
  end
  local m = self.margin
  local x, y = len("x", m), len("y", m)
  local l = len("length", dir == "horizontal" and self.width - x - m or self.height - y - m)
  if l <= 0 then fail(r, ("length: must be more than 0 pt, got %g pt (check x, y and the margin)"):format(l)) end
  local st = len("stroke", frames.DEFAULT_STROKE)
  if st <= 0 then fail(r, ("stroke: must be more than 0 pt, got '%s'"):format(tostring(opts.stroke))) end
  local color = "#000000ff"
  if opts.color ~= nil then
    local err
    color, err = frames.color(opts.color)
    if not color then fail(r, "color: " .. err) end
  end
  if dir == "horizontal" then r.x, r.y, r.w, r.h = x, y - st / 2, l, st
  else r.x, r.y, r.w, r.h = x - st / 2, y, st, l end
  r.color, r.order = color, #self.frames + #self.rules + 1
  self.rules[#self.rules + 1] = r
  return self
end

--- Adds an image to the page: `{path, x =, y =, width =, height =, fit =}` (see
--- canvas:image; lengths may have units).
function Page:image(opts)
  check_open(self, "image")
  if type(opts) ~= "table" then argerr("image", 1, "table expected, got " .. type(opts)) end
  local where = opts._where
  opts._where = nil
  check_keys(opts, set_of({ 1, "x", "y", "width", "height", "fit" }), "image", 1)
  local im = { where = where, what = ("%s, image %d"):format(self.what, #self.images + 1), fit = opts.fit }
  if type(opts[1]) ~= "string" then fail(im, "a file name expected") end
  im.path = opts[1]
  if self.doc.base_dir and not im.path:match("^/") then
    local cand = self.doc.base_dir .. "/" .. im.path
    if ct.file_exists(cand) then im.path = cand end
  end
  for _, k in ipairs({ "x", "y", "width", "height" }) do
    local v, err = length(opts[k])
    if err then fail(im, k .. ": " .. err) end
    im[k] = v
  end
  im.x, im.y = im.x or self.margin, im.y or self.margin
  self.images[#self.images + 1] = im
  return self
end

-- A run {text =, style =, ...fields} or a string, checked.
local function check_run(fr, r, i)
  if type(r) == "string" then return { text = r, layers = {} } end
  if type(r) ~= "table" then argerr("paragraph", 1, ("run %d: string or table expected"):format(i)) end
  local where = r._where
  local t = {}
  for k, v in pairs(r) do if k ~= "_where" and k ~= "_layers" then t[k] = v end end
  check_keys(t, RUN_KEYS, "paragraph", 1)
  if type(t.text) ~= "string" then argerr("paragraph", 1, ("run %d: field 'text': string expected"):format(i)) end
  local obj = { where = where, what = fr.what }
  local text = t.text
  t.text = nil
  local name = t.style
  t.style = nil
  local layers = {}
  for _, l in ipairs(r._layers or {}) do layers[#layers + 1] = l end
  layers[#layers + 1] = { style = name, fields = fr.page.doc:style_fields(obj, t), obj = obj }
  return { text = text, layers = layers, obj = obj }
end

--- Adds a paragraph: a list of runs, each a string or `{text =, style =, ...style
--- fields}`; `fields` gives the paragraph's `style`, `align`, `indent` and other style fields.
function Frame:paragraph(runs, fields)
  check_open(self, "paragraph")
  if self.follows then fail(self, "a frame that follows another takes no text of its own") end
  if type(runs) ~= "table" then argerr("paragraph", 1, "list of runs expected, got " .. type(runs)) end
  fields = fields or {}
  if type(fields) ~= "table" then argerr("paragraph", 2, "table expected, got " .. type(fields)) end
  local where = fields._where
  local f = {}
  for k, v in pairs(fields) do if k ~= "_where" then f[k] = v end end
  check_keys(f, TEXT_KEYS, "paragraph", 2)
  local obj = { where = where, what = self.what }
  local name = f.style
  f.style = nil
  local p = { style = name, fields = self.page.doc:style_fields(obj, f), runs = {}, obj = obj }
  for i, r in ipairs(runs) do p.runs[#p.runs + 1] = check_run(self, r, i) end
  self.paras[#self.paras + 1] = p
  return self
end

--- Adds a rule between the paragraph before it and the one after it: a horizontal line of
--- `stroke` width (0.5 pt) in `color` (black), `length` long (a length or a percentage of
--- the column, "100%"), aligned `left`, `center` (the default) or `right` in the column,
--- with `space` (6 pt) above and below it.  A rule at the top of a column is not drawn.
function Frame:rule(opts)
  check_open(self, "rule")
  if self.follows then fail(self, "a frame that follows another takes no rules of its own") end
  opts = opts or {}
  if type(opts) ~= "table" then argerr("rule", 1, "table expected, got " .. type(opts)) end
  local where = opts._where
  local t = {}
  for k, v in pairs(opts) do if k ~= "_where" then t[k] = v end end
  check_keys(t, FRAME_RULE_KEYS, "rule", 1)
  local obj = { where = where, what = self.what }
  local r, err = frames.paragraph_rule(t)
  if not r then fail(obj, err) end
  self.paras[#self.paras + 1] = { rule = r, obj = obj, fields = {}, runs = {} }
  return self
end

--- Adds text: "\n" starts a paragraph, U+2028 breaks a line.  `fields` as in `paragraph`.
--- `frame:text{"text", style = ..., ...}` is the same as `frame:text("text", {style = ...})`.
function Frame:text(text, fields)
  if type(text) == "table" and fields == nil then
    local t = text
    text, fields = t[1], {}
    for k, v in pairs(t) do if k ~= 1 then fields[k] = v end end
  end
  if type(text) ~= "string" then argerr("text", 1, "string expected, got " .. type(text)) end
  if not utf8.len(text) then argerr("text", 1, "text is not valid UTF-8") end
  for piece in (text:gsub("\r\n", "\n") .. "\n"):gmatch("(.-)\n") do
    self:paragraph(piece ~= "" and { piece } or {}, fields)
  end
  return self
end

-- ---- rendering ---------------------------------------------------------------------------

-- The layout paragraphs of a frame: runs with every style resolved.
function Document:layout_paras(fr)
  local base = self.styles.default and self:resolve(fr, "default") or {}
  local fstyle = base
  if fr.style_name then fstyle = merge(fstyle, self:resolve(fr, fr.style_name)) end
  fstyle = merge(fstyle, self:at(fr.fields))
  -- a rule goes before the next paragraph: its room is that paragraph's space before
  local texts, before, rules = {}, {}, nil
  for _, p in ipairs(fr.paras) do
    if p.rule then
      if #texts == 0 then fail(p.obj, "a rule in a frame goes between two paragraphs") end
      rules = rules or { obj = p.obj }
      rules[#rules + 1] = p.rule
    else
      texts[#texts + 1] = p
      before[p], rules = rules, nil
    end
  end
  if rules then fail(rules.obj, "a rule in a frame goes between two paragraphs") end
  self.rule_before = self.rule_before or setmetatable({}, { __mode = "k" })
  local out = {}
  for _, p in ipairs(texts) do
    local ps = fstyle
    if p.style then ps = merge(ps, self:resolve(p.obj, p.style)) end
    ps = merge(ps, self:at(p.fields))
    local para = { align = ps.align, first_line_indent = ps.indent, space_before = ps.space_before,
      space_after = ps.space_after }
    for _, k in ipairs(BREAK_KEYS) do para[k] = ps[k] end
    for _, r in ipairs(p.runs) do
      local s = ps
      for _, l in ipairs(r.layers) do
        if l.style then s = merge(s, self:resolve(l.obj, l.style)) end
        s = merge(s, self:at(l.fields))
      end
      if not s.font then
        fail(r.obj.where and r.obj or p.obj, "no font (give font= here, or in a style it uses)")
      end
      local size = s.size or 12
      local font, pal, ov = s.font, s.palette, s.overrides
      font = self:vary(s, font, size, (r.obj and r.obj.where) and r.obj or p.obj or {})
      if s.palette_mix then pal, ov = self:blend(font, s.palette_mix, ov) end
      para[#para + 1] = { text = r.text, font = font, size = size,
        leading = s.leading or (s.leading_factor and s.leading_factor * size) or nil,
        tracking = s.tracking, color = s.color, palette = pal, overrides = ov,
        features = s.features, language = s.language, direction = s.direction,
        hyphenate = s.hyphenate, format = s.format,
        -- the layout sets opsz again where fitting changes the size; variations' opsz stands
        optical_size = (s.variations and s.variations.opsz) and "none" or s.optical_size }
    end
    if before[p] then
      for _, r in ipairs(before[p]) do para.space_before = (para.space_before or 0) + r.room end
      self.rule_before[para] = before[p]
    end
    out[#out + 1] = para
  end
  return out, fstyle
end

-- Lays out paragraphs in a frame's text box (inside its border and padding), in its
-- columns; returns the lines, the overflow paragraphs and the rectangles drawn under the
-- text (background, border, column rules, rules between paragraphs).
function Document:set_frame(fr, paras, fstyle, ox, oy)
  local x, y, w, h = frames.inner(ox + fr.x, oy + fr.y, fr.width, fr.height, fr.box)
  local opts = { width = w, height = h, x = x, y = y, valign = fr.valign,
    font = fstyle.font, size = fstyle.size }
  for k, v in pairs(fr.fit) do opts[k] = v end
  if opts.fit_width ~= nil then opts.fit_width = tonumber(opts.fit_width) end
  local cols = { n = fr.columns, gap = fr.column_gap or fstyle.size or 12, fill = fr.column_fill,
    rule = fr.column_rule }
  local decor = frames.box_rects({}, ox + fr.x, oy + fr.y, fr.width, fr.height, fr.box)
  local ok, lines, over, fit, rects = pcall(frames.flow, paras, opts, cols, self.rule_before or {})
  if not ok then fail(fr, (tostring(lines):gsub("^bad argument #%d+ to 'frame' %((.*)%)$", "%1"))) end
  for _, r in ipairs(rects) do decor[#decor + 1] = r end
  if fit and not fit.fits then
    layout.warn(("%sthe text does not fit even after %s"):format(fr.where or (fr.what .. ": "),
      (fr.fit.fit and (type(fr.fit.fit) == "table" and table.concat(fr.fit.fit, ", ") or fr.fit.fit)) or "fitting"))
  end
  fr.fit_result = fit
  return lines, over, decor
end

local function count_chars(paras)
  local n = 0
  for _, p in ipairs(paras) do for _, r in ipairs(p) do n = n + utf8.len(r.text) end end
  return n
end

-- Crop marks and registration marks in the slug (outside the bleed), in registration color:
-- on every plate.
local function print_marks(c, off, bleed, slug, tw, th)
  local REG = "registration"
  if slug <= 0 then return end
  local t = 0.25
  local gap = math.min(3, slug / 4)                 -- from the bleed edge to a mark
  local len = math.min(slug - gap, 18)
  local x0, y0, x1, y1 = off, off, off + tw, off + th
  local out = bleed + gap                            -- distance of a mark from the trim
  for _, cx in ipairs({ x0, x1 }) do
    for _, cy in ipairs({ y0, y1 }) do
      local hx = cx == x0 and (x0 - out - len) or (x1 + out)
      local vy = cy == y0 and (y0 - out - len) or (y1 + out)
      c:rect { x = hx, y = cy - t / 2, w = len, h = t, color = REG }
      c:rect { x = cx - t / 2, y = vy, w = t, h = len, color = REG }
    end
  end
  -- registration marks: a cross in a square ring, centered on each side in the slug
  local r = math.min(6, (slug - gap) / 2 - 1)
  if r < 2 then return end
  local d = bleed + gap + (slug - gap) / 2
  local centers = { { (x0 + x1) / 2, y0 - d }, { (x0 + x1) / 2, y1 + d }, { x0 - d, (y0 + y1) / 2 },
    { x1 + d, (y0 + y1) / 2 } }
  for _, ctr in ipairs(centers) do
    local mx, my = ctr[1], ctr[2]
    c:rect { x = mx - r, y = my - t / 2, w = 2 * r, h = t, color = REG }
    c:rect { x = mx - t / 2, y = my - r, w = t, h = 2 * r, color = REG }
    local q = r * 0.6
    c:rect { x = mx - q, y = my - q, w = 2 * q, h = t, color = REG }
    c:rect { x = mx - q, y = my + q - t, w = 2 * q, h = t, color = REG }
    c:rect { x = mx - q, y = my - q, w = t, h = 2 * q, color = REG }
    c:rect { x = mx + q - t, y = my - q, w = t, h = 2 * q, color = REG }
  end
end

-- Calls c:write, c:stream, c:finish or c:new_page (which writes the streamed pages before
-- it, and a chunk of them): what the core refuses (a color no ink prints under inks_only,
-- plates without inks, a write error) comes out as its one-line message, which names the
-- file, without this module's position.
local function output(c, method, ...)
  local r = table.pack(pcall(c[method], c, ...))
  if r[1] then return table.unpack(r, 2, r.n) end
  error((tostring(r[2]):gsub("^[^\n]-document%.lua:%d+: ", "")), 0)
end

-- Starts page `pg` on the canvas (creating it for the first page; `fresh`: the canvas is
-- new, its first page is this one).
function Document:begin_page(c, pg, fresh)
  local off = self.bleed + self.slug
  local w, h = pg.width + 2 * off, pg.height + 2 * off
  if fresh then
    -- an animation frame's canvas: drawn and rasterized, never printed (no inks)
  elseif not c then
    c = ct.canvas { width = w, height = h }
    for _, ink in ipairs(self.inks or {}) do c:ink(ink) end
  else
    output(c, "new_page", { width = w, height = h })
  end
  local bg = pg.background or self.background
  if bg then
    if self.slug > 0 then
      c:rect { x = self.slug, y = self.slug, w = pg.width + 2 * self.bleed, h = pg.height + 2 * self.bleed,
        color = bg }
    else
      c:background(bg)
    end
  end
  return c, off
end

function Document:end_page(c, pg, off)
  if self.bleed > 0 or self.slug > 0 then
    -- the PDF's TrimBox and BleedBox (the MediaBox is the whole sheet)
    c:page_boxes { trim = { off, off, pg.width, pg.height },
      bleed = { self.slug, self.slug, pg.width + 2 * self.bleed, pg.height + 2 * self.bleed } }
  end
  if self.crop_marks then print_marks(c, off, self.bleed, self.slug, pg.width, pg.height) end
end

-- A sheet: one page to draw, with its frames' lines.
local function new_sheet(self, pg)
  local off = self.bleed + self.slug
  return { page = pg, off = off, width = pg.width + 2 * off, height = pg.height + 2 * off, frames = {} }
end

-- A typesetting pass: `ts.page(pg)` sets a page (and the continuation pages its overflow
-- makes) into sheets, `ts.finish()` ends the pass and returns the sheets and the report.
-- With on_sheet, each sheet is handed over when the next begins (and the last at the end)
-- instead of being kept: a long document is written page by page.  Frames that follow
-- frames of earlier pages take their overflow across pages.
function Document:typesetter(on_sheet)
  local sheets = {}
  local held, count = nil, 0
  local function add(sheet)
    count = count + 1
    if not on_sheet then sheets[#sheets + 1] = sheet; return end
    if held then on_sheet(held, count - 1) end
    held = sheet
  end
  local report = { overflows = {}, pages = 0 }
  local pending = {}         -- frame -> overflow paragraphs for the frame that follows it
  -- streaming, a frame that a frame of a later page may still follow keeps its overflow
  -- (and its warning) until that frame comes or the document ends
  local later, later_order = {}, {}
  local function place(sheet, fr, paras, fstyle)
    local lines, over, decor = self:set_frame(fr, paras, fstyle, sheet.off, sheet.off)
    sheet.frames[#sheet.frames + 1] = { frame = fr, lines = lines, x = sheet.off + fr.x, y = sheet.off + fr.y,
      width = fr.width, height = fr.height, decor = decor }
    return over
  end
  local ts = {}
  function ts.page(pg)
    local sheet = new_sheet(self, pg)
    add(sheet)
    local continued = {}
    for _, fr in ipairs(pg.frames) do
      local paras, fstyle = self:layout_paras(fr)
      if fr.follows then
        local prev = fr.follows
        if not prev.done then fail(fr, "follows: the frame it follows must come before it") end
        paras = pending[prev] or later[prev] or {}
        pending[prev], later[prev] = nil, nil
        fstyle = prev.fstyle
      end
      fr.fstyle = fstyle
      local over = place(sheet, fr, paras, fstyle)
      fr.done = true
      if over then
        local head = fr
        while head.follows do head = head.follows end
        if fr.followed_by then pending[fr] = over
        elseif head.overflow_mode == "continue" or fr.overflow_mode == "continue" then
          continued[#continued + 1] = { frame = fr, paras = over }
        elseif self.streaming then
          later[fr] = over
          later_order[#later_order + 1] = fr
        else
          report.overflows[#report.overflows + 1] = { frame = fr, characters = count_chars(over) }
          if fr.overflow_mode ~= "hide" then
            layout.warn(("%sthe text overflows (%d characters not drawn)")
              :format(fr.where or (fr.what .. ": "), count_chars(over)))
          end
        end
      end
    end
    -- overflow that continues: more pages like this one, with only those frames
    local extra = 0
    while #continued > 0 do
      extra = extra + 1
      if extra > MAX_OVERFLOW_PAGES then
        fail(continued[1].frame, ("the text needs more than %d continuation pages"):format(MAX_OVERFLOW_PAGES))
      end
      sheet = new_sheet(self, pg)
      sheet.continuation = true
      add(sheet)
      local again = {}
      for _, cont in ipairs(continued) do
        local before = count_chars(cont.paras)
        local over = place(sheet, cont.frame, cont.paras, cont.frame.fstyle)
        if over then
          if count_chars(over) >= before then
            fail(cont.frame, "the text does not fit an empty frame (it is too small for one line)")
          end
          again[#again + 1] = { frame = cont.frame, paras = over }
        end
      end
      continued = again
    end
  end
  function ts.finish()
    for _, fr in ipairs(later_order) do
      local over = later[fr]
      if over then
        report.overflows[#report.overflows + 1] = { frame = fr, characters = count_chars(over) }
        if fr.overflow_mode ~= "hide" then
          layout.warn(("%sthe text overflows (%d characters not drawn)")
            :format(fr.where or (fr.what .. ": "), count_chars(over)))
        end
      end
    end
    for fr, over in pairs(pending) do
      local n = count_chars(over)
      report.overflows[#report.overflows + 1] = { frame = fr.followed_by, characters = n }
      layout.warn(("%sthe frame that follows this one never comes (%d characters not drawn)")
        :format(fr.where or (fr.what .. ": "), n))
    end
    self:check_axes()
    if on_sheet and held then on_sheet(held, count) end
    held = nil
    report.pages = count
    return sheets, report
  end
  return ts
end

--- Lays out every page (kept, or handed to on_sheet one by one): the sheets to draw (continuation pages included) and a report.
-- @treturn table sheets `{{page =, off =, width =, height =, frames = {{frame =, lines =, x =, y =,
--   width =, height =}, ...}}, ...}` (points, on the sheet)
-- @treturn table the report: `overflows` = {{frame =, characters =}, ...}, `pages` = count
function Document:typeset(on_sheet)
  if self.streaming then fail(self, ("is being written to %s page by page (finish it first)"):format(self.streaming.path)) end
  if #self.pages == 0 then fail(self, self.streamed and ("was written to %s page by page: its pages are gone")
    :format(self.streamed) or "has no pages") end
  if self.time == nil then self:set_time(0) end
  self.axes_seen = nil
  for _, fr0 in ipairs(self.pages) do for _, fr in ipairs(fr0.frames) do fr.done = nil end end
  local ts = self:typesetter(on_sheet)
  for _, pg in ipairs(self.pages) do ts.page(pg) end
  return ts.finish()
end

--- Adds a filter (a table of functions, a chromatype.filter, or a file name as for `-f`)
--- with options; filters run in the order added, after any given to `render`.
function Document:filter(f, options)
  local filter = require "chromatype.filter"
  local flt
  if type(f) == "string" then
    local err
    flt, err = filter.load(f, options)
    if not flt then error(err, 2) end
  elseif type(f) == "table" and f.funcs then
    flt = f
  elseif type(f) == "table" then
    flt = filter.new(f, options)
  else
    argerr("filter", 1, "a filter table or file name expected, got " .. type(f))
  end
  self.filters = self.filters or {}
  self.filters[#self.filters + 1] = flt
  return self
end

-- Draws the lines of sheet frames (or filtered frame elements); `fresh` as in begin_page.
function Document:draw_sheet(c, sheet, frames, filtered, fresh)
  local pg = sheet.page
  local off
  c, off = self:begin_page(c, pg, fresh)
  for _, im in ipairs(sheet.continuation and {} or pg.images) do
    if not c.image then fail(im, "images need canvas:image, which this build lacks") end
    ct.note_input(im.path)
    local ok, err = pcall(c.image, c, { im.path, x = off + im.x, y = off + im.y, w = im.width,
      h = im.height, fit = im.fit })
    if not ok then fail(im, (tostring(err):gsub("^bad argument #%d+ to '%w+' %((.*)%)$", "%1"))) end
  end
  -- the page's rules in their place among the frames: each before the frames that follow it
  local rules, next_rule = sheet.continuation and {} or pg.rules, 1
  local function rules_until(order)
    while rules[next_rule] and rules[next_rule].order <= order do
      local r = rules[next_rule]
      c:rect { x = off + r.x, y = off + r.y, w = r.w, h = r.h, color = r.color }
      next_rule = next_rule + 1
    end
  end
  local filter = filtered and require "chromatype.filter"
  for _, fr in ipairs(frames) do
    local model = fr.model or fr.frame
    rules_until(model and model.order or math.huge)
    -- the frame's box and rules under its text (a filtered frame finds its sheet frame by index)
    local entry = fr
    if filtered then
      entry = sheet.frames[fr.index]
      if not entry or entry.frame ~= fr.model then entry = nil end
    end
    for _, r in ipairs(entry and entry.decor or {}) do c:rect(r) end
    local ok, err
    if filtered then ok, err = pcall(filter.draw_frame, c, fr)
    else ok, err = pcall(layout.draw_lines, c, fr.lines) end
    if not ok then fail(fr.model or fr.frame, tostring(err)) end
  end
  rules_until(math.huge)
  self:end_page(c, pg, off)
  return c
end

-- The time of a still drawn at `at` seconds (the first frame when nil).
local function still_time(self, at)
  local t = 0
  if at ~= nil then
    local err
    t, err = motion.time(at)
    if not t then fail(self, "at: " .. err) end
    if t < 0 or t > motion.MAX_SECONDS then fail(self, ("at: from 0 to %d seconds, got '%s'"):format(motion.MAX_SECONDS, tostring(at))) end
  end
  local fps = self.fps or 30
  return { t = t, frame_number = math.floor(t * fps + 1e-9), fps = self.fps, duration = self.duration or 0,
    progress = 0 }
end

--- Renders every page on a new canvas.
-- Options: `filters` (a list of filters, run before the document's own; default: the
-- command line's `-f` filters), `seed` (the random seed; default the command line's
-- `--seed`, else 0), `at` (a time: animated fields take their values then, and filters see
-- it as ctx.t; default 0), `time` (instead of `at`, an animation frame as filter.run takes
-- it), `canvas` (a one-page document drawn on this canvas's page instead of a new canvas).
-- @treturn Canvas
-- @treturn table a report: `overflows` = {{frame =, characters =}, ...}, `pages` = count
function Document:render(opts)
  opts = opts or {}
  local filter = require "chromatype.filter"
  local time = opts.time or still_time(self, opts.at)
  self:set_time(time.t, opts.total)
  local sheets, report = self:typeset()
  if opts.canvas and #sheets > 1 then
    fail(self, ("an animation has one page; this document makes %d (pages, or text continued on new ones)")
      :format(#sheets))
  end
  local filters = {}
  if filter.needs_rand(sheets) then filters[1] = filter.rand end
  for _, f in ipairs(opts.filters or filter.defaults) do filters[#filters + 1] = f end
  for _, f in ipairs(self.filters or {}) do filters[#filters + 1] = f end
  local c = opts.canvas
  if #filters == 0 then
    for _, sh in ipairs(sheets) do c = self:draw_sheet(c, sh, sh.frames, false, c == opts.canvas and c ~= nil) end
    return c, report
  end
  local tree = filter.build(self, sheets)
  tree = filter.run(tree, filters, opts.seed or filter.cli_seed or self.seed, time)
  for _, page in ipairs(tree.pages) do
    local sh = page.sheet or sheets[1]
    c = self:draw_sheet(c, sh, page.frames, true, c == opts.canvas and c ~= nil)
  end
  if not c then fail(self, "the filters removed every page") end
  report.pages = #tree.pages
  return c, report
end

-- The write options of `opts` for canvas:write or canvas:stream (the document's metadata
-- for a PDF), and whether the file is a PDF.
local function write_options(self, path, opts)
  local wo = {}
  for k, v in pairs(opts) do if k ~= "filters" and k ~= "seed" and k ~= "at" then wo[k] = v end end
  if path == "-" and not wo.format then wo.format = "pdf" end
  local ext = path:match("%.(%w+)$")
  local pdf = (wo.format == "pdf") or (not wo.format and ext and ext:lower() == "pdf") or path == "-"
  if pdf then
    for k, v in pairs(self.meta) do if wo[k] == nil then wo[k] = v end end
  end
  return wo, pdf
end

local STILL_ONLY = { "fps", "duration", "loop", "quality", "effort", "dither", "matte", "workers", "poster" }

-- The filters a write runs after the seeded rand: `opts.filters` (else the command line's)
-- and the document's own; and the first of them that needs the whole document, if any.
local function write_filters(self, opts)
  local filter = require "chromatype.filter"
  local list = {}
  for _, f in ipairs(opts.filters or filter.defaults) do list[#list + 1] = f end
  for _, f in ipairs(self.filters or {}) do list[#list + 1] = f end
  for _, f in ipairs(list) do
    if filter.needs_document(f) then return list, f end
  end
  return list, nil
end

-- A PDF written page by page: `sheet(sheet, index)` draws a typeset sheet (through the
-- filters, run on that page alone) into the file, `finish()` closes it, `abort()` drops it.
local function new_pdf_stream(self, path, wo, filters, seed, time)
  local filter = require "chromatype.filter"
  local st = { path = path, pages = 0 }
  local c
  local function out(page_sheet, frames, filtered)
    local first = c == nil
    c = self:draw_sheet(c, page_sheet, frames, filtered)
    st.pages = st.pages + 1
    if first then output(c, "stream", path, wo) end
  end
  function st.sheet(sheet, index)
    local list = filters
    if filter.needs_rand({ sheet }) then
      list = { filter.rand }
      for _, f in ipairs(filters) do list[#list + 1] = f end
    end
    if #list == 0 then out(sheet, sheet.frames, false); return end
    local tree = filter.run(filter.build(self, { sheet }, index), list, seed, time)
    for _, page in ipairs(tree.pages) do out(page.sheet or sheet, page.frames, true) end
  end
  function st.abort()
    if c then c:close() end            -- drops the half-written file
    c = nil
  end
  function st.finish(report)
    if not c then fail(self, "the filters removed every page") end
    report.pages = st.pages
    local ok, err, code = output(c, "finish")
    return ok, err, code, c, report
  end
  return st
end

--- Renders and writes the document: `.pdf` (every page, with the title, author, subject
--- and keywords), `.png` or `.svg` (one file per page), "-" (PDF on standard output).
--- A PDF is written page by page as it is typeset, unless a filter needs the whole
--- document (see chromatype.filter: `whole_document`, a `Document` function).
-- Options: those of canvas:write (`dpi`, `format`, `text_layer`, `cmyk`, `inks`,
-- `inks_only`, `overprint`, `plates`), and render's `filters` and `seed`.
-- @treturn true|nil, msg
-- @treturn Canvas the rendered canvas
function Document:write(path, opts)
  if type(path) ~= "string" then argerr("write", 1, "string expected, got " .. type(path)) end
  opts = opts or {}
  if M.is_animation(path) then return self:write_animation(path, opts) end
  for _, k in ipairs(STILL_ONLY) do
    if opts[k] ~= nil then fail(self, ("%s: for animations (.apng, .webp, .gif, .mp4, .webm, .mov or a %%d pattern); '%s' is a still")
      :format(k, path)) end
  end
  local wo, pdf = write_options(self, path, opts)
  local filters, whole = write_filters(self, opts)
  if pdf and path ~= "-" and not whole then
    local filter = require "chromatype.filter"
    local time = still_time(self, opts.at)
    self:set_time(time.t)
    local st = new_pdf_stream(self, path, wo, filters, opts.seed or filter.cli_seed or self.seed, time)
    local ok, sheets_or_err, report = pcall(self.typeset, self, st.sheet)
    if not ok then st.abort(); error(sheets_or_err, 0) end
    return st.finish(report)
  end
  local c, report = self:render { filters = opts.filters, seed = opts.seed, at = opts.at }
  local ok, err, code = output(c, "write", path, wo)
  return ok, err, code, c, report
end

--- Begins writing the document to a PDF page by page, as it is made: from now on each page
--- is typeset, filtered and written when the next one begins (`doc:page`) or at
--- `doc:finish()`, and then let go, so a document of any length is never held whole.
--- Pages made before are written the same way.  Options as `write` takes them for a PDF;
--- filters run on each page alone (one that needs the whole document is refused).
-- @treturn Document self
function Document:stream(path, opts)
  if type(path) ~= "string" then argerr("stream", 1, "string expected, got " .. type(path)) end
  opts = opts or {}
  if type(opts) ~= "table" then argerr("stream", 2, "table expected, got " .. type(opts)) end
  if self.streaming then fail(self, ("is being written to %s already"):format(self.streaming.path)) end
  if self.streamed then fail(self, ("was written to %s page by page: its pages are gone"):format(self.streamed)) end
  local wo, pdf = write_options(self, path, opts)
  if not pdf or path == "-" or M.is_animation(path) then
    fail(self, ("stream: writes a PDF file page by page; for '%s' use doc:write"):format(path))
  end
  for _, k in ipairs(STILL_ONLY) do
    if opts[k] ~= nil then fail(self, ("stream: %s is for animations"):format(k)) end
  end
  local filters, whole = write_filters(self, opts)
  if whole then
    fail(self, ("stream: the filter '%s' needs the whole document; write it with doc:write"):format(whole.name))
  end
  local filter = require "chromatype.filter"
  local time = still_time(self, opts.at)
  self:set_time(time.t)
  self.axes_seen = nil
  local st = new_pdf_stream(self, path, wo, filters, opts.seed or filter.cli_seed or self.seed, time)
  st.ts = self:typesetter(st.sheet)
  self.streaming = st
  -- the pages so far but the last, which may still be filled
  local last = table.remove(self.pages)
  for _, pg in ipairs(self.pages) do self:stream_page(pg) end
  self.pages = { last }
  return self
end

-- Typesets and writes one page of a stream, then lets its text go (frames of a written page
-- refuse more).
function Document:stream_page(pg)
  local st = self.streaming
  for _, fr in ipairs(pg.frames) do
    fr.x, fr.y = fr.x0, fr.y0
    for _, a in ipairs(fr.moves or {}) do fr[a.attribute] = motion.at(a, self.time, self.total) end
  end
  local ok, err = pcall(st.ts.page, pg)
  if not ok then
    st.abort()
    self.streaming, self.streamed = nil, st.path
    error(err, 0)
  end
  for _, fr in ipairs(pg.frames) do fr.paras, fr.written = {}, st.path end
  pg.written = st.path
end

--- Drops a stream (`doc:stream`) unfinished: no file is left.
function Document:abort()
  local st = self.streaming
  if not st then return end
  st.abort()
  self.streaming, self.streamed = nil, st.path
end

--- Writes the last page of a stream (`doc:stream`) and closes its file.
-- @treturn true|nil, msg, code, Canvas, report (as `write`)
function Document:finish()
  local st = self.streaming
  if not st then fail(self, "finish: the document is not being streamed (doc:stream first)") end
  local pages = self.pages
  self.pages = {}
  for _, pg in ipairs(pages) do self:stream_page(pg) end
  self.streaming, self.streamed = nil, st.path
  local ok, sheets_or_err, report = pcall(st.ts.finish)
  if not ok then st.abort(); error(sheets_or_err, 0) end
  if report.pages == 0 then st.abort(); fail(self, "has no pages") end
  return st.finish(report)
end

--- Whether `path` names an animation (by its extension: .apng, .webp, .gif, .mp4, .webm,
--- or a frame pattern such as "frames/%04d.png"); .png, .pdf and .svg are stills.
function M.is_animation(path)
  local ext = (path:match("%.(%w+)$") or ""):lower()
  if ext == "apng" or ext == "webp" or ext == "gif" or ext == "mp4" or ext == "webm" or ext == "mov" then
    return true
  end
  return path:find("%%[0-9]*d") ~= nil
end

local ANIM_OPTS = { dpi = true, fps = true, duration = true, loop = true, quality = true, filters = true, seed = true,
  effort = true, dither = true, matte = true, workers = true, poster = true }
-- the options chromatype.animate takes as they are
local ANIM_PASSED = { "quality", "effort", "dither", "matte", "workers", "poster" }

--- Writes a one-page document as an animation (see M.is_animation for the formats): each
--- frame i is laid out at t = i / fps with its animated values, its filters see the time
--- (ctx.t, ctx.frame_number), and it is drawn through chromatype.animate.  Options: `fps`,
--- `duration`, `loop` (the document's by default; the duration defaults to the end of its
--- last animation), `dpi` (72), `filters`, `seed`, and those of chromatype.animate:
--- `quality` (WebP, video), `effort` (WebP), `dither` (GIF), `matte` (video), `workers`,
--- `poster` (APNG).
-- @treturn true|nil, msg (nothing is left on disk on error)
function Document:write_animation(path, opts)
  for k in pairs(opts) do
    if not ANIM_OPTS[k] then fail(self, ("%s: not for animations ('%s')"):format(k, path)) end
  end
  local fps, dur, loop, terr = M.timing(opts.fps, opts.duration, opts.loop)
  if terr then fail(self, terr) end
  fps, loop = fps or self.fps or 30, loop or self.loop
  dur = dur or self.duration
  local last, open = self:animations_end()
  if not dur then
    if open then fail(open.obj, "dur: needed when the document has no duration") end
    dur = last or (1 / fps)       -- nothing moves: one frame
  end
  local _, _, _, ferr = M.timing(fps, dur)
  if ferr then fail(self, ferr) end
  if #self.pages ~= 1 then
    fail(self, ("an animation has one page; this document has %d"):format(#self.pages))
  end
  local filter = require "chromatype.filter"
  local seed = opts.seed or filter.cli_seed or self.seed
  -- laid out once before the file is made: a bad font, axis or palette stops here
  self:set_time(0, dur)
  local sheets = self:typeset()
  if #sheets > 1 then
    fail(self, ("an animation has one page; this document makes %d (text continued on new pages)"):format(#sheets))
  end
  local pg = self.pages[1]
  local off = self.bleed + self.slug
  local anim = require "chromatype.animate"
  local t = { width = pg.width + 2 * off, height = pg.height + 2 * off, fps = fps, duration = dur,
    output = path, dpi = opts.dpi, loop = loop,
    draw = function(c, t, frame, p)
      self:render { canvas = c, filters = opts.filters, seed = seed, total = dur,
        time = { t = t, frame_number = frame, fps = fps, duration = dur, progress = p } }
    end }
  for _, k in ipairs(ANIM_PASSED) do t[k] = opts[k] end
  return anim.animate(t)
end

M.Document, M.Page, M.Frame = Document, Page, Frame

-- ---- XML -----------------------------------------------------------------------------------

local STYLE_ATTRS = { "font", "size", "leading", "color", "palette", "overrides", "align", "tracking", "features",
  "lang", "dir", "hyphenate", "space-before", "space-after", "variations", "weight", "font-width", "slant",
  "italic", "optical-size" }
for _, k in ipairs(BREAK_KEYS) do STYLE_ATTRS[#STYLE_ATTRS + 1] = k end

local function list(...)
  local s = {}
  for _, l in ipairs({ ... }) do for _, k in ipairs(l) do s[#s + 1] = k end end
  return s
end

local ATTRS = {
  document = { "title", "author", "subject", "keywords", "size", "orientation", "margin", "bleed",
               "crop-marks", "slug", "background", "seed", "fps", "duration", "loop" },
  ink = { "name", "color", "overprint", "cmyk" },
  style = list({ "name", "parent", "width" }, STYLE_ATTRS),
  page = { "size", "orientation", "background", "margin" },
  frame = list({ "id", "follows", "x", "y", "width", "height", "valign", "style", "overflow",
    "fit", "fit-to", "fit-tracking", "fit-width", "fit-features", "fit-size", "columns", "column-gap",
    "column-fill", "column-rule", "background", "border", "padding" }, STYLE_ATTRS),
  rule = { "x", "y", "length", "direction", "stroke", "color" },
  ["frame rule"] = { "length", "align", "stroke", "color", "space" },
  image = { "src", "x", "y", "width", "height", "fit" },
  stack = { "name", "lead", "match", "warn" },
  layer = { "font", "color", "offset", "hidden", "palette", "name" },
  p = list({ "style", "indent", "width" }, STYLE_ATTRS),
  span = list({ "style", "width" }, STYLE_ATTRS),
  br = {},
  animate = { "attribute", "values", "from", "to", "begin", "dur", "ease" },
}
local ALLOWED = {}
for el, attrs in pairs(ATTRS) do
  ALLOWED[el] = {}
  for _, a in ipairs(attrs) do ALLOWED[el][a] = true end
end

local Reader = {}
Reader.__index = Reader

function Reader:where(node)
  return ("%s:%d: <%s>: "):format(self.name, node.line or 0, node.tag)
end

function Reader:fail(node, msg)
  error(self:where(node) .. msg, 0)
end

-- `kind` names the attribute list when it is not the tag's (a <rule> in a <frame>).
function Reader:check_attrs(node, kind)
  kind = kind or node.tag
  local allowed = ALLOWED[kind]
  local keys = {}
  for k in pairs(node.attrs) do keys[#keys + 1] = k end
  table.sort(keys)
  for _, k in ipairs(keys) do
    if not allowed[k] then
      local names = ATTRS[kind]
      self:fail(node, ("unknown attribute '%s'%s"):format(k,
        #names > 0 and " (expected " .. table.concat(names, ", ") .. ")" or " (it takes none)"))
    end
  end
end

-- Children elements, refusing text that is not white space.
function Reader:elements(node, allowed)
  local out = {}
  for _, c in ipairs(node.children) do
    if type(c) == "string" then
      if c:find("%S") then self:fail(node, ("text outside a <p>: '%s'"):format(c:match("%S[^\n]*"):sub(1, 40))) end
    else
      if not allowed[c.tag] then
        local want = {}
        for k in pairs(allowed) do want[#want + 1] = "<" .. k .. ">" end
        table.sort(want)
        self:fail(c, ("unknown element here (in <%s>: %s)"):format(node.tag, table.concat(want, ", ")))
      end
      self:check_attrs(c, (node.tag == "frame" and c.tag == "rule") and "frame rule" or nil)
      out[#out + 1] = c
    end
  end
  return out
end

function Reader:yesno(node, attr)
  local v = node.attrs[attr]
  if v == nil then return nil end
  if v == "yes" or v == "true" then return true end
  if v == "no" or v == "false" then return false end
  self:fail(node, ("%s: expected yes, no, got '%s'"):format(attr, v))
end

-- The document's <ink> elements as checked inks (ct.parse_ink's form).
function Reader:inks(kids)
  local inks, seen = {}, {}
  for _, el in ipairs(kids) do
    if el.tag == "ink" then
      for _, ch in ipairs(el.children) do
        if type(ch) ~= "string" or ch:find("%S") then self:fail(el, "must be empty") end
      end
      local a = el.attrs
      if not a.name or a.name == "" then self:fail(el, "needs a name= attribute") end
      if not a.color then self:fail(el, "needs a color= attribute") end
      if seen[a.name] then self:fail(el, ("ink '%s' is defined twice"):format(a.name)) end
      seen[a.name] = true
      local ink, err = check_ink { name = a.name, color = a.color, overprint = self:yesno(el, "overprint"),
        cmyk = a.cmyk }
      if not ink then self:fail(el, err) end
      inks[#inks + 1] = ink
    end
  end
  return inks
end

-- Style attributes of an element as model fields (only those present).
function Reader:style_fields(node)
  local a = node.attrs
  local s = { font = a.font, size = a.size, leading = a.leading, color = a.color, align = a.align,
    overrides = a.overrides,
    tracking = a.tracking, features = a.features, language = a.lang, direction = a.dir,
    space_before = a["space-before"], space_after = a["space-after"], variations = a.variations,
    weight = a.weight, slant = a.slant, optical_size = a["optical-size"], font_width = a["font-width"] }
  if node.tag ~= "frame" and a.width then     -- a frame's width is its size
    if a["font-width"] then self:fail(node, "width and font-width both given: they are the same") end
    s.font_width = a.width
  end
  if a.italic then s.italic = self:yesno(node, "italic") end
  for _, k in ipairs(BREAK_KEYS) do s[k] = a[k] end
  s.animate = self:animations(node)
  if a.palette then s.palette = math.tointeger(tonumber(a.palette)) or a.palette end
  s.hyphenate = self:yesno(node, "hyphenate")
  if s.size then
    local v, err = paper.parse_length(s.size)
    if not v then self:fail(node, "size: " .. err) end
    if v < 0.01 then self:fail(node, ("size: must be at least 0.01 pt, got '%s'"):format(a.size)) end
  end
  return s
end

-- The <animate> children of an element, as the model's `animate` list (nil if none); each
-- must be empty.
function Reader:animations(node)
  local list
  for _, c in ipairs(node.children) do
    if type(c) == "table" and c.tag == "animate" then
      self:check_attrs(c)
      for _, ch in ipairs(c.children) do
        if type(ch) ~= "string" or ch:find("%S") then self:fail(c, "must be empty") end
      end
      local a = c.attrs
      if not a.attribute then self:fail(c, "needs an attribute= (what moves: " .. table.concat(
        node.tag == "frame" and motion.FRAME or motion.TEXT, ", ") .. ")") end
      list = list or {}
      list[#list + 1] = { attribute = a.attribute, values = a.values, from = a.from, to = a.to, begin = a.begin,
        dur = a.dur, ease = a.ease, _where = self:where(c) }
    end
  end
  return list
end

-- Collects the runs of a <p> (and its <span>s) into `runs`; `layers` are the enclosing
-- spans' styles.
function Reader:collect(node, layers, runs)
  local kids = node.children
  local function is_animate(x) return type(x) == "table" and x.tag == "animate" end
  for i, c in ipairs(kids) do
    if type(c) == "string" then
      local t = c:gsub("%s+", " ")
      -- white space beside an <animate> only lays the markup out, it is not text
      if t == " " and (is_animate(kids[i - 1]) or is_animate(kids[i + 1])) then t = "" end
      if t ~= "" then runs[#runs + 1] = { text = t, _layers = layers, _where = self:where(node), node = node } end
    elseif c.tag == "animate" then
      -- the element's own motion (Reader:style_fields)
    else
      if c.tag ~= "span" and c.tag ~= "br" then
        self:fail(c, ("unknown element here (in <%s>: <span>, <br>, <animate>)"):format(node.tag))
      end
      self:check_attrs(c)
      if c.tag == "br" then
        if #c.children > 0 then self:fail(c, "must be empty") end
        runs[#runs + 1] = { text = "\u{2028}", _layers = layers, _where = self:where(c) }
      else
        local sub = {}
        for i, l in ipairs(layers) do sub[i] = l end
        local obj = { where = self:where(c) }
        sub[#sub + 1] = { style = c.attrs.style, fields = self.doc:style_fields(obj, self:style_fields(c)), obj = obj }
        self:collect(c, sub, runs)
      end
    end
  end
end

-- Trims white space at the start and end of the paragraph and around line breaks.
local function trim(runs)
  local at_start = true
  for _, r in ipairs(runs) do
    if r.text == "\u{2028}" then at_start = true
    elseif at_start then
      r.text = r.text:gsub("^ +", "")
      if r.text ~= "" then at_start = false end
    end
  end
  local at_end = true
  for i = #runs, 1, -1 do
    local r = runs[i]
    if r.text == "\u{2028}" then at_end = true
    elseif at_end then
      r.text = r.text:gsub(" +$", "")
      if r.text ~= "" then at_end = false end
    end
  end
  local out = {}
  for _, r in ipairs(runs) do if r.text ~= "" then out[#out + 1] = r end end
  return out
end

function Reader:frame(page, fr, frames_by_id)
  local a = fr.attrs
  local opts = self:style_fields(fr)
  opts.x, opts.y, opts.width, opts.height = a.x, a.y, a.width, a.height
  opts.valign, opts.style, opts.overflow = a.valign, a.style, a.overflow
  opts.fit, opts.fit_to, opts.fit_features = a.fit, a["fit-to"], a["fit-features"]
  opts.columns, opts.column_gap, opts.column_fill, opts.column_rule = a.columns, a["column-gap"],
    a["column-fill"], a["column-rule"]
  opts.background, opts.border, opts.padding = a.background, a.border, a.padding
  for _, k in ipairs({ "fit-tracking", "fit-width", "fit-size" }) do
    if a[k] then
      local v = tonumber(a[k])
      if not v then self:fail(fr, ("%s: expected a number, got '%s'"):format(k, a[k])) end
      opts[k:gsub("-", "_")] = v
    end
  end
  if a.follows then
    local prev = frames_by_id[a.follows]
    if not prev then self:fail(fr, ("follows: no frame with id '%s' before this one"):format(a.follows)) end
    opts.follows = prev
  end
  opts._where = self:where(fr)
  local frame = page:frame(opts)
  if a.id then
    if frames_by_id[a.id] then self:fail(fr, ("id: '%s' is used twice"):format(a.id)) end
    frames_by_id[a.id] = frame
  end
  local ps = {}
  for _, el in ipairs(self:elements(fr, { p = true, animate = true, rule = true })) do
    if el.tag ~= "animate" then ps[#ps + 1] = el end
  end
  if a.follows and #ps > 0 then self:fail(fr, "a frame that follows another takes no text of its own") end
  for _, p in ipairs(ps) do
    if p.tag == "rule" then
      if #p.children > 0 then self:fail(p, "must be empty") end
      local ra = p.attrs
      frame:rule { length = ra.length, align = ra.align, stroke = ra.stroke, color = ra.color, space = ra.space,
        _where = self:where(p) }
    else
      local runs = {}
      self:collect(p, {}, runs)
      runs = trim(runs)
      for _, r in ipairs(runs) do r.node = nil end
      local fields = self:style_fields(p)
      fields.style = p.attrs.style
      fields.indent = p.attrs.indent
      fields._where = self:where(p)
      frame:paragraph(runs, fields)
    end
  end
end

-- The XML source of a document: {text =, name =} or {file =, name =}; a new reader of it.
local function open_source(src)
  if src.file then
    local r, err = ct.xml_file_reader(src.file, src.name)
    if not r then error(err, 0) end
    return r
  end
  return ct.xml_reader(src.text, src.name)
end

local ROOT_KIDS = { style = true, page = true, stack = true, ink = true }
local SKIP_PAGES = { page = true }
local SKIP_HEAD = { style = true, stack = true, ink = true }

-- The root's next child through `r` (nil at the end), checked as Reader:elements checks.
function Reader:next_kid(r, root, skip)
  while true do
    local el, err = r:next(skip)
    if el == nil then
      if err then error(err, 0) end
      return nil
    end
    if type(el) == "string" then
      if el:find("%S") then self:fail(root, ("text outside a <p>: '%s'"):format(el:match("%S[^\n]*"):sub(1, 40))) end
    else
      if not ROOT_KIDS[el.tag] then
        self:fail(el, "unknown element here (in <document>: <ink>, <page>, <stack>, <style>)")
      end
      self:check_attrs(el)
      return el
    end
  end
end

-- Reads a document's head from the source: the <document> element, its inks, stacks and
-- styles (wherever they stand), skipping the pages (counted; `self.moving` when one holds
-- an <animate>).  Returns the Document, without pages.
function Reader:head(src)
  local r = open_source(src)
  local root, err = r:root()
  if not root then error(err, 0) end
  if root.tag ~= "document" then self:fail(root, "the root element must be <document>") end
  self:check_attrs(root)
  self.root = root
  local kids, npages = {}, 0
  for el in function() return self:next_kid(r, root, SKIP_PAGES) end do
    if el.tag == "page" then
      npages = npages + 1
      if el.inside.animate then self.moving = true end
    else
      kids[#kids + 1] = el
    end
  end
  r:close()
  if npages == 0 then self:fail(root, "has no <page>") end
  local a = root.attrs
  local dopts = { title = a.title, author = a.author, subject = a.subject, keywords = a.keywords,
    size = a.size, orientation = a.orientation, margin = a.margin, bleed = a.bleed, slug = a.slug,
    background = a.background, crop_marks = self:yesno(root, "crop-marks"), seed = a.seed,
    fps = a.fps, duration = a.duration, loop = a.loop,
    base_dir = self.name:match("^(.*)/[^/]*$") }
  dopts._where = self:where(root)
  dopts.inks = self:inks(kids)
  -- check the document's own values with XML messages
  for _, k in ipairs({ "margin", "bleed", "slug" }) do
    if dopts[k] then
      local v, e = paper.parse_length(dopts[k])
      if not v then self:fail(root, k .. ": " .. e) end
      if v < 0 then self:fail(root, ("%s: must be at least 0 pt, got '%s'"):format(k, dopts[k])) end
    end
  end
  if a.background and not palette.color(a.background) then
    self:fail(root, select(2, palette.color(a.background)) and "background: " .. select(2, palette.color(a.background)))
  end
  local w, h = page_size(a.size, a.orientation, paper.size("A4"))
  if not w then self:fail(root, h) end
  local _, _, _, terr = M.timing(a.fps, a.duration, a.loop)
  if terr then self:fail(root, terr) end
  local ok, doc = pcall(M.new, dopts)
  if not ok then self:fail(root, tostring(doc)) end
  doc.where = self:where(root)
  self.doc = doc

  -- stacks, then styles (they may be used before they are defined)
  for _, el in ipairs(kids) do
    if el.tag == "stack" then
      local n = el.attrs.name
      if not n or n == "" then self:fail(el, "needs a name= attribute") end
      if doc.stacks[n] then self:fail(el, ("stack '%s' is defined twice"):format(n)) end
      local t = { _where = self:where(el), match = el.attrs.match }
      if el.attrs.warn then t.warn = self:yesno(el, "warn") end
      if el.attrs.lead then
        t.lead = math.tointeger(tonumber(el.attrs.lead))
        if not t.lead then self:fail(el, ("lead: a layer number expected, got '%s'"):format(el.attrs.lead)) end
      end
      for _, l in ipairs(self:elements(el, { layer = true })) do
        if #l.children > 0 then self:fail(l, "must be empty") end
        if not l.attrs.font then self:fail(l, "needs a font= attribute") end
        local layer = { font = l.attrs.font, color = l.attrs.color, name = l.attrs.name, _where = self:where(l),
          hidden = self:yesno(l, "hidden") }
        if l.attrs.palette then layer.palette = math.tointeger(tonumber(l.attrs.palette)) or l.attrs.palette end
        if l.attrs.offset then
          local a, b = l.attrs.offset:match("^%s*(%S+)%s+(%S+)%s*$")
          a, b = tonumber(a), tonumber(b)
          if not a or not b then self:fail(l, ("offset: two numbers in em expected (\"0.02 -0.01\"), got '%s'"):format(l.attrs.offset)) end
          layer.offset = { a, b }
        end
        if layer.color then
          local v, err = palette.color(layer.color)
          if not v then self:fail(l, "color: " .. err) end
          layer.color = v
        end
        t[#t + 1] = layer
      end
      if #t == 0 then self:fail(el, "needs at least one <layer>") end
      doc:stack(n, t)
    end
  end
  for _, el in ipairs(kids) do
    if el.tag == "style" then
      for _, ch in ipairs(el.children) do
        if type(ch) == "table" and ch.tag == "animate" then      -- the style's motion
        elseif type(ch) ~= "string" or ch:find("%S") then self:fail(el, "takes only <animate> elements") end
      end
      local n = el.attrs.name
      if not n or n == "" then self:fail(el, "needs a name= attribute") end
      if doc.styles[n] then self:fail(el, ("style '%s' is defined twice"):format(n)) end
      local f = self:style_fields(el)
      f.parent = el.attrs.parent
      f._where = self:where(el)
      doc:style(n, f)
    end
  end
  return doc
end

-- Reads the pages from the source into the document (the head read already): each page
-- is made as it is read, so a streaming document writes it when the next one begins.
function Reader:pages(src)
  local doc, frames_by_id = self.doc, {}
  local r = open_source(src)
  assert(r:root())
  for el in function() return self:next_kid(r, self.root, SKIP_HEAD) end do
    if el.tag == "page" then self:page(el, frames_by_id) end
  end
  r:close()
  return doc
end

function Reader:page(el, frames_by_id)
  local pa = el.attrs
  if pa.background and not palette.color(pa.background) then
    self:fail(el, "background: " .. select(2, palette.color(pa.background)))
  end
  local page = self.doc:page { size = pa.size, orientation = pa.orientation, background = pa.background,
    margin = pa.margin, _where = self:where(el) }
  for _, ch in ipairs(self:elements(el, { frame = true, image = true, rule = true })) do
    if ch.tag == "frame" then self:frame(page, ch, frames_by_id)
    elseif ch.tag == "rule" then
      if #ch.children > 0 then self:fail(ch, "must be empty") end
      local ra = ch.attrs
      page:rule { x = ra.x, y = ra.y, length = ra.length, direction = ra.direction, stroke = ra.stroke,
        color = ra.color, _where = self:where(ch) }
    else
      if #ch.children > 0 then self:fail(ch, "must be empty") end
      if not ch.attrs.src then self:fail(ch, "needs a src= attribute") end
      page:image { ch.attrs.src, x = ch.attrs.x, y = ch.attrs.y, width = ch.attrs.width,
        height = ch.attrs.height, fit = ch.attrs.fit, _where = self:where(ch) }
    end
  end
end

local function new_reader(name)
  return setmetatable({ name = name }, Reader)
end

--- Reads an XML document into a Document (every page).
-- @tparam string xml the document text
-- @tparam[opt] string name its file name, for messages and relative paths
-- @treturn Document
function M.from_xml(xml, name)
  if type(xml) ~= "string" then
    error(("bad argument #1 to 'from_xml' (string expected, got %s)"):format(type(xml)), 2)
  end
  local src = { text = xml, name = name or "<document>" }
  local rd = new_reader(src.name)
  rd:head(src)
  return rd:pages(src)
end

local RENDER_KEYS = { "dpi", "format", "text_layer", "cmyk", "inks", "inks_only", "overprint", "plates", "at", "fps",
  "duration", "loop", "quality", "effort", "dither", "matte", "workers", "poster" }

local function check_render_opts(opts)
  local allowed = set_of(RENDER_KEYS)
  for k in pairs(opts) do
    if not allowed[k] then
      error(("bad argument #4 to 'render' (unknown field '%s' (expected %s))")
        :format(tostring(k), table.concat(RENDER_KEYS, ", ")), 3)
    end
  end
end

-- Renders the document of a source: a PDF file is written as its pages are read (the
-- head first, then each page typeset and written when the next is read), unless its
-- pages move (<animate>) or a filter needs the whole document.
local function render_source(src, out_path, opts)
  local rd = new_reader(src.name)
  local doc = rd:head(src)
  if not out_path then return (rd:pages(src):render()), true end
  local _, pdf = write_options(doc, out_path, opts)
  local _, whole = write_filters(doc, opts)
  if pdf and out_path ~= "-" and not M.is_animation(out_path) and not rd.moving and not whole then
    doc:stream(out_path, opts)
    local ok, err = pcall(rd.pages, rd, src)
    if not ok then doc:abort(); error(err, 0) end
    local okf, ferr, code, c = doc:finish()
    return c, okf, ferr, code
  end
  rd:pages(src)
  local ok, err, code, c = doc:write(out_path, opts)
  return c, ok, err, code
end

--- Renders an XML document.
-- @tparam string xml the document text
-- @tparam[opt] string name its file name, for messages and relative font paths
-- @tparam[opt] string out_path where to write: .pdf, .png (one file per page: name-1.png, ...),
--   .svg, or "-" (PDF on standard output); absent: no file
-- @tparam[opt] table opts `dpi` (PNG), `format` ("pdf", "png", "svg"), `text_layer`, `cmyk`,
--   `inks`, `inks_only`, `overprint`, `plates` (see canvas:write)
-- @treturn Canvas the canvas (every page; the last, for a PDF written page by page), then
--   `true` or `nil, msg` from canvas:write
function M.render(xml, name, out_path, opts)
  if type(xml) ~= "string" then
    error(("bad argument #1 to 'render' (string expected, got %s)"):format(type(xml)), 2)
  end
  opts = opts or {}
  check_render_opts(opts)
  return render_source({ text = xml, name = name or "<document>" }, out_path, opts)
end

--- Renders an XML document file, read as it goes: a long document to PDF is never held
--- whole (its pages are typeset and written as they are read).  As `render`, for a file.
function M.render_file(path, out_path, opts)
  if type(path) ~= "string" then
    error(("bad argument #1 to 'render_file' (string expected, got %s)"):format(type(path)), 2)
  end
  opts = opts or {}
  check_render_opts(opts)
  return render_source({ file = path, name = path }, out_path, opts)
end

return M
