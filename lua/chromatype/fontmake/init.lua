--- chromatype.fontmake: color fonts made from what chromatype draws.
-- `ct.save_font(source, path, opts)` writes an OpenType font (TTF, or WOFF2 by the path's
-- extension or `woff2 = true`) through the core's font writer (src/fontmake/fontbuild.c):
--
--  1. a **stack** (a Stack, as `ct.stack` and `<stack>` make them): one color glyph per
--     lead glyph, one layer per stack layer in the stack's color (a CPAL entry, labelled
--     with the layer's name), layer offsets applied; the stack's colors are palette 0;
--  2. a **font** and new **palettes** (`palettes = {...}`): the font's tables kept as they
--     are, CPAL written anew with the extra palettes (types, names);
--  3. a font and **filters** baked in (`filters = {"shadow:steps=24"}`): each glyph's
--     drawing through the filters becomes its paint graph (COLRv1);  filters that read the
--     glyph's position, its neighbours or a random stream are refused, saying which;
--  4. **paint trees** given glyph by glyph (`glyphs = {A = tree, ...}` or `glyph =
--     function(gid, name, font) ... end`);
--  5. **artwork**: `{ svg = DIR | FILE | {FILES...}, map = FILE }`, SVG drawings one per
--     glyph (chromatype.fontmake.artwork), options `upem`, `ascent`, `descent`, `advance`,
--     `keep_going`, `flatten_gradients` with `formats`, `family` (default: the folder's
--     name, else "Artwork"), `text`, `woff2`.
--
-- Options: `formats` (list or "colr0,colr1,svg"; default COLRv0 when every glyph is plain
-- layers, else COLRv1), `text` (a glyph subset), `family`, `woff2`, `palettes` (extra
-- palettes: `{name =, type = "light"|"dark", colors = {[entry] = color}}` over palette 0, or
-- the string "NAME:IDX=#RRGGBBAA,..."; an entry may also be given by the color it replaces:
-- "#FFCC4D=#C68642"), `palette_type` (the type of extra palettes that set none),
-- `filters`, `seed`, `glyphs`, `glyph`, `labels` (entry labels by entry number from 0, over
-- the source's), `stack_name`.
-- @module chromatype.fontmake

local ct = require "chromatype"
local core = require "chromatype.core"
local stack = require "chromatype.stack"
local palette = require "chromatype.palette"

local M = {}

local OPTS = { formats = true, text = true, family = true, woff2 = true, palettes = true, palette_type = true,
  filters = true, seed = true, glyphs = true, glyph = true, labels = true, stack_name = true, axes = true,
  masters = true, report = true, specimen = true, randomize = true }

local function argerr(n, msg)
  error(("bad argument #%d to 'save_font' (%s)"):format(n, msg), 3)
end

-- How messages name a font: its family, or its file when it has no family name ("<memory>"
-- for one made from bytes without a name).
local function font_name(font)
  local i = font:info()
  if i.family ~= nil and i.family ~= "" then return i.family end
  return (i.path ~= nil and i.path ~= "") and i.path or "<memory>"
end

-- The family a font written from `font` starts from: its own, or its file's name (no folder,
-- no extension) when it has none.
local function family_of(font)
  local i = font:info()
  if i.family ~= nil and i.family ~= "" then return i.family end
  local base = (i.path or ""):match("([^/]*)$"):gsub("%.[^.]*$", "")
  return (base ~= "" and not base:find("^<")) and base or "Untitled"
end

local function is_font(v)
  return type(v) == "userdata" and tostring(v):find("^chromatype%.Font") ~= nil
end

-- ---- trees ------------------------------------------------------------------------------------

-- A copy of a paint tree with `fn(node)` applied to each node copy (shared subtrees copied
-- once).
local function map_tree(t, fn, seen)
  seen = seen or {}
  if type(t) ~= "table" then return t end
  if seen[t] then return seen[t] end
  local c = {}
  seen[t] = c
  for k, v in pairs(t) do
    if k == "child" or k == "source" or k == "backdrop" then c[k] = map_tree(v, fn, seen)
    elseif k == "children" then
      local l = {}
      for i, ch in ipairs(v) do l[i] = map_tree(ch, fn, seen) end
      c[k] = l
    else c[k] = v end
  end
  fn(c)
  return c
