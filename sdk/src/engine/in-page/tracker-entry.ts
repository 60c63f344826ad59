/**
 * The entry of the activity tracker's bundle (`trackerSource` in `gen/in-page-source.ts`,
 * written by `npm run gen`): evaluated in each document's tracker world, it installs the tracker.
 */
import { installTracker } from "./tracker.js";

installTracker();
