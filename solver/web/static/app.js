// blokus-solo serve: the page. It draws what the server says and asks it everything:
// the rules (legal placements, refusals), the answers and the files come from the server.
"use strict";

const TOKEN = document.querySelector('meta[name="token"]').content;
const SVGNS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

let S = null;            // the state from the server
let legal = new Set();   // "piece:sq,sq,..." of the colour to move
let chosen = null;       // {piece, cells} the piece in hand (cells oriented)
let pointer = null;      // [row, col] under the pointer (on a board of cells: the cell number)
const jobs = new Map();  // job id -> list item

async function call(path, body, method) {
  const init = { method: method || (body === undefined ? "GET" : "POST"),
                 headers: { "X-Token": TOKEN } };
  if (body !== undefined) {
    if (body instanceof ArrayBuffer) { init.body = body; }
    else { init.body = JSON.stringify(body); init.headers["Content-Type"] = "application/json"; }
  }
  const response = await fetch(path, init);
  let data = null;
  try { data = await response.json(); } catch (e) { data = { error: response.statusText }; }
  if (response.status === 403 && data.reload) reloadOnce();  // the server forgot this page
  if (!response.ok) { throw new Error(data.error || response.statusText); }
  return data;
}

// ---- the game kept in this browser --------------------------------------------------
// After every change the page keeps its game (the server's snapshot: what was opened and
// the moves, never a position) in localStorage, per tab; after a reload (F5), a server
// restart or a session the server dropped, it sends it back (/api/restore: every move
// played again through the rules), an uploaded file first. A new tab takes the game
// kept last. If the browser cannot keep it, the page warns before it is closed.
const KEEP = "blokus-solo:";
const TAB = (() => {
  try {
    let tab = sessionStorage.getItem(KEEP + "tab");
    if (!tab) { tab = Date.now().toString(36) + Math.random().toString(36).slice(2, 8); sessionStorage.setItem(KEEP + "tab", tab); }
    return tab;
  } catch (e) { return "0"; }
})();
let unkept = null;  // why the game is not kept in this browser, or null

function readKept(key) {
  try { return JSON.parse(localStorage.getItem(key)); } catch (e) { return null; }
}

function keptTabs() {
  // the tabs with a game kept, the latest first
  const tabs = [];
  try {
    for (let k = 0; k < localStorage.length; k++) {
      const key = localStorage.key(k);
      if (key.startsWith(KEEP + "game:")) {
        const entry = readKept(key);
        tabs.push({ tab: key.slice((KEEP + "game:").length), saved: entry ? entry.saved : 0 });
      }
    }
  } catch (e) { return []; }
  return tabs.sort((a, b) => b.saved - a.saved);
}

function forget(tab) {
  try { localStorage.removeItem(KEEP + "game:" + tab); localStorage.removeItem(KEEP + "file:" + tab); } catch (e) { /* nothing kept */ }
}

function store(key, value) {
  // localStorage.setItem, making room (the other tabs' games, the oldest first) when full
  for (const other of [null, ...keptTabs().reverse().filter((t) => t.tab !== TAB)]) {
    if (other) forget(other.tab);
    try { localStorage.setItem(key, value); return true; } catch (e) { /* full: make room */ }
  }
  return false;
}

function keep() {
  if (!S || !S.snapshot) return;
  const entry = JSON.stringify({ snapshot: S.snapshot, saved: Date.now() });
  const ok = store(KEEP + "game:" + TAB, entry);
  if (!ok && !unkept) {
    unkept = "this browser cannot keep the game (its storage is full or off): a reload loses it";
    say(unkept, "error");
  } else if (ok) unkept = null;
  keptTabs().slice(6).forEach((t) => forget(t.tab));  // a few tabs' games at most
}

function keepFile(name, data) {
  // an upload's bytes (base64), sent again before its game is restored
  let text = "";
  const bytes = new Uint8Array(data);
  for (let k = 0; k < bytes.length; k += 0x8000) text += String.fromCharCode(...bytes.subarray(k, k + 0x8000));
  if (!store(KEEP + "file:" + TAB, JSON.stringify({ name, data: btoa(text) }))) {
    unkept = "this browser cannot keep the file (its storage is full or off): a reload loses the game";
  }
}

function reloadOnce() {
  // reload to restore the game kept here, unless that was just tried (no reload loop)
  try {
    const last = Number(sessionStorage.getItem(KEEP + "reloaded") || 0);
    if (Date.now() - last < 10000) return;
    sessionStorage.setItem(KEEP + "reloaded", String(Date.now()));
  } catch (e) { return; }
  location.reload();
}

async function restoreKept() {
  // the game kept for this tab (or, in a new tab, the one kept last), played again
  let tab = TAB, entry = readKept(KEEP + "game:" + TAB);
  if (!entry) {
    const latest = keptTabs()[0];
    if (!latest) return null;
    tab = latest.tab;
    entry = readKept(KEEP + "game:" + tab);
  }
  if (!entry || !entry.snapshot) return null;
  const snap = entry.snapshot;
  try {
    if (snap.opened === null) {
      const file = readKept(KEEP + "file:" + tab);
      if (!file) throw new Error("its file is not kept in this browser");
      const bytes = Uint8Array.from(atob(file.data), (ch) => ch.charCodeAt(0));
      await call("/api/upload?name=" + encodeURIComponent(file.name), bytes.buffer);
      if (tab !== TAB) store(KEEP + "file:" + TAB, JSON.stringify(file));
    }
    const state = await call("/api/restore", { snapshot: snap });
    const played = snap.moves.length + snap.undone.length;
    if (played || snap.opened === null || snap.from_step !== null || snap.step) {
      say(`restored the game kept in this browser (${snap.moves.length} ${snap.moves.length === 1 ? "move" : "moves"})`, "ok");
    }
    return state;
  } catch (e) {
    say("the game kept in this browser could not be restored: " + e.message, "error");
    if (tab === TAB) forget(TAB);
    return null;
  }
}

