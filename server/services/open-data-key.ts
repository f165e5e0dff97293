// The key that signs the open data's manifests (docs/features/open-data.md#verifying): DATA_SIGNING_KEY,
// or, unset, a key generated into DATA_DIR on first use and kept there (like the development secrets,
// but in every environment: the service never needs it to start). Its public key is served at
// /.well-known/claims-data-key.
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { config } from "../config.ts";
import { log } from "../log/logger.ts";
import { processSingleton } from "../process-singleton.ts";

/** The generated key's file in DATA_DIR. */
export const GENERATED_KEY_FILE = "data-signing-key.pem";

const generatedKeyPath = () => path.join(/*turbopackIgnore: true*/ config().DATA_DIR, GENERATED_KEY_FILE);

function readGenerated(): KeyObject | null {
  try {
    return createPrivateKey(readFileSync(generatedKeyPath(), "utf8"));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/** The configured key, or the generated one if it exists (nothing is generated). */
export function existingSigningKey(): KeyObject | null {
  const configured = config().DATA_SIGNING_KEY;
  if (configured) return createPrivateKey(configured.replace(/\\n/g, "\n"));
  return readGenerated();
}

/** The signing key of this installation: configured, generated before, or generated now. */
export function signingKey(): KeyObject {
  return processSingleton("claims.dataSigningKey", () => {
    const existing = existingSigningKey();
    if (existing) return existing;
    const { privateKey } = generateKeyPairSync("ed25519");
    const pem = privateKey.export({ type: "pkcs8", format: "pem" }) as string;
    mkdirSync(config().DATA_DIR, { recursive: true });
    try {
      // Exclusive: two processes sharing DATA_DIR keep the first one's key.
      writeFileSync(generatedKeyPath(), pem, { mode: 0o600, flag: "wx" });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EEXIST") return readGenerated()!;
      throw err;
    }
    if (config().NODE_ENV === "production") {
      log().warn(
        { file: generatedKeyPath() },
        "generated a signing key for the open data: set DATA_SIGNING_KEY when several instances serve or DATA_DIR is not kept (docs/features/open-data.md)",
      );
    }
    return privateKey;
  });
}

/** The public key of a private key, as SPKI PEM. */
export const publicKeyPem = (key: KeyObject): string => createPublicKey(key).export({ type: "spki", format: "pem" }) as string;
