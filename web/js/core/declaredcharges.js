// Declared cavalry charges, for the editions whose charge move in the movement phase leaves the cavalry `charging`
// its target and whose charge is made in the combat phase, which cannot end before every one is made. This is
// the Charges section (each declared charge, its Charge! buttons with the referee's odds), the outline of a
// hovered one on the map, and the referee's refusal of end_phase kept in view. The rule it cites is the edition's
// (`charge.rule`), the odds are read in its results' words (`results`): editions/index.js.

import { api } from "../api.js";
import { h, clear, $, OKABE } from "../ui/dom.js";
import { normalizeOptions } from "../ui/options.js";
import { optionOdds } from "../ui/explain.js";
import { S, page, defs, currentView, myTurn, activePrompt, sideName } from "./store.js";
import { send } from "./sync.js";
import { cancel } from "./selection.js";
import { renderOverlays } from "./overlays.js";
import { chargeMoveTargets } from "./charges.js";

/** The rule the edition's charges go by (its `charge.rule`), the one the section and the refusal cite. */
const chargeRule = () => String((page.edition.charge && page.edition.charge.rule) || "");

/** The Charges section, placed where the page shell used to hold it (before the combat result). */
function mountCharges() {
  const sec = h("section.panel-section.charges-box#sec-charges", { "aria-live": "polite", "aria-label": "Cavalry charges", hidden: true });
  const before = $("#sec-combat");
  before.parentNode.insertBefore(sec, before);
}

/** Declared charges (units with a `charging` target on the map), grouped by side and target. */
function declaredCharges() {
  const v = currentView();
  const d = defs();
  const groups = new Map();
  for (const [id, u] of Object.entries((v && v.units) || {})) {
    if (!u || !u.charging || u.status !== "map" || !d[id]) continue;
    const key = `${d[id].side}|${u.charging}`;
    if (!groups.has(key)) groups.set(key, { side: d[id].side, target: u.charging, units: [] });
    groups.get(key).units.push({ id, made: !!u.attacked, hex: u.hex });
  }
  return [...groups.values()].sort((a, b) => (a.side + a.target).localeCompare(b.side + b.target));
}

/** My declared charges still to be made. */
function pendingCharges() {
  if (S.role !== "seat" || !S.view) return [];
  return declaredCharges().filter((g) => g.side === S.side && g.units.some((u) => !u.made));
}

/** Every legal way to make a declared charge (with or without a leader), as the referee lists them. */
function chargeVariantsFor(group) {
  const list = (S.chargeCmds && S.chargeCmds.list) || [];
  const legal = list.filter((c) => c.target === group.target && c.command).map((c) => c.command);
  return legal.length ? legal : [chargeCommandFor(group)];
}

function chargeCommandFor(group) {
  const chargers = group.units.filter((u) => !u.made).map((u) => u.id);
  const list = (S.chargeCmds && S.chargeCmds.list) || [];
  const legal = list.filter((c) => c.target === group.target && c.command);
  // the rules core lists the plain charge first, then the same charge with its leaders: take the fullest
  const best = legal.length ? legal[legal.length - 1].command : null;
  return best || { type: "charge", target: group.target, chargers };
}

async function refreshChargeCmds() {
  const pend = pendingCharges();
  if (!pend.length || !myTurn() || S.view.phase !== "combat") return;
  const units = pend.flatMap((g) => g.units.filter((u) => !u.made).map((u) => u.id)).sort();
  const key = `${S.version}:${units.join(",")}`;
  if (S.chargeCmds && S.chargeCmds.key === key) return;
  S.chargeCmds = { key, list: [] };
  try {
    const raw = await api.options(page.gameId, units);
    if (S.chargeCmds.key !== key) return;
    S.chargeCmds = { key, list: normalizeOptions(raw).charges.filter((c) => c.kind === "charge") };
  } catch (_) {
    /* the built command is sent instead; the server judges it */
  }
  renderCharges();
}

/** The server refuses to end the combat phase while declared charges are unmade (the edition's charge rule); keep its
 *  sentence in view. */
function noteRefusal(command, err) {
  const rule = err && (err.rule || (err.body && err.body.rule));
  if (!command || command.type !== "end_phase" || !rule || !chargeRule() || !String(rule).startsWith(chargeRule())) return;
  S.chargeRefusal = err.message || (err.body && err.body.message) || "Declared charges must be made first.";
  renderCharges();
}

