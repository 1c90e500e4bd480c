/**
 * One line of the decision log: every decision, skip or inject, with its
 * reason and the figures behind it. `boulder why` and `boulder log` read it.
 */
import { z } from "zod";
import { DecisionKind } from "./turns.js";

export const DecisionRecord = z.object({
	v: z.literal(1),
	at: z.number(),
	worktree: z.string(),
	scope: z.string().nullable(),
	harness: z.string().nullable(),
	session: z.string().nullable(),
	work: z.string().nullable(),
	/** `event` lines record what happened (user turn, abort, delivery, error), not decisions. */
	kind: z.union([DecisionKind, z.literal("event")]),
	reason: z.string(),
	detail: z.string(),
	figures: z.record(z.string(), z.number()).optional(),
	key: z.string().nullable().optional(),
	retryAt: z.number().nullable().optional(),
});
export type DecisionRecord = z.infer<typeof DecisionRecord>;
