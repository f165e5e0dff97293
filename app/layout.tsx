import type { Metadata, Viewport } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { SiteHeader } from "./_components/site-header.tsx";
import { Providers } from "./_lib/trpc.tsx";
import "./globals.css";
import frame from "./layout.module.css";
import ui from "./_components/ui.module.css";

export const metadata: Metadata = {
  title: { default: "Claims — where consensus stands", template: "%s · Claims" },
  description: "Submit claims, vote how true they are, bring evidence, and see where consensus stands.",
};

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#ffffff" },
    { media: "(prefers-color-scheme: dark)", color: "#171b23" },
  ],
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <a href="#main" className={frame["skip-link"]}>
          Skip to content
        </a>
        <Providers>
          <SiteHeader />
          <main id="main" className={frame["site-main"]} tabIndex={-1}>
            <div className={ui.container}>{children}</div>
          </main>
        </Providers>
        <footer className={frame["site-footer"]}>
          <div className={ui.container}>
            <span>Claims — vote how true things are, bring evidence, see where consensus stands.</span>
            <span>
              <Link href="/docs/api">REST API reference</Link> · <a href="/api/v1/openapi.json">OpenAPI document</a>
            </span>
          </div>
        </footer>
      </body>
    </html>
  );
}