function say(text, kind) {
  const m = $("message");
  m.textContent = text || "";
  m.className = kind || "";
}

async function act(path, body) {
  try { show(await call(path, body)); say(""); }
  catch (e) { say(e.message, "error"); }
}

// ---- pieces -------------------------------------------------------------------------
function normalise(cells) {
  const r0 = Math.min(...cells.map((c) => c[0])), c0 = Math.min(...cells.map((c) => c[1]));
  return cells.map(([r, c]) => [r - r0, c - c0]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}
const rotate = (cells) => normalise(cells.map(([r, c]) => [c, -r]));
const flip = (cells) => normalise(cells.map(([r, c]) => [r, -c]));

function anchor() {
  // the cell of the piece under the pointer: the one nearest the middle of its box
  const rows = Math.max(...chosen.cells.map((c) => c[0])), cols = Math.max(...chosen.cells.map((c) => c[1]));
  let best = chosen.cells[0], far = Infinity;
  for (const [r, c] of chosen.cells) {
    const d = (r - rows / 2) ** 2 + (c - cols / 2) ** 2;
    if (d < far - 1e-9) { best = [r, c]; far = d; }
  }
  return best;
}

function ghostCells() {
  if (onCells()) return cellGhost();
  if (!chosen || !pointer) return null;
  const [ar, ac] = anchor();
  return chosen.cells.map(([r, c]) => [pointer[0] + r - ar, pointer[1] + c - ac]);
}

function ghostLegal(cells) {
  if (onCells()) return cells.every((c) => c >= 0) && legal.has(chosen.piece + ":" + ghostSquares(cells).join(","));
  if (cells.some(([r, c]) => r < 0 || c < 0 || r >= S.rows || c >= S.cols)) return false;
  const squares = cells.map(([r, c]) => r * S.cols + c).sort((a, b) => a - b);
  return legal.has(chosen.piece + ":" + squares.join(","));
}

function ghostSquares(cells) {
  // the ghost's cell numbers, sorted (as the server writes a placement)
  if (onCells()) return cells.slice().sort((a, b) => a - b);
  return cells.map(([r, c]) => r * S.cols + c).sort((a, b) => a - b);
}

// ---- a board drawn from its geometry (Trigon's triangles) ------------------------------
// The server sends the cells (S.cells: each one's corners, lattice tile and kind) and each
// piece's orientations (S.shapes: tiles, kinds, corners, the orientation after a turn and
// after a flip). A piece is placed by a translation of the lattice that takes one of its
// tiles (the anchor) onto the cell under the pointer: the anchor is of that cell's kind
// (a triangle pointing the same way), the nearest such tile to the middle of the piece.
const onCells = () => !!(S && S.cells);
let board = null;  // what is derived once per board of cells: see prepareCells

function prepareCells() {
  const key = JSON.stringify([S.grid, S.rows, S.cols]);
  if (board && board.key === key) return;
  const G = S.cells, at = new Map(), edges = new Map();
  G.tiles.forEach(([x, y], k) => at.set(x + "," + y, k));
  const centres = G.polygons.map((p) => [p.reduce((a, q) => a + q[0], 0) / p.length,
                                         p.reduce((a, q) => a + q[1], 0) / p.length]);
  const sides = G.polygons.map((p, k) => p.map((q, i) => {
    const r = p[(i + 1) % p.length];
    const key = [q, r].map((v) => v[0].toFixed(2) + "," + v[1].toFixed(2)).sort().join(" ");
    if (!edges.has(key)) edges.set(key, []);
    edges.get(key).push(k);
    return { key, d: `M${q[0]},${q[1]}L${r[0]},${r[1]}` };
  }));
  board = { key, at, centres, sides, edges };
}

function cellAt(event) {
  // the cell under the pointer, or null
  const target = event.target.closest ? event.target.closest("#board [data-sq]") : null;
  return target ? Number(target.dataset.sq) : null;
}

function orientation() {
  // the orientation of the piece in hand that fits the cell under the pointer: as turned
  // by the player, or turned once more when it has no tile of that kind (the single
  // triangle pointing the other way)
  const shape = S.shapes[chosen.piece], kind = S.cells.kinds[pointer];
  return shape.kinds[chosen.k].includes(kind) ? chosen.k : shape.turn[chosen.k];
}

function cellAnchor(k) {
  // the tile of orientation k under the pointer: of the pointer's cell's kind, nearest
  // the middle of the piece's box
  const shape = S.shapes[chosen.piece], kind = S.cells.kinds[pointer], polys = shape.polygons[k];
  const xs = polys.flat().map((q) => q[0]), ys = polys.flat().map((q) => q[1]);
  const mx = (Math.min(...xs) + Math.max(...xs)) / 2, my = (Math.min(...ys) + Math.max(...ys)) / 2;
  let best = 0, far = Infinity;
  polys.forEach((p, i) => {
    if (shape.kinds[k][i] !== kind) return;
    const cx = p.reduce((a, q) => a + q[0], 0) / p.length, cy = p.reduce((a, q) => a + q[1], 0) / p.length;
    const d = (cx - mx) ** 2 + (cy - my) ** 2;
    if (d < far - 1e-9) { best = i; far = d; }
  });
  return best;
}

function cellGhost() {
  // the cells the piece in hand would cover (-1 off the board), or null
  if (!chosen || pointer === null) return null;
  const k = orientation(), tiles = S.shapes[chosen.piece].tiles[k];
  const [px, py] = S.cells.tiles[pointer], [ax, ay] = tiles[cellAnchor(k)];
  return tiles.map(([x, y]) => {
    const c = board.at.get((x + px - ax) + "," + (y + py - ay));
    return c === undefined ? -1 : c;
  });
}

function shrunk(cell, share) {
  // a cell's corners pulled towards its centre (share 1: the cell itself)
  const [cx, cy] = board.centres[cell];
  return S.cells.polygons[cell].map(([x, y]) => `${(cx + share * (x - cx)).toFixed(3)},${(cy + share * (y - cy)).toFixed(3)}`).join(" ");
}

function cellOutlines(owner, g, stroke, width, dash) {
  // the edges between cells of different pieces (owner: cell -> piece id)
  let d = "";
  for (const [cell, id] of owner) {
    for (const side of board.sides[cell]) {
      const other = board.edges.get(side.key).find((c) => c !== cell);
      if (other === undefined || owner.get(other) !== id) d += side.d;
    }
  }
  const attrs = { d, stroke, "stroke-width": width, fill: "none", "stroke-linejoin": "round" };
  if (dash) attrs["stroke-dasharray"] = dash;
  if (d) el("path", attrs, g);
}

function starAt(cx, cy) {
  const pts = [];
  for (let k = 0; k < 10; k++) {
    const a = -Math.PI / 2 + k * Math.PI / 5, rad = k % 2 ? 0.16 : 0.38;
    pts.push((cx + rad * Math.cos(a)).toFixed(3) + "," + (cy + rad * Math.sin(a)).toFixed(3));
  }
  return "M" + pts.join("L") + "Z";
}


// A cell's fill: blocked, its owner's colour, or empty (squares and triangles alike).
function cellFill(sq, blocked, owner) {
  return blocked.has(sq) ? "#4d4d4d" : owner.has(sq) ? fillOf(owner.get(sq)) : "#e4e4e4";
}

// The layer of the cells printed on a card, hatched (its pattern defined once per board).
function printedLayer(svg) {
  const defs = el("defs", {}, svg);
  const pat = el("pattern", { id: "printed", width: 0.25, height: 0.25, patternUnits: "userSpaceOnUse",
                              patternTransform: "rotate(45)" }, defs);
  el("rect", { width: 0.08, height: 0.25, fill: "#ffffff88" }, pat);
  return el("g", { "pointer-events": "none", class: "printed" }, svg);
}

function drawCellsBoard() {
  const svg = $("board"), G = S.cells;
  svg.innerHTML = "";
  const size = 0.6, margin = 2.2 * size;  // a column is 1 wide, its letters about 11 px
  svg.setAttribute("viewBox", `${-margin} -0.1 ${G.width + margin + 0.1} ${G.height + margin + 0.1}`);
  const names = el("g", { class: "coords", "font-size": size, fill: "#555", "text-anchor": "middle",
                          "pointer-events": "none" }, svg);
  G.columns.forEach(([name, x]) => {
    el("text", { x, y: G.height + 0.2 + size }, names).textContent = name;
  });
  G.rows.forEach(([name, y]) => {
    el("text", { x: -margin / 2, y: y + 0.35 * size }, names).textContent = name;
  });
  const owner = new Map(), pieceOf = new Map();
  S.colours.forEach((c) => c.placed.forEach(([piece, cells], k) => {
    cells.forEach((sq) => { owner.set(sq, c.name); pieceOf.set(sq, c.name + k); });
  }));
  const blocked = new Set(S.blocked);
  const cells = el("g", { id: "cells" }, svg);
  G.polygons.forEach((p, sq) => {
    const fill = cellFill(sq, blocked, owner);
    el("polygon", { points: shrunk(sq, 1), fill, stroke: "#00000033", "stroke-width": 0.04,
                    "stroke-linejoin": "round", "data-sq": sq, "data-name": G.names[sq], class: "cell" }, cells);
  });
  if (S.mode === "cards" && S.printed.length) {  // printed on the card: hatched
    const printed = printedLayer(svg);
    S.printed.forEach((sq) => el("polygon", { points: shrunk(sq, 1), fill: "url(#printed)" }, printed));
  }
  cellOutlines(pieceOf, svg, "#1a1a1a", 0.07);
  const xs = el("g", { "pointer-events": "none", class: "xs" }, svg);
  S.blocked.forEach((sq) => {  // a blocked cell is an X, as on the cards
    const [cx, cy] = board.centres[sq], h = 0.22;
    el("path", { d: `M${cx - h},${cy - h}L${cx + h},${cy + h}M${cx + h},${cy - h}L${cx - h},${cy + h}`,
                 stroke: "#ddd", "stroke-width": 0.08 }, xs);
  });
  const marks = el("g", { "pointer-events": "none" }, svg);
  (S.starting_points || []).forEach((sq) => {  // shared by every colour: grey while free
    if (owner.has(sq)) return;
    const [cx, cy] = board.centres[sq];
    el("circle", { cx, cy, r: 0.3, fill: "#777", class: "start" }, marks);
  });
  S.corners.forEach((sq) => {
    el("polygon", { points: shrunk(sq, 0.45), fill: fillOf(S.selected), opacity: 0.55, class: "corner" }, marks);
  });
  S.cover.forEach((sq) => {
    const [cx, cy] = board.centres[sq];
    el("path", { d: starAt(cx, cy), fill: "#fff8", stroke: "#1a1a1a", "stroke-width": 0.06, class: "star" }, marks);
  });
  if (S.shown) {
    const shown = el("g", { id: "shown", "pointer-events": "none" }, svg);
    const ids = new Map();
    S.shown.forEach(([colour, piece, sqs], k) => sqs.forEach((sq) => {
      ids.set(sq, k);
      el("polygon", { points: shrunk(sq, 1), fill: fillOf(colour), opacity: 0.45 }, shown);
      const [cx, cy] = board.centres[sq];
      el("circle", { cx, cy, r: 0.12, fill: "#1a1a1a", class: "shown-dot" }, shown);
    }));
    cellOutlines(ids, shown, "#1a1a1a", 0.05, "0.15 0.1");
  }
  el("g", { id: "ghost", "pointer-events": "none" }, svg);
  drawGhost();
}

function drawCellsGhost(g) {
  const cells = ghostCells();
  if (!cells) return;
  const ok = ghostLegal(cells);
  g.setAttribute("class", ok ? "legal" : "illegal");
  cells.forEach((sq) => {
    if (sq < 0) return;
    el("polygon", { points: shrunk(sq, 0.85), fill: ok ? fillOf(S.selected) : "#d0203a", opacity: ok ? 0.75 : 0.5,
                    stroke: ok ? "#0a0" : "#900", "stroke-width": 0.12, "stroke-linejoin": "round",
                    "data-sq": sq }, g);
    if (!ok) {  // crossed out: not a hint's dashed cells
      const [cx, cy] = board.centres[sq], h = 0.22;
      el("path", { d: `M${cx - h},${cy - h}L${cx + h},${cy + h}M${cx + h},${cy - h}L${cx - h},${cy + h}`,
                   stroke: "#700", "stroke-width": 0.06, opacity: 0.8 }, g);
    }
  });
  // the anchor: the piece's cell under the pointer
  const [cx, cy] = board.centres[pointer];
  el("circle", { cx, cy, r: 0.22, fill: "none", stroke: "#fff", "stroke-width": 0.08, class: "anchor" }, g);
}

function cellTile(piece, k, fill) {
  // a piece of the tray, drawn from its corners
  const n = 6, polys = S.shapes[piece].polygons[k];
  const w = Math.max(...polys.flat().map((q) => q[0])), h = Math.max(...polys.flat().map((q) => q[1]));
  const svg = el("svg", { width: Math.ceil(w * n) + 4, height: Math.ceil(h * n) + 4 });
  polys.forEach((p) => el("polygon", { points: p.map(([x, y]) => `${(2 + x * n).toFixed(2)},${(2 + y * n).toFixed(2)}`).join(" "),
                                       fill, stroke: "#222", "stroke-width": 1, "stroke-linejoin": "round" }, svg));
  return svg;
}

// ---- drawing ------------------------------------------------------------------------
function el(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function fillOf(name) {
  const c = S.colours.find((c) => c.name === name);
  return c ? c.fill : "#888";
}

function starPath(r, c) {
  const pts = [];
  for (let k = 0; k < 10; k++) {
    const a = -Math.PI / 2 + k * Math.PI / 5, rad = k % 2 ? 0.16 : 0.38;
    pts.push((c + 0.5 + rad * Math.cos(a)).toFixed(3) + "," + (r + 0.5 + rad * Math.sin(a)).toFixed(3));
  }
  return "M" + pts.join("L") + "Z";
}

function outlines(owner, g, stroke, width, dash) {
  // the edges between squares of different pieces (owner: square -> piece id)
  let d = "";
  for (const [sq, id] of owner) {
    const r = Math.floor(sq / S.cols), c = sq % S.cols;
    const nb = [[r - 1, c, `M${c},${r}h1`], [r + 1, c, `M${c},${r + 1}h1`],
                [r, c - 1, `M${c},${r}v1`], [r, c + 1, `M${c + 1},${r}v1`]];
    for (const [nr, nc, seg] of nb) {
      const inside = nr >= 0 && nc >= 0 && nr < S.rows && nc < S.cols;
      if (!inside || owner.get(nr * S.cols + nc) !== id) d += seg;
    }
  }
  const attrs = { d, stroke, "stroke-width": width, fill: "none", "stroke-linecap": "square" };
  if (dash) attrs["stroke-dasharray"] = dash;
  if (d) el("path", attrs, g);
}

function drawBoard() {
  if (onCells()) { drawCellsBoard(); return; }
  const svg = $("board");
  svg.innerHTML = "";
  // the squares' names around the board (a1 the lower left), as hints and answers write them,
  // in a margin of about 11 px letters on any board
  const size = Math.max(0.25, Math.min(0.42, 0.021 * S.cols)), margin = 2.2 * size;
  svg.setAttribute("viewBox", `${-margin} -0.1 ${S.cols + margin + 0.1} ${S.rows + margin + 0.1}`);
  const names = el("g", { class: "coords", "font-size": size, fill: "#555", "text-anchor": "middle",
                          "pointer-events": "none" }, svg);
  S.column_names.forEach((name, c) => {
    el("text", { x: c + 0.5, y: S.rows + 0.2 + size }, names).textContent = name;
  });
  S.row_names.forEach((name, r) => {
    el("text", { x: -margin / 2, y: r + 0.5 + 0.35 * size }, names).textContent = name;
  });
  const owner = new Map(), pieceOf = new Map();
  S.colours.forEach((c) => c.placed.forEach(([piece, squares], k) => {
    squares.forEach((sq) => { owner.set(sq, c.name); pieceOf.set(sq, c.name + k); });
  }));
  const blocked = new Set(S.blocked);
  const squares = el("g", { id: "squares" }, svg);
  for (let r = 0; r < S.rows; r++) {
    for (let c = 0; c < S.cols; c++) {
      const sq = r * S.cols + c;
      const fill = cellFill(sq, blocked, owner);
      el("rect", { x: c, y: r, width: 1, height: 1, fill, stroke: "#00000033",
                   "stroke-width": 0.04, "data-sq": sq, class: "square" }, squares);
    }
  }
  if (S.mode === "cards" && S.printed.length) {  // printed on the card: hatched
    const printed = printedLayer(svg);
    S.printed.forEach((sq) => el("rect", { x: sq % S.cols, y: Math.floor(sq / S.cols), width: 1, height: 1,
                                           fill: "url(#printed)" }, printed));
  }
  outlines(pieceOf, svg, "#1a1a1a", 0.07);
  const xs = el("g", { "pointer-events": "none", class: "xs" }, svg);
  S.blocked.forEach((sq) => {  // a blocked square is an X, as on the cards
    const r = Math.floor(sq / S.cols), c = sq % S.cols;
    el("path", { d: `M${c + 0.25},${r + 0.25}L${c + 0.75},${r + 0.75}M${c + 0.75},${r + 0.25}L${c + 0.25},${r + 0.75}`,
                 stroke: "#ddd", "stroke-width": 0.08 }, xs);
  });
  const marks = el("g", { "pointer-events": "none" }, svg);
  S.colours.forEach((c) => {
    if (c.start !== null && !owner.has(c.start)) {
      el("circle", { cx: c.start % S.cols + 0.5, cy: Math.floor(c.start / S.cols) + 0.5,
                     r: 0.25, fill: c.fill, class: "start" }, marks);
    }
  });
  S.corners.forEach((sq) => {
    el("rect", { x: sq % S.cols + 0.3, y: Math.floor(sq / S.cols) + 0.3, width: 0.4, height: 0.4,
                 fill: fillOf(S.selected), opacity: 0.55, class: "corner" }, marks);
  });
  S.cover.forEach((sq) => {
    el("path", { d: starPath(Math.floor(sq / S.cols), sq % S.cols), fill: "#fff8",
                 stroke: "#1a1a1a", "stroke-width": 0.06, class: "star" }, marks);
  });
  if (S.shown) {
    const shown = el("g", { id: "shown", "pointer-events": "none" }, svg);
    const ids = new Map();
    S.shown.forEach(([colour, piece, sqs], k) => sqs.forEach((sq) => {
      ids.set(sq, k);
      el("rect", { x: sq % S.cols, y: Math.floor(sq / S.cols), width: 1, height: 1,
                   fill: fillOf(colour), opacity: 0.45 }, shown);
      el("circle", { cx: sq % S.cols + 0.5, cy: Math.floor(sq / S.cols) + 0.5, r: 0.09,
                     fill: "#1a1a1a", class: "shown-dot" }, shown);
    }));
    outlines(ids, shown, "#1a1a1a", 0.05, "0.15 0.1");
  }
  el("g", { id: "ghost", "pointer-events": "none" }, svg);
  drawGhost();
}

function drawGhost() {
  const g = $("ghost");
  if (!g) return;
  g.innerHTML = "";
  if (onCells()) { drawCellsGhost(g); return; }
  const cells = ghostCells();
  if (!cells) return;
  const ok = ghostLegal(cells);
  g.setAttribute("class", ok ? "legal" : "illegal");
  cells.forEach(([r, c]) => {
    if (r < 0 || c < 0 || r >= S.rows || c >= S.cols) return;
    el("rect", { x: c + 0.05, y: r + 0.05, width: 0.9, height: 0.9,
                 fill: ok ? fillOf(S.selected) : "#d0203a", opacity: ok ? 0.75 : 0.5,
                 stroke: ok ? "#0a0" : "#900", "stroke-width": 0.1 }, g);
    if (!ok) {  // crossed out: not a hint's dashed squares
      el("path", { d: `M${c + 0.2},${r + 0.2}L${c + 0.8},${r + 0.8}M${c + 0.8},${r + 0.2}L${c + 0.2},${r + 0.8}`,
                   stroke: "#700", "stroke-width": 0.06, opacity: 0.8 }, g);
    }
  });
  // the anchor: the piece's square under the pointer (nearest the middle of its box)
  el("circle", { cx: pointer[1] + 0.5, cy: pointer[0] + 0.5, r: 0.2, fill: "none",
                 stroke: "#fff", "stroke-width": 0.08, class: "anchor" }, g);
}

function tile(piece, cells, fill, selected) {
  const n = 10, rows = Math.max(...cells.map((c) => c[0])) + 1, cols = Math.max(...cells.map((c) => c[1])) + 1;
  const svg = el("svg", { width: cols * n + 4, height: rows * n + 4 });
  cells.forEach(([r, c]) => el("rect", { x: 2 + c * n, y: 2 + r * n, width: n, height: n,
                                           fill, stroke: "#222", "stroke-width": 1 }, svg));
  return svg;
}

function drawTray() {
  const tray = $("tray");
  tray.innerHTML = "";
  S.colours.filter((c) => S.played.includes(c.name)).forEach((c) => {
    const row = document.createElement("div");
    row.className = "trayrow" + (c.name === S.selected ? " selected" : "");
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = `${c.name} (${c.remaining.length})`;
    row.appendChild(name);
    c.remaining.forEach((piece) => {
      const b = document.createElement("span");
      const isChosen = chosen && chosen.piece === piece && c.name === S.selected;
      const locked = S.monomino_last && piece === "1" && c.remaining.length > 1;
      b.className = "tile" + (isChosen ? " selected" : "") + (locked ? " locked" : "");
      b.dataset.colour = c.name;
      b.dataset.piece = piece;
      b.title = locked ? "the monomino: only as this colour's last piece (monomino last)" : piece;
      if (onCells()) b.appendChild(cellTile(piece, isChosen ? chosen.k : S.shapes[piece].first, c.fill));
      else b.appendChild(tile(piece, isChosen ? chosen.cells : S.pieces[piece], c.fill));
      b.onclick = locked ? () => say(b.title, "error") : () => choose(c.name, piece);
      row.appendChild(b);
    });
    tray.appendChild(row);
  });
  const colours = $("colours");
  colours.innerHTML = "";
  S.played.forEach((name) => {
    const b = document.createElement("button");
    // the colour as a swatch, its name in dark text: readable on every colour (yellow too)
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = fillOf(name);
    b.append(swatch, name);
    if (name === S.selected) b.style.background = tint(fillOf(name), 0.3);
    b.dataset.colour = name;
    b.className = name === S.selected ? "selected" : "";
    b.title = "make " + name + " the colour to move";
    b.onclick = () => act("/api/select", { colour: name });
    colours.appendChild(b);
  });
}

function tint(fill, share) {
  // ``share`` of the colour ``fill`` ("#rrggbb") over white, as "rgb(...)"
  const [r, g, b] = [1, 3, 5].map((k) => parseInt(fill.slice(k, k + 2), 16));
  return `rgb(${[r, g, b].map((v) => Math.round(255 - share * (255 - v))).join(", ")})`;
}

async function choose(colour, piece) {
  if (colour !== S.selected) {
    try { show(await call("/api/select", { colour })); } catch (e) { say(e.message, "error"); return; }
  }
  chosen = onCells() ? { piece, k: S.shapes[piece].first } : { piece, cells: normalise(S.pieces[piece]) };
  drawTray();
  drawGhost();
}

function drawGame() {
  const game = S.game;
  $("gamebar").hidden = !game;
  $("play").hidden = !!game;
  $("tray").hidden = !!game;
  if (!game) return;
  const step = $("step");
  step.max = game.placements;
  step.value = game.step;
  const move = game.step ? game.moves[game.step - 1] : null;
  $("stepinfo").textContent = `${game.step} / ${game.placements}` +
    (move ? ` (last: ${move[0]} ${move[1]})` : "");
  drawChart();
}

function drawChart() {
  const chart = $("chart");
  chart.innerHTML = "";
  const review = S.review;
  if (!review) return;
  const names = Object.keys(review.colours), n = review.placements + 1;
  const w = Math.max(3, Math.min(16, Math.floor(520 / n))), h = 18, left = 56, gap = 44;
  const width = left + n * w + 24, height = names.length * gap + 6;
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, width, height, id: "reviewchart",
                          "font-size": 10, "font-family": "sans-serif" }, chart);
  const tone = { yes: "#7fc97f", no: "#e7727a", unknown: "#c8c8c8", done: "#9bb8e0" };
  names.forEach((name, i) => {
    const y = 12 + i * gap, data = review.colours[name];
    el("text", { x: 0, y: y + h - 3 }, svg).textContent = name;
    data.answers.forEach((a, k) => el("rect", { x: left + k * w, y, width: w, height: h,
                                                fill: tone[a] || "#fff", class: "answer " + a }, svg));
    for (const [what, mark, colour] of [["bonus", "+5", "#7a3c00"], ["all", "+15", "#000"]]) {
      const loss = data[what];
      if (!loss) continue;
      const x = left + loss.first * w + (what === "bonus" ? -2 : 0);  // both seen when together
      el("line", { x1: x, x2: x, y1: y - 3, y2: y + h + 3, stroke: colour, "stroke-width": 2,
                   class: "loss " + what }, svg);
      el("text", { x: x + 2, y: what === "all" ? y - 3 : y + h + 10, "font-size": 9, fill: colour },
         svg).textContent = mark + (loss.regained == null ? " lost" : " lost, given back by setup");
    }
    const here = left + S.game.step * w + w / 2;
    el("line", { x1: here, x2: here, y1: y, y2: y + h, stroke: "#2d6fb7", "stroke-width": 2 }, svg);
  });
  const legend = document.createElement("p");
  legend.textContent = "After each placement: green, the colour can still place all its pieces; " +
    "red, it cannot (proven); grey, unknown (time limit); blue, nothing left. " +
    "Black line: the +15 lost; brown: the +5 lost; the blue mark is the position shown.";
  chart.appendChild(legend);
}

