// Panning and zooming the map (wheel, drag, pinch, keyboard-driven centring) and turning pointer input into the
// map's events (hexclick, unitclick, hexhover, contextmenu). MapView (map.js) extends it; the viewport needs only
// the view's svg, viewport group, grid, hover layer and transform.

import { svg, clear } from "../ui/dom.js";

export class MapViewport {
  on(evt, fn) {
    this.handlers[evt].push(fn);
    return this;
  }

  emit(evt, ...args) {
    for (const fn of this.handlers[evt] || []) fn(...args);
  }

  applyTransform() {
    const t = this.transform;
    this.viewport.setAttribute("transform", `translate(${t.x.toFixed(2)},${t.y.toFixed(2)}) scale(${t.k.toFixed(4)})`);
  }

  /** client (screen) point -> svg root user units */
  rootPoint(clientX, clientY) {
    const pt = this.svg.createSVGPoint();
    pt.x = clientX;
    pt.y = clientY;
    const m = this.svg.getScreenCTM();
    return m ? pt.matrixTransform(m.inverse()) : { x: clientX, y: clientY };
  }

  /** client point -> map coordinates */
  mapPoint(clientX, clientY) {
    const p = this.rootPoint(clientX, clientY);
    const t = this.transform;
    return { x: (p.x - t.x) / t.k, y: (p.y - t.y) / t.k };
  }

  zoomAt(clientX, clientY, factor) {
    const t = this.transform;
    const k2 = Math.min(6, Math.max(0.5, t.k * factor));
    const p = this.rootPoint(clientX, clientY);
    t.x = p.x - ((p.x - t.x) * k2) / t.k;
    t.y = p.y - ((p.y - t.y) * k2) / t.k;
    t.k = k2;
    this.applyTransform();
  }

  zoomBy(factor) {
    const r = this.svg.getBoundingClientRect();
    this.zoomAt(r.left + r.width / 2, r.top + r.height / 2, factor);
  }

  resetView() {
    this.transform = { k: 1, x: 0, y: 0 };
    this.applyTransform();
  }

  /** Screen pixels per map unit at zoom 1 (the whole map fitted into the element). */
  fitScale() {
    const r = this.svg.getBoundingClientRect();
    if (!r.width || !r.height) return 1;
    return Math.min(r.width / this.grid.width, r.height / this.grid.height);
  }

  /**
   * Open the map over some hexes (a side's own units) at a readable counter size: zoom in until a counter is
   * about `counterPx` screen pixels (never out past the whole map), centred on the hexes' middle.
   * resetView() still shows the whole map.
   */
  focusOn(hexes, { counterPx = null } = {}) {
    const pts = (hexes || []).filter((x) => x && this.grid.contains(x)).map((x) => this.grid.center(x));
    const scale = this.fitScale();
    // about 46 px on a desktop, smaller on a phone so that more of the map stays in view
    if (counterPx === null) counterPx = Math.max(34, Math.min(46, this.svg.getBoundingClientRect().width / 12));
    const counter = this.grid.size * 1.02 * scale;
    const k = Math.min(6, Math.max(1, counterPx / Math.max(1, counter)));
    if (k <= 1.3 || !pts.length) {
      this.resetView();
      return false;
    }
    const xs = pts.map((p) => p.x);
    const ys = pts.map((p) => p.y);
    const cx = (Math.min(...xs) + Math.max(...xs)) / 2;
    const cy = (Math.min(...ys) + Math.max(...ys)) / 2;
    this.transform = { k, x: 0, y: 0 };
    this.centerAt(cx, cy);
    return true;
  }

  /** Pan so that a map point is in the middle of the viewport, keeping the map edge in view. */
  centerAt(x, y) {
    const t = this.transform;
    const W = this.grid.width;
    const H = this.grid.height;
    t.x = W / 2 - x * t.k;
    t.y = H / 2 - y * t.k;
    // never pan past the map's edges (when zoomed in)
    t.x = Math.min(0, Math.max(W - W * t.k, t.x));
    t.y = Math.min(0, Math.max(H - H * t.k, t.y));
    this.applyTransform();
  }

  /** True when a hex's centre is inside the visible part of the map. */
  isVisible(hex) {
    if (!this.grid.contains(hex)) return false;
    const c = this.grid.center(hex);
    const t = this.transform;
    const x = c.x * t.k + t.x;
    const y = c.y * t.k + t.y;
    const m = this.grid.size * 0.5 * t.k;
    // the part of the viewBox actually on screen (preserveAspectRatio meet centres the map)
    const r = this.svg.getBoundingClientRect();
    const s = this.fitScale();
    const vw = r.width / s;
    const vh = r.height / s;
    const x0 = (this.grid.width - vw) / 2;
    const y0 = (this.grid.height - vh) / 2;
    return x - m >= x0 && x + m <= x0 + vw && y - m >= y0 && y + m <= y0 + vh;
  }

