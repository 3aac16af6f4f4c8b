// Ctrl+Z (outside text fields) undoes the last box change on the image shown: a box drawn,
// moved, resized, relabelled or removed. gradio_image_annotation keeps its boxes in its own
// state and has no undo, so a box removed with Del came back only with Discard draft (all
// the edits of the item gone with it). The page sees every value the annotator takes (the
// gate before autosave_boxes, assets/clue_table.js boxEditsOnly): the boxes before each of
// the user's changes are kept here, per image, and the hidden #box-undo event
// (ui/annotate_drafts.py) sets the annotator back to them; that change keeps the draft and
// the clue table's box counts as any box edit does.
// What the server sends (another image or item, a save, a clue removed with its boxes)
// starts the history afresh: undone, a box would come back with the label of a clue that
// is gone. A value is the user's when it follows their pointer or key on the image (or on
// its label dialog) within a moment.
(() => {
  const LIMIT = 50;               // changes kept per image
  const USER_MS = 2000;           // a change this soon after a press on the image is theirs
  let image = null;
  let last = null;                // the value the annotator shows now
  let stack = [];                 // the values before each change, latest last
  let restoring = null;           // the boxes an undo is putting back
  let userAt = -Infinity;
  // what a change is: a box's clue and place in the image's pixels (not its colour; the
  // component's values are scaled to the screen, the server's are not)
  const boxesOf = (value) => JSON.stringify(((value && value.boxes) || []).map((box) => [
    box.label, ...[box.xmin, box.ymin, box.xmax, box.ymax].map(
      (n) => Math.round(n / (box.scaleFactor || 1)))]));
  // a box drawn and not yet given its clue: drawing and labelling are one change (undone,
  // the box came back as "(pick a clue)")
  const unlabelled = (value) => ((value && value.boxes) || []).some(
    (box) => !box.label || box.label === "(pick a clue)");
  const onImage = (e) => !!(e.target && e.target.closest &&
                            e.target.closest("#annotator, #model-box-edit"));
  for (const kind of ["pointerup", "keydown"]) {
    document.addEventListener(kind, (e) => { if (onImage(e)) userAt = Date.now(); }, true);
  }
  window.cluelabBoxUndo = {
    seen(value, shown) {
      if (shown !== image) { image = shown; stack = []; last = value; restoring = null; return; }
      const boxes = boxesOf(value);
      if (last && boxes === boxesOf(last)) { last = value; return; }
      if (restoring !== null && boxes === restoring) { restoring = null; last = value; return; }
      if (Date.now() - userAt > USER_MS) { stack = []; last = value; return; }  // the server's
      if (last && !unlabelled(last)) stack.push(last);
      if (stack.length > LIMIT) stack.shift();
      last = value;
    },
    can: () => stack.length > 0,
    // the boxes on the image shown (Remove image names them: assets/confirm.js); null
    // before the annotator showed any value
    boxCount: () => (last ? ((last.boxes || []).length) : null),
    undo(current) {
      const before = stack.pop();
      if (!before || !current) return current;
      restoring = boxesOf(before);
      return {...current, boxes: JSON.parse(JSON.stringify(before.boxes || []))};
    },
  };
})();
