// Finished matches: a list, and a replay of one match trick by trick with its record to download.
"use strict";

const $ = (id) => document.getElementById(id);
const parts = location.pathname.split("/").filter(Boolean);
const MATCH_ID = parts.length > 1 ? Number(parts[1]) : null;
let matches = [];
let data = null; // {match, record, report}
let dealIndex = 0;
let step = 0; // 0: cards dealt; k: k tricks played

function teamNames(seats, team) {
  return seats.filter((_, i) => i % 2 === team).map(escapeHtml).join(" & ");
}

function renderList() {
  if (!matches.length) {
    $("main").innerHTML = `<section class="panel"><h2>${t("finished_matches")}</h2>
      <p class="muted">${t("no_matches")}</p></section>`;
    return;
  }
  const rows = matches.map((m) => {
    const date = new Date(m.finished * 1000).toLocaleString(LANG);
    const winner = m.winner === null ? "—" : teamNames(m.seats, m.winner);
    return `<tr><td>${date}</td><td>${teamNames(m.seats, 0)} <span class="muted">vs</span> ${teamNames(m.seats, 1)}</td>
      <td>${m.score[0]} – ${m.score[1]}</td><td>${winner}</td>
      <td><a class="btn small" href="/history/${m.id}">${t("replay")}</a>
      <a class="btn small" href="/api/history/${m.id}/record.json" download>${t("download")}</a></td></tr>`;
  }).join("");
  $("main").innerHTML = `<section class="panel"><h2>${t("finished_matches")}</h2>
    <div style="overflow-x:auto"><table class="matches"><thead><tr><th>${t("date")}</th><th>${t("players")}</th>
    <th>${t("score")}</th><th>${t("winner")}</th><th></th></tr></thead><tbody>${rows}</tbody></table></div></section>`;
}

function parseHand(text) { return text.split(/[\s,]+/).filter(Boolean).map((c) => c.toUpperCase()); }

function renderReplay() {
  const { match, record, report } = data;
  const deal = record.deals[dealIndex];
  const result = report.deals[dealIndex];
  const tricks = result.tricks;
  step = Math.max(0, Math.min(step, tricks.length));
  const played = new Set(tricks.slice(0, step).flatMap((tr) => tr.cards));
  const positions = ["bottom", "right", "top", "left"];
  const direction = (record.rules && record.rules.direction) ||
    (record.rules.variant === "brazil" ? "clockwise" : "counterclockwise");
  if (direction === "clockwise") positions.splice(0, 4, "bottom", "left", "top", "right");
  const seatsHtml = deal.hands.map((hand, seat) => {
    const cards = sortHand(parseHand(hand)).map((c) =>
      `<span class="${played.has(c) ? "gone" : ""}" role="img" aria-label="${cardLabel(c)}">${cardSvg(c).replace('class="face"', `class="face${played.has(c) ? " gone" : ""}"`)}</span>`).join("");
    const dealer = seat === deal.dealer ? `<span class="dealer-chip" title="${t("dealer")}">D</span>` : "";
    return `<div class="seat pos-${positions[seat]}"><div class="plate team${seat % 2}">${dealer}
      <span class="name">${escapeHtml(match.seats[seat])}</span></div><div class="replay-hand">${cards}</div></div>`;
  }).join("");
  let trickHtml = "";
  let caption = t("deal_start");
  if (step > 0) {
    const trick = tricks[step - 1];
    trickHtml = trick.cards.map((card, i) => {
      const seat = (trick.leader + i) % 4;
      return `<div class="slot slot-${positions[seat]}${seat === trick.winner ? " winner" : ""}">${cardSvg(card)}</div>`;
    }).join("");
    caption = `${t("trick_n", { n: step })}: ${t("won_trick", { name: escapeHtml(match.seats[trick.winner]), p: trick.points })}`;
  }
  const done = step === tricks.length;
  const sheetRows = report.deals.map((d, i) => `<tr${i === dealIndex ? ' style="background:#fff6da"' : ""}>
    <td>${t("deal_n", { n: i + 1 })}</td><td>${d.points[0]} · <strong>${d.game_points[0] || ""}</strong></td>
    <td>${d.points[1]} · <strong>${d.game_points[1] || ""}</strong></td></tr>`).join("");
  const dealOptions = record.deals.map((_, i) =>
    `<option value="${i}"${i === dealIndex ? " selected" : ""}>${t("deal_n", { n: i + 1 })}</option>`).join("");
  $("main").innerHTML = `<p><a href="/history">← ${t("back_to_list")}</a></p>
    <div class="replay-layout">
      <div class="play-area">
        <div class="replay-controls">
          <label class="visually-hidden" for="deal-select">${t("deal_n", { n: "" })}</label>
          <select id="deal-select">${dealOptions}</select>
          <button class="btn small" id="first" type="button">${t("start")}</button>
          <button class="btn small" id="prev" type="button">← ${t("previous")}</button>
          <button class="btn small primary" id="next" type="button">${t("next")} →</button>
          <span class="muted">${t("trump")}: ${cardLabel(deal.trump_card)}</span>
          <a class="btn small" href="/api/history/${match.id}/record.json" download>${t("download")}</a>
        </div>
        <section class="felt replay-felt" aria-label="${t("cloth")}">
          ${seatsHtml}
          <div class="trick">${trickHtml}</div>
        </section>
        <p role="status" aria-live="polite" id="caption"><strong>${caption}</strong>
          ${done ? ` — ${t("points")}: ${result.points[0]} – ${result.points[1]}` : ""}</p>
      </div>
      <aside class="side"><section class="panel">
        <table class="sheet"><caption>${t("score_sheet")}</caption>
          <thead><tr><th></th><th>${t("team_a")}<span class="names">${teamNames(match.seats, 0)}</span></th>
          <th>${t("team_b")}<span class="names">${teamNames(match.seats, 1)}</span></th></tr></thead>
          <tbody>${sheetRows}</tbody>
          <tfoot><tr><td>${t("total")}</td><td>${report.match.score[0]}</td><td>${report.match.score[1]}</td></tr></tfoot>
        </table>
      </section></aside>
    </div>`;
  $("deal-select").addEventListener("change", (e) => { dealIndex = Number(e.target.value); step = 0; renderReplay(); });
  $("first").addEventListener("click", () => { step = 0; renderReplay(); });
  $("prev").addEventListener("click", () => move(-1));
  $("next").addEventListener("click", () => move(1));
}

function move(delta) {
  const tricks = data.report.deals[dealIndex].tricks.length;
  if (delta > 0 && step === tricks && dealIndex < data.record.deals.length - 1) {
    dealIndex += 1; step = 0;
  } else if (delta < 0 && step === 0 && dealIndex > 0) {
    dealIndex -= 1; step = data.report.deals[dealIndex].tricks.length;
  } else {
    step += delta;
  }
  renderReplay();
  $(delta > 0 ? "next" : "prev").focus();
}

document.addEventListener("keydown", (event) => {
  if (!data || event.target.tagName === "SELECT") return;
  if (event.key === "ArrowRight") move(1);
  if (event.key === "ArrowLeft") move(-1);
});

async function init() {
  if (MATCH_ID === null) {
    matches = (await (await fetch("/api/history")).json()).matches;
    mountLanguageSwitch(renderList);
    renderList();
  } else {
    const response = await fetch(`/api/history/${MATCH_ID}`);
    if (!response.ok) { $("main").textContent = t("no_matches"); return; }
    data = await response.json();
    mountLanguageSwitch(renderReplay);
    renderReplay();
  }
}

init();
