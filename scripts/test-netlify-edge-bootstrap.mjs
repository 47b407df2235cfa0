// The edge runtime bootstrap `netlify dev` imports (NETLIFY_EDGE_BOOTSTRAP): the local copy from
// node_modules, with Deno.serve kept on loopback (the bootstrap listens on every interface).
const serve = Deno.serve;
Deno.serve = (options, handler) => serve({ ...options, hostname: "127.0.0.1" }, handler);
export * from "../node_modules/@netlify/edge-functions-dev/dist/deno/bootstrap.mjs";
