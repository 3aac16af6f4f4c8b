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
    // a released item: disabled whatever the image (the server sent interactive=False;
    // enabled here, Move ▶ looked usable and was refused: ui/annotate_render.edit_buttons)
    const frozen = Boolean(document.querySelector("#item-notice .cl-read-only"));
    if (left.disabled !== (frozen || index <= 1)) left.disabled = frozen || index <= 1;
    if (right.disabled !== (frozen || index >= count)) right.disabled = frozen || index >= count;
  }

  let pending = false;
  new MutationObserver(() => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; apply(); });
  }).observe(document.documentElement, {childList: true, subtree: true});
})();
