-- chromatype.layout.draw: laid-out lines drawn on a canvas with canvas:text (the glyphs
-- shaped with the paragraph, tracking cluster by cluster, stacks layer by layer).  It lays
-- nothing out.

local common = require "chromatype.layout.common"
local shape = require "chromatype.layout.shape"

local PASS, is_stack, first_font = common.PASS, common.is_stack, common.first_font
local font_metrics, shape_opts, tracked = shape.font_metrics, shape.shape_opts, shape.tracked

local M = {}

-- Byte ranges of the clusters of a shaped text: cluster start -> end (exclusive).
local function cluster_ends(glyphs, n)
  local starts = {}
  for _, g in ipairs(glyphs) do starts[g.cluster] = true end
  local sorted = {}
  for c in pairs(starts) do sorted[#sorted + 1] = c end
  table.sort(sorted)
  local ends = {}
  for i, c in ipairs(sorted) do ends[c] = sorted[i + 1] or n + 1 end
  return ends
end

--- Draws laid-out lines on a canvas with canvas:text (tracking: cluster by cluster).
function M.draw_lines(canvas, lines)
  for _, l in ipairs(lines) do
    for _, it in ipairs(l.items) do
      local r = it.run
      local font = it.font or first_font(r.font)
      local t = { it.text, font = font, size = r.size, x = it.x, y = l.y,
        script = it.script or r.script, direction = it.direction or r.direction }
      for _, k in ipairs(PASS) do t[k] = r[k] end
      if it.features then t.features = it.features end
      local run = { font = font, size = r.size, tracking = r.tracking, script = t.script,
        features = t.features, language = r.language, direction = t.direction }
      if is_stack(font) then
        t.tracking = tracked(run) and r.tracking or nil
        font:draw(canvas, t)
      elseif it.glyphs then
        -- shaped with the paragraph (kerning across words and spans)
        local glyphs = it.glyphs
        if tracked(run) then
          local extra = r.tracking * font_metrics(font).upem / r.size
          glyphs = {}
          for i, g in ipairs(it.glyphs) do
            glyphs[i] = { gid = g.gid, cluster = g.cluster, x_advance = g.x_advance + extra,
              y_advance = g.y_advance, x_offset = g.x_offset, y_offset = g.y_offset }
          end
        end
        t.glyphs = glyphs
        canvas:text(t)
      elseif tracked(run) then
        -- cluster by cluster (visual order), tracking after each glyph
        local glyphs = font:shape(it.text, (shape_opts(run)))
        local ends = cluster_ends(glyphs, #it.text)
        local m = font_metrics(font)
        local x = it.x
        local i = 1
        while i <= #glyphs do
          local c0 = glyphs[i].cluster
          local adv, n = 0, 0
          local j = i
          while j <= #glyphs and glyphs[j].cluster == c0 do
            adv = adv + glyphs[j].x_advance; n = n + 1; j = j + 1
          end
          t[1], t.x = it.text:sub(c0, ends[c0] - 1), x
          canvas:text(t)
          x = x + adv * r.size / m.upem + r.tracking * n
          i = j
        end
      else
        canvas:text(t)
      end
    end
  end
end

return M
