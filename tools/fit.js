// A table or display formula wider than the text column is set smaller until it fits (down to 55 % of its size),
// instead of hiding behind a scrollbar. Copied into the site by tools/make_docs.py; checked by tools/test_site.py.
window.addEventListener("load", function () {
  var main = document.querySelector("main");
  if (!main) return;
  var edge = main.getBoundingClientRect().right;
  document.querySelectorAll("main table, main math[display='block']").forEach(function (el) {
    var size = parseFloat(getComputedStyle(el).fontSize), least = 0.55 * size;
    for (var step = 0; step < 8; step++) {
      var box = el.getBoundingClientRect(), room = edge - box.left;
      if (box.right <= edge || size <= least) break;
      size = Math.max(size * 0.98 * room / box.width, least);
      el.style.fontSize = size + "px";
    }
  });
});
