import type { z } from "zod";
import type { calibrationBinSchema, trackRecordSchema } from "~/server/contract/track-record.ts";

export type CalibrationBinOut = z.infer<typeof calibrationBinSchema>;
export type TrackRecordOut = z.infer<typeof trackRecordSchema>;
