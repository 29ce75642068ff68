import { z } from 'zod';

export const billingProjectParams = z.object({ project_uuid: z.string() });

export const redirectSchema = z.object({ url: z.string().describe("The provider's hosted page to send the owner to") });

export const webhookReceivedSchema = z.object({ received: z.literal(true) });

/** A project's subscription as the card shows it; null when it never had one (or billing is off). */
export const subscriptionSchema = z
  .object({
    status: z
      .string()
      .describe(
        "Stripe's status: trialing, active, past_due, unpaid, canceled, incomplete, incomplete_expired, paused",
      ),
    current_period_end: z.string().nullable(),
    cancel_at_period_end: z.boolean(),
  })
  .nullable();
