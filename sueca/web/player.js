// /players/NAME: a player's matches played and won, partners, card points per deal, capotes
// and bandeiras, the rating over time (an SVG the server draws), the last matches to replay.
"use strict";

const NAME = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
let profile = null;

function render() {
  const root = document.getElementById("profile");
  if (!profile) {
    root.innerHTML = `<p>${t("no_player")}</p>`;
    return;
  }
  const p = profile;
  const ratings = Object.entries(p.ratings).map(([kind, r]) =>
    `<li>${t(`kind_${kind}`)}: <strong class="rating" data-kind="${kind}">${fmt(r.rating, 1)}</strong>
      <span class="muted">(${t("matches")}: ${r.matches})</span></li>`).join("");
  const partners = p.partners.map((x) => `<li>${escapeHtml(seatLabel(x.name))} · ${x.matches}</li>`).join("");
  const last = p.last.map((m) => `<tr><td>${new Date(m.finished * 1000).toLocaleDateString(LANG)}</td>
    <td>${m.seats.map((s) => escapeHtml(seatLabel(s))).join(", ")}</td>
    <td>${m.won ? t("won_short") : t("lost_short")}</td>
    <td><a href="${m.replay}">${t("replay")}</a></td></tr>`).join("");
  root.innerHTML = `<h1>${escapeHtml(p.name)}</h1>
    <dl class="stats">
      <dt>${t("played")}</dt><dd id="played">${p.played}</dd>
      <dt>${t("won")}</dt><dd id="won">${p.won}</dd>
      <dt>${t("card_points_per_deal")}</dt><dd>${fmt(p.card_points_per_deal, 1)}</dd>
      <dt>${t("capotes")}</dt><dd>${p.capotes}</dd>
      <dt>${t("bandeiras")}</dt><dd>${p.bandeiras}</dd>
    </dl>
    <h2>${t("rating")}</h2><ul id="ratings">${ratings}</ul>
    <h2>${t("rating_over_time")}</h2>
    <img id="rating-plot" alt="${t("rating_over_time")}" width="480" height="160"
      src="/api/players/${encodeURIComponent(p.name)}/rating.svg?kind=four">
    <h2>${t("partners")}</h2><ul>${partners}</ul>
    <h2>${t("last_matches")}</h2><table class="board"><tbody>${last}</tbody></table>`;
}

async function load() {
  const response = await fetch(`/api/players/${encodeURIComponent(NAME)}`);
  profile = response.ok ? await response.json() : null;
  render();
}

mountLanguageSwitch(() => { renderAccountLink(); render(); });

load();
