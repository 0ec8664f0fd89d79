// The lobby: create a table (rules, match target, who sits where), hand out the invitation
// links, list the tables in play to watch them or take a free seat. The list is pushed over
// /ws/lobby (a snapshot, then what changed); while that socket is down the page asks
// GET /api/tables every 30 s instead, and reconnects.
"use strict";

const $ = (id) => document.getElementById(id);
let bots = { bots: ["heuristic", "random"], default: "heuristic" };
let lastTables = [];

// Seats and defaults of each preset (the server's rules presets say the same).
const PRESET_SEATS = { double6: 6, double8: 8, italiana5: 5 };
const PRESET_TARGET = { pontos: 500, italiana5: 10 };
const BIDDING = { italiana5: true };

function preset() { return $("preset").value; }
function seatCount() { return PRESET_SEATS[preset()] || 4; }

function seatRole(seat) {
  if (seat === 0) return t("you");
  if (BIDDING[preset()]) return t("no_fixed_partner");
  return seat % 2 === 0 ? t("partner") : t("opponent");
}

function renderSeats() {
  const box = $("seats");
  const previous = [...box.querySelectorAll(".seat-row")].map((row) => ({
    kind: row.querySelector(".kind").value, level: row.querySelector(".level").value }));
  // Levels by name and a line each (sueca.bots.levels); an algorithm's name as it is.
  const levels = (chosen) => bots.bots.map((b) =>
    `<option value="${b}"${b === chosen ? " selected" : ""}>${
      t(`level_${b}`) === `level_${b}` ? b : t(`level_${b}`)}</option>`).join("");
  // The chosen level's line is said under the select: a closed select would cut it.
  const levelHelp = (level) => (t(`level_${level}_help`) === `level_${level}_help` ? "" : t(`level_${level}_help`));
  let html = `<legend>${t("seats")}</legend>`;
  // Three players: at a four-seat table without bidding one seat may be a dummy, played by
  // its partner (the server checks there is at most one).
  const dummyAllowed = seatCount() === 4 && !BIDDING[preset()];
  for (let seat = 0; seat < seatCount(); seat++) {
    const was = previous[seat] || { kind: seat === 0 ? "human" : "bot", level: bots.default };
    if (was.kind === "dummy" && !dummyAllowed) was.kind = "bot";
    const dummy = dummyAllowed
      ? `<option value="dummy"${was.kind === "dummy" ? " selected" : ""}>${t("kind_dummy")}</option>` : "";
    const kinds = seat === 0 ? `<option value="human">${t("you")}</option>`
      : `<option value="bot"${was.kind === "bot" ? " selected" : ""}>${t("kind_bot")}</option>
         <option value="human"${was.kind === "human" ? " selected" : ""}>${t("kind_human")}</option>${dummy}`;
    html += `<div class="seat-row" data-seat="${seat}">
      <span class="who">${t("seat_n", { n: seat + 1 })}<small>${seatRole(seat)}</small></span>
      <select class="kind" aria-label="${t("seat_n", { n: seat + 1 })}">${kinds}</select>
      <select class="level" aria-label="${t("level")} — ${t("seat_n", { n: seat + 1 })}"
        ${was.kind === "bot" ? "" : "hidden"}>${levels(was.level)}</select>
      <small class="level-help muted"${was.kind === "bot" ? "" : " hidden"}>${levelHelp(was.level)}</small></div>`;
  }
  box.innerHTML = html;
  for (const row of box.querySelectorAll(".seat-row")) {
    const kind = row.querySelector(".kind");
    const level = row.querySelector(".level");
    const help = row.querySelector(".level-help");
    level.addEventListener("change", () => { help.textContent = levelHelp(level.value); });
    kind.addEventListener("change", () => {
      level.hidden = kind.value !== "bot";
      help.hidden = level.hidden;
      if (kind.value === "dummy") {
        // One dummy at most: another seat that was the dummy becomes a bot again.
        for (const other of box.querySelectorAll(".seat-row .kind")) {
          if (other !== kind && other.value === "dummy") {
            other.value = "bot";
            other.closest(".seat-row").querySelector(".level").hidden = false;
            other.closest(".seat-row").querySelector(".level-help").hidden = false;
          }
        }
      }
    });
  }
}

let targetFor = null; // the preset whose default target the field holds

