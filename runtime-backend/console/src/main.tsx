/** The web console's entry: mounts the app and lets links navigate in place. */
import { render } from "preact";
import { App } from "./app.js";
import { interceptLinks } from "./router.js";
import { prefetchSessions } from "./views/sessions.js";

const root = document.getElementById("app") as HTMLElement;
interceptLinks(root);
if (location.pathname === "/" || location.pathname === "/sessions") prefetchSessions();
render(<App />, root);
