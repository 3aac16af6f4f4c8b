// ◀ Move on the first image and Move ▶ on the last can do nothing (the server leaves the
// strip as it is): they are disabled there, by the line above the image, which says which
// image of how many is open (#image-info's data-image and data-images, ui/annotate_render.py).
// ◀ Move was enabled on image 1, a press that did nothing. Done on the page, as
// read_only.js does, rather than with interactive=False updates: those rebuild the button
// (ui/annotate_render.py, render) on every image selected.
(() => {
  function apply() {
    const at = document.querySelector("#image-info [data-image]");
    const left = document.getElementById("image-left");
    const right = document.getElementById("image-right");
    if (!at || !left || !right) return;
    const index = Number(at.dataset.image), count = Number(at.dataset.images);
    if (left.disabled !== index <= 1) left.disabled = index <= 1;
    if (right.disabled !== index >= count) right.disabled = index >= count;
  }

  let pending = false;
  new MutationObserver(() => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; apply(); });
  }).observe(document.documentElement, {childList: true, subtree: true});
})();