  /** Pan to a hex when it is off screen (keyboard cycling, prompts, tests). */
  ensureVisible(hex) {
    if (this.grid.contains(hex) && !this.isVisible(hex)) this.centerOn(hex);
  }

  /** Pan so that a hex is in the middle of the viewport. */
  centerOn(hex) {
    if (!this.grid.contains(hex)) return;
    const c = this.grid.center(hex);
    const t = this.transform;
    t.x = this.grid.width / 2 - c.x * t.k;
    t.y = this.grid.height / 2 - c.y * t.k;
    this.applyTransform();
  }

  enableInteraction() {
    const el = this.svg;
    el.setAttribute("tabindex", "0");
    const pointers = new Map();
    let drag = null;
    let pinch = null;
    let moved = false;
    el.addEventListener(
      "wheel",
      (e) => {
        e.preventDefault();
        const f = Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0018));
        this.zoomAt(e.clientX, e.clientY, f);
      },
      { passive: false },
    );
    el.addEventListener("pointerdown", (e) => {
      if (e.button !== undefined && e.button > 0) return;
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (pointers.size === 1) {
        drag = { x: e.clientX, y: e.clientY, tx: this.transform.x, ty: this.transform.y };
        moved = false;
      } else if (pointers.size === 2) {
        const [p1, p2] = [...pointers.values()];
        pinch = { d: Math.hypot(p1.x - p2.x, p1.y - p2.y), k: this.transform.k };
        drag = null;
        moved = true;
      }
    });
    el.addEventListener("pointermove", (e) => {
      if (pointers.has(e.pointerId)) pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (pinch && pointers.size >= 2) {
        const [p1, p2] = [...pointers.values()];
        const d = Math.hypot(p1.x - p2.x, p1.y - p2.y);
        const mid = { x: (p1.x + p2.x) / 2, y: (p1.y + p2.y) / 2 };
        const target = (pinch.k * d) / pinch.d;
        this.zoomAt(mid.x, mid.y, target / this.transform.k);
        return;
      }
      if (drag) {
        const dx = e.clientX - drag.x;
        const dy = e.clientY - drag.y;
        if (!moved && Math.hypot(dx, dy) > 6) {
          moved = true;
          try {
            el.setPointerCapture(e.pointerId);
          } catch (_) {
            /* ignore */
          }
          el.classList.add("panning");
        }
        if (moved) {
          const a = this.rootPoint(drag.x, drag.y);
          const b = this.rootPoint(e.clientX, e.clientY);
          this.transform.x = drag.tx + (b.x - a.x);
          this.transform.y = drag.ty + (b.y - a.y);
          this.applyTransform();
        }
        return;
      }
      this.hover(e);
    });
    const end = (e) => {
      pointers.delete(e.pointerId);
      if (pointers.size < 2) pinch = null;
      if (pointers.size === 0) {
        const wasDrag = drag && moved;
        drag = null;
        el.classList.remove("panning");
        if (!wasDrag && e.type === "pointerup" && !moved) this.click(e);
      }
    };
    el.addEventListener("pointerup", end);
    el.addEventListener("pointercancel", end);
    el.addEventListener("pointerleave", (e) => {
      if (!pointers.size) {
        clear(this.layers.hover);
        this.emit("hexhover", null, e);
      }
    });
    el.addEventListener("contextmenu", (e) => {
      e.preventDefault();
      const p = this.mapPoint(e.clientX, e.clientY);
      this.emit("contextmenu", this.grid.hexAt(p.x, p.y), e);
    });
  }

  hover(e) {
    const p = this.mapPoint(e.clientX, e.clientY);
    const hex = this.grid.hexAt(p.x, p.y);
    if (hex === this.hoverHex) {
      this.emit("hexhover", hex, e);
      return;
    }
    this.hoverHex = hex;
    clear(this.layers.hover);
    if (hex) this.layers.hover.appendChild(svg("polygon", { points: this.grid.polygonPoints(hex, 0.97), fill: "none", stroke: "#111", "stroke-width": 2.2, "pointer-events": "none" }));
    this.emit("hexhover", hex, e);
  }

  click(e) {
    const unitEl = e.target && e.target.closest ? e.target.closest("[data-unit]") : null;
    const p = this.mapPoint(e.clientX, e.clientY);
    const hex = this.grid.hexAt(p.x, p.y);
    if (unitEl) {
      // the hex under the pointer too: an expanded stack's counters lie over neighbouring hexes
      this.emit("unitclick", unitEl.getAttribute("data-unit"), unitEl.getAttribute("data-hex"), e, hex);
      return;
    }
    if (hex) this.emit("hexclick", hex, e);
  }
}
