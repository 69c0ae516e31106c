// Hex geometry for flat-topped hexes in vertical columns, ids "CCRR" (1-based).
// Mirrors server/rules/kernel/hexes.py (R1): map.shifted "even" (default) lowers the
// columns whose CCRR column number is even by half a hex; "odd" the reverse.

export const SQRT3 = Math.sqrt(3);

export function parseId(id) {
  if (typeof id !== "string" || !/^[0-9]{4}$/.test(id)) throw new Error(`bad hex id '${id}'`);
  return { col: parseInt(id.slice(0, 2), 10), row: parseInt(id.slice(2), 10) };
}

export function formatId(col, row) {
  return String(col).padStart(2, "0") + String(row).padStart(2, "0");
}

/** true when this (1-based) column sits half a hex lower. */
export function isLowered(col, shifted = "even") {
  return shifted === "odd" ? col % 2 === 1 : col % 2 === 0;
}

/** Cube coordinates, same convention as hexes.py (0101 is q=0,r=0). */
export function toCube(id, shifted = "even") {
  const { col, row } = parseId(id);
  const q = col - 1;
  const row0 = row - 1;
  const par = q & 1;
  const r = shifted === "even" ? row0 - (q - par) / 2 : row0 - (q + par) / 2;
  return { q, r, s: -q - r };
}

export function fromCube(c, shifted = "even") {
  const q = c.q;
  const par = q & 1;
  const row0 = shifted === "even" ? c.r + (q - par) / 2 : c.r + (q + par) / 2;
  return formatId(q + 1, row0 + 1);
}

export function distance(a, b, shifted = "even") {
  const A = toCube(a, shifted);
  const B = toCube(b, shifted);
  return Math.max(Math.abs(A.q - B.q), Math.abs(A.r - B.r), Math.abs(A.s - B.s));
}

export class HexGrid {
  /**
   * @param {{columns:number, rows:number, shifted?:string}} map
   * @param {number} size centre-to-corner distance in SVG units
   */
  constructor(map, size = 40) {
    this.columns = map.columns;
    this.rows = map.rows;
    this.shifted = map.shifted || "even";
    this.size = size;
    this.w = 2 * size; // flat-topped: corner to corner
    this.h = SQRT3 * size; // flat side to flat side
    this.margin = size * 0.9;
  }

  contains(id) {
    if (typeof id !== "string" || !/^[0-9]{4}$/.test(id)) return false;
    const { col, row } = parseId(id);
    return col >= 1 && col <= this.columns && row >= 1 && row <= this.rows;
  }

  *ids() {
    for (let c = 1; c <= this.columns; c++) for (let r = 1; r <= this.rows; r++) yield formatId(c, r);
  }

  /** Centre of a hex in SVG units. */
  center(id) {
    const { col, row } = parseId(id);
    const x = this.margin + this.size + (col - 1) * 1.5 * this.size;
    const y = this.margin + this.h / 2 + (row - 1) * this.h + (isLowered(col, this.shifted) ? this.h / 2 : 0);
    return { x, y };
  }

  /** Pixel size of the whole map including the margin. */
  get width() {
    return 2 * this.margin + this.size * (2 + 1.5 * (this.columns - 1));
  }

  get height() {
    return 2 * this.margin + this.h * (this.rows + 0.5);
  }

  corners(id, scale = 1) {
    const { x, y } = this.center(id);
    const out = [];
    for (let i = 0; i < 6; i++) {
      const a = (Math.PI / 180) * 60 * i;
      out.push({ x: x + this.size * scale * Math.cos(a), y: y + this.size * scale * Math.sin(a) });
    }
    return out;
  }

  polygonPoints(id, scale = 1) {
    return this.corners(id, scale)
      .map((p) => `${p.x.toFixed(2)},${p.y.toFixed(2)}`)
      .join(" ");
  }

  /** On-map neighbours (N, S, then the two columns either side). */
  neighbors(id) {
    const { col, row } = parseId(id);
    const low = isLowered(col, this.shifted);
    const cand = [
      [col, row - 1],
      [col, row + 1],
    ];
    for (const dc of [-1, 1]) {
      if (low) {
        cand.push([col + dc, row], [col + dc, row + 1]);
      } else {
        cand.push([col + dc, row - 1], [col + dc, row]);
      }
    }
    return cand
      .filter(([c, r]) => c >= 1 && c <= this.columns && r >= 1 && r <= this.rows)
      .map(([c, r]) => formatId(c, r));
  }

  isAdjacent(a, b) {
    return distance(a, b, this.shifted) === 1;
  }

  distance(a, b) {
    return distance(a, b, this.shifted);
  }

  /** The shared edge of two adjacent hexes as a segment {x1,y1,x2,y2}. */
  hexside(a, b) {
    const A = this.center(a);
    const B = this.center(b);
    const mx = (A.x + B.x) / 2;
    const my = (A.y + B.y) / 2;
    const dx = B.x - A.x;
    const dy = B.y - A.y;
    const len = Math.hypot(dx, dy) || 1;
    const px = (-dy / len) * (this.size / 2);
    const py = (dx / len) * (this.size / 2);
    return { x1: mx - px, y1: my - py, x2: mx + px, y2: my + py, mx, my, nx: dx / len, ny: dy / len };
  }

  /** The hex under an SVG point, or null when it falls off the map. */
  hexAt(px, py) {
    // Nearest centre wins: the Voronoi cells of a regular hex lattice are the hexes.
    const col = Math.round((px - this.margin - this.size) / (1.5 * this.size)) + 1;
    const lowered = isLowered(col, this.shifted) ? 0.5 : 0;
    const row = Math.round((py - this.margin - this.h / 2) / this.h - lowered) + 1;
    let best = null;
    let bestD = Infinity;
    for (let c = col - 1; c <= col + 1; c++) {
      for (let r = row - 1; r <= row + 1; r++) {
        if (c < 1 || r < 1 || c > this.columns || r > this.rows) continue;
        const id = formatId(c, r);
        const cc = this.center(id);
        const d = Math.hypot(cc.x - px, cc.y - py);
        if (d < bestD) {
          bestD = d;
          best = id;
        }
      }
    }
    return best && bestD <= this.size ? best : null;
  }

  /** Which map edge(s) a hex lies on. */
  edgesOf(id) {
    const { col, row } = parseId(id);
    const out = [];
    if (col === 1) out.push("west");
    if (col === this.columns) out.push("east");
    if (row === 1) out.push("north");
    if (row === this.rows) out.push("south");
    return out;
  }
}
