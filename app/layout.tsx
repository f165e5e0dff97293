import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { SiteFooter } from "./_components/site-footer.tsx";
import { SiteHeader } from "./_components/site-header.tsx";
import { siteMetadata } from "./_lib/open-web/metadata.ts";
import "./globals.css";
import frame from "./layout.module.css";
import ui from "./_components/ui.module.css";

// The site's title, description, cards and feed, and the origin relative addresses in every page's
// head resolve against (docs/features/open-web.md#cards): read when a page renders, not at build.
export function generateMetadata(): Metadata {
  return siteMetadata();
}

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
        <SiteHeader />
        <main id="main" className={frame["site-main"]} tabIndex={-1}>
          <div className={ui.container}>{children}</div>
        </main>
        <SiteFooter />
      </body>
    </html>
  );
}
