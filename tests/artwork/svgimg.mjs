#!/usr/bin/env node
// svgimg.mjs: draws SVG files as <img> elements in headless Chromium or Firefox, one per cell
// of ../shared/oracle's grid, each image where a font compiled from the file (`chromatype font
// --svg`) has its glyph: the browser's own drawing of the source, to compare with its drawing of
// the font (tests/artwork/proof.sh, make_refs.sh).  Dev tool: needs the oracle's runnable copy
// (puppeteer-core in $ORACLE_HOME/node_modules, default ~/.cache/color-oracle).
//
//   node tests/artwork/svgimg.mjs LIST OUT.png [--browser chromium|firefox] [--layout GRID.json]
//        [--cols 16] [--size 48] [--upem 1024] [--ascent 768] [--descent 256] [--out-layout J]
//
// LIST: one SVG path per line, in cell order.  Geometry: with --layout (the file grid.sh
// --layout writes for the font) each cell's pen origin comes from it; without, from the oracle's
// contract (cell round(1.5 size), pen (round(size/4), round(1.125 size)) in the cell).  The
// image of a file is placed as the glyph is: left = pen x, top = baseline - ascent*size/upem,
// height = (ascent+descent)*size/upem, width = height * viewBox width / viewBox height (the
// advance `chromatype font` gives by default).  Whole pixels keep the comparison exact: at
// upem 1024, ascent 768, descent 256 and 48 px the image of a square file is 48x48 at
// (pen x, baseline-36).  The layout written (--out-layout) has compare.py's --cells shape.
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const ORACLE = process.env.ORACLE_HOME || path.join(os.homedir(), '.cache/color-oracle');
const EXE = {
  chromium: process.env.ORACLE_CHROMIUM || '/usr/lib/chromium/chromium',
  firefox: process.env.ORACLE_FIREFOX || '/usr/lib/firefox-esr/firefox-esr',
};

function die(msg) { console.error(`svgimg: ${msg}`); process.exit(2); }

function options(argv) {
  const o = { browser: 'chromium', cols: 16, size: 48, upem: 1024, ascent: 768, descent: 256, pos: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) { o.pos.push(a); continue; }
    const k = a.slice(2).replace(/-(.)/g, (_, c) => c.toUpperCase());
    if (!(k in o) && k !== 'layout' && k !== 'outLayout') die(`unknown option ${a}`);
    if (argv[i + 1] === undefined) die(`${a} needs a value`);
    o[k] = typeof o[k] === 'number' ? Number(argv[++i]) : argv[++i];
    if (Number.isNaN(o[k])) die(`bad ${a}`);
  }
  if (o.pos.length !== 2) die('usage: svgimg.mjs LIST OUT.png [--browser B] [--layout GRID.json] [--out-layout J]');
  if (!EXE[o.browser]) die(`unknown browser ${o.browser}`);
  return o;
}

