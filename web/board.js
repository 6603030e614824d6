// board.js: the map as SVG, drawn from the server's `map` answer (squares
// with their terrain, the Coast Road's and the blocked hexsides, names,
// home bases, fortresses) and the counters of a public state. The grid's
// neighbour steps say the rows are offset by half a square each: a square
// (row, number) is drawn at x = number - row/2 hex widths, y = 3/4 of a hex
// height a row. Pan by dragging, zoom with the wheel or the buttons; the
// keyboard moves a cursor square (arrows, Enter selects, Escape clears).

const NS = "http://www.w3.org/2000/svg";
const R = 10;                       // a hex's corner radius
const W = Math.sqrt(3) * R;         // its width
const ROW = 1.5 * R;                // the distance between rows
// highlights drawn under the counters (the rest outline squares over them)
const UNDER_COUNTERS = new Set(["dest", "zone-axis", "zone-allied", "nosupply"]);

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function hexPoints(cx, cy, r = R) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 180 * (60 * i - 30);
    pts.push(`${(cx + r * Math.cos(a)).toFixed(2)},${(cy + r * Math.sin(a)).toFixed(2)}`);
  }
  return pts.join(" ");
}

// The unit type as on the printed counters (NATO style), in a small
// frame: armour an oval, infantry a cross, armoured infantry both,
// reconnaissance one diagonal.
function typeSymbol(g, type, x, y) {
  const w = 7, h = 4, x0 = x - w / 2, y0 = y - h / 2;
  el("rect", { x: x0, y: y0, width: w, height: h, class: "sym", "data-type": type }, g);
  if (type === "armor" || type === "armored_infantry")
    el("ellipse", { cx: x, cy: y, rx: w / 2 - 1.2, ry: h / 2 - 0.8, class: "sym" }, g);
  if (type === "infantry" || type === "armored_infantry") {
    el("line", { x1: x0, y1: y0, x2: x0 + w, y2: y0 + h, class: "sym" }, g);
    el("line", { x1: x0, y1: y0 + h, x2: x0 + w, y2: y0, class: "sym" }, g);
  }
  if (type === "recce") el("line", { x1: x0, y1: y0 + h, x2: x0 + w, y2: y0, class: "sym" }, g);
}

export class Board {
  constructor(svg, map) {
    this.svg = svg;
    this.map = map;
    this.squares = new Map();       // "W6" -> {row, number, terrain, x, y}
    this.counters = new Map();      // unit -> its counter
    for (const c of map.counters) this.counters.set(c.unit, c);
    for (const s of map.squares) {
      this.squares.set(s.hex, { ...s, x: (s.number - s.row / 2) * W, y: s.row * ROW });
    }
    this.byPos = new Map();
    for (const [hex, s] of this.squares) this.byPos.set(`${s.row},${s.number}`, hex);
    this.highlights = new Map();    // class -> set of hexes
    this.onSelect = () => {};
    this.onHover = () => {};
    this.cursor = null;
    this.draw();
    this.fit();
    this.bindInput();
  }

