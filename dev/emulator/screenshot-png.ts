/**
 * The emulator's screenshots: small PNGs drawn here, so a screenshot URL in the sandbox shows
 * a picture without any download. Each is a sketch of a page (browser bar, header, text lines,
 * a button) in colours taken from its name, with what it is written on it ("CLICK 3 BEFORE",
 * the user). Web APIs only (CompressionStream), so it runs in Node and workerd alike.
 */

export const SCREENSHOT_SIZE = { width: 480, height: 300 } as const;

/** 5×7 glyphs, one row of five pixels per group; anything else is drawn as a space. */
const FONT: Record<string, string> = {
  A: "01110 10001 10001 11111 10001 10001 10001",
  B: "11110 10001 10001 11110 10001 10001 11110",
  C: "01110 10001 10000 10000 10000 10001 01110",
  D: "11100 10010 10001 10001 10001 10010 11100",
  E: "11111 10000 10000 11110 10000 10000 11111",
  F: "11111 10000 10000 11110 10000 10000 10000",
  G: "01110 10001 10000 10111 10001 10001 01111",
  H: "10001 10001 10001 11111 10001 10001 10001",
  I: "01110 00100 00100 00100 00100 00100 01110",
  J: "00111 00010 00010 00010 00010 10010 01100",
  K: "10001 10010 10100 11000 10100 10010 10001",
  L: "10000 10000 10000 10000 10000 10000 11111",
  M: "10001 11011 10101 10101 10001 10001 10001",
  N: "10001 10001 11001 10101 10011 10001 10001",
  O: "01110 10001 10001 10001 10001 10001 01110",
  P: "11110 10001 10001 11110 10000 10000 10000",
  Q: "01110 10001 10001 10001 10101 10010 01101",
  R: "11110 10001 10001 11110 10100 10010 10001",
  S: "01111 10000 10000 01110 00001 00001 11110",
  T: "11111 00100 00100 00100 00100 00100 00100",
  U: "10001 10001 10001 10001 10001 10001 01110",
  V: "10001 10001 10001 10001 10001 01010 00100",
  W: "10001 10001 10001 10101 10101 10101 01010",
  X: "10001 10001 01010 00100 01010 10001 10001",
  Y: "10001 10001 10001 01010 00100 00100 00100",
  Z: "11111 00001 00010 00100 01000 10000 11111",
  "0": "01110 10001 10011 10101 11001 10001 01110",
  "1": "00100 01100 00100 00100 00100 00100 01110",
  "2": "01110 10001 00001 00010 00100 01000 11111",
  "3": "11111 00010 00100 00010 00001 10001 01110",
  "4": "00010 00110 01010 10010 11111 00010 00010",
  "5": "11111 10000 11110 00001 00001 10001 01110",
  "6": "00110 01000 10000 11110 10001 10001 01110",
  "7": "11111 00001 00010 00100 01000 01000 01000",
  "8": "01110 10001 10001 01110 10001 10001 01110",
  "9": "01110 10001 10001 01111 00001 00010 01100",
  "-": "00000 00000 00000 11111 00000 00000 00000",
  ".": "00000 00000 00000 00000 00000 01100 01100",
  ":": "00000 01100 01100 00000 01100 01100 00000",
  "/": "00000 00001 00010 00100 01000 10000 00000",
  "@": "01110 10001 10111 10101 10111 10000 01110",
  _: "00000 00000 00000 00000 00000 00000 11111",
  "#": "01010 01010 11111 01010 11111 01010 01010",
  "+": "00000 00100 00100 11111 00100 00100 00000",
};

/** Palette indices. */
const WHITE = 0;
const BAR = 1;
const DOT = 2;
const LINE = 3;
const INK = 4;
const ERROR = 5;
const ACCENT = 6;
const CURSOR = 7;

const HUES: [number, number, number][] = [
  [74, 21, 75],
  [18, 100, 163],
  [0, 122, 90],
  [224, 30, 90],
  [236, 178, 46],
  [54, 197, 240],
];

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

