// Every settings page: the account (/settings), API keys and webhooks, beside one navigation.
import type { ReactNode } from "react";
import { Providers } from "../_lib/trpc.tsx";
import { SettingsNav } from "./settings-nav.tsx";
import styles from "./settings.module.css";

export default function SettingsLayout({ children }: { children: ReactNode }) {
  return (
    <div className={styles.settings}>
      <SettingsNav />
      <div className={styles.sections}>
        <Providers>{children}</Providers>
      </div>
    </div>
  );
}
