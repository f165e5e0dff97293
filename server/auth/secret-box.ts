// Secrets the service must be able to read back (a webhook's signing secret: it signs every delivery,
// so it cannot be hashed like API keys and refresh tokens) are stored encrypted: AES-256-GCM under a
// key derived (HKDF-SHA-256) from WEBHOOK_SECRET_KEY. A copy of the database alone signs nothing.
// Stored form: `enc1:` + base64url(iv ‖ tag ‖ ciphertext). docs/security.md, "Webhook secrets at rest".
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const PREFIX = "enc1:";
const IV_BYTES = 12;
const TAG_BYTES = 16;

const keys = new Map<string, Buffer>();
function keyOf(material: string): Buffer {
  let key = keys.get(material);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", material, "claims-service", "webhook signing secrets v1", 32));
    keys.set(material, key);
  }
  return key;
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

export function sealSecret(plain: string, material: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", keyOf(material), iv);
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64url");
}

/** The secret a stored value holds; a value from before encryption (clear text) is returned as is. */
export function openSecret(stored: string, material: string): string {
  if (!isSealed(stored)) return stored;
  const raw = Buffer.from(stored.slice(PREFIX.length), "base64url");
  const decipher = createDecipheriv("aes-256-gcm", keyOf(material), raw.subarray(0, IV_BYTES));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
}
