-- chromatype.layout.lines: the line breakers: a paragraph's segments as boxes, glue and
-- penalties for chromatype.linebreak's optimal breaker, or filled first fit; the lines
-- they make, each scored.  It knows no frame height and places nothing.

local linebreak = require "chromatype.linebreak"
local shape = require "chromatype.layout.shape"
local segments = require "chromatype.layout.segments"

local shaped_with, item_scale, run_width = shape.shaped_with, shape.item_scale, shape.run_width
local alone, pieces, sum_width = segments.alone, segments.pieces, segments.sum_width
local width_to, cut_points = segments.width_to, segments.cut_points

local M = {}

-- ---- the line breakers ---------------------------------------------------------------------------

-- The item holding byte `b` of a segment.
local function item_at(p, seg, b)
  local k = seg.k
  while p.items[k + 1] and p.items[k + 1].s <= b do k = k + 1 end
  return p.items[k]
end

-- Width changes at a break, computed when the breaker first looks at it: `pre`, the line's
-- last piece shaped on its own (with its hyphen) less its width in the run; `post`, the same
-- for the first piece after a break inside a word.
local function lazy_cut(node)
  local p, seg, c = node.p, node.sg, node.cut
  local it = item_at(p, seg, c.at)
  local s = math.max(seg.s, it.s)
  local pc = alone({ s = s, e = c.at, item = it, text = p.text:sub(s, c.at) }, c.hyphen)
  node.pre = pc.width - run_width(it.srun, s, c.at)
  local it2 = item_at(p, seg, c.at + 1)
  local e = math.min(seg.e, it2.e)
  local pc2 = alone({ s = c.at + 1, e = e, item = it2, text = p.text:sub(c.at + 1, e) })
  node.post = pc2.width - run_width(it2.srun, c.at + 1, e)
end

