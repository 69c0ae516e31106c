"""Render a scenario's map (and its set-up) to SVG, for a designer to check by eye.

    .venv/bin/python scenarios/tools/render_svg.py scenarios/hougoumont.json /tmp/hougoumont.svg
    rsvg-convert /tmp/hougoumont.svg -o /tmp/hougoumont.png

Only the standard library is used.  The picture is a proof sheet, not the game's
own map drawing: hex ids, terrain colours and symbols, hexside features, roads,
labels, set-up positions (dots in the side's colour), reinforcement entry hexes
(triangles) and victory objectives (stars).
"""

from __future__ import annotations

import json
import math
import sys
from html import escape
from typing import Any

SQRT3 = math.sqrt(3.0)


def render(data: dict[str, Any], size: float = 22.0, show_units: bool = True,
           view: tuple[int, int, int, int] | None = None) -> str:
    m = data["map"]
    cols, rows = m["columns"], m["rows"]
    shift_even = m.get("shifted", "even") == "even"
    tec = data["tec"]
    H = size * SQRT3
    margin = 30

    def center(h: str) -> tuple[float, float]:
        c, r = int(h[:2]), int(h[2:])
        x = margin + size + (c - 1) * 1.5 * size
        low = (c % 2 == 0) if shift_even else (c % 2 == 1)
        y = margin + H / 2 + (r - 1) * H + (H / 2 if low else 0)
        return x, y

    def corners(h: str) -> list[tuple[float, float]]:
        x, y = center(h)
        return [(x + size * math.cos(math.radians(a)), y + size * math.sin(math.radians(a))) for a in range(0, 360, 60)]

    width = margin * 2 + size * (1.5 * (cols - 1) + 2)
    height = margin * 2 + H * (rows + 0.5) + 60
    vb = ""
    if view is not None:  # columns c1..c2, rows r1..r2
        c1, r1, c2, r2 = view
        x0 = margin + (c1 - 1) * 1.5 * size
        y0 = margin + (r1 - 1) * H
        vw = (c2 - c1) * 1.5 * size + 2 * size
        vh = (r2 - r1 + 1.5) * H
        vb = f' viewBox="{x0:.0f} {y0:.0f} {vw:.0f} {vh:.0f}"'
        width, height = vw * 2, vh * 2
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}"{vb} '
            f'font-family="DejaVu Sans, sans-serif">')
    out = [head,
           '<rect x="-9999" y="-9999" width="99999" height="99999" fill="#ffffff"/>']
    hexes = m.get("hexes", {})
    for c in range(1, cols + 1):
        for r in range(1, rows + 1):
            h = f"{c:02d}{r:02d}"
            t = tec["terrain"][hexes.get(h, m["default_terrain"])]
            pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in corners(h))
            out.append(f'<polygon points="{pts}" fill="{t.get("color", "#eeeeee")}" stroke="#888" stroke-width="0.5"/>')
            x, y = center(h)
            pat = t.get("pattern", "none")
            if pat == "trees":
                for dx, dy in ((-6, -3), (5, -5), (0, 5)):
                    out.append(f'<circle cx="{x+dx:.1f}" cy="{y+dy:.1f}" r="3.2" fill="#3f6e35" opacity="0.7"/>')
            elif pat == "buildings":
                out.append(f'<rect x="{x-6:.1f}" y="{y-5:.1f}" width="12" height="9" fill="#6b3d23"/>')
            elif pat == "hill":
                out.append(f'<path d="M{x-8:.1f},{y+4:.1f} Q{x:.1f},{y-7:.1f} {x+8:.1f},{y+4:.1f}" fill="none" '
                           f'stroke="#8b6b3b" stroke-width="1.3"/>')
            elif pat == "crops":
                for dx in (-5, 0, 5):
                    out.append(f'<line x1="{x+dx:.1f}" y1="{y-5:.1f}" x2="{x+dx:.1f}" y2="{y+5:.1f}" stroke="#b49a3c"/>')
            elif pat == "dots":
                for dx, dy in ((-5, -3), (4, -4), (-2, 4), (6, 3)):
                    out.append(f'<circle cx="{x+dx:.1f}" cy="{y+dy:.1f}" r="1.8" fill="#4d7a3a"/>')
            elif pat == "marsh":
                out.append(f'<path d="M{x-7:.1f},{y:.1f} h14 M{x-5:.1f},{y+4:.1f} h10" stroke="#2a6f8f"/>')
            out.append(f'<text x="{x:.1f}" y="{y - H/2 + 7:.1f}" font-size="5.5" text-anchor="middle" fill="#555">{h}</text>')
    # hexsides
    feats = tec.get("hexsides", {})
    for hs in m.get("hexsides", []):
        a, b = hs["hexes"]
        (ax, ay), (bx, by) = center(a), center(b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        dx, dy = bx - ax, by - ay
        L = math.hypot(dx, dy)
        px, py = -dy / L, dx / L
        half = size / 2
        for k, f in enumerate(sorted(hs["features"])):
            col = feats.get(f, {}).get("color", "#000")
            wdt = 4.5 if f in ("river",) else 3
            dash = ' stroke-dasharray="3,2"' if f in ("hedge",) else ""
            off = (k - (len(hs["features"]) - 1) / 2) * 3
            ox, oy = dx / L * off, dy / L * off
            out.append(f'<line x1="{mx+px*half+ox:.1f}" y1="{my+py*half+oy:.1f}" x2="{mx-px*half+ox:.1f}" '
                       f'y2="{my-py*half+oy:.1f}" stroke="{col}" stroke-width="{wdt}" stroke-linecap="round"{dash}/>')
    # roads
    kinds = {"pike": ("#5a4632", 3.2), "road": ("#7a5c3c", 2.4), "trail": ("#7a5c3c", 1.2)}
    for road in m.get("roads", []):
        col, wd = kinds.get(road.get("kind", "road"), ("#7a5c3c", 2))
        pts = " ".join(f"{center(h)[0]:.1f},{center(h)[1]:.1f}" for h in road["path"])
        dash = ' stroke-dasharray="4,3"' if road.get("kind") == "trail" else ""
        out.append(f'<polyline points="{pts}" fill="none" stroke="{col}" stroke-width="{wd}"{dash}/>')
    # objectives
    for o in data.get("victory", {}).get("objectives", []):
        x, y = center(o["hex"])
        pts = []
        for i in range(10):
            rr = 9 if i % 2 == 0 else 4
            ang = math.radians(-90 + i * 36)
            pts.append(f"{x + rr*math.cos(ang):.1f},{y + rr*math.sin(ang):.1f}")
        out.append(f'<polygon points="{" ".join(pts)}" fill="#ffd400" stroke="#7a5d00" stroke-width="0.8" opacity="0.85"/>')
        out.append(f'<text x="{x:.1f}" y="{y+4:.1f}" font-size="6" text-anchor="middle" font-weight="bold">{o["points"]}</text>')
    # labels
    for lab in m.get("labels", []):
        x, y = center(lab["hex"])
        out.append(f'<text x="{x:.1f}" y="{y + H/2 - 3:.1f}" font-size="7.5" text-anchor="middle" fill="#000" '
                   f'font-style="italic" stroke="#fff" stroke-width="2" paint-order="stroke">{escape(lab["text"])}</text>')
    if show_units:
        units = {u["id"]: u for u in data["units"]}
        sides = data["sides"]
        per_hex: dict[str, list[str]] = {}
        for s in data["setup"]:
            if "hex" in s:  # a placement in a set-up area only (17.2) has no printed hex to show
                per_hex.setdefault(s["hex"], []).append(s["unit"])
        for h, uids in per_hex.items():
            x, y = center(h)
            for i, uid in enumerate(uids):
                u = units[uid]
                col = sides[u["side"]]["color"]
                yy = y - 6 + i * 7
                if u["kind"] == "leader":
                    out.append(f'<circle cx="{x-9:.1f}" cy="{yy:.1f}" r="2.6" fill="{col}" stroke="#000" stroke-width="0.5"/>')
                else:
                    out.append(f'<rect x="{x-12:.1f}" y="{yy-3:.1f}" width="24" height="6.5" fill="{col}" opacity="0.9"/>')
                    out.append(f'<text x="{x:.1f}" y="{yy+2:.1f}" font-size="4.8" text-anchor="middle" '
                               f'fill="{sides[u["side"]].get("text_color", "#fff")}">{escape(uid)}</text>')
        ent: dict[str, list[str]] = {}
        for r in data.get("reinforcements", []):
            letters = sides[units[r.get("unit") or r["units"][0]]["side"]].get("entry_points", {})
            for h in [r["hex"]] if "hex" in r else [letters.get(e, e) for e in r["entry"]]:
                for uid in [r["unit"]] if "unit" in r else r["units"][:1]:  # a group (17.4): its first unit
                    ent.setdefault(h, []).append(f'{uid}@{r["turn"]}')
        for h, lst in ent.items():
            x, y = center(h)
            side = units[lst[0].split("@")[0]]["side"]
            col = sides[side]["color"]
            out.append(f'<polygon points="{x-7:.1f},{y+6:.1f} {x+7:.1f},{y+6:.1f} {x:.1f},{y-7:.1f}" fill="{col}" '
                       f'stroke="#000" stroke-width="0.6"/>')
        yl = margin + H * (rows + 0.5) + 15
        for side, s in sides.items():
            txt = f"{s['name']} entry: " + "; ".join(
                f"{h}: " + ", ".join(v) for h, v in ent.items() if units[v[0].split('@')[0]]["side"] == side)
            out.append(f'<text x="{margin}" y="{yl:.1f}" font-size="8" fill="{s["color"]}">{escape(txt[:260])}</text>')
            yl += 12
    out.append(f'<text x="{margin}" y="18" font-size="12" font-weight="bold">{escape(data["title"])} '
               f'({cols}x{rows})</text>')
    out.append("</svg>")
    return "\n".join(out)


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print("usage: render_svg.py SCENARIO.json OUT.svg [--no-units] [--view C1,R1,C2,R2]", file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as fh:
        data = json.load(fh)
    view = None
    if "--view" in argv:
        c1, r1, c2, r2 = (int(v) for v in argv[argv.index("--view") + 1].split(","))
        view = (c1, r1, c2, r2)
    svg = render(data, show_units="--no-units" not in argv, view=view)
    with open(argv[2], "w", encoding="utf-8") as fh:
        fh.write(svg)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
