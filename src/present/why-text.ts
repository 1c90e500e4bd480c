/**
 * What `boulder why` says for each reason code: user-facing text, kept here so
 * it can be read and reviewed as text. Each entry turns one decision-log line
 * into a headline ("did not continue", "continued", "stopped", …) and a
 * sentence in plain words, using the figures the engine logged with it.
 *
 * Every reason code of the policy and every event reason has an entry (the
 * types say so: a new code without words does not compile); an unknown code
 * (a newer boulder wrote the log) falls back to the engine's own detail.
 */
import type { DecisionRecord } from "../core/decision-record.js";
import type { EventReason } from "../core/event-reasons.js";
import type { ReasonCode } from "../core/policy.js";
import { formatWhen } from "./format-time.js";

export type Tone = "skip" | "go" | "stop" | "done" | "event" | "problem";

export interface Explanation {
	headline: string;
	text: string;
	tone: Tone;
}

interface Facts {
	record: DecisionRecord;
	figure(name: string): number | null;
	now: number;
}

type Words = (facts: Facts) => Explanation;

const skip = (text: string): Explanation => ({ headline: "did not continue", text, tone: "skip" });
const stopped = (text: string): Explanation => ({ headline: "stopped", text, tone: "stop" });

const DECISIONS: Record<ReasonCode, Words> = {
	disabled: ({ record }) => skip(record.detail),
	"not-eligible": ({ record }) =>
		skip(
			record.detail.startsWith("foreign state")
				? record.detail
				: `this session is not the one to continue: ${record.detail}`,
		),
	"no-open-work": ({ record, figure }) => {
		const blocked = figure("blocked") ?? 0;
		const total = figure("total") ?? 0;
		if (total > 0 && blocked > 0) return skip(`nothing left that can be done; ${blocked} blocked item(s) wait on you`);
		if (total > 0) return skip(`nothing is open (${record.detail})`);
		return skip(`no open items: ${record.detail}`);
	},
	"user-aborted": ({ record }) =>
		skip(
			record.detail.includes("interrupted")
				? "the user interrupted the agent; waiting for your next message"
				: "the run was interrupted; waiting for your next message",
		),
	"awaiting-user": ({ record }) => skip(`the agent is waiting for you: ${record.detail}`),
	"turn-unsafe": ({ record }) => skip(`not sure the last turn finished (${record.detail}); not continuing blind`),
	"context-overflow": () =>
		skip("the last turn ran out of context; a nudge would fail the same way (compact or start a new session)"),
	"background-busy": ({ record }) => skip(record.detail),
	duplicate: () => skip("a nudge was already sent for this turn"),
	backoff: ({ record, now }) =>
		skip(
			record.retryAt
				? `${record.detail}; trying again after ${formatWhen(record.retryAt, now)}`
				: `${record.detail}; waiting before trying again`,
		),
	"budget-turns": ({ record }) => stopped(`${record.detail}; your next message starts a new episode`),
	"budget-tokens": ({ record }) => stopped(`${record.detail}; your next message starts a new episode`),
	"budget-time": ({ record }) => stopped(`${record.detail}; your next message starts a new episode`),
	stagnation: ({ record, figure }) => {
		const count = figure("stagnation");
		return stopped(count !== null ? `the last ${count} nudges brought no progress` : record.detail);
	},
	"harness-cap": ({ record }) =>
		stopped(`the harness stopped it: ${record.detail}; your next message starts a new prompt`),
	continue: ({ record }) => ({ headline: "continued", text: record.detail, tone: "go" }),
	"verify-failed": ({ record }) => ({
		headline: "verify failed",
		text: `${record.detail.replace(/; sending the failure back$/, "")}; sent the failure back to the agent`,
		tone: "problem",
	}),
	verify: ({ record }) => ({ headline: "checking", text: record.detail, tone: "event" }),
	complete: ({ record }) => ({ headline: "completed", text: record.detail, tone: "done" }),
};

