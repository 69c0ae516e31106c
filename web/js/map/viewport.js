// Panning and zooming the map (wheel, drag, pinch, keyboard-driven centring), the level of detail the zoom calls
// for (map/lod.js), the opening view, and turning pointer input into the map's events (hexclick, unitclick,
// hexhover, contextmenu). MapView (map.js) extends it; the viewport needs only the view's svg, viewport group,
// grid, scenario, hover layer, transform and (to list a tapped stack) showStack and unitsIn.

import { svg, clear } from "../ui/dom.js";
import { lodFor, keyObjective } from "./lod.js";

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
    this.updateLod();
  }

  /** Screen pixels from a hex's centre to its corner at the current zoom. */
  hexPx() {
    return this.grid.size * this.fitScale() * this.transform.k;
  }

  /** Mark the <svg> with the level of detail the zoom calls for (data-lod: near, mid or far; map/lod.js). */
  updateLod() {
    const r = this.svg.getBoundingClientRect();
    if (!r.width) return; // not laid out yet: the resize observer sets it once it is
    const lod = lodFor(this.hexPx());
    if (this.svg.dataset.lod !== lod) this.svg.dataset.lod = lod;
  }

  /** Keep the level of detail right when the map's box changes size (a window resized, a phone's sheet moved). */
  watchLod() {
    this.updateLod();
    if (typeof ResizeObserver !== "undefined") new ResizeObserver(() => this.updateLod()).observe(this.svg);
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

  /** The part of the map's viewBox on screen at zoom 1 (preserveAspectRatio "meet" centres the map in its box). */
  screenBox() {
    const r = this.svg.getBoundingClientRect();
    const s = this.fitScale();
    const vw = r.width / s;
    const vh = r.height / s;
    return { x0: (this.grid.width - vw) / 2, y0: (this.grid.height - vh) / 2, vw, vh };
  }

  /**
   * Open the map over some hexes (a side's own units) and the battle's key objective (the scenario's victory
   * data, map/lod.js): zoomed in until a counter is about `counterPx` screen pixels, or out as far as `minPx` to
   * take in the hexes and the objective, never out past the whole map. When they do not all fit, the objective
   * and the hexes nearest it are shown. resetView() still shows the whole map.
   */
  focusOn(hexes, { counterPx = null, minPx = null, objective = undefined } = {}) {
    const g = this.grid;
    const own = (hexes || []).filter((x) => x && g.contains(x)).map((x) => g.center(x));
    const obj = objective === undefined ? keyObjective(this.scenario) : objective;
    const goal = obj && g.contains(obj.hex) ? g.center(obj.hex) : null;
    const scale = this.fitScale();
    const width = this.svg.getBoundingClientRect().width;
    // about 46 px on a desktop, smaller on a phone so that more of the map stays in view
    if (counterPx === null) counterPx = Math.max(34, Math.min(46, width / 12));
    if (minPx === null) minPx = Math.max(30, counterPx - 6);
    const counter = g.size * 1.02 * scale;
    const kRead = Math.min(6, Math.max(1, counterPx / Math.max(1, counter)));
    const kMin = Math.min(kRead, Math.max(1, minPx / Math.max(1, counter)));
    const pts = goal ? [...own, goal] : own;
    if (!pts.length) {
      this.resetView();
      return false;
    }
    // the box to show, a hex's margin around the centres
    const pad = g.size * 1.3;
    const xs = pts.map((p) => p.x);
    const ys = pts.map((p) => p.y);
    const box = { x0: Math.min(...xs) - pad, x1: Math.max(...xs) + pad, y0: Math.min(...ys) - pad, y1: Math.max(...ys) + pad };
    const sb = this.screenBox();
    const kFit = Math.min(sb.vw / (box.x1 - box.x0), sb.vh / (box.y1 - box.y0));
    const k = Math.max(kMin, Math.min(kRead, kFit));
    if (k <= 1.3) {
      this.resetView();
      return false;
    }
    let cx = (box.x0 + box.x1) / 2;
    let cy = (box.y0 + box.y1) / 2;
    if (goal) {
      // the objective stays in view (a hex's margin inside the edge), the rest as much as fits
      const hw = sb.vw / k / 2 - pad;
      const hh = sb.vh / k / 2 - pad;
      cx = Math.min(goal.x + hw, Math.max(goal.x - hw, cx));
      cy = Math.min(goal.y + hh, Math.max(goal.y - hh, cy));
    }
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
    const { x0, y0, vw, vh } = this.screenBox();
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
      // after a click the hover card stays away until the pointer leaves the clicked hex: it would sit over the
      // hexes the selection may move to
      if (hex !== this.quietHex) this.emit("hexhover", hex, e);
      return;
    }
    this.hoverHex = hex;
    this.quietHex = null;
    clear(this.layers.hover);
    if (hex) this.layers.hover.appendChild(svg("polygon", { points: this.grid.polygonPoints(hex, 0.97), fill: "none", stroke: "#111", "stroke-width": 2.2, "pointer-events": "none" }));
    this.emit("hexhover", hex, e);
  }

  click(e) {
    const unitEl = e.target && e.target.closest ? e.target.closest("[data-unit]") : null;
    const p = this.mapPoint(e.clientX, e.clientY);
    const hex = this.grid.hexAt(p.x, p.y);
    if (unitEl) {
      // the hex under the pointer too (a counter's own hex is its data-hex)
      this.emit("unitclick", unitEl.getAttribute("data-unit"), unitEl.getAttribute("data-hex"), e, hex);
    } else if (hex) this.emit("hexclick", hex, e);
    // the hover card goes (the page hides it on a null hover) until the pointer moves to another hex
    this.hoverHex = hex;
    this.quietHex = hex;
    this.emit("hexhover", null, e);
    // a tap on a stack lists its units (a phone has no hover card); elsewhere the list closes
    const at = (unitEl && unitEl.getAttribute("data-hex")) || hex;
    if (this.showStack && (!this.stackPop || this.stackPop.hex !== at)) this.showStack(at && this.unitsIn(at).length > 1 ? at : null);
  }
}