end

-- Every glyph and bitmap node without a font names `font`.
local function with_font(t, font)
  return map_tree(t, function(n)
    if (n.kind == "glyph" or n.kind == "bitmap") and n.font == nil then n.font = font end
  end)
end

local function color_map(t, fn)
  return map_tree(t, function(n)
    if n.kind == "solid" then n.color = fn(n.color)
    elseif n.stops then
      local s = {}
      for i, st in ipairs(n.stops) do s[i] = { offset = st.offset, color = fn(st.color) } end
      n.stops = s
    end
  end)
end

-- A layer font's palette colors as explicit colors (the written font's palettes are the
-- stack's, not the layer font's).
local function resolve_palette(t, font, index, overrides)
  local pals = font:palettes()
  local colors = pals[(index or 0) + 1] and pals[(index or 0) + 1].colors or {}
  return color_map(t, function(c)
    if c.palette then
      local v = overrides and overrides[c.palette] or colors[c.palette + 1]
      if v then return { rgba = v, alpha = c.alpha } end
    end
    return c
  end)
end

-- Whether two paint trees are the same (fonts by identity; numbers exactly).
local function same_tree(a, b, seen)
  if type(a) ~= "table" or type(b) ~= "table" then return a == b end
  seen = seen or {}
  if seen[a] == b then return true end
  seen[a] = b
  for k, v in pairs(a) do if not same_tree(v, b[k], seen) then return false end end
  for k in pairs(b) do if a[k] == nil then return false end end
  return true
end
M.same_tree = same_tree

-- Whether a glyph's tree is its own outline in the text color (no color glyph).
local function plain(t, gid)
  return t.kind == "glyph" and t.gid == gid and t.font == nil and t.child.kind == "solid"
    and t.child.color.foreground == true and (t.child.color.alpha or 1) == 1
end

local function translated(t, dx, dy)
  if dx == 0 and dy == 0 then return t end
  return { kind = "transform", matrix = { 1, 0, 0, 1, dx, dy }, child = t }
end

-- ---- palettes ---------------------------------------------------------------------------------

