// A display formula wider than the text column is set smaller until it fits (down to 55 % of its size), instead of
// hiding behind a scrollbar; a wide table scrolls in its own box (styles.css). Copied into the site by
// tools/make_docs.py; checked by tools/test_site.py.
function fitToColumn(root) {
  var main = document.querySelector("main");
  if (!main) return;
  var edge = main.getBoundingClientRect().right;
  root.querySelectorAll("math[display='block']").forEach(function (el) {
    var size = parseFloat(getComputedStyle(el).fontSize), least = 0.55 * parseFloat(getComputedStyle(el.parentElement).fontSize);
    var holder = el.parentElement.classList.contains("display") ? el.parentElement : el;   // a formula's own box
    for (var step = 0; step < 8; step++) {
      var box = el.getBoundingClientRect(), room = Math.min(edge - box.left, holder.clientWidth || 1e9);
      var need = Math.max(box.width, holder.scrollWidth);
      if (box.width === 0 || need <= room + 1 || size <= least) break;
      size = Math.max(size * 0.98 * room / need, least);
      el.style.fontSize = size + "px";
    }
  });
}
window.addEventListener("load", function () {
  var main = document.querySelector("main");
  if (!main) return;
  fitToColumn(main);
  // a folded cell is laid out only when opened: fit what it holds then
  main.querySelectorAll("details").forEach(function (d) { d.addEventListener("toggle", function () { fitToColumn(d); }); });
});

// A figure drawn narrower than its own width opens at full window size on a click (Esc or a click closes it), so
// that a wide multi-panel figure's legend can be read.
window.addEventListener("load", function () {
  document.querySelectorAll("main img").forEach(function (img) {
    if (img.naturalWidth <= img.clientWidth * 1.1) return;
    img.classList.add("zoomable");
    img.title = "Click to see the figure at full size";
    img.addEventListener("click", function () { img.classList.toggle("zoomed"); });
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape") document.querySelectorAll("img.zoomed").forEach(function (i) { i.classList.remove("zoomed"); });
  });
});