  draw() {
    const svg = this.svg;
    svg.textContent = "";
    // Escarpment hatched, the Qattara stippled: told apart by more than
    // their colour, and seen around the counters standing on them.
    const defs = el("defs", {}, svg);
    const hatch = el("pattern", { id: "pat-escarpment", width: 3, height: 3, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, defs);
    el("rect", { width: 3, height: 3, class: "pat-escarpment-ground" }, hatch);
    el("line", { x1: 0, y1: 0, x2: 0, y2: 3, class: "pat-escarpment-line" }, hatch);
    const dots = el("pattern", { id: "pat-qattara", width: 3, height: 3, patternUnits: "userSpaceOnUse" }, defs);
    el("rect", { width: 3, height: 3, class: "pat-qattara-ground" }, dots);
    el("circle", { cx: 1.5, cy: 1.5, r: 0.55, class: "pat-qattara-dot" }, dots);
    this.terrainLayer = el("g", { class: "terrain" }, svg);
    for (const [hex, s] of this.squares) {
      const p = el("polygon", { points: hexPoints(s.x, s.y), class: `hex t-${s.terrain}`, "data-hex": hex }, this.terrainLayer);
      const t = el("title", {}, p);
      t.textContent = hex;
      // a fortress and a home base have a second ring inside, which shows
      // above and below a counter
      if (s.terrain === "fortress" || s.terrain === "homebase")
        el("polygon", { points: hexPoints(s.x, s.y, R - 2.2), class: `ring ring-${s.terrain}` }, this.terrainLayer);
    }
    const lines = el("g", {}, svg);
    for (const [a, b] of this.map.road) {
      const p = this.squares.get(a), q = this.squares.get(b);
      if (p && q) el("line", { x1: p.x, y1: p.y, x2: q.x, y2: q.y, class: "road" }, lines);
    }
    for (const [a, b] of this.map.blocked) {
      const p = this.squares.get(a), q = this.squares.get(b);
      if (!p || !q) continue;
      // the hexside between two centres: its midpoint, across the line
      const mx = (p.x + q.x) / 2, my = (p.y + q.y) / 2, dx = q.x - p.x, dy = q.y - p.y;
      const len = Math.hypot(dx, dy), half = R / 2;
      el("line", { x1: mx - dy / len * half, y1: my + dx / len * half, x2: mx + dy / len * half, y2: my - dx / len * half, class: "blocked" }, lines);
    }
    const names = el("g", {}, svg);
    for (const n of this.map.names) {
      const s = this.squares.get(n.hex);
      if (!s) continue;
      const t = el("text", { x: s.x, y: s.y - R * 0.75, class: "place-name", "text-anchor": "middle" }, names);
      t.textContent = n.name;
    }
    this.hlLayer = el("g", {}, svg);
    this.boxLayer = el("g", {}, svg);
    this.unitLayer = el("g", {}, svg);
    this.topLayer = el("g", {}, svg);
  }

  // Counters of the state's units on the board, one stack a square: the
  // strongest on top with its factors, the number in the stack beside it.
  setUnits(state) {
    this.stacks = new Map();
    for (const [unit, u] of Object.entries(state.units || {})) {
      if (u.where !== "board" || !this.squares.has(u.hex)) continue;
      if (!this.stacks.has(u.hex)) this.stacks.set(u.hex, []);
      this.stacks.get(u.hex).push(unit);
    }
    this.unitLayer.textContent = "";
    // The Updated ruleset's boxes (hedgehogs): a thick ring in the
    // builder's colour around the square, under its counters.
    this.boxLayer.textContent = "";
    for (const b of state.boxes || []) {
      const s = this.squares.get(b.hex);
      if (!s) continue;
      const p = el("polygon", { points: hexPoints(s.x, s.y, R - 0.8), class: `box ${b.side}`, "data-box": b.hex }, this.boxLayer);
      el("title", {}, p).textContent = `${b.hex}: a box of the ${b.side === "axis" ? "Axis" : "Allies"} (+1 to its defenders)`;
    }
    for (const [hex, units] of this.stacks) {
      units.sort((a, b) => (this.counters.get(b)?.attack ?? 0) - (this.counters.get(a)?.attack ?? 0));
      const s = this.squares.get(hex);
      const top = this.counters.get(units[0]);
      if (!top) continue;
      const g = el("g", { class: `counter ${top.side}`, "data-hex": hex }, this.unitLayer);
      el("rect", { x: s.x - 6.5, y: s.y - 5.5, width: 13, height: 11, rx: 1 }, g);
      if (top.type === "supply" || top.type === "headquarters") {
        const label = el("text", { x: s.x, y: s.y - 0.6 }, g);
        label.textContent = top.type === "supply" ? "SUP" : "HQ";
      } else {
        typeSymbol(g, top.type, s.x, s.y - 2.1);   // the unit's name is on hover and in the panel
      }
      const f = el("text", { x: s.x, y: s.y + 4 }, g);
      // The Updated ruleset: a reduced unit fights at half (rounded up),
      // shown with an r; o out of supply, i isolated (state marks 1, 2).
      const st = state.units[units[0]] || {};
      const half = (n) => st.reduced ? Math.ceil(n / 2) : n;
      const mark = (st.reduced ? "r" : "") + ((st.marks & 2) ? "i" : (st.marks & 1) ? "o" : "");
      f.textContent = top.type === "supply" || top.type === "headquarters" ? `${top.movement}`
        : `${half(top.attack)}-${half(top.defense)}-${top.movement}${mark}`;
      if (st.reduced) g.classList.add("reduced");
      if (units.length > 1) {
        el("circle", { cx: s.x + 6.5, cy: s.y - 5.5, r: 2.6, class: "badge" }, g);
        const n = el("text", { x: s.x + 6.5, y: s.y - 4.3, class: "count" }, g);
        n.textContent = String(units.length);
      }
      const title = el("title", {}, g);
      title.textContent = `${hex}: ` + units.map((u) => this.counters.get(u)?.counter || u).join(", ");
    }
    this.drawHighlights();
  }

  unitsAt(hex) { return this.stacks?.get(hex) || []; }

  // Highlights by kind (dest, selected, attacker, defender, path, cursor).
  highlight(kind, hexes) {
    this.highlights.set(kind, new Set(hexes));
    this.drawHighlights();
  }

  drawHighlights() {
    this.hlLayer.textContent = "";
    this.topLayer.textContent = "";
    for (const [kind, hexes] of this.highlights) {
      const layer = UNDER_COUNTERS.has(kind) ? this.hlLayer : this.topLayer;
      for (const hex of hexes) {
        const s = this.squares.get(hex);
        if (s) el("polygon", { points: hexPoints(s.x, s.y, R - 1.2), class: `hl hl-${kind}`, "data-hl": `${kind}:${hex}` }, layer);
      }
    }
  }

  // --- viewing: the SVG viewBox, panned and zoomed ---
  fit() {
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const s of this.squares.values()) {
      if (s.terrain === "sea") continue;
      x0 = Math.min(x0, s.x); y0 = Math.min(y0, s.y); x1 = Math.max(x1, s.x); y1 = Math.max(y1, s.y);
    }
    const whole = { x: x0 - W, y: y0 - 2 * R, w: x1 - x0 + 2 * W, h: y1 - y0 + 4 * R };
    // A tall, narrow board (a phone) would show the whole map as a strip:
    // it shows the map's full height instead, its middle, to pan from.
    const aspect = this.svg.clientWidth / Math.max(1, this.svg.clientHeight);
    if (aspect && aspect < 1.2) {
      const w = whole.h * aspect;
      this.setView({ x: whole.x + whole.w / 2 - w / 2, y: whole.y, w, h: whole.h });
      return;
    }
    this.setView(whole);
  }

