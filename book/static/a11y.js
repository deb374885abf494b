// Accessible names for three controls of the book's theme that axe-core flags on every
// page under WCAG 2.5.3 (Label in Name: a control's name must contain its visible
// text): the search field's aria-label "Search" hides its text "Search Ctrl+K", myst-nb's
// "Toggle hidden content" hides a summary's "Show code cell source", and the icons that
// Font Awesome draws into the colour-mode button carry titles ("Light") that are not
// in its name "Color mode". Font Awesome draws late, so this runs again on changes.
// Listed in _config.yml (html_js_files): every page loads it.
(function () {
  "use strict";
  function fix() {
    document.querySelectorAll(".search-button-field[aria-label]").forEach(function (button) {
      button.removeAttribute("aria-label");
    });
    document
      .querySelectorAll('summary[aria-label="Toggle hidden content"]')
      .forEach(function (summary) {
        summary.removeAttribute("aria-label");
      });
    document.querySelectorAll(".theme-switch-button svg").forEach(function (svg) {
      var title = svg.querySelector("title");
      if (title) title.remove();
      if (svg.getAttribute("aria-hidden") !== "true") {
        svg.removeAttribute("aria-labelledby");
        svg.removeAttribute("role");
        svg.setAttribute("aria-hidden", "true");
      }
    });
  }
  function start() {
    fix();
    new MutationObserver(fix).observe(document.body, { childList: true, subtree: true });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
