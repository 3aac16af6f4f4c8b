// A click in the drawing mode that slips a pixel or two is a click, not a box.
// gradio_image_annotation 0.5.6 drops a box only when its area is under one canvas pixel: a
// press that moved 2 px on its way up made a 1x1 px box on the image and opened the clue
// picker for it (a review); on a large photo nobody sees such a box, and it was saved as
// a clue's box. Here a press in the drawing mode that ends less than SLIP screen pixels
// from where it started, in both directions, is brought back to a box of no area before
// the component sees the release: the component's own pointermove handler takes a move
// to a hair's breadth from the start (exactly the start leaves its box as it was), and
// its release then drops the box as it drops a plain click (ui/workarounds.py,
// BOX_SLIP_KEPT). A box drawn on purpose is wider: zoomed in, a tiny clue is many screen
// pixels.
(() => {
  const SLIP = 4;             // screen pixels a click may move and stay a click
  const HAIR = 0.05;          // what the box is brought back to, in screen pixels
  let press = null;

  function drawing(event) {
    const canvas = event.target;
    return canvas instanceof HTMLCanvasElement && canvas.closest("#annotator") &&
      event.button === 0 && canvas.style.cursor === "crosshair";
  }

  window.addEventListener("pointerdown", (event) => {
    press = drawing(event) ? {x: event.clientX, y: event.clientY, id: event.pointerId} : null;
  }, true);

  window.addEventListener("pointerup", (event) => {
    const start = press;
    press = null;
    if (!start || event.pointerId !== start.id) return;
    if (Math.abs(event.clientX - start.x) >= SLIP || Math.abs(event.clientY - start.y) >= SLIP) {
      return;
    }
    document.dispatchEvent(new PointerEvent("pointermove", {
      clientX: start.x + HAIR, clientY: start.y + HAIR, pointerId: start.id,
      bubbles: true, isPrimary: true}));
  }, true);
})();
