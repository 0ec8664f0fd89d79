// The lobby's quick play (sueca/server/quickplay.py): queue for a match to 4 with anyone, alone
// or with a partner who queues naming you, bots after a chosen wait; friends' invitations to
// a table, and inviting a friend by name to a seat of a table just made.
"use strict";

let quickTimer = null;

function quickEl(id) { return document.getElementById(id); }

async function quickPoll() {
  const response = await fetch("/api/quickplay");
  if (!response.ok) return;
  const data = await response.json();
  if (data.state === "seated") {
    location.href = data.link;
    return;
  }
  const waiting = data.state === "waiting";
  quickEl("quick-join").hidden = waiting;
  quickEl("quick-leave").hidden = !waiting;
  quickEl("quick-status").textContent = waiting
    ? t("waiting_queue", { n: data.waited, m: data.waiting }) : "";
  clearTimeout(quickTimer);
  if (waiting) quickTimer = setTimeout(quickPoll, 1500);
}

async function loadFriendInvites() {
  const response = await fetch("/api/invitations");
  if (!response.ok) return;
  const list = (await response.json()).invitations;
  quickEl("friend-invites").hidden = list.length === 0;
  quickEl("friend-invite-list").innerHTML = list.map((i) => `<li>${t("invite_from", { name: escapeHtml(i.from) })}
    <a class="btn small" href="${escapeHtml(i.link)}">${t("open_invite")}</a></li>`).join("");
}

// A seat's row in the lobby's invitations (lobby.js): a friend's name and a button.
function friendInvite(tableId, seat) {
  if (!ME.account || !seat.link) return "";
  const token = seat.link.split("#")[1];
  return `<input type="text" class="friend-name" maxlength="24" aria-label="${t("friend_name")}"
      placeholder="${t("friend_name")}">
    <button class="btn small invite-friend" type="button" data-table="${escapeHtml(tableId)}"
      data-token="${escapeHtml(token)}">${t("invite_friend")}</button><span class="muted invite-sent"></span>`;
}

document.addEventListener("click", async (event) => {
  const button = event.target.closest(".invite-friend");
  if (!button) return;
  const row = button.closest(".invite");
  const friend = row.querySelector(".friend-name").value;
  const answer = await postJson("/api/invitations",
    { friend, table: button.dataset.table, token: button.dataset.token });
  row.querySelector(".invite-sent").textContent = answer.ok
    ? t("invited", { name: answer.data.invited }) : accountError(answer.data);
});

quickEl("quick-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const partner = quickEl("quick-partner").value.trim();
  const bots = quickEl("quick-bots").value;
  const answer = await postJson("/api/quickplay",
    { partner: partner || null, bots_after: bots ? Number(bots) : null });
  if (!answer.ok) {
    quickEl("quick-status").textContent = accountError(answer.data);
    return;
  }
  quickPoll();
});

quickEl("quick-leave").addEventListener("click", async () => {
  await postJson("/api/quickplay/leave");
  quickPoll();
});

ME_READY.then(() => {
  const logged = Boolean(ME.account);
  quickEl("quick-form").hidden = !logged;
  quickEl("quick-guest").hidden = logged;
  if (!logged) return;
  quickPoll();
  loadFriendInvites();
  setInterval(loadFriendInvites, 15000);
});
