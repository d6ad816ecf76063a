-- sheet-codepoints.lua: the code points bench/sheet.lua draws (one per line, hex), for the
-- HTML page bench/chromium.sh builds.   chromatype bench/sheet-codepoints.lua FONT COUNT
local ct = require "chromatype"
local font = assert(ct.open_font(arg[1]))
local count = math.tointeger(tonumber(arg[2] or 1000))
local cps = {}
for _, cp in ipairs(font:codepoints()) do if cp > 0x20 then cps[#cps + 1] = cp end end
for i = 0, count - 1 do io.write(("%X\n"):format(cps[i % #cps + 1])) end
