// Who is signed in, and Log out, on every page of a login (--auth): one line at the left of
// the top bar. Gradio writes the signed-in name into each page's config (`username`, none in
// local single-user mode) and serves /logout, but shows neither; the Annotate and Import /
// Export pages had no way to tell whose account was in use, or to leave it
// (ui/workarounds.py, NO_ACCOUNT_LINE).
// Log out ends this browser's session only (all_session=false): Gradio's default also
// ended the same user's sessions in every other browser.
(() => {
  const show = () => {
    const name = window.gradio_config && window.gradio_config.username;
    const bar = document.querySelector(".nav-holder");
    if (!name || !bar) return false;
    if (document.getElementById("account-line")) return true;
    const line = document.createElement("div");
    line.id = "account-line";
    const who = document.createElement("b");
    who.textContent = name;
    const out = document.createElement("a");
    out.href = "logout?all_session=false";
    out.id = "log-out";
    out.textContent = "Log out";
    line.append("Signed in as ", who, " · ", out);
    bar.prepend(line);
    return true;
  };
  if (show()) return;
  const pending = new MutationObserver(() => { if (show()) pending.disconnect(); });
  pending.observe(document.documentElement, {childList: true, subtree: true});
})();