  // Open on these squares (a player's units, the front) at a zoom where a
  // counter is some 36 CSS px wide, legible (44 on a phone: a square is
  // then a finger's target, over 40 px); the whole map stays one click
  // away (Fit). Squares spread wider than that: where most are.
  focusOn(hexes) {
    const pts = hexes.map((h) => this.squares.get(h)).filter(Boolean);
    const cw = this.svg.clientWidth, ch = this.svg.clientHeight;
    if (!pts.length || !cw || !ch) return;
    const xs = pts.map((s) => s.x), ys = pts.map((s) => s.y);
    const x0 = Math.min(...xs) - 3 * W, x1 = Math.max(...xs) + 3 * W;
    const y0 = Math.min(...ys) - 3 * R, y1 = Math.max(...ys) + 3 * R;
    const legible = cw * 13 / (cw < 600 ? 44 : 36);       // a counter is 13 units wide
    const w = Math.min(legible, Math.max(x1 - x0, (y1 - y0) * cw / ch, 20 * W));
    const h = w * ch / cw;
    // spread wider than the view: around where most of them are (the median)
    const mid = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
    const cx = x1 - x0 > w ? mid(xs) : (x0 + x1) / 2, cy = y1 - y0 > h ? mid(ys) : (y0 + y1) / 2;
    this.setView({ x: cx - w / 2, y: cy - h / 2, w, h });
  }