let shownKey = null;  // the position on the board (positionKey)
let gameKey = null;   // the game record shown (a review is about all of it)

function positionKey() {
  // what an answer depends on: the file, the pieces on the board, the game step
  return JSON.stringify([S.source, S.colours.map((c) => c.placed), S.game ? S.game.step : null]);
}

const ROTATE_TITLE = { square: "Rotate a quarter turn clockwise, R (or the right mouse button)",
                       trigon: "Rotate a sixth of a turn clockwise, R (or the right mouse button)" };

function show(state) {
  // another grid, or another board of cells (Trigon's sides 9 and 8): the piece in hand
  // and the cell under the pointer are of the board before
  const cellsKey = (s) => (s ? JSON.stringify([s.grid || "square", s.cells ? s.rows : null]) : null);
  const before = cellsKey(S);
  S = state;
  if (cellsKey(S) !== before) { chosen = null; pointer = null; }
  if (onCells()) prepareCells();
  $("rotate").title = ROTATE_TITLE[S.grid || "square"] || ROTATE_TITLE.trigon;
  shownKey = positionKey();
  gameKey = S.game ? JSON.stringify([S.source, S.game.placements, S.game.moves]) : null;
  // answers about another position stay readable, greyed; back to it (undo, redo): not.
  // A review is about the whole game: greyed only once another game (or none) is shown
  document.querySelectorAll("#answers li").forEach((li) => {
    const review = li.dataset.kind === "review";
    const stale = li.dataset.key !== (review ? gameKey : shownKey);
    li.classList.toggle("stale", stale);
    li.querySelector(".q").title = stale ? `asked about another ${review ? "game" : "position"}` : "";
  });
  legal = new Set(S.legal.map(([piece, squares]) => piece + ":" + squares.join(",")));
  if (chosen) {
    const c = S.colours.find((c) => c.name === S.selected);
    if (!c || !c.remaining.includes(chosen.piece)) chosen = null;
  }
  $("title").textContent = S.title + ` (${S.mode === "game" ? "game viewer" : S.mode === "cards" ? "card" : "solo challenge"})`;
  $("status").textContent = S.status;
  $("status").className = S.status.startsWith("solved") ? "solved" : "";
  const printed = S.mode === "cards" && S.printed.length ? " Hatched: printed on the card." : "";
  $("goal").textContent = S.game ? "" : S.goal_text + printed;
  $("turnorder").checked = S.turn_order;
  $("undo").disabled = !S.moves;
  $("redo").disabled = !S.redo;
  $("hide").hidden = !S.shown;
  const opened = S.snapshot && S.snapshot.from_step === null ? S.snapshot.opened : null;
  $("other").textContent = S.title;
  $("catalogue").value = opened && $("catalogue").querySelector(`option[value="${CSS.escape(opened)}"]`) ? opened : "";
  drawBoard();
  drawTray();
  drawGame();
  keep();
}

