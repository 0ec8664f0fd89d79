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
    playedAt = null; // a new socket: whatever was clicked before is pending or gone, never a lock
    const token = localStorage.getItem(TOKEN_KEY);
    if (token) send({ type: "join", token });
    else flushPending();
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
  if (!socket || socket.readyState !== WebSocket.OPEN) return false;
  socket.send(JSON.stringify(message));
  return true;
}

// A move (card, bid, call, redeal answer, cry) waits here until the server answers it: a new
// view (another version) or an error. Sent on a dead socket, or lost with one, it goes again
// once the seat is joined on a new socket, but only if the table is still at the version it
// was chosen at (the server has not seen it then); if the table moved on meanwhile (a stand-in
// played), it is dropped and the player is told.
let pending = null; // { message, version, sent }

function act(message) {
  pending = { message, version: view ? view.version : null, sent: send(message) };
  if (!pending.sent) showToast(t("queued_offline"));
}

function flushPending() {
  if (!pending) return;
  if (view && view.version === pending.version) {
    pending.sent = send(pending.message);
  } else {
    pending = null;
    playedAt = null;
    showToast(t("not_sent_moved_on"));
    if (view) render();
  }
}

function setConnection(text) { $("conn").textContent = text; }

function onMessage(message) {
  if (message.type === "state") {
    if (pending && pending.sent && message.view.version !== pending.version) pending = null;
    view = message.view;
    viewAt = performance.now();
    render();
  } else if (message.type === "joined") {
    flushPending();
    askName(message.seat);
  } else if (message.type === "error") {
    pending = null; // refused: said below; the hand is live again
    if (playedAt !== null) { playedAt = null; if (view) renderHand(); }
    if (message.code === "bad_token") localStorage.removeItem(TOKEN_KEY);
    if (message.code === "no_spectators") {
      // A duplicate round's table: a seated player's join is on its way; anyone else is told.
      if (!localStorage.getItem(TOKEN_KEY)) $("status").textContent = t("err_no_spectators");
      return;
    }
    if (message.code === "no_table") {
      $("status").textContent = t("no_table");
      setConnection("");
      return;
    }
    const key = `err_${message.code}`;
    // A refused bid names the range allowed now (the view knows it; the message is English).
    const auction = view && view.auction;
    const params = { min: auction && auction.min_bid ? auction.min_bid : "", max: 120 };
    if (message.code === "bad_bid" && auction && !auction.min_bid) showToast(t("only_pass"));
    else showToast(t(key) === key ? message.message : t(key, params));
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
function seated() { return view.you !== null && view.you !== undefined; }
function seatCount() { return view.seats.length; }
// Four seats sit at the four sides of the cloth; 5, 6 or 8 sit round it (a ring).
function ring() { return seatCount() !== 4; }

function position(seat) {
  // Play passes to the right in Portugal (counter-clockwise): the next seat is on your right.
  const k = (seat - viewer() + 4) % 4;
  const order = view.direction === "clockwise"
    ? ["bottom", "left", "top", "right"] : ["bottom", "right", "top", "left"];
  return order[k];
}

// A ring seat's direction from the cloth's centre: you at the bottom, the next seat to play
// on your right (counter-clockwise) or left (clockwise), as at a real table.
function ringAngle(seat) {
  const n = seatCount();
  const k = (seat - viewer() + n) % n;
  const turn = (2 * Math.PI * k) / n;
  return Math.PI / 2 + (view.direction === "clockwise" ? turn : -turn);
}

// The ring's centre lies a little below the cloth's: the top band keeps the corners (trump,
// tricks) clear of the plates.
const RING = { cy: 54, rx: 41, ry: 37 };
// The trick's cards lie on a smaller ring, inside the plates (so no card hides a plate).
const NARROW = matchMedia("(max-width: 600px)"); // the stylesheet's phone layout
NARROW.addEventListener("change", () => { if (view) render(); });
// The shorter cloth of a phone's auction (style.css .auction-stage): the plates nearer the middle.
const RING_AUCTION_NARROW = [33, 52];
const TRICK_RING = 0.45;
const TRICK_RING_NARROW = 0.4; // a phone's plates take more of the cloth

function ringPlace(seat, rx, ry, cy = 50) {
  const a = ringAngle(seat);
  return { x: 50 + rx * Math.cos(a), y: cy + ry * Math.sin(a) };
}

function seatName(seat) {
  const info = view.seats[seat];
  if (info.kind === "dummy" && !info.named) return t("dummy");
  return info.named || info.kind === "bot" ? info.name : t("seat_n", { n: seat + 1 });
}

// "Vez de Vasco" but "Vez do Lugar 4": an unnamed seat takes the article in Portuguese.
function turnOf(seat) {
  const info = view.seats[seat];
  if (info.named || info.kind === "bot" || info.kind === "dummy") {
    return t("turn_of", { name: seatName(seat) });
  }
  return t("turn_of_seat", { n: seat + 1 });
}

// A seat's side as this viewer knows it: 0/1, or null (a bidding table's secret partner).
function sideOf(seat) {
  if (view.sides) return view.sides[seat];
  return view.seats[seat].team;
}

function mySide() { return seated() ? sideOf(view.you) : null; }

function teamLabel(team) {
  if (view.bidding) return team === 0 ? t("declarer_side") : t("defenders");
  const mine = mySide();
  if (mine === null || mine === undefined) return team === 0 ? t("team_a") : t("team_b");
  return team === mine ? t("us") : t("them");
}

function teamsInOrder() {
  const mine = view.bidding ? 0 : (mySide() ?? 0);
  return [mine, 1 - mine];
}

// ---- drawing ----

function render() {
  if (!view) return;
  applyStrings();
  renderGather();
  renderSeats();
  renderCorners();
  renderTrick();
  renderAuction();
  renderRenuncia();
  renderHand();
  renderStatus();
  renderHint();
  renderSound();
  renderScore();
  renderFacts();
  renderPast();
  renderSummary();
}

function renderSeats() {
  $("felt").classList.toggle("ring-table", ring());
  // No trick is on the cloth while bidding or calling: a phone's ring can then be shorter,
  // so that the auction box and the hand fit below it.
  const auction = view.phase === "playing" && ["bidding", "calling", "redeal"].includes(view.stage);
  $("felt").classList.toggle("auction-stage", auction);
  const ringBox = $("ring");
  if (ring()) {
    for (const side of ["top", "left", "right", "bottom"]) $(`pos-${side}`).innerHTML = "";
    const [ry, cy] = auction && NARROW.matches ? RING_AUCTION_NARROW : [RING.ry, RING.cy];
    ringBox.innerHTML = view.seats.map((seat) => {
      const { x: across, y } = ringPlace(seat.seat, RING.rx, ry, cy);
      const x = Math.min(Math.max(across, 14), 86); // a plate must not hang off the cloth
      return `<div class="seat ring-seat" id="ring-${seat.seat}" style="left:${x.toFixed(1)}%;top:${y.toFixed(1)}%"></div>`;
    }).join("");
  } else {
    ringBox.innerHTML = "";
  }
  for (const seat of view.seats) {
    const box = ring() ? $(`ring-${seat.seat}`) : $(`pos-${position(seat.seat)}`);
    const isMe = seat.seat === view.you;
    const badges = [];
    if (seat.status === "away") badges.push(`<span class="badge away">${t("status_away")}</span>`);
    if (seat.status === "stand_in") badges.push(`<span class="badge away">${t("status_stand_in")}</span>`);
    if (seat.status === "waiting") badges.push(`<span class="badge waiting">${t("status_waiting")}</span>`);
    if (seat.stand_in_in !== null && seat.stand_in_in !== undefined) {
      badges.push(`<span class="badge waiting" title="${t("stand_in_soon")}"><span class="countdown" data-seat="${
        seat.seat}">${clock(secondsLeft(seat))}</span></span>`);
    }
    if (seat.kind === "bot") {
      const level = seat.level_name ? `<span class="level-name"> · ${t(`level_${seat.level_name}`)}</span>` : "";
      badges.push(`<span class="badge" title="${seat.level_name ? t(`level_${seat.level_name}_help`) : ""}">${t("status_bot")}${level}</span>`);
    }
    if (seat.kind === "dummy" && seat.named) badges.push(`<span class="badge">${t("dummy")}</span>`);
    badges.push(...auctionBadges(seat.seat));
    if (view.turn && view.turn.seat === seat.seat) {
      // The turn timer: a ring that empties as the seconds go; at 0 the stand-in moves.
      badges.push(`<span class="turn-ring" role="timer" data-seat="${seat.seat}" title="${t("turn_timer_help")}"
        aria-label="${t("turn_timer", { n: turnLeft() })}"><span class="turn-left">${turnLeft()}</span></span>`);
    }
    const dealer = seat.seat === view.dealer
      ? `<span class="dealer-chip" title="${t("dealer")}" aria-label="${t("dealer")}">D</span>` : "";
    const turn = view.phase === "playing" && view.to_play === seat.seat;
    const name = escapeHtml(seatName(seat.seat)) + (isMe ? ` (${t("you")})` : "");
    const side = sideOf(seat.seat);
    const sideClass = side === 0 || side === 1 ? `team${side}` : "team-unknown";
    // The side in words too, not by colour alone (colour-blind players, the eight-seat ring).
    const tag = !view.bidding && (side === 0 || side === 1)
      ? `<span class="side-tag">${teamLabel(side)}</span>` : "";
    let html = `<div class="plate ${sideClass}${turn ? " turn" : ""}" data-seat="${seat.seat}"
      aria-current="${turn ? "true" : "false"}">${dealer}<span class="name">${name}</span>${tag}${badges.join("")}</div>`;
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
      if (hidden > 0 && ring()) {
        // Round a ring there is no room for a fan of backs: a count says as much.
        cards += `<div class="back-count" role="img" aria-label="${t("cards_count", { n: hidden })}">${
          cardBackSvg()}<span>${hidden}</span></div>`;
      } else if (hidden > 0) {
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
  drawTurnRings();
}

// At a bidding table: each seat's bid during the auction, the declarer's mark, and the card
// points each player has taken (each keeps his own tricks).
function auctionBadges(seat) {
  if (!view.bidding || !view.auction) return [];
  const out = [];
  const a = view.auction;
  const declarer = a.contract ? a.contract.declarer : a.declarer;
  if (seat === declarer) {
    out.push(`<span class="badge declarer">${t("declarer")}</span>`);
  } else if (view.stage === "bidding") {
    const index = a.order.indexOf(seat);
    if (index < a.bids.length) {
      const bid = a.bids[index];
      out.push(`<span class="badge bid">${bid ? bid : t("pass")}</span>`);
    }
  }
  if (view.stage === "play" || view.stage === "over") {
    out.push(`<span class="badge pts" title="${t("points")}">${view.seat_points[seat]} ${t("pts")}</span>`);
  }
  return out;
}

function renderCorners() {
  if (!view.trump) {
    $("trump-corner").innerHTML = "";
    $("tricks-corner").innerHTML = "";
    return;
  }
  $("trump-corner").innerHTML = `${t("trump")} <span class="suit-badge">${suitSymbolSvg(view.trump, 18)}</span>
    <span class="visually-hidden">${t(`suit_${view.trump}`)}</span>`;
  const [a, b] = teamsInOrder();
  let text = `${t("tricks")}: ${teamLabel(a)} ${view.tricks_won[a]} · ${teamLabel(b)} ${view.tricks_won[b]}`;
  if (!view.score_per_seat) {
    // The match too, so that a phone shows it while playing (the sheet is below the hand).
    text += `<br><span class="corner-score">${t("score")}: ${teamLabel(a)} ${view.score.match[a]} · ${teamLabel(b)} ${view.score.match[b]}</span>`;
  }
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
  const peekable = lastTaken();
  const peeking = peekUntil > performance.now() && peekable;
  if (peeking) {
    // The player asked to see the trick just taken again: shown for a moment.
    cards = peekable.cards;
    leader = peekable.leader;
    winner = peekable.winner;
  } else if (trick.cards.length) {
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
      // Then it slides to its winner, and all is rendered again (the end-of-deal summary
      // waits for the last trick to be gathered).
      gatherTimer = setTimeout(() => {
        slideToWinner(view.last_trick && view.last_trick.winner);
        gatherTimer = setTimeout(() => { gathered = true; if (view) render(); }, SLIDE_MS);
      }, GATHER_MS - SLIDE_MS);
    }
    if (!gathered) {
      cards = view.last_trick.cards;
      leader = view.last_trick.leader;
      winner = view.last_trick.winner;
    }
  }
  box.classList.toggle("peeking", Boolean(peeking));
  if (gathered || cards !== (view.last_trick && view.last_trick.cards)) box.classList.remove("to-winner");
  const peek = $("peek-button");
  peek.hidden = !(peekable && view.phase === "playing" && (trick.cards.length || gathered));
  peek.setAttribute("aria-pressed", peeking ? "true" : "false");
  box.setAttribute("aria-label", peeking ? `${t("cloth")} · ${t("last_trick")}` : t("cloth"));
  const n = seatCount();
  box.innerHTML = cards.map((card, i) => {
    const seat = (leader + i) % n;
    let cls = `slot${seat === winner ? " winner" : ""}${peeking ? " peek" : ""}`;
    let style = "";
    if (ring()) {
      const inner = NARROW.matches ? TRICK_RING_NARROW : TRICK_RING;
      const { x, y } = ringPlace(seat, RING.rx * inner, RING.ry * inner, RING.cy);
      style = ` style="left:${x.toFixed(1)}%;top:${y.toFixed(1)}%"`;
      cls += " slot-ring";
    } else {
      cls += ` slot-${position(seat)}`;
    }
    return `<div class="${cls}"${style} role="img" aria-label="${escapeHtml(seatName(seat))}: ${cardLabel(card)}">${cardSvg(card)}</div>`;
  }).join("");
}

const SLIDE_MS = 300;

// The trick moves off towards the seat that took it (a short animation; none where people ask
// for reduced motion, as the stylesheet says).
function slideToWinner(winner) {
  const box = $("trick");
  if (winner === null || winner === undefined || !view) return;
  let dx = 0;
  let dy = 0;
  if (ring()) {
    const a = ringAngle(winner);
    dx = Math.cos(a) * 120;
    dy = Math.sin(a) * 120;
  } else {
    const where = position(winner);
    dx = where === "left" ? -140 : where === "right" ? 140 : 0;
    dy = where === "top" ? -120 : where === "bottom" ? 120 : 0;
  }
  box.style.setProperty("--gx", `${dx.toFixed(0)}%`);
  box.style.setProperty("--gy", `${dy.toFixed(0)}%`);
  box.classList.add("to-winner");
}

function renderHand() {
  const hand = $("hand");
  const cards = sortHand(view.hand || []);
  const legal = new Set(view.legal || []);
  // At a renúncia table the rest of the hand may be played too (a revoke: told to nobody).
  const revokes = new Set(view.revokes || []);
  const mine = myCardTurn();
  hand.classList.toggle("mine", mine);
  // A partner playing the dummy plays from the dummy's hand, shown among the known cards.
  const playing = view.acting_for !== null && view.acting_for !== view.you
    ? sortHand(view.known[view.acting_for]) : cards;
  const active = document.activeElement && document.activeElement.dataset
    ? document.activeElement.dataset.card : null;
  if (active) focusCard = active;
  hand.classList.toggle("many", playing.length > 10);
  hand.style.setProperty("--hand-n", Math.max(playing.length, 1));
  hand.innerHTML = playing.map((card) => {
    const ok = mine && legal.has(card);
    const revoke = mine && !ok && revokes.has(card);
    const trumpMark = view.trump_held && view.you === view.dealer && card === view.trump_card;
    const label = cardLabel(card) + (trumpMark ? ` — ${t("turned_card")}` : "")
      + (ok || !mine ? "" : ` — ${revoke ? t("revoke_card") : whyNot()}`);
    return `<button type="button" class="card${ok ? " playable" : ""}${revoke ? " revoke" : ""}${
      trumpMark ? " trump-mark" : ""}" data-card="${card}" aria-label="${label}"
      aria-disabled="${ok || revoke ? "false" : "true"}" tabindex="-1">${cardSvg(card)}${
      trumpMark ? `<span class="trump-ribbon" aria-hidden="true">${t("trump")}</span>` : ""}</button>`;
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

// Whether a card of this viewer's is due now (not a bid or a call).
function myCardTurn() {
  return view.phase === "playing" && seated() && view.actor === view.you
    && (view.stage === undefined || view.stage === "play");
}

// ---- a practice table: the strongest bot's card and why, on request (practice.py) ----

let hintKey = null; // the position the hint shown is for

function renderHint() {
  let line = $("hint-line");
  const wanted = Boolean(view.practice) && myCardTurn();
  if (!line) {
    if (!wanted) return;
    line = document.createElement("div");
    line.id = "hint-line";
    line.className = "panel auction hint-panel"; // with the hand, as the other panels there
    line.innerHTML = `<button class="btn small" id="hint-button" type="button"></button>
      <span id="hint-text" role="status" aria-live="polite"></span>`;
    $("hand").before(line);
    $("hint-button").addEventListener("click", askHint);
  }
  line.hidden = !wanted;
  $("hint-button").textContent = t("hint_ask");
  if (hintKey !== `${view.deal}:${(view.hand || []).length}`) $("hint-text").textContent = "";
}

async function askHint() {
  const button = $("hint-button");
  button.disabled = true;
  const key = `${view.deal}:${(view.hand || []).length}`;
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(TABLE_ID)}/hint?lang=${encodeURIComponent(LANG)}`, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token: localStorage.getItem(TOKEN_KEY) || "" }) });
    const answer = await response.json();
    hintKey = key;
    $("hint-text").textContent = response.ok
      ? t("hint_text", { card: answer.card[0] + ({ S: "♠", H: "♥", D: "♦", C: "♣" })[answer.card[1]], reason: answer.reason })
      : answer.message;
  } finally {
    button.disabled = false;
  }
}

// ---- the auction (five-player Italiana): bids, the called card, the contract ----

let auctionKey = null; // the controls are rebuilt only when the auction moves on

function renderAuction() {
  const panel = $("auction");
  if (view.redeals !== undefined) { renderRedeal(panel); return; } // never at a bidding table
  const a = view.bidding ? view.auction : null;
  if (!a || view.phase !== "playing" && !a.contract) {
    panel.hidden = true;
    panel.innerHTML = "";
    auctionKey = null;
    return;
  }
  panel.hidden = false;
  const bids = a.order.map((seat, i) => {
    let value = "…";
    if (i < a.bids.length) value = a.bids[i] ? String(a.bids[i]) : t("pass");
    else if (seat !== a.to_bid) value = "";
    const now = seat === a.to_bid ? ' class="now"' : "";
    return `<li${now}><span class="who">${escapeHtml(seatName(seat))}</span> <strong>${value}</strong></li>`;
  }).join("");
  let banner = "";
  if (a.contract) {
    const c = a.contract;
    const partnerKnown = view.sides && !view.sides.includes(null);
    let partner = t("partner_secret");
    if (partnerKnown) {
      const mates = view.sides.map((side, seat) => (side === 0 && seat !== c.declarer ? seat : null))
        .filter((seat) => seat !== null);
      partner = mates.length ? t("partner_is", { name: escapeHtml(seatName(mates[0])) }) : t("plays_alone");
    }
    banner = `<p class="contract" id="contract">${t("contract_line", {
      name: escapeHtml(seatName(c.declarer)), n: c.target, card: cardLabel(c.called_card) })}
      · ${t("trump")}: ${t(`suit_${c.called_card[1]}`)} · ${partner}</p>`;
  }
  const mine = view.phase === "playing" && seated() && view.actor === view.you;
  const key = `${view.score.number}:${view.deal}:${view.stage}:${a.bids.length}:${mine}:${LANG}`;
  if (key !== auctionKey) {
    auctionKey = key;
    $("toast").hidden = true; // a refusal of the last step must not lie over the next one
    let controls = "";
    if (mine && view.stage === "bidding") {
      const low = a.min_bid;
      controls = `<div class="bid-controls" role="group" aria-label="${t("your_bid")}">
        ${low ? `<label>${t("your_bid")} <input type="number" id="bid-input" min="${low}" max="${a.max_bid}"
          step="1" value="${low}" inputmode="numeric"></label>
          <button class="btn primary" type="button" id="bid-button">${t("bid")}</button>` : ""}
        <button class="btn" type="button" id="pass-button">${t("pass")}</button>
        <span class="muted" id="bid-range">${low ? t("bid_range", { min: low, max: a.max_bid }) : t("only_pass")}</span>
        </div>`;
    } else if (mine && view.stage === "calling") {
      const rows = [..."SHCD"].map((suit) => `<div class="call-row">${[..."A7KJQ65432"].map((rank) =>
        `<button type="button" class="call-card" data-call="${rank}${suit}" aria-label="${cardLabel(rank + suit)}">${
          rankLabel(rank)}${suitSymbolSvg(suit, 14)}</button>`).join("")}</div>`).join("");
      controls = `<div class="call-picker" role="group" aria-labelledby="call-title">
        <p id="call-title"><strong>${t("call_card")}</strong> <span class="muted">${t("call_help")}</span></p>
        <div class="call-rows">${rows}</div></div>`;
    }
    panel.innerHTML = `<h2 class="visually-hidden">${t("auction")}</h2>
      <ol class="bids" id="bids" aria-label="${t("auction")}" aria-live="polite"></ol><div id="auction-banner"></div>
      <div id="auction-controls">${controls}</div>`;
    const input = $("bid-input");
    if (input) input.focus();
    else panel.querySelector(".call-card")?.focus();
  }
  $("bids").innerHTML = bids;
  $("auction-banner").innerHTML = banner;
}

// ---- the redeal on a weak hand (weak_hand_redeal, Brazil): keep, or ask for a new deal ----

let redealKey = null; // the panel is rebuilt only when the question or the news changes

function renderRedeal(panel) {
  const asked = view.redeals || [];
  const mine = view.phase === "playing" && seated() && view.actor === view.you
    && view.stage === "redeal" && view.redeal;
  // Who asked before this deal: news until the first card of the new deal is down.
  const news = view.phase === "playing" && view.played === 0 ? asked : [];
  if (!mine && !news.length) {
    panel.hidden = true;
    panel.innerHTML = "";
    redealKey = null;
    return;
  }
  // Rebuilt for each question: the dummy's partner answers twice (his hand, the dummy's).
  const answers = (view.redeal_answers || []).length;
  const key = `${view.score.number}:${view.deal}:${news.length}:${mine}:${answers}:${view.acting_for}:${LANG}`;
  if (key === redealKey) return;
  redealKey = key;
  panel.hidden = false;
  let html = news.map((seat) => `<p class="contract">${t("redeal_asked", {
    name: escapeHtml(seatName(seat)), dealer: escapeHtml(seatName(view.dealer)) })}</p>`).join("");
  if (mine) {
    // Every person is asked, weak hand or not (who waits must tell nobody anything): a hand
    // that may only keep gets the ask button disabled, and only its own view says why.
    const r = view.redeal;
    const dummy = view.acting_for !== view.you ? "_dummy" : "";
    const reason = t(`${r.may_ask ? "redeal_prompt" : "redeal_only_keep"}${dummy}`,
      { p: r.points, limit: r.limit });
    html += `<p id="redeal-reason">${reason}</p>
      <div class="bid-controls" role="group" aria-label="${t("your_redeal_turn")}">
      <button class="btn" type="button" id="keep-button">${t("redeal_keep")}</button>
      <button class="btn primary" type="button" id="redeal-button" aria-describedby="redeal-reason"${
        r.may_ask ? "" : " disabled"}>${
        t("redeal_ask")}</button></div>`;
  }
  panel.innerHTML = html;
  $("keep-button")?.focus();
}

// ---- renúncia (renuncia): the button, and every denunciation with its outcome ----

let renunciaKey = null; // the panel is rebuilt only when what it shows changes

// A penalty as it is scored, in the table's unit: games, or card points at a pontos table
// (the view's penalty_scored: there a game of penalty is a quarter of the points in play).
function penaltyText(n) {
  if (view.scoring === "pontos") return `${n} ${t("points_unit")}`;
  return gamesText(n);
}

// "1 jogo", "4 jogos": the plural where the number asks for it.
function gamesText(n) { return `${n} ${t(n === 1 ? "game_one" : "games")}`; }

function denunciationText(found) {
  const side = sideOf(found.seat);
  const name = escapeHtml(seatName(found.seat));
  return found.correct
    ? t("denounced_correct", { name, team: teamLabel(side), n: penaltyText(view.renuncia.penalty_scored) })
    : t("denounced_wrong", { name, team: teamLabel(1 - side), n: penaltyText(view.renuncia.false_penalty_scored) });
}

function renderRenuncia() {
  const panel = $("renuncia-panel");
  const found = (view.renuncia && view.denunciations) || [];
  // Until the next deal starts; between deals the button is in the deal's summary.
  const can = Boolean(view.renuncia && seated() && view.may_denounce && view.phase === "playing");
  if (!found.length && !can) {
    panel.hidden = true;
    panel.innerHTML = "";
    renunciaKey = null;
    return;
  }
  const key = JSON.stringify([view.score.number, view.deal, found, can, LANG]);
  if (key === renunciaKey) return;
  renunciaKey = key;
  panel.hidden = false;
  panel.innerHTML = found.map((d) => `<p class="contract denunciation">${denunciationText(d)}</p>`).join("")
    + (can ? `<div class="bid-controls">${denounceButton("denounce-button")}
        <span class="muted" id="denounce-help">${t("denounce_help")}</span></div>` : "");
}

function denounceButton(id) {
  return `<button class="btn denounce" type="button" id="${id}" title="${t("denounce_help")}">${
    t("denounce")}</button>`;
}

$("renuncia-panel").addEventListener("click", (event) => {
  const target = event.target.closest("button");
  if (target && target.id === "denounce-button") {
    target.disabled = true; // one cry per click: the next view says what became of it
    send({ type: "denounce" });
  }
});

function sendBid(value) {
  act({ type: "bid", value });
}

$("auction").addEventListener("click", (event) => {
  const target = event.target.closest("button");
  if (!target) return;
  if (target.id === "pass-button") sendBid(0);
  if (target.id === "bid-button") {
    const value = Number($("bid-input").value);
    if (Number.isInteger(value)) sendBid(value);
  }
  if (target.dataset.call) act({ type: "call", card: target.dataset.call });
  if (target.id === "keep-button") act({ type: "redeal", ask: false });
  if (target.id === "redeal-button") act({ type: "redeal", ask: true });
});

$("auction").addEventListener("keydown", (event) => {
  if (event.target.id === "bid-input" && event.key === "Enter") {
    event.preventDefault();
    $("bid-button").click();
  }
});

// Sound (off unless the player turns it on; the choice is kept): a short chime when it
// becomes this player's turn. Web Audio: nothing is fetched.
let wasMine = false;
let audio = null;
const SOUND_KEY = "sueca.sound";

function soundOn() { return localStorage.getItem(SOUND_KEY) === "on"; }

function chime() {
  if (!soundOn()) return;
  try {
    audio = audio || new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.12, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.25);
  } catch { /* no audio here */ }
}

function renderSound() {
  const button = $("sound-button");
  button.setAttribute("aria-pressed", soundOn() ? "true" : "false");
  button.textContent = t(soundOn() ? "sound_on" : "sound_off");
}

$("sound-button").addEventListener("click", () => {
  localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on");
  renderSound();
  if (soundOn()) chime();
});

function renderStatus() {
  // A live region: change its text only when the news changes, so it is announced once.
  const status = $("status");
  let text = "";
  const mine = view.phase === "playing" && seated() && view.actor === view.you;
  if (view.gathering) {
    text = t("status_gathering"); // nobody can play before the first deal
  } else if (view.phase === "playing" && view.stage === "bidding") {
    text = mine ? t("your_bid_turn") : t("bid_turn_of", { name: seatName(view.to_play) });
  } else if (view.phase === "playing" && view.stage === "redeal") {
    text = mine ? t("your_redeal_turn") : t("redeal_turn_of", { name: seatName(view.actor) });
  } else if (view.phase === "playing" && view.stage === "calling") {
    text = mine ? t("your_call_turn") : t("call_turn_of", { name: seatName(view.to_play) });
  } else if (view.phase === "playing") {
    text = mine ? t("your_turn") : turnOf(view.to_play);
  }
  if (status.textContent !== text) status.textContent = text;
  // The line is on the cloth unless it would lie over someone's cards there (a spectator
  // sees every seat's cards; a phone's ring has no free corner): then just below the cloth.
  const below = !seated() || (ring() && NARROW.matches);
  const home = below ? $("hand-area") : $("felt");
  if (status.parentElement !== home) home.prepend(status);
  status.classList.toggle("below", below);
  if (mine && !wasMine) chime();
  wasMine = mine;
  $("felt").classList.toggle("spectating", !seated());
  $("hand-area").classList.toggle("spectating", !seated()); // no hand: no room kept for one
  status.classList.toggle("mine", mine);
}

function renderSeatScore() {
  // Five-player Italiana: each player scores for himself. A row per player, so that every
  // name is whole in the side panel; the deals run across (scrolled when many).
  const deals = view.score.deals;
  const head = deals.map((_, i) => `<th scope="col" title="${t("deal_n", { n: i + 1 })}">${i + 1}</th>`).join("");
  const rows = view.seats.map((s) => `<tr><th scope="row">${escapeHtml(seatName(s.seat))}</th>${
    deals.map((points) => `<td>${points[s.seat] || ""}</td>`).join("")}<td class="total" data-seat="${s.seat}">${
    view.score.match[s.seat]}</td></tr>`).join("");
  $("score-panel").innerHTML = `<div class="sheet-scroll"><table class="sheet per-seat" id="score-sheet">
    <caption>${t("score_sheet")} · ${t("match_n", { n: view.score.number })}</caption>
    <thead><tr><th scope="col"><span class="visually-hidden">${t("players")}</span></th>${head}<th scope="col">${t("total")}</th></tr></thead>
    <tbody>${rows}</tbody></table></div>
    <p class="muted">${t("target", { n: gamesText(view.match_target) })} · ${t("each_player")}</p>`;
}

// The matches each side has won at this table across rematches, and the score-sheet lore of
// the match to 4 games: a gato (the losers never scored), a chapéu (they scored one).
function setsTally(a, b) {
  const sets = view.sets;
  if (!sets || !sets.won.some((n) => n)) return "";
  const marks = view.scoring === "games" && view.match_target === 4
    ? sets.last.map((r) => {
      const lost = r.score[1 - r.winner];
      return lost === 0 ? t("gato", { team: teamLabel(r.winner) })
        : lost === 1 ? t("chapeu", { team: teamLabel(r.winner) }) : "";
    }).filter(Boolean) : [];
  return `<p class="sets" id="sets-tally"><strong>${t("sets_won")}</strong>: ${teamLabel(a)} <span data-team="us">${
    sets.won[a]}</span> · ${teamLabel(b)} <span data-team="them">${sets.won[b]}</span>${
    marks.length ? `<br><span class="muted">${marks.join(" · ")}</span>` : ""}</p>`;
}

function renderScore() {
  if (view.score_per_seat) { renderSeatScore(); return; }
  const [a, b] = teamsInOrder();
  const names = (team) => view.seats.filter((s) => sideOf(s.seat) === team)
    .map((s) => escapeHtml(seatName(s.seat))).join(" & ");
  const rows = view.score.deals.map((points, i) =>
    `<tr><td>${t("deal_n", { n: i + 1 })}</td><td>${points[a] || ""}</td><td>${points[b] || ""}</td></tr>`).join("");
  const target = view.scoring === "pontos" ? `${view.match_target} ${t("points_unit")}` : gamesText(view.match_target);
  $("score-panel").innerHTML = `<table class="sheet" id="score-sheet" data-us="${view.score.match[a]}" data-them="${view.score.match[b]}">
    <caption>${t("score_sheet")} · ${t("match_n", { n: view.score.number })}</caption>
    <thead><tr><th scope="col"><span class="visually-hidden">${t("deal_n", { n: "" })}</span></th>
      <th scope="col">${teamLabel(a)}<span class="names">${names(a)}</span></th>
      <th scope="col">${teamLabel(b)}<span class="names">${names(b)}</span></th></tr></thead>
    <tbody>${rows}</tbody>
    <tfoot><tr><td>${t("total")}</td><td data-team="us">${view.score.match[a]}</td><td data-team="them">${view.score.match[b]}</td></tr></tfoot>
  </table>
  <p class="muted">${t("target", { n: target })}</p>${setsTally(a, b)}`;
}

function renderFacts() {
  const variant = view.rules.variant;
  const dealNumber = view.deal === undefined ? "" : view.deal + 1;
  $("facts-panel").innerHTML = `<dl class="facts">
    <dt>${t("rules")}</dt><dd>${t(`rules_${variant}`)}</dd>
    <dt>${t("deal_n", { n: "" }).trim()}</dt><dd>${dealNumber}</dd>
    <dt>${t("dealer")}</dt><dd>${view.dealer === undefined ? "" : escapeHtml(seatName(view.dealer))}</dd>
    <dt>${t("trump")}</dt><dd>${view.trump_card ? cardLabel(view.trump_card)
      : view.trump ? t(`suit_${view.trump}`) : "—"}</dd>
    <dt>${t("tricks")}</dt><dd>${view.seat_tricks ? view.seat_tricks.map(
      (n, seat) => `${escapeHtml(seatName(seat))} ${n}`).join(" · ") : view.tricks_won ? teamsInOrder().map(
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

// The finished match's rating change (sueca/server/ratings.py): each rated seat's rating
// before and after, or why the match is not rated.
function ratingChange(rating) {
  if (!rating.rated) {
    return `<p class="muted" id="rating-change">${t("unrated", { reason: t(`unrated_${rating.reason_code}`) })}</p>`;
  }
  const lines = rating.changes.map((c) => {
    const delta = c.after - c.before;
    return `<li>${escapeHtml(seatName(c.seat))}: ${c.before.toFixed(1)} → <strong>${c.after.toFixed(1)}</strong>
      (${delta >= 0 ? "+" : ""}${delta.toFixed(1)})</li>`;
  }).join("");
  return `<div id="rating-change"><h3>${t("rating_change")}</h3><ul>${lines}</ul></div>`;
}

function renderSummary() {
  const dialog = $("summary");
  if (view.phase === "playing" || !view.summary) {
    summaryKey = null;
    if (dialog.open) dialog.close();
    return;
  }
  // The deal's last trick stays on the cloth as long as any other before the summary covers
  // it (the gather timer renders again when it is gathered).
  if (!gathered && !dialog.open) return;
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
    if (view.score_per_seat) {
      headline = `<p class="big"><strong>${winner === null ? ""
        : t("player_won", { name: escapeHtml(seatName(winner)) })}</strong></p>`;
    } else {
      headline = seated
        ? `<p class="big"><strong>${winner === sideOf(view.you) ? t("we_won") : t("they_won")}</strong></p>`
        : `<p><strong>${t("team_won", { team: teamLabel(winner) })}</strong></p>`;
    }
    if (seated) {
      action = ready ? `<span class="muted">${t("waiting_others")}</span>`
        : `<button class="btn primary" id="rematch" type="button">${t("rematch")}</button>`;
    }
    action += ` <a class="btn" href="/history">${t("history")}</a>`;
    if (view.rating) headline += ratingChange(view.rating);
  } else if (seated) {
    action = ready ? `<span class="muted">${t("waiting_others")}</span>`
      : `<button class="btn primary" id="next-deal" type="button">${t("next_deal")}</button>`;
  }
  // The review of the deal just played (review.js): only where the solver plays the table,
  // and only a deal played to its last card (the server refuses any other).
  if (view.players === 4 && !view.bidding && (s.revoked_by === null || s.revoked_by === undefined)) {
    const seat = seated ? view.you : 0;
    action += ` <a class="btn" id="review-deal" target="_blank" rel="noopener" title="${t("review_deal_help")}"
      href="/review?table=${encodeURIComponent(TABLE_ID)}&deal=${view.deal}&seat=${seat}">${t("review_deal")}</a>`;
  }
  if (view.renuncia) {
    // The renúncia's outcome and its penalties (they are in the game points), and until the
    // next deal starts the cry itself: never in the match-over dialog (a won match stands).
    if (s.revoked_by !== null && s.revoked_by !== undefined) {
      headline += `<p class="denunciation"><strong>${t("summary_revoke", {
        team: teamLabel(1 - s.revoked_by), n: penaltyText(view.renuncia.penalty_scored) })}</strong></p>`;
    }
    (s.false_denunciations || []).forEach((count, side) => {
      if (count) {
        headline += `<p class="denunciation">${t("summary_false", {
          team: teamLabel(1 - side), n: penaltyText(count * view.renuncia.false_penalty_scored) })}</p>`;
      }
    });
    if (seated && view.may_denounce && view.phase === "deal_over") {
      action = `${denounceButton("denounce-summary")} ${action}`;
    }
  }
  const hands = s.hands.map((cards, seat) => `<div><div class="who">${escapeHtml(seatName(seat))}
    <span class="muted">· ${teamLabel(sideOf(seat))}</span></div>
    <div class="mini-hand">${sortHand(cards).map((c) => `<span role="img" aria-label="${cardLabel(c)}">${cardSvg(c)}</span>`).join("")}</div></div>`).join("");
  let result = `<div class="result-grid" id="deal-result">
      <span></span><span class="head">${teamLabel(a)}</span><span class="head">${teamLabel(b)}</span>
      <span>${t("points")}</span><span class="big">${s.points[a]}</span><span class="big">${s.points[b]}</span>
      <span>${t("tricks")}</span><span>${s.tricks[a]}</span><span>${s.tricks[b]}</span>
      <span>${t("game_points")}</span><span>${s.game_points[a]}</span><span>${s.game_points[b]}</span>
      <span>${t("total")}</span><span><strong>${view.score.match[a]}</strong></span><span><strong>${view.score.match[b]}</strong></span>
    </div>`;
  if (view.score_per_seat) {
    // Italiana: the contract made or not, then each player's points and games.
    const c = view.auction && view.auction.contract;
    if (c) {
      headline += `<p><strong>${t(s.made ? "contract_made" : "contract_failed", {
        name: escapeHtml(seatName(c.declarer)), n: c.target })}</strong>
        <span class="muted">(${t("sides_points", { a: s.points[0], b: s.points[1] })})</span></p>`;
    }
    result = `<div class="result-grid per-seat" id="deal-result">
      <span></span><span class="head">${t("points")}</span><span class="head">${t("game_points")}</span><span class="head">${t("total")}</span>
      ${view.seats.map((seat) => `<span>${escapeHtml(seatName(seat.seat))} <small class="muted">${teamLabel(sideOf(seat.seat))}</small></span>
        <span class="big">${view.seat_points[seat.seat]}</span><span>${s.game_points[seat.seat]}</span>
        <span><strong>${view.score.match[seat.seat]}</strong></span>`).join("")}</div>`;
  }
  dialog.innerHTML = `<h2 id="summary-title">${title} · ${t("deal_n", { n: view.deal + 1 })}</h2>
    ${headline}
    ${result}
    <h3>${t("hands")}</h3><div class="hands-grid">${hands}</div>
    <div class="dialog-actions">${action}</div>`;
  const next = dialog.querySelector("#next-deal");
  if (next) next.addEventListener("click", () => send({ type: "next" }));
  const rematch = dialog.querySelector("#rematch");
  if (rematch) rematch.addEventListener("click", () => send({ type: "rematch" }));
  const denounce = dialog.querySelector("#denounce-summary");
  if (denounce) {
    denounce.addEventListener("click", () => { denounce.disabled = true; send({ type: "denounce" }); });
  }
  if (!dialog.open) {
    dialog.showModal();
    // The button is at the foot of a dialog taller than a phone: focused without scrolling
    // to it, so the dialog opens at its title.
    (next || rematch || dialog.querySelector("a,button"))?.focus({ preventScroll: true });
    dialog.scrollTop = 0;
  }
  summaryKey = key;
}

// ---- gathering the players: invitations, the wait for a missing person, names ----

let viewAt = 0; // when the view arrived: the countdowns count down from the server's seconds
let gatherKey = null;
let invitesOpen = false; // the folded invitations, as the host last left them

function secondsLeft(seat) {
  return Math.max(0, Math.ceil(seat.stand_in_in - (performance.now() - viewAt) / 1000));
}

// The seconds left on the turn timer (the server's figure, counted down since the view came).
function turnLeft() {
  if (!view || !view.turn) return 0;
  return Math.max(0, Math.ceil(view.turn.left - (performance.now() - viewAt) / 1000));
}

function drawTurnRings() {
  for (const ring of document.querySelectorAll(".turn-ring")) {
    if (!view.turn) continue;
    const left = Math.max(0, view.turn.left - (performance.now() - viewAt) / 1000);
    ring.style.setProperty("--turn-share", String(left / view.turn.seconds));
    ring.classList.toggle("late", left <= Math.min(5, view.turn.seconds / 4));
    const text = ring.querySelector(".turn-left");
    if (text) text.textContent = String(turnLeft());
    ring.setAttribute("aria-label", t("turn_timer", { n: turnLeft() }));
  }
}

setInterval(() => { if (view) drawTurnRings(); }, 250);

function clock(seconds) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

function inviteUrl(token) {
  return `${location.origin}/t/${encodeURIComponent(TABLE_ID)}#${token}`;
}

// What the table waits for: the invited players (the host hands out each free seat's link
// and may start with bots), and for any missing person the time until a bot stands in.
function renderGather() {
  const panel = $("gather-panel");
  const host = seated() && view.you === view.host;
  const invites = host ? view.invites || [] : [];
  const missing = view.seats.filter((s) => s.stand_in_in !== null && s.stand_in_in !== undefined);
  if (!invites.length && !missing.length && !view.gathering) {
    panel.hidden = true;
    panel.innerHTML = "";
    gatherKey = null;
    return;
  }
  const key = JSON.stringify([invites, missing.map((s) => [s.seat, s.status, s.name]),
    view.gathering, host, LANG]);
  if (key !== gatherKey) {
    gatherKey = key;
    const canShare = typeof navigator.share === "function";
    let html = view.gathering ? `<p><strong>${t(host ? "gathering_host" : "gathering")}</strong></p>` : "";
    html += missing.map((s) => `<p class="muted wait-line">${t(s.status === "waiting" ? "stand_in_waiting" : "stand_in_away", {
      name: escapeHtml(seatName(s.seat)) })} <strong class="countdown" data-seat="${s.seat}">${clock(secondsLeft(s))}</strong>${
      host ? ` <button class="btn small stand-in" type="button" data-seat="${s.seat}">${t("bot_now")}</button>` : ""}</p>`).join("");
    if (invites.length) {
      const list = `<p class="muted">${t("invite_help")}</p><div class="invites">${
        invites.map((inv) => `<div class="invite" data-seat="${inv.seat}"><span>${escapeHtml(seatName(inv.seat))}</span>
          <input type="text" readonly value="${escapeHtml(inviteUrl(inv.token))}" aria-label="${t("seat_n", { n: inv.seat + 1 })}">
          <span class="invite-actions"><button class="btn small copy" type="button">${t("copy")}</button>${
            canShare ? ` <button class="btn small share" type="button">${t("share")}</button>` : ""}</span></div>`).join("")}</div>`;
      // Once the cards are dealt the links fold into one button: a free seat's friend may
      // still come, but the hand and the sheet come first.
      html += view.gathering ? `<h2>${t("invitations")}</h2>${list}`
        : `<details class="invites-fold"${invitesOpen ? " open" : ""}><summary class="btn small">${
          t("invitations")} (${invites.length})</summary>${list}</details>`;
    }
    if (host && view.gathering) {
      html += `<div class="bid-controls"><button class="btn primary" type="button" id="start-with-bots">${
        t("start_with_bots")}</button><span class="muted">${t("start_with_bots_help")}</span></div>`;
    }
    panel.innerHTML = html;
    panel.hidden = false;
  }
}

// Every second: the countdowns to a stand-in, wherever they are shown.
setInterval(() => {
  if (!view) return;
  for (const el of document.querySelectorAll(".countdown")) {
    const seat = view.seats[Number(el.dataset.seat)];
    if (seat && seat.stand_in_in !== null && seat.stand_in_in !== undefined) el.textContent = clock(secondsLeft(seat));
  }
}, 1000);

$("gather-panel").addEventListener("toggle", (event) => {
  if (event.target.classList.contains("invites-fold")) invitesOpen = event.target.open;
}, true); // (a toggle does not bubble)

$("gather-panel").addEventListener("click", async (event) => {
  const button = event.target.closest("button");
  if (!button) return;
  if (button.id === "start-with-bots") { send({ type: "stand_in" }); return; }
  if (button.classList.contains("stand-in")) { send({ type: "stand_in", seat: Number(button.dataset.seat) }); return; }
  const row = button.closest(".invite");
  if (!row) return;
  const url = row.querySelector("input").value;
  if (button.classList.contains("share")) {
    try { await navigator.share({ title: "Sueca", text: t("share_text"), url }); } catch { /* dismissed */ }
    return;
  }
  try {
    await navigator.clipboard.writeText(url);
  } catch {
    row.querySelector("input").select(); // no clipboard (plain http): selected, to copy by hand
  }
  button.textContent = t("copied");
});

// An invited friend's seat has no name: ask for one (remembered in this browser, and sent
// at once the next time).
const NAME_KEY = "sueca.name";

function askName(seat) {
  const info = view && view.seats[seat];
  if (!info || info.kind !== "human" || info.named) return;
  const remembered = (localStorage.getItem(NAME_KEY) || "").trim();
  if (remembered) { send({ type: "name", name: remembered }); return; }
  $("name-form").hidden = false;
  $("name-input").focus();
}

$("name-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const name = $("name-input").value.trim().replace(/\s+/g, " ");
  if (!name) return;
  localStorage.setItem(NAME_KEY, name);
  send({ type: "name", name });
  $("name-form").hidden = true;
});

// ---- input: click, tap or keyboard ----

let playedAt = null; // the view version a card was sent at (cleared by a new socket or an error)

let peekUntil = 0;

// The trick just taken, where the rules let this player look at it again: until the next card
// is led (the view's last_trick: it is still on the cloth, never at a no_looking_back table),
// and at a review_tricks table at any time (the last of past_tricks).
function lastTaken() {
  if (view.last_trick) return view.last_trick;
  const past = view.past_tricks || [];
  return past.length && view.phase === "playing" ? past[past.length - 1] : null;
}

const PEEK_MS = 2500;
$("peek-button").addEventListener("click", () => {
  peekUntil = performance.now() + PEEK_MS;
  renderTrick();
  setTimeout(() => { if (view) renderTrick(); }, PEEK_MS + 20);
});

// Why a dimmed card may not be played, in the page's language (the view's restriction: the
// suit led that must be followed, or the trump that must be played).
function whyNot() {
  const r = view.restriction;
  if (!r) return t("unplayable");
  return t(r.code === "must_follow" ? "why_follow" : "why_trump", { suit: t(`suit_${r.suit}`) });
}

$("hand").addEventListener("click", (event) => {
  const button = event.target.closest(".card");
  if (!button) return;
  if (button.getAttribute("aria-disabled") === "true") {
    // Say why nothing happens: not this player's turn, or the rule that holds the card back.
    if (seated() && view.phase === "playing") showToast(myCardTurn() ? whyNot() : t("err_not_your_turn"));
    return;
  }
  if (view.version === playedAt) return; // one card per turn: a double click sends one
  playedAt = view.version;
  button.classList.add("sent");
  act({ type: "play", card: button.dataset.card });
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
