// Password hashing with bcryptjs. Login compares against a dummy hash when the email is unknown, so
// both failures take the same time and an attacker cannot tell which emails are registered.
import bcrypt from "bcryptjs";

export const BCRYPT_COST = 10;
// A hash of a random string at the same cost; no password matches it.
const DUMMY_HASH = "$2b$10$CwTycUXWue0Thq9StjUM0uJ8DYPsEMGbRlWzv8M2SsBsvCvhCGAL6";

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_COST);
}

export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  const ok = await bcrypt.compare(password, hash ?? DUMMY_HASH);
  return ok && !!hash;
}
