-- chromatype.layout.fit: the fitting cascade: tracking, a width axis, alternates and size
-- tried in turn (bisected to the least change) until the text fits its frame or its lines.
-- It lays out only through place.lua.

local variable = require "chromatype.variable"
local common = require "chromatype.layout.common"
local place = require "chromatype.layout.place"

local FIT_STEPS, argerr, first_font = common.FIT_STEPS, common.argerr, common.first_font
local prepare, set_paragraphs = place.prepare, place.set_paragraphs

local M = {}

-- ---- fitting ------------------------------------------------------------------------------

-- The font at another value of its width axis, its other axes where they are (an instance:
-- set_variations would change a font for every user), or nil.
local function width_instance(font, value)
  local key = math.floor(value * 10 + 0.5) / 10
  local ok, f = pcall(variable.instance, font, nil, { wdth = key })
  return ok and f or nil
end

local function width_axis(font)
  for _, a in ipairs(font:axes()) do
    if a.tag == "wdth" then return a end
  end
  return nil
end

local function parse_steps(v, fname)
  if v == nil then return nil end
  local list = {}
  if type(v) == "string" then
    for w in v:gmatch("[^,%s]+") do list[#list + 1] = w end
  elseif type(v) == "table" then
    for i, w in ipairs(v) do list[i] = w end
  else
    argerr(fname, 2, "field 'fit': expected a list of steps, got " .. type(v))
  end
  for _, w in ipairs(list) do
    if not FIT_STEPS[w] then
      argerr(fname, 2, ("field 'fit': unknown step '%s' (expected tracking, width, alternates, size)")
        :format(tostring(w)))
    end
  end
  return list
end

-- Runs the layout with the fitting parameters `fp` (tracking in em, width axis value,
-- features on or off, size scale).
local function attempt(paras, opts, base, fname, warned, fp)
  local adjust = nil
  if fp then
    adjust = function(st, chain)
      local s = {}
      for k, v in pairs(st) do s[k] = v end
      if fp.scale and fp.scale ~= 1 then
        s.size = st.size * fp.scale
        if st.leading then s.leading = st.leading * fp.scale end
      end
      if fp.tracking and fp.tracking ~= 0 then s.tracking = (st.tracking or 0) + fp.tracking * s.size end
      if fp.features then
        s.features = st.features and (st.features .. "," .. fp.features) or fp.features
      end
      if fp.wdth then
        local nc = {}
        for i, f in ipairs(chain) do
          local a = width_axis(f)
          nc[i] = a and width_instance(f, math.max(a.min, math.min(a.max, fp.wdth))) or f
        end
        chain = nc
        s.font = #nc == 1 and nc[1] or nc
      end
      return s, chain
    end
  end
  local width = opts.width
  local prepared = {}
  for pi, para in ipairs(paras) do
    prepared[pi] = prepare(para, pi, base, fname, warned, adjust)
  end
  local all, fit, used, overflow = set_paragraphs(prepared, paras, opts, width)
  return { all = all, fit = fit, used = used, overflow = overflow, prepared = prepared }
end

-- Whether a result fits: no overflow ("frame"), or also no paragraph broken by the width
-- ("line": every paragraph on its lines as written).
local function fits(res, opts)
  if res.overflow then return false end
  if opts.fit_to == "line" then
    for _, l in ipairs(res.all) do
      if not l.last then return false end
      if l.natural > opts.width - l.indent + 1e-6 then return false end
    end
  end
  return true
end

local function fit_cascade(paras, opts, base, fname, warned, steps)
  local fp = { tracking = 0, scale = 1 }
  local res = attempt(paras, opts, base, fname, warned, fp)
  local applied = {}
  if fits(res, opts) then return res, { fits = true, steps = applied } end
  local first_font0 = first_font(base.font) or first_font(paras[1] and paras[1][1] and paras[1][1].font)
  for _, step in ipairs(steps) do
    local lo, hi, set
    if step == "tracking" then
      lo, hi = opts.fit_tracking or -0.05, 0
      set = function(v) fp.tracking = v end
    elseif step == "size" then
      lo, hi = opts.fit_size or 0.5, 1
      set = function(v) fp.scale = v end
    elseif step == "width" then
      local a = first_font0 and width_axis(first_font0)
      if a then
        lo, hi = math.max(a.min, opts.fit_width or a.min), a.value
        set = function(v) fp.wdth = v end
      end
    elseif step == "alternates" then
      fp.features = opts.fit_features or "jalt"
      local r2 = attempt(paras, opts, base, fname, warned, fp)
      applied[#applied + 1] = { step = "alternates", value = fp.features }
      res = r2
      if fits(res, opts) then return res, { fits = true, steps = applied } end
    end
    if set and lo < hi then
      set(lo)
      local r_lo = attempt(paras, opts, base, fname, warned, fp)
      if not fits(r_lo, opts) then
        res = r_lo
        applied[#applied + 1] = { step = step, value = lo }
      else
        -- the least change that fits: bisection between hi (does not fit) and lo (fits)
        local good, bad, best = lo, hi, r_lo
        for _ = 1, 12 do
          local mid = (good + bad) / 2
          set(mid)
          local r = attempt(paras, opts, base, fname, warned, fp)
          if fits(r, opts) then good, best = mid, r else bad = mid end
        end
        set(good)
        applied[#applied + 1] = { step = step, value = good }
        return best, { fits = true, steps = applied }
      end
    end
  end
  return res, { fits = false, steps = applied }
end

M.parse_steps, M.attempt, M.fit_cascade = parse_steps, attempt, fit_cascade

return M
