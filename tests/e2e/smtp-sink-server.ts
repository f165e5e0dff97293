// The SMTP server the app under Playwright sends its mail to (SMTP_URL in playwright.config.ts): a
// real SMTP server (tests/helpers/smtp-sink.ts), plus a small HTTP side that lets the specs read what
// arrived, as a person would read their inbox: GET /mails?to=<address>.
import { createServer } from "node:http";
import { startSmtpSink } from "../helpers/smtp-sink.ts";

const sink = await startSmtpSink(Number(process.env.E2E_SMTP_PORT));
const http = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://localhost");
  if (url.pathname !== "/mails") {
    res.writeHead(404).end();
    return;
  }
  const to = url.searchParams.get("to")?.toLowerCase();
  const mails = to ? sink.mails.filter((m) => m.to.includes(to)) : sink.mails;
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(mails));
});
http.listen(Number(process.env.E2E_SMTP_HTTP_PORT), "127.0.0.1");
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    http.close();
    void sink.close().then(() => process.exit(0));
  });
}
