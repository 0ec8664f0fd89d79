// A deal's review (docs/review.md): started on the server (a worker process), its progress
// polled, then the graph, each card the seat played with its label, and the position on the
// cloth with the card played and the best card marked. The server computes everything; this
// page only draws what it is sent.
"use strict";

// The review page's own words (the shared ones are in i18n.js).
Object.assign(STRINGS["pt-PT"], {
  rv_err_bad_request: "o pedido não é válido", rv_err_no_table: "esta mesa não existe, ou ainda não tem partida", rv_err_no_match: "esta partida não existe", rv_err_no_review: "esta análise não existe", rv_err_not_reviewable: "esta mão não pode ser analisada agora", rv_err_rate_limited: "pediu análises demais: tente daqui a um minuto", rv_err_busy: "o servidor está ocupado: tente daqui a pouco", rv_err_other: "erro inesperado",
  rv_title: "Análise · Mão {deal} · {seat}", rv_waiting: "Na fila…",
  rv_running: "A analisar: {done} de {total} cartas", rv_failed: "A análise falhou: {why}",
  rv_seat: "Analisar o lugar", rv_trick: "Vaza", rv_card: "Carta", rv_best: "Melhor",
  rv_expected: "Esperado", rv_lost: "Perdido", rv_label: "Nota", rv_why: "Porquê",
  rv_dd: "Com as mãos à vista: {played} (melhor {best}: {cards})",
  rv_note: "Esperado: os pontos finais do seu lado depois da carta, pelo que o lugar sabia na altura (mãos sorteadas e resolvidas). A linha tracejada e «mãos à vista» são a análise com todas as cartas à vista: nunca dão nota a uma carta.",
  rv_total: "Pontos perdidos ao todo: {n}", rv_before: "Antes da carta {n} da mão",
  rv_back: "Voltar",
  rv_label_inaccuracy: "imprecisão", rv_label_mistake: "erro", rv_label_blunder: "erro grave",
});
Object.assign(STRINGS["pt-BR"], {
  rv_err_bad_request: "o pedido não é válido", rv_err_no_table: "esta mesa não existe, ou ainda não tem partida", rv_err_no_match: "esta partida não existe", rv_err_no_review: "esta análise não existe", rv_err_not_reviewable: "esta mão não pode ser analisada agora", rv_err_rate_limited: "você pediu análises demais: tente de novo em um minuto", rv_err_busy: "o servidor está ocupado: tente de novo daqui a pouco", rv_err_other: "erro inesperado",
  rv_title: "Análise · Mão {deal} · {seat}", rv_waiting: "Na fila…",
  rv_running: "Analisando: {done} de {total} cartas", rv_failed: "A análise falhou: {why}",
  rv_seat: "Analisar o lugar", rv_trick: "Vaza", rv_card: "Carta", rv_best: "Melhor",
  rv_expected: "Esperado", rv_lost: "Perdido", rv_label: "Nota", rv_why: "Por quê",
  rv_dd: "Com as mãos à vista: {played} (melhor {best}: {cards})",
  rv_note: "Esperado: os pontos finais do seu lado depois da carta, pelo que o lugar sabia naquele momento (mãos sorteadas e resolvidas). A linha tracejada e \"mãos à vista\" são a análise com todas as cartas à vista: nunca dão nota a uma carta.",
  rv_total: "Pontos perdidos no total: {n}", rv_before: "Antes da carta {n} da mão",
  rv_back: "Voltar",
  rv_label_inaccuracy: "imprecisão", rv_label_mistake: "erro", rv_label_blunder: "erro grave",
});
Object.assign(STRINGS.en, {
  rv_err_bad_request: "the request is not valid", rv_err_no_table: "no such table, or no match at it yet", rv_err_no_match: "no such match", rv_err_no_review: "no such review", rv_err_not_reviewable: "this deal cannot be reviewed now", rv_err_rate_limited: "too many reviews asked for: try again in a minute", rv_err_busy: "the server is busy: try again shortly", rv_err_other: "unexpected error",
  rv_title: "Review · Deal {deal} · {seat}", rv_waiting: "Waiting in line…",
  rv_running: "Reviewing: {done} of {total} cards", rv_failed: "The review failed: {why}",
  rv_seat: "Review the seat", rv_trick: "Trick", rv_card: "Card", rv_best: "Best",
  rv_expected: "Expected", rv_lost: "Lost", rv_label: "Label", rv_why: "Why",
  rv_dd: "Every hand known: {played} (best {best}: {cards})",
  rv_note: "Expected: your side's final points after the card, from what the seat knew then (worlds sampled and solved). The dashed line and \"every hand known\" are the double-dummy view: never used to label a card.",
  rv_total: "Points lost in all: {n}", rv_before: "Before card {n} of the deal",
  rv_back: "Back",
  rv_label_inaccuracy: "inaccuracy", rv_label_mistake: "mistake", rv_label_blunder: "blunder",
});

