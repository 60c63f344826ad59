/** The web console's entry: mounts the app and lets links navigate in place. */
import { render } from "preact";
import { App } from "./app.js";
import { interceptLinks } from "./router.js";

const root = document.getElementById("app") as HTMLElement;
interceptLinks(root);
render(<App />, root);
