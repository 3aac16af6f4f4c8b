// ClueLab: Gradio's login page says why a login failed only for a 400 (its fixed
// "Incorrect credentials") and shows nothing at all for any other answer. A name locked
// after failed logins (ui/login_throttle.py) is answered 429 with the reason and the wait;
// this shows that reason under the form, as text. Listed in ui/workarounds.py
// (GRADIO_LOGIN_STATUS): remove it when Gradio's login page shows the server's answer.
(() => {
  const send = window.fetch;
  window.fetch = async (...args) => {
    const response = await send(...args);
    const url = String(args[0] && args[0].url ? args[0].url : args[0]);
    if (response.status === 429 && /\/login$/.test(url.split("?")[0])) {
      let detail = "Too many failed logins: try again later.";
      try { detail = (await response.clone().json()).detail || detail; } catch (e) { /* plain */ }
      let line = document.getElementById("cluelab-login-lock");
      if (!line) {
        line = document.createElement("p");
        line.id = "cluelab-login-lock";
        line.setAttribute("role", "alert");
        line.style.cssText = "color: var(--error-text-color, #b91c1c); text-align: center;" +
                             "margin: 8px auto; max-width: 480px;";
        const form = document.querySelector("form, .wrap, .gradio-container") || document.body;
        form.appendChild(line);
      }
      line.textContent = detail;
    }
    return response;
  };
})();
