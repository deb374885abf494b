// Serves the saved widgets' scripts from this site, never from a CDN.
// Runs between require.js and embed-amd.js (nb_ipywidgets_js in _config.yml) and
// points requirejs at the vendored folder beside this file (`make vendor-js`).
(function () {
  "use strict";
  var folder = new URL("widget_js", document.currentScript.src).href;
  // embed-amd.js defines these modules itself; the paths give them URLs in the
  // vendored folder, where the bundle then looks for its font files.
  window.requirejs.config({
    paths: {
      "@jupyter-widgets": folder,
      "@jupyter-widgets/html-manager/dist": folder,
    },
  });
  // A widget module that is not vendored falls back to this "CDN": a local 404
  // that shows up in tests, instead of a request to another host.
  document.currentScript.setAttribute(
    "data-jupyter-widgets-cdn",
    folder + "/not-vendored/",
  );
  // The widget controls typeset their text with MathJax 2's MathJax.Hub.Queue
  // whenever a MathJax is on the page; the book's MathJax is version 3 (deferred,
  // so it exists by DOMContentLoaded and the widgets render later, on load).
  document.addEventListener("DOMContentLoaded", function () {
    var mathjax = window.MathJax;
    if (!mathjax || mathjax.Hub || !mathjax.startup) {
      return;
    }
    mathjax.Hub = {
      Queue: function (job) {
        return mathjax.startup.promise.then(function () {
          return mathjax.typesetPromise([job[2]]);
        });
      },
    };
  });
})();
