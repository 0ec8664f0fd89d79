// The table page: one WebSocket, one view per message, everything drawn from that view.
// The server decides everything; this page only shows the view and sends the player's card.
"use strict";

const TABLE_ID = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const TOKEN_KEY = `sueca.token.${TABLE_ID}`;
const GATHER_MS = 1500; // how long a completed trick stays on the cloth

// An invitation link carries the seat token after '#': keep it for reloads, then take it out
// of the address bar so that it is not shared by accident.
if (location.hash.length > 1) {
  localStorage.setItem(TOKEN_KEY, decodeURIComponent(location.hash.slice(1)));
  history.replaceState(null, "", location.pathname);
}

let socket = null;
let view = null;
let retryDelay = 500;
let shownLastTrick = null; // key of the completed trick on the cloth
let gatherTimer = null;
let gathered = true;
let summaryKey = null;
let dismissedKey = null;
let focusCard = null;

const $ = (id) => document.getElementById(id);

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(TABLE_ID)}`);
  setConnection(t("connecting"));
  socket.addEventListener("open", () => {
    retryDelay = 500;
    setConnection("");
    const token = localStorage.getItem(TOKEN_KEY);
    if (token) send({ type: "join", token });
  });
  socket.addEventListener("message", (event) => onMessage(JSON.parse(event.data)));
  socket.addEventListener("close", (event) => {
    if (event.code === 4404) return;
    setConnection(t("reconnecting"));
    setTimeout(connect, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 5000);
  });
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function setConnection(text) { $("conn").textContent = text; }

function onMessage(message) {
  if (message.type === "state") {
    view = message.view;
    render();
  } else if (message.type === "error") {
    if (message.code === "bad_token") localStorage.removeItem(TOKEN_KEY);
    if (message.code === "no_table") {
      $("status").textContent = t("no_table");
      setConnection("");
      return;
    }
    const key = `err_${message.code}`;
    showToast(t(key) === key ? message.message : t(key));
  }
}

let toastTimer = null;
function showToast(text) {
  const toast = $("toast");
  toast.textContent = text;
  toast.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { toast.hidden = true; }, 3500);
}

// ---- geometry: where each seat sits on the screen ----

function viewer() { return view.you ?? 0; }

function position(seat) {
  // Play passes to the right in Portugal (counter-clockwise): the next seat is on your right.
  const k = (seat - viewer() + 4) % 4;
  const order = view.direction === "clockwise"
    ? ["bottom", "left", "top", "right"] : ["bottom", "right", "top", "left"];
  return order[k];
}

function seatName(seat) {
  const info = view.seats[seat];
  return info.named || info.kind === "bot" ? info.name : t("seat_n", { n: seat + 1 });
}

function teamLabel(team) {
  if (view.you === null || view.you === undefined) return team === 0 ? t("team_a") : t("team_b");
  return team === view.seats[view.you].team ? t("us") : t("them");
}

function teamsInOrder() {
  const mine = view.you === null || view.you === undefined ? 0 : view.seats[view.you].team;
  return [mine, 1 - mine];
}

// ---- drawing ----

function render() {
  if (!view) return;
  applyStrings();
  renderSeats();
  renderCorners();
  renderTrick();
  renderHand();
  renderStatus();
  renderScore();
  renderFacts();
  renderPast();
  renderSummary();
}

function renderSeats() {
  for (const seat of view.seats) {
    const box = $(`pos-${position(seat.seat)}`);
    const isMe = seat.seat === view.you;
    const badges = [];
    if (seat.status === "away") badges.push(`<span class="badge away">${t("status_away")}</span>`);
    if (seat.status === "stand_in") badges.push(`<span class="badge away">${t("status_stand_in")}</span>`);
    if (seat.status === "waiting") badges.push(`<span class="badge waiting">${t("status_waiting")}</span>`);
    if (seat.kind === "bot") badges.push(`<span class="badge">${t("status_bot")}</span>`);
    const dealer = seat.seat === view.dealer
      ? `<span class="dealer-chip" title="${t("dealer")}" aria-label="${t("dealer")}">D</span>` : "";
    const turn = view.phase === "playing" && view.to_play === seat.seat;
    const name = escapeHtml(seatName(seat.seat)) + (isMe ? ` (${t("you")})` : "");
    let html = `<div class="plate team${seat.team}${turn ? " turn" : ""}" data-seat="${seat.seat}"
      aria-current="${turn ? "true" : "false"}">${dealer}<span class="name">${name}</span>${badges.join("")}</div>`;
    const known = (view.known && view.known[seat.seat]) || [];
    // (Your own turned card is in your hand, marked in gold.)
    const trumpHere = view.trump_held && seat.seat === view.dealer;
    let cards = "";
    if (!isMe && view.hand_sizes) {
      const shown = known.filter((c) => !(trumpHere && c === view.trump_card));
      const hidden = view.hand_sizes[seat.seat] - shown.length - (trumpHere ? 1 : 0);
      if (shown.length) {
        cards += `<div class="known-cards">${sortHand(shown).map(
          (c) => `<span role="img" aria-label="${cardLabel(c)}">${cardSvg(c)}</span>`).join("")}</div>`;
      }
      if (hidden > 0) {
        cards += `<div class="backs" role="img" aria-label="${t("cards_count", { n: hidden })}">${
          cardBackSvg().repeat(hidden)}</div>`;
      }
    }
    if (trumpHere && !isMe) {
      // The turned card lies face up by the dealer until the dealer plays it.
      cards += `<div class="trump-card" role="img" aria-label="${t("trump")}: ${cardLabel(view.trump_card)}">
        ${cardSvg(view.trump_card)}</div>`;
    }
    if (cards) html += `<div class="seat-cards">${cards}</div>`;
    box.innerHTML = html;
  }
}

function renderCorners() {
  if (!view.trump) return;
  $("trump-corner").innerHTML = `${t("trump")} <span class="suit-badge">${suitSymbolSvg(view.trump, 18)}</span>
    <span class="visually-hidden">${t(`suit_${view.trump}`)}</span>`;
  const [a, b] = teamsInOrder();
  let text = `${t("tricks")}: ${teamLabel(a)} ${view.tricks_won[a]} · ${teamLabel(b)} ${view.tricks_won[b]}`;
  if (view.points_taken) {
    text += `<br>${t("points")}: ${view.points_taken[a]} · ${view.points_taken[b]}`;
  }
  $("tricks-corner").innerHTML = text;
}

function renderTrick() {
  const box = $("trick");
  let cards = [];
  let leader = 0;
  let winner = null;
  const trick = view.trick || { cards: [] };
  if (trick.cards.length) {
    cards = trick.cards;
    leader = trick.leader;
    clearTimeout(gatherTimer);
    gathered = true;
    shownLastTrick = null;
  } else if (view.last_trick) {
    const key = `${view.deal}:${view.played}`;
    if (key !== shownLastTrick) {
      // A trick just completed: leave it on the cloth a moment, then gather it.
      shownLastTrick = key;
      gathered = false;
      clearTimeout(gatherTimer);
      gatherTimer = setTimeout(() => { gathered = true; renderTrick(); }, GATHER_MS);
    }
    if (!gathered) {
      cards = view.last_trick.cards;
      leader = view.last_trick.leader;
      winner = view.last_trick.winner;
    }
  }
  box.setAttribute("aria-label", t("cloth"));
  box.innerHTML = cards.map((card, i) => {
    const seat = (leader + i) % 4;
    const cls = `slot slot-${position(seat)}${seat === winner ? " winner" : ""}`;
    return `<div class="${cls}" role="img" aria-label="${escapeHtml(seatName(seat))}: ${cardLabel(card)}">${cardSvg(card)}</div>`;
  }).join("");
}

function renderHand() {
  const hand = $("hand");
  const cards = sortHand(view.hand || []);
  const legal = new Set(view.legal || []);
  const mine = view.phase === "playing" && view.actor === view.you && view.you !== null;
  hand.classList.toggle("mine", mine);
  // A partner playing the dummy plays from the dummy's hand, shown among the known cards.
  const playing = view.acting_for !== null && view.acting_for !== view.you
    ? sortHand(view.known[view.acting_for]) : cards;
  const active = document.activeElement && document.activeElement.dataset
    ? document.activeElement.dataset.card : null;
  if (active) focusCard = active;
  hand.innerHTML = playing.map((card) => {
    const ok = mine && legal.has(card);
    const trumpMark = view.trump_held && view.you === view.dealer && card === view.trump_card;
    const label = cardLabel(card) + (ok || !mine ? "" : ` — ${t("unplayable")}`);
    return `<button type="button" class="card${ok ? " playable" : ""}${trumpMark ? " trump-mark" : ""}"
      data-card="${card}" aria-label="${label}" aria-disabled="${ok ? "false" : "true"}"
      tabindex="-1">${cardSvg(card)}</button>`;
  }).join("");
  const buttons = [...hand.querySelectorAll(".card")];
  const target = buttons.find((b) => b.dataset.card === focusCard)
    || buttons.find((b) => b.classList.contains("playable")) || buttons[0];
  if (target) {
    target.tabIndex = 0;
    if (active && hand.contains(document.activeElement) === false && focusCard) target.focus();
  }
  $("hand-caption").textContent = view.acting_for !== null && view.acting_for !== view.you
    ? t("playing_for", { name: seatName(view.acting_for) })
    : (view.you === null || view.you === undefined ? t("spectator") : "");
}

function renderStatus() {
  // A live region: change its text only when the news changes, so it is announced once.
  const status = $("status");
  let text = "";
  const mine = view.phase === "playing" && view.you !== null && view.actor === view.you;
  if (view.phase === "playing") text = mine ? t("your_turn") : t("turn_of", { name: seatName(view.to_play) });
  if (status.textContent !== text) status.textContent = text;
  status.classList.toggle("mine", mine);
}

function renderScore() {
  const [a, b] = teamsInOrder();
  const names = (team) => view.seats.filter((s) => s.team === team)
    .map((s) => escapeHtml(seatName(s.seat))).join(" & ");
  const rows = view.score.deals.map((points, i) =>
    `<tr><td>${t("deal_n", { n: i + 1 })}</td><td>${points[a] || ""}</td><td>${points[b] || ""}</td></tr>`).join("");
  const unit = view.scoring === "pontos" ? t("points_unit") : t("games");
  $("score-panel").innerHTML = `<table class="sheet" id="score-sheet" data-us="${view.score.match[a]}" data-them="${view.score.match[b]}">
    <caption>${t("score_sheet")} · ${t("match_n", { n: view.score.number })}</caption>
    <thead><tr><th scope="col"><span class="visually-hidden">${t("deal_n", { n: "" })}</span></th>
      <th scope="col">${teamLabel(a)}<span class="names">${names(a)}</span></th>
      <th scope="col">${teamLabel(b)}<span class="names">${names(b)}</span></th></tr></thead>
    <tbody>${rows}</tbody>
    <tfoot><tr><td>${t("total")}</td><td data-team="us">${view.score.match[a]}</td><td data-team="them">${view.score.match[b]}</td></tr></tfoot>
  </table>
  <p class="muted">${t("target", { n: `${view.match_target} ${unit}` })}</p>`;
}

function renderFacts() {
  const variant = view.rules.variant;
  const dealNumber = view.deal === undefined ? "" : view.deal + 1;
  $("facts-panel").innerHTML = `<dl class="facts">
    <dt>${t("rules")}</dt><dd>${t(`rules_${variant}`)}</dd>
    <dt>${t("deal_n", { n: "" }).trim()}</dt><dd>${dealNumber}</dd>
    <dt>${t("dealer")}</dt><dd>${view.dealer === undefined ? "" : escapeHtml(seatName(view.dealer))}</dd>
    <dt>${t("trump")}</dt><dd>${view.trump_card ? cardLabel(view.trump_card) : ""}</dd>
    <dt>${t("tricks")}</dt><dd>${view.tricks_won ? teamsInOrder().map(
      (team) => `${teamLabel(team)} ${view.tricks_won[team]}`).join(" · ") : ""}</dd>
  </dl>`;
}

function renderPast() {
  const panel = $("past-panel");
  if (!view.past_tricks) { panel.hidden = true; return; }
  panel.hidden = false;
  panel.innerHTML = `<h2>${t("past_tricks")}</h2><div class="past">${view.past_tricks.map((trick, i) =>
    `<div class="row"><span>${i + 1}.</span>${trick.cards.map((c) => `<span role="img" aria-label="${cardLabel(c)}">${cardSvg(c)}</span>`).join("")}
     <span>→ ${escapeHtml(seatName(trick.winner))} (${trick.points})</span></div>`).join("")}</div>`;
}

function renderSummary() {
  const dialog = $("summary");
  if (view.phase === "playing" || !view.summary) {
    summaryKey = null;
    if (dialog.open) dialog.close();
    return;
  }
  const key = `${view.score.number}:${view.deal}:${view.phase}`;
  if (key === dismissedKey) return; // a spectator closed this summary
  const s = view.summary;
  const [a, b] = teamsInOrder();
  const seated = view.you !== null && view.you !== undefined;
  const ready = seated && view.ready.includes(view.you);
  let title = t("end_of_deal");
  let headline = s.tie ? `<p><strong>${t("tie")}</strong></p>` : "";
  let action = "";
  if (view.phase === "match_over") {
    title = t("match_over");
    const winner = view.score.winner;
    headline = seated
      ? `<p class="big"><strong>${winner === view.seats[view.you].team ? t("we_won") : t("they_won")}</strong></p>`
      : `<p><strong>${t("team_won", { team: teamLabel(winner) })}</strong></p>`;
    if (seated) {
      action = ready ? `<span class="muted">${t("waiting_others")}</span>`
        : `<button class="btn primary" id="rematch" type="button">${t("rematch")}</button>`;
    }
    action += ` <a class="btn" href="/history">${t("history")}</a>`;
  } else if (seated) {
    action = ready ? `<span class="muted">${t("waiting_others")}</span>`
      : `<button class="btn primary" id="next-deal" type="button">${t("next_deal")}</button>`;
  }
  const hands = s.hands.map((cards, seat) => `<div><div class="who">${escapeHtml(seatName(seat))}
    <span class="muted">· ${teamLabel(view.seats[seat].team)}</span></div>
    <div class="mini-hand">${sortHand(cards).map((c) => `<span role="img" aria-label="${cardLabel(c)}">${cardSvg(c)}</span>`).join("")}</div></div>`).join("");
  dialog.innerHTML = `<h2 id="summary-title">${title} · ${t("deal_n", { n: view.deal + 1 })}</h2>
    ${headline}
    <div class="result-grid" id="deal-result">
      <span></span><span class="head">${teamLabel(a)}</span><span class="head">${teamLabel(b)}</span>
      <span>${t("points")}</span><span class="big">${s.points[a]}</span><span class="big">${s.points[b]}</span>
      <span>${t("tricks")}</span><span>${s.tricks[a]}</span><span>${s.tricks[b]}</span>
      <span>${t("game_points")}</span><span>${s.game_points[a]}</span><span>${s.game_points[b]}</span>
      <span>${t("total")}</span><span><strong>${view.score.match[a]}</strong></span><span><strong>${view.score.match[b]}</strong></span>
    </div>
    <h3>${t("hands")}</h3><div class="hands-grid">${hands}</div>
    <div class="dialog-actions">${action}</div>`;
  const next = dialog.querySelector("#next-deal");
  if (next) next.addEventListener("click", () => send({ type: "next" }));
  const rematch = dialog.querySelector("#rematch");
  if (rematch) rematch.addEventListener("click", () => send({ type: "rematch" }));
  if (!dialog.open) {
    dialog.showModal();
    (next || rematch || dialog.querySelector("a,button"))?.focus();
  }
  summaryKey = key;
}

// ---- input: click, tap or keyboard ----

let playedAt = null; // the position (match, deal, cards down) a card was sent for

$("hand").addEventListener("click", (event) => {
  const button = event.target.closest(".card");
  if (!button || button.getAttribute("aria-disabled") === "true") return;
  const position = `${view.score.number}:${view.deal}:${view.played}`;
  if (position === playedAt) return; // one card per turn: a double click sends one
  playedAt = position;
  button.classList.add("sent");
  send({ type: "play", card: button.dataset.card });
});

$("hand").addEventListener("keydown", (event) => {
  const buttons = [...$("hand").querySelectorAll(".card")];
  const index = buttons.indexOf(document.activeElement);
  if (index < 0) return;
  let next = null;
  if (event.key === "ArrowRight" || event.key === "ArrowDown") next = buttons[(index + 1) % buttons.length];
  if (event.key === "ArrowLeft" || event.key === "ArrowUp") next = buttons[(index - 1 + buttons.length) % buttons.length];
  if (event.key === "Home") next = buttons[0];
  if (event.key === "End") next = buttons[buttons.length - 1];
  if (next) {
    event.preventDefault();
    buttons.forEach((b) => { b.tabIndex = -1; });
    next.tabIndex = 0;
    next.focus();
    focusCard = next.dataset.card;
  }
});

$("summary").addEventListener("close", () => { dismissedKey = summaryKey; });

$("summary").addEventListener("cancel", (event) => {
  // Escape hides the summary for players; the next deal still needs their "ready".
  if (view && view.you !== null && view.you !== undefined) event.preventDefault();
});

mountLanguageSwitch(render);
connect();
