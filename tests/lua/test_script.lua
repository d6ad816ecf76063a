-- test_script.lua: ct.script_runs, the text cut into runs of one script each (ICU's
-- Script property), with neutral characters joining a neighbour and brackets kept with
-- their opening bracket; the runs shape with font:shape's `script` option.
local ct = require "chromatype"

-- "Script:text|Script:text|..." for the runs, after checking that they tile the text
local function runs(text)
  local list = ct.script_runs(text)
  local parts, at = {}, 1
  for i, r in ipairs(list) do
    if r.start ~= at then error(("run %d starts at %d, want %d"):format(i, r.start, at), 2) end
    if r.stop < r.start then error(("run %d is empty"):format(i), 2) end
    parts[#parts + 1] = r.script .. ":" .. text:sub(r.start, r.stop)
    at = r.stop + 1
  end
  if at ~= #text + 1 then error(("the runs end at %d, the text at %d"):format(at - 1, #text), 2) end
  return table.concat(parts, "|")
end

return {
  { "one script, and positions as 1-based inclusive bytes", function()
    eq(ct.script_runs("Hello"), { { start = 1, stop = 5, script = "Latn" } })
    eq(ct.script_runs("שלום"), { { start = 1, stop = 8, script = "Hebr" } })
    eq(ct.script_runs(""), {})
  end },
  { "Latin, Arabic and Devanagari: spaces and punctuation join the run before them", function()
    eq(runs("Hello مرحبا नमस्ते!"), "Latn:Hello |Arab:مرحبا |Deva:नमस्ते!")
    eq(runs("abc, def. ghi"), "Latn:abc, def. ghi")
    eq(runs("مرحبا 123 world"), "Arab:مرحبا 123 |Latn:world")
  end },
  { "neutral characters at the start join the first script", function()
    eq(runs("  123 abc"), "Latn:  123 abc")
    eq(runs("\u{301}x"), "Latn:\u{301}x")   -- a combining mark first
    eq(runs("«مرحبا» abc"), "Arab:«مرحبا» |Latn:abc")
  end },
  { "combining marks, ZWJ and variation selectors stay in their run", function()
    eq(runs("e\u{301}\u{300} नमस्ते"), "Latn:e\u{301}\u{300} |Deva:नमस्ते")
    eq(runs("क्‍ष x"), "Deva:क्‍ष |Latn:x")   -- virama, ZWJ
    eq(runs("a\u{FE0F}b"), "Latn:a\u{FE0F}b")
  end },
  { "emoji are Common: they join the text around them", function()
    eq(runs("Hi 😀👍🏽 नमस्ते 👨‍👩‍👧"), "Latn:Hi 😀👍🏽 |Deva:नमस्ते 👨‍👩‍👧")
    eq(runs("😀 مرحبا ❤️"), "Arab:😀 مرحبا ❤️")
    eq(runs("🇫🇷🇩🇪"), "Zyyy:🇫🇷🇩🇪")
  end },
  { "text with no script of its own is one Zyyy run", function()
    eq(ct.script_runs("123 (!) 😀"), { { start = 1, stop = 12, script = "Zyyy" } })
    eq(runs("\u{E000}\u{E001}"), "Zyyy:\u{E000}\u{E001}")   -- private use
    eq(runs("\u{301}"), "Zyyy:\u{301}")
  end },
  { "paired brackets stay with the script of their opening bracket", function()
    eq(runs("(שלום) abc"), "Hebr:(שלום) |Latn:abc")
    eq(runs("abc (שלום) def"), "Latn:abc (|Hebr:שלום|Latn:) def")
    eq(runs("abc [שלום (مرحبا)] def"), "Latn:abc [|Hebr:שלום (|Arab:مرحبا|Hebr:)|Latn:] def")
    -- an unclosed bracket inside is forgotten when the outer one closes
    eq(runs("a(ש[ب)c"), "Latn:a(|Hebr:ש[|Arab:ب|Latn:)c")
    -- U+2329 and U+3008 are the same bracket
    eq(runs("a〈ש〉b"), "Latn:a〈|Hebr:ש|Latn:〉b")
    eq(runs("a\u{2329}ש\u{3009}b"), "Latn:a\u{2329}|Hebr:ש|Latn:\u{3009}b")
  end },
  { "deep nesting is bounded", function()
    local s = ("(" .. "ש"):rep(200) .. ("a)"):rep(200)
    local list = ct.script_runs(s)
    assert(#list > 1)
    eq(list[#list].stop, #s)
  end },
  { "Han, Hiragana and Katakana are scripts of their own", function()
    eq(runs("日本語のテキスト"), "Hani:日本語|Hira:の|Kana:テキスト")
  end },
  { "invalid UTF-8 raises naming the byte", function()
    checkerr("bad argument #1 to '[%w.]*script_runs' %(invalid UTF%-8 at byte 3%)", ct.script_runs, "ab\xffcd")
    checkerr("invalid UTF%-8 at byte 2", ct.script_runs, "a\xC3")          -- truncated
    checkerr("invalid UTF%-8 at byte 1", ct.script_runs, "\xC0\xAF")       -- overlong
    checkerr("invalid UTF%-8 at byte 1", ct.script_runs, "\xED\xA0\x80")   -- a surrogate
    checkerr("bad argument #1", ct.script_runs, {})
  end },
  { "each run shapes with its script", function()
    local f = assert(ct.open_font(font_path("ct-colr0.ttf")))
    for _, r in ipairs(ct.script_runs("AB שלום")) do
      f:shape(("AB שלום"):sub(r.start, r.stop), { script = r.script })
    end
  end },
}
