// /login: log in; once logged in, the account's page: log out, change the password, delete it.
"use strict";

const $ = (id) => document.getElementById(id);

function show() {
  const logged = Boolean(ME.account);
  $("login-panel").hidden = logged;
  $("account-panel").hidden = !logged;
  if (logged) {
    $("who").textContent = t("logged_in_as", { name: ME.account.name });
    $("profile-link").href = `/players/${encodeURIComponent(ME.account.name)}`;
  }
  renderAccountLink();
}

$("login-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const answer = await postJson("/api/session",
    { name: $("name").value, password: $("password").value });
  if (!answer.ok) {
    $("error").textContent = accountError(answer.data);
    return;
  }
  location.href = "/";
});

$("logout").addEventListener("click", async () => {
  await postJson("/api/session/end");
  ME = { account: null, csrf: null };
  show();
});

$("password-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const answer = await postJson("/api/me/password", { old: $("old").value, new: $("new").value });
  $("password-message").textContent = answer.ok ? t("password_changed") : accountError(answer.data);
  if (answer.ok) $("password-form").reset();
});

$("delete-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const answer = await postJson("/api/me/delete", { password: $("delete-password").value });
  if (!answer.ok) {
    $("delete-message").textContent = accountError(answer.data);
    return;
  }
  ME = { account: null, csrf: null };
  show();
});

mountLanguageSwitch(show);
ME_READY.then(show);
