--- chromatype.fontmake.axes: effects as variable axes.  A numeric filter option given as a
-- range on an axis (`shadow:steps=8,offset=0.02em..0.12em@EXTR`, `--axis 'EXTR=0:0:100,
-- name=Extrusion'`) makes the baked font vary: the filters are baked at the default and at
-- each master (`masters` per axis, its ends included), the trees go to the font builder,
-- which writes COLRv1 with PaintVar* records, fvar and STAT (fontbuild-var.c, colrvar.c).
-- Between masters a variable font interpolates linearly: the trees are also baked halfway
-- between masters, and the report says whether the effect is exact there or how far off.
-- @module chromatype.fontmake.axes

local M = {}

local function num(s, what)
  local n = tonumber(s)
  if not n or n ~= n or n == math.huge or n == -math.huge then error(("%s: a number expected, got '%s'"):format(what, tostring(s)), 0) end
  return n
end

--- An axis from "TAG=MIN:DEFAULT:MAX[,name=NAME]" or "TAG=MIN:MAX" (the default then is MIN),
--- or a table {tag =, min =, default =, max =, name =}.
function M.parse_axis(spec)
  local a
  if type(spec) == "table" then
    a = { tag = spec.tag, min = spec.min, default = spec.default, max = spec.max, name = spec.name }
    if a.default == nil then a.default = a.min end
  elseif type(spec) == "string" then
    local head, rest = spec:match("^([^,]*),?(.*)$")
    local tag, range = head:match("^%s*(....)%s*=%s*(.-)%s*$")
    if not tag then error(("axis '%s': TAG=MIN:DEFAULT:MAX expected (a tag of four characters)"):format(spec), 0) end
    local parts = {}
    for p in (range .. ":"):gmatch("([^:]*):") do parts[#parts + 1] = p end
    if #parts ~= 2 and #parts ~= 3 then error(("axis '%s': MIN:DEFAULT:MAX or MIN:MAX expected"):format(spec), 0) end
    local what = "axis " .. tag
    a = { tag = tag, min = num(parts[1], what), max = num(parts[#parts], what) }
    a.default = #parts == 3 and num(parts[2], what) or a.min
    for kv in rest:gmatch("[^,]+") do
      local k, v = kv:match("^%s*(%w+)%s*=%s*(.-)%s*$")
      if k == "name" and v ~= "" then a.name = v
      else error(("axis %s: unknown '%s' (name=NAME expected)"):format(tag, kv), 0) end
    end
  else
    error("axes: a list of 'TAG=MIN:DEFAULT:MAX' or {tag =, min =, default =, max =} expected", 0)
  end
  if type(a.tag) ~= "string" or #a.tag ~= 4 or not a.tag:match("^[%g ]+$") then
    error(("axis '%s': a tag of four printable characters expected"):format(tostring(a.tag)), 0)
  end
  for _, k in ipairs({ "min", "default", "max" }) do
    if type(a[k]) ~= "number" then error(("axis %s: %s: a number expected"):format(a.tag, k), 0) end
  end
  if not (a.min <= a.default and a.default <= a.max and a.min < a.max) then
    error(("axis %s: MIN <= DEFAULT <= MAX and MIN < MAX expected, got %g:%g:%g"):format(a.tag, a.min, a.default, a.max), 0)
  end
  if a.name ~= nil and type(a.name) ~= "string" then error(("axis %s: name: a string expected"):format(a.tag), 0) end
  a.name = a.name or a.tag
  return a
end

-- ---- ranges in filter specs -------------------------------------------------------------


-- "0.02em 0.5" -> {"", "em ", ""} and {0.02, 0.5}: the text around the numbers, the numbers
local function split_numbers(s)
  local skel, nums, pos = {}, {}, 1
  while true do
    local i, j = s:find("[-+]?%d*%.?%d+", pos)
    if not i then break end
    -- an exponent belongs to the number
    local e = s:match("^[eE][-+]?%d+", j + 1)
    if e then j = j + #e end
    skel[#skel + 1] = s:sub(pos, i - 1)
    nums[#nums + 1] = tonumber(s:sub(i, j))
    pos = j + 1
  end
  skel[#skel + 1] = s:sub(pos)
  return skel, nums
end

-- A range value "LO..HI@TAG" -> {lo =, hi =, tag =, skel =, nlo =, nhi =}, or nil.
local function parse_range(filter, key, v)
  if type(v) ~= "string" then return nil end
  local lo, hi, tag = v:match("^(.-)%.%.(.-)@(....)$")
  if not lo then
    if v:find("%.%.") and v:find("@") then
      error(("%s: %s: a range is LO..HI@TAG with a tag of four characters, got '%s'"):format(filter, key, v), 0)
    end
    return nil
  end
  local s1, n1 = split_numbers(lo)
  local s2, n2 = split_numbers(hi)
  local same = #n1 > 0 and #n1 == #n2 and not lo:find("#") and not hi:find("#")
  for i = 1, same and #s1 or 0 do if s1[i]:gsub("%s", "") ~= s2[i]:gsub("%s", "") then same = false end end
  if not same then
    error(("%s: %s: a range needs numbers of one form at both ends (like 0.02em..0.12em), got '%s'")
      :format(filter, key, v), 0)
  end
  return { key = key, tag = tag, skel = s1, lo = n1, hi = n2 }
end

local function at(r, t)
  local out = {}
  for i, s in ipairs(r.skel) do
    out[#out + 1] = s
    if r.lo[i] then out[#out + 1] = ("%.9g"):format(r.lo[i] + (r.hi[i] - r.lo[i]) * t) end
  end
  return table.concat(out)
end

--- The filters' templates: each filter spec string split into its path and its options in
--- order, the ranges among them parsed; loaded filters (tables) stay as they are.  Returns
--- the templates and the set of axis tags the ranges name.
function M.templates(filters)
  local list, tags = {}, {}
  for i, f in ipairs(filters) do
    local spec = type(f) == "table" and f.ranged and f.spec or f
    if type(spec) == "string" then
      local path, o = spec:match("^(.-%.lua):(.*)$")
      if not path then path, o = spec:match("^([^/:]+):(.*)$") end
      local t = { path = path or spec, parts = {}, ranges = 0 }
      for part in (o or ""):gmatch("[^,]+") do
        local k, v = part:match("^%s*([%w_%-]+)%s*=%s*(.-)%s*$")
        if not k then error(("%s: bad filter option '%s' (want key=value)"):format(t.path, part), 0) end
        local r = parse_range(t.path:match("([^/]*)$"):gsub("%.lua$", ""), k, v)
        t.parts[#t.parts + 1] = { k = k, v = v, range = r }
        if r then t.ranges = t.ranges + 1; tags[r.tag] = true end
      end
      list[i] = t
    else
      list[i] = { loaded = f }
    end
  end
  return list, tags
end

--- The filter list at a location ({TAG = value}, axes by tag): ranged options at their
--- value there, the rest as given.
function M.filters_at(templates, axes, loc)
  local out = {}
  for i, t in ipairs(templates) do
    if t.loaded then out[i] = t.loaded
    elseif t.ranges == 0 and #t.parts == 0 then out[i] = t.path
    else
      local parts = {}
      for _, p in ipairs(t.parts) do
        local v = p.v
        if p.range then
          local a = axes[p.range.tag]
          v = at(p.range, (loc[a.tag] - a.min) / (a.max - a.min))
        end
        parts[#parts + 1] = p.k .. "=" .. v
      end
      out[i] = t.path .. ":" .. table.concat(parts, ",")
    end
  end
  return out
end

--- The masters of each axis: n points from its minimum to its maximum, evenly spaced, but
--- its default (baked as the default): a list of {TAG = value} with one axis each.
function M.masters(axes, n)
  local list = {}
  for _, a in ipairs(axes) do
    for k = 0, n - 1 do
      local v = a.min + (a.max - a.min) * k / (n - 1)
      if k == n - 1 then v = a.max end
      if v ~= a.default then list[#list + 1] = { [a.tag] = v, axis = a } end
    end
  end
  return list
end

-- ---- how far linear interpolation is from the effect ---------------------------------------

local NUMERIC = { x0 = true, y0 = true, x1 = true, y1 = true, x2 = true, y2 = true, r0 = true, r1 = true,
  cx = true, cy = true, start_angle = true, end_angle = true, offset = true, alpha = true,
  xx = true, yx = true, xy = true, yy = true, dx = true, dy = true }

-- The largest difference between tree b and the mix of a and c at t (font units for
-- coordinates, the value for the rest); math.huge when their shapes differ.
local function deviation(a, b, c, t, depth)
  if depth > 200 then return 0 end
  if type(a) ~= type(b) or type(a) ~= type(c) then return math.huge end
  if type(a) == "number" then return math.abs(a + (c - a) * t - b) end
  if type(a) ~= "table" then return (a == b and b == c) and 0 or math.huge end
  local worst = 0
  for k, v in pairs(b) do
    if type(v) == "number" and (NUMERIC[k] or math.type(k) == "integer") then
      if type(a[k]) ~= "number" or type(c[k]) ~= "number" then return math.huge end
      local d = math.abs(a[k] + (c[k] - a[k]) * t - v)
      if k == "offset" or k == "alpha" then d = d * 100 end   -- a hundredth counts as a unit
      if d > worst then worst = d end
    elseif type(v) == "table" then
      local d = deviation(a[k], v, c[k], t, depth + 1)
      if d > worst then worst = d end
    elseif a[k] ~= v or c[k] ~= v then
      return math.huge   -- a color, a kind, a glyph that changes
    end
  end
  return worst
end

-- ---- baking ---------------------------------------------------------------------------------

local function same(a, b) return deviation(a, b, a, 0, 0) == 0 end

--- Bakes `filters` over the design space of `opts.axes` (`opts.masters` points an axis, 2
--- to 17, default 2: its ends).  `bake(filters)` gives {[gid] = tree} for a filter list.
--- Returns the default trees, and what the builder needs: {axes = {...}, masters = {{TAG =
--- v}, ...}, trees = {[gid] = {tree at each master}}} for the glyphs that vary; `report`
--- (a function, may be nil) gets a line per axis on how exact the font is between masters.
function M.bake(lead, filters, opts, bake, report)
  local spec = opts.axes
  if type(spec) == "string" then spec = { spec } end
  if type(spec) ~= "table" or #spec == 0 then error("axes: a list of 'TAG=MIN:DEFAULT:MAX' expected", 0) end
  local axes, by = {}, {}
  for i, s in ipairs(spec) do
    local a = M.parse_axis(s)
    if by[a.tag] then error(("axis %s given twice"):format(a.tag), 0) end
    axes[i], by[a.tag] = a, a
  end
  for _, a in ipairs(lead:axes()) do
    if by[a.tag] then
      local i = lead:info()
      local name = (i.family ~= nil and i.family ~= "") and i.family or i.path
      error(("axis %s: %s has an axis %s already (give the effect another tag)"):format(a.tag, name, a.tag), 0)
    end
  end
  local n = opts.masters == nil and 2 or math.tointeger(opts.masters)
  if not n or n < 2 or n > 17 then error(("masters: an integer from 2 to 17 expected, got %s"):format(tostring(opts.masters)), 0) end
  local tpl, tags = M.templates(filters)
  for tag in pairs(tags) do
    if not by[tag] then error(("a filter option ranges over %s, but there is no axis %s (--axis '%s=MIN:DEFAULT:MAX')")
      :format(tag, tag, tag), 0) end
  end
  for _, a in ipairs(axes) do
    if not tags[a.tag] then error(("axis %s: no filter option ranges over it (like offset=0.02em..0.12em@%s)"):format(a.tag, a.tag), 0) end
  end
  local function loc_of(extra)
    local l = {}
    for _, a in ipairs(axes) do l[a.tag] = a.default end
    for k, v in pairs(extra or {}) do if k ~= "axis" then l[k] = v end end
    return l
  end
  local def = bake(M.filters_at(tpl, by, loc_of()))
  local masters = M.masters(axes, n)
  local at_master = {}
  for j, m in ipairs(masters) do at_master[j] = bake(M.filters_at(tpl, by, loc_of(m))) end
  local varying = {}
  for gid, t in pairs(def) do
    local list, differs = {}, false
    for j = 1, #masters do
      local mt = at_master[j][gid]
      if mt == nil then
        error(("glyph %d ('%s'): the filters draw it at the default but not at %s=%g"):format(gid, lead:glyph_name(gid) or "?",
          masters[j].axis.tag, masters[j][masters[j].axis.tag]), 0)
      end
      list[j] = mt
      differs = differs or not same(t, mt)
    end
    if differs then varying[gid] = list end
  end
  if next(varying) == nil then error("axes: the filters draw every glyph the same all along the axes (nothing varies)", 0) end
  -- between masters: each interval's midpoint baked, against the font's linear mix
  for _, a in ipairs(axes) do
    local pts = { { v = a.default, trees = def } }
    for j, m in ipairs(masters) do
      if m.axis == a then pts[#pts + 1] = { v = m[a.tag], trees = at_master[j] } end
    end
    table.sort(pts, function(x, y) return x.v < y.v end)
    local worst = 0
    for i = 1, #pts - 1 do
      local mid = (pts[i].v + pts[i + 1].v) / 2
      -- a filter may refuse a value halfway (an integer option): then another shape
      local okm, mt = pcall(bake, M.filters_at(tpl, by, loc_of({ [a.tag] = mid })))
      if not okm then mt = {} end
      for gid in pairs(varying) do
        local d = mt[gid] and deviation(pts[i].trees[gid], mt[gid], pts[i + 1].trees[gid], 0.5, 0) or math.huge
        if d > worst then worst = d end
      end
    end
    if report then
      local count = #pts
      if worst <= 0.5 then
        report(("axis %s (%s): baked at %d points; the effect is linear between them: the font draws the filters as they "
          .. "are at every value"):format(a.tag, a.name, count))
      elseif worst == math.huge then
        report(("axis %s (%s): baked at %d points; halfway between them the filters draw another shape: the font draws "
          .. "the masters exactly and blends between them"):format(a.tag, a.name, count))
      else
        report(("axis %s (%s): baked at %d points; sampled: halfway between them the font is up to %.1f font units "
          .. "off the filters (more masters: --masters N)"):format(a.tag, a.name, count, worst))
      end
    end
  end
  local locs = {}
  for j, m in ipairs(masters) do locs[j] = loc_of(m) end
  local caxes = {}
  for i, a in ipairs(axes) do caxes[i] = { tag = a.tag, min = a.min, default = a.default, max = a.max, name = a.name } end
  return def, { axes = caxes, masters = locs, trees = varying }
end

return M
