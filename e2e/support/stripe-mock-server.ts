// The test Stripe server as its own process for Playwright (see apps/server/test/stripe-mock.ts).
import { StripeMock } from '../../apps/server/test/stripe-mock';

const port = Number(process.env.PORT);
const mock = await new StripeMock({ pagesUrl: process.env.PAGES_URL, webhookUrl: process.env.WEBHOOK_URL }).start(port);
console.log(`test Stripe on ${mock.url}`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    void mock.stop().then(() => process.exit(0));
  });
}