// ---- questions ----------------------------------------------------------------------
const QUESTIONS = {
  colour: "Can this colour still place everything?", joint: "Can all colours still place everything?",
  hint: "Hint", solution: "Show a solution", review: "Review of the game",
};

async function ask(kind, colour) {
  const limit = $("timelimit").value;
  const li = document.createElement("li");
  li.dataset.kind = kind;
  li.dataset.key = kind === "review" ? gameKey : shownKey;
  li.value = $("answers").children.length + 1;  // numbered in the order asked, newest on top
  // the colours with pieces left, for "Check each colour alone" after an unknown
  li.dataset.open = S.colours.filter((c) => S.played.includes(c.name) && c.remaining.length)
    .map((c) => c.name).join(",");
  colour = colour || S.selected;
  const who = kind === "colour" ? ` (${colour})` : "";
  li.innerHTML = `<span class="q"></span> <span class="badge running">running</span> <span class="t"></span> `;
  li.querySelector(".q").textContent = QUESTIONS[kind] + who;
  $("answers").prepend(li);
  let job;
  try {
    job = (await call("/api/ask", { kind, colour, time_limit: limit === "none" ? null : Number(limit) })).job;
  } catch (e) {
    finish(li, { answer: "error", seconds: 0, text: e.message });
    return;
  }
  const cancel = document.createElement("button");
  cancel.textContent = "Cancel";
  cancel.className = "cancel";
  cancel.onclick = () => call(`/api/job/${job}/cancel`, {}).catch(() => {});
  li.appendChild(cancel);
  jobs.set(job, li);
  li.dataset.job = job;
  const started = Date.now();
  while (jobs.has(job)) {
    await new Promise((ok) => setTimeout(ok, 250));
    let out;
    try { out = await call(`/api/job/${job}`); } catch (e) { finish(li, { answer: "error", seconds: 0, text: e.message }); break; }
    if (out.state === "done") {
      finish(li, out.result);
      show(await call("/api/state"));
      break;
    }
    // while it runs: the seconds, and how close the search has come when it says so
    const soFar = out.progress ? ` — ${out.progress.progress}` : "";
    li.querySelector(".t").textContent = ((Date.now() - started) / 1000).toFixed(1) + " s" + soFar;
    if (out.progress) li.dataset.left = out.progress.left;
  }
  jobs.delete(job);
}

