// A table or display formula wider than the text column is set smaller until it fits (down to 60 % of its size),
// instead of hiding behind a scrollbar. Copied into the site by tools/make_docs.py; checked by tools/test_site.py.
window.addEventListener("load", function () {
  var main = document.querySelector("main");
  if (!main) return;
  var room = main.clientWidth;
  document.querySelectorAll("main table, main math[display='block']").forEach(function (el) {
    var size = parseFloat(getComputedStyle(el).fontSize), least = 0.6 * size;
    for (var step = 0; step < 6; step++) {
      var wide = el.getBoundingClientRect().width;
      if (wide <= room || size <= least) break;
      size = Math.max(size * 0.98 * room / wide, least);
      el.style.fontSize = size + "px";
    }
  });
});
