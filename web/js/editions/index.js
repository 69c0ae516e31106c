// The editions the game page knows, by the ruleset name the server puts in every view (`view.ruleset`), the
// way the server picks its rules package. The core (core/*.js) is the same for every edition and asks the
// edition, through the hooks below, for what differs; it never names an edition. A game whose edition has no
// module here is shown as Quick Play, as the page did before editions had modules of their own.
//
// An edition is a plain object. Every hook is optional: without it the core does the generic thing.
//
// State and page
//   name                      the ruleset name (as in view.ruleset)
//   scenario(sc) → sc         the scenario as the page draws it, for an edition whose scenario file is shaped its own
//                             way (its TEC kept by the rules core, roads as hex pairs...): the map's shapes (a `tec` of
//                             colours and patterns, roads as paths, hexsides with `features`, units with a `kind`);
//                             applied once, on the game page and in the lobby's preview
//   initState(S)              add the edition's own fields to the store before the first render
//   mount()                   add the edition's own sections to the page (once, before the first render)
//   renderPanels()            redraw the edition's own sections (called by renderAll)
//   viewChanged()             a new view arrived (before the page redraws)
//   onRefusal(command, err)   the server refused a command (the toast is already shown)
//
// Selecting and commanding (the select → options → command loop, core/selection.js)
//   readOptions(raw)          the options endpoint's answer for a selection → the page's options shape
//                             {reach: Map(hex → {cost, path, ends, place?}), attacks, illegal, bombards, charges,
//                             commands: [{label, command, rule}], notes, attackChoices?: Map(target → choices)}
//   optionsArrived()          S.options was just set for the selection
//   endPhase() → bool         E: the edition's own way to end its step (true: handled; false: the core's end_phase)
//   resetSelection(how)       forget per-selection state; how: "select" | "offboard" | "cancel"
//   unitClickHex(unit, hex, pointerHex) → hex | null
//                             a click on one of my counters that the edition's mode means as a click on a hex
//   mapClick(hex, evt) → bool a map click taken by the edition's own mode (true: handled)
//   commandAt(hex, reach, o) → command | null
//                             the edition's own command for a click on a hex the selection can act on
//   selectionTools(o) → element | null
//                             the edition's tools in the selection panel (after the referee's notes)
//   reachSummary(o) → string  the selection summary's words for the reachable hexes
//   selectionSummary(o) → string | null
//                             the selection summary's words in full (null: the generic count of hexes and targets)
//   addHexes                  false: no "+ Add units from another hex" in the combat phase (the referee's options
//                             already list the attacks from several hexes)
//   phaseOptions              the phases whose own options (asked without a selection) the page fetches
//   renderPhasePanel(sec, raw, view) → bool
//                             draw the phase's own box from those options (false: nothing to show)
//   offMapEntry(unitState)    where a unit off the map without an entry hex comes on (a pseudo entry)
//   entryText(entry)          words for such an entry ("from the TRT"), else null
//   joinsEntry(id)            whether a waiting unit joins the units selected off the map at another entry hex
//                             (a leader arriving with a unit of his span); else a click selects its own group
//   offboard                  {rules, dueNote}: the off-map box's rule chip and its note when units are due
//   quietKinds                the unit kinds that need not move: End phase never asks about them (default ["leader"])
//
// Drawing
//   counter                   how the edition's counters read (counters.js draws what every edition draws; the lobby's
//                             previews and the game page pass this to the map, counterIcon and describeUnit):
//                             {factors(def, f) → string   the factors along the counter's foot,
//                              describe(def, f) → string  the same in words (the counter's title, aria label, hover card),
//                              range(def, f) → n | null   the range printed beside the symbol,
//                              flags(def, state) → [str]  words for the edition's own decorations (inactive, marched),
//                              kind(def) → string         the unit's kind in words in its description (else def.kind)}
//                             def: the scenario's unit, f: the factor block it shows now (full, reduced, ineffective);
//                             a hook answering undefined (or missing) leaves it to the generic reading
//   mapMarks(scenario) → [{hex, side, text, title, cls, attrs}]
//                             marks on the scenario's hexes, drawn with the map edge (LOC hexes...), in the lobby too
//   mapView(view) → view      the view as the map draws it (counter decorations: flipped: shown on its reverse side,
//                             and the edition's own, which its counter.flags words)
//   phaseOverlays(view, raw)  marks from the phase's own options (set-up areas...)
//   overlays(view)            marks drawn whatever the selection (declared charges...)
//   hoverOverlays             true: the overlays are redrawn whenever the hovered hex changes (a unit's arc on hover)
//   selectionOverlays(view, o) → bool
//                             the edition's marks for the selection (true: they replace the generic ones)
//   reachLook(hex, reach) → {colour, title, tip} | null
//                             how a reachable hex of the edition's own kind looks (shade, title, hover card)
//   trackLight(scenario)      each turn's light on the turn bar ([] when the edition has none)
//   turnPhases                the phases of a turn shown on the turn bar
//
// Words and explanations
//   statusHint(view)          what to do now under "Your move" (null: the generic hint)
//   promptGroups(prompt)      {action: heading} to group a decision's choices, or null
//   optionText(option)        a decision's choice as its button says it
//   optionNote(option, prompt) a sentence under a choice's button: what it does (a defending tactic's effect), or null
//   optionHexes(option, view) more hexes a choice refers to (outlined on the map, clickable)
//   charge                    {who, rule, title, help, targetText(t)}: charge mode's words (core/charges.js;
//                             targetText by default: the target, and the path's last hex when several lead there)
//   builder                   the attack builder's part (core/builder.js): {rules, supportText, leaderText(l,
//                             name, hex), primaryText, start(b, cmd), command(cmd, b), changed(b),
//                             rows(box, b, nameOf), preview(pv, nameOf), confirmText(cmd)}
//   previewBody(kind, item, nameOf) → {body, rules, blocked} | null
//                             the bombardment or charge preview's body, rule chip, and whether it may be confirmed
//   combatRules               the rule chip of the last combat result
//   results                   the combat results in words (ui/explain.js draws them in odds tables, the result panel,
//                             the log and a decision's choices): {words(code, {bombard}) → string, short(code,
//                             {bombard}) → string (a few words for an odds table), outcome(ev, nameOf) → string | null
//                             (an event's outcome in words), logged: [event types whose outcome the log writes out],
//                             declared: [event types that open a combat: the result panel spans from one to the next],
//                             optionFacts(option) → [string] (a choice's facts: a retreat path's)}
//   keyHelp                   {chargers, more}: the key help's words (ui/battle.js keyHelp)
//   rules                     {enter, combine, attackers, primary, victory}: the rule numbers the shared panels cite
//                             (units coming on, attacks from several hexes, the attackers, the primary unit, the
//                             victory conditions in the Battle box); an
//                             entry may be a function of what it is cited for (enter: the entry, core/store.js ruleOf)
//   legend                    {charge, counter, marks}: the legend's line for a charge target, its reading of a
//                             counter, and its words for the map's marks (mapMarks)
//   resultKey() → element     the key to the combat results, under the panel (ui/explain.js resultKeyBox draws it)
//   onEscape() → bool         Esc leaves the edition's own mode (true: handled)
//   onKey(key, event) → bool  the edition's own keys (true: handled)

import { quickplay } from "./quickplay/index.js";
import { quickplay2013 } from "./quickplay-2013/index.js";
import { standard } from "./standard/index.js";
import { horseAndMusket } from "./horse-and-musket/index.js";
import { musketAndPike } from "./musket-and-pike/index.js";

export const EDITIONS = { quickplay, "quickplay-2013": quickplay2013, standard, "horse-and-musket": horseAndMusket, "musket-and-pike": musketAndPike };

export function editionFor(ruleset) {
  return EDITIONS[ruleset] || EDITIONS.quickplay;
}