function finish(li, result) {
  const badge = li.querySelector(".badge");
  badge.className = "badge " + result.answer;
  badge.textContent = result.answer === "no" ? "no (proven)" : result.answer;
  li.dataset.answer = result.answer;
  // the engine and its own time, "[search+repair, 32.24 s]", in a tooltip
  const m = /^(.*?)\s*\[([^\]]*)\]$/.exec(result.text);
  const t = li.querySelector(".t");
  t.textContent = `${result.seconds.toFixed(2)} s — ${m ? m[1] : result.text}`;
  if (m) t.title = "answered by " + m[2];
  const cancel = li.querySelector(".cancel");
  if (cancel) cancel.remove();
  if (li.dataset.kind === "joint" && result.answer === "unknown" && li.dataset.open) {
    // the joint question timed out: each colour alone is a smaller question
    const each = document.createElement("button");
    each.textContent = "Check each colour alone";
    each.className = "each";
    each.title = "ask 'Can this colour still place everything?' for each colour, one after another";
    each.onclick = async () => {
      if (li.dataset.key !== shownKey) { say("that answer is about another position: ask again", "error"); return; }
      each.disabled = true;
      for (const colour of li.dataset.open.split(",")) await ask("colour", colour);
    };
    li.appendChild(each);
  }
}

