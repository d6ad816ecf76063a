-- bilingual.lua: one A6 landscape page in English, Hebrew, Arabic and Hindi with emoji, set
-- by the document engine: one fallback chain (DejaVu Sans for Latin, Hebrew and Arabic, Lohit
-- Devanagari, Twemoji for the emoji), runs split by script and bidi level, right-to-left
-- paragraphs aligned at their start (the right), and a justified mixed paragraph.  The PDF's
-- text copies in logical order.
--   chromatype examples/bilingual.lua [OUT-STEM]
local ct = require "chromatype"

local here = arg and arg[0] and arg[0]:match("^(.*)/") or "examples"
local stem = arg[1] or "out/bilingual"

local doc = ct.document { size = "A5", orientation = "landscape", margin = "12mm",
  title = "chromatype: in every direction", base_dir = here, background = "#fbf7ef" }
doc:style("default", { font = "DejaVu Sans; Lohit Devanagari; ../tests/fonts/twemoji-colr0.woff2",
  size = "13pt", leading = "19pt", color = "#1d1b2f" })
doc:style("title", { font = "fonts/bungee-latin.woff2; ../tests/fonts/twemoji-colr0.woff2",
  size = "22pt", color = "#b03a2e" })
doc:style("note", { size = "8pt", leading = "11pt", color = "#6b6259" })

local page = doc:page()
page:frame { y = "12mm", height = "14mm", style = "title", fit = "size", fit_to = "line" }
  :text("Type in every color 🌈 and direction")
page:frame { y = "30mm", height = "70mm" }
  :text("Type in every color, in every direction. 🎨", { language = "en" })
  :text("כתב בכל צבע, בכל כיוון. 🎨", { language = "he" })
  :text("اكتب بكل لون، في كل اتجاه. 🎨", { language = "ar" })
  :text("हर रंग में, हर दिशा में लिखो। 🎨", { language = "hi" })
  :paragraph({ "Mixed lines work too: the words שלום (Hebrew) and مرحبا (Arabic) read right to ",
    "left inside this English sentence, नमस्ते comes from Lohit Devanagari, and the emoji ",
    "❤️🌍 from Twemoji, all in one paragraph set justified across the measure." },
    { align = "justify" })
page:frame { y = "112mm", height = "12mm", style = "note", valign = "bottom" }
  :text("One fallback chain: DejaVu Sans; Lohit Devanagari; Twemoji. Lines break by UAX #14 (ICU), "
    .. "order by the bidi algorithm (FriBidi), shape by HarfBuzz, script by script.")

local ok, err = doc:write(stem .. ".pdf")
assert(ok, err)
assert(doc:write(stem .. ".png", { dpi = 144 }))
print("wrote " .. stem .. ".pdf and " .. stem .. ".png")
