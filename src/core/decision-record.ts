/**
 * One line of the decision log: every decision, skip or inject, with its
 * reason and the figures behind it. `boulder why` and `boulder log` read it.
 *
 * `reason` is read as a plain string (a newer boulder may have logged codes
 * this one does not know); it is written only through `eventRecord` or from a
 * typed decision.
 */

import type { EventReason } from "./event-reasons.js";
import { exactly, fields, handCheck, nullOr, num, oneOf, optional, recordOf, str } from "./hand-check.js";
import { DecisionKind } from "./turns.js";
import { z } from "./zod.js";

export const DecisionRecord = z.lazy(() =>
	z.object({
		v: z.literal(1),
		at: z.number(),
		worktree: z.string(),
		scope: z.nullable(z.string()),
		harness: z.nullable(z.string()),
		session: z.nullable(z.string()),
		work: z.nullable(z.string()),
		/** `event` lines record what happened (user turn, abort, delivery, error), not decisions. */
		kind: z.union([DecisionKind, z.literal("event")]),
		reason: z.string(),
		detail: z.string(),
		figures: z.optional(z.record(z.string(), z.number())),
		key: z.optional(z.nullable(z.string())),
		retryAt: z.optional(z.nullable(z.number())),
		/** The harness's id of the user prompt the turn answers (Claude Code's `prompt_id`), to join its own telemetry. */
		promptId: z.optional(z.string()),
	}),
);
export type DecisionRecord = z.infer<typeof DecisionRecord>;

/**
 * `DecisionRecord`'s well-formed case by hand (`hand-check.ts`): every hook
 * event appends one. Exactly what the schema returns, or undefined for the schema.
 */
export const handDecisionRecord = handCheck((value): DecisionRecord => {
	const record = fields(value, [
		"v",
		"at",
		"worktree",
		"scope",
		"harness",
		"session",
		"work",
		"kind",
		"reason",
		"detail",
		"figures",
		"key",
		"retryAt",
		"promptId",
	]);
	return {
		v: exactly(record.v, 1),
		at: num(record.at),
		worktree: str(record.worktree),
		scope: nullOr(record.scope, str),
		harness: nullOr(record.harness, str),
		session: nullOr(record.session, str),
		work: nullOr(record.work, str),
		kind: oneOf(record.kind, ["inject", "verify", "complete", "skip", "event"]),
		reason: str(record.reason),
		detail: str(record.detail),
		...optional(record, "figures", (figures) => recordOf(figures, num)),
		...optional(record, "key", (key) => nullOr(key, str)),
		...optional(record, "retryAt", (at) => nullOr(at, num)),
		...optional(record, "promptId", str),
	};
});

export interface EventFields {
	at: number;
	worktree: string;
	reason: EventReason;
	detail: string;
	scope?: string | null;
	harness?: string | null;
	session?: string | null;
	work?: string | null;
	key?: string | null;
	promptId?: string | null;
}

/** The one factory of event lines: every writer of an event goes through it. */
export function eventRecord(fields: EventFields): DecisionRecord {
	const record: DecisionRecord = {
		v: 1,
		at: fields.at,
		worktree: fields.worktree,
		scope: fields.scope ?? null,
		harness: fields.harness ?? null,
		session: fields.session ?? null,
		work: fields.work ?? null,
		kind: "event",
		reason: fields.reason,
		detail: fields.detail,
	};
	if (fields.key) record.key = fields.key;
	if (fields.promptId) record.promptId = fields.promptId;
	return record;
}