const $ = (id) => document.getElementById(id);
const query = new URLSearchParams(location.search);
const asked = {
  match: query.has("match") ? Number(query.get("match")) : null,
  table: query.get("table"),
  deal: Number(query.get("deal") || 0),
  seat: Number(query.get("seat") || 0),
};
let job = null; // the server's answer: {match, deal, seat, status, done, total, review, svg}
let selected = null; // the reviewed card shown on the cloth (its index in the deal)
let timer = null;

const SEATS = ["bottom", "right", "top", "left"];

function seatName(seat) {
  const names = job && job.names;
  return names && names[seat] ? seatLabel(names[seat]) : t("seat_n", { n: seat + 1 });
}

// A private table's finished matches are its players' only: the page sends the seat tokens
// this browser keeps, in a header (as the History page does), never in the address.
function heldSeats() {
  const pairs = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key && key.startsWith("sueca.token.")) pairs.push(`${key.slice(12)}:${localStorage.getItem(key)}`);
  }
  return { "X-Sueca-Seats": pairs.slice(0, 64).join(" ") };
}

async function start() {
  clearTimeout(timer);
  const body = { deal: asked.deal, seat: asked.seat };
  if (asked.match !== null) body.match = asked.match; else body.table = asked.table;
  const response = await fetch(`/api/reviews?lang=${encodeURIComponent(LANG)}`, {
    method: "POST", headers: { "Content-Type": "application/json", ...heldSeats() },
    body: JSON.stringify(body) });
  const answer = await response.json();
  if (!response.ok) { renderError(answer.error, answer.message); return; }
  job = answer;
  asked.match = job.match;
  follow();
}

async function poll() {
  const response = await fetch(
    `/api/reviews/${job.match}/${job.deal}/${job.seat}?lang=${encodeURIComponent(LANG)}`,
    { headers: heldSeats() });
  if (response.status === 404) { start(); return; }
  job = await response.json();
  follow();
}

function follow() {
  if (job.status === "done") { render(); return; }
  if (job.status === "failed") { renderError(null, job.error); return; }
  renderProgress();
  timer = setTimeout(poll, 400);
}

// The server's reason is English: a page in another language says the code in its own words.
const ERROR_WORDS = { too_large: "bad_request", malformed: "bad_request", no_table: "no_table",
  no_match: "no_match", no_review: "no_review", not_reviewable: "not_reviewable",
  rate_limited: "rate_limited", busy: "busy", storage_unavailable: "busy" };

function errorWords(code, message) {
  if (LANG === "en" && message) return message; // the server's own, more precise, words
  return t(`rv_err_${ERROR_WORDS[code] || "other"}`);
}

function renderError(code, message) {
  $("main").innerHTML = `<section class="panel"><p role="alert">${escapeHtml(t("rv_failed", { why: errorWords(code, message) }))}</p>
    <p><a class="btn" href="/history">${t("rv_back")}</a></p></section>`;
}

function renderProgress() {
  const text = job.status === "queued" ? t("rv_waiting") : t("rv_running", { done: job.done, total: job.total });
  $("main").innerHTML = `<section class="panel"><h2>${escapeHtml(t("rv_title", { deal: asked.deal + 1, seat: seatName(asked.seat) }))}</h2>
    <progress class="review-progress" id="review-progress" max="${job.total || 10}" value="${job.done || 0}"></progress>
    <p role="status" aria-live="polite" id="review-status">${escapeHtml(text)}</p></section>`;
}

// A card as the reasons write it (the terminal's notation: A♣, 7♥), its name for screen readers.
const SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
function short(card) {
  return `<span aria-label="${cardLabel(card)}">${escapeHtml(card[0] + SYMBOLS[card[1]])}</span>`;
}

function labelText(label) { return label ? t(`rv_label_${label}`) : ""; }

