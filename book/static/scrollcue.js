// A box that scrolls sideways says so (book.css, "Values visible on a phone"): a code
// cell, a wide table or an explorer's view wider than its box gets the class
// gl-scrolls-right, which fades its right edge, until it is scrolled to its end.
// Outputs that print text wrap instead (book.css). Listed in _config.yml
// (html_js_files): every page loads it.
(function () {
  "use strict";
  var BOXES = ".bd-content div.highlight > pre, .bd-content div.output.text_html";
  function mark(box) {
    var left = box.scrollWidth - box.clientWidth - box.scrollLeft;
    box.classList.toggle("gl-scrolls-right", box.clientWidth > 0 && left > 1);
  }
  function markAll() {
    document.querySelectorAll(BOXES).forEach(mark);
  }
  function start() {
    markAll();
    document.addEventListener(
      "scroll",
      function (event) {
        var box = event.target;
        if (box instanceof Element && box.matches(BOXES)) mark(box);
      },
      true,
    );
    window.addEventListener("resize", markAll);
    window.addEventListener("load", markAll);
    document.addEventListener("toggle", markAll, true); // a fold opened
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