class Canvas {
  readonly width: number;
  readonly height: number;
  readonly pixels: Uint8Array;
  constructor(width: number, height: number) {
    this.width = width;
    this.height = height;
    this.pixels = new Uint8Array(width * height);
  }
  rect(x: number, y: number, w: number, h: number, color: number) {
    for (let row = Math.max(0, y); row < Math.min(this.height, y + h); row++)
      this.pixels.fill(
        color,
        row * this.width + Math.max(0, x),
        row * this.width + Math.min(this.width, x + w),
      );
  }
  disc(cx: number, cy: number, r: number, color: number) {
    for (let y = -r; y <= r; y++)
      for (let x = -r; x <= r; x++) if (x * x + y * y <= r * r) this.rect(cx + x, cy + y, 1, 1, color);
  }
  text(x: number, y: number, text: string, color: number, scale = 2) {
    let cx = x;
    for (const ch of text.toUpperCase()) {
      const rows = (FONT[ch] ?? "").split(" ");
      rows.forEach((bits, row) => {
        for (let col = 0; col < bits.length; col++)
          if (bits[col] === "1") this.rect(cx + col * scale, y + row * scale, scale, scale, color);
      });
      cx += 6 * scale;
    }
  }
}

export type ScreenshotPicture = {
  /** e.g. `click-3-before`, `error-e12-main` (views.ts names them). */
  name: string;
  /** Who the session belongs to, written on the picture. */
  user: string;
};

/** What the picture says it is: "CLICK 3 BEFORE", "ERROR AFTER". */
export function caption(name: string): string {
  const click = /^click-(\d+)-(before|after)$/.exec(name);
  if (click) return `CLICK ${click[1]} ${click[2]}`;
  const error = /^error-.*-(main|after)$/.exec(name);
  if (error) return error[1] === "main" ? "ERROR" : "ERROR AFTER";
  return name.replace(/[^a-z0-9]+/gi, " ").trim();
}

/** The picture's palette indices, row by row. */
function draw({ name, user }: ScreenshotPicture): Canvas {
  const { width, height } = SCREENSHOT_SIZE;
  const c = new Canvas(width, height);
  const h = hash(name);
  // Browser bar with its three dots, then the page's header in the name's colour.
  c.rect(0, 0, width, 28, BAR);
  for (const [i, x] of [14, 30, 46].entries()) c.disc(x, 14, 5, i === 0 ? ERROR : DOT);
  c.rect(70, 8, width - 90, 12, WHITE);
  c.rect(0, 28, width, 44, ACCENT);
  c.text(16, 42, "DECIPHER EMULATOR", WHITE);
  // Lines of text of varying length.
  for (let i = 0; i < 5; i++) c.rect(24, 92 + i * 18, 140 + ((h >>> (i * 3)) % 220), 8, LINE);
  const isError = name.startsWith("error-");
  const isAfter = name.endsWith("-after");
  if (isError) {
    c.rect(24, 186, width - 48, 34, ERROR);
    c.text(36, 196, isAfter ? "STILL FAILING" : "SOMETHING WENT WRONG", WHITE);
  } else {
    // The clicked button; "after" shows the click.
    c.rect(24, 186, 150, 34, ACCENT);
    c.text(40, 196, "CONTINUE", WHITE);
    if (isAfter) {
      c.disc(150, 212, 8, INK);
      c.disc(150, 212, 5, CURSOR);
    }
  }
  c.text(24, 238, caption(name), INK);
  c.text(24, 262, user.slice(0, 36), INK);
  return c;
}

function palette(name: string): Uint8Array {
  const accent = HUES[hash(name) % HUES.length] ?? [74, 21, 75];
  const colours: [number, number, number][] = [
    [255, 255, 255],
    [222, 222, 226],
    [190, 190, 196],
    [205, 208, 214],
    [29, 28, 29],
    [204, 36, 36],
    accent,
    [255, 200, 0],
  ];
  return Uint8Array.from(colours.flat());
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

async function deflate(data: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  // "deflate" is the zlib format PNG's IDAT wants.
  const stream = new Blob([data]).stream().pipeThrough(new CompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** An 8-bit palette PNG of the picture. */
export async function screenshotPng(picture: ScreenshotPicture): Promise<Uint8Array> {
  const canvas = draw(picture);
  const { width, height } = canvas;
  const raw = new Uint8Array(height * (width + 1));
  for (let y = 0; y < height; y++) {
    // Filter type 0 (none) before each row.
    raw.set(canvas.pixels.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  }
  const header = new Uint8Array(13);
  const hv = new DataView(header.buffer);
  hv.setUint32(0, width);
  hv.setUint32(4, height);
  header.set([8, 3, 0, 0, 0], 8); // bit depth 8, palette, deflate, no filter, no interlace
  const parts = [
    Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("PLTE", palette(picture.name)),
    chunk("IDAT", await deflate(raw)),
    chunk("IEND", new Uint8Array()),
  ];
  const png = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    png.set(p, at);
    at += p.length;
  }
  return png;
}
