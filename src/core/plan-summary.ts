/**
 * What a status view shows of a plan: its counts, its next item, whether it
 * has errors, whether it asks for orchestrate mode, and its items' titles
 * (which order the subagents of an orchestrated work). Small and plain, so
 * `boulder status` can keep it between runs instead of parsing every plan
 * of a fleet again (`state/plan-summaries.ts`); a kept one leaves the titles
 * out unless a work needs them, since they are most of its size.
 */
import { clipTitle } from "./clip.js";
import type { ParsedPlan } from "./plan-parser.js";
import { z } from "./zod.js";

/**
 * The shape of a summary and of what the parser finds in a plan: a kept
 * summary of another format is never used. Bump it whenever either changes.
 */
export const PLAN_SUMMARY_FORMAT = 1;

const count = z.lazy(() => z.int().check(z.minimum(0)));

export const PlanProgress = z.lazy(() =>
	z.object({
		total: count,
		done: count,
		open: count,
		blocked: count,
		cancelled: count,
	}),
);
export type PlanProgress = z.infer<typeof PlanProgress>;

export const PlanSummary = z.lazy(() =>
	z.object({
		progress: PlanProgress,
		next: z.nullable(z.string()),
		/** Set when the plan has errors (the summary counts what could be read). */
		problem: z.nullable(z.string()),
		orchestrate: z.boolean(),
		titles: z.optional(z.array(z.string())),
	}),
);
export type PlanSummary = z.infer<typeof PlanSummary>;

export function summarizePlan(plan: ParsedPlan): PlanSummary {
	const { total, completed, open, blocked, cancelled } = plan.counts;
	const problem =
		plan.errors.length > 0 ? `the plan has ${plan.errors.length} error(s); \`boulder plans\` lists them` : null;
	return {
		progress: { total, done: completed, open, blocked, cancelled },
		next: plan.next ? clipTitle(plan.next.title) : null,
		problem,
		orchestrate: plan.frontMatter.mode === "orchestrate",
		titles: plan.items.map((item) => item.title),
	};
}
