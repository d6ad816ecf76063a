-- test_breaks.lua: ct.line_breaks, UAX #14 line-break opportunities through ICU, as the
-- byte positions where a line may end; ct.hyphenate, libhyphen with Debian's dictionaries;
-- ct.bidi, FriBidi's level runs in visual order.
local ct = require "chromatype"

-- the text cut at every opportunity, mandatory ones marked with "\n|"
local function cut(text, lang)
  local ends, hard = ct.line_breaks(text, lang)
  local parts, last = {}, 0
  for i, p in ipairs(ends) do
    parts[#parts + 1] = text:sub(last + 1, p) .. (hard[i] and "!" or "")
    last = p
  end
  return table.concat(parts, "|")
end

local function hyph(word, lang)
  local p = assert(ct.hyphenate(word, lang))
  local parts, last = {}, 0
  for _, q in ipairs(p) do parts[#parts + 1] = word:sub(last + 1, q); last = q end
  parts[#parts + 1] = word:sub(last + 1)
  return table.concat(parts, "-")
end

local function visual(text, dir)
  local runs, base = ct.bidi(text, dir)
  local parts = {}
  for _, r in ipairs(runs) do parts[#parts + 1] = (r.rtl and "<" or ">") .. text:sub(r.start, r.stop) end
  return base .. ":" .. table.concat(parts, "|")
end

return {
  { "bidi: Hebrew in English, English in Hebrew, numbers in Arabic", function()
    eq(visual("Hello שלום world"), "ltr:>Hello |<שלום|> world")
    eq(visual("שלום hello עולם"), "rtl:< עולם|>hello|<שלום ")
    eq(visual("مرحبا 123 world"), "rtl:>world|< |>123|<مرحبا ")
    eq(visual("abc", "rtl"), "rtl:>abc")
    eq(visual(""), "ltr:")
    checkerr("invalid option 'up'", ct.bidi, "x", "up")
  end },
  { "hyphenation, English and German, any case", function()
    eq(hyph("typesetting"), "type-set-ting")
    eq(hyph("Typography", "en-US"), "Ty-pog-ra-phy")
    eq(hyph("Silbentrennung", "de"), "Sil-ben-tren-nung")
    eq(hyph("a"), "a")
  end },
  { "a language without a dictionary is an expected failure", function()
    local ok, msg = ct.hyphenate("word", "xx-YY")
    eq(ok, nil)
    assert(msg:find("no hyphenation dictionary for 'xx%-YY'"), msg)
  end },
  { "spaces and hyphens", function()
    eq(cut("Hello world, state-of-the-art type."), "Hello |world, |state-|of-|the-|art |type.")
  end },
  { "emoji sequences stay whole: modifiers, ZWJ families, flags", function()
    eq(cut("😀👍🏽👨‍👩‍👧 🇫🇷🇩🇪 x"), "😀|👍🏽|👨‍👩‍👧 |🇫🇷|🇩🇪 |x")
  end },
  { "a newline is a mandatory break; no-break space is no opportunity", function()
    eq(cut("one\ntwo"), "one\n!|two")
    eq(cut("10\u{A0}km away"), "10\u{A0}km |away")
  end },
  { "CJK breaks between ideographs, not before the full stop", function()
    eq(cut("日本語です。"), "日|本|語|で|す。")
  end },
  { "empty text and bad arguments", function()
    local ends = ct.line_breaks("")
    eq(#ends, 0)
    checkerr("bad argument #1", ct.line_breaks, {})
  end },
}
