/** The side panel's entry: connected mode (the user's backend) or standalone (the agent in this page), by the settings. */
import { render } from "preact";
import { App } from "./app.js";
import { PanelModel } from "./panel-model.js";
import { panelServices } from "./panel-services.js";

const model = new PanelModel(panelServices);
addEventListener("error", (e) => model.reportError(e.message, e.error instanceof Error ? e.error.stack : undefined));
addEventListener("unhandledrejection", (e) => model.reportError(e.reason instanceof Error ? e.reason.message : String(e.reason)));
const root = document.getElementById("app");
if (root) render(<App model={model} />, root);
void model.resumePending().finally(() => {
  document.documentElement.dataset.ready = "true";
  performance.mark("baton:interactive");
});
