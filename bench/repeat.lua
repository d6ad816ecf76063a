-- repeat.lua: the PDF bytes one more copy of a color glyph costs: a page with the glyph
-- once, and with it 1,001 times.   chromatype bench/repeat.lua FONT OUT-DIR
local ct = require "chromatype"
local font = assert(ct.open_font(arg[1]))
local dir = arg[2] or "/tmp"
local cp
for _, c in ipairs(font:codepoints()) do if c > 0x20 then cp = c; break end end
local function size(n)
  local c = ct.canvas { width = 600, height = 600 }
  for i = 0, n - 1 do c:text { utf8.char(cp), font = font, size = 20, x = (i % 25) * 22, y = 20 + (i // 25) * 12 } end
  local p = dir .. "/repeat.pdf"
  assert(c:write(p))
  local h = assert(io.open(p, "rb"))
  local s = #h:read("a")
  h:close()
  os.remove(p)
  return s
end
local one, many = size(1), size(1001)
print(("U+%04X of %s: one copy %d bytes, 1,001 copies %d bytes: %.0f bytes a further copy")
  :format(cp, arg[1]:match("[^/]*$"), one, many, (many - one) / 1000))
