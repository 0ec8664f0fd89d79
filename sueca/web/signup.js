// /signup: a name and a password make an account, logged in at once (then back to the lobby).
"use strict";

const form = document.getElementById("signup-form");
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const error = document.getElementById("error");
  const password = document.getElementById("password").value;
  if (password !== document.getElementById("password2").value) {
    error.textContent = t("passwords_differ");
    return;
  }
  const answer = await postJson("/api/accounts",
    { name: document.getElementById("name").value, password });
  if (!answer.ok) {
    error.textContent = accountError(answer.data);
    return;
  }
  location.href = "/";
});

mountLanguageSwitch(renderAccountLink);

