import { z } from 'zod'

export const analyticsEventRequestSchema = z.object({
  event_name: z.string().min(1).max(100),
  client_id: z.string().max(100).nullable().optional(),
  payload: z.record(z.string(), z.unknown()).optional(),
})
export type AnalyticsEventRequest = z.input<typeof analyticsEventRequestSchema>
