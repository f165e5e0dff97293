import type { z } from "zod";
import type { calibrationBinSchema } from "~/server/contract/track-record.ts";

export type CalibrationBinOut = z.infer<typeof calibrationBinSchema>;
