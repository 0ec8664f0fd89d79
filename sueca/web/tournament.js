// /tournaments/{id}: registration, the organiser's desk (next round, adjudicate, reseat,
// withdraw), the player's own table, each round's tables (to watch) and results, the
// standings, the downloads. Polls while the tournament runs.
"use strict";

const $ = (id) => document.getElementById(id);
const TID = location.pathname.split("/").filter(Boolean).pop();
const API = `/api/tournaments/${encodeURIComponent(TID)}`;
let DATA = null;

function resultText(table) {
  const r = table.result;
  if (!r) return table.watch ? t("t_in_play") : "—";
  const how = r.how === "played" ? "" : ` (${t(`t_how_${r.how}`)})`;
  return `${r.games[0]}–${r.games[1]} · ${escapeHtml(table.names[r.winner])}${how}`;
}

function render(data) {
  DATA = data;
  $("title").textContent = data.name;
  const format = t(data.format === "knockout" ? "t_knockout" : "t_swiss");
  const dup = data.duplicate_rounds.length
    ? ` · ${t("t_duplicate_rounds")}: ${data.duplicate_rounds.join(", ")}` : "";
  $("facts").textContent = `${format} · ${t("t_round_of", { n: data.round, m: data.rounds_planned })}` +
    ` · ${t(`t_status_${data.status}`)}${dup}` +
    (data.start ? ` · ${t("t_start")}: ${new Date(data.start * 1000).toLocaleString(LANG)}` : "");
  const you = data.you;
  $("my-table").hidden = !data.my_table;
  if (data.my_table) $("my-link").href = data.my_table.link;
  const registering = data.status === "registering";
  $("registration").hidden = !registering && data.pairs.length === 0;
  $("register-box").hidden = !registering || !you;
  $("login-first").hidden = !registering || !!you;
  $("partner-field").hidden = $("pair-name-field").hidden = data.individuals;
  $("register-button").hidden = !!(you && you.registered);
  $("unregister").hidden = !(you && (you.registered || data.waiting_for) && registering);
  // A pair named by one of its players waits for the other's word (his own registration).
  $("waiting").hidden = !data.waiting_for;
  $("waiting").textContent = data.waiting_for ? t("t_waiting_for", { name: data.waiting_for }) : "";
  $("asked").innerHTML = (you && !you.registered ? data.asked_by || [] : []).map((name, i) => `<li>
    ${escapeHtml(t("t_asked_by", { name }))}
    <button class="btn primary accept" type="button" data-i="${i}">${t("t_accept")}</button></li>`)
    .join("");
  $("asked").querySelectorAll("button").forEach((button) => button.addEventListener("click",
    () => act("register", { partner: data.asked_by[Number(button.dataset.i)] })));
  $("entries").innerHTML = data.pairs.map((p) => {
    const players = p.players.join(" & ");
    const who = p.name === players ? "" : ` (${escapeHtml(players)})`;
    return `<li>${p.pair}. ${escapeHtml(p.name)}${who}${p.withdrawn ? ` — ${t("t_withdrawn")}` : ""}</li>`;
  })
    .join("") + data.singles.map((name) => `<li>${escapeHtml(name)} (${t("t_alone")})</li>`).join("");
  $("organiser").hidden = !(you && you.organiser) || data.status === "finished";
  const names = Object.fromEntries(data.pairs.map((p) => [p.pair, p.name]));
  $("standings").querySelector("tbody").innerHTML = data.standings.map((s) => `<tr>
    <td>${s.rank}</td><td>${escapeHtml(s.name)}${s.withdrawn ? ` (${t("t_withdrawn")})` : ""}</td>
    <td>${s.match_points}</td><td>${s.game_points}</td><td>${s.card_points}</td><td>${s.played}</td></tr>`)
    .join("");
  $("download-json").href = `${API}/results.json`;
  $("download-csv").href = `${API}/results.csv`;
  $("rounds").innerHTML = data.rounds.slice().reverse().map((r) => `
    <h3>${t("t_round_n", { n: r.round })}${r.duplicate ? ` — ${t("t_duplicate")}` : ""}</h3>
    <table class="board"><thead><tr><th data-i18n="t_table">${t("t_table")}</th>
      <th>${t("t_pairs")}</th><th>${t("t_result")}</th><th></th></tr></thead><tbody>
    ${r.tables.map((x) => `<tr><td>${x.table}</td>
      <td>${x.names.map(escapeHtml).join(" — ")}</td><td>${resultText(x)}</td>
      <td>${x.watch && !x.result ? `<a href="${x.watch}">${t("watch")}</a>` : ""}</td></tr>`).join("")}
    ${r.byes.map((b) => `<tr><td>—</td><td>${escapeHtml(names[b.pair] || b.name)}</td>
      <td>${t("t_bye")}</td><td></td></tr>`).join("")}
    </tbody></table>`).join("");
}

async function refresh() {
  const response = await fetch(API);
  if (!response.ok) { $("missing").hidden = false; return; }
  render(await response.json());
}

async function act(path, body) {
  $("error").textContent = "";
  const answer = await postJson(`${API}/${path}`, body);
  if (answer.ok) render(answer.data);
  else $("error").textContent = accountError(answer.data);
}

$("register").addEventListener("submit", (event) => {
  event.preventDefault();
  act("register", DATA && DATA.individuals ? {}
    : { partner: $("partner").value, name: $("pair-name").value });
});
$("unregister").addEventListener("click", () => act("unregister", {}));
$("next-round").addEventListener("click", () => act("rounds", {}));
$("adjudicate").addEventListener("submit", (event) => {
  event.preventDefault();
  act("adjudicate", { round: Number($("adj-round").value), table: Number($("adj-table").value),
    winner: Number($("adj-winner").value) });
});
$("reseat").addEventListener("submit", (event) => {
  event.preventDefault();
  const pairs = $("reseat-pairs").value.split(/[\s,]+/).filter(Boolean).map(Number);
  act("reseat", { round: DATA ? DATA.round : 1, pairs });
});
$("withdraw").addEventListener("submit", (event) => {
  event.preventDefault();
  act("withdraw", { pair: Number($("withdraw-pair").value) });
});

mountLanguageSwitch(() => { renderAccountLink(); if (DATA) render(DATA); });
ME_READY.then(refresh);
setInterval(() => { if (!DATA || DATA.status !== "finished") refresh(); }, 5000);
