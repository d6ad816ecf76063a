-- sheet-codepoints.lua: the code points bench/sheet.lua draws, for the HTML page
-- bench/chromium.sh builds (one per line, hex), and for sheet.lua itself (loaded with dofile,
-- it returns the function that picks them).
--   chromatype bench/sheet-codepoints.lua FONT COUNT [WHICH]
-- WHICH: "cmap" (the font's cmap above U+0020, in order, repeated to COUNT) or "distinct"
-- (the first COUNT code points whose glyph is a color glyph not drawn yet: no two cells
-- alike while the font has enough).
local function pick(font, count, which)
  local cps, seen = {}, {}
  for _, cp in ipairs(font:codepoints()) do
    if cp > 0x20 then
      if which ~= "distinct" then
        cps[#cps + 1] = cp
      else
        local gid = font:glyph(cp)
        if not seen[gid] and font:paint(gid).kind ~= "glyph" then
          seen[gid] = true
          cps[#cps + 1] = cp
          if #cps == count then break end
        end
      end
    end
  end
  local all = cps
  cps = {}
  for i = 0, count - 1 do cps[i + 1] = all[i % #all + 1] end
  return cps
end

if select("#", ...) > 0 then   -- run as a script (dofile passes no arguments)
  local ct = require "chromatype"
  local font = assert(ct.open_font(arg[1]))
  for _, cp in ipairs(pick(font, math.tointeger(tonumber(arg[2] or 1000)), arg[3] or "cmap")) do
    io.write(("%X\n"):format(cp))
  end
end
return pick
