--- chromatype.fontmake.specimen: a font's specimen page, one self-contained HTML file (the
-- font inside as a data: URL) to open in any browser: its sample text in every palette
-- (`font-palette` with `@font-palette-values`), a slider per axis, and the axes animated
-- in CSS.  `#t=SECONDS` in the page's address stops the animation at that time (a still for
-- screenshots and links).  `ct.save_font{..., specimen = "page.html"}`, `chromatype font
-- --specimen page.html`.
-- @module chromatype.fontmake.specimen

local ct = require "chromatype"
local core = require "chromatype.core"

local M = {}

local function esc(s)
  return (tostring(s):gsub("[&<>\"']", { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;", ["'"] = "&#39;" }))
end

-- a CSS string: quotes and backslashes escaped, no line breaks
local function css_str(s) return '"' .. tostring(s):gsub("[\\\"]", "\\%0"):gsub("[\r\n]", " ") .. '"' end

-- The text a specimen shows when none is given: the capitals, else the small letters, the
-- digits, else the font's first 24 characters (emoji fonts) that are not marks or spaces.
local function sample(font)
  local have = {}
  for _, cp in ipairs(font:codepoints()) do have[cp] = true end
  local function run(from, to)
    local t = {}
    for cp = from, to do if have[cp] then t[#t + 1] = utf8.char(cp) end end
    return table.concat(t)
  end
  local s = run(0x41, 0x5A)
  if #s >= 6 then return s:sub(1, 13) .. (#s > 13 and " " .. s:sub(14) or "") end
  s = run(0x61, 0x7A) .. run(0x30, 0x39)
  if #s >= 6 then return s end
  local t = {}
  for _, cp in ipairs(font:codepoints()) do
    if #t >= 24 then break end
    if cp > 0x20 and not (cp >= 0x300 and cp <= 0x36F) and not (cp >= 0xFE00 and cp <= 0xFE0F) and cp ~= 0x200D
      and not (cp >= 0x1F3FB and cp <= 0x1F3FF) and not (cp >= 0xE0020 and cp <= 0xE007F) then
      t[#t + 1] = utf8.char(cp)
    end
  end
  return table.concat(t, " ")
end

local PAGE = [[<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="chromatype">
<title>%s: specimen</title>
<style>
@font-face { font-family: %s; src: url(data:%s;base64,%s) format(%s); }
%s
:root { %s }
body { margin: 0; padding: 24px 32px 48px; font: 14px/1.45 system-ui, sans-serif; color: #1a1a1a; background: #fff; }
h1 { font-size: 22px; margin: 0 0 2px; }
.meta, .label { color: #666; font-size: 12px; margin: 14px 0 2px; }
.sample { font-family: %s; font-size: 72px; line-height: 1.25; margin: 0; overflow-wrap: anywhere;%s }
#axes label { display: inline-flex; align-items: center; gap: 8px; margin: 6px 24px 0 0; }
#axes output { min-width: 3em; font-variant-numeric: tabular-nums; }
@keyframes axes { %s }
.animated { animation: axes %gs ease-in-out infinite; }
</style></head>
<body>
<h1>%s</h1>
<p class="meta">%s</p>
<section id="axes">%s</section>
<section id="palettes">
%s</section>
<section id="animation">
%s</section>
<script>
for (const s of document.querySelectorAll('#axes input')) {
  const out = s.nextElementSibling;
  s.addEventListener('input', () => {
    document.documentElement.style.setProperty('--axis-' + s.dataset.tag, s.value);
    out.value = s.value;
  });
}
// #t=SECONDS: the animation stopped at that time
const t = /(?:^#|&)t=([0-9.]+)/.exec(location.hash);
if (t) for (const a of document.querySelectorAll('.animated')) {
  a.style.animationDelay = -parseFloat(t[1]) + 's';
  a.style.animationPlayState = 'paused';
}
</script>
</body></html>
]]

-- a CSS custom property name for an axis tag (tags may hold spaces and punctuation)
local function var_name(tag) return "--axis-" .. tag:gsub("[^%w]", function(c) return ("_%02X"):format(c:byte()) end) end

--- Writes the specimen of the font file `font_path` to `out` (an HTML file, written whole or
--- not at all).  opts: `text` (the sample; default from the font's characters), `duration`
--- (seconds of one cycle of the axes, default 4).  Returns true, or nil and a message.
function M.write(font_path, out, opts)
  opts = opts or {}
  local font, err = ct.open_font(font_path)
  if not font then return nil, err end
  local data = core.read_file(font_path)
  if not data then return nil, font_path .. ": cannot read" end
  local info = font:info()
  local family = (info.family ~= nil and info.family ~= "") and info.family or "Font"
  local face = family .. " specimen"
  local woff2 = data:sub(1, 4) == "wOF2"
  local text = opts.text or sample(font)
  local duration = opts.duration or 4
  local pals = font:palettes()
  local axes = font:axes()

  local defs, rows = {}, {}
  if #pals == 0 then
    rows[1] = ('<p class="label">No palettes</p>\n<p class="sample" id="palette-none">%s</p>\n'):format(esc(text))
  end
  for i, p in ipairs(pals) do
    local n = i - 1
    defs[#defs + 1] = ("@font-palette-values --palette-%d { font-family: %s; base-palette: %d; }"):format(n, css_str(face), n)
    local label = ("Palette %d"):format(n)
    if p.name then label = label .. ": " .. p.name end
    if p.type then label = label .. " (" .. p.type .. ")" end
    local swatches = {}
    for _, c in ipairs(p.colors) do
      swatches[#swatches + 1] = ('<span title="%s" style="display:inline-block;width:10px;height:10px;margin-left:2px;'
        .. 'background:%s"></span>'):format(esc(c), esc(c))
    end
    rows[#rows + 1] = ('<p class="label">%s %s</p>\n<p class="sample" id="palette-%d" style="font-palette: --palette-%d">%s</p>\n')
      :format(esc(label), table.concat(swatches), n, n, esc(text))
  end

  local roots, settings, sliders, k0, k50 = {}, {}, {}, {}, {}
  for _, a in ipairs(axes) do
    local v = var_name(a.tag)
    roots[#roots + 1] = ("%s: %s;"):format(v, ("%g"):format(a.default))
    settings[#settings + 1] = ("%s var(%s)"):format(css_str(a.tag), v)
    k0[#k0 + 1] = ("%s %g"):format(css_str(a.tag), a.min)
    k50[#k50 + 1] = ("%s %g"):format(css_str(a.tag), a.max)
    local step = (a.max - a.min) / 200
    sliders[#sliders + 1] = ('<label>%s (%s) <input type="range" min="%g" max="%g" step="%g" value="%g" data-tag="%s">'
      .. '<output>%g</output></label>'):format(esc(a.name ~= "" and a.name or a.tag), esc(a.tag), a.min, a.max, step,
      a.default, esc(a.tag:gsub("[^%w]", function(c) return ("_%02X"):format(c:byte()) end)), a.default)
  end
  local fvs = #settings > 0 and (" font-variation-settings: %s;"):format(table.concat(settings, ", ")) or ""
  local frames = #axes > 0 and ("0%%, 100%% { font-variation-settings: %s; } 50%% { font-variation-settings: %s; }")
    :format(table.concat(k0, ", "), table.concat(k50, ", ")) or ""
  local anim = #axes > 0 and ('<p class="label">The axes from their minimum to their maximum and back, %g s</p>\n'
    .. '<p class="sample animated" id="animated">%s</p>\n'):format(duration, esc(text)) or ""
  local formats = {}
  for _, f in ipairs(info.formats or {}) do formats[#formats + 1] = f end
  local ax = {}
  for _, a in ipairs(axes) do ax[#ax + 1] = ("%s %g to %g (default %g)"):format(a.tag, a.min, a.max, a.default) end
  local meta = ("%d glyphs%s%s%s"):format(info.glyph_count, #formats > 0 and " · " .. table.concat(formats, ", ") or "",
    #pals > 0 and (" · %d palette%s"):format(#pals, #pals == 1 and "" or "s") or "",
    #ax > 0 and " · axes: " .. table.concat(ax, "; ") or "")

  local html = PAGE:format(esc(family), css_str(face), woff2 and "font/woff2" or "font/ttf", core.base64(data),
    woff2 and '"woff2"' or '"truetype"', table.concat(defs, "\n"), table.concat(roots, " "), css_str(face), fvs,
    frames, duration, esc(family), esc(meta), table.concat(sliders, "\n"), table.concat(rows), anim)
  return core.write_file(out, html)
end

return M