local function lazy_end(node)
  local seg = node.sg
  local last = seg.frags[#seg.frags]
  if not last then node.pre = 0; return end
  local it = last.item
  local w = shaped_with(it.font, it.so, it.key, last.text)
  local sc, tr = item_scale(it)
  node.pre = w[1] * sc + tr * w[2] - last.width
end

local STRETCH, SHRINK = 1 / 2, 1 / 3          -- of an interword space, as in TeX's fonts
local RAGGED_STRETCH = 2                       -- em: ragged lines stretch on one side only
local NOMINAL_STRETCH = 1 / 8                  -- em: a line without spaces is rated as if it had one

-- The paragraph as boxes, glue and penalties (chromatype.linebreak), each break carrying
-- where it is: {seg =, cut =}.
local function break_items(p, segs, maxw, bp, P)
  local justify = bp.justify
  local list = {}
  local function add(t) list[#list + 1] = t; return t end
  for i, seg in ipairs(segs) do
    local done = 0
    for _, c in ipairs(cut_points(p, seg, maxw, bp.emergency)) do
      local w = width_to(p, seg, c.at)
      add { type = "box", width = w - done }
      add { type = "penalty", width = 0, flagged = c.hyphen or false, discretionary = true,
        emergency = c.emergency, penalty = c.emergency and P.emergency_penalty or P.hyphen_penalty,
        seg = i, cut = c, p = p, sg = seg, lazy = lazy_cut }
      done = w
    end
    add { type = "box", width = seg.width - done }
    if seg.hard or i == #segs then
      add { type = "penalty", penalty = linebreak.INF_PENALTY }
      add { type = "glue", width = 0, fill = true }
      add { type = "penalty", penalty = -linebreak.INF_PENALTY, seg = i, p = p, sg = seg, lazy = lazy_end }
    elseif seg.glue then
      local gw = seg.glue.width
      add { type = "glue", width = gw, stretch = justify and gw * STRETCH or 0,
        shrink = justify and gw * SHRINK or 0, seg = i, p = p, sg = seg, lazy = lazy_end }
    else
      add { type = "penalty", penalty = 0, seg = i, p = p, sg = seg, lazy = lazy_end }
    end
  end
  return list
end

-- The part of segment `seg` from byte a to b as a segment of a line; `first`: after a break
-- inside the word, `last`: at the line's end (`hyphen`: with a hyphen).
local function part(p, seg, a, b, first, last, hyphen)
  if a == seg.s and b == seg.e and not last then return seg end
  local frags = {}
  if b >= a then frags = pieces(p, a, b, seg.k, { first = first, last = last, hyphen = hyphen }) end
  local whole = b == seg.e
  return { s = a, e = b, frags = frags, width = sum_width(frags), hyphenated = hyphen or nil,
    glue = whole and seg.glue or nil, hard = whole and seg.hard or nil, k = seg.k }
end

-- Lines from the breaks: {segs =, natural =, stretch =, shrink =, last =, penalty =, flagged =}.
local function make_lines(p, segs, list, breaks, justify)
  local lines = {}
  local si, from = 1, segs[1] and segs[1].s or 1     -- where the next line starts
  local after_cut = false
  for _, b in ipairs(breaks) do
    local node = list[b]
    local line = { segs = {}, natural = 0, stretch = 0, shrink = 0,
      last = node.type == "penalty" and node.penalty <= -linebreak.INF_PENALTY or nil,
      penalty = node.type == "penalty" and node.penalty or 0, flagged = node.flagged or false }
    local j = node.seg
    local cut = node.cut
    for k = si, j do
      local seg = segs[k]
      local a = k == si and from or seg.s
      local e = (k == j and cut) and cut.at or seg.e
      local is_last = k == j
      line.segs[#line.segs + 1] = part(p, seg, a, e, k == si and after_cut, is_last,
        is_last and cut and cut.hyphen)
    end
    for k, s in ipairs(line.segs) do
      line.natural = line.natural + s.width
      if k < #line.segs and s.glue then
        local gw = s.glue.width
        line.natural = line.natural + gw
        if justify then
          line.stretch = line.stretch + gw * STRETCH
          line.shrink = line.shrink + gw * SHRINK
        end
      end
    end
    lines[#lines + 1] = line
    if cut then si, from, after_cut = j, cut.at + 1, true
    else si, from, after_cut = j + 1, segs[j + 1] and segs[j + 1].s, false end
  end
  return lines
end

-- The width segment `seg` has at a line's end (its last piece shaped on its own).
local function end_width(seg)
  local last = seg.frags[#seg.frags]
  if not last then return seg.width end
  if seg.end_width == nil then
    local node = { sg = seg }
    lazy_end(node)
    seg.end_width = seg.width + node.pre
  end
  return seg.end_width
end

-- Splits `seg` (starting a line's part after a break inside it when `first`) at the last of
-- its cuts whose first part, as it ends a line, fits `room`; emergency cuts only when
-- `emergency` and no other fits.  Returns the two parts and the cut, or nil.
local function split(p, seg, cuts, room, first, emergency)
  for pass = 1, emergency and 2 or 1 do
    for i = #cuts, 1, -1 do
      local c = cuts[i]
      if (pass == 1) == not c.emergency and c.at >= seg.s and c.at < seg.e then
        local s1 = part(p, seg, seg.s, c.at, first, true, c.hyphen)
        if s1.width <= room + 1e-6 then
          return s1, part(p, seg, c.at + 1, seg.e, true, false), c
        end
      end
    end
  end
  return nil
end

-- First fit over the segments: each line takes segments while they fit at their widths in
-- the run (the last one as it ends a line); a segment that does not fit is hyphenated at
-- the last point whose part fits, and one wider than a whole line is broken in an emergency
-- (chromatype.linebreak.first_fit does the same on a list of boxes and glue).
local function first_fit_lines(p, segs, avail_for, bp, maxw)
  local lines = {}
  local line = { segs = {}, natural = 0 }
  local function finish(last, cut)
    local n = #line.segs
    local tail = line.segs[n]
    if tail and not cut then
      line.segs[n] = part(p, tail, tail.s, tail.e, tail.after_cut, true)
      line.natural = line.natural - tail.width + line.segs[n].width
    end
    line.last = last or nil
    line.penalty = last and -linebreak.INF_PENALTY or (cut and (cut.emergency and linebreak.DEFAULTS.emergency_penalty
      or linebreak.DEFAULTS.hyphen_penalty) or 0)
    line.flagged = cut and cut.hyphen or false
    line.stretch, line.shrink = 0, 0
    if bp.justify then
      for k = 1, #line.segs - 1 do
        local g = line.segs[k].glue
        if g then
          line.stretch = line.stretch + g.width * STRETCH
          line.shrink = line.shrink + g.width * SHRINK
        end
      end
    end
    lines[#lines + 1] = line
    line = { segs = {}, natural = 0 }
  end
  local i = 1
  local cur = segs[1]
  while cur do
    local n = #line.segs
    local prev = line.segs[n]
    local gap = prev and prev.glue and prev.glue.width or 0
    local avail = avail_for(#lines + 1)
    local placed = false
    if n > 0 and line.natural + gap + end_width(cur) > avail + 1e-6 then
      local room = avail - line.natural - gap
      -- hyphenation points (a word wider than a line has them whatever the run says)
      local s1, s2, c = split(p, cur, cut_points(p, cur, maxw, bp.emergency), room, cur.after_cut, false)
      if s1 then
        line.segs[n + 1] = s1
        line.natural = line.natural + gap + s1.width
        finish(false, c)
        s2.after_cut = true
        cur = s2
        placed = true
      else
        finish(false)
        gap, n = 0, 0
      end
    end
    if not placed and n == 0 and end_width(cur) > avail + 1e-6 then
      local s1, s2, c = split(p, cur, cut_points(p, cur, maxw, bp.emergency), avail, cur.after_cut,
        bp.emergency)
      if s1 then
        line.segs[1] = s1
        line.natural = s1.width
        finish(false, c)
        s2.after_cut = true
        cur = s2
        placed = true
      end
    end
    if not placed then
      line.segs[#line.segs + 1] = cur
      line.natural = line.natural + gap + cur.width
      if cur.hard or i == #segs then finish(true) end
      i = i + 1
      cur = segs[i]
    end
  end
  return lines
end

-- Breaks a paragraph into lines by its breaker: "optimal" (the default for justified text)
-- or "first-fit"; `avail_for(line)` is a line's measure.  Each line gets its adjustment
-- ratio, badness, fitness and demerits (the optimal breaker's formula, whichever broke it).
local function break_lines(p, segs, avail_for, bp)
  if #segs == 0 then return {} end
  local size = p.style.size or 12
  local P = { tolerance = bp.tolerance, looseness = bp.looseness or 0 }
  for k, v in pairs(linebreak.DEFAULTS) do if P[k] == nil then P[k] = v end end
  P.emergency_stretch = bp.emergency_stretch or 0
  if not bp.justify then P.line_stretch = RAGGED_STRETCH * size end
  P.nominal_stretch = NOMINAL_STRETCH * size
  P.easy_line = 2                               -- only the first line has a measure of its own
  local maxw = math.min(avail_for(1), avail_for(2))
  local lines, info
  if bp.breaker == "optimal" then
    local list = break_items(p, segs, maxw, bp, P)
    local breaks
    breaks, info = linebreak.optimal(list, avail_for, P)
    lines = make_lines(p, segs, list, breaks, bp.justify)
  else
    lines = first_fit_lines(p, segs, avail_for, bp, maxw)
  end
  -- the lines as set, scored with the optimal breaker's formula
  local total, prev_fit, prev_flag = 0, nil, false
  for i, l in ipairs(lines) do
    local r, bad, fit = linebreak.fit(avail_for(i), l.natural, l.stretch + P.line_stretch, l.shrink,
      l.last and 1 or 0, P.nominal_stretch)
    local d = linebreak.demerits(P, bad, l.penalty, l.flagged, fit, prev_fit, prev_flag, l.last)
    l.ratio, l.badness, l.fitness, l.demerits = r, math.min(bad, linebreak.INF_BAD), fit, d
    total = total + d
    prev_fit, prev_flag = fit, l.flagged
  end
  lines[1].paragraph_demerits = total
  lines[1].breaker = bp.breaker
  lines[1].pass = info and info.pass
  lines[1].break_work = info and info.work
  return lines
end

M.STRETCH, M.SHRINK, M.break_lines = STRETCH, SHRINK, break_lines

return M
