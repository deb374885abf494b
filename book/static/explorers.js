// Renders the saved explorers of a book page with no kernel and no widget manager.
// myst-nb writes each widget output as a <script type="...widget-view+json"> naming a
// model, and the page's saved state as one <script type="...widget-state+json">. Every
// explorer is an anywidget: its state carries its ES module (_esm, the same code that
// JupyterLab runs), so this imports that module and calls its render() with a small
// model over the saved state. Listed in _config.yml (nb_ipywidgets_js).
(function () {
  "use strict";
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
    var modules = {};
    document.querySelectorAll('script[type="' + VIEW + '"]').forEach(function (node) {
      var found = models[JSON.parse(node.textContent).model_id];
      if (!found || found.model_module !== "anywidget") return;
      var state = found.state;
      var el = document.createElement("div");
      el.className = "gl-explorer";
      node.parentNode.insertBefore(el, node.nextSibling);
      var url = modules[state._esm];
      if (!url) {
        url = URL.createObjectURL(new Blob([state._esm], { type: "text/javascript" }));
        modules[state._esm] = url;
      }
      import(url)
        .then(function (module) {
          (module.default || module).render({ model: model(state), el: el });
        })
        .catch(function (error) {
          message(el, "This explorer could not start here: " + error.message);
        });
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
