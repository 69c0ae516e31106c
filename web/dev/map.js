// The dev map page's script (a module file: the CSP allows no inline script).
import { MapView, setupView, legendSVG } from "../js/map.js";
import { counterIcon } from "../js/counters.js";
import { editionFor } from "../js/editions/index.js";
// Served either by `python -m http.server` over the repo root (/web/dev/map.html)
// or by the service (/static/dev/map.html).
const params = new URLSearchParams(location.search);
const sid = params.get("scenario") || "tutorial";
let sc;
try { sc = await (await fetch(`../../scenarios/${sid}.json`)).json(); }
catch (e) { sc = await (await fetch(`/api/scenarios/${sid}`)).json(); }
const edition = editionFor(sc.ruleset);
const mv = new MapView(document.getElementById("host"), sc, { reading: edition.counter, marks: edition.mapMarks });
const view = setupView(sc);
// dev: show every marker once
if (params.get("markers") !== "0") {
  view.units["b-1"].disrupted = true;
  view.units["b-jg"].ineffective = true;
  view.units["b-cav"].charging = "0308";
  view.units["r-1"].reduced = true;
  view.units["r-lt"].disrupted = true;
  view.squares = ["0808"];
}
mv.setView(view);
if (params.get("expand")) mv.setExpanded(params.get("expand"));
document.getElementById("legend").appendChild(legendSVG(sc, mv));
for (const u of sc.units) document.getElementById("icons").appendChild(counterIcon(sc, u.id, view.units[u.id] && view.units[u.id].status === "map" ? view.units[u.id] : {}, 42, edition.counter));
mv.on("hexhover", (hex) => { document.getElementById("hover").textContent = hex || ""; });
if (params.get("overlay")) {
  mv.shadeHexes([{hex:"0405", label:"1"},{hex:"0505", label:"1.5"},{hex:"0406", label:"2"}]);
  mv.drawPath(["0305","0405","0505"]);
  mv.ringHexes([{hex:"0905", label:"2:1"}]);
  mv.drawLine("0306","0605",{label:"range 3"});
}
window.mapView = mv;
