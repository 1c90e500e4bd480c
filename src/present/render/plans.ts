/**
 * What `boulder plans` prints: one block per plan with its progress on
 * stdout (`renderPlans`); what is wrong with them, for stderr (`planProblemLines`).
 */

import type { PlanSummary } from "../../engine/plan-list.js";
import type { Style } from "../style.js";
import { progressText } from "./progress.js";

export function renderPlans(plans: readonly PlanSummary[], c: Style): string {
	if (plans.length === 0) {
		return c.dim(
			"No plans found: no work was started here and .boulder/plans/ has none. Name plan files or folders: `boulder plans PLAN.md docs/`.",
		);
	}
	const shown = plans.filter((plan) => !plan.problem);
	return shown.length === 0 ? "" : shown.map((plan) => renderPlan(plan, c)).join("\n");
}

/** Each plan that could not be read, and each error of a plan that was, one line each. */
export function planProblemLines(plans: readonly PlanSummary[]): string[] {
	const lines: string[] = [];
	for (const plan of plans) {
		if (plan.problem) lines.push(`${plan.path}: ${plan.problem}`);
		for (const error of plan.errors) lines.push(`${plan.path}:${error.line}: ${error.reason}`);
	}
	return lines;
}

function renderPlan(plan: PlanSummary, c: Style): string {
	const progress = plan.progress ? progressText(plan.progress) : "";
	const work = plan.work ? `  ${c.cyan(`${plan.work.status} as ${plan.work.id}`)}` : "";
	const mark = plan.errors.length > 0 ? c.red("✗") : plan.progress?.open === 0 ? c.green("✓") : "•";
	const lines = [`${mark} ${c.bold(plan.name ?? plan.path)}  ${c.dim(plan.path)}  ${progress}${work}`];
	if (plan.progress?.total === 0) lines.push(c.yellow("    no top-level checkbox items (- [ ] …) to work through"));
	if (plan.next) lines.push(`    next  ${plan.next}`);
	if (plan.errors.length > 0) {
		lines.push(
			c.red(`    ${plan.errors.length} error${plan.errors.length === 1 ? "" : "s"}: see the lines above (stderr)`),
		);
	}
	return lines.join("\n");
}
