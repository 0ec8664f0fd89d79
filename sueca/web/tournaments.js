// /tournaments: the latest tournaments, and a form for a logged-in organiser to make one
// (POST /api/tournaments; sueca/server/tournament_routes.py).
"use strict";

const $ = (id) => document.getElementById(id);

function when(seconds) {
  return seconds ? new Date(seconds * 1000).toLocaleString(LANG) : "—";
}

async function refresh() {
  const response = await fetch("/api/tournaments");
  const body = $("list").querySelector("tbody");
  if (!response.ok) { body.innerHTML = ""; return; }
  const data = await response.json();
  body.innerHTML = data.tournaments.map((x) => `<tr>
    <td><a href="/tournaments/${x.id}">${escapeHtml(x.name)}</a></td>
    <td>${t(x.format === "knockout" ? "t_knockout" : "t_swiss")}</td><td>${x.pairs}</td>
    <td>${t(`t_status_${x.status}`)}</td><td>${when(x.start)}</td></tr>`).join("");
  $("empty").hidden = data.tournaments.length > 0;
}

async function showForm() {
  await ME_READY;
  $("create-box").hidden = !ME.account;
  $("login-first").hidden = !!ME.account;
}

$("create").addEventListener("submit", async (event) => {
  event.preventDefault();
  const duplicate = $("duplicate").value.split(/[\s,]+/).filter(Boolean).map(Number);
  const start = $("start").value ? new Date($("start").value).getTime() / 1000 : null;
  const answer = await postJson("/api/tournaments", {
    name: $("name").value, format: $("format").value, rounds: Number($("rounds").value),
    duplicate_rounds: duplicate, sets: Number($("sets").value), target: 4,
    forfeit_wait: Number($("wait").value) * 60, start, individuals: $("individuals").checked });
  if (answer.ok) { location.href = answer.data.link; return; }
  $("error").textContent = accountError(answer.data);
});

mountLanguageSwitch(() => { renderAccountLink(); refresh(); });
refresh();
showForm();
