// Renders the saved explorers of a book page with no kernel and no widget manager.
// myst-nb writes each widget output as a <script type="...widget-view+json"> naming a
// model, and the page's saved state as one <script type="...widget-state+json">. Every
// explorer is an anywidget whose view is gatherlab/browser/explorers/explorer.mjs (with
// the modules it imports and explorer.css), which _config.yml's html_static_path copies
// into _static/explorers beside this file: this imports it from there by path and calls its
// render() with a small model over the saved state. The saved state holds no code
// (its _esm is the JupyterLab loader, js/lab.mjs). Opened from disk (file://), the
// browser imports no module by path: the zip of tools/build/site_zip.py (`make site-zip`)
// gives each page an import map that this import finds them in.
// Listed in _config.yml (nb_ipywidgets_js).
(function () {
  "use strict";
  var HERE = /** @type {HTMLScriptElement} */ (document.currentScript).src;
  var MODULE = new URL("explorers/explorer.mjs", HERE).href;
  var STYLESHEET = new URL("explorers/explorer.css", HERE).href;
  var VIEW = "application/vnd.jupyter.widget-view+json";
  var STATE = "application/vnd.jupyter.widget-state+json";

  // The part of anywidget's model API the explorers use: get, set, on, off, save_changes.
  function model(state) {
    var listeners = {};
    return {
      get: function (name) {
        return state[name];
      },
      set: function (name, value) {
        state[name] = value;
        (listeners["change:" + name] || []).forEach(function (callback) {
          callback();
        });
      },
      on: function (event, callback) {
        (listeners[event] = listeners[event] || []).push(callback);
      },
      off: function (event, callback) {
        listeners[event] = (listeners[event] || []).filter(function (c) {
          return c !== callback;
        });
      },
      save_changes: function () {}, // no kernel listens on a static page
      send: function () {},
    };
  }

  function message(el, text) {
    var note = document.createElement("div");
    note.setAttribute("role", "alert");
    note.textContent = text;
    el.append(note);
  }

  function start() {
    var saved = document.querySelector('script[type="' + STATE + '"]');
    if (!saved) return;
    var models = JSON.parse(saved.textContent).state;
    var view = null;
    document.querySelectorAll('script[type="' + VIEW + '"]').forEach(function (node) {
      var found = models[JSON.parse(node.textContent).model_id];
      if (!found || found.model_module !== "anywidget") return;
      if (!view) {
        var link = document.createElement("link");
        link.rel = "stylesheet";
        link.href = STYLESHEET;
        document.head.append(link);
        view = import(MODULE);
      }
      var state = found.state;
      var el = document.createElement("div");
      el.className = "gl-explorer";
      node.parentNode.insertBefore(el, node.nextSibling);
      view
        .then(function (module) {
          (module.default || module).render({ model: model(state), el: el });
        })
        .catch(function (error) {
          message(
            el,
            "This explorer could not start here: " +
              error.message +
              (location.protocol === "file:"
                ? " (a page opened from disk imports no module: unzip the site of " +
                  "make site-zip and open that, or serve this folder over http)"
                : ""),
          );
        });
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