const event = (text: string): Explanation => ({ headline: "noted", text, tone: "event" });

/** Events: what happened around the decisions. */
const EVENTS: Record<EventReason, Words> = {
	"user-turn": () => event("you wrote; a new episode begins"),
	"user-aborted": ({ record }) =>
		event(record.detail.includes("interrupted") ? "you interrupted the agent" : "the run was interrupted"),
	"api-error": ({ record }) => ({ headline: "noted", text: record.detail, tone: "problem" }),
	"context-overflow": () => ({ headline: "noted", text: "the turn ran out of context", tone: "problem" }),
	compaction: () => event("the harness compacted the conversation"),
	"session-deleted": () => event("the harness deleted the session; its state is kept"),
	stopped: ({ record }) => ({ headline: "turned off", text: record.detail, tone: "stop" }),
	resumed: ({ record }) => ({ headline: "turned on", text: record.detail, tone: "go" }),
	"delivery-failed": ({ record }) => ({ headline: "noted", text: record.detail, tone: "problem" }),
	error: ({ record }) => ({
		headline: "error",
		text: `${record.detail} (the agent was let stop)`,
		tone: "problem",
	}),
	"config-invalid": ({ record }) => ({
		headline: "problem",
		text: `boulder's config is invalid, so nothing is continued until it is fixed: ${record.detail}; \`boulder doctor\` explains`,
		tone: "problem",
	}),
	"state-unreadable": ({ record }) => ({
		headline: "problem",
		text: `a state file could not be read: ${record.detail}; \`boulder doctor\` explains`,
		tone: "problem",
	}),
	"state-migrated": ({ record }) => event(`a state file was upgraded: ${record.detail}`),
	"work-started": ({ record }) => ({ headline: "started", text: record.detail, tone: "go" }),
	"work-paused": ({ record }) => ({ headline: "paused", text: record.detail, tone: "stop" }),
	"work-resumed": ({ record }) => ({ headline: "resumed", text: record.detail, tone: "go" }),
	"work-abandoned": ({ record }) => ({ headline: "abandoned", text: record.detail, tone: "stop" }),
	"work-trusted": ({ record }) => ({ headline: "trusted", text: record.detail, tone: "go" }),
	"orchestrator-edit-warned": ({ record }) => ({
		headline: "warned",
		text: `${record.detail}; the model was told to delegate the item instead (\`orchestrate.edits: deny\` refuses such edits)`,
		tone: "problem",
	}),
	"orchestrator-edit-denied": ({ record }) => ({
		headline: "refused an edit",
		text: `${record.detail}; the model was told why and to delegate the item instead`,
		tone: "stop",
	}),
	"subagent-returned": ({ record }) => event(record.detail),
	"todo-reminder": ({ record }) => ({
		headline: "reminded",
		text: `${record.detail} (on the tool's result, not a turn of its own; \`hygiene.editsBeforeReminder\` sets how many changes)`,
		tone: "event",
	}),
	"resume-context": ({ record }) => ({
		headline: "gave context",
		text: `${record.detail}; context only: no nudge, no new turn, nothing spent from the budgets`,
		tone: "event",
	}),
};

export function explain(record: DecisionRecord, now: number): Explanation {
	const facts: Facts = {
		record,
		now,
		figure: (name) => {
			const value = record.figures?.[name];
			return typeof value === "number" ? value : null;
		},
	};
	const table: Readonly<Record<string, Words>> = record.kind === "event" ? EVENTS : DECISIONS;
	const words = Object.hasOwn(table, record.reason) ? table[record.reason] : undefined;
	if (words) return words(facts);
	return { headline: record.kind === "event" ? "noted" : record.kind, text: record.detail, tone: "event" };
}

/** Whether the wording has an entry for this code (tests pin that every policy reason does). */
export function hasWording(kind: DecisionRecord["kind"], reason: string): boolean {
	return Object.hasOwn(kind === "event" ? EVENTS : DECISIONS, reason);
}
