// Accounts on every page that loads this: who is logged in (GET /api/me), the header's log-in
// link or name, and POSTs with the session's CSRF token (sueca/server/accounts.py).
"use strict";

let ME = { account: null, csrf: null };

async function loadMe() {
  try {
    const response = await fetch("/api/me");
    if (response.ok) ME = await response.json();
  } catch (error) {
    // No server: stay a guest.
  }
  renderAccountLink();
  return ME;
}

// POST JSON; the CSRF token goes with it whenever a session exists.
async function postJson(path, body) {
  const headers = { "Content-Type": "application/json" };
  if (ME.csrf) headers["X-CSRF-Token"] = ME.csrf;
  const response = await fetch(path, { method: "POST", headers, body: JSON.stringify(body || {}) });
  let data = {};
  try { data = await response.json(); } catch (error) { data = {}; }
  if (response.ok && data.csrf !== undefined) ME = { account: data.account, csrf: data.csrf };
  return { ok: response.ok, status: response.status, data };
}

function accountError(data) {
  const key = `err_${data && data.error}`;
  return t(key) === key ? t("err_other") : t(key);
}

// The header: "Log in" for a guest, the account's name (its profile) once logged in.
function renderAccountLink() {
  const nav = document.querySelector("header.bar nav");
  if (!nav) return;
  let link = document.getElementById("account-link");
  if (!link) {
    const board = document.createElement("a");
    board.href = "/leaderboard";
    board.id = "leaderboard-link";
    board.dataset.i18n = "leaderboard";
    nav.append(board);
    link = document.createElement("a");
    link.id = "account-link";
    nav.append(link);
  }
  document.getElementById("leaderboard-link").textContent = t("leaderboard");
  if (ME.account) {
    link.href = `/players/${encodeURIComponent(ME.account.name)}`;
    link.textContent = ME.account.name;
    link.removeAttribute("data-i18n");
  } else {
    link.href = "/login";
    link.dataset.i18n = "login";
    link.textContent = t("login");
  }
}

function fmt(value, digits = 1) {
  return value === null || value === undefined ? "—" : Number(value).toFixed(digits);
}

// Every page that loads this script learns who is logged in once (pages wait on ME_READY).
const ME_READY = loadMe();
