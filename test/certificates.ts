/**
 * A self-signed certificate for a test's TLS server (its key beside it), made by the openssl the
 * machine has: the private CA a deployer's site or nginx would present, on loopback only.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";

/** Writes `cert.pem` and `key.pem` into `dir` for `commonName`, valid for the `subjectAltName` given (e.g. `DNS:a,DNS:b`). */
export function selfSignedCertificate(dir: string, commonName: string, subjectAltName: string): { cert: string; key: string } {
  const [cert, key] = [join(dir, "cert.pem"), join(dir, "key.pem")];
  const made = spawnSync(
    "openssl",
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "2"].concat([
      "-subj",
      `/CN=${commonName}`,
      "-addext",
      `subjectAltName=${subjectAltName}`,
    ]),
    { encoding: "utf8" },
  );
  if (made.status !== 0) throw new Error(`openssl: ${made.stderr}`);
  return { cert, key };
}
