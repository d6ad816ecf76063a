--- chromatype.palette: colors and palettes for scripts and filters.
-- CSS-like colors (`"#f80"`, `"rgb(255 128 0 / 50%)"`, `"hsl(30 100% 50%)"`, `"tomato"`),
-- a font's palettes as lists of colors, custom palettes as `overrides` tables (from a list
-- of colors, by mixing two palettes, or spread between two colors), usable wherever
-- canvas:text, a layout run, a style or a filter takes `overrides`.
-- Reference: docs/lua-api.md (Palettes).
-- @module chromatype.palette

local ct = require "chromatype"

local M = {}

--- The CSS named colors (CSS Color 4), name -> "#rrggbb".  Made from Debian's X11 rgb.txt
--- with CSS's own values where they differ (gray, green, maroon, purple) and the names X11
--- lacks.
M.named = {
  aliceblue = "#f0f8ff", antiquewhite = "#faebd7", aqua = "#00ffff", aquamarine = "#7fffd4",
  azure = "#f0ffff", beige = "#f5f5dc", bisque = "#ffe4c4", black = "#000000",
  blanchedalmond = "#ffebcd", blue = "#0000ff", blueviolet = "#8a2be2", brown = "#a52a2a",
  burlywood = "#deb887", cadetblue = "#5f9ea0", chartreuse = "#7fff00", chocolate = "#d2691e",
  coral = "#ff7f50", cornflowerblue = "#6495ed", cornsilk = "#fff8dc", crimson = "#dc143c",
  cyan = "#00ffff", darkblue = "#00008b", darkcyan = "#008b8b", darkgoldenrod = "#b8860b",
  darkgray = "#a9a9a9", darkgreen = "#006400", darkgrey = "#a9a9a9", darkkhaki = "#bdb76b",
  darkmagenta = "#8b008b", darkolivegreen = "#556b2f", darkorange = "#ff8c00",
  darkorchid = "#9932cc", darkred = "#8b0000", darksalmon = "#e9967a", darkseagreen = "#8fbc8f",
  darkslateblue = "#483d8b", darkslategray = "#2f4f4f", darkslategrey = "#2f4f4f",
  darkturquoise = "#00ced1", darkviolet = "#9400d3", deeppink = "#ff1493",
  deepskyblue = "#00bfff", dimgray = "#696969", dimgrey = "#696969", dodgerblue = "#1e90ff",
  firebrick = "#b22222", floralwhite = "#fffaf0", forestgreen = "#228b22", fuchsia = "#ff00ff",
  gainsboro = "#dcdcdc", ghostwhite = "#f8f8ff", gold = "#ffd700", goldenrod = "#daa520",
  gray = "#808080", green = "#008000", greenyellow = "#adff2f", grey = "#808080",
  honeydew = "#f0fff0", hotpink = "#ff69b4", indianred = "#cd5c5c", indigo = "#4b0082",
  ivory = "#fffff0", khaki = "#f0e68c", lavender = "#e6e6fa", lavenderblush = "#fff0f5",
  lawngreen = "#7cfc00", lemonchiffon = "#fffacd", lightblue = "#add8e6", lightcoral = "#f08080",
  lightcyan = "#e0ffff", lightgoldenrodyellow = "#fafad2", lightgray = "#d3d3d3",
  lightgreen = "#90ee90", lightgrey = "#d3d3d3", lightpink = "#ffb6c1", lightsalmon = "#ffa07a",
  lightseagreen = "#20b2aa", lightskyblue = "#87cefa", lightslategray = "#778899",
  lightslategrey = "#778899", lightsteelblue = "#b0c4de", lightyellow = "#ffffe0",
  lime = "#00ff00", limegreen = "#32cd32", linen = "#faf0e6", magenta = "#ff00ff",
  maroon = "#800000", mediumaquamarine = "#66cdaa", mediumblue = "#0000cd",
  mediumorchid = "#ba55d3", mediumpurple = "#9370db", mediumseagreen = "#3cb371",
  mediumslateblue = "#7b68ee", mediumspringgreen = "#00fa9a", mediumturquoise = "#48d1cc",
  mediumvioletred = "#c71585", midnightblue = "#191970", mintcream = "#f5fffa",
  mistyrose = "#ffe4e1", moccasin = "#ffe4b5", navajowhite = "#ffdead", navy = "#000080",
  oldlace = "#fdf5e6", olive = "#808000", olivedrab = "#6b8e23", orange = "#ffa500",
  orangered = "#ff4500", orchid = "#da70d6", palegoldenrod = "#eee8aa", palegreen = "#98fb98",
  paleturquoise = "#afeeee", palevioletred = "#db7093", papayawhip = "#ffefd5",
  peachpuff = "#ffdab9", peru = "#cd853f", pink = "#ffc0cb", plum = "#dda0dd",
  powderblue = "#b0e0e6", purple = "#800080", rebeccapurple = "#663399", red = "#ff0000",
  rosybrown = "#bc8f8f", royalblue = "#4169e1", saddlebrown = "#8b4513", salmon = "#fa8072",
  sandybrown = "#f4a460", seagreen = "#2e8b57", seashell = "#fff5ee", sienna = "#a0522d",
  silver = "#c0c0c0", skyblue = "#87ceeb", slateblue = "#6a5acd", slategray = "#708090",
  slategrey = "#708090", snow = "#fffafa", springgreen = "#00ff7f", steelblue = "#4682b4",
  tan = "#d2b48c", teal = "#008080", thistle = "#d8bfd8", tomato = "#ff6347",
  turquoise = "#40e0d0", violet = "#ee82ee", wheat = "#f5deb3", white = "#ffffff",
  whitesmoke = "#f5f5f5", yellow = "#ffff00", yellowgreen = "#9acd32"
}

