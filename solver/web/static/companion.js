// blokus-solo serve: the solo companion's side of the page (issue 32 item 6). Loaded after
// app.js, whose state (S, chosen, pointer) and drawing functions it uses. While a piece is
// in hand it tells the server what the player looks at (the piece, the placement under the
// mouse: the server ponders those moves first) and marks each legal placement under the
// mouse with what is known of it: "keeps everything placeable" (a layout the rule checker
// accepted contains it), "loses" (proven) or "not known yet", refined while the player
// thinks.
"use strict";

const MARK_WORDS = {
  keeps: "keeps everything placeable",
  loses: "loses: not every piece can be placed after it (proven)",
  unknown: "not known yet",
};
let marks = new Map();        // "squares" -> "keeps" | "loses" | "unknown", for markedFor
let markedFor = null;         // "colour:piece" the marks are of
let focusSent = null;         // the last focus sent, as JSON
let focusTimer = null;

function markKey(cells) {
  return ghostSquares(cells).join(",");
}

async function refreshMarks() {
  if (!S || !chosen || S.game) { marks = new Map(); markedFor = null; return; }
  const which = S.selected + ":" + chosen.piece;
  try {
    const out = await call(`/api/marks?colour=${encodeURIComponent(S.selected)}&piece=${encodeURIComponent(chosen.piece)}`);
    if (!chosen || S.selected + ":" + chosen.piece !== which) return;
    marks = new Map(out.marks.map(([squares, mark]) => [squares.join(","), mark]));
    markedFor = which;
    drawGhost();
  } catch (e) { /* the marks are a help: a failed refresh leaves the last ones */ }
}

function sendFocus() {
  // what the player looks at, at most every 300 ms and only when it changed
  if (!S || S.game) return;
  const cells = ghostCells();
  const placed = cells && ghostLegal(cells) ? cells : null;
  const body = onCells()
    ? { colour: S.selected, piece: chosen ? chosen.piece : null, squares: placed }
    : { colour: S.selected, piece: chosen ? chosen.piece : null, cells: placed };
  const text = JSON.stringify(body);
  if (text === focusSent || focusTimer) return;
  focusTimer = setTimeout(() => {
    focusTimer = null;
    focusSent = text;
    call("/api/focus", body).catch(() => {});
  }, 300);
}

const drawGhostBase = drawGhost;
drawGhost = function () {
  drawGhostBase();
  const line = document.getElementById("mark");
  const g = document.getElementById("ghost");
  const cells = ghostCells();
  if (!line || !g) return;
  if (!cells || !ghostLegal(cells) || markedFor !== S.selected + ":" + chosen.piece) {
    line.textContent = "";
    line.className = "";
    g.removeAttribute("data-mark");
    return;
  }
  const mark = marks.get(markKey(cells)) || "unknown";
  g.setAttribute("data-mark", mark);
  line.textContent = `${chosen.piece} here: ${MARK_WORDS[mark]}`;
  line.className = "mark-" + mark;
  sendFocus();
};

const chooseBase = choose;
choose = async function (colour, piece) {
  await chooseBase(colour, piece);
  marks = new Map();
  markedFor = null;
  sendFocus();
  refreshMarks();
};

const showBase = show;
show = function (state) {
  showBase(state);
  refreshMarks();
};

// the server ponders while the player thinks: the marks fill in
setInterval(() => { if (chosen && !document.hidden) refreshMarks(); }, 1500);
