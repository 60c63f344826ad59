/** The side panel's entry: connected mode (the user's backend) or standalone (the agent in this page), by the settings. */
import { render } from "preact";
import { App } from "./app.js";
import { PanelModel } from "./panel-model.js";
import { panelServices } from "./panel-services.js";
import { restrictStorage } from "../storage-access.js";

const model = new PanelModel(panelServices);
addEventListener("error", (e) => model.reportError(e.message, e.error instanceof Error ? e.error.stack : undefined));
addEventListener("unhandledrejection", (e) => model.reportError(e.reason instanceof Error ? e.reason.message : String(e.reason)));
const root = document.getElementById("app");
if (root) render(<App model={model} />, root);
// Storage is closed to content scripts before a run (resumed or new) can inject one.
void restrictStorage()
  .catch((e: unknown) => model.reportError(`Baton could not close its storage to content scripts: ${e instanceof Error ? e.message : String(e)}`))
  .then(() => model.resumePending())
  .finally(() => {
    document.documentElement.dataset.ready = "true";
    performance.mark("baton:interactive");
  });
