"use client";
// The browser's tRPC client: the same appRouter as /api/v1, reached through /api/trpc with the
// NextAuth session cookie. Client components use `useTRPC()` with TanStack Query, under <Providers>:
// placed by the layouts of the pages that read or write through it and by the parts loaded once
// someone is signed in, not by the root layout — a page with nothing interactive loads none of this
// (docs/architecture.md#pages-from-data). One client per browser tab, however many <Providers>, so
// the header's bell and the inbox share their queries.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { useState, type ReactNode } from "react";
import type { AppRouter } from "~/server/api/root.ts";

export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // A 4xx will not get better by asking again.
        retry: (failures, error) =>
          !(error instanceof TRPCClientError && typeof error.data?.httpStatus === "number" && error.data.httpStatus < 500) &&
          failures < 2,
      },
    },
  });
}

function makeClients() {
  return {
    queryClient: makeQueryClient(),
    trpcClient: createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: "/api/trpc", maxItems: 10 })] }),
  };
}

let browserClients: ReturnType<typeof makeClients> | undefined;

/** On the server a new pair for each render (nothing shared between viewers); in the browser one. */
function clients() {
  if (typeof window === "undefined") return makeClients();
  return (browserClients ??= makeClients());
}

export function Providers({ children }: { children: ReactNode }) {
  const [{ queryClient, trpcClient }] = useState(clients);
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
