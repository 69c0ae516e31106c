// A Musket & Pike scenario as the page's map draws it. The edition's scenario file (server/rules/musket_and_pike/
// scenario.py) names the card's TEC types and keeps the TEC itself in the rules core (tables.py), writes a road as
// pairs of hexes and a hexside with one `feature`; the map (map.js, map/terrain.js) draws the kernel's shapes: a
// `tec` with each terrain's colour and pattern, roads as paths, hexsides with `features`, and units with a `kind`.
// Pure, so that node tests it (tests/web/mp.test.mjs); the costs and modifiers stay the rules core's (the hover card
// names each terrain and what kind of effect the TEC gives it, citing the TEC).

import { PAGE_KINDS } from "./words.js";

// the card's TEC hex types (tables.py HEX_TERRAIN), drawn; `notes`: the hover card's words (ui/tecinfo.js)
const TERRAIN = {
  clear: { name: "Clear", color: "#e8e2c4", notes: ["Clear ground: 1 MP for every arm (TEC)"] },
  woods: { name: "Woods", color: "#7fa86a", pattern: "trees", notes: ["Woods: slow going, a Formation Hit on entering for formed HI and cavalry; blocks LOS; cover against musketry (not against artillery) and in close combat (TEC)"] },
  marsh: { name: "Marsh", color: "#b9cfa8", pattern: "marsh", notes: ["Marsh: a Formation Hit on entering for formed HI and cavalry; helps the attacker in close combat (TEC)"] },
  thicket: { name: "Thicket, Vineyard or Garden", color: "#b5b06a", pattern: "dots", notes: ["Thicket, Vineyard or Garden: slow going, a Formation Hit on entering for formed HI and cavalry; helps the attacker in close combat (TEC)"] },
  hedge_lined_road: { name: "Hedge Lined Road", color: "#c9b98a", pattern: "hatch", notes: ["Hedge Lined Road: blocks LOS; cover against fire and in close combat (TEC)"] },
  river: { name: "River or Pond", color: "#8fb8e0", notes: ["River or Pond: no unit may enter; cannot be attacked in close combat (TEC)"] },
  marshy_stream: { name: "Marshy Stream", color: "#a9c7c0", pattern: "marsh", notes: ["Marshy Stream hex: artillery and HI with regimental artillery only along a road (R17.41, TEC)"] },
  stream: { name: "Stream", color: "#b7d3e6", notes: ["Stream hex: a Formation Hit on entering for formed HI and cavalry; helps the attacker in close combat (TEC)"] },
  village: { name: "Village", color: "#d8b48a", pattern: "buildings", notes: ["Village: slow going, a Formation Hit on entering for formed HI and cavalry; blocks LOS; strong cover against fire and in close combat (TEC)"] },
  bridge: { name: "Bridge", color: "#c9b48f", notes: ["Bridge hex (TEC)"] },
  castle: { name: "Castle", color: "#a89f94", pattern: "buildings", notes: ["Castle: blocks LOS; its occupant cannot be fired at or attacked (TEC)"] },
  chateau: { name: "Chateau", color: "#b8a48c", pattern: "buildings", notes: ["Chateau: blocks LOS; strong cover (TEC)"] },
  alerheim_gully: { name: "Alerheim Gully", color: "#c8b890", pattern: "hatch", notes: ["Alerheim Gully (TEC)"] },
  alerheim_schloss: { name: "Alerheim Schloss", color: "#a89f94", pattern: "buildings", notes: ["Alerheim Schloss: its occupant cannot be fired at or attacked (TEC)"] },
};

// the hexside features, in the words the map's featureStyle reads (stream, bridge, slope, wall, fieldworks)
const SIDES = {
  stream: { name: "Stream" },
  marshy_stream: { name: "Marshy Stream" },
  river: { name: "River" },
  bridge: { name: "Bridge" },
  hedge: { name: "Hedge" },
  steep_slope: { name: "Steep Slope" },
  gentle_slope: { name: "Gentle Slope", color: "#b08850" },
  entrenchment: { name: "Entrenchment" },
};

/** Chain a scenario's road pairs ([a, b], [b, c], ...) into paths the map draws as lines. */
export function roadPaths(pairs) {
  const paths = [];
  for (const p of pairs || []) {
    if (!Array.isArray(p) || p.length < 2) continue;
    const tail = paths.find((q) => q[q.length - 1] === p[0]);
    if (tail) tail.push(...p.slice(1));
    else paths.push([...p]);
  }
  return paths.map((path) => ({ path, kind: "road" }));
}

/** The scenario in the map's shapes; a scenario already so shaped is returned as it is. */
export function pageScenario(sc) {
  if (!sc || sc.tec) return sc;
  const map = sc.map || {};
  const roads = (map.roads || []).every((r) => Array.isArray(r)) ? roadPaths(map.roads) : map.roads;
  const hexsides = (map.hexsides || []).map((hs) => (hs.features ? hs : { ...hs, features: [hs.feature] }));
  const units = (sc.units || []).map((u) => (u.kind ? u : { ...u, kind: PAGE_KINDS[u.type] || "infantry" }));
  // only the terrain and features the battle uses (the map's legend lists them all)
  const used = new Set([map.default_terrain || "clear", ...Object.values(map.hexes || {})]);
  const terrain = Object.fromEntries([...used].map((t) => [t, TERRAIN[t] || { name: t, notes: [`${t} (TEC)`] }]));
  const kinds = new Set(hexsides.flatMap((hs) => hs.features));
  const sides = Object.fromEntries([...kinds].map((f) => [f, SIDES[f] || { name: f }]));
  return { ...sc, map: { ...map, roads, hexsides }, units, tec: { terrain, hexsides: sides, road_note: "Road: no effect on movement (R17.44); artillery and regimental artillery cross '#' terrain along it (R17.41)" } };
}