function syncTarget() {
  const pontos = preset() === "pontos";
  $("target-unit").textContent = pontos ? t("points_unit") : t("games");
  const value = Number($("target").value);
  if (targetFor !== null && targetFor !== preset()
      && value === (PRESET_TARGET[targetFor] || 4)) {
    $("target").value = PRESET_TARGET[preset()] || 4; // still the old default: follow the preset
  }
  if (pontos && value < 50) $("target").value = 500;
  if (!pontos && value >= 50) $("target").value = PRESET_TARGET[preset()] || 4;
  targetFor = preset();
  $("must_trump").checked = preset() === "italiana" || $("must_trump").checked;
}

// Options a bidding table refuses (the server would say so in English): hidden there, and off.
// (Renúncia and the seeds' À Descoberta need partnerships.)
function syncOptions() {
  const bidding = Boolean(BIDDING[preset()]);
  for (const id of ["weak_hand_redeal", "renuncia"]) {
    $(id).closest("label").hidden = bidding;
    if (bidding) $(id).checked = false;
  }
  const dealerDummy = $("open_hands").querySelector('option[value="dealer_dummy"]');
  dealerDummy.hidden = bidding;
  if (bidding && $("open_hands").value === "dealer_dummy") $("open_hands").value = "";
}

// Taken tricks either may be looked at again (for learners) or not even the last one.
function syncReview(changed) {
  const other = changed === "review_tricks" ? "no_looking_back" : "review_tricks";
  if ($(changed).checked) $(other).checked = false;
}

async function createTable(event) {
  event.preventDefault();
  $("create-error").textContent = "";
  const name = $("name").value.trim();
  localStorage.setItem("sueca.name", name);
  const rules = { variant: $("preset").value, match_target: Number($("target").value) };
  for (const option of ["must_trump", "review_tricks", "rolha", "tie_carry", "weak_hand_redeal",
    "renuncia", "no_looking_back"]) {
    if ($(option).checked) rules[option] = true;
  }
  const open = $("open_hands").value;
  if (open) rules.open_hands = open === "all" ? true : open;
  if ($("sweep").value !== "points") rules.sweep = $("sweep").value;
  const seats = [...document.querySelectorAll(".seat-row")].map((row, seat) => {
    const kind = row.querySelector(".kind").value;
    if (kind === "dummy") {
      rules.dummy = seat;
      return { kind };
    }
    return kind === "bot" ? { kind, level: row.querySelector(".level").value }
      : { kind: "human", name: seat === 0 ? name : "" };
  });
  const response = await fetch("/api/tables", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ rules, seats, open: $("open").checked,
      practice: Boolean($("practice") && $("practice").checked),
      turn_seconds: $("turn_seconds") && $("turn_seconds").value ? Number($("turn_seconds").value) : null }),
  });
  const data = await response.json();
  if (!response.ok) { $("create-error").textContent = data.message; return; }
  showInvites(data);
  if (!lobbySocketOpen()) loadTables(); // else the socket brings the new table
}

function showInvites(data) {
  const list = $("invite-list");
  const rows = data.seats.filter((s) => s.link).map((s) => {
    const url = new URL(s.link, location.origin).href;
    if (s.seat === 0) {
      return `<div class="invite"><span>${t("seat_n", { n: 1 })} · ${t("you")}</span>
        <a class="btn primary" id="my-seat" href="${s.link}">${t("take_my_seat")}</a></div>`;
    }
    return `<div class="invite"><span>${t("seat_n", { n: s.seat + 1 })}</span>
      <input type="text" readonly value="${escapeHtml(url)}" aria-label="${t("seat_n", { n: s.seat + 1 })}">
      <button class="btn small copy" type="button" data-url="${escapeHtml(url)}">${t("copy")}</button>
      ${friendInvite(data.id, s)}</div>`;
  });
  list.innerHTML = rows.join("");
  for (const button of list.querySelectorAll(".copy")) {
    button.addEventListener("click", async () => {
      try { await navigator.clipboard.writeText(button.dataset.url); } catch { /* old browsers */ }
      button.textContent = t("copied");
    });
  }
  $("invites").hidden = false;
  $("my-seat")?.focus();
}

async function loadTables() {
  try {
    const response = await fetch("/api/tables");
    lastTables = (await response.json()).tables;
  } catch { return; }
  renderTables();
}

