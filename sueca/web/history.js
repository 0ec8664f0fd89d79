// Finished matches: a list, and a replay of one match trick by trick with its record to download.
"use strict";

const $ = (id) => document.getElementById(id);
const parts = location.pathname.split("/").filter(Boolean);
const MATCH_ID = parts.length > 1 ? Number(parts[1]) : null;
let matches = [];
let data = null; // {match, record, report, renuncia}
let dealIndex = 0;
let step = 0; // 0: cards dealt; k: k tricks played

// A private table's matches are shown only to its players: the page sends the seat tokens
// this browser keeps (the table page stores each as sueca.token.TABLE) in a header, never in
// the address.
function heldSeats() {
  const pairs = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key && key.startsWith("sueca.token.")) pairs.push(`${key.slice(12)}:${localStorage.getItem(key)}`);
  }
  return { "X-Sueca-Seats": pairs.slice(0, 64).join(" ") };
}

let variantFilter = "";

// The record's download goes through fetch (with the header), then a link to its blob.
async function download(id) {
  const response = await fetch(`/api/history/${id}/record.json`, { headers: heldSeats() });
  if (!response.ok) return;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = `sueca-match-${id}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("button.download");
  if (button) download(button.dataset.id);
});

// Stored names of unnamed seats are the server's ("Seat 3"): said in the page's language.
function localizeSeats(match) {
  match.storedSeats = match.storedSeats || match.seats;
  match.seats = match.storedSeats.map(seatLabel);
}

function teamNames(seats, team) {
  return seats.filter((_, i) => i % 2 === team).map(escapeHtml).join(" & ");
}

// A seat a stand-in bot played for (its person away, or out of time) is marked with the share
// of its moves the bot made: such a match was not all the person's.
function standInMark(match, seat) {
  const share = (match.stand_ins || [])[seat] || 0;
  if (share <= 0) return "";
  const n = Math.max(1, Math.round(share * 100));
  return ` <span class="badge stand-in-mark" data-seat="${seat}" title="${t("stand_in_share_help")}">${
    t("stand_in_share", { n })}</span>`;
}

function markedName(match, seat) {
  return escapeHtml(match.seats[seat]) + standInMark(match, seat);
}

function markedTeam(match, team) {
  return match.seats.map((_, i) => i).filter((i) => i % 2 === team)
    .map((i) => markedName(match, i)).join(" & ");
}

// A bidding table (five-player Italiana) scores each player: one score per seat.
function perSeat(score) { return score.length !== 2; }

function renderList() {
  if (!matches.length) {
    $("main").innerHTML = `<section class="panel"><h2>${t("finished_matches")}</h2>
      <p class="muted">${t("no_matches")}</p></section>`;
    return;
  }
  matches.forEach(localizeSeats);
  const variants = [...new Set(matches.map((m) => m.rules.variant))];
  const shown = matches.filter((m) => !variantFilter || m.rules.variant === variantFilter);
  const rows = shown.map((m) => {
    const date = new Date(m.finished * 1000).toLocaleString(LANG);
    const seatly = perSeat(m.score);
    const winner = m.winner === null ? "—"
      : seatly ? escapeHtml(m.seats[m.winner]) : teamNames(m.seats, m.winner);
    const players = seatly ? m.seats.map((_, i) => markedName(m, i)).join(", ")
      : `${markedTeam(m, 0)} <span class="muted">vs</span> ${markedTeam(m, 1)}`;
    const score = seatly ? m.score.join(" · ") : `${m.score[0]} – ${m.score[1]}`;
    const practice = m.practice ? ` <span class="badge practice">${t("practice_tag")}</span>` : "";
    return `<tr data-variant="${escapeHtml(m.rules.variant)}"><td>${date}${practice}</td><td>${players}</td>
      <td>${t(`rules_${m.rules.variant}`)}</td><td>${score}</td><td>${winner}</td>
      <td><a class="btn small" href="/history/${m.id}">${t("replay")}</a>
      <button class="btn small download" type="button" data-id="${m.id}">${t("download")}</button></td></tr>`;
  }).join("");
  const options = [`<option value="">${t("all_rules")}</option>`, ...variants.map((v) =>
    `<option value="${escapeHtml(v)}"${v === variantFilter ? " selected" : ""}>${t(`rules_${v}`)}</option>`)].join("");
  $("main").innerHTML = `<section class="panel"><h2>${t("finished_matches")}</h2>
    <label class="filter">${t("rules")} <select id="rules-filter">${options}</select></label>
    <div class="scroll-x"><table class="matches"><thead><tr><th>${t("date")}</th><th>${t("players")}</th>
    <th>${t("rules")}</th><th>${t("score")}</th><th>${t("winner")}</th><th></th></tr></thead><tbody>${rows}</tbody></table></div></section>`;
  $("rules-filter").addEventListener("change", (event) => { variantFilter = event.target.value; renderList(); });
}

function parseHand(text) { return text.split(/[\s,]+/).filter(Boolean).map((c) => c.toUpperCase()); }

function renderReplay() {
  const { match, record, report } = data;
  localizeSeats(match);
  const deal = record.deals[dealIndex];
  const result = report.deals[dealIndex];
  const tricks = result.tricks;
  step = Math.max(0, Math.min(step, tricks.length));
  const n = deal.hands.length;
  // The cards each seat has played so far, by name (two decks hold two of a name).
  const playedBy = deal.hands.map(() => new Map());
  for (const trick of tricks.slice(0, step)) {
    trick.cards.forEach((card, i) => {
      const seen = playedBy[(trick.leader + i) % n];
      seen.set(card, (seen.get(card) || 0) + 1);
    });
  }
  const positions = ["bottom", "right", "top", "left"];
  const direction = (record.rules && record.rules.direction) ||
    (record.rules.variant === "brazil" ? "clockwise" : "counterclockwise");
  if (direction === "clockwise") positions.splice(0, 4, "bottom", "left", "top", "right");
  const contract = result.contract;
  const sideOf = (seat) => {
    if (!contract) return seat % 2;
    return seat === contract.declarer || seat === contract.partner ? 0 : 1;
  };
  const seatsHtml = deal.hands.map((hand, seat) => {
    const left = new Map(playedBy[seat]);
    const cards = sortHand(parseHand(hand)).map((c) => {
      const gone = (left.get(c) || 0) > 0;
      if (gone) left.set(c, left.get(c) - 1);
      return `<span class="${gone ? "gone" : ""}" role="img" aria-label="${cardLabel(c)}">${cardSvg(c).replace('class="face"', `class="face${gone ? " gone" : ""}"`)}</span>`;
    }).join("");
    const dealer = seat === deal.dealer ? `<span class="dealer-chip" title="${t("dealer")}">D</span>` : "";
    const where = n === 4 ? `pos-${positions[seat]}` : "ring-hand";
    return `<div class="seat ${where}"><div class="plate team${sideOf(seat)}">${dealer}
      <span class="name">${escapeHtml(match.seats[seat])}</span>${standInMark(match, seat)}</div><div class="replay-hand">${cards}</div></div>`;
  }).join("");
  let trickHtml = "";
  let caption = t("deal_start");
  if (step > 0) {
    const trick = tricks[step - 1];
    trickHtml = trick.cards.map((card, i) => {
      const seat = (trick.leader + i) % n;
      if (n !== 4) {
        return `<div class="slot slot-row${seat === trick.winner ? " winner" : ""}">${cardSvg(card)}
          <span>${escapeHtml(match.seats[seat])}</span></div>`;
      }
      return `<div class="slot slot-${positions[seat]}${seat === trick.winner ? " winner" : ""}">${cardSvg(card)}</div>`;
    }).join("");
    caption = `${t("trick_n", { n: step })}: ${t("won_trick", { name: escapeHtml(match.seats[trick.winner]), p: trick.points })}`;
  }
  const done = step === tricks.length;
  const seatly = perSeat(report.match.score);
  const sheetRows = report.deals.map((d, i) => `<tr${i === dealIndex ? ' style="background:#fff6da"' : ""}>
    <td>${t("deal_n", { n: i + 1 })}</td>${seatly
    ? d.game_points.map((g) => `<td>${g || ""}</td>`).join("")
    : `<td>${d.points[0]} · <strong>${d.game_points[0] || ""}</strong></td>
    <td>${d.points[1]} · <strong>${d.game_points[1] || ""}</strong></td>`}</tr>`).join("");
  const sheetHead = seatly
    ? match.seats.map((name) => `<th>${escapeHtml(name)}</th>`).join("")
    : `<th>${t("team_a")}<span class="names">${teamNames(match.seats, 0)}</span></th>
          <th>${t("team_b")}<span class="names">${teamNames(match.seats, 1)}</span></th>`;
  const sheetTotal = seatly ? report.match.score.map((v) => `<td>${v}</td>`).join("")
    : `<td>${report.match.score[0]}</td><td>${report.match.score[1]}</td>`;
  let trumpText = deal.trump_card ? cardLabel(deal.trump_card) : (result.trump ? t(`suit_${result.trump}`) : "—");
  if (contract) {
    const partner = contract.partner === null ? t("plays_alone")
      : t("partner_is", { name: escapeHtml(match.seats[contract.partner]) });
    trumpText += ` · ${t("contract_line", { name: escapeHtml(match.seats[contract.declarer]),
      n: contract.bid || 61, card: cardLabel(contract.called_card) })} · ${partner}`;
  }
  // Deals annulled before this one (weak_hand_redeal): who asked, with what hand's points.
  for (const asked of result.redeals || []) {
    trumpText += ` · ${t("redeal_before", { name: escapeHtml(match.seats[asked.asked_by]),
      p: asked.points })}`;
  }
  // Renúncia: each cry and its outcome (the record keeps them; never shown during the play).
  const rules = record.rules || {};
  for (const found of result.denunciations || []) {
    const side = sideOf(found.seat);
    // As the table scored it (the server's renuncia: card points a game under pontos).
    const n = found.correct ? data.renuncia.penalty_scored : data.renuncia.false_penalty_scored;
    const unit = rules.scoring === "pontos" || rules.variant === "pontos" ? t("points_unit")
      : t(n === 1 ? "game_one" : "games");
    trumpText += ` · ${t(found.correct ? "denounced_correct" : "denounced_wrong", {
      name: escapeHtml(match.seats[found.seat]),
      team: teamNames(match.seats, found.correct ? side : 1 - side), n: `${n} ${unit}` })}`;
  }
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
          <span class="muted" id="deal-facts">${t("trump")}: ${trumpText}</span>
          <button class="btn small download" type="button" data-id="${match.id}">${t("download")}</button>
          ${n === 4 && !contract ? `<a class="btn small" id="review-deal" title="${t("review_deal_help")}"
            href="/review?match=${match.id}&deal=${dealIndex}&seat=0">${t("review_deal")}</a>` : ""}
        </div>
        <section class="felt replay-felt${n === 4 ? "" : " replay-ring"}" aria-label="${t("cloth")}">
          ${seatsHtml}
          <div class="trick">${trickHtml}</div>
        </section>
        <p role="status" aria-live="polite" id="caption"><strong>${caption}</strong>
          ${done ? ` — ${t("points")}: ${result.points[0]} – ${result.points[1]}` : ""}
          ${done && result.seat_points ? ` (${result.seat_points.map((p, s) => `${escapeHtml(match.seats[s])} ${p}`).join(" · ")})` : ""}</p>
      </div>
      <aside class="side"><section class="panel">
        <table class="sheet"><caption>${t("score_sheet")}</caption>
          <thead><tr><th></th>${sheetHead}</tr></thead>
          <tbody>${sheetRows}</tbody>
          <tfoot><tr><td>${t("total")}</td>${sheetTotal}</tr></tfoot>
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
    matches = (await (await fetch("/api/history", { headers: heldSeats() })).json()).matches;
    mountLanguageSwitch(renderList);
    renderList();
  } else {
    const response = await fetch(`/api/history/${MATCH_ID}`, { headers: heldSeats() });
    if (!response.ok) { $("main").textContent = t("no_matches"); return; }
    data = await response.json();
    mountLanguageSwitch(renderReplay);
    renderReplay();
  }
}

init();
