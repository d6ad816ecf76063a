-- chromatype.document.model: the Document, Page and Frame classes, `new`, and the methods
-- that build a document (pages, frames, rules, images, paragraphs, text), checking what they
-- are given.  Styles are styles.lua's; it neither reads XML nor lays out, draws or writes.

local ct = require "chromatype"
local paper = require "chromatype.paper"
local palette = require "chromatype.palette"
local frames = require "chromatype.frames"
local common = require "chromatype.document.common"

local STYLE_KEYS, FIT_KEYS = common.STYLE_KEYS, common.FIT_KEYS
local set_of, fail, argerr, check_keys = common.set_of, common.fail, common.argerr, common.check_keys
local length, page_size, check_ink = common.length, common.page_size, common.check_ink

local M = {}

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
local TEXT_KEYS = set_of(STYLE_KEYS, { "style", "width" })
local RUN_KEYS = set_of(STYLE_KEYS, { "style", "text", "width" })

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
  local fps, dur, loop, terr = common.timing(opts.fps, opts.duration, opts.loop)
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

M.Document, M.Page, M.Frame = Document, Page, Frame

return M