// ---- files --------------------------------------------------------------------------
async function upload(file) {
  try {
    const data = await file.arrayBuffer();
    const state = await call("/api/upload?name=" + encodeURIComponent(file.name), data);
    keepFile(file.name, data);
    show(state);
    say("opened " + file.name, "ok");
    $("answers").innerHTML = "";
  } catch (e) { say(e.message, "error"); }
  $("upload").value = "";
}

async function save(kind) {
  const response = await fetch("/api/save/" + kind, { headers: { "X-Token": TOKEN } });
  if (!response.ok) { say((await response.json()).error, "error"); return; }
  const name = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition"))[1];
  const a = document.createElement("a");
  a.href = URL.createObjectURL(await response.blob());
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  say("saved " + name, "ok");
}

// ---- events -------------------------------------------------------------------------
function squareAt(event) {
  const svg = $("board"), pt = svg.createSVGPoint();
  pt.x = event.clientX; pt.y = event.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  return [Math.floor(p.y), Math.floor(p.x)];
}

function turn(how) {
  if (!chosen) return;
  if (onCells()) chosen.k = S.shapes[chosen.piece][how === flip ? "flip" : "turn"][chosen.k];
  else chosen.cells = how(chosen.cells);
  drawTray();
  drawGhost();
}

async function place() {
  const cells = ghostCells();
  if (!cells) return;
  try {
    const state = await call("/api/place", onCells() ? { colour: S.selected, squares: cells } : { colour: S.selected, cells });
    if (state.refused) { say("Refused: " + state.refused, "error"); return; }
    chosen = null;  // that piece is down: the next one is picked from the tray
    show(state);
    say("");
  } catch (e) { say("Refused: " + e.message, "error"); }
}

