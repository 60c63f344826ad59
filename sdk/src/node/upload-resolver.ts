import { realpath, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { PathResolver } from "../policy/index.js";

/**
 * The upload rule's resolver on Node: `realpath` (every symlink followed, so a link inside the
 * upload folder that points out of it is seen as outside); a missing file resolves through the
 * deepest folder above it that exists, so a missing file under a linked folder is placed where
 * the link leads.
 */
export const nodePathResolver: PathResolver = {
  async real(path) {
    try {
      const real = await realpath(path);
      return { path: real, exists: (await stat(real)).isFile() };
    } catch {
      const parent = dirname(path);
      if (parent === path) return { path, exists: false };
      return { path: join((await nodePathResolver.real(parent)).path, basename(path)), exists: false };
    }
  },
};
