// The stack popover: a small box docked in the map's lower-left corner listing every unit of the stack last
// tapped or clicked (top first), each a button that acts as a click on that counter (MapView's "unitclick"), so
// a unit buried under the pile can be read and picked at any zoom. It sits in a corner, not beside the stack,
// so that it never hides the hexes the stack may move to.

import { h, clear } from "../ui/dom.js";
import { counterIcon, describeUnit, unitDefs, stackParts } from "../counters.js";

export class StackPopover {
  /** @param {object} mv the MapView (map.js) whose stacks it lists and whose "unitclick" its buttons emit */
  constructor(mv) {
    this.mv = mv;
    this.hex = null;
    this.el = h("div.stack-pop#stack-pop", { role: "dialog", "aria-label": "Units in the stack", hidden: true });
    // a press on the box is not a press on the map under it (no pan, no hex click)
    for (const evt of ["pointerdown", "pointerup", "wheel", "contextmenu"]) this.el.addEventListener(evt, (e) => e.stopPropagation());
    mv.container.appendChild(this.el);
  }

  /** List the stack in `hex` (hidden when fewer than two units are there). */
  open(hex) {
    this.hex = hex;
    this.render();
    // on a small screen the box may lie over the stack it lists: bring the stack to the middle of the map
    if (!this.el.hidden && this.covers(hex)) this.mv.centerOn(hex);
  }

  /** Does the box lie over the centre of `hex` on the screen? */
  covers(hex) {
    const mv = this.mv;
    const c = mv.grid.center(hex);
    const t = mv.transform;
    const m = mv.svg.getScreenCTM();
    if (!m) return false;
    const p = mv.svg.createSVGPoint();
    p.x = c.x * t.k + t.x;
    p.y = c.y * t.k + t.y;
    const s = p.matrixTransform(m);
    const r = this.el.getBoundingClientRect();
    return s.x >= r.left && s.x <= r.right && s.y >= r.top && s.y <= r.bottom;
  }

  close() {
    this.hex = null;
    this.render();
  }

  /** Redraw from the map's current view and selection (a move, a loss, a toggle). */
  render() {
    const mv = this.mv;
    const ids = this.hex && mv.view ? mv.unitsIn(this.hex) : [];
    if (ids.length < 2) {
      this.hex = null;
      this.el.hidden = true;
      clear(this.el);
      return;
    }
    const sc = mv.scenario;
    const defs = unitDefs(sc);
    const view = mv.view;
    const { pile, chips } = stackParts(ids, defs, mv.selectedUnits);
    const hex = this.hex;
    clear(this.el);
    this.el.hidden = false;
    this.el.dataset.hex = hex;
    this.el.append(
      h("div.stack-pop-head", {}, [
        h("span", { text: `${hex}: ${ids.length} units` }),
        h("button.stack-pop-close", { type: "button", "aria-label": "Close the stack list", title: "Close", text: "×", onclick: () => this.close() }),
      ]),
    );
    const list = h("div.stack-pop-units", { role: "group", "aria-label": `Units in ${hex}, top first` });
    for (const id of [...pile, ...chips]) {
      const def = defs[id] || { id, name: id, kind: "?" };
      const st = view.units[id] || {};
      const on = mv.selectedUnits.has(id);
      const b = h("button.stack-pop-unit", {
        type: "button",
        "data-unit": id,
        "data-hex": hex,
        "aria-pressed": on ? "true" : "false",
        "aria-label": describeUnit(def, st, { reading: mv.opts.reading }),
        title: describeUnit(def, st, { reading: mv.opts.reading }),
        onclick: (e) => {
          mv.emit("unitclick", id, hex, e, hex);
          // as on the map: a click that closed the list (an enemy unit, nothing to select) leaves the stack listed
          if (!this.hex && mv.unitsIn(hex).length > 1) mv.showStack(hex);
        },
      });
      b.append(counterIcon(sc, id, st, 30, mv.opts.reading), h("span.stack-pop-name", { text: def.name || id }));
      list.appendChild(b);
    }
    this.el.appendChild(list);
  }
}