local function clamp(x, a, b) if x < a then return a elseif x > b then return b end return x end

local function hex2(v) return ("%02x"):format(math.floor(clamp(v, 0, 1) * 255 + 0.5)) end

local function to_hex(r, g, b, a)
  return "#" .. hex2(r) .. hex2(g) .. hex2(b) .. hex2(a or 1)
end

-- A CSS number or percentage: n / scale, or n% / 100.
local function num(s, scale)
  local v, pct = s:match("^([%+%-]?[%d%.]+)(%%?)$")
  v = tonumber(v)
  if not v then return nil end
  if pct == "%" then return v / 100 end
  return v / scale
end

local function hue(s)
  local v, unit = s:match("^([%+%-]?[%d%.]+)(%a*)$")
  v = tonumber(v)
  if not v then return nil end
  if unit == "" or unit == "deg" then return v
  elseif unit == "rad" then return math.deg(v)
  elseif unit == "turn" then return v * 360
  elseif unit == "grad" then return v * 0.9 end
  return nil
end

local function hsl_to_rgb(h, s, l)
  h = (h % 360) / 360
  local function f(n)
    local k = (n + h * 12) % 12
    local a = s * math.min(l, 1 - l)
    return l - a * math.max(-1, math.min(k - 3, 9 - k, 1))
  end
  return f(0), f(8), f(4)
end

