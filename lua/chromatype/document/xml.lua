-- chromatype.document.xml: XML documents read into the model (a Reader over chromatype's
-- XML reader: the head, then page by page) and rendered from their source; errors are
-- "FILE:LINE: <elem>: message".  It builds the model through its methods, as a script does.

local ct = require "chromatype"
local paper = require "chromatype.paper"
local palette = require "chromatype.palette"
local motion = require "chromatype.motion"
local common = require "chromatype.document.common"
local model = require "chromatype.document.model"
local write = require "chromatype.document.write"

local BREAK_KEYS = common.BREAK_KEYS
local set_of, page_size, check_ink = common.set_of, common.page_size, common.check_ink
local write_options, write_filters = write.write_options, write.write_filters

local M = {}

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
  local _, _, _, terr = common.timing(a.fps, a.duration, a.loop)
  if terr then self:fail(root, terr) end
  local ok, doc = pcall(model.new, dopts)
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
  if pdf and out_path ~= "-" and not write.is_animation(out_path) and not rd.moving and not whole then
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
