// /leaderboard: the ratings (OpenSkill's mu - 3 sigma) per table kind, all time or this month,
// of those with a minimum number of rated matches; the bots' own ladder apart.
"use strict";

const $ = (id) => document.getElementById(id);

async function refresh() {
  const kind = $("kind").value;
  const params = new URLSearchParams({
    kind: kind === "bots" ? "four" : kind, ladder: kind === "bots" ? "bots" : "people",
    period: $("period").value, min: String(Math.max(1, Number($("min").value) || 1)) });
  const response = await fetch(`/api/leaderboard?${params}`);
  const body = $("board").querySelector("tbody");
  if (!response.ok) { body.innerHTML = ""; return; }
  const data = await response.json();
  body.innerHTML = data.players.map((p, i) => {
    const who = data.ladder === "people"
      ? `<a href="/players/${encodeURIComponent(p.player)}">${escapeHtml(p.player)}</a>`
      : escapeHtml(p.player);
    return `<tr><td>${i + 1}</td><td>${who}</td><td>${fmt(p.rating, 1)}</td><td>${p.matches}</td></tr>`;
  }).join("");
  $("empty").hidden = data.players.length > 0;
}

for (const id of ["kind", "period", "min"]) $(id).addEventListener("change", refresh);
$("filters").addEventListener("submit", (event) => { event.preventDefault(); refresh(); });
mountLanguageSwitch(() => { renderAccountLink(); refresh(); });

refresh();
