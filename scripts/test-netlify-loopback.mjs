// Preloaded into `netlify dev` by test/hosts/netlify-dev.slow.test.ts (NODE_OPTIONS=--import): netlify-cli
// has no flag for the listening address and binds every interface; this keeps its servers on loopback.
import net from "node:net";

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const [first] = args;
  if (typeof first === "object" && first !== null && !("path" in first) && first.host === undefined) {
    args[0] = { ...first, host: "127.0.0.1" };
  } else if (typeof first === "number" && (args.length === 1 || typeof args[1] !== "string")) {
    args.splice(1, 0, "127.0.0.1");
  }
  return listen.apply(this, args);
};
