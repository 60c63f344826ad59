/** The version of @baton/backend, as MCP clients and `baton --version` see it (a test holds it to package.json). */
export const batonVersion = "0.1.0";