  setView(v) {
    this.view = v;
    this.svg.setAttribute("viewBox", `${v.x} ${v.y} ${v.w} ${v.h}`);
  }

  zoom(factor, cx = this.view.x + this.view.w / 2, cy = this.view.y + this.view.h / 2) {
    const v = this.view;
    const w = Math.min(Math.max(v.w * factor, 60), 2000), h = v.h * (w / v.w);
    this.setView({ x: cx - (cx - v.x) * (w / v.w), y: cy - (cy - v.y) * (w / v.w), w, h });
  }

  // Zoom keeping a square (the selection) in the middle of the view; with
  // none, the middle stays where it is.
  zoomOn(factor, hex) {
    const s = hex && this.squares.get(hex);
    if (s) this.setView({ ...this.view, x: s.x - this.view.w / 2, y: s.y - this.view.h / 2 });
    this.zoom(factor);
  }

  toMap(ev) {
    const pt = this.svg.createSVGPoint();
    pt.x = ev.clientX; pt.y = ev.clientY;
    return pt.matrixTransform(this.svg.getScreenCTM().inverse());
  }

  hexAt(ev) {
    const t = ev.target.closest ? ev.target.closest("[data-hex]") : null;
    if (t) return t.getAttribute("data-hex");
    return null;
  }

  centre(hex) {
    const s = this.squares.get(hex);
    if (!s) return;
    const v = this.view;
    if (s.x < v.x || s.x > v.x + v.w || s.y < v.y || s.y > v.y + v.h) this.setView({ ...v, x: s.x - v.w / 2, y: s.y - v.h / 2 });
  }

  setCursor(hex) {
    this.cursor = hex;
    this.highlight("cursor", hex ? [hex] : []);
    if (hex) { this.centre(hex); this.onHover(hex); }
  }

  bindInput() {
    const svg = this.svg;
    let drag = null;
    svg.addEventListener("pointerdown", (ev) => {
      drag = { x: ev.clientX, y: ev.clientY, view: { ...this.view }, moved: false };
    });
    svg.addEventListener("pointermove", (ev) => {
      const hex = this.hexAt(ev);
      if (hex) this.onHover(hex);
      if (!drag) return;
      const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < 5) return;
      if (!drag.moved) svg.setPointerCapture(ev.pointerId);
      drag.moved = true;
      const scale = this.view.w / svg.clientWidth;
      this.setView({ ...drag.view, x: drag.view.x - dx * scale, y: drag.view.y - dy * scale });
    });
    svg.addEventListener("pointerup", (ev) => {
      const wasDrag = drag && drag.moved;
      drag = null;
      if (wasDrag) return;
      const hex = this.hexAt(ev);
      if (hex) { this.cursor = hex; this.onSelect(hex); }
    });
    svg.addEventListener("wheel", (ev) => {
      ev.preventDefault();
      const p = this.toMap(ev);
      this.zoom(ev.deltaY > 0 ? 1.15 : 1 / 1.15, p.x, p.y);
    }, { passive: false });
    svg.addEventListener("keydown", (ev) => {
      const steps = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
      if (ev.key in steps) {
        ev.preventDefault();
        const cur = this.squares.get(this.cursor || this.map.home_bases.axis);
        let [dr, dn] = steps[ev.key];
        // up and down alternate between the two squares of the next row
        // nearest straight above or below
        if (dr === 1 && cur.row % 2 === 1) dn = 1;
        if (dr === -1 && cur.row % 2 === 0) dn = -1;
        const next = this.byPos.get(`${cur.row + dr},${cur.number + dn}`) || this.byPos.get(`${cur.row + dr},${cur.number}`);
        if (next) this.setCursor(next);
      } else if (ev.key === "Enter" || ev.key === " ") {
        ev.preventDefault();
        if (this.cursor) this.onSelect(this.cursor);
      } else if (ev.key === "Escape") {
        this.onSelect(null);
      } else if (ev.key === "+" || ev.key === "=") {
        this.zoom(1 / 1.25);
      } else if (ev.key === "-") {
        this.zoom(1.25);
      }
    });
  }
}
