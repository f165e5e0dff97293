// `npm run dev` starts Next with this preloaded (node --import: server/cli/dev.ts), and Next passes it on
// to the process that serves (its start-server child). There, before Next creates its server, it
//   - installs the node-level guard (server/http/install-guard.ts: the module instrumentation.ts installs
//     under `next start`, the guard server/main.ts runs under `npm start`). Under `next dev`,
//     instrumentation.ts runs once Next has compiled it, and the first requests reached Next before
//     that without the guard ("a request reached Next without the node-level guard": server/http/client-ip.ts);
//   - starts the demo data's load into an empty database (server/seed/on-start.ts), which holds every
//     request until it is in: at once rather than after Next has compiled instrumentation.ts.
// instrumentation.ts's own calls then find both done and do nothing.
if (/[\\/]next[\\/]dist[\\/]server[\\/]lib[\\/]start-server\.js$/.test(process.argv[1] ?? "")) {
  // TypeScript through tsx's loader, for these modules' imports only (Next's own loading is untouched).
  const { tsImport } = await import("tsx/esm/api");
  const [{ installGuardOnHttpServers }, { loadDemoBeforeRequests }] = await Promise.all([
    tsImport("../http/install-guard.ts", import.meta.url),
    tsImport("../seed/on-start.ts", import.meta.url),
  ]);
  installGuardOnHttpServers();
  loadDemoBeforeRequests();
}
