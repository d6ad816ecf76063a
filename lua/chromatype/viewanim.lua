--- chromatype.viewanim: what moves with no script at all.  `chromatype view FONT TEXT
-- --animate 'EDPT=0:200,EHLT=24:0' --animate 'palette=0:1' --duration 3 -o out.webp` comes
-- here: each `--animate` names tracks, `NAME=V0:V1[:V2...]`, whose values are spread evenly
-- over the animation (first value at the first frame, last at the last) and interpolated in
-- between, after the easing.  Names: a variation axis of the font (its tag), `size` (points),
-- `tracking` (ems), `palette` (palettes by index or name, blended entry by entry in OKLab
-- between two neighbours), `color` (the text color) and `background` (colors, in OKLab).
-- Every frame is what `view` draws as a still with those values (and OT-SVG glyphs' own SMIL
-- animations at the frame's time), on a canvas as large as the largest frame.  With no
-- --animate, a font with animated SVG glyphs plays them, for their duration by default.
-- @module chromatype.viewanim

local ct = require "chromatype"
local animate = require "chromatype.animate"
local layout = require "chromatype.layout"
local palette = require "chromatype.palette"

local M = {}

local MAX_TRACKS = 64
local MAX_STOPS = 256

local function fail(fmt, ...) error(("animate: " .. fmt):format(...), 0) end

-- hb-view colors are "RRGGBB[AA]" without '#'; CSS forms pass as they are.
local function css_color(s, what)
  if s:match("^%x%x%x%x%x%x$") or s:match("^%x%x%x%x%x%x%x%x$") then s = "#" .. s end
  local c, err = palette.color(s)
  if not c then fail("%s: %s", what, err) end
  return c
end

local function number(s, what)
  local v = tonumber(s)
  if not v or v ~= v or v == math.huge or v == -math.huge then fail("%s: '%s' is not a number", what, s) end
  return v
end

--- Parses `--animate` specs (a list of strings) against a font: a list of tracks
--- `{name =, kind = "axis"|"size"|"tracking"|"palette"|"color"|"background", stops = {...}}`.
--- Unknown names and axes, bad values and palettes the font lacks raise, naming the spec.
function M.parse(specs, font)
  local tracks, seen = {}, {}
  local axes = {}
  for _, a in ipairs(font:axes()) do axes[a.tag] = a end
  local path = font:info().path
  for _, spec in ipairs(specs) do
    for item in spec:gmatch("[^,]+") do
      local name, values = item:match("^%s*([%w_%-]+)%s*=%s*(.-)%s*$")
      if not name then fail("'%s' is not NAME=FROM:TO", item) end
      if seen[name] then fail("'%s' is animated twice", name) end
      seen[name] = true
      local kind
      if name == "size" or name == "tracking" or name == "palette" or name == "color" or name == "background" then
        kind = name
      elseif axes[name] then
        kind = "axis"
      elseif #name == 4 then
        local tags = {}
        for t in pairs(axes) do tags[#tags + 1] = t end
        table.sort(tags)
        fail("%s has no axis '%s' (%s)", path, name, #tags > 0 and "its axes: " .. table.concat(tags, ", ") or "it has no axes")
      else
        fail("unknown name '%s' (an axis tag, size, tracking, palette, color or background)", name)
      end
      local stops = {}
      for v in (values .. ":"):gmatch("(.-):") do stops[#stops + 1] = v end
      if #stops < 2 then fail("%s: at least two values, FROM:TO, expected (got '%s')", name, values) end
      if #stops > MAX_STOPS then fail("%s: more than %d values", name, MAX_STOPS) end
      for i, v in ipairs(stops) do
        local what = ("%s value %d"):format(name, i)
        if kind == "axis" then
          local a = axes[name]
          local x = number(v, what)
          if x < a.min or x > a.max then
            fail("%s: %g is outside the axis %s of %s (%g..%g)", what, x, name, path, a.min, a.max)
          end
          stops[i] = x
        elseif kind == "size" then
          local x = number(v, what)
          if not (x > 0 and x <= 100000) then fail("%s: a size from 0 to 100000 points expected", what) end
          stops[i] = x
        elseif kind == "tracking" then
          local x = number(v, what)
          if x < -1 or x > 10 then fail("%s: tracking from -1 to 10 ems expected", what) end
          stops[i] = x
        elseif kind == "palette" then
          local idx = font:find_palette(tonumber(v) and math.tointeger(tonumber(v)) or v)
          if not idx then
            fail("%s: %s has no palette '%s' (it has %d)", what, path, v, font:palette_count())
          end
          stops[i] = idx
        else
          stops[i] = css_color(v, what)
        end
      end
      if #tracks >= MAX_TRACKS then fail("more than %d animated values", MAX_TRACKS) end
      tracks[#tracks + 1] = { name = name, kind = kind, stops = stops }
    end
  end
  return tracks
end

-- The stops around progress p: index of the first and the fraction towards the next.
local function segment(stops, p)
  local n = #stops
  local x = p * (n - 1)
  local i = math.max(0, math.min(n - 2, math.floor(x)))
  return i + 1, x - i
end

--- The value of a track at progress p (0..1, already eased); palettes give overrides.
function M.value(track, p, font)
  local i, f = segment(track.stops, p)
  local a, b = track.stops[i], track.stops[i + 1]
  if track.kind == "palette" then
    if f == 0 or a == b then return a end
    if f == 1 then return b end
    return palette.mix(font, a, b, f, "oklab")
  elseif track.kind == "color" or track.kind == "background" then
    if f == 0 then return a end
    return animate.mix(a, b, f)
  end
  return a + (b - a) * f
end

-- "0=ff0000ff,3=#00ff00" -> overrides
local function custom_palette(s)
  local out = {}
  for item in s:gmatch("[^,]+") do
    local i, c = item:match("^%s*(%d+)%s*=%s*(.-)%s*$")
    if not i then fail("--custom-palette: '%s' is not IDX=COLOR", item) end
    out[tonumber(i)] = css_color(c, "--custom-palette")
  end
  return out
end

local function variations_table(s)
  local t = {}
  for item in (s or ""):gmatch("[^,]+") do
    local tag, v = item:match("^%s*(%S+)%s*=%s*(%S+)%s*$")
    if tag and tonumber(v) then t[tag] = tonumber(v) end
  end
  return t
end

--- `chromatype view ... --animate`: `t` holds view's options as strings and numbers (font,
--- index, text, size, palette, custom, foreground, background, margin = {t, r, b, l},
--- features, variations, script, language, direction, format, dpi, output) and the
--- animation's (animate = list of specs, duration, fps, frames, ease, loop, quality, effort,
--- poster, workers, dither).  Returns true or raises with a one-line message.
function M.view(t)
  local font, ferr = ct.open_font(t.font, (t.index or 0) > 0 and { index = t.index } or nil)
  if not font then error(ferr, 0) end
  if t.matte and not palette.color(t.matte) then
    error(("view: --matte: bad color '%s' (expected #RRGGBB, #RRGGBBAA or #RGB)"):format(t.matte), 0)
  end
  local tracks = M.parse(t.animate or {}, font)
  -- the SVG animations of the glyphs drawn (not of the whole font)
  local svg_count, svg_duration = 0, 0
  for _, g in ipairs(font:shape(t.text, { features = t.features, script = t.script, language = t.language,
    direction = t.direction })) do
    local c, d = font:svg_animation(g.gid)
    svg_count, svg_duration = svg_count + c, math.max(svg_duration, d)
  end
  if #tracks == 0 and svg_count == 0 then
    error(("view: %s is an animation: say what moves with --animate (e.g. --animate wght=100:900); "
      .. "%s has no SVG glyph animations to play"):format(t.output, t.font), 0)
  end
  local ease = animate.ease[(t.ease or "linear"):gsub("-", "_")]
  if t.ease and t.ease:match("^steps%(") then
    local n = math.tointeger(tonumber(t.ease:match("^steps%((%d+)%)$")))
    if not n or n < 1 then fail("--ease: steps(N) with N a positive integer expected") end
    ease = animate.ease.steps(n)
  end
  if not ease or type(ease) ~= "function" then
    fail("--ease: unknown easing '%s' (linear, in, out, in-out or steps(N))", t.ease)
  end
  local fps = t.fps or 30
  local n = t.frames
  if not n then
    -- the glyphs' own SMIL animations, played whole, when nothing else says how long
    local d = t.duration or (svg_duration > 0 and #tracks == 0 and math.min(svg_duration, 3600)) or 3
    n = math.max(1, math.floor(d * fps + 0.5))
  end
  local base_vars = variations_table(t.variations)
  local base = {
    size = t.size or 256, tracking = 0, palette = t.palette or 0,
    color = t.foreground and css_color(t.foreground, "--foreground") or "#000000",
    background = t.background and css_color(t.background, "--background") or "#ffffff",
  }
  if type(base.palette) == "string" then
    local idx = font:find_palette(tonumber(base.palette) and math.tointeger(tonumber(base.palette)) or base.palette)
    if not idx then fail("--font-palette: %s has no palette '%s'", font:info().path, base.palette) end
    base.palette = idx
  end
  local custom = t.custom and custom_palette(t.custom) or nil
  local m = t.margin or { 16, 16, 16, 16 }
  local info = font:info()
  local upem = info.units_per_em

  -- the values of frame i
  local function at(i)
    local p = ease(n > 1 and i / (n - 1) or 0)
    local v = { size = base.size, tracking = base.tracking, palette = base.palette, color = base.color,
      background = base.background, vars = {} }
    for k, x in pairs(base_vars) do v.vars[k] = x end
    local any_axis = false
    for _, tr in ipairs(tracks) do
      local x = M.value(tr, p, font)
      if tr.kind == "axis" then v.vars[tr.name] = x; any_axis = true
      else v[tr.kind] = x end
    end
    if any_axis or next(base_vars) then font:set_variations(v.vars) end
    return v
  end
  local function run_of(v)
    return { font = font, size = v.size, tracking = v.tracking * v.size, features = t.features, script = t.script,
      language = t.language, direction = t.direction }
  end
  -- the canvas: as large as the largest frame (every frame when there are not too many)
  local adv, asc, desc = 0, 0, 0
  local step = math.max(1, n // 2000)
  for i = 0, n - 1, step do
    local v = at(i)
    local w = layout.measure(run_of(v), t.text)
    adv = math.max(adv, w)
    asc = math.max(asc, info.ascender * v.size / upem)
    desc = math.max(desc, -info.descender * v.size / upem)
  end
  if (n - 1) % step ~= 0 then
    local v = at(n - 1)
    adv = math.max(adv, layout.measure(run_of(v), t.text))
  end
  local w = math.max(1, m[4] + adv + m[2])
  local h = math.max(1, m[1] + asc + desc + m[3])

  local ok, err = animate.animate {
    width = w, height = h, fps = fps, frames = n, output = t.output, dpi = t.dpi or 72, loop = t.loop,
    quality = t.quality, effort = t.effort, poster = t.poster, workers = t.workers, dither = t.dither, matte = t.matte,
    draw = function(c, _, i)
      local v = at(i)
      if select(4, ct.parse_color(v.background)) > 0 then c:background(v.background) end
      local r = run_of(v)
      local overrides
      if type(v.palette) == "table" then
        overrides = {}
        for k, x in pairs(v.palette) do overrides[k] = x end
      end
      if custom then
        overrides = overrides or {}
        for k, x in pairs(custom) do overrides[k] = x end
      end
      r.palette = type(v.palette) == "number" and v.palette or base.palette
      r.overrides = overrides
      r.color = v.color
      r.format = t.format
      layout.draw_lines(c, { { y = m[1] + asc, items = { { text = t.text, run = r, x = m[4] } } } })
    end,
  }
  if not ok then error(err, 0) end
  return true
end

return M