// viewBox width / height of an SVG file (its width/height attributes when it has no viewBox)
function aspect(file, text) {
  const root = text.match(/<svg\b[^>]*>/s);
  if (!root) die(`${file}: no <svg> element`);
  const vb = root[0].match(/viewBox\s*=\s*["']([^"']+)["']/);
  if (vb) {
    const n = vb[1].trim().split(/[\s,]+/).map(Number);
    if (n.length === 4 && n[2] > 0 && n[3] > 0) return n[2] / n[3];
  }
  const w = root[0].match(/\bwidth\s*=\s*["']([\d.]+)/), h = root[0].match(/\bheight\s*=\s*["']([\d.]+)/);
  if (w && h && Number(h[1]) > 0) return Number(w[1]) / Number(h[1]);
  die(`${file}: no viewBox nor width and height`);
}

// the cells: pen origins from the oracle's layout, or from its contract
function cells(o, files) {
  const px = u => u * o.size / o.upem;
  let cw, ch, pens;
  if (o.layout) {
    const lay = JSON.parse(fs.readFileSync(o.layout, 'utf8'));
    if (lay.cells.length !== files.length) die(`${o.layout} has ${lay.cells.length} cells, the list ${files.length} files`);
    if (lay.size !== o.size) die(`${o.layout} was drawn at ${lay.size} px, not ${o.size}`);
    cw = lay.cell.width; ch = lay.cell.height;
    pens = lay.cells.map(c => ({ col: c.col, row: c.row, x: c.x, baseline: c.baseline, advance: c.advance, cp: c.cp }));
  } else {
    cw = ch = Math.round(o.size * 1.5);
    const x = Math.round(o.size / 4), y = Math.round(o.size * 1.125);
    pens = files.map((_, i) => {
      const col = i % o.cols, row = Math.floor(i / o.cols);
      return { col, row, x: col * cw + x, baseline: row * ch + y };
    });
  }
  const cols = Math.max(...pens.map(p => p.col)) + 1, rows = Math.max(...pens.map(p => p.row)) + 1;
  const h = px(o.ascent + o.descent);
  const list = files.map((file, i) => {
    const text = fs.readFileSync(file, 'utf8');
    const p = pens[i], w = h * aspect(file, text);
    if (p.advance !== undefined && Math.abs(p.advance - w) > 0.02)
      console.error(`svgimg: warning: ${path.basename(file)}: the font's cell advances ${p.advance} px, the image is ${w} px wide`);
    return { cp: p.cp ?? path.basename(file, '.svg'), file: path.basename(file), col: p.col, row: p.row,
      x: p.x, baseline: p.baseline, left: p.x - p.col * cw, top: p.baseline - px(o.ascent) - p.row * ch,
      width: w, height: h, src: 'data:image/svg+xml;base64,' + Buffer.from(text).toString('base64') };
  });
  return { cw, ch, width: cols * cw, height: rows * ch, list };
}

// runs in the page: one clipping cell per file, the image inside, all decoded before the shot
async function place(g) {
  const failed = [];
  await Promise.all(g.list.map(async c => {
    const cell = document.createElement('div');
    Object.assign(cell.style, { position: 'absolute', overflow: 'hidden', left: c.col * g.cw + 'px',
      top: c.row * g.ch + 'px', width: g.cw + 'px', height: g.ch + 'px' });
    const img = document.createElement('img');
    Object.assign(img.style, { position: 'absolute', left: c.left + 'px', top: c.top + 'px',
      width: c.width + 'px', height: c.height + 'px' });
    img.src = c.src;
    cell.append(img);
    document.body.append(cell);
    try { await img.decode(); } catch (e) { failed.push(c.file); }
  }));
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  return failed;
}

async function launch(browser) {
  const req = createRequire(path.join(ORACLE, 'node_modules') + '/');
  let entry;
  try { entry = req.resolve('puppeteer-core'); } catch (e) { die(`no puppeteer-core under ${ORACLE} (run the oracle's setup.sh)`); }
  const m = await import(pathToFileURL(entry).href);
  const puppeteer = m.default ?? m;
  // as the oracle launches them: sRGB, scale 1, no GPU, no color management
  if (browser === 'chromium')
    return puppeteer.launch({ browser: 'chrome', executablePath: EXE.chromium, headless: true, defaultViewport: null,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', '--disable-extensions',
        '--force-color-profile=srgb', '--force-device-scale-factor=1', '--disable-lcd-text',
        '--disable-skia-runtime-opts', '--hide-scrollbars', '--mute-audio'] });
  return puppeteer.launch({ browser: 'firefox', executablePath: EXE.firefox, headless: true, defaultViewport: null,
    extraPrefsFirefox: { 'layout.css.devPixelsPerPx': '1.0', 'gfx.color_management.mode': 0 },
    env: { ...process.env, FONTCONFIG_FILE: path.join(ORACLE, 'fonts-nohint.conf') } });
}

async function main() {
  const o = options(process.argv.slice(2));
  const [listFile, out] = o.pos;
  const files = fs.readFileSync(listFile, 'utf8').split('\n').map(s => s.trim()).filter(Boolean);
  if (!files.length) die(`${listFile}: no files`);
  const g = cells(o, files);
  const b = await launch(o.browser);
  try {
    const page = await b.newPage();
    await page.setViewport({ width: g.width, height: g.height, deviceScaleFactor: 1 });
    await page.setContent(`<!DOCTYPE html><html><head><meta charset="utf-8"><style>
html, body { margin: 0; padding: 0; overflow: hidden; background: #ffffff; }
body { position: relative; width: ${g.width}px; height: ${g.height}px; }
</style></head><body></body></html>`, { waitUntil: 'load' });
    const failed = await page.evaluate(place, g);
    if (failed.length) throw new Error(`the browser cannot draw ${failed.join(', ')}`);
    await page.screenshot({ path: out, type: 'png', clip: { x: 0, y: 0, width: g.width, height: g.height },
      captureBeyondViewport: false });
    if (o.outLayout) {
      const lay = { mode: 'svgimg', browser: await b.version(), size: o.size, upem: o.upem, ascent: o.ascent,
        descent: o.descent, viewport: { width: g.width, height: g.height }, cell: { width: g.cw, height: g.ch },
        cells: g.list.map(({ src, ...c }) => c) };
      fs.writeFileSync(o.outLayout, JSON.stringify(lay) + '\n');
    }
  } finally {
    await b.close();
  }
}

main().catch(e => { console.error(`svgimg: ${e.message}`); process.exit(1); });