// The pushed list: the summaries by id, and the page's order (newest first).
let lobbySocket = null;
let lobbyRetry = 1000;
const known = new Map();

function lobbySocketOpen() { return lobbySocket !== null && lobbySocket.readyState === WebSocket.OPEN; }

function onLobbyMessage(message) {
  if (message.type !== "tables") return;
  if (message.snapshot) known.clear();
  for (const table of message.tables) known.set(table.id, table);
  const order = new Set(message.order);
  for (const id of [...known.keys()]) if (!order.has(id)) known.delete(id);
  lastTables = message.order.map((id) => known.get(id)).filter(Boolean);
  renderTables();
}

function connectLobby() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/lobby`);
  lobbySocket = socket;
  socket.addEventListener("open", () => { lobbyRetry = 1000; });
  socket.addEventListener("message", (event) => onLobbyMessage(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    if (lobbySocket !== socket) return;
    lobbySocket = null;
    setTimeout(connectLobby, lobbyRetry);
    lobbyRetry = Math.min(lobbyRetry * 2, 30000);
  });
}

function renderTables() {
  const list = $("tables");
  if (!lastTables.length) { list.innerHTML = `<li class="muted">${t("no_tables")}</li>`; return; }
  list.innerHTML = lastTables.map((table) => {
    const seats = table.seats.map((s) => {
      const status = s.free ? t("free") : s.kind === "bot" ? t("status_bot")
        : s.kind === "dummy" ? t("status_dummy")
        : s.status === "present" ? "" : t(`status_${s.status}`);
      const sit = s.free ? ` <button class="btn small sit" type="button" data-table="${table.id}"
        data-seat="${s.seat}">${t("sit")}</button>` : "";
      const team = table.rules.variant === "italiana5" ? "" : ` team${s.seat % 2}`;
      const name = s.kind === "dummy" ? t("dummy") : seatLabel(s.name);
      return `<span class="chip${team}">${escapeHtml(name)}${status && s.kind !== "dummy" ? ` · ${status}` : ""}${sit}</span>`;
    }).join("");
    const unit = table.rules.variant === "pontos" ? t("points_unit") : t("games");
    return `<li class="table-item"><header><strong>${t(`rules_${table.rules.variant}`)}
      · ${t("match_n", { n: table.match })}</strong>
      <a class="btn small" href="/t/${table.id}">${t("watch")}</a></header>
      <div class="seats-line">${seats}</div>
      <div class="muted">${table.score.length === 2
        ? `${t("team_a")} ${table.score[0]} – ${table.score[1]} ${t("team_b")}`
        : table.seats.map((s) => `${escapeHtml(seatLabel(s.name))} ${table.score[s.seat]}`).join(" · ")}
        (${unit})</div></li>`;
  }).join("");
  for (const button of list.querySelectorAll(".sit")) {
    button.addEventListener("click", async () => {
      const response = await fetch(`/api/tables/${button.dataset.table}/seats/${button.dataset.seat}`, {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name: $("name").value.trim() }),
      });
      const data = await response.json();
      if (response.ok) location.href = data.link; else loadTables();
    });
  }
}

function drawFan() {
  $("fan").innerHTML = ["AH", "7S", "KD", "JC"].map(cardSvg).join("");
}

async function init() {
  $("name").value = localStorage.getItem("sueca.name") || "";
  try { bots = await (await fetch("/api/bots")).json(); } catch { /* keep the defaults */ }
  renderSeats();
  $("preset").addEventListener("change", () => { syncTarget(); syncOptions(); renderSeats(); });
  $("create").addEventListener("submit", createTable);
  for (const id of ["review_tricks", "no_looking_back"]) {
    $(id).addEventListener("change", () => syncReview(id));
  }
  mountLanguageSwitch(() => { renderSeats(); syncTarget(); renderTables(); drawFan(); });
  syncTarget();
  syncOptions();
  drawFan();
  connectLobby();
  // The server closes a socket that says nothing for 10 minutes: a ping keeps this one.
  setInterval(() => { if (lobbySocketOpen()) lobbySocket.send('{"type":"ping"}'); }, 30000);
  // The slow fallback while the socket is down (it reconnects meanwhile).
  setInterval(() => { if (!lobbySocketOpen()) loadTables(); }, 30000);
  setTimeout(() => { if (!lobbySocketOpen()) loadTables(); }, 2000);
}

init();
