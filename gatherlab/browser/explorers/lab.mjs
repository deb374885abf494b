// The explorers' module as anywidget runs it in JupyterLab: the widget's _esm, and so
// the only JavaScript a notebook stores. It asks the kernel for the installed
// package's modules (the files of gatherlab/browser/explorers and the modules they
// import, gatherlab.widgets._base.modules; sent as a custom message, never saved), then
// imports explorer.mjs, whose imports of its neighbours ("./core.mjs") resolve to
// the neighbours' own module URLs, and puts explorer.css in the page. The book served
// over http never runs this: book/static/explorers.js imports the same files from
// _static by path.
const REQUEST = "gatherlab-modules";
const RELATIVE = /(\bfrom\s*|\bimport\s*\(?\s*)(["'])\.\/([\w.-]+\.mjs)\2/g;

// Each file once, as a blob URL whose "./name.mjs" imports point at those files' URLs.
function moduleUrl(files, name, urls = {}) {
  if (!(name in urls)) {
    if (!(name in files)) throw new Error(`the kernel sent no ${name}`);
    urls[name] = null; // a cycle would loop: the modules import in one direction
    const text = files[name].replace(
      RELATIVE,
      (_, keyword, quote, dependency) => `${keyword}${quote}${moduleUrl(files, dependency, urls)}${quote}`,
    );
    urls[name] = URL.createObjectURL(new Blob([text], { type: "text/javascript" }));
  }
  return urls[name];
}

// explorer.mjs imported from these files (name -> text); one module per set of files
// on the page (explorers share it: their controls' ids count on), whichever widget's
// copy of this loader asked first.
export function loadExplorer(files) {
  const loaded = (globalThis.gatherlabExplorers ??= new Map());
  const key = JSON.stringify(files);
  if (!loaded.has(key)) loaded.set(key, import(moduleUrl(files, "explorer.mjs")));
  return loaded.get(key);
}

function putStyle(css) {
  let style = document.querySelector("style[data-gatherlab]");
  if (!style) {
    style = document.createElement("style");
    style.dataset.gatherlab = "explorers";
    document.head.append(style);
  }
  style.textContent = css;
}

export default {
  render({ model, el }) {
    const waiting = document.createElement("div");
    waiting.textContent =
      "Run this cell to start the explorer (its code comes from the running kernel).";
    el.replaceChildren(waiting);
    let cleanup = null;
    let stopped = false;
    const onMessage = (message) => {
      if (message?.type !== REQUEST) return;
      model.off("msg:custom", onMessage);
      putStyle(message.files["explorer.css"]);
      loadExplorer(message.files)
        .then((module) => {
          if (!stopped) cleanup = module.render({ model, el });
        })
        .catch((error) => {
          waiting.textContent = `This explorer could not start: ${error.message}`;
        });
    };
    model.on("msg:custom", onMessage);
    model.send({ type: REQUEST });
    return () => {
      stopped = true;
      model.off("msg:custom", onMessage);
      if (typeof cleanup === "function") cleanup();
    };
  },
};