--- A color from CSS syntax or any form ct.parse_color takes, as "#rrggbbaa"; nil and a
--- message for a bad one.
function M.color(c)
  if type(c) ~= "string" then
    local ok, r, g, b, a = pcall(ct.parse_color, c)
    if not ok then return nil, ("bad color (%s)"):format(type(c)) end
    return to_hex(r, g, b, a)
  end
  local s = c:lower():match("^%s*(.-)%s*$")
  if M.named[s] then return M.named[s] .. "ff" end
  if s == "transparent" then return "#00000000" end
  local fn, args = s:match("^(%a+)%((.*)%)$")
  if fn then
    local parts = {}
    local main, alpha = args:match("^(.-)%s*/%s*(.-)$")
    if not main then main = args end
    for p in main:gmatch("[^,%s]+") do parts[#parts + 1] = p end
    if #parts == 4 and not alpha then alpha = table.remove(parts) end
    local a = alpha and num(alpha, 1) or 1
    if #parts == 3 and a then
      if fn == "rgb" or fn == "rgba" then
        local r, g, b = num(parts[1], 255), num(parts[2], 255), num(parts[3], 255)
        if r and g and b then return to_hex(r, g, b, a) end
      elseif fn == "hsl" or fn == "hsla" then
        local h, sat, l = hue(parts[1]), num(parts[2], 100), num(parts[3], 100)
        if h and sat and l then
          local r, g, b = hsl_to_rgb(h, clamp(sat, 0, 1), clamp(l, 0, 1))
          return to_hex(r, g, b, a)
        end
      end
    end
    return nil, ("bad color '%s'"):format(c)
  end
  local ok, r, g, b, a = pcall(ct.parse_color, c)
  if not ok then return nil, ("bad color '%s' (expected #rgb, #rrggbb[aa], rgb(), hsl() or a CSS name)"):format(c) end
  return to_hex(r, g, b, a)
end

local function color_or_raise(c, fname, n)
  local v, err = M.color(c)
  if not v then error(("bad argument #%d to '%s' (%s)"):format(n, fname, err), 3) end
  return v
end

--- A font's palette as a list of "#rrggbbaa" (1-based: entry i is element i + 1).
-- @param which an index, "light", "dark" or a palette name (as canvas:text takes)
function M.colors(font, which)
  local idx = font:find_palette(which or 0)
  if not idx then
    error(("bad argument #2 to 'colors' (%s: no palette '%s')"):format(font:info().path, tostring(which)), 2)
  end
  for _, p in ipairs(font:palettes()) do
    if p.index == idx then
      local out = {}
      for i, c in ipairs(p.colors) do out[i] = c end
      return out
    end
  end
  return {}
end

--- An overrides table (entry -> color) from a list of colors (CSS-like), entry 0 first.
--- With `font`, a shorter list repeats to cover every entry.
function M.custom(colors, font)
  if type(colors) ~= "table" then error("bad argument #1 to 'custom' (list of colors expected)", 2) end
  local out = {}
  local n = #colors
  if n == 0 then return out end
  local total = font and #M.colors(font, 0) or n
  for i = 0, total - 1 do out[i] = color_or_raise(colors[(i % n) + 1], "custom", 1) end
  return out
end

local function rgba(c)
  local r, g, b, a = ct.parse_color(c)
  return r, g, b, a
end

-- sRGB <-> linear light, for mixing
local function lin(v) return v <= 0.04045 and v / 12.92 or ((v + 0.055) / 1.055) ^ 2.4 end
local function unlin(v) return v <= 0.0031308 and v * 12.92 or 1.055 * v ^ (1 / 2.4) - 0.055 end

-- OKLab (Björn Ottosson's perceptual space, as CSS Color 4 defines it) from and to linear sRGB.
local function cbrt(x) return x < 0 and -((-x) ^ (1 / 3)) or x ^ (1 / 3) end
local function to_oklab(r, g, b)
  local l = cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
  local m = cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
  local s = cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
  return 0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s
end
local function from_oklab(L, A, B)
  local l = (L + 0.3963377774 * A + 0.2158037573 * B) ^ 3
  local m = (L - 0.1055613458 * A - 0.0638541728 * B) ^ 3
  local s = (L - 0.0894841775 * A - 1.2914855480 * B) ^ 3
  return 4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s
end

--- Mixes two colors: t = 0 gives a, 1 gives b.  In linear light by default (`space =
--- "linear"`), straight sRGB (`"srgb"`), or OKLab (`"oklab"`: perceptually even steps, what
--- animations use); alpha mixes linearly.
function M.mix_colors(a, b, t, space)
  local r1, g1, b1, a1 = rgba(color_or_raise(a, "mix_colors", 1))
  local r2, g2, b2, a2 = rgba(color_or_raise(b, "mix_colors", 2))
  if space == "oklab" then
    local L1, A1, B1 = to_oklab(lin(r1), lin(g1), lin(b1))
    local L2, A2, B2 = to_oklab(lin(r2), lin(g2), lin(b2))
    local r, g, b = from_oklab(L1 + (L2 - L1) * t, A1 + (A2 - A1) * t, B1 + (B2 - B1) * t)
    return to_hex(unlin(clamp(r, 0, 1)), unlin(clamp(g, 0, 1)), unlin(clamp(b, 0, 1)), a1 + (a2 - a1) * t)
  end
  local function m(x, y)
    if space == "srgb" then return x + (y - x) * t end
    return unlin(lin(x) + (lin(y) - lin(x)) * t)
  end
  return to_hex(m(r1, r2), m(g1, g2), m(b1, b2), a1 + (a2 - a1) * t)
end

--- Overrides mixing two of a font's palettes (index, name, "light" or "dark") entry by entry.
function M.mix(font, a, b, t, space)
  local pa, pb = M.colors(font, a), M.colors(font, b)
  local out = {}
  for i = 1, math.min(#pa, #pb) do out[i - 1] = M.mix_colors(pa[i], pb[i], t or 0.5, space) end
  return out
end

--- Overrides spreading a font's palette entries between two colors by lightness: the
--- darkest entry of the palette becomes `dark`, the lightest `light`, the others in between
--- (a duotone; alpha is kept).
function M.duotone(font, dark, light, which)
  dark, light = color_or_raise(dark, "duotone", 2), color_or_raise(light, "duotone", 3)
  local colors = M.colors(font, which or 0)
  local ls, lo, hi = {}, math.huge, -math.huge
  for i, c in ipairs(colors) do
    local l = M.lightness(c)
    ls[i] = l
    lo, hi = math.min(lo, l), math.max(hi, l)
  end
  local out = {}
  for i, c in ipairs(colors) do
    local t = hi > lo and (ls[i] - lo) / (hi - lo) or 0.5
    local mr, mg, mb = rgba(M.mix_colors(dark, light, t, "srgb"))   -- t is perceptual already
    local _, _, _, a = rgba(c)
    out[i - 1] = to_hex(mr, mg, mb, a)
  end
  return out
end

--- The lightness of a color, 0 black .. 1 white: its relative luminance brought back to the
--- sRGB curve, so that equal steps look equal (what a duotone spreads colors by).
function M.lightness(c)
  return unlin(M.luminance(c))
end

--- The relative luminance of a color (0 black .. 1 white).
function M.luminance(c)
  local r, g, b = rgba(color_or_raise(c, "luminance", 1))
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
end

return M