function step(k) { act("/api/step", { step: Math.max(0, Math.min(k, S.game.placements)) }); }

async function init() {
  const svgBoard = $("board");
  const at = (e) => (onCells() ? cellAt(e) : squareAt(e));
  svgBoard.addEventListener("mousemove", (e) => { pointer = at(e); drawGhost(); });
  svgBoard.addEventListener("mouseleave", () => { pointer = null; drawGhost(); });
  svgBoard.addEventListener("click", (e) => { pointer = at(e); if (chosen) place(); });
  svgBoard.addEventListener("contextmenu", (e) => { if (chosen) { e.preventDefault(); turn(rotate); } });
  $("rotate").onclick = () => turn(rotate);
  $("flip").onclick = () => turn(flip);
  $("undo").onclick = () => act("/api/undo", {});
  $("redo").onclick = () => act("/api/redo", {});
  $("pass").onclick = () => act("/api/pass", {});
  $("hide").onclick = () => act("/api/hide", {});
  $("turnorder").onchange = (e) => act("/api/turn-order", { on: e.target.checked });
  document.querySelectorAll("[data-ask]").forEach((b) => { b.onclick = () => ask(b.dataset.ask); });
  document.querySelectorAll("[data-save]").forEach((b) => { b.onclick = () => save(b.dataset.save); });
  $("upload").onchange = (e) => { if (e.target.files[0]) upload(e.target.files[0]); };
  $("first").onclick = () => step(0);
  $("back").onclick = () => step(S.game.step - 1);
  $("forward").onclick = () => step(S.game.step + 1);
  $("last").onclick = () => step(S.game.placements);
  $("step").onchange = (e) => step(Number(e.target.value));
  $("review").onclick = () => ask("review");
  $("fromhere").onclick = () => act("/api/from-here", {});
  $("catalogue").onchange = async (e) => {
    chosen = null;
    $("answers").innerHTML = "";
    await act("/api/open", { id: e.target.value });
  };
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT" || e.ctrlKey || e.metaKey || e.altKey) return;
    const k = e.key.toLowerCase();
    if (S && S.game) {
      if (k === "arrowleft") step(S.game.step - 1);
      else if (k === "arrowright") step(S.game.step + 1);
      else if (k === "home") step(0);
      else if (k === "end") step(S.game.placements);
      return;
    }
    if (k === "r") turn(rotate);
    else if (k === "f") turn(flip);
    else if (k === "z") act("/api/undo", {});
    else if (k === "y") act("/api/redo", {});
    else if (k === "escape") { chosen = null; drawTray(); drawGhost(); }
  });
  window.addEventListener("pagehide", () => {
    fetch("/api/close", { method: "POST", keepalive: true, headers: { "X-Token": TOKEN } });
  });
  // back to this page from the browser's cache: its session was closed, restore the game
  window.addEventListener("pageshow", (e) => { if (e.persisted) location.reload(); });
  window.addEventListener("beforeunload", (e) => {
    if (unkept && S && (S.moves || S.redo)) { e.preventDefault(); e.returnValue = unkept; }
  });
  const groups = new Map();
  for (const entry of await call("/api/catalogue")) {
    if (!groups.has(entry.group)) {
      const g = document.createElement("optgroup");
      g.label = entry.group;
      groups.set(entry.group, g);
      $("catalogue").appendChild(g);
    }
    const o = document.createElement("option");
    o.value = entry.id;
    o.textContent = entry.label;
    groups.get(entry.group).appendChild(o);
  }
  const none = document.createElement("option");
  none.value = "";
  none.id = "other";
  none.hidden = true;
  $("catalogue").appendChild(none);
  const state = (await restoreKept()) || (await call("/api/state"));
  for (const t of state.time_limits) {
    const o = document.createElement("option");
    o.value = t === null ? "none" : t;
    o.textContent = t === null ? "none" : t + " s";
    if (t === 30) o.selected = true;
    $("timelimit").appendChild(o);
  }
  show(state);
  document.body.dataset.ready = "1";
}

init().catch((e) => say(e.message, "error"));