function renderCharges() {
  const sec = $("#sec-charges");
  if (!sec) return;
  const groups = declaredCharges();
  if (!groups.length) {
    sec.hidden = true;
    return;
  }
  sec.hidden = false;
  clear(sec);
  const v = currentView();
  const d = defs();
  const canAct = !S.history && myTurn() && v.phase === "combat" && !activePrompt();
  sec.appendChild(h("h3", {}, ["Charges", h("span.rule", { text: `rule ${chargeRule()}` })]));
  const ul = h("ul.charge-list#charge-list", { "aria-label": "Declared cavalry charges" });
  for (const g of groups) {
    const mine = S.role === "seat" && g.side === S.side;
    const open = g.units.filter((u) => !u.made);
    const names = g.units.map((u) => `${d[u.id] ? d[u.id].name : u.id}${u.hex ? " (" + u.hex + ")" : ""}${u.made ? ": charged" : ""}`).join(", ");
    const li = h("li.charge-item", { "data-target": g.target, "data-side": g.side }, [
      h("span.side-dot", { style: `background:${(S.scenario.sides[g.side] || {}).color || "#888"}`, "aria-hidden": "true" }),
      h("span.charge-text", { text: `${mine ? "" : sideName(g.side) + ": "}${names} → ${g.target}` }),
    ]);
    if (mine && open.length && canAct) {
      const variants = chargeVariantsFor(g);
      const many = open.length > 1;
      for (const cmd of variants) {
        const withL = (cmd.leaders || []).map((l) => (d[l] ? d[l].name : l));
        const order = (cmd.chargers || []).map((u) => (d[u] ? d[u].name : u));
        const who = many && order.length ? ` ${order.length < open.length ? "only " : ""}${order.join(" then ")}` : "";
        li.appendChild(h("button.btn.small.primary.charge-go", {
          type: "button",
          "data-target": g.target,
          "data-command": JSON.stringify(cmd),
          "aria-label": `Charge! Make the declared charge of ${open.map((u) => (d[u.id] ? d[u.id].name : u.id)).join(", ")} against ${g.target}${withL.length ? " with " + withL.join(", ") : ""}`,
          onmouseenter: () => { S.chargeHover = g.target; renderOverlays(); },
          onmouseleave: () => { S.chargeHover = null; renderOverlays(); },
          onclick: () => {
            cancel(false);
            send(cmd);
          },
        }, `Charge!${who}${withL.length ? " with " + withL.join(", ") : ""}`));
        li.appendChild(optionOdds(((S.chargeCmds && S.chargeCmds.list) || []).find((c) => c.command && JSON.stringify(c.command) === JSON.stringify(cmd)), page.edition.results) || h("span"));
      }
    } else if (!open.length) li.appendChild(h("span.muted.charge-done", { text: "made" }));
    ul.appendChild(li);
  }
  sec.appendChild(ul);
  const mineOpen = pendingCharges().length > 0;
  let note;
  if (mineOpen && v.phase === "combat") note = "Cavalry that declared a charge in the movement phase must now make it: press Charge! for each target. Declared charges must be made before the combat phase can end.";
  else if (mineOpen) note = "These charges were declared by the charge moves. They are made in your combat phase, which cannot end until every declared charge has been made.";
  else if (groups.some((g) => g.side !== S.side && g.units.some((u) => !u.made))) note = "Enemy cavalry has declared these charges; they are made in its combat phase.";
  if (note) sec.appendChild(h("div.whose-sub#charge-note", { text: note }));
  if (S.chargeRefusal) sec.appendChild(h("div.form-error#charge-refusal", { role: "alert" }, [S.chargeRefusal, h("span.rule", { text: `rule ${chargeRule()}`, style: "margin-left:6px" })]));
  if (canAct && mineOpen) refreshChargeCmds();
}

/** A declared charge hovered in the Charges section: outline its target from its chargers. */
function chargeOverlays() {
  if (!S.chargeHover || S.chargeMode || S.history) return;
  const map = page.map;
  const g = declaredCharges().find((x) => x.target === S.chargeHover && x.side === S.side);
  if (g) {
    map.ringHexes([{ hex: g.target, colour: OKABE.blue, width: 5, dash: "10 4", fill: OKABE.blue, label: "charge", cls: "target charge-target", title: `Charge ${g.target}` }]);
    for (const u of g.units) if (u.hex && !u.made) map.drawLine(u.hex, g.target, { colour: OKABE.blue, dash: null, width: 4 });
  }
}

/** The hooks (editions/index.js) of an edition whose cavalry declares its charges this way: its state, the Charges
 *  section, the refusal kept in view, charge mode left when no charge move is offered, the hovered charge's outline. */
export const DECLARED_CHARGE_HOOKS = {
  initState(s) {
    s.chargeCmds = null; // {key, list}: the combat phase's legal charge commands from the options endpoint
    s.chargeRefusal = null; // the refusal of end_phase while declared charges are unmade, shown in the Charges section
  },
  mount: mountCharges,
  renderPanels: renderCharges,
  viewChanged() {
    if (!pendingCharges().length) S.chargeRefusal = null;
  },
  onRefusal: noteRefusal,
  optionsArrived() {
    if (S.chargeMode && !chargeMoveTargets().size) S.chargeMode = false;
  },
  overlays: chargeOverlays,
};