function render() {
  const review = job.review;
  if (selected === null || !review.cards.some((c) => c.index === selected)) {
    const worst = review.cards.reduce((a, c) => (c.lost > a.lost ? c : a), review.cards[0]);
    selected = worst ? worst.index : null;
  }
  const rows = review.cards.map((c) => `<tr class="card-row${c.index === selected ? " selected" : ""}" data-index="${c.index}" tabindex="0">
      <td>${c.trick}</td><td>${short(c.card)}</td><td>${c.best === c.card ? "" : short(c.best)}</td>
      <td>${c.expected.toFixed(1)}</td><td>${c.lost ? c.lost.toFixed(1) : ""}</td>
      <td class="label-${c.label || "none"}">${labelText(c.label)}</td></tr>`).join("");
  const seats = [0, 1, 2, 3].map((s) => `<option value="${s}"${s === asked.seat ? " selected" : ""}>${escapeHtml(seatName(s))}</option>`).join("");
  $("main").innerHTML = `<p><a href="${asked.match !== null ? `/history/${asked.match}` : "/history"}">← ${t("rv_back")}</a></p>
    <h2>${escapeHtml(t("rv_title", { deal: asked.deal + 1, seat: seatName(asked.seat) }))}</h2>
    <p><label>${t("rv_seat")} <select id="seat-select">${seats}</select></label></p>
    <div id="graph">${job.svg}</div>
    <p class="muted">${t("rv_note")}</p>
    <div class="review-layout">
      <div id="position"></div>
      <section class="panel"><table class="review-cards"><thead><tr><th>${t("rv_trick")}</th><th>${t("rv_card")}</th>
        <th>${t("rv_best")}</th><th>${t("rv_expected")}</th><th>${t("rv_lost")}</th><th>${t("rv_label")}</th></tr></thead>
        <tbody>${rows}</tbody></table>
        <p><strong>${t("rv_total", { n: review.lost.toFixed(1) })}</strong></p>
        <div id="detail"></div></section>
    </div>`;
  for (const row of document.querySelectorAll(".card-row")) {
    row.addEventListener("click", () => select(Number(row.dataset.index)));
    row.addEventListener("keydown", (e) => { if (e.key === "Enter") select(Number(row.dataset.index)); });
  }
  for (const dot of document.querySelectorAll("#graph .card-point")) {
    dot.addEventListener("click", () => select(Number(dot.getAttribute("data-index"))));
  }
  $("seat-select").addEventListener("change", (e) => {
    asked.seat = Number(e.target.value); selected = null; start();
  });
  renderPosition();
}

function select(index) {
  selected = index;
  for (const row of document.querySelectorAll(".card-row")) {
    row.classList.toggle("selected", Number(row.dataset.index) === index);
  }
  renderPosition();
}

// The cloth before the selected card: each hand's cards still held, the trick so far, the
// card played (red) and the best card (green) marked in the seat's hand.
function renderPosition() {
  const review = job.review;
  const card = review.cards.find((c) => c.index === selected);
  if (!card) { $("position").innerHTML = ""; $("detail").innerHTML = ""; return; }
  const played = new Set(review.plays.slice(0, card.index));
  const start = card.index - (card.index % review.players);
  const trick = review.plays.slice(start, card.index);
  const hands = review.hands.map((hand, seat) => {
    const cards = sortHand(hand.filter((c) => !played.has(c))).map((c) => {
      const marks = [c === card.card && seat === review.seat ? "played" : "",
        c === card.best && seat === review.seat ? "best" : ""].filter(Boolean).join(" ");
      return `<span class="${marks}" role="img" aria-label="${cardLabel(c)}"${marks ? ` data-mark="${marks}"` : ""}>${cardSvg(c)}</span>`;
    }).join("");
    const where = SEATS[(seat - review.seat + 4) % 4];
    return `<div class="seat pos-${where}"><div class="plate team${seat % 2}">
      <span class="name">${escapeHtml(seatName(seat))}</span></div><div class="replay-hand">${cards}</div></div>`;
  }).join("");
  const slots = trick.map((c, i) => {
    const seat = review.played_by[start + i];
    return `<div class="slot slot-${SEATS[(seat - review.seat + 4) % 4]}">${cardSvg(c)}</div>`;
  }).join("");
  $("position").innerHTML = `<p class="muted">${t("rv_before", { n: card.index + 1 })}</p>
    <section class="felt replay-felt" aria-label="${t("cloth")}">${hands}<div class="trick">${slots}</div></section>`;
  const dd = card.double_dummy;
  $("detail").innerHTML = `<h3>${t("rv_trick")} ${card.trick}: ${short(card.card)}${card.best !== card.card ? ` → ${short(card.best)}` : ""}
      <span class="label-${card.label || "none"}">${labelText(card.label)}</span></h3>
    <p id="reason">${t("rv_why")}: ${escapeHtml(card.reason)}</p>
    <p class="dd-line">${t("rv_dd", { played: dd.played, best: dd.best, cards: dd.best_cards.map(short).join(" ") })}</p>`;
}

mountLanguageSwitch(() => { if (job && job.status === "done") poll(); });
start();