-- "NAME:IDX=#RRGGBBAA,#FFCC4D=#C68642" -> {name =, colors = {[idx] = color}, by_color = {...}}
function M.parse_palette(spec)
  if type(spec) ~= "string" then return nil, "a string 'NAME:IDX=#RRGGBBAA,...' expected" end
  local name, body = spec:match("^([^:]*):(.*)$")
  if not name then name, body = nil, spec end
  local p = { name = name ~= "" and name or nil, colors = {}, by_color = {} }
  for part in body:gmatch("[^,]+") do
    local k, v = part:match("^%s*(.-)%s*=%s*(.-)%s*$")
    if not k or k == "" or v == "" then
      return nil, ("palette '%s': '%s' is not IDX=COLOR"):format(spec, part)
    end
    local c, err = palette.color(v)
    if not c then return nil, ("palette '%s': %s"):format(spec, err) end
    local idx = math.tointeger(tonumber(k))
    if idx then
      if idx < 0 or idx > 65534 then return nil, ("palette '%s': entry %d out of range"):format(spec, idx) end
      p.colors[idx] = c
    else
      local from, e2 = palette.color(k)
      if not from then return nil, ("palette '%s': '%s' is neither an entry number nor a color (%s)"):format(spec, k, e2) end
      p.by_color[#p.by_color + 1] = { from = from, to = c }
    end
  end
  if next(p.colors) == nil and #p.by_color == 0 then return nil, ("palette '%s': no colors"):format(spec) end
  return p
end

-- Same color, ignoring alpha unless `from` has one.
local function same_rgb(a, b)
  return a:sub(1, 7):lower() == b:sub(1, 7):lower()
end

-- The palettes of the written font: `base` ({ {colors =, name =, type =}, ... }) plus the
-- extra palettes of opts, each over palette 0.
local function build_palettes(base, extras, default_type, labels)
  local out = {}
  for i, p in ipairs(base) do out[i] = { colors = p.colors, name = p.name, type = p.type } end
  if #out == 0 then return out end
  local n = #out[1].colors
  for i, spec in ipairs(extras or {}) do
    local p = spec
    if type(spec) == "string" then
      local err
      p, err = M.parse_palette(spec)
      if not p then error(err, 0) end
    elseif type(spec) ~= "table" then
      error(("palettes[%d]: a table or a 'NAME:IDX=COLOR,...' string expected"):format(i), 0)
    end
    local colors = {}
    for e = 1, n do colors[e] = out[1].colors[e] end
    for idx, c in pairs(p.colors or {}) do
      if math.type(idx) ~= "integer" or idx < 0 or idx >= n then
        error(("palette %s: entry %s out of range (the font's palettes have entries 0..%d)")
          :format(p.name or ("#" .. i), tostring(idx), n - 1), 0)
      end
      local v, err = palette.color(c)
      if not v then error(("palette %s: %s"):format(p.name or ("#" .. i), err), 0) end
      colors[idx + 1] = v
    end
    for _, r in ipairs(p.by_color or {}) do
      local hit = false
      for e = 1, n do
        if same_rgb(out[1].colors[e], r.from) then colors[e] = r.to; hit = true end
      end
      if not hit then
        error(("palette %s: no entry of palette 0 is %s"):format(p.name or ("#" .. i), r.from:sub(1, 7)), 0)
      end
    end
    local t = p.type or default_type
    if t ~= nil and t ~= "light" and t ~= "dark" then
      error(("palette %s: type '%s' (expected light or dark)"):format(p.name or ("#" .. i), tostring(t)), 0)
    end
    out[#out + 1] = { colors = colors, name = p.name, type = t }
  end
  out.labels = labels
  return out
end

-- ---- sources ----------------------------------------------------------------------------------

-- The lead's glyph ids by character (the first character of each glyph).
local function chars_of(font)
  local cps = font:codepoints()
  local by_gid = {}
  for _, cp in ipairs(cps) do
    local g = font:glyph(cp)
    if g and not by_gid[g] then by_gid[g] = cp end
  end
  return by_gid
end

-- A stack's color glyphs and palette.
local function from_stack(s, b, opts, keep)
  local lead = s.lead
  local n = lead:info().glyph_count
  local by_gid = chars_of(lead)
  local colors, labels, entry = {}, {}, {}
  for i, layer in ipairs(s.layers) do
    if not layer.hidden and layer.color then
      colors[#colors + 1] = assert(palette.color(layer.color))
      local info = layer.font:info()
      labels[#labels + 1] = layer.label or info.full_name or info.family
      entry[i] = #colors - 1
    end
  end
  -- layers share the lead's em, and hold some of its glyphs (white space aside)
  local found, missing, first_missing = {}, {}, {}
  local upem = lead:info().units_per_em
  for i, layer in ipairs(s.layers) do
    if layer.upem ~= upem then
      error(("layer %d (%s) has %d units per em and the lead (%s) has %d: a font's layers share one em "
        .. "(scale one of them first, e.g. with fontTools' scaleUpem)"):format(i, layer.name, layer.upem,
        s.layers[s.lead_index].name, upem), 0)
    end
  end
  local trees = {}
  for gid = 1, n - 1 do
    local children = {}
    if keep and not keep[gid] then goto next_glyph end
    for i, layer in ipairs(s.layers) do
      if not layer.hidden then
        local lg = s:layer_glyph(layer, gid, by_gid[gid])
        if lg then
          local cp = by_gid[gid]
          if not (cp and (cp == 32 or cp == 0xA0 or (cp >= 0x2000 and cp <= 0x200F) or cp == 0x3000)) then
            found[i] = (found[i] or 0) + 1
          end
          -- as the stack draws it: the layer's color is its text color, a color font keeps
          -- its own palette's colors
          local t = layer.font:paint(lg, { format = layer.format or "auto" })
          t = resolve_palette(t, layer.font, type(layer.palette) == "number" and layer.palette or 0, layer.overrides)
          if layer.color then
            local k = entry[i]
            t = color_map(t, function(c)
              if c.foreground then return { palette = k, alpha = c.alpha } end
              return c
            end)
          end
          if layer.font ~= lead then t = with_font(t, layer.font) end
          t = translated(t, layer.dx * upem, -layer.dy * upem)
          children[#children + 1] = t
        else
          missing[i] = (missing[i] or 0) + 1
          first_missing[i] = first_missing[i] or gid
        end
      end
    end
    if #children > 0 then trees[gid] = #children == 1 and children[1] or { kind = "layers", children = children } end
    ::next_glyph::
  end
  for i, layer in ipairs(s.layers) do
    if not layer.hidden and not found[i] then
      error(("layer %d (%s) has none of the lead's glyphs (matched by %s%s)"):format(i, layer.name, s.match,
        s.match == "name" and ", then by character" or ""), 0)
    end
    if missing[i] and layer.font ~= lead and not s.quiet then
      local g = first_missing[i]
      require("chromatype.layout").warn(("font: layer %d (%s) lacks %d of the lead's glyphs (first '%s'); those color glyphs go without it")
        :format(i, layer.name, missing[i], lead:glyph_name(g) or ("gid " .. g)))
    end
  end
  local pals = { { colors = colors, name = opts.stack_name } }
  return trees, pals, labels
end

-- ---- baking filters ---------------------------------------------------------------------------

-- The color glyphs of a font drawn through filters (chromatype.filter.bake).
local function from_filters(font, filters, opts)
  local filter = require "chromatype.filter"
  local list = {}
  for i, f in ipairs(filters) do
    if type(f) == "string" then
      local fl, err = filter.load(f)
      if not fl then error(err, 0) end
      list[i] = fl
    elseif type(f) == "table" and f.ranged then
      error(("filter '%s': a range (LO..HI@TAG) needs an axis: axes = {'TAG=MIN:DEFAULT:MAX'} (--axis)"):format(f.spec), 0)
    elseif type(f) == "table" and f.funcs then list[i] = f
    elseif type(f) == "table" then list[i] = filter.new(f, nil, "filter " .. i)
    else error(("filters[%d]: a filter spec, a loaded filter or a table of functions expected"):format(i), 0) end
  end
  local trees = {}
  local n = font:info().glyph_count
  local by_gid = chars_of(font)
  for gid = 1, n - 1 do
    if not opts.keep or opts.keep[gid] then
      local t = filter.bake(list, font, gid, by_gid[gid] and utf8.char(by_gid[gid]) or "", opts.seed or 0,
        opts.rand and opts.rand(gid))
      if opts.all or not same_tree(t, font:paint(gid)) then trees[gid] = t end   -- else left as it is
    end
  end
  return trees
end

-- A randomized font (`randomize = N`): each glyph baked N + 1 times, the filters drawing
-- from a random stream of the seed, the glyph and the variant; the first is the glyph, the
-- others its variants (GSUB calt cycles a run through them, rand offers them).  Glyphs
-- whose variants all draw alike (a space) get none.
local function randomized(lead, opts, keep)
  local n = math.tointeger(opts.randomize)
  if not n or n < 1 or n > 64 then
    error(("randomize: an integer from 1 to 64 expected, got %s"):format(tostring(opts.randomize)), 0)
  end
  if not (opts.filters and #opts.filters > 0) then
    error("randomize: no filter to draw the variants (a filter that reads its random stream: misregistration, ...)", 0)
  end
  local random = require "chromatype.random"
  local root = random.new(opts.seed or 0):fork("randomize")
  local forms = {}
  for v = 0, n do
    forms[v] = from_filters(lead, opts.filters, { seed = opts.seed, keep = keep, all = true,
      rand = function(gid) return root:fork(gid, v) end })
  end
  local gids, variants = {}, {}
  for gid in pairs(forms[0]) do gids[#gids + 1] = gid end
  table.sort(gids)
  for _, gid in ipairs(gids) do
    local list, differs = {}, false
    for v = 1, n do
      list[v] = forms[v][gid]
      differs = differs or not same_tree(list[v], forms[0][gid])
    end
    if differs then variants[#variants + 1] = { gid = gid, trees = list } end
  end
  if #variants == 0 then
    error("randomize: the filters draw nothing random: every variant of every glyph is the same "
      .. "(a filter that reads ctx.rng or ctx:stream(), such as misregistration or alternates)", 0)
  end
  return forms[0], variants
end

-- ---- save_font ----------------------------------------------------------------------------------

local function parse_formats(f)
  if f == nil then return nil end
  local list = {}
  if type(f) == "string" then
    for part in f:gmatch("[^,%s]+") do list[#list + 1] = part end
  elseif type(f) == "table" then
    for i, v in ipairs(f) do list[i] = v end
  else
    error("formats: a list or 'colr0,colr1,svg' expected", 0)
  end
  for _, v in ipairs(list) do
    if v ~= "colr0" and v ~= "colr1" and v ~= "svg" then
      error(("formats: unknown format '%s' (expected colr0, colr1, svg)"):format(tostring(v)), 0)
    end
  end
  if #list == 0 then error("formats: empty", 0) end
  return list
end
M.parse_formats = parse_formats

-- The glyph id of a key of opts.glyphs: an id, one character, or a glyph name.
local function glyph_key(font, k, names)
  if math.type(k) == "integer" then return k end
  if type(k) ~= "string" then return nil end
  if utf8.len(k) == 1 then
    local g = font:glyph(utf8.codepoint(k))
    if g then return g end
  end
  if not names.built then
    for gid = 0, font:info().glyph_count - 1 do
      local nm = font:glyph_name(gid)
      if nm and not names[nm] then names[nm] = gid end
    end
    names.built = true
  end
  return names[k]
end

local function save(source, path, opts)
  opts = opts or {}
  local lead, s
  if type(source) == "table" and not stack.is_stack(source) and source.svg ~= nil then
    -- artwork: SVG drawings made into a font (chromatype.fontmake.artwork)
    if type(path) ~= "string" or path == "" then argerr(2, "an output path expected") end
    if type(opts) ~= "table" then argerr(3, "table of options expected") end
    return require("chromatype.fontmake.artwork").save(source, path, opts, M.parse_formats,
      require("chromatype.layout").warn)
  end
  if stack.is_stack(source) then s = source; lead = s.lead
  elseif is_font(source) then lead = source
  elseif type(source) == "string" then
    local f, err = ct.open_font(source)
    if not f then return nil, err end
    lead = f
  else
    argerr(1, "a Font, a Stack or a font path expected (or artwork: {svg = DIR}), got " .. type(source))
  end
  if type(path) ~= "string" or path == "" then argerr(2, "an output path expected") end
  if type(opts) ~= "table" then argerr(3, "table of options expected") end
  for k in pairs(opts) do
    if not OPTS[k] then argerr(3, ("unknown option '%s'"):format(tostring(k))) end
  end
  local formats = parse_formats(opts.formats)
  if opts.text ~= nil and type(opts.text) ~= "string" then error("text: a string expected", 0) end
  -- with a subset, only the glyphs it keeps (hb-subset's closure: GSUB, COLR) are made
  local keep
  if opts.text then
    keep = {}
    for _, gid in ipairs(lead:closure(opts.text)) do keep[gid] = true end
  end
  local b = assert(core.font_builder(lead))
  local trees, base, labels, var, variants = {}, nil, {}, nil, nil
  if opts.randomize ~= nil and (s or opts.axes ~= nil) then
    error("randomize: goes with filters baked into a font (not with a stack, not with axes)", 0)
  end
  if s and opts.axes ~= nil then error("axes: effect axes go with filters baked into a font, not with a stack", 0) end
  if opts.masters ~= nil and opts.axes == nil then error("masters: goes with axes", 0) end

  if s then
    trees, base, labels = from_stack(s, b, opts, keep)
    if opts.filters and #opts.filters > 0 then
      error("filters: bake them into a font, not into a stack (make the stack's font first)", 0)
    end
  else
    base = lead:palettes()
    for i, v in ipairs(lead:entry_labels()) do labels[i] = v or nil end
    if opts.axes ~= nil then
      -- effects as axes: the filters baked at the default and at each master
      if not (opts.filters and #opts.filters > 0) then
        error("axes: no filter to vary (filters with a range: offset=0.02em..0.12em@EXTR)", 0)
      end
      if opts.report ~= nil and type(opts.report) ~= "function" then error("report: a function(line) expected", 0) end
      trees, var = require("chromatype.fontmake.axes").bake(lead, opts.filters, opts, function(list)
        return from_filters(lead, list, { seed = opts.seed, keep = keep, all = true })
      end, opts.report)
    elseif opts.randomize ~= nil then
      trees, variants = randomized(lead, opts, keep)
    elseif opts.filters and #opts.filters > 0 then
      trees = from_filters(lead, opts.filters, { seed = opts.seed, keep = keep })
    end
  end
  -- paint trees given glyph by glyph
  local names = {}
  if opts.glyphs ~= nil then
    if type(opts.glyphs) ~= "table" then error("glyphs: a table {[glyph] = tree} expected", 0) end
    for k, t in pairs(opts.glyphs) do
      local gid = glyph_key(lead, k, names)
      if not gid then error(("glyphs: the font has no glyph '%s'"):format(tostring(k)), 0) end
      if type(t) == "function" then t = t(gid, lead:glyph_name(gid), lead) end
      trees[gid] = t
    end
  end
  if opts.glyph ~= nil then
    if type(opts.glyph) ~= "function" then error("glyph: a function(gid, name, font) expected", 0) end
    for gid = 1, lead:info().glyph_count - 1 do
      local t = (not keep or keep[gid]) and opts.glyph(gid, lead:glyph_name(gid), lead) or nil
      if t ~= nil then trees[gid] = t end
    end
  end

  -- color tables written anew (glyphs given, or formats asked): the lead's own color glyphs
  -- that nothing replaced go in as they are, converted
  if not s and (next(trees) ~= nil or formats) then
    local own = 0
    for gid = 1, lead:info().glyph_count - 1 do
      if trees[gid] == nil and (not keep or keep[gid]) then
        local t = lead:paint(gid)
        if not plain(t, gid) then trees[gid] = t; own = own + 1 end
      end
    end
    if next(trees) == nil then
      error(("%s has no color glyphs to write as %s"):format(font_name(lead), table.concat(formats, ", ")), 0)
    end
  end

  -- palettes: the base's (the lead's, or the stack's) and the extra ones
  local extras = opts.palettes
  if type(extras) == "string" then extras = { extras } end
  if extras ~= nil and type(extras) ~= "table" then error("palettes: a list of palettes expected", 0) end
  -- entry labels: the source's, then opts.labels ({[entry] = text}, entries from 0)
  if opts.labels ~= nil then
    if type(opts.labels) ~= "table" then error("labels: a table {[entry] = text} expected", 0) end
    for k, v in pairs(opts.labels) do
      if math.type(k) ~= "integer" or k < 0 or type(v) ~= "string" then
        error(("labels: entry numbers (from 0) to strings expected, got [%s] = %s"):format(tostring(k), tostring(v)), 0)
      end
      labels[k + 1] = v
    end
  end
  local pals = build_palettes(base or {}, extras, opts.palette_type, labels)
  if #pals == 0 and extras and #extras > 0 then
    error(("palettes: %s has no palette to start from (no CPAL)"):format(font_name(lead)), 0)
  end
  if #pals > 0 then b:set_palettes(pals) end

  local any = false
  for gid, t in pairs(trees) do
    if t then
      local ok, err = pcall(b.set_glyph, b, gid, t)
      if not ok then
        error(("glyph %d ('%s'): %s"):format(gid, lead:glyph_name(gid) or "?", tostring(err):gsub("^bad argument #%d+ to 'set_glyph' %((.*)%)$", "%1")), 0)
      end
      any = true
    end
  end
  if s and not any then error("the stack has no glyph to write", 0) end
  if variants then
    for _, v in ipairs(variants) do b:add_variants(v.gid, v.trees) end
  end
  if var then
    b:set_axes(var.axes, var.masters)
    for gid, list in pairs(var.trees) do b:set_glyph_masters(gid, list) end
  end
  local family = opts.family
  if family == nil and any then family = family_of(lead) .. (s and " Chromatic" or " Color") end
  if family ~= nil then
    if type(family) ~= "string" or family == "" then error("family: a name expected", 0) end
    b:set_family(family)
  end
  if opts.specimen ~= nil and (type(opts.specimen) ~= "string" or opts.specimen == "") then
    error("specimen: the path of an HTML file expected", 0)
  end
  local ok, err = b:write(path, { formats = formats, text = opts.text, woff2 = opts.woff2 })
  -- a variable lead whose glyphs are drawn anew keeps its axes as COLRv1 of TrueType
  -- outlines at its default; else it is written at its location: said, with the location
  if ok and any and #lead:axes() > 0 and not b:kept_variations() then
    local at = {}
    for _, a in ipairs(lead:axes()) do at[#at + 1] = ("%s=%g"):format(a.tag, a.value) end
    require("chromatype.layout").warn(("font: %s is variable: the font written is its instance at %s (its axes are "
      .. "kept when it has TrueType outlines, is at its default, is written as COLRv1 alone, its color glyphs "
      .. "paint no other font's outlines and its own COLR paints do not vary)"):format(font_name(lead),
      table.concat(at, ",")))
  end
  if ok and opts.specimen then
    ok, err = require("chromatype.fontmake.specimen").write(path, opts.specimen, { text = opts.text })
    if not ok then err = "specimen: " .. tostring(err) end
  end
  return ok, err
end

--- Writes a color font (see the module's description); returns true, or nil and a message.
-- Misuse (a wrong type of argument, an unknown option) raises.
function M.save_font(source, path, opts)
  local ok, res, err = pcall(save, source, path, opts)
  if not ok then
    if type(res) == "string" and res:match("bad argument #%d+ to 'save_font'") then error(res, 0) end
    return nil, tostring(res)
  end
  return res, err
end

-- ---- the command line: chromatype font SOURCE -o OUT ... (src/cli/font.c) -------------------------

local read_file = core.read_file

-- The stack an XML document defines (`name`, or its only one).
local function xml_stack(path, name)
  local document = require "chromatype.document"
  local text, err = read_file(path)
  if not text then error(err, 0) end
  local doc = document.from_xml(text, path)
  local names = {}
  for n in pairs(doc.stacks) do names[#names + 1] = n end
  table.sort(names)
  if name then
    if not doc.stacks[name] then
      error(("%s: no stack '%s' (it defines %s)"):format(path, name, #names > 0 and table.concat(names, ", ") or "none"), 0)
    end
    return doc.stacks[name], name
  end
  if #names == 0 then error(("%s: the document defines no <stack>"):format(path), 0) end
  if #names > 1 then
    error(("%s: the document defines %d stacks (%s): choose one with --stack"):format(path, #names, table.concat(names, ", ")), 0)
  end
  return doc.stacks[names[1]], names[1]
end

-- The stack a Lua script returns.
local function lua_stack(path)
  local chunk, err = core.load_file(path)
  if not chunk then error(err, 0) end
  local v = chunk()
  if stack.is_stack(v) then return v end
  if type(v) == "table" and stack.is_stack(v.stack) then return v.stack end
  error(("%s: the script must return a stack (return ct.stack{...}), got %s"):format(path, type(v)), 0)
end

--- The command line's font command: `t` holds source, output, layers ({"FONT=COLOR", ...}),
--- lead, stack, palettes, palette_type, filters, formats, text, family, woff2, seed.
--- Returns true, or nil and a message.
function M.cli(t)
  local ok, res, err = pcall(function()
    local source
    if t.svg then
      if t.source or (t.layers and #t.layers > 0) then error("--svg goes alone (no SOURCE, no --layer)", 0) end
      return save({ svg = t.svg, map = t.map }, t.output, { formats = t.formats, text = t.text, family = t.family,
        woff2 = t.woff2, upem = t.upem, ascent = t.ascent, descent = t.descent, advance = t.advance,
        keep_going = t.keep_going, flatten_gradients = t.flatten_gradients })
    end
    if t.layers and #t.layers > 0 then
      if t.source then error("give either SOURCE or --layer, not both", 0) end
      local layers = {}
      for i, spec in ipairs(t.layers) do
        local font, color = spec:match("^(.*)=([^=]*)$")
        if not font then font = spec end
        if font == "" then error(("--layer '%s': a font expected before '='"):format(spec), 0) end
        layers[i] = { font = font, color = color ~= "" and color or nil }
      end
      layers.lead = t.lead
      layers.warn = false
      local okk, s = pcall(stack.new, layers)
      if not okk then error((tostring(s):gsub("^.-bad argument #%d+ to 'stack' %((.*)%)$", "--layer: %1")), 0) end
      source = s
    elseif not t.source then
      error("a font, an XML or Lua file defining a stack, or --layer FONT=COLOR ... expected", 0)
    elseif t.lead then
      error("--lead goes with --layer", 0)
    else
      local ext = (t.source:match("%.(%w+)$") or ""):lower()
      local name
      if ext == "xml" then source, name = xml_stack(t.source, t.stack)
      elseif ext == "lua" then source = lua_stack(t.source)
      else
        if t.stack then error("--stack goes with an XML document", 0) end
        local f, e = ct.open_font(t.source)
        if not f then error(e, 0) end
        source = f
      end
      t.stack_name = name
    end
    if t.variations then
      -- every font of the source with one of the axes takes the values of its axes
      local fonts = {}
      if stack.is_stack(source) then
        for _, l in ipairs(source.layers) do fonts[#fonts + 1] = l.font end
      else
        fonts[1] = source
      end
      local values, used = {}, {}
      for part in t.variations:gmatch("[^,]+") do
        local tag, v = part:match("^%s*(%w%w?%w?%w?)%s*=%s*([-+%d.eE]+)%s*$")
        if not tag or not tonumber(v) then error(("--variations: '%s' is not TAG=VALUE"):format(part), 0) end
        values[#values + 1] = { tag = tag, v = v }
      end
      local done = {}
      for _, f in ipairs(fonts) do
        if not done[f] then
          done[f] = true
          local have = {}
          for _, a in ipairs(f:axes()) do have[a.tag] = true end
          local parts = {}
          for _, x in ipairs(values) do
            if have[x.tag] then parts[#parts + 1] = x.tag .. "=" .. x.v; used[x.tag] = true end
          end
          if #parts > 0 then
            local okv, e = f:set_variations(table.concat(parts, ","))
            if not okv then error("--variations: " .. tostring(e), 0) end
          end
        end
      end
      for _, x in ipairs(values) do
        if not used[x.tag] then error(("--variations: no font of the source has the axis '%s'"):format(x.tag), 0) end
      end
    end
    local labels
    for _, spec in ipairs(t.labels or {}) do
      local i, text = spec:match("^%s*(%d+)%s*=(.*)$")
      if not i then error(("--label '%s': IDX=TEXT expected"):format(spec), 0) end
      labels = labels or {}
      labels[tonumber(i)] = text
    end
    local axes
    if t.axes and #t.axes > 0 then axes = t.axes end
    if t.masters and not axes then error("--masters goes with --axis", 0) end
    return save(source, t.output, { labels = labels, formats = t.formats, text = t.text, family = t.family, woff2 = t.woff2,
      palettes = t.palettes, palette_type = t.palette_type, filters = t.filters, seed = t.seed,
      stack_name = t.stack_name, axes = axes, masters = t.masters, specimen = t.specimen, randomize = t.randomize,
      report = axes and function(line)
        core.write_stderr("chromatype: ", line, "\n")
      end })
  end)
  if not ok then return nil, tostring(res) end
  return res, err
end

return M
