#!/usr/bin/env node
// strokes_chromium.mjs: headless Chromium's drawing of SVG files as <img>, one PNG each, in
// the geometry of tests/cli/test_artwork_strokes.sh: a white PAGE x PAGE px page, the image
// HEIGHT px high (its width from its viewBox) with its top left corner at (LEFT, TOP).
//   node tests/artwork/strokes_chromium.mjs OUTDIR PAGE LEFT TOP HEIGHT FILE.svg...
// OUTDIR/NAME.png for each FILE NAME.svg.  A development tool (make_stroke_refs.sh calls it):
// puppeteer-core comes from the oracle's copy ($ORACLE_HOME, default ~/.cache/color-oracle;
// ../shared/oracle/setup.sh), Chromium from Debian, launched as ../shared/oracle/oracle.mjs
// launches it (sRGB, scale 1, no GPU, no LCD text).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

const home = process.env.ORACLE_HOME || path.join(os.homedir(), '.cache', 'color-oracle');
const puppeteer = createRequire(path.join(home, 'node_modules', '/'))('puppeteer-core');
const CHROMIUM = process.env.ORACLE_CHROMIUM || '/usr/lib/chromium/chromium';
const ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--disable-dev-shm-usage', '--disable-extensions',
  '--force-color-profile=srgb', '--force-device-scale-factor=1',
  '--disable-lcd-text', '--disable-skia-runtime-opts', '--hide-scrollbars', '--mute-audio',
  '--disable-features=Translate,MediaRouter,OptimizationHints',
];

const [outDir, page, left, top, height, ...files] = process.argv.slice(2);
if (!files.length || [page, left, top, height].some(v => !(Number(v) >= 0))) {
  console.error('usage: strokes_chromium.mjs OUTDIR PAGE LEFT TOP HEIGHT FILE.svg...');
  process.exit(2);
}
fs.mkdirSync(outDir, { recursive: true });
const browser = await puppeteer.launch({ browser: 'chrome', executablePath: CHROMIUM, headless: true,
  args: ARGS, defaultViewport: null });
let status = 0;
try {
  const tab = await browser.newPage();
  const n = Number(page);
  await tab.setViewport({ width: n, height: n, deviceScaleFactor: 1 });
  console.log(JSON.stringify({ browser: await browser.version(), page: n, left: Number(left),
    top: Number(top), height: Number(height) }));
  for (const f of files) {
    const data = fs.readFileSync(f).toString('base64');
    const html = '<!doctype html><html><head><style>html,body{margin:0;background:#fff;overflow:hidden}'
      + `img{position:absolute;left:${left}px;top:${top}px;height:${height}px}</style></head><body>`
      + `<img src="data:image/svg+xml;base64,${data}"></body></html>`;
    await tab.setContent(html, { waitUntil: 'load' });
    const ok = await tab.evaluate(async () => {
      const img = document.querySelector('img');
      try { await img.decode(); } catch (e) { return false; }
      await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
      return img.naturalWidth > 0;
    });
    if (!ok) { console.error(`${f}: Chromium could not draw it`); status = 1; continue; }
    const out = path.join(outDir, path.basename(f).replace(/\.svg$/i, '') + '.png');
    await tab.screenshot({ path: out, type: 'png', clip: { x: 0, y: 0, width: n, height: n },
      captureBeyondViewport: false });
  }
} finally {
  await browser.close();
}
process.exit(status);
