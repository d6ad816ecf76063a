--- chromatype.linebreak: where a paragraph's lines end.
-- Works on the paragraph as TeX sees it (Knuth & Plass, "Breaking paragraphs into lines",
-- 1981): a list of boxes (text of fixed width), glue (space with a natural width, a
-- stretch and a shrink) and penalties (places to break at a cost: hyphens, forced breaks).
-- Two breakers share that list and one scoring: `optimal`, the total-fit algorithm with
-- active nodes, fitness classes, flagged (hyphen) demerits, looseness and emergency
-- passes; and `first_fit`, which fills each line in turn.  chromatype.layout builds the list
-- from shaped text and makes lines from the optimal breaks (its own first fit works on the
-- words directly, with the same rules, so that only the word at a line's end is measured
-- again); docs/documents.md describes the options.
-- @module chromatype.linebreak

local M = {}

M.INF_PENALTY = 10000       -- a penalty this high forbids the break, -INF_PENALTY forces it
M.INF_BAD = 10000           -- TeX's "infinitely bad"; an overfull line is rated INF_BAD + 1

--- The parameters and their defaults (TeX's plain values, lengths in points).
M.DEFAULTS = {
  tolerance = 200,              -- the worst badness of a line in the regular passes
  pretolerance = 100,           -- the first pass's, without hyphenation
  looseness = 0,                -- lines more (> 0) or fewer (< 0) than the optimum
  line_penalty = 10,            -- added to each line's badness before squaring
  hyphen_penalty = 50,          -- breaking at a hyphenation point
  emergency_penalty = 1000,     -- breaking inside a word at a place that is no hyphenation point
  double_hyphen_demerits = 10000, -- two hyphenated lines in a row
  final_hyphen_demerits = 5000, -- the last full line hyphenated
  adj_demerits = 10000,         -- adjacent lines of fitness classes further than one apart
  emergency_stretch = 0,        -- stretch added to each line in an extra pass (points)
  line_stretch = 0,             -- stretch of every line outside its glue (ragged setting)
  nominal_stretch = 1,          -- what a line without glue is rated as having (points)
  easy_line = math.huge,        -- lines from this one on all have the same measure
}

-- ---- scoring --------------------------------------------------------------------------

--- The adjustment ratio, badness and fitness class of a line of natural width `width`
--- with `stretch`, `shrink` and infinite stretch `fill` (> 0: the line may be any shorter)
--- in the measure `avail`.  r > 0 stretches, r < 0 shrinks; badness is 100 |r|^3.  TeX
--- caps badness at 10000, which makes every very loose line as bad as another; here it
--- goes on growing (the last pass compares such lines), and a line that cannot stretch at
--- all (one word in justified text) is rated as if it had the stretch `nominal`.  Fitness:
--- 0 tight, 1 decent, 2 loose, 3 very loose.  The fourth result is true when the line is
--- overfull (wider than the measure even shrunk as far as it goes).
function M.fit(avail, width, stretch, shrink, fill, nominal)
  local short = avail - width
  local r, bad, over = 0, 0, false
  if short > 1e-9 then
    if fill and fill > 0 then r, bad = 0, 0
    elseif stretch > 1e-9 then
      r = short / stretch
      bad = 100 * r * r * r
    else
      r = math.huge
      local q = short / (nominal and nominal > 0 and nominal or 1e-3)
      bad = 100 * q * q * q
    end
  elseif short < -1e-9 then
    if shrink > 1e-9 then r = short / shrink else r = -math.huge end
    if r < -1 - 1e-9 then over, bad = true, M.INF_BAD + 1
    else bad = 100 * -r * r * r end
  end
  local fitness
  if r < 0 then fitness = bad > 12.5 and 0 or 1
  elseif bad > 99.5 then fitness = 3
  elseif bad > 12.5 then fitness = 2
  else fitness = 1 end
  return r, bad, fitness, over
end

--- The demerits of a line of badness `bad` ending at a break of penalty `pen` (flagged:
--- a hyphen), after a line of fitness `prev_fit` ending flagged `prev_flag`; `final`: the
--- break ends the paragraph.  TeX's formula: (line_penalty + b)^2 +- penalty^2, plus the
--- flagged and adjacent-fitness demerits.
function M.demerits(P, bad, pen, flagged, fitness, prev_fit, prev_flag, final)
  local d = P.line_penalty + bad
  d = d * d
  if pen > 0 then d = d + pen * pen
  elseif pen > -M.INF_PENALTY then d = d - pen * pen end
  if prev_flag then
    if final then d = d + P.final_hyphen_demerits
    elseif flagged then d = d + P.double_hyphen_demerits end
  end
  if prev_fit and math.abs(fitness - prev_fit) > 1 then d = d + P.adj_demerits end
  return d
end

local function params(opts)
  local P = {}
  for k, v in pairs(M.DEFAULTS) do P[k] = v end
  for k, v in pairs(opts or {}) do P[k] = v end
  return P
end

-- The breakpoints of a list: the indices of glue after a box and of penalties below
-- INF_PENALTY; and the running sums before each item (width, stretch, shrink, fill).
local function prepare(items)
  local n = #items
  local W, Y, Z, F = { [1] = 0 }, { [1] = 0 }, { [1] = 0 }, { [1] = 0 }
  for i = 1, n do
    local it = items[i]
    local w, y, z, f = it.width or 0, 0, 0, 0
    if it.type == "glue" then
      y, z = it.stretch or 0, it.shrink or 0
      if it.fill then f, y = 1, 0 end
    elseif it.type == "penalty" then w = 0 end
    W[i + 1], Y[i + 1], Z[i + 1], F[i + 1] = W[i] + w, Y[i] + y, Z[i] + z, F[i] + f
  end
  -- after a break at b the next line starts at the first box after it
  local start = {}
  local nextbox = n + 1
  for i = n, 0, -1 do
    start[i] = nextbox
    if i >= 1 and items[i].type == "box" then nextbox = i end
  end
  return W, Y, Z, F, start
end

local function breakable(items, i)
  local it = items[i]
  if it.type == "penalty" then return (it.penalty or 0) < M.INF_PENALTY end
  if it.type == "glue" then return i > 1 and items[i - 1].type == "box" end
  return false
end

-- Lazily computed widths at a break: `pre` (added to a line ending here: a hyphen, the last
-- word shaped as a line's end) and `post` (added to the line starting here).
local function pre_of(it)
  if it.lazy then it.lazy(it); it.lazy = nil end
  return it.pre or 0
end
local function post_of(it)
  if it.lazy then it.lazy(it); it.lazy = nil end
  return it.post or 0
end

-- A line from break a (0: the paragraph's start) to break b: natural width, stretch,
-- shrink, fill.
local function line_sums(items, S, a, b)
  local W, Y, Z, F, start = S[1], S[2], S[3], S[4], S[5]
  local s = start[a]
  local w, y, z, f
  if s > b then w, y, z, f = 0, 0, 0, 0
  else w, y, z, f = W[b] - W[s], Y[b] - Y[s], Z[b] - Z[s], F[b] - F[s] end
  local it = items[b]
  if it.type == "penalty" then w = w + (it.width or 0) end
  w = w + pre_of(it)
  if a > 0 then w = w + post_of(items[a]) end
  return w, y, z, f
end

local function is_forced(it)
  return it.type == "penalty" and (it.penalty or 0) <= -M.INF_PENALTY
end

--- Scores given breaks with the formula of `optimal`: for each line {ratio =, badness =,
--- fitness =, demerits =, width = (natural), stretch =, shrink =}; and the total.
-- `breaks` are item indices (the last one the paragraph's end); `avail_for(line)` the measure.
function M.score(items, breaks, avail_for, opts)
  local P = params(opts)
  local S = { prepare(items) }
  local out, total = {}, 0
  local a, prev_fit, prev_flag = 0, nil, false
  for ln, b in ipairs(breaks) do
    local w, y, z, f = line_sums(items, S, a, b)
    local it = items[b]
    local r, bad, fit = M.fit(avail_for(ln), w, y + P.line_stretch, z, f, P.nominal_stretch)
    local flagged = it.type == "penalty" and it.flagged or false
    local pen = it.type == "penalty" and (it.penalty or 0) or 0
    local d = M.demerits(P, bad, pen, flagged, fit, ln > 1 and prev_fit or nil, prev_flag, is_forced(it))
    out[ln] = { ratio = r, badness = bad, fitness = fit, demerits = d, width = w, stretch = y, shrink = z }
    total = total + d
    a, prev_fit, prev_flag = b, fit, flagged
  end
  return out, total
end

-- ---- the optimal breaker -----------------------------------------------------------------

-- One pass of the total-fit algorithm with threshold `threshold`; `skip(item)` says which
-- penalties this pass leaves out (hyphenation in the first pass).  Returns the break nodes
-- at the paragraph's end (one per line count and fitness class), or nil if none, and the
-- work done: how many (active node, breakpoint) pairs were looked at.
local function pass(items, S, avail_for, P, threshold, background, final, skip)
  -- nodes are told apart by their line number up to `easy` (TeX's easy_line): beyond it
  -- every line has the same measure, and without looseness the count does not matter
  local easy = P.looseness == 0 and P.easy_line or math.huge
  local W, Y, Z, F, start = S[1], S[2], S[3], S[4], S[5]
  local nominal, adj = P.nominal_stretch, P.adj_demerits
  local fit_of, demerits = M.fit, M.demerits
  local avail = setmetatable({}, { __index = function(t, l) local v = avail_for(l); t[l] = v; return v end })
  local n = #items
  -- the best way to each (line, fitness) at the breakpoint being looked at: records reused
  -- from one breakpoint to the next, found by key = line * 4 + fitness
  local slot, recs, nrec, mins = {}, {}, 0, {}
  local active = { { pos = 0, line = 0, fitness = 1, total = 0, flagged = false, post = 0 } }
  local na = 1
  local ends = nil
  local work = 0
  for b = 1, n do
    local it = items[b]
    if breakable(items, b) and not (skip and skip(it)) then
      local is_pen = it.type == "penalty"
      local forced = is_pen and (it.penalty or 0) <= -M.INF_PENALTY
      local pen = is_pen and (it.penalty or 0) or 0
      local flagged = is_pen and it.flagged or false
      local extra = (is_pen and (it.width or 0) or 0) + pre_of(it)
      local any = false
      local kept = 0
      work = work + na
      for ai = 1, na do
        local a = active[ai]
        local s = start[a.pos]
        local w, y, z, f
        if s > b then w, y, z, f = 0, 0, 0, 0
        else w, y, z, f = W[b] - W[s], Y[b] - Y[s], Z[b] - Z[s], F[b] - F[s] end
        w = w + extra + a.post
        -- M.fit, inlined for the common cases (stretching or shrinking glue)
        local r, bad, fit, over
        local short = avail[a.line + 1] - w
        y = y + background
        if short > 1e-9 and f == 0 and y > 1e-9 then
          r = short / y
          bad = 100 * r * r * r
          fit = bad > 99.5 and 3 or (bad > 12.5 and 2 or 1)
          over = false
        elseif short < -1e-9 and z > 1e-9 and -short <= z * (1 + 1e-9) + 1e-9 then
          r = short / z
          bad = -100 * r * r * r
          fit = bad > 12.5 and 0 or 1
          over = r < -1 - 1e-9
          if over then bad = M.INF_BAD + 1 end
        else
          r, bad, fit, over = fit_of(avail[a.line + 1], w, y, z, f, nominal)
        end
        local stays, record, artificial = true, false, false
        if over or forced then
          stays = false
          -- the last node left and nothing better here: an overfull line rather than none
          if final and not any and kept == 0 and ai == na and (over or bad > threshold) then
            artificial, record = true, true
          elseif not over and bad <= threshold then record = true end
        elseif bad <= threshold then record = true end
        if record then
          local d = artificial and 0 or
            demerits(P, bad, pen, flagged, fit, a.pos > 0 and a.fitness or nil, a.flagged, forced)
          local line = a.line + 1
          if line > easy then line = easy end
          local key = line * 4 + fit
          local cur = slot[key]
          local total = a.total + d
          if not cur then
            nrec = nrec + 1
            cur = recs[nrec]
            if not cur then cur = {}; recs[nrec] = cur end
            cur.total, cur.prev, cur.r, cur.bad, cur.d = total, a, r, bad, d
            cur.line, cur.fitness, cur.key = line, fit, key
            slot[key] = cur
          elseif total < cur.total then
            cur.total, cur.prev, cur.r, cur.bad, cur.d = total, a, r, bad, d
          end
          any = true
        end
        if stays then kept = kept + 1; active[kept] = a end
      end
      for i = kept + 1, na do active[i] = nil end
      na = kept
      local first_new = na + 1
      if nrec > 0 then
        -- new active nodes: per line count, the classes within adj_demerits of its best
        for i = 1, nrec do
          local c = recs[i]
          local m = mins[c.line]
          if not m or c.total < m then mins[c.line] = c.total end
        end
        local post = b < n and post_of(it) or 0
        for i = 1, nrec do
          local c = recs[i]
          if c.total <= mins[c.line] + adj then
            na = na + 1
            active[na] = { pos = b, line = c.line, fitness = c.fitness, total = c.total, prev = c.prev,
              flagged = flagged, ratio = c.r, badness = c.bad, demerits = c.d, post = post }
          end
        end
        for i = 1, nrec do
          local c = recs[i]
          slot[c.key], mins[c.line], c.prev = nil, nil, nil
        end
        nrec = 0
      end
      if forced then
        if na < first_new then return nil, work end
        -- after a forced break the paragraph starts afresh from its nodes (every older node
        -- was deactivated by it)
        if b == n then
          ends = {}
          for i = first_new, na do ends[#ends + 1] = active[i] end
        end
      elseif na == 0 then
        return nil, work
      end
    end
  end
  return ends, work
end

-- The node at the end chosen for the looseness: the line count closest to best + looseness.
local function choose(ends, looseness)
  local best
  for _, nd in ipairs(ends) do
    if not best or nd.total < best.total then best = nd end
  end
  if looseness == 0 then return best, 0 end
  local target, got = best.line + looseness, best
  for _, nd in ipairs(ends) do
    local dg, dn = math.abs(got.line - target), math.abs(nd.line - target)
    if dn < dg or (dn == dg and nd.total < got.total) then got = nd end
  end
  return got, got.line - best.line
end

--- Optimal breaks (Knuth–Plass).  `items`: {type = "box"|"glue"|"penalty", width =,
--- stretch =, shrink =, fill = (glue of infinite stretch), penalty =, flagged =,
--- discretionary = (a break inside a word: left out of the first pass), pre =, post =,
--- lazy = (a function that sets pre and post when first needed)}; the list ends with a
--- forced break.  `avail_for(line)` is the measure of a line.
--- Passes: 1, without breaks inside words at `pretolerance` (when the list has such
--- breaks); 2, with them at `tolerance`; 3, with `emergency_stretch` added to every line's
--- stretch (TeX's emergency pass, when that is more than 0); and 4, the last, in which any
--- line that is not overfull is acceptable (the best the demerits formula can do however
--- loose), an overfull one being taken only when nothing else is left.
-- @treturn table|nil break indices into `items`, one per line
-- @treturn table {total = demerits, pass = the pass that set it (1 to 4), looseness = achieved,
--   work = (active node, breakpoint) pairs looked at in every pass run}
function M.optimal(items, avail_for, opts)
  local P = params(opts)
  local S = { prepare(items) }
  local has_disc = false
  for _, it in ipairs(items) do if it.discretionary then has_disc = true; break end end
  local plan = {}
  if has_disc and P.pretolerance >= 0 then
    plan[#plan + 1] = { n = 1, threshold = P.pretolerance, skip = function(it) return it.discretionary end }
  end
  plan[#plan + 1] = { n = 2, threshold = P.tolerance }
  if P.emergency_stretch > 0 then
    plan[#plan + 1] = { n = 3, threshold = P.tolerance, background = P.emergency_stretch }
  end
  plan[#plan + 1] = { n = 4, threshold = math.huge, final = true }
  local chosen, achieved, used
  local work = 0
  for _, pl in ipairs(plan) do
    local ends, w = pass(items, S, avail_for, P, pl.threshold, P.line_stretch + (pl.background or 0),
      pl.final, pl.skip)
    work = work + w
    if ends then
      chosen, achieved = choose(ends, P.looseness)
      used = pl.n
      if achieved == P.looseness then break end
    end
  end
  if not chosen then return nil end
  local breaks = {}
  local nd = chosen
  while nd and nd.pos > 0 do
    table.insert(breaks, 1, nd.pos)
    nd = nd.prev
  end
  return breaks, { total = chosen.total, pass = used, looseness = achieved, work = work }
end

-- ---- first fit --------------------------------------------------------------------------------

--- Greedy breaks: each line takes as much as fits at its natural width; an emergency point
--- (`emergency = true`) is used only when no other break fits a line.
-- @treturn table break indices, one per line
function M.first_fit(items, avail_for)
  local S = { prepare(items) }
  local n = #items
  local breaks = {}
  local a = 0
  while a < n do
    local line = #breaks + 1
    local avail = avail_for(line)
    local last_ok, last_emerg, first_after = nil, nil, nil
    local b = a + 1
    while b <= n do
      local it = items[b]
      if breakable(items, b) then
        local w = line_sums(items, S, a, b)
        if w <= avail + 1e-6 then
          if it.emergency then last_emerg = b else last_ok = b end
          if is_forced(it) then break end
        else
          first_after = first_after or b
          -- nothing later can be narrower: the sums only grow (boxes and glue)
          if S[1][b] - S[1][S[5][a]] > avail + 1e-6 then break end
        end
      end
      b = b + 1
    end
    local pick
    if last_ok and is_forced(items[last_ok]) then pick = last_ok
    else pick = last_ok or last_emerg or first_after end
    if not pick then
      -- nothing breakable at all: the rest is one line
      pick = n
    end
    breaks[#breaks + 1] = pick
    a = pick
  end
  return breaks
end

return M
