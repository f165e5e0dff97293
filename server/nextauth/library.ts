// The next-auth package as this app uses it: its exports (CommonJS: bundlers hand over the default
// export, Node's ESM loader (tsx) the module) and the fields this app adds to its User and JWT types.
import NextAuthImport, { type DefaultSession } from "next-auth";
import CredentialsProviderImport from "next-auth/providers/credentials";
import GitHubProviderImport from "next-auth/providers/github";
import GoogleProviderImport from "next-auth/providers/google";
import TwitterProviderImport from "next-auth/providers/twitter";

declare module "next-auth" {
  interface User {
    /** A login or handle the provider knows the person by: the first choice for their username. */
    usernameHint?: string | null;
  }
  interface Session {
    user: { id: string } & DefaultSession["user"];
  }
}
declare module "next-auth/jwt" {
  interface JWT {
    /** When this session signed in (seconds): the OAuth hand-off only follows a fresh sign-in. */
    authTime?: number;
    /** The session's id: its sessions row (hashed) is what keeps it signed in (docs/features/accounts.md). */
    sid?: string;
  }
}

function interopDefault<T>(value: T): T {
  return (value as { default?: T }).default ?? value;
}
export const NextAuth = interopDefault(NextAuthImport);
export const CredentialsProvider = interopDefault(CredentialsProviderImport);
export const GitHubProvider = interopDefault(GitHubProviderImport);
export const GoogleProvider = interopDefault(GoogleProviderImport);
export const TwitterProvider = interopDefault(TwitterProviderImport);

